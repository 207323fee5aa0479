//! Correlation of a new object with the old one on UPDATE (`common.CorrelatedObject`), shared
//! by transition rules (`oldSelf`) and validation ratcheting:
//!
//! - object properties and map entries correlate by identical key;
//! - items of `x-kubernetes-list-type: map` lists correlate with the first old item whose
//!   composite key (the `x-kubernetes-list-map-keys` values, each present and scalar) is the
//!   same; items of `set`, `atomic` or untyped lists never correlate;
//! - a node is unchanged ([`unchanged`]) when its effective value deep-equals the old one, map
//!   lists compared item by correlated item (so reordering a map list changes nothing), and
//!   every entry of an object correlates (an object holding a field kept without a schema
//!   is never unchanged, as upstream's `Key` finds no schema for it);
//! - [`Ratchet`] decides, for an error found on UPDATE, whether validation ratcheting drops
//!   it (its node, or nearest correlatable ancestor, is unchanged).
//!
//! Both sides are seen through the effective view (pruned and defaulted), as the API server
//! compares the decoded new object with the stored (already defaulted) old one.

use kdv_runtime::Segment;
use serde_json::{Map, Value};

use crate::effective::{self, Slot};
use crate::schema::{Additional, Arena, ListType, Node, NodeId};

/// The old value of property or map entry `key`, when `old` is an object holding it.
pub(crate) fn old_field<'o>(
    arena: &'o Arena,
    node: Option<&'o Node>,
    old: Option<&'o Value>,
    key: &str,
    resource: bool,
) -> Option<&'o Value> {
    let Some(Value::Object(old)) = old else {
        return None;
    };
    match node {
        Some(node) => effective::get(arena, node, old, key, resource),
        None => old.get(key),
    }
}

/// The old item correlated with `item`, an item of the list under schema node `list`:
/// only for map lists, by composite key.
pub(crate) fn old_item<'o>(
    arena: &'o Arena,
    list: NodeId,
    item: &Value,
    old: Option<&'o Value>,
) -> Option<&'o Value> {
    let node = arena.node(list);
    if node.extensions.list_type != Some(ListType::Map) {
        return None;
    }
    let Some(Value::Array(old_items)) = old else {
        return None;
    };
    let keys = &node.extensions.list_map_keys;
    let item = effective::item(arena, node.items, item);
    let new_key = |k: &str| key_field(arena, node.items, item, k);
    // Every key must be present and scalar, else the item never correlates.
    if keys.iter().any(|k| new_key(k).is_none()) {
        return None;
    }
    old_items
        .iter()
        .map(|o| effective::item(arena, node.items, o))
        .find(|o| {
            keys.iter()
                .all(|k| match (new_key(k), key_field(arena, node.items, o, k)) {
                    (Some(a), Some(b)) => a == b,
                    _ => false,
                })
        })
}

/// Key field `k` of a map-list item, when present and scalar (bool, number or string).
fn key_field<'v>(
    arena: &'v Arena,
    items: Option<NodeId>,
    item: &'v Value,
    k: &str,
) -> Option<&'v Value> {
    let Value::Object(m) = item else {
        return None;
    };
    let v = match items {
        Some(id) => {
            let node = arena.node(id);
            effective::get(arena, node, m, k, node.extensions.embedded_resource)?
        }
        None => m.get(k)?,
    };
    matches!(v, Value::Bool(_) | Value::Number(_) | Value::String(_)).then_some(v)
}

/// Whether `new` is unchanged from `old` under schema node `node` (`CachedDeepEqual`):
/// scalars by Go value (`1` and `1.0` differ); objects by their effective entries, each of
/// which must correlate (a property or an `additionalProperties` entry: an entry kept
/// without a schema — under `x-kubernetes-preserve-unknown-fields`, or a resource's
/// undeclared `metadata` — never correlates, so its object is never unchanged, as
/// upstream's `Key` finds no schema for it); map lists item by correlated item; other lists
/// by plain deep equality of the whole list.
pub(crate) fn unchanged(
    arena: &Arena,
    node: Option<NodeId>,
    new: &Value,
    old: &Value,
    resource: bool,
) -> bool {
    let Some(id) = node else {
        // No schema: no child correlates, so only empty objects are unchanged; lists and
        // scalars compare deeply.
        return match (new, old) {
            (Value::Object(n), Value::Object(o)) => n.is_empty() && o.is_empty(),
            _ => new == old,
        };
    };
    let schema = arena.node(id);
    match (new, old) {
        (Value::Object(n), Value::Object(o)) => {
            let resource = resource || schema.extensions.embedded_resource;
            objects_unchanged(arena, schema, n, o, resource)
        }
        (Value::Array(n), Value::Array(o)) => {
            if n.len() != o.len() {
                return false;
            }
            if schema.extensions.list_type == Some(ListType::Map) {
                n.iter().all(|item| {
                    old_item(arena, id, item, Some(old)).is_some_and(|old_item| {
                        let item = effective::item(arena, schema.items, item);
                        let resource = schema
                            .items
                            .is_some_and(|i| arena.node(i).extensions.embedded_resource);
                        unchanged(arena, schema.items, item, old_item, resource)
                    })
                })
            } else {
                deep_equal(arena, Some(id), new, old, false)
            }
        }
        _ => new == old,
    }
}

