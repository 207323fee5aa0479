//! The traversal: type functions, field blocks, `run_calls` and the checks.

use kdv_rules::{
    Calls, Check, CommonKind, FieldAccess, FieldPathRule, FieldRules, ItemMatch, Level, Literal,
    Presence, RuleSet, Shape, ShapeId, StructShape, TypeId, TypeKind, TypeRules, UpdateConstraint,
    UpdateKind, Validation,
};
use kdv_runtime::check;
use kdv_runtime::{BadValue, ErrorList, ErrorListExt, FieldError, Operation, PathRef};
use serde_json::{Map, Value};

use crate::custom::{CustomValidators, EvalOptions};
use crate::list;
use crate::value::{
    MAX_DEPTH, Val, as_bool, as_int, as_str, deep_equal, deref, field, for_each_keyed, is_base64,
    is_zero, json_identical, kind_ok, len, normalize, str_eq, type_error_detail,
};

/// Whether `x` (or `null`) decodes into every field of a struct whose fields share `kind`.
#[inline]
fn decodes_as(kind: CommonKind, x: &Value) -> bool {
    match (kind, x) {
        (_, Value::Null) | (CommonKind::String, Value::String(_)) => true,
        (CommonKind::Bool, Value::Bool(_)) => true,
        (CommonKind::Int { min, max }, Value::Number(n)) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => (min..=max).contains(&i128::from(i)),
            (None, Some(u)) => (min..=max).contains(&i128::from(u)),
            _ => false,
        },
        _ => false,
    }
}

/// How many field blocks of a struct get their values from one pass over the object (a
/// stack array per struct level); further blocks look their keys up.
const SLOTS: usize = 32;

/// Moves the errors after `start` so that the segments (`(field index, from, to)`, each a
/// range of `out`, together covering `out[start..]`) follow field declaration order.
fn reorder_segments(out: &mut ErrorList, start: usize, mut segments: Vec<(u32, usize, usize)>) {
    segments.sort_by_key(|s| s.0);
    let mut tail: Vec<Option<FieldError>> = out.drain(start..).map(Some).collect();
    for (_, from, to) in segments {
        out.extend(
            tail[from - start..to - start]
                .iter_mut()
                .filter_map(Option::take),
        );
    }
}

pub(crate) struct Eval<'r> {
    pub rules: &'r RuleSet,
    pub op: &'r Operation,
    pub custom: Option<&'r dyn CustomValidators>,
    pub out: ErrorList,
    depth: usize,
    too_deep: bool,
    /// The decoding pass found every (new) value of the kind its shape decodes, so
    /// validation need not check kinds of new values again.
    kinds_checked: bool,
}

/// Whether `path` (e.g. `/status`) is the operation's subresource path, without building it.
fn subresource_is(op: &Operation, path: &str) -> bool {
    if op.subresources.is_empty() {
        return path == "/";
    }
    let Some(rest) = path.strip_prefix('/') else {
        return false;
    };
    let mut parts = rest.split('/');
    for s in &op.subresources {
        if parts.next() != Some(s.as_str()) {
            return false;
        }
    }
    parts.next().is_none()
}

pub(crate) fn run(
    rules: &RuleSet,
    ty: TypeId,
    op: &Operation,
    new: &Value,
    old: Option<&Value>,
    options: &EvalOptions<'_>,
) -> ErrorList {
    let mut ev = Eval {
        rules,
        op,
        custom: options.custom_validators,
        out: Vec::new(),
        depth: 0,
        too_deep: false,
        kinds_checked: true,
    };
    let t = rules.type_rules(ty);
    let root = PathRef::Nil;
    let new_val = normalize(rules, t.shape, Some(new));
    ev.type_check(t.shape, new, &root, 0);
    ev.kinds_checked &= ev.out.is_empty();
    if !t.has_validations {
        return ev.out;
    }
    if !t.subresources.is_empty() && !t.subresources.iter().any(|s| subresource_is(op, s)) {
        let prefix = if rules.shape(t.shape).is_nilable() && t.kind == TypeKind::Typedef {
            ""
        } else {
            "*"
        };
        ev.out.push(FieldError::internal(
            &root,
            format!(
                "no validation found for {prefix}{}.{}, subresource: {}",
                t.package_name,
                t.name,
                op.subresource_path()
            ),
        ));
        return ev.out;
    }
    if !kind_ok(rules, t.shape, new_val) {
        return ev.out;
    }
    let old_val = match old {
        None | Some(Value::Null) => Val::Nil,
        Some(v) if kind_ok(rules, t.shape, Val::Json(v)) => Val::Json(v),
        Some(_) => Val::Nil,
    };
    ev.validate_type(ty, &root, new_val, old_val);
    ev.out
}

