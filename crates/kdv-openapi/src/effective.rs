//! The object the API server validates, seen without building it: the decoded value after
//! pruning (`pruning.PruneWithOptions`), dropping non-nullable nulls that have no default
//! (`PruneNonNullableNullsWithoutDefaults`) and defaulting (`defaulting.Default`).
//!
//! Every step of the API server's decoding only removes keys or inserts schema defaults, so
//! an object's effective entries are a merge of its own (sorted) keys with the (sorted)
//! properties that have defaults, and a defaulted value is borrowed from the schema. The
//! validators walk this view; a valid object is validated without copying it. Defaults are
//! pruned when the schema is loaded (as the API server prunes them when it builds the
//! CRD's handler), so a borrowed default is already what defaulting would insert.

use serde_json::{Map, Value};

use std::cmp::Ordering;

use crate::schema::{Additional, Arena, Node, NodeId, cmp_names};

/// Which schema an effective entry is validated against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    /// A declared property.
    Prop(NodeId),
    /// An `additionalProperties` entry.
    Additional(NodeId),
    /// Kept without a schema (under `x-kubernetes-preserve-unknown-fields`, the implicit
    /// `apiVersion`/`kind`/`metadata` of a resource, or `additionalProperties: true|false`).
    Kept,
}

/// Whether `key` is one of the fields every resource (and embedded resource) keeps.
pub(crate) fn is_meta_field(key: &str) -> bool {
    matches!(key, "apiVersion" | "kind" | "metadata")
}

/// The effective entries of `map` under `node`, in key order. `resource` is true at a
/// resource root and at embedded resources (their `apiVersion`, `kind` and `metadata` are
/// never pruned).
pub(crate) fn entries<'a>(
    arena: &'a Arena,
    node: &'a Node,
    map: &'a Map<String, Value>,
    resource: bool,
) -> Entries<'a> {
    Entries {
        arena,
        node,
        data: map.iter().peekable(),
        defaulted: node.defaulted.iter().peekable(),
        resource,
    }
}

/// Iterator of [`entries`]: the object's keys merged with the properties that have a
/// default (both sorted by name).
pub(crate) struct Entries<'a> {
    arena: &'a Arena,
    node: &'a Node,
    data: std::iter::Peekable<serde_json::map::Iter<'a>>,
    defaulted: std::iter::Peekable<std::slice::Iter<'a, u32>>,
    resource: bool,
}

impl<'a> Iterator for Entries<'a> {
    type Item = (&'a str, &'a Value, Slot);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let next_key = self.data.peek().map(|(k, _)| k.as_str());
            let next_default = self
                .defaulted
                .peek()
                .map(|&&i| &self.node.properties[i as usize]);
            if let Some((name, id)) = next_default {
                let before = match next_key {
                    None => true,
                    Some(k) => cmp_names(name, k) == Ordering::Less,
                };
                if before {
                    // A defaulted property the object does not have.
                    self.defaulted.next();
                    if let Some(d) = self.arena.node(*id).default.as_deref() {
                        return Some((name.as_ref(), d, Slot::Prop(*id)));
                    }
                    continue;
                }
                if next_key == Some(name.as_ref()) {
                    self.defaulted.next();
                }
            }
            let (k, v) = self.data.next()?;
            if let Some(id) = self.node.property(k) {
                let schema = self.arena.node(id);
                if v.is_null() && !schema.nullable {
                    match schema.default.as_deref() {
                        Some(d) => return Some((k, d, Slot::Prop(id))),
                        None => continue,
                    }
                }
                return Some((k, v, Slot::Prop(id)));
            }
            if self.resource && is_meta_field(k) {
                return Some((k, v, Slot::Kept));
            }
            match self.node.additional {
                Additional::Schema(id) => {
                    let schema = self.arena.node(id);
                    if v.is_null() && !schema.nullable {
                        match schema.default.as_deref() {
                            Some(d) => return Some((k, d, Slot::Additional(id))),
                            None => continue,
                        }
                    }
                    return Some((k, v, Slot::Additional(id)));
                }
                Additional::Bool(_) => return Some((k, v, Slot::Kept)),
                Additional::None => {
                    if self.node.extensions.preserve_unknown_fields {
                        return Some((k, v, Slot::Kept));
                    }
                    // Pruned.
                }
            }
        }
    }
}

/// The effective value of a list item under `items`: a non-nullable `null` becomes the
/// items' default (and stays `null` without one).
pub(crate) fn item<'a>(arena: &'a Arena, items: Option<NodeId>, v: &'a Value) -> &'a Value {
    if v.is_null()
        && let Some(id) = items
    {
        let schema = arena.node(id);
        if !schema.nullable
            && let Some(d) = schema.default.as_deref()
        {
            return d;
        }
    }
    v
}

/// Whether an effective key is present (for `required`).
pub(crate) fn has_key(
    arena: &Arena,
    node: &Node,
    map: &Map<String, Value>,
    key: &str,
    resource: bool,
) -> bool {
    get(arena, node, map, key, resource).is_some()
}

