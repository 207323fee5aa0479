//! `eachVal` on lists (of scalars, pointers, structs, typedefs, nested lists) and maps,
//! and `eachKey` (upstream's `eachval` and `eachkey` fixtures).
//!
//! +k8s:validation-gen-nolint

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// Lists.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct EachList {
    /// +k8s:eachVal=+k8s:maxLength=3
    pub list_field: Vec<String>,
    /// +k8s:eachVal=+k8s:minimum=1
    pub list_ptr_field: Vec<Option<i32>>,
    /// +k8s:eachVal=+k8s:format=k8s-short-name
    pub list_typedef_field: Vec<StringType>,
    /// +k8s:listType=map
    /// +k8s:listMapKey=name
    /// +k8s:eachVal=+k8s:subfield(value)=+k8s:neq="a"
    pub list_of_structs: Vec<Named>,
    /// +k8s:listType=set
    /// +k8s:eachVal=+k8s:immutable
    pub set_immutable: Vec<String>,
    /// +k8s:eachVal=+k8s:immutable
    pub atomic_immutable: Vec<String>,
    pub validated_list: ValidatedList,
}

/// Maps.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct EachMap {
    /// +k8s:eachVal=+k8s:maxLength=3
    pub map_field: BTreeMap<String, String>,
    /// +k8s:eachVal=+k8s:minLength=1
    pub map_typedef_field: BTreeMap<String, StringType>,
    /// +k8s:eachVal=+k8s:subfield(value)=+k8s:maxLength=1
    pub map_of_structs: BTreeMap<String, Named>,
    /// +k8s:eachKey=+k8s:maxLength=2
    pub map_keys: BTreeMap<String, i32>,
    /// +k8s:eachKey=+k8s:format=k8s-short-name
    /// +k8s:eachVal=+k8s:format=k8s-label-value
    pub labels: Option<BTreeMap<String, String>>,
    pub validated_map: ValidatedMap,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct StringType(pub String);

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct Named {
    pub name: String,
    pub value: String,
}

/// +k8s:eachVal=+k8s:neq="abc"
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct ValidatedList(pub Vec<String>);

/// +k8s:eachKey=+k8s:neq="a"
/// +k8s:eachVal=+k8s:minimum=0
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct ValidatedMap(pub BTreeMap<String, i32>);