impl<'r> Eval<'r> {
    /// The decoding pass: one `FieldValueTypeInvalid` per JSON value of the wrong kind.
    fn type_check(&mut self, shape: ShapeId, j: &Value, path: &PathRef<'_>, depth: usize) {
        if j.is_null() {
            return;
        }
        if depth > MAX_DEPTH {
            self.kinds_checked = false;
            return;
        }
        let rules = self.rules;
        let ok = match rules.shape(shape) {
            Shape::String { .. } => j.is_string(),
            Shape::Bool => j.is_boolean(),
            Shape::Int(k) => as_int(Val::Json(j), *k).is_some(),
            Shape::Float(_) => j.is_number(),
            Shape::Bytes => matches!(j, Value::String(s) if is_base64(s)),
            Shape::Any => true,
            Shape::Pointer(e) => {
                if depth < MAX_DEPTH {
                    return self.type_check(*e, j, path, depth + 1);
                }
                self.kinds_checked = false;
                kind_ok(rules, shape, Val::Json(j))
            }
            Shape::Slice(e) => match j {
                Value::Array(a) => {
                    for (i, x) in a.iter().enumerate() {
                        let p = path.index(i);
                        self.type_check(*e, x, &p, depth + 1);
                    }
                    true
                }
                _ => false,
            },
            Shape::Map { value, .. } => match j {
                Value::Object(m) => {
                    for (k, x) in m {
                        let p = path.key(k);
                        self.type_check(*value, x, &p, depth + 1);
                    }
                    true
                }
                _ => false,
            },
            Shape::Struct(st) => match j {
                Value::Object(obj) => {
                    self.type_check_fields(st, j, obj, path, depth);
                    true
                }
                _ => false,
            },
        };
        if !ok {
            let detail = type_error_detail(rules, shape, j);
            self.out.push(FieldError::type_invalid(
                path,
                BadValue::Json(j.clone()),
                detail,
            ));
        }
    }

    /// The decoding pass over a struct's fields. They are checked in key order (one pass
    /// over the object); errors are put back in declaration order afterwards, which
    /// allocates only when there are errors.
    fn type_check_fields(
        &mut self,
        st: &StructShape,
        j: &Value,
        obj: &Map<String, Value>,
        path: &PathRef<'_>,
        depth: usize,
    ) {
        let key = |i: u32| match &st.fields[i as usize].access {
            FieldAccess::Key(k) => k.as_str(),
            _ => "",
        };
        if let Some(kind) = st.common_kind
            && obj.iter().all(|(k, x)| {
                // A value of the common kind decodes into any field but the others; one
                // of another kind needs its field found.
                decodes_as(kind, x) && !st.other_kinds.iter().any(|&i| str_eq(key(i), k))
                    || st.other_kinds.iter().any(|&i| {
                        str_eq(key(i), k)
                            && kind_ok(self.rules, st.fields[i as usize].shape, Val::Json(x))
                    })
            })
        {
            return;
        }
        let start = self.out.len();
        let mut segments: Vec<(u32, usize, usize)> = Vec::new();
        let rules = self.rules;
        for_each_keyed(obj, &st.key_order, key, |i, x| {
            let shape = st.fields[i as usize].shape;
            // Scalars of the right kind (most fields) need no call.
            let fine = match (rules.shape(shape), x) {
                (Shape::String { .. }, Value::String(_)) | (Shape::Bool, Value::Bool(_)) => true,
                (Shape::Int(k), Value::Number(_)) => as_int(Val::Json(x), *k).is_some(),
                _ => false,
            };
            if fine {
                return;
            }
            let from = self.out.len();
            let p = path.child(key(i));
            self.type_check(shape, x, &p, depth + 1);
            if self.out.len() > from {
                segments.push((i, from, self.out.len()));
            }
        });
        // Fields not read from a key are embedded structs (rare).
        let inline = st.key_order.len() < st.fields.len();
        for (i, f) in st.fields.iter().enumerate().filter(|_| inline) {
            if let FieldAccess::Inline { .. } = f.access {
                let from = self.out.len();
                self.type_check(f.shape, j, path, depth + 1);
                if self.out.len() > from {
                    segments.push((i as u32, from, self.out.len()));
                }
            }
        }
        if !segments.is_sorted_by_key(|s| s.0) {
            reorder_segments(&mut self.out, start, segments);
        }
    }

