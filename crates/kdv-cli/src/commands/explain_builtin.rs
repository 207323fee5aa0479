//! `kdv explain KIND [FIELD.PATH]` with no `--types` and no `--crd`: a built-in kind of the
//! release (`--k8s-version`), with both sources of its rules — the checks of the release's
//! published OpenAPI document (the schema keywords kdv checks, as kubectl-validate does) and
//! the release's declarative `+k8s:` rules from kubernetes/api (what the API server's
//! declarative validation runs), each with where it is written.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::explain_crd::keyword_rules;
use super::explanation::{Explanation, Rule, Step, near_list, no_field, path_text};
use super::release::Release;
use crate::error::CliError;

const PUBLISHED_LIFECYCLE: &str = "checked by kdv as kubectl-validate checks the published schema; the API server enforces the same through its hand-written validation";
const PUBLISHED_SOURCE: &str = "the release's published OpenAPI document";

/// One document definition of a kind.
struct Candidate {
    group: String,
    version: String,
    /// The document the definition is read from (its group-version first).
    document: &'static kdv_k8s_openapi::Document,
    definition: String,
}

impl Candidate {
    fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }
}

/// Explains a built-in kind (`Kind`, `Kind.group`; `--api-version` picks a version) of the
/// release, or a field below it.
pub fn explain(
    name: &str,
    api_version: Option<&str>,
    path: Option<&str>,
    release: &Release,
) -> Result<Explanation, CliError> {
    let steps = match path {
        Some(p) => super::explanation::parse_path(p)?,
        None => Vec::new(),
    };
    let (want_kind, want_group) = match name.split_once('.') {
        Some((k, g)) => (k, Some(g)),
        None => (name, None),
    };
    let mut candidates = Vec::new();
    let mut kinds = BTreeSet::new();
    let mut parsed: Vec<(&'static kdv_k8s_openapi::Document, Value)> = Vec::new();
    for document in kdv_k8s_openapi::documents(release.version) {
        let bytes = document
            .load()
            .map_err(|e| CliError::Schema(e.to_string()))?;
        let json: Value =
            serde_json::from_slice(&bytes).map_err(|e| CliError::Schema(e.to_string()))?;
        for (definition, schema) in schemas(&json) {
            let Some([gvk]) = schema
                .get("x-kubernetes-group-version-kind")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
            else {
                continue;
            };
            let field = |k: &str| gvk.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            let (group, version, kind) = (field("group"), field("version"), field("kind"));
            let own = document.group_version() == gv(&group, &version);
            if !own || kind.ends_with("List") {
                continue;
            }
            kinds.insert(kind.clone());
            let fits = kind == want_kind
                && want_group.is_none_or(|g| g == group || (g.is_empty() && group.is_empty()))
                && api_version.is_none_or(|v| v == gv(&group, &version) || v == version);
            if fits {
                candidates.push(Candidate {
                    group,
                    version,
                    document,
                    definition: definition.clone(),
                });
            }
        }
        parsed.push((document, json));
    }
    let groups: BTreeSet<&str> = candidates.iter().map(|c| c.group.as_str()).collect();
    let chosen = match (candidates.len(), groups.len()) {
        (0, _) => {
            let names: Vec<&str> = kinds.iter().map(String::as_str).collect();
            return Err(CliError::Usage(format!(
                "{name}: no built-in kind of Kubernetes {} has this name{}",
                release.version,
                near_list(want_kind, &names)
            )));
        }
        (_, 1) => candidates
            .iter()
            .max_by_key(|c| version_priority(&c.version))
            .expect("candidates"),
        _ => {
            let names: Vec<String> = groups
                .iter()
                .map(|g| {
                    if g.is_empty() {
                        format!("{want_kind} (core)")
                    } else {
                        format!("{want_kind}.{g}")
                    }
                })
                .collect();
            return Err(CliError::Usage(format!(
                "{name}: several API groups have this kind: {}; name one as Kind.group (Kind. for the core group)",
                names.join(", ")
            )));
        }
    };
    let api_version = chosen.api_version();
    let document = &parsed
        .iter()
        .find(|(d, _)| std::ptr::eq(*d, chosen.document))
        .expect("parsed")
        .1;
    let defs = schemas(document);
    let file = format!(
        "<kubernetes {}>/{}.json",
        release.version,
        chosen.document.path()
    );

    // The published schema along the path.
    let mut node = resolve(defs, defs.get(&chosen.definition).unwrap_or(&Value::Null));
    let mut parent: Option<(Value, String)> = None;
    for (i, step) in steps.iter().enumerate() {
        let so_far = path_text(&steps[..i]);
        match step {
            Step::Field(field) => {
                let Some(child) = node.get("properties").and_then(|p| p.get(field)) else {
                    return Err(no_field(want_kind, &api_version, &steps, i, &node, field));
                };
                let child = resolve(defs, child);
                parent = Some((node, field.clone()));
                node = child;
            }
            Step::Items => {
                let child = match (node.get("items"), node.get("additionalProperties")) {
                    (Some(c), _) => c.clone(),
                    (None, Some(c)) if c.is_object() => c.clone(),
                    _ => {
                        return Err(CliError::Usage(format!(
                            "{want_kind} {api_version}: {so_far} is not a list or map, it has no items [*]"
                        )));
                    }
                };
                parent = None;
                node = resolve(defs, &child);
            }
        }
    }
    let p = path_text(&steps);
    let mut found: Vec<(Vec<String>, Rule)> = Vec::new();
    if let Some((parent, field)) = &parent
        && parent
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|x| x.as_str() == Some(field)))
    {
        found.push((
            Vec::new(),
            Rule {
                path: p.clone(),
                source: "required (on the parent)".into(),
                location: None,
                rule: "required: must be set".into(),
                lifecycle: PUBLISHED_LIFECYCLE.into(),
                ratcheting: "ratcheted: dropped on update when the object holding the field is unchanged from its correlated old value".into(),
                published: PUBLISHED_SOURCE.into(),
            },
        ));
    }
    keyword_rules(
        &node,
        &[],
        &p,
        PUBLISHED_LIFECYCLE,
        PUBLISHED_SOURCE,
        &mut found,
    );
    let mut rules: Vec<Rule> = found
        .into_iter()
        .map(|(_, mut r)| {
            r.location = Some(file.clone());
            r.source = format!("OpenAPI {}", r.source);
            r
        })
        .collect();

    // The declarative rules of the release.
    let mut value_type = node
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("any")
        .to_string();
    if let Some(declarative) = release.builtin_rules()
        && let Some(kind) = declarative
            .kind(&api_version, want_kind)
            .map_err(|e| CliError::Schema(e.to_string()))?
    {
        let go = super::explain_types::explain(kind.rules(), kind.type_id(), &steps)?;
        value_type = go.value_type;
        rules.extend(go.rules);
    }
    let subject = if p.is_empty() {
        format!("{want_kind} {api_version} (Kubernetes {})", release.version)
    } else {
        format!(
            "{want_kind} {api_version} {p} (Kubernetes {})",
            release.version
        )
    };
    Ok(Explanation {
        subject,
        value_type,
        rules,
    })
}

