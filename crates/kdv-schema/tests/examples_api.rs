//! The CRD of the repository's example API: accepted by kdv's CRD write-time checks
//! (structural schema, CEL compilation and cost), snapshotted.

mod common;

use common::*;
use kdv_schema::{CrdOptions, crd};

#[test]
fn widget_crd_is_accepted_and_snapshotted() {
    let rules = rules_of_dir(&examples_api());
    let widget = ty(&rules, "Widget");
    let emitted = crd(&rules, widget, &CrdOptions::default()).expect("crd");
    assert_crd_accepted(&emitted.schema);
    insta::assert_snapshot!(
        "widget_crd",
        serde_json::to_string_pretty(&emitted.schema).unwrap()
    );
    let notes: Vec<String> = emitted.notes.iter().map(|n| n.to_string()).collect();
    insta::assert_snapshot!("widget_notes", notes.join("\n"));
}

#[test]
fn published_rules_name_their_tags_and_paths() {
    let rules = rules_of_dir(&examples_api());
    let widget = ty(&rules, "Widget");
    let emitted = kdv_schema::emit(&rules, widget, &kdv_schema::EmitOptions::default());
    let image = emitted
        .published
        .iter()
        .find(|p| p.path == "spec.image")
        .expect("the neq rule of spec.image");
    assert_eq!(image.tag, "+k8s:neq");
    assert_eq!(image.rule["rule"], "self != \"latest\"");
    let span = image.span.as_ref().expect("a span");
    assert_eq!((span.line, span.col), (59, 32));
    // Transition rules live on the struct holding the field.
    let immutable = emitted
        .published
        .iter()
        .find(|p| p.tag == "+k8s:immutable" && p.path == "spec")
        .expect("the storageClass transition rule");
    assert_eq!(immutable.rule["fieldPath"], ".storageClass");
    // Every rule of the schema is listed once.
    fn count(v: &serde_json::Value) -> usize {
        let own = v
            .get("x-kubernetes-validations")
            .and_then(|r| r.as_array())
            .map_or(0, Vec::len);
        own + match v {
            serde_json::Value::Object(m) => m
                .iter()
                .filter(|(k, _)| k.as_str() != "x-kubernetes-validations")
                .map(|(_, x)| count(x))
                .sum(),
            serde_json::Value::Array(a) => a.iter().map(count).sum(),
            _ => 0,
        }
    }
    assert_eq!(emitted.published.len(), count(&emitted.schema));
}
