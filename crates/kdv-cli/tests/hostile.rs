//! Hostile and odd inputs (issue 21): each item's regression test, end to end.

mod common;

use common::{Kdv, git, kdv};
use kdv_test_support::Scratch;

/// Parses one line with the classic quickfix pattern `%f:%l:%c:%m`: file, line, column,
/// message.
fn quickfix(line: &str) -> Option<(String, u64, u64, String)> {
    let pattern = regex::Regex::new(r"^([^:]+):(\d+):(\d+):(.*)$").expect("pattern");
    let c = pattern.captures(line)?;
    Some((
        c[1].to_string(),
        c[2].parse().ok()?,
        c[3].parse().ok()?,
        c[4].trim_start().to_string(),
    ))
}

#[test]
fn item_13_locations_parse_as_file_line_col_message() {
    let dir = Scratch::new("item13");
    let name = dir.write(
        "m.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\ndata:\n  a: x\n---\n\
         apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad\n  bogus: 1\ndata:\n  a: 1\n---\n\
         apiVersion: v1\nkind: Nope\nmetadata:\n  name: n\n",
    );
    let name = name.as_str();
    let run = kdv(&["validate", "--unknown-fields=warn", name]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    let located: Vec<(String, u64, u64, String)> = run
        .stdout
        .lines()
        .chain(run.stderr.lines())
        .filter_map(quickfix)
        .collect();
    for (f, _, _, _) in &located {
        assert_eq!(f, name, "{}", run.transcript());
    }
    let messages: Vec<(u64, u64, &str)> = located
        .iter()
        .map(|(_, l, c, m)| (*l, *c, m.as_str()))
        .collect();
    // The error, the warning and the input error, each at its line in the file (the second
    // and third documents), the document's index nowhere in the location.
    assert!(
        messages.contains(&(
            14,
            6,
            "data.a: Invalid value: \"integer\": data.a in body must be of type string: \"integer\""
        )),
        "{}",
        run.transcript()
    );
    assert!(
        messages
            .iter()
            .any(|(l, c, m)| (*l, *c) == (12, 3) && m.starts_with("warning: unknown field")),
        "{}",
        run.transcript()
    );
    assert!(
        messages
            .iter()
            .any(|(l, _, m)| *l == 17 && m.starts_with("error: ")),
        "{}",
        run.transcript()
    );
    // Every line that names the file parses so.
    for line in run.stdout.lines().chain(run.stderr.lines()) {
        if line.contains(name) {
            assert!(quickfix(line).is_some(), "{line}");
        }
    }
}

/// How many candidates the message of an ambiguous old revision names (it counts the rest).
const CANDIDATES: usize = 5;

#[test]
fn item_01_ambiguous_old_objects_are_listed_up_to_a_cap() {
    let n = 3_000;
    let dir = Scratch::new("item01");
    let doc = "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: same\ndata:\n  a: x\n";
    let same = dir.write("same.yaml", doc.repeat(n));
    let run = kdv(&["validate", "--old", &same, &same]);
    assert_eq!(run.code, 2, "{}", &run.transcript()[..2000]);
    let errors: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.contains(": error: "))
        .collect();
    assert_eq!(errors.len(), n);
    for line in errors {
        assert!(
            line.contains(&format!("ambiguous: {n} old objects have"))
                && line.ends_with(&format!("and {} more", n - CANDIDATES))
                && line.matches("(document ").count() == CANDIDATES,
            "{line}"
        );
        assert!(line.len() < 2 * same.len() * CANDIDATES + 300, "{line}");
    }
}

#[test]
fn item_01_generate_name_objects_are_always_created() {
    let n = 2_000;
    let dir = Scratch::new("item01-generate");
    let doc =
        "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  generateName: cm-\ndata:\n  a: x\n";
    dir.write("cms.yaml", doc.repeat(n));
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "cms.yaml"]);
    git(dir.path(), &["commit", "-q", "-m", "cms"]);
    let file = dir.path().join("cms.yaml");
    let run = kdv(&[
        "validate",
        "-o",
        "json",
        "--old-ref",
        "HEAD",
        file.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", &run.stderr[..run.stderr.len().min(2000)]);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON report");
    let documents = report["documents"].as_array().expect("documents");
    assert_eq!(documents.len(), n);
    assert!(documents.iter().all(|d| d["operation"] == "CREATE"));
    assert!(run.stderr.len() < 1000, "{}", run.stderr);
}

