//! The fast reader: one pass over a document's bytes for the block-style YAML that manifests
//! almost always are, building the JSON value directly, with an exact fallback.
//!
//! Its subset: block mappings and block sequences (compact `- key: value` mappings in items
//! included), keys that are plain words or quoted scalars on one line, values that are
//! plain, single- or double-quoted scalars on one line, `[]` and `{}`, empty values (null),
//! comments, blank lines, and the `---`/`...` lines the splitter leaves around a document;
//! printable ASCII only, no tabs, no lone `\r`. Plain scalars are resolved only in the
//! shapes whose resolution by the full path (serde-saphyr with the reader's YAML 1.1
//! options, then `json_number_of_float`) is reproduced exactly: words (strings, `null`, the
//! YAML 1.1 booleans), paths, decimal integers of up to 18 digits, `digits.digits` decimals,
//! and strings that start with a digit but hold a character no number can.
//!
//! **Invariant: for a document in the subset the result (value, root position, every
//! located position) is exactly the full path's; for anything else — anchors, aliases, tags,
//! block scalars, non-empty flow collections, multi-line scalars, tabs, complex keys,
//! directives, repeated keys, scalars of other shapes, deep nesting, non-ASCII text — it
//! answers [`Outside`] without a result and the caller runs the full path, which also words
//! every error.** `invariants::check` (the fuzz target) and this crate's property tests
//! compare both paths.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::Position;
use crate::event::Event;
use crate::number::json_number_of_float;
use crate::split::is_marker;

/// Deepest nesting read here; deeper documents (up to the full path's `MAX_DEPTH`) go to
/// the full path.
const MAX_FAST_DEPTH: usize = 64;
/// Longest key read here (YAML caps implicit keys at 1024 characters).
const MAX_KEY_BYTES: usize = 512;
/// Longest plain scalar resolved as a number here.
const MAX_NUMBER_BYTES: usize = 32;

/// The document is outside the fast reader's subset: the full path reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Outside;

type Fast<T> = Result<T, Outside>;

/// The document's root value and where it starts (relative to the text), or `None` when
/// the text is outside the subset.
pub(crate) fn parse(text: &str) -> Option<(Value, Position)> {
    read(text, |_| {}).ok()
}

