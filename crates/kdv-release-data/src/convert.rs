//! A release's swagger v2 (`api/openapi-spec/swagger.json`) to the reduced OpenAPI v3
//! documents of its group-versions, as the API server derives `/openapi/v3/<path>` from the
//! same definitions:
//! - one document per group-version path prefix (`/api/v1/...` → `api/v1`,
//!   `/apis/<group>/<version>/...` → `apis/<group>/<version>`), holding those paths and
//!   every definition they reach (through responses, parameters and shared `#/parameters`);
//! - each definition with the defaults openapi-gen wrote and v2 pruned (`defaults`), the
//!   `oneOf` of types declaring `OpenAPIV3OneOfTypes` in place of their v2 `type`, `$ref`s
//!   into `#/components/schemas/`, and a `$ref` with siblings wrapped as `allOf: [{$ref}]`
//!   (kube-openapi's `WrapRefs`);
//! - `openapi: 3.0.0`, v2's `info`, and `securityDefinitions` as `components.securitySchemes`.
//!
//! The result is reduced (`kdv_k8s_openapi::reduce`): full v3 operations are not built, since
//! the stored form keeps only their `x-kubernetes-*` extensions.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use crate::defaults::{self, StructSource};
use crate::gotypes::{GoKind, GoTypes};

const V2_DEFINITIONS: &str = "#/definitions/";
const V2_PARAMETERS: &str = "#/parameters/";
const V3_SCHEMAS: &str = "#/components/schemas/";

/// The converted documents of a release.
#[derive(Debug, Default)]
pub struct Conversion {
    /// Document path (`api/v1`, `apis/apps/v1`) → reduced v3 document.
    pub documents: BTreeMap<String, Value>,
    /// Definitions that map to no Go type, with the reason (their defaults are unknown).
    pub unmapped: Vec<String>,
    /// How many defaults were added, by where: `property`, `items`, `additionalProperties`.
    pub defaults_added: BTreeMap<&'static str, usize>,
}

/// Converts a swagger v2 document (see the module documentation).
pub fn convert(swagger: &Value, go: &GoTypes) -> Result<Conversion, String> {
    let definitions = swagger
        .get("definitions")
        .and_then(Value::as_object)
        .ok_or("the swagger document has no definitions")?;
    let paths = swagger
        .get("paths")
        .and_then(Value::as_object)
        .ok_or("the swagger document has no paths")?;
    let parameters = swagger.get("parameters").and_then(Value::as_object);
    let mut conversion = Conversion::default();

    let mut schemas = BTreeMap::new();
    for (name, schema) in definitions {
        let v2_defaults = count_defaults(schema);
        let converted = convert_definition(name, schema, go, &mut conversion.unmapped)?;
        let mut added = count_defaults(&converted);
        for (k, v) in &v2_defaults {
            if let Some(n) = added.get_mut(k) {
                *n = n.saturating_sub(*v);
            }
        }
        for (k, v) in added {
            *conversion.defaults_added.entry(k).or_default() += v;
        }
        schemas.insert(name.clone(), converted);
    }

    let mut groups: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
    for (path, item) in paths {
        if let Some(document) = document_of(path) {
            groups
                .entry(document)
                .or_default()
                .insert(path.clone(), item.clone());
        }
    }
    let security = swagger
        .get("securityDefinitions")
        .cloned()
        .unwrap_or_else(|| json!({}));
    for (document, group_paths) in groups {
        let mut reached = BTreeSet::new();
        let mut pending = Vec::new();
        refs(&Value::Object(group_paths.clone()), &mut pending);
        let mut seen_parameters = BTreeSet::new();
        while let Some(reference) = pending.pop() {
            if let Some(name) = reference.strip_prefix(V2_PARAMETERS) {
                if seen_parameters.insert(name.to_string())
                    && let Some(p) = parameters.and_then(|p| p.get(name))
                {
                    refs(p, &mut pending);
                }
            } else if let Some(name) = reference.strip_prefix(V2_DEFINITIONS) {
                if reached.insert(name.to_string()) {
                    let definition = definitions
                        .get(name)
                        .ok_or_else(|| format!("{document}: $ref to missing {reference}"))?;
                    refs(definition, &mut pending);
                }
            } else {
                return Err(format!("{document}: unsupported $ref {reference}"));
            }
        }
        let components: Map<String, Value> = reached
            .iter()
            .filter_map(|name| Some((name.clone(), schemas.get(name)?.clone())))
            .collect();
        let mut v3 = json!({
            "openapi": "3.0.0",
            "info": swagger.get("info").cloned().unwrap_or_else(|| json!({})),
            "paths": Value::Object(group_paths),
            "components": {
                "schemas": Value::Object(components),
                "securitySchemes": security.clone(),
            },
        });
        kdv_k8s_openapi::reduce::reduce(&mut v3);
        conversion.documents.insert(document, v3);
    }
    Ok(conversion)
}

