//! `subfield` (upstream's `subfield` fixtures): validations of a member of a struct field,
//! through pointers, with short-circuits, opaque fields and typedefs, and chained to union
//! tags.
//!
//! +k8s:validation-gen-nolint

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// Subfield validations.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Struct {
    /// +k8s:subfield(d)=+k8s:unionDiscriminator
    /// +k8s:subfield(m1)=+k8s:unionMember
    /// +k8s:subfield(m2)=+k8s:unionMember
    pub subfield: SubStruct,
    /// +k8s:optional
    /// +k8s:subfield(value)=+k8s:validateFalse="subfield Struct.Required.Value"
    pub required: Option<TargetWithRequired>,
    /// +k8s:subfield(value)=+k8s:maxLength=2
    pub immutable: TargetWithImmutable,
    /// +k8s:optional
    /// +k8s:subfield(value)=+k8s:validateFalse="subfield Struct.Opaque.Value"
    /// +k8s:opaqueType
    pub opaque: Option<TargetWithRequired>,
    /// +k8s:subfield(value)=+k8s:neq="a"
    /// +k8s:alpha=+k8s:opaqueType
    pub alpha_opaque: TargetWithImmutable,
    /// +k8s:optional
    /// +k8s:subfield(value)=+k8s:validateFalse="subfield Struct.OpaqueAlias.Value"
    pub opaque_alias: Option<AliasOpaqueTargetWithRequired>,
    /// +k8s:optional
    /// +k8s:subfield(value)=+k8s:neq="abc"
    pub pointer_opaque_alias: Option<AliasOpaqueTargetWithRequired>,
    /// +k8s:required
    /// +k8s:subfield(value)=+k8s:immutable
    /// +k8s:subfield(value)=+k8s:maxLength=1
    pub multiple_short_circuit: Option<TargetWithRequired>,
    /// +k8s:subfield(value)=+k8s:optional
    /// +k8s:subfield(value)=+k8s:minLength=2
    pub optional: TargetWithOptional,
    /// +k8s:subfield(count)=+k8s:minimum=1
    pub nested: Nested,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct SubStruct {
    pub d: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub m1: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub m2: Option<i32>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct TargetWithRequired {
    /// +k8s:required
    pub value: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct TargetWithImmutable {
    /// +k8s:immutable
    pub value: String,
    pub other: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct TargetWithOptional {
    /// +k8s:optional
    pub value: Option<String>,
}

/// +k8s:opaqueType
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct AliasOpaqueTargetWithRequired(pub TargetWithRequired);

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct Nested {
    pub count: Option<i64>,
    pub inner: TargetWithOptional,
}
