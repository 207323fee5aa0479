//! The `+k8s:` tag registry and the rule IR.
//!
//! [`compile`] reads a [`Universe`] (from any frontend), resolves the Go type model the way
//! upstream validation-gen sees it (one-deep typedefs, transparent aliases, embedded fields,
//! JSON names), extracts and checks the `+k8s:` tags of every type, field and constant
//! against the [registry](catalog), and lowers them into a [`RuleSet`]: the IR every backend
//! consumes. Misuse is reported as [`Diagnostic`]s pointing at the tag; a tag with an error
//! contributes no rule, everything else still compiles.
//!
//! The root types (kinds) are what each package's `+k8s:validation-gen` tags select
//! ([`roots`]); [`compile_with`] can select them otherwise for one package ([`Roots`]) and
//! run the lint rules ([`Compiled::lint`], rendered through [`mod@lint`]).

#![warn(missing_docs)]

pub mod custom_validations;
mod discover;
pub mod emissions;
mod gotypes;
pub mod ir;
pub mod lint;
mod lint_rules;
mod lint_seeds;
mod lower;
pub mod registry;
pub mod roots;
mod shapes;
mod tag_names;
mod tags;

pub use ir::*;
pub use kdv_model::{Diagnostic, Severity, Universe};
pub use lint::lint;
pub use registry::{
    ArgDoc, Scope, Stability, TagDoc, canonical_name, catalog, current_name_of, is_known_tag,
    tag_doc,
};
pub use roots::{CompileOptions, PackageRoots, RootSelection, Roots, TypeFilter};
pub use tags::cel_rules::{self as validation_rule, EXTENSIONS as EXTENSION_TAGS, ExtensionDoc};

/// The result of [`compile`]: the rules, and every diagnostic found on the way.
#[derive(Debug, Clone, Default)]
pub struct Compiled {
    /// The compiled rules.
    pub rules: RuleSet,
    /// Errors and warnings, each pointing at its source.
    pub diagnostics: Vec<Diagnostic>,
    /// The lint rules' findings ([`CompileOptions::lint`]; see [`mod@lint`]): about tag
    /// hygiene, not about what the rules mean, so validation does not stop for them.
    pub lint: Vec<Diagnostic>,
}

impl Compiled {
    /// Whether any diagnostic is an error (warnings do not count).
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

/// Compiles the tags of every package of `universe` into rules, each package's roots
/// selected by its own `+k8s:validation-gen` tags.
pub fn compile(universe: &Universe) -> Compiled {
    compile_with(universe, &CompileOptions::default())
}

/// [`compile`] with options: another root selection for one package ([`Roots`]).
pub fn compile_with(universe: &Universe, options: &CompileOptions) -> Compiled {
    let (rules, diagnostics, lint) = discover::run(universe, options, |found| {
        if options.lint {
            lint_rules::run(found)
        } else {
            Vec::new()
        }
    });
    Compiled {
        rules,
        diagnostics,
        lint,
    }
}

#[cfg(test)]
mod tests;
