//! Structural schemas (apiextensions-apiserver `pkg/apiserver/schema`): the conversion of a
//! `JSONSchemaProps` into a structural schema (`NewStructural`, whose first error is
//! reported) and its invariants (`ValidateStructural`: every node has a type, value
//! validations under logical junctors carry no structure, `metadata` restricted at the
//! root, embedded resources and int-or-string in their allowed shapes, valid `pattern`s,
//! and the completeness of the root's junctors), its errors sorted by text as upstream
//! sorts them.
//!
//! The structural view is read straight from the decoded `Props`: `properties`, `items`
//! (the single schema) and `additionalProperties` are the structure; everything under
//! `allOf`/`anyOf`/`oneOf`/`not` is a nested value validation.

use kdv_runtime::{BadValue, ErrorList, FieldPath};

use super::model::Props;
use super::path::{forbidden, invalid, required};

/// `NewStructural`'s error for a schema, if any (the first in its traversal order).
pub(crate) fn new_structural_error(s: &Props<'_>) -> Option<String> {
    unsupported(s)
        .or_else(|| value_validation_error(s))
        .or_else(|| extensions_error(s))
        .or_else(|| items_error(s))
        .or_else(|| {
            s.properties
                .iter()
                .find_map(|(_, p)| new_structural_error(p))
        })
        .or_else(|| {
            s.additional_properties
                .as_ref()
                .and_then(|a| a.schema.as_deref())
                .and_then(new_structural_error)
        })
}

fn items_error(s: &Props<'_>) -> Option<String> {
    let items = s.items.as_ref()?;
    if !items.schemas.is_empty() {
        return Some("OpenAPIV3Schema 'items' must be a schema, but is an array".to_owned());
    }
    items.schema.as_deref().and_then(new_structural_error)
}

/// `newNestedValueValidation`'s error.
fn nested_error(s: &Props<'_>) -> Option<String> {
    unsupported(s)
        .or_else(|| value_validation_error(s))
        .or_else(|| extensions_error(s))
        .or_else(|| {
            let items = s.items.as_ref()?;
            if !items.schemas.is_empty() {
                return Some(
                    "OpenAPIV3Schema 'items' must be a schema, but is an array".to_owned(),
                );
            }
            items.schema.as_deref().and_then(nested_error)
        })
        .or_else(|| s.properties.iter().find_map(|(_, p)| nested_error(p)))
        .or_else(|| {
            s.additional_properties
                .as_ref()
                .and_then(|a| a.schema.as_deref())
                .and_then(nested_error)
        })
}

/// `newValueValidation`: `not`, then the `allOf`, `anyOf`, `oneOf` clauses.
fn value_validation_error(s: &Props<'_>) -> Option<String> {
    s.not
        .as_deref()
        .and_then(nested_error)
        .or_else(|| s.all_of.iter().find_map(nested_error))
        .or_else(|| s.any_of.iter().find_map(nested_error))
        .or_else(|| s.one_of.iter().find_map(nested_error))
}

fn extensions_error(s: &Props<'_>) -> Option<String> {
    (s.x_preserve_unknown_fields == Some(false)).then(|| {
        "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"
            .to_owned()
    })
}

/// `validateUnsupportedFields`.
fn unsupported(s: &Props<'_>) -> Option<String> {
    let name = if !s.id.is_empty() {
        "id"
    } else if !s.schema.is_empty() {
        "schema"
    } else if s.ref_.as_deref().is_some_and(|r| !r.is_empty()) {
        "$ref"
    } else if !s.pattern_properties.is_empty() {
        "patternProperties"
    } else if !s.dependencies.is_empty() {
        "dependencies"
    } else if s.additional_items.is_some() {
        "additionalItems"
    } else if !s.definitions.is_empty() {
        "definitions"
    } else {
        return None;
    };
    Some(format!("OpenAPIV3Schema '{name}' is not supported"))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Root,
    Item,
    Field,
}

/// `ValidateStructural` with the CRD options (no nested `additionalProperties` or
/// `x-kubernetes-validations`), errors sorted by their text. `minor`: from 1.36 the
/// generic fields include `example` and `externalDocs`.
pub(crate) fn validate_structural(s: &Props<'_>, path: &FieldPath, minor: u32) -> ErrorList {
    let mut out = ErrorList::new();
    invariants(s, Level::Root, path, minor, &mut out);
    completeness(s, path, &mut out);
    out.sort_by_cached_key(|e| e.to_string());
    out
}

