//! The reduced form of a published OpenAPI v3 document: what the crate embeds.
//!
//! Everything a validator reads is kept:
//! - schema `description` texts are dropped (only where `description` is the keyword of a
//!   schema: a property *named* `description` and `default`/`enum`/`example` values stay);
//! - `paths` keeps each path and, per operation, only its `x-kubernetes-*` extensions (the
//!   group-version-kind and action): the scope of a kind (namespaced when one of its paths
//!   holds `namespaces/{namespace}`) is read from there, the parameters and responses are
//!   not needed.
//!
//! The reduced document is stored and embedded as compact JSON ([`to_json`]) compressed with
//! raw DEFLATE ([`compress`]). The build script compiles this same file (it has no other
//! dependency than `serde_json` and `miniz_oxide`), and `kdv-release-data` uses it through
//! the `reduce` feature, so the stored files and the embedded ones are reduced by one code.

use serde_json::{Map, Value};

/// The miniz_oxide level the documents are compressed with (its highest).
pub const DEFLATE_LEVEL: u8 = 10;

/// Reduces a whole document in place (see the module documentation).
pub fn reduce(document: &mut Value) {
    let Some(top) = document.as_object_mut() else {
        return;
    };
    if let Some(Value::Object(schemas)) =
        top.get_mut("components").and_then(|c| c.get_mut("schemas"))
    {
        for schema in schemas.values_mut() {
            reduce_schema(schema);
        }
    }
    if let Some(Value::Object(paths)) = top.get_mut("paths") {
        for item in paths.values_mut() {
            let Value::Object(item) = item else { continue };
            let kept: Map<String, Value> = std::mem::take(item)
                .into_iter()
                .filter_map(|(method, operation)| {
                    let Value::Object(operation) = operation else {
                        return None;
                    };
                    let extensions: Map<String, Value> = operation
                        .into_iter()
                        .filter(|(k, _)| k.starts_with("x-kubernetes-"))
                        .collect();
                    (!extensions.is_empty()).then_some((method, Value::Object(extensions)))
                })
                .collect();
            *item = kept;
        }
    }
}

/// Removes the `description` keyword of a schema and of the schemas it holds.
pub fn reduce_schema(schema: &mut Value) {
    let Value::Object(schema) = schema else {
        return;
    };
    if schema.get("description").is_some_and(Value::is_string) {
        schema.remove("description");
    }
    for (keyword, value) in schema.iter_mut() {
        match keyword.as_str() {
            "properties" | "patternProperties" | "definitions" => {
                if let Value::Object(named) = value {
                    for sub in named.values_mut() {
                        reduce_schema(sub);
                    }
                }
            }
            "items"
            | "additionalProperties"
            | "additionalItems"
            | "not"
            | "allOf"
            | "anyOf"
            | "oneOf" => match value {
                Value::Array(subs) => subs.iter_mut().for_each(reduce_schema),
                sub => reduce_schema(sub),
            },
            _ => {}
        }
    }
}

/// The compact JSON text of a (reduced) document, as stored and embedded.
pub fn to_json(document: &Value) -> Vec<u8> {
    // Serializing a `Value` to a `Vec` cannot fail (string keys, no I/O).
    serde_json::to_vec(document).unwrap_or_default()
}

/// Raw DEFLATE of `json` at [`DEFLATE_LEVEL`].
pub fn compress(json: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec(json, DEFLATE_LEVEL)
}

/// Inflates a stored document, refusing more than `limit` bytes of output.
pub fn decompress(compressed: &[u8], limit: usize) -> Result<Vec<u8>, String> {
    miniz_oxide::inflate::decompress_to_vec_with_limit(compressed, limit).map_err(|e| e.to_string())
}

/// Checks that `json` is a reduced document in its stored form: valid JSON, compact, and
/// unchanged by [`reduce`]. Returns the parsed document.
pub fn check_reduced(json: &[u8]) -> Result<Value, String> {
    let document: Value = serde_json::from_slice(json).map_err(|e| format!("not JSON: {e}"))?;
    if !document.is_object() {
        return Err("not a JSON object".to_string());
    }
    let mut again = document.clone();
    reduce(&mut again);
    if again != document {
        return Err("not in reduced form (descriptions or path operations left)".to_string());
    }
    if to_json(&document) != json {
        return Err("not compact JSON as serde_json writes it".to_string());
    }
    Ok(document)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reduces_descriptions_and_operations_only() {
        let mut document = json!({
            "openapi": "3.0.0",
            "paths": {"/api/v1/pods": {
                "parameters": [{"name": "pretty"}],
                "get": {"description": "list", "x-kubernetes-action": "list"},
                "options": {"description": "no extensions"},
            }},
            "components": {"schemas": {"A": {
                "description": "dropped",
                "properties": {"description": {"description": "dropped", "type": "string"}},
                "items": {"allOf": [{"description": "dropped", "default": {"description": "kept"}}]},
            }}},
        });
        reduce(&mut document);
        assert_eq!(
            document,
            json!({
                "openapi": "3.0.0",
                "paths": {"/api/v1/pods": {"get": {"x-kubernetes-action": "list"}}},
                "components": {"schemas": {"A": {
                    "properties": {"description": {"type": "string"}},
                    "items": {"allOf": [{"default": {"description": "kept"}}]},
                }}},
            })
        );
        let json = to_json(&document);
        assert_eq!(check_reduced(&json).unwrap(), document);
        assert_eq!(decompress(&compress(&json), json.len()).unwrap(), json);
        assert!(decompress(&compress(&json), json.len() - 1).is_err());
        let pretty = serde_json::to_vec_pretty(&document).unwrap();
        assert!(check_reduced(&pretty).is_err());
        let unreduced = to_json(&json!({"components": {"schemas": {"A": {"description": "x"}}}}));
        assert!(check_reduced(&unreduced).is_err());
        assert!(check_reduced(b"[1]").is_err());
    }
}
