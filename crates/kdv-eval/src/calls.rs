//! One IR check, one runtime call: the values are wrapped as views ([`Typed`]) and handed
//! to the check family of `kdv-runtime` that owns the check's semantics. Wrappers (`eachVal`,
//! `subfield`, `item`, `ifEnabled`, mode rules) pass a callback that continues the traversal
//! on the wrapped validation.

use kdv_rules::{
    Check, CrossFieldEach, Discriminated, ModeRule, Shape, ShapeId, UnionKind, UpdateKind,
    Validation,
};
use kdv_runtime::dependencies::{self, Dependency};
use kdv_runtime::modes::{self, ModeChoice};
use kdv_runtime::{
    ErrorSink, FieldError, PathRef, View, crossfield, each, enums, equality, format, immutable,
    item, item_update, limits, lists, options, pattern, required, subfield, subresources, testing,
    unions, update,
};
use serde_json::Value;

use crate::custom::CustomCall;
use crate::eval::{Eval, mark};
use crate::value::{Val, kind_ok};
use crate::view::{JsonIdentity, Typed, UnionExtractors, zero_json};

impl Eval<'_> {
    /// [`call`](Eval::call) with the most common scalar checks inlined into the caller (the
    /// field loop): the call and the dispatch over every check cost more than the check.
    #[inline(always)]
    pub(crate) fn call_scalar<S: ErrorSink>(
        &mut self,
        val: &Validation,
        path: &PathRef<'_>,
        shape: ShapeId,
        v: Val<'_>,
        old: Val<'_>,
        out: &mut S,
    ) {
        let t = Typed::new(self.rules, shape, v);
        match &val.check {
            Check::Minimum(bound) => limits::minimum(path, t, *bound, out),
            Check::MaxLength(n) => limits::max_length(path, t, *n, out),
            _ => self.call(val, path, shape, v, old, out),
        }
    }

    /// Executes one check on `v` (of type `shape`), with `old`.
    pub(crate) fn call<S: ErrorSink>(
        &mut self,
        val: &Validation,
        path: &PathRef<'_>,
        shape: ShapeId,
        v: Val<'_>,
        old: Val<'_>,
        out: &mut S,
    ) {
        let t = Typed::new(self.rules, shape, v);
        match &val.check {
            Check::Required(p) => required::required(path, *p, t, out),
            Check::Optional(p) => required::optional(path, *p, t, out),
            Check::Forbidden(p) => required::forbidden(path, *p, t, out),
            Check::Minimum(bound) => limits::minimum(path, t, *bound, out),
            Check::Maximum(bound) => limits::maximum(path, t, *bound, out),
            Check::MinLength(n) => limits::min_length(path, t, *n, out),
            Check::MaxLength(n) => limits::max_length(path, t, *n, out),
            Check::MaxBytes(n) => limits::max_bytes(path, t, *n, out),
            Check::MinItems(n) => limits::min_items(path, t, *n, out),
            Check::MaxItems(n) => limits::max_items(path, t, *n, out),
            Check::MinProperties(n) => limits::min_properties(path, t, *n, out),
            Check::MaxProperties(n) => limits::max_properties(path, t, *n, out),
            Check::ExclusiveMinimum(bound) => limits::exclusive_minimum(path, t, *bound, out),
            Check::ExclusiveMaximum(bound) => limits::exclusive_maximum(path, t, *bound, out),
            Check::Pattern(spec) => pattern::pattern(path, t, &spec.pattern, out),
            Check::Format(f) => format::format(path, t, *f, out),
            Check::Enum(spec) => {
                enums::enum_value(path, t, &spec.members, &spec.exclusions, self.op, out);
            }
            Check::Neq(lit) => equality::neq(path, t, lit, out),
            Check::Immutable => immutable::immutable(path, self.op, out),
            _ => self.call_composite(val, path, shape, v, old, out),
        }
    }

    /// The checks [`call`](Eval::call) leaves out: wrappers, list, map and member checks
    /// (kept apart so the scalar checks run in a small function).
    #[inline(never)]
    fn call_composite<S: ErrorSink>(
        &mut self,
        val: &Validation,
        path: &PathRef<'_>,
        shape: ShapeId,
        v: Val<'_>,
        old: Val<'_>,
        out: &mut S,
    ) {
        let (rules, op) = (self.rules, self.op);
        let t = Typed::new(rules, shape, v);
        let o = Typed::new(rules, shape, old);
        match &val.check {
            Check::Fixed { pass, message } => testing::fixed_result(path, t, *pass, message, out),
            Check::Unique(matching) => {
                if let Some(l) = t.list() {
                    lists::unique(path, l, &JsonIdentity::new(rules, matching, l.elem), out);
                }
            }
            Check::NoNilElements => {
                if let Some(l) = t.list() {
                    lists::no_nil_items(path, l, out);
                }
            }
            Check::EachListVal {
                matching,
                equiv,
                inner,
            } => {
                // Immutability reports nothing outside updates: no item needs visiting.
                if matches!(inner.check, Check::Immutable) && !op.is_update() {
                    return;
                }
                let (Some(nl), Some(ol)) = (t.list(), o.list()) else {
                    return;
                };
                let identity = matching
                    .as_ref()
                    .map(|m| JsonIdentity::new(rules, m, nl.elem));
                each::each_list_val(
                    op,
                    path,
                    nl,
                    ol,
                    identity.as_ref(),
                    equiv.is_some(),
                    out,
                    |out, p, nv, ov| self.call_marked(inner, p, nl.elem, nv.val, old_of(ov), out),
                );
            }
            Check::EachMapVal { inner, .. } => {
                let (Some(nm), Some(om)) = (t.map(), o.map()) else {
                    return;
                };
                each::each_map_val(op, path, nm, om, out, |out, p, nv, ov| {
                    self.call_marked(inner, p, nm.value, nv.val, old_of(ov), out);
                });
            }
            Check::EachMapKey { inner } => {
                let Shape::Map { key, .. } = rules.shape(shape) else {
                    return;
                };
                let (Some(nm), Some(om)) = (t.map(), o.map()) else {
                    return;
                };
                each::each_map_key(op, path, nm, om, out, |out, p, k| {
                    self.call_marked(inner, p, *key, Val::Key(&k), Val::Nil, out);
                });
            }
            Check::Subfield {
                name,
                access,
                shape: sub,
                inner,
                ..
            } => {
                subfield::subfield(
                    op,
                    path,
                    name,
                    t,
                    o,
                    |s| s.field(access, *sub),
                    out,
                    |out, p, nv, ov| {
                        if !self.kinds_checked && !kind_ok(rules, *sub, nv.val) {
                            return;
                        }
                        self.call_marked(inner, p, *sub, nv.val, old_of(ov), out);
                    },
                );
            }
            // `if_option` reports an undefined option itself.
            Check::IfOption {
                option,
                enabled,
                inner,
            } if options::if_option(path, op, option, *enabled, out) => {
                self.call_marked(inner, path, shape, v, old, out);
            }
            Check::IfSubresource {
                subresource,
                addressed,
                inner,
            } if subresources::if_subresource(op, subresource, *addressed) => {
                self.call_marked(inner, path, shape, v, old, out);
            }
            Check::CallType(id) => self.validate_type(*id, path, v, old, out),
            Check::Monotonic => immutable::monotonic(path, op, t, o, out),
            Check::Update {
                kind,
                constraints,
                matching,
            } => match (kind, t.list(), o.list(), t.map(), o.map()) {
                (UpdateKind::Slice, Some(nl), Some(ol), ..) => {
                    let identity = matching
                        .as_ref()
                        .map(|m| JsonIdentity::new(rules, m, nl.elem));
                    update::update_list(op, path, constraints, nl, ol, identity.as_ref(), out);
                }
                (UpdateKind::Map, .., Some(nm), Some(om)) => {
                    update::update_map(op, path, constraints, nm, om, out);
                }
                _ => update::update(op, path, *kind, constraints, t, o, out),
            },
            Check::Item {
                criteria, inner, ..
            } => {
                let (Some(nl), Some(ol)) = (t.list(), o.list()) else {
                    return;
                };
                let selects = |x: Typed<'_>| {
                    criteria
                        .iter()
                        .all(|c| item::selects(x.field(&c.field.access, c.field.shape), &c.value))
                };
                item::item(op, path, nl, ol, selects, out, |out, p, nv, ov| {
                    self.call_marked(inner, p, nl.elem, nv.val, old_of(ov), out);
                });
            }
            Check::Union(u) => {
                let ext = UnionExtractors { union: u };
                match &u.kind {
                    UnionKind::ExactlyOne => unions::union(op, path, t, o, &u.members, &ext, out),
                    UnionKind::ZeroOrOne => {
                        unions::zero_or_one_of(op, path, t, o, &u.members, &ext, out);
                    }
                    UnionKind::Discriminated {
                        name,
                        access,
                        shape: disc,
                    } => {
                        unions::discriminated_union(
                            op,
                            path,
                            t,
                            o,
                            name,
                            |s| s.field(access, *disc).as_str().unwrap_or(""),
                            &u.members,
                            &ext,
                            out,
                        );
                    }
                }
            }
            Check::Discriminated(d) => self.discriminated(d, path, t, o, out),
            Check::Dependency(d) => {
                let dep = Dependency {
                    forbidden: d.forbidden,
                    trigger: &d.trigger,
                    dependent: &d.dependent,
                };
                dependencies::dependency(
                    op,
                    path,
                    t,
                    o,
                    dep,
                    |s| s.is_set(&d.trigger_set),
                    |s| s.is_set(&d.dependent_set),
                    out,
                );
            }
            Check::CustomValidation {
                function_name,
                package,
            } => self.custom_validation(function_name, package, path, shape, v, old, out),
            Check::CelRule(rule) => self.cel_rule(rule, path, v, old, out),
            Check::ItemUpdate(u) => {
                let (Some(nl), Some(ol)) = (t.list(), o.list()) else {
                    return;
                };
                let selects = |x: Typed<'_>| {
                    u.criteria
                        .iter()
                        .all(|c| item::selects(x.field(&c.field.access, c.field.shape), &c.value))
                };
                item_update::item_update(op, path, &u.constraints, nl, ol, selects, out);
            }
            Check::CrossFieldLimit(c) => {
                let limit = crossfield::CrossField {
                    bound: c.bound,
                    field: &c.field,
                    optional: c.optional,
                };
                match c.each {
                    None => crossfield::cross_field_limit(
                        op,
                        path,
                        t,
                        o,
                        limit,
                        |s| s.field(&c.access, c.shape),
                        |s| referenced(&c.steps, &s),
                        out,
                    ),
                    Some(CrossFieldEach::Items) => crossfield::cross_field_each_item(
                        op,
                        path,
                        t,
                        o,
                        limit,
                        |s| s.field(&c.access, c.shape).list_or_empty(),
                        |s| referenced(&c.steps, &s),
                        out,
                    ),
                    Some(CrossFieldEach::Values) => crossfield::cross_field_each_value(
                        op,
                        path,
                        t,
                        o,
                        limit,
                        |s| s.field(&c.access, c.shape).map_or_empty(),
                        |s| referenced(&c.steps, &s),
                        out,
                    ),
                }
            }
            // Run by `call`; listed so a new check is a compile error here, not a silent
            // no-op.
            Check::Required(_)
            | Check::Optional(_)
            | Check::Forbidden(_)
            | Check::Minimum(_)
            | Check::Maximum(_)
            | Check::MinLength(_)
            | Check::MaxLength(_)
            | Check::MaxBytes(_)
            | Check::MinItems(_)
            | Check::MaxItems(_)
            | Check::MinProperties(_)
            | Check::MaxProperties(_)
            | Check::ExclusiveMinimum(_)
            | Check::ExclusiveMaximum(_)
            | Check::Pattern(_)
            | Check::Format(_)
            | Check::Enum(_)
            | Check::Neq(_)
            | Check::Immutable => {}
            // The condition did not hold (the arms above match only when it does).
            Check::IfOption { .. } | Check::IfSubresource { .. } => {}
        }
    }

    /// `Discriminated`: the `ifMode` rules of one member field. The runtime picks the rule
    /// (or applies the implicit `Forbidden`, marked with the rules' common level); the
    /// rule's validations run in tag order, and after its last short-circuit validation any
    /// short-circuit failure ends the rule. Errors are not marked short-circuit.
    fn discriminated<S: ErrorSink>(
        &mut self,
        d: &Discriminated,
        path: &PathRef<'_>,
        t: Typed<'_>,
        o: Typed<'_>,
        out: &mut S,
    ) {
        let p = path.child(&d.field);
        let start = out.count();
        let choice = modes::discriminated(
            self.op,
            &p,
            t,
            o,
            |s| s.field(&d.access, d.shape),
            |s| s.field(&d.discriminator_access, d.discriminator_shape),
            &d.rules,
            |r: &ModeRule| &r.value,
            d.default_forbidden,
            out,
        );
        let ModeChoice::Run { rule, value, old } = choice else {
            mark(out, start, d.default_level);
            return;
        };
        let old = old_of(old);
        let last_sc = rule.validations.iter().rposition(|x| x.short_circuit);
        let mut early = false;
        for (i, val) in rule.validations.iter().enumerate() {
            if val.short_circuit {
                if val.non_error {
                    early |= self.fails(val, &p, d.shape, value.val, old);
                } else {
                    let start = out.count();
                    self.call_marked(val, &p, d.shape, value.val, old, out);
                    early |= out.count() > start;
                }
                if Some(i) == last_sc && early {
                    return;
                }
            } else if !val.non_error {
                self.call_marked(val, &p, d.shape, value.val, old, out);
            }
        }
    }

    /// `+k8s:customValidation`: the registered function, if a registry was given.
    #[allow(clippy::too_many_arguments)]
    fn custom_validation<S: ErrorSink>(
        &mut self,
        function: &str,
        package: &str,
        path: &PathRef<'_>,
        shape: ShapeId,
        v: Val<'_>,
        old: Val<'_>,
        out: &mut S,
    ) {
        let Some(registry) = self.custom else {
            return;
        };
        let rules = self.rules;
        // Absent non-nilable values are their Go zero value; map keys are strings.
        let materialize = |x: Val<'_>| -> Option<Value> {
            match x {
                Val::Zero => Some(zero_json(rules, shape)),
                Val::Key(k) => Some(Value::String(k.to_string())),
                Val::Nil | Val::Json(_) => None,
            }
        };
        let (new_tmp, old_tmp) = (materialize(v), materialize(old));
        let value = match v {
            Val::Json(j) if !j.is_null() => Some(j),
            Val::Zero | Val::Key(_) => new_tmp.as_ref(),
            _ => None,
        };
        let old_value = match old {
            Val::Json(j) if !j.is_null() => Some(j),
            Val::Zero | Val::Key(_) => old_tmp.as_ref(),
            _ => None,
        };
        let call = CustomCall {
            function,
            package,
            op: self.op,
            path,
            value,
            old_value,
        };
        match registry.call(&call) {
            Some(errs) => out.fail_all(errs),
            None => out.fail(|| {
                FieldError::internal(
                    path,
                    format!(
                        "no custom validation function {function} registered (package {package})"
                    ),
                )
            }),
        }
    }
}

/// The old value handed to a wrapped validation: nil when there is none.
#[inline]
fn old_of(ov: Option<Typed<'_>>) -> Val<'_> {
    ov.map_or(Val::Nil, |o| o.val)
}

/// The value a cross-field reference reads from the struct `s`, following `steps`; a nil
/// pointer on the way makes the bound absent (not Go's zero).
///
/// Takes the struct by reference on purpose: written as a closure that reassigned its
/// by-value argument, rustc 1.95's MIR `DestinationPropagation` (release builds only) stored
/// the walk's result into the caller's still-live struct, so the bounded field was then
/// read from the bound (a valid object reported `current: Invalid value: 0`).
/// `benches/tests/workloads.rs`, run in release by `.ci/run`, keeps the case.
fn referenced<'a>(steps: &[kdv_rules::RefStep], s: &Typed<'a>) -> Typed<'a> {
    let mut cur = *s;
    for step in steps {
        if cur.is_nil() {
            return Typed::new(s.rules, step.shape, Val::Nil);
        }
        cur = cur.field(&step.access, step.shape);
    }
    cur
}
