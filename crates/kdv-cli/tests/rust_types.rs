//! `--types FILE.rs`: the Rust types `#[derive(Validate)]` reads, from the shell — tag
//! misuse with the derive's message (`kdv lint`), manifests validated against them (`kdv
//! validate`), their schema (`kdv schema`).

mod common;
use common::{kdv, root};
use kdv_test_support::Scratch;

const WIDGET_RS: &str = "crates/kdv/tests/widget/types.rs";

#[test]
fn lint_reports_misuse_as_the_derive_does() {
    let run = kdv(&["lint", "--types", "crates/kdv/tests/ui/bad_payload.rs"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "bad_payload.rs:6:24: error: tag \"k8s:maxLength\": tag value has wrong type: got string, want int"
        ),
        "{}",
        run.stdout
    );
    // The same message the derive's compile error carries.
    let ui = std::fs::read_to_string(root().join("crates/kdv/tests/ui/bad_payload.stderr"))
        .expect("the trybuild expectation");
    assert!(ui.contains("tag \"k8s:maxLength\": tag value has wrong type: got string, want int"));
}

#[test]
fn manifests_validate_against_rust_types_as_against_the_go_package() {
    // The version of a Rust module is its file's name, as a Go package's is its name.
    let scratch = Scratch::new("rust-types");
    let dir = scratch.path();
    let v1 = dir.join("v1.rs");
    std::fs::copy(root().join(WIDGET_RS), &v1).expect("copies the types");
    for manifest in [
        "examples/manifests/widget-minimal.yaml",
        "examples/manifests/widget-full.yaml",
        "examples/manifests/widget.json",
        "examples/manifests/fleet.yaml",
        "examples/manifests/bad-metadata.yaml",
        "examples/manifests/bad-ports.yaml",
        "examples/manifests/bad-probe.yaml",
        "examples/manifests/bad-required.yaml",
        "examples/manifests/bad-spec.yaml",
        "examples/manifests/ratchet.yaml",
        "examples/manifests/ratchet-partial.yaml",
        "examples/manifests/storage-change.yaml",
        "examples/manifests/update-rules.yaml",
    ] {
        let rust = kdv(&[
            "validate",
            "--types",
            v1.to_str().unwrap_or_default(),
            manifest,
        ]);
        let go = kdv(&["validate", "--types", "examples/api", manifest]);
        assert_eq!(
            rust.code, go.code,
            "{manifest}: {}\n{}",
            rust.stdout, go.stdout
        );
        assert_eq!(rust.stdout, go.stdout, "{manifest}");
    }
    let schema = kdv(&[
        "schema",
        "--types",
        v1.to_str().unwrap_or_default(),
        "WidgetSpec",
    ]);
    assert_eq!(schema.code, 0, "{}", schema.stderr);
    let v: serde_json::Value = serde_json::from_str(&schema.stdout).expect("JSON");
    assert_eq!(v["properties"]["replicas"]["maximum"], 100);
}

#[test]
fn unreadable_rust_files_are_input_errors() {
    let run = kdv(&["lint", "--types", "no/such/file.rs"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}
