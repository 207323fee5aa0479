//! CRD write-time checks: what the API server checks when an
//! `apiextensions.k8s.io/v1` CustomResourceDefinition is created (`kubectl apply` of a new
//! CRD), with its messages, in its order.
//!
//! The pipeline is the server's:
//!
//! 1. decoding into the v1 types (`decode`): Go's type errors end it (the request fails
//!    with `... cannot be handled as a CustomResourceDefinition: json: cannot unmarshal
//!    ...`); fields the types do not have are reported as strict field validation reports
//!    them (`unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.typo"`);
//! 2. the v1 defaults, the conversion to the internal version (a schema every version
//!    shares is checked once, as `spec.validation.openAPIV3Schema`; so are shared
//!    subresources, printer columns and selectable fields) and `PrepareForCreate`;
//! 3. `ValidateCustomResourceDefinition`: `metadata` (`names`), the spec's group,
//!    scope and versions (`versions`) with their schemas (`schema`: structural
//!    invariants in `structural`, defaults in `defaults`, list and map extensions in
//!    `listtype`, the static rule checks in `rules`), names, subresources, printer
//!    columns, selectable fields, conversion, stored versions, the API approval of
//!    protected groups and `preserveUnknownFields`;
//! 4. the warnings of `WarningsOnCreate` (`formats`).
//!
//! The `x-kubernetes-validations` rules are compiled (`cel`: type checks, cost limits,
//! `oldSelf` placement, spec §5.1.2) when the schema is structural, and run on every default
//! that passes its value validations (§5.7). Properties and other maps are visited in key
//! order where Go's order is random.
//!
//! Paths are the internal object's, as the server reports them; [`document_path`] maps a
//! path back to where the v1 document writes it, and [`lint_crds`] reads a stream and
//! locates every finding (file:line:col).

mod cel;
mod decode;
mod defaults;
mod formats;
mod listtype;
mod model;
mod names;
mod path;
mod rules;
mod schema;
mod structural;
mod versions;

use std::cell::RefCell;

use kdv_manifest::{Entry, Limits, Query, Step, Syntax, Target};
use kdv_runtime::{ErrorList, FieldPath, Segment};
use serde_json::Value;

use crate::schema::{Arena, NodeId};
use crate::{DEFAULT_KUBERNETES_MINOR, LoadError};

/// One step of a path in a CRD document as written (v1 names).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum DocStep {
    /// An object key.
    Key(String),
    /// An array index.
    Index(usize),
}

impl DocStep {
    fn as_step(&self) -> Step<'_> {
        match self {
            DocStep::Key(k) => Step::Key(k),
            DocStep::Index(i) => Step::Index(*i),
        }
    }
}

/// The CRD could not be decoded: the API server rejects the request before validating it.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodeError {
    /// Go's error text (`json: cannot unmarshal string into Go struct field ...`).
    pub message: String,
    /// Where the offending value is written.
    pub at: Vec<DocStep>,
}

/// A field the v1 types do not know (dropped by the server; an error under kubectl's
/// default strict field validation).
#[derive(Debug, Clone, PartialEq)]
pub struct UnknownField {
    /// The path as the server prints it (`spec.versions[0].schema.openAPIV3Schema.foo`).
    pub path: String,
    /// Where it is written.
    pub at: Vec<DocStep>,
}

/// A warning the server returns with a successful create.
#[derive(Debug, Clone, PartialEq)]
pub struct CrdWarning {
    /// The server's text (`unrecognized format "int"`).
    pub message: String,
    /// The node it is about, as an internal path (for [`document_path`]); the nil path for
    /// warnings about the CRD as a whole.
    pub field: FieldPath,
}

/// What the API server says about creating a CRD.
#[derive(Debug, Clone, Default)]
pub struct CrdFindings {
    /// Set when the CRD does not decode; nothing else is checked then.
    pub decode_error: Option<DecodeError>,
    /// Unknown fields, in the decoder's order.
    pub unknown_fields: Vec<UnknownField>,
    /// `ValidateCustomResourceDefinition`'s errors, in the server's order (their Display is
    /// the server's text).
    pub errors: ErrorList,
    /// `WarningsOnCreate`.
    pub warnings: Vec<CrdWarning>,
}

