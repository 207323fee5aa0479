//! The `kdv conformance validation-gen [--verbose] [--package FILTER]` command, for the CLI
//! to call: it reads the checkout named by `KDV_UPSTREAM_CODEGEN`, runs the suite and
//! writes the report.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use crate::{RunOptions, run_validation_gen};

/// Environment variable naming the kubernetes/code-generator checkout.
pub const CODEGEN_ENV: &str = "KDV_UPSTREAM_CODEGEN";

/// Usage line of the command.
pub const USAGE: &str = "usage: kdv conformance validation-gen [--verbose] [--package FILTER]";

/// Runs the suite against the checkout at `codegen_root` (`None`: the variable is unset, so
/// the run is skipped) and writes the report to `out`: one line per package, the totals,
/// and with `verbose` every failing case and the failure causes. Returns the exit status:
/// 0 when the suite ran (whatever the case outcomes) or was skipped, 2 when the checkout has
/// no `cmd/validation-gen/output_tests`.
pub fn run_command(
    codegen_root: Option<OsString>,
    verbose: bool,
    package_filter: Option<String>,
    out: &mut dyn Write,
) -> std::io::Result<i32> {
    let Some(root) = codegen_root else {
        writeln!(out, "skipped: {CODEGEN_ENV} not set")?;
        return Ok(0);
    };
    let report = run_validation_gen(
        &PathBuf::from(root),
        &RunOptions {
            package_filter,
            ..RunOptions::default()
        },
    );
    out.write_all(report.render_text(verbose).as_bytes())?;
    Ok(if report.errors.is_empty() { 0 } else { 2 })
}

/// `kdv conformance validation-gen` with its arguments (those after `validation-gen`):
/// parses them, reads `KDV_UPSTREAM_CODEGEN`, prints to stdout; returns the exit status
/// (2 for bad arguments).
pub fn main_entry(args: &[String]) -> i32 {
    let mut verbose = false;
    let mut filter = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--verbose" | "-v" => verbose = true,
            "--package" => match it.next() {
                Some(f) => filter = Some(f.clone()),
                None => {
                    eprintln!("error: --package needs a value\n{USAGE}");
                    return 2;
                }
            },
            other => match other.strip_prefix("--package=") {
                Some(f) => filter = Some(f.to_string()),
                None => {
                    eprintln!("error: unexpected argument {other:?}\n{USAGE}");
                    return 2;
                }
            },
        }
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match run_command(std::env::var_os(CODEGEN_ENV), verbose, filter, &mut out) {
        Ok(code) => code,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 2,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_variable_skips() {
        let mut out = Vec::new();
        assert_eq!(run_command(None, false, None, &mut out).ok(), Some(0));
        assert_eq!(
            String::from_utf8_lossy(&out),
            "skipped: KDV_UPSTREAM_CODEGEN not set\n"
        );
    }

    #[test]
    fn missing_suite_is_an_error() {
        let mut out = Vec::new();
        let dir = std::env::temp_dir().join("kdv-conformance-no-such-checkout");
        let code = run_command(Some(dir.into_os_string()), false, None, &mut out).ok();
        assert_eq!(code, Some(2));
        assert!(String::from_utf8_lossy(&out).starts_with("error: "));
    }

    #[test]
    fn bad_arguments() {
        assert_eq!(main_entry(&["--bogus".to_string()]), 2);
        assert_eq!(main_entry(&["--package".to_string()]), 2);
    }
}
