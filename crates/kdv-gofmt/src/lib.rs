//! kdv-gofmt: reproductions of the Go standard library renderings that show up in upstream
//! error texts: `strconv.Quote` / `strconv.QuoteRune` (`%q`), `strconv.IsPrint` (with Go's
//! Unicode 15.0 tables), `%v` of a `float64`, and `encoding/json` encoding (a `[]byte` as
//! standard base64). One copy for every kdv crate (tag grammar, runtime errors, CEL library
//! errors): `kdv-tags` re-exports `go_quote`, `kdv-runtime` re-exports the crate as `gofmt`.
//!
//! Upstream error messages are compared byte for byte, so these follow Go's rules rather
//! than Rust's (`{:?}` escapes differently, `{}` prints floats differently).

mod printable_table;

use std::fmt::{self, Write};

use printable_table::PRINTABLE_RANGES;

const LOWER_HEX: &[u8; 16] = b"0123456789abcdef";

/// Reports whether Go's `strconv.IsPrint` accepts `c`: letters, marks, numbers,
/// punctuation, symbols (Unicode 15.0, the version Go uses) and the ASCII space.
pub fn is_go_printable(c: char) -> bool {
    let cp = c as u32;
    if cp < 0x80 {
        return (0x20..0x7f).contains(&cp);
    }
    PRINTABLE_RANGES
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                std::cmp::Ordering::Less
            } else if lo > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Returns `s` quoted like Go's `strconv.Quote` (and `fmt`'s `%q`).
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    // Writing into a String cannot fail.
    let _ = write_quoted(&mut out, s);
    out
}

/// Writes `s` quoted like Go's `strconv.Quote`.
pub fn write_quoted<W: Write + ?Sized>(out: &mut W, s: &str) -> fmt::Result {
    write_quoted_bytes(out, s.as_bytes())
}

/// Writes arbitrary bytes quoted like Go's `strconv.Quote` of a Go string holding them:
/// bytes that are not valid UTF-8 become `\xNN`, one escape per byte.
pub fn write_quoted_bytes<W: Write + ?Sized>(out: &mut W, bytes: &[u8]) -> fmt::Result {
    out.write_char('"')?;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            write_escaped_char(out, c, '"')?;
        }
        for &b in chunk.invalid() {
            // Go decodes an invalid sequence one byte at a time, escaping each byte.
            write_hex_escape(out, b'x', u32::from(b), 2)?;
        }
    }
    out.write_char('"')
}

/// Returns `c` quoted like Go's `strconv.QuoteRune` (`%q` of a rune): `'a'`, `'\''`, `'\u3000'`.
pub fn quote_rune(c: char) -> String {
    let mut out = String::with_capacity(8);
    // Writing into a String cannot fail.
    let _ = out.write_char('\'');
    let _ = write_escaped_char(&mut out, c, '\'');
    let _ = out.write_char('\'');
    out
}

/// Writes `c` as inside a Go literal delimited by `quote` (`"` for strings, `'` for runes).
fn write_escaped_char<W: Write + ?Sized>(out: &mut W, c: char, quote: char) -> fmt::Result {
    if c == quote || c == '\\' {
        out.write_char('\\')?;
        return out.write_char(c);
    }
    if is_go_printable(c) {
        return out.write_char(c);
    }
    match c {
        '\u{07}' => out.write_str("\\a"),
        '\u{08}' => out.write_str("\\b"),
        '\u{0c}' => out.write_str("\\f"),
        '\n' => out.write_str("\\n"),
        '\r' => out.write_str("\\r"),
        '\t' => out.write_str("\\t"),
        '\u{0b}' => out.write_str("\\v"),
        _ => {
            let cp = c as u32;
            if cp < 0x20 || cp == 0x7f {
                write_hex_escape(out, b'x', cp, 2)
            } else if cp < 0x10000 {
                write_hex_escape(out, b'u', cp, 4)
            } else {
                write_hex_escape(out, b'U', cp, 8)
            }
        }
    }
}

