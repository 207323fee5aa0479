//! The schema defaults kube-openapi's openapi-gen writes into a type's definition, which
//! the published OpenAPI v3 carries and the published swagger v2 has pruned
//! (`handler.PruneDefaults`).
//!
//! The rule (openapi-gen's `generateDefault`, `defaultFromComments`, `mustEnforceDefault`),
//! per struct member (after its `+k8s:openapi-gen=false` and `,inline` handling; not for
//! `json:",string"` members) and per slice item and map value schema:
//! - an explicit `+default=<json>` or `+default=ref(Const)` on the member, else on its type's
//!   declaration (through pointers and named non-struct types);
//! - else the zero value the generator enforces: none for a type with its own
//!   `UnmarshalJSON` (it decodes `null`), pointers, maps, slices, arrays and interfaces; `{}`
//!   for a struct (a struct whose only member is embedded counts as that member's type); for
//!   a predeclared type its zero value unless the member is `omitempty` (items and map values
//!   never are).

use std::rc::Rc;

use kdv_model::{Builtin, ConstValue, Field, StructType, TypeRef};
use serde_json::{Map, Value};

use crate::gotypes::{GoKind, GoPackage, GoTypes, json_tags};

/// A struct whose members give a schema's properties.
pub struct StructSource {
    /// The declaring package (for `ref(...)` defaults and own-package references).
    pub package: Rc<GoPackage>,
    /// The struct.
    pub fields: StructType,
}

/// Adds the defaults of a struct's members to `schema` (a v2 definition being converted):
/// its `properties`, their `items` and `additionalProperties`. Returns the properties the
/// schema has and no member gives (a sign of a wrong Go source).
pub fn add_struct_defaults(
    go: &GoTypes,
    source: &StructSource,
    schema: &mut Map<String, Value>,
) -> Result<Vec<String>, String> {
    let Some(Value::Object(properties)) = schema.get_mut("properties") else {
        return Ok(Vec::new());
    };
    let mut seen = Vec::new();
    members(
        go,
        &source.package,
        &source.fields,
        properties,
        &mut seen,
        0,
    )?;
    Ok(properties
        .keys()
        .filter(|k| !seen.contains(k))
        .cloned()
        .collect())
}

/// openapi-gen's `generateMembers`.
fn members(
    go: &GoTypes,
    package: &Rc<GoPackage>,
    fields: &StructType,
    properties: &mut Map<String, Value>,
    seen: &mut Vec<String>,
    depth: usize,
) -> Result<(), String> {
    if depth > 32 {
        return Err("inline members nest too deep".to_string());
    }
    for field in &fields.fields {
        if openapi_gen_false(field) {
            continue;
        }
        let tags = json_tags(field);
        if tags.get(1).is_some_and(|o| o == "inline") {
            let mut ty = field.ty.clone();
            while let TypeRef::Pointer(elem) = ty {
                ty = *elem;
            }
            match go.kind(&ty)? {
                GoKind::Struct(named, inner) => {
                    let inner_package = named.map_or_else(|| package.clone(), |(p, _)| p);
                    members(go, &inner_package, &inner, properties, seen, depth + 1)?;
                }
                _ => return Err(format!("inline member {} is not a struct", field.name)),
            }
            continue;
        }
        let name = match tags.first() {
            Some(n) if n == "-" => continue,
            Some(n) => n.clone(),
            None => field.name.clone(),
        };
        if name.is_empty() {
            continue;
        }
        seen.push(name.clone());
        if tags.get(1).is_some_and(|o| o == "string") {
            continue;
        }
        let Some(Value::Object(property)) = properties.get_mut(&name) else {
            continue;
        };
        let json_tag = tags.join(",");
        let omit_empty = json_tag.contains("omitempty");
        let comment_default = explicit_default(go, field_default_tag(field)?, package, &field.ty)?;
        let default = match comment_default {
            Some(d) => Some(d),
            None => enforced_default(go, &field.ty, omit_empty)?,
        };
        if let Some(d) = default {
            property.insert("default".into(), d);
        }
        nested(go, &field.ty, property)?;
    }
    Ok(())
}

