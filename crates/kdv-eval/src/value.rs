//! JSON values seen as Go would decode them into a given [`Shape`]: zero values for absent
//! non-pointer fields, nil for absent pointers and collections, typed scalar reads, kind
//! checks, and `Semantic.DeepEqual` — all without allocating.

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU8, Ordering as AtomicOrdering};

use kdv_rules::{FieldAccess, IntKind, RuleSet, Shape, ShapeId};
use serde_json::{Map, Value};

/// Recursion limit for walking values (deeper input is compared structurally / not walked).
pub(crate) const MAX_DEPTH: usize = 512;

/// A Go value in nilable form.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Val<'a> {
    /// Nil (pointer, slice, map, interface), or absent (no old value).
    Nil,
    /// The zero value of a non-nilable type (present).
    Zero,
    /// A decoded JSON value (for a pointer: the non-nil pointee).
    Json(&'a Value),
    /// A map key (a string). Held through a reference so that `Val` is two words and
    /// passes in registers: a wider `Val` is copied through memory on every check call.
    Key(&'a &'a str),
}

impl<'a> Val<'a> {
    /// Whether the value is nil/absent.
    pub(crate) fn is_nil(self) -> bool {
        matches!(self, Val::Nil)
    }

    /// The JSON object of a struct value (`None` for zero, nil, or a mismatched kind).
    pub(crate) fn object(self) -> Option<&'a Map<String, Value>> {
        match self {
            Val::Json(Value::Object(m)) => Some(m),
            _ => None,
        }
    }

    /// The elements of a list value (empty for nil/zero/mismatch).
    pub(crate) fn array(self) -> &'a [Value] {
        match self {
            Val::Json(Value::Array(a)) => a,
            _ => &[],
        }
    }
}

/// The value of `shape` decoded from an optional JSON value: absent or `null` is nil for
/// nilable shapes and the zero value otherwise.
#[inline]
pub(crate) fn normalize<'a>(rules: &RuleSet, shape: ShapeId, v: Option<&'a Value>) -> Val<'a> {
    match v {
        None | Some(Value::Null) => {
            if rules.shape(shape).is_nilable() {
                Val::Nil
            } else {
                Val::Zero
            }
        }
        Some(v) => Val::Json(v),
    }
}

/// Whether serde_json's `Map` iterates its entries in ascending key order. It does unless
/// some crate of the build enables serde_json's `preserve_order` feature; decided once by
/// looking.
#[inline]
fn maps_iterate_sorted() -> bool {
    // 0 = not yet known, 1 = sorted, 2 = insertion order.
    static SORTED: AtomicU8 = AtomicU8::new(0);
    match SORTED.load(AtomicOrdering::Relaxed) {
        1 => true,
        2 => false,
        _ => {
            let mut m = Map::new();
            m.insert("b".to_string(), Value::Null);
            m.insert("a".to_string(), Value::Null);
            let sorted = m.keys().next().is_some_and(|k| k == "a");
            SORTED.store(if sorted { 1 } else { 2 }, AtomicOrdering::Relaxed);
            sorted
        }
    }
}

