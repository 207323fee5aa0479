//! Finding tag lines in a comment block (spec §1.2, upstream `codetags.Extract` with prefix `+`).

use crate::chars::{is_ident_begin, is_tag_name_interior};
use crate::parser::{parse_tag, parse_tag_raw};
use crate::types::{Tag, TagError};

/// A comment line that starts with `+`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExtractedLine<'a> {
    /// The tag name at the start of `text` (possibly empty, as for `+ foo`).
    pub name: &'a str,
    /// The line after the `+`, starting at the name and running to the end of the line.
    pub text: &'a str,
    /// Index of the line in the input sequence.
    pub line_index: usize,
    /// Byte offset of `text` within its line (add it to a [`crate::Span`] from parsing `text`
    /// to get a position in the line).
    pub offset: usize,
}

impl ExtractedLine<'_> {
    /// [`parse_tag`] on this line's text.
    pub fn parse(&self) -> Result<Tag, TagError> {
        parse_tag(self.text)
    }

    /// [`parse_tag_raw`] on this line's text.
    pub fn parse_raw(&self) -> Result<Tag, TagError> {
        parse_tag_raw(self.text)
    }
}

/// Returns, in line order, every line that starts with `+` after leading spaces and tabs.
///
/// The name is the longest prefix of the remainder that starts with a letter or `_` and
/// continues with letters, digits, `_`, `.`, `-` or `:`. Lines are not grouped: callers that
/// want upstream's name → lines map group by [`ExtractedLine::name`], which keeps line order
/// within a group.
pub fn extract<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vec<ExtractedLine<'a>> {
    lines
        .into_iter()
        .enumerate()
        .filter_map(|(line_index, line)| {
            let text = line.trim_start_matches([' ', '\t']).strip_prefix('+')?;
            Some(ExtractedLine {
                name: &text[..name_len(text)],
                text,
                line_index,
                offset: line.len() - text.len(),
            })
        })
        .collect()
}

/// The tag name at the start of a tag's text (the text after `+`): the longest prefix that
/// starts with a letter or `_` and continues with letters, digits, `_`, `.`, `-` or `:`
/// (empty when there is none).
pub fn tag_name(text: &str) -> &str {
    &text[..name_len(text)]
}

fn name_len(text: &str) -> usize {
    match text.chars().next() {
        Some(c) if is_ident_begin(c) => text
            .find(|c: char| !is_tag_name_interior(c))
            .unwrap_or(text.len()),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_plus_lines_in_order() {
        let lines = [
            "Comment line without marker",
            "+k8s:noArgs # comment",
            "  \t+withValue=value1",
            "+withValue=value2",
            "+k8s:withArg(arg1)=value1",
            " +k8s:withArg(arg2)=value2 // comment",
            "+k8s:withNamedArgs(arg1=value1, arg2=value2)=value",
            "text +notATag",
            "\u{a0}+notATagEither",
        ];
        let got = extract(lines);
        let summary: Vec<_> = got
            .iter()
            .map(|l| (l.name, l.text, l.line_index, l.offset))
            .collect();
        assert_eq!(
            summary,
            vec![
                ("k8s:noArgs", "k8s:noArgs # comment", 1, 1),
                ("withValue", "withValue=value1", 2, 4),
                ("withValue", "withValue=value2", 3, 1),
                ("k8s:withArg", "k8s:withArg(arg1)=value1", 4, 1),
                ("k8s:withArg", "k8s:withArg(arg2)=value2 // comment", 5, 2),
                (
                    "k8s:withNamedArgs",
                    "k8s:withNamedArgs(arg1=value1, arg2=value2)=value",
                    6,
                    1
                ),
            ]
        );
    }

    #[test]
    fn names_follow_the_tag_name_rule() {
        let cases = [
            ("+k8s:required", "k8s:required"),
            ("+a:t1(arg: value)=x", "a:t1"),
            ("+ foo", ""),
            ("+", ""),
            ("+9lives", ""),
            ("+_x.y-z:w9 tail", "_x.y-z:w9"),
            ("+k8s:alpha(since:\"1.35\")", "k8s:alpha"),
            ("+ünïcödé=1", "ünïcödé"),
            ("+k8s:x٣y=1", "k8s:x٣y"),
            ("+k8s:maxItems=+5", "k8s:maxItems"),
            ("++x", ""),
        ];
        for (line, name) in cases {
            let got = extract([line]);
            assert_eq!(got.len(), 1, "{line}");
            assert_eq!(got[0].name, name, "{line}");
            assert_eq!(got[0].text, &line[1..], "{line}");
        }
        assert!(extract(["", "plain", "//+x", "-x"]).is_empty());
    }

    #[test]
    fn spans_map_back_into_the_line() {
        let line = "\t  +k8s:minimum=oops x";
        let extracted = extract([line]);
        let err = extracted[0].parse().unwrap_err();
        let start = err.span.start + extracted[0].offset;
        assert_eq!(&line[start..start + 1], " ");
        assert_eq!(err.message, "unexpected character ' ' at position 17");
    }
}
