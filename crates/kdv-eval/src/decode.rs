//! The decoding pass: the JSON kinds Go's decoder would reject, one
//! `FieldValueTypeInvalid` per value of the wrong kind, in declaration order.
//!
//! # Numbers (decision)
//!
//! A JSON value stands for the JSON text the API server decodes, and integer fields take
//! what its decoder takes: sigs.k8s.io/json (a fork of `encoding/json`), `decode.go`
//! `literalStore`, parses a number literal for an integer field with `strconv.ParseInt(lit,
//! 10, 64)` (`ParseUint` for unsigned types) and rejects anything that fails or overflows
//! the field's width. So an integer literal in range is accepted, `-0` included, and every
//! literal with a fraction or an exponent is rejected, even `5.0` and `1e1`. Here an
//! integer-valued JSON number (`Number::as_i64`/`as_u64`) is such a literal, and a float
//! (`f64`) is a literal with a fraction or exponent: integer fields reject floats whatever
//! their value. Readers must therefore keep that distinction:
//!
//! - JSON text: serde_json reads `5.0`/`1e1`/`-0.0` as floats (rejected, as upstream) but
//!   also the integer literal `-0` as the float `-0.0`; kdv-manifest reads `-0` as the
//!   integer 0 (accepted, as upstream). A caller parsing JSON with plain serde_json gets
//!   `-0` rejected, the one literal where the two differ.
//! - YAML: what reaches the decoder is the JSON sigs.k8s.io/yaml writes (`YAMLToJSON`:
//!   go-yaml v2 `resolve` makes `5.0`, `1e1`, `-0.0` float64s, `encoding/json`'s
//!   `floatEncoder` writes an integral float64 below 1e21 as an integer literal: `5`, `10`,
//!   `-0`). So YAML `5.0`, `1e1` and `-0.0` are accepted for integer fields and `5.5` or
//!   `1e21` are not; kdv-manifest's YAML reader produces those integers
//!   (`kdv_manifest::json_number_of_float`).

use kdv_rules::{CommonKind, FieldAccess, RuleSet, Shape, ShapeId, StructShape};
use kdv_runtime::{BadValue, ErrorList, FieldError, PathRef};
use serde_json::{Map, Value};

use crate::eval::Eval;
use crate::value::{
    MAX_DEPTH, Val, as_int, for_each_keyed, get, is_base64, kind_ok, str_eq, type_error_detail,
};

/// Whether `x` (or `null`) decodes into every field of a struct whose fields share `kind`.
#[inline]
fn decodes_as(kind: CommonKind, x: &Value) -> bool {
    match (kind, x) {
        (_, Value::Null) | (CommonKind::String, Value::String(_)) => true,
        (CommonKind::Bool, Value::Bool(_)) => true,
        (CommonKind::Int { min, max }, Value::Number(n)) => {
            if let Some(i) = n.as_i64() {
                (min..=max).contains(&i128::from(i))
            } else if let Some(u) = n.as_u64() {
                (min..=max).contains(&i128::from(u))
            } else {
                false
            }
        }
        _ => false,
    }
}

/// How many pointers [`decodes_at_once`] looks through.
const POINTER_CHAIN: usize = 4;

/// Whether `x` decodes into `shape` with nothing to walk: `null`, a scalar of the right
/// kind, an empty object or list of the right kind (most fields), under at most
/// [`POINTER_CHAIN`] pointers. `false` proves nothing.
#[inline]
fn decodes_at_once(rules: &RuleSet, mut shape: ShapeId, x: &Value) -> bool {
    for _ in 0..=POINTER_CHAIN {
        match (rules.shape(shape), x) {
            (_, Value::Null)
            | (Shape::String { .. }, Value::String(_))
            | (Shape::Bool, Value::Bool(_))
            | (Shape::Any, _) => return true,
            (Shape::Int(k), Value::Number(_)) => return as_int(Val::Json(x), *k).is_some(),
            (Shape::Struct(_) | Shape::Map { .. }, Value::Object(o)) => return o.is_empty(),
            (Shape::Slice(_), Value::Array(a)) => return a.is_empty(),
            (Shape::Pointer(e), _) => shape = *e,
            _ => return false,
        }
    }
    false
}

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

