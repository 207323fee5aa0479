//! `kdv lint --crd` end to end: a CRD with several mistakes (text, JSON and SARIF output),
//! exit statuses (errors 1, warnings 0 unless `--deny warnings`, unreadable input 2), the
//! Kubernetes release of the rules, directories and several `--crd` paths.

mod common;
use common::kdv;

const DIR: &str = "crates/kdv-cli/tests/fixtures/lint-crd";

#[test]
fn several_mistakes_text() {
    let run = kdv(&["lint", "--crd", &format!("{DIR}/broken.yaml")]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn several_mistakes_json() {
    let run = kdv(&["lint", "--crd", &format!("{DIR}/broken.yaml"), "-o", "json"]);
    assert_eq!(run.code, 1);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON output");
    assert_eq!(v["checked"], 2);
    assert_eq!(v["summary"]["errors"], 7);
    assert_eq!(v["summary"]["warnings"], 3);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn several_mistakes_sarif() {
    let run = kdv(&[
        "lint",
        "--crd",
        &format!("{DIR}/broken.yaml"),
        "-o",
        "sarif",
    ]);
    assert_eq!(run.code, 1);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("SARIF output");
    let results = v["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 10);
    let first = &results[0]["locations"][0]["physicalLocation"];
    assert_eq!(
        first["artifactLocation"]["uri"],
        format!("{DIR}/broken.yaml")
    );
    assert_eq!(first["region"]["startLine"], 5);
}

#[test]
fn warnings_pass_unless_denied() {
    let file = format!("{DIR}/warning-only.yaml");
    let run = kdv(&["lint", "--crd", &file]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout
            .contains("warning: unrecognized format \"colour\"")
    );
    let run = kdv(&["lint", "--crd", &file, "--deny", "warnings"]);
    assert_eq!(run.code, 1);
    // From 1.36 a format on a string node is looked up by type as well; still unknown.
    let run = kdv(&["lint", "--crd", &file, "--k8s-version", "1.36", "-q"]);
    assert_eq!(run.code, 0);
    assert_eq!(run.stderr, "");
}

#[test]
fn unknown_fields_are_errors_json_files_read() {
    let run = kdv(&["lint", "--crd", &format!("{DIR}/typo-field.json")]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.starts_with(&format!(
            "{DIR}/typo-field.json:12:80: error: unknown field \"spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.count.maximun\""
        )),
        "{}",
        run.stdout
    );
}

#[test]
fn directories_and_several_paths() {
    let run = kdv(&[
        "lint",
        "--crd",
        "testdata/kubectl-validate/testcases/crds",
        "--crd",
        "testdata/cli-workload/crds/widget-crd.yaml",
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert_eq!(
        run.stderr,
        "testdata/kubectl-validate/testcases/crds, testdata/cli-workload/crds/widget-crd.yaml: 9 CRDs, no findings\n"
    );
}

#[test]
fn unreadable_inputs() {
    let run = kdv(&[
        "lint",
        "--crd",
        "crates/kdv-cli/tests/fixtures/schemas/deployment-ok.yaml",
    ]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: --crd crates/kdv-cli/tests/fixtures/schemas/deployment-ok.yaml: no CustomResourceDefinition found\n"
    );
    let run = kdv(&["lint", "--crd", "no/such/file.yaml"]);
    assert_eq!(run.code, 2);
    let run = kdv(&["lint", "--crd", DIR, "--k8s-version", "2.0"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--k8s-version 2.0"), "{}", run.stderr);
    let run = kdv(&["lint", "--types", "x", "--crd", DIR]);
    assert_eq!(run.code, 2);
}

/// `kdv validate` does not use a CRD the API server would reject: the schema source is an
/// error (exit 2) with the server's message, at the first error's place.
#[test]
fn validate_refuses_a_crd_the_server_rejects() {
    let run = kdv(&[
        "validate",
        "--crd",
        &format!("{DIR}/broken.yaml"),
        "crates/kdv-cli/tests/fixtures/schemas/deployment-ok.yaml",
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with(&format!(
            "error: --crd: {DIR}/broken.yaml:5:9: CustomResourceDefinition.apiextensions.k8s.io \"gizmos.example.com\" is invalid: [metadata.name: Invalid value: \"gizmos.example.com\": must be spec.names.plural+\".\"+spec.group, "
        )),
        "{}",
        run.stderr
    );
}

/// `--k8s-version` picks the CEL environment of new rules: a library introduced in 1.N may be
/// used by a CRD created on 1.(N+1) (the compatibility version is the release before), as the
/// API server of that release decides.
#[test]
fn cel_libraries_follow_the_release() {
    let file = format!("{DIR}/cel-libraries.yaml");
    let undeclared = |version: &str| {
        let run = kdv(&["lint", "--crd", &file, "--k8s-version", version, "-q"]);
        let found: Vec<&str> = ["'isIP'", "'format'", "'all'", "'isSemver'", "'sort'"]
            .into_iter()
            .filter(|f| run.stdout.contains(&format!("undeclared reference to {f}")))
            .collect();
        assert_eq!(
            run.code,
            i32::from(!found.is_empty()),
            "{}",
            run.transcript()
        );
        found
    };
    assert_eq!(
        undeclared("1.30"),
        ["'isIP'", "'format'", "'all'", "'isSemver'", "'sort'"]
    );
    assert_eq!(
        undeclared("1.31"),
        ["'format'", "'all'", "'isSemver'", "'sort'"]
    );
    assert_eq!(undeclared("1.32"), ["'all'", "'isSemver'", "'sort'"]);
    assert_eq!(undeclared("1.33"), ["'isSemver'", "'sort'"]);
    assert_eq!(undeclared("1.34"), ["'sort'"]);
    assert!(undeclared("1.35").is_empty());
    let run = kdv(&["lint", "--crd", &file, "--k8s-version", "1.30", "-q"]);
    assert!(
        run.stdout.starts_with(&format!(
            "{file}:26:25: error: spec.validation.openAPIV3Schema.properties[spec].properties[address].x-kubernetes-validations[0].rule: Invalid value: "
        )),
        "{}",
        run.stdout
    );
    // The default release (1.35) takes every rule.
    assert_eq!(kdv(&["lint", "--crd", &file, "-q"]).code, 0);
}
