//! `alpha` and `beta` (upstream's `levels` fixtures): marked validations of every kind,
//! with `since`, on fields, typedefs, list values, map keys, subfields, items and unions.
//!
//! +k8s:validation-gen-nolint

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Struct {
    /// +k8s:alpha=+k8s:maxLength=2
    pub alpha_max_length: String,
    /// +k8s:beta(since: "1.36")=+k8s:minimum=1
    pub beta_minimum: Option<i32>,
    /// +k8s:alpha(since: "1.35")=+k8s:required
    pub alpha_required: Option<String>,
    /// +k8s:beta=+k8s:forbidden
    pub beta_forbidden: Option<String>,
    /// +k8s:optional
    /// +k8s:alpha=+k8s:format=k8s-short-name
    /// +k8s:beta=+k8s:maxLength=3
    /// +k8s:maxLength=10
    pub mixed: String,
    /// +k8s:alpha=+k8s:immutable
    pub alpha_immutable: String,
    /// +k8s:beta=+k8s:update=NoModify
    pub beta_no_modify: Option<i64>,
    /// +k8s:alpha=+k8s:eachVal=+k8s:neq="a"
    /// +k8s:beta=+k8s:maxItems=2
    pub list_field: Vec<String>,
    /// +k8s:alpha=+k8s:eachKey=+k8s:maxLength=1
    /// +k8s:beta=+k8s:eachVal=+k8s:minimum=0
    pub map_field: BTreeMap<String, i32>,
    /// +k8s:beta=+k8s:subfield(name)=+k8s:neq="abc"
    pub sub: Named,
    /// +k8s:listType=map
    /// +k8s:listMapKey=name
    /// +k8s:alpha=+k8s:item(name: "a")=+k8s:subfield(value)=+k8s:maxLength=1
    pub items: Vec<Named>,
    pub alpha_typedef: AlphaType,
    /// +k8s:alpha=+k8s:neq=true
    /// +k8s:beta=+k8s:validateFalse(flags: "NonError")="beta non-error"
    pub both: bool,
    /// +k8s:beta=+k8s:unique=set
    /// +k8s:listType=atomic
    pub beta_unique: Vec<String>,
}

/// Unions and modes with levels.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct LevelUnions {
    /// +k8s:alpha=+k8s:unionDiscriminator
    pub d: String,
    /// +k8s:alpha=+k8s:unionMember
    /// +k8s:optional
    pub m1: Option<String>,
    /// +k8s:alpha=+k8s:unionMember
    /// +k8s:optional
    pub m2: Option<String>,
    /// +k8s:beta=+k8s:zeroOrOneOfMember
    /// +k8s:optional
    pub z1: Option<String>,
    /// +k8s:beta=+k8s:zeroOrOneOfMember
    /// +k8s:optional
    pub z2: Option<String>,
    /// +k8s:beta=+k8s:modeDiscriminator
    pub mode: String,
    /// +k8s:alpha=+k8s:ifMode("A")=+k8s:required
    /// +k8s:alpha=+k8s:ifMode("abc")=+k8s:optional
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_a: Option<String>,
    /// +k8s:optional
    /// +k8s:alpha=+k8s:dependentRequired("dep")
    /// +k8s:beta=+k8s:dependentForbidden("otherDep")
    pub trigger: Option<String>,
    /// +k8s:optional
    pub dep: Option<String>,
    /// +k8s:optional
    pub other_dep: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct Named {
    pub name: String,
    pub value: String,
}

/// +k8s:alpha=+k8s:minLength=2
/// +k8s:beta=+k8s:neq="abc"
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct AlphaType(pub String);
