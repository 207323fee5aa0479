//! Checks across the members of a struct (or the items of a list): unions (spec §6.2–6.4),
//! mode rules (§6.5), dependencies (§3.30), and calls of custom validation functions
//! (§3.29). Each implements its own ratcheting: on Update with an old value, it is skipped
//! when the set-ness of the members it looks at (and the discriminator) did not change.

use kdv_rules::{
    Dependency, Discriminated, FieldAccess, FieldPresence, Level, Literal, MemberSet, Presence,
    RuleSet, ShapeId, Union, UnionKind,
};
use kdv_runtime::{ErrorListExt, FieldError, PathRef, check};
use serde_json::Value;

use crate::custom::CustomCall;
use crate::eval::{Eval, zero_json};
use crate::list::{elem_shape, element, item_matches};
use crate::value::{Val, as_bool, as_str, deep_equal, field, is_zero, len};

/// Upstream names a union's members in messages as a brace list of the set ones.
fn names(u: &Union, set: impl Fn(usize) -> bool) -> Vec<&str> {
    (0..u.members.len())
        .filter(|&i| set(i))
        .map(|i| u.members[i].name.as_str())
        .collect()
}

/// Whether a value is set: pointer non-nil, list/map non-empty, scalar non-zero.
pub(crate) fn presence_set(rules: &RuleSet, p: Presence, shape: ShapeId, v: Val<'_>) -> bool {
    match p {
        Presence::Pointer => !v.is_nil(),
        Presence::Slice | Presence::Map => len(rules, shape, v) > 0,
        Presence::Value => !is_zero(rules, shape, v),
    }
}

/// Whether a struct field is set in the struct value `v`.
fn field_set(rules: &RuleSet, f: &FieldPresence, v: Val<'_>) -> bool {
    presence_set(
        rules,
        f.presence,
        f.shape,
        field(rules, v, &f.access, f.shape),
    )
}

/// Whether a union member is set in the struct or list value `v` (of `shape`).
fn member_set(rules: &RuleSet, m: &MemberSet, shape: ShapeId, v: Val<'_>) -> bool {
    match m {
        MemberSet::Field(f) => field_set(rules, f, v),
        MemberSet::Item(criteria) => {
            let Some((elem, is_ptr)) = elem_shape(rules, shape) else {
                return false;
            };
            v.array().iter().any(|x| {
                element(rules, elem, is_ptr, x).is_some_and(|e| item_matches(rules, criteria, e))
            })
        }
    }
}

/// The discriminator of a discriminated union as a string (`""` when absent).
fn discriminator<'a>(rules: &RuleSet, access: &FieldAccess, shape: ShapeId, v: Val<'a>) -> &'a str {
    as_str(field(rules, v, access, shape)).unwrap_or("")
}