/// The structural `items`: the single schema (an array of schemas fails conversion).
fn items_of<'p, 'a>(s: &'p Props<'a>) -> Option<&'p Props<'a>> {
    s.items_schema()
}

fn invariants(s: &Props<'_>, lvl: Level, path: &FieldPath, minor: u32, out: &mut ErrorList) {
    let items = items_of(s);
    if s.type_ == "array" && items.is_none() {
        out.push(required(&path.child("items"), "must be specified"));
    }
    if let Some(items) = items {
        invariants(items, Level::Item, &path.child("items"), minor, out);
    }
    for (k, p) in &s.properties {
        invariants(
            p,
            Level::Field,
            &path.child("properties").key(k),
            minor,
            out,
        );
    }
    if let Some(ap) = &s.additional_properties {
        if lvl == Level::Root {
            out.push(forbidden(
                &path.child("additionalProperties"),
                "must not be used at the root",
            ));
        }
        if let Some(schema) = &ap.schema {
            invariants(
                schema,
                Level::Field,
                &path.child("additionalProperties"),
                minor,
                out,
            );
        }
    }
    let preserve = s.x_preserve_unknown_fields == Some(true);
    if s.x_int_or_string && preserve {
        out.push(invalid(
            &path.child("x-kubernetes-preserve-unknown-fields"),
            BadValue::Bool(true),
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    if s.x_int_or_string && s.x_embedded_resource {
        out.push(invalid(
            &path.child("x-kubernetes-embedded-resource"),
            BadValue::Bool(true),
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    value_validation(
        s,
        is_int_or_string_any_of(s, minor),
        is_int_or_string_all_of(s, minor),
        path,
        minor,
        out,
    );
    let check_metadata = lvl == Level::Root || s.x_embedded_resource;
    if s.x_embedded_resource && s.type_ != "object" {
        if s.type_.is_empty() {
            out.push(required(
                &path.child("type"),
                "must be object if x-kubernetes-embedded-resource is true",
            ));
        } else {
            out.push(invalid(
                &path.child("type"),
                BadValue::string(&s.type_),
                "must be object if x-kubernetes-embedded-resource is true",
            ));
        }
    } else if s.type_.is_empty() && !s.x_int_or_string && !preserve {
        let detail = match lvl {
            Level::Root => "must not be empty at the root",
            Level::Item => "must not be empty for specified array items",
            Level::Field => "must not be empty for specified object fields",
        };
        out.push(required(&path.child("type"), detail));
    }
    if s.x_embedded_resource && s.additional_properties.is_some() {
        out.push(forbidden(
            &path.child("additionalProperties"),
            "must not be used if x-kubernetes-embedded-resource is set",
        ));
    }
    if lvl == Level::Root && !s.type_.is_empty() && s.type_ != "object" {
        out.push(invalid(
            &path.child("type"),
            BadValue::string(&s.type_),
            "must be object at the root",
        ));
    }
    for meta in ["kind", "apiVersion"] {
        if let Some(p) = s.property(meta)
            && check_metadata
            && p.type_ != "string"
        {
            out.push(invalid(
                &path.child("properties").key(meta).child("type"),
                BadValue::string(&p.type_),
                "must be string",
            ));
        }
    }
    if let Some(metadata) = s.property("metadata") {
        let p = path.child("properties").key("metadata");
        if check_metadata && metadata.type_ != "object" {
            out.push(invalid(
                &p.child("type"),
                BadValue::string(&metadata.type_),
                "must be object",
            ));
        }
        if lvl == Level::Root && !metadata_only_names(metadata, minor) {
            out.push(forbidden(
                &p,
                "must not specify anything other than name and generateName, but metadata is implicitly specified",
            ));
        }
    }
    if s.x_embedded_resource && !preserve && s.properties.is_empty() {
        out.push(required(
            &path.child("properties"),
            "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
        ));
    }
}

/// Whether a root `metadata` schema, once its type and default are ignored, specifies at
/// most the `name` and `generateName` properties (their schemas are not looked at).
fn metadata_only_names(m: &Props<'_>, minor: u32) -> bool {
    let names_only = match m.properties.len() {
        0 => true,
        1 => m.property("name").is_some() || m.property("generateName").is_some(),
        2 => m.property("name").is_some() && m.property("generateName").is_some(),
        _ => false,
    };
    let mut rest = m.clone();
    rest.properties.clear();
    rest.type_.clear();
    rest.default = None;
    if minor < 36 {
        // Before 1.36 the structural schema has no example or externalDocs.
        rest.example = None;
        rest.external_docs = None;
    }
    names_only && is_empty_structural(&rest)
}

/// Whether a schema's structural form is zero (every field NewStructural keeps unset).
fn is_empty_structural(s: &Props<'_>) -> bool {
    s.description.is_empty()
        && s.type_.is_empty()
        && s.title.is_empty()
        && s.default.is_none()
        && !s.nullable
        && s.external_docs.is_none()
        && s.example.is_none()
        && s.x_preserve_unknown_fields != Some(true)
        && !s.x_embedded_resource
        && !s.x_int_or_string
        && s.x_list_map_keys.is_empty()
        && s.x_list_type.is_none()
        && s.x_map_type.is_none()
        && s.x_validations.is_empty()
        && s.items_schema().is_none()
        && s.properties.is_empty()
        && s.additional_properties.is_none()
        && no_value_validation(s)
}

fn no_value_validation(s: &Props<'_>) -> bool {
    s.format.is_empty()
        && s.maximum.is_none()
        && !s.exclusive_maximum
        && s.minimum.is_none()
        && !s.exclusive_minimum
        && s.max_length.is_none()
        && s.min_length.is_none()
        && s.pattern.is_empty()
        && s.max_items.is_none()
        && s.min_items.is_none()
        && !s.unique_items
        && s.multiple_of.is_none()
        && s.enumeration.is_empty()
        && s.max_properties.is_none()
        && s.min_properties.is_none()
        && s.required.is_empty()
        && s.all_of.is_empty()
        && s.one_of.is_empty()
        && s.any_of.is_empty()
        && s.not.is_none()
}

/// Whether a nested value validation is exactly `{type: <t>}`.
fn only_type(s: &Props<'_>, t: &str, minor: u32) -> bool {
    let mut rest = s.clone();
    if rest.type_ != t {
        return false;
    }
    rest.type_.clear();
    if minor < 36 {
        rest.example = None;
        rest.external_docs = None;
    }
    is_empty_structural(&rest)
}

/// `anyOf: [{type: integer}, {type: string}]` exactly.
fn int_or_string_pair(any_of: &[Props<'_>], minor: u32) -> bool {
    any_of.len() == 2
        && only_type(&any_of[0], "integer", minor)
        && only_type(&any_of[1], "string", minor)
}

fn is_int_or_string_any_of(s: &Props<'_>, minor: u32) -> bool {
    int_or_string_pair(&s.any_of, minor)
}

fn is_int_or_string_all_of(s: &Props<'_>, minor: u32) -> bool {
    s.all_of
        .first()
        .is_some_and(|first| int_or_string_pair(&first.any_of, minor))
}

/// `validateValueValidation` of a node's (or a nested clause's) value validations.
fn value_validation(
    s: &Props<'_>,
    skip_any_of: bool,
    skip_first_all_of_any_of: bool,
    path: &FieldPath,
    minor: u32,
    out: &mut ErrorList,
) {
    if !skip_any_of {
        for (i, x) in s.any_of.iter().enumerate() {
            nested(x, false, false, &path.child("anyOf").index(i), minor, out);
        }
    }
    for (i, x) in s.all_of.iter().enumerate() {
        let skip = skip_first_all_of_any_of && i == 0;
        nested(x, skip, false, &path.child("allOf").index(i), minor, out);
    }
    for (i, x) in s.one_of.iter().enumerate() {
        nested(x, false, false, &path.child("oneOf").index(i), minor, out);
    }
    if let Some(not) = &s.not {
        nested(not, false, false, &path.child("not"), minor, out);
    }
    if !s.pattern.is_empty()
        && let Err(e) = super::regex_compile(&s.pattern)
    {
        out.push(invalid(
            &path.child("pattern"),
            BadValue::string(&s.pattern),
            format!("must be a valid regular expression, but isn't: {e}"),
        ));
    }
}

/// `validateNestedValueValidation`.
fn nested(
    s: &Props<'_>,
    skip_any_of: bool,
    skip_all_of_any_of: bool,
    path: &FieldPath,
    minor: u32,
    out: &mut ErrorList,
) {
    value_validation(s, skip_any_of, skip_all_of_any_of, path, minor, out);
    if let Some(items) = items_of(s) {
        nested(items, false, false, &path.child("items"), minor, out);
    }
    for (k, p) in &s.properties {
        nested(
            p,
            false,
            false,
            &path.child("properties").key(k),
            minor,
            out,
        );
    }
    if !s.type_.is_empty() {
        out.push(forbidden(
            &path.child("type"),
            "must be empty to be structural",
        ));
    }
    // `additionalProperties: false` is no nested value validation at all.
    if s.additional_properties
        .as_ref()
        .is_some_and(|a| a.allows || a.schema.is_some())
    {
        out.push(forbidden(
            &path.child("additionalProperties"),
            "must be undefined to be structural",
        ));
    }
    if s.default.is_some() {
        out.push(forbidden(
            &path.child("default"),
            "must be undefined to be structural",
        ));
    }
    if !s.title.is_empty() {
        out.push(forbidden(
            &path.child("title"),
            "must be empty to be structural",
        ));
    }
    if !s.description.is_empty() {
        out.push(forbidden(
            &path.child("description"),
            "must be empty to be structural",
        ));
    }
    if s.nullable {
        out.push(forbidden(
            &path.child("nullable"),
            "must be false to be structural",
        ));
    }
    if s.x_preserve_unknown_fields == Some(true) {
        out.push(forbidden(
            &path.child("x-kubernetes-preserve-unknown-fields"),
            "must be false to be structural",
        ));
    }
    if s.x_embedded_resource {
        out.push(forbidden(
            &path.child("x-kubernetes-embedded-resource"),
            "must be false to be structural",
        ));
    }
    if s.x_int_or_string {
        out.push(forbidden(
            &path.child("x-kubernetes-int-or-string"),
            "must be false to be structural",
        ));
    }
    if !s.x_list_map_keys.is_empty() {
        out.push(forbidden(
            &path.child("x-kubernetes-list-map-keys"),
            "must be empty to be structural",
        ));
    }
    if s.x_list_type.is_some() {
        out.push(forbidden(
            &path.child("x-kubernetes-list-type"),
            "must be undefined to be structural",
        ));
    }
    if s.x_map_type.is_some() {
        out.push(forbidden(
            &path.child("x-kubernetes-map-type"),
            "must be undefined to be structural",
        ));
    }
    if !s.x_validations.is_empty() {
        out.push(forbidden(
            &path.child("x-kubernetes-validations"),
            "must be empty to be structural",
        ));
    }
    if s.property("metadata").is_some() {
        out.push(forbidden(
            &path.child("properties").key("metadata"),
            "must not be specified in a nested context",
        ));
    }
}

/// `validateStructuralCompleteness`: the root's junctors only reason about properties and
/// items the structure declares.
fn completeness(s: &Props<'_>, path: &FieldPath, out: &mut ErrorList) {
    value_completeness(s, Some(s), path, path, out);
}

fn value_completeness(
    v: &Props<'_>,
    s: Option<&Props<'_>>,
    s_path: &FieldPath,
    v_path: &FieldPath,
    out: &mut ErrorList,
) {
    let Some(s) = s else {
        out.push(required(
            s_path,
            format!("because it is defined in {v_path}"),
        ));
        return;
    };
    if let Some(not) = &v.not {
        nested_completeness(not, Some(s), s_path, &v_path.child("not"), out);
    }
    for (name, list) in [
        ("allOf", &v.all_of),
        ("anyOf", &v.any_of),
        ("oneOf", &v.one_of),
    ] {
        for (i, x) in list.iter().enumerate() {
            nested_completeness(x, Some(s), s_path, &v_path.child(name).index(i), out);
        }
    }
}

fn nested_completeness(
    v: &Props<'_>,
    s: Option<&Props<'_>>,
    s_path: &FieldPath,
    v_path: &FieldPath,
    out: &mut ErrorList,
) {
    let Some(s) = s else {
        out.push(required(
            s_path,
            format!("because it is defined in {v_path}"),
        ));
        return;
    };
    value_completeness(v, Some(s), s_path, v_path, out);
    if let Some(items) = items_of(v) {
        nested_completeness(
            items,
            items_of(s),
            &s_path.child("items"),
            &v_path.child("items"),
            out,
        );
    }
    for (k, p) in &v.properties {
        match s.property(k) {
            Some(sp) => nested_completeness(
                p,
                Some(sp),
                &s_path.child("properties").key(k),
                &v_path.child("properties").key(k),
                out,
            ),
            None => out.push(required(
                &s_path.child("properties").key(k),
                format!(
                    "because it is defined in {}",
                    v_path.child("properties").key(k)
                ),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn with_schema(schema: Value, check: impl FnOnce(&Props<'_>)) {
        let crd =
            json!({"spec": {"versions": [{"name": "v", "schema": {"openAPIV3Schema": schema}}]}});
        let d = super::super::decode::decode(&crd).expect("decodes");
        let validation = d.crd.spec.validation.expect("hoisted");
        check(validation.open_api_v3_schema.as_deref().expect("schema"));
    }

    fn completeness_of(schema: Value) -> Vec<String> {
        let mut texts = Vec::new();
        with_schema(schema, |s| {
            let mut out = ErrorList::new();
            completeness(s, &FieldPath::root(), &mut out);
            texts = out.iter().map(ToString::to_string).collect();
        });
        texts
    }

    /// `TestValidateStructuralCompleteness`, the cases with the CRD options.
    #[test]
    fn upstream_completeness_cases() {
        assert_eq!(
            completeness_of(json!({
                "additionalProperties": {"type": "object", "properties": {"bar": {"type": "string"}}},
                "allOf": [{"properties": {"foo": {"minLength": 2}}}]})),
            ["properties[foo]: Required value: because it is defined in allOf[0].properties[foo]"]
        );
        assert!(
            completeness_of(json!({
                "properties": {"foo": {"type": "string"}},
                "allOf": [{"properties": {"foo": {"minLength": 2}}}]}))
            .is_empty()
        );
        assert_eq!(
            completeness_of(json!({
                "properties": {"foo": {"type": "string"}},
                "allOf": [{"properties": {"notfoo": {"minLength": 2}}}]})),
            [
                "properties[notfoo]: Required value: because it is defined in allOf[0].properties[notfoo]"
            ]
        );
        assert!(
            completeness_of(json!({
                "items": {"type": "string"},
                "allOf": [{"items": {"minLength": 2}}]}))
            .is_empty()
        );
        assert_eq!(
            completeness_of(json!({"allOf": [{"items": {"minLength": 2}}]})),
            ["items: Required value: because it is defined in allOf[0].items"]
        );
    }

    /// `TestValidateStructuralMetadataInvariants`: a root `metadata` must be an object and
    /// may only constrain `name` and `generateName`.
    #[test]
    fn upstream_metadata_invariants() {
        let errors = |metadata: Value| {
            let mut texts = Vec::new();
            with_schema(
                json!({"type": "object", "properties": {"metadata": metadata}}),
                |s| {
                    texts = validate_structural(s, &FieldPath::root(), 35)
                        .iter()
                        .map(ToString::to_string)
                        .collect();
                },
            );
            texts
        };
        for t in ["array", "number", "integer", "boolean", "string"] {
            assert!(
                errors(json!({"type": t})).contains(&format!(
                    "properties[metadata].type: Invalid value: \"{t}\": must be object"
                )),
                "{t}"
            );
        }
        assert!(errors(json!({"type": "object"})).is_empty());
        let forbidden = "properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified";
        for (name, ok) in [
            ("name", true),
            ("generateName", true),
            ("namespace", false),
            ("labels", false),
        ] {
            let e = errors(json!({"type": "object", "properties": {name: {"type": "string"}}}));
            assert_eq!(e.is_empty(), ok, "{name}: {e:?}");
            if !ok {
                assert_eq!(e, [forbidden]);
            }
        }
        for extra in [
            json!({"description": "d"}),
            json!({"nullable": true}),
            json!({"x-kubernetes-preserve-unknown-fields": true}),
            json!({"maxProperties": 3}),
            json!({"additionalProperties": {"type": "string"}}),
        ] {
            let mut m = json!({"type": "object", "properties": {"name": {"type": "string"}, "generateName": {"type": "string"}}});
            for (k, v) in extra.as_object().expect("object") {
                m[k] = v.clone();
            }
            assert!(errors(m).contains(&forbidden.to_owned()), "{extra}");
        }
        // `example` is part of the structural schema from 1.36 only.
        with_schema(
            json!({"type": "object", "properties": {"metadata": {"type": "object", "example": {}}}}),
            |s| {
                assert!(validate_structural(s, &FieldPath::root(), 35).is_empty());
                assert_eq!(validate_structural(s, &FieldPath::root(), 36).len(), 1);
            },
        );
    }
}
