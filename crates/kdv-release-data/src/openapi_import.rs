//! `kdv-release-data openapi-import`: a release's published OpenAPI v3 documents (one file
//! per group-version, as kubectl-validate's `pkg/openapiclient/builtins/<X.Y>/` or
//! kubernetes' `api/openapi-spec/v3` laid out as `api/<v>.json`, `apis/<group>/<v>.json`)
//! to the stored form.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::stored;

/// Arguments of `openapi-import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The published documents: `api/<v>.json` and `apis/<group>/<v>.json` below it.
    #[arg(long, value_name = "DIR")]
    published: PathBuf,

    /// The Kubernetes release (`1.34`).
    #[arg(long, value_name = "X.Y")]
    version: String,

    /// Where release directories are stored (`testdata/kubernetes-openapi`).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

/// Runs the subcommand.
pub fn run(args: &ImportArgs) -> Result<ExitCode, String> {
    stored::check_version(&args.version)?;
    let documents = stored::read_documents(&args.published)?;
    if documents.values().any(|d| d.published.is_none()) {
        return Err(format!(
            "{}: holds stored documents, not published ones",
            args.published.display()
        ));
    }
    let documents: Vec<stored::Document> = documents.into_values().collect();
    let written = stored::write_release(&args.out, &args.version, &documents)?;
    println!(
        "{}: {} documents, {} bytes published, {} bytes reduced, {} bytes stored in {}",
        args.version,
        written.documents,
        written.published_bytes,
        written.reduced_bytes,
        written.stored_bytes,
        args.out.join(format!("v{}", args.version)).display()
    );
    Ok(ExitCode::SUCCESS)
}
