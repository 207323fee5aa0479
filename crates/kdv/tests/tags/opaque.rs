//! `opaqueType` (upstream's `opaque` fixture): the field's or element's own validations
//! run, the referenced type's do not; on struct fields, pointers, list values, list-map
//! values and map keys and values.
//!
//! +k8s:validation-gen-nolint

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Struct {
    /// +k8s:validateFalse="field Struct.StructField"
    pub struct_field: OtherStruct,
    /// +k8s:validateFalse="field Struct.StructPtrField"
    /// +k8s:required
    pub struct_ptr_field: Option<OtherStruct>,
    /// +k8s:validateFalse="field Struct.OpaqueStructField"
    /// +k8s:opaqueType
    pub opaque_struct_field: OtherStruct,
    /// +k8s:validateFalse="field Struct.OpaqueStructPtrField"
    /// +k8s:required
    /// +k8s:opaqueType
    pub opaque_struct_ptr_field: Option<OtherStruct>,
    /// +k8s:validateFalse="field Struct.SliceOfStructField"
    /// +k8s:eachVal=+k8s:validateFalse="field Struct.SliceOfStructField vals"
    pub slice_of_struct_field: Vec<OtherStruct>,
    /// +k8s:validateFalse="field Struct.SliceOfOpaqueStructField"
    /// +k8s:eachVal=+k8s:validateFalse="field Struct.SliceOfOpaqueStructField vals"
    /// +k8s:eachVal=+k8s:opaqueType
    pub slice_of_opaque_struct_field: Vec<OtherStruct>,
    /// +k8s:validateFalse="field Struct.ListMapOfStructField"
    /// +k8s:eachVal=+k8s:validateFalse="field Struct.ListMapOfStructField vals"
    /// +k8s:listType=map
    /// +k8s:listMapKey=stringField
    pub list_map_of_struct_field: Vec<OtherStruct>,
    /// +k8s:validateFalse="field Struct.ListMapOfOpaqueStructField"
    /// +k8s:eachVal=+k8s:validateFalse="field Struct.ListMapOfOpaqueStructField vals"
    /// +k8s:listType=map
    /// +k8s:listMapKey=stringField
    /// +k8s:eachVal=+k8s:opaqueType
    pub list_map_of_opaque_struct_field: Vec<OtherStruct>,
    /// +k8s:validateFalse="field Struct.MapOfStringToStructField"
    /// +k8s:eachKey=+k8s:validateFalse="field Struct.MapOfStringToStructField keys"
    /// +k8s:eachVal=+k8s:validateFalse="field Struct.MapOfStringToStructField vals"
    pub map_of_string_to_struct_field: BTreeMap<String, OtherStruct>,
    /// +k8s:validateFalse="field Struct.MapOfStringToOpaqueStructField"
    /// +k8s:eachKey=+k8s:validateFalse="field Struct.MapOfStringToOpaqueStructField keys"
    /// +k8s:eachVal=+k8s:validateFalse="field Struct.MapOfStringToOpaqueStructField vals"
    /// +k8s:eachKey=+k8s:opaqueType
    /// +k8s:eachVal=+k8s:opaqueType
    pub map_of_string_to_opaque_struct_field: BTreeMap<String, OtherStruct>,
    pub opaque_typedef: OpaqueTypedef,
}

/// +k8s:validateFalse="type OtherStruct"
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct OtherStruct {
    /// +k8s:validateFalse="field OtherStruct.StringField"
    pub string_field: String,
}

/// +k8s:opaqueType
/// +k8s:maxLength=3
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct OpaqueTypedef(pub String);
