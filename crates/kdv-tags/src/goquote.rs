//! Go's `strconv.Quote` / `strconv.QuoteRune`, i.e. what `fmt`'s `%q` prints.
//!
//! Upstream error texts embed `%q` renderings (`unexpected character 'x' …`,
//! `invalid number "0x" …`, `parsing "abc" as int: …`), so they must be reproduced exactly.

use std::fmt::Write as _;

use crate::chars::is_print;

/// Go `strconv.Quote(s)`: a double-quoted string with Go escapes for `"`, `\` and
/// non-printable characters. This is `fmt.Sprintf("%q", s)` for a string.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        push_escaped(&mut out, c, '"');
    }
    out.push('"');
    out
}

/// Go `strconv.QuoteRune(c)`: a single-quoted character literal. This is
/// `fmt.Sprintf("%q", r)` for a rune.
pub fn go_quote_rune(c: char) -> String {
    let mut out = String::with_capacity(8);
    out.push('\'');
    push_escaped(&mut out, c, '\'');
    out.push('\'');
    out
}

fn push_escaped(out: &mut String, c: char, quote: char) {
    if c == quote || c == '\\' {
        out.push('\\');
        out.push(c);
        return;
    }
    if is_print(c) {
        out.push(c);
        return;
    }
    match c {
        '\u{7}' => out.push_str("\\a"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{b}' => out.push_str("\\v"),
        // Writing to a String cannot fail.
        c if c < ' ' || c == '\u{7f}' => {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        }
        c if u32::from(c) < 0x10000 => {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        }
        c => {
            let _ = write!(out, "\\U{:08x}", u32::from(c));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_strings_like_go() {
        assert_eq!(go_quote(""), r#""""#);
        assert_eq!(go_quote("abc"), r#""abc""#);
        assert_eq!(go_quote(r#"a"b\c'd"#), r#""a\"b\\c'd""#);
        assert_eq!(go_quote("tab\there\n"), r#""tab\there\n""#);
        assert_eq!(go_quote("\u{0}\u{1b}\u{7f}"), r#""\x00\x1b\x7f""#);
        assert_eq!(go_quote("\u{7}\u{8}\u{b}\u{c}\r"), r#""\a\b\v\f\r""#);
        assert_eq!(go_quote("héllo 世界"), "\"héllo 世界\"");
        assert_eq!(go_quote("\u{a0}\u{ad}\u{feff}"), r#""\u00a0\u00ad\ufeff""#);
        assert_eq!(go_quote("\u{e0001}"), r#""\U000e0001""#);
        assert_eq!(go_quote("😀"), "\"😀\"");
    }

    #[test]
    fn quotes_runes_like_go() {
        assert_eq!(go_quote_rune(' '), "' '");
        assert_eq!(go_quote_rune('@'), "'@'");
        assert_eq!(go_quote_rune('\''), r"'\''");
        assert_eq!(go_quote_rune('"'), "'\"'");
        assert_eq!(go_quote_rune('\\'), r"'\\'");
        assert_eq!(go_quote_rune('\t'), r"'\t'");
        assert_eq!(go_quote_rune('\u{3000}'), r"'\u3000'");
        assert_eq!(go_quote_rune('α'), "'α'");
    }
}