/// Materialises the effective object (pruned, nulls dropped, defaulted), for callers that
/// need the value the API server would store.
pub(crate) fn materialize(arena: &Arena, id: Option<NodeId>, v: &Value, resource: bool) -> Value {
    let Some(id) = id else {
        return v.clone();
    };
    let node = arena.node(id);
    match v {
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, v, slot) in entries(arena, node, map, resource) {
                let child = match slot {
                    // A resource's `metadata` is decoded as ObjectMeta, not pruned by its
                    // schema (nor are `apiVersion` and `kind`).
                    _ if resource && is_meta_field(k) => v.clone(),
                    Slot::Prop(c) | Slot::Additional(c) => {
                        let embedded = arena.node(c).extensions.embedded_resource;
                        materialize(arena, Some(c), v, embedded)
                    }
                    Slot::Kept => v.clone(),
                };
                out.insert(k.to_owned(), child);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|x| {
                    let x = item(arena, node.items, x);
                    let embedded = node
                        .items
                        .is_some_and(|i| arena.node(i).extensions.embedded_resource);
                    materialize(arena, node.items, x, embedded)
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Whether the decoded value is the value as given (nothing pruned, defaulted or dropped),
/// so callers can read it without a copy.
fn is_effective(arena: &Arena, id: Option<NodeId>, v: &Value, resource: bool) -> bool {
    let Some(id) = id else { return true };
    let node = arena.node(id);
    match v {
        Value::Object(map) => {
            let mut seen = 0;
            for (k, ev, slot) in entries(arena, node, map, resource) {
                match map.get(k) {
                    Some(orig) if std::ptr::eq(orig, ev) => {}
                    _ => return false,
                }
                seen += 1;
                if resource && is_meta_field(k) {
                    // Decoded as ObjectMeta, not pruned by the schema.
                    continue;
                }
                if let Slot::Prop(c) | Slot::Additional(c) = slot {
                    let embedded = arena.node(c).extensions.embedded_resource;
                    if !is_effective(arena, Some(c), ev, embedded) {
                        return false;
                    }
                }
            }
            seen == map.len()
        }
        Value::Array(items) => items.iter().all(|x| {
            std::ptr::eq(item(arena, node.items, x), x)
                && is_effective(
                    arena,
                    node.items,
                    x,
                    node.items
                        .is_some_and(|i| arena.node(i).extensions.embedded_resource),
                )
        }),
        _ => true,
    }
}

/// The decoded object at a resource root: borrowed when decoding changes nothing, else
/// materialized.
pub(crate) fn decoded<'v>(
    arena: &Arena,
    root: NodeId,
    v: &'v Value,
) -> std::borrow::Cow<'v, Value> {
    if is_effective(arena, Some(root), v, true) {
        std::borrow::Cow::Borrowed(v)
    } else {
        std::borrow::Cow::Owned(materialize(arena, Some(root), v, true))
    }
}

/// Effective entries under a structural node, or an object's own entries when it is kept
/// without a schema.
pub(crate) enum AnyEntries<'a> {
    /// Under a structural node.
    Effective(Entries<'a>),
    /// Kept as written.
    Raw(serde_json::map::Iter<'a>),
}

impl<'a> Iterator for AnyEntries<'a> {
    type Item = (&'a str, &'a Value, Slot);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            AnyEntries::Effective(e) => e.next(),
            AnyEntries::Raw(it) => it.next().map(|(k, v)| (k.as_str(), v, Slot::Kept)),
        }
    }
}

/// [`entries`] under `structural`, or the raw entries without one.
pub(crate) fn entries_of<'a>(
    arena: &'a Arena,
    structural: Option<&'a Node>,
    map: &'a Map<String, Value>,
    resource: bool,
) -> AnyEntries<'a> {
    match structural {
        Some(node) => AnyEntries::Effective(entries(arena, node, map, resource)),
        None => AnyEntries::Raw(map.iter()),
    }
}

/// The effective value of `key` in `map` under `node` (see [`entries`]).
pub(crate) fn get<'a>(
    arena: &'a Arena,
    node: &'a Node,
    map: &'a Map<String, Value>,
    key: &str,
    resource: bool,
) -> Option<&'a Value> {
    match node.property(key) {
        Some(id) => {
            let schema = arena.node(id);
            match map.get(key) {
                None => schema.default.as_deref(),
                Some(Value::Null) if !schema.nullable => schema.default.as_deref(),
                Some(v) => Some(v),
            }
        }
        None => {
            let v = map.get(key)?;
            if resource && is_meta_field(key) {
                return Some(v);
            }
            match node.additional {
                Additional::Schema(id) => {
                    let schema = arena.node(id);
                    if v.is_null() && !schema.nullable {
                        schema.default.as_deref()
                    } else {
                        Some(v)
                    }
                }
                Additional::Bool(_) => Some(v),
                Additional::None => node.extensions.preserve_unknown_fields.then_some(v),
            }
        }
    }
}
