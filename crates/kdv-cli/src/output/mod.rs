//! What a run found and how it is written: the report model here, one module per output
//! format (`text`, `json`, `sarif`), and the progress bar.
//!
//! File names in every format follow `crate::file_name`: escaped text forms in text output,
//! the real names in JSON, URIs in SARIF. Every error carries the line and column of the
//! failing field (`commands::check` locates them in the document's text); unknown fields are
//! [`Finding`]s, errors or warnings of their document as `--unknown-fields` says.

pub mod json;
pub mod progress;
pub mod sarif;
pub mod text;

use kdv_manifest::Position;
use kdv_model::Severity;
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
    /// 1-based line where the document's content starts.
    pub line: u64,
    /// 1-based column where the document's content starts.
    pub column: u64,
    /// The document's `kind`, if it has one.
    pub kind: Option<String>,
    /// The Go type it was validated as (`pkg/path.Name`).
    pub type_name: String,
    /// CREATE, or UPDATE when an old revision was given.
    pub operation: OperationKind,
    /// The old revision's file (text form; `REV:path` for `--old-ref`), for an UPDATE.
    pub old_file: Option<String>,
    /// The old revision's document index in that file, for an UPDATE.
    pub old_document: Option<usize>,
    /// The field errors, in the validator's order; empty when valid.
    pub errors: Vec<ReportedError>,
    /// Unknown fields reported as errors (`--unknown-fields=error`), in path order; they
    /// make the document invalid and are listed before `errors`.
    pub unknown_fields: Vec<Finding>,
    /// Warnings about the document (unknown fields under `--unknown-fields=warn`).
    pub warnings: Vec<Finding>,
    /// Errors of declarative rules the feature gates shadow (`+k8s:alpha`, `+k8s:beta` with
    /// DeclarativeValidationBeta off): warnings, not errors.
    pub shadowed: Vec<ReportedError>,
}

/// Why a shadowed error is not enforced at Kubernetes 1.`minor`, as its warning says.
pub fn shadowed_reason(e: &kdv_runtime::FieldError, minor: u32) -> &'static str {
    if e.is_alpha() {
        "shadowed: +k8s:alpha rules are never enforced"
    } else if minor < 36 {
        "shadowed: +k8s:beta rules are enforced only with DeclarativeValidationTakeover before Kubernetes 1.36"
    } else {
        "shadowed: +k8s:beta rules are not enforced with DeclarativeValidationBeta=false"
    }
}

impl DocumentResult {
    /// Whether the document has neither field errors nor unknown fields reported as errors.
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty() && self.unknown_fields.is_empty()
    }

    /// Where error `e` is: its field's position, else the document's start.
    pub fn position(&self, e: &ReportedError) -> Position {
        match (e.line, e.column) {
            (Some(line), Some(column)) => Position { line, column },
            (Some(line), None) => Position { line, column: 1 },
            _ => Position {
                line: self.line,
                column: self.column,
            },
        }
    }
}

/// A finding about a document that is not a validation error of its values: an unknown
/// field (upstream's strict decoding error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The field's path as upstream writes it (`spec.spce`).
    pub field: String,
    /// The text, as upstream words it (`unknown field "spec.spce"`).
    pub message: String,
    /// Where the field is written.
    pub position: Position,
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
    /// The Kubernetes minor release the run targets (the reasons of shadowed errors
    /// depend on it).
    pub minor: u32,
    /// Documents already written and dropped from `documents` ([`Report::absorb_written`]),
    /// counted.
    pub written: Written,
}

/// What a run keeps of the documents whose lines text output has written: counts for the
/// summary and the exit status, and the types they were validated as (for the warnings
/// about skipped checks). Memory stays bounded by the files in flight, not by the run.
#[derive(Debug, Clone, Default)]
pub struct Written {
    /// Documents.
    pub documents: usize,
    /// Valid documents among them.
    pub valid: usize,
    /// Their errors (unknown fields reported as errors included).
    pub errors: usize,
    /// The Go types they were validated as, in the order first met.
    pub type_names: Vec<String>,
    seen_types: std::collections::HashSet<String>,
}

impl Report {
    /// Adds the results of one job (kept in the order jobs are added).
    pub fn absorb(&mut self, part: Report) {
        self.documents.extend(part.documents);
        self.input_errors.extend(part.input_errors);
        self.empty += part.empty;
    }

    /// Adds the results of one job whose errors text output has written: only the
    /// documents with warnings are kept (the footer writes them), the others are counted
    /// (in [`Report::written`]).
    pub fn absorb_written(&mut self, part: Report) {
        for doc in part.documents {
            if !doc.warnings.is_empty() || !doc.shadowed.is_empty() {
                self.documents.push(doc);
                continue;
            }
            let w = &mut self.written;
            w.documents += 1;
            w.valid += usize::from(doc.is_valid());
            w.errors += doc.errors.len() + doc.unknown_fields.len();
            if w.seen_types.insert(doc.type_name.clone()) {
                w.type_names.push(doc.type_name);
            }
        }
        self.input_errors.extend(part.input_errors);
        self.empty += part.empty;
    }

    /// Number of documents validated.
    pub fn document_count(&self) -> usize {
        self.written.documents + self.documents.len()
    }

