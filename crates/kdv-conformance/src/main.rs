//! `kdv-conformance`: runs upstream conformance suites against kdv and reports per case
//! whether kdv agrees with upstream. A test tool of the project, not part of the `kdv`
//! command.
//!
//! ```text
//! kdv-conformance validation-gen [--codegen DIR] [--verbose] [--package FILTER]
//! kdv-conformance cel-spec [--data DIR] [--verbose] [--file NAME]
//! kdv-conformance kubectl-validate [--data DIR] [--verbose] [--file NAME]
//! kdv-conformance apiextensions [--checkout DIR] [--verbose] [--table FILTER]
//! ```
//!
//! Every run closes with the line `N passed, N failed, N skipped`. Exit status: 0 every case
//! that ran passed, 1 some case failed, 2 nothing ran (no upstream checkout, missing or empty
//! data, a filter that selects nothing; stderr says what is missing) or bad arguments.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use kdv_conformance::apiextensions::APIEXTENSIONS_ENV;
use kdv_conformance::cli::{
    self, CODEGEN_ENV, DEFAULT_CEL_SPEC_DATA, DEFAULT_KUBECTL_VALIDATE_DATA, EXIT_NOTHING_RAN,
};

/// Run upstream conformance suites against kdv.
///
/// Exit status: 0 every case that ran passed, 1 some case failed, 2 nothing ran (no upstream
/// checkout, missing or empty data, a filter that selects nothing) or bad arguments.
#[derive(Debug, Parser)]
#[command(name = "kdv-conformance", version)]
struct Cli {
    /// The suite to run.
    #[command(subcommand)]
    suite: Suite,
}

/// The suites.
#[derive(Debug, Subcommand)]
enum Suite {
    /// Run upstream validation-gen's tests (cmd/validation-gen/output_tests of a
    /// kubernetes/code-generator checkout) against kdv's tag engine; prints one line per
    /// package and the totals.
    ValidationGen(ValidationGenArgs),
    /// Run the cel-spec "simple" conformance tests (JSON form) against kdv's CEL engine;
    /// prints one line per file, the skip reasons and the totals.
    CelSpec(CelSpecArgs),
    /// Run kubectl-validate's test cases (every document of testcases/manifests, with
    /// testcases/crds and the 1.23 schema patch, against the embedded Kubernetes 1.35
    /// schemas, CRDs' CEL rules included) and compare kdv's metav1.Status with the expected
    /// one; prints one line per file, every failure and the totals.
    KubectlValidate(KubectlValidateArgs),
    /// Run apiextensions-apiserver's own CEL validation tables (TestValidationExpressions
    /// and the transition-rule, messageExpression, reason/fieldPath, cost and ratcheting
    /// tables of pkg/apiserver/schema/cel, read from a k8s.io/apiextensions-apiserver
    /// checkout) against kdv-openapi; prints one line per table, the skip reasons, the
    /// failure causes and the totals.
    Apiextensions(ApiextensionsArgs),
}

/// Arguments of `kdv-conformance apiextensions`.
#[derive(Debug, Args)]
struct ApiextensionsArgs {
    /// The k8s.io/apiextensions-apiserver checkout [default: $KDV_UPSTREAM_APIEXTENSIONS].
    #[arg(long, value_name = "DIR")]
    checkout: Option<PathBuf>,

    /// Also print every failing case with its difference, and every failure cause.
    #[arg(long, short = 'v')]
    verbose: bool,

    /// Only the test functions whose name contains this (e.g. `Ratcheting`).
    #[arg(long, value_name = "FILTER")]
    table: Option<String>,
}

/// Arguments of `kdv-conformance kubectl-validate`.
#[derive(Debug, Args)]
struct KubectlValidateArgs {
    /// The kubectl-validate test data (holding testcases/manifests, testcases/crds,
    /// schema-patches/1.23) [default: the project's testdata/kubectl-validate].
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,

    /// Accepted as by the other suites: every failure is always printed in full.
    #[arg(long, short = 'v')]
    verbose: bool,

    /// Only the manifest files whose name contains this (e.g. `quantity`).
    #[arg(long, value_name = "NAME")]
    file: Option<String>,
}

/// Arguments of `kdv-conformance validation-gen`.
#[derive(Debug, Args)]
struct ValidationGenArgs {
    /// The kubernetes/code-generator checkout [default: $KDV_UPSTREAM_CODEGEN].
    #[arg(long, value_name = "DIR")]
    codegen: Option<PathBuf>,

    /// Also print every failing case (expected vs got, the JSON kdv validated) and the
    /// failure causes.
    #[arg(long, short = 'v')]
    verbose: bool,

    /// Only packages whose path under output_tests contains this text.
    #[arg(long, value_name = "FILTER")]
    package: Option<String>,
}

