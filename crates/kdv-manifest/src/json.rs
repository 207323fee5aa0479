//! One JSON text → its value, read the way the API server's strict decoder reads a JSON
//! request: a key given twice in one object is an error, and number literals keep the
//! distinction Go's decoder makes between integer literals and the others.
//!
//! serde_json reads every number with a fraction or an exponent as a float, like Go, but it
//! also reads the integer literal `-0` as the float `-0.0` (an i64 cannot hold a negative
//! zero). Go decodes `-0` into an integer field (`strconv.ParseInt("-0")` is 0) and rejects
//! `-0.0`, so the integer literal `-0` is kept here as the integer 0: every float in the
//! result then stands for a literal that integer fields reject.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::Position;

/// A JSON parse failure: where and what.
pub(crate) struct JsonError {
    pub position: Option<Position>,
    pub message: String,
}

/// Parses a whole JSON text (one value, surrounded by whitespace only).
pub(crate) fn parse(text: &str) -> Result<Value, JsonError> {
    let json_error = |e: serde_json::Error| JsonError {
        position: (e.line() > 0).then(|| Position {
            line: e.line() as u64,
            column: (e.column() as u64).max(1),
        }),
        message: json_message(&e),
    };
    let negative_zeros = integer_negative_zeros(text);
    let seed = Strict {
        negative_zeros: &negative_zeros,
        numbers: &Cell::new(0),
    };
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = seed.deserialize(&mut deserializer).map_err(json_error)?;
    deserializer.end().map_err(json_error)?;
    Ok(value)
}

/// serde_json's message without its trailing ` at line L column C`.
fn json_message(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    text.strip_suffix(&suffix).unwrap_or(&text).to_string()
}

/// The ordinals (0 = the text's first number) of the number literals that are exactly `-0`.
/// Only called on text serde_json then parses, whose numbers it visits in text order.
fn integer_negative_zeros(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    if !text.contains("-0") {
        return found;
    }
    let mut ordinal = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                // Skip the string (escapes included).
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < bytes.len()
                    && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                if &bytes[start..i] == b"-0" {
                    found.push(ordinal);
                }
                ordinal += 1;
            }
            _ => i += 1,
        }
    }
    found
}

/// Reads a value with the strict rules above; counts numbers to recognise the `-0` literals.
#[derive(Clone, Copy)]
struct Strict<'s> {
    negative_zeros: &'s [usize],
    numbers: &'s Cell<usize>,
}

impl Strict<'_> {
    fn next_number(&self) -> usize {
        let n = self.numbers.get();
        self.numbers.set(n + 1);
        n
    }
}

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        self.next_number();
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        self.next_number();
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        let ordinal = self.next_number();
        if v == 0.0 && v.is_sign_negative() && self.negative_zeros.binary_search(&ordinal).is_ok() {
            return Ok(Value::from(0));
        }
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
        while let Some(item) = seq.next_element_seed(self)? {
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
            let value = access.next_value_seed(self)?;
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ok(text: &str) -> Value {
        parse(text).unwrap_or_else(|e| panic!("{text}: {}", e.message))
    }

    #[test]
    fn integer_negative_zero_is_an_integer_and_float_literals_stay_floats() {
        assert!(ok("-0").is_i64());
        assert_eq!(ok("-0"), json!(0));
        for text in ["-0.0", "-0e0", "-0E+1", "5.0", "1e1", "0.0"] {
            assert!(ok(text).is_f64(), "{text}");
        }
        let v = ok(r#"{"a": -0.0, "s": "-0", "b": [-0, -0.0, 1, -0], "c": -0}"#);
        assert!(v["a"].is_f64());
        assert_eq!(v["s"], json!("-0"));
        assert!(v["b"][0].is_i64() && v["b"][1].is_f64() && v["b"][3].is_i64());
        assert!(v["c"].is_i64());
        // Escaped quotes do not end a string early.
        let v = ok(r#"{"k\"-0": -0.0, "x": -0}"#);
        assert!(v["k\"-0"].is_f64() && v["x"].is_i64());
    }

    #[test]
    fn errors_have_positions() {
        let err = parse("{\n  \"a\": 1,\n  \"a\": 2\n}").err().unwrap();
        assert_eq!(err.position.map(|p| p.line), Some(3));
        assert!(
            err.message.starts_with("duplicate key \"a\""),
            "{}",
            err.message
        );
        let err = parse("{\"a\": }").err().unwrap();
        assert_eq!(err.position, Some(Position { line: 1, column: 7 }));
        assert_eq!(err.message, "expected value");
        let err = parse("{} {}").err().unwrap();
        assert_eq!(err.message, "trailing characters");
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(parse(&deep).is_err());
    }
}
