//! `kdv explain --crd FILE|DIR KIND [FIELD.PATH]`: the rules a CustomResourceDefinition's
//! schema puts on a kind or one of its fields, each schema keyword and CEL rule at the
//! `file:line:col` where it is written (found with `kdv_manifest`'s locator, as `kdv
//! validate` locates errors), with the API server's enforcement on update: kube-openapi
//! ratcheting of value keywords, CEL ratcheting, transition rules and `optionalOldSelf`.
//! Everything in a CRD is enforced; there is no lifecycle prefix.
//!
//! The schema is read as written (no defaulting or structural checks: `kdv lint --crd` does
//! those); the version is `--api-version`, else the storage version.

use std::path::PathBuf;

use kdv_manifest::{Entry, Limits, Query, Step as LStep, Target};
use serde_json::Value;

use super::explanation::{
    Explanation, Rule, Step, compact, near_list, no_field, parse_path, path_text,
};
use crate::error::CliError;
use crate::file_name;
use crate::input::Stream;

/// Value keywords, in the order they are shown.
const VALUE_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "enum",
    "pattern",
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "required",
    "nullable",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "x-kubernetes-int-or-string",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-list-type",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-map-type",
    "default",
];

/// One CRD document that defines the kind.
struct Found<'a> {
    file: String,
    doc: kdv_manifest::Document<'a>,
}

