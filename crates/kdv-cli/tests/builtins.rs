//! Built-in kinds as their release's API server judges them, with no flag but the release
//! (issue 20): the published OpenAPI checks and the release's declarative `+k8s:` rules of
//! kubernetes/api, each error once; the status subresource's strategy; a Scale body; one
//! release knob; `kdv explain` of a built-in kind.

mod common;
use common::kdv;

const DIR: &str = "crates/kdv-cli/tests/fixtures/builtins";

fn file(name: &str) -> String {
    format!("{DIR}/{name}")
}

#[test]
fn declarative_rules_of_the_release_run_with_zero_flags() {
    let rc = file("rc-negative-replicas.yaml");
    let run = kdv(&["validate", "--k8s-version", "1.35", &rc]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(
        run.stdout,
        format!(
            "{rc}:8:13: spec.replicas: Invalid value: -2: must be greater than or equal to 0\n"
        )
    );
    // The API server's alias of the knob is the same knob.
    let alias = kdv(&["validate", "--emulated-version", "1.35", &rc]);
    assert_eq!((alias.code, &alias.stdout), (1, &run.stdout));
    // The origin says which rule it was (JSON).
    let json = kdv(&["validate", "--k8s-version", "1.35", "-o", "json", &rc]);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    assert_eq!(report["documents"][0]["errors"][0]["origin"], "minimum");
    // Before 1.33 kubernetes/api carried no validation tags: the release's server would not
    // run this rule.
    let old = kdv(&["validate", "--k8s-version", "1.32", &rc]);
    assert_eq!(old.code, 0, "{}", old.transcript());
}

#[test]
fn defaults_apply_before_the_declarative_rules() {
    // `+k8s:optional` with `+default=1`: required after defaulting; the server defaults it.
    let run = kdv(&[
        "validate",
        "--k8s-version",
        "1.35",
        &file("rc-default-replicas.yaml"),
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
}

#[test]
fn the_status_subresource_writes_only_status() {
    let csr = file("csr.yaml");
    let current = file("csr-current.yaml");
    // On create the strategy drops status: the conflicting conditions are not written.
    let create = kdv(&["validate", "--k8s-version", "1.35", &csr]);
    assert_eq!(create.code, 0, "{}", create.transcript());
    // A status update writes them.
    let update = kdv(&[
        "validate",
        "--k8s-version",
        "1.35",
        "--subresource",
        "status",
        "--old",
        &current,
        &csr,
    ]);
    assert_eq!(update.code, 1, "{}", update.transcript());
    assert_eq!(
        update.stdout,
        format!(
            "{csr}:13:5: status.conditions: Invalid value: \"{{conditions[{{\\\"type\\\": \\\"Approved\\\"}}], conditions[{{\\\"type\\\": \\\"Denied\\\"}}]}}\": must specify at most one of: `conditions[{{\"type\": \"Approved\"}}]`, `conditions[{{\"type\": \"Denied\"}}]`\n"
        )
    );
    // A status request is an UPDATE.
    let alone = kdv(&[
        "validate",
        "--k8s-version",
        "1.35",
        "--subresource",
        "status",
        &csr,
    ]);
    assert_eq!(alone.code, 2, "{}", alone.transcript());
    assert!(
        alone
            .stderr
            .contains("--subresource status: a status request is an UPDATE"),
        "{}",
        alone.transcript()
    );
    // A kind without the subresource.
    let rc = file("rc-default-replicas.yaml");
    let no = kdv(&[
        "validate",
        "--k8s-version",
        "1.35",
        "--subresource",
        "status",
        "--old",
        &rc,
        &rc,
    ]);
    assert_eq!(no.code, 0, "{}", no.transcript());
}

#[test]
fn a_scale_body_is_validated_as_the_scale_request() {
    let scale = file("scale.yaml");
    let expected = format!(
        "{scale}:7:13: spec.replicas: Invalid value: -1: must be greater than or equal to 0\n"
    );
    for extra in [&[][..], &["--subresource", "scale"][..]] {
        let mut args = vec!["validate", "--k8s-version", "1.35"];
        args.extend_from_slice(extra);
        args.push(&scale);
        let run = kdv(&args);
        assert_eq!(run.code, 1, "{extra:?}: {}", run.transcript());
        assert_eq!(run.stdout, expected);
    }
    // A Deployment is not what a scale request sends.
    let rc = file("rc-default-replicas.yaml");
    let run = kdv(&["validate", "--subresource", "scale", &rc]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("a request to its scale subresource sends an autoscaling/v1 Scale"),
        "{}",
        run.transcript()
    );
}

#[test]
fn the_release_knob_lists_what_is_embedded() {
    let run = kdv(&["validate", "--k8s-version", "1.20", &file("scale.yaml")]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("--k8s-version 1.20: not an embedded Kubernetes release (embedded: 1.30,"),
        "{}",
        run.transcript()
    );
    let run = kdv(&[
        "validate",
        "--k8s-version",
        "1.35",
        "--emulated-version",
        "1.34",
        &file("scale.yaml"),
    ]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(run.stderr.contains("disagree"), "{}", run.transcript());
}

#[test]
fn explain_shows_both_sources_of_a_built_in_field() {
    let run = kdv(&[
        "explain",
        "--k8s-version",
        "1.35",
        "ReplicationController",
        "spec.replicas",
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let text = &run.stdout;
    assert!(
        text.starts_with("ReplicationController v1 spec.replicas (Kubernetes 1.35) (*int32)\n"),
        "{text}"
    );
    assert!(
        text.contains("spec.replicas: OpenAPI default: 1  <kubernetes 1.35>/api/v1.json"),
        "{text}"
    );
    assert!(
        text.contains("spec.replicas: +k8s:minimum=0  k8s.io/api@v0.35.7/core/v1/types.go:"),
        "{text}"
    );
    let run = kdv(&["explain", "Event"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains("several API groups have this kind"),
        "{}",
        run.transcript()
    );
    let run = kdv(&["explain", "Deploymnet"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains("nearest: Deployment"),
        "{}",
        run.transcript()
    );
}

#[test]
fn a_defaulted_value_of_a_disabled_gate_is_not_forbidden() {
    // The server's strategy drops a disabled gate's field before validating; its published
    // default is no error of the user's.
    let run = kdv(&["validate", "--k8s-version", "1.36", &file("podgroup.yaml")]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    // Named in the object, the field is reported as the release's rule reports it.
    let named = file("podgroup-disruption-mode.yaml");
    let run = kdv(&["validate", "--k8s-version", "1.36", &named]);
    assert_eq!(
        (run.code, run.stdout),
        (1, format!("{named}:8:19: spec.disruptionMode: Forbidden\n"))
    );
}
