//! Equivalence of hand-written and declarative validation on the demo API (`examples/api`
//! in Rust): `kdv::rollout` run with a hand-written validator beside `#[derive(Validate)]`.

#[path = "widget/types.rs"]
mod types;

use kdv::rollout::prometheus_client::encoding::text::encode;
use kdv::rollout::prometheus_client::registry::Registry;
use kdv::rollout::{
    FeatureGates, MigrationChecks, MismatchKind, ObjectIdentity, ValidationMetrics,
    validate_with_migration_checks, validation_identifier,
};
use kdv::{BadValue, ErrorList, FieldError, FieldPath, Operation, OperationKind, Validate};
use types::*;

fn widget(image: &str) -> Widget {
    Widget {
        type_meta: TypeMeta {
            kind: "Widget".into(),
            api_version: "demo.kdv.dev/v1".into(),
        },
        metadata: ObjectMeta {
            name: "w".into(),
            namespace: "default".into(),
            labels: None,
            uid: String::new(),
        },
        spec: WidgetSpec {
            replicas: Some(3),
            image: image.into(),
            tier: None,
            ports: vec![],
            zones: vec![],
            storage_class: String::new(),
            rollout: None,
            owner: String::new(),
            probe: None,
        },
    }
}

/// The hand-written twin of `+k8s:alpha(since: "1.36")=+k8s:neq="latest"` on `spec.image`
/// (marked covered by declarative validation); `reject` says which images it refuses.
fn handwritten(w: &Widget, reject: impl Fn(&str) -> bool) -> ErrorList {
    let mut errs = ErrorList::new();
    if reject(&w.spec.image) {
        let path = FieldPath::new("spec").child("image");
        errs.push(
            path.with_path_ref(|p| {
                FieldError::invalid(p, BadValue::string(&w.spec.image), "must not be \"latest\"")
            })
            .with_origin("neq")
            .mark_covered_by_declarative(),
        );
    }
    errs
}

fn checks(w: &Widget, metrics: &ValidationMetrics) -> MigrationChecks {
    MigrationChecks {
        gates: FeatureGates::default(),
        identifier: validation_identifier(
            Some(&w.type_meta.kind),
            None,
            Some(OperationKind::Create),
        ),
        object: ObjectIdentity {
            kind: w.type_meta.kind.clone(),
            api_version: w.type_meta.api_version.clone(),
            namespace: w.metadata.namespace.clone(),
            name: w.metadata.name.clone(),
        },
        metrics: Some(metrics.clone()),
        // The demo type opts in to declarative enforcement (1.36's
        // `WithDeclarativeEnforcement`): its standard rules are enforced beside HV.
        declarative_enforcement: true,
        ..MigrationChecks::default()
    }
}

fn sample(registry: &Registry, line_start: &str) -> Option<String> {
    let mut text = String::new();
    encode(&mut text, registry).ok()?;
    text.lines()
        .find(|l| l.starts_with(line_start))
        .map(str::to_owned)
}

#[test]
fn matching_lists_have_no_mismatch() {
    let mut registry = Registry::default();
    let metrics = ValidationMetrics::register(&mut registry);
    for image in ["nginx:1.27", "latest"] {
        let w = widget(image);
        let cfg = checks(&w, &metrics);
        let out = validate_with_migration_checks(
            handwritten(&w, |i| i == "latest"),
            || w.validate(&Operation::create()),
            &cfg,
        );
        assert!(out.mismatches.is_empty(), "{image}: {:?}", out.mismatches);
        // The alpha rule is shadowed: the hand-written error is what the caller sees.
        assert!(out.errors.iter().all(|e| e.from_imperative), "{image}");
        assert_eq!(out.errors.len(), usize::from(image == "latest"));
        assert_eq!(out.shadowed.len(), usize::from(image == "latest"));
    }
    assert_eq!(metrics.mismatch_total(), 0);
}

#[test]
fn each_mismatch_kind_is_counted_once_with_its_label() {
    let mut registry = Registry::default();
    let metrics = ValidationMetrics::register(&mut registry);

    // The hand-written validator forgot the rule: DV's alpha error is extra.
    let w = widget("latest");
    let out = validate_with_migration_checks(
        ErrorList::new(),
        || w.validate(&Operation::create()),
        &checks(&w, &metrics),
    );
    assert_eq!(out.mismatches.len(), 1);
    let m = &out.mismatches[0];
    assert_eq!(m.kind, MismatchKind::Extra);
    assert_eq!(m.identifier, "widget_create");
    assert_eq!(m.object.name, "w");
    assert_eq!(
        m.log_line(),
        "Unexpected difference between hand written validation and declarative validation error results, extra error(s) found {Type=\"Invalid value\", Field=\"spec.image\", Origin=\"neq\"}. This indicates an issue with declarative validation. This difference should not affect system operation since hand written validation is authoritative."
    );
    assert!(out.errors.is_empty(), "alpha errors are shadowed");
    assert_eq!(metrics.mismatch_total(), 1);

    // The hand-written validator refuses more than the tag: its error is unmatched.
    let w = widget("nginx:latest");
    let out = validate_with_migration_checks(
        handwritten(&w, |i| i.ends_with("latest")),
        || w.validate(&Operation::create()),
        &checks(&w, &metrics),
    );
    assert_eq!(out.mismatches.len(), 1);
    assert_eq!(out.mismatches[0].kind, MismatchKind::Unmatched);
    assert_eq!(
        out.errors.len(),
        1,
        "hand-written validation stays authoritative"
    );
    assert_eq!(metrics.mismatch_total(), 2);
    assert_eq!(
        sample(
            &registry,
            "apiserver_validation_declarative_validation_parity_discrepancies_total"
        )
        .as_deref(),
        Some(
            "apiserver_validation_declarative_validation_parity_discrepancies_total{validation_identifier=\"widget_create\"} 2"
        )
    );
}

#[test]
fn standard_rules_are_enforced_beside_handwritten_ones() {
    let mut registry = Registry::default();
    let metrics = ValidationMetrics::register(&mut registry);
    let mut w = widget("latest");
    w.spec.replicas = Some(0);
    let out = validate_with_migration_checks(
        handwritten(&w, |i| i == "latest"),
        || w.validate(&Operation::create()),
        &checks(&w, &metrics),
    );
    let texts: Vec<String> = out.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        texts,
        [
            "spec.image: Invalid value: \"latest\": must not be \"latest\"",
            "spec.replicas: Invalid value: 0: must be greater than or equal to 1",
        ]
    );
    assert!(out.mismatches.is_empty());
}
