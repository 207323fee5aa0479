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
//!   well-formed input;
//! - the fast reader agrees with the full path: for every document it reads, the value, the
//!   root position and the located position of every path (and of missing ones) are the
//!   full path's ([`check_fast`]).

use serde_json::Value;

use crate::{
    Entry, Limits, Position, Query, Step, Syntax, Target, documents, fast, locate, split, yaml,
};

/// Checks every property above on `bytes`; panics on a violation.
pub fn check(bytes: &[u8]) {
    check_fast(bytes);
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

/// The value of one YAML document's text as the full path (serde-saphyr) reads it, skipping
/// the fast reader: for benchmarks comparing the two.
pub fn read_full(text: &str) -> Option<Value> {
    match yaml::parse_full(text) {
        Ok(yaml::Parsed::Value(value, _)) => Some(value),
        _ => None,
    }
}

/// The value of one YAML document's text as the fast reader reads it; `None` outside its
/// subset.
pub fn read_fast(text: &str) -> Option<Value> {
    fast::parse(text).map(|(value, _)| value)
}

/// Checks that the fast reader agrees with the full path on every YAML document of `bytes`
/// it reads; panics on a difference. Returns how many documents it read.
pub fn check_fast(bytes: &[u8]) -> usize {
    let mut read = 0;
    for raw in split::split_yaml(bytes) {
        let Ok(text) = std::str::from_utf8(raw.bytes) else {
            continue;
        };
        let Some((value, at)) = fast::parse(text) else {
            continue;
        };
        read += 1;
        match yaml::parse_full(text) {
            Ok(yaml::Parsed::Value(full, full_at)) => {
                assert_eq!(value, full, "fast and full values differ for {text:?}");
                assert_eq!(
                    at, full_at,
                    "fast and full root positions differ for {text:?}"
                );
            }
            Ok(_) => panic!("the fast reader read {text:?}, the full path found no value"),
            Err(e) => panic!(
                "the fast reader read {text:?}, the full path failed: {}",
                e.message
            ),
        }
        let mut paths = Vec::new();
        collect_paths_up_to(&value, &mut Vec::new(), &mut paths, 512);
        let missing: Vec<Vec<Step<'_>>> = paths
            .iter()
            .flat_map(|p| {
                let mut key = p.clone();
                key.push(Step::Key("missing"));
                let mut index = p.clone();
                index.push(Step::Index(1));
                [key, index]
            })
            .collect();
        let queries: Vec<Query<'_>> = paths
            .iter()
            .chain(&missing)
            .flat_map(|path| {
                [Target::Value, Target::Key, Target::MapKey("a")]
                    .map(|target| Query { path, target })
            })
            .collect();
        let fast_found = locate::locate_fast(text, &queries);
        let Some(fast_found) = fast_found else {
            panic!("the fast reader read {text:?} but did not walk it");
        };
        let full_found = locate::locate_full(text, &queries);
        for ((query, fast), full) in queries.iter().zip(&fast_found).zip(&full_found) {
            assert_eq!(
                fast, full,
                "fast and full positions differ for {query:?} in {text:?}"
            );
        }
    }
    read
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
    collect_paths_up_to(value, at, out, 64);
}

fn collect_paths_up_to<'v>(
    value: &'v Value,
    at: &mut Vec<Step<'v>>,
    out: &mut Vec<Vec<Step<'v>>>,
    limit: usize,
) {
    if out.len() >= limit {
        return;
    }
    out.push(at.clone());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                at.push(Step::Key(k));
                collect_paths_up_to(v, at, out, limit);
                at.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                at.push(Step::Index(i));
                collect_paths_up_to(v, at, out, limit);
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
    let values = yaml::read_all(text).ok()?;
    Some(
        values
            .into_iter()
            .map(|(v, _)| v)
            .filter(|v| !v.is_null())
            .collect(),
    )
}
