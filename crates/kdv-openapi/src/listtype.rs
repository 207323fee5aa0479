//! `x-kubernetes-list-type` uniqueness (`listtype.ValidateListSetsAndMaps`): sets have
//! unique items, maps unique keys; each repeated value is reported once, at the index of
//! its second occurrence.
//!
//! Items are compared as Go compares the decoded JSON in a map key: scalars by their Go
//! value (`int64(1)` and `float64(1)` differ, `null` is a value), objects and arrays by
//! their JSON encoding. Maps use the object of an item's present key fields.

use kdv_runtime::gofmt;
use kdv_runtime::{BadValue, ErrorList, FieldError, PathRef};
use serde_json::{Map, Value};

use crate::effective::{self, Slot};
use crate::schema::{Additional, Arena, ListType, NodeId};

/// Checks the effective object `map` at a resource root (structural node `root`); `reach`
/// tells for each node whether a set or map list is at or below it. With `builtin` (the
/// built-in strategy), lists whose duplicates the API server accepts are not checked
/// ([`crate::schema::Extensions::duplicates_accepted`]).
pub(crate) fn validate(
    arena: &Arena,
    reach: &[bool],
    root: NodeId,
    map: &Map<String, Value>,
    builtin: bool,
    out: &mut ErrorList,
) {
    let walk = Walk {
        arena,
        reach,
        builtin,
    };
    object(&walk, root, map, true, &PathRef::Nil, out);
}

/// What every step of the walk reads.
struct Walk<'a> {
    arena: &'a Arena,
    reach: &'a [bool],
    builtin: bool,
}

fn object(
    walk: &Walk<'_>,
    id: NodeId,
    map: &Map<String, Value>,
    resource: bool,
    path: &PathRef<'_>,
    out: &mut ErrorList,
) {
    let arena = walk.arena;
    let node = arena.node(id);
    if node.properties.is_empty() && !matches!(node.additional, Additional::Schema(_)) {
        return;
    }
    for (k, v, slot) in effective::entries(arena, node, map, resource) {
        match slot {
            // Upstream walks additionalProperties entries with `Key` (`m[k]`) and properties
            // with `Child`.
            Slot::Additional(child) => {
                let p = path.key(k);
                value(walk, child, v, &p, out);
            }
            Slot::Prop(child) => {
                let p = path.child(k);
                value(walk, child, v, &p, out);
            }
            Slot::Kept => {}
        }
    }
}

fn value(walk: &Walk<'_>, id: NodeId, v: &Value, path: &PathRef<'_>, out: &mut ErrorList) {
    if !walk.reach[id as usize] {
        return;
    }
    match v {
        Value::Array(items) => array(walk, id, items, path, out),
        Value::Object(map) => {
            let resource = walk.arena.node(id).extensions.embedded_resource;
            object(walk, id, map, resource, path, out);
        }
        _ => {}
    }
}

fn array(walk: &Walk<'_>, id: NodeId, items: &[Value], path: &PathRef<'_>, out: &mut ErrorList) {
    let arena = walk.arena;
    let node = arena.node(id);
    let item = |v| effective::item(arena, node.items, v);
    let unchecked = walk.builtin && node.extensions.duplicates_accepted;
    match &node.extensions.list_type {
        _ if unchecked => {}
        Some(ListType::Set) if items.len() > 1 => {
            let key = |i: usize| Key::Value(item(&items[i]));
            for i in non_unique(items.len(), key) {
                let p = path.index(i);
                out.push(FieldError::duplicate(
                    &p,
                    BadValue::unstructured(item(&items[i])),
                ));
            }
        }
        Some(ListType::Map) => map_list(
            arena,
            node.items,
            &node.extensions.list_map_keys,
            items,
            path,
            out,
        ),
        _ => {}
    }
    if let Some(child) = node.items {
        for (i, v) in items.iter().enumerate() {
            let p = path.index(i);
            value(walk, child, item(v), &p, out);
        }
    }
}

fn map_list(
    arena: &Arena,
    items_node: Option<NodeId>,
    keys: &[Box<str>],
    items: &[Value],
    path: &PathRef<'_>,
    out: &mut ErrorList,
) {
    let item = |v| effective::item(arena, items_node, v);
    for (i, x) in items.iter().enumerate() {
        let x = item(x);
        if !x.is_null() && !x.is_object() {
            let p = path.index(i);
            out.push(FieldError::invalid(
                &p,
                BadValue::unstructured(x),
                "must be an object for an array of list-type map",
            ));
            return;
        }
    }
    if items.len() <= 1 {
        return;
    }
    // An item's key field `k`, after defaulting (`None`: absent).
    let field = |i: usize, k: &str| -> Option<&Value> {
        let Value::Object(m) = item(&items[i]) else {
            return None;
        };
        match items_node {
            Some(id) => {
                let node = arena.node(id);
                effective::get(arena, node, m, k, node.extensions.embedded_resource)
            }
            None => m.get(k),
        }
    };
    let key_object = |i: usize| -> Value {
        let mut key = Map::new();
        for k in keys {
            if let Some(v) = field(i, k) {
                key.insert(k.to_string(), v.clone());
            }
        }
        Value::Object(key)
    };
    if let [only] = keys {
        // Single-key lists compare the key values themselves; an absent key is its own value.
        let key = |i: usize| match field(i, only) {
            Some(v) => Key::Value(v),
            None => Key::Absent,
        };
        for i in non_unique(items.len(), key) {
            let p = path.index(i);
            out.push(FieldError::duplicate(&p, BadValue::Json(key_object(i))));
        }
        return;
    }
    let same = |a: usize, b: usize| {
        keys.iter().all(|k| match (field(a, k), field(b, k)) {
            (None, None) => true,
            (Some(x), Some(y)) => json_equal(x, y),
            _ => false,
        })
    };
    for i in non_unique_by(items.len(), same, |i| identity_of_fields(keys, i, &field)) {
        let p = path.index(i);
        out.push(FieldError::duplicate(&p, BadValue::Json(key_object(i))));
    }
}

