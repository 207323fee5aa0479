//! SARIF 2.1.0 output (`-o sarif`), for code-scanning annotations (GitHub's
//! `upload-sarif`): one run of the `kdv` driver, one result per field error, input error and
//! Go package finding, each with its file as a URI (`crate::file_name::uri`) and its line and
//! column. Columns count Unicode code points (`columnKind`).
//!
//! Rule ids: a field error's Kubernetes type (`FieldValueRequired`, `FieldValueInvalid`,
//! ...), `UnknownField` for fields the types do not declare, `InputError` for inputs that
//! could not be validated, `Lint` for findings in the Go types. Field errors and input errors
//! are `error`s; unknown fields are `error`s or `warning`s as `--unknown-fields` says; lint
//! findings keep their severity.
//! A field error without a known position points at its document's first line. Results from
//! standard input have no location. Warnings about the run (skipped custom validations) and
//! a failure that stopped it are `toolExecutionNotifications` of the invocation, which is then
//! not `executionSuccessful`.

use std::io::{self, Write};

use kdv_model::{Diagnostic, Severity};
use kdv_runtime::{ErrorType, StabilityLevel};
use serde::Serialize;
use serde_json::{Value, json};

use super::json::UNKNOWN_FIELD;
use super::severity_name;
use super::{DocumentResult, Finding, Report, operation_name};
use crate::error::CliError;
use crate::file_name;

/// The schema the log declares.
pub const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// Rule id of input errors.
const INPUT_ERROR: &str = "InputError";
/// Rule id of findings in the Go types.
const LINT: &str = "Lint";

/// `kdv validate -o sarif`.
pub fn write_validate(
    report: &Report,
    diagnostics: &[Diagnostic],
    warnings: &[String],
    error: Option<&CliError>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let rules = Rules::validate();
    let mut results = Vec::new();
    for d in diagnostics {
        results.push(diagnostic_result(&rules, d));
    }
    for doc in &report.documents {
        for f in &doc.unknown_fields {
            results.push(unknown_field_result(&rules, doc, f, "error"));
        }
        for f in &doc.warnings {
            results.push(unknown_field_result(&rules, doc, f, "warning"));
        }
        // Errors of shadowed rules (--feature-gates) are warnings.
        let reported_all = (doc.errors.iter().map(|r| (r, "error")))
            .chain(doc.shadowed.iter().map(|r| (r, "warning")));
        for (reported, level) in reported_all {
            let e = &reported.error;
            let id = e.error_type.as_str();
            let mut properties = json!({
                "document": doc.document,
                "field": e.field.to_string(),
                "origin": e.origin,
                "type": doc.type_name,
                "operation": operation_name(doc.operation),
            });
            if e.stability != StabilityLevel::Unknown {
                properties["stability"] = json!(e.stability.as_str());
            }
            if e.declarative_native {
                properties["declarativeNative"] = json!(true);
            }
            results.push(SarifResult {
                rule_id: id,
                rule_index: rules.index(id),
                level,
                message: Message {
                    text: e.to_string(),
                },
                locations: location(
                    &doc.file,
                    reported.line.unwrap_or(doc.line),
                    reported.column,
                    None,
                ),
                properties: Some(properties),
            });
        }
    }
    for e in &report.input_errors {
        results.push(SarifResult {
            rule_id: INPUT_ERROR,
            rule_index: rules.index(INPUT_ERROR),
            level: "error",
            message: Message {
                text: e.to_string(),
            },
            locations: match e.line {
                Some(line) => location(&e.file, line, e.column, None),
                None => file_location(&e.file),
            },
            properties: e.document.map(|d| json!({ "document": d })),
        });
    }
    write_log(rules, results, warnings, error, out)
}

/// `kdv lint -o sarif`.
pub fn write_lint(
    findings: &[Diagnostic],
    error: Option<&CliError>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let rules = Rules(vec![lint_rule()]);
    let results = findings
        .iter()
        .map(|d| diagnostic_result(&rules, d))
        .collect();
    write_log(rules, results, &[], error, out)
}

