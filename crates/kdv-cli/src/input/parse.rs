//! Parsing one input text into JSON documents.
//!
//! YAML streams are read with serde-saphyr into `serde_json::Value`, one value per document,
//! with kubectl's scalar resolution (see the crate documentation): YAML 1.1 booleans and
//! legacy octal numbers, duplicate keys rejected, budgets against alias bombs and deep
//! nesting. `.json` files are read with serde_json as a single value, also rejecting
//! duplicate keys.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use serde_saphyr::budget::BudgetBreach;
use serde_saphyr::granit_parser::{Event, Parser};
use serde_saphyr::{DuplicateKeyPolicy, MessageFormatter, Spanned};

use super::InputError;

/// Deepest nesting of sequences and mappings accepted in a YAML document; the same as
/// serde_json's fixed limit for JSON, so both syntaxes agree.
pub const MAX_DEPTH: usize = 128;
/// Most YAML nodes accepted in one stream, or twice its size in bytes if more.
const MAX_NODES: usize = 1_000_000;
/// Most parser events accepted in one stream, or four times its size in bytes if more.
const MAX_EVENTS: usize = 4_000_000;
/// Most aliases (`*name`) accepted in one stream.
const MAX_ALIASES: usize = 10_000;
/// Most documents accepted in one stream.
const MAX_DOCUMENTS: usize = 100_000;
/// Most YAML events copied or replayed for anchors and aliases in one stream. Manifests use
/// anchors sparingly; this stops alias bombs early (and quickly, even in debug builds).
const MAX_ALIAS_EVENTS: usize = 100_000;

/// How a text is to be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// A YAML stream of zero or more documents (JSON text is YAML too).
    Yaml,
    /// Exactly one JSON value.
    Json,
}

/// One non-empty document of a stream.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// Position in the stream, counting empty documents too, so `#2` is always the third
    /// document as written.
    pub index: usize,
    /// 1-based line where the document's content starts.
    pub line: u64,
    /// The document's content.
    pub value: Value,
}

/// The documents of one text.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Loaded {
    /// The non-empty documents, in stream order.
    pub documents: Vec<Document>,
    /// How many documents were empty (no content, or only `null`) and were skipped.
    pub empty: usize,
}

/// Parses `text` (named `file` in messages) into its documents.
pub fn parse(file: &str, text: &str, syntax: Syntax) -> Result<Loaded, InputError> {
    // A byte order mark is not content; editors on Windows add one.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match syntax {
        Syntax::Yaml => parse_yaml(file, text),
        Syntax::Json => parse_json(file, text),
    }
}

fn yaml_options(text: &str) -> serde_saphyr::Options {
    // Budgets count the whole stream. Without aliases, nodes and events are bounded by the
    // input's size, so these limits grow with it and a long stream of ordinary documents
    // passes; what aliases can add is capped separately (MAX_ALIAS_EVENTS).
    let scale = text.len().saturating_mul(2);
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_depth: MAX_DEPTH,
            max_nodes: MAX_NODES.max(scale),
            max_events: MAX_EVENTS.max(scale.saturating_mul(2)),
            max_aliases: MAX_ALIASES,
            max_documents: MAX_DOCUMENTS,
            max_recorded_anchor_events: MAX_ALIAS_EVENTS,
        },
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: MAX_ALIAS_EVENTS,
        },
        // kubectl converts YAML with YAML 1.1 rules (sigs.k8s.io/yaml): `yes`, `on`, `y`
        // are booleans and `0755` is octal. Matching it means validating what the API
        // server will receive.
        strict_booleans: false,
        legacy_octal_numbers: true,
        duplicate_keys: DuplicateKeyPolicy::Error,
        with_snippet: false,
    }
}

fn parse_yaml(file: &str, text: &str) -> Result<Loaded, InputError> {
    let values: Vec<Spanned<Value>> =
        serde_saphyr::from_multiple_with_options(text, yaml_options(text))
            .map_err(|e| yaml_error(file, &e))?;
    // Usually no document is empty and the values are documents 0, 1, 2, ...; only when
    // the marker count says otherwise are the documents located precisely.
    if marker_document_count(text) == Some(values.len()) {
        let documents = values
            .into_iter()
            .enumerate()
            .map(|(index, spanned)| Document {
                index,
                line: spanned.referenced.line(),
                value: spanned.value,
            })
            .collect();
        return Ok(Loaded {
            documents,
            empty: 0,
        });
    }
    let roots = document_roots(file, text)?;
    let mut documents = Vec::with_capacity(values.len());
    for spanned in values {
        let at = spanned.referenced.span().offset();
        // The document whose root starts last at or before this value's position: an empty
        // document's (zero-width) root may share a position with the next document's start.
        let index = roots.partition_point(|&root| root <= at).saturating_sub(1);
        documents.push(Document {
            index,
            line: spanned.referenced.line(),
            value: spanned.value,
        });
    }
    let empty = roots.len().saturating_sub(documents.len());
    Ok(Loaded { documents, empty })
}

