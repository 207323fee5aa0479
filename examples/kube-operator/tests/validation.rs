//! The Widget's rules in unit tests, with no cluster.

use kdv_example_kube_operator::{Tier, Widget, WidgetPort, WidgetSpec, validate_widget};

fn widget(replicas: i32, storage_class: &str) -> Widget {
    Widget::new(
        "w",
        WidgetSpec {
            replicas,
            image: "nginx:1.27".into(),
            storage_class: Some(storage_class.into()),
            ports: vec![WidgetPort {
                name: "http".into(),
                port: 80,
            }],
            tier: Some(Tier::Premium),
        },
    )
}

fn texts(w: &Widget, old: Option<&Widget>) -> Vec<String> {
    validate_widget(w, old)
        .iter()
        .map(|e| e.to_string())
        .collect()
}

#[test]
fn create() {
    assert!(texts(&widget(3, "fast"), None).is_empty());
    let mut bad = widget(0, "Fast!");
    bad.spec.image = "latest".into();
    bad.spec.ports.push(WidgetPort {
        name: "http".into(),
        port: 70000,
    });
    assert_eq!(
        texts(&bad, None),
        [
            "spec.replicas: Required value",
            "spec.image: Invalid value: \"latest\": must not be equal to \"latest\"",
            "spec.storageClass: Invalid value: \"Fast!\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            "spec.ports[1]: Duplicate value: {\"name\":\"http\",\"port\":70000}",
            "spec.ports[1].port: Invalid value: 70000: must be less than or equal to 65535",
        ]
    );
}

#[test]
fn update_ratchets_and_keeps_immutable_fields() {
    let old = widget(3, "fast");
    // A change elsewhere is fine.
    assert!(texts(&widget(5, "fast"), Some(&old)).is_empty());
    // The storage class cannot change.
    assert_eq!(
        texts(&widget(5, "slow"), Some(&old)),
        ["spec.storageClass: Invalid value: null: field is immutable"]
    );
    // A stored object that violates a rule added later still updates when the offending
    // field is unchanged (ratcheting)...
    let mut stored = widget(3, "fast");
    stored.spec.image = "latest".into();
    let mut next = stored.clone();
    next.spec.replicas = 4;
    assert!(texts(&next, Some(&stored)).is_empty());
    // ...but not when it changes.
    next.spec.image = "x".repeat(300);
    assert_eq!(
        texts(&next, Some(&stored)),
        ["spec.image: Too long: may not be more than 256 characters"]
    );
}
