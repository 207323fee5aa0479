//! kdv's extensions of the catalog (tags the design documents specify and upstream
//! validation-gen lacks): `pattern`, `exclusiveMinimum`, `exclusiveMaximum`,
//! `ifSubresource`, `ifNotSubresource`, and the older spellings `ifOptionEnabled`,
//! `ifOptionDisabled`.
//!
//! +k8s:validation-gen-nolint

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// Patterns on strings, pointers, typedefs, list values and map keys.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Patterns {
    /// +k8s:pattern="^[a-z]([-a-z0-9]*[a-z0-9])?$"
    pub name: String,
    /// +k8s:optional
    /// +k8s:pattern="^\\d{3}$"
    pub code: Option<String>,
    /// +k8s:pattern="b"
    pub contains_b: String,
    /// +k8s:pattern="^a"
    pub literal_prefix: String,
    /// +k8s:eachVal=+k8s:pattern="^v[0-9]+$"
    pub versions: Vec<String>,
    /// +k8s:eachKey=+k8s:pattern="^[a-z]+$"
    pub labels: BTreeMap<String, String>,
    pub typed: Lower,
    pub typed_ptr: Option<Lower>,
}

/// +k8s:pattern="^[a-z]*$"
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct Lower(pub String);

/// Exclusive bounds on integers of several widths, alone and beside inclusive bounds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Bounds {
    /// +k8s:exclusiveMinimum=0
    pub count: i32,
    /// +k8s:exclusiveMaximum=100
    /// +k8s:minimum=0
    pub percent: i32,
    /// +k8s:exclusiveMinimum=-5
    /// +k8s:exclusiveMaximum=5
    pub offset: Option<i64>,
    /// +k8s:exclusiveMinimum=1
    pub small: u8,
    /// +k8s:eachVal=+k8s:exclusiveMaximum=3
    pub levels: Vec<i16>,
}

/// Subresource conditions, on a root that serves `/status` and `/resize`.
///
/// +k8s:supportsSubresource="/status"
/// +k8s:supportsSubresource="/resize"
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Subresources {
    /// +k8s:ifSubresource("/status")=+k8s:required
    /// +k8s:optional
    pub phase: Option<String>,
    /// +k8s:ifNotSubresource("/resize")=+k8s:immutable
    pub cpu: String,
    /// +k8s:ifSubresource("/")=+k8s:maxLength=3
    pub main_only: String,
    /// +k8s:ifNotSubresource("/status")=+k8s:eachVal=+k8s:pattern="^v"
    pub tags: Vec<String>,
    /// +k8s:ifSubresource("/resize")=+k8s:exclusiveMinimum=0
    pub replicas: i32,
}

/// The older spellings of the options tags.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Aliases {
    /// +k8s:ifOptionEnabled(FeatureX)=+k8s:maxLength=1
    pub x_enabled: String,
    /// +k8s:ifOptionDisabled(FeatureX)=+k8s:pattern="^a"
    pub x_disabled: String,
}
