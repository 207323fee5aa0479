//! How a value prints: cel-go's `types.Format` (what its REPL and `fmt` show), which is the
//! `Display` of [`Value`].
//!
//! | type | printed as | e.g. |
//! |---|---|---|
//! | `null_type`, `bool`, `int` | the literal | `null`, `true`, `-3` |
//! | `uint` | digits and `u` | `3u` |
//! | `double` | shortest decimal that reads back, never an exponent, `.0` added to whole numbers; NaN and infinities as conversions | `2.5`, `1.0`, `10000000000.0`, `double("NaN")`, `double("-Infinity")` |
//! | `string` | Go `strconv.Quote` | `"a\"b\n"` |
//! | `bytes` | every byte as a three-digit octal escape | `b"\141\000"` |
//! | `list` | elements in order | `[1, "a"]` |
//! | `map` | entries sorted by their printed key | `{"a": 1, "b": 2}` |
//! | `type` | the type's name, without parameters | `int`, `list`, `net.IP`, `type` |
//! | `google.protobuf.Duration` | seconds as a decimal (Go's `Seconds()`, a float64) | `duration("3600s")`, `duration("0.5s")` |
//! | `google.protobuf.Timestamp` | RFC 3339 with nanoseconds, in UTC | `timestamp("2020-01-01T00:00:00Z")` |
//! | `optional_type` | the constructor call | `optional.of(1)`, `optional.none()` |
//! | `kubernetes.Quantity` | apimachinery `Quantity.String()`: as written when canonical, else canonical | `1Gi`, `quantity("1024Mi")` → `1Gi`, `quantity("1000m")` → `1` |
//! | `net.IP`, `net.CIDR` | Go `netip.Addr`/`Prefix` `String()` | `10.0.0.1`, `::ffff:1.2.3.4`, `10.0.0.0/8` |
//! | `kubernetes.URL` | Go `url.URL.String()` | `https://x/a?b=c` |
//! | `kubernetes.Semver` | blang/semver `String()` | `1.2.3-rc.1+b5` |
//! | `kubernetes.NamedFormat` | the call that yields it (cel-go prints the Go struct, a function pointer included) | `format.dns1123Label()` |
//!
//! Errors are not values: evaluation returns them apart, and callers print their message.

use std::fmt::{self, Write};

use super::Value;
#[cfg(test)]
use super::format_double;

impl fmt::Display for Value<'_> {
    /// cel-go's `types.Format` (see the module table).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Uint(u) => write!(f, "{u}u"),
            Value::Double(d) => write_double(f, *d),
            Value::String(s) => kdv_runtime::gofmt::write_quoted(f, s),
            Value::Bytes(b) => {
                f.write_str("b\"")?;
                for &c in b.iter() {
                    write!(f, "\\{c:03o}")?;
                }
                f.write_char('"')
            }
            Value::List(l) => {
                f.write_char('[')?;
                for (i, v) in l.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_char(']')
            }
            Value::Map(m) => {
                let mut entries: Vec<(String, String)> = m
                    .entries()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect();
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                f.write_char('{')?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                f.write_char('}')
            }
            Value::Type(t) => f.write_str(t.name()),
            Value::Duration(d) => write!(f, "duration(\"{d}\")"),
            Value::Timestamp(t) => write!(f, "timestamp(\"{}\")", t.in_utc()),
            Value::Optional(None) => f.write_str("optional.none()"),
            Value::Optional(Some(v)) => write!(f, "optional.of({v})"),
            Value::Opaque(o) => o.format(f),
        }
    }
}

/// Go `strconv.FormatFloat(d, 'f', -1, 64)` with `.0` added when there is no point (Rust's
/// `Display` of `f64` is the same shortest fixed-point form).
fn write_double(f: &mut fmt::Formatter<'_>, d: f64) -> fmt::Result {
    if d.is_nan() {
        return f.write_str("double(\"NaN\")");
    }
    if d.is_infinite() {
        return f.write_str(if d < 0.0 {
            "double(\"-Infinity\")"
        } else {
            "double(\"Infinity\")"
        });
    }
    let text = d.to_string();
    f.write_str(&text)?;
    if !text.contains('.') {
        f.write_str(".0")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{Key, List, OwnedMap};
    use std::sync::Arc;

    #[test]
    fn item_17_values_print_as_cel_go_formats_them() {
        // Expressions, the Kubernetes types among them, are in `tests/value_format.rs`.
        let mut map = OwnedMap::new();
        map.insert_new(Key::Int(10), Value::string("y")).unwrap();
        map.insert_new(Key::Int(2), Value::Double(f64::NAN))
            .unwrap();
        let cases: Vec<(Value<'_>, &str)> = vec![
            (Value::Double(2.0), "2.0"),
            (Value::Double(-0.0), "-0.0"),
            (Value::Double(1e21), "1000000000000000000000.0"),
            (Value::Double(f64::NEG_INFINITY), "double(\"-Infinity\")"),
            (Value::Uint(7), "7u"),
            (Value::string("\u{1b}[31m"), "\"\\x1b[31m\""),
            (
                Value::List(List::new(vec![Value::Null, Value::Bool(true)])),
                "[null, true]",
            ),
            (
                Value::Map(super::super::Map::Owned(Arc::new(map))),
                "{10: \"y\", 2: double(\"NaN\")}",
            ),
        ];
        for (value, want) in cases {
            assert_eq!(value.to_string(), want);
        }
        // `string(2.0)` is "2": conversion and printing differ.
        assert_eq!(format_double(2.0), "2");
    }
}
