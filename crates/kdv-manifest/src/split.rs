//! Splitting a stream into its documents as written, before any parsing.
//!
//! YAML's document markers are lines that start with `---` (a new document) or `...` (the
//! end of one) at column 0, followed by a space, a tab or the line's end. The YAML scanner
//! treats such a line as a marker in every context, inside block and quoted scalars and
//! flow collections too, so cutting the bytes there gives exactly the parser's documents for
//! every well-formed stream, and for a malformed one confines the damage to the document
//! that holds it: each piece is parsed on its own, with its offset, so positions stay file
//! positions and one broken document leaves the others readable.
//!
//! Which pieces are documents (so that numbering follows the stream as written, empty
//! documents included):
//! - a `---` line starts a document, even when nothing follows it;
//! - text before the first `---`, or after a `...` line, is a document only if it has
//!   content: a line that is not blank, not a comment and not a `%` directive. Directives,
//!   comments and blank lines before a `---` belong to the document that `---` starts.
//!
//! Lines end at `\n`, `\r\n` or a lone `\r`, as in YAML. Between documents, a line may
//! start with a byte order mark, as YAML allows before each document.

/// One document of a stream as written, not yet decoded or parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawDocument<'a> {
    /// Position in the stream, counting empty documents too, so `2` is always the third
    /// document as written.
    pub index: usize,
    /// Byte offset of its first byte in the stream.
    pub offset: usize,
    /// 1-based line of its first byte.
    pub line: u64,
    /// Its bytes, from the start of its first line (a `---` line, a directive or comment
    /// line before one, or its first content line) to the start of the next document.
    pub bytes: &'a [u8],
}

/// Iterator over the documents of a YAML stream ([`split_yaml`]).
#[derive(Debug, Clone)]
pub struct SplitYaml<'a> {
    stream: &'a [u8],
    /// Where the next document's text may start.
    pos: usize,
    /// The 1-based line at `pos`.
    line: u64,
    index: usize,
}

/// The documents of a YAML stream, in order. A UTF-8 byte order mark at the start is not
/// part of the first document.
pub fn split_yaml(stream: &[u8]) -> SplitYaml<'_> {
    let pos = if stream.starts_with(BOM) {
        BOM.len()
    } else {
        0
    };
    SplitYaml {
        stream,
        pos,
        line: 1,
        index: 0,
    }
}

/// UTF-8 encoding of U+FEFF.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

impl<'a> Iterator for SplitYaml<'a> {
    type Item = RawDocument<'a>;

    fn next(&mut self) -> Option<RawDocument<'a>> {
        let stream = self.stream;
        let mut start = self.pos;
        let mut start_line = self.line;
        // Whether a `---` line opened this document, and whether it has content lines.
        let mut explicit = false;
        let mut content = false;
        let mut pos = start;
        let mut line = start_line;
        while pos < stream.len() {
            let (text_end, next) = line_end(stream, pos);
            let mut text = &stream[pos..text_end];
            if !explicit && !content {
                // Between documents a byte order mark may precede a directive or marker.
                text = text.strip_prefix(BOM).unwrap_or(text);
            }
            if is_marker(text, b"---") {
                if explicit || content {
                    // The next document starts here.
                    return Some(self.emit(start, pos, start_line, pos, line));
                }
                // What came before (directives, comments) belongs to this document.
                explicit = true;
            } else if is_marker(text, b"...") {
                if explicit || content {
                    return Some(self.emit(start, next, start_line, next, line + 1));
                }
                // An end marker with no document open: nothing to keep.
                start = next;
                start_line = line + 1;
            } else if !content && !explicit {
                content = is_content(text);
            }
            pos = next;
            line += 1;
        }
        if explicit || content {
            return Some(self.emit(start, stream.len(), start_line, stream.len(), line));
        }
        self.pos = stream.len();
        None
    }
}

impl<'a> SplitYaml<'a> {
    fn emit(
        &mut self,
        start: usize,
        end: usize,
        start_line: u64,
        next: usize,
        next_line: u64,
    ) -> RawDocument<'a> {
        let doc = RawDocument {
            index: self.index,
            offset: start,
            line: start_line,
            bytes: &self.stream[start..end],
        };
        self.index += 1;
        self.pos = next;
        self.line = next_line;
        doc
    }
}

/// The end of the line starting at `pos` (without its break) and the start of the next.
fn line_end(stream: &[u8], pos: usize) -> (usize, usize) {
    let rest = &stream[pos..];
    match memchr::memchr2(b'\n', b'\r', rest) {
        None => (stream.len(), stream.len()),
        Some(i) => {
            let end = pos + i;
            let next = if stream[end] == b'\r' && stream.get(end + 1) == Some(&b'\n') {
                end + 2
            } else {
                end + 1
            };
            (end, next)
        }
    }
}

