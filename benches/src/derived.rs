//! The anchor workloads (§1) as Rust types with `#[derive(Validate)]`: the shapes and tags of
//! `workloads/*.go` (Go `int` as `isize`, `uint` as `usize`, `type X string` as a newtype,
//! `*T` as `Option<T>`), validated by generated code.

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// +k8s:minimum=1
#[derive(Clone, Serialize, Deserialize, Validate)]
pub struct IntType(pub isize);

/// Flat_Minimum: 12 fields with `+k8s:minimum=1`.
#[derive(Clone, Serialize, Deserialize, Validate)]
#[allow(missing_docs)]
pub struct MinimumStruct {
    /// +k8s:minimum=1
    pub int_field: isize,
    /// +k8s:minimum=1
    pub int_ptr_field: Option<isize>,
    /// +k8s:minimum=1
    pub int16_field: i16,
    /// +k8s:minimum=1
    pub int32_field: i32,
    /// +k8s:minimum=1
    pub int64_field: i64,
    /// +k8s:minimum=1
    pub uint_field: usize,
    /// +k8s:minimum=1
    pub uint_ptr_field: Option<usize>,
    /// +k8s:minimum=1
    pub uint16_field: u16,
    /// +k8s:minimum=1
    pub uint32_field: u32,
    /// +k8s:minimum=1
    pub uint64_field: u64,
    pub typedef_field: IntType,
    pub typedef_ptr_field: Option<IntType>,
}

/// A string type without tags.
#[derive(Clone, Serialize, Deserialize, Validate)]
pub struct UntaggedString(pub String);

/// +k8s:maxLength=0
#[derive(Clone, Serialize, Deserialize, Validate)]
pub struct Max0String(pub String);

/// +k8s:maxLength=10
#[derive(Clone, Serialize, Deserialize, Validate)]
pub struct Max10String(pub String);

/// Flat_MaxLength: 12 string fields with `+k8s:maxLength`.
#[derive(Clone, Serialize, Deserialize, Validate)]
#[allow(missing_docs)]
pub struct MaxLengthStruct {
    /// +k8s:maxLength=0
    pub max0_field: String,
    /// +k8s:maxLength=0
    pub max0_ptr_field: Option<String>,
    /// +k8s:maxLength=0
    pub max0_untagged_typedef_field: UntaggedString,
    /// +k8s:maxLength=0
    pub max0_untagged_typedef_ptr_field: Option<UntaggedString>,
    /// +k8s:maxLength=10
    pub max10_field: String,
    /// +k8s:maxLength=10
    pub max10_ptr_field: Option<String>,
    /// +k8s:maxLength=10
    pub max10_untagged_typedef_field: UntaggedString,
    /// +k8s:maxLength=10
    pub max10_untagged_typedef_ptr_field: Option<UntaggedString>,
    pub max0_typedef_field: Max0String,
    pub max0_typedef_ptr_field: Option<Max0String>,
    pub max10_typedef_field: Max10String,
    pub max10_typedef_ptr_field: Option<Max10String>,
}

/// +k8s:format=k8s-short-name
#[derive(Clone, Serialize, Deserialize, Validate)]
pub struct ShortNameString(pub String);

/// Flat_ShortName: 3 fields with `+k8s:format=k8s-short-name`.
#[derive(Clone, Serialize, Deserialize, Validate)]
#[allow(missing_docs)]
pub struct ShortNameStruct {
    /// +k8s:format=k8s-short-name
    pub short_name_field: String,
    /// +k8s:format=k8s-short-name
    pub short_name_ptr_field: Option<String>,
    pub short_name_typedef_field: ShortNameString,
}

/// ListMap/SingleKey.
#[derive(Clone, Serialize, Deserialize, Validate)]
pub struct SingleKeyStruct {
    /// +k8s:listType=map
    /// +k8s:listMapKey=keyField
    /// +k8s:eachVal=+k8s:immutable
    #[serde(rename = "listField")]
    pub list_field: Vec<SingleKeyItem>,
}

/// An item of ListMap/SingleKey.
#[derive(Clone, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct SingleKeyItem {
    pub key_field: String,
    pub data_field: String,
}

/// ListMap/MultiKey.
#[derive(Clone, Serialize, Deserialize, Validate)]
pub struct MultiKeyStruct {
    /// +k8s:listType=map
    /// +k8s:listMapKey=key1Field
    /// +k8s:listMapKey=key2Field
    /// +k8s:eachVal=+k8s:immutable
    #[serde(rename = "listField")]
    pub list_field: Vec<MultiKeyItem>,
}

/// An item of ListMap/MultiKey.
#[derive(Clone, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct MultiKeyItem {
    pub key1_field: String,
    pub key2_field: isize,
    pub data_field: String,
}

