//! Embedded resources (`x-kubernetes-embedded-resource: true`): what the API server's decoder
//! checks (`objectmeta.Coerce`: `apiVersion` and `kind` are strings, `metadata` decodes into
//! ObjectMeta, whose unknown fields are reported) and what the strategy validates
//! (`objectmeta.Validate`, the checks of kdv-runtime's `validate_embedded_resource`).
//!
//! Both walk the object along the structural schema: properties as children (`a.b`),
//! `additionalProperties` entries as keys (`a[k]`), items by index. Only nodes from which an
//! embedded resource can be reached are visited ([`reaches_embedded`]). Go visits map keys
//! in random order; keys are visited in sorted order here.

use kdv_runtime::objectmeta::{decode_object_meta, unknown_fields, validate_embedded_resource};
use kdv_runtime::{BadValue, ErrorList, FieldError, FieldPath, PathRef};
use serde_json::Value;

use crate::effective::{self, Slot};
use crate::schema::{Additional, Arena, NodeId};

/// For each node: whether an embedded resource is the node or below it (through
/// properties, `additionalProperties` and items; cycles included).
pub(crate) fn reaches_embedded(arena: &Arena) -> Vec<bool> {
    reaches(arena, |n| n.extensions.embedded_resource)
}

/// For each node: whether a node satisfying `hit` is the node or below it.
pub(crate) fn reaches(arena: &Arena, hit: impl Fn(&crate::schema::Node) -> bool) -> Vec<bool> {
    let n = arena.len();
    let mut out: Vec<bool> = (0..n as NodeId).map(|id| hit(arena.node(id))).collect();
    // A fixpoint over the (possibly cyclic) structure graph; each pass is linear and there
    // are at most as many passes as the longest chain of new discoveries.
    loop {
        let mut changed = false;
        for id in 0..n as NodeId {
            if out[id as usize] {
                continue;
            }
            let node = arena.node(id);
            let below = node.properties.iter().any(|(_, c)| out[*c as usize])
                || matches!(node.additional, Additional::Schema(c) if out[c as usize])
                || node.items.is_some_and(|c| out[c as usize]);
            if below {
                out[id as usize] = true;
                changed = true;
            }
        }
        if !changed {
            return out;
        }
    }
}

/// The decoder's checks of embedded resources below the root: the first failure (which
/// fails decoding), and the unknown fields of their `metadata`.
pub(crate) fn coerce(
    arena: &Arena,
    reach: &[bool],
    root: NodeId,
    object: &Value,
    unknown: &mut Vec<FieldPath>,
) -> Result<(), FieldError> {
    let Value::Object(map) = object else {
        return Ok(());
    };
    // The root itself is decoded as a resource by the caller, not as an embedded one.
    walk_children(
        arena,
        reach,
        root,
        map,
        true,
        &PathRef::Nil,
        &mut |v, path| coerce_one(v, path, unknown),
    )
}

fn coerce_one(
    object: &Value,
    path: &PathRef<'_>,
    unknown: &mut Vec<FieldPath>,
) -> Result<(), FieldError> {
    let Value::Object(object) = object else {
        return Ok(());
    };
    for (k, v) in object {
        match k.as_str() {
            "apiVersion" | "kind" if !v.is_string() => {
                return Err(FieldError::invalid(
                    &path.child(k),
                    BadValue::unstructured(v),
                    "must be a string",
                ));
            }
            "metadata" => {
                let p = path.child("metadata");
                if let Err(e) = decode_object_meta(v) {
                    return Err(FieldError::invalid(
                        &p,
                        BadValue::unstructured(v),
                        e.to_string(),
                    ));
                }
                unknown_fields(v, &p, unknown);
            }
            _ => {}
        }
    }
    Ok(())
}

/// `objectmeta.Validate` below the root.
pub(crate) fn validate(
    arena: &Arena,
    reach: &[bool],
    root: NodeId,
    object: &Value,
    out: &mut ErrorList,
) {
    let Value::Object(map) = object else {
        return;
    };
    let _ = walk_children(
        arena,
        reach,
        root,
        map,
        true,
        &PathRef::Nil,
        &mut |v, path| {
            validate_embedded_resource(v, path, out);
            Ok(())
        },
    );
}

/// Visits the embedded objects below the object `map` at `id`, calling `f` on each.
fn walk_children<'a>(
    arena: &'a Arena,
    reach: &[bool],
    id: NodeId,
    map: &'a serde_json::Map<String, Value>,
    resource: bool,
    path: &PathRef<'_>,
    f: &mut dyn FnMut(&Value, &PathRef<'_>) -> Result<(), FieldError>,
) -> Result<(), FieldError> {
    let node = arena.node(id);
    for (k, v, slot) in effective::entries(arena, node, map, resource) {
        match slot {
            Slot::Prop(c) => {
                let p = path.child(k);
                walk(arena, reach, c, v, &p, f)?;
            }
            Slot::Additional(c) => {
                let p = path.key(k);
                walk(arena, reach, c, v, &p, f)?;
            }
            Slot::Kept => {}
        }
    }
    Ok(())
}

fn walk(
    arena: &Arena,
    reach: &[bool],
    id: NodeId,
    v: &Value,
    path: &PathRef<'_>,
    f: &mut dyn FnMut(&Value, &PathRef<'_>) -> Result<(), FieldError>,
) -> Result<(), FieldError> {
    if !reach[id as usize] {
        return Ok(());
    }
    let node = arena.node(id);
    match v {
        Value::Object(map) => {
            if node.extensions.embedded_resource {
                f(v, path)?;
            }
            walk_children(
                arena,
                reach,
                id,
                map,
                node.extensions.embedded_resource,
                path,
                f,
            )
        }
        Value::Array(items) => {
            let Some(item) = node.items else {
                return Ok(());
            };
            for (i, x) in items.iter().enumerate() {
                let p = path.index(i);
                let x = effective::item(arena, Some(item), x);
                walk(arena, reach, item, x, &p, f)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}
