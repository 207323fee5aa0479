//! Virtual fields (kdv extension, KEP-5073 "Virtual Field Strategy"): the seed's
//! `terminalStatus` group over list-map items, a group of struct fields, and the lowering
//! errors (undeclared, empty, cross-type groups).

use super::*;

const SEED: &str = r#"
package p

type Config struct {
	// +k8s:listType=map
	// +k8s:listMapKey=type
	// +k8s:union(union: terminalStatus)
	// +k8s:listMapItem(type: "Succeeded")=+k8s:memberOf(group: terminalStatus)
	// +k8s:listMapItem(type: "Failed")=+k8s:memberOf(group: terminalStatus)
	Conditions []Condition `json:"conditions"`
}

type Condition struct {
	Type   string `json:"type"`
	Status string `json:"status"`
}

// +k8s:zeroOrOneOf(union: source)
type Volume struct {
	// +k8s:optional
	// +k8s:memberOf(group: source)
	Secret *string `json:"secret,omitempty"`
	// +k8s:optional
	// +k8s:memberOf(group: source)
	ConfigMap *string `json:"configMap,omitempty"`
}
"#;

#[test]
fn the_seeds_terminal_status_union() {
    let f = fixture(SEED);
    assert!(
        f.create(
            "Config",
            r#"{"conditions": [{"type": "Succeeded", "status": "True"}, {"type": "Ready"}]}"#
        )
        .is_empty()
    );
    assert_eq!(
        f.create("Config", r#"{"conditions": [{"type": "Ready"}]}"#),
        strs(&[
            "conditions: Invalid value: \"\": must specify one of: `conditions[{\"type\": \"Succeeded\"}]`, `conditions[{\"type\": \"Failed\"}]` [union]"
        ])
    );
    assert_eq!(
        f.create(
            "Config",
            r#"{"conditions": [{"type": "Succeeded"}, {"type": "Failed"}]}"#
        ),
        strs(&[
            "conditions: Invalid value: \"{conditions[{\\\"type\\\": \\\"Succeeded\\\"}], conditions[{\\\"type\\\": \\\"Failed\\\"}]}\": must specify exactly one of: `conditions[{\"type\": \"Succeeded\"}]`, `conditions[{\"type\": \"Failed\"}]` [union]"
        ])
    );
}

#[test]
fn a_group_of_struct_fields() {
    let f = fixture(SEED);
    assert!(f.create("Volume", r#"{}"#).is_empty());
    assert!(f.create("Volume", r#"{"secret": "s"}"#).is_empty());
    assert_eq!(
        f.create("Volume", r#"{"secret": "s", "configMap": "c"}"#),
        strs(&[
            "<nil>: Invalid value: \"{secret, configMap}\": must specify at most one of: `secret`, `configMap` [zeroOrOneOf]"
        ])
    );
}