/// The number of documents in a stream whose only markers are `---` lines: one per marker,
/// plus one if content precedes the first. `None` when the stream has `...` end markers
/// (documents may then start without `---`). A `---` at the start of a line followed by a
/// space or the line's end is always a document marker in YAML, even inside scalars.
fn marker_document_count(text: &str) -> Option<usize> {
    let mut markers = 0;
    let mut content_before_first = false;
    for line in text.lines() {
        if is_marker(line, "---") {
            markers += 1;
        } else if is_marker(line, "...") {
            return None;
        } else if markers == 0 && !content_before_first {
            let line = line.trim_start();
            content_before_first =
                !line.is_empty() && !line.starts_with('#') && !line.starts_with('%');
        }
    }
    Some(markers + usize::from(content_before_first))
}

fn is_marker(line: &str, marker: &str) -> bool {
    line.strip_prefix(marker)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t', '\r']))
}

/// The character offset of each document's root node, in stream order (empty documents
/// included). serde-saphyr skips empty documents, so this second event pass is what
/// numbers documents as written when some are empty.
fn document_roots(file: &str, text: &str) -> Result<Vec<u64>, InputError> {
    let mut roots = Vec::new();
    let mut want_root = false;
    let mut parser = Parser::new_from_str(text);
    while let Some(event) = parser.next_event() {
        let (event, span) = event.map_err(|e| {
            let marker = e.marker();
            InputError::at(
                file,
                marker.line() as u64,
                marker.col() as u64 + 1,
                e.info(),
            )
        })?;
        match event {
            Event::DocumentStart(..) => want_root = true,
            Event::Scalar(..)
            | Event::SequenceStart(..)
            | Event::MappingStart(..)
            | Event::Alias(..)
                if want_root =>
            {
                want_root = false;
                roots.push(span.start.index() as u64);
            }
            _ => {}
        }
    }
    Ok(roots)
}

fn yaml_error(file: &str, error: &serde_saphyr::Error) -> InputError {
    let message = yaml_message(error);
    match error.location() {
        Some(loc) if loc.line() > 0 => InputError::at(file, loc.line(), loc.column(), message),
        _ => InputError::file(file, message),
    }
}

/// The message of a YAML error without its location (we render that ourselves), worded for
/// someone fixing a manifest rather than configuring the library.
fn yaml_message(error: &serde_saphyr::Error) -> String {
    let mut inner = error.without_snippet();
    while let serde_saphyr::Error::AliasError { error, .. } = inner {
        inner = error.without_snippet();
    }
    match inner {
        serde_saphyr::Error::DuplicateMappingKey { key: Some(key), .. } => {
            format!("duplicate key {key:?}")
        }
        serde_saphyr::Error::DuplicateMappingKey { key: None, .. } => "duplicate key".to_string(),
        serde_saphyr::Error::Budget { breach, .. } => budget_message(breach),
        other => printable(&serde_saphyr::UserMessageFormatter.format_message(other)),
    }
}

/// Messages may quote input text; control characters in it would garble a terminal.
fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

fn budget_message(breach: &BudgetBreach) -> String {
    match breach {
        BudgetBreach::Depth { .. } => {
            format!("document nests deeper than {MAX_DEPTH} levels")
        }
        BudgetBreach::Nodes { .. } => {
            "input expands to too many values through aliases; is it an alias bomb?".to_string()
        }
        BudgetBreach::Aliases { .. } => format!("document uses more than {MAX_ALIASES} aliases"),
        BudgetBreach::RecordedAnchorEvents { .. }
        | BudgetBreach::RecordedAnchorBytes { .. }
        | BudgetBreach::AliasAnchorRatio { .. } => {
            "document expands to too much data through anchors and aliases; is it an alias bomb?"
                .to_string()
        }
        BudgetBreach::Events { .. } => {
            "input expands to too many YAML events through aliases; is it an alias bomb?"
                .to_string()
        }
        BudgetBreach::Documents { .. } => {
            format!("stream has more than {MAX_DOCUMENTS} documents")
        }
        other => format!("input exceeds a YAML parsing limit ({other:?})"),
    }
}

