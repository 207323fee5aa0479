//! Shared helpers: load a Go package from text or a directory, compile it, emit.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use kdv_rules::{RuleSet, TypeId};
use serde_json::Value;

/// The rules of the Go package in `dir` (panics on compile errors: test input).
pub fn rules_of_dir(dir: &Path) -> RuleSet {
    let (universe, diags) = kdv_go::load_universe(dir).expect("load");
    assert_eq!(kdv_go::count_errors(&diags), 0, "{diags:?}");
    let compiled = kdv_rules::compile(&universe);
    assert!(!compiled.has_errors(), "{:?}", compiled.diagnostics);
    compiled.rules
}

/// The rules of one Go file (package `v1` at `example.com/api/v1`, group `demo.kdv.dev`
/// unless the source says otherwise).
pub fn rules_of(src: &str) -> RuleSet {
    let (pkg, diags) = kdv_go::load_sources(
        "example.com/api/v1",
        &[(PathBuf::from("types.go"), src.to_owned())],
    );
    assert_eq!(kdv_go::count_errors(&diags), 0, "{diags:?}");
    let mut universe = kdv_rules::Universe::default();
    universe.packages.insert(pkg.path.clone(), pkg);
    let compiled = kdv_rules::compile(&universe);
    assert!(!compiled.has_errors(), "{:?}", compiled.diagnostics);
    compiled.rules
}

/// The type called `name`.
pub fn ty(rules: &RuleSet, name: &str) -> TypeId {
    rules.find_type(name).expect("type")
}

/// The example API of the repository.
pub fn examples_api() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/api")
}

/// Asserts that the API server would create `crd` (kdv's write-time checks, CEL compile
/// and cost included) and that `add_crds` accepts it; returns the schema set.
pub fn assert_crd_accepted(crd: &Value) -> kdv_openapi::SchemaSet {
    let findings = kdv_openapi::validate_crd(crd);
    assert!(
        findings.decode_error.is_none(),
        "{:?}",
        findings.decode_error
    );
    assert!(
        findings.unknown_fields.is_empty(),
        "{:?}",
        findings.unknown_fields
    );
    let errors: Vec<String> = findings.errors.iter().map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let text = serde_json::to_string_pretty(crd).unwrap();
    let lint = kdv_openapi::lint_crds("crd.json", text.as_bytes(), 35);
    assert!(lint.unreadable.is_empty(), "{:?}", lint.unreadable);
    assert_eq!(lint.crds.len(), 1);
    let located: Vec<String> = lint.crds[0]
        .located
        .iter()
        .map(|f| format!("{f:?}"))
        .collect();
    assert!(located.is_empty(), "{}", located.join("\n"));
    let mut set = kdv_openapi::SchemaSet::new();
    set.add_crds("crd.json", text.as_bytes()).expect("add_crds");
    set
}