/// Feeds the document's nodes to `sink` in the order the YAML parser produces them, with
/// the same positions. `false` when the text is outside the subset (`sink` may then have
/// seen a prefix of the events, which the caller must discard).
pub(crate) fn events(text: &str, sink: impl FnMut(Event<'_>)) -> bool {
    read(text, sink).is_ok()
}

fn read<F: FnMut(Event<'_>)>(text: &str, sink: F) -> Fast<(Value, Position)> {
    let bytes = text.as_bytes();
    if !printable_ascii(bytes) {
        return Err(Outside);
    }
    let mut reader = Reader {
        text,
        b: bytes,
        cur: None,
        depth: 0,
        sink,
    };
    let root = reader.root_line()?;
    let at = root.start + root.indent;
    let value = reader.block(root, at)?;
    if reader.cur.is_some() {
        // Content after the root node: an error of the full path's.
        return Err(Outside);
    }
    Ok((value, position(root, at)))
}

/// Printable ASCII, `\n` and `\r\n` only: columns are then byte offsets, and no character
/// YAML treats specially (tabs, BOMs, NEL and other breaks, control characters) occurs.
fn printable_ascii(bytes: &[u8]) -> bool {
    // A chunk of plain characters (the common case) is checked without branches, which the
    // compiler vectorizes; a chunk with a `\r` or anything else is checked byte by byte.
    let mut offset = 0;
    for chunk in bytes.chunks_exact(32) {
        let plain = chunk.iter().fold(true, |ok, &c| {
            ok & (matches!(c, 0x20..=0x7E) | (c == b'\n'))
        });
        if !plain && !printable_ascii_from(bytes, offset, offset + 32) {
            return false;
        }
        offset += 32;
    }
    printable_ascii_from(bytes, offset, bytes.len())
}

/// [`printable_ascii`] for `bytes[from..to]`, a `\r` looking at the byte after `to`.
fn printable_ascii_from(bytes: &[u8], from: usize, to: usize) -> bool {
    for i in from..to {
        match bytes[i] {
            0x20..=0x7E | b'\n' => {}
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {}
            _ => return false,
        }
    }
    true
}

/// One line of the text.
#[derive(Debug, Clone, Copy)]
struct Line {
    /// Offset of its first byte.
    start: usize,
    /// Offset of its break (or of the text's end).
    end: usize,
    /// Offset of the next line.
    next: usize,
    /// 1-based line number.
    no: u64,
    /// Leading spaces.
    indent: usize,
}

impl Line {
    fn at(b: &[u8], start: usize, no: u64) -> Line {
        let (end, next) = match memchr::memchr(b'\n', &b[start..]) {
            Some(i) => {
                let nl = start + i;
                // A `\r` is only ever followed by `\n` here (printable_ascii).
                let end = if nl > start && b[nl - 1] == b'\r' {
                    nl - 1
                } else {
                    nl
                };
                (end, nl + 1)
            }
            None => (b.len(), b.len()),
        };
        let indent = b[start..end].iter().take_while(|&&c| c == b' ').count();
        Line {
            start,
            end,
            next,
            no,
            indent,
        }
    }

    /// Blank, or only a comment.
    fn is_insignificant(&self, b: &[u8]) -> bool {
        let first = self.start + self.indent;
        first == self.end || b[first] == b'#'
    }
}

struct Reader<'t, F> {
    text: &'t str,
    b: &'t [u8],
    /// The next significant line, where the node being read ends.
    cur: Option<Line>,
    depth: usize,
    sink: F,
}

fn skip_spaces(b: &[u8], mut i: usize, end: usize) -> usize {
    while i < end && b[i] == b' ' {
        i += 1;
    }
    i
}

/// A `-` block entry indicator at `at`.
fn is_dash(b: &[u8], at: usize, end: usize) -> bool {
    at < end && b[at] == b'-' && (at + 1 == end || b[at + 1] == b' ')
}

/// Whether the rest of a marker line (after `---` or `...`) is blank or a comment.
fn marker_rest_is_blank(rest: &[u8]) -> bool {
    let i = skip_spaces(rest, 0, rest.len());
    i == rest.len() || (i > 0 && rest[i] == b'#')
}

fn position(line: Line, at: usize) -> Position {
    Position {
        line: line.no,
        // ASCII only: a byte is a character.
        column: (at - line.start + 1) as u64,
    }
}

