//! Planning: the expression tree becomes a tree of [`Node`]s with names resolved,
//! comprehension variables as slots, calls bound to their candidate overloads, and (with
//! `optimize`) constants folded as cel-go's `OptOptimize` does.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::{CheckedInfo, ProgramOptions};
use crate::ast::{Comprehension, Expr, ExprKind, Literal};
use crate::library::regex::RegexCache;
use crate::library::{CallCtx, CostFn, Overload, ParamType};
use crate::value::{Bytes, EvalError, Key, List, Map, OwnedMap, RtType, Str, Value};

/// Nesting depth beyond which planning stops (the parser limits depth far below this; this
/// guards hand-built trees).
const MAX_DEPTH: usize = 1000;

/// A problem found while planning that cel-go reports at program creation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanError {
    /// Id of the offending node.
    pub id: u32,
    /// The error text.
    pub message: String,
}

/// A planned node.
#[derive(Debug)]
pub(crate) enum Node {
    /// A constant (cost 0).
    Const(Value<'static>),
    /// A comprehension variable or accumulator.
    Slot(u32),
    /// A declared variable of the activation.
    Var(Arc<str>),
    /// A name resolved at run time: candidates (name, number of path segments it covers),
    /// longest first, then the remaining path as field selections.
    DynName(Box<DynName>),
    /// `operand.field`.
    Select(Box<Node>, Arc<str>),
    /// `has(operand.field)`.
    Has(Box<Node>, Arc<str>),
    /// `operand.?field`.
    OptSelect(Box<Node>, Arc<str>),
    /// A computed value that a selection or index qualifies (cel-go's relative attribute
    /// over a non-attribute operand, e.g. `f(x).a`, `['a', 'b'][i]`): its own resolution
    /// costs 1, even when the operand or the qualification fails.
    RelAttr(Box<Node>),
    /// `operand[key]`; the flag says the key is an attribute (the resolution of its root is
    /// not charged, its qualifiers are).
    Index(Box<(Node, Node)>, bool),
    /// `operand[?key]`.
    OptIndex(Box<(Node, Node)>, bool),
    /// A function call.
    Call(Box<CallNode>),
    /// `'constant' in e`: a call whose first argument is a constant string and whose fast
    /// form is [`FastOp::InMap`] (key presence, a common rule shape).
    InKey(Box<CallNode>),
    /// `a && b`.
    And(Box<(Node, Node)>),
    /// `a || b`.
    Or(Box<(Node, Node)>),
    /// `c ? t : f`, with flags saying which branches are attributes (evaluated without the
    /// charge for their root, as cel-go resolves attribute branches of a conditional
    /// attribute; their qualifiers are charged).
    Cond(Box<(Node, Node, Node)>, bool, bool),
    /// `@not_strictly_false(e)`.
    NotStrictlyFalse(Box<Node>),
    /// `e in <constant list>` planned as a membership test without call cost.
    InConst(Box<Node>, Arc<Vec<Value<'static>>>),
    /// A list literal; indices of optional elements.
    List(Box<[Node]>, Box<[u32]>),
    /// A map literal: key, value, optional entry.
    Map(Box<[(Node, Node, bool)]>),
    /// A comprehension.
    Fold(Box<Fold>),
    /// `@result + [elems]` in a comprehension step: appends in place.
    AppendAccu(u32, Box<[Node]>, bool),
    /// `cel.@mapInsert(@result, k, v)` or `cel.@mapInsert(@result, m)` in a comprehension
    /// step: inserts in place.
    MapInsertAccu(u32, Box<[Node]>),
    /// `opt.or(other)` / `opt.orValue(other)`: short-circuit on a present optional.
    OptOr(Box<(Node, Node)>, bool, Box<CallNode>),
    /// Always fails with this error.
    Fail(EvalError),
    /// `@not_strictly_false(slot)` (the `all` loop condition), reading the slot in place.
    SlotNotFalse(u32),
    /// `@not_strictly_false(!slot)` (the `exists` loop condition).
    SlotNotTrue(u32),
    /// `slot && e` (flag false) / `slot || e` (flag true): the `all`/`exists` loop steps.
    SlotLogic(u32, Box<Node>, bool),
}

/// The standard loop conditions, specialised (same results and costs).
fn accu_condition(cond: Node) -> Node {
    match cond {
        Node::NotStrictlyFalse(inner) => match *inner {
            Node::Slot(s) => Node::SlotNotFalse(s),
            Node::Call(c)
                if &*c.function == "!_"
                    && c.args.len() == 1
                    && matches!(c.args[0], Node::Slot(_))
                    && c.overloads.iter().all(|o| o.id == "logical_not") =>
            {
                let Node::Slot(s) = c.args[0] else {
                    unreachable!("matched above")
                };
                Node::SlotNotTrue(s)
            }
            other => Node::NotStrictlyFalse(Box::new(other)),
        },
        other => other,
    }
}

/// `accu && e` / `accu || e` steps, specialised.
fn accu_logic(step: Node) -> Node {
    match step {
        Node::And(pair) if matches!(pair.0, Node::Slot(_)) => {
            let (Node::Slot(s), rhs) = *pair else {
                unreachable!("matched above")
            };
            Node::SlotLogic(s, Box::new(rhs), false)
        }
        Node::Or(pair) if matches!(pair.0, Node::Slot(_)) => {
            let (Node::Slot(s), rhs) = *pair else {
                unreachable!("matched above")
            };
            Node::SlotLogic(s, Box::new(rhs), true)
        }
        other => other,
    }
}

/// A runtime-resolved qualified name.
#[derive(Debug)]
pub(crate) struct DynName {
    pub candidates: Vec<(Arc<str>, usize)>,
    pub path: Vec<Arc<str>>,
    pub display: String,
    pub container: String,
    /// A type named like this, used when no variable of that name is bound.
    pub fallback: Option<Value<'static>>,
}

/// A call bound to its candidate overloads.
#[derive(Debug)]
pub(crate) struct CallNode {
    pub function: Arc<str>,
    pub overloads: Box<[Arc<Overload>]>,
    pub args: Box<[Node]>,
    pub regex: Option<Arc<regex::Regex>>,
    /// A direct implementation for the argument kinds rules mostly see.
    pub fast: Option<FastCall>,
    /// Whether cel-go would plan this call without an overload id: the checker left more
    /// than one candidate overload (a `dyn` argument), so cost rules keyed by overload id
    /// ([`Overload::cost_by_id`]) do not apply and such calls cost 1.
    pub no_overload_id: bool,
}

/// Binary operations the evaluator runs directly, without looking for an overload, when the
/// arguments have the kinds the operation names (else the call dispatches as usual). Each
/// stands for one standard overload, which [`fast_call`] checks is the overload dispatch
/// would pick for those kinds; its cost function is kept so costs stay the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FastOp {
    /// `string in map` (`in_map`).
    InMap,
    /// `int < int` and the other orderings of two ints (`less_int64`, ...).
    IntOrder(Order),
    /// `==` of two values of the same primitive kind (`equals`).
    Equals,
    /// `!=` of two values of the same primitive kind (`not_equals`).
    NotEquals,
    /// `string.startsWith(string)` (`starts_with_string`).
    StartsWith,
    /// `string.matches(constant pattern)` (`matches_string`, `matches`).
    Matches,
}

/// An ordering operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    Less,
    LessEquals,
    Greater,
    GreaterEquals,
}

