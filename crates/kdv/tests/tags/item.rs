//! `item` (upstream's `item` fixtures): validations of the list-map item with given key
//! values, with string, integer, bool, pointer and several keys, chained to value,
//! update and union tags.
//!
//! +k8s:validation-gen-nolint

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// Item rules on map lists.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Struct {
    /// +k8s:listType=map
    /// +k8s:listMapKey=key
    /// +k8s:item(key: "a")=+k8s:validateFalse="item Items[key=a] 1"
    /// +k8s:item(key: "abc")=+k8s:subfield(data)=+k8s:maxLength=1
    /// +k8s:item(key: "http")=+k8s:immutable
    pub items: Vec<Item>,
    /// +k8s:listType=map
    /// +k8s:listMapKey=intField
    /// +k8s:item(intField: 1)=+k8s:validateFalse="item IntKeyItems[intField=1]"
    pub int_key_items: Vec<IntKeyItem>,
    /// +k8s:listType=map
    /// +k8s:listMapKey=boolField
    /// +k8s:item(boolField: true)=+k8s:subfield(data)=+k8s:neq="a"
    pub bool_key_items: Vec<BoolKeyItem>,
    /// +k8s:listType=map
    /// +k8s:listMapKey=stringKey
    /// +k8s:listMapKey=intKey
    /// +k8s:listMapKey=boolKey
    /// +k8s:item(stringKey: "a", intKey: 1, boolKey: true)=+k8s:validateFalse="item ThreeKeys"
    pub three_keys: Vec<ThreeKeys>,
    /// +k8s:listType=map
    /// +k8s:listMapKey=stringPtrKey
    /// +k8s:listMapKey=stringKey
    /// +k8s:item(stringPtrKey: "a", stringKey: "abc")=+k8s:validateFalse="item MixedPtrItems"
    pub mixed_ptr_items: Vec<MixedPtrItem>,
    pub typedef_items: ItemList,
    /// +k8s:listType=map
    /// +k8s:listMapKey=key
    /// +k8s:item(key: "a")=+k8s:subfield(data)=+k8s:update=NoModify
    pub update_items: Vec<Item>,
}

/// Item-based union members (upstream's `item` union fixture).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct TaskStruct {
    /// +k8s:listType=map
    /// +k8s:listMapKey=name
    /// +k8s:item(name: "succeeded")=+k8s:unionMember
    /// +k8s:item(name: "failed")=+k8s:unionMember
    pub tasks: Vec<Task>,
    pub task_list: TaskList,
    /// +k8s:listType=map
    /// +k8s:listMapKey=name
    /// +k8s:item(name: "succeeded")=+k8s:zeroOrOneOfMember
    /// +k8s:item(name: "failed")=+k8s:zeroOrOneOfMember
    pub optional_tasks: Vec<Task>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct Item {
    pub key: String,
    pub data: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct IntKeyItem {
    pub int_field: i32,
    pub data: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct BoolKeyItem {
    pub bool_field: bool,
    pub data: String,
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
pub struct MixedPtrItem {
    pub string_ptr_key: Option<String>,
    pub string_key: String,
    pub data: String,
}

/// +k8s:listType=map
/// +k8s:listMapKey=key
/// +k8s:item(key: "abc")=+k8s:validateFalse="item TypedefItems[key=abc]"
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct ItemList(pub Vec<Item>);

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct Task {
    pub name: String,
    pub state: String,
}

/// +k8s:listType=map
/// +k8s:listMapKey=name
/// +k8s:item(name: "a")=+k8s:unionMember(union: "typed")
/// +k8s:item(name: "abc")=+k8s:unionMember(union: "typed")
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct TaskList(pub Vec<Task>);
