//! A Kubernetes union written as a Rust enum of one-value variants (serde's externally
//! tagged form, `{"httpGet": {...}}`): each variant is an optional member, exactly one set.

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// How a probe checks a replica.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
pub enum Handler {
    /// An HTTP GET request.
    HttpGet(HttpGet),
    /// A TCP connection to this port.
    /// +k8s:minimum=1
    /// +k8s:maximum=65535
    TcpSocket(i32),
    /// A command to run.
    /// +k8s:minItems=1
    /// +k8s:eachVal=+k8s:maxLength=8
    Exec(Vec<String>),
}

/// An HTTP GET request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub struct HttpGet {
    /// +k8s:required
    /// +k8s:minimum=1
    pub port: i32,
    /// +k8s:optional
    /// +k8s:maxLength=16
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,
}

/// A health probe.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
pub struct Probe {
    /// The handler (a non-pointer struct in Go terms: always present).
    pub handler: Handler,
    /// +k8s:optional
    /// +k8s:listType=atomic
    /// +k8s:maxItems=2
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fallbacks: Vec<Handler>,
    /// +k8s:optional
    /// +k8s:immutable
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial: Option<Handler>,
}
