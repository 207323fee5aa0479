//! `modeDiscriminator` and `ifMode` (upstream's `mode` fixture): strict unions, shared
//! fields, chained validations, implicit forbidden, bool discriminators, several
//! modalities, list and map members; and the same written with Kubernetes 1.36's names,
//! `discriminator` and `member`.
//!
//! +k8s:validation-gen-nolint

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct StrictUnion {
    /// +k8s:modeDiscriminator
    pub d1: String,
    /// +k8s:ifMode("A")=+k8s:required
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_a: Option<String>,
    /// +k8s:ifMode("abc")=+k8s:required
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_b: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct SharedField {
    /// +k8s:modeDiscriminator
    pub d1: String,
    /// +k8s:ifMode("A")=+k8s:optional
    /// +k8s:ifMode("abc")=+k8s:optional
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_a: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct ChainedValidation {
    /// +k8s:modeDiscriminator
    pub d1: String,
    /// +k8s:ifMode("A")=+k8s:required
    /// +k8s:ifMode("A")=+k8s:maxLength=5
    /// +k8s:ifMode("a")=+k8s:optional
    /// +k8s:ifMode("a")=+k8s:neq="abc"
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_a: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct NonStringDiscriminator {
    /// +k8s:modeDiscriminator(modality:"Bool")
    pub d1: bool,
    /// +k8s:ifMode(modality:"Bool", mode:"true")=+k8s:required
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_a: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct MultipleDiscriminators {
    /// +k8s:modeDiscriminator(modality:"D1")
    pub d1: String,
    /// +k8s:modeDiscriminator(modality:"D2")
    pub d2: String,
    /// +k8s:ifMode(modality:"D1", mode:"A")=+k8s:required
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_a: Option<String>,
    /// +k8s:ifMode(modality:"D2", mode:"a")=+k8s:required
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_b: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Collections {
    /// +k8s:modeDiscriminator
    pub d1: String,
    /// +k8s:ifMode("A")=+k8s:optional
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub list_field: Vec<String>,
    /// +k8s:ifMode("A")=+k8s:optional
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub map_field: BTreeMap<String, String>,
    /// +k8s:ifMode("abc")=+k8s:required
    /// +k8s:ifMode("abc")=+k8s:minimum=1
    #[serde(skip_serializing_if = "is_zero")]
    pub int_field: i32,
}

fn is_zero(x: &i32) -> bool {
    *x == 0
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct EnumDiscriminator {
    /// +k8s:modeDiscriminator
    pub mode: Mode,
    /// +k8s:ifMode("Fast")=+k8s:required
    /// +k8s:ifMode("Slow")=+k8s:optional
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<i32>,
}

/// +k8s:enum
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub enum Mode {
    Fast,
    Slow,
    #[default]
    Off,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct LegacyNames {
    /// +k8s:discriminator(name: "D1")
    pub d1: String,
    /// +k8s:member(discriminator: "D1", value: "A")=+k8s:required
    /// +k8s:member(discriminator: "D1", value: "A")=+k8s:maxLength=5
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_a: Option<String>,
    /// +k8s:member(discriminator: "D1", value: "B")=+k8s:optional
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_b: Option<String>,
}
