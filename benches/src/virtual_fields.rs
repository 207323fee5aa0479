//! Virtual-field workloads (KEP-5073's `terminalStatus` union over list-map items, a
//! zero-or-one-of group of struct fields) as Rust types with `#[derive(Validate)]`; the
//! interpreter compiles the same file ([`VIRTUAL_FIELDS_RS`]) as the derive does.

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// This file's text, for the interpreter's rules.
pub const VIRTUAL_FIELDS_RS: &str = include_str!("virtual_fields.rs");

/// KEP-5073's `Config` example.
#[derive(Clone, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Config {
    /// +k8s:listType=map
    /// +k8s:listMapKey=type
    /// +k8s:union(union: terminalStatus)
    /// +k8s:listMapItem(type: "Succeeded")=+k8s:memberOf(group: terminalStatus)
    /// +k8s:listMapItem(type: "Failed")=+k8s:memberOf(group: terminalStatus)
    pub conditions: Vec<Condition>,
}

/// A condition.
#[derive(Clone, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Condition {
    pub r#type: String,
    pub status: String,
}

/// At most one source.
///
/// +k8s:zeroOrOneOf(union: source)
#[derive(Clone, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Volume {
    /// +k8s:optional
    /// +k8s:memberOf(group: source)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// +k8s:optional
    /// +k8s:memberOf(group: source)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config_map: Option<String>,
}

/// A Config with eight conditions, `terminal` of them terminal (Succeeded, then Failed).
pub fn config(terminal: usize) -> Config {
    let kinds = ["Succeeded", "Failed"];
    let mut conditions: Vec<Condition> = (0..8 - terminal)
        .map(|i| Condition {
            r#type: format!("Progress{i}"),
            status: "True".into(),
        })
        .collect();
    conditions.extend(kinds.iter().take(terminal).map(|k| Condition {
        r#type: (*k).into(),
        status: "True".into(),
    }));
    Config { conditions }
}

/// A Volume with `n` of its two sources set.
pub fn volume(n: usize) -> Volume {
    Volume {
        secret: (n >= 1).then(|| "s".into()),
        config_map: (n >= 2).then(|| "c".into()),
    }
}
