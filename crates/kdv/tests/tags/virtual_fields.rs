//! Virtual fields (kdv extension, KEP-5073 "Virtual Field Strategy"): the seed's
//! `terminalStatus` union over list-map items (`+k8s:listMapItem` + `+k8s:memberOf`), a
//! zero-or-one-of group of struct fields, and `+k8s:listMapItem` with other tags.
//!
//! +k8s:validation-gen-nolint

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// KEP-5073's `Config` example, as written.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Config {
    /// +k8s:listType=map
    /// +k8s:listMapKey=type
    /// +k8s:union(union: terminalStatus)
    /// +k8s:listMapItem(type: "Succeeded")=+k8s:memberOf(group: terminalStatus)
    /// +k8s:listMapItem(type: "Failed")=+k8s:memberOf(group: terminalStatus)
    pub conditions: Vec<Condition>,
}

/// A condition.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Condition {
    pub r#type: String,
    pub status: String,
}

/// A group of struct fields: at most one source.
///
/// +k8s:zeroOrOneOf(union: source)
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Volume {
    /// +k8s:optional
    /// +k8s:memberOf(group: source)
    pub secret: Option<String>,
    /// +k8s:optional
    /// +k8s:memberOf(group: source)
    pub config_map: Option<String>,
    /// +k8s:optional
    /// +k8s:memberOf(group: source)
    pub host_path: Option<String>,
}

/// `+k8s:listMapItem` with other tags.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Items {
    /// +k8s:listType=map
    /// +k8s:listMapKey=type
    /// +k8s:listMapItem(type: "Ready")=+k8s:subfield(status)=+k8s:maxLength=5
    pub conditions: Vec<Condition>,
}

#[test]
fn the_seeds_terminal_status_union() {
    let create = kdv::Operation::create();
    let cond = |t: &str| Condition {
        r#type: t.into(),
        status: "True".into(),
    };
    let ok = Config {
        conditions: vec![cond("Succeeded"), cond("Ready")],
    };
    assert!(ok.validate(&create).is_empty());
    let texts = |c: &Config| -> Vec<String> {
        c.validate(&create)
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    assert_eq!(
        texts(&Config {
            conditions: vec![cond("Ready")]
        }),
        [
            "conditions: Invalid value: \"\": must specify one of: `conditions[{\"type\": \"Succeeded\"}]`, `conditions[{\"type\": \"Failed\"}]`"
        ]
    );
    assert_eq!(
        texts(&Config {
            conditions: vec![cond("Succeeded"), cond("Failed")]
        }),
        [
            "conditions: Invalid value: \"{conditions[{\\\"type\\\": \\\"Succeeded\\\"}], conditions[{\\\"type\\\": \\\"Failed\\\"}]}\": must specify exactly one of: `conditions[{\"type\": \"Succeeded\"}]`, `conditions[{\"type\": \"Failed\"}]`"
        ]
    );
    let v = Volume {
        secret: Some("s".into()),
        config_map: Some("c".into()),
        host_path: None,
    };
    let texts: Vec<String> = v
        .validate(&create)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        texts,
        [
            "<nil>: Invalid value: \"{secret, configMap}\": must specify at most one of: `secret`, `configMap`, `hostPath`"
        ]
    );
}