fn gv(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    }
}

/// The definitions of a document (`components.schemas`).
fn schemas(document: &Value) -> &Map<String, Value> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    document
        .get("components")
        .and_then(|c| c.get("schemas"))
        .and_then(Value::as_object)
        .unwrap_or_else(|| EMPTY.get_or_init(Map::new))
}

/// A schema node with its `$ref` (or `allOf: [{$ref}]`, as v3 documents wrap a reference
/// with siblings) replaced by the referenced definition, the node's own keywords winning.
fn resolve(defs: &Map<String, Value>, node: &Value) -> Value {
    let mut current = node.clone();
    // Bounded: a definition may refer to another, never in a cycle at the top.
    for _ in 0..8 {
        let reference = current
            .get("$ref")
            .and_then(Value::as_str)
            .or_else(|| {
                current
                    .get("allOf")
                    .and_then(Value::as_array)
                    .and_then(|a| match a.as_slice() {
                        [one] => one.get("$ref").and_then(Value::as_str),
                        _ => None,
                    })
            })
            .map(str::to_string);
        let Some(reference) = reference else {
            break;
        };
        let name = reference.rsplit('/').next().unwrap_or("");
        let Some(Value::Object(target)) = defs.get(name) else {
            break;
        };
        let mut merged = target.clone();
        if let Value::Object(own) = &current {
            for (k, v) in own {
                if k != "$ref" && k != "allOf" {
                    merged.insert(k.clone(), v.clone());
                }
            }
        }
        current = Value::Object(merged);
    }
    current
}

/// How preferred an API version is: stable over beta over alpha, newer first (`v2` over
/// `v1`, `v1beta2` over `v1beta1`).
fn version_priority(version: &str) -> (u8, u32, u32) {
    let rest = version.strip_prefix('v').unwrap_or(version);
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let major = digits.parse().unwrap_or(0);
    let tail = &rest[digits.len()..];
    let (level, n) = if let Some(n) = tail.strip_prefix("beta") {
        (1, n.parse().unwrap_or(0))
    } else if let Some(n) = tail.strip_prefix("alpha") {
        (0, n.parse().unwrap_or(0))
    } else {
        (2, 0)
    };
    (level, major, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preferred_versions() {
        let mut v = ["v1beta1", "v1", "v1alpha3", "v1beta2", "v2"];
        v.sort_by_key(|x| std::cmp::Reverse(version_priority(x)));
        assert_eq!(v, ["v2", "v1", "v1beta2", "v1beta1", "v1alpha3"]);
    }
}
