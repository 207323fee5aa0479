//! `kdv lint --types DIR`: every parse error and tag misuse in a Go package, and a warning
//! at each `+k8s:customValidation` (kdv cannot run the Go function it names).

use std::io::Write;

use super::{custom, load_types, sort_diagnostics, write_diagnostics};
use crate::cli::LintArgs;
use crate::error::CliError;

/// Prints each finding (with file:line:col and a caret) on `out` and a count on `err`.
/// Returns 0 without findings, 1 with findings (warnings included).
pub fn run(args: &LintArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8, CliError> {
    let types = load_types(&args.types)?;
    let mut diagnostics = types.diagnostics;
    diagnostics.extend(custom::lint_warnings(
        &types.universe,
        &types.compiled.rules,
    ));
    sort_diagnostics(&mut diagnostics);
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
