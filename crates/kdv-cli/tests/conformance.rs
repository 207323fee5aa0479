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