impl<'t, F: FnMut(Event<'_>)> Reader<'t, F> {
    /// Skips the document's prologue (blank and comment lines, one `---` line) and returns
    /// the root node's first line.
    fn root_line(&mut self) -> Fast<Line> {
        let b = self.b;
        let mut start = 0;
        let mut no = 1;
        let mut marker = false;
        while start < b.len() {
            let line = Line::at(b, start, no);
            let content = &b[line.start..line.end];
            if is_marker(content, b"---") {
                if marker || !marker_rest_is_blank(&content[3..]) {
                    return Err(Outside);
                }
                marker = true;
            } else if content.first() == Some(&b'%') || is_marker(content, b"...") {
                return Err(Outside);
            } else if !line.is_insignificant(b) {
                return Ok(line);
            }
            start = line.next;
            no += 1;
        }
        // No content: the full path decides between nothing and an empty document.
        Err(Outside)
    }

    /// The significant line after `line`, `None` at the document's end (a `...` line, or
    /// the text's end).
    fn next_line(&self, line: Line) -> Fast<Option<Line>> {
        let b = self.b;
        let mut start = line.next;
        let mut no = line.no + 1;
        let mut ended = false;
        while start < b.len() {
            let next = Line::at(b, start, no);
            if !next.is_insignificant(b) {
                let content = &b[next.start..next.end];
                if is_marker(content, b"...") {
                    // A document end marker, never content (even with text after it).
                    if ended || !marker_rest_is_blank(&content[3..]) {
                        return Err(Outside);
                    }
                    ended = true;
                } else if ended || is_marker(content, b"---") || content[0] == b'%' {
                    return Err(Outside);
                } else {
                    return Ok(Some(next));
                }
            }
            start = next.next;
            no += 1;
        }
        Ok(None)
    }

    fn enter(&mut self) -> Fast<()> {
        self.depth += 1;
        if self.depth > MAX_FAST_DEPTH {
            return Err(Outside);
        }
        Ok(())
    }

    /// The block collection whose first line is `line`, starting at `at`.
    fn block(&mut self, line: Line, at: usize) -> Fast<Value> {
        if is_dash(self.b, at, line.end) {
            self.sequence(line, at - line.start, false)
        } else {
            self.mapping(line, at)
        }
    }

    /// A block mapping whose first key is at `at` of `line`; its keys are in that column.
    fn mapping(&mut self, mut line: Line, mut at: usize) -> Fast<Value> {
        let column = at - line.start;
        let mut entry = self.key(line, at)?.ok_or(Outside)?;
        self.enter()?;
        (self.sink)(Event::MappingStart(position(line, at)));
        let mut map = Map::new();
        loop {
            let (key, after) = entry;
            (self.sink)(Event::Scalar(position(line, at), &key));
            let value = self.value(line, after, column, true)?;
            if map.insert(key.into_owned(), value).is_some() {
                // A repeated key: the full path reports it.
                return Err(Outside);
            }
            match self.cur {
                Some(next) if next.indent == column => {
                    line = next;
                    at = next.start + column;
                    entry = self.key(line, at)?.ok_or(Outside)?;
                }
                Some(next) if next.indent > column => return Err(Outside),
                _ => break,
            }
        }
        (self.sink)(Event::End);
        self.depth -= 1;
        Ok(Value::Object(map))
    }

    /// A block sequence whose first `-` is in `column` of `line` (`indentless`: in its
    /// key's column).
    fn sequence(&mut self, mut line: Line, column: usize, indentless: bool) -> Fast<Value> {
        let b = self.b;
        self.enter()?;
        let start = if indentless {
            // The parser starts an indentless sequence at its first item's node.
            let at = skip_spaces(b, line.start + column + 1, line.end);
            if at == line.end || b[at] == b'#' {
                return Err(Outside);
            }
            at
        } else {
            line.start + column
        };
        (self.sink)(Event::SequenceStart(position(line, start)));
        let mut items = Vec::new();
        loop {
            let after = line.start + column + 1;
            let at = skip_spaces(b, after, line.end);
            let item = if is_dash(b, at, line.end) {
                // A sequence in a sequence's item on the same line.
                return Err(Outside);
            } else if at < line.end && b[at] != b'#' && self.key(line, at)?.is_some() {
                self.mapping(line, at)?
            } else {
                self.value(line, after, column, false)?
            };
            items.push(item);
            match self.cur {
                Some(next)
                    if next.indent == column && is_dash(b, next.start + column, next.end) =>
                {
                    line = next;
                }
                Some(next) if next.indent > column => return Err(Outside),
                _ => break,
            }
        }
        (self.sink)(Event::End);
        self.depth -= 1;
        Ok(Value::Array(items))
    }

    /// A key at `at` of `line`: its text and the offset after its `:`, or `None` when the
    /// line holds no key there. Keys are plain words or quoted scalars; keys whose identity
    /// the full path resolves (integers, null, booleans) are outside the subset.
    fn key(&self, line: Line, at: usize) -> Fast<Option<(Cow<'t, str>, usize)>> {
        let b = self.b;
        match b[at] {
            b'"' | b'\'' => {
                let (text, end) = self.quoted(line, at)?;
                let colon = skip_spaces(b, end, line.end);
                if colon < line.end && b[colon] == b':' && is_separator(b, colon + 1, line.end) {
                    if end - at > MAX_KEY_BYTES {
                        return Err(Outside);
                    }
                    Ok(Some((text, colon + 1)))
                } else {
                    Ok(None)
                }
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c == b'.' || c == b'/' => {
                let mut i = at;
                while i < line.end {
                    match b[i] {
                        b':' if is_separator(b, i + 1, line.end) => {
                            let mut end = i;
                            // The key starts with a non-space, so this stops within it.
                            while b[end - 1] == b' ' {
                                end -= 1;
                            }
                            let key = &self.text[at..end];
                            if !plain_key(key) {
                                return Err(Outside);
                            }
                            return Ok(Some((Cow::Borrowed(key), i + 1)));
                        }
                        // A comment: the line holds a scalar, not a key. (`i > at` here:
                        // the first byte is not `#`.)
                        b'#' if b[i - 1] == b' ' => return Ok(None),
                        _ => {}
                    }
                    i += 1;
                }
                Ok(None)
            }
            _ => Ok(None),
        }
    }

    /// The value after a key's `:` or an item's `-` (at `after` on `line`) of a collection
    /// whose keys or `-` are in `column`. Leaves `self.cur` at the next significant line.
    fn value(&mut self, line: Line, after: usize, column: usize, in_mapping: bool) -> Fast<Value> {
        let b = self.b;
        let at = skip_spaces(b, after, line.end);
        if at == line.end || b[at] == b'#' {
            // Nothing more on this line: a collection on the next lines, or null.
            self.cur = self.next_line(line)?;
            return match self.cur {
                Some(next) if next.indent > column => self.block(next, next.start + next.indent),
                // An indentless sequence: a mapping's value may start in the key's column.
                Some(next)
                    if in_mapping
                        && next.indent == column
                        && is_dash(b, next.start + column, next.end) =>
                {
                    self.sequence(next, column, true)
                }
                _ => {
                    // The parser puts an empty value at its key's `:`, or at the end of
                    // its item's line.
                    let at = if in_mapping { after - 1 } else { line.end };
                    (self.sink)(Event::Scalar(position(line, at), ""));
                    Ok(Value::Null)
                }
            };
        }
        let (value, end) = self.scalar(line, at)?;
        let rest = skip_spaces(b, end, line.end);
        if rest != line.end && !(rest > end && b[rest] == b'#') {
            return Err(Outside);
        }
        self.cur = self.next_line(line)?;
        if let Some(next) = self.cur
            && next.indent > column
        {
            // A continuation line (a multi-line scalar) or an error.
            return Err(Outside);
        }
        Ok(value)
    }

    /// A value written on one line from `at`: a quoted or plain scalar, `[]` or `{}`.
    /// Returns it and the offset after it.
    fn scalar(&mut self, line: Line, at: usize) -> Fast<(Value, usize)> {
        let b = self.b;
        let here = position(line, at);
        match b[at] {
            b'"' | b'\'' => {
                let (text, end) = self.quoted(line, at)?;
                (self.sink)(Event::Scalar(here, &text));
                Ok((Value::String(text.into_owned()), end))
            }
            b'[' if at + 1 < line.end && b[at + 1] == b']' => {
                self.enter()?;
                self.depth -= 1;
                (self.sink)(Event::SequenceStart(here));
                (self.sink)(Event::End);
                Ok((Value::Array(Vec::new()), at + 2))
            }
            b'{' if at + 1 < line.end && b[at + 1] == b'}' => {
                self.enter()?;
                self.depth -= 1;
                (self.sink)(Event::MappingStart(here));
                (self.sink)(Event::End);
                Ok((Value::Object(Map::new()), at + 2))
            }
            _ => {
                let mut i = at;
                while i < line.end && !(b[i] == b'#' && i > at && b[i - 1] == b' ') {
                    i += 1;
                }
                // `at` holds a non-space, so this stops after it.
                while b[i - 1] == b' ' {
                    i -= 1;
                }
                let text = &self.text[at..i];
                if text.ends_with(':') || text.contains(": ") {
                    return Err(Outside);
                }
                let value = resolve(text)?;
                (self.sink)(Event::Scalar(here, text));
                Ok((value, i))
            }
        }
    }

    /// A single- or double-quoted scalar that ends on its line: its text and the offset
    /// after its closing quote.
    fn quoted(&self, line: Line, at: usize) -> Fast<(Cow<'t, str>, usize)> {
        let b = self.b;
        let quote = b[at];
        let mut owned: Option<String> = None;
        let mut run = at + 1;
        let mut i = at + 1;
        while i < line.end {
            let c = b[i];
            if c == quote {
                if quote == b'\'' && i + 1 < line.end && b[i + 1] == b'\'' {
                    // `''` is one quote.
                    owned
                        .get_or_insert_with(String::new)
                        .push_str(&self.text[run..=i]);
                    i += 2;
                    run = i;
                    continue;
                }
                let text = match owned {
                    None => Cow::Borrowed(&self.text[run..i]),
                    Some(mut s) => {
                        s.push_str(&self.text[run..i]);
                        Cow::Owned(s)
                    }
                };
                return Ok((text, i + 1));
            }
            if c == b'\\' && quote == b'"' {
                let s = owned.get_or_insert_with(String::new);
                s.push_str(&self.text[run..i]);
                let (ch, len) = escape(&b[i + 1..line.end])?;
                s.push(ch);
                i += 1 + len;
                run = i;
                continue;
            }
            i += 1;
        }
        // Unterminated on this line: a multi-line scalar or an error.
        Err(Outside)
    }
}