/// The rules of `kind` (or of the field at `path` below it) in the CRDs of `paths`.
pub fn explain(
    paths: &[PathBuf],
    kind: &str,
    version: Option<&str>,
    path: Option<&str>,
) -> Result<Explanation, CliError> {
    let steps = match path {
        Some(p) => parse_path(p)?,
        None => Vec::new(),
    };
    let streams = read(paths)?;
    let (want_kind, want_group) = match kind.split_once('.') {
        Some((k, g)) => (k, Some(g)),
        None => (kind, None),
    };
    let mut found: Vec<Found<'_>> = Vec::new();
    let mut kinds: Vec<String> = Vec::new();
    for stream in &streams {
        let limits = Limits {
            max_document_bytes: super::MAX_CRD_DOCUMENT,
            ..Limits::default()
        };
        for entry in kdv_manifest::documents(stream.bytes(), stream.syntax, limits) {
            let Ok(Entry::Document(doc)) = entry else {
                continue;
            };
            if doc.value.get("kind").and_then(Value::as_str) != Some("CustomResourceDefinition") {
                continue;
            }
            let spec = &doc.value["spec"];
            let (Some(k), g) = (
                spec["names"]["kind"].as_str(),
                spec["group"].as_str().unwrap_or(""),
            ) else {
                continue;
            };
            kinds.push(k.to_string());
            if k == want_kind && want_group.is_none_or(|w| w == g) {
                found.push(Found {
                    file: stream.name.clone(),
                    doc,
                });
            }
        }
    }
    let crd = match found.len() {
        0 => {
            let names: Vec<&str> = kinds.iter().map(String::as_str).collect();
            return Err(CliError::Usage(if kinds.is_empty() {
                "--crd: no CustomResourceDefinition found".to_string()
            } else {
                format!(
                    "{kind}: no CRD defines this kind{}",
                    near_list(want_kind, &names)
                )
            }));
        }
        1 => &found[0],
        _ => {
            let groups: Vec<String> = found
                .iter()
                .map(|f| {
                    format!(
                        "{want_kind}.{} ({})",
                        f.doc.value["spec"]["group"].as_str().unwrap_or(""),
                        f.file
                    )
                })
                .collect();
            return Err(CliError::Usage(format!(
                "{kind}: several CRDs define it: {}; name one as Kind.group",
                groups.join(", ")
            )));
        }
    };
    let versions = crd.doc.value["spec"]["versions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let names: Vec<&str> = versions.iter().filter_map(|v| v["name"].as_str()).collect();
    let index = match version {
        Some(want) => versions
            .iter()
            .position(|v| v["name"].as_str() == Some(want))
            .ok_or_else(|| {
                CliError::Usage(format!(
                    "--api-version {want}: {want_kind} has the versions {}",
                    names.join(", ")
                ))
            })?,
        None => versions
            .iter()
            .position(|v| v["storage"] == Value::Bool(true))
            .or(if versions.len() == 1 { Some(0) } else { None })
            .ok_or_else(|| {
                CliError::Usage(format!(
                    "{want_kind}: no storage version; choose one with --api-version ({})",
                    names.join(", ")
                ))
            })?,
    };
    let version_name = names.get(index).copied().unwrap_or("");
    let Some(schema) = versions[index]["schema"].get("openAPIV3Schema") else {
        return Err(CliError::Usage(format!(
            "{want_kind} {version_name}: the version has no openAPIV3Schema"
        )));
    };
    // The written path of the schema root, as locator steps.
    let mut written: Vec<String> = vec![
        "spec".into(),
        "versions".into(),
        format!("#{index}"),
        "schema".into(),
        "openAPIV3Schema".into(),
    ];
    let mut node = schema;
    let mut parent: Option<(&Value, Vec<String>, String)> = None;
    for (i, step) in steps.iter().enumerate() {
        let so_far = path_text(&steps[..i]);
        match step {
            Step::Field(name) => {
                let Some(child) = node.get("properties").and_then(|p| p.get(name)) else {
                    return Err(no_field(want_kind, version_name, &steps, i, node, name));
                };
                parent = Some((node, written.clone(), name.clone()));
                written.push("properties".into());
                written.push(name.clone());
                node = child;
            }
            Step::Items => {
                let (key, child) = match (node.get("items"), node.get("additionalProperties")) {
                    (Some(c), _) => ("items", c),
                    (None, Some(c)) if c.is_object() => ("additionalProperties", c),
                    _ => {
                        return Err(CliError::Usage(format!(
                            "{want_kind} {version_name}: {so_far} is not a list or map, it has no items [*]"
                        )));
                    }
                };
                parent = None;
                written.push(key.into());
                node = child;
            }
        }
    }
    let p = path_text(&steps);
    let mut queries: Vec<(Vec<String>, Rule)> = Vec::new();
    if let Some((parent, at, name)) = &parent {
        let required = parent
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|x| x.as_str() == Some(name)));
        if required {
            let mut q = at.clone();
            q.push("required".into());
            queries.push((
                q,
                Rule {
                    path: p.clone(),
                    source: "required (on the parent)".into(),
                    location: None,
                    rule: "required: must be set".into(),
                    lifecycle: ENFORCED.into(),
                    ratcheting: "ratcheted: dropped on update when the object holding the field is unchanged from its correlated old value".into(),
                    published: PUBLISHED.into(),
                },
            ));
        }
    }
    node_rules(node, &written, &p, &mut queries);
    if steps.is_empty()
        && let Some(props) = node.get("properties").and_then(Value::as_object)
    {
        for (name, child) in props {
            let mut at = written.clone();
            at.push("properties".into());
            at.push(name.clone());
            node_rules(child, &at, name, &mut queries);
        }
    }
    // Positions: each rule's key in the CRD's text.
    let step_lists: Vec<Vec<LStep<'_>>> = queries
        .iter()
        .map(|(q, _)| {
            q.iter()
                .map(|s| match s.strip_prefix('#').and_then(|n| n.parse().ok()) {
                    Some(n) => LStep::Index(n),
                    None => LStep::Key(s),
                })
                .collect()
        })
        .collect();
    let qs: Vec<Query<'_>> = step_lists
        .iter()
        .map(|path| Query {
            path,
            target: Target::Key,
        })
        .collect();
    let positions = crd.doc.locate(&qs);
    let rules = queries
        .into_iter()
        .zip(positions)
        .map(|((_, mut rule), pos)| {
            rule.location = Some(format!("{}:{}:{}", crd.file, pos.line, pos.column));
            rule
        })
        .collect();
    let value_type = node
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("any")
        .to_string();
    Ok(Explanation {
        subject: if p.is_empty() {
            format!("{want_kind} {version_name}")
        } else {
            format!("{want_kind} {version_name} {p}")
        },
        value_type,
        rules,
    })
}

const ENFORCED: &str = "enforced: a CRD's schema has no lifecycle prefixes";
const PUBLISHED: &str = "the CRD's own schema";

/// The keywords and CEL rules written on one schema node, with the locator path of each.
fn node_rules(node: &Value, at: &[String], path: &str, out: &mut Vec<(Vec<String>, Rule)>) {
    keyword_rules(node, at, path, ENFORCED, PUBLISHED, out);
    cel_rules(node, at, path, out);
}

