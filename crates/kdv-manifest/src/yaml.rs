//! One YAML document → the JSON value the API server receives for it.
//!
//! kubectl and the API server turn YAML into JSON with sigs.k8s.io/yaml (`YAMLToJSON`: go-yaml
//! v2 decodes into Go values, `encoding/json` writes them), and only then decode JSON into the
//! API types. This module reproduces that conversion on top of serde-saphyr:
//!
//! - Scalars resolve as YAML 1.1 (go-yaml v2): unquoted `yes`/`no`/`on`/`off`/`y`/`n` are
//!   booleans and `0755` is octal. Mapping keys keep their spelling.
//! - Floats are written as `encoding/json` writes a float64 (see [`json_number_of_float`]):
//!   an integral float becomes an integer literal, so `5.0`, `1e1` and `-0.0` arrive as `5`,
//!   `10` and `0` and decode into integer fields, while `5.5` and `1e21` do not.
//! - `.inf` and `.nan` are errors: `encoding/json` cannot write them, so `YAMLToJSON` fails.
//! - A key repeated in one mapping is an error (kubectl's strict decoding).
//! - Budgets bound nesting, nodes, events, aliases and scalar bytes by the document's size,
//!   so alias bombs and deep nesting stop early.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use serde_saphyr::budget::BudgetBreach;
use serde_saphyr::{DuplicateKeyPolicy, MessageFormatter, Spanned};

use crate::Position;
use crate::goyaml::{self, Scalar, go_bool};
use crate::number::json_number_of_float;

/// Deepest nesting of sequences and mappings accepted; the same as serde_json's fixed limit
/// for JSON, so both syntaxes agree.
pub const MAX_DEPTH: usize = 128;
/// Most YAML nodes accepted in one document, or twice its size in bytes if more.
const MAX_NODES: usize = 1_000_000;
/// Most parser events accepted in one document, or four times its size in bytes if more.
const MAX_EVENTS: usize = 4_000_000;
/// Most aliases (`*name`) accepted in one document.
pub const MAX_ALIASES: usize = 10_000;
/// Most YAML events copied or replayed for anchors and aliases in one document. Manifests
/// use anchors sparingly; this stops alias bombs early (and quickly, even in debug builds).
pub const MAX_ALIAS_EVENTS: usize = 100_000;
/// Most scalar bytes (aliases replayed included) in one document, or twice its size if more.
const MAX_SCALAR_BYTES: usize = 64 << 20;

/// A YAML parse failure: where (relative to the document's text) and what.
pub(crate) struct YamlError {
    pub position: Option<Position>,
    pub message: String,
}

/// What one YAML document's text holds.
pub(crate) enum Parsed {
    /// No document at all (only comments, directives, markers).
    Nothing,
    /// The document's root value and where it starts (relative to the text).
    Value(Value, Position),
    /// More than one document: the text had a marker the splitter did not see.
    Several,
}

pub(crate) fn options(text: &str) -> serde_saphyr::Options {
    // Without aliases, nodes, events and scalar bytes are bounded by the text's size, so the
    // limits grow with it and a long document of ordinary content passes; what aliases can
    // add is capped separately (MAX_ALIAS_EVENTS).
    let scale = text.len().saturating_mul(2);
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_depth: MAX_DEPTH,
            max_nodes: MAX_NODES.max(scale),
            max_events: MAX_EVENTS.max(scale.saturating_mul(2)),
            max_aliases: MAX_ALIASES,
            max_recorded_anchor_events: MAX_ALIAS_EVENTS,
            max_total_scalar_bytes: MAX_SCALAR_BYTES.max(scale),
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
        // Non-finite floats reach the visitor, which tells `.inf` (an error: JSON has no
        // infinity) from `1e400` (a string to go-yaml, whose ParseFloat fails on overflow).
        non_finite_float_policy: serde_saphyr::NonFiniteFloatPolicy::PassThrough,
        with_snippet: false,
    }
}

/// Parses the text of one document (it may hold a `---` and directives, no other document):
/// through the fast reader when the text is in its subset (same result), else in full.
pub(crate) fn parse(text: &str) -> Result<Parsed, YamlError> {
    if let Some((value, at)) = crate::fast::parse(text) {
        return Ok(Parsed::Value(value, at));
    }
    parse_full(text)
}