/// `:` ends a key when followed by a space or the line's end.
fn is_separator(b: &[u8], i: usize, end: usize) -> bool {
    i == end || b[i] == b' '
}

/// A double-quoted scalar's escape (the bytes after its `\`): the character and how many
/// bytes it takes. YAML's escapes, as the parser reads them; a break (line folding),
/// `\U` and surrogates are left to the full path.
fn escape(rest: &[u8]) -> Fast<(char, usize)> {
    let simple = match rest.first().ok_or(Outside)? {
        b'0' => '\0',
        b'a' => '\x07',
        b'b' => '\x08',
        b't' => '\t',
        b'n' => '\n',
        b'v' => '\x0b',
        b'f' => '\x0c',
        b'r' => '\r',
        b'e' => '\x1b',
        b' ' => ' ',
        b'"' => '"',
        b'/' => '/',
        b'\\' => '\\',
        b'N' => '\u{85}',
        b'_' => '\u{a0}',
        b'L' => '\u{2028}',
        b'P' => '\u{2029}',
        b'x' => return hex_escape(rest, 2),
        b'u' => return hex_escape(rest, 4),
        _ => return Err(Outside),
    };
    Ok((simple, 1))
}

fn hex_escape(rest: &[u8], digits: usize) -> Fast<(char, usize)> {
    let hex = rest.get(1..=digits).ok_or(Outside)?;
    let mut value = 0u32;
    for &h in hex {
        let d = (h as char).to_digit(16).ok_or(Outside)?;
        value = (value << 4) | d;
    }
    // Surrogates (halves of pairs) are left to the full path; every other value of at
    // most four hex digits is a character.
    let ch = char::from_u32(value).ok_or(Outside)?;
    Ok((ch, 1 + digits))
}