/// Calls `found(i, value)` for each index `i` of `order` whose key (`key(i)`) `obj` holds,
/// in `order`'s order. `order` lists keyed fields sorted by key (ties by index), so one
/// merge pass over the object's sorted entries finds them all; when the object is much
/// larger than `order` (or maps do not iterate sorted), per-key lookups are cheaper.
#[inline]
pub(crate) fn for_each_keyed<'a, 'k>(
    obj: &'a Map<String, Value>,
    order: &[u32],
    key: impl Fn(u32) -> &'k str,
    mut found: impl FnMut(u32, &'a Value),
) {
    if order.is_empty() || obj.is_empty() {
        return;
    }
    if order.len() * 8 < obj.len() || !maps_iterate_sorted() {
        for &i in order {
            if let Some(v) = obj.get(key(i)) {
                found(i, v);
            }
        }
        return;
    }
    let mut entries = obj.iter();
    let mut cur = entries.next();
    // The entry matched last: the object's entries advance past a match at once (the
    // common case, every field present, costs one equality test per field), and a field
    // reading the same key as the one before finds it here.
    let mut last: Option<(&'a String, &'a Value)> = None;
    for &i in order {
        let k = key(i);
        // One call site for `found`, so that it is inlined.
        let hit = loop {
            match cur {
                // Objects mostly hold the fields' keys: equality is the cheap first question.
                Some((ek, ev)) if str_eq(ek, k) => {
                    last = cur;
                    cur = entries.next();
                    break Some(ev);
                }
                Some((ek, _)) if cmp_key(ek.as_bytes(), k.as_bytes()) == Ordering::Less => {
                    cur = entries.next();
                }
                // No entry left holds `k`: it is absent or a repeat of the last matched key.
                _ => match last {
                    Some((lk, lv)) if str_eq(lk, k) => break Some(lv),
                    // The object is exhausted and the keys still to come are greater than
                    // every matched one.
                    _ if cur.is_none() => return,
                    _ => break None,
                },
            }
        };
        if let Some(v) = hit {
            found(i, v);
        }
    }
}

/// Byte-wise lexicographic order (the order of `str`) without a `memcmp` call in the usual
/// cases: keys differing in their first eight bytes, keys of up to eight bytes, equal keys of
/// up to 16 bytes. Not inlined: the merge pass asks it only when keys differ, and inlined
/// its setup would be hoisted before the equality test that usually settles a field.
#[inline(never)]
fn cmp_key(a: &[u8], b: &[u8]) -> Ordering {
    let (x, y) = (prefix8(a), prefix8(b));
    if x != y {
        return x.cmp(&y);
    }
    // Equal padded prefixes: a key of at most eight bytes is a prefix of the other.
    if a.len() <= 8 || b.len() <= 8 {
        return a.len().cmp(&b.len());
    }
    // The first and last eight bytes cover keys of up to 16 bytes.
    if a.len() == b.len() && a.len() <= 16 && a.last_chunk::<8>() == b.last_chunk::<8>() {
        return Ordering::Equal;
    }
    cmp_key_tail(a, b, 8)
}

/// The first eight bytes of a key as a big-endian number, zero-padded: zero is the least
/// byte, so padded prefixes that differ order their keys.
#[inline(always)]
fn prefix8(s: &[u8]) -> u64 {
    if let Some(c) = s.first_chunk::<8>() {
        return u64::from_be_bytes(*c);
    }
    let n = s.len();
    if let (Some(first), Some(last)) = (s.first_chunk::<4>(), s.last_chunk::<4>()) {
        // Bytes 4..n are the low n - 4 bytes of the last four.
        let low = u64::from(u32::from_be_bytes(*last)) & ((1u64 << (8 * (n - 4))) - 1);
        return (u64::from(u32::from_be_bytes(*first)) << 32) | (low << (8 * (8 - n)));
    }
    let byte = |i: usize| s.get(i).map_or(0, |&b| u64::from(b));
    (byte(0) << 56) | (byte(1) << 48) | (byte(2) << 40)
}

/// [`cmp_key`] from byte `i` on (the bytes before are equal): eight bytes at a time while
/// both keys have them (long shared prefixes such as `max0TypedefField` and
/// `max0TypedefPtrField`), then byte by byte.
#[inline(never)]
fn cmp_key_tail(a: &[u8], b: &[u8], mut i: usize) -> Ordering {
    let n = a.len().min(b.len());
    while i + 8 <= n {
        let (x, y) = (load8_be(a, i), load8_be(b, i));
        if x != y {
            return x.cmp(&y);
        }
        i += 8;
    }
    for (x, y) in a[i..].iter().zip(&b[i..]) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

/// `obj.get(key)`; small objects are scanned (their entries are few and short: comparing
/// each key for equality, which mostly stops at the length, is cheaper than the tree search
/// with a `memcmp` per compared key).
#[inline]
pub(crate) fn get<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    if obj.len() > 8 {
        return obj.get(key);
    }
    obj.iter().find_map(|(k, v)| str_eq(k, key).then_some(v))
}

/// Reads a struct field from a struct value (nil struct → the field's absent value).
#[inline]
pub(crate) fn field<'a>(
    rules: &RuleSet,
    parent: Val<'a>,
    access: &FieldAccess,
    shape: ShapeId,
) -> Val<'a> {
    let Some(obj) = parent.object() else {
        return normalize(rules, shape, None);
    };
    match access {
        FieldAccess::Key(k) => normalize(rules, shape, get(obj, k)),
        FieldAccess::Inline { keys } => {
            if matches!(rules.shape(shape), Shape::Pointer(_))
                && !keys.iter().any(|k| obj.contains_key(k.as_str()))
            {
                Val::Nil
            } else {
                parent
            }
        }
        FieldAccess::Skip => normalize(rules, shape, None),
    }
}

