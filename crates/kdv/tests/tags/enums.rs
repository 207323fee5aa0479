//! `enum` and `enumExclude` (upstream's `enum` fixture): unit enums as string enums, bare
//! and optional, a typedef of an enum, exclusions always and under options.
//!
//! +k8s:validation-gen-nolint

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// Enums of every arity, bare and optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Struct {
    pub enum0_ptr_field: Option<Enum0>,
    pub enum1_field: Enum1,
    /// +k8s:required
    pub enum1_ptr_field: Option<Enum1>,
    pub enum2_field: Enum2,
    pub enum2_ptr_field: Option<Enum2>,
    pub not_enum_field: NotEnum,
    pub enum_with_exclude_field: EnumWithExclude,
    /// +k8s:optional
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enum_with_exclude_ptr_field: Option<EnumWithExclude>,
    /// +k8s:required
    pub required_enum: Option<Enum2>,
    /// +k8s:eachVal=+k8s:neq="e2v2"
    pub enum_list: Vec<Enum2>,
}

/// String enums as Go declares them: a newtype that holds any string, its members
/// declared as constants.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct StringEnums {
    pub string_enum_field: StringEnum,
    /// +k8s:optional
    pub string_enum_ptr_field: Option<StringEnum>,
    pub string_enum_list: Vec<StringEnum>,
    pub string_enum_map: std::collections::BTreeMap<String, StringEnum>,
    pub conditional: ConditionalStringEnum,
}

/// +k8s:enum
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct StringEnum(pub String);

impl StringEnum {
    pub const A: &str = "a";
    pub const ABC: &str = "abc";
    /// +k8s:enumExclude
    pub const HTTP: &'static str = "http";
}

/// +k8s:enum
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct ConditionalStringEnum(pub String);

impl ConditionalStringEnum {
    /// +k8s:ifEnabled(FeatureA)=+k8s:enumExclude
    pub const A: &str = "A";
    /// +k8s:ifDisabled(FeatureB)=+k8s:enumExclude
    pub const LATEST: &str = "latest";
    pub const TCP: &str = "TCP";
}

/// Enums whose members are excluded under options.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct ConditionalStruct {
    pub conditional_enum_field: ConditionalEnum,
    pub conditional_enum_ptr_field: Option<ConditionalEnum>,
}

/// +k8s:enum
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub enum Enum0 {}

/// +k8s:enum
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub enum Enum1 {
    #[default]
    #[serde(rename = "e1v1")]
    E1V1,
}

/// +k8s:enum
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(rename_all = "lowercase")]
pub enum Enum2 {
    #[default]
    E2V1,
    E2V2,
}

/// Not an enum itself: a typedef of one.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct NotEnum(pub Enum2);

/// +k8s:enum
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
pub enum EnumWithExclude {
    #[default]
    EnumWithExclude1,
    /// +k8s:enumExclude
    EnumWithExclude2,
}

/// +k8s:enum
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub enum ConditionalEnum {
    /// +k8s:ifEnabled(FeatureA)=+k8s:enumExclude
    #[default]
    A,
    /// +k8s:ifDisabled(FeatureB)=+k8s:enumExclude
    B,
    C,
    /// +k8s:ifEnabled(FeatureA)=+k8s:enumExclude
    /// +k8s:ifEnabled(FeatureB)=+k8s:enumExclude
    D,
    /// +k8s:ifDisabled(FeatureC)=+k8s:enumExclude
    /// +k8s:ifDisabled(FeatureD)=+k8s:enumExclude
    E,
    /// +k8s:ifDisabled(FeatureC)=+k8s:enumExclude
    /// +k8s:ifEnabled(FeatureD)=+k8s:enumExclude
    F,
}
