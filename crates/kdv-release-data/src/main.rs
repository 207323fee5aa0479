//! `kdv-release-data`: prepares the per-release data kdv embeds. A test tool of the project
//! (like `kdv-conformance`), not part of the `kdv` command; no product crate depends on it.
//!
//! ```text
//! kdv-release-data openapi-import --published DIR --version X.Y --out DIR
//! kdv-release-data openapi-convert --swagger FILE --version X.Y --go DIR... --out DIR
//! kdv-release-data openapi-compare --swagger FILE --go DIR... --published DIR [--version X.Y]
//! kdv-release-data api-types --api DIR --version X.Y --tag v0.Y.Z --out DIR
//! ```
//!
//! Each subcommand is one module (`openapi_import`, ...) with its arguments and `run`.
//! Exit status: 0 done (compare: no difference), 1 compare found differences, 2 bad input.

mod api_types;
mod convert;
mod defaults;
mod diff;
mod gotypes;
mod openapi_compare;
mod openapi_convert;
mod openapi_import;
mod stored;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Prepare the per-release data kdv embeds.
#[derive(Debug, Parser)]
#[command(name = "kdv-release-data", version)]
struct Cli {
    /// What to prepare.
    #[command(subcommand)]
    command: Command,
}

/// The subcommands, named `<data set>-<step>`.
#[derive(Debug, Subcommand)]
enum Command {
    /// Store a release's published OpenAPI v3 documents (api/V.json, apis/GROUP/V.json) in
    /// the reduced, compressed form kdv-k8s-openapi embeds, with FILES-vX.Y.tsv.
    OpenapiImport(openapi_import::ImportArgs),
    /// Build a release's OpenAPI v3 documents from its swagger v2 and the Go types of its
    /// API modules (the defaults v2 pruned), and store them as openapi-import does.
    OpenapiConvert(openapi_convert::ConvertArgs),
    /// Convert a release whose v3 documents are published and count the differences with
    /// them by class.
    OpenapiCompare(openapi_compare::CompareArgs),
    /// Store the kubernetes/api type models (Go declarations with their tags) of the
    /// packages a release serves, for kdv-k8s-api (`testdata/kubernetes-api/vX.Y/`).
    ApiTypes(api_types::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::OpenapiImport(args) => openapi_import::run(args),
        Command::OpenapiConvert(args) => openapi_convert::run(args),
        Command::OpenapiCompare(args) => openapi_compare::run(args),
        Command::ApiTypes(args) => api_types::run(args).map(|()| ExitCode::SUCCESS),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
