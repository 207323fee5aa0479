//! `kdv-release-data`: prepares the data of the Kubernetes releases kdv embeds, from upstream
//! checkouts outside the repository (test tooling; see `testdata/README.md`).
//!
//! Subcommands:
//! - `api-types`: the type models (Go declarations with their tags) of the kubernetes/api
//!   packages a release serves, stored as compressed JSON under
//!   `testdata/kubernetes-api/v1.N/` for `kdv-k8s-api`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod api_types;

#[derive(Debug, Parser)]
#[command(
    name = "kdv-release-data",
    about = "Prepare the data of embedded Kubernetes releases"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Store the kubernetes/api type models of one release (`testdata/kubernetes-api/v1.N/`).
    ApiTypes(api_types::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::ApiTypes(args) => api_types::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
