//! `kdv conformance validation-gen`: skips without `KDV_UPSTREAM_CODEGEN`, and with it runs
//! the selected packages of upstream's suite.

use assert_cmd::cargo::cargo_bin_cmd;

#[test]
fn skips_without_checkout() {
    let out = cargo_bin_cmd!("kdv")
        .args(["conformance", "validation-gen"])
        .env_remove("KDV_UPSTREAM_CODEGEN")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "skipped: KDV_UPSTREAM_CODEGEN not set\n"
    );
}

#[test]
fn runs_selected_packages() {
    let Some(root) = std::env::var_os("KDV_UPSTREAM_CODEGEN") else {
        println!("skipped: KDV_UPSTREAM_CODEGEN not set");
        return;
    };
    let out = cargo_bin_cmd!("kdv")
        .args(["conformance", "validation-gen", "--package", "tags/minimum"])
        .env("KDV_UPSTREAM_CODEGEN", root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("tags/minimum: "), "{text}");
    assert!(
        text.lines().last().is_some_and(|l| l.ends_with(" skipped")),
        "{text}"
    );
}

/// The cel-spec suite from `../shared` (the data is read in place, never copied): one file
/// run through the CLI, every non-skipped case passing.
#[test]
fn cel_spec_runs_one_file() {
    let data = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/conformance/cel-spec"
    );
    let out = cargo_bin_cmd!("kdv")
        .args(["conformance", "cel-spec", "--data", data, "--file", "basic"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("basic: 43 passed, 0 failed, 0 skipped"),
        "{text}"
    );
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l == "43 passed, 0 failed, 0 skipped"),
        "{text}"
    );
}

#[test]
fn cel_spec_missing_data_is_an_input_error() {
    let out = cargo_bin_cmd!("kdv")
        .args(["conformance", "cel-spec", "--data", "/nonexistent/cel-spec"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
