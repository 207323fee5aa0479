//! `kdv lint --types`: the Go loader's and compiler's diagnostics plus `kdv_rules::lint` (tag
//! misuse, upstream's lint rules, tag hygiene, a warning at each `+k8s:customValidation`;
//! with `--upstream`, an error at each kdv extension tag),
//! rendered with file:line:col and a caret (identical findings print once with their count),
//! or as JSON or SARIF. `kdv lint --crd` is [`super::lint_crd`].

use std::io::Write;
use std::path::{Path, PathBuf};

use kdv_model::{Diagnostic, Severity};

use super::load_types;
use crate::cli::{DenyArg, LintArgs, OutputFormat};
use crate::error::CliError;
use crate::file_name;
use crate::output::{json, sarif, text};

/// Prints the findings on `out` and, in text mode and unless `--quiet`, a count on `err`.
/// Returns 1 with errors (or with warnings under `--deny warnings`), else 0.
pub fn run(args: &LintArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8, CliError> {
    let Some(types) = args.types.first().map(PathBuf::as_path) else {
        return super::lint_crd::run(args, out, err);
    };
    let diagnostics = match findings_of_all(args) {
        Ok(diagnostics) => diagnostics,
        Err(e) => {
            match args.output {
                OutputFormat::Text => {}
                OutputFormat::Json => json::write_lint(types, &[], Some(&e), out)?,
                OutputFormat::Sarif => sarif::write_lint(&[], Some(&e), out)?,
            }
            return Err(e);
        }
    };
    match args.output {
        OutputFormat::Text => text::write_diagnostics(out, &diagnostics)?,
        OutputFormat::Json => json::write_lint(types, &diagnostics, None, out)?,
        OutputFormat::Sarif => sarif::write_lint(&diagnostics, None, out)?,
    }
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diagnostics.len() - errors;
    if !args.quiet && args.output == OutputFormat::Text {
        let dir = args
            .types
            .iter()
            .map(|t| file_name::display(t))
            .collect::<Vec<_>>()
            .join(", ");
        if diagnostics.is_empty() {
            writeln!(err, "{dir}: no findings")?;
        } else {
            let plural =
                |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
            writeln!(
                err,
                "{dir}: {} ({}, {})",
                plural(diagnostics.len(), "finding"),
                plural(errors, "error"),
                plural(warnings, "warning")
            )?;
        }
    }
    let denied = args.deny == Some(DenyArg::Warnings) && warnings > 0;
    Ok(u8::from(errors > 0 || denied))
}

/// The findings of every `--types` package (identical ones once) and, with several, their
/// version drift.
fn findings_of_all(args: &LintArgs) -> Result<Vec<Diagnostic>, CliError> {
    if let [one] = args.types.as_slice() {
        return Ok(findings(args, one)?.0);
    }
    let mut all = Vec::new();
    let mut universe = kdv_model::Universe::default();
    let mut paths = Vec::new();
    for dir in &args.types {
        let (found, home) = findings(args, dir)?;
        all.extend(found);
        if let Some(pkg) = home {
            paths.push(pkg.path.clone());
            universe.packages.insert(pkg.path.clone(), pkg);
        }
    }
    all.extend(kdv_rules::lint::version_drift(&universe, &paths));
    kdv_rules::lint::sort(&mut all);
    all.dedup();
    Ok(all)
}

fn findings(
    args: &LintArgs,
    dir: &Path,
) -> Result<(Vec<Diagnostic>, Option<kdv_model::Package>), CliError> {
    let types = load_types(dir, args.roots.roots(), true)?;
    Ok(type_findings(types, args.upstream))
}

/// The findings of `kdv lint` on loaded types (`upstream`: their kdv extensions too), and
/// the package they were loaded from.
pub fn type_findings(
    types: super::Types,
    upstream: bool,
) -> (Vec<Diagnostic>, Option<kdv_model::Package>) {
    let mut diagnostics = types.diagnostics;
    diagnostics.extend(types.compiled.lint.iter().cloned());
    diagnostics.extend(kdv_rules::lint::lint_rules(&types.compiled.rules));
    diagnostics.extend(kdv_eval::default_findings(&types.compiled.rules));
    if upstream {
        diagnostics.extend(types.extension_uses);
        diagnostics.extend(kdv_rules::validation_rule::extension_uses(
            &types.compiled.rules,
        ));
    }
    kdv_rules::lint::sort(&mut diagnostics);
    (diagnostics, types.home_package)
}
