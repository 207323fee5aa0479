//! `x-kubernetes-map-type`, `x-kubernetes-list-type` and `x-kubernetes-list-map-keys` at
//! CRD write time (the list and map part of `ValidateCustomResourceDefinitionOpenAPISchema`
//! and `validateMapListKeysMapSet`): the type each extension needs, the allowed values,
//! set items that must be atomic, map lists with object items whose keys are scalar item
//! properties, required or defaulted, and not nullable.

use kdv_runtime::{BadValue, ErrorList, FieldPath};

use super::Opts;
use super::model::{Props, strings};
use super::path::{forbidden, invalid, not_supported, required};

/// The list and map checks of one node.
pub(crate) fn check(s: &Props<'_>, path: &FieldPath, opts: &Opts, out: &mut ErrorList) {
    if s.x_map_type.is_some() && s.type_ != "object" {
        if s.type_.is_empty() {
            out.push(required(
                &path.child("type"),
                "must be object if x-kubernetes-map-type is specified",
            ));
        } else {
            out.push(invalid(
                &path.child("type"),
                BadValue::string(&s.type_),
                "must be object if x-kubernetes-map-type is specified",
            ));
        }
    }
    if let Some(map_type) = &s.x_map_type
        && map_type != "atomic"
        && map_type != "granular"
    {
        out.push(not_supported(
            &path.child("x-kubernetes-map-type"),
            BadValue::string(map_type),
            &["atomic", "granular"],
        ));
    }
    let list_type = s.x_list_type.as_deref();
    if list_type.is_some() && s.type_ != "array" {
        if s.type_.is_empty() {
            out.push(required(
                &path.child("type"),
                "must be array if x-kubernetes-list-type is specified",
            ));
        } else {
            out.push(invalid(
                &path.child("type"),
                BadValue::string(&s.type_),
                "must be array if x-kubernetes-list-type is specified",
            ));
        }
    } else if opts.require_atomic_set_type
        && list_type == Some("set")
        && let Some(items) = s.items_schema()
    {
        match items.type_.as_str() {
            "array" => {
                if let Some(t) = &items.x_list_type
                    && t != "atomic"
                {
                    out.push(invalid(
                        &path.child("items").child("x-kubernetes-list-type"),
                        BadValue::named_string(t.as_str()),
                        "must be atomic as item of a list with x-kubernetes-list-type=set",
                    ));
                }
            }
            "object" if items.x_map_type.as_deref() != Some("atomic") => {
                // Upstream reports the items' list type (nil for an object) here.
                let value = match &items.x_list_type {
                    Some(t) => BadValue::named_string(t.as_str()),
                    None => BadValue::Null,
                };
                out.push(invalid(
                    &path.child("items").child("x-kubernetes-map-type"),
                    value,
                    "must be atomic as item of a list with x-kubernetes-list-type=set",
                ));
            }
            _ => {}
        }
    }
    if let Some(t) = list_type
        && !matches!(t, "atomic" | "set" | "map")
    {
        out.push(not_supported(
            &path.child("x-kubernetes-list-type"),
            BadValue::string(t),
            &["atomic", "set", "map"],
        ));
    }
    if !s.x_list_map_keys.is_empty() {
        match list_type {
            None => out.push(required(
                &path.child("x-kubernetes-list-type"),
                "must be map if x-kubernetes-list-map-keys is non-empty",
            )),
            Some("map") => {}
            Some(t) => out.push(invalid(
                &path.child("x-kubernetes-list-type"),
                BadValue::string(t),
                "must be map if x-kubernetes-list-map-keys is non-empty",
            )),
        }
    }
    if list_type == Some("map") {
        map_list(s, path, out);
    }
    if opts.require_map_list_keys_map_set_validation {
        map_list_keys_map_set(s, path, out);
    }
}

fn keys_value(keys: &[String]) -> BadValue {
    let mut text = String::new();
    strings(&mut text, keys);
    BadValue::Encoded(text)
}

fn map_list(s: &Props<'_>, path: &FieldPath, out: &mut ErrorList) {
    if s.x_list_map_keys.is_empty() {
        out.push(required(
            &path.child("x-kubernetes-list-map-keys"),
            "must not be empty if x-kubernetes-list-type is map",
        ));
    }
    let Some(items) = &s.items else {
        out.push(required(
            &path.child("items"),
            "must have a schema if x-kubernetes-list-type is map",
        ));
        return;
    };
    let Some(schema) = items.schema.as_deref() else {
        let mut text = String::new();
        items.go_json(&mut text);
        out.push(invalid(
            &path.child("items"),
            BadValue::Encoded(text),
            "must only have a single schema if x-kubernetes-list-type is map",
        ));
        return;
    };
    if schema.type_ != "object" {
        out.push(invalid(
            &path.child("items").child("type"),
            BadValue::string(&schema.type_),
            "must be object if parent array's x-kubernetes-list-type is map",
        ));
        return;
    }
    let mut seen: Vec<&str> = Vec::new();
    for k in &s.x_list_map_keys {
        match schema.property(k) {
            Some(p) => {
                if p.type_ == "array" || p.type_ == "object" {
                    // Upstream reports the items' type here.
                    out.push(invalid(
                        &path.child("items").child("properties").key(k).child("type"),
                        BadValue::string(&schema.type_),
                        "must be a scalar type if parent array's x-kubernetes-list-type is map",
                    ));
                }
            }
            None => out.push(invalid(
                &path.child("x-kubernetes-list-map-keys"),
                keys_value(&s.x_list_map_keys),
                "entries must all be names of item properties",
            )),
        }
        if seen.contains(&k.as_str()) {
            out.push(invalid(
                &path.child("x-kubernetes-list-map-keys"),
                keys_value(&s.x_list_map_keys),
                "must not contain duplicate entries",
            ));
        }
        seen.push(k);
    }
}

/// `validateMapListKeysMapSet`.
fn map_list_keys_map_set(s: &Props<'_>, path: &FieldPath, out: &mut ErrorList) {
    let Some(items) = s.items_schema() else {
        return;
    };
    let Some(list_type) = s.x_list_type.as_deref() else {
        return;
    };
    if list_type != "set" && list_type != "map" {
        return;
    }
    if items.nullable {
        out.push(forbidden(
            &path.child("items").child("nullable"),
            format!("cannot be nullable when x-kubernetes-list-type is {list_type}"),
        ));
    }
    if list_type != "map" {
        return;
    }
    for k in &s.x_list_map_keys {
        let Some(p) = items.property(k) else {
            continue;
        };
        let key_path = path.child("items").child("properties").key(k);
        if !items.required.contains(k) && p.default.is_none() {
            out.push(required(
                &key_path.child("default"),
                "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
            ));
        }
        if p.nullable {
            out.push(forbidden(
                &key_path.child("nullable"),
                "this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
            ));
        }
    }
}
