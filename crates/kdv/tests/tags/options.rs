//! `ifEnabled` and `ifDisabled` (upstream's `options` fixtures) chained to value, list,
//! map, update, union and mode tags.
//!
//! +k8s:validation-gen-nolint

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Struct {
    /// +k8s:ifEnabled(FeatureX)=+k8s:validateFalse="field Struct.XEnabledField"
    pub x_enabled_field: String,
    /// +k8s:ifDisabled(FeatureX)=+k8s:maxLength=1
    pub x_disabled_field: String,
    /// +k8s:ifEnabled(FeatureY)=+k8s:maxLength=1
    /// +k8s:ifDisabled(FeatureY)=+k8s:minLength=3
    pub y_field: String,
    /// +k8s:ifEnabled(FeatureX)=+k8s:neq="a"
    /// +k8s:ifDisabled(FeatureY)=+k8s:validateFalse="field Struct.XYMixedField/Y"
    pub xy_mixed_field: String,
    /// +k8s:ifEnabled(FeatureX)=+k8s:eachVal=+k8s:neq="a"
    /// +k8s:ifDisabled(FeatureX)=+k8s:eachVal=+k8s:maxLength=3
    pub list_each_val: Vec<String>,
    /// +k8s:ifEnabled(FeatureX)=+k8s:eachKey=+k8s:neq="a"
    /// +k8s:ifDisabled(FeatureX)=+k8s:eachVal=+k8s:neq="abc"
    pub map_field: BTreeMap<String, String>,
    /// +k8s:ifEnabled(FeatureX)=+k8s:immutable
    pub immutable_when_x: String,
    /// +k8s:ifDisabled(FeatureX)=+k8s:update=NoModify
    pub no_modify_without_x: Option<i32>,
    /// +k8s:ifEnabled(FeatureY)=+k8s:listType=map
    /// +k8s:ifEnabled(FeatureY)=+k8s:listMapKey=name
    pub conditional_map_list: Vec<Named>,
    /// +k8s:ifEnabled(FeatureX)=+k8s:subfield(name)=+k8s:neq="a"
    pub sub: Named,
    /// +k8s:ifEnabled(FeatureZ)=+k8s:required
    /// +k8s:ifDisabled(FeatureZ)=+k8s:optional
    pub z_required: Option<String>,
    /// +k8s:alpha=+k8s:ifEnabled(FeatureY)=+k8s:minimum=10
    /// +k8s:beta=+k8s:ifDisabled(FeatureY)=+k8s:maximum=1
    pub leveled: i32,
}

/// Unions whose membership depends on options.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct OptionUnions {
    /// +k8s:ifEnabled(FeatureX)=+k8s:unionDiscriminator
    pub d: String,
    /// +k8s:ifEnabled(FeatureX)=+k8s:unionMember
    /// +k8s:optional
    pub m1: Option<String>,
    /// +k8s:ifEnabled(FeatureX)=+k8s:unionMember
    /// +k8s:optional
    pub m2: Option<String>,
    /// +k8s:ifDisabled(FeatureX)=+k8s:zeroOrOneOfMember
    /// +k8s:optional
    pub z1: Option<String>,
    /// +k8s:ifDisabled(FeatureX)=+k8s:zeroOrOneOfMember
    /// +k8s:optional
    pub z2: Option<String>,
    /// +k8s:listType=map
    /// +k8s:listMapKey=name
    /// +k8s:ifEnabled(FeatureY)=+k8s:item(name: "a")=+k8s:zeroOrOneOfMember(union: "items")
    /// +k8s:ifEnabled(FeatureY)=+k8s:item(name: "abc")=+k8s:zeroOrOneOfMember(union: "items")
    pub tasks: Vec<Named>,
}

/// Modes under options.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct OptionModes {
    /// +k8s:ifEnabled(FeatureZ)=+k8s:modeDiscriminator
    pub d1: String,
    /// +k8s:ifEnabled(FeatureZ)=+k8s:ifMode("A")=+k8s:optional
    /// +k8s:ifEnabled(FeatureZ)=+k8s:ifMode("a")=+k8s:required
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_a: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct Named {
    pub name: String,
    pub value: String,
}
