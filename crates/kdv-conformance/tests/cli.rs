//! The `kdv-conformance` binary end to end: cel-spec files from the project's
//! `testdata/cel-spec` (by default and with `--data`), exit status 2 with a message when
//! nothing runs, the validation-gen suite when `KDV_UPSTREAM_CODEGEN` names a checkout and
//! the apiextensions suite when `KDV_UPSTREAM_APIEXTENSIONS` names one.

use std::process::Output;

use assert_cmd::Command;
use kdv_test_support::Scratch;

/// The project's cel-spec data, as a path from this crate.
const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/cel-spec");

fn run(args: &[&str]) -> Output {
    Command::cargo_bin("kdv-conformance")
        .unwrap()
        .args(args)
        .env_remove("KDV_UPSTREAM_CODEGEN")
        .env_remove("KDV_UPSTREAM_APIEXTENSIONS")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// One cel-spec file, read from the default data directory (the project's testdata): every
/// test passes, and the run closes with the totals.
#[test]
fn cel_spec_runs_one_file() {
    let out = run(&["cel-spec", "--file", "basic"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("basic: 43 passed, 0 failed, 0 skipped"),
        "{stdout}"
    );
    assert_eq!(
        stdout.lines().last(),
        Some("43 passed, 0 failed, 0 skipped"),
        "{stdout}"
    );
}

/// `--data` names the directory; skips are counted and listed with their reasons.
#[test]
fn cel_spec_with_data_lists_skip_reasons() {
    let out = run(&["cel-spec", "--data", DATA, "--file", "bindings_ext"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("skipped:\n"), "{stdout}");
    assert!(stdout.contains("cel.bind (ext.Bindings)"), "{stdout}");
    let last = stdout.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("0 passed, 0 failed, ") && last.ends_with(" skipped"),
        "{stdout}"
    );
    assert_ne!(last, "0 passed, 0 failed, 0 skipped", "{stdout}");
}

/// A failing test makes the exit status 1; `--verbose` shows it.
#[test]
fn cel_spec_failure_exits_1() {
    let scratch = Scratch::new("conformance-fail");
    let dir = scratch.path();
    scratch.write(
        "simple/mine.json",
        r#"{"name": "mine", "section": [{"name": "s", "test": [
            {"name": "passes", "expr": "1 + 1 == 2"},
            {"name": "fails", "expr": "1 == 2"}
        ]}]}"#,
    );
    let out = run(&["cel-spec", "--verbose", "--data", dir.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.starts_with("mine: 1 passed, 1 failed, 0 skipped\n"),
        "{stdout}"
    );
    assert!(stdout.contains("FAIL mine/s/fails"), "{stdout}");
    assert_eq!(
        stdout.lines().last(),
        Some("1 passed, 1 failed, 0 skipped"),
        "{stdout}"
    );
}

#[test]
fn cel_spec_missing_data_runs_nothing() {
    let out = run(&["cel-spec", "--data", "/nonexistent/cel-spec"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "0 passed, 0 failed, 0 skipped\n");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("/nonexistent/cel-spec"), "{stderr}");
    assert!(stderr.contains("--data DIR"), "{stderr}");
}

#[test]
fn cel_spec_empty_data_runs_nothing() {
    let scratch = Scratch::new("conformance-empty");
    let dir = scratch.path();
    let out = run(&["cel-spec", "--data", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "0 passed, 0 failed, 0 skipped\n");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("no cel-spec test files"), "{stderr}");
}

#[test]
fn cel_spec_unknown_file_runs_nothing() {
    let out = run(&["cel-spec", "--file", "no_such_file"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "0 passed, 0 failed, 0 skipped\n");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("\"no_such_file\""), "{stderr}");
    assert!(stderr.contains("basic, "), "{stderr}");
}

