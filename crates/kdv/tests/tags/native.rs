//! `declarativeValidationNative` (upstream's reverted `native` fixtures): native fields of
//! every shape — scalars, a nested struct type, a list of structs, a map, transitions —
//! next to unmarked ones, a union with a native member beside an unmarked one, and a
//! list-item union marked on the list and on an item. Every error of a native field's
//! block is marked; the comparison is by `Debug`, so the marks are compared.
//!
//! +k8s:validation-gen-nolint

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Struct {
    /// +k8s:declarativeValidationNative
    /// +k8s:optional
    /// +k8s:format=k8s-short-name
    pub native_name: String,
    /// +k8s:optional
    /// +k8s:format=k8s-short-name
    pub plain_name: String,
    /// +k8s:declarativeValidationNative
    /// +k8s:optional
    /// +k8s:minimum=1
    /// +k8s:maximum=5
    pub native_count: Option<i32>,
    /// +k8s:declarativeValidationNative
    /// +k8s:optional
    pub stable: Option<StableType>,
    /// +k8s:optional
    pub unmarked: Option<StableType>,
    /// +k8s:declarativeValidationNative
    /// +k8s:optional
    /// +k8s:maxItems=2
    /// +k8s:listType=map
    /// +k8s:listMapKey=name
    pub items: Vec<StableType>,
    /// +k8s:declarativeValidationNative
    /// +k8s:optional
    /// +k8s:eachKey=+k8s:maxLength=2
    /// +k8s:eachVal=+k8s:minimum=0
    pub map: BTreeMap<String, i32>,
    /// +k8s:declarativeValidationNative
    /// +k8s:optional
    /// +k8s:immutable
    pub fixed: Option<String>,
    /// +k8s:declarativeValidationNative
    /// +k8s:optional
    /// +k8s:update=NoModify
    pub no_modify: Option<i64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct StableType {
    /// +k8s:required
    /// +k8s:maxLength=3
    pub name: String,
    /// +k8s:optional
    /// +k8s:minimum=0
    pub count: Option<i32>,
    /// +k8s:optional
    pub nested: Option<Nested>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Nested {
    /// +k8s:optional
    pub mode: Option<Mode>,
}

/// +k8s:enum
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct Mode(pub String);

impl Mode {
    pub const FAST: &'static str = "Fast";
    pub const SLOW: &'static str = "Slow";
}

/// A union with a native member (marked) and a zero-or-one-of union without (unmarked).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Unions {
    /// +k8s:optional
    /// +k8s:unionMember
    /// +k8s:declarativeValidationNative
    pub union_field1: Option<i32>,
    /// +k8s:optional
    /// +k8s:unionMember
    pub union_field2: Option<i32>,
    /// +k8s:optional
    /// +k8s:zeroOrOneOfMember
    pub z1: Option<i32>,
    /// +k8s:optional
    /// +k8s:zeroOrOneOfMember
    pub z2: Option<i32>,
}

/// List-item unions: native on the list, and native on one item of an unmarked list.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct ListUnions {
    /// +k8s:listType=map
    /// +k8s:listMapKey=type
    /// +k8s:declarativeValidationNative
    /// +k8s:item(type: "a")=+k8s:unionMember
    /// +k8s:item(type: "b")=+k8s:unionMember
    pub items: Vec<UnionItem>,
    /// +k8s:listType=map
    /// +k8s:listMapKey=type
    /// +k8s:item(type: "a")=+k8s:zeroOrOneOfMember
    /// +k8s:item(type: "b")=+k8s:zeroOrOneOfMember
    /// +k8s:item(type: "b")=+k8s:declarativeValidationNative
    pub others: Vec<UnionItem>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct UnionItem {
    pub r#type: String,
    /// +k8s:optional
    /// +k8s:minimum=0
    pub a: Option<i32>,
}

#[test]
fn hybrid_types_say_so() {
    assert!(kdv::has_declarative_native::<Struct>());
    assert!(kdv::has_declarative_native::<Unions>());
    assert!(kdv::has_declarative_native::<ListUnions>());
    assert!(!kdv::has_declarative_native::<StableType>());
    assert!(!kdv::has_declarative_native::<Nested>());
}

#[test]
fn errors_of_native_fields_are_marked() {
    let s = Struct {
        native_name: "Not_A_Name".into(),
        plain_name: "Not_A_Name".into(),
        stable: Some(StableType {
            name: "long".into(),
            ..StableType::default()
        }),
        unmarked: Some(StableType::default()),
        ..Struct::default()
    };
    let errs = s.validate(&kdv::Operation::create());
    let marks: Vec<(String, bool)> = errs
        .iter()
        .map(|e| (e.field.to_string(), e.declarative_native))
        .collect();
    assert_eq!(
        marks,
        vec![
            ("nativeName".to_string(), true),
            ("plainName".to_string(), false),
            ("stable.name".to_string(), true),
            ("unmarked.name".to_string(), false),
        ]
    );
    let u = Unions {
        union_field1: Some(1),
        union_field2: Some(2),
        z1: Some(1),
        z2: Some(2),
    };
    let marks: Vec<(String, bool)> = u
        .validate(&kdv::Operation::create())
        .iter()
        .map(|e| (e.origin.to_string(), e.declarative_native))
        .collect();
    assert_eq!(
        marks,
        vec![
            ("union".to_string(), true),
            ("zeroOrOneOf".to_string(), false)
        ]
    );
}
