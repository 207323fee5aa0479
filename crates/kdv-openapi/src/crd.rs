//! CustomResourceDefinitions (`apiextensions.k8s.io/v1`) → one [`Resource`] per served
//! version.

use std::sync::Arc;

use kdv_manifest::{Entry, Limits, Query, Syntax, Target};
use serde_json::Value;

use crate::build::PathStep;
use crate::schema::{Arena, Node};
use crate::{LoadError, Resource, Scale, Source};

/// Largest schema document read (CRDs of large operators approach a few MiB).
const MAX_SCHEMA_DOCUMENT: usize = 64 << 20;

/// The names one CRD claims in its group, as the API server's naming controller sees them.
#[derive(Debug, Clone)]
pub(crate) struct ClaimedNames {
    /// `metadata.name`.
    pub name: String,
    pub group: String,
    /// Resource names (plural, singular, short names): one namespace in a group.
    pub resources: Vec<String>,
    /// Kind and list kind: another namespace in a group.
    pub kinds: Vec<String>,
    /// Where the CRD starts.
    pub file: String,
    pub line: u64,
    pub column: u64,
}

impl ClaimedNames {
    fn of(v: &Value, file: &str, at: kdv_manifest::Position) -> ClaimedNames {
        let text = |p: &str| {
            v.pointer(p)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let mut resources = vec![text("/spec/names/plural"), text("/spec/names/singular")];
        if let Some(Value::Array(short)) = v.pointer("/spec/names/shortNames") {
            resources.extend(short.iter().filter_map(Value::as_str).map(str::to_owned));
        }
        let mut list_kind = text("/spec/names/listKind");
        let kind = text("/spec/names/kind");
        if list_kind.is_empty() && !kind.is_empty() {
            // Defaulted by the API server.
            list_kind = format!("{kind}List");
        }
        resources.retain(|r| !r.is_empty());
        ClaimedNames {
            name: text("/metadata/name"),
            group: text("/spec/group"),
            resources,
            kinds: vec![kind, list_kind],
            file: file.to_owned(),
            line: at.line,
            column: at.column,
        }
    }

    /// Why the API server would not accept this CRD's names beside `other`'s (same group,
    /// another CRD): the naming controller's condition reason and message, first conflict
    /// in its order (plural, singular, short names, kind, list kind).
    pub(crate) fn conflict_with(&self, other: &ClaimedNames) -> Option<String> {
        if self.group != other.group || self.name == other.name {
            return None;
        }
        let reasons = ["PluralConflict", "SingularConflict"];
        for (i, r) in self.resources.iter().enumerate() {
            if other.resources.contains(r) {
                let reason = reasons.get(i).copied().unwrap_or("ShortNamesConflict");
                return Some(self.conflict_message(other, r, reason));
            }
        }
        for (k, reason) in self.kinds.iter().zip(["KindConflict", "ListKindConflict"]) {
            if !k.is_empty() && other.kinds.contains(k) {
                return Some(self.conflict_message(other, k, reason));
            }
        }
        None
    }

    fn conflict_message(&self, other: &ClaimedNames, name: &str, reason: &str) -> String {
        format!(
            "CustomResourceDefinition {:?} is not served: {name:?} is already in use by CustomResourceDefinition {:?} ({}:{}:{}); the API server sets its condition NamesAccepted=False, reason {reason}",
            self.name, other.name, other.file, other.line, other.column
        )
    }
}

/// One CRD of a stream: the names it claims and a resource per served version.
pub(crate) type LoadedCrd = (ClaimedNames, Vec<Arc<Resource>>);

/// Reads every CRD of a YAML/JSON stream: each CRD's names and its resources.
pub(crate) fn load(file: &str, bytes: &[u8], minor: u32) -> Result<Vec<LoadedCrd>, LoadError> {
    let limits = Limits {
        max_document_bytes: MAX_SCHEMA_DOCUMENT,
        ..Limits::default()
    };
    let mut out = Vec::new();
    for entry in kdv_manifest::documents(bytes, Syntax::Yaml, limits) {
        let doc = match entry {
            Ok(Entry::Document(doc)) => doc,
            Ok(Entry::Empty { .. }) => continue,
            Err(e) => {
                return Err(LoadError {
                    file: file.to_owned(),
                    line: e.position.line,
                    column: e.position.column,
                    message: e.message,
                });
            }
        };
        let error = |path: &[PathStep], message: String| {
            let steps: Vec<kdv_manifest::Step<'_>> = path.iter().map(PathStep::as_step).collect();
            let at = doc
                .locate(&[Query {
                    path: &steps,
                    target: Target::Value,
                }])
                .first()
                .copied()
                .unwrap_or(doc.position);
            LoadError {
                file: file.to_owned(),
                line: at.line,
                column: at.column,
                message,
            }
        };
        let v = &doc.value;
        let api_version = v.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
        if kind != "CustomResourceDefinition" || !api_version.starts_with("apiextensions.k8s.io/") {
            continue;
        }
        if api_version != "apiextensions.k8s.io/v1" {
            return Err(error(
                &[PathStep::Key("apiVersion".into())],
                format!(
                    "{api_version} CustomResourceDefinitions are not supported (removed in Kubernetes 1.22); convert it to apiextensions.k8s.io/v1"
                ),
            ));
        }
        // A CRD the API server would not create is not used (crd_validation).
        let compiled = crate::crd_validation::CompiledSchemas::default();
        let findings = crate::crd_validation::validate_crd_keeping(v, minor, Some(&compiled));
        if let Some(message) = findings.rejection_message(
            v.pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or(""),
        ) {
            let at = crate::crd_validation::rejection_position(&doc, &findings);
            return Err(LoadError {
                file: file.to_owned(),
                line: at.line,
                column: at.column,
                message,
            });
        }
        let resources = crd(v, &error, minor, &compiled)?;
        out.push((ClaimedNames::of(v, file, doc.position), resources));
    }
    Ok(out)
}

type ErrorAt<'a> = dyn Fn(&[PathStep], String) -> LoadError + 'a;

fn key(k: &str) -> PathStep {
    PathStep::Key(k.to_owned())
}

fn string<'v>(v: &'v Value, path: &[&str], error: &ErrorAt<'_>) -> Result<&'v str, LoadError> {
    let mut cur = v;
    for p in path {
        cur = cur.get(p).unwrap_or(&Value::Null);
    }
    match cur {
        Value::String(s) if !s.is_empty() => Ok(s),
        _ => Err(error(
            &path.iter().map(|p| key(p)).collect::<Vec<_>>(),
            format!("{} must be a non-empty string", path.join(".")),
        )),
    }
}

fn crd(
    v: &Value,
    error: &ErrorAt<'_>,
    minor: u32,
    compiled: &crate::crd_validation::CompiledSchemas,
) -> Result<Vec<Arc<Resource>>, LoadError> {
    let group = string(v, &["spec", "group"], error)?;
    let kind = string(v, &["spec", "names", "kind"], error)?;
    let namespaced = match v.pointer("/spec/scope").and_then(Value::as_str) {
        Some("Namespaced") => true,
        Some("Cluster") => false,
        _ => {
            return Err(error(
                &[key("spec"), key("scope")],
                "spec.scope must be Namespaced or Cluster".into(),
            ));
        }
    };
    let preserve_unknown = v
        .pointer("/spec/preserveUnknownFields")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let Some(Value::Array(versions)) = v.pointer("/spec/versions") else {
        return Err(error(
            &[key("spec"), key("versions")],
            "spec.versions must be a list".into(),
        ));
    };
    let mut out = Vec::new();
    for (i, ver) in versions.iter().enumerate() {
        let at = |k: &[&str]| {
            let mut p = vec![key("spec"), key("versions"), PathStep::Index(i)];
            p.extend(k.iter().map(|s| key(s)));
            p
        };
        let name = match ver.get("name") {
            Some(Value::String(s)) if !s.is_empty() => s.as_str(),
            _ => return Err(error(&at(&["name"]), "a version needs a name".into())),
        };
        if ver.get("served").and_then(Value::as_bool) != Some(true) {
            continue;
        }
        let (arena, root) = match ver.pointer("/schema/openAPIV3Schema") {
            // The write-time checks compiled it for its rules, in the same form.
            Some(schema @ Value::Object(_))
                if !preserve_unknown && let Some(c) = compiled.take(schema) =>
            {
                c
            }
            Some(schema @ Value::Object(_)) => crate::build::compile_crd_schema(
                schema,
                at(&["schema", "openAPIV3Schema"]),
                minor,
                preserve_unknown,
            )
            .map_err(|e| error(&e.path, e.message))?,
            _ => {
                // No schema: everything is kept (only possible with preserveUnknownFields).
                let mut arena = Arena::new();
                let mut node = Node::empty();
                node.extensions.preserve_unknown_fields = true;
                let root = arena.push(node);
                arena.finish();
                (arena, root)
            }
        };
        let status = ver
            .pointer("/subresources/status")
            .is_some_and(Value::is_object);
        let scale = match ver.pointer("/subresources/scale") {
            Some(Value::Object(s)) => Some(Scale {
                spec_replicas_path: s
                    .get("specReplicasPath")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned(),
                status_replicas_path: s
                    .get("statusReplicasPath")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned(),
                label_selector_path: s
                    .get("labelSelectorPath")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            }),
            _ => None,
        };
        out.push(Arc::new(
            Resource::new(
                kind,
                group,
                name,
                Some(namespaced),
                arena,
                root,
                Source::Crd {
                    status_subresource: status,
                    scale,
                },
            )
            .with_kubernetes_minor(minor),
        ));
    }
    Ok(out)
}