/// A union discriminator (Go `type D string`).
#[derive(Clone, Serialize, Deserialize, Validate)]
pub struct D(pub String);

/// An empty union member.
#[derive(Clone, Serialize, Deserialize, Validate)]
pub struct M1 {}

/// An empty union member.
#[derive(Clone, Serialize, Deserialize, Validate)]
pub struct M2 {}

/// Union_Discriminated.
#[derive(Clone, Serialize, Deserialize, Validate)]
#[allow(missing_docs)]
pub struct DiscriminatedStruct {
    /// +k8s:unionDiscriminator
    pub d: D,
    /// +k8s:unionMember
    /// +k8s:optional
    pub m1: Option<M1>,
    /// +k8s:unionMember
    /// +k8s:optional
    pub m2: Option<M2>,
    /// +k8s:unionMember
    /// +k8s:optional
    pub m3: Option<Vec<String>>,
    /// +k8s:unionMember
    /// +k8s:optional
    pub m4: Option<BTreeMap<String, String>>,
}

/// Union_Undiscriminated.
#[derive(Clone, Serialize, Deserialize, Validate)]
#[allow(missing_docs)]
pub struct UndiscriminatedStruct {
    #[serde(rename = "nonUnionField")]
    pub non_union_field: String,
    /// +k8s:unionMember
    /// +k8s:optional
    pub m1: Option<M1>,
    /// +k8s:unionMember
    /// +k8s:optional
    pub m2: Option<M2>,
    /// +k8s:unionMember
    /// +k8s:optional
    pub m3: String,
    /// +k8s:unionMember
    /// +k8s:optional
    pub m4: Option<String>,
    /// +k8s:unionMember
    /// +k8s:optional
    pub m5: Option<Vec<String>>,
    /// +k8s:unionMember
    /// +k8s:optional
    pub m6: Option<BTreeMap<String, String>>,
}

/// Defaults_* (`workloads/defaults.go`).
#[derive(Clone, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
#[allow(missing_docs)]
#[derive(Default)]
pub struct DefaultsStruct {
    /// +k8s:default=1
    /// +k8s:minimum=1
    pub replicas_field: i32,
    /// +k8s:default=30
    /// +k8s:maximum=3600
    pub timeout_field: Option<i64>,
    /// +k8s:default="Always"
    /// +k8s:maxLength=6
    pub policy_field: String,
    /// +k8s:optional
    /// +default=5
    /// +k8s:minimum=1
    pub count_field: i32,
}

/// Extensions_* (`workloads/extensions.go`).
#[derive(Clone, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct ExtensionsStruct {
    /// +k8s:pattern="^[a-z]([-a-z0-9]*[a-z0-9])?$"
    pub name_field: String,
    /// +k8s:pattern="^v"
    pub prefix_field: String,
    /// +k8s:eachVal=+k8s:pattern="^[0-9]+\\.[0-9]+$"
    pub versions_field: Vec<String>,
    /// +k8s:exclusiveMinimum=0
    /// +k8s:exclusiveMaximum=100
    pub percent_field: i32,
    /// +k8s:ifNotSubresource("/resize")=+k8s:exclusiveMinimum=0
    #[serde(rename = "cpuField")]
    pub cpu_field: i64,
}

/// CrossField_* (`workloads/crossfield.go`).
#[derive(Clone, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct CrossFieldStruct {
    pub min_value: i32,
    pub max_value: i32,
    /// +k8s:minimum(constraint: minValue)
    /// +k8s:maximum(constraint: maxValue)
    pub current: i32,
    /// +k8s:optional
    pub limits: Option<CrossFieldLimits>,
    /// +k8s:maxLength(constraint: limits.maxLength)
    pub name: String,
    /// +k8s:maxItems(constraint: limits.maxItems)
    pub items: Vec<String>,
}

/// The bounds of a [`CrossFieldStruct`].
#[derive(Clone, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct CrossFieldLimits {
    pub max_length: i32,
    pub max_items: i32,
}

/// ItemUpdate_* (`workloads/itemupdate.go`).
#[derive(Clone, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct ItemUpdateStruct {
    /// +k8s:optional
    /// +k8s:listType=map
    /// +k8s:listMapKey=type
    /// +k8s:maxItems=16
    /// +k8s:item(type: "Approved")=+k8s:update="NoSet,NoModify,NoClear"
    /// +k8s:item(type: "Denied")=+k8s:update="NoUnset,NoModify"
    pub conditions: Vec<ItemUpdateCondition>,
}

/// One condition of an [`ItemUpdateStruct`].
#[derive(Clone, Serialize, Deserialize, Validate)]
#[allow(missing_docs)]
pub struct ItemUpdateCondition {
    #[serde(rename = "type")]
    pub kind: String,
    pub status: String,
}
