//! JSON output: exactly one JSON document on standard output for every run that got past
//! argument parsing, failures included (`error` is then set and the exit status is 2, as in
//! text mode). The shapes are documented with examples in the CLI README.
//!
//! File names are the real names (`crate::file_name::json_name`): `file` holds the name,
//! `-` for standard input, and `fileBytes` (`oldFileBytes`) the exact bytes of a name that is
//! not valid UTF-8. Lines and columns are 1-based; columns count characters.

use std::io::{self, Write};

use kdv_model::{Diagnostic, Severity};
use kdv_runtime::{BadValue, StabilityLevel};
use serde::Serialize;
use serde_json::Value;

use super::{DocumentResult, Finding, Report, ReportedError, operation_name, severity_name};
use crate::error::CliError;
use crate::file_name;

// The JSON shapes are structs rather than `serde_json::Value` maps so keys keep this order
// (the workspace must not enable serde_json's `preserve_order`: error rendering relies on
// sorted maps, as Go's encoding/json sorts them).

/// A failure that stopped the command: `{"kind": "typesInvalid", "message": "..."}`.
#[derive(Serialize)]
pub struct JsonError {
    /// `typesUnreadable`, `typesInvalid`, `unknownType`, `ambiguousType`, `schemaUnreadable`, `usage`, `output`; for `kdv cel`
    /// also `input`, `compile`, `program` and `evaluation`.
    pub kind: &'static str,
    /// The message as text output prints it (without `error: `).
    pub message: String,
}

impl JsonError {
    /// The JSON form of a command's failure.
    pub fn from_cli(e: &CliError) -> JsonError {
        JsonError {
            kind: e.kind(),
            message: e.to_string(),
        }
    }
}

/// `kdv validate -o json`: `{"documents", "inputErrors", "diagnostics", "warnings", "error",
/// "summary"}`.
pub fn write_validate(
    report: &Report,
    diagnostics: &[Diagnostic],
    warnings: &[String],
    error: Option<&CliError>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let json = JsonReport {
        documents: report.documents.iter().map(JsonDocument::new).collect(),
        input_errors: report
            .input_errors
            .iter()
            .map(|e| {
                let (file, file_bytes) = file_name::json_name(&e.file);
                JsonInputError {
                    file,
                    file_bytes,
                    document: e.document,
                    line: e.line,
                    column: e.column,
                    message: &e.message,
                    text: e.to_string(),
                }
            })
            .collect(),
        diagnostics: diagnostics.iter().map(JsonDiagnostic::new).collect(),
        warnings,
        error: error.map(JsonError::from_cli),
        summary: JsonSummary {
            documents: report.documents.len(),
            valid: report.valid(),
            invalid: report.invalid(),
            errors: report.error_count(),
            empty: report.empty,
            input_errors: report.input_errors.len(),
        },
    };
    write_pretty(&json, out)
}

/// `kdv lint -o json`: `{"types", "findings", "error", "summary"}`.
pub fn write_lint(
    types: &std::path::Path,
    findings: &[Diagnostic],
    error: Option<&CliError>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let (types, types_bytes) = file_name::json_name(&file_name::display(types));
    let count = |s: Severity| findings.iter().filter(|d| d.severity == s).count();
    let json = JsonLint {
        types,
        types_bytes,
        findings: findings.iter().map(JsonDiagnostic::new).collect(),
        error: error.map(JsonError::from_cli),
        summary: JsonLintSummary {
            findings: findings.len(),
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
        },
    };
    write_pretty(&json, out)
}

/// `kdv cel -o json`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CelReport<'a> {
    /// The expression as given.
    pub expression: &'a str,
    /// Its checked type, once it compiled.
    #[serde(rename = "type")]
    pub type_name: Option<String>,
    /// The value as cel-go formats it (`kdv_cel::value::Value`'s `Display`).
    pub value: Option<String>,
    /// What failed, if anything.
    pub error: Option<JsonError>,
    /// The runtime cost, when evaluation finished.
    pub runtime_cost: Option<u64>,
    /// The runtime cost limit.
    pub cost_limit: u64,
    /// The static estimate, once it compiled.
    pub estimated_cost: Option<CostRange>,
}

/// A static cost estimate.
#[derive(Serialize)]
pub struct CostRange {
    /// Lower bound.
    pub min: u64,
    /// Upper bound.
    pub max: u64,
}

