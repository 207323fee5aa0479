//! Schema emission (KEP-4153): the rules of a [`RuleSet`] published as an OpenAPI v3
//! structural schema, so that the API server enforces what the `+k8s:` tags declare.
//!
//! A backend of the rule IR: it reads shapes and validations, never tags or Go syntax.
//! [`emit`] gives the schema of one type; [`crd`] a whole `apiextensions.k8s.io/v1`
//! CustomResourceDefinition for a root type.
//!
//! - **Structure** comes from the value shapes: properties by JSON name (embedded structs
//!   flattened), `type` per Go kind (integers with `int32`/`int64` formats and their type's
//!   range), arrays, maps as `additionalProperties`, `x-kubernetes-preserve-unknown-fields`
//!   for `any`, `required` for `+k8s:required` (and for struct values whose zero value the
//!   tags would reject).
//! - **Keywords** where kube-openapi's verdict is the tag's: `minimum`/`maximum`,
//!   `minLength`/`maxLength` (both count characters: upstream's byte shortcuts only decide
//!   what the rune count decides), `minItems`/`maxItems`, `minProperties`/`maxProperties`,
//!   `enum`, `x-kubernetes-list-type`/`-list-map-keys`.
//! - **CEL** (`x-kubernetes-validations`) for the rest: formats (Kubernetes' CEL format
//!   library), `neq`, `maxBytes`, immutability and update constraints (transition rules on
//!   the struct holding the field, so setting and clearing are seen), `monotonic`, unions,
//!   dependencies, `eachKey`, `item`; with upstream's message, a reason and a `fieldPath`.
//! - **Notes** for what cannot be published: custom validation functions, testing tags,
//!   rules under an option (`ifEnabled`/`ifDisabled`) whose value [`EmitOptions::options`]
//!   does not fix, formats without an equivalent, mode rules, recursion.
//!
//! Go reads an absent field as its zero value and an optional field's zero value as
//! "unset"; the schema sees JSON. Where this matters the rules say so: an optional
//! non-pointer field accepts its zero value (`self == "" || ...`), a required one rejects it
//! (`minLength: 1`, `self != 0`).
//!
//! How: `walk` walks a type's value shape — properties by JSON name, embedded structs flattened,
//! `json:"-"` left out; `metav1.Time`, `IntOrString` and `Quantity` as controller-gen writes them
//! — and places each validation of the type, its field blocks and iterations at the node it
//! applies to (`node`: keywords combine so both hold, rules deduplicated); `cel` writes Go's
//! meanings over JSON ("set" per presence kind, zero values, Kubernetes' property-name
//! escaping); `crossfield` turns cross-field references into a CEL rule at the struct (decision
//! 0120); [`validation_rules`] builds the node schema of a `+validationRule` (decision 0081).
//! [`crd`] wraps a root type's schema in a CRD: group from `+groupName`, version from the
//! package clause, the kind, plural = lowercase kind + `s`, namespaced, `apiVersion`/`kind`/
//! `metadata` as controller-gen emits them ([`CrdOptions`] overrides them). [`Emitted::published`]
//! lists the emitted CEL rules with their schema path, tag and span (what `kdv explain` shows).
//! The choices: decisions 0036 (keywords or CEL), 0037 (presence and transitions on the
//! struct), 0038 (Go zero values), 0039 (rules the server would refuse become notes), 0084
//! (`+validationRule` verbatim), 0087, 0088.
//!
//! Not publishable (notes, with the tag's span): `+k8s:customValidation` (code), testing tags
//! (`validateFalse`, ...), `ifMode`/`modeDiscriminator` rules, rules under options the caller
//! did not fix (conditional `enumExclude` included), formats without an equivalent
//! (`k8s-long-name-caseless`, `k8s-prefixed-label-key`, `k8s-resource-pool-name`,
//! `k8s-extended-resource-name`, `k8s-resource-fully-qualified-name`), recursion (the repeated
//! level keeps unknown fields), a `crd`'s metadata rules (the server validates ObjectMeta
//! itself). The IR carries no descriptions, so none are published.
//!
//! Verdicts that differ by design (the tests list them): an old object that is already invalid
//! (the tags ratchet unchanged field blocks, union set-ness, map keys and items even when the
//! parent changed; the server ratchets a failing rule only when its own node is unchanged, and
//! `required`, unions and dependencies sit on the parent); a list-map item without its key (a
//! CRD requires map keys); an optional non-pointer struct whose JSON value is all zero (skipped
//! by the tags, checked by the schema); set and map lists compare without order in CEL (a
//! reordered `immutable` list); undefined options (an internal error for the tags); everything
//! in the notes. Error texts and paths differ throughout.
//!
//! Tests: `tests/families.rs` (the mapping per tag family), `tests/examples_api.rs` and
//! `tests/fixture_crd.rs` (CRDs accepted by `add_crds`/`lint_crds`, snapshotted),
//! `tests/tag_cases.rs` (every case of kdv-cli's tag fixtures judged by the emitted CRD and by the
//! tags, with the by-design list), `tests/verdicts.rs` (proptest over generated objects, CREATE
//! and UPDATE; `KDV_SCHEMA_CASES` sets the count, 500 by default).

