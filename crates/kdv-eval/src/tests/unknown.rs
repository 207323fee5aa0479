//! Unknown fields as the API server's strict decoding reports them.

use serde_json::json;

use super::fixture;
use crate::{MAX_UNKNOWN_FIELDS, unknown_fields};

const SRC: &str = r#"
package p

type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

type Meta struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels,omitempty"`
}

type Extra struct {
	Note string `json:"note,omitempty"`
}

type Widget struct {
	TypeMeta `json:",inline"`
	*Extra   `json:",inline"`
	Metadata Meta               `json:"metadata"`
	Spec     *Spec              `json:"spec"`
	Hidden   string             `json:"-"`
	Untagged string
}

type Spec struct {
	Replicas int32             `json:"replicas"`
	Ports    []Port            `json:"ports"`
	Volumes  map[string]Volume `json:"volumes"`
	Raw      interface{}       `json:"raw"`
}

type Port struct {
	Name string `json:"name"`
	Port int32  `json:"port"`
}

type Volume struct {
	Size int64 `json:"size"`
}
"#;

fn unknown(value: serde_json::Value) -> Vec<String> {
    let f = fixture(SRC);
    let ty = f.rules.find_type("Widget").unwrap();
    unknown_fields(&f.rules, ty, &value)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn item_05_unknown_fields_are_reported_with_upstream_paths() {
    let got = unknown(json!({
        "apiVersion": "v1", "kind": "Widget", "note": "inline pointer member",
        "metadata": {"name": "w", "labels": {"any": "key"}, "labelz": {}},
        "spec": {
            "replicas": 1, "spce": 1, "Replicas": 2,
            "ports": [{"name": "a", "port": 1}, {"name": "b", "prot": 2}],
            "volumes": {"data": {"size": 1, "sise": 2}},
            "raw": {"anything": {"goes": true}}
        },
        "hidden": 1, "-": 2, "Untagged": "go name", "untagged": "case differs"
    }));
    assert_eq!(
        got,
        [
            r#"unknown field "-""#,
            r#"unknown field "hidden""#,
            r#"unknown field "metadata.labelz""#,
            r#"unknown field "spec.Replicas""#,
            r#"unknown field "spec.ports[1].prot""#,
            r#"unknown field "spec.spce""#,
            r#"unknown field "spec.volumes.data.sise""#,
            r#"unknown field "untagged""#,
        ]
    );
}

#[test]
fn values_of_the_wrong_kind_are_not_looked_into() {
    assert!(unknown(json!({"spec": [{"x": 1}], "metadata": null})).is_empty());
    assert!(unknown(json!({"spec": {"ports": {"x": 1}}})).is_empty());
}

#[test]
fn at_most_a_hundred_each_once() {
    let mut spec = serde_json::Map::new();
    for i in 0..150 {
        spec.insert(format!("x{i:03}"), json!(i));
    }
    let got = unknown(json!({ "spec": spec }));
    assert_eq!(got.len(), MAX_UNKNOWN_FIELDS);
    assert_eq!(got[0], r#"unknown field "spec.x000""#);
    // Two different places that print alike are reported once.
    let got = unknown(json!({"spec": {"volumes": {"a.b": {"c": 1}, "a": {"b.c": 1}}}}));
    assert_eq!(got, [r#"unknown field "spec.volumes.a.b.c""#]);
}