/// [`parse`] through serde-saphyr, whatever the text. Read without spans first; where the
/// value depends on a scalar's spelling (booleans in letter cases go-yaml does not read as
/// booleans, non-finite floats and numbers beyond float64), once more with them.
pub(crate) fn parse_full(text: &str) -> Result<Parsed, YamlError> {
    let values = read_all(text).map_err(|e| yaml_error(&e))?;
    Ok(one(values.into_iter()))
}

/// Every document of `text` as [`parse_full`] reads one, with where each starts.
pub(crate) fn read_all(
    text: &str,
) -> Result<Vec<(Value, serde_saphyr::Location)>, serde_saphyr::Error> {
    if !goyaml::may_hold_odd_case_bool(text) {
        NEEDS_EXACT.with(|c| c.set(false));
        let values: Result<Vec<Spanned<YamlValue>>, _> =
            serde_saphyr::from_multiple_with_options(text, options(text));
        if !NEEDS_EXACT.with(Cell::get) {
            return values.map(|v| v.into_iter().map(|s| (s.value.0, s.referenced)).collect());
        }
    }
    SOURCE.with(|s| text.clone_into(&mut s.borrow_mut()));
    let values: Result<Vec<Spanned<ExactValue>>, _> =
        serde_saphyr::from_multiple_with_options(text, options(text));
    SOURCE.with(|s| std::mem::take(&mut *s.borrow_mut()));
    values.map(|v| v.into_iter().map(|s| (s.value.0, s.referenced)).collect())
}

fn one(mut values: impl ExactSizeIterator<Item = (Value, serde_saphyr::Location)>) -> Parsed {
    match values.len() {
        0 => Parsed::Nothing,
        1 => match values.next() {
            Some((value, at)) => Parsed::Value(
                value,
                Position {
                    line: at.line().max(1),
                    column: at.column().max(1),
                },
            ),
            None => Parsed::Nothing,
        },
        _ => Parsed::Several,
    }
}

fn yaml_error(error: &serde_saphyr::Error) -> YamlError {
    let message = yaml_message(error);
    let position = error
        .location()
        .filter(|loc| loc.line() > 0)
        .map(|loc| Position {
            line: loc.line(),
            column: loc.column().max(1),
        });
    YamlError { position, message }
}

/// The message of a YAML error without its location (rendered by the caller), worded for
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

/// Messages may quote input text; control characters in it would garble a terminal. They
/// are written as Go quotes them (`\x00`, `\u0085`).
pub(crate) fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            let code = c as u32;
            if code < 0x80 {
                out.push_str(&format!("\\x{code:02x}"));
            } else {
                out.push_str(&format!("\\u{code:04x}"));
            }
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
        | BudgetBreach::AliasAnchorRatio { .. }
        | BudgetBreach::ScalarBytes { .. } => {
            "document expands to too much data through anchors and aliases; is it an alias bomb?"
                .to_string()
        }
        BudgetBreach::Events { .. } => {
            "input expands to too many YAML events through aliases; is it an alias bomb?"
                .to_string()
        }
        other => format!("input exceeds a YAML parsing limit ({other:?})"),
    }
}

/// A document's value as `YAMLToJSON` would produce it (see the module documentation), read
/// without spans: exact unless it sets [`NEEDS_EXACT`].
struct YamlValue(Value);

/// A document's value read with the spans of its scalars, which settle what serde-saphyr's
/// typed answer leaves open (the spelling of a boolean, a number beyond float64); the text
/// is in [`SOURCE`].
struct ExactValue(Value);

thread_local! {
    /// Set while reading without spans when the value depends on a scalar's spelling.
    static NEEDS_EXACT: Cell<bool> = const { Cell::new(false) };
    /// The text an exact reading indexes with spans.
    static SOURCE: RefCell<String> = const { RefCell::new(String::new()) };
}

/// What a node reads as before its spelling is known.
enum Node {
    Json(Value),
    /// A boolean as serde-saphyr reads it (any letter case).
    Bool(bool),
    /// A non-finite float: go-yaml reads `.inf` as one, and `1e400` as a string.
    NonFinite(f64),
}

/// What a mapping key reads as.
enum Key {
    Str(String),
    Scalar(Scalar),
}

impl<'de> Deserialize<'de> for YamlValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match deserializer.deserialize_any(NodeVisitor { exact: false })? {
            Node::Json(v) => Ok(YamlValue(v)),
            Node::Bool(b) => Ok(YamlValue(Value::Bool(b))),
            Node::NonFinite(_) => Err(needs_exact()),
        }
    }
}