fn objects_unchanged(
    arena: &Arena,
    schema: &Node,
    new: &Map<String, Value>,
    old: &Map<String, Value>,
    resource: bool,
) -> bool {
    let mut count = 0usize;
    for (k, v, slot) in effective::entries(arena, schema, new, resource) {
        count += 1;
        let child = match slot {
            Slot::Prop(id) | Slot::Additional(id) => id,
            Slot::Kept => return false,
        };
        let Some(o) = effective::get(arena, schema, old, k, resource) else {
            return false;
        };
        let embedded = arena.node(child).extensions.embedded_resource;
        if !unchanged(arena, Some(child), v, o, embedded) {
            return false;
        }
    }
    count == effective::entries(arena, schema, old, resource).count()
}

/// Go's `reflect.DeepEqual` of the two effective (pruned, defaulted) values: what upstream
/// compares for lists that are not map lists.
fn deep_equal(
    arena: &Arena,
    node: Option<NodeId>,
    new: &Value,
    old: &Value,
    resource: bool,
) -> bool {
    let Some(id) = node else {
        return new == old;
    };
    let schema = arena.node(id);
    match (new, old) {
        (Value::Object(n), Value::Object(o)) => {
            let resource = resource || schema.extensions.embedded_resource;
            let mut a = effective::entries(arena, schema, n, resource);
            let mut b = effective::entries(arena, schema, o, resource);
            loop {
                match (a.next(), b.next()) {
                    (None, None) => return true,
                    (Some((ka, va, slot)), Some((kb, vb, _))) => {
                        let child = match slot {
                            Slot::Prop(id) | Slot::Additional(id) => Some(id),
                            Slot::Kept => None,
                        };
                        if ka != kb || !deep_equal(arena, child, va, vb, false) {
                            return false;
                        }
                    }
                    _ => return false,
                }
            }
        }
        (Value::Array(n), Value::Array(o)) => {
            n.len() == o.len()
                && n.iter().zip(o).all(|(a, b)| {
                    let a = effective::item(arena, schema.items, a);
                    let b = effective::item(arena, schema.items, b);
                    deep_equal(arena, schema.items, a, b, false)
                })
        }
        _ => new == old,
    }
}

/// Validation ratcheting's decision for one error on UPDATE (`ratchetingValueValidator`
/// and CEL's `ratchetingDecision`): the error is dropped when the node it arose at, or its
/// nearest correlatable ancestor, is unchanged.
///
/// Upstream walks the object with a ratcheting validator per correlatable node and turns
/// all errors of an unchanged node's subtree into warnings. Correlation runs down from the
/// root as far as each step correlates (an object property or map entry present on both
/// sides with a schema; a map-list item by key; never a set or atomic list's item, nor the
/// root's `apiVersion` and `kind`); an unchanged node has only unchanged correlatable
/// descendants, so the deepest correlated node on the error's path decides alone. Only
/// invalid updates pay for this: errors are found first, then each one's path is walked
/// here, with the verdicts of decided nodes remembered.
pub(crate) struct Ratchet<'a> {
    arena: &'a Arena,
    root: NodeId,
    new: &'a Value,
    old: &'a Value,
    /// Decided nodes: their path from the root and whether they are unchanged.
    decided: Vec<(Vec<Segment>, bool)>,
}

impl<'a> Ratchet<'a> {
    /// The ratchet for an update of resource `new` (under schema `root`) from `old`.
    pub(crate) fn new(arena: &'a Arena, root: NodeId, new: &'a Value, old: &'a Value) -> Self {
        Ratchet {
            arena,
            root,
            new,
            old,
            decided: Vec::new(),
        }
    }

