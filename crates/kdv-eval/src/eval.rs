//! The traversal: type functions, field blocks, `run_calls` (cohorts and short-circuits),
//! stability marks, and the ratchet decision of field blocks. What each check means is the
//! runtime's ([`crate::calls`] turns one IR check into one runtime call).
//!
//! Everything below the decoding pass is generic over the [`ErrorSink`]: with the caller's
//! [`ErrorList`] it collects errors; with a [`Verdict`] it is the yes/no form of the same
//! validations, used for validations whose errors are discarded (`+k8s:optional`).

use kdv_rules::{
    Calls, Check, FieldAccess, FieldPathRule, FieldRules, Level, RuleSet, ShapeId, TypeId,
    TypeKind, TypeRules, Validation,
};
use kdv_runtime::{
    ErrorList, ErrorListExt, ErrorSink, FieldError, Operation, PathRef, Verdict, required,
};
use serde_json::Value;

use crate::custom::{CustomValidators, EvalOptions};
use crate::value::{
    MAX_DEPTH, Val, deep_equal, field, for_each_keyed, json_identical, kind_ok, normalize,
};
use crate::view::Typed;

/// How many field blocks of a struct get their values from one pass over the object (a
/// stack array per struct level); further blocks look their keys up.
const SLOTS: usize = 32;

pub(crate) struct Eval<'r> {
    pub rules: &'r RuleSet,
    pub op: &'r Operation,
    pub custom: Option<&'r dyn CustomValidators>,
    depth: usize,
    too_deep: bool,
    /// The decoding pass found every (new) value of the kind its shape decodes, so
    /// validation need not check kinds of new values again.
    pub kinds_checked: bool,
    /// The runtime cost budget left for `+validationRule` rules in this validation (the
    /// API server's per-request budget of CRD rules).
    pub cel_budget: i64,
    /// The release whose CEL environment compiles `+validationRule`s.
    pub kubernetes_minor: u32,
}

pub(crate) fn run(
    rules: &RuleSet,
    ty: TypeId,
    op: &Operation,
    new: &Value,
    old: Option<&Value>,
    options: &EvalOptions<'_>,
) -> ErrorList {
    let mut out = ErrorList::new();
    let mut ev = Eval {
        rules,
        op,
        custom: options.custom_validators,
        depth: 0,
        too_deep: false,
        kinds_checked: true,
        cel_budget: kdv_openapi::cel::RUNTIME_COST_BUDGET,
        kubernetes_minor: options
            .kubernetes_minor
            .unwrap_or(kdv_openapi::DEFAULT_KUBERNETES_MINOR),
    };
    let t = rules.type_rules(ty);
    let root = PathRef::Nil;
    let new_val = normalize(rules, t.shape, Some(new));
    if options.skip_decoding {
        // Each value's kind is checked where a validation reads it instead.
        ev.kinds_checked = false;
    } else {
        ev.type_check(t.shape, new, &root, 0, &mut out);
        ev.kinds_checked &= out.is_empty();
    }
    if !t.has_validations {
        return out;
    }
    if !t.subresources.is_empty() && !t.subresources.iter().any(|s| op.subresource_is(s)) {
        let prefix = if rules.shape(t.shape).is_nilable() && t.kind == TypeKind::Typedef {
            ""
        } else {
            "*"
        };
        out.push(FieldError::internal(
            &root,
            format!(
                "no validation found for {prefix}{}.{}, subresource: {}",
                t.package_name,
                t.name,
                op.subresource_path()
            ),
        ));
        return out;
    }
    if !kind_ok(rules, t.shape, new_val) {
        return out;
    }
    let old_val = match old {
        None | Some(Value::Null) => Val::Nil,
        Some(v) if kind_ok(rules, t.shape, Val::Json(v)) => Val::Json(v),
        Some(_) => Val::Nil,
    };
    ev.validate_type(ty, &root, new_val, old_val, &mut out);
    out
}

impl<'r> Eval<'r> {
    fn enter<S: ErrorSink>(&mut self, path: &PathRef<'_>, out: &mut S) -> bool {
        if self.depth >= MAX_DEPTH {
            // Reported once, by the traversal that keeps errors.
            if S::KEEPS_ERRORS && !self.too_deep {
                self.too_deep = true;
                out.fail(|| {
                    FieldError::internal(path, "value nesting exceeds the validation depth limit")
                });
            }
            return false;
        }
        self.depth += 1;
        true
    }

    /// A type's validation function (`Validate_T`).
    pub(crate) fn validate_type<S: ErrorSink>(
        &mut self,
        id: TypeId,
        path: &PathRef<'_>,
        v: Val<'_>,
        old: Val<'_>,
        out: &mut S,
    ) {
        self.validate_type_of(id, path, v, old, true, out);
    }

