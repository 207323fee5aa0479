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

use kdv_runtime::{FieldPath, Segment};
use serde_json::Value;

use crate::effective::is_meta_field;
use crate::schema::{Additional, Arena, Node, NodeId};

/// Records the paths pruning would drop from `v` (structural node `id`; `None`: no schema,
/// everything below is unknown).
pub(crate) fn unknown_paths(
    arena: &Arena,
    id: Option<NodeId>,
    v: &Value,
    resource: bool,
    path: &mut Vec<Segment>,
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
                    path.push(Segment::Field(k.clone()));
                    out.push(FieldPath::from_segments(path.clone()));
                    path.pop();
                }
                return;
            };
            for (k, v) in map {
                if resource && is_meta_field(k) {
                    continue;
                }
                if let Some(child) = n.property(k) {
                    path.push(Segment::Field(k.clone()));
                    let embedded = arena.node(child).extensions.embedded_resource;
                    unknown_paths(arena, Some(child), v, embedded, path, out);
                    path.pop();
                } else if n.additional != Additional::None {
                    path.push(Segment::Field(k.clone()));
                    let child = match n.additional {
                        Additional::Schema(c) => Some(c),
                        _ => None,
                    };
                    let embedded =
                        child.is_some_and(|c| arena.node(c).extensions.embedded_resource);
                    unknown_paths(arena, child, v, embedded, path, out);
                    path.pop();
                } else {
                    path.push(Segment::Field(k.clone()));
                    out.push(FieldPath::from_segments(path.clone()));
                    path.pop();
                }
            }
        }
        Value::Array(items) => {
            let child = node.and_then(|n| n.items);
            let embedded = child.is_some_and(|c| arena.node(c).extensions.embedded_resource);
            for (i, item) in items.iter().enumerate() {
                path.push(Segment::Index(i));
                unknown_paths(arena, child, item, embedded, path, out);
                path.pop();
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
    path: &mut Vec<Segment>,
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
                path.push(Segment::Field(k.clone()));
                let embedded = child.is_some_and(|c| arena.node(c).extensions.embedded_resource);
                unknown_paths(arena, child, v, embedded, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            if let Some(child) = node.items {
                let child_node = arena.node(child);
                let embedded = child_node.extensions.embedded_resource;
                for (i, item) in items.iter().enumerate() {
                    path.push(Segment::Index(i));
                    skip(arena, child_node, item, embedded, path, out);
                    path.pop();
                }
            }
        }
        _ => {}
    }
}

/// Prunes `v` in place (schema defaults, when a schema is loaded).
pub(crate) fn prune_in_place(arena: &Arena, id: Option<NodeId>, v: &mut Value, resource: bool) {
    let node = id.map(|id| arena.node(id));
    let preserve = node.is_some_and(|n| n.extensions.preserve_unknown_fields);
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
                    Additional::None => preserve,
                }
            });
        }
        Value::Array(items) => {
            let child = node.and_then(|n| n.items);
            let embedded = child.is_some_and(|c| arena.node(c).extensions.embedded_resource);
            for item in items {
                if preserve && child.is_none() {
                    continue;
                }
                prune_in_place(arena, child, item, embedded);
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
