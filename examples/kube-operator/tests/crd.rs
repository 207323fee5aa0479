//! The CRD the example publishes: kube's schema with the tags' rules merged in. It is
//! checked in (`widget-crd.yaml`), kept fresh by this test (`KDV_BLESS=1` rewrites it),
//! accepted by kdv's checks of CRD creation, and gives the tags' verdicts.

use kdv_example_kube_operator::{
    Tier, Widget, WidgetPort, WidgetSpec, validate_widget, widget_crd,
};
use kdv_openapi::{Options, SchemaSet};

const CHECKED_IN: &str = include_str!("../widget-crd.yaml");

fn yaml() -> String {
    serde_saphyr::to_string(&widget_crd()).expect("the CRD serializes")
}

#[test]
fn checked_in_crd_is_fresh() {
    let now = yaml();
    if std::env::var_os("KDV_BLESS").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/widget-crd.yaml");
        std::fs::write(path, &now).expect("writes the CRD");
        return;
    }
    assert_eq!(
        CHECKED_IN, now,
        "widget-crd.yaml is stale: rerun with KDV_BLESS=1"
    );
}

#[test]
fn crd_is_accepted_and_carries_the_rules() {
    let mut set = SchemaSet::new();
    set.add_crds("widget-crd.yaml", CHECKED_IN.as_bytes())
        .expect("the API server would accept the CRD");
    let crd = widget_crd();
    let spec = crd
        .pointer("/spec/versions/0/schema/openAPIV3Schema/properties/spec")
        .expect("a spec schema");
    assert_eq!(
        spec.pointer("/properties/replicas/minimum"),
        Some(&1.into())
    );
    assert_eq!(
        spec.pointer("/properties/ports/x-kubernetes-list-type"),
        Some(&"map".into())
    );
}

fn widget(replicas: i32, image: &str, storage_class: &str) -> Widget {
    Widget::new(
        "w",
        WidgetSpec {
            replicas,
            image: image.into(),
            storage_class: Some(storage_class.into()),
            ports: vec![WidgetPort {
                name: "http".into(),
                port: 80,
            }],
            tier: Some(Tier::Basic),
        },
    )
}

/// The CRD and the tags agree on which objects are valid.
#[test]
fn crd_and_tags_agree() {
    let mut set = SchemaSet::new();
    set.add_crds("widget-crd.yaml", CHECKED_IN.as_bytes())
        .expect("accepted");
    let resource = set.resource("demo.kdv.dev/v1", "Widget").expect("the kind");
    let old = widget(3, "nginx", "fast");
    let cases = [
        (widget(3, "nginx", "fast"), None),
        (widget(0, "nginx", "fast"), None),
        (widget(101, "nginx", "fast"), None),
        (widget(3, "latest", "fast"), None),
        (widget(3, "nginx", "Fast!"), None),
        (widget(4, "nginx", "fast"), Some(&old)),
        (widget(4, "nginx", "slow"), Some(&old)),
    ];
    for (w, old) in cases {
        let mut json = serde_json::to_value(&w).expect("serializes");
        json["metadata"]["namespace"] = "default".into();
        let old_json = old.map(|o| {
            let mut j = serde_json::to_value(o).expect("serializes");
            j["metadata"]["namespace"] = "default".into();
            j
        });
        let crd = resource.validate(&json, old_json.as_ref(), &Options::default());
        let tags = validate_widget(&w, old);
        assert_eq!(
            crd.errors.is_empty(),
            tags.is_empty(),
            "{json}: CRD {:?} vs tags {:?}",
            crd.errors,
            tags
        );
    }
}