/// What identifies an item.
#[derive(Clone, Copy)]
enum Key<'a> {
    /// A value, compared as a Go map key (scalars by Go value, compounds by JSON).
    Value(&'a Value),
    /// An absent single key.
    Absent,
}

fn same_key(a: Key<'_>, b: Key<'_>) -> bool {
    match (a, b) {
        (Key::Absent, Key::Absent) => true,
        (Key::Value(x), Key::Value(y)) => match (x, y) {
            (Value::Array(_) | Value::Object(_), Value::Array(_) | Value::Object(_)) => {
                json_equal(x, y)
            }
            (Value::Number(p), Value::Number(q)) => match (p.as_i64(), q.as_i64()) {
                (Some(i), Some(j)) => i == j,
                (None, None) => p.as_f64() == q.as_f64(),
                _ => false,
            },
            _ => x == y,
        },
        _ => false,
    }
}

/// Whether two values have the same `encoding/json` encoding.
fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(p), Value::Number(q)) => match (p.as_i64(), q.as_i64()) {
            (Some(i), Some(j)) => i == j,
            (None, None) => p.as_f64() == q.as_f64(),
            (Some(i), None) | (None, Some(i)) => {
                let f = if p.as_i64().is_none() { p } else { q }
                    .as_f64()
                    .unwrap_or(f64::NAN);
                f.abs() < 1e21 && f == i as f64 && f as i64 == i
            }
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, va), (kb, vb))| ka == kb && json_equal(va, vb))
        }
        _ => a == b,
    }
}

/// Lists up to this long are checked pairwise, without allocating; longer ones hash.
const PAIRWISE_MAX: usize = 64;

/// Indices of the second occurrence of each repeated key, in index order.
fn non_unique<'a>(n: usize, key: impl Fn(usize) -> Key<'a>) -> Vec<usize> {
    non_unique_by(
        n,
        |a, b| same_key(key(a), key(b)),
        |i| match key(i) {
            Key::Value(v) => identity(v),
            Key::Absent => Identity::Absent,
        },
    )
}

fn non_unique_by(
    n: usize,
    same: impl Fn(usize, usize) -> bool,
    ident: impl Fn(usize) -> Identity,
) -> Vec<usize> {
    let mut out = Vec::new();
    if n <= 1 {
        return out;
    }
    if n <= PAIRWISE_MAX {
        for i in 1..n {
            let mut earlier = 0;
            for j in 0..i {
                if same(i, j) {
                    earlier += 1;
                    if earlier > 1 {
                        break;
                    }
                }
            }
            if earlier == 1 {
                out.push(i);
            }
        }
        return out;
    }
    let mut seen: std::collections::HashMap<Identity, usize> =
        std::collections::HashMap::with_capacity(n);
    for i in 0..n {
        let times = seen.entry(ident(i)).or_insert(0);
        *times += 1;
        if *times == 2 {
            out.push(i);
        }
    }
    out
}

/// The identity of a value as a Go map key: scalars by Go value, compounds by JSON.
#[derive(PartialEq, Eq, Hash)]
enum Identity {
    Null,
    Bool(bool),
    Int(i64),
    Float(u64),
    String(String),
    Json(String),
    Absent,
}

fn identity(v: &Value) -> Identity {
    match v {
        Value::Null => Identity::Null,
        Value::Bool(b) => Identity::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Identity::Int(i),
            // Go compares float keys by value (0.0 == -0.0); JSON has no NaN.
            None => Identity::Float((n.as_f64().unwrap_or(0.0) + 0.0).to_bits()),
        },
        Value::String(s) => Identity::String(s.clone()),
        other => Identity::Json(gofmt::to_json(other)),
    }
}

fn identity_of_fields<'a>(
    keys: &[Box<str>],
    i: usize,
    field: &impl Fn(usize, &str) -> Option<&'a Value>,
) -> Identity {
    let mut key = Map::new();
    for k in keys {
        if let Some(v) = field(i, k) {
            key.insert(k.to_string(), v.clone());
        }
    }
    Identity::Json(gofmt::to_json(&Value::Object(key)))
}
