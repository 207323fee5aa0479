//! `kdv lint --types DIR`: every parse error of the Go package and the findings of
//! `kdv_rules::lint` (tag misuse, a warning at each `+k8s:customValidation`), rendered with
//! file:line:col and a caret, or as JSON or SARIF.

use std::io::Write;

use kdv_model::Diagnostic;

use super::load_types;
use crate::cli::{LintArgs, OutputFormat};
use crate::error::CliError;
use crate::file_name;
use crate::output::{json, sarif, text};

/// Prints the findings on `out` (text: each with file:line:col and a caret) and, in text
/// mode and unless `--quiet`, a count on `err`. Returns 0 without findings, 1 with findings
/// (warnings included).
pub fn run(args: &LintArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8, CliError> {
    let diagnostics = match findings(args) {
        Ok(diagnostics) => diagnostics,
        Err(e) => {
            match args.output {
                OutputFormat::Text => {}
                OutputFormat::Json => json::write_lint(&args.types, &[], Some(&e), out)?,
                OutputFormat::Sarif => sarif::write_lint(&[], Some(&e), out)?,
            }
            return Err(e);
        }
    };
    match args.output {
        OutputFormat::Text => text::write_diagnostics(out, &diagnostics)?,
        OutputFormat::Json => json::write_lint(&args.types, &diagnostics, None, out)?,
        OutputFormat::Sarif => sarif::write_lint(&diagnostics, None, out)?,
    }
    let dir = file_name::display(&args.types);
    let n = diagnostics.len();
    if !args.quiet && args.output == OutputFormat::Text {
        match n {
            0 => writeln!(err, "{dir}: no findings")?,
            n => writeln!(err, "{dir}: {n} finding{}", if n == 1 { "" } else { "s" })?,
        }
    }
    Ok(u8::from(n > 0))
}

fn findings(args: &LintArgs) -> Result<Vec<Diagnostic>, CliError> {
    let types = load_types(&args.types)?;
    let mut diagnostics = types.diagnostics;
    diagnostics.extend(kdv_rules::lint::lint_rules(&types.compiled.rules));
    kdv_rules::lint::sort(&mut diagnostics);
    Ok(diagnostics)
}