/// A plain key whose text the full path passes through unchanged and compares as text:
/// words, with `-`, `_`, `.`, `/`, `:` and inner spaces; not `null` or a YAML 1.1 boolean.
fn plain_key(key: &str) -> bool {
    key.len() <= MAX_KEY_BYTES
        && key.bytes().all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.' | b'/' | b':' | b' ')
        })
        && !matches!(key, "null" | "Null" | "NULL")
        && yaml11_bool(key).is_none()
        // Keys go-yaml reads as numbers (`.5`, `.Inf`) are named as sigs.k8s.io/yaml
        // writes the number: the full path's.
        && crate::goyaml::plain_key(key) == key
}

/// serde-saphyr's YAML 1.1 booleans (`strict_booleans: false`): go-yaml v2's words in any
/// letter case.
fn yaml11_bool(s: &str) -> Option<bool> {
    const TRUE: [&str; 4] = ["true", "yes", "y", "on"];
    const FALSE: [&str; 4] = ["false", "no", "n", "off"];
    // Most keys and words are longer than every boolean.
    if s.len() > 5 {
        return None;
    }
    if TRUE.iter().any(|w| s.eq_ignore_ascii_case(w)) {
        Some(true)
    } else if FALSE.iter().any(|w| s.eq_ignore_ascii_case(w)) {
        Some(false)
    } else {
        None
    }
}