fn write_hex_escape<W: Write + ?Sized>(
    out: &mut W,
    kind: u8,
    value: u32,
    digits: u32,
) -> fmt::Result {
    out.write_char('\\')?;
    out.write_char(char::from(kind))?;
    for i in (0..digits).rev() {
        let nibble = (value >> (i * 4)) & 0xf;
        out.write_char(char::from(LOWER_HEX[nibble as usize]))?;
    }
    Ok(())
}

/// The shortest decimal digits that round-trip `v` (which must be finite and non-zero),
/// and the decimal exponent of the first digit (`d.ddd × 10^exp`).
fn shortest_digits(v: f64) -> (String, i32) {
    // Rust's `{:e}` prints the shortest round-trip representation, e.g. `1.2345e-7`.
    digits_of(&format!("{:e}", v.abs()))
}

/// The digits and decimal exponent of a `{:e}` rendering (`1.2345e-7`).
fn digits_of(text: &str) -> (String, i32) {
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let exp = exponent.parse::<i32>().unwrap_or(0);
    (digits, exp)
}

/// Lays out shortest digits as Go's `%e` would (`d.ddde±XX`, at least two exponent digits).
fn write_exponent_form(out: &mut String, digits: &str, exp: i32) {
    let mut chars = digits.chars();
    if let Some(first) = chars.next() {
        out.push(first);
    }
    let rest = chars.as_str();
    if !rest.is_empty() {
        out.push('.');
        out.push_str(rest);
    }
    out.push('e');
    out.push(if exp < 0 { '-' } else { '+' });
    let abs = exp.unsigned_abs();
    if abs < 10 {
        out.push('0');
    }
    // Writing into a String cannot fail.
    let _ = write!(out, "{abs}");
}

/// Lays out shortest digits as plain decimal (Go's `%f` with just enough precision).
fn write_plain_form(out: &mut String, digits: &str, exp: i32) {
    let n = digits.len() as i32;
    if exp < 0 {
        out.push_str("0.");
        for _ in 0..(-exp - 1) {
            out.push('0');
        }
        out.push_str(digits);
    } else if exp + 1 >= n {
        out.push_str(digits);
        for _ in 0..(exp + 1 - n) {
            out.push('0');
        }
    } else {
        let split = (exp + 1) as usize;
        out.push_str(&digits[..split]);
        out.push('.');
        out.push_str(&digits[split..]);
    }
}

/// Formats a float like Go's `fmt` `%v`: shortest round-trip digits, exponent form when
/// the decimal exponent is < -4 or >= 6 (`1e+06`, `1.5e-05`, `123456`), and
/// `+Inf`/`-Inf`/`NaN`. (The 1e21 threshold belongs to `encoding/json`, not to `%v`.)
pub fn format_float_v(v: f64) -> String {
    if v.is_nan() {
        return "NaN".to_owned();
    }
    if v.is_infinite() {
        return if v > 0.0 { "+Inf" } else { "-Inf" }.to_owned();
    }
    let mut out = String::new();
    if v.is_sign_negative() {
        out.push('-');
    }
    if v == 0.0 {
        out.push('0');
        return out;
    }
    let (digits, exp) = shortest_digits(v);
    write_g_form(&mut out, &digits, exp);
    out
}

/// Formats a float32 like Go's `strconv.FormatFloat(float64(x), 'g', -1, 32)`: the shortest
/// digits that round-trip the float32, laid out as [`format_float_v`] lays them out.
pub fn format_float32_g(x: f32) -> String {
    if x.is_nan() {
        return "NaN".to_owned();
    }
    if x.is_infinite() {
        return if x > 0.0 { "+Inf" } else { "-Inf" }.to_owned();
    }
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    if x == 0.0 {
        out.push('0');
        return out;
    }
    // `{:e}` of an f32 is the shortest representation that round-trips the f32.
    let (digits, exp) = digits_of(&format!("{:e}", x.abs()));
    write_g_form(&mut out, &digits, exp);
    out
}

