//! The playground (`kdv serve --playground`): a page where a manifest is pasted and judged
//! by the server's own rules, document by document, with each error at its line and column.
//! `GET /playground` serves the page (one self-contained file: no script or style from
//! elsewhere); `POST /playground/check` takes `{"manifest": TEXT, "oldManifest": TEXT?}`
//! and answers a report. The objects are judged as admission requests are (the same
//! [`Judge`]s, deadline and caught panics); the old manifest's documents pair with the new
//! ones by position, making those updates.

use std::time::Instant;

use kdv_manifest::{Document, Entry, Query, Step, Syntax, Target};
use kdv_runtime::ErrorList;
use serde_json::{Value, json};

use crate::admission::{GroupVersionKind, Operation};
use crate::judge::{Judge, Subject, Verdict};

/// The page.
pub(crate) const PAGE: &str = include_str!("page.html");

/// Most documents one check judges.
const MAX_DOCUMENTS: usize = 100;

/// The request body.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct CheckRequest {
    manifest: String,
    #[serde(default)]
    old_manifest: Option<String>,
}

impl CheckRequest {
    /// Reads a request body.
    pub(crate) fn parse(body: &[u8]) -> Result<CheckRequest, String> {
        serde_json::from_slice(body).map_err(|e| format!("request body: {e}"))
    }
}

/// The report on every document of `request`: `{"documents": [...]}`, each with its index,
/// line, kind, name, verdict (`valid`, `invalid`, `unknown`: no rules for its kind,
/// `failed`: not judged), errors (line, column, field, type, text), warnings, and the
/// candidate rules' errors where the server has candidate rules.
pub(crate) fn report(
    live: &dyn Judge,
    candidate: Option<&dyn Judge>,
    request: &CheckRequest,
) -> Value {
    let limits = kdv_manifest::Limits {
        max_document_bytes: usize::MAX,
        max_documents: MAX_DOCUMENTS,
    };
    let olds: Vec<Option<Value>> = match &request.old_manifest {
        Some(text) => kdv_manifest::documents(text.as_bytes(), Syntax::Yaml, limits)
            .map(|entry| match entry {
                Ok(Entry::Document(doc)) => Some(doc.value),
                _ => None,
            })
            .collect(),
        None => Vec::new(),
    };
    let mut documents = Vec::new();
    for entry in kdv_manifest::documents(request.manifest.as_bytes(), Syntax::Yaml, limits) {
        match entry {
            Ok(Entry::Document(doc)) => {
                let old = olds.get(doc.index).and_then(Option::as_ref);
                match doc.list_items() {
                    Some(items) => {
                        for item in items {
                            documents.push(judge_document(live, candidate, &item, None));
                        }
                    }
                    None => documents.push(judge_document(live, candidate, &doc, old)),
                }
            }
            Ok(_) => {}
            Err(e) => documents.push(json!({
                "index": e.index,
                "line": e.position.line,
                "verdict": "failed",
                "message": format!("{}: {}", e.position, e.message),
                "errors": [],
                "warnings": [],
            })),
        }
    }
    json!({ "documents": documents })
}

