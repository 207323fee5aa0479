//! `string.format`: printf-like clauses `%s %d %f %e %b %x %X %o` and `%%`.
//!
//! Two dialects exist in cel-go: the cel-spec formatter of strings ext v4+ ([`Dialect::Spec`])
//! and the locale-based formatter of v1–v3 that Kubernetes runs ([`Dialect::Locale`]: `%f`
//! with `en_US` digit grouping, `%e` in `×10ⁿⁿ` notation, lists and maps rendered as CEL
//! literals with quoted strings).

use crate::value::{EvalError, List, Value};
use kdv_runtime::gofmt::quote as go_quote;

/// Which formatter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// cel-spec `strings.md` (cel-go strings ext v4+).
    Spec,
    /// cel-go strings ext v1–v3 (Kubernetes).
    Locale,
}

const DEFAULT_PRECISION: usize = 6;
/// Precision beyond this is refused (bounds the output of `%.Nf`).
const MAX_PRECISION: usize = 1000;

fn clause_error(msg: String) -> EvalError {
    EvalError::new(format!("could not parse formatting clause: {msg}"))
}

fn format_error(msg: String) -> EvalError {
    EvalError::new(format!("error during formatting: {msg}"))
}

/// Formats `fmt` with `args`.
pub fn format(fmt: &str, args: &List<'_>, dialect: Dialect) -> Result<String, EvalError> {
    let mut out = String::with_capacity(fmt.len() + 8);
    let mut arg_index = 0usize;
    let mut rest = fmt;
    while let Some(p) = rest.find('%') {
        out.push_str(&rest[..p]);
        rest = &rest[p + 1..];
        if let Some(r) = rest.strip_prefix('%') {
            out.push('%');
            rest = r;
            continue;
        }
        if rest.is_empty() {
            return Err(EvalError::new("unexpected end of string"));
        }
        let Some(arg) = args.get(arg_index) else {
            return Err(EvalError::new(format!("index {arg_index} out of range")));
        };
        // Precision.
        let mut precision = None;
        if let Some(r) = rest.strip_prefix('.') {
            let end = r
                .bytes()
                .position(|b| !b.is_ascii_digit())
                .unwrap_or(r.len());
            if end == r.len() {
                return Err(clause_error(
                    "error while parsing precision: could not find end of precision specifier"
                        .into(),
                ));
            }
            let p: usize = r[..end].parse().map_err(|_| {
                clause_error(
                    "error while parsing precision: error while converting precision to integer"
                        .into(),
                )
            })?;
            if p > MAX_PRECISION {
                return Err(clause_error(format!(
                    "error while parsing precision: precision {p} exceeds maximum allowed precision {MAX_PRECISION}"
                )));
            }
            precision = Some(p);
            rest = &r[end..];
        }
        let Some(verb) = rest.chars().next() else {
            return Err(EvalError::new("unexpected end of string"));
        };
        rest = &rest[verb.len_utf8()..];
        let text = match verb {
            's' => string_clause(&arg, dialect)?,
            'd' => decimal(&arg, dialect)?,
            'f' => fixed(&arg, precision.unwrap_or(DEFAULT_PRECISION), dialect)?,
            'e' => scientific(&arg, precision.unwrap_or(DEFAULT_PRECISION), dialect)?,
            'b' => binary(&arg)?,
            'x' | 'X' => hex(&arg, verb == 'X')?,
            'o' => octal(&arg)?,
            other => {
                return Err(clause_error(format!(
                    "unrecognized formatting clause \"{other}\""
                )));
            }
        };
        out.push_str(&text);
        arg_index += 1;
    }
    out.push_str(rest);
    Ok(out)
}

fn type_name(v: &Value<'_>) -> String {
    v.type_of().name().to_string()
}

/// Go `strconv.FormatFloat(d, 'f', -1, 64)`.
fn shortest_fixed(d: f64) -> String {
    format!("{d}")
}

fn special_double(d: f64) -> Option<&'static str> {
    if d.is_nan() {
        Some("NaN")
    } else if d == f64::INFINITY {
        Some("Infinity")
    } else if d == f64::NEG_INFINITY {
        Some("-Infinity")
    } else {
        None
    }
}

fn string_clause(v: &Value<'_>, dialect: Dialect) -> Result<String, EvalError> {
    match dialect {
        Dialect::Spec => {
            let mut out = String::new();
            spec_string(v, &mut out)?;
            Ok(out)
        }
        Dialect::Locale => locale_string(v),
    }
}