/// The value keywords of one schema node as rules (`lifecycle` and `published` say what
/// enforces them and what publishes them).
pub fn keyword_rules(
    node: &Value,
    at: &[String],
    path: &str,
    lifecycle: &str,
    published: &str,
    out: &mut Vec<(Vec<String>, Rule)>,
) {
    for &key in VALUE_KEYWORDS {
        let Some(value) = node.get(key) else { continue };
        let mut q = at.to_vec();
        q.push(key.to_string());
        out.push((
            q,
            Rule {
                path: path.to_string(),
                source: format!("{key}: {}", compact(value)),
                location: None,
                rule: keyword_words(key, value, node),
                lifecycle: lifecycle.into(),
                ratcheting: keyword_ratcheting(key).into(),
                published: published.into(),
            },
        ));
    }
}

/// The CEL rules (`x-kubernetes-validations`) of one schema node.
fn cel_rules(node: &Value, at: &[String], path: &str, out: &mut Vec<(Vec<String>, Rule)>) {
    let Some(rules) = node
        .get("x-kubernetes-validations")
        .and_then(Value::as_array)
    else {
        return;
    };
    for (i, r) in rules.iter().enumerate() {
        let rule = r.get("rule").and_then(Value::as_str).unwrap_or("");
        let mut q = at.to_vec();
        q.push("x-kubernetes-validations".into());
        q.push(format!("#{i}"));
        q.push("rule".into());
        let message = r
            .get("messageExpression")
            .and_then(Value::as_str)
            .map(|m| format!(" (messageExpression: {m})"))
            .or_else(|| {
                r.get("message")
                    .and_then(Value::as_str)
                    .map(|m| format!(" (message: {m:?})"))
            })
            .unwrap_or_default();
        let optional_old_self = r.get("optionalOldSelf") == Some(&Value::Bool(true));
        let ratcheting = if uses_old_self(rule) {
            if optional_old_self {
                "transition rule with optionalOldSelf: evaluated on every write, oldSelf an empty optional when there is no correlated old value; not ratcheted"
            } else {
                "transition rule (uses oldSelf): evaluated only on update with a correlated old value; not ratcheted"
            }
        } else {
            "ratcheted: on update, its error becomes a warning when the value (or its nearest correlatable ancestor) is unchanged"
        };
        out.push((
            q,
            Rule {
                path: path.to_string(),
                source: format!("x-kubernetes-validations[{i}]"),
                location: None,
                rule: format!("CEL: {rule}{message}"),
                lifecycle: ENFORCED.into(),
                ratcheting: ratcheting.into(),
                published: PUBLISHED.into(),
            },
        ));
    }
}

/// A keyword's rule in words.
fn keyword_words(key: &str, v: &Value, node: &Value) -> String {
    let c = compact(v);
    match key {
        "type" => format!("must be of type {}", v.as_str().unwrap_or(&c)),
        "format" => {
            let name = v.as_str().unwrap_or(&c);
            // kube-openapi checks a format only on string values, and only the formats of
            // its registry (`strfmt.Default`).
            let ty = node.get("type").and_then(Value::as_str);
            let numeric = matches!(
                (ty, name),
                (Some("integer"), "int32" | "int64") | (Some("number"), "float" | "double")
            );
            let range_checked = ["minimum", "maximum", "multipleOf"]
                .iter()
                .any(|k| node.get(*k).is_some());
            if numeric && range_checked {
                // kube-openapi's number validator parses the value as the format's type.
                format!("must fit the range of {name} (checked with the node's numeric bounds)")
            } else if ty != Some("string") {
                format!("format {name}: documentation only (formats are checked on strings)")
            } else if kdv_openapi::schema::FormatKind::of(name)
                == kdv_openapi::schema::FormatKind::Other
            {
                format!("format {name}: not checked (not in kube-openapi's format registry)")
            } else {
                format!("must have format {name}")
            }
        }
        "enum" => format!(
            "must be one of: {}",
            v.as_array()
                .map(|a| a.iter().map(compact).collect::<Vec<_>>().join(", "))
                .unwrap_or(c)
        ),
        "pattern" => format!("must match the regular expression {c}"),
        "minimum" => format!("must be greater than or equal to {c}"),
        "maximum" => format!("must be less than or equal to {c}"),
        "exclusiveMinimum" => format!("the minimum is exclusive: {c}"),
        "exclusiveMaximum" => format!("the maximum is exclusive: {c}"),
        "multipleOf" => format!("must be a multiple of {c}"),
        "minLength" => format!("must be at least {c} characters long"),
        "maxLength" => format!("must be no more than {c} characters long"),
        "minItems" => format!("must have at least {c} items"),
        "maxItems" => format!("must have at most {c} items"),
        "uniqueItems" => "items must be unique".into(),
        "minProperties" => format!("must have at least {c} properties"),
        "maxProperties" => format!("must have at most {c} properties"),
        "required" => format!("these fields must be set: {c}"),
        "nullable" => format!("null allowed: {c}"),
        "allOf" | "anyOf" | "oneOf" => {
            format!("{key}: {} schemas", v.as_array().map_or(0, Vec::len))
        }
        "not" => "must not match the `not` schema".into(),
        "x-kubernetes-list-type" => match v.as_str() {
            Some("set") => "a set: items must be unique".into(),
            Some("map") => "a map: items must be unique by their x-kubernetes-list-map-keys".into(),
            _ => format!("list type {c}"),
        },
        "x-kubernetes-list-map-keys" => format!("the keys of the list's items: {c}"),
        "default" => format!("defaulted to {c} when absent"),
        _ => format!("{key}: {c}"),
    }
}