/// A [`FastOp`] with the cost function of the overload it stands for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastCall {
    pub op: FastOp,
    pub cost: Option<CostFn>,
}

#[cfg(test)]
thread_local! {
    /// Tests plan programs without fast calls to compare them with the dispatching ones.
    pub(crate) static NO_FAST_CALLS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
fn fast_calls_disabled() -> bool {
    NO_FAST_CALLS.with(std::cell::Cell::get)
}

#[cfg(not(test))]
#[inline]
fn fast_calls_disabled() -> bool {
    false
}

/// The fast form of a call, if the overload dispatch would pick for the fast kinds is the
/// standard overload the fast operation implements.
fn fast_call(
    function: &str,
    args: &[Node],
    overloads: &[Arc<Overload>],
    regex: bool,
    no_overload_id: bool,
) -> Option<FastCall> {
    // The cost the call is charged when `o` runs (see `CallNode::no_overload_id`).
    let cost_of = |o: &Overload| o.cost.filter(|_| !(no_overload_id && o.cost_by_id));
    if args.len() != 2 || fast_calls_disabled() {
        return None;
    }
    let string = || Value::String(Str::Borrowed(""));
    let (op, sample, ids): (FastOp, [Value<'static>; 2], &[&str]) = match function {
        "@in" => (
            FastOp::InMap,
            [string(), Value::Map(Map::Owned(Arc::new(OwnedMap::new())))],
            &["in_map"],
        ),
        "_<_" => (
            FastOp::IntOrder(Order::Less),
            [Value::Int(0), Value::Int(0)],
            &["less_int64"],
        ),
        "_<=_" => (
            FastOp::IntOrder(Order::LessEquals),
            [Value::Int(0), Value::Int(0)],
            &["less_equals_int64"],
        ),
        "_>_" => (
            FastOp::IntOrder(Order::Greater),
            [Value::Int(0), Value::Int(0)],
            &["greater_int64"],
        ),
        "_>=_" => (
            FastOp::IntOrder(Order::GreaterEquals),
            [Value::Int(0), Value::Int(0)],
            &["greater_equals_int64"],
        ),
        "_==_" | "_!=_" => {
            // Dispatch takes the first overload that accepts the arguments; the fast form
            // is only sound when that is the generic overload whatever the kinds.
            let first = overloads.first()?;
            let (op, id) = if function == "_==_" {
                (FastOp::Equals, "equals")
            } else {
                (FastOp::NotEquals, "not_equals")
            };
            let any = Some(&[ParamType::DYN, ParamType::DYN][..]);
            return (first.id == id && first.params == any).then_some(FastCall {
                op,
                cost: cost_of(first),
            });
        }
        "startsWith" => (
            FastOp::StartsWith,
            [string(), string()],
            &["starts_with_string"],
        ),
        "matches" if regex => (
            FastOp::Matches,
            [string(), string()],
            &["matches_string", "matches"],
        ),
        _ => return None,
    };
    let chosen = overloads.iter().find(|o| o.accepts(&sample))?;
    ids.contains(&chosen.id).then_some(FastCall {
        op,
        cost: cost_of(chosen),
    })
}

/// A planned comprehension.
#[derive(Debug)]
pub(crate) struct Fold {
    pub range: Node,
    pub iter: u32,
    pub iter2: Option<u32>,
    pub accu: u32,
    pub init: Node,
    /// The loop condition; `None` when it is the constant `true` (`filter`, `map`), which
    /// costs nothing and never stops the loop.
    pub cond: Option<Node>,
    pub step: Node,
    pub result: Node,
}

pub(crate) struct Planned {
    pub root: Node,
    pub slots: usize,
    pub errors: Vec<PlanError>,
    /// Variables may be read more than once per evaluation: worth keeping the last one.
    pub cache_vars: bool,
}

struct Planner<'p> {
    checked: Option<&'p dyn CheckedInfo>,
    opts: &'p ProgramOptions,
    regexes: &'p RegexCache,
    scopes: Vec<(String, u32)>,
    max_slots: usize,
    errors: Vec<PlanError>,
    depth: usize,
    /// One shared name per variable, so the evaluator can recognise a variable it already
    /// resolved by pointer.
    var_names: Vec<Arc<str>>,
    /// Variable reads planned (reads inside loops count twice).
    var_reads: usize,
    /// Nesting of comprehension loop bodies around the node being planned.
    loop_depth: usize,
}

pub(crate) fn plan(
    expr: &Expr,
    checked: Option<&dyn CheckedInfo>,
    opts: &ProgramOptions,
    regexes: &RegexCache,
) -> Planned {
    let mut p = Planner {
        checked,
        opts,
        regexes,
        scopes: Vec::new(),
        max_slots: 0,
        errors: Vec::new(),
        depth: 0,
        var_names: Vec::new(),
        var_reads: 0,
        loop_depth: 0,
    };
    let root = p.expr(expr);
    Planned {
        root,
        slots: p.max_slots,
        errors: p.errors,
        cache_vars: p.var_reads > 1,
    }
}

fn is_accu_name(name: &str) -> bool {
    name == "@result" || name == "__result__"
}

/// Whether a node is an attribute in cel-go's sense (identifier, selection or index chain).
fn is_attribute(n: &Node) -> bool {
    matches!(
        n,
        Node::Slot(_)
            | Node::Var(_)
            | Node::DynName(_)
            | Node::Select(..)
            | Node::OptSelect(..)
            | Node::Index(..)
            | Node::OptIndex(..)
    )
}

/// The operand of a selection or index: cel-go qualifies attributes (and conditionals, which
/// it plans as attributes) in place, and wraps any other operand in a relative attribute.
fn attribute_operand(operand: Node) -> Node {
    if is_attribute(&operand) || matches!(operand, Node::Cond(..)) {
        operand
    } else {
        Node::RelAttr(Box::new(operand))
    }
}

fn literal_value(l: &Literal) -> Value<'static> {
    match l {
        Literal::Null => Value::Null,
        Literal::Bool(b) => Value::Bool(*b),
        Literal::Int(i) => Value::Int(*i),
        Literal::Uint(u) => Value::Uint(*u),
        Literal::Double(d) => Value::Double(*d),
        Literal::String(s) => Value::String(Str::Shared(s.clone())),
        Literal::Bytes(b) => Value::Bytes(Bytes::Shared(b.clone())),
    }
}

