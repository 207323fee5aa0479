//! What `kdv explain` (Go and Rust types, and CRDs) produces and how it prints: the rules
//! of one type or field, the JSON paths that select them (`spec.ports[*].port`), and the
//! nearest names offered when a name is unknown. Both sources (`explain` for types,
//! `explain_crd` for CRD schemas) build an [`Explanation`].

use kdv_model::suggest::edit_distance;
use serde::Serialize;

use crate::error::CliError;

/// One rule as `kdv explain` shows it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Rule {
    /// JSON path of the value the rule applies to, relative to the explained type (empty:
    /// the type's value itself).
    pub path: String,
    /// The tag as written (or, for CRDs, the schema keyword).
    pub source: String,
    /// `file:line:col` of the tag or keyword; `None` when no position is known.
    pub location: Option<String>,
    /// What the rule requires, in words.
    pub rule: String,
    /// `alpha`, `beta` or `stable`, with what that means for enforcement.
    pub lifecycle: String,
    /// What happens on update.
    pub ratcheting: String,
    /// What a published schema carries for it.
    pub published: String,
}

/// The rules of one type or field.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Explanation {
    /// `Widget`, `Widget spec.replicas`.
    pub subject: String,
    /// The value's type (`*int32`, `WidgetSpec`) or schema type.
    pub value_type: String,
    /// The effective rules, in the order validation runs them.
    pub rules: Vec<Rule>,
}

/// A JSON value on one line, as rules and keywords are shown.
pub fn compact(v: &serde_json::Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// `; did you mean: a, b` for the names nearest to `name` (all when there are few).
pub fn near_list(name: &str, names: &[&str]) -> String {
    let near = nearest(name, names);
    if near.is_empty() {
        String::new()
    } else {
        format!("; nearest: {}", near.join(", "))
    }
}

/// Up to five names, nearest first (edit distance, case-insensitive); ties by name.
pub fn nearest(name: &str, names: &[&str]) -> Vec<String> {
    let lower = name.to_lowercase();
    let mut scored: Vec<(usize, &str)> = names
        .iter()
        .map(|n| (edit_distance(&lower, &n.to_lowercase()), *n))
        .collect();
    scored.sort();
    scored.dedup();
    scored
        .into_iter()
        .take(5)
        .map(|(_, n)| n.to_string())
        .collect()
}

/// The usage error for a field path whose step `i` names no property of the schema
/// `node` (JSON, `properties` keyed by name) of kind `kind` in version `version`.
pub fn no_field(
    kind: &str,
    version: &str,
    steps: &[Step],
    i: usize,
    node: &serde_json::Value,
    field: &str,
) -> CliError {
    let props: Vec<&str> = node
        .get("properties")
        .and_then(serde_json::Value::as_object)
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let so_far = path_text(&steps[..i]);
    CliError::Usage(format!(
        "{kind} {version}: no field {} in {}{}",
        path_text(&steps[..=i]),
        if so_far.is_empty() { kind } else { &so_far },
        near_list(field, &props)
    ))
}

/// One step of a field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A field (or a map key written literally).
    Field(String),
    /// Every item of a list, every value of a map: `[*]` or `[]`.
    Items,
}

/// `spec.ports[*].port` → steps.
pub fn parse_path(text: &str) -> Result<Vec<Step>, CliError> {
    let bad = |why: &str| {
        // A path is echoed whole up to a line's worth, so a pasted blob stays readable.
        const ECHO: usize = 120;
        let shown = match text.char_indices().nth(ECHO) {
            Some((cut, _)) => format!("{:?}… ({} bytes)", &text[..cut], text.len()),
            None => format!("{text:?}"),
        };
        CliError::Usage(format!(
            "{shown}: {why} (expected a JSON path such as spec.replicas or spec.ports[*].port)"
        ))
    };
    let mut steps = Vec::new();
    let mut rest = text;
    let mut first = true;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("[*]").or_else(|| rest.strip_prefix("[]")) {
            if first {
                return Err(bad("a path starts with a field name"));
            }
            steps.push(Step::Items);
            rest = r;
            continue;
        }
        if rest.starts_with('[') {
            return Err(bad("list items and map values are written [*]"));
        }
        if !first {
            rest = rest
                .strip_prefix('.')
                .ok_or_else(|| bad("expected `.` between fields"))?;
        }
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        if end == 0 {
            return Err(bad("empty field name"));
        }
        steps.push(Step::Field(rest[..end].to_string()));
        rest = &rest[end..];
        first = false;
    }
    if steps.is_empty() {
        return Err(bad("empty path"));
    }
    Ok(steps)
}

/// `spec.ports[*].port` from steps.
pub fn path_text(steps: &[Step]) -> String {
    let mut s = String::new();
    for st in steps {
        match st {
            Step::Field(f) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(f);
            }
            Step::Items => s.push_str("[*]"),
        }
    }
    s
}

/// The text form.
pub fn render(e: &Explanation) -> String {
    let mut s = format!("{} ({})\n", e.subject, e.value_type);
    if e.rules.is_empty() {
        s.push_str("  no rules\n");
    }
    for r in &e.rules {
        s.push('\n');
        let path = if r.path.is_empty() {
            String::new()
        } else {
            format!("{}: ", r.path)
        };
        s.push_str(&format!(
            "  {path}{}  {}\n",
            r.source,
            r.location.as_deref().unwrap_or("(no source line)")
        ));
        for (label, value) in [
            ("rule", &r.rule),
            ("lifecycle", &r.lifecycle),
            ("ratcheting", &r.ratcheting),
            ("published", &r.published),
        ] {
            s.push_str(&format!("    {label:<11} {value}\n"));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_bad_paths_are_echoed_cut() {
        let long = "a.".repeat(5000);
        let Err(CliError::Usage(message)) = parse_path(&long) else {
            panic!("a trailing dot is an error");
        };
        assert!(message.len() < 300, "{message}");
        assert!(message.ends_with("… (10000 bytes): empty field name (expected a JSON path such as spec.replicas or spec.ports[*].port)"), "{message}");
    }

    #[test]
    fn paths_parse() {
        assert_eq!(
            parse_path("spec.ports[*].port").unwrap(),
            vec![
                Step::Field("spec".into()),
                Step::Field("ports".into()),
                Step::Items,
                Step::Field("port".into())
            ]
        );
        assert_eq!(
            parse_path("spec.zones[]").unwrap(),
            vec![
                Step::Field("spec".into()),
                Step::Field("zones".into()),
                Step::Items
            ]
        );
        assert_eq!(path_text(&parse_path("a[]").unwrap()), "a[*]");
        for bad in ["", "[*]", "a..b", "a[0]", "a.", ".a"] {
            assert!(parse_path(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn nearest_names() {
        assert_eq!(
            nearest("replica", &["image", "replicas", "tier", "ports"]),
            vec!["replicas", "ports", "tier", "image"]
        );
    }
}