/// The shape under any pointers.
#[inline]
pub(crate) fn deref(rules: &RuleSet, mut shape: ShapeId) -> ShapeId {
    let mut guard = 0;
    while let Shape::Pointer(e) = rules.shape(shape) {
        shape = *e;
        guard += 1;
        if guard > 8 {
            break;
        }
    }
    shape
}

/// A string value (zero → `""`); `None` when nil or not a string.
#[inline]
pub(crate) fn as_str(v: Val<'_>) -> Option<&str> {
    match v {
        Val::Zero => Some(""),
        Val::Json(Value::String(s)) => Some(s),
        Val::Key(k) => Some(*k),
        _ => None,
    }
}

/// A bool value (zero → `false`).
#[inline]
pub(crate) fn as_bool(v: Val<'_>) -> Option<bool> {
    match v {
        Val::Zero => Some(false),
        Val::Json(Value::Bool(b)) => Some(*b),
        _ => None,
    }
}

/// An integer value of `kind` (zero → 0); `None` when nil, not an integer, or out of range.
#[inline]
pub(crate) fn as_int(v: Val<'_>, kind: IntKind) -> Option<i128> {
    let n = match v {
        Val::Zero => return Some(0),
        Val::Json(Value::Number(n)) => n,
        _ => return None,
    };
    if let Some(i) = n.as_i64() {
        let fits = if kind.signed {
            // -2^(b-1) <= i < 2^(b-1): the bits above the sign bit copy it.
            kind.bits >= 64 || matches!(i >> (kind.bits - 1), 0 | -1)
        } else {
            i >= 0 && (kind.bits >= 64 || i >> kind.bits == 0)
        };
        return fits.then_some(i128::from(i));
    }
    // Only u64 values above i64::MAX are left: they fit unsigned 64-bit types alone.
    let u = n.as_u64()?;
    (!kind.signed && kind.bits >= 64).then_some(i128::from(u))
}

/// A float value (zero → 0.0).
#[inline]
pub(crate) fn as_f64(v: Val<'_>) -> Option<f64> {
    match v {
        Val::Zero => Some(0.0),
        Val::Json(Value::Number(n)) => n.as_f64(),
        _ => None,
    }
}

/// Length of a list, map or `[]byte` value (nil → 0).
pub(crate) fn len(rules: &RuleSet, shape: ShapeId, v: Val<'_>) -> usize {
    match (rules.shape(deref(rules, shape)), v) {
        (Shape::Bytes, Val::Json(Value::String(s))) => base64_decoded_len(s),
        (_, Val::Json(Value::Array(a))) => a.len(),
        (_, Val::Json(Value::Object(m))) => m.len(),
        _ => 0,
    }
}

/// Whether `v` is the zero value of `shape` (nil counts as zero).
pub(crate) fn is_zero(rules: &RuleSet, shape: ShapeId, v: Val<'_>) -> bool {
    match v {
        Val::Nil | Val::Zero => true,
        _ => deep_equal(rules, shape, v, Val::Zero),
    }
}

