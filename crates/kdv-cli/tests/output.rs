//! End-to-end tests of how `kdv` reports: file names in every format, JSON on every outcome,
//! SARIF, `--quiet`, and parallel validation with output in input order.

mod common;

use common::{kdv, kdv_in, root};
use kdv_test_support::Scratch;
use serde_json::{Value, json};

const API: &str = "examples/api";
const MANIFESTS: &str = "examples/manifests";
const BAD_API: &str = "crates/kdv-cli/tests/fixtures/bad-api";

fn bad_spec() -> String {
    std::fs::read_to_string(root().join(MANIFESTS).join("bad-spec.yaml")).unwrap()
}

// ---------------------------------------------------------------------------------------
// 16. File names

#[cfg(unix)]
#[test]
fn item_16_file_names_are_escaped_in_text_and_exact_in_json_and_sarif() {
    use std::os::unix::ffi::OsStrExt;
    let s = Scratch::new("names");
    let names: [&[u8]; 4] = [
        b"a#0: b.yaml",
        b"new\nline.yaml",
        b"esc\x1b[2J.yaml",
        b"bad\xff.yaml",
    ];
    for name in names {
        std::fs::write(s.path().join(std::ffi::OsStr::from_bytes(name)), bad_spec()).unwrap();
    }
    let types = root().join(API);
    let types = types.to_str().unwrap();
    let run = kdv_in(s.path(), &["validate", "--types", types, "."]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let mut firsts: Vec<&str> = run
        .stdout
        .lines()
        // `<file>:<line>:<col>: spec...`: the name is what precedes the position.
        .map(|l| {
            let located = l.split(": spec.").next().unwrap();
            located.rsplitn(3, ':').last().unwrap()
        })
        .collect();
    firsts.dedup();
    // Sorted by bytes: "./a#0...", "./bad\xff", "./esc...", "./new...".
    assert_eq!(
        firsts,
        [
            r#""./a#0: b.yaml""#,
            r#""./bad\xff.yaml""#,
            r#""./esc\x1b[2J.yaml""#,
            r#""./new\nline.yaml""#
        ]
    );
    assert!(!run.stdout.contains('\u{1b}'));

    let run = kdv_in(s.path(), &["validate", "--types", types, "-o", "json", "."]);
    let report = run.json();
    let files: Vec<&Value> = report["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| &d["file"])
        .collect();
    assert_eq!(
        files,
        [
            "./a#0: b.yaml",
            "./bad\u{fffd}.yaml",
            "./esc\u{1b}[2J.yaml",
            "./new\nline.yaml"
        ]
    );
    assert_eq!(
        report["documents"][1]["fileBytes"],
        json!(b"./bad\xff.yaml".to_vec())
    );

    let run = kdv_in(
        s.path(),
        &["validate", "--types", types, "-o", "sarif", "."],
    );
    let log = run.json();
    let uris: Vec<&str> = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert!(uris.contains(&"./a%230%3A%20b.yaml"), "{uris:?}");
    assert!(uris.contains(&"./bad%FF.yaml"), "{uris:?}");
    assert!(uris.contains(&"./new%0Aline.yaml"), "{uris:?}");
}

#[test]
fn item_16_input_errors_name_files_escaped() {
    let run = kdv(&["validate", "--types", API, "no such\ndir/x.yaml"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("\"no such\\ndir/x.yaml\": error: cannot read: "),
        "{}",
        run.stderr
    );
}

// ---------------------------------------------------------------------------------------
// 17. CEL values

#[test]
fn item_17_cel_prints_values_as_cel_go_formats_them() {
    for (expr, want) in [
        ("quantity('1Gi')", "1Gi"),
        ("quantity('1024Mi')", "1Gi"),
        ("ip('10.0.0.1')", "10.0.0.1"),
        ("cidr('10.0.0.0/8')", "10.0.0.0/8"),
        ("url('https://x/a?b=c')", "https://x/a?b=c"),
        ("format.dns1123Label()", "format.dns1123Label()"),
        ("semver('1.2.3')", "1.2.3"),
        ("isQuantity('1')", "true"),
        ("optional.of(quantity('2k'))", "optional.of(2k)"),
        ("duration('90m')", "duration(\"5400s\")"),
        (
            "timestamp('2024-01-01T00:00:00Z')",
            "timestamp(\"2024-01-01T00:00:00Z\")",
        ),
        ("b'\\x00a'", "b\"\\000\\141\""),
        ("{'b': 2.0, 'a': 1.5}", "{\"a\": 1.5, \"b\": 2.0}"),
        ("type(ip('::1'))", "net.IP"),
    ] {
        let run = kdv(&["cel", expr]);
        assert_eq!(run.code, 0, "{expr}: {}{}", run.stdout, run.stderr);
        assert_eq!(run.stdout.lines().next(), Some(want), "{expr}");
        let run = kdv(&["cel", expr, "-o", "json"]);
        assert_eq!(run.json()["value"], json!(want), "{expr}");
    }
    let run = kdv(&["cel", "1/0", "-o", "json"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.json()["error"],
        json!({"kind": "evaluation", "message": "division by zero"})
    );
}

// ---------------------------------------------------------------------------------------
// 19. One JSON document whatever happens

#[test]
fn item_19_validate_json_reports_failures() {
    // Types with errors: their diagnostics and the error, exit 2.
    let run = kdv(&["validate", "--types", BAD_API, "-o", "json", MANIFESTS]);
    assert_eq!(run.code, 2);
    let report = run.json();
    assert_eq!(report["error"]["kind"], "typesInvalid");
    assert_eq!(
        report["diagnostics"][0]["file"],
        format!("{BAD_API}/broken.go")
    );
    assert_eq!(report["diagnostics"][0]["line"], 7);
    assert_eq!(report["documents"], json!([]));
    assert!(run.stderr.contains("`kdv lint --types"), "{}", run.stderr);

    for (args, kind) in [
        (vec!["--type", "Gadget", MANIFESTS], "unknownType"),
        (vec!["-", "-"], "usage"),
        // (`--old DIR` is no longer a usage error: old objects pair by identity.)
        (vec!["--old-ref", "HEAD", "-"], "usage"),
    ] {
        let mut all = vec!["validate", "--types", API, "-o", "json"];
        all.extend(args);
        let run = kdv(&all);
        assert_eq!(run.code, 2, "{all:?}");
        assert_eq!(run.json()["error"]["kind"], kind, "{all:?}");
        assert!(run.stderr.starts_with("error: "), "{all:?}: {}", run.stderr);
    }
    let run = kdv(&[
        "validate",
        "--types",
        "no/such/dir",
        "-o",
        "json",
        MANIFESTS,
    ]);
    assert_eq!(run.code, 2);
    assert_eq!(run.json()["error"]["kind"], "typesUnreadable");
    // SARIF too: the failure is a notification of a failed invocation.
    let run = kdv(&[
        "validate",
        "--types",
        "no/such/dir",
        "-o",
        "sarif",
        MANIFESTS,
    ]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.json()["runs"][0]["invocations"][0]["executionSuccessful"],
        false
    );
}

#[test]
fn item_19_lint_json() {
    let run = kdv(&["lint", "--types", BAD_API, "-o", "json"]);
    assert_eq!(run.code, 1);
    let report = run.json();
    assert_eq!(report["types"], BAD_API);
    assert_eq!(
        report["summary"],
        json!({"findings": 5, "errors": 5, "warnings": 0})
    );
    assert_eq!(
        report["findings"][1],
        json!({
            "severity": "error",
            "file": format!("{BAD_API}/types.go"),
            "line": 13,
            "column": 6,
            "message": "tag \"k8s:maxLength\": can only be used on string types (int32)",
            "text": format!("{BAD_API}/types.go:13:6: error: tag \"k8s:maxLength\": can only be used on string types (int32)"),
        })
    );
    assert_eq!(report["error"], Value::Null);
    assert_eq!(run.stderr, "");
    let run = kdv(&["lint", "--types", API, "-o", "json"]);
    assert_eq!(run.code, 0);
    assert_eq!(run.json()["findings"], json!([]));
    let run = kdv(&["lint", "--types", "no/such/dir", "-o", "json"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.json()["error"]["kind"], "typesUnreadable");
}

#[test]
fn item_19_cel_json_reports_failures() {
    let run = kdv(&["cel", "1 + 'a'", "-o", "json"]);
    assert_eq!(run.code, 2);
    let report = run.json();
    assert_eq!(report["error"]["kind"], "compile");
    assert!(
        report["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("ERROR: <input>:1:3: found no matching overload")
    );
    assert_eq!(report["value"], Value::Null);
    let run = kdv(&["cel", "self", "--self", "no/such.yaml", "-o", "json"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.json()["error"]["kind"], "input");
}

// ---------------------------------------------------------------------------------------
// 20. SARIF

#[test]
fn item_20_validate_sarif() {
    let run = kdv(&["validate", "--types", API, "-o", "sarif", MANIFESTS]);
    assert_eq!(run.code, 1);
    let log = run.json();
    let results = log["runs"][0]["results"].as_array().unwrap();
    // One error result per error of the JSON report (and a warning per shadowed error).
    let report = kdv(&["validate", "--types", API, "-o", "json", MANIFESTS]).json();
    assert_eq!(
        results.iter().filter(|r| r["level"] == "error").count() as u64,
        report["summary"]["errors"].as_u64().unwrap()
    );
    insta::assert_snapshot!("validate_sarif", run.stdout);
}

#[test]
fn item_20_lint_sarif() {
    let run = kdv(&["lint", "--types", BAD_API, "-o", "sarif"]);
    assert_eq!(run.code, 1);
    let log = run.json();
    let first = &log["runs"][0]["results"][0];
    assert_eq!(first["ruleId"], "Lint");
    assert_eq!(
        first["locations"][0]["physicalLocation"],
        json!({
            "artifactLocation": {"uri": format!("{BAD_API}/broken.go")},
            "region": {"startLine": 7, "startColumn": 1, "endColumn": 5},
        })
    );
    insta::assert_snapshot!("lint_sarif", run.stdout);
}

// ---------------------------------------------------------------------------------------
// 21. --quiet, no progress bar off a terminal

#[test]
fn item_21_quiet_keeps_errors_only() {
    let loud = kdv(&["validate", "--types", API, MANIFESTS]);
    let quiet = kdv(&["validate", "--types", API, "--quiet", MANIFESTS]);
    assert_eq!((quiet.code, &quiet.stdout), (loud.code, &loud.stdout));
    assert!(loud.stderr.contains("documents,"));
    assert_eq!(quiet.stderr, "");
    // Input errors stay.
    let run = kdv(&[
        "validate",
        "--types",
        API,
        "-q",
        "crates/kdv-cli/tests/fixtures/manifests/malformed.json",
    ]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "crates/kdv-cli/tests/fixtures/manifests/malformed.json:4:26: error: trailing comma\n"
    );
    // Warnings go.
    let custom = "crates/kdv-cli/tests/fixtures/tags/custom";
    let cases = format!("{custom}/cases/customValidation");
    let run = kdv(&["validate", "--types", custom, "-q", &cases]);
    assert_eq!(run.code, 1);
    assert_eq!(run.stderr, "");
    let run = kdv(&["lint", "--types", API, "-q"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
}

#[test]
fn item_21_no_progress_bar_when_stderr_is_not_a_terminal() {
    let s = Scratch::new("bar");
    for i in 0..300 {
        std::fs::write(s.path().join(format!("w{i:03}.yaml")), bad_spec()).unwrap();
    }
    let dir = s.path().to_str().unwrap();
    let run = kdv(&["validate", "--types", API, "-j", "1", dir]);
    assert_eq!(run.code, 1);
    // Besides the warnings of the shadowed +k8s:alpha rule (issue 13), only the summary.
    let rest: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| !l.ends_with("(shadowed: +k8s:alpha rules are never enforced)"))
        .collect();
    assert_eq!(rest, ["300 documents, 0 valid, 300 invalid"]);
}

// ---------------------------------------------------------------------------------------
// 22. Parallel validation, output in input order

#[test]
fn item_22_output_does_not_depend_on_the_number_of_jobs() {
    let s = Scratch::new("jobs");
    // Files of very different sizes, so workers finish out of order.
    let fleet = std::fs::read_to_string(root().join(MANIFESTS).join("fleet.yaml")).unwrap();
    for i in 0..60 {
        let text = if i % 7 == 0 {
            format!("{fleet}\n---\n").repeat(40)
        } else {
            bad_spec()
        };
        std::fs::write(s.path().join(format!("m{i:02}.yaml")), text).unwrap();
    }
    let dir = s.path().to_str().unwrap();
    let one = kdv(&["validate", "--types", API, "-j", "1", dir]);
    assert_eq!(one.code, 1);
    for jobs in ["2", "3", "8"] {
        let many = kdv(&["validate", "--types", API, "--jobs", jobs, dir]);
        assert_eq!(
            (many.code, &many.stdout, &many.stderr),
            (one.code, &one.stdout, &one.stderr),
            "-j {jobs}"
        );
    }
    let json_one = kdv(&["validate", "--types", API, "-j", "1", "-o", "json", dir]);
    let json_two = kdv(&["validate", "--types", API, "-j", "2", "-o", "json", dir]);
    assert_eq!(json_one.stdout, json_two.stdout);
}
