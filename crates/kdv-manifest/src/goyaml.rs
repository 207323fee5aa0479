//! go-yaml v2's resolution of plain scalars and sigs.k8s.io/yaml's conversion of mapping
//! keys to JSON object keys, from a scalar's text.
//!
//! serde-saphyr resolves most scalars as go-yaml v2 does; this module settles the cases
//! where its answer depends on the spelling it no longer has (booleans it reads in any
//! letter case, numbers too large for a float64) and the text of non-string keys.

use std::borrow::Cow;

/// A plain, untagged scalar as go-yaml v2's `resolve` types it (decoding into
/// `interface{}`: timestamps stay strings).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Scalar {
    Null,
    Bool(bool),
    /// Go `int` (64-bit platforms).
    Int(i64),
    /// Go `uint64`: beyond `int64`.
    Uint(u64),
    Float(f64),
    /// The text itself.
    Str,
}

/// go-yaml v2's boolean spellings (`resolveMapList`): three letter cases of each word.
pub(crate) fn go_bool(s: &str) -> Option<bool> {
    match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Some(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Some(false)
        }
        _ => None,
    }
}

/// A word serde-saphyr reads as a boolean (any letter case) that go-yaml v2 reads as a
/// string (`yEs`, `tRUE`, `oN`).
fn odd_case_bool(s: &str) -> bool {
    go_bool(s).is_none()
        && ["y", "yes", "true", "on", "n", "no", "false", "off"]
            .iter()
            .any(|w| s.eq_ignore_ascii_case(w))
}

/// Whether `text` may hold a plain scalar serde-saphyr reads as a boolean and go-yaml v2
/// as a string: a run of letters spelling a boolean word in another letter case. Quoted
/// text and comments can match too (the exact reading then just costs a second pass).
pub(crate) fn may_hold_odd_case_bool(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphabetic())
        .any(|word| (1..=5).contains(&word.len()) && odd_case_bool(word))
}

/// go-yaml v2's `resolve` of a plain, untagged scalar's text.
pub(crate) fn resolve(text: &str) -> Scalar {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Scalar::Null,
        ".nan" | ".NaN" | ".NAN" => return Scalar::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Scalar::Float(f64::INFINITY);
        }
        "-.inf" | "-.Inf" | "-.INF" => return Scalar::Float(f64::NEG_INFINITY),
        _ => {}
    }
    if let Some(b) = go_bool(text) {
        return Scalar::Bool(b);
    }
    match text.as_bytes()[0] {
        b'.' => match go_parse_float(text) {
            Some(f) => Scalar::Float(f),
            None => Scalar::Str,
        },
        b'+' | b'-' | b'0'..=b'9' => {
            let plain: Cow<'_, str> = if text.contains('_') {
                Cow::Owned(text.replace('_', ""))
            } else {
                Cow::Borrowed(text)
            };
            if let Some(i) = go_parse_int(&plain) {
                return Scalar::Int(i);
            }
            if let Some(u) = go_parse_uint(&plain) {
                return Scalar::Uint(u);
            }
            if yaml_style_float(&plain)
                && let Some(f) = go_parse_float(&plain)
            {
                return Scalar::Float(f);
            }
            Scalar::Str
        }
        _ => Scalar::Str,
    }
}

/// `strconv.ParseFloat(s, 64)` for the decimal shapes go-yaml hands it: `None` where Go
/// fails, overflow to ±Inf included.
fn go_parse_float(s: &str) -> Option<f64> {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    // Rust also reads `inf`, `nan`, `infinity`; go-yaml only passes decimal shapes here.
    if !body
        .bytes()
        .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'))
    {
        return None;
    }
    s.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// go-yaml v2's `yamlStyleFloat`: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// The magnitude of `strconv.ParseUint(s, 0, 64)`'s base-prefixed or decimal digits.
fn go_magnitude(s: &str) -> Option<u64> {
    let (radix, digits) = if let Some(d) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (16, d)
    } else if let Some(d) = s.strip_prefix("0o").or_else(|| s.strip_prefix("0O")) {
        (8, d)
    } else if let Some(d) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        (2, d)
    } else if s.len() > 1
        && let Some(d) = s.strip_prefix('0')
    {
        (8, d)
    } else {
        (10, s)
    };
    // from_str_radix accepts a sign; Go's digits do not.
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    u64::from_str_radix(digits, radix).ok()
}

