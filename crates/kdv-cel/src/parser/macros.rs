//! Macro expansion at parse time, producing exactly cel-go's expansions (node shapes, the
//! `@result` accumulator, and expression ids allocated in cel-go's order).

use super::grammar::Parser;
use crate::ast::{Comprehension, Expr, ExprId, ExprKind, FieldInit, Literal, MapEntry, Span};

/// Accumulator variable of the standard macros.
pub const ACCUMULATOR: &str = "@result";
/// cel-go's legacy accumulator name, still rejected as an iteration variable.
const LEGACY_ACCUMULATOR: &str = "__result__";
/// Iteration variable of comprehensions that only bind a value (`cel.bind`, `optMap`, ...).
const UNUSED_ITER_VAR: &str = "#unused";

/// A set of macros the parser expands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Macros(u32);

impl Macros {
    /// No macros: every call stays a call.
    pub const NONE: Macros = Macros(0);
    /// `has(e.f)`.
    pub const HAS: Macros = Macros(1);
    /// `e.all(x, p)`.
    pub const ALL: Macros = Macros(1 << 1);
    /// `e.exists(x, p)`.
    pub const EXISTS: Macros = Macros(1 << 2);
    /// `e.exists_one(x, p)`.
    pub const EXISTS_ONE: Macros = Macros(1 << 3);
    /// `e.existsOne(x, p)`: the camel-case spelling of `exists_one` (cel-go v0.23+, so
    /// Kubernetes 1.33+).
    pub const EXISTS_ONE_CAMEL: Macros = Macros(1 << 14);
    /// `e.map(x, t)` and `e.map(x, p, t)`.
    pub const MAP: Macros = Macros(1 << 4);
    /// `e.filter(x, p)`.
    pub const FILTER: Macros = Macros(1 << 5);
    /// `opt.optMap(x, t)` (optional library).
    pub const OPT_MAP: Macros = Macros(1 << 6);
    /// `opt.optFlatMap(x, t)` (optional library, version 1).
    pub const OPT_FLAT_MAP: Macros = Macros(1 << 7);
    /// Two-variable comprehensions: `all`, `exists`, `existsOne`/`exists_one` with three
    /// arguments, `transformList`, `transformMap`, `transformMapEntry`.
    pub const TWO_VAR: Macros = Macros(1 << 8);
    /// `l.sortBy(x, key)` (lists extension, version 2+).
    pub const SORT_BY: Macros = Macros(1 << 9);
    /// `math.greatest(...)`, `math.least(...)` (math extension).
    pub const MATH: Macros = Macros(1 << 10);
    /// `cel.bind(v, init, expr)` (bindings extension).
    pub const BIND: Macros = Macros(1 << 11);
    /// `proto.getExt(msg, ext.name)`, `proto.hasExt(msg, ext.name)` (protos extension).
    pub const PROTOS: Macros = Macros(1 << 12);
    /// `cel.block([...], e)`, `cel.index(n)`, `cel.iterVar(d, u)`, `cel.accuVar(d, u)`: the
    /// block test library of cel-go's conformance runner.
    pub const BLOCK: Macros = Macros(1 << 13);

    /// cel-go's standard macros (`parser.AllMacros`).
    pub const STANDARD: Macros = Macros(
        Self::HAS.0
            | Self::ALL.0
            | Self::EXISTS.0
            | Self::EXISTS_ONE.0
            | Self::EXISTS_ONE_CAMEL.0
            | Self::MAP.0
            | Self::FILTER.0,
    );
    /// The optional library's macros.
    pub const OPTIONAL: Macros = Macros(Self::OPT_MAP.0 | Self::OPT_FLAT_MAP.0);
    /// What the newest Kubernetes CEL environment expands: standard, optional, two-variable
    /// comprehensions (1.32+) and `sortBy` (lists extension v3, 1.34+); each release's own
    /// set is its environment's (`kdv_cel::k8s::env_for`).
    pub const KUBERNETES: Macros =
        Macros(Self::STANDARD.0 | Self::OPTIONAL.0 | Self::TWO_VAR.0 | Self::SORT_BY.0);
    /// Every macro this parser knows (cel-go's conformance runner enables all but `sortBy`).
    pub const ALL_MACROS: Macros =
        Macros(Self::KUBERNETES.0 | Self::MATH.0 | Self::BIND.0 | Self::PROTOS.0 | Self::BLOCK.0);

