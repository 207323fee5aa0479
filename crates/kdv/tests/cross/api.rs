//! An API file whose types use a type of another module (`Condition`, deriving `Validate`
//! there) and a type of another crate (`Quantity`, without kdv).

use kdv::Validate;
use serde::{Deserialize, Serialize};

use super::common::Condition;

/// A status with conditions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub struct Status {
    /// +k8s:optional
    /// +k8s:maxItems=2
    #[serde(default)]
    pub conditions: Vec<Condition>,
    /// +k8s:optional
    #[serde(default)]
    pub primary: Option<Box<Condition>>,
    /// +k8s:optional
    /// +k8s:immutable
    #[serde(default)]
    pub size: Option<crate::Quantity>,
    /// +k8s:required
    pub limit: crate::Quantity,
    /// +k8s:optional
    /// +k8s:maxItems=1
    #[serde(default)]
    pub quantities: Option<Vec<crate::Quantity>>,
}