fn spec_string(v: &Value<'_>, out: &mut String) -> Result<(), EvalError> {
    match v {
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => out.push_str(&i.to_string()),
        Value::Uint(u) => out.push_str(&u.to_string()),
        Value::Double(d) => {
            out.push_str(&special_double(*d).map_or_else(|| shortest_fixed(*d), str::to_string))
        }
        Value::Bytes(b) => out.push_str(&String::from_utf8_lossy(b)),
        Value::String(s) => out.push_str(s),
        Value::Duration(d) => out.push_str(&d.to_string()),
        Value::Timestamp(t) => out.push_str(&utc(t)),
        Value::Null => out.push_str("null"),
        Value::Type(t) => out.push_str(t.name()),
        Value::List(l) => {
            out.push('[');
            for (i, e) in l.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                spec_string(&e, out)?;
            }
            out.push(']');
        }
        Value::Map(m) => {
            let mut entries = Vec::with_capacity(m.len());
            for (k, val) in m.entries() {
                let mut ks = String::new();
                spec_string(&k, &mut ks)?;
                let mut vs = String::new();
                spec_string(&val, &mut vs)?;
                entries.push((ks, vs));
            }
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            out.push('{');
            for (i, (k, val)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(k);
                out.push_str(": ");
                out.push_str(val);
            }
            out.push('}');
        }
        other => return Err(string_type_error(other)),
    }
    Ok(())
}

fn string_type_error(v: &Value<'_>) -> EvalError {
    format_error(format!(
        "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given {}",
        type_name(v)
    ))
}

fn utc(t: &crate::value::time::Timestamp) -> String {
    match crate::value::time::Timestamp::from_unix(t.secs(), t.subsec_nanos()) {
        Some(u) => u.to_string(),
        None => t.to_string(),
    }
}

/// The v1–v3 `%s`: scalars through `string()`, lists and maps as CEL-like literals.
fn locale_string(v: &Value<'_>) -> Result<String, EvalError> {
    match v {
        Value::List(_) | Value::Map(_) => locale_literal(v),
        Value::Null => Ok("null".into()),
        Value::Int(i) => Ok(i.to_string()),
        Value::Uint(u) => Ok(u.to_string()),
        Value::Double(d) => Ok(crate::value::format_double(*d)),
        Value::Bool(b) => Ok(b.to_string()),
        Value::String(s) => Ok(s.to_string()),
        Value::Bytes(b) => Ok(String::from_utf8_lossy(b).into_owned()),
        Value::Timestamp(t) => Ok(t.to_string()),
        Value::Duration(d) => Ok(d.to_string()),
        Value::Type(t) => Ok(t.name().to_string()),
        other => Err(string_type_error(other)),
    }
}

/// A list or map member in the v1–v3 formatter.
fn locale_member(v: &Value<'_>) -> Result<String, EvalError> {
    Ok(match v {
        Value::String(s) => go_quote(s),
        Value::Bytes(b) => format!("b{}", go_quote(&String::from_utf8_lossy(b))),
        Value::Double(d) => {
            let s = format!("{d:.6}");
            if d.is_nan() || d.is_infinite() {
                go_quote(special_double(*d).unwrap_or("NaN"))
            } else {
                s
            }
        }
        Value::Timestamp(t) => format!("timestamp({})", go_quote(&t.to_string())),
        Value::Duration(d) => format!("duration({})", go_quote(&d.to_string())),
        Value::Type(t) => format!("type({})", t.name()),
        Value::List(_) | Value::Map(_) => locale_literal(v)?,
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".into(),
        other => {
            return Err(EvalError::new(format!(
                "no formatting function for {}",
                type_name(other)
            )));
        }
    })
}

fn locale_literal(v: &Value<'_>) -> Result<String, EvalError> {
    match v {
        Value::List(l) => {
            let parts: Result<Vec<String>, EvalError> =
                l.iter().map(|e| locale_member(&e)).collect();
            Ok(format!("[{}]", parts?.join(", ")))
        }
        Value::Map(m) => {
            let mut entries = Vec::with_capacity(m.len());
            for (k, val) in m.entries() {
                let ks = match &k {
                    Value::String(s) => go_quote(s),
                    Value::Bool(b) => b.to_string(),
                    Value::Int(i) => i.to_string(),
                    Value::Uint(u) => u.to_string(),
                    other => {
                        return Err(EvalError::new(format!(
                            "no formatting function for map key of type {}",
                            type_name(other)
                        )));
                    }
                };
                entries.push((ks, locale_member(&val)?));
            }
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            let parts: Vec<String> = entries.iter().map(|(k, v)| format!("{k}:{v}")).collect();
            Ok(format!("{{{}}}", parts.join(", ")))
        }
        _ => locale_member(v),
    }
}

