//! End-to-end tests of `kdv validate` with schema sources other than Go types: Kubernetes'
//! embedded built-in kinds (no flag at all), CRDs (`--crd FILE|DIR`), OpenAPI documents
//! (`--schema DIR`), `--k8s-version`, and how a document's kind picks its source.

use serde_json::Value;

mod common;
use common::kdv;
use kdv_test_support::Scratch;

const F: &str = "crates/kdv-cli/tests/fixtures/schemas";

fn f(name: &str) -> String {
    format!("{F}/{name}")
}

#[test]
fn deployment_with_errors_and_no_flags() {
    let run = kdv(&["validate", &f("deployment-bad.yaml")]);
    assert_eq!(
        run.transcript(),
        "exit: 1
--- stdout
crates/kdv-cli/tests/fixtures/schemas/deployment-bad.yaml:16:9: unknown field \"spec.template.spec.containers[0].imagePullPolcy\"
crates/kdv-cli/tests/fixtures/schemas/deployment-bad.yaml:7:13: spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\"
crates/kdv-cli/tests/fixtures/schemas/deployment-bad.yaml:7:3: spec.selector: Required value
--- stderr
1 document, 0 valid, 1 invalid
"
    );
}

#[test]
fn valid_built_in_kinds() {
    let run = kdv(&["validate", &f("deployment-ok.yaml")]);
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (0, "", "2 documents, 2 valid, 0 invalid\n")
    );
    // The same with the release named.
    let run = kdv(&[
        "validate",
        "--k8s-version",
        "1.35",
        &f("deployment-ok.yaml"),
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let run = kdv(&[
        "validate",
        "--k8s-version",
        "v1.35",
        &f("deployment-ok.yaml"),
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
}

#[test]
fn unknown_fields_switch_applies_to_schemas() {
    let run = kdv(&[
        "validate",
        "--unknown-fields",
        "warn",
        &f("deployment-bad.yaml"),
    ]);
    assert_eq!(run.code, 1);
    assert!(!run.stdout.contains("unknown field"), "{}", run.stdout);
    assert!(
        run.stderr.contains(
            "crates/kdv-cli/tests/fixtures/schemas/deployment-bad.yaml:16:9: warning: unknown field \"spec.template.spec.containers[0].imagePullPolcy\"\n"
        ),
        "{}",
        run.stderr
    );
    let run = kdv(&[
        "validate",
        "--unknown-fields",
        "ignore",
        &f("deployment-bad.yaml"),
    ]);
    assert!(!run.stdout.contains("unknown field"), "{}", run.stdout);
    assert!(!run.stderr.contains("unknown field"), "{}", run.stderr);
    // The repeated container port is no error: the server's pod validation only warns.
    assert_eq!(run.stdout.lines().count(), 2, "{}", run.stdout);
}

#[test]
fn custom_resources_against_a_crd_file() {
    let run = kdv(&[
        "validate",
        "--crd",
        &f("crds/widget.yaml"),
        &f("widgets.yaml"),
    ]);
    assert_eq!(
        run.transcript(),
        "exit: 1
--- stdout
crates/kdv-cli/tests/fixtures/schemas/widgets.yaml:18:3: unknown field \"spec.shape\"
crates/kdv-cli/tests/fixtures/schemas/widgets.yaml:15:10: spec.color: Unsupported value: \"purple\": supported values: \"red\", \"green\", \"blue\"
crates/kdv-cli/tests/fixtures/schemas/widgets.yaml:16:9: spec.name: Invalid value: \"Bad_Name\": spec.name in body should match '^[a-z]+$'
crates/kdv-cli/tests/fixtures/schemas/widgets.yaml:14:9: spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10
crates/kdv-cli/tests/fixtures/schemas/widgets.yaml:17:9: spec.tags: Too many: 3: must have at most 2 items
crates/kdv-cli/tests/fixtures/schemas/widgets.yaml:17:16: spec.tags[2]: Duplicate value: \"a\"
--- stderr
2 documents, 1 valid, 1 invalid
"
    );
}

#[test]
fn crd_directory_and_defaults() {
    // The directory holds two CRDs (and a ConfigMap, ignored); the Gadget's `level`
    // default does not hide the value given.
    let run = kdv(&[
        "validate",
        "--crd",
        &f("crds"),
        &f("widgets.yaml"),
        &f("gadget.yaml"),
        "-o",
        "json",
    ]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    let docs = json["documents"].as_array().unwrap();
    assert_eq!(docs.len(), 3);
    assert_eq!(docs[0]["type"], "demo.kdv.dev/v1.Widget");
    assert_eq!(docs[2]["type"], "demo.kdv.dev/v1.Gadget");
    assert_eq!(
        docs[2]["errors"][0]["message"],
        "spec.level: Invalid value: 9: spec.level in body should be less than or equal to 5"
    );
    assert_eq!(docs[2]["errors"][0]["line"], 6);
    // The CEL rule of the Gadget runs (and holds): nothing is skipped, nothing to warn about.
    assert_eq!(json["warnings"], serde_json::json!([]));
    assert!(
        !run.stderr.contains("x-kubernetes-validations"),
        "{}",
        run.stderr
    );
}

#[test]
fn unknown_kinds_are_input_errors() {
    let run = kdv(&["validate", "--crd", &f("crds"), &f("unknown-kinds.yaml")]);
    assert_eq!(
        run.transcript(),
        "exit: 2
--- stdout
--- stderr
crates/kdv-cli/tests/fixtures/schemas/unknown-kinds.yaml:2:7: error: unknown kind \"Deploymnt\" in apiVersion \"apps/v1\" (apps/v1 has: ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet; loaded: 2 CRDs (crates/kdv-cli/tests/fixtures/schemas/crds), the Kubernetes 1.36 built-in kinds)
crates/kdv-cli/tests/fixtures/schemas/unknown-kinds.yaml:11:7: error: document of kind \"ConfigMap\" has no apiVersion; set it
1 document, 1 valid, 0 invalid, 2 input errors
"
    );
    // Without the CRDs, the Widget is unknown too.
    let run = kdv(&["validate", &f("unknown-kinds.yaml")]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains(
            "unknown-kinds.yaml:7:7: error: unknown kind \"Widget\": no schema for apiVersion \"demo.kdv.dev/v1\" (loaded: the Kubernetes 1.36 built-in kinds)"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn openapi_documents_of_a_schema_directory() {
    let run = kdv(&["validate", "--schema", &f("openapi"), &f("things.yaml")]);
    assert_eq!(
        run.transcript(),
        "exit: 1
--- stdout
crates/kdv-cli/tests/fixtures/schemas/things.yaml:6:10: spec.count: Invalid value: \"string\": spec.count in body must be of type integer: \"string\"
--- stderr
1 document, 0 valid, 1 invalid
"
    );
    // --schema replaces the built-in kinds unless --k8s-version adds them.
    let run = kdv(&[
        "validate",
        "--schema",
        &f("openapi"),
        &f("deployment-ok.yaml"),
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains(
            ":2:7: error: unknown kind \"Deployment\": no schema for apiVersion \"apps/v1\" (loaded: 1 OpenAPI document (crates/kdv-cli/tests/fixtures/schemas/openapi))"
        ),
        "{}",
        run.stderr
    );
    let run = kdv(&[
        "validate",
        "--schema",
        &f("openapi"),
        "--k8s-version",
        "1.35",
        &f("deployment-ok.yaml"),
        &f("things.yaml"),
    ]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(run.stdout.lines().count(), 1, "{}", run.stdout);
}

#[test]
fn bad_schema_arguments() {
    let run = kdv(&[
        "validate",
        "--k8s-version",
        "1.29",
        &f("deployment-ok.yaml"),
    ]);
    assert_eq!(
        run.transcript(),
        "exit: 2
--- stdout
--- stderr
error: --k8s-version 1.29: not an embedded Kubernetes release (embedded: 1.30, 1.31, 1.32, 1.33, 1.34, 1.35, 1.36); pass --schema DIR with the OpenAPI documents of other releases
"
    );
    // The oldest embedded release is there.
    let run = kdv(&[
        "validate",
        "--k8s-version",
        "1.30",
        &f("deployment-ok.yaml"),
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let run = kdv(&[
        "validate",
        "--crd",
        &f("deployment-ok.yaml"),
        &f("widgets.yaml"),
    ]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: --crd crates/kdv-cli/tests/fixtures/schemas/deployment-ok.yaml: no CustomResourceDefinition found\n"
    );
    let run = kdv(&["validate", "--crd", &f("no-such-dir"), &f("widgets.yaml")]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.starts_with("error: --crd: "), "{}", run.stderr);
    let run = kdv(&["validate", "--schema", &f("crds"), &f("widgets.yaml")]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: --schema crates/kdv-cli/tests/fixtures/schemas/crds: no OpenAPI documents (expected api/v1.json and apis/<group>/<version>.json, as the API server serves /openapi/v3)\n"
    );
    // JSON output reports the failure as its one document.
    let run = kdv(&[
        "validate",
        "--k8s-version",
        "9.9",
        "-o",
        "json",
        &f("deployment-ok.yaml"),
    ]);
    assert_eq!(run.code, 2);
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["error"]["kind"], "usage");
}

#[test]
fn go_types_come_first_and_built_ins_need_to_be_asked_for() {
    // With --types alone, a built-in kind is unknown, as before.
    let run = kdv(&[
        "validate",
        "--types",
        "examples/api",
        &f("deployment-ok.yaml"),
    ]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("unknown kind \"Deployment\" in apiVersion \"apps/v1\" (known: "),
        "{}",
        run.stderr
    );
    // --k8s-version adds them; the Go kinds still go to the Go types.
    let run = kdv(&[
        "validate",
        "--types",
        "examples/api",
        "--k8s-version",
        "1.35",
        &f("deployment-ok.yaml"),
        "examples/manifests/widget-minimal.yaml",
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
}

#[test]
fn updates_of_built_in_kinds() {
    // configmap.old.yaml next to configmap.yaml makes it an UPDATE, as for Go types.
    let run = kdv(&["validate", "-o", "json", &f("configmap.yaml")]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    let doc = &json["documents"][0];
    assert_eq!(doc["operation"], "UPDATE");
    assert_eq!(doc["type"], "v1.ConfigMap");
    assert_eq!(doc["oldFile"], f("configmap.old.yaml"));
    assert_eq!(
        doc["errors"][0]["message"],
        "data.mode: Invalid value: \"array\": data.mode in body must be of type string: \"array\""
    );
    // An explicit --old pairs by identity: a ConfigMap is no old revision of a Deployment,
    // which is a CREATE (before, documents were paired by position and this was an error).
    let run = kdv(&[
        "validate",
        "-o",
        "json",
        "--old",
        &f("configmap.old.yaml"),
        &f("deployment-bad.yaml"),
        &f("configmap.yaml"),
    ]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["documents"][0]["operation"], "CREATE");
    assert_eq!(json["documents"][1]["operation"], "UPDATE");
    assert_eq!(json["documents"][1]["oldFile"], f("configmap.old.yaml"));
}

#[test]
fn built_in_kinds_are_ratcheted() {
    // data.mode was already invalid in the old revision and is unchanged: only the change
    // elsewhere is validated, as the API server's validation ratcheting does.
    let old = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: [production]\n";
    let scratch = Scratch::new("schemas-ratchet");
    let dir = scratch.path();
    let old_file = dir.join("settings.yaml");
    std::fs::write(
        &old_file,
        old.replace("name: settings", "name: settings\n  labels: {tier: web}"),
    )
    .expect("write");
    let run = kdv(&[
        "validate",
        "--old",
        &old_file.display().to_string(),
        &f("configmap.yaml"),
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    // Against its sibling configmap.old.yaml, where mode was valid, the change is reported.
    assert_eq!(kdv(&["validate", &f("configmap.yaml")]).code, 1);
}

#[test]
fn object_metadata_of_built_in_kinds() {
    let run = kdv(&["validate", &f("bad-metadata.yaml")]);
    assert_eq!(
        run.transcript(),
        "exit: 1
--- stdout
crates/kdv-cli/tests/fixtures/schemas/bad-metadata.yaml:4:9: metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
crates/kdv-cli/tests/fixtures/schemas/bad-metadata.yaml:6:5: metadata.labels: Invalid value: \"not a label value!\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')
crates/kdv-cli/tests/fixtures/schemas/bad-metadata.yaml:11:3: metadata: Invalid value: {\"finalizers\":{\"key\":\"value\"},\"name\":\"settings\"}: json: cannot unmarshal object into Go struct field ObjectMeta.finalizers of type []string
--- stderr
2 documents, 0 valid, 2 invalid
"
    );
}