/// The dotted path of an identifier/select chain (`a.b.c` → `["a", "b", "c"]`).
fn qualified_path(e: &Expr) -> Option<Vec<&str>> {
    let mut path = Vec::new();
    let mut cur = e;
    loop {
        match &cur.kind {
            ExprKind::Ident(name) => {
                path.push(name.as_str());
                path.reverse();
                return Some(path);
            }
            ExprKind::Select {
                operand,
                field,
                test_only: false,
            } => {
                path.push(field.as_str());
                cur = operand;
            }
            _ => return None,
        }
    }
}

const CONVERSIONS: &[&str] = &[
    "bool",
    "bytes",
    "double",
    "duration",
    "dyn",
    "int",
    "string",
    "timestamp",
    "type",
    "uint",
];

impl Planner<'_> {
    /// A variable node, its name shared with every other node of that variable.
    fn var(&mut self, name: &str) -> Node {
        self.var_reads += if self.loop_depth > 0 { 2 } else { 1 };
        if let Some(n) = self.var_names.iter().find(|n| &***n == name) {
            return Node::Var(n.clone());
        }
        let n: Arc<str> = Arc::from(name);
        self.var_names.push(n.clone());
        Node::Var(n)
    }

    /// Whether the checker resolved the identifier at the root of the select chain `e` as
    /// the variable `name`: then no longer qualified name was a variable, and the chain is
    /// field selections on that variable (no name resolution needed).
    fn checked_as_variable(&self, e: &Expr, name: &str) -> bool {
        let Some(checked) = self.checked else {
            return false;
        };
        let mut cur = e;
        loop {
            match &cur.kind {
                ExprKind::Ident(ident) => {
                    return ident == name && checked.variable(cur.id) == Some(name);
                }
                ExprKind::Select {
                    operand,
                    test_only: false,
                    ..
                } => cur = operand,
                _ => return false,
            }
        }
    }

    fn local(&self, name: &str) -> Option<u32> {
        self.scopes
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, s)| *s)
    }

    fn push_local(&mut self, name: &str) -> u32 {
        let slot = self.scopes.len() as u32;
        self.scopes.push((name.to_string(), slot));
        self.max_slots = self.max_slots.max(self.scopes.len());
        slot
    }

    /// Candidate full names of a (possibly dotted) name under the container, most specific
    /// first; a leading `.` means the root scope only.
    fn container_candidates(&self, name: &str) -> Vec<String> {
        if let Some(root) = name.strip_prefix('.') {
            return vec![root.to_string()];
        }
        let mut out = Vec::new();
        let mut container = self.opts.container.as_str();
        while !container.is_empty() {
            out.push(format!("{container}.{name}"));
            container = container.rsplit_once('.').map_or("", |(c, _)| c);
        }
        out.push(name.to_string());
        out
    }

    fn expr(&mut self, e: &Expr) -> Node {
        if self.depth >= MAX_DEPTH {
            return Node::Fail(EvalError::new("max recursion depth exceeded"));
        }
        self.depth += 1;
        let n = self.expr_inner(e);
        self.depth -= 1;
        n
    }

    fn expr_inner(&mut self, e: &Expr) -> Node {
        match &e.kind {
            ExprKind::Literal(l) => Node::Const(literal_value(l)),
            ExprKind::Ident(name) => {
                if let Some(t) = self.checked.and_then(|c| c.type_name(e.id)) {
                    return Node::Const(Value::Type(named_type(t)));
                }
                if let Some(var) = self.checked.and_then(|c| c.variable(e.id))
                    && (self.local(var).is_none() || name.starts_with('.'))
                {
                    return self.var(var);
                }
                self.qualified(e.id, &[name.as_str()])
            }
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => {
                if !test_only {
                    if let Some(var) = self.checked.and_then(|c| c.variable(e.id)) {
                        return self.var(var);
                    }
                    if let Some(t) = self.checked.and_then(|c| c.type_name(e.id)) {
                        return Node::Const(Value::Type(named_type(t)));
                    }
                    if let Some(path) = qualified_path(e)
                        && self.local(path[0]).is_none()
                        && !self.checked_as_variable(operand, path[0])
                    {
                        return self.qualified(e.id, &path);
                    }
                }
                let operand = attribute_operand(self.expr(operand));
                let field: Arc<str> = Arc::from(field.as_str());
                if *test_only {
                    Node::Has(Box::new(operand), field)
                } else {
                    Node::Select(Box::new(operand), field)
                }
            }
            ExprKind::Call {
                target,
                function,
                args,
            } => self.call(e, target.as_deref(), function, args),
            ExprKind::List {
                elements,
                optional_indices,
            } => {
                let elems: Vec<Node> = elements.iter().map(|x| self.expr(x)).collect();
                if self.opts.optimize
                    && optional_indices.is_empty()
                    && let Some(values) = all_const(&elems)
                {
                    return Node::Const(Value::List(List::Owned(Arc::new(values))));
                }
                Node::List(elems.into(), optional_indices.clone().into())
            }
            ExprKind::Map { entries } => {
                let entries: Vec<(Node, Node, bool)> = entries
                    .iter()
                    .map(|en| (self.expr(&en.key), self.expr(&en.value), en.optional))
                    .collect();
                if self.opts.optimize
                    && entries.iter().all(|(_, _, o)| !o)
                    && let Some(m) = const_map(&entries)
                {
                    return Node::Const(m);
                }
                Node::Map(entries.into())
            }
            ExprKind::Struct { type_name, .. } => {
                Node::Fail(EvalError::new(format!("unknown type: {type_name}")))
            }
            ExprKind::Comprehension(c) => self.fold(c),
        }
    }

    /// A name `path[0].path[1]...`: the longest prefix naming a variable, else a type, else
    /// field selections on a shorter variable name.
    fn qualified(&mut self, id: u32, path: &[&str]) -> Node {
        if let Some(slot) = self.local(path[0]) {
            return path[1..].iter().fold(Node::Slot(slot), |n, f| {
                Node::Select(Box::new(n), Arc::from(*f))
            });
        }
        let _ = id;
        let full = path.join(".");
        match &self.opts.variables {
            Some(vars) => {
                for k in (1..=path.len()).rev() {
                    let name = path[..k].join(".");
                    for cand in self.container_candidates(&name) {
                        if vars.contains(&cand) {
                            let var = self.var(&cand);
                            return path[k..]
                                .iter()
                                .fold(var, |n, f| Node::Select(Box::new(n), Arc::from(*f)));
                        }
                    }
                }
                if let Some(t) = type_literal(&full) {
                    return t;
                }
                Node::Fail(EvalError::new(format!(
                    "undeclared reference to '{}' (in container '{}')",
                    full.trim_start_matches('.'),
                    self.opts.container
                )))
            }
            None => {
                let mut candidates = Vec::new();
                for k in (1..=path.len()).rev() {
                    let name = path[..k].join(".");
                    for cand in self.container_candidates(&name) {
                        candidates.push((Arc::from(cand), k));
                    }
                }
                Node::DynName(Box::new(DynName {
                    candidates,
                    path: path.iter().map(|s| Arc::from(*s)).collect(),
                    display: full.trim_start_matches('.').to_string(),
                    container: self.opts.container.clone(),
                    fallback: type_literal(&full).and_then(|n| match n {
                        Node::Const(v) => Some(v),
                        _ => None,
                    }),
                }))
            }
        }
    }

    fn fold(&mut self, c: &Comprehension) -> Node {
        let range = self.expr(&c.iter_range);
        let init = self.expr(&c.accu_init);
        let depth = self.scopes.len();
        let accu = self.push_local(&c.accu_var);
        let iter = self.push_local(&c.iter_var);
        let iter2 = c.iter_var2.as_deref().map(|v| self.push_local(v));
        self.loop_depth += 1;
        let cond = match accu_condition(self.expr(&c.loop_condition)) {
            Node::Const(Value::Bool(true)) => None,
            other => Some(other),
        };
        let step = accu_logic(self.step(&c.loop_step, &c.accu_var, accu));
        self.loop_depth -= 1;
        self.scopes.truncate(depth + 1);
        let result = self.expr(&c.result);
        self.scopes.truncate(depth);
        Node::Fold(Box::new(Fold {
            range,
            iter,
            iter2,
            accu,
            init,
            cond,
            step,
            result,
        }))
    }

    /// Plans a loop step, turning accumulator appends/inserts into in-place updates.
    fn step(&mut self, step: &Expr, accu_var: &str, accu: u32) -> Node {
        if !is_accu_name(accu_var) {
            return self.expr(step);
        }
        if let Some(n) = self.accu_update(step, accu_var, accu) {
            return n;
        }
        if let ExprKind::Call {
            target: None,
            function,
            args,
        } = &step.kind
            && function == "_?_:_"
            && args.len() == 3
        {
            let t = self.accu_update(&args[1], accu_var, accu);
            let f = self.accu_update(&args[2], accu_var, accu);
            if t.is_some() || f.is_some() {
                let c = self.expr(&args[0]);
                let t = t.unwrap_or_else(|| self.expr(&args[1]));
                let f = f.unwrap_or_else(|| self.expr(&args[2]));
                let (ta, fa) = (is_attribute(&t), is_attribute(&f));
                return Node::Cond(Box::new((c, t, f)), ta, fa);
            }
        }
        self.expr(step)
    }

    fn accu_update(&mut self, e: &Expr, accu_var: &str, accu: u32) -> Option<Node> {
        let ExprKind::Call {
            target: None,
            function,
            args,
        } = &e.kind
        else {
            return None;
        };
        let is_accu = |x: &Expr| matches!(&x.kind, ExprKind::Ident(n) if n == accu_var);
        if self.local(accu_var) != Some(accu) {
            return None;
        }
        match (function.as_str(), args.as_slice()) {
            ("_+_", [a, l]) if is_accu(a) => {
                let ExprKind::List {
                    elements,
                    optional_indices,
                } = &l.kind
                else {
                    return None;
                };
                if !optional_indices.is_empty() {
                    return None;
                }
                let elems: Vec<Node> = elements.iter().map(|x| self.expr(x)).collect();
                let free = self.opts.optimize && all_const(&elems).is_some();
                Some(Node::AppendAccu(accu, elems.into(), free))
            }
            ("cel.@mapInsert", [a, rest @ ..]) if is_accu(a) && matches!(rest.len(), 1 | 2) => {
                let rest: Vec<Node> = rest.iter().map(|x| self.expr(x)).collect();
                Some(Node::MapInsertAccu(accu, rest.into()))
            }
            _ => None,
        }
    }

    fn call(&mut self, e: &Expr, target: Option<&Expr>, function: &str, args: &[Expr]) -> Node {
        // Qualified function names written as member calls: `math.greatest(1, 2)`.
        if let Some(t) = target
            && let Some(path) = qualified_path(t)
        {
            let root_is_var = self.local(path[0]).is_some()
                || self
                    .opts
                    .variables
                    .as_ref()
                    .is_some_and(|v| v.contains(path[0]));
            if !root_is_var {
                let qualified = format!("{}.{}", path.join("."), function);
                for cand in self.container_candidates(&qualified) {
                    if self.opts.registry.has_function(&cand) {
                        return self.global_call(e, &cand, args);
                    }
                }
            }
        }
        match (target, function, args.len()) {
            (None, "_&&_", 2) => {
                let (a, b) = (self.expr(&args[0]), self.expr(&args[1]));
                return Node::And(Box::new((a, b)));
            }
            (None, "_||_", 2) => {
                let (a, b) = (self.expr(&args[0]), self.expr(&args[1]));
                return Node::Or(Box::new((a, b)));
            }
            (None, "_?_:_", 3) => {
                let c = self.expr(&args[0]);
                let t = self.expr(&args[1]);
                let f = self.expr(&args[2]);
                let (ta, fa) = (is_attribute(&t), is_attribute(&f));
                return Node::Cond(Box::new((c, t, f)), ta, fa);
            }
            (None, "@not_strictly_false", 1) => {
                return Node::NotStrictlyFalse(Box::new(self.expr(&args[0])));
            }
            (None, "_[_]", 2) | (None, "_[?_]", 2) => {
                let operand = attribute_operand(self.expr(&args[0]));
                let key = self.expr(&args[1]);
                let attr = is_attribute(&key);
                return if function == "_[_]" {
                    Node::Index(Box::new((operand, key)), attr)
                } else {
                    Node::OptIndex(Box::new((operand, key)), attr)
                };
            }
            (None, "_?._", 2) => {
                let operand = attribute_operand(self.expr(&args[0]));
                return match &args[1].kind {
                    ExprKind::Literal(Literal::String(f)) => {
                        Node::OptSelect(Box::new(operand), Arc::from(&**f))
                    }
                    _ => Node::Fail(EvalError::new("unsupported optional field selection")),
                };
            }
            (None, "@in", 2) if self.opts.optimize => {
                let elem = self.expr(&args[0]);
                let list = self.expr(&args[1]);
                if let Node::Const(Value::List(List::Owned(values))) = &list
                    && values.iter().all(|v| {
                        matches!(
                            v,
                            Value::Null
                                | Value::Bool(_)
                                | Value::Int(_)
                                | Value::Uint(_)
                                | Value::Double(_)
                                | Value::String(_)
                        )
                    })
                {
                    return Node::InConst(Box::new(elem), values.clone());
                }
                return self.bind_call(e, "@in", vec![elem, list]);
            }
            (Some(t), "or" | "orValue", 1) => {
                let lhs = self.expr(t);
                let rhs = self.expr(&args[0]);
                let fallback = self.bind_call_node(e, function, Vec::new());
                return Node::OptOr(
                    Box::new((lhs, rhs)),
                    function == "orValue",
                    Box::new(fallback),
                );
            }
            _ => {}
        }
        let mut planned = Vec::with_capacity(args.len() + 1);
        if let Some(t) = target {
            planned.push(self.expr(t));
        }
        planned.extend(args.iter().map(|a| self.expr(a)));
        self.bind_call(e, function, planned)
    }

    fn global_call(&mut self, e: &Expr, function: &str, args: &[Expr]) -> Node {
        let planned = args.iter().map(|a| self.expr(a)).collect();
        self.bind_call(e, function, planned)
    }

    fn bind_call_node(&mut self, e: &Expr, function: &str, args: Vec<Node>) -> CallNode {
        let registry = &self.opts.registry;
        let candidates = registry.candidates(function, args.len());
        // The checker's overloads first (its choice decides the cost function), then every
        // overload of the name: like cel-go's generic implementations, a `dyn` argument may
        // turn out to need a sibling overload at run time.
        let checked_ids = self.checked.and_then(|c| c.overload_ids(e.id));
        // Unchecked programs keep the cost rules of the overload that runs.
        let no_overload_id = checked_ids.is_some_and(|ids| ids.len() != 1);
        let overloads = match checked_ids {
            // Every candidate, in the registry's order (the usual answer for `dyn` arguments).
            Some(ids)
                if ids.len() == candidates.len()
                    && ids.iter().zip(&candidates).all(|(id, o)| id == o.id) =>
            {
                candidates
            }
            Some(ids) => {
                let mut overloads: Vec<Arc<Overload>> = Vec::with_capacity(candidates.len());
                // Mostly the candidates themselves: look there before the registry's index.
                for id in ids {
                    match candidates
                        .iter()
                        .find(|o| o.id == id.as_str())
                        .or_else(|| registry.overload(id))
                    {
                        Some(o) => overloads.push(o.clone()),
                        None => {
                            overloads.clear();
                            break;
                        }
                    }
                }
                // The registry hands out one shared `Arc` per overload id: identity is id
                // equality.
                for o in candidates {
                    if !overloads.iter().any(|x| Arc::ptr_eq(x, &o)) {
                        overloads.push(o);
                    }
                }
                overloads
            }
            None => candidates,
        };
        let mut regex = None;
        if registry.is_regex_function(function)
            && let Some(Node::Const(Value::String(p))) = args.get(1)
        {
            match shared_pattern(p, self.regexes) {
                Ok(r) => regex = Some(r),
                Err(err) => self.errors.push(PlanError {
                    id: e.id,
                    message: err.message.to_string(),
                }),
            }
        }
        let fast = fast_call(function, &args, &overloads, regex.is_some(), no_overload_id);
        CallNode {
            function: Arc::from(function),
            overloads: overloads.into(),
            args: args.into(),
            regex,
            fast,
            no_overload_id,
        }
    }

    fn bind_call(&mut self, e: &Expr, function: &str, args: Vec<Node>) -> Node {
        let call = self.bind_call_node(e, function, args);
        if call.overloads.is_empty() && !self.opts.registry.has_function(function) {
            return Node::Fail(EvalError::new(format!("no such overload: {function}")));
        }
        if self.opts.optimize
            && CONVERSIONS.contains(&function)
            && call.args.len() == 1
            && matches!(call.args[0], Node::Const(_))
        {
            let Node::Const(arg) = &call.args[0] else {
                unreachable!("checked by the matches! above")
            };
            let ctx = CallCtx {
                regexes: self.regexes,
                precompiled: None,
                remaining_cost: u64::MAX,
            };
            let args = [arg.clone()];
            if let Some(o) = call.overloads.iter().find(|o| o.accepts(&args)) {
                match (o.imp)(&ctx, &args) {
                    Ok(v) => return Node::Const(v.into_static()),
                    Err(err) => self.errors.push(PlanError {
                        id: e.id,
                        message: err.message.to_string(),
                    }),
                }
            }
        }
        if call.fast.is_some_and(|f| f.op == FastOp::InMap)
            && matches!(call.args[0], Node::Const(Value::String(_)))
        {
            return Node::InKey(Box::new(call));
        }
        Node::Call(Box::new(call))
    }
}

