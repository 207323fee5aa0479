//! `listType` (set, map, atomic), `listMapKey` with one and several keys (strings,
//! integers, bools, pointers), `unique` (set, map) and `customUnique` (upstream's
//! `listset`, `listmap` and `unique` fixtures).
//!
//! +k8s:validation-gen-nolint

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// Sets and map lists.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Lists {
    /// +k8s:listType=set
    /// +k8s:maxItems=2
    pub string_set: Vec<String>,
    /// +k8s:listType=set
    pub int_set: Option<Vec<i32>>,
    /// +k8s:listType=set
    pub struct_set: Vec<Item>,
    /// +k8s:listType=set
    pub non_comparable_set: Vec<NonComparableItem>,
    /// +k8s:listType=set
    pub pointer_set: Vec<Option<String>>,
    pub typedef_set: StringSet,
    /// +k8s:listType=map
    /// +k8s:listMapKey=key
    pub single_key: Vec<Item>,
    /// +k8s:listType=map
    /// +k8s:listMapKey=key1Field
    /// +k8s:listMapKey=key2Field
    /// +k8s:eachVal=+k8s:immutable
    pub list_field: Vec<OtherStruct>,
    pub typedef_field: ListType,
    /// +k8s:listType=map
    /// +k8s:listMapKey=stringKey
    /// +k8s:listMapKey=intKey
    /// +k8s:listMapKey=boolKey
    pub three_keys: Vec<ThreeKeys>,
    /// +k8s:listType=map
    /// +k8s:listMapKey=stringPtrKey
    /// +k8s:listMapKey=stringKey
    pub mixed_ptr_keys: Vec<MixedPtrKeyStruct>,
    /// +k8s:listType=map
    /// +k8s:listMapKey=key
    pub pointer_map_list: Vec<Option<Item>>,
    /// +k8s:listType=atomic
    /// +k8s:maxItems=2
    pub atomic: Vec<String>,
}

/// `unique` on atomic lists, and `customUnique`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Unique {
    /// +k8s:listType=atomic
    /// +k8s:unique=set
    /// +k8s:maxItems=2
    pub primitive_list_unique_set: Vec<String>,
    /// +k8s:listType=atomic
    /// +k8s:unique=map
    /// +k8s:listMapKey=key1
    /// +k8s:listMapKey=key2
    pub slice_map_field_with_multiple_keys: Vec<ItemWithMultipleKeys>,
    /// +k8s:listType=atomic
    /// +k8s:unique=set
    /// +k8s:maxItems=1
    pub atomic_list_unique_set: Vec<Item>,
    /// +k8s:listType=atomic
    /// +k8s:unique=map
    /// +k8s:listMapKey=key
    pub atomic_list_unique_map: Vec<Item>,
    /// +k8s:listType=set
    /// +k8s:customUnique
    pub custom_unique_list_with_type_set: Vec<String>,
    /// +k8s:listType=map
    /// +k8s:listMapKey=key
    /// +k8s:customUnique
    pub custom_unique_list_with_type_map: Vec<Item>,
    /// +k8s:listType=atomic
    /// +k8s:unique=map
    /// +k8s:listMapKey=key
    pub slice_map_field_with_ptr_key: Vec<PtrKeyStruct>,
    /// +k8s:listType=atomic
    /// +k8s:unique=set
    pub primitive_pointer_list_unique_set: Vec<Option<String>>,
    /// +k8s:listType=atomic
    /// +k8s:unique=map
    /// +k8s:listMapKey=key
    pub pointer_list_unique_map: Vec<Option<Item>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct Item {
    pub key: String,
    pub data: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct ItemWithMultipleKeys {
    pub key1: String,
    pub key2: String,
    pub data: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct PtrKeyStruct {
    pub key: Option<String>,
    pub data: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct NonComparableItem {
    pub tags: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct OtherStruct {
    pub key1_field: String,
    pub key2_field: isize,
    pub data_field: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct ThreeKeys {
    pub string_key: String,
    pub int_key: isize,
    pub bool_key: bool,
    pub data: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct MixedPtrKeyStruct {
    pub string_ptr_key: Option<String>,
    pub string_key: String,
    pub data_field: String,
}

/// +k8s:listType=set
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct StringSet(pub Vec<String>);

/// +k8s:listType=map
/// +k8s:listMapKey=key1Field
/// +k8s:listMapKey=key2Field
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct ListType(pub Vec<OtherStruct>);
