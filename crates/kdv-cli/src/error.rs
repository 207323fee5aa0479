//! Errors that stop a command before it has results; printed as `error: ...`, exit status 2.

use std::io;
use std::path::PathBuf;

/// A problem that stops a command.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The Go package could not be read at all.
    #[error(
        "cannot load Go types from {}: {message}",
        crate::file_name::display(dir)
    )]
    TypesUnreadable { dir: PathBuf, message: String },

    /// The Go package has errors (shown before this message), so its rules are incomplete.
    #[error(
        "the types in {} have {count} error{} (shown above); `kdv lint --types {}` lists them",
        crate::file_name::display(dir),
        if *count == 1 { "" } else { "s" },
        crate::file_name::display(dir)
    )]
    TypesInvalid { dir: PathBuf, count: usize },

    /// `--type NAME` names no type of the package.
    #[error(
        "--type {}: no such type in {}{}",
        kdv_model::clip_message(name),
        crate::file_name::display(dir),
        known_list(known)
    )]
    UnknownType {
        name: String,
        dir: PathBuf,
        known: Vec<String>,
    },

    /// A type given as an argument (`kdv schema TYPE`) names no type of the package.
    #[error(
        "{}: no such type in {}{}{}",
        kdv_model::clip_message(name),
        crate::file_name::display(dir),
        if nearest.is_empty() { String::new() } else { format!("; nearest: {}", nearest.join(", ")) },
        known_list(roots)
    )]
    UnknownTypeArgument {
        name: String,
        dir: PathBuf,
        /// The package's types nearest the name.
        nearest: Vec<String>,
        /// The package's root types.
        roots: Vec<String>,
    },

    /// `--type NAME` is a bare name the package does not declare but several imported
    /// packages do.
    #[error(
        "--type {name}: {} does not declare {name}, but several loaded packages do: {}; name one as pkg/path.{name}",
        crate::file_name::display(dir),
        candidates.join(", ")
    )]
    AmbiguousType {
        name: String,
        dir: PathBuf,
        candidates: Vec<String>,
    },

    /// Arguments that parse but do not fit together.
    #[error("{0}")]
    Usage(String),

    /// A schema source (`--crd`, `--schema`) cannot be read. The message is capped: it
    /// echoes the input (a CRD's every write-time error can make a megabyte).
    #[error("{}", kdv_model::clip_message(.0))]
    Schema(String),

    /// Writing the output failed.
    #[error("cannot write output: {0}")]
    Output(#[from] io::Error),
}

impl CliError {
    /// A stable name of the failure, for JSON and SARIF output.
    pub fn kind(&self) -> &'static str {
        match self {
            CliError::TypesUnreadable { .. } => "typesUnreadable",
            CliError::TypesInvalid { .. } => "typesInvalid",
            CliError::UnknownType { .. } | CliError::UnknownTypeArgument { .. } => "unknownType",
            CliError::AmbiguousType { .. } => "ambiguousType",
            CliError::Usage(_) => "usage",
            CliError::Schema(_) => "schemaUnreadable",
            CliError::Output(_) => "output",
        }
    }
}

fn known_list(known: &[String]) -> String {
    if known.is_empty() {
        "; it declares no root types (see +k8s:validation-gen in doc.go)".to_string()
    } else {
        format!("; root types: {}", known.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages() {
        let e = CliError::TypesInvalid {
            dir: "api".into(),
            count: 1,
        };
        assert_eq!(
            e.to_string(),
            "the types in api have 1 error (shown above); `kdv lint --types api` lists them"
        );
        let e = CliError::UnknownType {
            name: "Gadget".into(),
            dir: "api".into(),
            known: vec!["demo.kdv.dev/v1 Widget".into()],
        };
        assert_eq!(
            e.to_string(),
            "--type Gadget: no such type in api; root types: demo.kdv.dev/v1 Widget"
        );
    }
}