/// Human name of a JSON value's kind.
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The detail of a decoding error: what the shape expects and what the JSON holds.
pub(crate) fn type_error_detail(rules: &RuleSet, shape: ShapeId, got: &Value) -> String {
    if let (Shape::Int(k), Value::Number(n)) = (rules.shape(deref(rules, shape)), got)
        && (n.is_i64() || n.is_u64())
    {
        return format!(
            "expected integer in range [{}, {}], got {n}",
            k.min(),
            k.max()
        );
    }
    format!(
        "expected {}, got {}",
        expected(rules, shape),
        json_kind(got)
    )
}

/// What a shape expects, for type errors.
fn expected(rules: &RuleSet, shape: ShapeId) -> String {
    match rules.shape(shape) {
        Shape::String { .. } => "string".into(),
        Shape::Bool => "boolean".into(),
        Shape::Int(_) => "integer".into(),
        Shape::Float(_) => "number".into(),
        Shape::Bytes => "base64-encoded string".into(),
        Shape::Pointer(e) => expected(rules, *e),
        Shape::Slice(_) => "array".into(),
        Shape::Map { .. } | Shape::Struct(_) => "object".into(),
        Shape::Any => "any value".into(),
    }
}

/// Whether the (non-null) JSON value has the kind `shape` decodes.
#[inline]
pub(crate) fn kind_ok(rules: &RuleSet, shape: ShapeId, v: Val<'_>) -> bool {
    let Val::Json(j) = v else {
        return true;
    };
    // Strings, integers and structs (most values), under a pointer, without a call.
    let shape = match rules.shape(shape) {
        Shape::Pointer(e) => *e,
        _ => shape,
    };
    match (rules.shape(shape), j) {
        (_, Value::Null)
        | (Shape::String { .. }, Value::String(_))
        | (Shape::Struct(_), Value::Object(_)) => true,
        (Shape::Int(k), Value::Number(_)) => as_int(v, *k).is_some(),
        _ => json_kind_ok(rules, shape, j),
    }
}

/// [`kind_ok`] of a JSON value.
fn json_kind_ok(rules: &RuleSet, shape: ShapeId, j: &Value) -> bool {
    if j.is_null() {
        return true;
    }
    let v = Val::Json(j);
    match rules.shape(shape) {
        Shape::String { .. } => j.is_string(),
        Shape::Bool => j.is_boolean(),
        Shape::Int(k) => as_int(v, *k).is_some(),
        Shape::Float(_) => j.is_number(),
        Shape::Bytes => matches!(j, Value::String(s) if is_base64(s)),
        Shape::Pointer(e) => kind_ok(rules, *e, v),
        Shape::Slice(_) => j.is_array(),
        Shape::Map { .. } | Shape::Struct(_) => j.is_object(),
        Shape::Any => true,
    }
}

fn b64_value(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'+' || b == b'/'
}

/// Go `base64.StdEncoding` validity (padding required; CR/LF ignored).
pub(crate) fn is_base64(s: &str) -> bool {
    let mut n = 0usize;
    let mut pad = 0usize;
    for b in s.bytes() {
        match b {
            b'\r' | b'\n' => continue,
            b'=' => pad += 1,
            _ if pad > 0 => return false,
            _ if b64_value(b) => {}
            _ => return false,
        }
        n += 1;
    }
    n.is_multiple_of(4) && pad <= 2
}

fn base64_decoded_len(s: &str) -> usize {
    let n = s.bytes().filter(|b| !matches!(b, b'\r' | b'\n')).count();
    let pad = s.bytes().rev().take_while(|&b| b == b'=').count().min(2);
    (n / 4 * 3).saturating_sub(pad)
}