    /// Both sets.
    pub const fn union(self, other: Macros) -> Macros {
        Macros(self.0 | other.0)
    }

    /// True when every macro of `other` is in `self`.
    pub const fn contains(self, other: Macros) -> bool {
        self.0 & other.0 == other.0
    }
}

impl Default for Macros {
    fn default() -> Macros {
        Macros::KUBERNETES
    }
}

/// What happened to a call.
pub(crate) enum Expansion {
    /// Not a macro (or the macro declined): the call parts handed back.
    NotMacro(Option<Expr>, Vec<Expr>),
    /// The expansion.
    Expanded(Expr),
    /// A macro with malformed arguments.
    Error { span: Span, message: String },
}

#[derive(Clone, Copy)]
enum Kind {
    Has,
    All,
    Exists,
    ExistsOne,
    Map,
    Filter,
    OptMap,
    OptFlatMap,
    All2,
    Exists2,
    ExistsOne2,
    TransformList,
    TransformMap,
    TransformMapEntry,
    SortBy,
    Greatest,
    Least,
    Bind,
    GetExt,
    HasExt,
    Block,
    BlockIndex,
    IterVar,
    AccuVar,
}

fn lookup(enabled: Macros, function: &str, argc: usize, receiver: bool) -> Option<Kind> {
    let (kind, set) = match (function, argc, receiver) {
        ("has", 1, false) => (Kind::Has, Macros::HAS),
        ("all", 2, true) => (Kind::All, Macros::ALL),
        ("exists", 2, true) => (Kind::Exists, Macros::EXISTS),
        ("exists_one", 2, true) => (Kind::ExistsOne, Macros::EXISTS_ONE),
        ("existsOne", 2, true) => (Kind::ExistsOne, Macros::EXISTS_ONE_CAMEL),
        ("map", 2 | 3, true) => (Kind::Map, Macros::MAP),
        ("filter", 2, true) => (Kind::Filter, Macros::FILTER),
        ("optMap", 2, true) => (Kind::OptMap, Macros::OPT_MAP),
        ("optFlatMap", 2, true) => (Kind::OptFlatMap, Macros::OPT_FLAT_MAP),
        ("all", 3, true) => (Kind::All2, Macros::TWO_VAR),
        ("exists", 3, true) => (Kind::Exists2, Macros::TWO_VAR),
        ("exists_one" | "existsOne", 3, true) => (Kind::ExistsOne2, Macros::TWO_VAR),
        ("transformList", 3 | 4, true) => (Kind::TransformList, Macros::TWO_VAR),
        ("transformMap", 3 | 4, true) => (Kind::TransformMap, Macros::TWO_VAR),
        ("transformMapEntry", 3 | 4, true) => (Kind::TransformMapEntry, Macros::TWO_VAR),
        ("sortBy", 2, true) => (Kind::SortBy, Macros::SORT_BY),
        ("greatest", _, true) => (Kind::Greatest, Macros::MATH),
        ("least", _, true) => (Kind::Least, Macros::MATH),
        ("bind", 3, true) => (Kind::Bind, Macros::BIND),
        ("getExt", 2, true) => (Kind::GetExt, Macros::PROTOS),
        ("hasExt", 2, true) => (Kind::HasExt, Macros::PROTOS),
        ("block", 2, true) => (Kind::Block, Macros::BLOCK),
        ("index", 1, true) => (Kind::BlockIndex, Macros::BLOCK),
        ("iterVar", 2, true) => (Kind::IterVar, Macros::BLOCK),
        ("accuVar", 2, true) => (Kind::AccuVar, Macros::BLOCK),
        _ => return None,
    };
    enabled.contains(set).then_some(kind)
}