/// `strconv.ParseInt(s, 0, 64)`.
fn go_parse_int(s: &str) -> Option<i64> {
    let (negative, rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let m = go_magnitude(rest)?;
    if negative {
        0i64.checked_sub_unsigned(m)
    } else {
        i64::try_from(m).ok()
    }
}

/// `strconv.ParseUint(s, 0, 64)` (no sign).
fn go_parse_uint(s: &str) -> Option<u64> {
    if s.starts_with(['+', '-']) {
        return None;
    }
    go_magnitude(s)
}

/// The JSON key sigs.k8s.io/yaml writes for a float64 key: `strconv.FormatFloat(f, 'g', -1,
/// 32)` (the shortest digits of its float32 rounding), infinities and NaN as go-yaml spells
/// them.
pub(crate) fn float_key(f: f64) -> String {
    let x = f as f32;
    if x.is_nan() {
        return ".nan".to_owned();
    }
    if x.is_infinite() {
        return if x > 0.0 { ".inf" } else { "-.inf" }.to_owned();
    }
    kdv_gofmt::format_float32_g(x)
}

/// The JSON object key sigs.k8s.io/yaml's `YAMLToJSON` makes of a key go-yaml resolved as
/// `scalar` (`text` is its spelling): booleans `"true"`/`"false"`, integers in decimal,
/// floats as [`float_key`]; `uint64` and null keys are its errors.
pub(crate) fn json_key<'t>(scalar: Scalar, text: &'t str) -> Result<Cow<'t, str>, String> {
    match scalar {
        Scalar::Str => Ok(Cow::Borrowed(text)),
        Scalar::Bool(b) => Ok(Cow::Borrowed(if b { "true" } else { "false" })),
        Scalar::Int(i) => Ok(Cow::Owned(i.to_string())),
        Scalar::Float(f) => Ok(Cow::Owned(float_key(f))),
        Scalar::Uint(u) => Err(format!(
            "unsupported map key of type: uint64, key: {u:#x}; the API server cannot read the document"
        )),
        Scalar::Null => Err(
            "unsupported map key of type: null; the API server cannot read the document".to_owned(),
        ),
    }
}

/// The JSON key of a plain, untagged key spelled `text`; its spelling where JSON has no
/// such key (the reader reports those).
pub(crate) fn plain_key(text: &str) -> Cow<'_, str> {
    match text.as_bytes().first() {
        Some(c) if c.is_ascii_alphabetic() && go_bool(text).is_none() => Cow::Borrowed(text),
        _ => json_key(resolve(text), text).unwrap_or(Cow::Borrowed(text)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_as_go_yaml_v2() {
        assert_eq!(resolve("on"), Scalar::Bool(true));
        assert_eq!(resolve("Off"), Scalar::Bool(false));
        assert_eq!(resolve("oN"), Scalar::Str);
        assert_eq!(resolve("~"), Scalar::Null);
        assert_eq!(resolve("0x1F"), Scalar::Int(31));
        assert_eq!(resolve("0755"), Scalar::Int(493));
        assert_eq!(resolve("0o17"), Scalar::Int(15));
        assert_eq!(resolve("-0b101"), Scalar::Int(-5));
        assert_eq!(resolve("1_000"), Scalar::Int(1000));
        assert_eq!(resolve("+1"), Scalar::Int(1));
        assert_eq!(resolve("09"), Scalar::Float(9.0));
        assert_eq!(
            resolve("9223372036854775808"),
            Scalar::Uint(9_223_372_036_854_775_808)
        );
        assert_eq!(resolve("-9223372036854775808"), Scalar::Int(i64::MIN));
        assert_eq!(
            resolve("-9223372036854775809"),
            Scalar::Float(-9_223_372_036_854_775_808.0)
        );
        assert_eq!(resolve("1e400"), Scalar::Str);
        assert_eq!(resolve("-1e309"), Scalar::Str);
        assert_eq!(resolve(".5e400"), Scalar::Str);
        assert_eq!(resolve("+.5"), Scalar::Float(0.5));
        assert_eq!(resolve("1."), Scalar::Float(1.0));
        assert_eq!(resolve("1e5"), Scalar::Float(1e5));
        assert_eq!(resolve(".inf"), Scalar::Float(f64::INFINITY));
        assert_eq!(resolve("2001-12-14"), Scalar::Str);
        assert_eq!(resolve("0x"), Scalar::Str);
        assert_eq!(resolve("1.2.3"), Scalar::Str);
    }

    #[test]
    fn keys_as_sigs_k8s_io_yaml_writes_them() {
        let key = |s: &str| json_key(resolve(s), s).map(Cow::into_owned);
        assert_eq!(key("on").unwrap(), "true");
        assert_eq!(key("y").unwrap(), "true");
        assert_eq!(key("NO").unwrap(), "false");
        assert_eq!(key("0x1F").unwrap(), "31");
        assert_eq!(key("-0").unwrap(), "0");
        assert_eq!(key("1.0").unwrap(), "1");
        assert_eq!(key("-0.0").unwrap(), "-0");
        assert_eq!(key("0.1").unwrap(), "0.1");
        assert_eq!(key("3.14159265358979").unwrap(), "3.1415927");
        assert_eq!(key("100000.0").unwrap(), "100000");
        assert_eq!(key("1e6").unwrap(), "1e+06");
        assert_eq!(key("1.5e-5").unwrap(), "1.5e-05");
        assert_eq!(key("0.0001").unwrap(), "0.0001");
        assert_eq!(key("1e300").unwrap(), ".inf");
        assert_eq!(key("-.Inf").unwrap(), "-.inf");
        assert_eq!(key(".NaN").unwrap(), ".nan");
        assert_eq!(key("1e400").unwrap(), "1e400");
        assert_eq!(key("name").unwrap(), "name");
        assert!(key("18446744073709551615").is_err());
        assert!(key("null").is_err());
    }

    #[test]
    fn odd_case_booleans_are_found() {
        assert!(may_hold_odd_case_bool("a: yEs\n"));
        assert!(may_hold_odd_case_bool("tRUE: 1"));
        assert!(!may_hold_odd_case_bool("a: yes\nb: On\nname: nOne\n"));
    }
}
