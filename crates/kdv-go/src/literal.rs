//! Values of Go literals: integers in every base and quoted strings and runes.

/// The value of an integer literal (`42`, `0x2A`, `0b101010`, `0o52`, `052`, with `_`
/// separators). `None` when malformed or outside `i128`.
pub(crate) fn parse_int_literal(text: &str) -> Option<i128> {
    let clean: String = text.chars().filter(|c| *c != '_').collect();
    let lower = clean.to_ascii_lowercase();
    let (digits, radix) = if let Some(d) = lower.strip_prefix("0x") {
        (d, 16)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (d, 2)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (d, 8)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (&lower[1..], 8)
    } else {
        (lower.as_str(), 10)
    };
    if digits.is_empty() || digits.starts_with(['+', '-']) {
        return None;
    }
    i128::from_str_radix(digits, radix).ok()
}

/// Why a literal could not be unquoted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UnquoteError {
    /// Byte offset within the literal text where the problem is.
    pub offset: usize,
    pub message: String,
}

/// The value of a string, raw string or rune literal, as Go's `strconv.Unquote` gives it.
/// Raw strings drop carriage returns. Escapes that produce bytes which are not valid UTF-8
/// on their own (`\xff`) are kept as U+FFFD.
pub(crate) fn unquote(text: &str) -> Result<String, UnquoteError> {
    let err = |offset: usize, message: &str| UnquoteError {
        offset,
        message: message.to_string(),
    };
    let bytes = text.as_bytes();
    if bytes.len() < 2 {
        return Err(err(0, "literal not terminated"));
    }
    let quote = bytes[0];
    if bytes[bytes.len() - 1] != quote || !matches!(quote, b'"' | b'\'' | b'`') {
        return Err(err(0, "literal not terminated"));
    }
    let inner = &text[1..text.len() - 1];
    if quote == b'`' {
        return Ok(inner.replace('\r', ""));
    }
    let mut out = String::with_capacity(inner.len());
    // Bytes from `\x` / octal escapes, flushed as UTF-8 when possible.
    let mut pending: Vec<u8> = Vec::new();
    let flush = |pending: &mut Vec<u8>, out: &mut String| {
        if !pending.is_empty() {
            out.push_str(&String::from_utf8_lossy(pending));
            pending.clear();
        }
    };
    let mut chars = inner.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let offset = i + 1;
        if c != '\\' {
            if c == quote as char {
                return Err(err(offset, "unexpected quote inside literal"));
            }
            flush(&mut pending, &mut out);
            out.push(c);
            continue;
        }
        let Some((_, e)) = chars.next() else {
            return Err(err(offset, "escape sequence not terminated"));
        };
        let simple = match e {
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'f' => Some('\u{c}'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'v' => Some('\u{b}'),
            '\\' => Some('\\'),
            '"' if quote == b'"' => Some('"'),
            '\'' if quote == b'\'' => Some('\''),
            _ => None,
        };
        if let Some(s) = simple {
            flush(&mut pending, &mut out);
            out.push(s);
            continue;
        }
        let (count, radix) = match e {
            'x' => (2, 16),
            'u' => (4, 16),
            'U' => (8, 16),
            '0'..='7' => (2, 8),
            _ => return Err(err(offset, "unknown escape sequence")),
        };
        let mut value: u32 = if radix == 8 { e as u32 - '0' as u32 } else { 0 };
        for _ in 0..count {
            match chars.next_if(|(_, d)| d.is_digit(radix)) {
                Some((_, d)) => value = value * radix + d.to_digit(radix).unwrap_or(0),
                None => return Err(err(offset, "invalid escape sequence")),
            }
        }
        if matches!(e, 'x' | '0'..='7') {
            if value > 255 {
                return Err(err(offset, "octal escape value > 255"));
            }
            pending.push(value as u8);
        } else {
            let Some(ch) = char::from_u32(value) else {
                return Err(err(offset, "escape sequence is invalid Unicode code point"));
            };
            flush(&mut pending, &mut out);
            out.push(ch);
        }
    }
    flush(&mut pending, &mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_in_all_bases() {
        assert_eq!(parse_int_literal("42"), Some(42));
        assert_eq!(parse_int_literal("0"), Some(0));
        assert_eq!(parse_int_literal("0x_2A"), Some(42));
        assert_eq!(parse_int_literal("0B101010"), Some(42));
        assert_eq!(parse_int_literal("0o52"), Some(42));
        assert_eq!(parse_int_literal("052"), Some(42));
        assert_eq!(parse_int_literal("1_000_000"), Some(1_000_000));
        assert_eq!(parse_int_literal("089"), None);
        assert_eq!(parse_int_literal("0x"), None);
        assert_eq!(parse_int_literal("0x+1"), None);
        assert_eq!(parse_int_literal(&"9".repeat(50)), None);
    }

    #[test]
    fn strings_and_runes() {
        assert_eq!(unquote(r#""a\tb\"c""#).unwrap(), "a\tb\"c");
        assert_eq!(unquote("`a\\n\r\nb`").unwrap(), "a\\n\nb");
        assert_eq!(unquote(r#""\u00e9\U0001F600\x41\101""#).unwrap(), "é😀AA");
        assert_eq!(unquote(r#""\xc3\xa9""#).unwrap(), "é");
        assert_eq!(unquote(r#""\xff""#).unwrap(), "\u{fffd}");
        assert_eq!(unquote(r"'\''").unwrap(), "'");
        assert_eq!(
            unquote(r#"`json:"name,omitempty"`"#).unwrap(),
            r#"json:"name,omitempty""#
        );
        assert!(unquote(r#""\q""#).is_err());
        assert!(unquote(r#""\'""#).is_err());
        assert!(unquote(r#""\x4""#).is_err());
        assert!(unquote(r#""\uD800""#).is_err());
        assert!(unquote(r#""\400""#).is_err());
        assert!(unquote("\"abc").is_err());
        assert!(unquote("\"").is_err());
    }
}
