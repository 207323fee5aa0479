//! The `kdv conformance validation-gen` command, ready for the CLI to call.

use std::path::PathBuf;

use crate::{RunOptions, run_validation_gen};

/// Environment variable naming the kubernetes/code-generator checkout.
pub const CODEGEN_ENV: &str = "KDV_UPSTREAM_CODEGEN";

/// Runs `kdv conformance validation-gen [--verbose] [--package FILTER]` with `args` (the
/// arguments after `validation-gen`); prints the report to stdout and returns the exit code:
/// 0 when the suite ran (whatever the case outcomes) or was skipped, 2 for bad arguments or
/// when the suite could not be found.
pub fn main_entry(args: &[String]) -> i32 {
    let mut verbose = false;
    let mut options = RunOptions::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--verbose" | "-v" => verbose = true,
            "--package" => match it.next() {
                Some(f) => options.package_filter = Some(f.clone()),
                None => {
                    eprintln!("error: --package needs a value");
                    return 2;
                }
            },
            other => {
                if let Some(f) = other.strip_prefix("--package=") {
                    options.package_filter = Some(f.to_string());
                } else {
                    eprintln!(
                        "error: unexpected argument {other:?}\nusage: kdv conformance validation-gen [--verbose] [--package FILTER]"
                    );
                    return 2;
                }
            }
        }
    }
    let Some(root) = std::env::var_os(CODEGEN_ENV) else {
        println!("skipped: {CODEGEN_ENV} not set");
        return 0;
    };
    let report = run_validation_gen(&PathBuf::from(root), &options);
    print!("{}", report.render_text(verbose));
    if report.errors.is_empty() { 0 } else { 2 }
}
