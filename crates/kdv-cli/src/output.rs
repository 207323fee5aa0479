//! Rendering validation results: one line per error as text, or one JSON object.

use std::io::{self, Write};

use kdv_runtime::{BadValue, FieldError, OperationKind, StabilityLevel};
use serde::Serialize;
use serde_json::Value;

use crate::input::InputError;

/// The result of validating one document.
#[derive(Debug, Clone)]
pub struct DocumentResult {
    /// The file as the user named it (`<stdin>` for standard input).
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
    /// The old revision's file, for an UPDATE.
    pub old_file: Option<String>,
    /// The field errors, in the validator's order; empty when valid.
    pub errors: Vec<FieldError>,
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
        self.documents
            .iter()
            .filter(|d| d.errors.is_empty())
            .count()
    }

    /// Number of documents validated with errors.
    pub fn invalid(&self) -> usize {
        self.documents.len() - self.valid()
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

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Text output: each field error as `<file>#<doc>: <error>` on `out`; each input error as
/// `error: <file>:<line>:<col>: <message>` and then the summary on `err`.
pub fn write_text(report: &Report, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<()> {
    for doc in &report.documents {
        for e in &doc.errors {
            writeln!(out, "{}#{}: {e}", doc.file, doc.document)?;
        }
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
    kind: Option<&'a str>,
    #[serde(rename = "type")]
    type_name: &'a str,
    operation: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    old_file: Option<&'a str>,
    valid: bool,
    errors: Vec<JsonFieldError<'a>>,
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
            kind: doc.kind.as_deref(),
            type_name: &doc.type_name,
            operation: operation_name(doc.operation),
            old_file: doc.old_file.as_deref(),
            valid: doc.errors.is_empty(),
            errors: doc
                .errors
                .iter()
                .map(|e| JsonFieldError {
                    error_type: e.error_type.as_str(),
                    field: e.field.to_string(),
                    bad_value: bad_value_json(&e.bad_value),
                    detail: &e.detail,
                    origin: &e.origin,
                    stability: (e.stability != StabilityLevel::Unknown)
                        .then(|| e.stability.as_str()),
                    message: e.to_string(),
                })
                .collect(),
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
    fn text_lists_errors_then_summary() {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        write_text(&sample(), &mut out, &mut err).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "m/bad.yaml#0: spec.replicas: Invalid value: 0: must be greater than or equal to 1\n\
             m/bad.yaml#0: metadata.name: Required value\n\
             m/bad.yaml#0: metadata.name: Too long: may not be more than 10 bytes\n"
        );
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "error: m/broken.yaml:3:2: did not find expected key\n\
             2 documents, 1 valid, 1 invalid, 1 empty document skipped, 1 input error\n"
        );
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
        assert_eq!(
            value["documents"][0]["errors"][0],
            json!({
                "type": "FieldValueInvalid",
                "field": "spec.replicas",
                "badValue": 0,
                "detail": "must be greater than or equal to 1",
                "origin": "minimum",
                "message": "spec.replicas: Invalid value: 0: must be greater than or equal to 1",
            })
        );
        // Go's TooLong keeps a sentinel string as its bad value.
        assert_eq!(
            value["documents"][0]["errors"][2]["badValue"],
            json!("<value omitted>")
        );
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
