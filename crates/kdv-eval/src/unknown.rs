//! Unknown fields: the object keys the API server's strict field validation rejects
//! (`fieldValidation=Strict`, the default of `kubectl apply`; a warning under `Warn`).
//!
//! Upstream decodes requests with sigs.k8s.io/json (`UnmarshalStrict`: `DisallowUnknownFields`,
//! `CaseSensitive`), whose decoder reports a key that matches no field of the struct it
//! decodes into as `unknown field "<path>"` (`kubernetes_patch.go`: `strictError`,
//! `newFieldError`, `appendStrictFieldStackKey`/`Index`). This module reports the same keys:
//!
//! - A key is matched to a struct field by its JSON name, exactly (case-sensitive); fields
//!   of embedded structs without a JSON name (`json:",inline"`, e.g. `TypeMeta`'s
//!   `apiVersion` and `kind`) are the outer struct's own keys; `json:"-"` fields match no key.
//! - Keys of maps are never unknown; the map's values are checked against the value type.
//!   Interfaces and types the compiler could not see ([`Shape::Any`], e.g. `FieldsV1`,
//!   `Quantity`, a type from another module) accept anything, so nothing below them is
//!   reported. Well-known types such as `ObjectMeta` are modelled, so `metadata.labelz` is.
//! - A value of the wrong JSON kind is not looked into (Go's decoder skips it after a type
//!   error; the decoding pass reports that error).
//! - The path is upstream's: member names and map keys joined with `.` (a map key is
//!   `.key`, not `[key]`), list indices as `[i]`, no leading dot: `spec.spce`,
//!   `spec.containers[0].imagePullPolice`, `spec.volumes.data.foo`.
//! - At most [`MAX_UNKNOWN_FIELDS`] per document, each path once, as upstream saves them.
//!
//! Order: depth first, object keys in sorted order, list items by index (the order of the
//! JSON value; upstream reports them in the order the text has them).
//!
//! This is a separate pass, run only by callers that want it: validation itself never looks
//! at unknown keys, so leaving it out costs nothing.

use std::collections::HashSet;
use std::fmt;

use kdv_rules::{FieldAccess, RuleSet, Shape, ShapeId, StructShape, TypeId};
use kdv_runtime::{FieldPath, Segment, gofmt};
use serde_json::Value;

use crate::value::MAX_DEPTH;

/// Most unknown fields reported for one document (upstream's `saveStrictError` keeps 100).
pub const MAX_UNKNOWN_FIELDS: usize = 100;

/// A key the API server's strict decoding rejects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownField {
    /// Where the key is: its parent's path and the key itself as the last segment
    /// (struct members as [`Segment::Field`], map keys as [`Segment::Key`]).
    pub path: FieldPath,
}

impl UnknownField {
    /// The path as upstream's strict decoder writes it (`spec.volumes.data.foo`).
    pub fn strict_path(&self) -> String {
        self.path.strict_text()
    }
}

impl fmt::Display for UnknownField {
    /// `unknown field "spec.spce"`, upstream's text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown field {}", gofmt::quote(&self.strict_path()))
    }
}

/// The unknown fields of `value` decoded as type `ty` (see the module documentation).
pub fn unknown_fields(rules: &RuleSet, ty: TypeId, value: &Value) -> Vec<UnknownField> {
    let mut walk = Walk {
        rules,
        path: Vec::new(),
        found: Vec::new(),
        seen: HashSet::new(),
    };
    walk.value(rules.type_rules(ty).shape, value, 0);
    walk.found
}

struct Walk<'r> {
    rules: &'r RuleSet,
    /// The path of the value being walked.
    path: Vec<Segment>,
    found: Vec<UnknownField>,
    seen: HashSet<String>,
}

/// What a struct knows about one key.
enum Known {
    /// A field of this shape.
    Field(ShapeId),
    /// Not a field of the struct.
    Unknown,
    /// The struct embeds a type kdv cannot see, which might have this field.
    Anything,
}

impl Walk<'_> {
    fn full(&self) -> bool {
        self.found.len() >= MAX_UNKNOWN_FIELDS
    }

    fn value(&mut self, shape: ShapeId, value: &Value, depth: usize) {
        if depth > MAX_DEPTH || self.full() {
            return;
        }
        match (self.rules.shape(shape), value) {
            (Shape::Pointer(inner), _) => self.value(*inner, value, depth + 1),
            (Shape::Slice(item), Value::Array(items)) => {
                for (i, x) in items.iter().enumerate() {
                    self.path.push(Segment::Index(i));
                    self.value(*item, x, depth + 1);
                    self.path.pop();
                }
            }
            (Shape::Map { value: item, .. }, Value::Object(entries)) => {
                for (k, x) in entries {
                    self.path.push(Segment::Key(k.clone().into()));
                    self.value(*item, x, depth + 1);
                    self.path.pop();
                }
            }
            (Shape::Struct(st), Value::Object(entries)) => {
                for (k, x) in entries {
                    match self.known(st, k, 0) {
                        Known::Field(field) => {
                            self.path.push(Segment::Field(k.clone().into()));
                            self.value(field, x, depth + 1);
                            self.path.pop();
                        }
                        Known::Anything => {}
                        Known::Unknown => {
                            self.path.push(Segment::Field(k.clone().into()));
                            self.report();
                            self.path.pop();
                        }
                    }
                }
            }
            // Scalars, interfaces, and values of the wrong kind (a decoding error).
            _ => {}
        }
    }

    fn report(&mut self) {
        if self.full() {
            return;
        }
        let text = kdv_runtime::path::strict_text(&self.path);
        if self.seen.insert(text) {
            self.found.push(UnknownField {
                path: FieldPath::from_segments(self.path.clone()),
            });
        }
    }

    /// Whether `key` names a field of `st` or of a struct it embeds (Go's promoted fields;
    /// the shallower field wins, as in Go).
    fn known(&self, st: &StructShape, key: &str, depth: usize) -> Known {
        let key_of = |i: u32| match &st.fields[i as usize].access {
            FieldAccess::Key(k) => k.as_str(),
            _ => "",
        };
        if let Ok(at) = st.key_order.binary_search_by(|&i| key_of(i).cmp(key)) {
            return Known::Field(st.fields[st.key_order[at] as usize].shape);
        }
        let mut known = Known::Unknown;
        for field in &st.fields {
            let FieldAccess::Inline { keys } = &field.access else {
                continue;
            };
            match self.rules.shape(self.deref(field.shape)) {
                Shape::Struct(inner) if keys.iter().any(|k| k == key) && depth < MAX_DEPTH => {
                    if let found @ Known::Field(_) = self.known(inner, key, depth + 1) {
                        return found;
                    }
                }
                Shape::Struct(_) => {}
                // An embedded type kdv cannot see may hold any field.
                _ => known = Known::Anything,
            }
        }
        known
    }

    fn deref(&self, mut shape: ShapeId) -> ShapeId {
        // Bounded: a pointer chain cannot be longer than the arena.
        for _ in 0..MAX_DEPTH {
            match self.rules.shape(shape) {
                Shape::Pointer(inner) => shape = *inner,
                _ => break,
            }
        }
        shape
    }
}