fn write_log(
    rules: Rules,
    results: Vec<SarifResult>,
    warnings: &[String],
    error: Option<&CliError>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut notifications: Vec<Value> = warnings
        .iter()
        .map(|w| {
            let text = w.strip_prefix("warning: ").unwrap_or(w);
            json!({"level": "warning", "message": {"text": text}})
        })
        .collect();
    if let Some(e) = error {
        notifications.push(json!({
            "level": "error",
            "message": {"text": e.to_string()},
            "descriptor": {"id": e.kind()},
        }));
    }
    let mut driver = json!({
        "name": "kdv",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": rules.0,
    });
    // Filled in when the package names where it lives.
    for (key, uri) in [
        ("informationUri", env!("CARGO_PKG_HOMEPAGE")),
        ("downloadUri", env!("CARGO_PKG_REPOSITORY")),
    ] {
        if !uri.is_empty() {
            driver[key] = json!(uri);
        }
    }
    let log = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "invocations": [{
                "executionSuccessful": error.is_none(),
                "toolExecutionNotifications": notifications,
            }],
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    serde_json::to_writer_pretty(&mut *out, &log)?;
    writeln!(out)
}

/// The rules of a run, in `ruleIndex` order.
struct Rules(Vec<Value>);

impl Rules {
    fn validate() -> Rules {
        let mut rules: Vec<Value> = ErrorType::ALL
            .iter()
            .map(|t| {
                rule(
                    t.as_str(),
                    &format!(
                        "Kubernetes field error \"{t}\" ({}): the manifest fails its type's validation",
                        t.as_str()
                    ),
                    "error",
                )
            })
            .collect();
        rules.push(rule(
            UNKNOWN_FIELD,
            "A field the types do not declare, which the API server's strict field validation \
             rejects (unknown field \"<path>\")",
            "error",
        ));
        rules.push(rule(
            INPUT_ERROR,
            "An input that could not be validated: unreadable or malformed file, unknown kind, \
             mismatched old revision",
            "error",
        ));
        rules.push(lint_rule());
        Rules(rules)
    }

    fn index(&self, id: &str) -> usize {
        // Every id used is one of the rules built above.
        self.0
            .iter()
            .position(|r| r["id"] == id)
            .unwrap_or_default()
    }
}

fn unknown_field_result(
    rules: &Rules,
    doc: &DocumentResult,
    f: &Finding,
    level: &'static str,
) -> SarifResult {
    SarifResult {
        rule_id: UNKNOWN_FIELD,
        rule_index: rules.index(UNKNOWN_FIELD),
        level,
        message: Message {
            text: f.message.clone(),
        },
        locations: location(&doc.file, f.position.line, Some(f.position.column), None),
        properties: Some(json!({
            "document": doc.document,
            "field": f.field,
            "type": doc.type_name,
            "operation": operation_name(doc.operation),
        })),
    }
}

fn lint_rule() -> Value {
    rule(
        LINT,
        "A finding in the Go types: a parse error or a misused +k8s: tag",
        "error",
    )
}

fn rule(id: &str, description: &str, level: &str) -> Value {
    json!({
        "id": id,
        "shortDescription": {"text": description},
        "defaultConfiguration": {"level": level},
    })
}

fn diagnostic_result(rules: &Rules, d: &Diagnostic) -> SarifResult {
    let locations = match &d.span {
        Some(span) => {
            let start = span.char_column(span.col as usize);
            let end = span.char_column(span.col as usize + span.len.max(1) as usize);
            location(
                &file_name::display(&span.path),
                u64::from(span.line),
                Some(start),
                Some(end.max(start + 1)),
            )
        }
        None => Vec::new(),
    };
    SarifResult {
        rule_id: LINT,
        rule_index: rules.index(LINT),
        level: match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        message: Message {
            text: d.message.clone(),
        },
        locations,
        properties: Some(json!({ "severity": severity_name(d.severity) })),
    }
}