#![warn(missing_docs)]

mod cel;
mod crossfield;
mod node;
pub mod validation_rules;
mod walk;

use std::collections::BTreeMap;
use std::fmt;

use kdv_model::SourceSpan;
use kdv_rules::{RuleSet, TypeId};
use serde_json::{Map, Value, json};

/// How to emit.
#[derive(Debug, Clone, Default)]
pub struct EmitOptions {
    /// Values of validation options (`+k8s:ifEnabled(name)`, `+k8s:ifDisabled(name)`,
    /// conditional `enumExclude`) fixed for the published schema: a rule under an option
    /// listed here is published as it applies with that value; a rule under an option not
    /// listed becomes a [`Note`] (a cluster's schema cannot read feature gates).
    pub options: BTreeMap<String, bool>,
    /// The subresource the schema is published for (`/` for the main resource, `/status`),
    /// fixing `+k8s:ifSubresource`/`+k8s:ifNotSubresource`: a rule under such a condition
    /// is published as it applies to requests for that subresource. `None`: such rules
    /// become [`Note`]s (a CRD schema validates every request alike).
    pub subresource: Option<String>,
}

/// A rule that could not be published, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    /// The tag (`+k8s:customValidation`), empty for notes about structure (recursion).
    pub tag: String,
    /// Where the tag is written.
    pub span: Option<SourceSpan>,
    /// The schema path the rule belongs to (`spec.ports[*].name`, `<root>`).
    pub path: String,
    /// Why it is not published (or published differently).
    pub reason: String,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = &self.span {
            write!(f, "{}:{}:{}: ", s.path.display(), s.line, s.col)?;
        }
        if self.tag.is_empty() {
            write!(f, "{}: {}", self.path, self.reason)
        } else {
            write!(f, "{}: {}: {}", self.path, self.tag, self.reason)
        }
    }
}

/// An emitted schema and the notes about rules it does not carry.
#[derive(Debug, Clone, PartialEq)]
pub struct Emitted {
    /// The OpenAPI v3 schema (or, from [`crd`], the CustomResourceDefinition).
    pub schema: Value,
    /// The rules not published, in emission order.
    pub notes: Vec<Note>,
    /// The CEL rules of the schema with the tags they publish (for `kdv explain`), node by
    /// node in schema order.
    pub published: Vec<Published>,
}

/// A CEL rule of an emitted schema and the tag it publishes.
#[derive(Debug, Clone, PartialEq)]
pub struct Published {
    /// Schema path of the node carrying the rule (`spec.ports[*]`, `<root>`).
    pub path: String,
    /// The rule as it is written in `x-kubernetes-validations` (`rule`, `message`, ...).
    pub rule: Value,
    /// The tag (`+k8s:format`); empty when the rule has no tag.
    pub tag: String,
    /// Where the tag is written.
    pub span: Option<SourceSpan>,
}