#[test]
fn validation_gen_without_checkout_runs_nothing() {
    let out = run(&["validation-gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "0 passed, 0 failed, 0 skipped\n");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("KDV_UPSTREAM_CODEGEN"), "{stderr}");
    assert!(stderr.contains("--codegen DIR"), "{stderr}");
}

#[test]
fn validation_gen_without_suite_runs_nothing() {
    let out = run(&["validation-gen", "--codegen", "/nonexistent/code-generator"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("/nonexistent/code-generator/cmd/validation-gen/output_tests"),
        "{stderr}"
    );
}

#[test]
fn bad_arguments_are_usage_errors() {
    assert_eq!(run(&["cel-spec", "--bogus"]).status.code(), Some(2));
    assert_eq!(run(&["validation-gen", "--package"]).status.code(), Some(2));
    assert_eq!(run(&[]).status.code(), Some(2));
    assert_eq!(run(&["--help"]).status.code(), Some(0));
}

/// With a checkout (from `KDV_UPSTREAM_CODEGEN`, passed both ways), the selected package
/// runs and passes.
#[test]
fn validation_gen_runs_selected_packages() {
    let Some(root) = std::env::var_os("KDV_UPSTREAM_CODEGEN") else {
        println!("skipped: KDV_UPSTREAM_CODEGEN not set");
        return;
    };
    let check = |out: Output| {
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
        assert!(stdout.starts_with("tags/minimum: "), "{stdout}");
        let last = stdout.lines().last().unwrap_or_default();
        assert!(last.ends_with(" passed, 0 failed, 0 skipped"), "{stdout}");
    };
    check(
        Command::cargo_bin("kdv-conformance")
            .unwrap()
            .args(["validation-gen", "--package", "tags/minimum"])
            .env("KDV_UPSTREAM_CODEGEN", &root)
            .output()
            .unwrap(),
    );
    check(
        Command::cargo_bin("kdv-conformance")
            .unwrap()
            .args(["validation-gen", "--package", "tags/minimum", "--codegen"])
            .arg(&root)
            .env_remove("KDV_UPSTREAM_CODEGEN")
            .output()
            .unwrap(),
    );
    let out = Command::cargo_bin("kdv-conformance")
        .unwrap()
        .args(["validation-gen", "--package", "no/such/package"])
        .env("KDV_UPSTREAM_CODEGEN", &root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("\"no/such/package\""));
}

#[test]
fn apiextensions_without_checkout_runs_nothing() {
    let out = run(&["apiextensions"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "0 passed, 0 failed, 0 skipped\n");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("KDV_UPSTREAM_APIEXTENSIONS"), "{stderr}");
    assert!(stderr.contains("--checkout DIR"), "{stderr}");
}

/// With a checkout (from `KDV_UPSTREAM_APIEXTENSIONS`), one table runs and the report closes
/// with the suite's totals; a filter that selects no table runs nothing.
#[test]
fn apiextensions_with_checkout() {
    let Some(root) = std::env::var_os("KDV_UPSTREAM_APIEXTENSIONS") else {
        println!("skipped: KDV_UPSTREAM_APIEXTENSIONS not set");
        return;
    };
    let out = Command::cargo_bin("kdv-conformance")
        .unwrap()
        .args(["apiextensions", "--table", "TestReasonAndFldPath"])
        .env("KDV_UPSTREAM_APIEXTENSIONS", &root)
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    // 0 when kdv agrees on every case, 1 otherwise: both are runs.
    assert!(matches!(out.status.code(), Some(0 | 1)), "{stdout}");
    assert!(stdout.starts_with("TestReasonAndFldPath: "), "{stdout}");
    let last = stdout.lines().last().unwrap_or_default();
    assert!(last.starts_with("apiextensions: "), "{stdout}");
    assert!(last.ends_with(", 0 skipped"), "{stdout}");

    let out = Command::cargo_bin("kdv-conformance")
        .unwrap()
        .args(["apiextensions", "--table", "NoSuchTable"])
        .arg("--checkout")
        .arg(&root)
        .env_remove("KDV_UPSTREAM_APIEXTENSIONS")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no test table matches --table \"NoSuchTable\""),
        "{}",
        text(&out.stderr)
    );
}
