//! Decoding of string and bytes literal tokens (quotes, raw prefix, escapes), with cel-go's
//! error texts. The lexer has already checked escape syntax; this checks code points.

/// Decodes the text of a STRING token (including its quotes and optional `r` prefix), or of a
/// BYTES token with its `b` prefix removed. Strings yield UTF-8, bytes yield raw octets.
pub(crate) fn unescape(token: &str, is_bytes: bool) -> Result<Vec<u8>, &'static str> {
    // All literals normalise line endings to `\n`, raw ones included.
    let normalized;
    let mut value: &str = token;
    if value.contains('\r') {
        normalized = value.replace("\r\n", "\n").replace('\r', "\n");
        value = &normalized;
    }
    let bytes = value.as_bytes();
    if bytes.len() < 2 {
        return Err("unable to unescape string");
    }
    let mut raw = false;
    if bytes[0] == b'r' || bytes[0] == b'R' {
        raw = true;
        value = &value[1..];
    }
    let b = value.as_bytes();
    let n = b.len();
    if n < 2 || b[0] != b[n - 1] || (b[0] != b'"' && b[0] != b'\'') {
        return Err("unable to unescape string");
    }
    let body = if n >= 6 && (value.starts_with("'''") || value.starts_with("\"\"\"")) {
        let q = &value[..3];
        if !value.ends_with(q) {
            return Err("unable to unescape string");
        }
        &value[3..n - 3]
    } else {
        &value[1..n - 1]
    };
    if raw || !body.contains('\\') {
        return Ok(body.as_bytes().to_vec());
    }
    let mut out = Vec::with_capacity(body.len());
    let s = body.as_bytes();
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c != b'\\' {
            out.push(c);
            i += 1;
            continue;
        }
        let Some(&e) = s.get(i + 1) else {
            return Err("unable to unescape string, found '\\' as last character");
        };
        i += 2;
        let simple = match e {
            b'a' => Some(0x07),
            b'b' => Some(0x08),
            b'f' => Some(0x0C),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'v' => Some(0x0B),
            b'\\' => Some(b'\\'),
            b'\'' => Some(b'\''),
            b'"' => Some(b'"'),
            b'`' => Some(b'`'),
            b'?' => Some(b'?'),
            _ => None,
        };
        if let Some(v) = simple {
            out.push(v);
            continue;
        }
        match e {
            b'x' | b'X' | b'u' | b'U' => {
                let len = match e {
                    b'x' | b'X' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                if is_bytes && len > 2 {
                    return Err("unable to unescape string");
                }
                let Some(digits) = s.get(i..i + len) else {
                    return Err("unable to unescape string");
                };
                let mut v: u32 = 0;
                for &d in digits {
                    let x = (d as char)
                        .to_digit(16)
                        .ok_or("unable to unescape string")?;
                    v = (v << 4) | x;
                }
                i += len;
                if is_bytes {
                    out.push(v as u8);
                } else {
                    push_code_point(&mut out, v)?;
                }
            }
            b'0'..=b'3' => {
                let Some(digits) = s.get(i..i + 2) else {
                    return Err("unable to unescape octal sequence in string");
                };
                let mut v = (e - b'0') as u32;
                for &d in digits {
                    if !(b'0'..=b'7').contains(&d) {
                        return Err("unable to unescape octal sequence in string");
                    }
                    v = v * 8 + (d - b'0') as u32;
                }
                i += 2;
                if is_bytes {
                    out.push(v as u8);
                } else {
                    push_code_point(&mut out, v)?;
                }
            }
            _ => return Err("unable to unescape string"),
        }
    }
    Ok(out)
}

fn push_code_point(out: &mut Vec<u8>, v: u32) -> Result<(), &'static str> {
    let c = char::from_u32(v).ok_or("invalid unicode code point")?;
    let mut buf = [0u8; 4];
    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(t: &str) -> String {
        String::from_utf8(unescape(t, false).unwrap()).unwrap()
    }

    #[test]
    fn quotes_and_raw() {
        assert_eq!(s("'abc'"), "abc");
        assert_eq!(s("\"\"\"a\"b\"\"\""), "a\"b");
        assert_eq!(s(r"r'\n'"), r"\n");
        assert_eq!(s("'''a\r\nb'''"), "a\nb");
    }

    #[test]
    fn escapes_in_strings_are_code_points() {
        assert_eq!(s(r#""\xC3\XBF""#), "Ã¿");
        assert_eq!(s(r#""\303\277""#), "Ã¿");
        assert_eq!(s(r#""\u263A\U0001F600""#), "☺😀");
        assert_eq!(
            s(r#""\a\b\f\n\r\t\v\'\"\\\?\`""#),
            "\x07\x08\x0c\n\r\t\x0b'\"\\?`"
        );
    }

    #[test]
    fn escapes_in_bytes_are_octets() {
        assert_eq!(
            unescape(r#""\xFF\377ÿ""#, true).unwrap(),
            vec![0xFF, 0xFF, 0xC3, 0xBF]
        );
        assert_eq!(
            unescape(r#""\u0041""#, true),
            Err("unable to unescape string")
        );
    }

    #[test]
    fn invalid_code_points() {
        assert_eq!(
            unescape(r"'\udead'", false),
            Err("invalid unicode code point")
        );
        assert_eq!(
            unescape(r"'\U00110000'", false),
            Err("invalid unicode code point")
        );
    }
}
