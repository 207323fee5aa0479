//! `immutable` and `monotonic` (upstream's `immutable` and `monotonic` fixtures): scalars,
//! pointers, comparable and non-comparable structs, lists, maps, typedefs.
//!
//! +k8s:validation-gen-nolint

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// Values that cannot change once set.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Immutable {
    /// +k8s:immutable
    pub string_field: String,
    /// +k8s:immutable
    pub string_ptr_field: Option<String>,
    /// +k8s:immutable
    pub struct_field: ComparableStruct,
    /// +k8s:immutable
    pub struct_ptr_field: Option<ComparableStruct>,
    /// +k8s:immutable
    #[serde(rename = "noncomparableStructField")]
    pub non_comparable_struct_field: NonComparableStruct,
    /// +k8s:immutable
    #[serde(rename = "noncomparableStructPtrField")]
    pub non_comparable_struct_ptr_field: Option<NonComparableStruct>,
    /// +k8s:immutable
    pub slice_field: Vec<String>,
    /// +k8s:immutable
    pub map_field: BTreeMap<String, String>,
    pub immutable_field: ImmutableType,
    pub immutable_ptr_field: Option<ImmutableType>,
    /// +k8s:optional
    /// +k8s:immutable
    /// +k8s:maxLength=3
    #[serde(skip_serializing_if = "String::is_empty")]
    pub optional_immutable: String,
    /// +k8s:eachVal=+k8s:immutable
    pub immutable_values: BTreeMap<String, i32>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct ComparableStruct {
    pub string_field: String,
    pub string_ptr_field: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct NonComparableStruct {
    pub slice_field: Vec<String>,
}

/// +k8s:immutable
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct ImmutableType(pub String);

/// Numbers that may only grow.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Monotonic {
    /// +k8s:minimum=0
    /// +k8s:monotonic
    pub int_field: isize,
    /// +k8s:minimum=0
    /// +k8s:monotonic
    pub int64_field: i64,
    /// +k8s:minimum=0
    /// +k8s:monotonic
    pub uint64_field: u64,
    /// +k8s:optional
    /// +k8s:minimum=0
    /// +k8s:update=NoUnset
    /// +k8s:monotonic
    pub int_ptr_field: Option<isize>,
    pub monotonic_field: MonotonicType,
    pub monotonic_ptr_field: Option<MonotonicType>,
    /// +k8s:optional
    /// +k8s:minimum=0
    /// +k8s:update=NoUnset
    /// +k8s:monotonic
    #[serde(skip_serializing_if = "is_zero")]
    pub optional_int: isize,
    /// +k8s:required
    /// +k8s:minimum=0
    /// +k8s:monotonic
    pub required_int: isize,
    /// +k8s:required
    /// +k8s:minimum=0
    /// +k8s:monotonic
    pub required_int_ptr: Option<i32>,
    /// +k8s:minimum=-10
    /// +k8s:monotonic
    pub negative_int: i32,
}

fn is_zero(x: &isize) -> bool {
    *x == 0
}

/// +k8s:minimum=0
/// +k8s:monotonic
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct MonotonicType(pub i64);