fn decimal(v: &Value<'_>, dialect: Dialect) -> Result<String, EvalError> {
    match (v, dialect) {
        (Value::Int(i), _) => Ok(i.to_string()),
        (Value::Uint(u), _) => Ok(u.to_string()),
        (Value::Double(d), Dialect::Spec) => {
            Ok(special_double(*d).map_or_else(|| shortest_fixed(*d), str::to_string))
        }
        _ => Err(format_error(format!(
            "decimal clause can only be used on integers, was given {}",
            type_name(v)
        ))),
    }
}

/// The double for `%f`/`%e`: doubles; ints and uints (spec); the strings `NaN`, `Infinity`,
/// `-Infinity` (v1–v3).
fn float_arg(v: &Value<'_>, dialect: Dialect) -> Option<f64> {
    match (v, dialect) {
        (Value::Double(d), _) => Some(*d),
        (Value::Int(i), Dialect::Spec) => Some(*i as f64),
        (Value::Uint(u), Dialect::Spec) => Some(*u as f64),
        (Value::String(s), Dialect::Locale) => match s.as_str() {
            "NaN" => Some(f64::NAN),
            "Infinity" => Some(f64::INFINITY),
            "-Infinity" => Some(f64::NEG_INFINITY),
            _ => None,
        },
        _ => None,
    }
}

fn fixed(v: &Value<'_>, precision: usize, dialect: Dialect) -> Result<String, EvalError> {
    let Some(d) = float_arg(v, dialect) else {
        return Err(format_error(format!(
            "fixed-point clause can only be used on doubles, was given {}",
            type_name(v)
        )));
    };
    if let Some(s) = special_double(d) {
        return Ok(match dialect {
            Dialect::Spec => s.to_string(),
            Dialect::Locale => locale_special(d),
        });
    }
    let s = format!("{d:.precision$}");
    Ok(match dialect {
        Dialect::Spec => s,
        Dialect::Locale => group_thousands(&s),
    })
}

fn locale_special(d: f64) -> String {
    if d.is_nan() {
        "NaN".into()
    } else if d > 0.0 {
        "∞".into()
    } else {
        "-∞".into()
    }
}

/// `en_US` digit grouping of the integer part of a decimal rendering.
fn group_thousands(s: &str) -> String {
    let (sign, body) = match s.strip_prefix('-') {
        Some(b) => ("-", b),
        None => ("", s),
    };
    let (int, frac) = match body.find('.') {
        Some(p) => (&body[..p], &body[p..]),
        None => (body, ""),
    };
    let mut grouped = String::with_capacity(int.len() + int.len() / 3);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("{sign}{grouped}{frac}")
}

