//! `kdv explain` end to end: the example API's types and fields (tags, lifecycle marks,
//! ratcheting, what schema emission publishes), a CRD from the repository's test data (value
//! keywords and CEL rules at their lines), a transition rule, and the errors for unknown
//! names (exit status 2, nearest names).

mod common;
use common::kdv;

#[test]
fn a_type_of_the_example_api() {
    let run = kdv(&["explain", "--types", "examples/api", "WidgetSpec"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn a_field_with_an_alpha_rule() {
    let run = kdv(&["explain", "--types", "examples/api", "Widget", "spec.image"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains(
        "  spec.image: +k8s:alpha(since: \"1.36\")=+k8s:neq=\"latest\"  examples/api/types.go:59:32\n    rule        must not equal latest\n    lifecycle   alpha: always shadowed; hand-written validation wins and mismatches are reported through metrics\n"
    ), "{}", run.stdout);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn declarative_native_fields_and_unions() {
    let types = "crates/kdv-cli/tests/fixtures/tags/native";
    let run = kdv(&["explain", "--types", types, "DeclarativeValidationNative"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!("native_type", run.stdout);
    // A field below a native field is declarative-only too; a sibling without the tag is not.
    let run = kdv(&[
        "explain",
        "--types",
        types,
        "DeclarativeValidationNative",
        "spec.replicas",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("lifecycle   declarative-native"),
        "{}",
        run.stdout
    );
    let run = kdv(&[
        "explain",
        "--types",
        types,
        "DeclarativeValidationNative",
        "plain",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("declarative-native"), "{}", run.stdout);
}

#[test]
fn list_items_and_subfields() {
    for (path, name) in [
        ("spec.ports[*].port", "ports_item_port"),
        ("spec.zones[]", "zones_items"),
        ("spec.rollout", "rollout_subfield"),
        ("spec.zones", "zones"),
    ] {
        let run = kdv(&["explain", "--types", "examples/api", "Widget", path]);
        assert_eq!(run.code, 0, "{path}: {}", run.stderr);
        insta::assert_snapshot!(name, run.stdout);
    }
}

#[test]
fn json_output() {
    let run = kdv(&[
        "explain",
        "--types",
        "examples/api",
        "Widget",
        "spec.replicas",
        "-o",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(v["subject"], "Widget spec.replicas");
    assert_eq!(v["value_type"], "*int32");
    let rules = v["rules"].as_array().unwrap();
    let sources: Vec<&str> = rules
        .iter()
        .map(|r| r["source"].as_str().unwrap())
        .collect();
    assert_eq!(
        sources,
        ["+k8s:required", "+k8s:maximum=100", "+k8s:minimum=1"]
    );
    assert_eq!(rules[1]["location"], "examples/api/types.go:53:6");
    assert_eq!(rules[1]["published"], "OpenAPI keyword `maximum: 100`");
    assert_eq!(
        rules[1]["ratcheting"],
        "skipped on update when the field is unchanged (Go ==)"
    );
}

#[test]
fn a_crd_kind_and_fields() {
    let crd = "testdata/cli-workload/crds/widget-crd.yaml";
    let run = kdv(&["explain", "--crd", crd, "Widget", "spec"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains(
        "  spec: x-kubernetes-validations[0]  testdata/cli-workload/crds/widget-crd.yaml:31:15\n    rule        CEL: self.minReplicas <= self.maxReplicas (message: \"minReplicas must be <= maxReplicas\")\n"
    ), "{}", run.stdout);
    insta::assert_snapshot!("crd_spec", run.stdout);
    let run = kdv(&[
        "explain",
        "--crd",
        "testdata/cli-workload/crds",
        "Widget.anchor.example.com",
        "spec.ports[*].port",
        "--api-version",
        "v1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!("crd_port", run.stdout);
}

#[test]
fn a_crd_transition_rule() {
    let run = kdv(&[
        "explain",
        "--crd",
        "examples/kube-operator/widget-crd.yaml",
        "Widget",
        "spec",
        "-o",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let transition = v["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rule"].as_str().unwrap().contains("oldSelf"))
        .expect("a transition rule");
    assert_eq!(
        transition["ratcheting"],
        "transition rule (uses oldSelf): evaluated only on update with a correlated old value; not ratcheted"
    );
    assert_eq!(
        transition["lifecycle"],
        "enforced: a CRD's schema has no lifecycle prefixes"
    );
}

#[test]
fn unknown_names_list_the_nearest() {
    let run = kdv(&["explain", "--types", "examples/api", "Widgt"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: Widgt: no such type in examples/api; nearest: Widget, Tier, Probe, WidgetPort, WidgetSpec\n"
    );
    let run = kdv(&[
        "explain",
        "--types",
        "examples/api",
        "Widget",
        "spec.replica",
    ]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: Widget: no field spec.replica in spec; nearest: replicas, rollout, ports, probe, tier\n"
    );
    let run = kdv(&[
        "explain",
        "--types",
        "examples/api",
        "Widget",
        "spec.image[*]",
    ]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: Widget: spec.image is not a list or map, it has no items [*]\n"
    );
    let run = kdv(&[
        "explain",
        "--types",
        "examples/api",
        "Widget",
        "spec.ports[0]",
    ]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: \"spec.ports[0]\": list items and map values are written [*] (expected a JSON path such as spec.replicas or spec.ports[*].port)\n"
    );
    let crd = "testdata/cli-workload/crds/widget-crd.yaml";
    let run = kdv(&["explain", "--crd", crd, "Widget", "spec.tier.x"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: Widget v1: no field spec.tier.x in spec.tier\n"
    );
    let run = kdv(&["explain", "--crd", crd, "Widget", "spec.replica"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: Widget v1: no field spec.replica in spec; nearest: replicas, maxReplicas, minReplicas, rollout, endpoint\n"
    );
    let run = kdv(&["explain", "--crd", crd, "Gadget"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: Gadget: no CRD defines this kind; nearest: Widget\n"
    );
    let run = kdv(&["explain", "--crd", crd, "Widget", "--api-version", "v2"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: --api-version v2: Widget has the versions v1\n"
    );
    let run = kdv(&["explain", "Widget"]);
    assert_eq!(run.code, 2);
}

#[test]
fn rust_types() {
    let run = kdv(&[
        "explain",
        "--types",
        "crates/kdv/tests/widget/types.rs",
        "WidgetSpec",
        "replicas",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with(
            "WidgetSpec replicas (*int32)\n\n  replicas: +k8s:required  crates/kdv/tests/widget/types.rs:77:10\n"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn beta_rules_and_rules_under_options() {
    let dir = "crates/kdv-cli/tests/fixtures/tags/options";
    let run = kdv(&["explain", "--types", dir, "Beta"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "Beta (Beta)\n\n  offset: +k8s:beta(since: \"1.36\")=+k8s:minimum=0  crates/kdv-cli/tests/fixtures/tags/options/types.go:36:31\n    rule        must be greater than or equal to 0\n    lifecycle   beta: enforced while DeclarativeValidationBeta is on (the default), shadowed when it is off\n    ratcheting  skipped on update when the field is unchanged (Go ==)\n    published   OpenAPI keyword `minimum: 0`\n"
    );
    let run = kdv(&["explain", "--types", dir, "IfEnabled", "name"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "    rule        when option StrictNames is enabled: must have format k8s-short-name\n"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("    published   not publishable: depends on the option `StrictNames`"),
        "{}",
        run.stdout
    );
}

#[test]
fn types_with_errors_are_not_explained() {
    let run = kdv(&[
        "explain",
        "--types",
        "crates/kdv-cli/tests/fixtures/bad-api",
        "Widget",
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr
            .ends_with("`kdv lint --types crates/kdv-cli/tests/fixtures/bad-api` lists them\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn exclusive_bounds_show_the_bound_their_flag_qualifies() {
    let types = "crates/kdv-cli/tests/fixtures/tags/extensions";
    let run = kdv(&["explain", "--types", types, "ExclusiveMinimum", "offset"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("    published   OpenAPI keywords `minimum: -5, exclusiveMinimum: true`\n"),
        "{}",
        run.stdout
    );
    let run = kdv(&["explain", "--types", types, "ExclusiveMaximum", "percent"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("    published   OpenAPI keywords `maximum: 100, exclusiveMaximum: true`\n"),
        "{}",
        run.stdout
    );
}

/// Item-level update constraints (a kdv extension): the rule, where it is checked, and the
/// transition rules a schema carries.
#[test]
fn item_level_update_constraints() {
    let run = kdv(&[
        "explain",
        "--types",
        "crates/kdv-cli/tests/fixtures/tags/itemupdates",
        "CertificateSigningRequest",
        "status.conditions",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for line in [
        "rule        the item {\"type\": \"Approved\"} may not be added on update (kdv extension +k8s:item(...)=+k8s:update, checked at the list)",
        "rule        the item {\"type\": \"Denied\"} may not be removed on update (clearing the list included) (kdv extension +k8s:item(...)=+k8s:update, checked at the list)",
        "published   CEL rule {\"message\":\"field cannot be set once created\"",
        "published   CEL rule {\"message\":\"field cannot be modified once set\"",
        "\"fieldPath\":\".conditions\",\"message\":\"field cannot be cleared once set\"",
    ] {
        assert!(run.stdout.contains(line), "{line}\n{}", run.stdout);
    }
}

/// A field bounded by another field (a kdv extension): the check lives at the struct, and
/// explaining the field shows it, for the field form and the `eachVal` form.
#[test]
fn cross_field_limits_at_their_field() {
    let types = "crates/kdv-cli/tests/fixtures/tags/crossfield";
    let run = kdv(&["explain", "--types", types, "Config", "current"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains(
        "  current: +k8s:minimum(constraint: minValue)  crates/kdv-cli/tests/fixtures/tags/crossfield/types.go:16:6\n    rule        current must be greater than or equal to the value of minValue"
    ), "{}", run.stdout);
    let run = kdv(&["explain", "--types", types, "Comprehensive", "thresholds"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains(
        "    rule        each item of thresholds must be less than or equal to the value of maxThreshold"
    ), "{}", run.stdout);
    assert!(
        run.stdout.contains("self.thresholds.all(x, x <= "),
        "{}",
        run.stdout
    );
}
