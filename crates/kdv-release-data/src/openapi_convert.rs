//! `kdv-release-data openapi-convert`: a release's swagger v2 and the Go types of its API
//! modules to the stored form of its OpenAPI v3 documents (see `convert`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde_json::Value;

use crate::convert::{self, Conversion};
use crate::gotypes::GoTypes;
use crate::stored;

/// Arguments of `openapi-convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The release's swagger v2 (`api/openapi-spec/swagger.json`).
    #[arg(long, value_name = "FILE")]
    swagger: PathBuf,

    /// The Kubernetes release (`1.36`).
    #[arg(long, value_name = "X.Y")]
    version: String,

    /// A Go module checkout of the release (with its go.mod): k8s.io/api,
    /// k8s.io/apimachinery, k8s.io/apiextensions-apiserver, k8s.io/kube-aggregator.
    #[arg(long = "go", value_name = "DIR", required = true)]
    go: Vec<PathBuf>,

    /// Where release directories are stored (`testdata/kubernetes-openapi`).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

/// Reads a swagger document and the Go modules, and converts.
pub fn load_and_convert(swagger: &Path, go: &[PathBuf]) -> Result<Conversion, String> {
    let text = std::fs::read(swagger).map_err(|e| format!("{}: {e}", swagger.display()))?;
    let swagger_json: Value =
        serde_json::from_slice(&text).map_err(|e| format!("{}: {e}", swagger.display()))?;
    let go = GoTypes::new(go)?;
    convert::convert(&swagger_json, &go)
}

/// Prints what a conversion did; true when every definition was mapped to Go.
pub fn report(conversion: &Conversion) -> bool {
    let added: Vec<String> = conversion
        .defaults_added
        .iter()
        .map(|(k, v)| format!("{v} {k}"))
        .collect();
    println!(
        "converted {} documents; defaults added: {}",
        conversion.documents.len(),
        if added.is_empty() {
            "none".to_string()
        } else {
            added.join(", ")
        }
    );
    for u in &conversion.unmapped {
        println!("  unmapped: {u}");
    }
    conversion.unmapped.is_empty()
}

/// Runs the subcommand.
pub fn run(args: &ConvertArgs) -> Result<ExitCode, String> {
    stored::check_version(&args.version)?;
    let conversion = load_and_convert(&args.swagger, &args.go)?;
    if !report(&conversion) {
        return Err("definitions without their Go types: their defaults would be missing".into());
    }
    let documents: Vec<stored::Document> = conversion
        .documents
        .into_iter()
        .map(|(path, reduced)| stored::Document {
            path,
            reduced,
            published: None,
        })
        .collect();
    let written = stored::write_release(&args.out, &args.version, &documents)?;
    println!(
        "{}: {} documents, {} bytes reduced, {} bytes stored in {}",
        args.version,
        written.documents,
        written.reduced_bytes,
        written.stored_bytes,
        args.out.join(format!("v{}", args.version)).display()
    );
    Ok(ExitCode::SUCCESS)
}
