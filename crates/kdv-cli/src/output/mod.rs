//! What a run found and how it is written: the report model here, one module per output
//! format (`text`, `json`, `sarif`), and the progress bar.
//!
//! File names in every format follow `crate::file_name`: escaped text forms in text output,
//! the real names in JSON, URIs in SARIF.

pub mod json;
pub mod progress;
pub mod sarif;
pub mod text;

use kdv_runtime::{FieldError, OperationKind};

use crate::input::InputError;

/// One field error of a document, with where in the file it points when that is known.
#[derive(Debug, Clone)]
pub struct ReportedError {
    /// The error as the validator reported it.
    pub error: FieldError,
    /// 1-based line of the failing field, when known; writers that need a position use the
    /// document's start line otherwise.
    pub line: Option<u64>,
    /// 1-based column (characters) of the failing field, when known.
    pub column: Option<u64>,
}

impl From<FieldError> for ReportedError {
    fn from(error: FieldError) -> Self {
        ReportedError {
            error,
            line: None,
            column: None,
        }
    }
}

/// The result of validating one document.
#[derive(Debug, Clone)]
pub struct DocumentResult {
    /// The file's text form (`crate::file_name`; `<stdin>` for standard input).
    pub file: String,
    /// Index of the document in its stream (empty documents counted).
    pub document: usize,
    /// 1-based line where the document starts.
    pub line: u64,
    /// The document's `kind`, if it has one.
    pub kind: Option<String>,
    /// The Go type it was validated as (`pkg/path.Name`).
    pub type_name: String,
    /// CREATE, or UPDATE when an old revision was given.
    pub operation: OperationKind,
    /// The old revision's file (text form), for an UPDATE.
    pub old_file: Option<String>,
    /// The field errors, in the validator's order; empty when valid.
    pub errors: Vec<ReportedError>,
}

/// Everything one `kdv validate` run found (or one job of it).
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The validated documents, in input order.
    pub documents: Vec<DocumentResult>,
    /// Problems that kept documents from being validated.
    pub input_errors: Vec<InputError>,
    /// Empty documents that were skipped.
    pub empty: usize,
}

impl Report {
    /// Adds the results of one job (kept in the order jobs are added).
    pub fn absorb(&mut self, part: Report) {
        self.documents.extend(part.documents);
        self.input_errors.extend(part.input_errors);
        self.empty += part.empty;
    }

    /// Number of documents validated without errors.
    pub fn valid(&self) -> usize {
        self.documents
            .iter()
            .filter(|d| d.errors.is_empty())
            .count()
    }

    /// Number of documents validated with errors.
    pub fn invalid(&self) -> usize {
        self.documents.len() - self.valid()
    }

    /// Number of field errors in all documents.
    pub fn error_count(&self) -> usize {
        self.documents.iter().map(|d| d.errors.len()).sum()
    }

    /// The process exit code: 2 if any input could not be validated, else 1 if any
    /// document is invalid, else 0.
    pub fn exit_code(&self) -> u8 {
        if !self.input_errors.is_empty() {
            2
        } else if self.invalid() > 0 {
            1
        } else {
            0
        }
    }

    /// The summary line: `3 documents, 2 valid, 1 invalid` plus skipped and failed inputs
    /// when there are any.
    pub fn summary(&self) -> String {
        let mut text = format!(
            "{}, {} valid, {} invalid",
            plural(self.documents.len(), "document", "documents"),
            self.valid(),
            self.invalid()
        );
        if self.empty > 0 {
            text.push_str(&format!(
                ", {} skipped",
                plural(self.empty, "empty document", "empty documents")
            ));
        }
        if !self.input_errors.is_empty() {
            text.push_str(&format!(
                ", {}",
                plural(self.input_errors.len(), "input error", "input errors")
            ));
        }
        text
    }
}

/// `1 document`, `2 documents`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Kubernetes' admission spelling of the operation.
pub fn operation_name(kind: OperationKind) -> &'static str {
    match kind {
        OperationKind::Create => "CREATE",
        OperationKind::Update => "UPDATE",
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use kdv_runtime::{BadValue, PathRef};

    /// A report with an invalid document, a valid update, an input error and an empty
    /// document, for the writers' tests.
    pub(crate) fn sample() -> Report {
        let root = PathRef::Nil;
        let spec = root.child("spec");
        let replicas = spec.child("replicas");
        let name = root.child("metadata");
        let name = name.child("name");
        Report {
            documents: vec![
                DocumentResult {
                    file: "m/bad.yaml".into(),
                    document: 0,
                    line: 1,
                    kind: Some("Widget".into()),
                    type_name: "demo/v1.Widget".into(),
                    operation: OperationKind::Create,
                    old_file: None,
                    errors: vec![
                        ReportedError {
                            line: Some(4),
                            column: Some(13),
                            ..FieldError::invalid(
                                &replicas,
                                BadValue::Int(0),
                                "must be greater than or equal to 1",
                            )
                            .with_origin("minimum")
                            .into()
                        },
                        FieldError::required(&name, "").into(),
                        FieldError::too_long(&name, 10).into(),
                    ],
                },
                DocumentResult {
                    file: "m/good.yaml".into(),
                    document: 2,
                    line: 9,
                    kind: Some("Widget".into()),
                    type_name: "demo/v1.Widget".into(),
                    operation: OperationKind::Update,
                    old_file: Some("m/good.old.yaml".into()),
                    errors: vec![],
                },
            ],
            input_errors: vec![InputError::at(
                "m/broken.yaml",
                3,
                2,
                "did not find expected key",
            )],
            empty: 1,
        }
    }

    #[test]
    fn summary_pluralises() {
        let report = Report::default();
        assert_eq!(report.summary(), "0 documents, 0 valid, 0 invalid");
        assert_eq!(report.exit_code(), 0);
        let mut one = sample();
        one.documents.truncate(1);
        one.input_errors.clear();
        one.empty = 2;
        assert_eq!(
            one.summary(),
            "1 document, 0 valid, 1 invalid, 2 empty documents skipped"
        );
        assert_eq!(one.exit_code(), 1);
        assert_eq!(sample().exit_code(), 2);
    }

    #[test]
    fn counts_and_exit_code() {
        let report = sample();
        assert_eq!((report.valid(), report.invalid()), (1, 1));
        assert_eq!(report.error_count(), 3);
        assert_eq!(report.exit_code(), 2);
        assert_eq!(
            report.summary(),
            "2 documents, 1 valid, 1 invalid, 1 empty document skipped, 1 input error"
        );
    }
}