fn utf16(text: &str, little: bool, bom: bool) -> Vec<u8> {
    let mut bytes = match (bom, little) {
        (false, _) => vec![],
        (true, true) => vec![0xFF, 0xFE],
        (true, false) => vec![0xFE, 0xFF],
    };
    for unit in text.encode_utf16() {
        bytes.extend(if little {
            unit.to_le_bytes()
        } else {
            unit.to_be_bytes()
        });
    }
    bytes
}

#[test]
fn item_10_utf16_with_a_bom_is_read_and_without_one_is_named() {
    let dir = Scratch::new("item10");
    let text =
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cafe\ndata:\n  a: 1\n  b: café\n";
    for little in [true, false] {
        let file = dir.write("bom.yaml", utf16(text, little, true));
        let run = kdv(&["validate", &file]);
        // Read as text: the error is the value's, at its line and column.
        assert_eq!(run.code, 1, "{}", run.transcript());
        assert!(
            run.stdout
                .starts_with(&format!("{file}:6:6: data.a: Invalid value")),
            "{}",
            run.transcript()
        );
    }
    let file = dir.write("nobom.yaml", utf16(text, true, false));
    let run = kdv(&["validate", &file]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains(&format!(
            "{file}:1:2: error: control characters are not allowed: a NUL byte (binary data, or UTF-16 without a byte order mark?"
        )),
        "{}",
        run.transcript()
    );
    assert!(!run.stderr.contains("\\u{"), "{}", run.transcript());
}

#[cfg(unix)]
#[test]
fn dangling_symlink_in_a_walked_directory_is_named() {
    let dir = Scratch::new("dangling");
    dir.write(
        "ok.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
    );
    std::os::unix::fs::symlink("gone.yaml", dir.path().join("link.yaml")).unwrap();
    let run = kdv(&["validate", dir.path().to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    let link = dir.path().join("link.yaml");
    assert!(
        run.stderr.contains(&format!(
            "{}: error: is a dangling symlink: its target gone.yaml does not exist",
            link.display()
        )),
        "{}",
        run.transcript()
    );
}

#[test]
fn validate_reads_a_crd_from_standard_input() {
    let dir = Scratch::new("crd-stdin");
    let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n\
               metadata:\n  name: widgets.demo.kdv.dev\nspec:\n  group: demo.kdv.dev\n  \
               names: {kind: Widget, plural: widgets}\n  scope: Namespaced\n  versions:\n  \
               - name: v1\n    served: true\n    storage: true\n    schema:\n      \
               openAPIV3Schema:\n        type: object\n        properties:\n          \
               spec: {type: object, properties: {size: {type: integer, maximum: 3}}}\n";
    let widget = dir.write(
        "w.yaml",
        "apiVersion: demo.kdv.dev/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 4\n",
    );
    let run = Kdv::new(&["validate", "--crd", "-", &widget])
        .stdin(crd)
        .run();
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(
        run.stdout
            .starts_with(&format!("{widget}:6:9: spec.size: Invalid value: 4")),
        "{}",
        run.stdout
    );
    // Standard input read twice is a usage error.
    let run = kdv(&["validate", "--crd", "-", "-"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains("can be read only once"),
        "{}",
        run.transcript()
    );
}

#[test]
fn item_03_text_output_caps_the_errors_of_a_document() {
    let dir = Scratch::new("item03");
    let mut text = String::from("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n");
    for i in 0..150 {
        text.push_str(&format!("  k{i:03}: {i}\n"));
    }
    let file = dir.write("cm.yaml", text);
    let run = kdv(&["validate", &file]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 101, "{}", run.stdout);
    assert!(lines[0].starts_with(&format!("{file}:6:9: data.k000: Invalid value")));
    assert_eq!(
        lines[100],
        format!(
            "{file}:1:1: 50 more errors in this document (text output shows the first 100; -o json lists all)"
        )
    );
    // JSON lists them all.
    let run = kdv(&["validate", "-o", "json", &file]);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON report");
    assert_eq!(
        report["documents"][0]["errors"].as_array().map(Vec::len),
        Some(150)
    );
}

/// A CRD whose schema has `n` properties of the misspelled type `strign` (one finding
/// each), serialized as one JSON line.
fn one_line_crd(n: usize) -> String {
    let properties: serde_json::Map<String, serde_json::Value> = (0..n)
        .map(|i| (format!("p{i:05}"), serde_json::json!({"type": "strign"})))
        .collect();
    let crd = serde_json::json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.demo.kdv.dev"},
        "spec": {
            "group": "demo.kdv.dev",
            "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "properties": properties}
                }}}
            }]
        }
    });
    format!("{crd}\n")
}