    fn enter(&mut self, path: &PathRef<'_>) -> bool {
        if self.depth >= MAX_DEPTH {
            if !self.too_deep {
                self.too_deep = true;
                self.out.push(FieldError::internal(
                    path,
                    "value nesting exceeds the validation depth limit",
                ));
            }
            return false;
        }
        self.depth += 1;
        true
    }

    /// A type's validation function (`Validate_T`).
    pub(crate) fn validate_type(
        &mut self,
        id: TypeId,
        path: &PathRef<'_>,
        v: Val<'_>,
        old: Val<'_>,
    ) {
        let rules = self.rules;
        let t = rules.type_rules(id);
        if !t.has_validations || !self.enter(path) {
            return;
        }
        if self.run_calls(&t.validations, path, t.shape, v, old) {
            for it in &t.iterations {
                self.call_marked(it, path, t.shape, v, old);
            }
            // A nil struct is not descended (upstream would dereference nil). When the old
            // struct is identical JSON, every field block would ratchet: skipped at once.
            let unchanged = || {
                self.op.is_update()
                    && matches!((v, old), (Val::Json(x), Val::Json(y)) if json_identical(x, y, 0))
            };
            if !(t.opaque || (t.kind == TypeKind::Struct && v.is_nil()) || unchanged()) {
                self.field_blocks(t, path, v, old);
            }
        }
        self.depth -= 1;
    }