/// How a keyword's errors behave on update.
fn keyword_ratcheting(key: &str) -> &'static str {
    match key {
        "x-kubernetes-list-type" | "x-kubernetes-list-map-keys" => {
            "duplicates are reported on update only if the old object had none"
        }
        "default"
        | "nullable"
        | "x-kubernetes-preserve-unknown-fields"
        | "x-kubernetes-embedded-resource"
        | "x-kubernetes-map-type" => "structural: applies to every write (not a validation error)",
        _ => {
            "ratcheted (KEP-4008): on update, dropped when the value is unchanged from its old value (a field, map entry or map-list item; an item of a set or atomic list only when the whole list is unchanged)"
        }
    }
}

/// Whether a CEL rule references `oldSelf` (a transition rule), from its parse; an
/// expression that does not parse is treated as not using it.
fn uses_old_self(rule: &str) -> bool {
    let Ok(parsed) = kdv_cel::parser::parse(rule) else {
        return false;
    };
    let mut stack = vec![&parsed.expr];
    while let Some(e) = stack.pop() {
        use kdv_cel::ast::ExprKind;
        match &e.kind {
            ExprKind::Ident(name) if name == "oldSelf" => return true,
            ExprKind::Literal(_) | ExprKind::Ident(_) => {}
            ExprKind::Select { operand, .. } => stack.push(operand),
            ExprKind::Call { target, args, .. } => {
                stack.extend(target.iter().map(|t| &**t));
                stack.extend(args.iter());
            }
            ExprKind::List { elements, .. } => stack.extend(elements.iter()),
            ExprKind::Map { entries } => {
                for en in entries {
                    stack.push(&en.key);
                    stack.push(&en.value);
                }
            }
            ExprKind::Struct { fields, .. } => stack.extend(fields.iter().map(|f| &f.value)),
            ExprKind::Comprehension(c) => stack.extend([
                &c.iter_range,
                &c.accu_init,
                &c.loop_condition,
                &c.loop_step,
                &c.result,
            ]),
        }
    }
    false
}

/// Reads every file the `--crd` paths name.
fn read(paths: &[PathBuf]) -> Result<Vec<Stream>, CliError> {
    let mut streams = Vec::new();
    for path in paths {
        let before = streams.len();
        super::for_each_crd_file(path, |_, stream| {
            streams.push(stream);
            Ok(())
        })?;
        if streams.len() == before {
            return Err(CliError::Schema(format!(
                "--crd {}: no CustomResourceDefinition found",
                file_name::display(path)
            )));
        }
    }
    Ok(streams)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_say_whether_kube_openapi_checks_them() {
        let words = |node: Value| keyword_words("format", &node["format"], &node);
        assert_eq!(
            words(serde_json::json!({"type": "string", "format": "uuid"})),
            "must have format uuid"
        );
        assert_eq!(
            words(serde_json::json!({"type": "string", "format": "int-or-name"})),
            "format int-or-name: not checked (not in kube-openapi's format registry)"
        );
        assert_eq!(
            words(serde_json::json!({"type": "integer", "format": "int32"})),
            "format int32: documentation only (formats are checked on strings)"
        );
        assert_eq!(
            words(serde_json::json!({"type": "integer", "format": "int32", "maximum": 5})),
            "must fit the range of int32 (checked with the node's numeric bounds)"
        );
    }

    #[test]
    fn transition_rules_are_found_by_parsing() {
        assert!(uses_old_self("self == oldSelf"));
        assert!(uses_old_self("self.all(x, x in oldSelf.items)"));
        assert!(!uses_old_self("self.oldSelf == 'oldSelf'"));
        assert!(!uses_old_self("self.x > 0"));
    }
}
