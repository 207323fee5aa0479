//! End-to-end tests of the `kdv` binary on the examples and on fixtures: exit codes, text
//! and JSON output (snapshots), updates, type selection, input errors and lint.

mod common;

use common::{Kdv, Run, kdv, root};
use serde_json::Value;

const API: &str = "examples/api";
const MANIFESTS: &str = "examples/manifests";
const FIXTURES: &str = "crates/kdv-cli/tests/fixtures";

fn validate(extra: &[&str]) -> Run {
    let mut args = vec!["validate", "--types", API];
    args.extend_from_slice(extra);
    kdv(&args)
}

fn manifest(name: &str) -> String {
    format!("{MANIFESTS}/{name}")
}

fn fixture(name: &str) -> String {
    format!("{FIXTURES}/{name}")
}

// ---------------------------------------------------------------------------------------
// The examples

/// Every example document with whether it is valid: the examples stay correct because this
/// test says what each one demonstrates.
const EXPECTED: &[(&str, usize, &str, bool)] = &[
    ("bad-metadata.yaml", 0, "CREATE", false),
    ("bad-ports.yaml", 0, "CREATE", false),
    ("bad-probe.yaml", 0, "CREATE", false),
    ("bad-required.yaml", 0, "CREATE", false),
    ("bad-spec.yaml", 0, "CREATE", false),
    ("fleet.yaml", 0, "CREATE", true),
    ("fleet.yaml", 1, "CREATE", true),
    ("fleet.yaml", 3, "CREATE", false),
    ("ratchet-partial.yaml", 0, "UPDATE", false),
    ("ratchet.yaml", 0, "UPDATE", true),
    ("storage-change.yaml", 0, "UPDATE", false),
    ("update-rules.yaml", 0, "UPDATE", false),
    ("widget-full.yaml", 0, "CREATE", true),
    ("widget-minimal.yaml", 0, "CREATE", true),
    ("widget.json", 0, "CREATE", true),
];

#[test]
fn examples_are_what_they_claim_to_be() {
    let run = validate(&["-o", "json", MANIFESTS]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let report = run.json();
    let got: Vec<(String, usize, String, bool)> = report["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["file"]
                    .as_str()
                    .unwrap()
                    .trim_start_matches(&format!("{MANIFESTS}/"))
                    .to_string(),
                d["document"].as_u64().unwrap() as usize,
                d["operation"].as_str().unwrap().to_string(),
                d["valid"].as_bool().unwrap(),
            )
        })
        .collect();
    let want: Vec<(String, usize, String, bool)> = EXPECTED
        .iter()
        .map(|(f, d, o, v)| (f.to_string(), *d, o.to_string(), *v))
        .collect();
    assert_eq!(got, want);
    assert_eq!(report["inputErrors"], serde_json::json!([]));
    assert_eq!(report["summary"]["empty"], 1);
}