/// `Semantic.DeepEqual` (and `==` on the nilable form, which agrees on these shapes) under
/// the Go type described by `shape`: nil and empty collections are equal, an absent field is
/// its zero value, numbers compare as the Go type holds them.
pub(crate) fn deep_equal(rules: &RuleSet, shape: ShapeId, a: Val<'_>, b: Val<'_>) -> bool {
    // Equal JSON decodes to equal Go values; comparing the JSON first is cheaper than
    // reading it through the shape (no key lookups), and a miss falls through.
    if let (Val::Json(x), Val::Json(y)) = (a, b)
        && json_identical(x, y, 0)
    {
        return true;
    }
    eq_at(rules, shape, a, b, 0)
}

/// Exact JSON equality (numbers by representation), walking objects' sorted entries in
/// step. `false` may be a miss (deeper than [`MAX_DEPTH`], or maps kept in insertion
/// order), never a wrong `true`.
pub(crate) fn json_identical(a: &Value, b: &Value, depth: usize) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) => str_eq(x, y),
        (Value::Array(x), Value::Array(y)) => {
            std::ptr::eq(x, y)
                || (depth <= MAX_DEPTH
                    && x.len() == y.len()
                    && x.iter()
                        .zip(y)
                        .all(|(p, q)| json_identical(p, q, depth + 1)))
        }
        (Value::Object(x), Value::Object(y)) => {
            std::ptr::eq(x, y)
                // Empty objects (`{}` members) without starting two iterations.
                || (x.is_empty() && y.is_empty())
                || (depth <= MAX_DEPTH && x.len() == y.len() && {
                    // Entries in step (a plain loop: `zip` and `all` cost more here).
                    let mut ys = y.iter();
                    let mut same = true;
                    for (kp, p) in x {
                        let Some((kq, q)) = ys.next() else {
                            same = false;
                            break;
                        };
                        let equal = str_eq(kp, kq)
                            && match (p, q) {
                                (Value::String(p), Value::String(q)) => str_eq(p, q),
                                (Value::Number(p), Value::Number(q)) => p == q,
                                _ => json_identical(p, q, depth + 1),
                            };
                        if !equal {
                            same = false;
                            break;
                        }
                    }
                    same
                })
        }
        _ => a == b,
    }
}

pub(crate) use kdv_runtime::view::str_eq;

#[inline(always)]
fn load8_be(s: &[u8], i: usize) -> u64 {
    u64::from_be_bytes(s[i..i + 8].try_into().unwrap_or([0; 8]))
}

fn eq_at(rules: &RuleSet, shape: ShapeId, a: Val<'_>, b: Val<'_>, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return json_eq(a, b);
    }
    match rules.shape(shape) {
        Shape::Pointer(e) => match (a.is_nil(), b.is_nil()) {
            (true, true) => true,
            (false, false) => eq_at(rules, *e, a, b, depth + 1),
            _ => false,
        },
        Shape::String { .. } => match (as_str(a), as_str(b)) {
            (Some(x), Some(y)) => str_eq(x, y),
            _ => json_eq(a, b),
        },
        Shape::Bool => match (as_bool(a), as_bool(b)) {
            (Some(x), Some(y)) => x == y,
            _ => json_eq(a, b),
        },
        Shape::Int(k) => match (as_int(a, *k), as_int(b, *k)) {
            (Some(x), Some(y)) => x == y,
            _ => json_eq(a, b),
        },
        Shape::Float(bits) => match (as_f64(a), as_f64(b)) {
            (Some(x), Some(y)) => {
                if *bits == 32 {
                    (x as f32) == (y as f32)
                } else {
                    x == y
                }
            }
            _ => json_eq(a, b),
        },
        Shape::Bytes => str_eq(bytes_text(a), bytes_text(b)),
        Shape::Slice(e) => {
            let (xa, xb) = (a.array(), b.array());
            xa.len() == xb.len()
                && xa.iter().zip(xb).all(|(x, y)| {
                    eq_at(
                        rules,
                        *e,
                        normalize(rules, *e, Some(x)),
                        normalize(rules, *e, Some(y)),
                        depth + 1,
                    )
                })
        }
        Shape::Map { value, .. } => {
            let (ma, mb) = (a.object(), b.object());
            let (la, lb) = (ma.map_or(0, Map::len), mb.map_or(0, Map::len));
            if la != lb {
                return false;
            }
            let (Some(ma), Some(mb)) = (ma, mb) else {
                return true;
            };
            ma.iter().all(|(k, x)| match get(mb, k) {
                Some(y) => eq_at(
                    rules,
                    *value,
                    normalize(rules, *value, Some(x)),
                    normalize(rules, *value, Some(y)),
                    depth + 1,
                ),
                None => false,
            })
        }
        Shape::Struct(st) => st.fields.iter().all(|f| {
            eq_at(
                rules,
                f.shape,
                field(rules, a, &f.access, f.shape),
                field(rules, b, &f.access, f.shape),
                depth + 1,
            )
        }),
        Shape::Any => json_eq(a, b),
    }
}