/// Writes `kdv cel`'s JSON report.
pub fn write_cel(report: &CelReport<'_>, out: &mut dyn Write) -> io::Result<()> {
    write_pretty(report, out)
}

fn write_pretty(value: &impl Serialize, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonReport<'a> {
    documents: Vec<JsonDocument<'a>>,
    input_errors: Vec<JsonInputError<'a>>,
    diagnostics: Vec<JsonDiagnostic>,
    warnings: &'a [String],
    error: Option<JsonError>,
    summary: JsonSummary,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonDocument<'a> {
    file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    file_bytes: Option<Vec<u8>>,
    document: usize,
    line: u64,
    column: u64,
    kind: Option<&'a str>,
    #[serde(rename = "type")]
    type_name: &'a str,
    operation: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    old_file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    old_file_bytes: Option<Vec<u8>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    old_document: Option<usize>,
    valid: bool,
    errors: Vec<JsonFieldError<'a>>,
    warnings: Vec<JsonFieldError<'a>>,
    /// Errors of rules the feature gates shadow (not counted as errors).
    shadowed: Vec<JsonFieldError<'a>>,
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
    /// The rule is declarative-only (`+k8s:declarativeValidationNative`): shown only when set.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    declarative_native: bool,
    /// Where the failing field is, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<u64>,
    message: String,
}

/// The JSON `type` of an unknown field (not a `field.ErrorType`: upstream reports it as a
/// strict decoding error).
pub const UNKNOWN_FIELD: &str = "UnknownField";

impl<'a> JsonFieldError<'a> {
    fn reported(r: &'a ReportedError) -> Self {
        let e = &r.error;
        JsonFieldError {
            error_type: e.error_type.as_str(),
            field: e.field.to_string(),
            bad_value: bad_value_json(&e.bad_value),
            detail: &e.detail,
            origin: &e.origin,
            stability: (e.stability != StabilityLevel::Unknown).then(|| e.stability.as_str()),
            declarative_native: e.declarative_native,
            line: r.line,
            column: r.column,
            message: e.to_string(),
        }
    }