/// The rules of `node` and its children with their origins.
fn published(node: &node::Node, path: &str, out: &mut Vec<Published>) {
    for r in &node.rules {
        out.push(Published {
            path: if path.is_empty() {
                "<root>".to_owned()
            } else {
                path.to_owned()
            },
            rule: r.to_json(),
            tag: r.origin.as_ref().map(|o| o.tag.clone()).unwrap_or_default(),
            span: r.origin.as_ref().and_then(|o| o.span.clone()),
        });
    }
    for (name, child) in &node.properties {
        let p = if path.is_empty() {
            name.clone()
        } else {
            format!("{path}.{name}")
        };
        published(child, &p, out);
    }
    if let Some(items) = &node.items {
        published(items, &format!("{path}[*]"), out);
    }
    if let Some(additional) = &node.additional {
        published(additional, &format!("{path}[*]"), out);
    }
}

/// The structural schema of `ty` with its rules.
///
/// Every CEL rule is checked as the API server checks it when a CRD with this schema is
/// created (compilation, cost limits with the schema's bounds); a rule the server would
/// refuse is left out and becomes a [`Note`].
pub fn emit(rules: &RuleSet, ty: TypeId, opts: &EmitOptions) -> Emitted {
    let mut e = walk::Emitter::new(rules, opts);
    let shape = rules.type_rules(ty).shape;
    let mut node = e.value(shape, "", true, None);
    let mut notes = e.notes;
    if node.keywords.get("type") == Some(&json!("object")) {
        drop_refused_rules(&mut node, &mut notes, |schema| {
            wrap_crd(
                "schemas.kdv.dev",
                "v1",
                "Schema",
                "schemas",
                Scope::Namespaced,
                schema,
                false,
            )
        });
    }
    let mut rules_published = Vec::new();
    published(&node, "", &mut rules_published);
    Emitted {
        schema: node.to_json(),
        notes,
        published: rules_published,
    }
}

/// Removes the CEL rules the API server would refuse in `root` (as `wrap` places it in a
/// CRD), each becoming a note: rules with their own errors first; if only the schema's
/// total cost is over the limit, the rules contributing to it.
fn drop_refused_rules(root: &mut node::Node, notes: &mut Vec<Note>, wrap: impl Fn(Value) -> Value) {
    use kdv_runtime::Segment;
    // Each round removes at least one rule, so this ends; the bound is a safety net.
    for _ in 0..64 {
        let crd = wrap(root.to_json());
        let findings = kdv_openapi::validate_crd(&crd);
        let mut own = Vec::new();
        let mut contributed = Vec::new();
        for e in findings.errors.iter() {
            let segs = e.field.segments();
            let mut steps = Vec::new();
            let mut index = None;
            let mut i = 3; // spec.validation.openAPIV3Schema
            while i < segs.len() {
                match (&segs[i], segs.get(i + 1)) {
                    (Segment::Field(f), Some(Segment::Key(k))) if f == "properties" => {
                        steps.push(node::Step::Property(k.to_string()));
                        i += 2;
                    }
                    (Segment::Field(f), _) if f == "items" => {
                        steps.push(node::Step::Items);
                        i += 1;
                    }
                    (Segment::Field(f), _) if f == "additionalProperties" => {
                        steps.push(node::Step::Additional);
                        i += 1;
                    }
                    (Segment::Field(f), Some(Segment::Index(n)))
                        if f == "x-kubernetes-validations" =>
                    {
                        index = Some(*n);
                        break;
                    }
                    _ => break,
                }
            }
            let Some(index) = index else { continue };
            let entry = (steps, index, e.detail.clone());
            if e.detail
                .starts_with("contributed to estimated rule cost total")
            {
                contributed.push(entry);
            } else {
                own.push(entry);
            }
        }
        let mut remove = if own.is_empty() { contributed } else { own };
        if remove.is_empty() {
            return;
        }
        // Highest index first, so the other indices of a node stay right.
        remove.sort_by_key(|e| std::cmp::Reverse(e.1));
        let mut seen: Vec<(Vec<node::Step>, usize)> = Vec::new();
        remove.retain(|e| {
            let key = (e.0.clone(), e.1);
            let new = !seen.contains(&key);
            seen.push(key);
            new
        });
        for (steps, index, detail) in remove {
            let Some(node) = root.at_mut(&steps) else {
                continue;
            };
            if index >= node.rules.len() {
                continue;
            }
            let rule = node.rules.remove(index);
            let path = steps
                .iter()
                .map(|s| match s {
                    node::Step::Property(p) => format!(".{p}"),
                    node::Step::Items | node::Step::Additional => "[*]".to_owned(),
                })
                .collect::<String>();
            let origin = rule.origin.clone();
            notes.push(Note {
                tag: origin.as_ref().map(|o| o.tag.clone()).unwrap_or_default(),
                span: origin.and_then(|o| o.span),
                path: if path.is_empty() { "<root>".into() } else { path.trim_start_matches('.').to_owned() },
                reason: format!(
                    "the CEL rule `{}` is not published: the API server would refuse it ({detail}); bounds such as +k8s:maxItems and +k8s:maxLength on the values it reads make its cost estimable",
                    rule.rule
                ),
            });
        }
    }
}

