//! Positions in a document's text: LSP's (0-based line, UTF-16 column), kdv's findings'
//! (1-based line, 1-based character or byte column), byte offsets; and incremental edits.

use lsp_types::{Diagnostic, DiagnosticSeverity, Position, Range};

/// The start offset of every line of a text (a line ends after `\n`).
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    /// The last line's 0-based number.
    pub fn last_line(&self) -> u32 {
        (self.starts.len() - 1) as u32
    }

    /// The text of 0-based `line`, without its line break.
    pub fn line<'t>(&self, text: &'t str, line: usize) -> &'t str {
        let Some(&start) = self.starts.get(line) else {
            return "";
        };
        let end = self.starts.get(line + 1).copied().unwrap_or(self.len);
        text.get(start..end)
            .unwrap_or("")
            .trim_end_matches('\n')
            .trim_end_matches('\r')
    }

    /// The byte offset of an LSP position, clamped to the text (a column past the line's
    /// end is its end; a line past the last is the text's end).
    pub fn offset(&self, text: &str, at: Position) -> usize {
        let line = at.line as usize;
        let Some(&start) = self.starts.get(line) else {
            return self.len;
        };
        let line_text = self.line(text, line);
        start + byte_of_utf16(line_text, at.character as usize)
    }

    /// The LSP position of a byte offset (clamped, and moved back to a character boundary).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(self.len);
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let utf16: usize = text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, utf16 as u32)
    }

    /// The 0-based character column of UTF-16 column `column` of `line`'s text.
    pub fn at_char_column_of(&self, line: &str, column: u32) -> u64 {
        let mut units = 0;
        let mut chars = 0;
        for c in line.chars() {
            if units >= column as usize {
                break;
            }
            units += c.len_utf16();
            chars += 1;
        }
        chars
    }

    /// The LSP position of kdv's 1-based line and 1-based character column.
    pub fn at_char_column(&self, text: &str, line: u64, column: u64) -> Position {
        let line0 = (line.max(1) - 1) as usize;
        let line_text = self.line(text, line0);
        let utf16: usize = line_text
            .chars()
            .take((column.max(1) - 1) as usize)
            .map(char::len_utf16)
            .sum();
        Position::new(line0 as u32, utf16 as u32)
    }

    /// The LSP position of kdv's 1-based line and 1-based byte column.
    pub fn at_byte_column(&self, text: &str, line: u64, column: u64) -> Position {
        let line0 = (line.max(1) - 1) as usize;
        let line_text = self.line(text, line0);
        let mut byte = ((column.max(1) - 1) as usize).min(line_text.len());
        while !line_text.is_char_boundary(byte) {
            byte -= 1;
        }
        let utf16: usize = line_text[..byte].chars().map(char::len_utf16).sum();
        Position::new(line0 as u32, utf16 as u32)
    }

    /// The range of the token starting at `start` (a word, a quoted string, or one
    /// character), within its line.
    pub fn token(&self, text: &str, start: Position) -> Range {
        let line_text = self.line(text, start.line as usize);
        let from = byte_of_utf16(line_text, start.character as usize);
        let rest = &line_text[from..];
        let len = token_len(rest);
        let end_utf16: usize = rest[..len].chars().map(char::len_utf16).sum();
        Range::new(
            start,
            Position::new(start.line, start.character + end_utf16 as u32),
        )
    }
}

/// The byte offset in `line` of UTF-16 column `column` (clamped to the line).
fn byte_of_utf16(line: &str, column: usize) -> usize {
    let mut units = 0;
    for (i, c) in line.char_indices() {
        if units >= column {
            return i;
        }
        units += c.len_utf16();
    }
    line.len()
}

/// The length in bytes of the token `rest` starts with: a quoted string, else a run of
/// characters up to a space or YAML/JSON punctuation; at least one character.
fn token_len(rest: &str) -> usize {
    let Some(first) = rest.chars().next() else {
        return 0;
    };
    if first == '"' || first == '\'' {
        let mut escaped = false;
        for (i, c) in rest.char_indices().skip(1) {
            if c == first && !escaped {
                return i + 1;
            }
            escaped = first == '"' && c == '\\' && !escaped;
        }
        return rest.len();
    }
    let end = rest
        .char_indices()
        .find(|&(_, c)| c.is_whitespace() || matches!(c, ':' | ',' | ']' | '}' | '[' | '{'))
        .map_or(rest.len(), |(i, _)| i);
    if end == 0 { first.len_utf8() } else { end }
}

/// A diagnostic from kdv (its `source`).
pub fn diagnostic(range: Range, severity: DiagnosticSeverity, message: String) -> Diagnostic {
    Diagnostic {
        range,
        severity: Some(severity),
        source: Some("kdv".into()),
        message,
        ..Diagnostic::default()
    }
}

/// Applies one `textDocument/didChange` change (a range edit, or the whole text when
/// `range` is absent) to `text`.
pub fn apply_change(text: &mut String, range: Option<Range>, new_text: &str) {
    let Some(range) = range else {
        *text = new_text.to_string();
        return;
    };
    let index = LineIndex::new(text);
    let start = index.offset(text, range.start);
    let end = index.offset(text, range.end).max(start);
    text.replace_range(start..end, new_text);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "a: 😀b\nkey: é\n";
        let index = LineIndex::new(text);
        // The emoji is two UTF-16 units and four bytes.
        let b = text.find('b').unwrap();
        assert_eq!(index.position(text, b), Position::new(0, 5));
        assert_eq!(index.offset(text, Position::new(0, 5)), b);
        assert_eq!(index.at_char_column(text, 1, 5), Position::new(0, 5));
        assert_eq!(index.at_byte_column(text, 2, 8), Position::new(1, 6));
        // Inside a character: moved back to its start.
        assert_eq!(index.at_byte_column(text, 2, 7), Position::new(1, 5));
        // Past the end: clamped.
        assert_eq!(index.offset(text, Position::new(9, 0)), text.len());
        assert_eq!(index.offset(text, Position::new(1, 99)), text.len() - 1);
    }

    #[test]
    fn incremental_edits() {
        let mut text = "spec:\n  size: 1\n".to_string();
        apply_change(
            &mut text,
            Some(Range::new(Position::new(1, 8), Position::new(1, 9))),
            "12",
        );
        assert_eq!(text, "spec:\n  size: 12\n");
        apply_change(
            &mut text,
            Some(Range::new(Position::new(2, 0), Position::new(2, 0))),
            "status: {}\n",
        );
        assert_eq!(text, "spec:\n  size: 12\nstatus: {}\n");
        apply_change(&mut text, None, "x");
        assert_eq!(text, "x");
    }

    #[test]
    fn tokens() {
        let text = "  rule: \"self.a > 1\" # c\n  name: web_1\n";
        let index = LineIndex::new(text);
        let r = index.token(text, Position::new(0, 8));
        assert_eq!(r.end, Position::new(0, 20));
        let r = index.token(text, Position::new(1, 8));
        assert_eq!(r.end, Position::new(1, 13));
    }
}