/// Compiled constant patterns shared by every program of the process: rules repeat patterns
/// (DNS labels, names, ...), and building a matcher costs more than all the rest of a rule's
/// compilation. Patterns that do not compile are not kept.
static SHARED_PATTERNS: Mutex<Option<HashMap<Arc<str>, Arc<regex::Regex>>>> = Mutex::new(None);

/// Patterns kept in [`SHARED_PATTERNS`] before it starts over.
const SHARED_PATTERNS_CAPACITY: usize = 1024;

/// The compiled `pattern`, from the process-wide patterns or compiled (and kept there and in
/// the program's own cache).
fn shared_pattern(pattern: &str, regexes: &RegexCache) -> Result<Arc<regex::Regex>, EvalError> {
    if let Ok(shared) = SHARED_PATTERNS.lock()
        && let Some(r) = shared.as_ref().and_then(|m| m.get(pattern))
    {
        return Ok(r.clone());
    }
    let r = regexes.get(pattern)?;
    if let Ok(mut shared) = SHARED_PATTERNS.lock() {
        let map = shared.get_or_insert_with(HashMap::new);
        if map.len() >= SHARED_PATTERNS_CAPACITY {
            map.clear();
        }
        map.insert(Arc::from(pattern), r.clone());
    }
    Ok(r)
}

