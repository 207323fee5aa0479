//! Running the `x-kubernetes-validations` rules of a resource on an object
//! (apiextensions-apiserver `cel.Validator`, spec §5.4-5.9): every rule at every node of the
//! decoded (pruned, defaulted) object, with the per-call and per-request cost budgets,
//! messages, `messageExpression`, reasons and field paths; on UPDATE transition rules with
//! the correlated old value and CEL ratcheting (failures of other rules on unchanged parts
//! are dropped, as the API server turns them into warnings it does not fail the request on).
//!
//! The rules are compiled once per resource ([`Rules::compile`]) and shared by threads.
//! [`Config`] holds what upstream's `Validate` takes as arguments (root path, resource
//! root, cost budget, per-call limit, ratcheting): the pipeline passes the API server's
//! values, `testing::validate_rules` a test's; [`Ran`] returns the budget left and the
//! ratcheted failures' texts (the API server's warnings). Ratcheting decides with
//! [`correlate::unchanged`], the notion value-validation ratcheting uses too; only the
//! walk differs (upstream's `ratchetingOptions`: the correlation follows the rule walk
//! here, while value-validation errors are decided afterwards from their paths).
//! Valid objects are evaluated over the borrowed JSON: a copy is made only when decoding
//! changes the object (defaults, pruned fields, dropped nulls).

use kdv_cel::cost::PER_CALL_LIMIT;
use kdv_cel::interp::{Activation, EvalConfig, Program};
use kdv_cel::value::Value as CelValue;
use kdv_runtime::{BadValue, ErrorList, ErrorType, FieldError, PathRef};
use serde_json::{Map, Value};

use super::compile::{CompiledRule, NodeRules, RuleEnv, compile_node_with, trim_space};
use crate::correlate;
use crate::schema::{Additional, Arena, MapType, NodeId};

/// The runtime budget of all rules of one request (`RuntimeCELCostBudget`).
pub(crate) const RUNTIME_CEL_COST_BUDGET: i64 = 10_000_000;

/// Longest message a `messageExpression` may produce (`MaxEvaluatedMessageExpressionSizeBytes`).
const MAX_MESSAGE_EXPRESSION_BYTES: usize = 5120;

/// The message of the error that replaces CEL when the object has blocking errors.
pub(crate) const NOT_CHECKED: &str = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

/// The compiled rules of a resource's schema.
///
/// Rules are written on the nodes of the structural schema and on the entries of its
/// `allOf`s (and their `properties`, `items`, `additionalProperties` and `allOf`s, where
/// the structural schema has the same child): upstream's `Validator` runs an `allOf`
/// entry's rules on the node's value, typed by the structural node (`AllOfValidators`).
/// `anyOf`, `oneOf` and `not` rules never run.
#[derive(Debug)]
pub(crate) struct Rules {
    /// Per node: its rules, when it has some.
    nodes: Vec<Option<Box<NodeRules>>>,
    /// Per node: whether the node or a node below it (including `allOf` entries) has rules.
    reach: Vec<bool>,
    /// Per node: the structural node typing its value (itself, except in `allOf` entries).
    spine: Vec<NodeId>,
    /// Per node: whether a node the walk visits below it (its `allOf` entries, items,
    /// properties, additional properties) reaches rules; the walk stops where none does.
    below: Vec<bool>,
}

/// The `allOf` entries of a node.
fn all_of(node: &crate::schema::Node) -> &[NodeId] {
    node.validations.as_deref().map_or(&[], |v| &v.all_of)
}

/// Whether node `id` has rules written on it.
fn has_rules(arena: &Arena, id: NodeId) -> bool {
    arena
        .node(id)
        .x_validations
        .as_deref()
        .and_then(Value::as_array)
        .is_some_and(|l| !l.is_empty())
}