/// A one-version CRD around `schema`.
fn wrap_crd(
    group: &str,
    version: &str,
    kind: &str,
    plural: &str,
    scope: Scope,
    schema: Value,
    status: bool,
) -> Value {
    let mut version_obj = Map::new();
    version_obj.insert("name".into(), json!(version));
    version_obj.insert("served".into(), json!(true));
    version_obj.insert("storage".into(), json!(true));
    version_obj.insert("schema".into(), json!({ "openAPIV3Schema": schema }));
    if status {
        version_obj.insert("subresources".into(), json!({"status": {}}));
    }
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": { "name": format!("{plural}.{group}") },
        "spec": {
            "group": group,
            "names": {
                "kind": kind,
                "listKind": format!("{kind}List"),
                "plural": plural,
                "singular": kind.to_lowercase(),
            },
            "scope": match scope { Scope::Namespaced => "Namespaced", Scope::Cluster => "Cluster" },
            "versions": [Value::Object(version_obj)],
        }
    })
}

/// The scope of a custom resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scope {
    /// Objects live in a namespace.
    #[default]
    Namespaced,
    /// Objects are cluster-wide.
    Cluster,
}

/// How to build a CRD ([`crd`]).
#[derive(Debug, Clone, Default)]
pub struct CrdOptions {
    /// The API group; default the package's `+groupName`.
    pub group: Option<String>,
    /// The version; default the last segment of the package path.
    pub version: Option<String>,
    /// The plural resource name; default the lowercase kind + `s`.
    pub plural: Option<String>,
    /// Namespaced (default) or cluster-scoped.
    pub scope: Scope,
    /// Enable the status subresource (when the type has a `status` property).
    pub status_subresource: bool,
    /// The schema options.
    pub emit: EmitOptions,
}

/// Why no CRD can be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CrdError {
    /// The package declares no `+groupName` and none was given.
    NoGroup {
        /// The type.
        type_name: String,
    },
    /// The type is not a struct.
    NotAStruct {
        /// The type.
        type_name: String,
    },
}

impl fmt::Display for CrdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CrdError::NoGroup { type_name } => write!(
                f,
                "no API group for {type_name}: its package has no +groupName (give one)"
            ),
            CrdError::NotAStruct { type_name } => {
                write!(
                    f,
                    "{type_name} is not a struct type, so it cannot be a kind"
                )
            }
        }
    }
}

impl std::error::Error for CrdError {}