#[test]
fn examples_text_output() {
    let run = validate(&[MANIFESTS]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("examples_text", run.transcript());
}

#[test]
fn examples_json_output() {
    let run = validate(&["--output", "json", MANIFESTS]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("examples_json", run.transcript());
}

/// Whether `rest` starts `<line>:<col>: ` (what follows the file name of a located line).
fn located(rest: &str) -> bool {
    let mut parts = rest.splitn(3, ':');
    let number =
        |p: Option<&str>| p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    number(parts.next()) && number(parts.next()) && parts.next().is_some_and(|m| m.starts_with(' '))
}

#[test]
fn each_invalid_example_has_errors_in_text() {
    for name in [
        "bad-metadata.yaml",
        "bad-ports.yaml",
        "bad-probe.yaml",
        "bad-required.yaml",
        "bad-spec.yaml",
    ] {
        let run = validate(&[&manifest(name)]);
        assert_eq!(run.code, 1, "{name}: {}", run.transcript());
        let prefix = format!("{}:", manifest(name));
        assert!(
            !run.stdout.is_empty()
                && run
                    .stdout
                    .lines()
                    .all(|l| l.strip_prefix(&prefix).is_some_and(located)),
            "{}",
            run.transcript()
        );
        assert!(run.stderr.ends_with("1 document, 0 valid, 1 invalid\n"));
    }
}

#[test]
fn valid_examples_exit_zero() {
    let run = validate(&[
        &manifest("widget-minimal.yaml"),
        &manifest("widget-full.yaml"),
        &manifest("widget.json"),
    ]);
    assert_eq!(
        run.transcript(),
        "exit: 0\n--- stdout\n--- stderr\n3 documents, 3 valid, 0 invalid\n"
    );
}

#[test]
fn error_line_format() {
    let run = validate(&[&manifest("bad-spec.yaml")]);
    assert!(
        run.stdout.contains(
            "examples/manifests/bad-spec.yaml:7:13: spec.replicas: Invalid value: 0: must be greater than or equal to 1\n"
        ),
        "{}",
        run.transcript()
    );
}

// ---------------------------------------------------------------------------------------
// Updates

#[test]
fn sibling_old_revision_makes_an_update_that_ratchets() {
    let run = validate(&[&manifest("ratchet.yaml")]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    // The same object as a CREATE is invalid: its label key was never valid.
    let run = validate(&[&manifest("ratchet.old.yaml")]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(
        run.stdout.contains("metadata.labels"),
        "{}",
        run.transcript()
    );
}

#[test]
fn ratcheting_skips_unchanged_invalid_values_but_not_changed_ones() {
    let run = validate(&["-o", "json", &manifest("ratchet-partial.yaml")]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let errors = &run.json()["documents"][0]["errors"];
    // The unchanged invalid label key and zone Zone_A pass; the added zone Zone_B fails.
    assert_eq!(errors.as_array().map(Vec::len), Some(1), "{errors}");
    assert_eq!(errors[0]["field"], "spec.zones[1]");
    assert_eq!(errors[0]["origin"], "format=k8s-short-name");
    // As a CREATE, every invalid value is reported.
    let run = validate(&["-o", "json", &manifest("ratchet-partial.old.yaml")]);
    assert_eq!(
        error_keys(&run.json()),
        [
            (
                "metadata.labels",
                "FieldValueInvalid",
                "format=k8s-label-key"
            ),
            (
                "spec.zones[0]",
                "FieldValueInvalid",
                "format=k8s-short-name"
            ),
        ]
        .map(key)
    );
}

#[test]
fn update_rules_restrict_changes() {
    let run = validate(&["-o", "json", &manifest("update-rules.yaml")]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(
        error_keys(&run.json()),
        [
            ("spec.zones", "FieldValueForbidden", "update"),
            ("spec.owner", "FieldValueInvalid", "update"),
        ]
        .map(key)
    );
    // Adding a zone and handing over ownership are allowed.
    let run = validate(&[
        "--old",
        &manifest("update-rules.old.yaml"),
        &fixture("manifests/update-rules-allowed.yaml"),
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
}

#[test]
fn union_members_follow_the_discriminator() {
    let run = validate(&["-o", "json", &manifest("bad-probe.yaml")]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(
        error_keys(&run.json()),
        [
            ("spec.probe.httpGet", "FieldValueInvalid", "union"),
            ("spec.probe.tcpSocket", "FieldValueInvalid", "union"),
            ("spec.probe.periodSeconds", "FieldValueInvalid", "minimum"),
        ]
        .map(key)
    );
}

type ErrorKey = (String, String, String);

fn key((field, ty, origin): (&str, &str, &str)) -> ErrorKey {
    (field.to_string(), ty.to_string(), origin.to_string())
}

/// (field, type, origin) of each error of the first document of a JSON report.
fn error_keys(report: &Value) -> Vec<ErrorKey> {
    report["documents"][0]["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap_or_default().to_string();
            (s("field"), s("type"), s("origin"))
        })
        .collect()
}

#[test]
fn changing_an_immutable_field_fails_the_update() {
    let run = validate(&[&manifest("storage-change.yaml")]);
    insta::assert_snapshot!("immutable_update", run.transcript());
    assert_eq!(run.code, 1);
}

#[test]
fn explicit_old_file() {
    // The pair of the directory convention, named explicitly.
    let run = validate(&[
        "--old",
        &manifest("storage-change.old.yaml"),
        &manifest("storage-change.yaml"),
        "-o",
        "json",
    ]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let doc = &run.json()["documents"][0];
    assert_eq!(doc["operation"], "UPDATE");
    assert_eq!(doc["oldFile"], manifest("storage-change.old.yaml"));
    assert_eq!(doc["errors"][0]["origin"], "immutable");
    // The new revision against itself changes nothing.
    let same = manifest("storage-change.yaml");
    let run = validate(&["--old", &same, &same]);
    assert_eq!(run.code, 0, "{}", run.transcript());
}

// `--old` pairs documents by identity (apiVersion group, kind, namespace, name), no longer
// by position: a different document count or a document without its old revision is not an
// error, the unpaired documents are CREATEs.
#[test]
fn old_pairs_documents_by_identity() {
    let run = validate(&[
        "--old",
        &fixture("manifests/two-widgets.yaml"),
        "-o",
        "json",
        &manifest("widget-minimal.yaml"),
        &fixture("manifests/two-widgets.yaml"),
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let docs = &run.json()["documents"];
    let ops: Vec<(String, Value, Value)> = docs
        .as_array()
        .expect("documents")
        .iter()
        .map(|d| {
            (
                d["operation"].as_str().unwrap_or_default().to_string(),
                d["oldFile"].clone(),
                d["oldDocument"].clone(),
            )
        })
        .collect();
    let two = fixture("manifests/two-widgets.yaml");
    assert_eq!(
        ops,
        [
            ("CREATE".to_string(), Value::Null, Value::Null),
            (
                "UPDATE".to_string(),
                Value::from(two.as_str()),
                Value::from(0)
            ),
            (
                "UPDATE".to_string(),
                Value::from(two.as_str()),
                Value::from(1)
            ),
        ]
    );
}

#[test]
fn old_takes_a_directory_and_any_number_of_paths() {
    // A directory of old objects (its x.old.yaml files are older still and not read); with
    // --old, a sibling x.old.yaml is not used either.
    let run = validate(&[
        "--old",
        MANIFESTS,
        "-o",
        "json",
        &manifest("widget-full.yaml"),
        &manifest("widget.json"),
        &manifest("storage-change.yaml"),
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let docs = run.json()["documents"].clone();
    for (doc, old) in docs.as_array().expect("documents").iter().zip([
        "widget-full.yaml",
        "widget.json",
        "storage-change.yaml",
    ]) {
        assert_eq!(doc["operation"], "UPDATE", "{doc}");
        assert_eq!(doc["oldFile"], manifest(old), "{doc}");
    }
}

#[test]
fn ambiguous_old_revisions_are_input_errors() {
    let two = fixture("manifests/two-widgets.yaml");
    let run = Kdv::new(&["validate", "--types", API, "--old", "-", &two])
        .stdin(format!(
            "{0}\n---\n{0}",
            include_str!("fixtures/manifests/two-widgets.yaml")
        ))
        .run();
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains(&format!(
            "{two}:1:1: error: its old revision is ambiguous: 2 old objects have its apiVersion, kind, namespace and name: <stdin> (document 0), <stdin> (document 2)"
        )),
        "{}",
        run.transcript()
    );
}

#[test]
fn old_of_a_different_kind_is_not_paired() {
    // A document without apiVersion and kind is no old revision of a Widget: CREATE.
    let run = validate(&[
        "-o",
        "json",
        "--old",
        &fixture("manifests/spec-only.yaml"),
        &manifest("widget-minimal.yaml"),
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert_eq!(run.json()["documents"][0]["operation"], "CREATE");
}

#[test]
fn old_of_another_version_is_not_compared() {
    let old = "apiVersion: demo.kdv.dev/v1beta1\nkind: Widget\nmetadata:\n  name: minimal\n";
    let run = Kdv::new(&[
        "validate",
        "--types",
        API,
        "--old",
        "-",
        &manifest("widget-minimal.yaml"),
    ])
    .stdin(old)
    .run();
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stderr.contains(
            "examples/manifests/widget-minimal.yaml:2:13: warning: its old revision <stdin> (document 0) has apiVersion \"demo.kdv.dev/v1beta1\"; kdv does not convert between versions, so it is validated as a CREATE"
        ),
        "{}",
        run.transcript()
    );
}

// ---------------------------------------------------------------------------------------
// Type selection

#[test]
fn type_flag_validates_documents_without_kind() {
    let spec_only = fixture("manifests/spec-only.yaml");
    let run = validate(&["--type", "WidgetSpec", &spec_only]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(
        run.stdout,
        format!(
            "{spec_only}:2:11: replicas: Invalid value: 101: must be less than or equal to 100\n"
        )
    );
    let run = validate(&["--type", "demo.kdv.dev/api.WidgetSpec", &spec_only]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    // Without --type the document cannot be matched.
    let run = validate(&[&spec_only]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains(&format!(
            "{spec_only}:2:1: error: document has no kind; set apiVersion and kind, or pass --type"
        )),
        "{}",
        run.transcript()
    );
}

#[test]
fn unknown_kind_is_an_input_error() {
    let run = validate(&[&fixture("manifests/unknown-kind.yaml")]);
    insta::assert_snapshot!("unknown_kind", run.transcript());
    assert_eq!(run.code, 2);
}

#[test]
fn unknown_type_flag() {
    let run = validate(&["--type", "Gadget", MANIFESTS]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: --type Gadget: no such type in examples/api; root types: demo.kdv.dev/v1 Widget\n"
    );
}

// ---------------------------------------------------------------------------------------
// Input errors

#[test]
fn malformed_yaml_reports_file_line_column() {
    let run = validate(&[&fixture("manifests/malformed.yaml")]);
    insta::assert_snapshot!("malformed_yaml", run.transcript());
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with(&format!("{}:7:", fixture("manifests/malformed.yaml")))
    );
}

#[test]
fn malformed_json_reports_file_line_column() {
    let run = validate(&[&fixture("manifests/malformed.json")]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!(
            "{}:4:26: error: trailing comma\n0 documents, 0 valid, 0 invalid, 1 input error\n",
            fixture("manifests/malformed.json")
        )
    );
}

#[test]
fn duplicate_key_is_an_input_error() {
    let run = validate(&[&fixture("manifests/duplicate-key.yaml")]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with(&format!(
            "{}:8:3: error: duplicate key \"replicas\"",
            fixture("manifests/duplicate-key.yaml")
        )),
        "{}",
        run.transcript()
    );
}

#[test]
fn input_errors_do_not_stop_other_files() {
    let run = validate(&[
        "-o",
        "json",
        &fixture("manifests/malformed.yaml"),
        &manifest("widget-minimal.yaml"),
    ]);
    assert_eq!(run.code, 2);
    let report = run.json();
    assert_eq!(report["summary"]["documents"], 1);
    assert_eq!(report["summary"]["valid"], 1);
    assert_eq!(report["summary"]["inputErrors"], 1);
    assert_eq!(
        report["inputErrors"][0]["file"],
        fixture("manifests/malformed.yaml")
    );
    assert_eq!(report["inputErrors"][0]["line"], 7);
}

#[test]
fn missing_paths_are_input_errors() {
    let run = validate(&["examples/manifests/nope.yaml"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("examples/manifests/nope.yaml: error: cannot read: "),
        "{}",
        run.transcript()
    );
}

#[test]
fn missing_types_dir() {
    let run = kdv(&["validate", "--types", "no/such/dir", MANIFESTS]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("error: cannot load Go types from no/such/dir: "),
        "{}",
        run.transcript()
    );
    let run = kdv(&["lint", "--types", "no/such/dir"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("error: cannot load Go types from no/such/dir: "),
        "{}",
        run.transcript()
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["validate", MANIFESTS],
        vec!["validate", "--types", API],
        vec!["validate", "--types", API, "--option", "A=maybe", MANIFESTS],
        vec!["validate", "--types", API, "--output", "xml", MANIFESTS],
        vec!["validate", "--types", API, "-", "-"],
        vec!["frobnicate"],
        vec![],
    ] {
        let run = kdv(&args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.transcript());
        assert!(!run.stderr.is_empty());
    }
    assert_eq!(kdv(&["--help"]).code, 0);
    assert_eq!(kdv(&["validate", "--help"]).code, 0);
}

// ---------------------------------------------------------------------------------------
// Standard input, options

#[test]
fn stdin() {
    let text = std::fs::read_to_string(root().join(manifest("bad-spec.yaml"))).unwrap();
    let run = Kdv::new(&["validate", "--types", API, "-"])
        .stdin(&text)
        .run();
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.starts_with("<stdin>:7:13: spec."),
        "{}",
        run.transcript()
    );
    let json = r#"{"apiVersion": "demo.kdv.dev/v1", "kind": "Widget", "metadata": {"name": "x"}, "spec": {"replicas": 1, "image": "i"}}"#;
    let run = Kdv::new(&["validate", "--types", API, "-"])
        .stdin(json)
        .run();
    assert_eq!(run.code, 0, "{}", run.transcript());
    let run = Kdv::new(&["validate", "--types", API, "-"])
        .stdin("a: [\n")
        .run();
    assert_eq!(run.code, 2);
    assert!(run.stderr.starts_with("<stdin>:"), "{}", run.transcript());
}

#[test]
fn yaml_1_1_booleans_are_booleans() {
    let run = validate(&[&fixture("manifests/yes-no.yaml")]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout,
        format!(
            "{}:9:10: spec.image: Invalid value: true: expected string, got boolean\n",
            fixture("manifests/yes-no.yaml")
        )
    );
}

#[test]
fn directory_without_manifests_is_an_input_error() {
    let run = validate(&["crates/kdv-cli/tests/fixtures/bad-api"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.starts_with(
        "crates/kdv-cli/tests/fixtures/bad-api: error: no *.yaml, *.yml or *.json files in this directory\n"
    ), "{}", run.transcript());
}

#[test]
fn subresource_the_types_lack_is_a_usage_error() {
    // Widget declares no subresources: upstream's dispatcher has no validation for one, so
    // kdv says so once, before reading any manifest, instead of per document.
    let run = validate(&["--subresource", "status", &manifest("widget-minimal.yaml")]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "error: --subresource /status: no root type has this subresource (Widget has /)\n"
    );
}

#[test]
fn options_are_accepted() {
    let run = validate(&[
        "--option",
        "Foo",
        "--option",
        "Bar=false",
        &manifest("widget-minimal.yaml"),
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
}

// ---------------------------------------------------------------------------------------
// Lint

#[test]
fn lint_clean_package() {
    let run = kdv(&["lint", "--types", API]);
    assert_eq!(
        run.transcript(),
        "exit: 0\n--- stdout\n--- stderr\nexamples/api: no findings\n"
    );
}

#[test]
fn lint_reports_findings_with_positions() {
    let run = kdv(&["lint", "--types", &fixture("bad-api")]);
    insta::assert_snapshot!("lint_findings", run.transcript());
    assert_eq!(run.code, 1);
}

#[test]
fn validate_refuses_broken_types() {
    let run = kdv(&["validate", "--types", &fixture("bad-api"), MANIFESTS]);
    assert_eq!(run.code, 2);
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr.contains("`kdv lint --types"),
        "{}",
        run.transcript()
    );
}

// ---------------------------------------------------------------------------------------
// +k8s:customValidation (kdv cannot run hand-written Go functions)

const CUSTOM_API: &str = "crates/kdv-cli/tests/fixtures/tags/custom";

#[test]
fn lint_warns_at_each_custom_validation_tag() {
    let run = kdv(&["lint", "--types", CUSTOM_API]);
    insta::assert_snapshot!("lint_custom_validation", run.transcript());
    // Warnings alone do not fail the lint (issue 9 item 12).
    assert_eq!(run.code, 0);
}

#[test]
fn validate_warns_once_per_type_about_skipped_custom_validation() {
    let cases = format!("{CUSTOM_API}/cases/customValidation");
    let run = kdv(&["validate", "--types", CUSTOM_API, &cases]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(
        run.stderr,
        "warning: kdv.test/tags/custom.CustomValidation: skipping 2 +k8s:customValidation \
         checks kdv cannot run (hand-written Go: ValidateCustom_CustomValidation_Schedule, \
         ValidateCustom_Window)\n4 documents, 2 valid, 2 invalid\n"
    );
    // A type without custom validations gets no warning about them (the examples' only
    // warnings are the errors of their +k8s:alpha rule, which are shadowed).
    let run = validate(&[MANIFESTS]);
    assert!(
        run.stderr
            .lines()
            .filter(|l| l.starts_with("warning"))
            .all(|l| l.ends_with("(shadowed: +k8s:alpha rules are never enforced)")),
        "{}",
        run.transcript()
    );
    assert!(
        !run.stderr.contains("customValidation"),
        "{}",
        run.transcript()
    );
}

// ---------------------------------------------------------------------------------------
// --feature-gates (issue 13): gate errors are usage errors with component-base's texts;
// errors of shadowed rules are warnings.

#[test]
fn feature_gate_errors_are_usage_errors() {
    for (gates, message) in [
        (
            "DeclarativeValidation=false",
            "cannot set feature gate DeclarativeValidation to false, feature is locked to true",
        ),
        ("Nope=true", "unrecognized feature gate: Nope"),
        (
            "DeclarativeValidationBeta=maybe",
            "invalid value of DeclarativeValidationBeta=maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax",
        ),
    ] {
        let run = validate(&["--feature-gates", gates, MANIFESTS]);
        assert_eq!(run.code, 2, "{}", run.transcript());
        assert!(run.stderr.contains(message), "{}", run.transcript());
    }
}

#[test]
fn beta_rules_follow_the_beta_gate_and_the_emulated_version() {
    let types = "crates/kdv-cli/tests/fixtures/tags/options";
    let manifest = "crates/kdv-cli/tests/fixtures/tags/options/cases/beta/invalid.yaml";
    let error = "spec: Invalid value"; // never printed: the error is at `offset`
    let enforced = kdv(&["validate", "--types", types, manifest]);
    assert_eq!(enforced.code, 1, "{}", enforced.transcript());
    assert!(
        enforced
            .stdout
            .contains("offset: Invalid value: -1: must be greater than or equal to 0"),
        "{}",
        enforced.transcript()
    );
    for (shadowing, why) in [
        (
            &["--feature-gates", "DeclarativeValidationBeta=false"][..],
            "+k8s:beta rules are not enforced with DeclarativeValidationBeta=false",
        ),
        (
            &["--emulated-version", "1.35"][..],
            "+k8s:beta rules are enforced only with DeclarativeValidationTakeover before Kubernetes 1.36",
        ),
    ] {
        let mut args = vec!["validate", "--types", types];
        args.extend_from_slice(shadowing);
        args.push(manifest);
        let run = kdv(&args);
        assert_eq!(run.code, 0, "{shadowing:?}: {}", run.transcript());
        assert!(
            run.stderr.contains(&format!(
                "offset: Invalid value: -1: must be greater than or equal to 0 (shadowed: {why})"
            )),
            "{shadowing:?}: {}",
            run.transcript()
        );
        assert!(!run.stdout.contains(error), "{}", run.transcript());
    }
    // 1.35 does not know the beta gate: setting it is refused as the API server refuses it.
    let run = kdv(&[
        "validate",
        "--types",
        types,
        "--emulated-version",
        "1.35",
        "--feature-gates",
        "DeclarativeValidationBeta=true",
        manifest,
    ]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains("cannot set feature gate DeclarativeValidationBeta to true, feature is PreAlpha at emulated version 1.35"),
        "{}",
        run.transcript()
    );
    let run = kdv(&[
        "validate",
        "--types",
        types,
        "--emulated-version",
        "1.20",
        manifest,
    ]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("--emulated-version 1.20: not an embedded Kubernetes release (embedded: "),
        "{}",
        run.transcript()
    );
}

#[test]
fn feature_gate_warnings_and_shadowed_alpha_errors() {
    let run = validate(&[
        "--feature-gates",
        "DeclarativeValidationBeta=false,DeclarativeValidationTakeover=false",
        "examples/manifests/bad-spec.yaml",
    ]);
    assert!(
        run.stderr.contains("warning: Setting deprecated feature gate DeclarativeValidationTakeover=false. It will be removed in a future release.\n"),
        "{}",
        run.transcript()
    );
    assert!(
        run.stderr.contains("examples/manifests/bad-spec.yaml:8:10: warning: spec.image: Invalid value: \"latest\": must not be equal to \"latest\" (shadowed: +k8s:alpha rules are never enforced)\n"),
        "{}",
        run.transcript()
    );
    assert!(!run.stdout.contains("spec.image"), "{}", run.transcript());
}