/// `%g`'s choice for shortest digits: exponent form when the decimal exponent is < -4 or
/// >= 6, plain otherwise.
fn write_g_form(out: &mut String, digits: &str, exp: i32) {
    if !(-4..6).contains(&exp) {
        write_exponent_form(out, digits, exp);
    } else {
        write_plain_form(out, digits, exp);
    }
}

/// A JSON number as the API server marshals it after decoding: integers in `int64` range as
/// themselves, everything else as a Go `float64` ([`format_float_json`]).
pub fn json_number_marshaled(n: &serde_json::Number) -> String {
    match n.as_i64() {
        Some(i) => i.to_string(),
        None => format_float_json(n.as_f64().unwrap_or(f64::NAN)),
    }
}

/// A JSON number as a client wrote it (kubectl writes integers in `int64` or `uint64` range
/// as such, everything else as a Go `float64`).
pub fn json_number_written(n: &serde_json::Number) -> String {
    match n.as_u64() {
        Some(u) => u.to_string(),
        None => json_number_marshaled(n),
    }
}

/// Formats a float like Go's `encoding/json` (ES6 number formatting): exponent form only
/// below 1e-6 or from 1e21 on, with a one-digit negative exponent not zero-padded.
/// Non-finite values, which Go refuses to encode, render as `null`.
pub fn format_float_json(v: f64) -> String {
    if !v.is_finite() {
        return "null".to_owned();
    }
    let mut out = String::new();
    if v.is_sign_negative() {
        out.push('-');
    }
    if v == 0.0 {
        out.push('0');
        return out;
    }
    let (digits, exp) = shortest_digits(v);
    let abs = v.abs();
    if !(1e-6..1e21).contains(&abs) {
        write_exponent_form(&mut out, &digits, exp);
        // Go trims `e-07` to `e-7` (but keeps `e+21`).
        let n = out.len();
        if n >= 4
            && out.as_bytes()[n - 4] == b'e'
            && out.as_bytes()[n - 3] == b'-'
            && out.as_bytes()[n - 2] == b'0'
        {
            out.remove(n - 2);
        }
    } else {
        write_plain_form(&mut out, &digits, exp);
    }
    out
}