    /// The field blocks of a struct type, in declaration order. The values of the first
    /// [`SLOTS`] keyed blocks are found in one pass over each object (new and old); the
    /// others are looked up.
    #[inline(never)]
    fn field_blocks(&mut self, t: &TypeRules, path: &PathRef<'_>, v: Val<'_>, old: Val<'_>) {
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
            self.field_block(f, path, nv, ov, correlated);
        }
    }

    /// One struct field's block (§4.3): `v` and `old` are the field's values (`old` is
    /// meaningful only when `correlated`, i.e. the struct has an old value).
    fn field_block(
        &mut self,
        f: &FieldRules,
        parent_path: &PathRef<'_>,
        v: Val<'_>,
        old: Val<'_>,
        correlated: bool,
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
        if !self.run_calls(&f.validations, &path, f.shape, v, old) {
            return;
        }
        if let Some(tid) = f.type_call {
            let t = rules.type_rules(tid);
            if t.fields.is_empty() && t.iterations.is_empty() && self.depth < MAX_DEPTH {
                // A type with only type-level validations (a typedef'd scalar, mostly): its
                // function is just those.
                self.depth += 1;
                self.run_calls(&t.validations, &path, t.shape, v, old);
                self.depth -= 1;
            } else {
                self.validate_type(tid, &path, v, old);
            }
        }
        for it in &f.iterations {
            self.call_marked(it, &path, f.shape, v, old);
        }
    }

    /// `run_calls`: cohorts in order; within a cohort all short-circuit validations run
    /// first, then (if none failed) the others. Returns false when a default-cohort
    /// short-circuit failed (the caller stops).
    #[inline]
    fn run_calls(
        &mut self,
        calls: &Calls,
        path: &PathRef<'_>,
        shape: ShapeId,
        v: Val<'_>,
        old: Val<'_>,
    ) -> bool {
        match calls.cohorts.as_slice() {
            [] => true,
            [cohort] if cohort.short_circuit.is_empty() => {
                // The common case: one cohort, nothing short-circuits.
                for val in &cohort.regular {
                    if val.non_error {
                        continue;
                    }
                    if val.level.is_none() {
                        self.call(val, path, shape, v, old);
                    } else {
                        self.call_marked(val, path, shape, v, old);
                    }
                }
                true
            }
            _ => self.run_cohorts(calls, path, shape, v, old),
        }
    }

    /// [`run_calls`](Eval::run_calls) with short-circuits or several cohorts.
    #[inline(never)]
    fn run_cohorts(
        &mut self,
        calls: &Calls,
        path: &PathRef<'_>,
        shape: ShapeId,
        v: Val<'_>,
        old: Val<'_>,
    ) -> bool {
        for cohort in &calls.cohorts {
            let mut early = false;
            for val in &cohort.short_circuit {
                if val.non_error
                    && let Some(fails) = self.probe(val, shape, v, old)
                {
                    // Decided without building (and discarding) the error.
                    early |= fails;
                    continue;
                }
                let start = self.out.len();
                self.call_marked(val, path, shape, v, old);
                if self.out.len() > start {
                    early = true;
                    if val.non_error {
                        self.out.truncate(start);
                    } else {
                        self.out[start..].mark_short_circuit();
                    }
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
                self.call_marked(val, path, shape, v, old);
            }
        }
        true
    }

    /// Calls a wrapped validation (inside an element loop) with its stability mark.
    pub(crate) fn call_inner(
        &mut self,
        val: &Validation,
        path: &PathRef<'_>,
        shape: ShapeId,
        v: Val<'_>,
        old: Val<'_>,
    ) {
        self.call_marked(val, path, shape, v, old);
    }

    /// Calls a validation and applies its stability mark to what it returned.
    pub(crate) fn call_marked(
        &mut self,
        val: &Validation,
        path: &PathRef<'_>,
        shape: ShapeId,
        v: Val<'_>,
        old: Val<'_>,
    ) {
        let start = self.out.len();
        self.call(val, path, shape, v, old);
        match val.level {
            Some(Level::Alpha) => {
                self.out[start..].mark_alpha();
            }
            Some(Level::Beta) => {
                self.out[start..].mark_beta();
            }
            None => {}
        }
    }

    /// Whether `val` would report anything, decided without allocating; `None` when the
    /// check has to be run to know.
    fn probe(&self, val: &Validation, shape: ShapeId, v: Val<'_>, old: Val<'_>) -> Option<bool> {
        let rules = self.rules;
        Some(match &val.check {
            Check::Required(p) | Check::Optional(p) => !self.is_set(*p, shape, v),
            Check::Forbidden(p) => self.is_set(*p, shape, v),
            Check::Immutable => self.op.is_update(),
            Check::Fixed { pass, .. } => !pass,
            Check::MinItems(n) => (len(rules, shape, v) as i64) < *n,
            Check::MaxItems(n) => (len(rules, shape, v) as i64) > *n,
            Check::MinProperties(n) => (len(rules, shape, v) as i64) < *n,
            Check::MaxProperties(n) => !v.is_nil() && (len(rules, shape, v) as i64) > *n,
            Check::IfOption {
                option,
                enabled,
                inner,
            } => match self.op.has_option(option) {
                None => true,
                Some(on) if on == *enabled => self.probe(inner, shape, v, old)?,
                Some(_) => false,
            },
            Check::Subfield {
                access,
                shape: sub_shape,
                inner,
                ..
            } => {
                if v.is_nil() {
                    return Some(false);
                }
                let nv = field(rules, v, access, *sub_shape);
                let ov = if old.is_nil() {
                    Val::Nil
                } else {
                    field(rules, old, access, *sub_shape)
                };
                if self.op.is_update() && !old.is_nil() && deep_equal(rules, *sub_shape, nv, ov) {
                    return Some(false);
                }
                if !self.kinds_checked && !kind_ok(rules, *sub_shape, nv) {
                    return Some(false);
                }
                self.probe(inner, *sub_shape, nv, ov)?
            }
            _ => return None,
        })
    }

    fn is_set(&self, p: Presence, shape: ShapeId, v: Val<'_>) -> bool {
        crate::members::presence_set(self.rules, p, shape, v)
    }

    /// Whether the (dereferenced) shape is a named string type.
    fn named_string(&self, shape: ShapeId) -> bool {
        matches!(
            self.rules.shape(deref(self.rules, shape)),
            Shape::String { named: true }
        )
    }

    /// Go prints values of named string types JSON-encoded: retype string bad values of the
    /// errors appended since `start`.
    fn retype_named(&mut self, start: usize, shape: ShapeId) {
        if self.out.len() == start || !self.named_string(shape) {
            return;
        }
        for e in &mut self.out[start..] {
            if let BadValue::String(s) = &mut e.bad_value {
                let s = std::mem::take(s);
                e.bad_value = BadValue::named_string(s);
            }
        }
    }

    /// Executes one check.
    fn call(
        &mut self,
        val: &Validation,
        path: &PathRef<'_>,
        shape: ShapeId,
        v: Val<'_>,
        old: Val<'_>,
    ) {
        let rules = self.rules;
        let out_start = self.out.len();
        match &val.check {
            Check::Required(p) => {
                if !self.is_set(*p, shape, v) {
                    check::required(path, &mut self.out);
                }
            }
            Check::Optional(p) => {
                if !self.is_set(*p, shape, v) {
                    check::optional_unset(path, &mut self.out);
                }
            }
            Check::Forbidden(p) => {
                if self.is_set(*p, shape, v) {
                    check::forbidden(path, &mut self.out);
                }
            }
            Check::Minimum(bound) | Check::Maximum(bound) => {
                let Shape::Int(kind) = rules.shape(deref(rules, shape)) else {
                    return;
                };
                let Some(x) = as_int(v, *kind) else { return };
                let is_min = matches!(val.check, Check::Minimum(_));
                if kind.signed {
                    let (x, b) = (
                        x as i64,
                        (*bound).clamp(i64::MIN as i128, i64::MAX as i128) as i64,
                    );
                    if is_min {
                        check::minimum_int(path, x, b, &mut self.out);
                    } else {
                        check::maximum_int(path, x, b, &mut self.out);
                    }
                } else {
                    let (x, b) = (x as u64, (*bound).clamp(0, u64::MAX as i128) as u64);
                    if is_min {
                        check::minimum_uint(path, x, b, &mut self.out);
                    } else {
                        check::maximum_uint(path, x, b, &mut self.out);
                    }
                }
            }
            Check::MinLength(n) | Check::MaxLength(n) | Check::MaxBytes(n) => {
                let Some(s) = as_str(v) else { return };
                match val.check {
                    Check::MinLength(_) => check::min_length(path, s, *n, &mut self.out),
                    Check::MaxLength(_) => check::max_length(path, s, *n, &mut self.out),
                    _ => check::max_bytes(path, s, *n, &mut self.out),
                }
                self.retype_named(out_start, shape);
            }
            Check::MinItems(n) => check::min_items(path, len(rules, shape, v), *n, &mut self.out),
            Check::MaxItems(n) => check::max_items(path, len(rules, shape, v), *n, &mut self.out),
            Check::MinProperties(n) => {
                check::min_properties(path, len(rules, shape, v), *n, &mut self.out)
            }
            Check::MaxProperties(n) => {
                if !v.is_nil() {
                    check::max_properties(path, len(rules, shape, v), *n, &mut self.out);
                }
            }
            Check::Format(f) => {
                let Some(s) = as_str(v) else { return };
                if self.named_string(shape) {
                    kdv_runtime::validate_format_named(*f, path, s, &mut self.out);
                } else {
                    kdv_runtime::validate_format(*f, path, s, &mut self.out);
                }
            }
            Check::Enum(spec) => {
                let Some(s) = as_str(v) else { return };
                check::enum_value(
                    path,
                    s,
                    &spec.members,
                    &spec.exclusions,
                    self.op,
                    &mut self.out,
                );
            }
            Check::Neq(lit) => self.neq(lit, path, shape, v),
            Check::Immutable => check::immutable(path, self.op, &mut self.out),
            _ => self.call_composite(val, path, shape, v, old),
        }
    }

    /// Executes the checks [`call`](Eval::call) leaves out: wrappers, list, map and
    /// member checks (kept apart so the scalar checks run in a small function).
    #[inline(never)]
    fn call_composite(
        &mut self,
        val: &Validation,
        path: &PathRef<'_>,
        shape: ShapeId,
        v: Val<'_>,
        old: Val<'_>,
    ) {
        let rules = self.rules;
        match &val.check {
            Check::Fixed { pass, message } => {
                check::fixed_result(
                    path,
                    || bad_value_nilable(rules, shape, v),
                    *pass,
                    message,
                    &mut self.out,
                );
            }
            Check::Unique(matching) => {
                list::unique(self, matching, path, shape, v);
            }
            Check::NoNilElements => {
                for (i, x) in v.array().iter().enumerate() {
                    if x.is_null() {
                        check::nil_list_item(&path.index(i), &mut self.out);
                    }
                }
            }
            Check::EachListVal {
                matching,
                equiv,
                inner,
            } => {
                list::each_list_val(
                    self,
                    matching.as_ref(),
                    equiv.is_some(),
                    inner,
                    path,
                    shape,
                    v,
                    old,
                );
            }
            Check::EachMapVal { inner, .. } => {
                let Shape::Map { value, .. } = rules.shape(shape) else {
                    return;
                };
                let Some(m) = v.object() else { return };
                let old_map = old.object();
                for (k, x) in m {
                    let nv = normalize(rules, *value, Some(x));
                    let ov = old_map.and_then(|o| o.get(k));
                    if let Some(ov) = ov {
                        let ov = normalize(rules, *value, Some(ov));
                        if self.op.is_update() && deep_equal(rules, *value, nv, ov) {
                            continue;
                        }
                        let p = path.key(k);
                        self.call_marked(inner, &p, *value, nv, ov);
                    } else {
                        let p = path.key(k);
                        self.call_marked(inner, &p, *value, nv, Val::Nil);
                    }
                }
            }
            Check::EachMapKey { inner } => {
                let Shape::Map { key, .. } = rules.shape(shape) else {
                    return;
                };
                let Some(m) = v.object() else { return };
                let old_map = old.object();
                for k in m.keys() {
                    if self.op.is_update() && old_map.is_some_and(|o| o.contains_key(k)) {
                        continue;
                    }
                    self.call_marked(inner, path, *key, Val::Key(k), Val::Nil);
                }
            }
            Check::Subfield {
                name,
                access,
                shape: sub_shape,
                inner,
                ..
            } => {
                // A nil struct has no members (upstream would dereference nil).
                if v.is_nil() {
                    return;
                }
                let nv = field(rules, v, access, *sub_shape);
                let ov = if old.is_nil() {
                    Val::Nil
                } else {
                    field(rules, old, access, *sub_shape)
                };
                if self.op.is_update() && !old.is_nil() && deep_equal(rules, *sub_shape, nv, ov) {
                    return;
                }
                if !self.kinds_checked && !kind_ok(rules, *sub_shape, nv) {
                    return;
                }
                let p = path.child(name);
                self.call_marked(inner, &p, *sub_shape, nv, ov);
            }
            // `if_option` reports an undefined option itself; the guard only says whether
            // to run the inner validation.
            Check::IfOption {
                option,
                enabled,
                inner,
            } if check::if_option(path, self.op, option, *enabled, &mut self.out) => {
                self.call_marked(inner, path, shape, v, old);
            }
            Check::CallType(id) => self.validate_type(*id, path, v, old),
            Check::Monotonic => {
                if !self.op.is_update() || v.is_nil() || old.is_nil() {
                    return;
                }
                let Shape::Int(kind) = rules.shape(deref(rules, shape)) else {
                    return;
                };
                let (Some(x), Some(o)) = (as_int(v, *kind), as_int(old, *kind)) else {
                    return;
                };
                if kind.signed {
                    check::monotonic_int(path, self.op, x as i64, o as i64, &mut self.out);
                } else {
                    check::monotonic_uint(path, self.op, x as u64, o as u64, &mut self.out);
                }
            }
            Check::Update {
                kind,
                constraints,
                matching,
            } => self.update(*kind, constraints, matching.as_ref(), path, shape, v, old),
            Check::Item {
                criteria, inner, ..
            } => list::item(self, criteria, inner, path, shape, v, old),
            Check::Union(u) => self.union(u, path, shape, v, old),
            Check::Discriminated(d) => self.discriminated(d, path, v, old),
            Check::Dependency(d) => self.dependency(d, path, v, old),
            Check::CustomValidation {
                function_name,
                package,
            } => self.custom_validation(function_name, package, path, shape, v, old),
            _ => {}
        }
    }

    /// `+k8s:update` (spec §3.13), only on Update.
    #[allow(clippy::too_many_arguments)]
    fn update(
        &mut self,
        kind: UpdateKind,
        constraints: &[UpdateConstraint],
        matching: Option<&ItemMatch>,
        path: &PathRef<'_>,
        shape: ShapeId,
        v: Val<'_>,
        old: Val<'_>,
    ) {
        let rules = self.rules;
        if !self.op.is_update() {
            return;
        }
        let (old_set, new_set) = match kind {
            UpdateKind::Pointer => (Some(!old.is_nil()), !v.is_nil()),
            UpdateKind::Struct => ((!old.is_nil()).then_some(true), true),
            UpdateKind::Value => (
                (!old.is_nil()).then(|| !is_zero(rules, shape, old)),
                !is_zero(rules, shape, v),
            ),
            UpdateKind::Slice | UpdateKind::Map => {
                (Some(len(rules, shape, old) > 0), len(rules, shape, v) > 0)
            }
        };
        check::update_transition(path, self.op, old_set, new_set, constraints, &mut self.out);
        match kind {
            UpdateKind::Slice => {
                if let Some(m) = matching {
                    list::update_items(self, m, constraints, path, shape, v, old);
                }
            }
            UpdateKind::Map => {
                let (new_map, old_map) = (v.object(), old.object());
                if constraints.contains(&UpdateConstraint::NoAddItem)
                    && let Some(nm) = new_map
                {
                    for k in nm.keys() {
                        if !old_map.is_some_and(|o| o.contains_key(k)) {
                            check::update_item_added(&path.key(k), &mut self.out);
                        }
                    }
                }
                if constraints.contains(&UpdateConstraint::NoRemoveItem)
                    && let Some(om) = old_map
                {
                    for k in om.keys() {
                        if !new_map.is_some_and(|n| n.contains_key(k)) {
                            check::update_item_removed(&path.key(k), &mut self.out);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn neq(&mut self, lit: &Literal, path: &PathRef<'_>, shape: ShapeId, v: Val<'_>) {
        let rules = self.rules;
        match (lit, rules.shape(deref(rules, shape))) {
            (Literal::String(d), Shape::String { named }) => {
                let Some(s) = as_str(v) else { return };
                if *named {
                    check::neq_named_string(path, s, d, &mut self.out);
                } else {
                    check::neq_string(path, s, d, &mut self.out);
                }
            }
            (Literal::Bool(d), Shape::Bool) => {
                if let Some(b) = as_bool(v) {
                    check::neq_bool(path, b, *d, &mut self.out);
                }
            }
            (Literal::Int(d), Shape::Int(kind)) => {
                let Some(x) = as_int(v, *kind) else { return };
                if kind.signed {
                    if let Ok(d) = i64::try_from(*d) {
                        check::neq_int(path, x as i64, d, &mut self.out);
                    }
                } else if let Ok(d) = u64::try_from(*d) {
                    check::neq_uint(path, x as u64, d, &mut self.out);
                }
            }
            _ => {}
        }
    }
}

/// The bad value of a `validateFalse` error: the nilable value, JSON-encoded as Go prints a
/// pointer (nil → `null`).
fn bad_value_nilable(rules: &RuleSet, shape: ShapeId, v: Val<'_>) -> BadValue {
    match v {
        Val::Nil => BadValue::Null,
        Val::Json(j) => BadValue::Json(j.clone()),
        Val::Key(k) => BadValue::Json(Value::String(k.to_string())),
        Val::Zero => BadValue::Json(zero_json(rules, shape)),
    }
}

pub(crate) fn zero_json(rules: &RuleSet, shape: ShapeId) -> Value {
    match rules.shape(deref(rules, shape)) {
        Shape::String { .. } | Shape::Bytes => Value::String(String::new()),
        Shape::Bool => Value::Bool(false),
        Shape::Int(_) | Shape::Float(_) => Value::from(0),
        Shape::Struct(_) => Value::Object(Default::default()),
        _ => Value::Null,
    }
}

/// The bad value of an element (duplicates): scalars as Go prints their type, others as
/// JSON.
pub(crate) fn bad_value_elem(rules: &RuleSet, shape: ShapeId, v: Val<'_>) -> BadValue {
    match (rules.shape(shape), v) {
        (Shape::String { named: false }, _) => {
            BadValue::String(as_str(v).unwrap_or_default().to_string())
        }
        (Shape::Bool, _) => BadValue::Bool(as_bool(v).unwrap_or(false)),
        (Shape::Int(k), _) => match as_int(v, *k) {
            Some(i) if k.signed => BadValue::Int(i as i64),
            Some(i) => BadValue::Uint(i as u64),
            None => BadValue::Null,
        },
        _ => bad_value_nilable(rules, shape, v),
    }
}