impl Rules {
    /// Compiles every rule of the schema in `env` (`NewValidator`: the StoredExpressions
    /// environment); `None` when no node has rules. `resource_root`: `root` is the root of a
    /// custom resource (embedded resources are resource roots wherever they are). `gate`: as
    /// `NewValidator`, nothing runs when no rule is written outside `allOf` entries
    /// (upstream's tests build validators without that check).
    pub(crate) fn compile(
        arena: &Arena,
        root: NodeId,
        resource_root: bool,
        gate: bool,
        env: RuleEnv,
    ) -> Option<Rules> {
        let n = arena.len();
        if gate {
            let outside = crate::embedded::reaches(arena, |node| {
                node.x_validations
                    .as_deref()
                    .and_then(Value::as_array)
                    .is_some_and(|l| !l.is_empty())
            });
            if !outside.get(root as usize).copied().unwrap_or(false) {
                return None;
            }
        }
        // The structural nodes, from the root down; their `allOf` entries apply to them.
        let mut spine: Vec<NodeId> = (0..n as NodeId).collect();
        let mut in_all_of = vec![false; n];
        let mut seen = vec![false; n];
        let mut todo = vec![root];
        while let Some(id) = todo.pop() {
            if std::mem::replace(&mut seen[id as usize], true) {
                continue;
            }
            let node = arena.node(id);
            for &a in all_of(node) {
                assign(arena, a, id, &mut spine, &mut in_all_of);
            }
            todo.extend(node.items);
            todo.extend(node.properties.iter().map(|(_, c)| *c));
            if let Additional::Schema(c) = node.additional {
                todo.push(c);
            }
        }
        let reach = reach(arena, &spine);
        if !reach.get(root as usize).copied().unwrap_or(false) {
            return None;
        }
        let nodes = (0..n as NodeId)
            .map(|id| {
                if !reach[id as usize] || !has_rules(arena, id) {
                    return None;
                }
                let sid = spine[id as usize];
                let resource =
                    (resource_root && sid == root) || arena.node(sid).extensions.embedded_resource;
                compile_node_with(arena, id, sid, resource, env).map(Box::new)
            })
            .collect();
        let below = (0..n as NodeId)
            .map(|id| {
                let hit = |c: Option<NodeId>| c.is_some_and(|c| reach[c as usize]);
                all_of(arena.node(id)).iter().any(|a| reach[*a as usize])
                    || children_reach(arena, &spine, id, &hit)
            })
            .collect();
        Some(Rules {
            nodes,
            reach,
            spine,
            below,
        })
    }

    /// The rules of node `id`.
    pub(crate) fn node(&self, id: NodeId) -> Option<&NodeRules> {
        self.nodes.get(id as usize).and_then(|n| n.as_deref())
    }

    /// Whether a node the walk visits below `id` has rules.
    pub(crate) fn reaches_below(&self, id: NodeId) -> bool {
        self.below.get(id as usize).copied().unwrap_or(false)
    }
}

/// Node `v` of an `allOf` entry applies to structural node `s` (`validator(validationSchema,
/// nodeSchema, ...)`), and so do its children that `s` has too.
fn assign(arena: &Arena, v: NodeId, s: NodeId, spine: &mut [NodeId], in_all_of: &mut [bool]) {
    // Each entry node is reached once (CRD schemas are trees; a shared node keeps its
    // first structural node).
    if in_all_of[v as usize] {
        return;
    }
    in_all_of[v as usize] = true;
    spine[v as usize] = s;
    let (vn, sn) = (arena.node(v), arena.node(s));
    if let (Some(vi), Some(si)) = (vn.items, sn.items) {
        assign(arena, vi, si, spine, in_all_of);
    }
    for (k, vc) in vn.properties.iter() {
        if let Some(sc) = sn.property(k) {
            assign(arena, *vc, sc, spine, in_all_of);
        }
    }
    if let (Additional::Schema(va), Additional::Schema(sa)) = (vn.additional, sn.additional) {
        assign(arena, va, sa, spine, in_all_of);
    }
    for &a in all_of(vn) {
        assign(arena, a, s, spine, in_all_of);
    }
}

