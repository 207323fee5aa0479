//! Rendering validation results: one line per error as text, or one JSON object.
//!
//! Text lines are `<file>:<line>:<col>#<document>: <error>`: where the failing field is
//! written (for a missing field, the object that lacks it; for an error about a map key,
//! the key), then the document's index in its stream.

use std::io::{self, Write};

use kdv_runtime::{BadValue, FieldError, OperationKind, StabilityLevel};
use serde::Serialize;
use serde_json::Value;

use crate::input::InputError;
use kdv_manifest::Position;

/// The result of validating one document.
#[derive(Debug, Clone)]
pub struct DocumentResult {
    /// The file as the user named it (`<stdin>` for standard input).
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
    /// The old revision's file, for an UPDATE.
    pub old_file: Option<String>,
    /// The field errors, in the validator's order; empty when valid.
    pub errors: Vec<FieldError>,
    /// Where each error's field is written, parallel to `errors`.
    pub positions: Vec<Position>,
    /// Unknown fields reported as errors (`--unknown-fields=error`), in path order; they
    /// make the document invalid and are listed before `errors`.
    pub unknown_fields: Vec<Finding>,
    /// Warnings about the document (unknown fields under `--unknown-fields=warn`).
    pub warnings: Vec<Finding>,
}

impl DocumentResult {
    /// Whether the document has neither field errors nor unknown fields reported as errors.
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty() && self.unknown_fields.is_empty()
    }

    /// Where error `i` is, the document's start if not known.
    pub fn position(&self, i: usize) -> Position {
        self.positions.get(i).copied().unwrap_or(Position {
            line: self.line,
            column: self.column,
        })
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

/// Everything one `kdv validate` run found.
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
    /// Number of documents validated without errors.
    pub fn valid(&self) -> usize {
        self.documents.iter().filter(|d| d.is_valid()).count()
    }

    /// Number of documents validated with errors.
    pub fn invalid(&self) -> usize {
        self.documents.len() - self.valid()
    }

    /// The process exit code: 2 if any input could not be validated or nothing at all was
    /// validated, else 1 if any document is invalid, else 0.
    pub fn exit_code(&self) -> u8 {
        if !self.input_errors.is_empty() || self.documents.is_empty() {
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

impl Report {
    /// The warning for a run that validated nothing although nothing failed (empty files,
    /// empty standard input, only empty documents).
    pub fn nothing_validated(&self) -> Option<String> {
        (self.documents.is_empty() && self.input_errors.is_empty()).then(|| {
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
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Text output: each unknown field and field error as `<file>:<line>:<col>#<doc>: <error>`
/// on `out`; each warning as `warning: <file>:<line>:<col>#<doc>: <message>`, each input
/// error as `error: <file>:<line>:<col>: <message>` and then the summary on `err`.
pub fn write_text(report: &Report, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<()> {
    for doc in &report.documents {
        for f in &doc.unknown_fields {
            writeln!(
                out,
                "{}:{}#{}: {}",
                doc.file, f.position, doc.document, f.message
            )?;
        }
        for (i, e) in doc.errors.iter().enumerate() {
            writeln!(
                out,
                "{}:{}#{}: {e}",
                doc.file,
                doc.position(i),
                doc.document
            )?;
        }
    }
    for doc in &report.documents {
        for f in &doc.warnings {
            let (file, at, index) = (&doc.file, f.position, doc.document);
            writeln!(err, "warning: {file}:{at}#{index}: {}", f.message)?;
        }
    }
    if let Some(warning) = report.nothing_validated() {
        writeln!(err, "warning: {warning}")?;
    }
    for e in &report.input_errors {
        writeln!(err, "error: {e}")?;
    }
    writeln!(err, "{}", report.summary())
}

/// JSON output: one object `{"documents": [...], "inputErrors": [...], "summary": {...}}`.
pub fn write_json(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &JsonReport::new(report))?;
    writeln!(out)
}

// The JSON shapes are structs rather than `serde_json::Value` maps so keys keep this order
// (the workspace must not enable serde_json's `preserve_order`: error rendering relies on
// sorted maps, as Go's encoding/json sorts them).

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonReport<'a> {
    documents: Vec<JsonDocument<'a>>,
    input_errors: Vec<JsonInputError<'a>>,
    summary: JsonSummary,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonDocument<'a> {
    file: &'a str,
    document: usize,
    line: u64,
    column: u64,
    kind: Option<&'a str>,
    #[serde(rename = "type")]
    type_name: &'a str,
    operation: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    old_file: Option<&'a str>,
    valid: bool,
    errors: Vec<JsonFieldError<'a>>,
    warnings: Vec<JsonFieldError<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonFieldError<'a> {
    #[serde(rename = "type")]
    error_type: &'static str,
    field: String,
    /// Absent for an omitted value (Go's `OmitValueType`), which has no JSON form.
    #[serde(skip_serializing_if = "Option::is_none")]
    bad_value: Option<Value>,
    detail: &'a str,
    origin: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    stability: Option<&'static str>,
    message: String,
    line: u64,
    column: u64,
}

/// The JSON `type` of an unknown field (not a `field.ErrorType`: upstream reports it as a
/// strict decoding error).
const UNKNOWN_FIELD: &str = "UnknownField";

impl<'a> JsonFieldError<'a> {
    fn finding(f: &'a Finding) -> Self {
        JsonFieldError {
            error_type: UNKNOWN_FIELD,
            field: f.field.clone(),
            bad_value: None,
            detail: "",
            origin: "",
            stability: None,
            message: f.message.clone(),
            line: f.position.line,
            column: f.position.column,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonInputError<'a> {
    file: &'a str,
    document: Option<usize>,
    line: Option<u64>,
    column: Option<u64>,
    message: &'a str,
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonSummary {
    documents: usize,
    valid: usize,
    invalid: usize,
    empty: usize,
    input_errors: usize,
}

impl<'a> JsonReport<'a> {
    fn new(report: &'a Report) -> Self {
        JsonReport {
            documents: report.documents.iter().map(JsonDocument::new).collect(),
            input_errors: report
                .input_errors
                .iter()
                .map(|e| JsonInputError {
                    file: &e.file,
                    document: e.document,
                    line: e.line,
                    column: e.column,
                    message: &e.message,
                    text: e.to_string(),
                })
                .collect(),
            summary: JsonSummary {
                documents: report.documents.len(),
                valid: report.valid(),
                invalid: report.invalid(),
                empty: report.empty,
                input_errors: report.input_errors.len(),
            },
        }
    }
}

impl<'a> JsonDocument<'a> {
    fn new(doc: &'a DocumentResult) -> Self {
        JsonDocument {
            file: &doc.file,
            document: doc.document,
            line: doc.line,
            column: doc.column,
            kind: doc.kind.as_deref(),
            type_name: &doc.type_name,
            operation: operation_name(doc.operation),
            old_file: doc.old_file.as_deref(),
            valid: doc.is_valid(),
            errors: doc
                .unknown_fields
                .iter()
                .map(JsonFieldError::finding)
                .chain(doc.errors.iter().enumerate().map(|(i, e)| JsonFieldError {
                    error_type: e.error_type.as_str(),
                    field: e.field.to_string(),
                    bad_value: bad_value_json(&e.bad_value),
                    detail: &e.detail,
                    origin: &e.origin,
                    stability:
                        (e.stability != StabilityLevel::Unknown).then(|| e.stability.as_str()),
                    message: e.to_string(),
                    line: doc.position(i).line,
                    column: doc.position(i).column,
                }))
                .collect(),
            warnings: doc.warnings.iter().map(JsonFieldError::finding).collect(),
        }
    }
}

/// Kubernetes' admission spelling of the operation.
pub fn operation_name(kind: OperationKind) -> &'static str {
    match kind {
        OperationKind::Create => "CREATE",
        OperationKind::Update => "UPDATE",
    }
}

fn bad_value_json(value: &BadValue) -> Option<Value> {
    Some(match value {
        BadValue::Omitted => return None,
        BadValue::Null => Value::Null,
        BadValue::Bool(b) => Value::Bool(*b),
        BadValue::Int(i) => Value::from(*i),
        BadValue::Uint(u) => Value::from(*u),
        // Non-finite floats have no JSON form and become null.
        BadValue::Float(f) => Value::from(*f),
        BadValue::String(s) => Value::String(s.clone()),
        BadValue::Json(v) => v.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kdv_runtime::PathRef;
    use serde_json::json;

    fn at(line: u64, column: u64) -> Position {
        Position { line, column }
    }

    fn sample() -> Report {
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
                    errors: vec![
                        FieldError::invalid(
                            &replicas,
                            BadValue::Int(0),
                            "must be greater than or equal to 1",
                        )
                        .with_origin("minimum"),
                        FieldError::required(&name, ""),
                        FieldError::too_long(&name, 10),
                    ],
                    positions: vec![at(7, 13), at(3, 9), at(3, 9)],
                    unknown_fields: vec![Finding {
                        field: "spec.spce".into(),
                        message: "unknown field \"spec.spce\"".into(),
                        position: at(9, 3),
                    }],
                    warnings: vec![],
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
                    errors: vec![],
                    positions: vec![],
                    unknown_fields: vec![],
                    warnings: vec![Finding {
                        field: "x".into(),
                        message: "unknown field \"x\"".into(),
                        position: at(10, 1),
                    }],
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
    fn text_lists_errors_then_summary() {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        write_text(&sample(), &mut out, &mut err).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "m/bad.yaml:9:3#0: unknown field \"spec.spce\"\n\
             m/bad.yaml:7:13#0: spec.replicas: Invalid value: 0: must be greater than or equal to 1\n\
             m/bad.yaml:3:9#0: metadata.name: Required value\n\
             m/bad.yaml:3:9#0: metadata.name: Too long: may not be more than 10 bytes\n"
        );
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "warning: m/good.yaml:10:1#2: unknown field \"x\"\n\
             error: m/broken.yaml:3:2: did not find expected key\n\
             2 documents, 1 valid, 1 invalid, 1 empty document skipped, 1 input error\n"
        );
    }

    #[test]
    fn item_08_nothing_validated_is_a_warning_and_exit_2() {
        let mut report = Report::default();
        assert_eq!(report.exit_code(), 2);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        write_text(&report, &mut out, &mut err).unwrap();
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "warning: nothing to validate: the input holds no documents\n\
             0 documents, 0 valid, 0 invalid\n"
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
    fn json_shape() {
        let mut out = Vec::new();
        write_json(&sample(), &mut out).unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        // Keys in a reading order, not sorted.
        assert!(
            text.starts_with("{\n  \"documents\": [\n    {\n      \"file\": "),
            "{text}"
        );
        let value: Value = serde_json::from_slice(&out).unwrap();
        // Unknown fields come first, then field errors, each with its position.
        assert_eq!(
            value["documents"][0]["errors"][0],
            json!({
                "type": "UnknownField", "field": "spec.spce", "detail": "", "origin": "",
                "message": "unknown field \"spec.spce\"", "line": 9, "column": 3,
            })
        );
        assert_eq!(
            value["documents"][0]["errors"][1],
            json!({
                "type": "FieldValueInvalid",
                "field": "spec.replicas",
                "badValue": 0,
                "detail": "must be greater than or equal to 1",
                "origin": "minimum",
                "message": "spec.replicas: Invalid value: 0: must be greater than or equal to 1",
                "line": 7,
                "column": 13,
            })
        );
        // Go's TooLong keeps a sentinel string as its bad value.
        assert_eq!(
            value["documents"][0]["errors"][3]["badValue"],
            json!("<value omitted>")
        );
        assert_eq!(value["documents"][0]["warnings"], json!([]));
        assert_eq!(
            value["documents"][1]["warnings"][0]["message"],
            json!("unknown field \"x\"")
        );
        assert_eq!(value["documents"][1]["valid"], json!(true));
        assert_eq!(value["documents"][0]["valid"], json!(false));
        assert_eq!(value["documents"][1]["operation"], json!("UPDATE"));
        assert_eq!(value["documents"][1]["oldFile"], json!("m/good.old.yaml"));
        assert_eq!(
            value["summary"],
            json!({"documents": 2, "valid": 1, "invalid": 1, "empty": 1, "inputErrors": 1})
        );
        assert_eq!(
            value["inputErrors"][0],
            json!({
                "file": "m/broken.yaml", "document": null, "line": 3, "column": 2,
                "message": "did not find expected key",
                "text": "m/broken.yaml:3:2: did not find expected key",
            })
        );
    }
}
