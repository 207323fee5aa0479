//! `update` constraints (upstream's `update` fixtures): NoSet, NoUnset, NoModify on
//! scalars, pointers, structs and typedefs; NoSet/NoAddItem/NoRemoveItem on atomic lists,
//! sets, map lists and maps; `eachVal=+k8s:update=NoModify`.
//!
//! +k8s:validation-gen-nolint

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// Scalars, pointers and structs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct UpdateTestStruct {
    /// +k8s:update=NoSet
    pub string_no_set: String,
    /// +k8s:update=NoUnset
    pub string_no_unset: String,
    /// +k8s:update=NoModify
    pub string_no_modify: String,
    /// +k8s:update=NoSet
    /// +k8s:update=NoModify
    /// +k8s:update=NoUnset
    pub string_fully_restricted: String,
    /// +k8s:update=NoModify
    /// +k8s:update=NoUnset
    pub string_set_once: String,
    /// +k8s:update=NoModify
    pub int_no_modify: isize,
    /// +k8s:update=NoModify
    pub uint_no_modify: usize,
    /// +k8s:update=NoModify
    pub bool_no_modify: bool,
    /// +k8s:update=NoModify
    pub float64_no_modify: f64,
    /// +k8s:update=NoModify
    pub byte_no_modify: u8,
    /// +k8s:update=NoModify
    pub struct_no_modify: TestStruct,
    /// +k8s:update=NoModify
    pub non_comparable_struct_no_modify: NonComparableStruct,
    /// +k8s:update=NoSet
    pub pointer_no_set: Option<String>,
    /// +k8s:update=NoUnset
    pub pointer_no_unset: Option<String>,
    /// +k8s:update=NoModify
    pub pointer_no_modify: Option<String>,
    /// +k8s:update=NoSet
    /// +k8s:update=NoModify
    /// +k8s:update=NoUnset
    pub pointer_fully_restricted: Option<String>,
    /// +k8s:update=NoModify
    pub int_pointer_no_modify: Option<isize>,
    /// +k8s:update=NoModify
    pub bool_pointer_no_modify: Option<bool>,
    /// +k8s:update=NoModify
    pub struct_pointer_no_modify: Option<TestStruct>,
    /// +k8s:update=NoModify
    pub custom_type_no_modify: CustomString,
    /// +k8s:update=NoSet
    pub custom_type_no_set: CustomInt,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct TestStruct {
    pub string_field: String,
    pub int_field: isize,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct NonComparableStruct {
    pub slice_field: Vec<String>,
    pub int_field: isize,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct CustomString(pub String);

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct CustomInt(pub isize);

/// Lists.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct UpdateListStruct {
    /// +k8s:listType=atomic
    /// +k8s:update=NoSet
    pub atomic_no_set: Vec<String>,
    /// +k8s:listType=atomic
    /// +k8s:update=NoUnset
    pub atomic_no_unset: Option<Vec<String>>,
    /// +k8s:listType=set
    /// +k8s:update=NoAddItem
    pub set_no_add: Vec<String>,
    /// +k8s:listType=set
    /// +k8s:update=NoRemoveItem
    pub set_no_remove: Vec<i32>,
    /// +k8s:listType=set
    /// +k8s:update=NoAddItem
    /// +k8s:update=NoRemoveItem
    pub non_comparable_set_frozen_shape: Vec<NonComparableItem>,
    /// +k8s:update=NoAddItem
    /// +k8s:update=NoRemoveItem
    pub typedef_frozen_list: FrozenUserList,
    /// +k8s:listType=map
    /// +k8s:listMapKey=name
    /// +k8s:update=NoAddItem
    pub map_list_no_add: Vec<UpdateItem>,
    /// +k8s:listType=map
    /// +k8s:listMapKey=name
    /// +k8s:eachVal=+k8s:update=NoModify
    pub each_val_no_modify_list: Vec<UpdateItem>,
    /// +k8s:listType=atomic
    /// +k8s:update=NoSet
    pub pointer_slice_no_set: Vec<Option<String>>,
    /// +k8s:listType=set
    /// +k8s:update=NoAddItem
    pub pointer_set_no_add: Vec<Option<String>>,
    /// +k8s:listType=map
    /// +k8s:listMapKey=name
    /// +k8s:update=NoRemoveItem
    pub pointer_map_list_no_remove: Vec<Option<UpdateItem>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct UpdateItem {
    pub name: String,
    pub value: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct NonComparableItem {
    pub tags: Vec<String>,
}

/// +k8s:listType=map
/// +k8s:listMapKey=name
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct FrozenUserList(pub Vec<UpdateItem>);

/// Maps.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct UpdateMapStruct {
    /// +k8s:update=NoSet
    pub map_no_set: BTreeMap<String, String>,
    /// +k8s:update=NoUnset
    pub map_no_unset: Option<BTreeMap<String, String>>,
    /// +k8s:update=NoAddItem
    pub map_no_add: BTreeMap<String, String>,
    /// +k8s:update=NoRemoveItem
    pub map_no_remove: BTreeMap<String, String>,
    /// +k8s:update=NoAddItem
    /// +k8s:update=NoRemoveItem
    pub map_frozen_shape: BTreeMap<String, String>,
    /// +k8s:update=NoSet
    /// +k8s:update=NoAddItem
    pub map_set_then_freeze: BTreeMap<String, MapItem>,
    /// +k8s:eachVal=+k8s:update=NoModify
    pub each_val_no_modify_map: BTreeMap<String, MapItem>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct MapItem {
    pub value: String,
}
