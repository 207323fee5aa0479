//! The tree walk (cel-go `checker/cost.go`, `coster`): every node's cost from its children's,
//! field paths for the size estimator, sizes of values computed inside the expression, and the
//! call-cost precedence (extension estimators, the Kubernetes library, cel-go built-ins, 1).
//!
//! The order of every side effect (caching a size, recording a path, pushing a variable)
//! follows upstream, because later lookups observe them.

use std::ops::Add as _;

use super::paths::{Path, PathArena};
use super::{CostError, CostEstimate, CostOptions, SizeEstimate, SizeEstimator};
use crate::ast::{Comprehension, Expr, ExprId, ExprKind, Literal};
use crate::checker::CheckedExpr;
use crate::library::environments;
use crate::library::estimate::{
    CallEstimate, CallSite, LIST_CREATE_BASE_COST, STRING_TRAVERSAL_COST_FACTOR,
};
use crate::types::{Kind, Type};

/// Cost of resolving an identifier or selecting a field (`SelectAndIdentCost`).
const SELECT_AND_IDENT_COST: u64 = 1;
/// Cost of building a map (`MapCreateBaseCost`).
const MAP_CREATE_BASE_COST: u64 = 30;
/// Cost of building a message (`StructCreateBaseCost`).
const STRUCT_CREATE_BASE_COST: u64 = 40;

/// Stack reserved per tree level when the walk runs on a helper thread.
const BYTES_PER_LEVEL: usize = 16 << 10;

/// The accumulator names of macro expansions; paths rooted in them are not handed to call
/// estimators.
fn is_accumulator(name: &str) -> bool {
    name == "@result" || name == "__result__"
}

/// Sizes of the keys (indices) and values of a container built in the expression.
#[derive(Clone, Copy, Debug)]
pub(super) struct EntrySize {
    /// [`Kind::List`] or [`Kind::Map`].
    container: Kind,
    key: SizeEstimate,
    val: SizeEstimate,
}

/// Both known: the union; otherwise unknown (cel-go `entrySizeEstimate.union`).
fn union_entries(a: Option<EntrySize>, b: Option<EntrySize>) -> Option<EntrySize> {
    let (a, b) = (a?, b?);
    Some(EntrySize {
        container: a.container,
        key: a.key.union(b.key),
        val: a.val.union(b.val),
    })
}

/// What is known about one expression id.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    path: Path,
    size: Option<SizeEstimate>,
    entry: Option<EntrySize>,
}

/// A comprehension or bind variable in scope.
#[derive(Clone, Copy, Debug)]
struct LocalVar<'a> {
    name: &'a str,
    path: Path,
    size: Option<SizeEstimate>,
    entry: Option<EntrySize>,
}

/// A receiver or argument of a call as call estimators see it (cel-go `AstNode`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Node<'a> {
    /// The expression.
    expr: &'a Expr,
    /// Its path (nil when rooted in an accumulator), read when the estimator asks.
    path: Path,
    /// Its size as computed when the node was made (`ComputedSize`).
    derived: Option<SizeEstimate>,
}

/// The call being estimated: its function, overload, receiver, and where its arguments are on
/// the coster's node stack.
#[derive(Clone, Copy, Debug)]
struct Site<'a> {
    function: &'a str,
    overload: &'a str,
    target: Option<Node<'a>>,
    base: usize,
    argc: usize,
}

/// One call as the libraries' estimators see it: the coster answers their questions.
struct Call<'c, 'a> {
    coster: &'c mut Coster<'a>,
    site: Site<'a>,
}

impl<'a> CallSite<'a> for Call<'_, 'a> {
    type Node = Node<'a>;