/// The child of node `v` (under structural node `spine[v]`) that the walk visits for
/// `items`, property `key` or `additionalProperties`: only where the structural node has
/// the same child.
fn child_pair(arena: &Arena, spine: &[NodeId], v: NodeId, which: Child<'_>) -> Option<NodeId> {
    let (vn, sn) = (arena.node(v), arena.node(spine[v as usize]));
    let (vc, sc) = match which {
        Child::Items => (vn.items?, sn.items?),
        Child::Property(k) => (vn.property(k)?, sn.property(k)?),
        Child::Additional => match (vn.additional, sn.additional) {
            (Additional::Schema(a), Additional::Schema(b)) => (a, b),
            _ => return None,
        },
    };
    (spine[vc as usize] == sc).then_some(vc)
}

/// A child slot of a schema node.
#[derive(Clone, Copy)]
enum Child<'k> {
    Items,
    Property(&'k str),
    Additional,
}

/// Per node: whether it or a node the walk visits below it has rules (a fixpoint: the
/// arena may be cyclic through `$ref`s).
fn reach(arena: &Arena, spine: &[NodeId]) -> Vec<bool> {
    let n = arena.len();
    let mut out: Vec<bool> = (0..n as NodeId).map(|id| has_rules(arena, id)).collect();
    loop {
        let mut changed = false;
        for id in 0..n as NodeId {
            if out[id as usize] {
                continue;
            }
            let node = arena.node(id);
            let hit = |c: Option<NodeId>| c.is_some_and(|c| out[c as usize]);
            let below = children_reach(arena, spine, id, &hit)
                || all_of(node)
                    .iter()
                    .any(|a| out[*a as usize] && spine[*a as usize] == spine[id as usize]);
            if below {
                out[id as usize] = true;
                changed = true;
            }
        }
        if !changed {
            return out;
        }
    }
}

/// Whether `hit` holds for a child of node `id` the walk visits (items, additional
/// properties, properties).
fn children_reach(
    arena: &Arena,
    spine: &[NodeId],
    id: NodeId,
    hit: &dyn Fn(Option<NodeId>) -> bool,
) -> bool {
    hit(child_pair(arena, spine, id, Child::Items))
        || hit(child_pair(arena, spine, id, Child::Additional))
        || arena
            .node(id)
            .properties
            .iter()
            .any(|(k, _)| hit(child_pair(arena, spine, id, Child::Property(k))))
}

/// `hasBlockingErr`: errors after which the API server does not run the rules.
pub(crate) fn has_blocking_error(errs: &ErrorList) -> bool {
    errs.iter().any(|e| {
        matches!(
            e.error_type,
            ErrorType::NotSupported
                | ErrorType::Required
                | ErrorType::TooLong
                | ErrorType::TooMany
                | ErrorType::TypeInvalid
        )
    })
}

/// The error appended instead of running the rules of an object with blocking errors.
pub(crate) fn not_checked_error() -> FieldError {
    FieldError::new(
        ErrorType::Invalid,
        kdv_runtime::FieldPath::root(),
        BadValue::Null,
        NOT_CHECKED,
    )
}

/// `self` and `oldSelf` (no heap allocation: the rules' only variables).
struct Vars<'a> {
    this: CelValue<'a>,
    old: Option<CelValue<'a>>,
}

impl<'a> Activation<'a> for Vars<'a> {
    #[inline]
    fn resolve(&self, name: &str) -> Option<CelValue<'a>> {
        match name {
            "self" => Some(self.this.clone()),
            "oldSelf" => self.old.clone(),
            _ => None,
        }
    }
}

/// A node of the new object correlated with the old one (`CorrelatedObject`).
#[derive(Clone, Copy)]
struct Correlated<'v> {
    node: NodeId,
    new: &'v Value,
    old: &'v Value,
    resource: bool,
}

impl Correlated<'_> {
    fn unchanged(&self, arena: &Arena) -> bool {
        correlate::unchanged(arena, Some(self.node), self.new, self.old, self.resource)
    }
}

/// `ratchetingOptions`: the node's correlation and its nearest correlatable ancestor's.
#[derive(Clone, Copy, Default)]
struct Ratchet<'v> {
    current: Option<Correlated<'v>>,
    parent: Option<Correlated<'v>>,
}