/// Appends the Go `encoding/json` encoding of `value`: object keys sorted byte-wise, no
/// spaces, `<`, `>`, `&`, U+2028 and U+2029 escaped as `\u003c`…, floats as
/// [`format_float_json`].
pub fn write_json(out: &mut String, value: &serde_json::Value) {
    // An explicit stack keeps deeply nested input from exhausting the call stack.
    enum Step<'a> {
        Value(&'a serde_json::Value),
        Raw(&'static str),
        Key(&'a str),
    }
    let mut stack = vec![Step::Value(value)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Raw(s) => out.push_str(s),
            Step::Key(k) => {
                write_json_string(out, k);
                out.push(':');
            }
            Step::Value(v) => match v {
                serde_json::Value::Null => out.push_str("null"),
                serde_json::Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                serde_json::Value::Number(n) => write_json_number(out, n),
                serde_json::Value::String(s) => write_json_string(out, s),
                serde_json::Value::Array(items) => {
                    out.push('[');
                    stack.push(Step::Raw("]"));
                    for (i, item) in items.iter().enumerate().rev() {
                        stack.push(Step::Value(item));
                        if i > 0 {
                            stack.push(Step::Raw(","));
                        }
                    }
                }
                serde_json::Value::Object(map) => {
                    out.push('{');
                    stack.push(Step::Raw("}"));
                    let mut entries: Vec<(&String, &serde_json::Value)> = map.iter().collect();
                    // Go sorts map keys byte-wise; serde_json may preserve insertion order.
                    entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                    for (i, (k, item)) in entries.into_iter().enumerate().rev() {
                        stack.push(Step::Value(item));
                        stack.push(Step::Key(k));
                        if i > 0 {
                            stack.push(Step::Raw(","));
                        }
                    }
                }
            },
        }
    }
}

/// Returns the Go `encoding/json` encoding of `value` (see [`write_json`]).
pub fn to_json(value: &serde_json::Value) -> String {
    let mut out = String::new();
    write_json(&mut out, value);
    out
}

fn write_json_number(out: &mut String, n: &serde_json::Number) {
    if let Some(i) = n.as_i64() {
        // Writing into a String cannot fail.
        let _ = write!(out, "{i}");
    } else if let Some(u) = n.as_u64() {
        let _ = write!(out, "{u}");
    } else if let Some(f) = n.as_f64() {
        out.push_str(&format_float_json(f));
    } else {
        out.push_str("null");
    }
}

/// Writes a JSON string the way Go's `encoding/json` does with HTML escaping on.
pub fn write_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write_hex_escape(out, b'u', c as u32, 4);
            }
            c if (c as u32) < 0x20 => {
                let _ = write_hex_escape(out, b'u', c as u32, 4);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The name `encoding/json` gives a JSON value's kind in its `UnmarshalTypeError`
/// (`json: cannot unmarshal <kind> into Go struct field ...`).
pub fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "bool",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

/// Standard base64 with padding (`encoding/base64.StdEncoding`), the way `encoding/json`
/// writes a `[]byte`.
pub fn base64_std(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn base64_std_as_go() {
        for (bytes, text) in [
            (&b""[..], ""),
            (b"a", "YQ=="),
            (b"ab", "YWI="),
            (b"abc", "YWJj"),
            (b"abcd", "YWJjZA=="),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foob", "Zm9vYg=="),
            (b"hello", "aGVsbG8="),
        ] {
            assert_eq!(base64_std(bytes), text);
        }
    }

    #[test]
    fn print_follows_go() {
        for c in [' ', 'a', '~', '¡', 'é', '€', '\u{0301}', '中', '\u{FFFD}'] {
            assert!(is_go_printable(c), "{c:?}");
        }
        for c in [
            '\0', '\t', '\n', '\u{7f}', '\u{85}', '\u{a0}', '\u{ad}', '\u{2028}', '\u{feff}',
            '\u{e000}', '\u{3000}',
        ] {
            assert!(!is_go_printable(c), "{c:?}");
        }
    }

    #[test]
    fn quote_plain_and_escapes() {
        assert_eq!(quote(""), r#""""#);
        assert_eq!(quote("abc"), r#""abc""#);
        assert_eq!(quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(quote("\u{7}\u{8}\u{c}\n\r\t\u{b}"), r#""\a\b\f\n\r\t\v""#);
        assert_eq!(quote("\u{0}\u{1f}\u{7f}"), r#""\x00\x1f\x7f""#);
        assert_eq!(quote("'"), r#""'""#);
    }

    #[test]
    fn quote_unicode() {
        // Printable non-ASCII is kept.
        assert_eq!(quote("héllo 世界 ✓"), "\"héllo 世界 ✓\"");
        assert_eq!(quote("\u{1F600}"), "\"\u{1F600}\"");
        // Non-printable: C1 controls, NBSP (a space other than U+0020), soft hyphen (Cf),
        // zero-width joiner, BOM, line separator, private use, unassigned.
        assert_eq!(quote("\u{80}"), r#""\u0080""#);
        assert_eq!(quote("\u{a0}"), r#""\u00a0""#);
        assert_eq!(quote("\u{ad}"), r#""\u00ad""#);
        assert_eq!(quote("\u{200d}"), r#""\u200d""#);
        assert_eq!(quote("\u{feff}"), r#""\ufeff""#);
        assert_eq!(quote("\u{2028}"), r#""\u2028""#);
        assert_eq!(quote("\u{e000}"), r#""\ue000""#);
        assert_eq!(quote("\u{10ffff}"), r#""\U0010ffff""#);
        assert_eq!(quote("\u{e0001}"), r#""\U000e0001""#);
        // U+FFFD written out is printable.
        assert_eq!(quote("\u{fffd}"), "\"\u{fffd}\"");
    }

    #[test]
    fn quote_invalid_utf8_bytes() {
        let mut s = String::new();
        write_quoted_bytes(&mut s, b"a\xffb\xe2\x82").unwrap_or(());
        assert_eq!(s, r#""a\xffb\xe2\x82""#);
    }

    #[test]
    fn printable_table_spot_checks() {
        assert!(is_go_printable(' '));
        assert!(!is_go_printable('\u{3000}')); // ideographic space
        assert!(is_go_printable('\u{a1}'));
        assert!(is_go_printable('\u{0301}')); // combining mark
        assert!(is_go_printable('\u{1FAE8}')); // added in Unicode 15.0
        assert!(!is_go_printable('\u{1FAE9}')); // unassigned in 15.0
    }

    #[test]
    fn float_v() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (-2.5, "-2.5"),
            (0.1, "0.1"),
            (123456.0, "123456"),
            (999999.0, "999999"),
            (1e6, "1e+06"),
            (1234567.0, "1.234567e+06"),
            (1e20, "1e+20"),
            (1e21, "1e+21"),
            (1e100, "1e+100"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (9.223372036854776e18, "9.223372036854776e+18"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (f64::INFINITY, "+Inf"),
            (f64::NEG_INFINITY, "-Inf"),
            (f64::NAN, "NaN"),
            (0.3, "0.3"),
            (1.0 / 3.0, "0.3333333333333333"),
        ];
        for &(v, want) in cases {
            assert_eq!(format_float_v(v), want, "value {v:e}");
        }
    }

    #[test]
    fn float_json() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (1.0, "1"),
            (1e6, "1000000"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (123456789.5, "123456789.5"),
            (0.000001, "0.000001"),
            (0.0000001, "1e-7"),
            (1.5e-10, "1.5e-10"),
            (-1e-7, "-1e-7"),
            (1e-100, "1e-100"),
        ];
        for &(v, want) in cases {
            assert_eq!(format_float_json(v), want, "value {v:e}");
        }
    }

    #[test]
    fn json_encoding() {
        let v = json!({"b": [1, 2.5, null, true], "a": {"z": "x", "y": "<&>"}, "": 1e21});
        assert_eq!(
            to_json(&v),
            r#"{"":1e+21,"a":{"y":"\u003c\u0026\u003e","z":"x"},"b":[1,2.5,null,true]}"#
        );
        assert_eq!(
            to_json(&json!("a\u{1}\u{8}\u{c}\u{2028}\"\\é\u{7f}")),
            "\"a\\u0001\\b\\f\\u2028\\\"\\\\é\u{7f}\""
        );
        assert_eq!(to_json(&json!([])), "[]");
        assert_eq!(to_json(&json!({})), "{}");
        assert_eq!(to_json(&json!(u64::MAX)), "18446744073709551615");
        assert_eq!(to_json(&json!(-5)), "-5");
    }

    #[test]
    fn quotes_strings_like_go() {
        assert_eq!(quote(""), r#""""#);
        assert_eq!(quote("abc"), r#""abc""#);
        assert_eq!(quote(r#"a"b\c'd"#), r#""a\"b\\c'd""#);
        assert_eq!(quote("tab\there\n"), r#""tab\there\n""#);
        assert_eq!(quote("\u{0}\u{1b}\u{7f}"), r#""\x00\x1b\x7f""#);
        assert_eq!(quote("\u{7}\u{8}\u{b}\u{c}\r"), r#""\a\b\v\f\r""#);
        assert_eq!(quote("héllo 世界"), "\"héllo 世界\"");
        assert_eq!(quote("\u{a0}\u{ad}\u{feff}"), r#""\u00a0\u00ad\ufeff""#);
        assert_eq!(quote("\u{e0001}"), r#""\U000e0001""#);
        assert_eq!(quote("😀"), "\"😀\"");
    }

    #[test]
    fn quotes_runes_like_go() {
        assert_eq!(quote_rune(' '), "' '");
        assert_eq!(quote_rune('@'), "'@'");
        assert_eq!(quote_rune('\''), r"'\''");
        assert_eq!(quote_rune('"'), "'\"'");
        assert_eq!(quote_rune('\\'), r"'\\'");
        assert_eq!(quote_rune('\t'), r"'\t'");
        assert_eq!(quote_rune('\u{3000}'), r"'\u3000'");
        assert_eq!(quote_rune('α'), "'α'");
    }
}
