//! The testing tags `validateTrue`, `validateFalse` (with `flags` ShortCircuit and
//! NonError, and `cohort`), `validateTrueAlpha` and `validateTrueBeta` (upstream's
//! `validate_true`, `validate_false`, `validatetruealpha` and `validatetruebeta`
//! fixtures), on fields, types, list values and map keys and values.
//!
//! +k8s:validation-gen-nolint

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Struct {
    /// +k8s:validateTrue="field Struct.StringField"
    pub string_field: String,
    /// +k8s:validateTrueAlpha="field Struct.AlphaField"
    pub alpha_field: Option<String>,
    /// +k8s:validateTrueBeta="field Struct.BetaField"
    pub beta_field: i32,
    /// +k8s:validateFalse="field Struct.FalseField"
    pub false_field: Option<i32>,
    /// +k8s:validateFalse(flags: "ShortCircuit")="short circuit"
    /// +k8s:validateFalse="after the short circuit"
    pub short_circuit_field: String,
    /// +k8s:validateFalse(flags: "ShortCircuit,NonError")="non error short circuit"
    /// +k8s:validateFalse="never reported"
    pub non_error_short_circuit: String,
    /// +k8s:validateTrue(flags: "ShortCircuit")="passes"
    /// +k8s:maxLength=2
    pub passing_short_circuit: String,
    /// +k8s:validateFalse(cohort: "c1", flags: "ShortCircuit")="cohort c1 short circuit"
    /// +k8s:validateFalse(cohort: "c1")="cohort c1 regular"
    /// +k8s:validateFalse(cohort: "c2")="cohort c2 regular"
    /// +k8s:maxLength=1
    pub cohort_field: String,
    /// +k8s:optional
    /// +k8s:validateFalse="after optional"
    pub optional_false: Option<String>,
    /// +k8s:eachVal=+k8s:validateFalse="each value"
    pub list_field: Vec<String>,
    /// +k8s:eachKey=+k8s:validateFalse="each key"
    /// +k8s:eachVal=+k8s:validateTrue="each map value"
    pub map_field: BTreeMap<String, i32>,
    pub false_type: FalseType,
    pub true_type_ptr: Option<TrueType>,
    /// +k8s:required
    /// +k8s:validateFalse(flags: "ShortCircuit")="required then short circuit"
    /// +k8s:minLength=10
    pub required_then_sc: Option<String>,
}

/// +k8s:validateFalse="type FalseType"
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct FalseType(pub String);

/// +k8s:validateTrue="type TrueType"
/// +k8s:validateFalse(flags: "NonError")="non error on a type"
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct TrueType {
    /// +k8s:validateFalse="TrueType.inner"
    pub inner: Option<String>,
}
