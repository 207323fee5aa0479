//! The subcommands. Each takes its arguments and the output streams, and returns the exit
//! status or a [`CliError`].

pub mod cel;
pub mod custom;
pub mod jobs;
pub mod lint;
pub mod validate;

use std::path::Path;

use kdv_model::{Diagnostic, Severity, Universe};

use crate::error::CliError;

/// The Go types a command works on.
pub struct Types {
    /// The compiled rules of the loaded packages.
    pub compiled: kdv_rules::Compiled,
    /// The diagnostics of loading and compiling, ordered by position.
    pub diagnostics: Vec<Diagnostic>,
}

/// Loads the Go package in `dir` (and the packages it imports from the same module) and
/// compiles its rules.
pub fn load_types(dir: &Path) -> Result<Types, CliError> {
    let (universe, mut diagnostics): (Universe, Vec<Diagnostic>) = kdv_go::load_universe(dir)
        .map_err(|e| CliError::TypesUnreadable {
            dir: dir.to_path_buf(),
            message: e.to_string(),
        })?;
    let compiled = kdv_rules::compile(&universe);
    diagnostics.extend(compiled.diagnostics.iter().cloned());
    kdv_rules::lint::sort(&mut diagnostics);
    Ok(Types {
        compiled,
        diagnostics,
    })
}

/// Number of diagnostics that are errors.
fn error_count(diagnostics: &[Diagnostic]) -> usize {
    diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count()
}