/// A CustomResourceDefinition (`apiextensions.k8s.io/v1`) for the root type `ty`: group
/// from the package's `+groupName`, version from the package (its clause name, else its
/// path's last segment), kind = the type name,
/// plural = lowercase kind + `s`, the root's `apiVersion`, `kind` and `metadata` as
/// controller-gen writes them (the API server validates metadata itself, so rules of the
/// type's metadata field are notes), the other fields as [`emit`] gives them.
pub fn crd(rules: &RuleSet, ty: TypeId, opts: &CrdOptions) -> Result<Emitted, CrdError> {
    let t = rules.type_rules(ty);
    if !matches!(rules.shape(t.shape), kdv_rules::Shape::Struct(_)) {
        return Err(CrdError::NotAStruct {
            type_name: t.name.clone(),
        });
    }
    let group = opts
        .group
        .clone()
        .or_else(|| {
            rules
                .roots
                .iter()
                .find(|r| r.package == t.package && r.group.is_some())
                .and_then(|r| r.group.clone())
        })
        .ok_or_else(|| CrdError::NoGroup {
            type_name: t.name.clone(),
        })?;
    // The Go convention: the package is named for its version (`package v1` at
    // `.../apis/demo/v1`); the last path segment when the clause says otherwise.
    let version = opts.version.clone().unwrap_or_else(|| {
        let last = t.package.rsplit('/').next().unwrap_or(&t.package);
        if is_kube_version(&t.package_name) || !is_kube_version(last) {
            t.package_name.clone()
        } else {
            last.to_owned()
        }
    });
    let kind = t.name.clone();
    let plural = opts
        .plural
        .clone()
        .unwrap_or_else(|| format!("{}s", kind.to_lowercase()));
    let mut e = walk::Emitter::new(rules, &opts.emit);
    let mut root = e.value(t.shape, "", true, None);
    let mut notes = e.notes;
    // The metadata the server checks itself: whatever the type says about it stays out.
    if let Some(meta) = root.properties.get("metadata")
        && (!meta.properties.is_empty() || !meta.rules.is_empty())
    {
        notes.push(Note {
            tag: String::new(),
            span: None,
            path: "metadata".into(),
            reason: "a CRD's metadata schema is ObjectMeta's, which the API server validates itself; the type's rules on metadata are not published".into(),
        });
    }
    notes
        .retain(|n| (n.path != "metadata" || n.tag.is_empty()) && !n.path.starts_with("metadata."));
    root.required.remove("metadata");
    root.required.remove("apiVersion");
    root.required.remove("kind");
    root.rules.retain(|r| {
        r.field_path
            .as_deref()
            .is_none_or(|p| !matches!(p, ".metadata" | ".apiVersion" | ".kind"))
    });
    root.properties.insert(
        "apiVersion".into(),
        described("string", "APIVersion defines the versioned schema of this representation of an object.\nServers should convert recognized schemas to the latest internal value, and\nmay reject unrecognized values.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"),
    );
    root.properties.insert(
        "kind".into(),
        described("string", "Kind is a string value representing the REST resource this object represents.\nServers may infer this from the endpoint the client submits requests to.\nCannot be updated.\nIn CamelCase.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"),
    );
    let mut meta = node::Node::default();
    meta.keyword("type", json!("object"));
    root.properties.insert("metadata".into(), meta);
    let status = opts.status_subresource && root.properties.contains_key("status");
    let wrap = |schema| wrap_crd(&group, &version, &kind, &plural, opts.scope, schema, status);
    drop_refused_rules(&mut root, &mut notes, wrap);
    let crd = wrap(root.to_json());
    let mut rules_published = Vec::new();
    published(&root, "", &mut rules_published);
    Ok(Emitted {
        schema: crd,
        notes,
        published: rules_published,
    })
}

/// `v1`, `v1beta2`, `v2alpha1`.
fn is_kube_version(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('v') else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || rest.starts_with('0') {
        return false;
    }
    let tail = &rest[digits..];
    tail.is_empty()
        || ["alpha", "beta"].iter().any(|p| {
            tail.strip_prefix(p)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
}

fn described(ty: &str, description: &str) -> node::Node {
    let mut n = node::Node::default();
    n.keyword("description", json!(description));
    n.keyword("type", json!(ty));
    n
}