impl CrdFindings {
    /// Whether the server rejects the CRD whatever the field validation mode: it does not
    /// decode or does not validate (unknown fields alone are dropped under `Warn` and
    /// `Ignore`).
    pub fn is_rejected(&self) -> bool {
        self.decode_error.is_some() || !self.errors.is_empty()
    }

    /// The message of the server's response to a create that fails validation
    /// (`CustomResourceDefinition.apiextensions.k8s.io "<name>" is invalid: <errors>`), or to
    /// one that fails decoding; `None` when the CRD is accepted.
    pub fn rejection_message(&self, name: &str) -> Option<String> {
        if let Some(d) = &self.decode_error {
            return Some(format!(
                "CustomResourceDefinition in version \"v1\" cannot be handled as a CustomResourceDefinition: {}",
                d.message
            ));
        }
        if self.errors.is_empty() {
            return None;
        }
        Some(format!(
            "CustomResourceDefinition.apiextensions.k8s.io {} is invalid: {}",
            kdv_runtime::gofmt::quote(name),
            defaults::aggregate(&self.errors)
        ))
    }
}

/// The schemas the CEL checks compiled, by the address of their `openAPIV3Schema` value in
/// the CRD checked: the loader takes them instead of compiling each schema a second time.
#[derive(Default)]
pub(crate) struct CompiledSchemas(RefCell<Vec<(usize, Arena, NodeId)>>);

impl CompiledSchemas {
    fn key(schema: &Value) -> usize {
        std::ptr::from_ref(schema) as usize
    }

    /// Keeps the compiled form of `schema`.
    pub(crate) fn keep(&self, schema: &Value, arena: Arena, root: NodeId) {
        self.0.borrow_mut().push((Self::key(schema), arena, root));
    }

    /// The compiled form of `schema`, if a check compiled it.
    pub(crate) fn take(&self, schema: &Value) -> Option<(Arena, NodeId)> {
        let mut kept = self.0.borrow_mut();
        let i = kept.iter().position(|(k, ..)| *k == Self::key(schema))?;
        let (_, arena, root) = kept.swap_remove(i);
        Some((arena, root))
    }
}

impl std::fmt::Debug for CompiledSchemas {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CompiledSchemas({})", self.0.borrow().len())
    }
}

/// The options `ValidateCustomResourceDefinition` uses on create (all set), plus the
/// Kubernetes version whose rules apply.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Opts<'c> {
    pub allow_defaults: bool,
    pub require_valid_property_type: bool,
    pub require_structural_schema: bool,
    pub require_pruned_defaults: bool,
    pub require_atomic_set_type: bool,
    pub require_map_list_keys_map_set_validation: bool,
    pub kubernetes_minor: u32,
    /// Rules compile in kdv's type-rule environment (`+validationRule` on types).
    pub type_rules: bool,
    /// Where the CEL checks keep the schemas they compile, for the loader.
    pub compiled: Option<&'c CompiledSchemas>,
}

impl Opts<'_> {
    fn create(minor: u32) -> Opts<'static> {
        Opts {
            allow_defaults: true,
            require_valid_property_type: true,
            require_structural_schema: true,
            require_pruned_defaults: true,
            require_atomic_set_type: true,
            require_map_list_keys_map_set_validation: true,
            kubernetes_minor: minor,
            type_rules: false,
            compiled: None,
        }
    }
}

