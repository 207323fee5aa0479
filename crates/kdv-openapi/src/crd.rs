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

/// Reads every CRD of a YAML/JSON stream.
pub(crate) fn load(file: &str, bytes: &[u8], minor: u32) -> Result<Vec<Arc<Resource>>, LoadError> {
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
        let findings = crate::crd_validation::validate_crd_for(v, minor);
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
        out.extend(crd(v, &error, minor)?);
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

fn crd(v: &Value, error: &ErrorAt<'_>, minor: u32) -> Result<Vec<Arc<Resource>>, LoadError> {
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
