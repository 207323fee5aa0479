//! What the `kdv-conformance` binary does once its arguments are parsed (`src/main.rs`):
//! run one suite, write its report, and choose the exit status.
//!
//! The report goes to `out` and closes with the line `N passed, N failed, N skipped`.
//! Exit status: [`EXIT_PASSED`] every case that ran passed, [`EXIT_FAILED`] some failed,
//! [`EXIT_NOTHING_RAN`] nothing ran (no upstream checkout, a missing or empty data
//! directory, a filter that selects nothing); then `err` says what is missing and how to
//! provide it.

use std::io::{self, Write};
use std::path::Path;

use crate::cel_spec::{self, DataError};
use crate::{RunOptions, run_validation_gen};

/// Environment variable naming the kubernetes/code-generator checkout of the validation-gen
/// suite (the `--codegen` option takes precedence).
pub const CODEGEN_ENV: &str = "KDV_UPSTREAM_CODEGEN";

/// The cel-spec data in this project (`testdata/cel-spec` at the repository root), located
/// from this crate's directory when it is built.
pub const DEFAULT_CEL_SPEC_DATA: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/cel-spec");

/// The kubectl-validate data in this project (`testdata/kubectl-validate`), located from
/// this crate's directory when it is built.
pub const DEFAULT_KUBECTL_VALIDATE_DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../testdata/kubectl-validate"
);

/// Exit status: every case that ran passed (skipped cases aside).
pub const EXIT_PASSED: u8 = 0;
/// Exit status: some case failed.
pub const EXIT_FAILED: u8 = 1;
/// Exit status: nothing ran.
pub const EXIT_NOTHING_RAN: u8 = 2;

/// The closing line of a run in which nothing ran.
const NOTHING_RAN_TOTALS: &str = "0 passed, 0 failed, 0 skipped";

