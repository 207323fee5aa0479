//! `neq` on strings, bools and integers (upstream's `neq` fixtures), through pointers,
//! typedefs, `eachVal`, `eachKey` and `subfield`.
//!
//! +k8s:validation-gen-nolint

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// Values that must not equal a literal.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Struct {
    /// +k8s:neq="disallowed-string"
    pub string_field: String,
    /// +k8s:neq="a"
    pub string_ptr_field: Option<String>,
    /// +k8s:neq="abc"
    pub string_typedef_field: StringType,
    /// +k8s:neq=""
    pub string_typedef_ptr_field: Option<StringType>,
    pub validated_typedef_field: ValidatedStringType,
    pub validated_typedef_ptr_field: Option<ValidatedStringType>,
    /// +k8s:neq=true
    pub neq_true_field: bool,
    /// +k8s:neq=false
    pub neq_false_ptr_field: Option<bool>,
    pub validated_bool: ValidatedBoolType,
    /// +k8s:neq=0
    pub int_field: i32,
    /// +k8s:neq=-1
    pub int_ptr_field: Option<i64>,
    /// +k8s:neq=5
    pub uint_field: u16,
    /// +k8s:subfield(stringField)=+k8s:neq="a-b"
    pub struct_field: InnerStruct,
    /// +k8s:optional
    /// +k8s:subfield(stringField)=+k8s:neq="A"
    pub struct_ptr_field: Option<InnerStruct>,
    /// +k8s:eachVal=+k8s:neq="a"
    pub string_slice_field: Vec<String>,
    /// +k8s:eachVal=+k8s:neq="abc"
    pub string_map_field: BTreeMap<String, String>,
    /// +k8s:eachKey=+k8s:neq="a"
    pub string_map_key_field: BTreeMap<String, String>,
    /// +k8s:eachVal=+k8s:neq=3
    pub int_slice_field: Vec<i32>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct StringType(pub String);

/// +k8s:neq="a.b"
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct ValidatedStringType(pub String);

/// +k8s:neq=true
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct ValidatedBoolType(pub bool);

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct InnerStruct {
    pub string_field: String,
}