/// Go's `regexp.Compile` verdict on a pattern, with its error text
/// (``error parsing regexp: missing closing ): `(a` ``).
pub(crate) fn regex_compile(pattern: &str) -> Result<(), String> {
    // The verdict alone is cheaper than building the matcher.
    if kdv_cel::library::regex::validate(pattern) {
        return Ok(());
    }
    kdv_cel::library::regex::compile_go(pattern)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The checks of creating `crd` (a CustomResourceDefinition as JSON, `apiextensions.k8s.io/v1`)
/// under Kubernetes 1.35's rules.
pub fn validate_crd(crd: &Value) -> CrdFindings {
    validate_crd_for(crd, DEFAULT_KUBERNETES_MINOR)
}

/// [`validate_crd`] under the rules of Kubernetes 1.`minor` (formats and their warnings,
/// the structural fields of 1.36).
pub fn validate_crd_for(crd: &Value, minor: u32) -> CrdFindings {
    validate_crd_keeping(crd, minor, None)
}

/// [`validate_crd_for`], keeping the schemas the CEL checks compile in `compiled`.
pub(crate) fn validate_crd_keeping(
    crd: &Value,
    minor: u32,
    compiled: Option<&CompiledSchemas>,
) -> CrdFindings {
    let decoded = match decode::decode(crd) {
        Ok(d) => d,
        Err(e) => {
            return CrdFindings {
                decode_error: Some(DecodeError {
                    message: e.message,
                    at: e.at,
                }),
                ..CrdFindings::default()
            };
        }
    };
    let crd = &decoded.crd;
    let opts = Opts {
        compiled,
        ..Opts::create(minor)
    };
    let errors = validate_internal(crd, &opts);
    CrdFindings {
        decode_error: None,
        unknown_fields: decoded
            .unknown
            .into_iter()
            .map(|u| UnknownField {
                path: u.path,
                at: u.at,
            })
            .collect(),
        errors,
        warnings: formats::warnings(&crd.spec, minor),
    }
}

/// [`validate_crd_for`] with the rules compiled in kdv's environment of `+validationRule` on
/// types (the release's CEL environment plus kdv's own libraries, kdv extensions): the
/// write-time checks kdv applies to a type rule, published in a CRD only by kdv.
pub fn validate_type_rule_crd(crd: &Value, minor: u32) -> CrdFindings {
    let decoded = match decode::decode(crd) {
        Ok(d) => d,
        Err(_) => return validate_crd_for(crd, minor),
    };
    let opts = Opts {
        type_rules: true,
        ..Opts::create(minor)
    };
    CrdFindings {
        errors: validate_internal(&decoded.crd, &opts),
        ..CrdFindings::default()
    }
}

/// `ValidateCustomResourceDefinition` of the internal object.
fn validate_internal(crd: &model::Crd<'_>, opts: &Opts) -> ErrorList {
    let mut errors = ErrorList::new();
    names::metadata(crd, &mut errors);
    spec(crd, opts, &mut errors);
    names::names(
        &crd.accepted_names,
        &FieldPath::new("status").child("acceptedNames"),
        &mut errors,
    );
    names::stored_versions(&crd.stored_versions, &crd.spec.versions, &mut errors);
    names::api_approval(crd, &mut errors);
    names::preserve_unknown_fields(&crd.spec, &mut errors);
    errors
}

/// `validateCustomResourceDefinitionSpec` on create.
fn spec(crd: &model::Crd<'_>, opts: &Opts, out: &mut ErrorList) {
    let spec = &crd.spec;
    let spec_path = FieldPath::new("spec");
    names::group_and_scope(spec, out);
    // requireOpenAPISchema: every version needs a schema unless the spec has one.
    if spec
        .validation
        .as_ref()
        .is_none_or(|v| v.open_api_v3_schema.is_none())
    {
        for (i, v) in spec.versions.iter().enumerate() {
            if v.schema
                .as_ref()
                .is_none_or(|s| s.open_api_v3_schema.is_none())
            {
                out.push(path::required(
                    &spec_path
                        .child("versions")
                        .index(i)
                        .child("schema")
                        .child("openAPIV3Schema"),
                    "",
                ));
            }
        }
    }
    if spec_has_defaults(spec) && spec.preserve_unknown_fields != Some(false) {
        out.push(path::invalid(
            &spec_path.child("preserveUnknownFields"),
            kdv_runtime::BadValue::Bool(true),
            "must be false in order to use defaults in the schema",
        ));
    }
    versions::versions(spec, opts, out);
    names::required_names(&spec.names, out);
    names::names(&spec.names, &spec_path.child("names"), out);
    let any_status = spec.subresources.as_ref().is_some_and(|s| s.status)
        || spec
            .versions
            .iter()
            .any(|v| v.subresources.as_ref().is_some_and(|s| s.status));
    schema::validate_validation(
        spec.validation.as_ref(),
        any_status,
        opts,
        &spec_path.child("validation"),
        out,
    );
    versions::subresources(
        spec.subresources.as_ref(),
        &spec_path.child("subresources"),
        out,
    );
    for (i, c) in spec.additional_printer_columns.iter().enumerate() {
        versions::column(
            c,
            &spec_path.child("additionalPrinterColumns").index(i),
            out,
        );
    }
    versions::spec_selectable_fields(spec, out);
    versions::conversion(spec, out);
}

/// Whether any schema of the spec has a `default` (`specHasDefaults`).
fn spec_has_defaults(spec: &model::Spec<'_>) -> bool {
    fn has(s: &model::Props<'_>) -> bool {
        s.default.is_some()
            || s.items
                .as_ref()
                .is_some_and(|i| i.schema.as_deref().is_some_and(has) || i.schemas.iter().any(has))
            || s.all_of.iter().any(has)
            || s.any_of.iter().any(has)
            || s.one_of.iter().any(has)
            || s.not.as_deref().is_some_and(has)
            || s.properties.iter().any(|(_, p)| has(p))
            || s.additional_properties
                .as_ref()
                .is_some_and(|a| a.schema.as_deref().is_some_and(has))
            || s.pattern_properties.iter().any(|(_, p)| has(p))
            || s.additional_items
                .as_ref()
                .is_some_and(|a| a.schema.as_deref().is_some_and(has))
            || s.definitions.iter().any(|(_, p)| has(p))
            || s.dependencies
                .iter()
                .any(|(_, d)| d.schema.as_deref().is_some_and(has))
    }
    spec.validation
        .iter()
        .chain(spec.versions.iter().filter_map(|v| v.schema.as_ref()))
        .filter_map(|v| v.open_api_v3_schema.as_deref())
        .any(has)
}

/// Where the v1 document writes what an internal path names: a schema, subresources,
/// printer columns and selectable fields every version shares are the first version's;
/// `spec.version` is the first version's name; the conversion webhook's fields are under
/// `spec.conversion.webhook`; `status.storedVersions` (set by the server) points at
/// `spec.versions`. Members whose names hold dots (`scale.specReplicasPath`) are split.
pub fn document_path(field: &FieldPath) -> Vec<DocStep> {
    let mut steps: Vec<DocStep> = Vec::new();
    for s in field.segments() {
        match s {
            Segment::Field(f) => {
                steps.extend(f.split('.').map(|p| DocStep::Key(p.to_owned())));
            }
            Segment::Key(k) => steps.push(DocStep::Key(k.to_string())),
            Segment::Index(i) => steps.push(DocStep::Index(*i)),
        }
    }
    let key = |s: &str| DocStep::Key(s.to_owned());
    let is = |steps: &[DocStep], i: usize, k: &str| steps.get(i) == Some(&key(k));
    if is(&steps, 0, "status") && is(&steps, 1, "storedVersions") {
        return vec![key("spec"), key("versions")];
    }
    if is(&steps, 0, "spec") {
        let first_version = [key("spec"), key("versions"), DocStep::Index(0)];
        if is(&steps, 1, "validation") {
            let mut out = first_version.to_vec();
            out.push(key("schema"));
            out.extend(steps.drain(2..));
            steps = out;
        } else if is(&steps, 1, "schema")
            || is(&steps, 1, "subresources")
            || is(&steps, 1, "additionalPrinterColumns")
            || is(&steps, 1, "selectableFields")
        {
            let mut out = first_version.to_vec();
            out.extend(steps.drain(1..));
            steps = out;
        } else if is(&steps, 1, "version") {
            let mut out = first_version.to_vec();
            out.push(key("name"));
            steps = out;
        } else if is(&steps, 1, "conversion")
            && (is(&steps, 2, "webhookClientConfig") || is(&steps, 2, "conversionReviewVersions"))
        {
            let rest: Vec<DocStep> = steps.drain(3..).collect();
            let leaf = if is(&steps, 2, "webhookClientConfig") {
                "clientConfig"
            } else {
                "conversionReviewVersions"
            };
            steps = vec![key("spec"), key("conversion"), key("webhook"), key(leaf)];
            steps.extend(rest);
        }
    }
    // Printer columns: the internal `JSONPath` is the v1 `jsonPath`.
    for i in 1..steps.len() {
        if steps[i] == key("JSONPath")
            && steps
                .get(i.wrapping_sub(2))
                .is_some_and(|s| *s == key("additionalPrinterColumns"))
        {
            steps[i] = key("jsonPath");
        }
    }
    steps
}

/// How bad a located finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The server rejects the CRD (or, for unknown fields, kubectl's strict default does).
    Error,
    /// The server accepts the CRD and warns.
    Warning,
}

