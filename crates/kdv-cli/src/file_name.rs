//! File names as kdv prints them, so that a name can neither break a line of output nor be
//! mistaken for its separators.
//!
//! **Text form** (text output, messages, `text` fields): a name is printed as it is when
//! every character is printable (Go's `strconv.IsPrint`, which excludes control and
//! formatting characters such as newlines, escape bytes and bidirectional overrides), is not
//! a space, and is none of `"`, `#`, `:`, and the name does not start with `<`. Any other
//! name is printed as a Go-quoted string, the way values in error messages are quoted:
//! `"my manifests/a#1.yaml"`, `"x\nname.yaml"`, and bytes that are not UTF-8 as `\xNN`
//! (`"\xff.yaml"`). Standard input is `<stdin>`, which no file name prints as (a file named
//! so prints `"<stdin>"`). So a line `NAME:LINE:COL#DOC: ...` or `NAME:LINE:COL: ...` always
//! splits at the first `:` after the name, and the name reads back exactly ([`decode`]).
//!
//! **JSON**: the real name as a JSON string ([`json_name`]); when it is not valid UTF-8,
//! undecodable bytes become U+FFFD and the exact bytes are given beside it. Standard input
//! is `-`, as on the command line.
//!
//! **SARIF**: a URI reference ([`uri`]): relative paths stay relative, absolute ones become
//! `file://` URIs, and every byte outside RFC 3986's unreserved characters and `/` is
//! percent-encoded.

use std::path::Path;

/// The text form of standard input.
pub const STDIN: &str = "<stdin>";

/// The text form of a path (see the module docs).
pub fn display(path: &Path) -> String {
    display_bytes(path.as_os_str().as_encoded_bytes())
}

/// The text form of a name given as bytes (see the module docs).
pub fn display_bytes(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) if !needs_quotes(text) => text.to_string(),
        _ => {
            let mut out = String::with_capacity(bytes.len() + 2);
            // Writing into a String cannot fail.
            let _ = kdv_gofmt::write_quoted_bytes(&mut out, bytes);
            out
        }
    }
}

fn needs_quotes(text: &str) -> bool {
    text.is_empty()
        || text.starts_with('<')
        || text
            .chars()
            .any(|c| c == ' ' || c == '"' || c == '#' || c == ':' || !kdv_gofmt::is_go_printable(c))
}

/// What a text-form name stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Name {
    /// Standard input.
    Stdin,
    /// A file, by the bytes of its path.
    Path(Vec<u8>),
}

/// Reads a text-form name back: `<stdin>`, a quoted name, or a name as it is.
pub fn decode(text: &str) -> Name {
    if text == STDIN {
        return Name::Stdin;
    }
    match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        Some(inner) => Name::Path(unquote(inner).unwrap_or_else(|| text.as_bytes().to_vec())),
        None => Name::Path(text.as_bytes().to_vec()),
    }
}

/// The inside of a Go-quoted string as bytes; `None` if it is not one.
fn unquote(inner: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        let hex = |chars: &mut std::str::Chars<'_>, n: usize| -> Option<u32> {
            let digits: String = chars.take(n).collect();
            (digits.len() == n)
                .then(|| u32::from_str_radix(&digits, 16).ok())
                .flatten()
        };
        match chars.next()? {
            'a' => out.push(0x07),
            'b' => out.push(0x08),
            'f' => out.push(0x0c),
            'n' => out.push(b'\n'),
            'r' => out.push(b'\r'),
            't' => out.push(b'\t'),
            'v' => out.push(0x0b),
            '\\' => out.push(b'\\'),
            '"' => out.push(b'"'),
            'x' => out.push(u8::try_from(hex(&mut chars, 2)?).ok()?),
            'u' => push_char(&mut out, hex(&mut chars, 4)?)?,
            'U' => push_char(&mut out, hex(&mut chars, 8)?)?,
            _ => return None,
        }
    }
    Some(out)
}