/// The `items` / `additionalProperties` defaults below a property of type `ty`
/// (`generateSliceProperty`, `generateMapProperty`).
fn nested(go: &GoTypes, ty: &TypeRef, schema: &mut Map<String, Value>) -> Result<(), String> {
    let resolved = resolve_alias_and_pointer(go, ty)?;
    if is_simple(&resolved) {
        return Ok(());
    }
    let (keyword, elem) = match go.kind(&resolved)? {
        GoKind::Slice(elem) | GoKind::Array(elem) => ("items", elem),
        GoKind::Map(value) => ("additionalProperties", value),
        _ => return Ok(()),
    };
    let Some(Value::Object(sub)) = schema.get_mut(keyword) else {
        return Ok(());
    };
    let decl_tags = match go.type_decl(&elem)? {
        Some((package, decl)) => Some((package, default_tag(&decl.tags)?)),
        None => None,
    };
    let explicit = match decl_tags {
        Some((package, tag)) => explicit_default(go, tag, &package, &elem)?,
        None => explicit_default_of_type(go, &elem)?,
    };
    let default = match explicit {
        Some(d) => Some(d),
        None => enforced_default(go, &elem, false)?,
    };
    if let Some(d) = default {
        sub.insert("default".into(), d);
    }
    nested(go, &elem, sub)
}

/// openapi-gen's `resolveAliasAndPtrType`: named non-struct types and pointers followed.
fn resolve_alias_and_pointer(go: &GoTypes, ty: &TypeRef) -> Result<TypeRef, String> {
    let mut ty = ty.clone();
    for _ in 0..64 {
        ty = match go.kind(&ty)? {
            GoKind::Alias(underlying) => underlying,
            GoKind::Pointer(elem) => elem,
            _ => return Ok(ty),
        };
    }
    Err("a cycle of named types".to_string())
}

/// Whether openapi-gen writes the type as a simple `type`/`format` (`OpenAPITypeFormat`):
/// predeclared types and `[]byte`.
fn is_simple(resolved: &TypeRef) -> bool {
    match resolved {
        TypeRef::Builtin(_) => true,
        TypeRef::Slice(elem) => matches!(**elem, TypeRef::Builtin(Builtin::Byte)),
        _ => false,
    }
}

/// `+k8s:openapi-gen=false` on a member.
fn openapi_gen_false(field: &Field) -> bool {
    field
        .tags
        .named("k8s:openapi-gen")
        .any(|t| t.text.split_once('=').is_some_and(|(_, v)| v == "false"))
}

/// The value of the member's `+default=` tag.
fn field_default_tag(field: &Field) -> Result<Option<String>, String> {
    default_tag(&field.tags).map_err(|e| format!("member {}: {e}", field.name))
}

/// The value of a `+default=` tag (gengo's `ExtractCommentTags`: everything after the first
/// `=`); more than one is an error, as in openapi-gen.
fn default_tag(tags: &kdv_model::Tags) -> Result<Option<String>, String> {
    let values: Vec<String> = tags
        .lines
        .iter()
        .filter_map(|l| {
            let (key, value) = l.text.split_once('=').unwrap_or((l.text.as_str(), ""));
            (key == "default").then(|| value.to_string())
        })
        .collect();
    match values.len() {
        0 => Ok(None),
        1 => Ok(values.into_iter().next()),
        _ => Err("multiple values are not allowed for tag default".to_string()),
    }
}

/// `defaultFromComments` after the member's own comments: the tag of `ty`'s declaration,
/// then through pointers and named non-struct types.
fn explicit_default(
    go: &GoTypes,
    tag: Option<String>,
    package: &Rc<GoPackage>,
    ty: &TypeRef,
) -> Result<Option<Value>, String> {
    match tag {
        Some(tag) if !tag.is_empty() => parse_default(&tag, package).map(Some),
        _ => explicit_default_of_type(go, ty),
    }
}

fn explicit_default_of_type(go: &GoTypes, ty: &TypeRef) -> Result<Option<Value>, String> {
    let mut ty = Some(ty.clone());
    for _ in 0..64 {
        let Some(current) = ty else {
            return Ok(None);
        };
        if let Some((package, decl)) = go.type_decl(&current)?
            && let Some(tag) = default_tag(&decl.tags)?
            && !tag.is_empty()
        {
            return parse_default(&tag, &package).map(Some);
        }
        ty = match go.kind(&current)? {
            GoKind::Pointer(elem) => Some(elem),
            GoKind::Alias(underlying) => Some(underlying),
            _ => None,
        };
    }
    Err("a cycle of named types".to_string())
}