    fn finding(f: &'a Finding) -> Self {
        JsonFieldError {
            error_type: UNKNOWN_FIELD,
            field: f.field.clone(),
            bad_value: None,
            detail: "",
            origin: "",
            stability: None,
            declarative_native: false,
            line: Some(f.position.line),
            column: Some(f.position.column),
            message: f.message.clone(),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonInputError<'a> {
    file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    file_bytes: Option<Vec<u8>>,
    document: Option<usize>,
    line: Option<u64>,
    column: Option<u64>,
    message: &'a str,
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonDiagnostic {
    severity: &'static str,
    file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    file_bytes: Option<Vec<u8>>,
    line: Option<u32>,
    column: Option<u64>,
    message: String,
    /// The first line of the text rendering (`file:line:col: severity: message`).
    text: String,
}

impl JsonDiagnostic {
    fn new(d: &Diagnostic) -> JsonDiagnostic {
        let (file, file_bytes) = match &d.span {
            Some(span) => {
                let (name, bytes) = file_name::json_name(&file_name::display(&span.path));
                (Some(name), bytes)
            }
            None => (None, None),
        };
        JsonDiagnostic {
            severity: severity_name(d.severity),
            file,
            file_bytes,
            line: d.span.as_ref().map(|s| s.line),
            column: d.span.as_ref().map(|s| s.char_column(s.col as usize)),
            message: d.message.clone(),
            text: super::text::diagnostic_headline(d),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonSummary {
    documents: usize,
    valid: usize,
    invalid: usize,
    errors: usize,
    empty: usize,
    input_errors: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonLint {
    types: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    types_bytes: Option<Vec<u8>>,
    findings: Vec<JsonDiagnostic>,
    error: Option<JsonError>,
    summary: JsonLintSummary,
}

#[derive(Serialize)]
struct JsonLintSummary {
    findings: usize,
    errors: usize,
    warnings: usize,
}

impl<'a> JsonDocument<'a> {
    fn new(doc: &'a DocumentResult) -> Self {
        let (file, file_bytes) = file_name::json_name(&doc.file);
        let (old_file, old_file_bytes) = match doc.old_file.as_deref().map(file_name::json_name) {
            Some((name, bytes)) => (Some(name), bytes),
            None => (None, None),
        };
        JsonDocument {
            file,
            file_bytes,
            document: doc.document,
            line: doc.line,
            column: doc.column,
            kind: doc.kind.as_deref(),
            type_name: &doc.type_name,
            operation: operation_name(doc.operation),
            old_file,
            old_file_bytes,
            old_document: doc.old_document,
            valid: doc.is_valid(),
            errors: doc
                .unknown_fields
                .iter()
                .map(JsonFieldError::finding)
                .chain(doc.errors.iter().map(JsonFieldError::reported))
                .collect(),
            warnings: doc.warnings.iter().map(JsonFieldError::finding).collect(),
            shadowed: doc.shadowed.iter().map(JsonFieldError::reported).collect(),
        }
    }
}

/// `kdv lint --crd -o json`: the paths given, how many CRDs were checked, the findings.
pub fn write_lint_crds(
    crds: &[String],
    checked: usize,
    findings: &[Diagnostic],
    error: Option<&CliError>,
    out: &mut dyn Write,
) -> io::Result<()> {
    #[derive(Serialize)]
    struct JsonLintCrds<'a> {
        crds: &'a [String],
        checked: usize,
        findings: Vec<JsonDiagnostic>,
        error: Option<JsonError>,
        summary: JsonLintSummary,
    }
    let count = |s: Severity| findings.iter().filter(|d| d.severity == s).count();
    let json = JsonLintCrds {
        crds,
        checked,
        findings: findings.iter().map(JsonDiagnostic::new).collect(),
        error: error.map(JsonError::from_cli),
        summary: JsonLintSummary {
            findings: findings.len(),
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
        },
    };
    write_pretty(&json, out)
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
        // Keys come out sorted: JSON objects carry no order.
        BadValue::Encoded(text) => serde_json::from_str(text).ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;
    use super::*;
    use serde_json::json;

    fn validate_json(report: &Report, error: Option<&CliError>) -> (String, Value) {
        let mut out = Vec::new();
        write_validate(report, &[], &[], error, &mut out).unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        (text, serde_json::from_slice(&out).unwrap())
    }

    #[test]
    fn json_shape() {
        let (text, value) = validate_json(&sample(), None);
        // Keys in a reading order, not sorted.
        assert!(
            text.starts_with("{\n  \"documents\": [\n    {\n      \"file\": "),
            "{text}"
        );
        // Unknown fields come first.
        assert_eq!(
            value["documents"][0]["errors"][0],
            json!({
                "type": "UnknownField", "field": "spec.spce", "detail": "", "origin": "",
                "line": 9, "column": 3, "message": "unknown field \"spec.spce\"",
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
                "line": 4,
                "column": 13,
                "message": "spec.replicas: Invalid value: 0: must be greater than or equal to 1",
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
            json!({"documents": 2, "valid": 1, "invalid": 1, "errors": 4, "empty": 1, "inputErrors": 1})
        );
        assert_eq!(
            value["inputErrors"][0],
            json!({
                "file": "m/broken.yaml", "document": null, "line": 3, "column": 2,
                "message": "did not find expected key",
                "text": "m/broken.yaml:3:2: did not find expected key",
            })
        );
        assert_eq!(value["error"], Value::Null);
    }

    #[test]
    fn item_16_json_keeps_real_names() {
        let mut report = sample();
        report.documents[0].file = file_name::display_bytes(b"m/a#b\n\xff.yaml");
        report.documents[1].file = file_name::STDIN.to_string();
        let (_, value) = validate_json(&report, None);
        assert_eq!(value["documents"][0]["file"], json!("m/a#b\n\u{fffd}.yaml"));
        assert_eq!(
            value["documents"][0]["fileBytes"],
            json!(b"m/a#b\n\xff.yaml".to_vec())
        );
        assert_eq!(value["documents"][1]["file"], json!("-"));
        assert!(value["documents"][1].get("fileBytes").is_none());
    }

    #[test]
    fn item_19_failures_are_one_json_document() {
        let error = CliError::Usage("standard input (`-`) can be read only once".into());
        let (_, value) = validate_json(&Report::default(), Some(&error));
        assert_eq!(
            value["error"],
            json!({"kind": "usage", "message": "standard input (`-`) can be read only once"})
        );
        assert_eq!(value["documents"], json!([]));
        assert_eq!(value["summary"]["documents"], json!(0));
    }
}
