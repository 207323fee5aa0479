//! One document against its type: field errors, unknown fields, and where each is written.
//!
//! Positions cost nothing for valid documents: the document's text is walked again
//! (`kdv_manifest::Document::locate`) only when there is something to point at, and then
//! once for all of its findings.

use std::collections::HashSet;

use kdv_manifest::{Document, Position, Query, Step, Target};
use kdv_openapi::Resource;
use kdv_rollout::FeatureGates;
use kdv_rules::{RuleSet, TypeId};
use kdv_runtime::{BadValue, ErrorList, ErrorType, FieldError, FieldPath, Operation, Segment};
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
    /// Errors of rules the feature gates shadow, located as `errors`.
    pub shadowed: Vec<ReportedError>,
}

/// Validates `doc` as `ty` (against `old` for an UPDATE) and, unless `unknown` is
/// `ignore`, looks for unknown fields. Errors of rules `gates` shadow (`+k8s:alpha`, and
/// `+k8s:beta` with DeclarativeValidationBeta off) are warnings: an API server would not
/// return them. `+validationRule`s compile in the CEL environment of Kubernetes 1.`minor`.
#[allow(clippy::too_many_arguments)]
pub fn check_document(
    rules: &RuleSet,
    ty: TypeId,
    op: &Operation,
    doc: &Document<'_>,
    old: Option<&Value>,
    unknown: UnknownFields,
    gates: &FeatureGates,
    minor: u32,
) -> Findings {
    // The API server defaults the object (and the stored old one) before it validates.
    let new = kdv_eval::apply_defaults(rules, ty, &doc.value);
    let old = old.map(|o| kdv_eval::apply_defaults(rules, ty, o));
    let options = kdv_eval::EvalOptions {
        kubernetes_minor: Some(minor),
        ..kdv_eval::EvalOptions::default()
    };
    let errors = kdv_eval::validate_with(rules, ty, op, &new, old.as_deref(), &options);
    let (errors, shadowed) = kdv_rollout::partition_enforced(errors, gates);
    let unknown_fields = match unknown {
        UnknownFields::Ignore => Vec::new(),
        UnknownFields::Error | UnknownFields::Warn => {
            kdv_eval::unknown_fields(rules, ty, &doc.value)
        }
    };
    if errors.is_empty() && unknown_fields.is_empty() && shadowed.is_empty() {
        return Findings::default();
    }
    let unknown_fields: Vec<(FieldPath, String, String)> = unknown_fields
        .iter()
        .map(|u| (u.path.clone(), u.strict_path(), u.to_string()))
        .collect();
    let enforced = errors.len();
    let mut all = errors;
    all.extend(shadowed);
    let mut found = locate(doc, all, &unknown_fields, unknown);
    found.shadowed = found.errors.split_off(enforced);
    found
}

/// The declarative rules of a built-in kind, as a check of [`check_resource`] runs them.
pub struct Declarative<'a> {
    /// The release's rules of the kind's group-version.
    pub rules: &'a RuleSet,
    /// The kind.
    pub ty: TypeId,
    /// The operation, with every option the rules read defined.
    pub op: &'a Operation,
    /// Which declarative errors are enforced and which shadowed.
    pub gates: &'a FeatureGates,
    /// The object as the registry's strategy leaves it (`kdv_openapi::Resource::prepare`),
    /// decoded and defaulted.
    pub object: &'a Value,
    /// The old object, decoded and defaulted.
    pub old: Option<&'a Value>,
}