impl Eval<'_> {
    /// `Union`, `ZeroOrOneOfUnion` and `DiscriminatedUnion`.
    pub(crate) fn union(
        &mut self,
        u: &Union,
        path: &PathRef<'_>,
        shape: ShapeId,
        v: Val<'_>,
        old: Val<'_>,
    ) {
        let n = u.extractors.len();
        if n != u.members.len() {
            let mut e = FieldError::internal(
                path,
                format!(
                    "number of extractors ({n}) does not match number of union members ({})",
                    u.members.len()
                ),
            );
            if u.kind == UnionKind::ExactlyOne {
                e = e.with_origin(check::origin::UNION);
            }
            self.out.push(e);
            return;
        }
        let rules = self.rules;
        let set = |i: usize, x: Val<'_>| member_set(rules, &u.extractors[i], shape, x);
        let ratchet = self.op.is_update() && !old.is_nil();
        match &u.kind {
            UnionKind::ExactlyOne | UnionKind::ZeroOrOne => {
                if ratchet && (0..n).all(|i| set(i, v) == set(i, old)) {
                    return;
                }
                let count = (0..n).filter(|&i| set(i, v)).count();
                let all: Vec<&str>;
                match (&u.kind, count) {
                    (UnionKind::ExactlyOne, 1) => {}
                    (UnionKind::ZeroOrOne, 0 | 1) => {}
                    (UnionKind::ExactlyOne, _) => {
                        all = u.members.iter().map(|m| m.name.as_str()).collect();
                        let specified = names(u, |i| set(i, v));
                        check::union_exactly_one(path, &specified, &all, &mut self.out);
                    }
                    _ => {
                        all = u.members.iter().map(|m| m.name.as_str()).collect();
                        let specified = names(u, |i| set(i, v));
                        check::union_zero_or_one(path, &specified, &all, &mut self.out);
                    }
                }
            }
            UnionKind::Discriminated {
                name,
                access,
                shape: disc_shape,
            } => {
                let d = discriminator(rules, access, *disc_shape, v);
                if ratchet
                    && d == discriminator(rules, access, *disc_shape, old)
                    && (0..n).all(|i| set(i, v) == set(i, old))
                {
                    return;
                }
                for (i, m) in u.members.iter().enumerate() {
                    let is_disc = d == m.discriminator_value;
                    match (set(i, v), is_disc) {
                        (true, false) => check::union_member_not_selected(
                            &path.child(&m.name),
                            name,
                            &m.discriminator_value,
                            &mut self.out,
                        ),
                        (false, true) => check::union_member_missing(
                            &path.child(&m.name),
                            name,
                            d,
                            &mut self.out,
                        ),
                        _ => {}
                    }
                }
            }
        }
    }

    /// `Discriminated`: the `ifMode` rules of one member field.
    pub(crate) fn discriminated(
        &mut self,
        d: &Discriminated,
        path: &PathRef<'_>,
        v: Val<'_>,
        old: Val<'_>,
    ) {
        let rules = self.rules;
        if v.is_nil() {
            return;
        }
        let value = field(rules, v, &d.access, d.shape);
        let disc = field(rules, v, &d.discriminator_access, d.discriminator_shape);
        let old_value = if old.is_nil() {
            Val::Nil
        } else {
            let old_disc = field(rules, old, &d.discriminator_access, d.discriminator_shape);
            let old_value = field(rules, old, &d.access, d.shape);
            if self.op.is_update()
                && deep_equal(rules, d.discriminator_shape, disc, old_disc)
                && deep_equal(rules, d.shape, value, old_value)
            {
                return;
            }
            old_value
        };
        let p = path.child(&d.field);
        let selected = d.rules.iter().find(|r| match &r.value {
            Literal::String(s) => as_str(disc) == Some(s.as_str()),
            Literal::Bool(b) => as_bool(disc) == Some(*b),
            Literal::Int(_) => false,
        });
        let Some(rule) = selected else {
            if presence_set(rules, d.default_forbidden, d.shape, value) {
                let start = self.out.len();
                check::forbidden(&p, &mut self.out);
                match d.default_level {
                    Some(Level::Alpha) => {
                        self.out[start..].mark_alpha();
                    }
                    Some(Level::Beta) => {
                        self.out[start..].mark_beta();
                    }
                    None => {}
                }
            }
            return;
        };
        // Rule order, no short-circuit-first reordering; after the last short-circuit
        // function, any short-circuit failure ends the rule. Errors are not marked.
        let last_sc = rule.validations.iter().rposition(|x| x.short_circuit);
        let mut early = false;
        for (i, val) in rule.validations.iter().enumerate() {
            if val.short_circuit {
                let start = self.out.len();
                self.call_marked(val, &p, d.shape, value, old_value);
                if self.out.len() > start {
                    early = true;
                    if val.non_error {
                        self.out.truncate(start);
                    }
                }
                if Some(i) == last_sc && early {
                    return;
                }
            } else if !val.non_error {
                self.call_marked(val, &p, d.shape, value, old_value);
            }
        }
    }

    /// `DependentRequired` / `DependentForbidden`.
    pub(crate) fn dependency(
        &mut self,
        d: &Dependency,
        path: &PathRef<'_>,
        v: Val<'_>,
        old: Val<'_>,
    ) {
        if v.is_nil() {
            return;
        }
        let rules = self.rules;
        let trigger = field_set(rules, &d.trigger_set, v);
        let dependent = field_set(rules, &d.dependent_set, v);
        if self.op.is_update()
            && !old.is_nil()
            && trigger == field_set(rules, &d.trigger_set, old)
            && dependent == field_set(rules, &d.dependent_set, old)
        {
            return;
        }
        if !trigger {
            return;
        }
        let p = path.child(&d.dependent);
        match (d.forbidden, dependent) {
            (true, true) => check::dependent_forbidden(&p, &d.trigger, &mut self.out),
            (false, false) => check::dependent_required(&p, &d.trigger, &mut self.out),
            _ => {}
        }
    }

    /// `+k8s:customValidation`: the registered function, if a registry was given.
    pub(crate) fn custom_validation(
        &mut self,
        function: &str,
        package: &str,
        path: &PathRef<'_>,
        shape: ShapeId,
        v: Val<'_>,
        old: Val<'_>,
    ) {
        let Some(registry) = self.custom else {
            return;
        };
        let rules = self.rules;
        // Absent non-nilable values are their Go zero value (built without allocating for
        // scalars and structs); map keys are strings.
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
            Some(errs) => self.out.extend(errs),
            None => self.out.push(FieldError::internal(
                path,
                format!("no custom validation function {function} registered (package {package})"),
            )),
        }
    }
}