fn bytes_text<'a>(v: Val<'a>) -> &'a str {
    match v {
        Val::Json(Value::String(s)) => s,
        _ => "",
    }
}

fn non_null<'a>(v: Val<'a>) -> Option<&'a Value> {
    match v {
        Val::Json(Value::Null) | Val::Nil | Val::Zero | Val::Key(_) => None,
        Val::Json(x) => Some(x),
    }
}

/// Structural JSON equality; absent, nil and `null` are equal; numbers compare by value.
fn json_eq(a: Val<'_>, b: Val<'_>) -> bool {
    let j = non_null;
    match (a, b) {
        (Val::Key(x), Val::Key(y)) => return str_eq(x, y),
        (Val::Key(x), Val::Json(Value::String(y))) | (Val::Json(Value::String(y)), Val::Key(x)) => {
            return str_eq(x, y);
        }
        _ => {}
    }
    match (j(a), j(b)) {
        (None, None) => true,
        (Some(x), Some(y)) => json_value_eq(x, y, 0),
        _ => false,
    }
}

fn json_value_eq(a: &Value, b: &Value, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(p), Some(q)) => p == q,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(p), Some(q)) => p == q,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_value_eq(p, q, depth + 1))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, p)| y.get(k).is_some_and(|q| json_value_eq(p, q, depth + 1)))
        }
        (Value::String(x), Value::String(y)) => str_eq(x, y),
        _ => a == b,
    }
}

/// A hash consistent with [`deep_equal`] under `shape`: equal values hash equally.
pub(crate) fn deep_hash<H: Hasher>(rules: &RuleSet, shape: ShapeId, v: Val<'_>, h: &mut H) {
    hash_at(rules, shape, v, h, 0);
}