/// Arguments of `kdv-conformance cel-spec`.
#[derive(Debug, Args)]
struct CelSpecArgs {
    /// Directory of the suite in JSON form (holding `simple/*.json`) [default: the project's
    /// testdata/cel-spec].
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,

    /// Also print every failing case (expression, expected and actual result).
    #[arg(long, short = 'v')]
    verbose: bool,

    /// Only the files whose name contains this (e.g. `string_ext`).
    #[arg(long, value_name = "NAME")]
    file: Option<String>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // clap: 0 for --help/--version, 2 for usage errors.
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(EXIT_NOTHING_RAN));
        }
    };
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut err = stderr.lock();
    let result = match &cli.suite {
        Suite::ValidationGen(args) => {
            let codegen = args.codegen.clone().or_else(|| {
                std::env::var_os(CODEGEN_ENV)
                    .filter(|v| !v.is_empty())
                    .map(PathBuf::from)
            });
            cli::validation_gen(
                codegen.as_deref(),
                args.verbose,
                args.package.as_deref(),
                &mut out,
                &mut err,
            )
        }
        Suite::CelSpec(args) => {
            let data = args
                .data
                .clone()
                .unwrap_or_else(|| PathBuf::from(DEFAULT_CEL_SPEC_DATA));
            cli::cel_spec(
                &data,
                args.verbose,
                args.file.as_deref(),
                &mut out,
                &mut err,
            )
        }
        Suite::Apiextensions(args) => {
            let checkout = args.checkout.clone().or_else(|| {
                std::env::var_os(APIEXTENSIONS_ENV)
                    .filter(|v| !v.is_empty())
                    .map(PathBuf::from)
            });
            cli::apiextensions(
                checkout.as_deref(),
                args.verbose,
                args.table.as_deref(),
                &mut out,
                &mut err,
            )
        }
        Suite::KubectlValidate(args) => {
            let data = args
                .data
                .clone()
                .unwrap_or_else(|| PathBuf::from(DEFAULT_KUBECTL_VALIDATE_DATA));
            cli::kubectl_validate(
                &data,
                args.verbose,
                args.file.as_deref(),
                &mut out,
                &mut err,
            )
        }
    };
    match result.and_then(|code| out.flush().map(|()| code)) {
        Ok(code) => ExitCode::from(code),
        // Output cut short by a closed pipe (`... | head`) is not worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(EXIT_NOTHING_RAN),
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            ExitCode::from(EXIT_NOTHING_RAN)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn validation_gen_arguments() {
        let cli = Cli::try_parse_from([
            "kdv-conformance",
            "validation-gen",
            "--codegen",
            "/src/code-generator",
            "--verbose",
            "--package",
            "tags/minimum",
        ])
        .unwrap();
        let Suite::ValidationGen(args) = cli.suite else {
            panic!("expected validation-gen")
        };
        assert_eq!(
            args.codegen.as_deref(),
            Some(std::path::Path::new("/src/code-generator"))
        );
        assert!(args.verbose);
        assert_eq!(args.package.as_deref(), Some("tags/minimum"));
    }

    #[test]
    fn cel_spec_arguments() {
        let cli =
            Cli::try_parse_from(["kdv-conformance", "cel-spec", "-v", "--file", "basic"]).unwrap();
        let Suite::CelSpec(args) = cli.suite else {
            panic!("expected cel-spec")
        };
        assert!(args.verbose);
        assert_eq!(args.file.as_deref(), Some("basic"));
        assert_eq!(args.data, None);
    }

    #[test]
    fn kubectl_validate_arguments() {
        let cli =
            Cli::try_parse_from(["kdv-conformance", "kubectl-validate", "--file", "quantity"])
                .unwrap();
        let Suite::KubectlValidate(args) = cli.suite else {
            panic!("expected kubectl-validate")
        };
        assert_eq!(args.file.as_deref(), Some("quantity"));
        assert!(!args.verbose);
        assert_eq!(args.data, None);
    }

    #[test]
    fn apiextensions_arguments() {
        let cli = Cli::try_parse_from([
            "kdv-conformance",
            "apiextensions",
            "--checkout",
            "/src/apiextensions-apiserver",
            "-v",
            "--table",
            "Ratcheting",
        ])
        .unwrap();
        let Suite::Apiextensions(args) = cli.suite else {
            panic!("expected apiextensions")
        };
        assert_eq!(
            args.checkout.as_deref(),
            Some(std::path::Path::new("/src/apiextensions-apiserver"))
        );
        assert!(args.verbose);
        assert_eq!(args.table.as_deref(), Some("Ratcheting"));
    }

    #[test]
    fn bad_arguments() {
        assert!(Cli::try_parse_from(["kdv-conformance", "cel-spec", "--bogus"]).is_err());
        assert!(Cli::try_parse_from(["kdv-conformance", "validation-gen", "--package"]).is_err());
        assert!(Cli::try_parse_from(["kdv-conformance"]).is_err());
    }
}