/// The group-version document a path belongs to.
pub fn document_of(path: &str) -> Option<String> {
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    match parts[..] {
        ["api", version, ..] if !version.is_empty() => Some(format!("api/{version}")),
        ["apis", group, version, ..] if !group.is_empty() && !version.is_empty() => {
            Some(format!("apis/{group}/{version}"))
        }
        _ => None,
    }
}

/// Every `$ref` string below `value`.
fn refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                match (k.as_str(), v) {
                    ("$ref", Value::String(r)) => out.push(r.clone()),
                    _ => refs(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

/// The Go package and type a definition name stands for: `io.k8s.api.apps.v1.Deployment`
/// → (`k8s.io/api/apps/v1`, `Deployment`). Definition names are the package path with its
/// first element's domain reversed and `/` written `.`.
pub fn go_name(definition: &str) -> Option<(String, String)> {
    let (package, name) = definition.rsplit_once('.')?;
    let mut parts = package.split('.');
    let tld = parts.next()?;
    let domain = parts.next()?;
    let rest: Vec<&str> = parts.collect();
    if rest.is_empty() {
        return None;
    }
    Some((
        format!("{domain}.{tld}/{}", rest.join("/")),
        name.to_string(),
    ))
}

/// One definition converted (see the module documentation).
fn convert_definition(
    name: &str,
    schema: &Value,
    go: &GoTypes,
    unmapped: &mut Vec<String>,
) -> Result<Value, String> {
    let mut schema = schema.clone();
    rewrite_refs(&mut schema);
    let Some((package_path, type_name)) = go_name(name) else {
        unmapped.push(format!("{name}: not a Go type name"));
        return Ok(wrapped(schema));
    };
    let Some(package) = go.package(&package_path)? else {
        unmapped.push(format!(
            "{name}: package {package_path} is in none of the Go modules given"
        ));
        return Ok(wrapped(schema));
    };
    let Some(decl) = package.package.type_decl(&type_name) else {
        unmapped.push(format!("{name}: no type {type_name} in {package_path}"));
        return Ok(wrapped(schema));
    };
    let Value::Object(map) = &mut schema else {
        return Err(format!("{name}: not a schema object"));
    };
    let custom_v2 = package.method(&type_name, "OpenAPIDefinition").is_some()
        || (package.method(&type_name, "OpenAPISchemaType").is_some()
            && package.method(&type_name, "OpenAPISchemaFormat").is_some());
    if package.method(&type_name, "OpenAPIV3Definition").is_some() {
        return Err(format!(
            "{name}: declares OpenAPIV3Definition, whose v3 schema the v2 document lacks"
        ));
    }
    if let Some(one_of) = package.method(&type_name, "OpenAPIV3OneOfTypes") {
        map.remove("type");
        let types: Vec<Value> = one_of
            .body_strings
            .iter()
            .map(|t| json!({ "type": t }))
            .collect();
        map.insert("oneOf".into(), Value::Array(types));
    }
    if !custom_v2 {
        let ty = kdv_model::TypeRef::Named(kdv_model::NamedRef {
            package: package_path.clone(),
            name: type_name.clone(),
            type_args: Vec::new(),
        });
        match go.kind(&ty).map_err(|e| format!("{name}: {e}"))? {
            GoKind::Struct(_, fields) => {
                let source = StructSource {
                    package: package.clone(),
                    fields,
                };
                let missing = defaults::add_struct_defaults(go, &source, map)
                    .map_err(|e| format!("{name}: {e}"))?;
                for property in missing {
                    unmapped.push(format!(
                        "{name}: property {property} is no member of {package_path}.{}",
                        decl.name
                    ));
                }
            }
            _ if map.contains_key("properties") => {
                unmapped.push(format!("{name}: has properties but is no Go struct"));
            }
            _ => {}
        }
    }
    Ok(wrapped(schema))
}

/// `#/definitions/X` → `#/components/schemas/X` everywhere below.
fn rewrite_refs(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                match v {
                    Value::String(r) if k == "$ref" => {
                        if let Some(name) = r.strip_prefix(V2_DEFINITIONS) {
                            *r = format!("{V3_SCHEMAS}{name}");
                        }
                    }
                    _ => rewrite_refs(v),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(rewrite_refs),
        _ => {}
    }
}

/// kube-openapi's `WrapRefs`: a schema with a `$ref` and anything beside it holds the
/// reference as `allOf: [{$ref}]`; applied to every schema below.
fn wrapped(mut schema: Value) -> Value {
    wrap_refs(&mut schema);
    schema
}

fn wrap_refs(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    for (keyword, value) in map.iter_mut() {
        match keyword.as_str() {
            "properties" | "patternProperties" | "definitions" => {
                if let Value::Object(named) = value {
                    named.values_mut().for_each(wrap_refs);
                }
            }
            "items"
            | "additionalProperties"
            | "additionalItems"
            | "not"
            | "allOf"
            | "anyOf"
            | "oneOf" => match value {
                Value::Array(subs) => subs.iter_mut().for_each(wrap_refs),
                sub => wrap_refs(sub),
            },
            _ => {}
        }
    }
    if map.len() > 1
        && let Some(reference) = map.remove("$ref")
    {
        map.insert("allOf".into(), json!([{ "$ref": reference }]));
    }
}

/// How many `default`s a schema holds, by where (a property, items, map values).
fn count_defaults(schema: &Value) -> BTreeMap<&'static str, usize> {
    fn walk(schema: &Value, place: &'static str, out: &mut BTreeMap<&'static str, usize>) {
        let Value::Object(map) = schema else { return };
        if map.contains_key("default") {
            *out.entry(place).or_default() += 1;
        }
        if let Some(Value::Object(properties)) = map.get("properties") {
            properties.values().for_each(|p| walk(p, "property", out));
        }
        if let Some(items) = map.get("items") {
            walk(items, "items", out);
        }
        if let Some(values) = map.get("additionalProperties") {
            walk(values, "additionalProperties", out);
        }
    }
    let mut out = BTreeMap::new();
    walk(schema, "definition", &mut out);
    out
}

#[cfg(test)]
mod tests {
    use kdv_test_support::Scratch;

    use super::*;

    #[test]
    fn definition_names_to_go() {
        assert_eq!(
            go_name("io.k8s.api.apps.v1.Deployment"),
            Some(("k8s.io/api/apps/v1".into(), "Deployment".into()))
        );
        assert_eq!(
            go_name("io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON"),
            Some((
                "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1".into(),
                "JSON".into()
            ))
        );
        assert_eq!(go_name("Foo"), None);
    }

    #[test]
    fn paths_to_documents() {
        assert_eq!(document_of("/api/v1/pods"), Some("api/v1".into()));
        assert_eq!(
            document_of("/apis/apps/v1/namespaces/{namespace}/deployments"),
            Some("apis/apps/v1".into())
        );
        assert_eq!(document_of("/apis/apps/v1/"), Some("apis/apps/v1".into()));
        assert_eq!(document_of("/apis/apps/"), None);
        assert_eq!(document_of("/api/"), None);
        assert_eq!(document_of("/version/"), None);
    }

    #[test]
    fn refs_with_siblings_are_wrapped() {
        let mut schema = json!({
            "properties": {
                "a": {"$ref": "#/components/schemas/A", "default": {}},
                "b": {"$ref": "#/components/schemas/B"},
                "c": {"items": {"$ref": "#/components/schemas/C", "description": "x"}, "type": "array"},
            }
        });
        wrap_refs(&mut schema);
        assert_eq!(
            schema,
            json!({
                "properties": {
                    "a": {"allOf": [{"$ref": "#/components/schemas/A"}], "default": {}},
                    "b": {"$ref": "#/components/schemas/B"},
                    "c": {"items": {"allOf": [{"$ref": "#/components/schemas/C"}], "description": "x"}, "type": "array"},
                }
            })
        );
    }

    const WIDGET_GO: &str = r#"package v1

type Widget struct {
	TypeMeta `json:",inline"`
	// +default="x"
	Name   string            `json:"name"`
	Count  int32             `json:"count"`
	Opt    string            `json:"opt,omitempty"`
	Ptr    *int32            `json:"ptr,omitempty"`
	Spec   Spec              `json:"spec"`
	Time   Time              `json:"time"`
	Items  []Spec            `json:"items"`
	Ptrs   []*Spec           `json:"ptrs"`
	Labels map[string]string `json:"labels"`
	Extra  map[string]Values `json:"extra"`
	Mode   Mode              `json:"mode"`
	Quoted int64             `json:"quoted,string"`
	Port   IntOrString       `json:"port"`
	// +k8s:openapi-gen=false
	Hidden string `json:"hidden"`
}

type TypeMeta struct {
	Kind string `json:"kind,omitempty"`
}

type Spec struct {
	A string `json:"a"`
}

type Time struct {
	inner string
}

func (t *Time) UnmarshalJSON(b []byte) error { return nil }

type Values []string

// +default=ref(ModeFast)
type Mode string

const ModeFast Mode = "Fast"

type IntOrString struct {
	IntVal int32
}

func (IntOrString) OpenAPISchemaType() []string { return []string{"string"} }
func (IntOrString) OpenAPISchemaFormat() string  { return "int-or-string" }
func (IntOrString) OpenAPIV3OneOfTypes() []string { return []string{"integer", "string"} }
func (i *IntOrString) UnmarshalJSON(b []byte) error { return nil }
"#;

    #[test]
    fn converts_a_small_release() {
        let scratch = Scratch::new("release-data-go");
        scratch.write("go.mod", "module example.com/api\n\ngo 1.22\n");
        scratch.write("v1/types.go", WIDGET_GO);
        let root = scratch.path().to_path_buf();
        let go = GoTypes::new(std::slice::from_ref(&root)).unwrap();

        let d = |name: &str| format!("#/definitions/com.example.api.v1.{name}");
        let swagger = json!({
            "swagger": "2.0",
            "info": {"title": "Kubernetes", "version": "unversioned"},
            "securityDefinitions": {"BearerToken": {"in": "header", "name": "authorization", "type": "apiKey"}},
            "paths": {
                "/apis/example.com/v1/widgets": {
                    "parameters": [{"$ref": "#/parameters/pretty"}],
                    "get": {
                        "description": "list",
                        "responses": {"200": {"schema": {"$ref": d("Widget")}}},
                        "x-kubernetes-action": "list",
                    },
                },
                "/apis/example.com/": {"get": {"responses": {"200": {"schema": {"$ref": d("Unused")}}}}},
            },
            "parameters": {"pretty": {"in": "query", "name": "pretty", "type": "string"}},
            "definitions": {
                "com.example.api.v1.Widget": {
                    "description": "A widget.",
                    "type": "object",
                    "properties": {
                        "kind": {"type": "string"},
                        "name": {"type": "string"},
                        "count": {"type": "integer", "format": "int32"},
                        "opt": {"type": "string"},
                        "ptr": {"type": "integer", "format": "int32"},
                        "spec": {"$ref": d("Spec"), "description": "The spec."},
                        "time": {"$ref": d("Time")},
                        "items": {"type": "array", "items": {"$ref": d("Spec")}},
                        "ptrs": {"type": "array", "items": {"$ref": d("Spec")}},
                        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                        "extra": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
                        "mode": {"type": "string"},
                        "quoted": {"type": "string"},
                        "port": {"$ref": d("IntOrString")},
                        "ghost": {"type": "string"},
                    },
                },
                "com.example.api.v1.Spec": {"type": "object", "properties": {"a": {"type": "string"}}},
                "com.example.api.v1.Time": {"type": "string", "format": "date-time"},
                "com.example.api.v1.IntOrString": {"type": "string", "format": "int-or-string", "description": "x"},
                "com.example.api.v1.Unused": {"type": "object"},
            },
        });
        let conversion = convert(&swagger, &go).unwrap();
        assert_eq!(
            conversion.unmapped,
            ["com.example.api.v1.Unused: no type Unused in example.com/api/v1".to_string(),
             "com.example.api.v1.Widget: property ghost is no member of example.com/api/v1.Widget".to_string()]
        );
        assert_eq!(
            conversion.documents.keys().collect::<Vec<_>>(),
            ["apis/example.com/v1"]
        );
        let s = |name: &str| format!("#/components/schemas/com.example.api.v1.{name}");
        assert_eq!(
            conversion.documents["apis/example.com/v1"],
            json!({
                "openapi": "3.0.0",
                "info": {"title": "Kubernetes", "version": "unversioned"},
                "paths": {"/apis/example.com/v1/widgets": {"get": {"x-kubernetes-action": "list"}}},
                "components": {
                    "securitySchemes": {"BearerToken": {"in": "header", "name": "authorization", "type": "apiKey"}},
                    "schemas": {
                        "com.example.api.v1.Widget": {
                            "type": "object",
                            "properties": {
                                "kind": {"type": "string"},
                                "name": {"type": "string", "default": "x"},
                                "count": {"type": "integer", "format": "int32", "default": 0},
                                "opt": {"type": "string"},
                                "ptr": {"type": "integer", "format": "int32"},
                                "spec": {"allOf": [{"$ref": s("Spec")}], "default": {}},
                                "time": {"$ref": s("Time")},
                                "items": {"type": "array", "items": {"allOf": [{"$ref": s("Spec")}], "default": {}}},
                                "ptrs": {"type": "array", "items": {"$ref": s("Spec")}},
                                "labels": {"type": "object", "additionalProperties": {"type": "string", "default": ""}},
                                "extra": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string", "default": ""}}},
                                "mode": {"type": "string", "default": "Fast"},
                                "quoted": {"type": "string"},
                                "port": {"$ref": s("IntOrString")},
                                "ghost": {"type": "string"},
                            },
                        },
                        "com.example.api.v1.Spec": {"type": "object", "properties": {"a": {"type": "string", "default": ""}}},
                        "com.example.api.v1.Time": {"type": "string", "format": "date-time"},
                        "com.example.api.v1.IntOrString": {"format": "int-or-string", "oneOf": [{"type": "integer"}, {"type": "string"}]},
                    },
                },
            })
        );
    }
}