/// A `+default=` value: `ref(Const)` / `ref(path.Const)` is the constant's value, anything
/// else JSON. Numbers are written as openapi-gen's `%#v` of a float64 writes them, which is
/// an integer literal for integral values.
fn parse_default(tag: &str, package: &Rc<GoPackage>) -> Result<Value, String> {
    if let Some(reference) = tag.strip_prefix("ref(").and_then(|r| r.strip_suffix(')')) {
        let (path, name) = match reference.rsplit_once('.') {
            Some((path, name)) if path.contains('/') => (Some(path), name),
            _ => (None, reference),
        };
        if path.is_some_and(|p| p != package.package.path) {
            return Err(format!(
                "+default={tag}: references to other packages are not supported"
            ));
        }
        return match package.constant(name) {
            Some(ConstValue::String(s)) => Ok(Value::String(s.clone())),
            Some(ConstValue::Int(i)) => Ok(Value::from(*i as i64)),
            Some(ConstValue::Bool(b)) => Ok(Value::Bool(*b)),
            Some(ConstValue::Float(f)) => Ok(number(*f)),
            Some(ConstValue::Expr(e)) => Err(format!("+default={tag}: constant is {e}")),
            None => Err(format!("+default={tag}: no constant {name}")),
        };
    }
    let value: Value =
        serde_json::from_str(tag).map_err(|e| format!("+default={tag}: not JSON: {e}"))?;
    Ok(integral_numbers(value))
}

fn integral_numbers(value: Value) -> Value {
    match value {
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() => number(f),
            _ => Value::Number(n),
        },
        Value::Array(items) => Value::Array(items.into_iter().map(integral_numbers).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, integral_numbers(v)))
                .collect(),
        ),
        other => other,
    }
}

fn number(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() < 1e21 {
        Value::from(f as i64)
    } else {
        serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

/// openapi-gen's `mustEnforceDefault`.
fn enforced_default(go: &GoTypes, ty: &TypeRef, omit_empty: bool) -> Result<Option<Value>, String> {
    let mut ty = ty.clone();
    for _ in 0..64 {
        let kind = go.kind(&ty)?;
        if custom_unmarshalling(go, &kind)? {
            return Ok(None);
        }
        ty = match kind {
            GoKind::Alias(underlying) => underlying,
            GoKind::Pointer(_)
            | GoKind::Map(_)
            | GoKind::Slice(_)
            | GoKind::Array(_)
            | GoKind::Interface => return Ok(None),
            GoKind::Struct(_, fields) => {
                if let [only] = &fields.fields[..]
                    && only.embedded
                {
                    only.ty.clone()
                } else {
                    return Ok(Some(Value::Object(Map::new())));
                }
            }
            GoKind::Builtin(b) => {
                return if omit_empty {
                    Ok(None)
                } else {
                    zero_value(b).map(Some)
                };
            }
        };
    }
    Err("a cycle of named types".to_string())
}

/// `implementsCustomUnmarshalling`: a struct declaring `UnmarshalJSON`, or a pointer to a
/// type declaring it with a pointer receiver.
fn custom_unmarshalling(go: &GoTypes, kind: &GoKind) -> Result<bool, String> {
    Ok(match kind {
        GoKind::Struct(Some((package, name)), _) => package.method(name, "UnmarshalJSON").is_some(),
        GoKind::Pointer(TypeRef::Named(named)) => {
            let (package, _) = go.decl(named)?;
            package
                .method(&named.name, "UnmarshalJSON")
                .is_some_and(|m| m.pointer_receiver)
        }
        _ => false,
    })
}

/// kube-openapi's `OpenAPIZeroValue` of a predeclared type.
fn zero_value(b: Builtin) -> Result<Value, String> {
    Ok(match b {
        Builtin::String => Value::String(String::new()),
        Builtin::Bool => Value::Bool(false),
        Builtin::Int
        | Builtin::Int8
        | Builtin::Int16
        | Builtin::Int32
        | Builtin::Int64
        | Builtin::Uint
        | Builtin::Uint8
        | Builtin::Uint16
        | Builtin::Uint32
        | Builtin::Uint64
        | Builtin::Byte
        | Builtin::Float32
        | Builtin::Float64 => Value::from(0),
        other => return Err(format!("no OpenAPI zero value for {other:?}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_tags_and_values() {
        assert_eq!(
            integral_numbers(serde_json::json!(1.0)),
            serde_json::json!(1)
        );
        assert_eq!(
            integral_numbers(serde_json::json!(0.5)),
            serde_json::json!(0.5)
        );
        assert_eq!(
            integral_numbers(serde_json::json!({"a": [2.0]})),
            serde_json::json!({"a": [2]})
        );
        assert_eq!(zero_value(Builtin::Int32).unwrap(), serde_json::json!(0));
        assert!(zero_value(Builtin::Complex64).is_err());
    }
}
