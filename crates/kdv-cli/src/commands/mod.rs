//! The subcommands. Each takes its arguments and the output streams, and returns the exit
//! status or a [`CliError`].

pub mod cel;
pub mod custom;
pub mod lint;
pub mod validate;

use std::io::Write;
use std::path::Path;

use kdv_model::{Diagnostic, Severity, Universe};

use crate::error::CliError;

/// The Go types a command works on.
pub struct Types {
    /// The loaded packages.
    pub universe: Universe,
    /// Their compiled rules.
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
    sort_diagnostics(&mut diagnostics);
    Ok(Types {
        universe,
        compiled,
        diagnostics,
    })
}

/// Orders diagnostics by file, line and column (those without a position last), keeping the
/// producers' order among equals.
fn sort_diagnostics(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| match (&a.span, &b.span) {
        (Some(x), Some(y)) => (&x.path, x.line, x.col).cmp(&(&y.path, y.line, y.col)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
}

/// Writes diagnostics separated by blank lines (each renders over several lines).
fn write_diagnostics(out: &mut dyn Write, diagnostics: &[Diagnostic]) -> std::io::Result<()> {
    for d in diagnostics {
        writeln!(out, "{d}\n")?;
    }
    Ok(())
}

/// Number of diagnostics that are errors.
fn error_count(diagnostics: &[Diagnostic]) -> usize {
    diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count()
}
