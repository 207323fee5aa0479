//! Code generation for `#[derive(Validate)]`: one Rust type's validation function, written
//! from the rule IR (`kdv-rules`) as calls of the `kdv-runtime` check functions, as
//! upstream's validation-gen writes `Validate_T` from its tags. The traversal mirrors the
//! interpreter's (`kdv-eval`): type functions, field blocks with their ratchet check,
//! cohorts and short-circuits, stability marks, element iterations; but every decision that
//! depends only on the rules is taken here, at compile time, and the values are the Rust
//! values themselves, read through `kdv_runtime::native` views.
//!
//! [`expand`] takes the source file that declares the type (the derive reads it, as
//! validation-gen reads a whole package), reads it with `kdv-rust-model`, compiles the tags
//! with every type of the file as a root, and returns either the generated items or the
//! diagnostics located in the type's declaration (the messages `kdv lint` prints).
//!
//! Generated code refers to the facade crate as `::kdv` (`::kdv::__private`).
//!
//! The items written for a type: `AsView` (how checks read its values: `Option<&T>` for a
//! struct, `Named<..>` for a newtype or unit enum; decision 0041) and `View` for `&T`;
//! `kdv::Defaults` (`defaults`: field defaults applied as `kdv_eval::apply_defaults` applies them
//! to JSON); in a file with `+validationRule`s, `ToCel`, `NativeMap` and `CelNative`
//! (`cel_native`: the value read in place by CEL, decision 0143); and `TypeValidation`, the
//! validation function (field blocks with their ratchet check, cohorts and short-circuits,
//! marks, iterations, each check one `kdv-runtime` call), with the schema from `kdv-schema`
//! embedded as JSON text (decision 0044). Diagnostics come back as [`Failure`]s located in the
//! type's declaration; only registry misuse fails (decision 0042).
//!
//! Modules: `emit` mirrors the interpreter's traversal (`kdv-eval` `eval.rs`, `calls.rs`) with
//! every decision that depends only on the rules taken at compile time; `rust_types` maps the
//! model's (Go) field names back to Rust fields; `defaults`, `cel_native` as above. Which file is
//! read, which types are roots and how types declared elsewhere are reached: decision 0040.

#![warn(missing_docs)]

mod cel_native;
mod defaults;
mod emit;
mod rust_types;

use std::path::Path;

use kdv_model::{Diagnostic, Severity, Universe};
use kdv_rules::{CompileOptions, Roots};
use proc_macro2::TokenStream;

pub use rust_types::RustTypes;

/// The source a derive reads.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    /// The file's path as diagnostics print it.
    pub path: &'a str,
    /// The file's text.
    pub text: &'a str,
}

/// Items to emit beside the errors of a failed expansion, so that only the tags are
/// reported, not every use of the type: its views and a validation function that reports
/// nothing (empty when the file cannot be read).
pub fn fallback(source: Source<'_>, name: &str) -> TokenStream {
    match read(source, "types") {
        Ok((_, rust)) => emit::fallback_items(&rust, name),
        Err(_) => TokenStream::new(),
    }
}

/// Whether `text` parses and declares `name` as a top-level struct or enum (the file the
/// derive reads; otherwise it reads the item alone).
pub fn declares(text: &str, name: &str) -> bool {
    kdv_rust_model::parse_file(text).is_ok_and(|f| {
        f.items.iter().any(|i| match i {
            syn::Item::Struct(s) => s.ident == name,
            syn::Item::Enum(e) => e.ident == name,
            _ => false,
        })
    })
}

/// The file as the derive reads it: the model (the file a package named `stem`, with types
/// of other modules as external types) and the Rust side of its types; or why it does not
/// parse.
fn read(source: Source<'_>, stem: &str) -> Result<(kdv_rust_model::Loaded, RustTypes), Failure> {
    let file = kdv_rust_model::parse_file(source.text).map_err(|e| {
        let (message, at) = match e {
            kdv_rust_model::ParseError::Tokens { message, span } => (message, span.start()),
            kdv_rust_model::ParseError::Syntax(e) => (e.to_string(), e.span().start()),
        };
        Failure {
            message,
            line_col: Some((at.line as u32, at.column as u32 + 1)),
            line_text: String::new(),
        }
    })?;
    let loaded = kdv_rust_model::from_items_with(
        stem,
        stem,
        source.path,
        source.text,
        &kdv_rust_model::ReadOptions {
            external_types: true,
        },
    );
    let mut rust = RustTypes::read(&file);
    rust.add_model(&loaded.package);
    Ok((loaded, rust))
}

/// A diagnostic about the deriving type: its message and where it is written.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The message, as `kdv lint` prints it.
    pub message: String,
    /// Where in the file (1-based line, 1-based byte column), when known.
    pub line_col: Option<(u32, u32)>,
    /// The text of that line.
    pub line_text: String,
}

/// Generates the validation of type `name` declared in `source`: the items to emit, or the
/// errors found in the type's declaration (tag misuse as the registry reports it; `kdv
/// lint`'s hygiene rules are not applied).
pub fn expand(source: Source<'_>, name: &str) -> Result<TokenStream, Vec<Failure>> {
    let stem = Path::new(source.path)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty() && s != "lib" && s != "main" && s != "mod")
        .unwrap_or_else(|| "types".to_string());
    let (loaded, rust) = read(source, &stem).map_err(|f| vec![f])?;
    let Some(range) = rust.lines_of(name) else {
        return Err(vec![Failure {
            message: format!(
                "type {name} is not declared at the top level of {}",
                source.path
            ),
            line_col: None,
            line_text: String::new(),
        }]);
    };
    let mut universe = Universe::default();
    let package_path = loaded.package.path.clone();
    let mut diagnostics = loaded.diagnostics;
    universe
        .packages
        .insert(loaded.package.path.clone(), loaded.package);
    let compiled = kdv_rules::compile_with(
        &universe,
        &CompileOptions {
            roots: Roots::All,
            package: Some(package_path.clone()),
            // The lint rules are tag hygiene (`kdv lint`), not misuse: validation-gen's
            // output does not depend on them, so they do not fail a build.
            lint: false,
        },
    );
    diagnostics.extend(compiled.diagnostics.iter().cloned());
    // A `+validationRule` the API server would refuse (compile, type, cost) is a compile
    // error at the tag.
    diagnostics.extend(kdv_schema::validation_rules::findings(&compiled.rules));
    let failures: Vec<Failure> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .filter(|d| {
            d.span
                .as_ref()
                .is_some_and(|s| range.contains(&(s.line as usize)))
        })
        .map(failure)
        .collect();
    if !failures.is_empty() {
        return Err(failures);
    }
    let rules = &compiled.rules;
    let Some(id) = rules.find_type(&format!("{package_path}.{name}")) else {
        return Err(vec![Failure {
            message: format!(
                "type {name}: kdv cannot read this type (see the diagnostics of its fields)"
            ),
            line_col: None,
            line_text: String::new(),
        }]);
    };
    emit::type_items(rules, &rust, id).map_err(|message| {
        vec![Failure {
            message,
            line_col: None,
            line_text: String::new(),
        }]
    })
}

fn failure(d: &Diagnostic) -> Failure {
    Failure {
        message: d.message.clone(),
        line_col: d.span.as_ref().map(|s| (s.line, s.col)),
        line_text: d
            .span
            .as_ref()
            .map(|s| s.line_text.clone())
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests;
