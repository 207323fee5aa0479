//! The properties the reader must have on any input, checked by the `manifest_reader` fuzz
//! target and by this crate's property tests (one body, two drivers). Not part of the API.
//!
//! On any bytes, as a YAML stream and as a JSON text:
//! - reading never panics and ends; document indices strictly increase;
//! - every position (documents, errors, located fields) lies inside the input (lines and
//!   columns from 1, lines at most the input's line count);
//! - every field path that exists in a document's value is located, at a line of that
//!   document;
//! - differential: when serde-saphyr parses the whole stream with the same options, reading
//!   it document by document gives no error and the same non-null values (after the number
//!   conversion the reader applies), so cutting the stream at markers changes nothing for
//!   well-formed input.

use serde_json::Value;

use crate::{Entry, Limits, Position, Query, Step, Syntax, Target, documents, yaml};

/// Checks every property above on `bytes`; panics on a violation.
pub fn check(bytes: &[u8]) {
    let lines = 1 + line_breaks(bytes);
    for syntax in [Syntax::Yaml, Syntax::Json] {
        let mut last = None;
        let mut values = Vec::new();
        let mut failed = false;
        for entry in documents(bytes, syntax, Limits::default()) {
            let (index, position) = match &entry {
                Ok(Entry::Document(d)) => (d.index, d.position),
                Ok(Entry::Empty { index, line }) => (
                    *index,
                    Position {
                        line: *line,
                        column: 1,
                    },
                ),
                Err(e) => {
                    assert!(!e.message.is_empty(), "empty message: {e:?}");
                    failed = true;
                    (e.index, e.position)
                }
            };
            assert!(last < Some(index), "indices must increase: {entry:?}");
            last = Some(index);
            assert!(
                (1..=lines).contains(&position.line) && position.column >= 1,
                "position outside the input: {entry:?}"
            );
            if let Ok(Entry::Document(d)) = &entry {
                located_within(d, lines);
                values.push(d.value.clone());
            }
        }
        if syntax == Syntax::Yaml
            && let Ok(text) = std::str::from_utf8(bytes)
            && let Some(whole) = whole_stream(text)
        {
            assert!(!failed, "the whole stream parses, a document did not");
            assert_eq!(values, whole, "documents differ from the whole stream's");
        }
    }
}

fn line_breaks(bytes: &[u8]) -> u64 {
    let mut n = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {}
            b'\n' | b'\r' => n += 1,
            _ => {}
        }
        i += 1;
    }
    n
}

/// Locates every path of the document's value (a bounded number) and checks the results.
fn located_within(doc: &crate::Document<'_>, lines: u64) {
    let mut paths = Vec::new();
    collect_paths(&doc.value, &mut Vec::new(), &mut paths);
    let queries: Vec<Query<'_>> = paths
        .iter()
        .flat_map(|path| {
            [Target::Value, Target::Key, Target::MapKey("a")].map(|target| Query { path, target })
        })
        .collect();
    let first = doc.position.line.min(doc.first_line);
    let last = doc.first_line + line_breaks(doc.text().as_bytes());
    for found in doc.locate(&queries) {
        assert!(
            (first..=last.min(lines)).contains(&found.line) && found.column >= 1,
            "located outside the document: {found:?} not in {first}..={last}"
        );
    }
}

fn collect_paths<'v>(value: &'v Value, at: &mut Vec<Step<'v>>, out: &mut Vec<Vec<Step<'v>>>) {
    if out.len() >= 64 {
        return;
    }
    out.push(at.clone());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                at.push(Step::Key(k));
                collect_paths(v, at, out);
                at.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                at.push(Step::Index(i));
                collect_paths(v, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

/// The non-null documents serde-saphyr reads from the whole stream with the reader's
/// options, numbers converted as the reader converts them; `None` if it fails.
fn whole_stream(text: &str) -> Option<Vec<Value>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let values: Vec<Value> =
        serde_saphyr::from_multiple_with_options(text, yaml::options(text)).ok()?;
    Some(
        values
            .into_iter()
            .map(convert_numbers)
            .filter(|v| !v.is_null())
            .collect(),
    )
}

fn convert_numbers(value: Value) -> Value {
    match value {
        Value::Number(n) if n.is_f64() => n
            .as_f64()
            .and_then(yaml::json_number_of_float)
            .map_or(Value::Null, Value::Number),
        Value::Array(items) => Value::Array(items.into_iter().map(convert_numbers).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, convert_numbers(v)))
                .collect(),
        ),
        other => other,
    }
}