/// A plain scalar's value, where the full path's resolution (null, YAML 1.1 booleans,
/// integers of every radix, YAML 1.2 floats, else a string) is reproduced exactly.
fn resolve(text: &str) -> Fast<Value> {
    let bytes = text.as_bytes();
    match bytes.first().ok_or(Outside)? {
        c if c.is_ascii_alphabetic() => Ok(match text {
            "null" | "Null" | "NULL" => Value::Null,
            _ => match crate::goyaml::go_bool(text) {
                Some(b) => Value::Bool(b),
                // serde-saphyr reads `yEs` as a boolean and go-yaml as a string: the full
                // path settles it from the spelling.
                None if yaml11_bool(text).is_some() => return Err(Outside),
                // Words never parse as numbers: integers start with a digit or a sign, and
                // so must floats (`inf` and `nan` stay strings in the full path).
                None => Value::String(text.to_owned()),
            },
        }),
        b'/' => Ok(Value::String(text.to_owned())),
        b'0'..=b'9' => number(text),
        b'-' if bytes.get(1).is_some_and(u8::is_ascii_digit) => number(text),
        _ => Err(Outside),
    }
}

/// Whether a byte can occur in a number the full path reads: digits, signs, `.`, `_`, radix
/// prefixes (`0x`, `0o`, `0b`), hex digits and exponents.
fn numeric_byte(c: u8) -> bool {
    c.is_ascii_hexdigit() || matches!(c, b'x' | b'X' | b'o' | b'O' | b'_' | b'.' | b'+' | b'-')
}

/// A plain scalar that starts with a digit (or `-` and a digit).
fn number(text: &str) -> Fast<Value> {
    if !text.bytes().all(numeric_byte) {
        // Neither an integer nor a float in any radix or spelling: a string.
        return Ok(Value::String(text.to_owned()));
    }
    if text.len() > MAX_NUMBER_BYTES {
        return Err(Outside);
    }
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    if all_digits(digits) {
        // Leading zeros are YAML 1.1 octal: left to the full path. Up to 18 digits fit an
        // i64 whatever they are.
        if digits.len() > 18 || (digits.len() > 1 && digits.starts_with('0')) {
            return Err(Outside);
        }
        let magnitude: i64 = digits.parse().map_err(|_| Outside)?;
        // `-0` is the integer 0, as the full path reads it (an i64).
        return Ok(Value::from(if negative { -magnitude } else { magnitude }));
    }
    if let Some((int, frac)) = digits.split_once('.')
        && all_digits(int)
        && all_digits(frac)
    {
        // No integer parse accepts a `.`; the full path reads it as a float (Rust's parser)
        // and converts it as `YAMLToJSON` writes it.
        let f: f64 = text.parse().map_err(|_| Outside)?;
        return json_number_of_float(f).map(Value::Number).ok_or(Outside);
    }
    Err(Outside)
}
