//! `required`, `optional` and `forbidden` on every kind of value (upstream's `required`,
//! `optional` and `forbidden` fixtures): strings, pointers, numbers, bools, floats,
//! structs, lists, maps and typedefs of each.
//!
//! +k8s:validation-gen-nolint

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// Required values, with a validation after the presence check.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Required {
    /// +k8s:required
    /// +k8s:maxLength=3
    pub string_field: String,
    /// +k8s:required
    /// +k8s:maxLength=3
    pub string_ptr_field: Option<String>,
    /// +k8s:required
    pub string_typedef_field: StringType,
    /// +k8s:required
    pub string_typedef_ptr_field: Option<StringType>,
    /// +k8s:required
    /// +k8s:minimum=2
    pub int_field: i32,
    /// +k8s:required
    pub int_ptr_field: Option<i64>,
    /// +k8s:required
    pub bool_field: bool,
    /// +k8s:required
    pub float_field: f64,
    /// +k8s:required
    pub other_struct_ptr_field: Option<OtherStruct>,
    /// +k8s:required
    /// +k8s:maxItems=1
    pub slice_field: Vec<String>,
    /// +k8s:required
    pub slice_typedef_field: SliceType,
    /// +k8s:required
    pub map_field: BTreeMap<String, String>,
    /// +k8s:required
    pub map_typedef_field: MapType,
    /// +k8s:required
    pub any_field: Option<serde_json::Value>,
}

/// Optional values: a validation after the presence check runs only when set.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Optional {
    /// +k8s:optional
    /// +k8s:maxLength=3
    #[serde(skip_serializing_if = "String::is_empty")]
    pub string_field: String,
    /// +k8s:optional
    /// +k8s:maxLength=0
    pub string_ptr_field: Option<String>,
    /// +k8s:optional
    /// +k8s:minimum=1
    pub int_field: i32,
    /// +k8s:optional
    /// +k8s:minimum=1
    pub int_ptr_field: Option<i32>,
    /// +k8s:optional
    /// +k8s:neq=true
    pub bool_field: bool,
    /// +k8s:optional
    pub other_struct_ptr_field: Option<OtherStruct>,
    /// +k8s:optional
    /// +k8s:minItems=2
    pub slice_field: Vec<String>,
    /// +k8s:optional
    /// +k8s:minProperties=2
    pub map_field: Option<BTreeMap<String, String>>,
    /// +k8s:optional
    pub typedef_ptr: Option<ValidatedType>,
    /// +k8s:optional
    pub typedef: ValidatedType,
}

/// Forbidden values.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Forbidden {
    /// +k8s:forbidden
    pub string_field: String,
    /// +k8s:forbidden
    pub string_ptr_field: Option<String>,
    /// +k8s:forbidden
    pub string_typedef_field: StringType,
    /// +k8s:forbidden
    pub string_typedef_ptr_field: Option<StringType>,
    /// +k8s:forbidden
    pub int_field: isize,
    /// +k8s:forbidden
    pub int_ptr_field: Option<isize>,
    /// +k8s:forbidden
    pub bool_field: bool,
    /// +k8s:forbidden
    pub float_field: f64,
    /// +k8s:forbidden
    pub byte_field: u8,
    /// +k8s:forbidden
    pub other_struct_ptr_field: Option<OtherStruct>,
    /// +k8s:forbidden
    pub slice_field: Vec<String>,
    /// +k8s:forbidden
    pub slice_typedef_field: SliceType,
    /// +k8s:forbidden
    pub map_field: BTreeMap<String, String>,
    /// +k8s:forbidden
    pub map_typedef_field: MapType,
    /// +k8s:forbidden
    pub optional_map_typedef_field: Option<MapType>,
    /// +k8s:forbidden
    pub optional_slice_typedef_field: Option<SliceType>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct StringType(pub String);

/// +k8s:maxLength=2
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct ValidatedType(pub String);

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct OtherStruct {
    /// +k8s:optional
    /// +k8s:maxLength=1
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct SliceType(pub Vec<String>);

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct MapType(pub BTreeMap<String, String>);