impl<'v> Ratchet<'v> {
    fn should_ratchet(&self, arena: &Arena) -> bool {
        match (&self.current, &self.parent) {
            (Some(c), _) => c.unchanged(arena),
            (None, Some(p)) => p.unchanged(arena),
            (None, None) => false,
        }
    }

    fn key(&self, field: &str, child: Option<Correlated<'v>>) -> Ratchet<'v> {
        if self.current.is_none() {
            return *self;
        }
        if self.parent.is_none() && (field == "apiVersion" || field == "kind") {
            return Ratchet::default();
        }
        Ratchet {
            current: child,
            parent: self.current,
        }
    }

    fn index(&self, child: Option<Correlated<'v>>) -> Ratchet<'v> {
        if self.current.is_none() {
            return *self;
        }
        Ratchet {
            current: child,
            parent: self.current,
        }
    }
}

/// How [`validate`] runs the rules (the arguments of upstream's `Validate` and the API
/// server's settings).
#[derive(Clone, Copy)]
pub(crate) struct Config<'p> {
    /// The path of the root value (errors are reported below it).
    pub root_path: &'p PathRef<'p>,
    /// The root is a resource root (`apiVersion`, `kind` and `metadata` typed as for a
    /// custom resource).
    pub resource_root: bool,
    /// The cost budget of the whole call (`costBudget`).
    pub cost_budget: i64,
    /// The cost limit of one evaluation (`perCallLimit`).
    pub per_call_limit: u64,
    /// CEL ratcheting (`WithRatcheting`): failures of rules other than transition rules on
    /// unchanged values become warnings.
    pub ratcheting: bool,
    /// The `CRDValidationRatcheting` feature gate: transition rules with `optionalOldSelf`
    /// run without an old value.
    pub optional_old_self: bool,
    /// Render bad values as Kubernetes 1.35 and later do (the value; omitted for objects
    /// and arrays), else as the schema type.
    pub values: bool,
    /// The data was not validated against the schema's types: every value checks its JSON
    /// kind when read (upstream's `invalid data, ...` error values). The API server's
    /// pipeline never needs it: type errors block the rules.
    pub unvalidated: bool,
}

impl Config<'static> {
    /// The API server's settings for a custom resource of Kubernetes 1.`minor`.
    pub(crate) fn api_server(kubernetes_minor: u32, ratcheting: bool) -> Self {
        Config {
            root_path: &PathRef::ROOT,
            resource_root: true,
            cost_budget: RUNTIME_CEL_COST_BUDGET,
            per_call_limit: PER_CALL_LIMIT,
            ratcheting,
            optional_old_self: ratcheting,
            values: kubernetes_minor >= 35,
            unvalidated: false,
        }
    }
}

/// What [`validate`] leaves besides its errors.
#[derive(Debug, Default)]
pub(crate) struct Ran {
    /// The cost budget left; negative once validation stopped for lack of budget.
    pub remaining_budget: i64,
    /// The texts (`err.Error()`) of the failures ratcheting turned into warnings.
    pub warnings: Vec<String>,
}

/// The data of a node whose rules run: decoded JSON, or a value read in place
/// ([`kdv_cel::value::native`]) with the JSON it serializes to, made only for the bad value
/// of a failure.
#[derive(Clone, Copy)]
pub(crate) enum Subject<'v> {
    /// JSON read through the node's schema.
    Json(&'v Value),
    /// A CEL value the caller built, and its JSON.
    Native(&'v CelValue<'v>, &'v dyn Fn() -> Value),
}

/// One request's evaluation.
struct Run<'r> {
    arena: &'r Arena,
    /// The root of the validated value.
    root: NodeId,
    /// `root` is a resource root.
    resource_root: bool,
    rules: &'r Rules,
    values: bool,
    unvalidated: bool,
    optional_old_self: bool,
    per_call_limit: u64,
    budget: i64,
    errs: &'r mut ErrorList,
    warnings: Vec<String>,
    /// Only whether a rule fails is asked ([`validate_root_value`]'s verdict form).
    verdict: bool,
    /// A rule failed in verdict form.
    failed: bool,
}

