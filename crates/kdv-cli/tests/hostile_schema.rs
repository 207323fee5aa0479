//! End-to-end tests of issue 21's schema-side items (hostile and odd inputs): YAML keys and
//! numbers as kubectl converts them, metadata numbers, CEL limits and messages, long
//! patterns and lines, unclear messages. Assertions are on message substrings, not on the
//! location prefix of a line.

mod common;

use std::time::Duration;

use common::{Kdv, Run};
use kdv_test_support::Scratch;

/// Runs `kdv` with `args` in the repository root. Every run here must end quickly (a hang
/// is the bug being tested for).
fn kdv(args: &[&str]) -> Run {
    Kdv::new(args)
        .timeout(Duration::from_secs(120))
        .lossy()
        .run()
}

/// A namespaced CRD `widgets.demo.kdv.dev` whose v1 `spec` schema is `spec` (JSON).
fn crd(spec: &str) -> String {
    format!(
        r#"{{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {{"name": "widgets.demo.kdv.dev"}},
  "spec": {{"group": "demo.kdv.dev", "scope": "Namespaced",
    "names": {{"kind": "Widget", "plural": "widgets", "singular": "widget", "listKind": "WidgetList"}},
    "versions": [{{"name": "v1", "served": true, "storage": true,
      "schema": {{"openAPIV3Schema": {{"type": "object", "properties": {{"spec": {spec}}}}}}}}}]}}}}
"#
    )
}

const WIDGET: &str = "apiVersion: demo.kdv.dev/v1\nkind: Widget\nmetadata:\n  name: w\n";

