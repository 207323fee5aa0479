//! One document against its type: field errors, unknown fields, and where each is written.
//!
//! Positions cost nothing for valid documents: the document's text is walked again
//! (`kdv_manifest::Document::locate`) only when there is something to point at, and then
//! once for all of its findings.

use kdv_manifest::{Document, Position, Query, Step, Target};
use kdv_rules::{RuleSet, TypeId};
use kdv_runtime::{BadValue, FieldPath, Operation, Segment};
use serde_json::Value;

use crate::cli::UnknownFields;
use crate::output::{Finding, ReportedError};

/// What checking one document found.
#[derive(Debug, Default)]
pub struct Findings {
    /// Field errors, in the validator's order, each with where its field is written.
    pub errors: Vec<ReportedError>,
    /// Unknown fields reported as errors.
    pub unknown_fields: Vec<Finding>,
    /// Unknown fields reported as warnings.
    pub warnings: Vec<Finding>,
}

/// Validates `doc` as `ty` (against `old` for an UPDATE) and, unless `unknown` is
/// `ignore`, looks for unknown fields.
pub fn check_document(
    rules: &RuleSet,
    ty: TypeId,
    op: &Operation,
    doc: &Document<'_>,
    old: Option<&Value>,
    unknown: UnknownFields,
) -> Findings {
    let errors = kdv_eval::validate(rules, ty, op, &doc.value, old);
    let unknown_fields = match unknown {
        UnknownFields::Ignore => Vec::new(),
        UnknownFields::Error | UnknownFields::Warn => {
            kdv_eval::unknown_fields(rules, ty, &doc.value)
        }
    };
    if errors.is_empty() && unknown_fields.is_empty() {
        return Findings::default();
    }
    let paths: Vec<Vec<Step<'_>>> = errors
        .iter()
        .map(|e| &e.field)
        .chain(unknown_fields.iter().map(|u| &u.path))
        .map(steps)
        .collect();
    let targets = errors
        .iter()
        .map(|e| match &e.bad_value {
            // An error about a map key names the key as its value: point at the key. (At a
            // scalar, or a mapping without such a key, this is the value itself.)
            BadValue::String(s) => Target::MapKey(s),
            _ => Target::Value,
        })
        .chain(unknown_fields.iter().map(|_| Target::Key));
    let queries: Vec<Query<'_>> = paths
        .iter()
        .zip(targets)
        .map(|(path, target)| Query { path, target })
        .collect();
    let mut positions = doc.locate(&queries);
    let unknown_positions = positions.split_off(errors.len());
    let errors = errors
        .into_iter()
        .zip(positions)
        .map(|(error, at)| ReportedError {
            error,
            line: Some(at.line),
            column: Some(at.column),
        })
        .collect();
    let found: Vec<Finding> = unknown_fields
        .iter()
        .zip(unknown_positions)
        .map(|(u, position)| Finding {
            field: u.strict_path(),
            message: u.to_string(),
            position,
        })
        .collect();
    let (unknown_fields, warnings) = match unknown {
        UnknownFields::Warn => (Vec::new(), found),
        _ => (found, Vec::new()),
    };
    Findings {
        errors,
        unknown_fields,
        warnings,
    }
}

/// Where the value of the top-level key `key` is written (the document's start without
/// one): what a problem with a document's `kind` or `apiVersion` points at.
pub fn position_of(doc: &Document<'_>, key: &str) -> Position {
    let path = [Step::Key(key)];
    let found = doc.locate(&[Query {
        path: &path,
        target: Target::Value,
    }]);
    found.first().copied().unwrap_or(doc.position)
}

/// A field path as steps through the document: members and map keys are both mapping keys.
fn steps(path: &FieldPath) -> Vec<Step<'_>> {
    path.segments()
        .iter()
        .map(|segment| match segment {
            Segment::Field(name) | Segment::Key(name) => Step::Key(name),
            Segment::Index(i) => Step::Index(*i),
        })
        .collect()
}
