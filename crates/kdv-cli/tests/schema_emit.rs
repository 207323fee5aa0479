//! `kdv schema` end to end: the example API's schema and CRD (JSON and YAML), the CRD
//! accepted by `kdv lint --crd` and used by `kdv validate --crd` with the same verdicts as
//! `--types` on the example manifests, notes as warnings, options, unknown types.

mod common;
use common::{kdv, root};
use kdv_test_support::Scratch;

#[test]
fn widget_schema_json() {
    let run = kdv(&["schema", "--types", "examples/api", "WidgetSpec"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(v["type"], "object");
    assert_eq!(v["properties"]["replicas"]["maximum"], 100);
    assert_eq!(v["required"], serde_json::json!(["image", "replicas"]));
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn widget_crd_yaml_is_clean_and_validates_as_the_types_do() {
    let run = kdv(&[
        "schema",
        "--types",
        "examples/api",
        "Widget",
        "--crd",
        "-o",
        "yaml",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!("widget_crd_yaml", run.stdout);
    // The CRD's one note: the type's metadata rules.
    assert!(
        run.stderr.starts_with("warning: metadata: "),
        "{}",
        run.stderr
    );
    let scratch = Scratch::new("schema-e2e");
    let dir = scratch.path();
    let crd = dir.join("widget-crd.yaml");
    std::fs::write(&crd, &run.stdout).unwrap();
    let crd = crd.to_str().unwrap();
    let lint = kdv(&["lint", "--crd", crd]);
    assert_eq!(lint.code, 0, "{}", lint.transcript());
    // Each example manifest: the CRD and the Go types agree on valid/invalid, except those
    // whose verdict rests on metadata, which the CRD leaves to the API server's own rules
    // (bad-metadata; the ratchet examples keep an invalid label that the types ratchet and
    // the server's ObjectMeta checks do not).
    let mut compared = 0;
    for entry in std::fs::read_dir(root().join("examples/manifests")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.ends_with(".old.yaml") || name == "bad-metadata.yaml" || name.starts_with("ratchet")
        {
            continue;
        }
        let rel = format!("examples/manifests/{name}");
        let by_types = kdv(&["validate", "--types", "examples/api", &rel]);
        let by_crd = kdv(&["validate", "--crd", crd, &rel]);
        assert_eq!(
            by_types.code,
            by_crd.code,
            "{name}\n--types:\n{}\n--crd:\n{}",
            by_types.transcript(),
            by_crd.transcript()
        );
        compared += 1;
    }
    assert!(compared >= 5);
}

#[test]
fn options_and_unknown_types() {
    let run = kdv(&["schema", "--types", "examples/api", "Gadget"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("error: Gadget: no such type in examples/api; nearest: "),
        "{}",
        run.stderr
    );
    let run = kdv(&[
        "schema",
        "--types",
        "crates/kdv-cli/tests/fixtures/tags/options",
        "IfEnabled",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("+k8s:ifEnabled: depends on the option `StrictNames`"),
        "{}",
        run.stderr
    );
    let run = kdv(&[
        "schema",
        "--types",
        "crates/kdv-cli/tests/fixtures/tags/options",
        "IfEnabled",
        "--option",
        "StrictNames",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    assert!(run.stdout.contains("dns1123"), "{}", run.stdout);
}

const EXTENSIONS: &str = "crates/kdv-schema/tests/data/extensions";

/// kdv's extensions: `pattern` and the exclusive bounds as OpenAPI keywords; rules under
/// subresource conditions are notes unless `--subresource` says which requests the schema
/// is for.
#[test]
fn extensions_publish_keywords_and_subresource_conditions_on_request() {
    let run = kdv(&["schema", "--types", EXTENSIONS, "GadgetSpec"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let p = &v["properties"];
    assert_eq!(p["name"]["pattern"], "^[a-z]([-a-z0-9]*[a-z0-9])?$");
    assert_eq!(p["versions"]["items"]["pattern"], "^v[0-9]+$");
    assert_eq!(
        (
            &p["replicas"]["minimum"],
            &p["replicas"]["exclusiveMinimum"],
            &p["replicas"]["maximum"],
            &p["replicas"]["exclusiveMaximum"]
        ),
        (
            &serde_json::json!(0),
            &serde_json::json!(true),
            &serde_json::json!(5),
            &serde_json::json!(true)
        )
    );
    assert_eq!(p["port"]["maximum"], 2147483647);
    assert!(p["port"].get("exclusiveMaximum").is_none());
    assert!(
        v["required"]
            .as_array()
            .is_some_and(|r| !r.contains(&"phase".into()))
    );
    assert!(
        run.stderr.contains("port: +k8s:ifNotSubresource: depends on whether a request addresses the subresource `/resize`"),
        "{}",
        run.stderr
    );
    let main = kdv(&[
        "schema",
        "--types",
        EXTENSIONS,
        "GadgetSpec",
        "--subresource",
        "/",
    ]);
    let v: serde_json::Value = serde_json::from_str(&main.stdout).expect("JSON");
    assert_eq!(v["properties"]["port"]["maximum"], 65536);
    assert_eq!(v["properties"]["port"]["exclusiveMaximum"], true);
    assert!(!main.stderr.contains("ifNotSubresource"), "{}", main.stderr);
    let status = kdv(&[
        "schema",
        "--types",
        EXTENSIONS,
        "GadgetSpec",
        "--subresource",
        "status",
    ]);
    let v: serde_json::Value = serde_json::from_str(&status.stdout).expect("JSON");
    assert!(
        v["required"]
            .as_array()
            .is_some_and(|r| r.contains(&"phase".into()))
    );
}

/// Issue 22's headline bug: a `+k8s:optional` field with `+default=5` was `required` in the
/// emitted CRD, with no default. Both spellings publish `default`, no defaulted field is
/// required, the CRD passes `kdv lint --crd`, and `kdv lint --upstream` flags
/// `+k8s:default` (a kdv extension) but not upstream's `+default=`.
#[test]
fn defaults_are_published_and_never_required() {
    const API: &str = "crates/kdv-cli/tests/fixtures/tags/defaults";
    let run = kdv(&["schema", "--types", API, "UpstreamDefault", "--crd"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let s = &v["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
    assert_eq!(s["required"], serde_json::Value::Null, "{s}");
    assert_eq!(s["properties"]["count"]["default"], 5);
    assert_eq!(s["properties"]["mode"]["default"], "fast");
    let run = kdv(&["schema", "--types", API, "Default", "--crd"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let s = &v["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
    assert_eq!(s["required"], serde_json::Value::Null, "{s}");
    assert_eq!(s["properties"]["replicas"]["default"], 1);
    assert_eq!(s["properties"]["policy"]["default"], "Always");
    assert_eq!(s["properties"]["timeout"]["default"], 30);
    assert_eq!(s["properties"]["minReadySeconds"]["default"], 0);
    let scratch = Scratch::new("defaults-crd");
    let dir = scratch.path();
    let crd = dir.join("crd.json");
    std::fs::write(&crd, &run.stdout).unwrap();
    let lint = kdv(&["lint", "--crd", crd.to_str().unwrap()]);
    assert_eq!(lint.code, 0, "{}{}", lint.stdout, lint.stderr);
    let upstream = kdv(&["lint", "--upstream", "--types", API]);
    assert_eq!(upstream.code, 1);
    let flagged: Vec<&str> = upstream
        .stdout
        .lines()
        .filter(|l| l.contains("is a kdv extension"))
        .collect();
    assert_eq!(flagged.len(), 1, "{}", upstream.stdout);
    assert!(
        flagged[0]
            .contains("types.go:13:6: error: tag \"k8s:default\" is a kdv extension (KEP-5073")
    );
    assert!(
        upstream.stdout.contains("reported 4 times"),
        "{}",
        upstream.stdout
    );
    assert!(
        !upstream.stdout.contains("tag \"default\""),
        "{}",
        upstream.stdout
    );
}