/// A location at `line` (and `column`) of the file with text-form name `file`; none for
/// standard input.
fn location(file: &str, line: u64, column: Option<u64>, end_column: Option<u64>) -> Vec<Value> {
    let Some(uri) = file_name::uri(file) else {
        return Vec::new();
    };
    let mut region = json!({ "startLine": line.max(1) });
    if let Some(column) = column {
        region["startColumn"] = json!(column.max(1));
    }
    if let Some(end) = end_column {
        region["endColumn"] = json!(end);
    }
    vec![json!({
        "physicalLocation": {
            "artifactLocation": {"uri": uri},
            "region": region,
        }
    })]
}

/// A location naming only the file.
fn file_location(file: &str) -> Vec<Value> {
    match file_name::uri(file) {
        Some(uri) => vec![json!({"physicalLocation": {"artifactLocation": {"uri": uri}}})],
        None => Vec::new(),
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Message,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    locations: Vec<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<Value>,
}

#[derive(Serialize)]
struct Message {
    text: String,
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;
    use super::*;

    fn log(report: &Report, error: Option<&CliError>) -> Value {
        let mut out = Vec::new();
        write_validate(
            report,
            &[],
            &["warning: x: skipping".into()],
            error,
            &mut out,
        )
        .unwrap();
        serde_json::from_slice(&out).unwrap()
    }

    #[test]
    fn item_20_sarif_has_the_required_properties() {
        let log = log(&sample(), None);
        assert_eq!(log["version"], "2.1.0");
        assert_eq!(log["$schema"], SCHEMA);
        let run = &log["runs"][0];
        assert_eq!(run["tool"]["driver"]["name"], "kdv");
        assert_eq!(run["tool"]["driver"]["version"], env!("CARGO_PKG_VERSION"));
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        let results = run["results"].as_array().unwrap();
        assert_eq!(
            results.len(),
            6,
            "an unknown field, three field errors, an unknown-field warning, an input error"
        );
        for r in results {
            // ruleIndex points at the rule with that id; every result has a message.
            let index = r["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(rules[index]["id"], r["ruleId"]);
            assert!(r["message"]["text"].as_str().is_some_and(|t| !t.is_empty()));
            assert!(matches!(r["level"].as_str(), Some("error" | "warning")));
        }
        assert_eq!(results[0]["ruleId"], "UnknownField");
        assert_eq!(
            results[0]["locations"][0]["physicalLocation"]["region"],
            json!({"startLine": 9, "startColumn": 3})
        );
        let first = &results[1]["locations"][0]["physicalLocation"];
        assert_eq!(first["artifactLocation"]["uri"], "m/bad.yaml");
        assert_eq!(first["region"], json!({"startLine": 4, "startColumn": 13}));
        // Without a known position, the document's first line.
        assert_eq!(
            results[3]["locations"][0]["physicalLocation"]["region"],
            json!({"startLine": 1})
        );
        assert_eq!(results[2]["ruleId"], "FieldValueRequired");
        assert_eq!(
            (&results[4]["ruleId"], &results[4]["level"]),
            (&json!("UnknownField"), &json!("warning"))
        );
        assert_eq!(results[5]["ruleId"], "InputError");
        assert_eq!(
            run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"],
            "x: skipping"
        );
        assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    }

    #[test]
    fn item_16_sarif_uris_are_percent_encoded() {
        let mut report = sample();
        report.documents[0].file = file_name::display_bytes(b"m/a b#\xff.yaml");
        let log = log(&report, None);
        assert_eq!(
            log["runs"][0]["results"][1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "m/a%20b%23%FF.yaml"
        );
    }

    #[test]
    fn item_19_failure_is_a_notification() {
        let error = CliError::Usage("bad".into());
        let log = log(&Report::default(), Some(&error));
        let invocation = &log["runs"][0]["invocations"][0];
        assert_eq!(invocation["executionSuccessful"], false);
        assert_eq!(
            invocation["toolExecutionNotifications"][1],
            json!({"level": "error", "message": {"text": "bad"}, "descriptor": {"id": "usage"}})
        );
    }
}