/// Expands `function(args)` / `target.function(args)` if it is an enabled macro.
pub(crate) fn expand(
    p: &mut Parser<'_>,
    enabled: Macros,
    call_id: ExprId,
    span: Span,
    function: &str,
    target: Option<Expr>,
    args: Vec<Expr>,
) -> Expansion {
    let Some(kind) = lookup(enabled, function, args.len(), target.is_some()) else {
        return Expansion::NotMacro(target, args);
    };
    // Namespaced macros decline unless the receiver is exactly their namespace identifier.
    let namespace = match kind {
        Kind::Greatest | Kind::Least => Some("math"),
        Kind::Bind | Kind::Block | Kind::BlockIndex | Kind::IterVar | Kind::AccuVar => Some("cel"),
        Kind::GetExt | Kind::HasExt => Some("proto"),
        _ => None,
    };
    if let Some(ns) = namespace
        && !matches!(&target, Some(Expr { kind: ExprKind::Ident(n), .. }) if n == ns)
    {
        return Expansion::NotMacro(target, args);
    }
    let _ = call_id;
    let mut h = Helper { p, span };
    let result = match kind {
        Kind::Has => h.has(args),
        Kind::All | Kind::Exists | Kind::ExistsOne => h.quantifier(kind, target, args),
        Kind::Map => h.map(target, args),
        Kind::Filter => h.filter(target, args),
        Kind::OptMap | Kind::OptFlatMap => h.opt_map(kind, target, args),
        Kind::All2 | Kind::Exists2 | Kind::ExistsOne2 => h.quantifier2(kind, target, args),
        Kind::TransformList | Kind::TransformMap | Kind::TransformMapEntry => {
            h.transform(kind, target, args)
        }
        Kind::SortBy => h.sort_by(target, args),
        Kind::Greatest | Kind::Least => h.math(kind, target, args),
        Kind::Bind => h.bind(args),
        Kind::GetExt | Kind::HasExt => h.proto_ext(kind, args),
        Kind::Block => h.block(args),
        Kind::BlockIndex | Kind::IterVar | Kind::AccuVar => h.block_var(kind, args),
    };
    match result {
        Ok(e) => Expansion::Expanded(e),
        Err((span, message)) => Expansion::Error { span, message },
    }
}

type MResult = Result<Expr, (Span, String)>;

/// Builds expansion nodes with fresh ids located at the macro call.
struct Helper<'a, 'p> {
    p: &'a mut Parser<'p>,
    span: Span,
}

fn missing() -> Expr {
    Expr {
        id: 0,
        kind: ExprKind::Literal(Literal::Null),
        span: Span::default(),
    }
}

impl Helper<'_, '_> {
    fn id(&mut self) -> ExprId {
        self.p.new_id()
    }

    fn node(&mut self, kind: ExprKind) -> Expr {
        let id = self.id();
        Expr {
            id,
            kind,
            span: self.span,
        }
    }

    fn lit(&mut self, l: Literal) -> Expr {
        self.node(ExprKind::Literal(l))
    }

    fn ident(&mut self, name: &str) -> Expr {
        self.node(ExprKind::Ident(name.to_string()))
    }

    fn accu(&mut self) -> Expr {
        self.ident(ACCUMULATOR)
    }

    fn call(&mut self, function: &str, args: Vec<Expr>) -> Expr {
        self.node(ExprKind::Call {
            target: None,
            function: function.to_string(),
            args,
        })
    }

    fn member_call(&mut self, function: &str, target: Expr, args: Vec<Expr>) -> Expr {
        self.node(ExprKind::Call {
            target: Some(Box::new(target)),
            function: function.to_string(),
            args,
        })
    }

    fn list(&mut self, elements: Vec<Expr>) -> Expr {
        self.node(ExprKind::List {
            elements,
            optional_indices: Vec::new(),
        })
    }