    fn function(&self) -> &'a str {
        self.site.function
    }

    fn overload(&self) -> &'a str {
        self.site.overload
    }

    fn argc(&self) -> usize {
        self.site.argc
    }

    fn target(&self) -> Option<Node<'a>> {
        self.site.target
    }

    fn arg(&self, i: usize) -> Node<'a> {
        self.coster.arg(&self.site, i)
    }

    fn expr(&self, node: &Node<'a>) -> &'a Expr {
        node.expr
    }

    fn node_type(&self, node: &Node<'a>) -> &'a Type {
        self.coster.ty(node.expr)
    }

    fn computed_size(&self, node: &Node<'a>) -> Option<SizeEstimate> {
        node.derived
    }

    fn node_size(&self, node: &Node<'a>) -> SizeEstimate {
        node.derived
            .or_else(|| {
                self.coster
                    .estimate_at(node.path, self.coster.ty(node.expr))
            })
            .unwrap_or(SizeEstimate::unknown())
    }

    fn element(&mut self, node: &Node<'a>) -> Option<(&'a Type, SizeEstimate)> {
        self.coster.element(node)
    }
}

static DYN: Type = Type::Dyn;

/// Estimates `checked`, on a helper thread when the tree is deep.
pub(super) fn estimate(
    checked: &CheckedExpr,
    sizes: &dyn SizeEstimator,
    options: &CostOptions,
) -> Result<CostEstimate, CostError> {
    // A tree is never deeper than its node count: small trees skip the depth walk.
    let nodes = checked.next_id as usize;
    let levels = if nodes <= 32 {
        nodes
    } else {
        checked.expr.height()
    };
    crate::parser::with_stack(levels, BYTES_PER_LEVEL, || {
        let mut c = Coster::new(checked, sizes, options);
        c.cost(&checked.expr)
    })
    .ok_or(CostError::TooDeep)
}

/// cel-go's `coster`: per-node paths and sizes indexed by expression id.
pub(super) struct Coster<'a> {
    checked: &'a CheckedExpr,
    sizes: &'a dyn SizeEstimator,
    options: &'a CostOptions,
    paths: PathArena<'a>,
    /// Per expression id: path, computed size, entry sizes.
    slots: Vec<Slot>,
    locals: Vec<LocalVar<'a>>,
    /// Argument nodes and costs of the calls being estimated (each call owns a suffix).
    args: Vec<(Node<'a>, CostEstimate)>,
    /// Buffer for synthetic paths (`<list path> + @items`).
    scratch: Vec<&'a str>,
}

impl<'a> Coster<'a> {
    fn new(
        checked: &'a CheckedExpr,
        sizes: &'a dyn SizeEstimator,
        options: &'a CostOptions,
    ) -> Coster<'a> {
        let n = (checked.next_id as usize)
            .max(checked.types.len())
            .saturating_add(1);
        Coster {
            checked,
            sizes,
            options,
            paths: PathArena::with_capacity(2 * n),
            slots: vec![Slot::default(); n],
            locals: Vec::new(),
            args: Vec::new(),
            scratch: Vec::new(),
        }
    }

    // ---- bookkeeping by id --------------------------------------------------------------

    fn ty(&self, e: &Expr) -> &'a Type {
        self.checked.type_of(e.id).unwrap_or(&DYN)
    }

    fn slot(&self, e: &Expr) -> Slot {
        self.slots.get(e.id as usize).copied().unwrap_or_default()
    }

    fn slot_mut(&mut self, id: ExprId) -> &mut Slot {
        let i = id as usize;
        if i >= self.slots.len() {
            self.slots.resize(i + 1, Slot::default());
        }
        &mut self.slots[i]
    }

    fn set_path(&mut self, e: &Expr, path: Path) {
        self.slot_mut(e.id).path = path;
    }

    fn set_size(&mut self, e: &Expr, size: Option<SizeEstimate>) {
        if let Some(s) = size {
            self.slot_mut(e.id).size = Some(s);
        }
    }

    fn set_entry_size(&mut self, e: &Expr, size: Option<EntrySize>) {
        if let Some(s) = size {
            self.slot_mut(e.id).entry = Some(s);
        }
    }

    fn peek_local(&self, name: &str) -> Option<&LocalVar<'a>> {
        self.locals.iter().rev().find(|v| v.name == name)
    }

    fn push_local(
        &mut self,
        name: &'a str,
        path: Path,
        size: Option<SizeEstimate>,
        entry: Option<EntrySize>,
    ) {
        self.locals.push(LocalVar {
            name,
            path,
            size,
            entry,
        });
    }

    /// Removes the innermost variable called `name` (each name has its own scope stack
    /// upstream).
    fn pop_local(&mut self, name: &str) {
        if let Some(i) = self.locals.iter().rposition(|v| v.name == name) {
            self.locals.remove(i);
        }
    }

    fn get_path(&self, e: &Expr) -> Path {
        if let ExprKind::Ident(name) = &e.kind
            && let Some(v) = self.peek_local(name)
        {
            return v.path;
        }
        self.slot(e).path
    }

    /// Asks the size estimator about `path` as it reads now.
    fn estimate_at(&self, path: Path, ty: &Type) -> Option<SizeEstimate> {
        self.sizes.estimate_size(self.paths.segments(path), ty)
    }

    /// cel-go `computeSize`: cached size, literal size, the size estimator (cached), scalar
    /// types, then the size of a local variable.
    fn compute_size(&mut self, e: &'a Expr) -> Option<SizeEstimate> {
        if let Some(s) = self.slot(e).size {
            return Some(s);
        }
        if let Some(s) = literal_size(e) {
            return Some(s);
        }
        let ty = self.ty(e);
        if let Some(s) = self.estimate_at(self.get_path(e), ty) {
            self.set_size(e, Some(s));
            return Some(s);
        }
        if is_scalar(ty) {
            return Some(SizeEstimate::fixed(1));
        }
        if let ExprKind::Ident(name) = &e.kind
            && let Some(v) = self.peek_local(name)
        {
            return v.size;
        }
        None
    }

    fn size_or_unknown(&mut self, e: &'a Expr) -> SizeEstimate {
        self.compute_size(e).unwrap_or(SizeEstimate::unknown())
    }

    fn compute_entry_size(&self, e: &Expr) -> Option<EntrySize> {
        if let Some(s) = self.slot(e).entry {
            return Some(s);
        }
        if let ExprKind::Ident(name) = &e.kind
            && let Some(v) = self.peek_local(name)
        {
            return v.entry;
        }
        None
    }

    /// cel-go `newAstNode`.
    fn new_node(&mut self, e: &'a Expr) -> Node<'a> {
        let mut path = self.get_path(e);
        if self
            .paths
            .segments(path)
            .first()
            .is_some_and(|s| is_accumulator(s))
        {
            path = Path::NIL;
        }
        let derived = self.compute_size(e);
        Node {
            expr: e,
            path,
            derived,
        }
    }

    // ---- what call estimators ask (through [`Call`]) --------------------------------

    /// Argument `i` of the call.
    fn arg(&self, site: &Site<'a>, i: usize) -> Node<'a> {
        self.args[site.base + i].0
    }

    /// Kubernetes `listElementNode`: the first type parameter of the node's type, and the
    /// size of a synthetic node of that type at `<node path> + @items` (no path when the
    /// node has none). `None` when the type has no parameters.
    fn element(&mut self, n: &Node<'a>) -> Option<(&'a Type, SizeEstimate)> {
        let elem = first_parameter(self.ty(n.expr))?;
        self.scratch.clear();
        if !n.path.is_empty() {
            self.scratch.extend_from_slice(self.paths.segments(n.path));
            self.scratch.push("@items");
        }
        let size = self
            .sizes
            .estimate_size(&self.scratch, elem)
            .unwrap_or(SizeEstimate::unknown());
        Some((elem, size))
    }

    // ---- the walk -----------------------------------------------------------------------

    fn cost(&mut self, e: &'a Expr) -> CostEstimate {
        match &e.kind {
            ExprKind::Literal(_) => CostEstimate::ZERO,
            ExprKind::Ident(name) => {
                let path = match self.peek_local(name) {
                    Some(v) => v.path,
                    None => self.paths.single(name),
                };
                self.set_path(e, path);
                CostEstimate::fixed(SELECT_AND_IDENT_COST)
            }
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => {
                if *test_only {
                    // Presence tests are charged through their operand, like the interpreter.
                    return CostEstimate::fixed(self.options.presence_test_cost)
                        .add(self.cost(operand));
                }
                let mut sum = self.cost(operand);
                if matches!(
                    self.ty(operand),
                    Type::Map(..) | Type::Object(_) | Type::Param(_)
                ) {
                    sum = sum.add(CostEstimate::fixed(SELECT_AND_IDENT_COST));
                }
                let path = self.get_path(operand);
                let path = self.paths.append(path, field);
                self.set_path(e, path);
                sum
            }
            ExprKind::Call {
                target,
                function,
                args,
            } => self.cost_call(e, target.as_deref(), function, args),
            ExprKind::List { elements, .. } => {
                let mut sum = CostEstimate::ZERO;
                let mut item = SizeEstimate {
                    min: if elements.is_empty() { 0 } else { u64::MAX },
                    max: 0,
                };
                for el in elements {
                    sum = sum.add(self.cost(el));
                    item = item.union(self.size_or_unknown(el));
                }
                self.set_entry_size(
                    e,
                    Some(EntrySize {
                        container: Kind::List,
                        key: SizeEstimate::fixed(1),
                        val: item,
                    }),
                );
                sum.add(CostEstimate::fixed(LIST_CREATE_BASE_COST))
            }
            ExprKind::Map { entries } => {
                let mut sum = CostEstimate::ZERO;
                let start = if entries.is_empty() { 0 } else { u64::MAX };
                let mut key = SizeEstimate { min: start, max: 0 };
                let mut val = SizeEstimate { min: start, max: 0 };
                for en in entries {
                    sum = sum.add(self.cost(&en.key));
                    sum = sum.add(self.cost(&en.value));
                    key = key.union(self.size_or_unknown(&en.key));
                    val = val.union(self.size_or_unknown(&en.value));
                }
                self.set_entry_size(
                    e,
                    Some(EntrySize {
                        container: Kind::Map,
                        key,
                        val,
                    }),
                );
                sum.add(CostEstimate::fixed(MAP_CREATE_BASE_COST))
            }
            ExprKind::Struct { fields, .. } => {
                let mut sum = CostEstimate::ZERO;
                for f in fields {
                    sum = sum.add(self.cost(&f.value));
                }
                sum.add(CostEstimate::fixed(STRUCT_CREATE_BASE_COST))
            }
            ExprKind::Comprehension(c) => {
                if is_bind(c) {
                    self.cost_bind(e, c)
                } else {
                    self.cost_comprehension(e, c)
                }
            }
        }
    }

    fn cost_comprehension(&mut self, e: &'a Expr, c: &'a Comprehension) -> CostEstimate {
        let mut sum = self.cost(&c.iter_range);
        sum = sum.add(self.cost(&c.accu_init));
        self.push_bound(&c.accu_var, &c.accu_init);
        let range = &c.iter_range;
        let entry = self.compute_entry_size(range);
        let container = match entry {
            Some(en) => Some(en.container),
            None => match self.ty(range) {
                Type::List(_) => Some(Kind::List),
                _ => None,
            },
        };
        let is_list = container == Some(Kind::List);
        let range_path = self.get_path(range);
        if let Some(var2) = &c.iter_var2 {
            let path = self
                .paths
                .append(range_path, if is_list { "@indices" } else { "@keys" });
            self.push_local(&c.iter_var, path, entry.map(|en| en.key), None);
            let range_path = self.get_path(range);
            let path = self
                .paths
                .append(range_path, if is_list { "@items" } else { "@values" });
            self.push_local(var2, path, entry.map(|en| en.val), None);
        } else {
            let (segment, size) = if is_list {
                ("@items", entry.map(|en| en.val))
            } else {
                ("@keys", entry.map(|en| en.key))
            };
            let path = self.paths.append(range_path, segment);
            self.push_local(&c.iter_var, path, size, None);
        }
        let loop_cost = self.cost(&c.loop_condition);
        let step_cost = self.cost(&c.loop_step);
        self.pop_local(&c.iter_var);
        if let Some(var2) = &c.iter_var2 {
            self.pop_local(var2);
        }
        sum = sum.add(self.cost(&c.result));
        self.pop_local(&c.accu_var);

        let count = self.size_or_unknown(range);
        sum = sum.add(count.multiply_by_cost(step_cost.add(loop_cost)));
        match &c.accu_init.kind {
            ExprKind::Literal(_) => {
                let s = self.compute_size(&c.accu_init);
                self.set_size(e, s);
            }
            ExprKind::List { .. } | ExprKind::Map { .. } => {
                self.set_size(e, Some(count));
                let step = self.compute_entry_size(&c.loop_step);
                self.set_entry_size(e, step);
            }
            _ => {}
        }
        sum
    }

    fn cost_bind(&mut self, e: &'a Expr, c: &'a Comprehension) -> CostEstimate {
        // Binds are evaluated lazily; the empty range is still charged.
        let mut sum = self.cost(&c.iter_range);
        sum = sum.add(self.cost(&c.accu_init));
        self.push_bound(&c.accu_var, &c.accu_init);
        sum = sum.add(self.cost(&c.result));
        self.pop_local(&c.accu_var);
        let s = self.compute_size(&c.result);
        self.set_size(e, s);
        let en = self.compute_entry_size(&c.result);
        self.set_entry_size(e, en);
        sum
    }

    /// cel-go `pushLocalVar`: a variable bound to an expression's path and sizes.
    fn push_bound(&mut self, name: &'a str, init: &'a Expr) {
        let path = self.get_path(init);
        let entry = self.compute_entry_size(init);
        let size = self.compute_size(init);
        self.push_local(name, path, size, entry);
    }

    fn cost_call(
        &mut self,
        e: &'a Expr,
        target: Option<&'a Expr>,
        function: &'a str,
        args: &'a [Expr],
    ) -> CostEstimate {
        // dyn() only switches off type checking: 1 plus its argument, with its sizes.
        if function == "dyn"
            && let Some(arg) = args.first()
        {
            let c = self.cost(arg);
            let s = self.compute_size(arg);
            self.set_size(e, s);
            let en = self.compute_entry_size(arg);
            self.set_entry_size(e, en);
            return CostEstimate::fixed(1).add(c);
        }
        let base = self.args.len();
        for arg in args {
            let c = self.cost(arg);
            let n = self.new_node(arg);
            self.args.push((n, c));
        }
        let cost = self.cost_resolved_call(e, target, function, args, base);
        self.args.truncate(base);
        cost
    }

    fn cost_resolved_call(
        &mut self,
        e: &'a Expr,
        target: Option<&'a Expr>,
        function: &'a str,
        args: &'a [Expr],
        base: usize,
    ) -> CostEstimate {
        let checked = self.checked;
        let ids = match checked.overload_ids(e.id) {
            Some(ids) if !ids.is_empty() => ids,
            _ => return CostEstimate::ZERO,
        };
        let mut sum = CostEstimate::ZERO;
        let target = match target {
            Some(t) => {
                sum = sum.add(self.cost(t));
                Some(self.new_node(t))
            }
            None => None,
        };
        let mut fn_cost = CostEstimate {
            min: u64::MAX,
            max: 0,
        };
        let mut result_size: Option<SizeEstimate> = None;
        for id in ids {
            let site = Site {
                function,
                overload: id,
                target,
                base,
                argc: args.len(),
            };
            let est = self.function_cost(e, &site);
            fn_cost = fn_cost.union(est.cost);
            if let Some(rs) = est.result {
                result_size = Some(result_size.map_or(rs, |r| r.union(rs)));
            }
            let segment = match id.as_str() {
                "index_list" => Some("@items"),
                "index_map" => Some("@values"),
                _ => None,
            };
            if let (Some(segment), Some(container)) = (segment, args.first()) {
                result_size = self.compute_entry_size(container).map(|en| en.val);
                let path = self.get_path(container);
                let path = self.paths.append(path, segment);
                self.set_path(e, path);
            }
            if result_size.is_none() {
                result_size = self.compute_size(e);
            }
        }
        self.set_size(e, result_size);
        sum.add(fn_cost)
    }

    /// cel-go `functionCost`: overload estimators, then the Kubernetes library, then the
    /// built-in estimates, then 1; argument costs are added to all but `&&`, `||` and `?:`.
    fn function_cost(&mut self, e: &'a Expr, site: &Site<'a>) -> CallEstimate {
        let arg_sum = self.arg_cost_sum(site);
        let with_args = |est: CallEstimate| CallEstimate {
            cost: est.cost.add(arg_sum),
            result: est.result,
        };
        let options = self.options;
        let mut call = Call {
            coster: self,
            site: *site,
        };
        if options.extension_estimators
            && let Some(est) = environments::extension_estimate(&mut call)
        {
            return with_args(est);
        }
        if options.kubernetes_library
            && let Some(est) =
                environments::kubernetes_estimate(&mut call, options.kubernetes_release)
        {
            return with_args(est);
        }
        if let Some(est) = self.structural_cost(e, site) {
            return est;
        }
        let mut call = Call {
            coster: self,
            site: *site,
        };
        if let Some(est) = environments::cel_go_estimate(&mut call) {
            return with_args(est);
        }
        CallEstimate::cost(CostEstimate::fixed(1).add(arg_sum))
    }

    /// The sum of the call's argument costs.
    fn arg_cost_sum(&self, site: &Site<'a>) -> CostEstimate {
        self.args[site.base..site.base + site.argc]
            .iter()
            .fold(CostEstimate::ZERO, |acc, (_, c)| acc.add(*c))
    }

    /// cel-go's estimates of the calls that shape the walk itself: `&&` and `||` (the left
    /// operand always runs, the right one may not), `?:` (one branch runs) and concatenation
    /// (the result's size and entry sizes come from the operands'); `None` for other calls.
    fn structural_cost(&mut self, e: &'a Expr, site: &Site<'a>) -> Option<CallEstimate> {
        let n = site.argc;
        let arg_sum = self.arg_cost_sum(site);
        let arg_cost = |c: &Coster<'a>, i: usize| c.args[site.base + i].1;
        let computed = |n: &Node<'a>| n.derived.unwrap_or(SizeEstimate::unknown());
        let est = |cost: CostEstimate, result: Option<SizeEstimate>| CallEstimate {
            cost: cost.add(arg_sum),
            result,
        };
        match site.overload {
            "logical_or" | "logical_and" if n >= 2 => {
                let (lhs, rhs) = (arg_cost(self, 0), arg_cost(self, 1));
                Some(CallEstimate::cost(CostEstimate {
                    min: lhs.min,
                    max: lhs.add(rhs).max,
                }))
            }
            "conditional" if n >= 3 => {
                let (then, other) = (self.arg(site, 1), self.arg(site, 2));
                let size = computed(&then).union(computed(&other));
                let entry = union_entries(
                    self.compute_entry_size(then.expr),
                    self.compute_entry_size(other.expr),
                );
                let cost = arg_cost(self, 0).add(arg_cost(self, 1).union(arg_cost(self, 2)));
                self.set_entry_size(e, entry);
                Some(CallEstimate {
                    cost,
                    result: Some(size),
                })
            }
            "add_string" | "add_bytes" | "add_list" if n == 2 => {
                let (l, r) = (self.arg(site, 0), self.arg(site, 1));
                let size = computed(&l).add(computed(&r));
                let entry = union_entries(
                    self.compute_entry_size(l.expr),
                    self.compute_entry_size(r.expr),
                );
                self.set_entry_size(e, entry);
                let cost = if site.overload == "add_list" {
                    CostEstimate::fixed(1)
                } else {
                    size.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR)
                };
                Some(est(cost, Some(size)))
            }
            _ => None,
        }
    }
}

