//! `kdv lint --types DIR`: every parse error of the Go package and the findings of
//! `kdv_rules::lint` (tag misuse, upstream's lint rules, tag hygiene, a warning at each
//! `+k8s:customValidation`), rendered with file:line:col and a caret; identical findings
//! print once with their count.

use std::io::Write;

use kdv_model::Severity;

use super::{load_types, write_diagnostics};
use crate::cli::{DenyArg, LintArgs};
use crate::error::CliError;

/// Prints each finding (with file:line:col and a caret) on `out` and a count on `err`.
/// Returns 1 with errors (or with warnings under `--deny warnings`), else 0.
pub fn run(args: &LintArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8, CliError> {
    let types = load_types(&args.types, args.roots.roots(), true)?;
    let mut diagnostics = types.diagnostics;
    diagnostics.extend(types.compiled.lint.iter().cloned());
    diagnostics.extend(kdv_rules::lint::lint_rules(&types.compiled.rules));
    kdv_rules::lint::sort(&mut diagnostics);
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diagnostics.len() - errors;
    write_diagnostics(out, &diagnostics)?;
    let dir = args.types.display();
    if diagnostics.is_empty() {
        writeln!(err, "{dir}: no findings")?;
        return Ok(0);
    }
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    writeln!(
        err,
        "{dir}: {} ({}, {})",
        plural(diagnostics.len(), "finding"),
        plural(errors, "error"),
        plural(warnings, "warning")
    )?;
    let denied = args.deny == Some(DenyArg::Warnings) && warnings > 0;
    Ok(u8::from(errors > 0 || denied))
}
