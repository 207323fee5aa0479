//! Limits (`minimum`, `maximum`, `minLength`, `maxLength`, `maxBytes`, `minItems`,
//! `maxItems`, `minProperties`, `maxProperties`) on every integer width, pointers,
//! typedefs (newtypes), lists and maps, as upstream's `minimum`, `maxlength`, `maxitems`,
//! ... fixtures use them.
//!
//! +k8s:validation-gen-nolint

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// Numbers of every width, bare, optional and through validated and unvalidated typedefs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Numbers {
    /// +k8s:minimum=1
    pub int_field: isize,
    /// +k8s:minimum=1
    pub int_ptr_field: Option<isize>,
    /// +k8s:minimum=1
    pub int16_field: i16,
    /// +k8s:minimum=1
    /// +k8s:maximum=10
    pub int32_field: i32,
    /// +k8s:maximum=-1
    pub int64_field: i64,
    /// +k8s:minimum=1
    pub uint_field: usize,
    /// +k8s:minimum=1
    pub uint_ptr_field: Option<usize>,
    /// +k8s:maximum=100
    pub uint16_field: u16,
    /// +k8s:minimum=5
    pub uint32_field: u32,
    /// +k8s:maximum=65535
    pub uint64_field: u64,
    /// +k8s:optional
    /// +k8s:minimum=-10
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optional_negative: Option<i32>,
    /// +k8s:required
    /// +k8s:minimum=-10
    /// +k8s:maximum=10
    pub required_bounded: Option<i64>,
    pub typedef_field: IntType,
    pub typedef_ptr_field: Option<IntType>,
    /// +k8s:maximum=3
    pub typedef_with_own: IntType,
    /// +k8s:optional
    /// +k8s:maximum=0
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optional_unvalidated: Option<Plain>,
}

/// +k8s:minimum=1
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct IntType(pub i32);

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct Plain(pub i64);

/// Strings: lengths counted in runes, and bytes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Strings {
    /// +k8s:maxLength=0
    pub max0_field: String,
    /// +k8s:maxLength=10
    pub max10_ptr_field: Option<String>,
    /// +k8s:minLength=3
    pub min3_field: String,
    /// +k8s:optional
    /// +k8s:minLength=1
    /// +k8s:maxLength=64
    #[serde(skip_serializing_if = "String::is_empty")]
    pub optional_bounded: String,
    /// +k8s:maxBytes=63
    pub max_bytes_field: String,
    /// +k8s:maxBytes=1
    pub max_bytes_ptr_field: Option<String>,
    pub validated_typedef: Max10Type,
    pub validated_typedef_ptr: Option<Max10Type>,
    /// +k8s:maxLength=0
    pub unvalidated_typedef: StringType,
}

/// +k8s:maxLength=10
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct Max10Type(pub String);

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct StringType(pub String);

/// Lists and maps: item and property counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Collections {
    /// +k8s:maxItems=0
    pub max0_list: Vec<String>,
    /// +k8s:maxItems=2
    pub max2_list: Option<Vec<i32>>,
    /// +k8s:minItems=1
    pub min1_list: Vec<String>,
    /// +k8s:optional
    /// +k8s:minItems=2
    /// +k8s:maxItems=3
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub optional_bounded_list: Vec<String>,
    pub typedef_list: ShortList,
    /// +k8s:optional
    /// +k8s:minItems=1
    pub optional_typedef_list: Option<ShortList>,
    /// +k8s:minItems=1
    pub typedef_list_own: ShortList,
    /// +k8s:maxProperties=1
    pub max1_map: BTreeMap<String, String>,
    /// +k8s:minProperties=2
    pub min2_map: Option<BTreeMap<String, i32>>,
    /// +k8s:optional
    /// +k8s:minProperties=1
    /// +k8s:maxProperties=2
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optional_bounded_map: Option<std::collections::HashMap<String, String>>,
    pub typedef_map: SmallMap,
    /// +k8s:required
    pub required_typedef_map: Option<SmallMap>,
}

/// +k8s:maxItems=2
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct ShortList(pub Vec<String>);

/// +k8s:maxProperties=1
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct SmallMap(pub BTreeMap<String, String>);
