//! Every `format` (upstream's `format` fixtures), on strings, pointers, typedefs, list
//! values and map keys.
//!
//! +k8s:validation-gen-nolint

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// One field per format.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Struct {
    /// +k8s:format=k8s-short-name
    pub short_name_field: String,
    /// +k8s:format=k8s-short-name
    pub short_name_ptr_field: Option<String>,
    /// +k8s:format=k8s-long-name
    pub long_name_field: String,
    /// +k8s:optional
    /// +k8s:format=k8s-long-name-caseless
    #[serde(skip_serializing_if = "String::is_empty")]
    pub long_name_caseless_field: String,
    /// +k8s:format=k8s-label-key
    pub label_key_field: String,
    /// +k8s:format=k8s-prefixed-label-key
    pub prefixed_label_key_field: String,
    /// +k8s:format=k8s-label-value
    pub label_value_field: String,
    /// +k8s:format=k8s-path-segment-name
    pub path_segment_name_field: String,
    /// +k8s:format=k8s-uuid
    pub uuid_field: Option<String>,
    /// +k8s:format=k8s-resource-pool-name
    pub resource_pool_name_field: String,
    /// +k8s:format=k8s-extended-resource-name
    pub extended_resource_name_field: String,
    /// +k8s:format=k8s-resource-fully-qualified-name
    pub resource_fully_qualified_name_field: String,
    pub typedef_field: ShortNameType,
    pub typedef_ptr_field: Option<ShortNameType>,
    /// +k8s:eachVal=+k8s:format=k8s-label-value
    pub label_values: Vec<String>,
    /// +k8s:eachKey=+k8s:format=k8s-label-key
    /// +k8s:eachVal=+k8s:format=k8s-long-name
    pub labels: BTreeMap<String, String>,
}

/// +k8s:format=k8s-short-name
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct ShortNameType(pub String);
