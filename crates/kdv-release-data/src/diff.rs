//! Differences between two sets of reduced documents, by kind.
//!
//! A difference is a missing or extra document, or one JSON member or value that differs
//! inside a document. Its *class* is its location with the names of schemas, properties and
//! paths replaced by placeholders (`S`, `P`, `PATH`) and array indexes by `[]`, plus what
//! differs (`missing`, `extra`, `changed`), e.g. `components/schemas/S/properties/P/default
//! missing`: a property default the converted document lacks.

use std::collections::BTreeMap;

use serde_json::Value;

/// One difference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The document path (`apis/apps/v1`).
    pub document: String,
    /// Where in the document (`/components/schemas/X/properties/y/default`), empty for a
    /// whole document.
    pub at: String,
    /// What the expected side holds there (JSON, shortened), `<absent>` if nothing.
    pub expected: String,
    /// What the actual side holds there.
    pub actual: String,
    /// The class (see the module documentation).
    pub class: String,
}

/// The differences of `actual` from `expected` (both: document path → reduced document).
pub fn compare(
    expected: &BTreeMap<String, Value>,
    actual: &BTreeMap<String, Value>,
) -> Vec<Difference> {
    let mut out = Vec::new();
    for (path, e) in expected {
        match actual.get(path) {
            Some(a) => diff_value(path, e, a, &mut Vec::new(), &mut out),
            None => out.push(Difference {
                document: path.clone(),
                at: String::new(),
                expected: "document".into(),
                actual: "<absent>".into(),
                class: "document missing".into(),
            }),
        }
    }
    for path in actual.keys().filter(|p| !expected.contains_key(*p)) {
        out.push(Difference {
            document: path.clone(),
            at: String::new(),
            expected: "<absent>".into(),
            actual: "document".into(),
            class: "document extra".into(),
        });
    }
    out
}

fn diff_value(
    document: &str,
    e: &Value,
    a: &Value,
    at: &mut Vec<String>,
    out: &mut Vec<Difference>,
) {
    match (e, a) {
        (Value::Object(em), Value::Object(am)) => {
            for (k, ev) in em {
                at.push(k.clone());
                match am.get(k) {
                    Some(av) => diff_value(document, ev, av, at, out),
                    None => out.push(difference(document, at, Some(ev), None, "missing")),
                }
                at.pop();
            }
            for (k, av) in am.iter().filter(|(k, _)| !em.contains_key(*k)) {
                at.push(k.clone());
                out.push(difference(document, at, None, Some(av), "extra"));
                at.pop();
            }
        }
        (Value::Array(ea), Value::Array(aa)) if ea.len() == aa.len() => {
            for (i, (ev, av)) in ea.iter().zip(aa).enumerate() {
                at.push(format!("[{i}]"));
                diff_value(document, ev, av, at, out);
                at.pop();
            }
        }
        _ if e == a => {}
        _ => out.push(difference(document, at, Some(e), Some(a), "changed")),
    }
}

fn difference(
    document: &str,
    at: &[String],
    expected: Option<&Value>,
    actual: Option<&Value>,
    what: &str,
) -> Difference {
    Difference {
        document: document.to_string(),
        at: pointer(at),
        expected: expected.map_or("<absent>".into(), short),
        actual: actual.map_or("<absent>".into(), short),
        class: format!("{} {what}", class_of(at)),
    }
}

/// A location as a JSON pointer (array indexes as `[i]` segments).
fn pointer(at: &[String]) -> String {
    at.iter()
        .map(|s| {
            if s.starts_with('[') {
                s.clone()
            } else {
                format!("/{}", s.replace('~', "~0").replace('/', "~1"))
            }
        })
        .collect()
}

/// The class of a location: names replaced by placeholders, indexes by `[]`.
fn class_of(at: &[String]) -> String {
    let mut out: Vec<&str> = Vec::new();
    let mut named_next: Option<&'static str> = None;
    for segment in at {
        if segment.starts_with('[') {
            out.push("[]");
            continue;
        }
        if let Some(placeholder) = named_next.take() {
            out.push(placeholder);
            continue;
        }
        named_next = match (out.as_slice(), segment.as_str()) {
            ([], "paths") => Some("PATH"),
            (["components"], "schemas") => Some("S"),
            (["components"], _) => Some("NAME"),
            (_, "properties" | "patternProperties") => Some("P"),
            _ => None,
        };
        out.push(segment);
    }
    let mut text = String::new();
    for segment in out {
        if !text.is_empty() && segment != "[]" {
            text.push('/');
        }
        text.push_str(segment);
    }
    text
}

fn short(v: &Value) -> String {
    let text = v.to_string();
    if text.len() > 120 {
        let mut end = 117;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &text[..end])
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn at(segments: &[&str]) -> Vec<String> {
        segments.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn classes_replace_names() {
        assert_eq!(
            class_of(&at(&[
                "components",
                "schemas",
                "io.k8s.X",
                "properties",
                "spec",
                "default"
            ])),
            "components/schemas/S/properties/P/default"
        );
        assert_eq!(
            class_of(&at(&[
                "components",
                "schemas",
                "X",
                "properties",
                "a",
                "items",
                "allOf",
                "[0]",
                "$ref"
            ])),
            "components/schemas/S/properties/P/items/allOf[]/$ref"
        );
        assert_eq!(
            class_of(&at(&[
                "paths",
                "/api/v1/pods",
                "get",
                "x-kubernetes-action"
            ])),
            "paths/PATH/get/x-kubernetes-action"
        );
        assert_eq!(
            class_of(&at(&["components", "securitySchemes", "BearerToken", "in"])),
            "components/securitySchemes/NAME/in"
        );
        assert_eq!(
            pointer(&at(&["paths", "/api/v1", "get"])),
            "/paths/~1api~1v1/get"
        );
    }

    #[test]
    fn differences_by_kind() {
        let expected = BTreeMap::from([
            (
                "api/v1".to_string(),
                json!({"components": {"schemas": {"A": {"properties": {"x": {"default": 0, "type": "integer"}}}}}}),
            ),
            ("apis/a/v1".to_string(), json!({})),
        ]);
        let actual = BTreeMap::from([
            (
                "api/v1".to_string(),
                json!({"components": {"schemas": {"A": {"properties": {"x": {"type": "string"}}}}}}),
            ),
            ("apis/b/v1".to_string(), json!({})),
        ]);
        let classes: Vec<String> = compare(&expected, &actual)
            .into_iter()
            .map(|d| d.class)
            .collect();
        assert_eq!(
            classes,
            [
                "components/schemas/S/properties/P/default missing",
                "components/schemas/S/properties/P/type changed",
                "document missing",
                "document extra",
            ]
        );
        assert!(compare(&expected, &expected).is_empty());
    }
}
