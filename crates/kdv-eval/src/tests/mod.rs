//! Interpreter tests: Go sources compiled through `kdv-go` and `kdv-rules`, JSON values
//! validated on Create and Update, exact error texts and origins asserted. Several cases
//! reproduce upstream fixture expectations (`output_tests/**/doc_test.go`) with values
//! written here in JSON.

mod basics;
mod cel_rules;
mod custom;
mod defaults;
mod dependencies;
mod fixtures;
mod items;
mod lists;
mod modes;
mod native;
mod ratcheting;
mod shortcircuit;
mod unions;
mod unknown;
mod update;
mod virtual_fields;

use std::path::PathBuf;

use kdv_model::{Severity, Universe};
use kdv_rules::{RuleSet, compile};
use kdv_runtime::{ErrorList, FieldError, Operation, StabilityLevel};
use serde_json::Value;

/// A compiled Go package.
pub(crate) struct Fixture {
    pub rules: RuleSet,
}

/// Compiles `src` (one Go file, package path `example.com/<name>`); panics on any error
/// diagnostic.
pub(crate) fn fixture(src: &str) -> Fixture {
    let (pkg, diags) = kdv_go::load_sources(
        "example.com/p",
        &[(PathBuf::from("types.go"), src.to_string())],
    );
    assert!(diags.is_empty(), "Go parse diagnostics: {diags:?}");
    let mut universe = Universe::default();
    universe.packages.insert(pkg.path.clone(), pkg);
    let compiled = compile(&universe);
    let errors: Vec<String> = compiled
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.message.clone())
        .collect();
    assert!(errors.is_empty(), "compile errors: {errors:?}");
    Fixture {
        rules: compiled.rules,
    }
}

fn parse(json: &str) -> Value {
    serde_json::from_str(json).expect("test JSON")
}

impl Fixture {
    /// Raw errors.
    pub fn run(&self, ty: &str, op: &Operation, new: &str, old: Option<&str>) -> ErrorList {
        let id = self.rules.find_type(ty).expect("type");
        let new = parse(new);
        let old = old.map(parse);
        crate::validate(&self.rules, id, op, &new, old.as_ref())
    }

    /// Rendered errors (`Error()` plus origin and marks) of a Create.
    pub fn create(&self, ty: &str, new: &str) -> Vec<String> {
        render(&self.run(ty, &Operation::create(), new, None))
    }

    /// Rendered errors of an Update.
    pub fn update(&self, ty: &str, new: &str, old: &str) -> Vec<String> {
        render(&self.run(ty, &Operation::update(), new, Some(old)))
    }
}

/// `Error()` text, then ` [origin]`, ` SC`, ` alpha`/` beta`, ` native` when present.
pub(crate) fn show(e: &FieldError) -> String {
    let mut s = e.to_string();
    if !e.origin.is_empty() {
        s.push_str(&format!(" [{}]", e.origin));
    }
    if e.short_circuit {
        s.push_str(" SC");
    }
    match e.stability {
        StabilityLevel::Alpha => s.push_str(" alpha"),
        StabilityLevel::Beta => s.push_str(" beta"),
        StabilityLevel::Unknown => {}
    }
    if e.declarative_native {
        s.push_str(" native");
    }
    s
}

pub(crate) fn render(errs: &ErrorList) -> Vec<String> {
    errs.iter().map(show).collect()
}

/// Sorted copy (for order-insensitive comparisons, as upstream's matchers are).
pub(crate) fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// `Vec<String>` from string literals.
pub(crate) fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}