/// Validates `doc` against a CRD, OpenAPI or built-in kind (against `old` for an UPDATE),
/// with the API server's pipeline (`kdv_openapi`): unknown fields as `--unknown-fields`
/// says, defaults applied before the value validations. For a built-in kind, `declarative`
/// adds the release's declarative rules.
///
/// Unknown fields are looked for as the API server's `Warn` mode does, which also validates
/// the pruned object: with `--unknown-fields=error` they are then errors of the document
/// listed before its field errors, as for Go types (the server itself would stop at them,
/// and a user fixing the manifest would meet the field errors next).
///
/// Both judges (decision): the API server decodes a built-in object (unknown fields, types)
/// and runs its declarative rules beside the hand-written validation kdv does not have;
/// kubectl-validate's published value checks stand in for part of the hand-written. Where
/// both report an error of the same type at the same field, it is reported once: the
/// declarative rule's when enforced (the server's own text), the published check's when the
/// declarative rule is shadowed (the server's hand-written validation reports it). The
/// decoding errors of the declarative pass are the OpenAPI pipeline's already.
pub fn check_resource(
    resource: &Resource,
    declarative: Option<Declarative<'_>>,
    options: &kdv_openapi::Options,
    doc: &Document<'_>,
    old: Option<&Value>,
    unknown: UnknownFields,
) -> Findings {
    let options = kdv_openapi::Options {
        unknown_fields: match unknown {
            UnknownFields::Error | UnknownFields::Warn => kdv_openapi::UnknownFields::Warn,
            UnknownFields::Ignore => kdv_openapi::UnknownFields::Ignore,
        },
        ..options.clone()
    };
    let mut outcome = resource.validate(&doc.value, old, &options);
    // An object the API server cannot decode (metadata that is not an ObjectMeta) fails with
    // that one error.
    if let Some(error) = outcome.decode_error.take() {
        return locate(doc, vec![error], &[], unknown);
    }
    let (mut enforced, mut shadowed) = (ErrorList::new(), ErrorList::new());
    if let Some(d) = declarative {
        let options = kdv_eval::EvalOptions {
            skip_decoding: true,
            ..kdv_eval::EvalOptions::default()
        };
        let mut errors = kdv_eval::validate_with(d.rules, d.ty, d.op, d.object, d.old, &options);
        // A value only defaulting put there that a rule forbids is one the strategy drops
        // before validating (`dropDisabled...Fields` of a disabled gate's field, whose
        // published default the server would otherwise reject on every create).
        errors.retain(|e| e.error_type != ErrorType::Forbidden || present(&doc.value, &e.field));
        (enforced, shadowed) = kdv_rollout::partition_enforced(errors, d.gates);
        // Sets, not scans: an object with many errors of both kinds stays linear.
        let key = |e: &FieldError| (e.error_type, e.field.clone());
        let declared: HashSet<_> = enforced.iter().map(key).collect();
        outcome.errors.retain(|e| !declared.contains(&key(e)));
        let published: HashSet<_> = outcome.errors.iter().map(key).collect();
        shadowed.retain(|d| !published.contains(&key(d)));
    }
    if outcome.errors.is_empty()
        && enforced.is_empty()
        && shadowed.is_empty()
        && outcome.unknown_fields.is_empty()
    {
        return Findings::default();
    }
    let unknown_fields: Vec<(FieldPath, String, String)> = outcome
        .unknown_fields
        .into_iter()
        .map(|path| {
            let text = path.strict_text();
            let message = format!("unknown field {}", kdv_runtime::gofmt::quote(&text));
            (path, text, message)
        })
        .collect();
    let mut all = outcome.errors;
    all.extend(enforced);
    let errors = all.len();
    all.extend(shadowed);
    let mut found = locate(doc, all, &unknown_fields, unknown);
    found.shadowed = found.errors.split_off(errors);
    found
}

/// Finds where each error and unknown field (path, path text, message) is written.
fn locate(
    doc: &Document<'_>,
    errors: ErrorList,
    unknown_fields: &[(FieldPath, String, String)],
    unknown: UnknownFields,
) -> Findings {
    let paths: Vec<Vec<Step<'_>>> = errors
        .iter()
        .map(|e| &e.field)
        .chain(unknown_fields.iter().map(|u| &u.0))
        .map(Step::path_to)
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
        .map(|((_, field, message), position)| Finding {
            field: field.clone(),
            message: message.clone(),
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
        shadowed: Vec::new(),
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
/// Whether `value` has a non-null value at `path`.
fn present(value: &Value, path: &FieldPath) -> bool {
    path.segments()
        .iter()
        .try_fold(value, |v, segment| match segment {
            Segment::Field(name) | Segment::Key(name) => v.get(name.as_ref()),
            Segment::Index(i) => v.get(*i),
        })
        .is_some_and(|v| !v.is_null())
}