/// Runs the rules of the root node alone on `this` (no old value: a create), with the
/// budget and errors of `config`: the rules of a `+validationRule` node evaluated over a
/// value read in place. The caller makes sure the value reads as its JSON would
/// ([`super::values::value_schema`] is plain). `verdict`: only whether a rule fails is
/// asked, so the first failing rule stops the run and builds no error (other failures, such
/// as evaluation errors, are still reported). Returns the budget left and whether a rule
/// failed in verdict form.
#[allow(clippy::too_many_arguments)]
pub(crate) fn validate_root_value<'v>(
    arena: &Arena,
    rules: &Rules,
    root: NodeId,
    this: &'v CelValue<'v>,
    json: &'v dyn Fn() -> Value,
    config: &Config<'_>,
    verdict: bool,
    errs: &mut ErrorList,
) -> (i64, bool) {
    let mut run = Run::new(arena, rules, root, config, verdict, errs);
    if matches!(this, CelValue::Null) {
        return (run.budget, false);
    }
    if let Some(nr) = rules.node(root) {
        let sid = rules.spine[root as usize];
        run.expressions(
            sid,
            nr,
            config.root_path,
            Subject::Native(this, json),
            None,
            &Ratchet::default(),
        );
    }
    (run.budget, run.failed)
}

/// Runs every rule on `object` (already decoded), with `old` on UPDATE (also decoded).
pub(crate) fn validate(
    arena: &Arena,
    rules: &Rules,
    root: NodeId,
    object: &Value,
    old: Option<&Value>,
    config: &Config<'_>,
    errs: &mut ErrorList,
) -> Ran {
    let mut run = Run::new(arena, rules, root, config, false, errs);
    let ratchet = Ratchet {
        current: old.filter(|_| config.ratcheting).map(|old| Correlated {
            node: root,
            new: object,
            old,
            resource: config.resource_root,
        }),
        parent: None,
    };
    run.walk(
        root,
        config.root_path,
        object,
        old,
        ratchet,
        config.resource_root,
    );
    Ran {
        remaining_budget: run.budget,
        warnings: run.warnings,
    }
}

