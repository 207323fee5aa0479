//! A kube-rs operator's custom resource with kdv's `+k8s:` tags: kube keeps generating the
//! `Widget` resource type and its CRD (`#[derive(CustomResource, JsonSchema)]`); kdv's
//! `#[derive(Validate)]` on the spec generates the tags' validation, so the operator's unit
//! tests check create and update with no cluster.

use kdv::{ErrorList, FieldPath, Operation, Validate};
use kube::{CustomResource, CustomResourceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The desired state of a Widget.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq, JsonSchema, Validate)]
#[kube(group = "demo.kdv.dev", version = "v1", kind = "Widget", namespaced)]
#[serde(rename_all = "camelCase")]
pub struct WidgetSpec {
    /// Replicas is the number of instances to run.
    /// +k8s:required
    /// +k8s:minimum=1
    /// +k8s:maximum=100
    pub replicas: i32,

    /// Image is the container image to run; the moving "latest" tag is not allowed.
    /// +k8s:required
    /// +k8s:maxLength=256
    /// +k8s:neq="latest"
    pub image: String,

    /// StorageClass of the widget's volume; it cannot change after creation.
    /// +k8s:optional
    /// +k8s:format=k8s-long-name
    /// +k8s:immutable
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_class: Option<String>,

    /// Ports the widget serves on, keyed by name.
    /// +k8s:optional
    /// +k8s:listType=map
    /// +k8s:listMapKey=name
    /// +k8s:maxItems=8
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<WidgetPort>,

    /// Tier is the service class.
    /// +k8s:optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tier: Option<Tier>,
}

/// One named port of a widget.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, JsonSchema, Validate)]
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
}

/// The service class of a widget.
/// +k8s:enum
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, JsonSchema, Validate)]
pub enum Tier {
    /// The default class.
    Basic,
    /// Adds redundancy.
    Premium,
}

/// Validates a Widget as the API server would run the tags' rules on its spec: on create
/// (`old` is `None`) or on an update from `old` (with ratcheting).
pub fn validate_widget(widget: &Widget, old: Option<&Widget>) -> ErrorList {
    let op = if old.is_some() {
        Operation::update()
    } else {
        Operation::create()
    };
    let spec = FieldPath::default().child("spec");
    widget.spec.validate_at(&spec, old.map(|o| &o.spec), &op)
}

/// The Widget CRD: the schema kube derives from the Rust types (with schemars), with the
/// rules of the spec's tags merged in (`kdv::schema`), so the cluster enforces what the
/// tags say.
pub fn widget_crd() -> serde_json::Value {
    // kube's CRD type always serializes.
    let mut crd = serde_json::to_value(Widget::crd()).unwrap_or_default();
    let rules = kdv::schema::<WidgetSpec>();
    if let Some(versions) = crd
        .pointer_mut("/spec/versions")
        .and_then(serde_json::Value::as_array_mut)
    {
        for v in versions {
            if let Some(spec) = v.pointer_mut("/schema/openAPIV3Schema/properties/spec") {
                kdv::merge_schema(spec, &rules);
            }
        }
    }
    crd
}