fn judge_document(
    live: &dyn Judge,
    candidate: Option<&dyn Judge>,
    doc: &Document<'_>,
    old: Option<&Value>,
) -> Value {
    let text = |key: &str| doc.value.get(key).and_then(Value::as_str).unwrap_or("");
    let (api_version, kind) = (text("apiVersion"), text("kind"));
    let name = doc
        .value
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let mut out = json!({
        "index": doc.index,
        "line": doc.position.line,
        "kind": kind,
        "name": name,
        "errors": [],
        "warnings": [],
    });
    if api_version.is_empty() || kind.is_empty() {
        out["verdict"] = "failed".into();
        out["message"] = "the document has no apiVersion and kind".into();
        return out;
    }
    let (group, version) = match api_version.split_once('/') {
        Some((g, v)) => (g, v),
        None => ("", api_version),
    };
    let gvk = GroupVersionKind {
        group: group.to_string(),
        version: version.to_string(),
        kind: kind.to_string(),
    };
    let object = doc.value.to_string();
    let old_object = old.map(Value::to_string);
    let subject = Subject {
        kind: &gvk,
        operation: if old.is_some() {
            Operation::Update
        } else {
            Operation::Create
        },
        subresource: None,
        object: &object,
        old_object: old_object.as_deref(),
    };
    let started = Instant::now();
    let verdict = live.judge(&subject);
    tracing::debug!(
        kind,
        elapsed_us = started.elapsed().as_micros() as u64,
        "playground document judged"
    );
    match verdict {
        Verdict::Unknown => {
            out["verdict"] = "unknown".into();
            out["message"] =
                format!("no rules for kind {kind:?} of apiVersion {api_version:?}").into();
        }
        Verdict::Failed(message) => {
            out["verdict"] = "failed".into();
            out["message"] = message.into();
        }
        Verdict::Checked { errors, warnings } => {
            out["verdict"] = if errors.is_empty() {
                "valid"
            } else {
                "invalid"
            }
            .into();
            out["errors"] = located(doc, &errors);
            out["warnings"] = warnings.into();
        }
    }
    if let Some(candidate) = candidate
        && let Verdict::Checked { errors, .. } = candidate.judge(&subject)
    {
        out["candidate"] = json!({ "errors": located(doc, &errors) });
    }
    out
}

/// Each error with where its field is written in the document.
fn located(doc: &Document<'_>, errors: &ErrorList) -> Value {
    let paths: Vec<Vec<Step<'_>>> = errors.iter().map(|e| Step::path_to(&e.field)).collect();
    let queries: Vec<Query<'_>> = paths
        .iter()
        .map(|path| Query {
            path,
            target: Target::Value,
        })
        .collect();
    let positions = doc.locate(&queries);
    errors
        .iter()
        .zip(positions)
        .map(|(e, at)| {
            json!({
                "line": at.line,
                "column": at.column,
                "field": e.field.to_string(),
                "type": e.error_type.to_string(),
                "text": e.to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use kdv_runtime::{FieldError, PathRef};

    use super::*;

    /// Invalid when `spec.replicas` is negative; no rules for other kinds than Widget.
    fn widgets(subject: &Subject<'_>) -> Verdict {
        if subject.kind.kind != "Widget" {
            return Verdict::Unknown;
        }
        let value: Value = serde_json::from_str(subject.object).unwrap();
        let mut errors = ErrorList::new();
        if value.pointer("/spec/replicas").and_then(Value::as_i64) < Some(0) {
            let spec = PathRef::Nil.child("spec");
            let path = spec.child("replicas");
            errors.push(FieldError::invalid(
                &path,
                kdv_runtime::BadValue::Int(-1),
                "must be greater than or equal to 0",
            ));
        }
        Verdict::Checked {
            errors,
            warnings: Vec::new(),
        }
    }

    #[test]
    fn each_document_is_judged_with_errors_at_their_lines() {
        let request = CheckRequest {
            manifest: "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: a\nspec:\n  replicas: -1\n---\napiVersion: v1\nkind: ConfigMap\n---\nkind: [\n".into(),
            old_manifest: None,
        };
        let report = report(&widgets, None, &request);
        let docs = report["documents"].as_array().unwrap();
        assert_eq!(docs.len(), 3, "{report}");
        assert_eq!(docs[0]["verdict"], "invalid");
        assert_eq!(docs[0]["errors"][0]["line"], 6);
        assert_eq!(
            docs[0]["errors"][0]["text"],
            "spec.replicas: Invalid value: -1: must be greater than or equal to 0"
        );
        assert_eq!(docs[1]["verdict"], "unknown");
        assert_eq!(docs[2]["verdict"], "failed");
    }
}
