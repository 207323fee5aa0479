//! The system under test: compiling a fixture package with `kdv-rules`, deciding which
//! types its scheme registers (spec §2.8, §10.4), and validating with `kdv-eval`. Panics of
//! the validator are caught and reported as failures of the case, not of the harness.

use std::panic::{AssertUnwindSafe, catch_unwind};

use kdv_model::{Severity, Universe};
use kdv_rules::{RuleSet, Shape, TypeId};
use kdv_runtime::{ErrorList, Operation};

/// A type the package's scheme registers.
#[derive(Debug, Clone)]
pub struct Registration {
    /// Import path of the type's package.
    pub package: String,
    pub name: String,
    pub id: TypeId,
    /// Registered as `T` (maps and slices) rather than `*T`.
    pub nilable: bool,
    /// Accepted subresource paths (`/` for the root).
    pub subresources: Vec<String>,
}

/// A compiled fixture package.
pub struct CompiledPackage {
    pub rules: RuleSet,
    /// Error diagnostics of the compilation (rendered).
    pub errors: Vec<String>,
    pub registered: Vec<Registration>,
    /// Tags kdv-rules recognised but does not implement yet (from its warnings), e.g.
    /// `k8s:unionMember`.
    pub unimplemented_tags: std::collections::BTreeSet<String>,
    /// Roots of the package that kdv does not register because they have no validations.
    pub roots_without_validations: Vec<(String, String)>,
}

/// Values of a package-level `+<name>=<value>` tag.
fn package_tag_values(universe: &Universe, package: &str, name: &str) -> Vec<String> {
    let Some(pkg) = universe.packages.get(package) else {
        return Vec::new();
    };
    pkg.tags.raw_values(name)
}

/// Runs `f`, turning a panic into an error message.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        if let Some(s) = p.downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = p.downcast_ref::<String>() {
            s.clone()
        } else {
            "panic".to_string()
        }
    })
}

/// Compiles `universe` and selects the types registered by the scheme of `package`: roots
/// of the package itself (or of its `+k8s:validation-gen-input` packages) that have
/// validations, unless the scheme registry is `nil`.
pub fn compile_package(universe: &Universe, package: &str) -> Result<CompiledPackage, String> {
    let compiled =
        catch(|| kdv_rules::compile(universe)).map_err(|p| format!("kdv-rules panicked: {p}"))?;
    let errors: Vec<String> = compiled
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.to_string())
        .collect();
    let unimplemented_tags = compiled
        .diagnostics
        .iter()
        .filter(|d| {
            d.severity == Severity::Warning && d.message.contains("not supported by kdv yet")
        })
        .map(|d| {
            d.span
                .as_ref()
                .and_then(|s| {
                    let start = s.col.saturating_sub(1) as usize;
                    s.line_text.get(start..start + s.len as usize)
                })
                .map(str::to_string)
                .unwrap_or_else(|| d.message.clone())
        })
        .collect();
    let rules = compiled.rules;
    let mut sources = vec![package.to_string()];
    sources.extend(package_tag_values(
        universe,
        package,
        "k8s:validation-gen-input",
    ));
    let no_registry = package_tag_values(universe, package, "k8s:validation-gen-scheme-registry")
        .iter()
        .any(|v| v == "nil");
    let mut registered = Vec::new();
    let mut roots_without_validations = Vec::new();
    if !no_registry {
        for root in rules.roots() {
            if !sources.contains(&root.package) {
                continue;
            }
            let tr = rules.type_rules(root.id);
            if !tr.has_validations {
                roots_without_validations.push((root.package.clone(), root.name.clone()));
                continue;
            }
            let nilable = matches!(rules.shape(tr.shape), Shape::Slice(_) | Shape::Map { .. });
            let subresources = if tr.subresources.is_empty() {
                vec!["/".to_string()]
            } else {
                tr.subresources.clone()
            };
            registered.push(Registration {
                package: root.package.clone(),
                name: root.name.clone(),
                id: root.id,
                nilable,
                subresources,
            });
        }
    }
    Ok(CompiledPackage {
        rules,
        errors,
        unimplemented_tags,
        registered,
        roots_without_validations,
    })
}

impl CompiledPackage {
    /// The registration of `package.name`, if the scheme registers it.
    pub fn registration(&self, package: &str, name: &str) -> Option<&Registration> {
        self.registered
            .iter()
            .find(|r| r.package == package && r.name == name)
    }

    /// Why kdv does not register `package.name`.
    pub fn why_unregistered(&self, package: &str, name: &str) -> &'static str {
        if self
            .roots_without_validations
            .iter()
            .any(|(p, n)| p == package && n == name)
        {
            "validated type is a root without validations in kdv (its tags produce no rules)"
        } else {
            "validated type is not a root in kdv"
        }
    }

    /// Validates with kdv-eval (custom validation functions from `custom`); a panic
    /// becomes `Err`.
    pub fn validate(
        &self,
        id: TypeId,
        op: &Operation,
        new: &serde_json::Value,
        old: Option<&serde_json::Value>,
        custom: Option<&dyn kdv_eval::CustomValidators>,
    ) -> Result<ErrorList, String> {
        let options = kdv_eval::EvalOptions {
            custom_validators: custom,
            ..Default::default()
        };
        catch(|| kdv_eval::validate_with(&self.rules, id, op, new, old, &options))
            .map_err(|p| format!("kdv-eval panicked: {p}"))
    }
}
