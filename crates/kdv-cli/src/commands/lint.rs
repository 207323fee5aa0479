//! `kdv lint --types DIR`: every parse error of the Go package and the findings of
//! `kdv_rules::lint` (tag misuse, a warning at each `+k8s:customValidation`), rendered with
//! file:line:col and a caret.

use std::io::Write;

use super::{load_types, write_diagnostics};
use crate::cli::LintArgs;
use crate::error::CliError;

/// Prints each finding (with file:line:col and a caret) on `out` and a count on `err`.
/// Returns 0 without findings, 1 with findings (warnings included).
pub fn run(args: &LintArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8, CliError> {
    let types = load_types(&args.types, args.roots.roots(), false)?;
    let mut diagnostics = types.diagnostics;
    diagnostics.extend(kdv_rules::lint::lint_rules(&types.compiled.rules));
    kdv_rules::lint::sort(&mut diagnostics);
    write_diagnostics(out, &diagnostics)?;
    match diagnostics.len() {
        0 => {
            writeln!(err, "{}: no findings", args.types.display())?;
            Ok(0)
        }
        n => {
            writeln!(
                err,
                "{}: {n} finding{}",
                args.types.display(),
                if n == 1 { "" } else { "s" }
            )?;
            Ok(1)
        }
    }
}
