//! `dependentRequired` and `dependentForbidden` (upstream's fixtures of the same names):
//! single and several dependents and triggers, on pointers, lists, maps and integers.
//!
//! +k8s:validation-gen-nolint

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Required {
    /// +k8s:optional
    /// +k8s:dependentRequired("dependent")
    pub trigger: Option<String>,
    /// +k8s:optional
    pub dependent: Option<String>,
    /// +k8s:optional
    /// +k8s:dependentRequired("dependentA")
    /// +k8s:dependentRequired("dependentB")
    pub multi_trigger: Option<String>,
    /// +k8s:optional
    pub dependent_a: Option<String>,
    /// +k8s:optional
    /// +k8s:dependentRequired("dependent")
    pub trigger_b: Option<String>,
    /// +k8s:optional
    pub dependent_b: Option<String>,
    /// +k8s:optional
    /// +k8s:dependentRequired("sliceDep")
    pub slice_trigger: Vec<String>,
    /// +k8s:optional
    pub slice_dep: Vec<String>,
    /// +k8s:optional
    /// +k8s:dependentRequired("mapDep")
    pub map_trigger: BTreeMap<String, String>,
    /// +k8s:optional
    pub map_dep: Option<BTreeMap<String, String>>,
    /// +k8s:optional
    /// +k8s:dependentRequired("intDep")
    pub int_trigger: isize,
    /// +k8s:optional
    pub int_dep: isize,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Forbidden {
    /// +k8s:optional
    /// +k8s:dependentForbidden("dependent")
    pub trigger: Option<String>,
    /// +k8s:optional
    pub dependent: Option<String>,
    /// +k8s:optional
    /// +k8s:dependentForbidden("dependentA")
    /// +k8s:dependentForbidden("dependentB")
    pub multi_trigger: Option<String>,
    /// +k8s:optional
    pub dependent_a: Option<String>,
    /// +k8s:optional
    pub dependent_b: Option<String>,
    /// +k8s:optional
    /// +k8s:dependentForbidden("sliceDep")
    pub slice_trigger: Vec<String>,
    /// +k8s:optional
    pub slice_dep: Vec<String>,
    /// +k8s:optional
    /// +k8s:dependentForbidden("mapDep")
    pub map_trigger: BTreeMap<String, String>,
    /// +k8s:optional
    pub map_dep: BTreeMap<String, String>,
    /// +k8s:optional
    /// +k8s:dependentForbidden("intDep")
    /// +k8s:dependentRequired("ptrDep")
    pub int_trigger: isize,
    /// +k8s:optional
    pub int_dep: isize,
    /// +k8s:optional
    pub ptr_dep: Option<bool>,
}