    /// [`validate_type`](Eval::validate_type); `may_be_identical` is false when the caller
    /// already knows `old` is not identical JSON (a field block that did not ratchet).
    fn validate_type_of<S: ErrorSink>(
        &mut self,
        id: TypeId,
        path: &PathRef<'_>,
        v: Val<'_>,
        old: Val<'_>,
        may_be_identical: bool,
        out: &mut S,
    ) {
        let rules = self.rules;
        let t = rules.type_rules(id);
        if !t.has_validations || !self.enter(path, out) {
            return;
        }
        // An old value of identical JSON is handed on as `v` itself: the checks' own
        // identity tests (union ratcheting) then succeed at the first pointer comparison
        // instead of walking both values again, and the field blocks, which would all
        // ratchet, are skipped at once.
        let unchanged = may_be_identical
            && self.op.is_update()
            && matches!((v, old), (Val::Json(x), Val::Json(y)) if json_identical(x, y, 0));
        let old = if unchanged { v } else { old };
        if self.run_calls(&t.validations, path, t.shape, v, old, out) {
            for it in &t.iterations {
                self.call_marked(it, path, t.shape, v, old, out);
            }
            // A nil struct is not descended (upstream would dereference nil).
            if !(t.opaque || (t.kind == TypeKind::Struct && v.is_nil()) || unchanged) {
                self.field_blocks(t, path, v, old, out);
            }
        }
        self.depth -= 1;
    }

    /// The field blocks of a struct type, in declaration order. The values of the first
    /// [`SLOTS`] keyed blocks are found in one pass over each object (new and old); the
    /// others are looked up.
    #[inline(never)]
    fn field_blocks<S: ErrorSink>(
        &mut self,
        t: &TypeRules,
        path: &PathRef<'_>,
        v: Val<'_>,
        old: Val<'_>,
        out: &mut S,
    ) {
        if t.fields.is_empty() {
            return;
        }
        let rules = self.rules;
        let mut new_slots: [Option<&Value>; SLOTS] = [None; SLOTS];
        let mut old_slots: [Option<&Value>; SLOTS] = [None; SLOTS];
        let key = |i: u32| match &t.fields[i as usize].access {
            FieldAccess::Key(k) => k.as_str(),
            _ => "",
        };
        for (obj, slots) in [(v.object(), &mut new_slots), (old.object(), &mut old_slots)] {
            if let Some(obj) = obj {
                for_each_keyed(obj, &t.field_key_order, key, |i, x| {
                    if let Some(slot) = slots.get_mut(i as usize) {
                        *slot = Some(x);
                    }
                });
            }
        }
        let correlated = !old.is_nil();
        for (i, f) in t.fields.iter().enumerate() {
            let (nv, ov) = match f.access {
                FieldAccess::Key(_) if i < SLOTS => (
                    normalize(rules, f.shape, new_slots[i]),
                    if correlated {
                        normalize(rules, f.shape, old_slots[i])
                    } else {
                        Val::Nil
                    },
                ),
                _ => (
                    field(rules, v, &f.access, f.shape),
                    if correlated {
                        field(rules, old, &f.access, f.shape)
                    } else {
                        Val::Nil
                    },
                ),
            };
            if f.declarative_native {
                let start = out.count();
                self.field_block(f, path, nv, ov, correlated, out);
                out.since(start).mark_declarative_native();
            } else {
                self.field_block(f, path, nv, ov, correlated, out);
            }
        }
    }

    /// One struct field's block (§4.3): `v` and `old` are the field's values (`old` is
    /// meaningful only when `correlated`, i.e. the struct has an old value). Ratcheting: on
    /// Update, an unchanged field is not validated at all. Inlined into
    /// [`field_blocks`](Eval::field_blocks), its one caller.
    #[inline(always)]
    fn field_block<S: ErrorSink>(
        &mut self,
        f: &FieldRules,
        parent_path: &PathRef<'_>,
        v: Val<'_>,
        old: Val<'_>,
        correlated: bool,
        out: &mut S,
    ) {
        let rules = self.rules;
        if !self.kinds_checked && !kind_ok(rules, f.shape, v) {
            return;
        }
        // Identical JSON is unchanged (and of the right kind, as `v` is): no need to check
        // the old value's kind first.
        if correlated
            && self.op.is_update()
            && let (Val::Json(x), Val::Json(y)) = (v, old)
            && json_identical(x, y, 0)
        {
            return;
        }
        let old = if correlated && kind_ok(rules, f.shape, old) {
            old
        } else {
            Val::Nil
        };
        if correlated && self.op.is_update() && deep_equal(rules, f.shape, v, old) {
            return;
        }
        let nil = PathRef::Nil;
        let path = match &f.path {
            FieldPathRule::Child(name) => parent_path.child(name),
            FieldPathRule::Parent { root_segment } => {
                if parent_path.is_nil() {
                    nil.child(root_segment)
                } else {
                    *parent_path
                }
            }
        };
        if !self.run_calls(&f.validations, &path, f.shape, v, old, out) {
            return;
        }
        if let Some(tid) = f.type_call {
            let t = rules.type_rules(tid);
            if t.fields.is_empty() && t.iterations.is_empty() && self.depth < MAX_DEPTH {
                // A type with only type-level validations (a typedef'd scalar, mostly): its
                // function is just those.
                self.depth += 1;
                self.run_calls(&t.validations, &path, t.shape, v, old, out);
                self.depth -= 1;
            } else {
                // Identical JSON ratcheted above.
                self.validate_type_of(tid, &path, v, old, false, out);
            }
        }
        for it in &f.iterations {
            self.call_marked(it, &path, f.shape, v, old, out);
        }
    }