fn push_char(out: &mut Vec<u8>, code: u32) -> Option<()> {
    let c = char::from_u32(code)?;
    let mut buf = [0u8; 4];
    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    Some(())
}

/// The name for JSON output: the real name (U+FFFD for bytes that are not UTF-8, `-` for
/// standard input) and, when that is lossy, the exact bytes.
pub fn json_name(text: &str) -> (String, Option<Vec<u8>>) {
    match decode(text) {
        Name::Stdin => ("-".to_string(), None),
        Name::Path(bytes) => match String::from_utf8(bytes) {
            Ok(name) => (name, None),
            Err(e) => {
                let name = String::from_utf8_lossy(e.as_bytes()).into_owned();
                (name, Some(e.into_bytes()))
            }
        },
    }
}

/// The name as a SARIF artifact URI; `None` for standard input, which has none.
pub fn uri(text: &str) -> Option<String> {
    let Name::Path(bytes) = decode(text) else {
        return None;
    };
    let mut out = String::with_capacity(bytes.len() + 8);
    if bytes.first() == Some(&b'/') {
        out.push_str("file://");
    }
    for b in bytes {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn item_16_names_print_escaped_and_read_back() {
        for (name, text) in [
            (
                &b"examples/manifests/bad-spec.yaml"[..],
                "examples/manifests/bad-spec.yaml",
            ),
            (b"d\xc3\xa9j\xc3\xa0/vu.yaml", "d\u{e9}j\u{e0}/vu.yaml"),
            (b"a b.yaml", "\"a b.yaml\""),
            (b"a#1.yaml", "\"a#1.yaml\""),
            (b"C:x.yaml", "\"C:x.yaml\""),
            (b"x\ny.yaml", "\"x\\ny.yaml\""),
            (b"\x1b[31mred.yaml", "\"\\x1b[31mred.yaml\""),
            (b"\xff.yaml", "\"\\xff.yaml\""),
            (b"say\"hi\".yaml", "\"say\\\"hi\\\".yaml\""),
            (b"back\\slash.yaml", "back\\slash.yaml"),
            ("rtl\u{202e}lmay.yaml".as_bytes(), "\"rtl\\u202elmay.yaml\""),
            (b"<stdin>", "\"<stdin>\""),
            (b"", "\"\""),
        ] {
            assert_eq!(display_bytes(name), text, "{name:?}");
            assert_eq!(decode(text), Name::Path(name.to_vec()), "{text}");
        }
        assert_eq!(decode(STDIN), Name::Stdin);
    }

    #[test]
    fn item_16_json_and_uri_forms() {
        assert_eq!(json_name("a.yaml"), ("a.yaml".into(), None));
        assert_eq!(json_name(STDIN), ("-".into(), None));
        assert_eq!(json_name("\"a b.yaml\""), ("a b.yaml".into(), None));
        assert_eq!(
            json_name("\"\\xff.yaml\""),
            ("\u{fffd}.yaml".into(), Some(b"\xff.yaml".to_vec()))
        );
        assert_eq!(uri("m/a.yaml").as_deref(), Some("m/a.yaml"));
        assert_eq!(
            uri("\"m/a b#1:\\xff.yaml\"").as_deref(),
            Some("m/a%20b%231%3A%FF.yaml")
        );
        assert_eq!(uri("/abs/x.yaml").as_deref(), Some("file:///abs/x.yaml"));
        assert_eq!(uri(STDIN), None);
    }

    proptest! {
        #[test]
        fn text_form_is_one_line_and_reads_back(name in proptest::collection::vec(any::<u8>(), 0..24)) {
            let text = display_bytes(&name);
            let one_line = !text.chars().any(|c| c == '\n' || c == '\r' || c == '\x1b');
            prop_assert!(one_line, "{}", text);
            prop_assert_eq!(decode(&text), Name::Path(name.clone()));
            // A bare name never holds a separator, and a quoted one is one Go string.
            if !text.starts_with('"') {
                prop_assert!(!text.contains(':') && !text.contains('#'));
            }
        }
    }
}
