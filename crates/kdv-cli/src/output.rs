//! Rendering validation results: one line per error as text, or one JSON object.

use std::io::{self, Write};

use kdv_runtime::{BadValue, FieldError, OperationKind, StabilityLevel};
use serde_json::{Map, Value, json};

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
    pub operation: OperationKind,
    /// The old revision's file, for an UPDATE.
    pub old_file: Option<String>,
    pub errors: Vec<FieldError>,
}

/// Everything one `kdv validate` run found.
#[derive(Debug, Clone, Default)]
pub struct Report {
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
    let value = report_json(report);
    serde_json::to_writer_pretty(&mut *out, &value)?;
    writeln!(out)
}

fn report_json(report: &Report) -> Value {
    let documents: Vec<Value> = report.documents.iter().map(document_json).collect();
    let input_errors: Vec<Value> = report.input_errors.iter().map(input_error_json).collect();
    json!({
        "documents": documents,
        "inputErrors": input_errors,
        "summary": {
            "documents": report.documents.len(),
            "valid": report.valid(),
            "invalid": report.invalid(),
            "empty": report.empty,
            "inputErrors": report.input_errors.len(),
        },
    })
}

fn document_json(doc: &DocumentResult) -> Value {
    let mut object = Map::new();
    object.insert("file".into(), doc.file.clone().into());
    object.insert("document".into(), doc.document.into());
    object.insert("line".into(), doc.line.into());
    object.insert("kind".into(), doc.kind.clone().into());
    object.insert("type".into(), doc.type_name.clone().into());
    object.insert("operation".into(), operation_name(doc.operation).into());
    if let Some(old) = &doc.old_file {
        object.insert("oldFile".into(), old.clone().into());
    }
    object.insert("valid".into(), doc.errors.is_empty().into());
    object.insert(
        "errors".into(),
        doc.errors.iter().map(field_error_json).collect(),
    );
    Value::Object(object)
}

/// Kubernetes' admission spelling of the operation.
pub fn operation_name(kind: OperationKind) -> &'static str {
    match kind {
        OperationKind::Create => "CREATE",
        OperationKind::Update => "UPDATE",
    }
}

fn field_error_json(e: &FieldError) -> Value {
    let mut object = Map::new();
    object.insert("type".into(), e.error_type.as_str().into());
    object.insert("field".into(), e.field.to_string().into());
    // An omitted value (Go's `OmitValueType`) has no JSON form; leave the key out.
    if let Some(value) = bad_value_json(&e.bad_value) {
        object.insert("badValue".into(), value);
    }
    object.insert("detail".into(), e.detail.clone().into());
    object.insert("origin".into(), e.origin.clone().into());
    if e.stability != StabilityLevel::Unknown {
        object.insert("stability".into(), e.stability.as_str().into());
    }
    object.insert("message".into(), e.to_string().into());
    Value::Object(object)
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

fn input_error_json(e: &InputError) -> Value {
    json!({
        "file": e.file,
        "document": e.document,
        "line": e.line,
        "column": e.column,
        "message": e.message,
        "text": e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kdv_runtime::PathRef;

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
