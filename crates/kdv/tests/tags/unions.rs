//! Unions (upstream's `union` and `zerooroneof` fixtures): exactly-one-of and
//! zero-or-one-of unions with default and custom member names, several unions in one
//! struct, discriminated unions (also named and on a typedef discriminator), members of
//! every kind.
//!
//! +k8s:validation-gen-nolint

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// An undiscriminated union of members of every kind.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Union {
    pub non_union_field: String,
    /// +k8s:unionMember(memberName: "CustomM1")
    /// +k8s:optional
    pub m1: Option<M1>,
    /// +k8s:unionMember
    /// +k8s:optional
    pub m2: Option<M2>,
    /// +k8s:unionMember
    /// +k8s:optional
    pub m3: String,
    /// +k8s:unionMember
    /// +k8s:optional
    pub m4: Option<String>,
    /// +k8s:unionMember
    /// +k8s:optional
    pub m5: Vec<String>,
    /// +k8s:unionMember
    /// +k8s:optional
    pub m6: BTreeMap<String, String>,
}

/// Two named unions, one discriminated.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct TwoUnions {
    /// +k8s:unionDiscriminator(union: "union1")
    pub d1: Option<String>,
    /// +k8s:unionMember(union: "union1")
    /// +k8s:optional
    pub u1m1: Option<M1>,
    /// +k8s:unionMember(union: "union1", memberName: "A")
    /// +k8s:optional
    pub u1m2: Option<M2>,
    /// +k8s:unionMember(union: "union2")
    /// +k8s:optional
    pub u2m1: Option<M1>,
    /// +k8s:unionMember(union: "union2")
    /// +k8s:optional
    pub u2m2: Option<M2>,
}

/// A discriminated union whose discriminator is an enum.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Discriminated {
    /// +k8s:unionDiscriminator
    /// +k8s:required
    pub r#type: Option<Kind>,
    /// +k8s:unionMember(memberName: "Basic")
    /// +k8s:optional
    pub basic: Option<M1>,
    /// +k8s:unionMember(memberName: "Standard")
    /// +k8s:optional
    pub standard: Option<i32>,
    /// +k8s:unionMember(memberName: "Premium")
    /// +k8s:optional
    pub premium: Vec<String>,
}

/// Zero-or-one-of unions.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct ZeroOrOneOf {
    pub non_union_field: String,
    /// +k8s:zeroOrOneOfMember(memberName: "CustomM1")
    /// +k8s:optional
    pub m1: Option<M1>,
    /// +k8s:zeroOrOneOfMember
    /// +k8s:optional
    pub m2: Option<M2>,
    /// +k8s:zeroOrOneOfMember
    /// +k8s:optional
    pub m3: String,
    /// +k8s:zeroOrOneOfMember
    /// +k8s:optional
    pub m4: Option<String>,
    /// +k8s:zeroOrOneOfMember(union: "union2")
    /// +k8s:optional
    pub u2m1: Option<M1>,
    /// +k8s:zeroOrOneOfMember(union: "union2")
    /// +k8s:optional
    pub u2m2: Option<i64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct M1 {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub s: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct M2 {}

/// +k8s:enum
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub enum Kind {
    Basic,
    Standard,
    Premium,
}
