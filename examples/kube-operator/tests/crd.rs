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

fn spec_strategy() -> impl proptest::strategy::Strategy<Value = WidgetSpec> {
    use proptest::prelude::*;
    let name = prop::sample::select(vec!["http", "grpc", "Bad_Name", "a", ""]);
    let port = (
        prop::sample::select(vec!["http", "grpc", "metrics"]),
        -1i32..70000,
    );
    (
        prop::sample::select(vec![-1, 0, 1, 3, 50, 100, 101]),
        prop::sample::select(vec!["nginx", "latest", "", "registry.example.com/app:1"]),
        prop::option::of(prop::sample::select(vec!["fast", "slow", "Fast!", ""])),
        prop::collection::vec(port, 0..4),
        prop::option::of(prop::sample::select(vec![Tier::Basic, Tier::Premium])),
        name,
    )
        .prop_map(|(replicas, image, class, ports, tier, _)| WidgetSpec {
            replicas,
            image: image.into(),
            storage_class: class.map(String::from),
            ports: ports
                .into_iter()
                .map(|(n, p)| WidgetPort {
                    name: n.into(),
                    port: p,
                })
                .collect(),
            tier,
        })
}

fn object(spec: WidgetSpec) -> (Widget, serde_json::Value) {
    let w = Widget::new("w", spec);
    let mut json = serde_json::to_value(&w).expect("serializes");
    json["metadata"]["namespace"] = "default".into();
    (w, json)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 2000, failure_persistence: None, ..Default::default() })]

    /// Random Widgets get the same verdict from the CRD (kdv's API-server pipeline) as from
    /// the tags, on create and on update. (Texts differ by design: kube-openapi's and the
    /// CEL rules' messages.)
    #[test]
    fn random_widgets_get_the_same_verdicts(new in spec_strategy(), old in spec_strategy(), keep in proptest::prelude::any::<bool>()) {
        use std::sync::OnceLock;
        static SET: OnceLock<SchemaSet> = OnceLock::new();
        let set = SET.get_or_init(|| {
            let mut set = SchemaSet::new();
            set.add_crds("widget-crd.yaml", CHECKED_IN.as_bytes()).expect("accepted");
            set
        });
        let resource = set.resource("demo.kdv.dev/v1", "Widget").expect("the kind");
        let (w, json) = object(new.clone());
        let crd = resource.validate(&json, None, &Options::default());
        let tags = validate_widget(&w, None);
        proptest::prop_assert_eq!(crd.errors.is_empty(), tags.is_empty(), "create {}: CRD {:?} vs tags {:?}", json, crd.errors, tags);
        // An update from a valid old object (a stored object), often sharing fields.
        let (ow, ojson) = object(if keep { WidgetSpec { replicas: old.replicas, ..new.clone() } } else { old });
        if validate_widget(&ow, None).is_empty() {
            let crd = resource.validate(&json, Some(&ojson), &Options::default());
            let tags = validate_widget(&w, Some(&ow));
            proptest::prop_assert_eq!(crd.errors.is_empty(), tags.is_empty(), "update {} from {}: CRD {:?} vs tags {:?}", json, ojson, crd.errors, tags);
        }
    }
}
