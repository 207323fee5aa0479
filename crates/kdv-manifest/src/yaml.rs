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

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use serde_saphyr::budget::BudgetBreach;
use serde_saphyr::{DuplicateKeyPolicy, MessageFormatter, Spanned};

use crate::Position;
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

/// [`parse`] through serde-saphyr, whatever the text.
pub(crate) fn parse_full(text: &str) -> Result<Parsed, YamlError> {
    let mut values: Vec<Spanned<YamlValue>> =
        serde_saphyr::from_multiple_with_options(text, options(text))
            .map_err(|e| yaml_error(&e))?;
    match values.len() {
        0 => Ok(Parsed::Nothing),
        1 => {
            let Some(spanned) = values.pop() else {
                return Ok(Parsed::Nothing);
            };
            let at = Position {
                line: spanned.referenced.line().max(1),
                column: spanned.referenced.column().max(1),
            };
            Ok(Parsed::Value(spanned.value.0, at))
        }
        _ => Ok(Parsed::Several),
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

/// A document's value as `YAMLToJSON` would produce it (see the module documentation).
struct YamlValue(Value);

impl<'de> Deserialize<'de> for YamlValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(YamlVisitor).map(YamlValue)
    }
}

struct YamlVisitor;

impl<'de> Visitor<'de> for YamlVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML value")
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

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        // go-yaml: integers beyond 64 bits fail ParseInt/ParseUint and resolve as floats.
        match (i64::try_from(v), u64::try_from(v)) {
            (Ok(i), _) => Ok(Value::from(i)),
            (_, Ok(u)) => Ok(Value::from(u)),
            _ => self.visit_f64(v as f64),
        }
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        match u64::try_from(v) {
            Ok(u) => Ok(Value::from(u)),
            Err(_) => self.visit_f64(v as f64),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        json_number_of_float(v).map(Value::Number).ok_or_else(|| {
            E::custom(format_args!(
                "{v} is not a JSON number; the API server rejects the document"
            ))
        })
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

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        YamlValue::deserialize(deserializer).map(|v| v.0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(YamlValue(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        // serde-saphyr rejects repeated keys itself (DuplicateKeyPolicy::Error).
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            let YamlValue(value) = access.next_value()?;
            map.insert(key, value);
        }
        Ok(Value::Object(map))
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
        assert_eq!(value("a: -9223372036854775809")["a"], json!(i64::MIN));
        assert_eq!(value("a: 09"), json!({"a": 9}));
        assert!(value("a: 99999999999999999999")["a"].is_f64());
    }

    #[test]
    fn non_finite_floats_are_errors() {
        for text in ["a: .inf", "a: -.inf", "a: .nan", "a: 1e400"] {
            let Err(e) = parse(text) else {
                panic!("{text} parsed")
            };
            assert_eq!(
                e.position,
                Some(Position { line: 1, column: 4 }),
                "{text}: {}",
                e.message
            );
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
