//! Correlation of a new object with the old one on UPDATE (`common.CorrelatedObject`), shared
//! by transition rules (`oldSelf`) and validation ratcheting:
//!
//! - object properties and map entries correlate by identical key;
//! - items of `x-kubernetes-list-type: map` lists correlate with the first old item whose
//!   composite key (the `x-kubernetes-list-map-keys` values, each present and scalar) is the
//!   same; items of `set`, `atomic` or untyped lists never correlate;
//! - a node is unchanged ([`unchanged`]) when its effective value deep-equals the old one, map
//!   lists compared item by correlated item (so reordering a map list changes nothing).
//!
//! Both sides are seen through the effective view (pruned and defaulted), as the API server
//! compares the decoded new object with the stored (already defaulted) old one.

use serde_json::{Map, Value};

use crate::effective::{self, Slot};
use crate::schema::{Arena, ListType, Node, NodeId};

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
/// scalars by Go value (`1` and `1.0` differ), objects by their effective entries, map lists
/// item by correlated item, other lists element by element.
pub(crate) fn unchanged(
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
                        unchanged(arena, schema.items, item, old_item, false)
                    })
                })
            } else {
                n.iter().zip(o).all(|(a, b)| {
                    let a = effective::item(arena, schema.items, a);
                    let b = effective::item(arena, schema.items, b);
                    unchanged(arena, schema.items, a, b, false)
                })
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
        let Some(o) = effective::get(arena, schema, old, k, resource) else {
            return false;
        };
        let child = match slot {
            Slot::Prop(id) | Slot::Additional(id) => Some(id),
            Slot::Kept => None,
        };
        if !unchanged(arena, child, v, o, false) {
            return false;
        }
    }
    count == effective::entries(arena, schema, old, resource).count()
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