#[test]
fn item_02_findings_on_a_one_line_crd_print_a_bounded_amount_each() {
    const N: usize = 2000;
    let dir = Scratch::new("item02-lint");
    let text = one_line_crd(N);
    assert!(text.len() > 50_000);
    let json_file = dir.write("crd.json", &text);
    // The same line read as (flow) YAML.
    let yaml_file = dir.write("crd.yaml", &text);
    for file in [&json_file, &yaml_file] {
        let run = kdv(&["lint", "--crd", file]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(
            run.stderr
                .contains(&format!("{N} findings ({N} errors, 0 warnings)")),
            "{}",
            run.stderr
        );
        // Each finding: its headline and a snippet of the line clipped around it.
        assert!(run.stdout.len() < N * 1000, "{} bytes", run.stdout.len());
        let json = kdv(&["lint", "--crd", file, "-o", "json"]);
        assert!(json.stdout.len() < N * 1000, "{} bytes", json.stdout.len());
        let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON output");
        let findings = v["findings"].as_array().expect("findings");
        assert_eq!(findings.len(), N);
        // Columns are exact however far along the line (characters; the line is ASCII).
        for (i, f) in findings.iter().enumerate().step_by(199) {
            let at = text
                .find(&format!("\"p{i:05}\":{{\"type\":\"strign\""))
                .expect("key");
            let column = at + format!("\"p{i:05}\":{{\"type\":").len() + 1;
            assert_eq!(f["column"], column, "{f}");
            assert_eq!(f["line"], 1);
        }
        let sarif = kdv(&["lint", "--crd", file, "-o", "sarif"]);
        assert!(
            sarif.stdout.len() < N * 1500,
            "{} bytes",
            sarif.stdout.len()
        );
    }
}

#[test]
fn item_02_validate_crd_caps_the_refusal_it_echoes() {
    let dir = Scratch::new("item02-validate");
    let crd = dir.write("crd.json", one_line_crd(2000));
    let object = dir.write(
        "w.yaml",
        "apiVersion: demo.kdv.dev/v1\nkind: Widget\nmetadata:\n  name: w\n",
    );
    let run = kdv(&["validate", "--crd", &crd, &object]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    let line = run.stderr.lines().next().unwrap_or_default();
    assert!(
        line.starts_with(&format!(
            "error: --crd: {crd}:1:"
        )) && line.contains(
            ": CustomResourceDefinition.apiextensions.k8s.io \"widgets.demo.kdv.dev\" is invalid: [spec.validation.openAPIV3Schema.properties[spec].properties[p00000].type: Unsupported value: \"strign\""
        ),
        "{line}"
    );
    // The 2,000 errors are counted, not echoed: a capped line, head and tail kept.
    assert!(line.chars().count() < 1200, "{} characters", line.len());
    assert!(line.contains(" characters]…"), "{line}");
    assert!(line.ends_with("\"string\"]"), "{line}");
    let json = kdv(&["validate", "--crd", &crd, &object, "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON output");
    let message = v["error"]["message"].as_str().expect("message");
    assert!(
        message.chars().count() < 1200,
        "{} characters",
        message.len()
    );
}
