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
//!
//! - `openapi-import`: published v3 documents → the stored form (`stored`:
//!   `v<X.Y>/<path>.json.deflate` and `FILES-v<X.Y>.tsv` with each original's sha256), reduced
//!   with `kdv_k8s_openapi::reduce`, the code the build script uses (decision 0059).
//! - `openapi-convert`: a release's swagger v2 and its Go API modules → its v3 documents
//!   (`convert`: split by group-version path, definitions reached, `$ref`s into `components`,
//!   `WrapRefs`' `allOf`, `OpenAPIV3OneOfTypes`; `defaults`: openapi-gen's
//!   `generateDefault`/`mustEnforceDefault` rule over the Go types, which `gotypes` reads with
//!   `kdv-go`, methods found with its lexer; decision 0060).
//! - `openapi-compare`: converts a release whose v3 is published and counts the differences by
//!   class (`diff`).
//! - `api-types`: a kubernetes/api checkout → the type models `kdv-k8s-api` embeds (decision
//!   0062).
//!
//! It reads upstream files only when run by hand; `publish = false`.

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