/// One finding at its place in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct LocatedFinding {
    /// Error or warning.
    pub severity: Severity,
    /// 1-based line.
    pub line: u64,
    /// 1-based column.
    pub column: u64,
    /// The field the server names (errors and unknown fields); `None` for decode errors
    /// and warnings about the whole CRD.
    pub field: Option<String>,
    /// The server's full text (`spec.versions[0].name: Invalid value: ...`,
    /// `unknown field "spec.foo"`, `unrecognized format "x"`).
    pub message: String,
}

/// The checks of one CRD of a stream.
#[derive(Debug, Clone)]
pub struct LintedCrd {
    /// The document's position in the stream (counting empty documents).
    pub document: usize,
    /// `metadata.name` (empty when not a string).
    pub name: String,
    /// Where the document starts.
    pub line: u64,
    /// Its column.
    pub column: u64,
    /// What the server says.
    pub findings: CrdFindings,
    /// The same, located: decode error, unknown fields, errors, warnings.
    pub located: Vec<LocatedFinding>,
}

/// The CRDs of a stream and what could not be read.
#[derive(Debug, Clone, Default)]
pub struct LintedStream {
    /// Every `apiextensions.k8s.io` CustomResourceDefinition, in stream order.
    pub crds: Vec<LintedCrd>,
    /// Documents that cannot be read (syntax, size).
    pub unreadable: Vec<LoadError>,
    /// Documents that are not CRDs (skipped).
    pub skipped: usize,
}