    /// Number of documents validated without errors (unknown fields reported as errors
    /// count as errors).
    pub fn valid(&self) -> usize {
        self.written.valid + self.documents.iter().filter(|d| d.is_valid()).count()
    }

    /// Number of documents validated with errors.
    pub fn invalid(&self) -> usize {
        self.document_count() - self.valid()
    }

    /// Number of field errors (unknown fields reported as errors included) in all
    /// documents.
    pub fn error_count(&self) -> usize {
        self.written.errors
            + self
                .documents
                .iter()
                .map(|d| d.errors.len() + d.unknown_fields.len())
                .sum::<usize>()
    }

    /// The warning for a run that validated nothing although nothing failed (empty files,
    /// empty standard input, only empty documents).
    pub fn nothing_validated(&self) -> Option<String> {
        (self.document_count() == 0 && self.input_errors.is_empty()).then(|| {
            let what = if self.empty > 0 {
                format!(
                    "{} and nothing else",
                    plural(self.empty, "empty document", "empty documents")
                )
            } else {
                "no documents".to_string()
            };
            format!("nothing to validate: the input holds {what}")
        })
    }

    /// The process exit code: 2 if any input could not be validated or nothing at all was
    /// validated, else 1 if any document is invalid, else 0.
    pub fn exit_code(&self) -> u8 {
        if !self.input_errors.is_empty() || self.document_count() == 0 {
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
            plural(self.document_count(), "document", "documents"),
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

/// `error` or `warning`.
pub fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
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
                    column: 1,
                    kind: Some("Widget".into()),
                    type_name: "demo/v1.Widget".into(),
                    operation: OperationKind::Create,
                    old_file: None,
                    old_document: None,
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
                        ReportedError {
                            line: Some(3),
                            column: Some(9),
                            ..FieldError::required(&name, "").into()
                        },
                        FieldError::too_long(&name, 10).into(),
                    ],
                    unknown_fields: vec![Finding {
                        field: "spec.spce".into(),
                        message: "unknown field \"spec.spce\"".into(),
                        position: Position { line: 9, column: 3 },
                    }],
                    warnings: vec![],
                    shadowed: vec![],
                },
                DocumentResult {
                    file: "m/good.yaml".into(),
                    document: 2,
                    line: 9,
                    column: 1,
                    kind: Some("Widget".into()),
                    type_name: "demo/v1.Widget".into(),
                    operation: OperationKind::Update,
                    old_file: Some("m/good.old.yaml".into()),
                    old_document: Some(0),
                    errors: vec![],
                    unknown_fields: vec![],
                    warnings: vec![Finding {
                        field: "x".into(),
                        message: "unknown field \"x\"".into(),
                        position: Position {
                            line: 10,
                            column: 1,
                        },
                    }],
                    shadowed: vec![],
                },
            ],
            input_errors: vec![InputError::at(
                "m/broken.yaml",
                3,
                2,
                "did not find expected key",
            )],
            empty: 1,
            minor: 36,
            written: Written::default(),
        }
    }

    #[test]
    fn item_14_written_documents_are_counted_not_kept() {
        // Text output writes each job's lines as it finishes; what the run keeps of 1,000
        // such jobs is counts and the documents with warnings, not 1,000 results.
        let mut all = Report::default();
        let mut streamed = Report::default();
        for _ in 0..1_000 {
            let mut part = sample();
            part.input_errors.clear();
            all.absorb(part.clone());
            streamed.absorb_written(part);
        }
        // The sample's second document has a warning: kept for the footer.
        assert_eq!(streamed.documents.len(), 1_000);
        assert!(streamed.documents.iter().all(|d| !d.warnings.is_empty()));
        assert_eq!(streamed.written.documents, 1_000);
        assert_eq!(
            streamed.written.type_names,
            vec!["demo/v1.Widget".to_string()]
        );
        assert_eq!(streamed.summary(), all.summary());
        assert_eq!(streamed.error_count(), all.error_count());
        assert_eq!(streamed.exit_code(), all.exit_code());
        let mut quiet = Report::default();
        for _ in 0..1_000 {
            let mut part = sample();
            part.documents.truncate(1);
            quiet.absorb_written(part);
        }
        assert!(quiet.documents.is_empty());
        assert_eq!(quiet.document_count(), 1_000);
    }

    #[test]
    fn summary_pluralises() {
        let report = Report::default();
        assert_eq!(report.summary(), "0 documents, 0 valid, 0 invalid");
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
        assert_eq!(report.error_count(), 4);
        assert_eq!(report.exit_code(), 2);
        assert_eq!(
            report.summary(),
            "2 documents, 1 valid, 1 invalid, 1 empty document skipped, 1 input error"
        );
    }

    #[test]
    fn item_08_nothing_validated_is_a_warning_and_exit_2() {
        let mut report = Report::default();
        assert_eq!(report.exit_code(), 2);
        assert_eq!(
            report.nothing_validated().as_deref(),
            Some("nothing to validate: the input holds no documents")
        );
        report.empty = 2;
        assert_eq!(
            report.nothing_validated().as_deref(),
            Some("nothing to validate: the input holds 2 empty documents and nothing else")
        );
        // Input errors say enough on their own.
        report.input_errors = sample().input_errors;
        assert_eq!(report.nothing_validated(), None);
    }
}