    /// Whether an error that arose at `origin` (a path from the root) is ratcheted away.
    pub(crate) fn drops(&mut self, origin: &[Segment]) -> bool {
        let arena = self.arena;
        let (mut node, mut new, mut old, mut resource) =
            (Some(self.root), self.new, self.old, true);
        let mut depth = 0;
        for (i, seg) in origin.iter().enumerate() {
            let Some(id) = node else { break };
            let schema = arena.node(id);
            let next = match seg {
                Segment::Field(k) | Segment::Key(k) => {
                    if i == 0 && matches!(&**k, "apiVersion" | "kind") {
                        break;
                    }
                    let child = match schema.property(k) {
                        Some(c) => Some(c),
                        None => match schema.additional {
                            Additional::Schema(c) if !(resource && effective::is_meta_field(k)) => {
                                Some(c)
                            }
                            _ => None,
                        },
                    };
                    match (child, new) {
                        (Some(c), Value::Object(n)) => {
                            match (
                                effective::get(arena, schema, n, k, resource),
                                old_field(arena, Some(schema), Some(old), k, resource),
                            ) {
                                (Some(n), Some(o)) => Some((c, n, o)),
                                _ => None,
                            }
                        }
                        _ => None,
                    }
                }
                Segment::Index(idx) => match (schema.items, new) {
                    (Some(items), Value::Array(list)) => list.get(*idx).and_then(|item| {
                        let item = effective::item(arena, Some(items), item);
                        old_item(arena, id, item, Some(old)).map(|o| (items, item, o))
                    }),
                    _ => None,
                },
            };
            let Some((c, n, o)) = next else { break };
            node = Some(c);
            new = n;
            old = o;
            resource = arena.node(c).extensions.embedded_resource;
            depth = i + 1;
        }
        let at = &origin[..depth];
        if let Some((_, verdict)) = self.decided.iter().find(|(p, _)| p.as_slice() == at) {
            return *verdict;
        }
        let verdict = unchanged(arena, node, new, old, resource);
        self.decided.push((at.to_vec(), verdict));
        verdict
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::Resource;

    fn resource(schema: Value) -> Resource {
        Resource::from_crd_schema("example.com", "v1", "Widget", &schema, 35)
            .expect("test schema is structural")
    }

    fn spec_node(r: &Resource, name: &str) -> NodeId {
        let (arena, root) = r.schema();
        let spec = arena.node(root).property("spec").expect("spec");
        arena.node(spec).property(name).expect("property")
    }

    #[test]
    fn map_list_items_correlate_by_key_and_reordering_is_unchanged() {
        let r = resource(
            json!({"type": "object", "properties": {"spec": {"type": "object",
            "properties": {"ports": {"type": "array", "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["name", "protocol"],
                "items": {"type": "object", "required": ["name"], "properties": {
                    "name": {"type": "string"},
                    "protocol": {"type": "string", "default": "TCP"},
                    "port": {"type": "integer"}}}}}}}}),
        );
        let (arena, _) = r.schema();
        let ports = spec_node(&r, "ports");
        let old = json!([{"name": "a", "port": 1}, {"name": "b", "protocol": "UDP", "port": 2}]);
        let item = json!({"name": "a", "protocol": "TCP", "port": 3});
        assert_eq!(
            old_item(arena, ports, &item, Some(&old)),
            Some(&json!({"name": "a", "port": 1}))
        );
        let other = json!({"name": "b", "port": 2});
        assert_eq!(old_item(arena, ports, &other, Some(&old)), None);
        let reordered = json!([{"name": "b", "protocol": "UDP", "port": 2},
            {"name": "a", "protocol": "TCP", "port": 1}]);
        assert!(unchanged(arena, Some(ports), &reordered, &old, false));
        let changed = json!([{"name": "b", "protocol": "UDP", "port": 2},
            {"name": "a", "port": 9}]);
        assert!(!unchanged(arena, Some(ports), &changed, &old, false));
    }

    #[test]
    fn set_and_atomic_items_never_correlate_and_scalars_compare_by_go_value() {
        let r = resource(
            json!({"type": "object", "properties": {"spec": {"type": "object",
            "properties": {
                "tags": {"type": "array", "x-kubernetes-list-type": "set",
                    "items": {"type": "string"}},
                "n": {"type": "number"}}}}}),
        );
        let (arena, _) = r.schema();
        let tags = spec_node(&r, "tags");
        let old = json!(["x"]);
        assert_eq!(old_item(arena, tags, &json!("x"), Some(&old)), None);
        assert!(unchanged(arena, Some(tags), &json!(["x"]), &old, false));
        assert!(!unchanged(arena, Some(tags), &json!(["y"]), &old, false));
        let n = spec_node(&r, "n");
        assert!(!unchanged(arena, Some(n), &json!(1), &json!(1.0), false));
    }

    #[test]
    fn defaults_count_on_both_sides() {
        let r = resource(
            json!({"type": "object", "properties": {"spec": {"type": "object",
            "properties": {"a": {"type": "string", "default": "d"}, "b": {"type": "string"}}}}}),
        );
        let (arena, root) = r.schema();
        let spec = arena.node(root).property("spec").expect("spec");
        let old = json!({"a": "d", "b": "x"});
        assert!(unchanged(
            arena,
            Some(spec),
            &json!({"b": "x"}),
            &old,
            false
        ));
        assert_eq!(
            old_field(arena, Some(arena.node(spec)), Some(&json!({})), "a", false),
            Some(&json!("d"))
        );
    }
}