/// The source text of a span, if it has byte offsets.
fn spelled(location: &serde_saphyr::Location) -> Option<String> {
    let span = location.span();
    let (start, len) = (span.byte_offset()?, span.byte_len()?);
    SOURCE.with(|s| {
        let s = s.borrow();
        let start = usize::try_from(start).ok()?;
        let end = start.checked_add(usize::try_from(len).ok()?)?;
        s.get(start..end).map(|t| t.trim_end().to_owned())
    })
}

impl<'de> Deserialize<'de> for ExactValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let node = Spanned::<ExactNode>::deserialize(deserializer)?;
        let text = spelled(&node.defined);
        let value = match node.value.0 {
            Node::Json(v) => v,
            Node::Bool(b) => match text.as_deref() {
                // A tagged boolean (`!!bool`) keeps its value; a plain one is a boolean in
                // go-yaml's spellings only.
                Some(t) if !t.starts_with('!') && go_bool(t).is_none() => {
                    Value::String(t.to_owned())
                }
                _ => Value::Bool(b),
            },
            Node::NonFinite(f) => match text.as_deref().map(|t| (t, goyaml::resolve(t))) {
                Some((t, Scalar::Str)) => Value::String(t.to_owned()),
                _ => return Err(de::Error::custom(non_finite(f))),
            },
        };
        Ok(ExactValue(value))
    }
}

/// Stops a reading without spans: the exact reading follows (its error is discarded).
fn needs_exact<E: de::Error>() -> E {
    NEEDS_EXACT.with(|c| c.set(true));
    E::custom("the value depends on a scalar's spelling")
}

fn non_finite(f: f64) -> String {
    format!("{f} is not a JSON number; the API server rejects the document")
}

/// A node read by the exact visitor (inside a [`Spanned`]).
struct ExactNode(Node);

impl<'de> Deserialize<'de> for ExactNode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_any(NodeVisitor { exact: true })
            .map(ExactNode)
    }
}