/// Whether a line (without its break) is the document marker `marker`.
pub(crate) fn is_marker(line: &[u8], marker: &[u8]) -> bool {
    line.strip_prefix(marker)
        .is_some_and(|rest| rest.is_empty() || matches!(rest[0], b' ' | b'\t'))
}

/// Whether a line outside any document is content (and so starts a bare document): not
/// blank, not a comment, not a directive.
fn is_content(line: &[u8]) -> bool {
    if line.first() == Some(&b'%') {
        return false;
    }
    match line.iter().find(|&&b| !matches!(b, b' ' | b'\t')) {
        None | Some(b'#') => false,
        Some(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (index, line, text) of each document.
    fn docs(text: &str) -> Vec<(usize, u64, String)> {
        split_yaml(text.as_bytes())
            .map(|d| {
                assert_eq!(
                    &text.as_bytes()[d.offset..d.offset + d.bytes.len()],
                    d.bytes
                );
                (
                    d.index,
                    d.line,
                    String::from_utf8(d.bytes.to_vec()).unwrap(),
                )
            })
            .collect()
    }

    fn d(index: usize, line: u64, text: &str) -> (usize, u64, String) {
        (index, line, text.to_string())
    }

    #[test]
    fn single_and_empty_streams() {
        assert_eq!(docs("a: 1\n"), vec![d(0, 1, "a: 1\n")]);
        assert_eq!(docs(""), vec![]);
        assert_eq!(docs("# only a comment\n\n"), vec![]);
        assert_eq!(docs("a: 1"), vec![d(0, 1, "a: 1")]);
    }

    #[test]
    fn markers_start_documents_and_empty_ones_count() {
        let text = "---\na: 1\n---\n---\n# only a comment\n---\nb: 2\n...\n---\n[1, 2]\n";
        assert_eq!(
            docs(text),
            vec![
                d(0, 1, "---\na: 1\n"),
                d(1, 3, "---\n"),
                d(2, 4, "---\n# only a comment\n"),
                d(3, 6, "---\nb: 2\n...\n"),
                d(4, 9, "---\n[1, 2]\n"),
            ]
        );
    }

    #[test]
    fn prologue_belongs_to_the_next_document() {
        assert_eq!(
            docs("# c\n%YAML 1.2\n---\na: 1\n"),
            vec![d(0, 1, "# c\n%YAML 1.2\n---\na: 1\n")]
        );
        assert_eq!(
            docs("a: 1\n...\n%YAML 1.2\n---\nb: 2\n"),
            vec![d(0, 1, "a: 1\n...\n"), d(1, 3, "%YAML 1.2\n---\nb: 2\n")]
        );
    }

    #[test]
    fn bare_documents_after_end_markers() {
        assert_eq!(
            docs("a: 1\n...\n---\nb: 2\n...\nc: 3\n...\n# trailing\n"),
            vec![
                d(0, 1, "a: 1\n...\n"),
                d(1, 3, "---\nb: 2\n...\n"),
                d(2, 6, "c: 3\n...\n"),
            ]
        );
        assert_eq!(docs("...\n...\n"), vec![]);
        assert_eq!(docs("---\n...\n"), vec![d(0, 1, "---\n...\n")]);
    }

    #[test]
    fn only_column_zero_markers_followed_by_blank_count() {
        assert_eq!(
            docs("a: |\n  ---\n  text\nb: ----\n----\n--- x\n"),
            vec![
                d(0, 1, "a: |\n  ---\n  text\nb: ----\n----\n"),
                d(1, 6, "--- x\n")
            ]
        );
        assert_eq!(
            docs("--- {a: 1}\r\n---\tb\r\n"),
            vec![d(0, 1, "--- {a: 1}\r\n"), d(1, 2, "---\tb\r\n")]
        );
        assert_eq!(
            docs("a: 1\r---\rb: 2\r"),
            vec![d(0, 1, "a: 1\r"), d(1, 2, "---\rb: 2\r")]
        );
        assert_eq!(docs("a: 1\n---"), vec![d(0, 1, "a: 1\n"), d(1, 2, "---")]);
    }

    #[test]
    fn byte_order_marks_between_documents() {
        // Found by the fuzz target: a BOM before a directive is not content.
        let text = "%A b\n\u{feff}%B c\n---\na: 1\n...\n\u{feff}---\nb: 2\n";
        assert_eq!(
            docs(text),
            vec![
                d(0, 1, "%A b\n\u{feff}%B c\n---\na: 1\n...\n"),
                d(1, 6, "\u{feff}---\nb: 2\n"),
            ]
        );
    }

    #[test]
    fn byte_order_mark_is_skipped() {
        let docs: Vec<RawDocument<'_>> = split_yaml(b"\xEF\xBB\xBFa: 1\n").collect();
        assert_eq!(docs.len(), 1);
        assert_eq!((docs[0].offset, docs[0].bytes), (3, &b"a: 1\n"[..]));
    }
}