/// Drops the process-wide compiled patterns (see [`super::clear_shared_patterns`]).
pub(crate) fn clear_shared_patterns() {
    if let Ok(mut shared) = SHARED_PATTERNS.lock() {
        *shared = None;
    }
}

/// The runtime type named `name` (built-in names, else a named type).
fn named_type(name: &str) -> RtType {
    RtType::from_name(name).unwrap_or_else(|| RtType::Named(Arc::from(name)))
}

fn type_literal(name: &str) -> Option<Node> {
    let name = name.trim_start_matches('.');
    // `dyn` is a type only inside type expressions, not a value.
    if name == "dyn" {
        return None;
    }
    RtType::from_name(name).map(|t| Node::Const(Value::Type(t)))
}

fn all_const(nodes: &[Node]) -> Option<Vec<Value<'static>>> {
    nodes
        .iter()
        .map(|n| match n {
            Node::Const(v) => Some(v.clone()),
            _ => None,
        })
        .collect()
}

fn const_map(entries: &[(Node, Node, bool)]) -> Option<Value<'static>> {
    let mut m = OwnedMap::new();
    for (k, v, _) in entries {
        let (Node::Const(k), Node::Const(v)) = (k, v) else {
            return None;
        };
        let key = match k {
            Value::Bool(_) | Value::Int(_) | Value::Uint(_) | Value::String(_) => {
                Key::from_value(k).ok()??
            }
            _ => return None,
        };
        m.insert_new(key, v.clone()).ok()?;
    }
    Some(Value::Map(Map::Owned(Arc::new(m))))
}