/// Largest CRD document read (large operators' CRDs approach a few MiB).
const MAX_CRD_DOCUMENT: usize = 64 << 20;

/// Reads a YAML/JSON stream and checks each CustomResourceDefinition in it as the API
/// server checks its creation under Kubernetes 1.`minor`, locating every finding in the
/// file. A CRD of another `apiextensions.k8s.io` version is one error (the server no
/// longer serves them).
pub fn lint_crds(file: &str, bytes: &[u8], minor: u32) -> LintedStream {
    let limits = Limits {
        max_document_bytes: MAX_CRD_DOCUMENT,
        ..Limits::default()
    };
    let mut out = LintedStream::default();
    for entry in kdv_manifest::documents(bytes, Syntax::Yaml, limits) {
        let doc = match entry {
            Ok(Entry::Document(doc)) => doc,
            Ok(Entry::Empty { .. }) => continue,
            Err(e) => {
                out.unreadable.push(LoadError {
                    file: file.to_owned(),
                    line: e.position.line,
                    column: e.position.column,
                    message: e.message,
                });
                continue;
            }
        };
        let v = &doc.value;
        let api_version = v.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
        if kind != "CustomResourceDefinition" || !api_version.starts_with("apiextensions.k8s.io/") {
            out.skipped += 1;
            continue;
        }
        let name = v
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        if api_version != "apiextensions.k8s.io/v1" {
            let at = doc.locate(&[Query {
                path: &[Step::Key("apiVersion")],
                target: Target::Value,
            }])[0];
            out.crds.push(LintedCrd {
                document: doc.index,
                name,
                line: doc.position.line,
                column: doc.position.column,
                findings: CrdFindings::default(),
                located: vec![LocatedFinding {
                    severity: Severity::Error,
                    line: at.line,
                    column: at.column,
                    field: Some("apiVersion".to_owned()),
                    message: format!(
                        "{api_version} CustomResourceDefinitions are not supported (removed in Kubernetes 1.22); convert it to apiextensions.k8s.io/v1"
                    ),
                }],
            });
            continue;
        }
        let findings = validate_crd_for(v, minor);
        let located = locate(&doc, &findings);
        out.crds.push(LintedCrd {
            document: doc.index,
            name,
            line: doc.position.line,
            column: doc.position.column,
            findings,
            located,
        });
    }
    out
}