struct NodeVisitor {
    exact: bool,
}

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Json(Value::from(v)))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Json(Value::from(v)))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Node, E> {
        // go-yaml: integers beyond 64 bits fail ParseInt/ParseUint and resolve as floats.
        match (i64::try_from(v), u64::try_from(v)) {
            (Ok(i), _) => Ok(Node::Json(Value::from(i))),
            (_, Ok(u)) => Ok(Node::Json(Value::from(u))),
            _ => self.visit_f64(v as f64),
        }
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Node, E> {
        match u64::try_from(v) {
            Ok(u) => Ok(Node::Json(Value::from(u))),
            Err(_) => self.visit_f64(v as f64),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Node, E> {
        match json_number_of_float(v) {
            Some(n) => Ok(Node::Json(Value::Number(n))),
            None => Ok(Node::NonFinite(v)),
        }
    }

    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Json(Value::String(v.to_string())))
    }

    fn visit_string<E>(self, v: String) -> Result<Node, E> {
        Ok(Node::Json(Value::String(v)))
    }

    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Json(Value::Null))
    }

    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Json(Value::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Node, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        if self.exact {
            while let Some(ExactValue(item)) = seq.next_element()? {
                items.push(item);
            }
        } else {
            while let Some(YamlValue(item)) = seq.next_element()? {
                items.push(item);
            }
        }
        Ok(Node::Json(Value::Array(items)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Node, A::Error> {
        // serde-saphyr rejects keys repeated as written (DuplicateKeyPolicy::Error); keys
        // that differ as written but not as JSON keys (`on` and `true`) are rejected here,
        // as go-yaml's strict decoding rejects equal resolved keys.
        let mut map = Map::new();
        loop {
            let key = if self.exact {
                let Some(key) = access.next_key::<Spanned<KeyNode>>()? else {
                    break;
                };
                exact_key(key)?
            } else {
                let Some(KeyNode(key)) = access.next_key::<KeyNode>()? else {
                    break;
                };
                match key {
                    Key::Str(s) => s,
                    Key::Scalar(Scalar::Float(f)) if !f.is_finite() => return Err(needs_exact()),
                    Key::Scalar(scalar) => goyaml::json_key(scalar, "")
                        .map_err(de::Error::custom)?
                        .into_owned(),
                }
            };
            let value = if self.exact {
                access.next_value::<ExactValue>()?.0
            } else {
                access.next_value::<YamlValue>()?.0
            };
            if map.contains_key(&key) {
                return Err(de::Error::custom(format_args!("duplicate key {key:?}")));
            }
            map.insert(key, value);
        }
        Ok(Node::Json(Value::Object(map)))
    }
}

/// A key as sigs.k8s.io/yaml names it, from its spelling where the typed reading leaves it
/// open.
fn exact_key<E: de::Error>(key: Spanned<KeyNode>) -> Result<String, E> {
    let text = spelled(&key.defined);
    match key.value.0 {
        Key::Str(s) => Ok(s),
        Key::Scalar(scalar @ (Scalar::Bool(_) | Scalar::Float(_))) => match text.as_deref() {
            Some(t) if !t.starts_with('!') => {
                let resolved = goyaml::resolve(t);
                goyaml::json_key(resolved, t)
                    .map(Cow::into_owned)
                    .map_err(E::custom)
            }
            _ => goyaml::json_key(scalar, "")
                .map(Cow::into_owned)
                .map_err(E::custom),
        },
        Key::Scalar(scalar) => goyaml::json_key(scalar, "")
            .map(Cow::into_owned)
            .map_err(E::custom),
    }
}

/// A mapping key read typed, as go-yaml types it.
struct KeyNode(Key);

impl<'de> Deserialize<'de> for KeyNode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(KeyVisitor).map(KeyNode)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a scalar mapping key")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Key, E> {
        Ok(Key::Scalar(Scalar::Bool(v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Key, E> {
        Ok(Key::Scalar(Scalar::Int(v)))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Key, E> {
        Ok(Key::Scalar(match i64::try_from(v) {
            Ok(i) => Scalar::Int(i),
            Err(_) => Scalar::Uint(v),
        }))
    }

    fn visit_i128<E>(self, v: i128) -> Result<Key, E> {
        Ok(Key::Scalar(match (i64::try_from(v), u64::try_from(v)) {
            (Ok(i), _) => Scalar::Int(i),
            (_, Ok(u)) => Scalar::Uint(u),
            _ => Scalar::Float(v as f64),
        }))
    }

    fn visit_u128<E>(self, v: u128) -> Result<Key, E> {
        Ok(Key::Scalar(match (i64::try_from(v), u64::try_from(v)) {
            (Ok(i), _) => Scalar::Int(i),
            (_, Ok(u)) => Scalar::Uint(u),
            _ => Scalar::Float(v as f64),
        }))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Key, E> {
        Ok(Key::Scalar(Scalar::Float(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Key, E> {
        Ok(Key::Str(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Key, E> {
        Ok(Key::Str(v))
    }

    fn visit_unit<E>(self) -> Result<Key, E> {
        Ok(Key::Scalar(Scalar::Null))
    }

    fn visit_none<E>(self) -> Result<Key, E> {
        Ok(Key::Scalar(Scalar::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Key, A::Error> {
        Err(de::Error::custom(
            "unsupported map key of type: sequence; the API server cannot read the document",
        ))
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Key, A::Error> {
        Err(de::Error::custom(
            "unsupported map key of type: mapping; the API server cannot read the document",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn value(text: &str) -> Value {
        match parse(text) {
            Ok(Parsed::Value(v, _)) => v,
            Ok(_) => panic!("no single value in {text:?}"),
            Err(e) => panic!("{text:?}: {}", e.message),
        }
    }

    #[test]
    fn integral_floats_become_integers_as_yaml_to_json_writes_them() {
        assert_eq!(value("a: 5.0"), json!({"a": 5}));
        assert_eq!(value("a: 1e1"), json!({"a": 10}));
        assert_eq!(value("a: -0.0"), json!({"a": 0}));
        assert!(value("a: -0.0")["a"].is_i64());
        assert_eq!(value("a: 5.5"), json!({"a": 5.5}));
        assert!(value("a: 1e21")["a"].is_f64());
        assert!(value("a: 1e20")["a"].is_f64());
        assert_eq!(
            value("a: 1e19"),
            json!({"a": 10_000_000_000_000_000_000u64})
        );
        assert_eq!(value("a: -9223372036854775808")["a"], json!(i64::MIN));
        assert_eq!(value("a: 09"), json!({"a": 9}));
        assert!(value("a: 99999999999999999999")["a"].is_f64());
    }

    #[test]
    fn item_09_out_of_range_numbers_as_go_yaml_v2_resolves_them() {
        // go-yaml's ParseFloat fails on overflow: the scalar is a string.
        assert_eq!(
            value("s: 1e400\nt: -1e309\nu: [.5e400]\n1e999: k\n"),
            json!({"s": "1e400", "t": "-1e309", "u": [".5e400"], "1e999": "k"})
        );
        // Beyond int64: a float, written by encoding/json as `-9223372036854776000`,
        // which no int64 holds.
        for text in [
            "a: -9223372036854775809",
            "a: -9223372036854775808.0",
            "a: -9.223372036854775808e18",
        ] {
            let v = value(text);
            assert!(v["a"].is_f64(), "{text}: {v}");
            assert_eq!(v["a"].as_f64(), Some(-9_223_372_036_854_775_808.0));
        }
        assert!(value("a: 9223372036854775808.0")["a"].is_u64());
        // Shortest digits padded: 2^62 is written as 4611686018427388000.
        assert_eq!(
            value("a: 4611686018427387904.0")["a"],
            json!(4_611_686_018_427_388_000i64)
        );
    }

    #[test]
    fn non_finite_floats_are_errors() {
        for text in [
            "a: .inf",
            "a: -.Inf",
            "a: .NaN",
            "a: [.inf]",
            "a: {b: .inf}",
        ] {
            let Err(e) = parse(text) else {
                panic!("{text} parsed")
            };
            assert_eq!(e.position.map(|p| p.line), Some(1), "{text}: {}", e.message);
        }
    }

    #[test]
    fn yaml_1_1_booleans_and_octals_as_kubectl_reads_them() {
        assert_eq!(
            value("a: yes\nb: on\nc: off\nd: y\ne: 0755\nf: \"yes\"\ng: 0x1F\n"),
            json!({"a": true, "b": true, "c": false, "d": true, "e": 493, "f": "yes", "g": 31})
        );
    }

    #[test]
    fn item_06_yaml_1_1_boolean_keys_become_true_false() {
        // As sigs.k8s.io/yaml converts go-yaml v2's keys: `on: push` is the key "true".
        assert_eq!(value("on: push"), json!({"true": "push"}));
        assert_eq!(
            value("spec:\n  pos:\n    x: 1\n    y: 2\n"),
            json!({"spec": {"pos": {"x": 1, "true": 2}}})
        );
        assert_eq!(value("Y: 1\nNo: 2\n"), json!({"true": 1, "false": 2}));
        assert_eq!(value("{on: 1, OFF: 2}"), json!({"true": 1, "false": 2}));
        // Other spellings are strings to go-yaml (serde-saphyr reads any letter case).
        assert_eq!(value("oN: 1\nb: yEs\n"), json!({"oN": 1, "b": "yEs"}));
        assert_eq!(value("a: [tRUE, true]"), json!({"a": ["tRUE", true]}));
        // Quoted keys keep their text.
        assert_eq!(value("'on': 1\n\"y\": 2\n"), json!({"on": 1, "y": 2}));
        // Numbers and floats as sigs.k8s.io/yaml writes them.
        assert_eq!(
            value("1: a\n0x1F: b\n1.5: c\n1e6: d\n-0.0: e\n.inf: f\n1e400: g\n"),
            json!({"1": "a", "31": "b", "1.5": "c", "1e+06": "d", "-0": "e", ".inf": "f", "1e400": "g"})
        );
        // Keys equal once converted are repeated keys (go-yaml's strict decoding).
        for text in ["on: 1\ntrue: 2\n", "1: a\n0x1: b\n", "y: 1\nYES: 2\n"] {
            let Err(e) = parse(text) else {
                panic!("{text:?} parsed")
            };
            assert!(
                e.message.contains("duplicate key"),
                "{text:?}: {}",
                e.message
            );
        }
        // Keys JSON cannot have.
        for text in ["~: 1", "null: 1", "18446744073709551615: 1"] {
            let Err(e) = parse(text) else {
                panic!("{text:?} parsed")
            };
            assert!(
                e.message.contains("unsupported map key"),
                "{text:?}: {}",
                e.message
            );
        }
    }

    #[test]
    fn budgets_grow_with_the_input() {
        let small = options("a: 1").budget.unwrap();
        assert_eq!((small.max_nodes, small.max_events), (MAX_NODES, MAX_EVENTS));
        assert_eq!(small.max_total_scalar_bytes, MAX_SCALAR_BYTES);
        let big = options(&" ".repeat(100_000_000)).budget.unwrap();
        assert_eq!((big.max_nodes, big.max_events), (200_000_000, 400_000_000));
        assert_eq!(big.max_total_scalar_bytes, 200_000_000);
        assert_eq!(big.max_recorded_anchor_events, MAX_ALIAS_EVENTS);
    }
}
