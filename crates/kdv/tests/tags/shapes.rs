//! Rust shapes under tags: newtypes of structs, lists and maps (typedefs), recursive types
//! (`Option<Box<T>>`), `#[serde(flatten)]` (embedded structs), lists and maps of structs,
//! `serde_json::Value`, renamed and raw-identifier fields, `HashMap`.
//!
//! +k8s:validation-gen-nolint

use std::collections::{BTreeMap, HashMap};

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// A root that embeds its metadata and holds every shape.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Root {
    #[serde(flatten)]
    pub meta: Meta,
    /// +k8s:optional
    pub tree: Option<Box<Node>>,
    /// +k8s:listType=map
    /// +k8s:listMapKey=name
    /// +k8s:maxItems=3
    pub children: Vec<Node>,
    /// +k8s:eachKey=+k8s:format=k8s-short-name
    /// +k8s:maxProperties=2
    pub by_name: BTreeMap<String, Node>,
    /// +k8s:eachVal=+k8s:maxLength=2
    pub hashed: HashMap<String, String>,
    pub wrapped: Wrapped,
    pub wrapped_ptr: Option<Wrapped>,
    pub name_list: NameList,
    /// +k8s:optional
    /// +k8s:immutable
    pub any: Option<serde_json::Value>,
    /// +k8s:update=NoModify
    pub any_plain: serde_json::Value,
    /// +k8s:optional
    /// +k8s:neq="a"
    #[serde(rename = "type", skip_serializing_if = "String::is_empty")]
    pub r#type: String,
    /// +k8s:minimum=0
    #[serde(rename = "x-count")]
    pub count: i64,
    pub deep: Option<Box<Deep>>,
}

/// Embedded metadata: its fields are the root's JSON members.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Meta {
    /// +k8s:required
    /// +k8s:format=k8s-short-name
    pub name: String,
    /// +k8s:optional
    /// +k8s:maxLength=3
    #[serde(skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// +k8s:optional
    /// +k8s:immutable
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generation: Option<i64>,
}

/// A recursive node.
/// +k8s:validateFalse(flags: "NonError")="never reported"
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct Node {
    /// +k8s:required
    /// +k8s:maxLength=3
    pub name: String,
    /// +k8s:optional
    /// +k8s:minimum=1
    pub weight: Option<i32>,
    /// +k8s:optional
    pub next: Option<Box<Node>>,
    /// +k8s:maxItems=2
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kids: Vec<Node>,
}

/// A newtype of a struct, with its own rule.
/// +k8s:subfield(name)=+k8s:neq="abc"
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct Wrapped(pub Node);

/// +k8s:listType=set
/// +k8s:eachVal=+k8s:format=k8s-long-name
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub struct NameList(pub Vec<String>);

/// A chain of boxes and options.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct Deep {
    /// +k8s:optional
    /// +k8s:update=NoUnset
    pub inner: Option<Box<Deep>>,
    /// +k8s:forbidden
    pub never: Option<String>,
    /// +k8s:eachVal=+k8s:subfield(name)=+k8s:neq="a"
    pub values: BTreeMap<String, Node>,
}