    /// `run_calls`: cohorts in order; within a cohort all short-circuit validations run
    /// first, then (if none failed) the others. Returns false when a default-cohort
    /// short-circuit failed (the caller stops).
    #[inline(always)]
    fn run_calls<S: ErrorSink>(
        &mut self,
        calls: &Calls,
        path: &PathRef<'_>,
        shape: ShapeId,
        v: Val<'_>,
        old: Val<'_>,
        out: &mut S,
    ) -> bool {
        match calls.cohorts.as_slice() {
            [] => true,
            [cohort] if cohort.short_circuit.is_empty() => {
                // The common case: one cohort, nothing short-circuits.
                for val in &cohort.regular {
                    if val.non_error {
                        continue;
                    }
                    if val.level.is_none() && !val.declarative_native {
                        self.call_scalar(val, path, shape, v, old, out);
                    } else {
                        self.call_marked(val, path, shape, v, old, out);
                    }
                }
                true
            }
            _ => self.run_cohorts(calls, path, shape, v, old, out),
        }
    }

    /// [`run_calls`](Eval::run_calls) with short-circuits or several cohorts.
    #[inline(never)]
    fn run_cohorts<S: ErrorSink>(
        &mut self,
        calls: &Calls,
        path: &PathRef<'_>,
        shape: ShapeId,
        v: Val<'_>,
        old: Val<'_>,
        out: &mut S,
    ) -> bool {
        for cohort in &calls.cohorts {
            let mut early = false;
            for val in &cohort.short_circuit {
                if val.non_error {
                    // Only whether it fails matters: its yes/no form builds no error.
                    early |= self.fails(val, path, shape, v, old);
                    continue;
                }
                let start = out.count();
                self.call_marked(val, path, shape, v, old, out);
                if out.count() > start {
                    early = true;
                    out.since(start).mark_short_circuit();
                }
            }
            if early {
                if cohort.name.is_none() {
                    return false;
                }
                continue;
            }
            for val in &cohort.regular {
                // A non-short-circuit NonError validation has no observable effect.
                if val.non_error {
                    continue;
                }
                self.call_marked(val, path, shape, v, old, out);
            }
        }
        true
    }

    /// Whether `val` reports anything: the validation run against a [`Verdict`]. The
    /// presence checks (`+k8s:optional` is the usual discarded short-circuit) are called
    /// here directly rather than through the whole dispatch of [`Eval::call`].
    #[inline]
    pub(crate) fn fails(
        &mut self,
        val: &Validation,
        path: &PathRef<'_>,
        shape: ShapeId,
        v: Val<'_>,
        old: Val<'_>,
    ) -> bool {
        let mut verdict = Verdict::default();
        let t = Typed::new(self.rules, shape, v);
        match &val.check {
            Check::Optional(p) => required::optional(path, *p, t, &mut verdict),
            Check::Required(p) => required::required(path, *p, t, &mut verdict),
            _ => self.call(val, path, shape, v, old, &mut verdict),
        }
        verdict.failed()
    }

    /// Calls a validation and applies its stability and declarative-native marks to what it
    /// returned.
    pub(crate) fn call_marked<S: ErrorSink>(
        &mut self,
        val: &Validation,
        path: &PathRef<'_>,
        shape: ShapeId,
        v: Val<'_>,
        old: Val<'_>,
        out: &mut S,
    ) {
        let start = out.count();
        self.call(val, path, shape, v, old, out);
        mark(out, start, val.level);
        if val.declarative_native {
            out.since(start).mark_declarative_native();
        }
    }
}

/// Applies a stability mark to the errors recorded since `start`.
#[inline]
pub(crate) fn mark<S: ErrorSink>(out: &mut S, start: usize, level: Option<Level>) {
    match level {
        Some(Level::Alpha) => {
            out.since(start).mark_alpha();
        }
        Some(Level::Beta) => {
            out.since(start).mark_beta();
        }
        None => {}
    }
}