    fn empty_map(&mut self) -> Expr {
        self.node(ExprKind::Map {
            entries: Vec::new(),
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn comprehension(
        &mut self,
        iter_range: Expr,
        iter_var: &str,
        iter_var2: Option<&str>,
        accu_init: Expr,
        loop_condition: Expr,
        loop_step: Expr,
        result: Expr,
    ) -> Expr {
        self.comprehension_with_accu(
            iter_range,
            iter_var,
            iter_var2,
            ACCUMULATOR,
            accu_init,
            loop_condition,
            loop_step,
            result,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn comprehension_with_accu(
        &mut self,
        iter_range: Expr,
        iter_var: &str,
        iter_var2: Option<&str>,
        accu_var: &str,
        accu_init: Expr,
        loop_condition: Expr,
        loop_step: Expr,
        result: Expr,
    ) -> Expr {
        self.node(ExprKind::Comprehension(Box::new(Comprehension {
            iter_var: iter_var.to_string(),
            iter_var2: iter_var2.map(str::to_string),
            iter_range,
            accu_var: accu_var.to_string(),
            accu_init,
            loop_condition,
            loop_step,
            result,
        })))
    }

    /// A copy of `e` with fresh ids (pre-order, cel-go's `Copy`), keeping source positions.
    /// The copied trees are macro receivers; their depth is bounded by the parser limits.
    fn copy(&mut self, e: &Expr) -> Expr {
        if self.p.too_many_nodes() {
            // The parse fails anyway; stop doubling the tree.
            return self.lit(Literal::Null);
        }
        let id = self.id();
        let kind = match &e.kind {
            ExprKind::Literal(l) => ExprKind::Literal(l.clone()),
            ExprKind::Ident(n) => ExprKind::Ident(n.clone()),
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => ExprKind::Select {
                operand: Box::new(self.copy(operand)),
                field: field.clone(),
                test_only: *test_only,
            },
            ExprKind::Call {
                target,
                function,
                args,
            } => {
                let args: Vec<Expr> = args.iter().map(|a| self.copy(a)).collect();
                let target = target.as_ref().map(|t| Box::new(self.copy(t)));
                ExprKind::Call {
                    target,
                    function: function.clone(),
                    args,
                }
            }
            ExprKind::List {
                elements,
                optional_indices,
            } => ExprKind::List {
                elements: elements.iter().map(|x| self.copy(x)).collect(),
                optional_indices: optional_indices.clone(),
            },
            ExprKind::Map { entries } => ExprKind::Map {
                entries: entries
                    .iter()
                    .map(|en| {
                        let id = self.id();
                        MapEntry {
                            id,
                            key: self.copy(&en.key),
                            value: self.copy(&en.value),
                            optional: en.optional,
                            span: en.span,
                        }
                    })
                    .collect(),
            },
            ExprKind::Struct { type_name, fields } => ExprKind::Struct {
                type_name: type_name.clone(),
                fields: fields
                    .iter()
                    .map(|f| {
                        let id = self.id();
                        FieldInit {
                            id,
                            field: f.field.clone(),
                            value: self.copy(&f.value),
                            optional: f.optional,
                            span: f.span,
                        }
                    })
                    .collect(),
            },
            ExprKind::Comprehension(c) => {
                let iter_range = self.copy(&c.iter_range);
                let accu_init = self.copy(&c.accu_init);
                let loop_condition = self.copy(&c.loop_condition);
                let loop_step = self.copy(&c.loop_step);
                let result = self.copy(&c.result);
                ExprKind::Comprehension(Box::new(Comprehension {
                    iter_var: c.iter_var.clone(),
                    iter_var2: c.iter_var2.clone(),
                    iter_range,
                    accu_var: c.accu_var.clone(),
                    accu_init,
                    loop_condition,
                    loop_step,
                    result,
                }))
            }
        };
        Expr {
            id,
            kind,
            span: e.span,
        }
    }

    fn has(&mut self, mut args: Vec<Expr>) -> MResult {
        let arg = args.pop().unwrap_or_else(missing);
        match arg.kind {
            ExprKind::Select { operand, field, .. } => Ok(self.node(ExprKind::Select {
                operand,
                field,
                test_only: true,
            })),
            _ => Err((arg.span, "invalid argument to has() macro".to_string())),
        }
    }

    fn quantifier(&mut self, kind: Kind, target: Option<Expr>, args: Vec<Expr>) -> MResult {
        let mut it = args.into_iter();
        let var = it.next().unwrap_or_else(missing);
        let pred = it.next().unwrap_or_else(missing);
        let v = simple_name(&var, "argument must be a simple name")?;
        let range = target.unwrap_or_else(missing);
        Ok(match kind {
            Kind::All => {
                let init = self.lit(Literal::Bool(true));
                let a = self.accu();
                let cond = self.call("@not_strictly_false", vec![a]);
                let a = self.accu();
                let step = self.call("_&&_", vec![a, pred]);
                let result = self.accu();
                self.comprehension(range, &v, None, init, cond, step, result)
            }
            Kind::Exists => {
                let init = self.lit(Literal::Bool(false));
                let a = self.accu();
                let not = self.call("!_", vec![a]);
                let cond = self.call("@not_strictly_false", vec![not]);
                let a = self.accu();
                let step = self.call("_||_", vec![a, pred]);
                let result = self.accu();
                self.comprehension(range, &v, None, init, cond, step, result)
            }
            _ => {
                let init = self.lit(Literal::Int(0));
                let cond = self.lit(Literal::Bool(true));
                let a = self.accu();
                let one = self.lit(Literal::Int(1));
                let add = self.call("_+_", vec![a, one]);
                let a = self.accu();
                let step = self.call("_?_:_", vec![pred, add, a]);
                let a = self.accu();
                let one = self.lit(Literal::Int(1));
                let result = self.call("_==_", vec![a, one]);
                self.comprehension(range, &v, None, init, cond, step, result)
            }
        })
    }

    fn map(&mut self, target: Option<Expr>, args: Vec<Expr>) -> MResult {
        let range = target.unwrap_or_else(missing);
        self.make_map(range, args)
    }

    /// cel-go's `MakeMap` (shared by `map` and `sortBy`).
    fn make_map(&mut self, range: Expr, args: Vec<Expr>) -> MResult {
        let n = args.len();
        let mut it = args.into_iter();
        let var = it.next().unwrap_or_else(missing);
        let v = simple_name(&var, "argument is not an identifier")?;
        let (filter, f) = if n == 3 {
            let filter = it.next().unwrap_or_else(missing);
            (Some(filter), it.next().unwrap_or_else(missing))
        } else {
            (None, it.next().unwrap_or_else(missing))
        };
        let init = self.list(Vec::new());
        let cond = self.lit(Literal::Bool(true));
        let a = self.accu();
        let l = self.list(vec![f]);
        let mut step = self.call("_+_", vec![a, l]);
        if let Some(filter) = filter {
            let a = self.accu();
            step = self.call("_?_:_", vec![filter, step, a]);
        }
        let result = self.accu();
        Ok(self.comprehension(range, &v, None, init, cond, step, result))
    }

    fn filter(&mut self, target: Option<Expr>, args: Vec<Expr>) -> MResult {
        let mut it = args.into_iter();
        let var = it.next().unwrap_or_else(missing);
        let pred = it.next().unwrap_or_else(missing);
        let v = simple_name(&var, "argument is not an identifier")?;
        let range = target.unwrap_or_else(missing);
        let init = self.list(Vec::new());
        let cond = self.lit(Literal::Bool(true));
        let a = self.accu();
        let l = self.list(vec![var]);
        let step = self.call("_+_", vec![a, l]);
        let a = self.accu();
        let step = self.call("_?_:_", vec![pred, step, a]);
        let result = self.accu();
        Ok(self.comprehension(range, &v, None, init, cond, step, result))
    }

    fn opt_map(&mut self, kind: Kind, target: Option<Expr>, args: Vec<Expr>) -> MResult {
        let mut it = args.into_iter();
        let var = it.next().unwrap_or_else(missing);
        let map_expr = it.next().unwrap_or_else(missing);
        let message = if matches!(kind, Kind::OptMap) {
            "optMap() variable name must be a simple identifier"
        } else {
            "optFlatMap() variable name must be a simple identifier"
        };
        let ExprKind::Ident(v) = &var.kind else {
            return Err((var.span, message.to_string()));
        };
        let v = v.clone();
        let target = target.unwrap_or_else(missing);
        // cel-go copies the receiver after building `hasValue()` and the empty range (the
        // copy is made from the receiver inside `hasValue()`; beyond the node budget `copy`
        // stops, the parse fails anyway).
        let has_value = self.member_call("hasValue", target, Vec::new());
        let range = self.list(Vec::new());
        let copy = match &has_value.kind {
            ExprKind::Call {
                target: Some(receiver),
                ..
            } => self.copy(receiver),
            _ => self.lit(Literal::Null),
        };
        let value = self.member_call("value", copy, Vec::new());
        let cond = self.lit(Literal::Bool(false));
        let step = self.ident(&v);
        let compr = self.comprehension_with_accu(
            range,
            UNUSED_ITER_VAR,
            None,
            &v,
            value,
            cond,
            step,
            map_expr,
        );
        let present = if matches!(kind, Kind::OptMap) {
            self.call("optional.of", vec![compr])
        } else {
            compr
        };
        let none = self.call("optional.none", Vec::new());
        Ok(self.call("_?_:_", vec![has_value, present, none]))
    }

    /// Iteration variables of the two-variable macros.
    fn iter_vars(&mut self, a0: &Expr, a1: &Expr) -> Result<(String, String), (Span, String)> {
        let v1 = extract_name(a0).ok_or((a0.span, "argument must be a simple name".to_string()))?;
        let v2 = extract_name(a1).ok_or((a1.span, "argument must be a simple name".to_string()))?;
        if v1 == v2 {
            return Err((a1.span, format!("duplicate variable name: {v1}")));
        }
        if v1 == ACCUMULATOR || v1 == LEGACY_ACCUMULATOR {
            return Err((
                a0.span,
                "iteration variable overwrites accumulator variable".to_string(),
            ));
        }
        if v2 == ACCUMULATOR || v2 == LEGACY_ACCUMULATOR {
            return Err((
                a1.span,
                "iteration variable overwrites accumulator variable".to_string(),
            ));
        }
        Ok((v1, v2))
    }

    fn quantifier2(&mut self, kind: Kind, target: Option<Expr>, args: Vec<Expr>) -> MResult {
        let mut it = args.into_iter();
        let a0 = it.next().unwrap_or_else(missing);
        let a1 = it.next().unwrap_or_else(missing);
        let pred = it.next().unwrap_or_else(missing);
        let (v1, v2) = self.iter_vars(&a0, &a1)?;
        let range = target.unwrap_or_else(missing);
        Ok(match kind {
            Kind::All2 => {
                let init = self.lit(Literal::Bool(true));
                let a = self.accu();
                let cond = self.call("@not_strictly_false", vec![a]);
                let a = self.accu();
                let step = self.call("_&&_", vec![a, pred]);
                let result = self.accu();
                self.comprehension(range, &v1, Some(&v2), init, cond, step, result)
            }
            Kind::Exists2 => {
                let init = self.lit(Literal::Bool(false));
                let a = self.accu();
                let not = self.call("!_", vec![a]);
                let cond = self.call("@not_strictly_false", vec![not]);
                let a = self.accu();
                let step = self.call("_||_", vec![a, pred]);
                let result = self.accu();
                self.comprehension(range, &v1, Some(&v2), init, cond, step, result)
            }
            _ => {
                let init = self.lit(Literal::Int(0));
                let cond = self.lit(Literal::Bool(true));
                let a = self.accu();
                let one = self.lit(Literal::Int(1));
                let add = self.call("_+_", vec![a, one]);
                let a = self.accu();
                let step = self.call("_?_:_", vec![pred, add, a]);
                let a = self.accu();
                let one = self.lit(Literal::Int(1));
                let result = self.call("_==_", vec![a, one]);
                self.comprehension(range, &v1, Some(&v2), init, cond, step, result)
            }
        })
    }

    fn transform(&mut self, kind: Kind, target: Option<Expr>, args: Vec<Expr>) -> MResult {
        let n = args.len();
        let mut it = args.into_iter();
        let a0 = it.next().unwrap_or_else(missing);
        let a1 = it.next().unwrap_or_else(missing);
        let (v1, v2) = self.iter_vars(&a0, &a1)?;
        let (filter, transform) = if n == 4 {
            let f = it.next().unwrap_or_else(missing);
            (Some(f), it.next().unwrap_or_else(missing))
        } else {
            (None, it.next().unwrap_or_else(missing))
        };
        let range = target.unwrap_or_else(missing);
        let mut step = match kind {
            Kind::TransformList => {
                let a = self.accu();
                let l = self.list(vec![transform]);
                self.call("_+_", vec![a, l])
            }
            Kind::TransformMap => {
                let a = self.accu();
                let k = self.ident(&v1);
                self.call("cel.@mapInsert", vec![a, k, transform])
            }
            _ => {
                let a = self.accu();
                self.call("cel.@mapInsert", vec![a, transform])
            }
        };
        if let Some(filter) = filter {
            let a = self.accu();
            step = self.call("_?_:_", vec![filter, step, a]);
        }
        let init = if matches!(kind, Kind::TransformList) {
            self.list(Vec::new())
        } else {
            self.empty_map()
        };
        let cond = self.lit(Literal::Bool(true));
        let result = self.accu();
        Ok(self.comprehension(range, &v1, Some(&v2), init, cond, step, result))
    }

    fn sort_by(&mut self, target: Option<Expr>, args: Vec<Expr>) -> MResult {
        let var_ident = self.ident("@__sortBy_input__");
        let target = target.unwrap_or_else(missing);
        if !matches!(
            target.kind,
            ExprKind::List { .. }
                | ExprKind::Select { .. }
                | ExprKind::Ident(_)
                | ExprKind::Comprehension(_)
                | ExprKind::Call { .. }
        ) {
            return Err((
                target.span,
                "sortBy can only be applied to a list, identifier, comprehension, call or select expression"
                    .to_string(),
            ));
        }
        let range = self.copy(&var_ident);
        let keys = self.make_map(range, args)?;
        let input = self.copy(&var_ident);
        let call = self.member_call("@sortByAssociatedKeys", input, vec![keys]);
        let empty = self.list(Vec::new());
        let cond = self.lit(Literal::Bool(false));
        Ok(self.comprehension_with_accu(
            empty,
            UNUSED_ITER_VAR,
            None,
            "@__sortBy_input__",
            target,
            cond,
            var_ident,
            call,
        ))
    }

    fn math(&mut self, kind: Kind, target: Option<Expr>, args: Vec<Expr>) -> MResult {
        let (name, function) = if matches!(kind, Kind::Greatest) {
            ("math.greatest()", "math.@max")
        } else {
            ("math.least()", "math.@min")
        };
        match args.len() {
            0 => {
                let span = target.map(|t| t.span).unwrap_or(self.span);
                Err((span, format!("{name} requires at least one argument")))
            }
            1 => {
                if is_numeric_list_literal(&args[0]) || is_numeric_arg(&args[0]) {
                    Ok(self.call(function, args))
                } else {
                    Err((
                        args[0].span,
                        format!("{name} invalid single argument value"),
                    ))
                }
            }
            n => {
                if let Some(bad) = args.iter().find(|a| !is_numeric_arg(a)) {
                    return Err((
                        bad.span,
                        format!("{name} simple literal arguments must be numeric"),
                    ));
                }
                if n == 2 {
                    Ok(self.call(function, args))
                } else {
                    let l = self.list(args);
                    Ok(self.call(function, vec![l]))
                }
            }
        }
    }

    fn bind(&mut self, args: Vec<Expr>) -> MResult {
        let mut it = args.into_iter();
        let var = it.next().unwrap_or_else(missing);
        let init = it.next().unwrap_or_else(missing);
        let body = it.next().unwrap_or_else(missing);
        let ExprKind::Ident(v) = &var.kind else {
            return Err((
                var.span,
                "cel.bind() variable names must be simple identifiers".to_string(),
            ));
        };
        let v = v.clone();
        let range = self.list(Vec::new());
        let cond = self.lit(Literal::Bool(false));
        let step = self.ident(&v);
        Ok(self.comprehension_with_accu(range, UNUSED_ITER_VAR, None, &v, init, cond, step, body))
    }
}

impl Helper<'_, '_> {
    fn proto_ext(&mut self, kind: Kind, args: Vec<Expr>) -> MResult {
        let mut it = args.into_iter();
        let msg = it.next().unwrap_or_else(missing);
        let ext = it.next().unwrap_or_else(missing);
        let name = match &ext.kind {
            ExprKind::Select { .. } => dotted_name(&ext),
            _ => None,
        };
        let Some(field) = name else {
            return Err((ext.span, "invalid extension field".to_string()));
        };
        Ok(self.node(ExprKind::Select {
            operand: Box::new(msg),
            field,
            test_only: matches!(kind, Kind::HasExt),
        }))
    }

    fn block(&mut self, args: Vec<Expr>) -> MResult {
        if !matches!(args.first().map(|a| &a.kind), Some(ExprKind::List { .. })) {
            let span = args.first().map_or(self.span, |a| a.span);
            return Err((
                span,
                "cel.block requires the first arg to be a list literal".to_string(),
            ));
        }
        Ok(self.call("cel.@block", args))
    }

    fn block_var(&mut self, kind: Kind, args: Vec<Expr>) -> MResult {
        let non_negative = |e: &Expr| match &e.kind {
            ExprKind::Literal(Literal::Int(v)) if *v >= 0 => Some(*v),
            _ => None,
        };
        if let Kind::BlockIndex = kind {
            let arg = args.first().cloned().unwrap_or_else(missing);
            let Some(i) = non_negative(&arg) else {
                return Err((
                    arg.span,
                    "cel.index requires a single non-negative int constant arg".to_string(),
                ));
            };
            return Ok(self.ident(&format!("@index{i}")));
        }
        let (function, prefix) = if let Kind::IterVar = kind {
            ("cel.iterVar", "@it")
        } else {
            ("cel.accuVar", "@ac")
        };
        let mut values = [0i64; 2];
        for (slot, arg) in values.iter_mut().zip(&args) {
            match non_negative(arg) {
                Some(v) => *slot = v,
                None => {
                    return Err((
                        arg.span,
                        format!("{function} requires two non-negative int constant args"),
                    ));
                }
            }
        }
        Ok(self.ident(&format!("{prefix}:{}:{}", values[0], values[1])))
    }
}

/// `a.b.c` as a dotted name when the expression is an identifier or plain select chain.
fn dotted_name(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n.clone()),
        ExprKind::Select {
            operand,
            field,
            test_only: false,
        } => dotted_name(operand).map(|p| format!("{p}.{field}")),
        _ => None,
    }
}

fn extract_name(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n.clone()),
        _ => None,
    }
}

/// The iteration variable of a one-variable macro, or the macro's error.
fn simple_name(var: &Expr, not_ident: &str) -> Result<String, (Span, String)> {
    let v = extract_name(var).ok_or((var.span, not_ident.to_string()))?;
    if v == ACCUMULATOR || v == LEGACY_ACCUMULATOR {
        return Err((
            var.span,
            "iteration variable overwrites accumulator variable".to_string(),
        ));
    }
    Ok(v)
}

fn is_numeric_arg(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Literal(l) => {
            matches!(l, Literal::Int(_) | Literal::Uint(_) | Literal::Double(_))
        }
        ExprKind::List { .. } | ExprKind::Map { .. } | ExprKind::Struct { .. } => false,
        _ => true,
    }
}

fn is_numeric_list_literal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::List { elements, .. } => {
            !elements.is_empty() && elements.iter().all(is_numeric_arg)
        }
        _ => false,
    }
}
