//! The demo API of `examples/api` in Rust, validated by `#[derive(Validate)]` (the
//! fixture of kdv-rust-model's tests, with unit enums made optional as Rust spells a
//! string enum that may be unset).
//!
//! +k8s:validation-gen=TypesWithField=TypeMeta
//! +groupName=demo.kdv.dev

use std::collections::BTreeMap;

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// TypeMeta describes an object's kind and API version (like metav1.TypeMeta).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
pub struct TypeMeta {
    /// Kind is the type of the object, in CamelCase.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// APIVersion is the group/version of the object's schema.
    #[serde(
        rename = "apiVersion",
        default,
        skip_serializing_if = "String::is_empty"
    )]
    pub api_version: String,
}

/// ObjectMeta is the metadata every stored object carries (a subset of metav1.ObjectMeta).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub struct ObjectMeta {
    /// Name is unique within a namespace and appears in URLs and DNS names.
    /// +k8s:required
    /// +k8s:format=k8s-long-name
    pub name: String,

    /// Namespace the object lives in.
    /// +k8s:optional
    /// +k8s:format=k8s-short-name
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,

    /// Labels organise and select objects.
    /// +k8s:optional
    /// +k8s:maxProperties=16
    /// +k8s:eachKey=+k8s:format=k8s-label-key
    /// +k8s:eachVal=+k8s:format=k8s-label-value
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<BTreeMap<String, String>>,

    /// UID is assigned by the server when the object is created and never changes.
    /// +k8s:optional
    /// +k8s:format=k8s-uuid
    /// +k8s:immutable
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub uid: String,
}

/// Widget is a demo resource: a number of replicas of an image, serving on named ports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub struct Widget {
    #[serde(flatten)]
    pub type_meta: TypeMeta,

    /// Standard object metadata.
    pub metadata: ObjectMeta,

    /// Spec is the desired state of the widget.
    pub spec: WidgetSpec,
}

/// WidgetSpec is the desired state of a Widget.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
pub struct WidgetSpec {
    /// Replicas is the number of instances to run.
    /// +k8s:required
    /// +k8s:minimum=1
    /// +k8s:maximum=100
    pub replicas: Option<i32>,

    /// Image is the container image to run. A moving "latest" tag is not allowed.
    /// +k8s:required
    /// +k8s:maxLength=256
    /// +k8s:alpha(since: "1.36")=+k8s:neq="latest"
    pub image: String,

    /// Tier is the service class; Basic when unset.
    /// +k8s:optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tier: Option<Tier>,

    /// Ports the widget serves on, keyed by name.
    /// +k8s:optional
    /// +k8s:listType=map
    /// +k8s:listMapKey=name
    /// +k8s:maxItems=8
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<WidgetPort>,

    /// Zones the widget may run in, each listed once. Zones can be added, but a zone
    /// holding the widget's data cannot be removed.
    /// +k8s:optional
    /// +k8s:listType=set
    /// +k8s:maxItems=3
    /// +k8s:eachVal=+k8s:format=k8s-short-name
    /// +k8s:update=NoRemoveItem
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<String>,

    /// StorageClass of the widget's volume; it cannot change after creation.
    /// +k8s:optional
    /// +k8s:immutable
    /// +k8s:format=k8s-long-name
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub storage_class: String,

    /// Rollout tunes how changes are rolled out. Widgets allow at most 10 unavailable
    /// replicas, a tighter bound than RolloutStrategy itself has.
    /// +k8s:optional
    /// +k8s:subfield(maxUnavailable)=+k8s:maximum=10
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rollout: Option<RolloutStrategy>,

    /// Owner is the team responsible for the widget. It may be handed over, but once
    /// assigned it cannot be cleared.
    /// +k8s:optional
    /// +k8s:format=k8s-short-name
    /// +k8s:update=NoUnset
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub owner: String,

    /// Probe checks that a replica is healthy.
    /// +k8s:optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probe: Option<Probe>,
}

/// Probe checks a replica's health with exactly one handler: the one its type names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
pub struct Probe {
    /// Type names the handler in use: HTTPGet or TCPSocket.
    /// +k8s:required
    /// +k8s:beta(since: "1.36")=+k8s:unionDiscriminator
    pub r#type: String,

    /// HTTPGet probes with an HTTP GET request.
    /// +k8s:optional
    /// +k8s:unionMember(memberName: "HTTPGet")
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_get: Option<HTTPGetAction>,

    /// TCPSocket probes by opening a TCP connection.
    /// +k8s:optional
    /// +k8s:unionMember(memberName: "TCPSocket")
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp_socket: Option<TCPSocketAction>,

    /// PeriodSeconds is how often to probe.
    /// +k8s:optional
    /// +k8s:minimum=1
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period_seconds: Option<i32>,
}

/// HTTPGetAction is an HTTP GET request to a port of the widget.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub struct HTTPGetAction {
    /// Path to request.
    /// +k8s:optional
    /// +k8s:maxLength=256
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,

    /// Port to connect to.
    /// +k8s:required
    /// +k8s:minimum=1
    /// +k8s:maximum=65535
    pub port: i32,
}

/// TCPSocketAction opens a TCP connection to a port of the widget.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub struct TCPSocketAction {
    /// Port to connect to.
    /// +k8s:required
    /// +k8s:minimum=1
    /// +k8s:maximum=65535
    pub port: i32,
}

/// Tier is the service class of a widget.
/// +k8s:enum
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub enum Tier {
    /// TierBasic is the default class.
    Basic,
    /// TierStandard adds redundancy.
    Standard,
    /// TierPremium adds redundancy and priority support.
    Premium,
}

/// WidgetPort is one named port of a widget.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub struct WidgetPort {
    /// Name identifies the port within the widget.
    /// +k8s:required
    /// +k8s:format=k8s-short-name
    pub name: String,

    /// Port is the port number.
    /// +k8s:required
    /// +k8s:minimum=1
    /// +k8s:maximum=65535
    pub port: i32,

    /// Protocol of the port; TCP when unset.
    /// +k8s:optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<Protocol>,
}

/// Protocol is a network protocol.
/// +k8s:enum
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
#[serde(rename_all = "UPPERCASE")]
pub enum Protocol {
    /// ProtocolTCP is TCP.
    Tcp,
    /// ProtocolUDP is UDP.
    Udp,
}

/// RolloutStrategy tunes how changes to a workload are rolled out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
pub struct RolloutStrategy {
    /// MaxUnavailable is how many replicas may be unavailable during a rollout.
    /// +k8s:optional
    /// +k8s:minimum=0
    /// +k8s:maximum=100
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<i32>,

    /// PauseSeconds is how long to wait between batches.
    /// +k8s:optional
    /// +k8s:minimum=0
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pause_seconds: Option<i32>,
}