/// Runs upstream validation-gen's tests from the kubernetes/code-generator checkout at
/// `codegen` (`None`: no checkout was named) and writes the report to `out`: one line per
/// package, the totals, and with `verbose` every failing case and the failure causes.
/// `package` keeps the packages whose path under `output_tests` contains it.
pub fn validation_gen(
    codegen: Option<&Path>,
    verbose: bool,
    package: Option<&str>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<u8> {
    let Some(root) = codegen else {
        writeln!(
            err,
            "error: no kubernetes/code-generator checkout to run validation-gen's tests from: \
             set {CODEGEN_ENV}=DIR or pass --codegen DIR"
        )?;
        return nothing_ran(out);
    };
    let report = run_validation_gen(
        root,
        &RunOptions {
            package_filter: package.map(str::to_string),
            ..RunOptions::default()
        },
    );
    if report.case_count() == 0 {
        for e in &report.errors {
            writeln!(err, "error: {e}")?;
        }
        let suite = root.join("cmd/validation-gen/output_tests");
        if !suite.is_dir() {
            writeln!(
                err,
                "error: {} is not a kubernetes/code-generator checkout with validation-gen's \
                 tests: name one with {CODEGEN_ENV}=DIR or --codegen DIR",
                root.display()
            )?;
        } else if !report.errors.is_empty() {
            // The errors above say what went wrong.
        } else if let Some(filter) = package {
            writeln!(
                err,
                "error: no test package under {} matches --package {filter:?}",
                suite.display()
            )?;
        } else {
            writeln!(err, "error: no test packages under {}", suite.display())?;
        }
        return nothing_ran(out);
    }
    out.write_all(report.render_text(verbose).as_bytes())?;
    let (_, failed, _) = report.totals();
    Ok(if failed == 0 && report.errors.is_empty() {
        EXIT_PASSED
    } else {
        EXIT_FAILED
    })
}

/// Runs the cel-spec simple tests in `data` (a directory holding `simple/*.json`) against
/// kdv's CEL engine and writes the report to `out`: one line per file, the skip reasons,
/// with `verbose` every failing case, and the totals. `file` keeps the files whose name
/// contains it.
pub fn cel_spec(
    data: &Path,
    verbose: bool,
    file: Option<&str>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<u8> {
    let options = cel_spec::RunOptions {
        file_filter: file.map(str::to_string),
    };
    let report = match cel_spec::run_cel_spec(data, &options) {
        Ok(report) => report,
        Err(DataError::Directory { dir, error }) => {
            writeln!(
                err,
                "error: cel-spec data directory {}: {error}\n\
                 pass --data DIR naming the suite in JSON form (a directory holding \
                 simple/*.json, like the project's testdata/cel-spec)",
                dir.display()
            )?;
            return nothing_ran(out);
        }
        Err(e) => {
            writeln!(err, "error: cel-spec data: {e}")?;
            return nothing_ran(out);
        }
    };
    if report.files.is_empty() {
        match file {
            Some(filter) => {
                let names: Vec<String> = cel_spec::test_files(data)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
                    .collect();
                writeln!(
                    err,
                    "error: no cel-spec test file in {} matches --file {filter:?} (files: {})",
                    data.display(),
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                )?;
            }
            None => writeln!(
                err,
                "error: no cel-spec test files (*.json) in {} or its simple/ folder\n\
                 pass --data DIR naming the suite in JSON form (like the project's \
                 testdata/cel-spec)",
                data.display()
            )?,
        }
        return nothing_ran(out);
    }
    out.write_all(report.render(verbose).as_bytes())?;
    let (_, failed, _) = report.totals();
    Ok(if failed == 0 {
        EXIT_PASSED
    } else {
        EXIT_FAILED
    })
}

/// Runs kubectl-validate's test cases in `data` (the project's `testdata/kubectl-validate`
/// layout: `testcases/manifests`, `testcases/crds`, `schema-patches/1.23`) as its own test
/// runs them, against the embedded Kubernetes 1.35 schemas, and writes the report to `out`:
/// one line per file, the skipped cases, every failure with the expected and the actual
/// status, and the totals. `file` keeps the manifest files whose name contains it.
pub fn kubectl_validate(
    data: &Path,
    verbose: bool,
    file: Option<&str>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<u8> {
    use crate::kubectl_validate::{backend::OpenApiBackend, suite};
    let manifests = data.join("testcases/manifests");
    if !manifests.is_dir() {
        writeln!(
            err,
            "error: {} is not a directory: pass --data DIR naming the kubectl-validate test \
             data (a directory holding testcases/manifests, like the project's \
             testdata/kubectl-validate)",
            manifests.display()
        )?;
        return nothing_ran(out);
    }
    let crd_dir = data.join("testcases/crds");
    let patches = data.join("schema-patches/1.23");
    let loaded = OpenApiBackend::new(&[&crd_dir], Some(&patches));
    let backend = match loaded {
        Ok(loaded) => loaded,
        Err(e) => {
            writeln!(err, "error: loading the schemas: {e}")?;
            return nothing_ran(out);
        }
    };
    let options = suite::SuiteOptions {
        file_filter: file.map(str::to_string),
    };
    let report = match suite::run_suite(data, &backend, &options) {
        Ok(report) => report,
        Err(e) => {
            writeln!(err, "error: {e}")?;
            return nothing_ran(out);
        }
    };
    if report.cases.is_empty() && report.file_errors.is_empty() {
        match file {
            Some(filter) => writeln!(
                err,
                "error: no manifest file under {} matches --file {filter:?}",
                manifests.display()
            )?,
            None => writeln!(
                err,
                "error: no manifest files under {}",
                manifests.display()
            )?,
        }
        return nothing_ran(out);
    }
    out.write_all(report.render(verbose).as_bytes())?;
    let (_, failed, _) = report.totals();
    Ok(if failed == 0 {
        EXIT_PASSED
    } else {
        EXIT_FAILED
    })
}

/// Runs apiextensions-apiserver's CEL validation tables (`pkg/apiserver/schema/cel`'s test
/// files, read from the checkout at `checkout`; `None`: no checkout was named) against
/// kdv-openapi and writes the report to `out`: one line per table, the skip reasons, the
/// failure causes, with `verbose` every failing case, and the closing
/// `apiextensions: N passed, N failed, N skipped`. `table` keeps the test functions whose
/// name contains it.
pub fn apiextensions(
    checkout: Option<&Path>,
    verbose: bool,
    table: Option<&str>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<u8> {
    use crate::apiextensions::{APIEXTENSIONS_ENV, CEL_PACKAGE, Options, run_apiextensions};
    let Some(root) = checkout else {
        writeln!(
            err,
            "error: no k8s.io/apiextensions-apiserver checkout to run its CEL validation \
             tests from: set {APIEXTENSIONS_ENV}=DIR or pass --checkout DIR"
        )?;
        return nothing_ran(out);
    };
    let package = root.join(CEL_PACKAGE);
    if !package.is_dir() {
        writeln!(
            err,
            "error: {} is not a directory: {} is not a k8s.io/apiextensions-apiserver \
             checkout; name one with {APIEXTENSIONS_ENV}=DIR or --checkout DIR",
            package.display(),
            root.display()
        )?;
        return nothing_ran(out);
    }
    let report = run_apiextensions(
        root,
        &Options {
            table_filter: table.map(str::to_string),
        },
    );
    if report.cases.is_empty() {
        for (t, e) in &report.table_errors {
            writeln!(err, "error: {t}: {e}")?;
        }
        if report.table_errors.is_empty()
            && let Some(filter) = table
        {
            writeln!(err, "error: no test table matches --table {filter:?}")?;
        }
        return nothing_ran(out);
    }
    out.write_all(report.render(verbose).as_bytes())?;
    let (_, failed, _) = report.totals();
    Ok(if failed == 0 && report.table_errors.is_empty() {
        EXIT_PASSED
    } else {
        EXIT_FAILED
    })
}

/// Closes a run in which nothing ran.
fn nothing_ran(out: &mut dyn Write) -> io::Result<u8> {
    writeln!(out, "{NOTHING_RAN_TOTALS}")?;
    Ok(EXIT_NOTHING_RAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(
        f: impl FnOnce(&mut dyn Write, &mut dyn Write) -> io::Result<u8>,
    ) -> (Option<u8>, String, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = f(&mut out, &mut err).ok();
        (
            code,
            String::from_utf8_lossy(&out).into_owned(),
            String::from_utf8_lossy(&err).into_owned(),
        )
    }

    #[test]
    fn validation_gen_without_checkout_runs_nothing() {
        let (code, out, err) = run(|o, e| validation_gen(None, false, None, o, e));
        assert_eq!(code, Some(EXIT_NOTHING_RAN));
        assert_eq!(out, "0 passed, 0 failed, 0 skipped\n");
        assert!(err.contains("KDV_UPSTREAM_CODEGEN=DIR"), "{err}");
        assert!(err.contains("--codegen DIR"), "{err}");
    }

    #[test]
    fn validation_gen_without_suite_runs_nothing() {
        let dir = std::env::temp_dir().join("kdv-conformance-no-such-checkout");
        let (code, out, err) = run(|o, e| validation_gen(Some(&dir), false, None, o, e));
        assert_eq!(code, Some(EXIT_NOTHING_RAN));
        assert_eq!(out, "0 passed, 0 failed, 0 skipped\n");
        assert!(err.contains("output_tests is not a directory"), "{err}");
        assert!(
            err.contains("not a kubernetes/code-generator checkout"),
            "{err}"
        );
    }

    #[test]
    fn cel_spec_missing_data_runs_nothing() {
        let dir = std::env::temp_dir().join("kdv-conformance-no-such-cel-spec");
        let (code, out, err) = run(|o, e| cel_spec(&dir, false, None, o, e));
        assert_eq!(code, Some(EXIT_NOTHING_RAN));
        assert_eq!(out, "0 passed, 0 failed, 0 skipped\n");
        assert!(err.contains("kdv-conformance-no-such-cel-spec"), "{err}");
        assert!(err.contains("--data DIR"), "{err}");
    }

    #[test]
    fn kubectl_validate_missing_data_runs_nothing() {
        let dir = std::env::temp_dir().join("kdv-conformance-no-such-kubectl-validate");
        let (code, out, err) = run(|o, e| kubectl_validate(&dir, false, None, o, e));
        assert_eq!(code, Some(EXIT_NOTHING_RAN));
        assert_eq!(out, "0 passed, 0 failed, 0 skipped\n");
        assert!(err.contains("--data DIR"), "{err}");
        let data = Path::new(DEFAULT_KUBECTL_VALIDATE_DATA);
        let (code, out, err) =
            run(|o, e| kubectl_validate(data, false, Some("nothing-matches"), o, e));
        assert_eq!(code, Some(EXIT_NOTHING_RAN));
        assert_eq!(out, "0 passed, 0 failed, 0 skipped\n");
        assert!(err.contains("--file \"nothing-matches\""), "{err}");
    }

    #[test]
    fn apiextensions_without_checkout_runs_nothing() {
        let (code, out, err) = run(|o, e| apiextensions(None, false, None, o, e));
        assert_eq!(code, Some(EXIT_NOTHING_RAN));
        assert_eq!(out, "0 passed, 0 failed, 0 skipped\n");
        assert!(err.contains("KDV_UPSTREAM_APIEXTENSIONS=DIR"), "{err}");
        assert!(err.contains("--checkout DIR"), "{err}");
        let dir = std::env::temp_dir().join("kdv-conformance-no-such-apiextensions");
        let (code, out, err) = run(|o, e| apiextensions(Some(&dir), false, None, o, e));
        assert_eq!(code, Some(EXIT_NOTHING_RAN));
        assert_eq!(out, "0 passed, 0 failed, 0 skipped\n");
        assert!(
            err.contains("not a k8s.io/apiextensions-apiserver checkout"),
            "{err}"
        );
    }

    #[test]
    fn default_data_is_the_projects() {
        let dir = Path::new(DEFAULT_CEL_SPEC_DATA);
        assert!(dir.join("simple/basic.json").is_file(), "{}", dir.display());
    }
}