fn parse_json(file: &str, text: &str) -> Result<Loaded, InputError> {
    let json_error = |e: serde_json::Error| {
        if e.line() == 0 {
            InputError::file(file, e.to_string())
        } else {
            InputError::at(file, e.line() as u64, e.column() as u64, json_message(&e))
        }
    };
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = StrictValue::deserialize(&mut deserializer).map_err(json_error)?;
    deserializer.end().map_err(json_error)?;
    let line = first_content_line(text);
    let (documents, empty) = match value.0 {
        Value::Null => (Vec::new(), 1),
        value => (
            vec![Document {
                index: 0,
                line,
                value,
            }],
            0,
        ),
    };
    Ok(Loaded { documents, empty })
}

/// serde_json's message without its trailing ` at line L column C`.
fn json_message(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    text.strip_suffix(&suffix).unwrap_or(&text).to_string()
}

fn first_content_line(text: &str) -> u64 {
    text.lines()
        .position(|line| !line.trim().is_empty())
        .map_or(1, |i| i as u64 + 1)
}

/// A JSON value read the way kubectl's strict decoding reads it: a key given twice in one
/// object is an error instead of "last one wins".
struct StrictValue(Value);

impl<'de> Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(StrictValue)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(StrictValue(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            if map.contains_key(&key) {
                return Err(de::Error::custom(format_args!("duplicate key {key:?}")));
            }
            let StrictValue(value) = access.next_value()?;
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn yaml(text: &str) -> Result<Loaded, InputError> {
        parse("t.yaml", text, Syntax::Yaml)
    }

    fn json_doc(text: &str) -> Result<Loaded, InputError> {
        parse("t.json", text, Syntax::Json)
    }

    fn values(loaded: &Loaded) -> Vec<(usize, u64, Value)> {
        loaded
            .documents
            .iter()
            .map(|d| (d.index, d.line, d.value.clone()))
            .collect()
    }

    #[test]
    fn single_document_without_markers() {
        let loaded = yaml("kind: Widget\nspec:\n  replicas: 3\n").unwrap();
        assert_eq!(
            values(&loaded),
            vec![(0, 1, json!({"kind": "Widget", "spec": {"replicas": 3}}))]
        );
        assert_eq!(loaded.empty, 0);
    }

    #[test]
    fn multi_document_stream_counts_empty_documents_in_the_index() {
        let text = "---\na: 1\n---\n---\n# only a comment\n---\nb: 2\n...\n---\n[1, 2]\n";
        let loaded = yaml(text).unwrap();
        assert_eq!(
            values(&loaded),
            vec![
                (0, 2, json!({"a": 1})),
                (3, 7, json!({"b": 2})),
                (4, 10, json!([1, 2]))
            ]
        );
        assert_eq!(loaded.empty, 2);
    }

    #[test]
    fn empty_document_before_an_inline_root_on_the_same_line() {
        let loaded = yaml("---\n--- {a: 1}\n").unwrap();
        assert_eq!(values(&loaded), vec![(1, 2, json!({"a": 1}))]);
        assert_eq!(loaded.empty, 1);
    }

    #[test]
    fn null_documents_count_as_empty() {
        let loaded = yaml("null\n---\na: 1\n").unwrap();
        assert_eq!(values(&loaded), vec![(1, 3, json!({"a": 1}))]);
        assert_eq!(loaded.empty, 1);
        assert_eq!(yaml("").unwrap(), Loaded::default());
    }

    #[test]
    fn block_scalar_containing_dashes_is_not_a_document_marker() {
        let loaded = yaml("a: |\n  ---\n  text\nb: 1\n").unwrap();
        assert_eq!(
            values(&loaded),
            vec![(0, 1, json!({"a": "---\ntext\n", "b": 1}))]
        );
    }

    #[test]
    fn marker_counting() {
        assert_eq!(marker_document_count("a: 1\n"), Some(1));
        assert_eq!(
            marker_document_count("# c\n%YAML 1.2\n---\na: 1\n"),
            Some(1)
        );
        assert_eq!(marker_document_count("a: 1\n---\nb: 1\n--- # c\n"), Some(3));
        assert_eq!(marker_document_count("a: |\n  ---x\n----\n"), Some(1));
        assert_eq!(marker_document_count("---\na\n...\n"), None);
        assert_eq!(marker_document_count("--- {a: 1}\r\n---\tb\r\n"), Some(2));
    }

    #[test]
    fn trailing_and_leading_markers_with_empty_documents() {
        let loaded = yaml("a: 1\n---\n").unwrap();
        assert_eq!(values(&loaded), vec![(0, 1, json!({"a": 1}))]);
        assert_eq!(loaded.empty, 1);
        let loaded = yaml("# only a comment\n---\na: 1\n").unwrap();
        assert_eq!(values(&loaded), vec![(0, 3, json!({"a": 1}))]);
        assert_eq!(loaded.empty, 0);
        let loaded = yaml("a: 1\n...\n---\nb: 2\n...\nc: 3\n").unwrap();
        assert_eq!(
            values(&loaded),
            vec![
                (0, 1, json!({"a": 1})),
                (1, 4, json!({"b": 2})),
                (2, 6, json!({"c": 3}))
            ]
        );
    }

    #[test]
    fn budgets_grow_with_the_input() {
        let small = yaml_options("a: 1").budget.unwrap();
        assert_eq!((small.max_nodes, small.max_events), (MAX_NODES, MAX_EVENTS));
        let big = yaml_options(&" ".repeat(10_000_000)).budget.unwrap();
        assert_eq!((big.max_nodes, big.max_events), (20_000_000, 40_000_000));
        assert_eq!(big.max_recorded_anchor_events, MAX_ALIAS_EVENTS);
    }

    #[test]
    fn yaml_1_1_booleans_and_octals_as_kubectl_reads_them() {
        let loaded = yaml("a: yes\nb: on\nc: off\nd: y\ne: 0755\nf: \"yes\"\ng: 0x1F\n").unwrap();
        assert_eq!(
            loaded.documents[0].value,
            json!({"a": true, "b": true, "c": false, "d": true, "e": 493, "f": "yes", "g": 31})
        );
    }

    #[test]
    fn json_inside_a_yaml_stream() {
        let loaded = yaml("{\"kind\": \"Widget\", \"spec\": {\"ports\": [1, 2]}}").unwrap();
        assert_eq!(
            loaded.documents[0].value,
            json!({"kind": "Widget", "spec": {"ports": [1, 2]}})
        );
    }

    #[test]
    fn malformed_yaml_reports_line_and_column() {
        let err = yaml("a: 1\nb: [1, 2\nc: 3\n").unwrap_err();
        assert_eq!((err.line, err.column), (Some(3), Some(2)));
        assert!(err.to_string().starts_with("t.yaml:3:2: "), "{err}");
    }

    #[test]
    fn malformed_later_document_reports_its_line() {
        let err = yaml("a: 1\n---\nb: 1\n c: 2\n").unwrap_err();
        assert_eq!(err.line, Some(4), "{err}");
    }

    #[test]
    fn duplicate_yaml_key_is_an_error() {
        let err = yaml("a: 1\nb:\n  c: 1\n  c: 2\n").unwrap_err();
        assert_eq!(err.to_string(), "t.yaml:4:3: duplicate key \"c\"");
    }

    #[test]
    fn alias_bomb_is_stopped() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let p = i - 1;
            text.push_str(&format!(
                "a{i}: &a{i} [{}]\n",
                vec![format!("*a{p}"); 10].join(", ")
            ));
        }
        let err = yaml(&text).unwrap_err();
        assert!(err.message.contains("alias bomb"), "{err}");
        assert!(err.line.is_some());
    }

    /// serde-saphyr uses tens of KiB of stack per nesting level in debug builds; the binary
    /// runs its work on a thread with a large stack, and so does this test.
    fn on_big_stack(f: impl FnOnce() + Send + 'static) {
        std::thread::Builder::new()
            .stack_size(crate::WORKER_STACK_BYTES)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn deep_nesting_is_stopped() {
        on_big_stack(deep_nesting_checks);
    }

    fn deep_nesting_checks() {
        let mut text = String::new();
        for i in 0..200 {
            text.push_str(&" ".repeat(i));
            text.push_str("a:\n");
        }
        let err = yaml(&text).unwrap_err();
        assert!(err.message.contains("deeper than 128"), "{err}");
        let flow = "[".repeat(1000) + &"]".repeat(1000);
        assert!(yaml(&flow).is_err());
    }

    #[test]
    fn byte_order_mark_is_ignored() {
        let loaded = yaml("\u{feff}a: 1\n").unwrap();
        assert_eq!(loaded.documents[0].value, json!({"a": 1}));
    }

    #[test]
    fn json_single_value() {
        let loaded = json_doc("\n\n{\"kind\": \"Widget\", \"n\": 1.5}\n").unwrap();
        assert_eq!(
            values(&loaded),
            vec![(0, 3, json!({"kind": "Widget", "n": 1.5}))]
        );
    }

    #[test]
    fn json_errors_have_positions() {
        let err = json_doc("{\n  \"a\": 1,\n  \"a\": 2\n}").unwrap_err();
        assert_eq!(err.line, Some(3));
        assert!(err.message.starts_with("duplicate key \"a\""), "{err}");
        let err = json_doc("{\"a\": }").unwrap_err();
        assert_eq!((err.line, err.column), (Some(1), Some(7)));
        assert_eq!(err.message, "expected value");
        let err = json_doc("{} {}").unwrap_err();
        assert_eq!(err.message, "trailing characters");
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(json_doc(&deep).is_err());
        on_big_stack(|| {
            let nested = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
            assert!(parse("t.yaml", &nested, Syntax::Yaml).is_ok());
        });
    }

    #[test]
    fn json_null_is_an_empty_document() {
        let loaded = json_doc("null").unwrap();
        assert!(loaded.documents.is_empty());
        assert_eq!(loaded.empty, 1);
        assert!(json_doc("").is_err());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// Any text, YAML or JSON, gives documents or an error: never a panic, and document
        /// numbers stay within the stream.
        #[test]
        fn never_panics_on_arbitrary_text(text in "\\PC{0,200}") {
            check_invariants(text);
        }

        /// Text made of YAML's structural pieces reaches deeper into the parser than
        /// arbitrary characters do.
        #[test]
        fn never_panics_on_yaml_shaped_text(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "---\n", "...\n", "a: ", "b:\n", "  - ", "- ", "[", "]", "{", "}", ", ", "&x ",
                "*x", "<<: *x\n", "\"q\"", "'s'", "|\n", ">\n", "  ", "\n", "# c\n", "null",
                "~", "yes", "0755", "1.5", ".inf", "!!str ", "? ", ": ", "%YAML 1.2\n", "\t",
            ]), 0..40)
        ) {
            check_invariants(parts.concat());
        }
    }

    /// Document numbers and the empty count as the event pass alone gives them, to check
    /// the marker-counting shortcut against.
    fn precise_indexes(text: &str) -> (Vec<usize>, usize) {
        let values: Vec<Spanned<Value>> =
            serde_saphyr::from_multiple_with_options(text, yaml_options(text)).unwrap();
        let roots = document_roots("p.yaml", text).unwrap();
        let found: Vec<usize> = values
            .iter()
            .map(|v| {
                let at = v.referenced.span().offset();
                roots.partition_point(|&r| r <= at).saturating_sub(1)
            })
            .collect();
        let empty = roots.len().saturating_sub(found.len());
        (found, empty)
    }

    fn indexes(loaded: &Loaded) -> (Vec<usize>, usize) {
        (
            loaded.documents.iter().map(|d| d.index).collect(),
            loaded.empty,
        )
    }

    fn check_invariants(text: String) {
        on_big_stack(move || {
            for syntax in [Syntax::Yaml, Syntax::Json] {
                match parse("p.yaml", &text, syntax) {
                    Ok(loaded) => {
                        if syntax == Syntax::Yaml {
                            assert_eq!(indexes(&loaded), precise_indexes(&text), "{text:?}");
                        }
                        let total = loaded.documents.len() + loaded.empty;
                        let mut last = None;
                        for doc in &loaded.documents {
                            assert!(doc.index < total, "{text:?}: {loaded:?}");
                            assert!(last < Some(doc.index), "{text:?}: {loaded:?}");
                            last = Some(doc.index);
                        }
                    }
                    Err(e) => assert!(!e.message.is_empty()),
                }
            }
        });
    }
}
