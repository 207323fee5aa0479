//! `customValidation` (upstream's `customvalidation` fixture): hand-written functions
//! named `ValidateCustom_<Type>` and `ValidateCustom_<Struct>_<Field>`, called with the
//! value's nilable view, on fields, typedefs reached through pointers, lists and maps,
//! structs, and under an option. [`registry`] is the same functions on JSON for the
//! interpreter.
//!
//! +k8s:validation-gen-nolint

#![allow(non_snake_case)]

use std::collections::BTreeMap;

use kdv::__private::Named;
use kdv::{BadValue, ErrorList, FieldError, Operation, PathRef, Validate};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Struct {
    /// +k8s:customValidation
    pub string_field: String,
    /// +k8s:maxLength=3
    /// +k8s:customValidation
    pub max_length_field: String,
    /// +k8s:customValidation
    pub count: Option<i32>,
    pub typedef_field: StringType,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub typedef_ptr_field: Option<StringType>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub typedef_slice_field: Vec<StringType>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub typedef_map_field: BTreeMap<String, StringType>,
    pub struct_field: OtherStruct,
    /// +k8s:optional
    pub holder: Option<Holder>,
    /// +k8s:ifEnabled(FeatureX)=+k8s:customValidation
    pub option_field: String,
}

/// +k8s:customValidation
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct StringType(pub String);

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct OtherStruct {
    /// +k8s:customValidation
    pub string_field: String,
}

/// +k8s:customValidation
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct Holder {
    pub level: i64,
}

fn string_rule(path: &PathRef<'_>, v: Option<&str>, forbidden: &str, what: &str) -> ErrorList {
    match v {
        Some(s) if s == forbidden => vec![FieldError::invalid(
            path,
            BadValue::String(s.to_string()),
            format!("{what}: must not be {forbidden:?}"),
        )],
        _ => ErrorList::new(),
    }
}

fn count_rule(op: &Operation, path: &PathRef<'_>, v: Option<i64>, old: Option<i64>) -> ErrorList {
    let mut out = ErrorList::new();
    if let Some(x) = v
        && x % 2 == 1
    {
        out.push(FieldError::invalid(path, BadValue::Int(x), "must be even"));
    }
    if op.is_update()
        && let (Some(x), Some(o)) = (v, old)
        && x < o
    {
        out.push(FieldError::forbidden(
            path,
            format!("cannot decrease from {o}"),
        ));
    }
    out
}

fn holder_rule(op: &Operation, path: &PathRef<'_>, v: Option<i64>, old: Option<i64>) -> ErrorList {
    let mut out = ErrorList::new();
    match (v, old) {
        (Some(x), _) if x > 10 => out.push(FieldError::invalid(
            &path.child("level"),
            BadValue::Int(x),
            "holder level above 10",
        )),
        (Some(x), Some(o)) if op.is_update() && x != o => {
            out.push(FieldError::forbidden(path, "holder level changed"))
        }
        _ => {}
    }
    out
}

pub fn ValidateCustom_Struct_StringField(
    _op: &Operation,
    path: &PathRef<'_>,
    v: Option<&String>,
    _old: Option<&String>,
) -> ErrorList {
    string_rule(path, v.map(String::as_str), "abc", "Struct.StringField")
}

pub fn ValidateCustom_Struct_MaxLengthField(
    _op: &Operation,
    path: &PathRef<'_>,
    v: Option<&String>,
    _old: Option<&String>,
) -> ErrorList {
    string_rule(path, v.map(String::as_str), "a", "Struct.MaxLengthField")
}

pub fn ValidateCustom_Struct_Count(
    op: &Operation,
    path: &PathRef<'_>,
    v: Option<i32>,
    old: Option<i32>,
) -> ErrorList {
    count_rule(op, path, v.map(i64::from), old.map(i64::from))
}

pub fn ValidateCustom_Struct_OptionField(
    _op: &Operation,
    path: &PathRef<'_>,
    v: Option<&String>,
    _old: Option<&String>,
) -> ErrorList {
    string_rule(path, v.map(String::as_str), "http", "Struct.OptionField")
}

pub fn ValidateCustom_StringType(
    _op: &Operation,
    path: &PathRef<'_>,
    v: Named<Option<&String>>,
    _old: Named<Option<&String>>,
) -> ErrorList {
    string_rule(path, v.0.map(String::as_str), "a", "StringType")
}

pub fn ValidateCustom_OtherStruct_StringField(
    _op: &Operation,
    path: &PathRef<'_>,
    v: Option<&String>,
    _old: Option<&String>,
) -> ErrorList {
    string_rule(
        path,
        v.map(String::as_str),
        "a-b",
        "OtherStruct.StringField",
    )
}

pub fn ValidateCustom_Holder(
    op: &Operation,
    path: &PathRef<'_>,
    v: Option<&Holder>,
    old: Option<&Holder>,
) -> ErrorList {
    holder_rule(op, path, v.map(|h| h.level), old.map(|h| h.level))
}

/// The same functions on JSON values, for the interpreter.
pub fn registry() -> kdv_eval::CustomRegistry {
    fn s(v: Option<&serde_json::Value>) -> Option<&str> {
        v.and_then(|x| x.as_str())
    }
    fn level(v: Option<&serde_json::Value>) -> Option<i64> {
        v.map(|x| x.get("level").and_then(|l| l.as_i64()).unwrap_or(0))
    }
    let mut r = kdv_eval::CustomRegistry::new();
    r.register("ValidateCustom_Struct_StringField", |c| {
        string_rule(c.path, s(c.value), "abc", "Struct.StringField")
    });
    r.register("ValidateCustom_Struct_MaxLengthField", |c| {
        string_rule(c.path, s(c.value), "a", "Struct.MaxLengthField")
    });
    r.register("ValidateCustom_Struct_Count", |c| {
        count_rule(
            c.op,
            c.path,
            c.value.and_then(|x| x.as_i64()),
            c.old_value.and_then(|x| x.as_i64()),
        )
    });
    r.register("ValidateCustom_Struct_OptionField", |c| {
        string_rule(c.path, s(c.value), "http", "Struct.OptionField")
    });
    r.register("ValidateCustom_StringType", |c| {
        string_rule(c.path, s(c.value), "a", "StringType")
    });
    r.register("ValidateCustom_OtherStruct_StringField", |c| {
        string_rule(c.path, s(c.value), "a-b", "OtherStruct.StringField")
    });
    r.register("ValidateCustom_Holder", |c| {
        holder_rule(c.op, c.path, level(c.value), level(c.old_value))
    });
    r
}