fn scientific(v: &Value<'_>, precision: usize, dialect: Dialect) -> Result<String, EvalError> {
    let Some(d) = float_arg(v, dialect) else {
        return Err(format_error(format!(
            "scientific clause can only be used on doubles, was given {}",
            type_name(v)
        )));
    };
    if let Some(s) = special_double(d) {
        return Ok(match dialect {
            Dialect::Spec => s.to_string(),
            Dialect::Locale => locale_special(d),
        });
    }
    // Rust renders `1.052033e3`; Go writes at least two exponent digits with a sign.
    let precision = match dialect {
        Dialect::Spec => precision,
        // v1–v3 pass the precision as a width, so the default precision always applies.
        Dialect::Locale => DEFAULT_PRECISION,
    };
    let r = format!("{d:.precision$e}");
    let (mant, exp) = r.split_once('e').unwrap_or((&r, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits = format!("{:02}", exp.unsigned_abs());
    Ok(match dialect {
        Dialect::Spec => format!("{mant}e{}{digits}", if exp < 0 { '-' } else { '+' }),
        Dialect::Locale => {
            let sup: String = digits
                .chars()
                .map(|c| match c {
                    '0' => '⁰',
                    '1' => '¹',
                    '2' => '²',
                    '3' => '³',
                    '4' => '⁴',
                    '5' => '⁵',
                    '6' => '⁶',
                    '7' => '⁷',
                    '8' => '⁸',
                    _ => '⁹',
                })
                .collect();
            format!("{mant}×10{}{sup}", if exp < 0 { "⁻" } else { "" })
        }
    })
}

fn binary(v: &Value<'_>) -> Result<String, EvalError> {
    match v {
        Value::Int(i) if *i < 0 => Ok(format!("-{:b}", i.unsigned_abs())),
        Value::Int(i) => Ok(format!("{i:b}")),
        Value::Uint(u) => Ok(format!("{u:b}")),
        Value::Bool(b) => Ok(if *b { "1" } else { "0" }.into()),
        _ => Err(format_error(format!(
            "only integers and bools can be formatted as binary, was given {}",
            type_name(v)
        ))),
    }
}

fn hex(v: &Value<'_>, upper: bool) -> Result<String, EvalError> {
    let s = match v {
        Value::Int(i) if *i < 0 => format!("-{:x}", i.unsigned_abs()),
        Value::Int(i) => format!("{i:x}"),
        Value::Uint(u) => format!("{u:x}"),
        Value::String(s) => s.bytes().map(|b| format!("{b:02x}")).collect(),
        Value::Bytes(b) => b.iter().map(|b| format!("{b:02x}")).collect(),
        _ => {
            return Err(format_error(format!(
                "only integers, byte buffers, and strings can be formatted as hex, was given {}",
                type_name(v)
            )));
        }
    };
    Ok(if upper { s.to_ascii_uppercase() } else { s })
}

fn octal(v: &Value<'_>) -> Result<String, EvalError> {
    match v {
        Value::Int(i) if *i < 0 => Ok(format!("-{:o}", i.unsigned_abs())),
        Value::Int(i) => Ok(format!("{i:o}")),
        Value::Uint(u) => Ok(format!("{u:o}")),
        _ => Err(format_error(format!(
            "octal clause can only be used on integers, was given {}",
            type_name(v)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::List;

    fn f(fmt: &str, args: Vec<Value<'static>>, d: Dialect) -> Result<String, EvalError> {
        format(fmt, &List::new(args), d)
    }

    #[test]
    fn spec_dialect() {
        let s = |fmt, args| f(fmt, args, Dialect::Spec).unwrap();
        assert_eq!(s("%.3f", vec![Value::Double(1.2345)]), "1.234");
        assert_eq!(s("%.0f", vec![Value::Double(2.5)]), "2");
        assert_eq!(
            s("%.6e", vec![Value::Double(1052.032911275)]),
            "1.052033e+03"
        );
        assert_eq!(s("%e", vec![Value::Int(2)]), "2.000000e+00");
        assert_eq!(
            s("%x", vec![Value::string("Hello world!")]),
            "48656c6c6f20776f726c6421"
        );
        assert_eq!(
            s(
                "%b %o %X",
                vec![Value::Int(5), Value::Int(11), Value::Int(30)]
            ),
            "101 13 1E"
        );
        assert_eq!(s("%%%s%%", vec![Value::string("t")]), "%t%");
        assert_eq!(
            s(
                "%s",
                vec![Value::list(vec![
                    Value::string("abc"),
                    Value::Double(3.25),
                    Value::Null
                ])]
            ),
            "[abc, 3.25, null]"
        );
        assert!(f("%d %d", vec![Value::Int(1)], Dialect::Spec).is_err());
        assert!(f("%a", vec![Value::Int(1)], Dialect::Spec).is_err());
        assert!(f("%d", vec![Value::Null], Dialect::Spec).is_err());
    }

    #[test]
    fn locale_dialect_matches_kubernetes_examples() {
        let s = |fmt, args| f(fmt, args, Dialect::Locale).unwrap();
        assert_eq!(s("%e", vec![Value::Double(3.25)]), "3.250000×10⁰⁰");
        assert_eq!(
            s(
                "%o %o %o",
                vec![Value::Int(7), Value::Int(8), Value::Int(9)]
            ),
            "7 10 11"
        );
        assert_eq!(
            s(
                "%b %b %b",
                vec![Value::Int(7), Value::Int(8), Value::Int(9)]
            ),
            "111 1000 1001"
        );
        assert_eq!(s("%f", vec![Value::Double(1234567.5)]), "1,234,567.500000");
        assert_eq!(s("%f", vec![Value::Double(1.0)]), "1.000000");
        assert!(f("%f", vec![Value::Int(1)], Dialect::Locale).is_err());
        assert_eq!(
            s(
                "%s",
                vec![Value::list(vec![Value::string("a"), Value::Double(1.5)])]
            ),
            "[\"a\", 1.500000]"
        );
    }
}