/// The size of a literal (code points of a string, bytes, 1 for other scalars) or of a
/// list/map literal (its element count).
fn literal_size(e: &Expr) -> Option<SizeEstimate> {
    let n = match &e.kind {
        ExprKind::Literal(Literal::String(s)) => s.chars().count() as u64,
        ExprKind::Literal(Literal::Bytes(b)) => b.len() as u64,
        ExprKind::Literal(_) => 1,
        ExprKind::List { elements, .. } => elements.len() as u64,
        ExprKind::Map { entries } => entries.len() as u64,
        _ => return None,
    };
    Some(SizeEstimate::fixed(n))
}

/// Types whose values have a constant size (cel-go `isScalar`).
fn is_scalar(t: &Type) -> bool {
    match t {
        Type::Bool | Type::Double | Type::Duration | Type::Int | Type::Timestamp | Type::Uint => {
            true
        }
        Type::Optional(inner) => is_scalar(inner),
        _ => false,
    }
}

/// cel-go `Type.Parameters()[0]`.
fn first_parameter(t: &Type) -> Option<&Type> {
    match t {
        Type::List(e) | Type::Optional(e) | Type::Type(e) => Some(e),
        Type::Map(k, _) => Some(k),
        Type::Opaque(_, params) => params.first(),
        _ => None,
    }
}

/// `cel.bind()` (and other lazily bound variables): an empty literal range, a `false` loop
/// condition and an accumulator that is not the legacy macro accumulator.
fn is_bind(c: &Comprehension) -> bool {
    matches!(&c.iter_range.kind, ExprKind::List { elements, .. } if elements.is_empty())
        && matches!(
            c.loop_condition.kind,
            ExprKind::Literal(Literal::Bool(false))
        )
        && c.accu_var != "__result__"
}