impl<'r> Run<'r> {
    /// A run of `rules` from `root` with `config`'s settings and budget.
    fn new(
        arena: &'r Arena,
        rules: &'r Rules,
        root: NodeId,
        config: &Config<'_>,
        verdict: bool,
        errs: &'r mut ErrorList,
    ) -> Run<'r> {
        Run {
            arena,
            root,
            resource_root: config.resource_root,
            rules,
            values: config.values,
            unvalidated: config.unvalidated,
            optional_old_self: config.optional_old_self,
            per_call_limit: config.per_call_limit,
            budget: config.cost_budget,
            errs,
            warnings: Vec::new(),
            verdict,
            failed: false,
        }
    }

    /// `validate` of node `id` (a structural node, or an `allOf` entry node applying to one).
    fn walk<'v>(
        &mut self,
        id: NodeId,
        path: &PathRef<'_>,
        new: &'v Value,
        old: Option<&'v Value>,
        ratchet: Ratchet<'v>,
        resource: bool,
    ) where
        'r: 'v,
    {
        if !self.rules.reach[id as usize] || new.is_null() {
            return;
        }
        let old = old.filter(|o| !o.is_null());
        let rules = self.rules;
        let sid = rules.spine[id as usize];
        if let Some(nr) = rules.node(id) {
            self.expressions(sid, nr, path, Subject::Json(new), old, &ratchet);
            if self.budget < 0 {
                return;
            }
        }
        if !rules.below[id as usize] {
            return;
        }
        let arena = self.arena;
        let vnode = arena.node(id);
        for &a in all_of(vnode) {
            // Upstream does not ratchet the node's own `allOf` errors by the node itself,
            // only by its nearest correlatable ancestor (as schema ratcheting does).
            let r = Ratchet {
                current: None,
                parent: ratchet.parent,
            };
            self.walk(a, path, new, old, r, resource);
            if self.budget < 0 {
                return;
            }
        }
        let node = arena.node(sid);
        match new {
            Value::Array(items) => {
                let Some(item_id) = child_pair(arena, &rules.spine, id, Child::Items) else {
                    return;
                };
                let item_sid = rules.spine[item_id as usize];
                let embedded = arena.node(item_sid).extensions.embedded_resource;
                for (i, item) in items.iter().enumerate() {
                    let old_item = correlate::old_item(arena, sid, item, old);
                    let child = old_item.map(|o| Correlated {
                        node: item_sid,
                        new: item,
                        old: o,
                        resource: embedded,
                    });
                    let p = path.index(i);
                    self.walk(item_id, &p, item, old_item, ratchet.index(child), embedded);
                    if self.budget < 0 {
                        return;
                    }
                }
            }
            Value::Object(map) => {
                let correlatable = matches!(
                    node.extensions.map_type,
                    None | Some(MapType::Granular | MapType::Atomic)
                );
                if let Some(ap) = child_pair(arena, &rules.spine, id, Child::Additional) {
                    let ap_sid = rules.spine[ap as usize];
                    let embedded = arena.node(ap_sid).extensions.embedded_resource;
                    for (k, v) in map {
                        let o = self.old_of(node, old, k, resource, correlatable);
                        let p = path.key(k);
                        let r = ratchet.key(k, self.correlated(ap_sid, v, o, embedded));
                        self.walk(ap, &p, v, o, r, embedded);
                        if self.budget < 0 {
                            return;
                        }
                    }
                }
                if !vnode.properties.is_empty() {
                    self.properties(id, map, path, old, ratchet, resource, correlatable);
                }
            }
            _ => {}
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn properties<'v>(
        &mut self,
        id: NodeId,
        map: &'v Map<String, Value>,
        path: &PathRef<'_>,
        old: Option<&'v Value>,
        ratchet: Ratchet<'v>,
        resource: bool,
        correlatable: bool,
    ) where
        'r: 'v,
    {
        let arena = self.arena;
        let rules = self.rules;
        let node = arena.node(rules.spine[id as usize]);
        for (k, v) in map {
            let Some(c) = child_pair(arena, &rules.spine, id, Child::Property(k)) else {
                continue;
            };
            if !rules.reach[c as usize] {
                continue;
            }
            let c_sid = rules.spine[c as usize];
            let embedded = arena.node(c_sid).extensions.embedded_resource;
            let o = self.old_of(node, old, k, resource, correlatable);
            let p = path.child(k);
            let r = ratchet.key(k, self.correlated(c_sid, v, o, embedded));
            self.walk(c, &p, v, o, r, embedded);
            if self.budget < 0 {
                return;
            }
        }
    }

    fn old_of<'v>(
        &self,
        node: &'v crate::schema::Node,
        old: Option<&'v Value>,
        key: &str,
        resource: bool,
        correlatable: bool,
    ) -> Option<&'v Value>
    where
        'r: 'v,
    {
        if !correlatable {
            return None;
        }
        correlate::old_field(self.arena, Some(node), old, key, resource)
    }

    fn correlated<'v>(
        &self,
        id: NodeId,
        new: &'v Value,
        old: Option<&'v Value>,
        resource: bool,
    ) -> Option<Correlated<'v>> {
        old.map(|old| Correlated {
            node: id,
            new,
            old,
            resource,
        })
    }

    /// The type-string value of errors about the node.
    fn type_value(nr: &NodeRules) -> BadValue {
        BadValue::string(&*nr.type_text)
    }

    fn push(&mut self, e: FieldError) {
        self.errs.push(e);
    }

    /// `addErr`: a rule's failure, a warning instead when ratcheted.
    fn report(&mut self, e: FieldError, ratcheted: bool) {
        if ratcheted {
            self.warnings.push(e.to_string());
        } else {
            self.errs.push(e);
        }
    }

    /// `validateExpressions` of one node.
    fn expressions<'v>(
        &mut self,
        id: NodeId,
        nr: &'r NodeRules,
        path: &PathRef<'_>,
        new: Subject<'v>,
        old: Option<&'v Value>,
        ratchet: &Ratchet<'v>,
    ) where
        'r: 'v,
    {
        if let Some(e) = &nr.init_error {
            self.push(FieldError::invalid(
                path,
                Self::type_value(nr),
                format!("rule compiler initialization error: {e}"),
            ));
            return;
        }
        if nr.rules.is_empty() {
            return;
        }
        if self.budget <= 0 {
            self.push(FieldError::invalid(
                path,
                Self::type_value(nr),
                "validation failed due to running out of cost budget, no further validation rules will be run",
            ));
            self.budget = -1;
            return;
        }
        let arena = self.arena;
        let resource_root = self.resource_root && id == self.root;
        // A value the schema cannot read (a malformed formatted string, a null where none
        // is allowed) is an error value upstream: every rule evaluating it fails with it.
        let to_value = if self.unvalidated {
            super::values::to_value_checked
        } else {
            super::to_value
        };
        let this = match new {
            Subject::Json(new) => to_value(arena, id, resource_root, new),
            Subject::Native(v, _) => Ok(v.clone()),
        };
        let old_value = old
            .filter(|_| nr.any_old_self)
            .map(|o| to_value(arena, id, resource_root, o));
        let plain = Vars {
            // With an unreadable `self` no rule is evaluated (see below).
            this: this.as_ref().map_or(CelValue::Null, Clone::clone),
            old: old_value.as_ref().and_then(|r| r.as_ref().ok()).cloned(),
        };
        let mut optional: Option<Vars<'v>> = None;
        for rule in nr.rules.iter() {
            if let Some(e) = &rule.error {
                self.push(FieldError::invalid(
                    path,
                    Self::type_value(nr),
                    format!("rule compile error: {}", e.detail),
                ));
                continue;
            }
            let Some(program) = &rule.program else {
                continue;
            };
            let is_optional = rule.source.optional();
            if rule.uses_old_self && old.is_none() && !(is_optional && self.optional_old_self) {
                continue;
            }
            let unreadable = match (&this, &old_value) {
                (Err(e), _) => Some(e),
                (_, Some(Err(e))) if rule.uses_old_self => Some(e),
                _ => None,
            };
            if let Some(e) = unreadable {
                self.push(FieldError::invalid(
                    path,
                    Self::type_value(nr),
                    format!(
                        "{} evaluating rule: {}",
                        e.message,
                        rule.source.error_string()
                    ),
                ));
                continue;
            }
            let vars: &Vars<'v> = if is_optional {
                optional.get_or_insert_with(|| Vars {
                    this: plain.this.clone(),
                    old: Some(match &plain.old {
                        Some(v) => CelValue::optional_of(v.clone()),
                        None => CelValue::Optional(None),
                    }),
                })
            } else {
                &plain
            };
            if !self.rule(nr, rule, program, path, new, vars, &plain, ratchet) {
                return;
            }
        }
    }

    /// Evaluates one rule; `false` when validation stops.
    #[allow(clippy::too_many_arguments)]
    fn rule<'v>(
        &mut self,
        nr: &'r NodeRules,
        rule: &'r CompiledRule,
        program: &'r Program,
        path: &PathRef<'_>,
        new: Subject<'v>,
        vars: &Vars<'v>,
        plain: &Vars<'v>,
        ratchet: &Ratchet<'v>,
    ) -> bool
    where
        'r: 'v,
    {
        let config = EvalConfig {
            cost_limit: Some(self.per_call_limit),
            ..EvalConfig::default()
        };
        let source = &rule.source;
        // Upstream charges the cost first, whether the evaluation failed or not.
        let (result, cost) = program.eval_with_cost(vars, &config);
        if i64::try_from(cost).map_or(true, |c| c > self.budget) {
            self.push(FieldError::invalid(
                path,
                Self::type_value(nr),
                "validation failed due to running out of cost budget, no further validation rules will be run",
            ));
            self.budget = -1;
            return false;
        }
        self.budget -= cost as i64;
        let passed = match result {
            Err(e) => {
                let e = e.message;
                if e.starts_with("no such overload") {
                    self.push(FieldError::invalid(
                        path,
                        Self::type_value(nr),
                        format!(
                            "'{e}': call arguments did not match a supported operator, function or macro signature for rule: {}",
                            source.error_string()
                        ),
                    ));
                } else if e.starts_with("operation cancelled: actual cost limit exceeded") {
                    self.push(FieldError::invalid(
                        path,
                        Self::type_value(nr),
                        format!(
                            "'{e}': no further validation rules will be run due to call cost exceeds limit for rule: {}",
                            source.error_string()
                        ),
                    ));
                    self.budget = -1;
                    return false;
                } else {
                    self.push(FieldError::invalid(
                        path,
                        Self::type_value(nr),
                        format!("{e} evaluating rule: {}", source.error_string()),
                    ));
                }
                return true;
            }
            Ok(value) => matches!(value, CelValue::Bool(true)),
        };
        if passed {
            return true;
        }
        if self.verdict {
            // Only whether something failed is asked: no error is built, nothing more runs.
            self.failed = true;
            return false;
        }
        // The failure: its path, detail and error type.
        let at_child;
        let err_path: &PathRef<'_> = match &rule.field_path {
            Some(fp) => {
                at_child = path.child(fp);
                &at_child
            }
            None => path,
        };
        let ratcheted = !rule.uses_old_self && ratchet.should_ratchet(self.arena);
        let mut detail = None;
        if let Some(message_program) = &rule.message_program {
            match self.message_expression(message_program, &source.message_expression, plain) {
                Ok(Some(d)) => detail = Some(d),
                Ok(None) => {}
                Err(MessageError(m)) => {
                    let e = FieldError::invalid(err_path, Self::type_value(nr), m);
                    self.report(e, ratcheted);
                    self.budget = -1;
                    return false;
                }
            }
        }
        let detail = detail.unwrap_or_else(|| source.message_or_default());
        let value = if !self.values {
            Self::type_value(nr)
        } else if matches!(&*nr.type_text, "object" | "array") {
            BadValue::Omitted
        } else {
            match new {
                Subject::Json(new) => BadValue::unstructured(new),
                Subject::Native(_, json) => BadValue::unstructured(&json()),
            }
        };
        let e = match source.reason.as_deref() {
            Some("FieldValueForbidden") => FieldError::forbidden(err_path, detail),
            Some("FieldValueRequired") => FieldError::required(err_path, detail),
            Some("FieldValueDuplicate") => FieldError::duplicate(err_path, value),
            _ => FieldError::invalid(err_path, value, detail),
        };
        self.report(e, ratcheted);
        true
    }

    /// `evalMessageExpression`: the message, `None` for a soft failure (the static message
    /// is used), or the error that stops validation.
    fn message_expression<'v>(
        &mut self,
        program: &'r Program,
        source: &str,
        vars: &Vars<'v>,
    ) -> Result<Option<String>, MessageError>
    where
        'r: 'v,
    {
        let config = EvalConfig {
            cost_limit: Some(self.per_call_limit),
            ..EvalConfig::default()
        };
        let (result, cost) = program.eval_with_cost(vars, &config);
        if i64::try_from(cost).map_or(true, |c| c > self.budget) {
            return Err(MessageError(
                "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run".into(),
            ));
        }
        let value = match result {
            Err(e) => {
                if e.message
                    .starts_with("operation cancelled: actual cost limit exceeded")
                {
                    return Err(MessageError(format!(
                        "no further validation rules will be run due to call cost exceeds limit for messageExpression: {}",
                        kdv_runtime::gofmt::quote(source)
                    )));
                }
                // A soft failure (upstream logs it): the static message is used, and the
                // cost stays charged.
                self.budget -= cost as i64;
                return Ok(None);
            }
            Ok(value) => value,
        };
        self.budget -= cost as i64;
        let CelValue::String(s) = value else {
            return Ok(None);
        };
        let trimmed = trim_space(s.as_str());
        if trimmed.len() > MAX_MESSAGE_EXPRESSION_BYTES
            || trimmed.contains('\n')
            || trimmed.is_empty()
        {
            return Ok(None);
        }
        Ok(Some(trimmed.to_owned()))
    }
}

/// A `messageExpression` failure that stops validation (reported as an invalid value).
struct MessageError(String);
