//! `#[derive(Validate)]` on the demo API: generated validation gives the interpreter's
//! results.

#[path = "widget/types.rs"]
mod types;

use kdv::{Operation, Validate};
use types::*;

fn valid() -> Widget {
    Widget {
        type_meta: TypeMeta {
            kind: "Widget".into(),
            api_version: "demo.kdv.dev/v1".into(),
        },
        metadata: ObjectMeta {
            name: "w".into(),
            namespace: String::new(),
            labels: None,
            uid: String::new(),
        },
        spec: WidgetSpec {
            replicas: Some(3),
            image: "nginx:1.27".into(),
            tier: None,
            ports: vec![WidgetPort {
                name: "http".into(),
                port: 80,
                protocol: None,
            }],
            zones: vec![],
            storage_class: String::new(),
            rollout: None,
            owner: String::new(),
            probe: None,
        },
    }
}

#[test]
fn valid_widget_has_no_errors() {
    let w = valid();
    assert!(w.validate(&Operation::create()).is_empty());
    assert!(w.validate_update(&w, &Operation::update()).is_empty());
}

#[test]
fn invalid_widget_errors() {
    let mut w = valid();
    w.spec.replicas = Some(0);
    w.spec.image = "latest".into();
    let errs: Vec<String> = w
        .validate(&Operation::create())
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(
        errs,
        [
            "spec.replicas: Invalid value: 0: must be greater than or equal to 1",
            "spec.image: Invalid value: \"latest\": must not be equal to \"latest\"",
        ]
    );
}

#[path = "support/differential.rs"]
mod differential;

/// Generated validation and the interpreter agree on 10,000 random Widgets (create, and
/// update from a mostly-equal old Widget).
#[test]
fn widget_agrees_with_the_interpreter() {
    let source = include_str!("widget/types.rs");
    let stats = differential::check::<Widget>("types.rs", source, "Widget", 10_000);
    eprintln!("{stats:?}");
    assert_eq!(stats.cases, 10_000);
    stats.assert_mixed();
}

#[test]
fn validate_at_prefixes_the_path() {
    let mut w = valid();
    w.spec.replicas = Some(0);
    let path = kdv::FieldPath::default().child("spec");
    let errs = w.spec.validate_at(&path, None, &Operation::create());
    assert_eq!(
        errs[0].to_string(),
        "spec.replicas: Invalid value: 0: must be greater than or equal to 1"
    );
}

#[test]
fn schema_publishes_the_rules() {
    let s = kdv::schema::<WidgetSpec>();
    assert_eq!(s.pointer("/properties/replicas/minimum"), Some(&1.into()));
    assert_eq!(s.pointer("/properties/replicas/maximum"), Some(&100.into()));
    assert_eq!(
        s.pointer("/properties/ports/x-kubernetes-list-map-keys/0"),
        Some(&"name".into())
    );
    // The schema of a type that is only a part of an object merges into another
    // generator's schema of the same shape.
    let mut target = serde_json::json!({
        "type": "object",
        "description": "Spec.\n+k8s:optional",
        "properties": {"replicas": {"type": "integer", "description": "n"}},
        "required": ["image"],
    });
    kdv::merge_schema(&mut target, &s);
    assert_eq!(target["description"], "Spec.");
    assert_eq!(target["properties"]["replicas"]["minimum"], 1);
    assert_eq!(target["properties"]["replicas"]["description"], "n");
    assert!(target["required"].as_array().is_some_and(|r| r.len() >= 2));
}