fn hash_at<H: Hasher>(rules: &RuleSet, shape: ShapeId, v: Val<'_>, h: &mut H, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match rules.shape(shape) {
        Shape::Pointer(e) => {
            v.is_nil().hash(h);
            if !v.is_nil() {
                hash_at(rules, *e, v, h, depth + 1);
            }
        }
        Shape::String { .. } => {
            if let Some(s) = as_str(v) {
                s.hash(h);
            }
        }
        Shape::Bool => as_bool(v).hash(h),
        Shape::Int(k) => as_int(v, *k).hash(h),
        Shape::Float(_) => {
            // -0.0 == 0.0, so both hash alike.
            if let Some(f) = as_f64(v) {
                (if f == 0.0 { 0.0f64 } else { f }).to_bits().hash(h);
            }
        }
        Shape::Bytes => {
            if let Val::Json(Value::String(s)) = v {
                s.hash(h);
            }
        }
        Shape::Slice(e) => {
            let a = v.array();
            a.len().hash(h);
            for x in a {
                hash_at(rules, *e, normalize(rules, *e, Some(x)), h, depth + 1);
            }
        }
        // Maps and unknown values: hash only the size, which equality respects.
        Shape::Map { .. } => v.object().map_or(0, Map::len).hash(h),
        Shape::Struct(st) => {
            for f in &st.fields {
                hash_at(
                    rules,
                    f.shape,
                    field(rules, v, &f.access, f.shape),
                    h,
                    depth + 1,
                );
            }
        }
        Shape::Any => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: &[&str] = &[
        "",
        "a",
        "ab",
        "abc",
        "abcd",
        "abcde",
        "abcdefg",
        "abcdef\u{0}",
        "abc\u{0}\u{0}",
        "abcdefgh",
        "abcdefgi",
        "abcdefgh0",
        "abcdefghabcd",
        "abcdefghabcd\u{0}",
        "abcdefghabce",
        "abcdefghabcdefgh",
        "abcdefghabcdefgz",
        "abcdefghabcdefgh1",
        "b",
        "a\u{0}",
        "\u{ff}",
        "é",
        "intField",
        "int16Field",
        "intPtrField",
        "max0TypedefField",
        "max0TypedefPtrField",
        "max10Field",
        "shortNamePtrField",
        "shortNameTypedefField",
    ];

    #[test]
    fn key_order_and_equality_agree_with_str() {
        for a in KEYS {
            for b in KEYS {
                assert_eq!(cmp_key(a.as_bytes(), b.as_bytes()), a.cmp(b), "{a:?} {b:?}");
                assert_eq!(str_eq(a, b), a == b, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn keyed_fields_are_found_in_one_pass_including_shared_keys() {
        let obj: Map<String, Value> =
            serde_json::from_str(r#"{"a": 1, "c": 2, "d": 3, "zz": 4}"#).expect("json");
        let keys = ["d", "a", "b", "d", "zz", "zzz"];
        let order = [1u32, 2, 0, 3, 4, 5];
        let mut found = Vec::new();
        for_each_keyed(
            &obj,
            &order,
            |i| keys[i as usize],
            |i, v| found.push((i, v.clone())),
        );
        assert_eq!(
            found,
            vec![
                (1, Value::from(1)),
                (0, Value::from(3)),
                (3, Value::from(3)),
                (4, Value::from(4))
            ]
        );
        // An object much larger than the field list is looked up instead: same result.
        let big: Map<String, Value> = (0..40)
            .map(|i| (format!("k{i:02}"), Value::from(i)))
            .collect();
        let keys = ["k07", "k39", "nope"];
        let mut found = Vec::new();
        for_each_keyed(
            &big,
            &[0, 1, 2],
            |i| keys[i as usize],
            |i, v| found.push((i, v.clone())),
        );
        assert_eq!(found, vec![(0, Value::from(7)), (1, Value::from(39))]);
    }

    #[test]
    fn merge_pass_finds_keys_sharing_prefixes() {
        let obj: Map<String, Value> = KEYS
            .iter()
            .enumerate()
            .map(|(i, k)| (k.to_string(), Value::from(i)))
            .collect();
        let mut order: Vec<u32> = (0..KEYS.len() as u32).collect();
        order.sort_by_key(|&i| KEYS[i as usize]);
        let mut found = Vec::new();
        for_each_keyed(
            &obj,
            &order,
            |i| KEYS[i as usize],
            |i, v| found.push((i, v.clone())),
        );
        let want: Vec<(u32, Value)> = order.iter().map(|&i| (i, Value::from(i))).collect();
        assert_eq!(found, want);
        // Missing keys between present ones.
        let sparse: Map<String, Value> = KEYS
            .iter()
            .step_by(2)
            .map(|k| (k.to_string(), Value::Null))
            .collect();
        let mut found = Vec::new();
        for_each_keyed(&sparse, &order, |i| KEYS[i as usize], |i, _| found.push(i));
        let want: Vec<u32> = order.iter().copied().filter(|i| i % 2 == 0).collect();
        assert_eq!(found, want);
    }

    /// Keys of every length up to `max` over a small alphabet with NUL and a multi-byte
    /// character: all of one byte, and with one character changed.
    fn keys_up_to(max: usize) -> Vec<String> {
        let mut keys = Vec::new();
        for n in 0..=max {
            let base = "m".repeat(n);
            keys.push(base.clone());
            for at in 0..n {
                for c in ['\u{0}', 'a', 'z', 'é'] {
                    let mut k: Vec<char> = base.chars().collect();
                    k[at] = c;
                    keys.push(k.into_iter().collect());
                }
            }
        }
        keys.sort();
        keys.dedup();
        keys
    }

    fn generated_keys() -> Vec<String> {
        keys_up_to(20)
    }

    #[test]
    fn string_equality_agrees_with_str_up_to_40_bytes() {
        let keys = keys_up_to(40);
        for a in &keys {
            for b in keys.iter().filter(|b| b.len() == a.len()) {
                assert_eq!(str_eq(a, b), a == b, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn key_order_agrees_with_str_on_generated_keys() {
        let keys = generated_keys();
        for a in &keys {
            for b in &keys {
                assert_eq!(cmp_key(a.as_bytes(), b.as_bytes()), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }

    /// `for_each_keyed` against `Map::get` for each field, over objects and field lists
    /// drawn from the generated keys: absent keys, repeated keys, empty objects, fields
    /// past the object's last key.
    #[test]
    fn merge_pass_agrees_with_lookups() {
        let keys = generated_keys();
        // A small deterministic generator (xorshift).
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..2000 {
            let obj: Map<String, Value> = (0..next(14))
                .map(|j| (keys[next(keys.len())].clone(), Value::from(j)))
                .collect();
            let fields: Vec<&str> = (0..1 + next(12))
                .map(|_| {
                    // Mostly keys of the object (when it has any), some others.
                    if !obj.is_empty() && next(3) > 0 {
                        obj.keys().nth(next(obj.len())).map_or("", String::as_str)
                    } else {
                        keys[next(keys.len())].as_str()
                    }
                })
                .collect();
            let mut order: Vec<u32> = (0..fields.len() as u32).collect();
            order.sort_by_key(|&i| (fields[i as usize], i));
            let mut found = Vec::new();
            for_each_keyed(
                &obj,
                &order,
                |i| fields[i as usize],
                |i, v| found.push((i, v)),
            );
            let want: Vec<(u32, &Value)> = order
                .iter()
                .filter_map(|&i| obj.get(fields[i as usize]).map(|v| (i, v)))
                .collect();
            assert_eq!(found, want, "{obj:?} {fields:?}");
        }
    }

    #[test]
    fn integers_fit_their_go_type() {
        let k = |bits, signed| IntKind { bits, signed };
        for (n, bits, signed) in [
            (127i128, 8, true),
            (-128, 8, true),
            (128, 8, true),
            (-129, 8, true),
            (255, 8, false),
            (256, 8, false),
            (-1, 8, false),
            (-1, 64, false),
            (i64::MIN as i128, 64, true),
            (i64::MAX as i128, 64, true),
            (u64::MAX as i128, 64, false),
            (u64::MAX as i128, 64, true),
            (2147483648, 32, true),
            (-2147483648, 32, true),
            (4294967295, 32, false),
        ] {
            let kind = k(bits, signed);
            let v: Value = serde_json::from_str(&n.to_string()).expect("number");
            let fits = (kind.min()..=kind.max()).contains(&n);
            assert_eq!(
                as_int(Val::Json(&v), kind),
                fits.then_some(n),
                "{n} {kind:?}"
            );
        }
    }

    #[test]
    fn identical_json_is_exact() {
        let v = |s: &str| -> Value { serde_json::from_str(s).expect("json") };
        assert!(json_identical(
            &v(r#"{"a": [1, "x", ""], "b": null}"#),
            &v(r#"{"b": null, "a": [1, "x", ""]}"#),
            0
        ));
        assert!(!json_identical(&v(r#"{"a": 1}"#), &v(r#"{"a": 1.0}"#), 0));
        assert!(!json_identical(&v(r#"{"a": 1}"#), &v(r#"{"b": 1}"#), 0));
        assert!(!json_identical(&v(r#"["a"]"#), &v(r#"["a", "a"]"#), 0));
    }
}