#[test]
fn item_06_yaml_1_1_boolean_keys_are_true_and_false() {
    let s = Scratch::new("item06");
    let crd = s.write(
        "crd.json",
        crd(
            r#"{"type": "object", "properties": {"on": {"type": "string"},
            "pos": {"type": "object", "required": ["x", "y"],
                    "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}}}}}"#,
        ),
    );
    let w = s.write(
        "w.yaml",
        format!("{WIDGET}spec:\n  on: push\n  pos:\n    x: 1\n    y: 2\n"),
    );
    let run = kdv(&["validate", "--crd", &crd, &w]);
    let t = run.transcript();
    assert_eq!(run.code, 1, "{t}");
    assert!(t.contains(r#"unknown field "spec.true""#), "{t}");
    assert!(t.contains(r#"unknown field "spec.pos.true""#), "{t}");
    assert!(t.contains("spec.pos.y: Required value"), "{t}");
    // The unknown `spec.true` is located at the `on` key (line 6, column 3).
    assert!(t.contains("w.yaml:6:3"), "{t}");
    // Quoted, the keys are what they say.
    let q = s.write(
        "q.yaml",
        format!("{WIDGET}spec:\n  'on': push\n  pos:\n    x: 1\n    \"y\": 2\n"),
    );
    let run = kdv(&["validate", "--crd", &crd, &q]);
    assert_eq!(run.code, 0, "{}", run.transcript());
}

#[test]
fn item_09_out_of_range_numbers_as_go_yaml_v2_resolves_them() {
    let s = Scratch::new("item09");
    let crd = s.write(
        "crd.json",
        crd(
            r#"{"type": "object", "properties": {"s": {"type": "string"},
            "num": {"type": "number"}, "i": {"type": "integer"}}}"#,
        ),
    );
    // `1e400` overflows go-yaml's ParseFloat: a string, which a string field accepts.
    let ok = s.write("ok.yaml", format!("{WIDGET}spec:\n  s: 1e400\n"));
    let run = kdv(&["validate", "--crd", &crd, &ok]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let bad = s.write("bad.yaml", format!("{WIDGET}spec:\n  num: -1e309\n"));
    let run = kdv(&["validate", "--crd", &crd, &bad]);
    let t = run.transcript();
    assert_eq!(run.code, 1, "{t}");
    assert!(
        t.contains(r#"spec.num in body must be of type number: "string""#),
        "{t}"
    );
    // Beyond int64, a float that encoding/json writes as -9223372036854776000: no integer.
    for i in [
        "-9223372036854775809",
        "-9223372036854775808.0",
        "-9.223372036854775808e18",
    ] {
        let doc = s.write("i.yaml", format!("{WIDGET}spec:\n  i: {i}\n"));
        let run = kdv(&["validate", "--crd", &crd, &doc]);
        let t = run.transcript();
        assert_eq!(run.code, 1, "{i}: {t}");
        assert!(
            t.contains(r#"spec.i in body must be of type integer: "number""#),
            "{i}: {t}"
        );
    }
    let doc = s.write(
        "min.yaml",
        format!("{WIDGET}spec:\n  i: -9223372036854775808\n"),
    );
    let run = kdv(&["validate", "--crd", &crd, &doc]);
    assert_eq!(run.code, 0, "{}", run.transcript());
}

#[test]
fn item_08_integral_floats_in_metadata_are_accepted() {
    let s = Scratch::new("item08");
    let crd = s.write("crd.json", crd(r#"{"type": "object"}"#));
    for (generation, ok) in [("5.0", true), ("-0.0", true), ("1e2", true), ("5.5", false)] {
        let doc = s.write(
            "w.json",
            format!(
                r#"{{"apiVersion": "demo.kdv.dev/v1", "kind": "Widget",
  "metadata": {{"name": "w", "generation": {generation}, "deletionGracePeriodSeconds": {generation}}}, "spec": {{}}}}"#
            ),
        );
        let run = kdv(&["validate", "--crd", &crd, &doc]);
        let t = run.transcript();
        if ok {
            assert_eq!(run.code, 0, "{generation}: {t}");
        } else {
            assert_eq!(run.code, 1, "{generation}: {t}");
            assert!(
                t.contains("cannot unmarshal number 5.5 into Go struct field"),
                "{t}"
            );
        }
    }
}

#[test]
fn item_11_lists_range_is_bounded_by_the_cost_limit_only() {
    let run = kdv(&[
        "cel",
        "lists.range(2000000).size() == 2000000",
        "--cost-limit",
        "100000000",
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(run.stdout.starts_with("true\n"), "{}", run.transcript());
    let run = kdv(&["cel", "lists.range(2000000).size() == 2000000"]);
    let t = run.transcript();
    assert_eq!(run.code, 1, "{t}");
    assert!(
        t.contains("operation cancelled: actual cost limit exceeded"),
        "{t}"
    );
    // A limit beyond any memory: refused with the same error, nothing allocated.
    let run = kdv(&[
        "cel",
        "lists.range(4000000000000).size() > 0",
        "--cost-limit",
        "9000000000000",
    ]);
    let t = run.transcript();
    assert_eq!(run.code, 1, "{t}");
    assert!(
        t.contains("operation cancelled: actual cost limit exceeded"),
        "{t}"
    );
}

#[test]
fn message_enum_supported_values_are_capped_in_text_output() {
    let scratch = Scratch::new("enum");
    let values: Vec<String> = (0..200_000).map(|i| format!("\"v{i}\"")).collect();
    let spec = format!(
        r#"{{"type": "object", "properties": {{"mode": {{"type": "string", "enum": [{}]}}}}}}"#,
        values.join(",")
    );
    let crd = scratch.write("crd.json", crd(&spec));
    let obj = scratch.write("w.yaml", format!("{WIDGET}spec:\n  mode: nope\n"));
    let run = kdv(&["validate", "--crd", &crd, &obj]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let line = run.stdout.lines().next().expect("one error line");
    assert!(line.contains("supported values: \"v0\", \"v1\""), "{line}");
    assert!(line.len() < 1_500, "{} bytes", line.len());
    assert!(line.contains("characters]…"), "{line}");
    assert!(line.ends_with("\"v199999\""), "{line}");
    // JSON keeps the whole message, as the API server words it.
    let run = kdv(&["validate", "--crd", &crd, &obj, "-o", "json"]);
    assert!(
        run.stdout.contains(r#"\"v199999\""#),
        "{}",
        &run.stdout[..200]
    );
}

#[test]
fn message_openapi_document_parts_of_the_wrong_shape_are_named() {
    let scratch = Scratch::new("components");
    let dir = scratch.path().join("schemas/apis/demo.kdv.dev");
    std::fs::create_dir_all(&dir).unwrap();
    let obj = scratch.write("w.yaml", WIDGET);
    let schemas = scratch.path().join("schemas").display().to_string();
    std::fs::write(
        dir.join("v1.json"),
        r#"{"openapi": "3.0.0", "components": "x"}"#,
    )
    .unwrap();
    let run = kdv(&["validate", "--schema", &schemas, &obj]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("v1.json:1:1: components must be an object"),
        "{}",
        run.stderr
    );
    std::fs::write(dir.join("v1.json"), r#"{"openapi": "3.0.0"}"#).unwrap();
    let run = kdv(&["validate", "--schema", &schemas, &obj]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains(
            "(demo.kdv.dev/v1 declares no kinds: none of its schemas carries x-kubernetes-group-version-kind;"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn message_schema_of_an_unknown_type_names_the_nearest_and_the_roots() {
    let run = kdv(&["schema", "--types", "examples/api", "widget"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert_eq!(
        run.stderr,
        "error: widget: no such type in examples/api; nearest: Widget, Tier, WidgetPort, WidgetSpec, Probe; root types: Widget\n"
    );
    let long = "W".repeat(100_000);
    let run = kdv(&["schema", "--types", "examples/api", &long]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(run.stderr.len() < 1_500, "{}", run.stderr);
    assert!(
        run.stderr.contains("…[99000 characters]…"),
        "{}",
        run.stderr
    );
}

#[test]
fn message_a_second_crd_claiming_a_kind_is_refused() {
    let scratch = Scratch::new("names");
    let first = crd(r#"{"type": "object"}"#);
    let second = first
        .replace("widgets.demo.kdv.dev", "gadgets.demo.kdv.dev")
        .replace(r#""plural": "widgets""#, r#""plural": "gadgets""#)
        .replace(r#""singular": "widget""#, r#""singular": "gadget""#);
    let crds = scratch.write("crds.yaml", format!("{first}---\n{second}"));
    let obj = scratch.write("w.yaml", WIDGET);
    let run = kdv(&["validate", "--crd", &crds, &obj]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains(
            "CustomResourceDefinition \"gadgets.demo.kdv.dev\" is not served: \"Widget\" is already in use by CustomResourceDefinition \"widgets.demo.kdv.dev\""
        ) && run.stderr.contains("reason KindConflict"),
        "{}",
        run.stderr
    );
    // The same CRD twice (one name) is an update, not a conflict.
    let twice = scratch.write("twice.yaml", format!("{first}---\n{first}"));
    let run = kdv(&["validate", "--crd", &twice, &obj]);
    assert_eq!(run.code, 0, "{}", run.transcript());
}