impl Eval<'_> {
    /// The decoding pass: one `FieldValueTypeInvalid` per JSON value of the wrong kind.
    pub(crate) fn type_check(
        &mut self,
        shape: ShapeId,
        j: &Value,
        path: &PathRef<'_>,
        depth: usize,
        out: &mut ErrorList,
    ) {
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
                    return self.type_check(*e, j, path, depth + 1, out);
                }
                self.kinds_checked = false;
                kind_ok(rules, shape, Val::Json(j))
            }
            Shape::Slice(e) => match j {
                Value::Array(a) => {
                    for (i, x) in a.iter().enumerate() {
                        let p = path.index(i);
                        self.type_check(*e, x, &p, depth + 1, out);
                    }
                    true
                }
                _ => false,
            },
            Shape::Map { value, .. } => match j {
                Value::Object(m) => {
                    for (k, x) in m {
                        let p = path.key(k);
                        self.type_check(*value, x, &p, depth + 1, out);
                    }
                    true
                }
                _ => false,
            },
            Shape::Struct(st) => match j {
                Value::Object(obj) => {
                    self.type_check_fields(st, j, obj, path, depth, out);
                    true
                }
                _ => false,
            },
        };
        if !ok {
            let detail = type_error_detail(rules, shape, j);
            out.push(FieldError::type_invalid(
                path,
                BadValue::Json(j.clone()),
                detail,
            ));
        }
    }

    /// Whether every value of `obj` decodes into its field of a struct whose fields but
    /// [`other_kinds`](StructShape::other_kinds) share `kind`: the values not of `kind`
    /// must be exactly those of other-kind keys that are not of `kind`, and every value of
    /// an other-kind key must be of that field's kind. Counting the values not of `kind`
    /// and looking up the few other-kind keys spares comparing every key with them.
    /// `false` proves nothing (an unknown key with a value not of `kind`, say).
    #[inline]
    fn decodes_as_common<'k>(
        &self,
        st: &StructShape,
        kind: CommonKind,
        obj: &Map<String, Value>,
        key: impl Fn(u32) -> &'k str,
    ) -> bool {
        let others = st.other_kinds.as_slice();
        if others.is_empty() {
            return obj.values().all(|x| decodes_as(kind, x));
        }
        if obj.len() <= 8 {
            // Few entries: each key compared with the other-kind keys costs less than
            // looking those up.
            return obj.iter().all(|(k, x)| {
                decodes_as(kind, x) && !others.iter().any(|&i| str_eq(key(i), k))
                    || others.iter().any(|&i| {
                        str_eq(key(i), k)
                            && kind_ok(self.rules, st.fields[i as usize].shape, Val::Json(x))
                    })
            });
        }
        let mut not_common = 0usize;
        for x in obj.values() {
            if !decodes_as(kind, x) {
                not_common += 1;
                if not_common > others.len() {
                    return false;
                }
            }
        }
        let mut not_common_of_others = 0usize;
        for (n, &i) in others.iter().enumerate() {
            let k = key(i);
            // A key shared by several other-kind fields is looked at once.
            if others[..n].iter().any(|&j| str_eq(key(j), k)) {
                continue;
            }
            let Some(x) = get(obj, k) else {
                continue;
            };
            let fits = others.iter().any(|&j| {
                str_eq(key(j), k) && kind_ok(self.rules, st.fields[j as usize].shape, Val::Json(x))
            });
            if !fits {
                return false;
            }
            if !decodes_as(kind, x) {
                not_common_of_others += 1;
            }
        }
        not_common == not_common_of_others
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
        out: &mut ErrorList,
    ) {
        let key = |i: u32| match &st.fields[i as usize].access {
            FieldAccess::Key(k) => k.as_str(),
            _ => "",
        };
        if let Some(kind) = st.common_kind
            && self.decodes_as_common(st, kind, obj, key)
        {
            return;
        }
        let start = out.len();
        let mut segments: Vec<(u32, usize, usize)> = Vec::new();
        let rules = self.rules;
        // Far from the depth limit, the values `decodes_at_once` accepts need no call.
        let shallow = depth + 2 * POINTER_CHAIN < MAX_DEPTH;
        for_each_keyed(obj, &st.key_order, key, |i, x| {
            let shape = st.fields[i as usize].shape;
            if shallow && decodes_at_once(rules, shape, x) {
                return;
            }
            let from = out.len();
            let p = path.child(key(i));
            self.type_check(shape, x, &p, depth + 1, out);
            if out.len() > from {
                segments.push((i, from, out.len()));
            }
        });
        // Fields not read from a key are embedded structs (rare).
        let inline = st.key_order.len() < st.fields.len();
        for (i, f) in st.fields.iter().enumerate().filter(|_| inline) {
            if let FieldAccess::Inline { .. } = f.access {
                let from = out.len();
                self.type_check(f.shape, j, path, depth + 1, out);
                if out.len() > from {
                    segments.push((i as u32, from, out.len()));
                }
            }
        }
        if !segments.is_sorted_by_key(|s| s.0) {
            reorder_segments(out, start, segments);
        }
    }
}
