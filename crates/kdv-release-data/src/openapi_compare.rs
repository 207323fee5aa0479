//! `kdv-release-data openapi-compare`: the fidelity of `openapi-convert` on a release whose
//! OpenAPI v3 documents are published: converts its swagger v2 and compares the reduced
//! documents with the published ones (reduced), counting differences by class (`diff`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::{diff, openapi_convert, stored};

/// Arguments of `openapi-compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The release's swagger v2 (`api/openapi-spec/swagger.json`).
    #[arg(long, value_name = "FILE")]
    swagger: PathBuf,

    /// A Go module checkout of the release (see `openapi-convert --go`).
    #[arg(long = "go", value_name = "DIR", required = true)]
    go: Vec<PathBuf>,

    /// The published documents: `.json` as published or `.json.deflate` as stored.
    #[arg(long, value_name = "DIR")]
    published: PathBuf,

    /// A label for the report (`1.35`).
    #[arg(long, value_name = "X.Y", default_value = "release")]
    version: String,

    /// Examples printed per class of difference.
    #[arg(long, value_name = "N", default_value_t = 3)]
    examples: usize,
}

/// Runs the subcommand: exit 0 when the documents are identical, 1 when they differ.
pub fn run(args: &CompareArgs) -> Result<ExitCode, String> {
    let published: BTreeMap<String, serde_json::Value> = stored::read_documents(&args.published)?
        .into_iter()
        .map(|(path, d)| (path, d.reduced))
        .collect();
    let conversion = openapi_convert::load_and_convert(&args.swagger, &args.go)?;
    openapi_convert::report(&conversion);
    let differences = diff::compare(&published, &conversion.documents);
    let mut classes: BTreeMap<&str, Vec<&diff::Difference>> = BTreeMap::new();
    for d in &differences {
        classes.entry(d.class.as_str()).or_default().push(d);
    }
    let mut sorted: Vec<_> = classes.into_iter().collect();
    sorted.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
    for (class, list) in &sorted {
        println!("{:>7}  {class}", list.len());
        for d in list.iter().take(args.examples) {
            println!(
                "           {} {}: published {}, converted {}",
                d.document, d.at, d.expected, d.actual
            );
        }
    }
    println!(
        "{}: {} published documents, {} converted, {} differences in {} classes",
        args.version,
        published.len(),
        conversion.documents.len(),
        differences.len(),
        sorted.len()
    );
    Ok(if differences.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