/// Where the reason of a rejection is written: the decode error, or the first validation
/// error (unknown fields alone do not reject).
pub(crate) fn rejection_position(
    doc: &kdv_manifest::Document<'_>,
    findings: &CrdFindings,
) -> kdv_manifest::Position {
    let first = CrdFindings {
        decode_error: findings.decode_error.clone(),
        unknown_fields: Vec::new(),
        errors: findings.errors.iter().take(1).cloned().collect(),
        warnings: Vec::new(),
    };
    locate(doc, &first)
        .first()
        .map_or(doc.position, |f| kdv_manifest::Position {
            line: f.line,
            column: f.column,
        })
}

/// Every finding of `findings` at its place in `doc`.
fn locate(doc: &kdv_manifest::Document<'_>, findings: &CrdFindings) -> Vec<LocatedFinding> {
    struct Pending {
        severity: Severity,
        field: Option<String>,
        message: String,
        at: Vec<DocStep>,
        target_key: bool,
    }
    let mut pending = Vec::new();
    if let Some(d) = &findings.decode_error {
        pending.push(Pending {
            severity: Severity::Error,
            field: None,
            message: format!(
                "CustomResourceDefinition in version \"v1\" cannot be handled as a CustomResourceDefinition: {}",
                d.message
            ),
            at: d.at.clone(),
            target_key: false,
        });
    }
    for u in &findings.unknown_fields {
        pending.push(Pending {
            severity: Severity::Error,
            field: Some(u.path.clone()),
            message: format!("unknown field {}", kdv_runtime::gofmt::quote(&u.path)),
            at: u.at.clone(),
            target_key: true,
        });
    }
    for e in &findings.errors {
        pending.push(Pending {
            severity: Severity::Error,
            field: Some(e.field.to_string()),
            message: e.to_string(),
            at: document_path(&e.field),
            target_key: false,
        });
    }
    for w in &findings.warnings {
        pending.push(Pending {
            severity: Severity::Warning,
            field: (!w.field.is_nil()).then(|| w.field.to_string()),
            message: w.message.clone(),
            at: document_path(&w.field),
            target_key: false,
        });
    }
    let steps: Vec<Vec<Step<'_>>> = pending
        .iter()
        .map(|p| p.at.iter().map(DocStep::as_step).collect())
        .collect();
    let queries: Vec<Query<'_>> = steps
        .iter()
        .zip(&pending)
        .map(|(s, p)| Query {
            path: s,
            target: if p.target_key {
                Target::Key
            } else {
                Target::Value
            },
        })
        .collect();
    let positions = if queries.is_empty() {
        Vec::new()
    } else {
        doc.locate(&queries)
    };
    pending
        .into_iter()
        .zip(positions)
        .map(|(p, at)| LocatedFinding {
            severity: p.severity,
            line: at.line,
            column: at.column,
            field: p.field,
            message: p.message,
        })
        .collect()
}

#[cfg(test)]
mod tests;
