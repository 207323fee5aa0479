//! Types shared by several API files: they derive `Validate` in their own file.

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// One condition of an object's status.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub struct Condition {
    /// The condition's type.
    /// +k8s:required
    /// +k8s:format=k8s-short-name
    pub r#type: String,
    /// Why, in one word.
    /// +k8s:optional
    /// +k8s:maxLength=10
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}
