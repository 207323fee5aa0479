//! `metadata` as the API server decodes it: into the Go `ObjectMeta` type, strictly
//! (`GetObjectMetaWithOptions` with `ReturnUnknownFieldPaths`), whatever the resource's
//! schema says. Its unknown fields are reported like pruned ones (`metadata.foo`), at the
//! root of every resource and of every embedded resource.
//!
//! The shape of `ObjectMeta` comes from the schemas kubectl-validate publishes for custom
//! resources (`data/local_crds_metadata.json`). Objects without declared fields there
//! (`FieldsV1`) are raw JSON to Go's decoder and hold no unknown fields.

use std::sync::OnceLock;

use kdv_runtime::{FieldPath, Segment};
use serde_json::{Map, Value};

use crate::schema::{Additional, Arena, NodeId};

const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

/// The compiled `ObjectMeta` schema.
pub(crate) fn object_meta() -> &'static (Arena, NodeId) {
    static CELL: OnceLock<(Arena, NodeId)> = OnceLock::new();
    CELL.get_or_init(|| {
        let text = include_str!("../data/local_crds_metadata.json");
        // The file is part of this crate and tested to compile (`tests::object_meta_compiles`);
        // an empty schema would only be reached if that test failed.
        let schemas: Map<String, Value> = serde_json::from_str(text).unwrap_or_default();
        crate::openapi::compile_definition(&schemas, OBJECT_META, false).unwrap_or_else(|_| {
            let mut arena = Arena::new();
            let id = arena.push(crate::schema::Node::empty());
            (arena, id)
        })
    })
}

/// Records the unknown fields of a `metadata` value (at `path`, the path of `metadata`).
pub(crate) fn unknown_fields(v: &Value, path: &mut Vec<Segment>, out: &mut Vec<FieldPath>) {
    let (arena, root) = object_meta();
    walk(arena, *root, v, path, out);
}

fn walk(arena: &Arena, id: NodeId, v: &Value, path: &mut Vec<Segment>, out: &mut Vec<FieldPath>) {
    let node = arena.node(id);
    match v {
        Value::Object(map) => {
            if node.properties.is_empty() {
                if let Additional::Schema(child) = node.additional {
                    for (k, v) in map {
                        path.push(Segment::Field(k.clone()));
                        walk(arena, child, v, path, out);
                        path.pop();
                    }
                }
                return;
            }
            for (k, v) in map {
                path.push(Segment::Field(k.clone()));
                match node.property(k) {
                    Some(child) => walk(arena, child, v, path, out),
                    None => out.push(FieldPath::from_segments(path.clone())),
                }
                path.pop();
            }
        }
        Value::Array(items) => {
            if let Some(child) = node.items {
                for (i, item) in items.iter().enumerate() {
                    path.push(Segment::Index(i));
                    walk(arena, child, item, path, out);
                    path.pop();
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_meta_compiles() {
        let text = include_str!("../data/local_crds_metadata.json");
        let schemas: Map<String, Value> = serde_json::from_str(text).expect("valid JSON");
        let (arena, root) =
            crate::openapi::compile_definition(&schemas, OBJECT_META, false).expect("compiles");
        let node = arena.node(root);
        for field in [
            "name",
            "namespace",
            "labels",
            "ownerReferences",
            "managedFields",
        ] {
            assert!(node.property(field).is_some(), "{field}");
        }
    }

    #[test]
    fn unknown_metadata_fields() {
        let v = serde_json::json!({
            "name": "x",
            "foo": 1,
            "labels": {"a": "b"},
            "ownerReferences": [{"name": "o", "bar": true}],
            "managedFields": [{"fieldsV1": {"f:spec": {}}}]
        });
        let mut path = vec![Segment::Field("metadata".into())];
        let mut out = Vec::new();
        unknown_fields(&v, &mut path, &mut out);
        let rendered: Vec<String> = out.iter().map(|p| p.to_string()).collect();
        assert_eq!(
            rendered,
            ["metadata.foo", "metadata.ownerReferences[0].bar"]
        );
    }
}
