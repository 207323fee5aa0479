//! Pruning (`pruning.PruneWithOptions`): the fields a structural schema does not know are
//! dropped when the API server decodes an object, and with strict field validation each
//! dropped path is reported (`unknown field "spec.foo"`).
//!
//! - Under `x-kubernetes-preserve-unknown-fields` unknown keys are kept, but the declared
//!   properties below are still pruned.
//! - At a resource root and at embedded resources, `apiVersion`, `kind` and `metadata` are
//!   kept and not descended into (metadata is decoded as ObjectMeta instead:
//!   [`crate::meta`]).
//! - `additionalProperties: true|false` keeps the key but prunes everything below it (the
//!   structural schema has no node there).
//!
//! Paths are rendered as upstream builds them (`spec.list[0].foo`) and sorted as strings, as
//! `PruneWithOptions` returns them.

use kdv_runtime::{FieldPath, PathRef, Segment};
use serde_json::Value;

use crate::effective::is_meta_field;
use crate::schema::{Additional, Arena, Node, NodeId};

/// Records the paths pruning would drop from `v` (structural node `id`; `None`: no schema,
/// everything below is unknown). Paths are materialised only for what is recorded.
pub(crate) fn unknown_paths(
    arena: &Arena,
    id: Option<NodeId>,
    v: &Value,
    resource: bool,
    path: &PathRef<'_>,
    out: &mut Vec<FieldPath>,
) {
    let node = id.map(|id| arena.node(id));
    if let Some(n) = node
        && n.extensions.preserve_unknown_fields
    {
        skip(arena, n, v, resource, path, out);
        return;
    }
    match v {
        Value::Object(map) => {
            let Some(n) = node else {
                for k in map.keys() {
                    out.push(path.child(k).to_path());
                }
                return;
            };
            for (k, v) in map {
                if resource && is_meta_field(k) {
                    continue;
                }
                let p = path.child(k);
                if let Some(child) = n.property(k) {
                    let embedded = arena.node(child).extensions.embedded_resource;
                    unknown_paths(arena, Some(child), v, embedded, &p, out);
                } else if n.additional != Additional::None {
                    let child = match n.additional {
                        Additional::Schema(c) => Some(c),
                        _ => None,
                    };
                    let embedded =
                        child.is_some_and(|c| arena.node(c).extensions.embedded_resource);
                    unknown_paths(arena, child, v, embedded, &p, out);
                } else {
                    out.push(p.to_path());
                }
            }
        }
        Value::Array(items) => {
            let child = node.and_then(|n| n.items);
            let embedded = child.is_some_and(|c| arena.node(c).extensions.embedded_resource);
            for (i, item) in items.iter().enumerate() {
                let p = path.index(i);
                unknown_paths(arena, child, item, embedded, &p, out);
            }
        }
        _ => {}
    }
}

fn skip(
    arena: &Arena,
    node: &Node,
    v: &Value,
    resource: bool,
    path: &PathRef<'_>,
    out: &mut Vec<FieldPath>,
) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                if resource && is_meta_field(k) {
                    continue;
                }
                let child = match node.property(k) {
                    Some(c) => Some(c),
                    None => match node.additional {
                        Additional::Schema(c) => Some(c),
                        Additional::Bool(_) => None,
                        Additional::None => continue,
                    },
                };
                let p = path.child(k);
                let embedded = child.is_some_and(|c| arena.node(c).extensions.embedded_resource);
                unknown_paths(arena, child, v, embedded, &p, out);
            }
        }
        Value::Array(items) => {
            if let Some(child) = node.items {
                let child_node = arena.node(child);
                let embedded = child_node.extensions.embedded_resource;
                for (i, item) in items.iter().enumerate() {
                    let p = path.index(i);
                    skip(arena, child_node, item, embedded, &p, out);
                }
            }
        }
        _ => {}
    }
}

/// Prunes `v` in place (schema defaults, when a schema is loaded).
pub(crate) fn prune_in_place(arena: &Arena, id: Option<NodeId>, v: &mut Value, resource: bool) {
    let node = id.map(|id| arena.node(id));
    if let Some(n) = node
        && n.extensions.preserve_unknown_fields
    {
        skip_in_place(arena, n, v, resource);
        return;
    }
    match v {
        Value::Object(map) => {
            let Some(n) = node else {
                map.clear();
                return;
            };
            map.retain(|k, v| {
                if resource && is_meta_field(k) {
                    return true;
                }
                if let Some(child) = n.property(k) {
                    let embedded = arena.node(child).extensions.embedded_resource;
                    prune_in_place(arena, Some(child), v, embedded);
                    return true;
                }
                match n.additional {
                    Additional::Schema(c) => {
                        let embedded = arena.node(c).extensions.embedded_resource;
                        prune_in_place(arena, Some(c), v, embedded);
                        true
                    }
                    Additional::Bool(_) => {
                        prune_in_place(arena, None, v, false);
                        true
                    }
                    Additional::None => false,
                }
            });
        }
        Value::Array(items) => {
            let child = node.and_then(|n| n.items);
            let embedded = child.is_some_and(|c| arena.node(c).extensions.embedded_resource);
            for item in items {
                prune_in_place(arena, child, item, embedded);
            }
        }
        _ => {}
    }
}

/// `skipPrune`: below `x-kubernetes-preserve-unknown-fields`, unknown keys stay and known
/// ones are pruned.
fn skip_in_place(arena: &Arena, node: &Node, v: &mut Value, resource: bool) {
    match v {
        Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                if resource && is_meta_field(k) {
                    continue;
                }
                let child = match node.property(k) {
                    Some(c) => Some(c),
                    None => match node.additional {
                        Additional::Schema(c) => Some(c),
                        Additional::Bool(_) => None,
                        Additional::None => continue,
                    },
                };
                let embedded = child.is_some_and(|c| arena.node(c).extensions.embedded_resource);
                prune_in_place(arena, child, v, embedded);
            }
        }
        Value::Array(items) => {
            if let Some(child) = node.items {
                let child_node = arena.node(child);
                let embedded = child_node.extensions.embedded_resource;
                for item in items {
                    skip_in_place(arena, child_node, item, embedded);
                }
            }
        }
        _ => {}
    }
}

/// Prunes every default of the arena with its own node, as the API server does when it
/// builds a CRD's handler (`defaulting.PruneDefaults`).
pub(crate) fn prune_defaults(arena: &mut Arena) {
    for id in 0..arena.len() as NodeId {
        let Some(mut d) = arena.node_mut(id).default.take() else {
            continue;
        };
        let embedded = arena.node(id).extensions.embedded_resource;
        prune_in_place(arena, Some(id), &mut d, embedded);
        arena.node_mut(id).default = Some(d);
    }
}

/// Renders a path as upstream's unknown-field paths (`spec.list[0].foo`).
pub(crate) fn render(path: &FieldPath) -> String {
    let mut s = String::new();
    for seg in path.segments() {
        match seg {
            Segment::Field(n) | Segment::Key(n) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(n);
            }
            Segment::Index(i) => {
                s.push('[');
                s.push_str(&i.to_string());
                s.push(']');
            }
        }
    }
    s
}

/// Sorts paths as `sort.Strings` sorts their renderings.
pub(crate) fn sort_paths(paths: &mut [FieldPath]) {
    paths.sort_by_cached_key(render);
}
