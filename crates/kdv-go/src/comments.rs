//! Comment groups and doc-comment lookup, as gengo sees them.
//!
//! `go/parser` groups comments that follow each other with no token in between and at most
//! one line break between one comment's end and the next one's start; a comment on the
//! same line as the preceding token starts a group of its own that holds only the comments
//! on that line. gengo then indexes every group by the line it *ends* on and takes, for a
//! declaration on line `L`, the group ending on line `L-1` (`CommentLines`) and the group
//! ending two lines above that group's first line, or two lines above `L` when there is no
//! closest group (`SecondClosestCommentLines`).

use kdv_model::Loc;
pub(crate) use kdv_model::{CommentLine, Comments};

use crate::lexer::{RawComment, Token};

/// A comment group: a range of indices into the file's comments.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Group {
    first: usize,
    /// One past the last comment.
    end: usize,
    start_line: u32,
}

/// The comment groups of one file and the end-line index gengo uses.
pub(crate) struct CommentIndex {
    groups: Vec<Group>,
    /// `by_end_line[l]` = index+1 of the group ending on line `l` (0 = none). Later groups
    /// overwrite earlier ones, as gengo's map does.
    by_end_line: Vec<u32>,
}

impl CommentIndex {
    /// Groups `comments` using the tokens they sit between.
    pub(crate) fn build(comments: &[RawComment], tokens: &[Token]) -> CommentIndex {
        let mut groups = Vec::new();
        let mut i = 0;
        while i < comments.len() {
            let gap = comments[i].token_index;
            let prev_line = match gap {
                0 => 0,
                n => tokens.get(n as usize - 1).map_or(0, |t| t.line),
            };
            let mut first_group = true;
            while i < comments.len() && comments[i].token_index == gap {
                // A comment on the previous token's line only groups with comments on that
                // same line; otherwise adjacent lines join.
                let slack = if first_group && comments[i].line == prev_line {
                    0
                } else {
                    1
                };
                first_group = false;
                let first = i;
                let mut end_line = comments[i].line;
                while i < comments.len()
                    && comments[i].token_index == gap
                    && comments[i].line <= end_line + slack
                {
                    end_line = comments[i].end_line;
                    i += 1;
                }
                groups.push(Group {
                    first,
                    end: i,
                    start_line: comments[first].line,
                });
            }
        }
        let max_line = comments.last().map_or(0, |c| c.end_line) as usize;
        let mut by_end_line = vec![0u32; max_line + 1];
        for (gi, g) in groups.iter().enumerate() {
            let end_line = comments[g.end - 1].end_line as usize;
            by_end_line[end_line] = gi as u32 + 1;
        }
        CommentIndex {
            groups,
            by_end_line,
        }
    }

    fn ending_on(&self, line: i64) -> Option<Group> {
        if line < 0 {
            return None;
        }
        match self.by_end_line.get(line as usize) {
            Some(&n) if n > 0 => Some(self.groups[n as usize - 1]),
            _ => None,
        }
    }

    /// gengo's `CommentLines` for something declared on `line`: the group ending on the
    /// line above.
    pub(crate) fn closest(&self, line: u32) -> Option<Group> {
        self.ending_on(line as i64 - 1)
    }

    /// gengo's `SecondClosestCommentLines`: the group ending two lines above the closest
    /// group, or two lines above `line` when there is no closest group.
    pub(crate) fn second_closest(&self, line: u32) -> Option<Group> {
        match self.closest(line) {
            Some(g) => self.ending_on(g.start_line as i64 - 2),
            None => self.ending_on(line as i64 - 2),
        }
    }
}

impl Group {
    /// Source bytes the group spans (what rendering it copies, at most).
    pub(crate) fn byte_len(&self, comments: &[RawComment]) -> usize {
        (comments[self.end - 1].end - comments[self.first].start) as usize
    }

    /// The group's lines.
    pub(crate) fn render(&self, src: &str, comments: &[RawComment], file: u32) -> Comments {
        comment_lines(src, &comments[self.first..self.end], file)
    }
}

/// The lines of `comments` with the comment frames removed, each with the location of its
/// first byte.
pub(crate) fn comment_lines(src: &str, comments: &[RawComment], file: u32) -> Comments {
    let mut lines = Vec::new();
    for c in comments {
        let (start, end) = (c.start as usize, c.end as usize);
        if !c.block {
            let text = &src[start + 2..end];
            lines.push(CommentLine {
                text: text.strip_suffix('\r').unwrap_or(text).to_string(),
                loc: Loc {
                    file,
                    line: c.line,
                    col: c.col + 2,
                    offset: c.start + 2,
                },
            });
            continue;
        }
        let inner_end = if c.unterminated { end } else { end - 2 };
        let inner = &src[start + 2..inner_end.max(start + 2)];
        let mut offset = start + 2;
        for (i, piece) in inner.split('\n').enumerate() {
            lines.push(CommentLine {
                text: piece.strip_suffix('\r').unwrap_or(piece).to_string(),
                loc: Loc {
                    file,
                    line: c.line + i as u32,
                    col: if i == 0 { c.col + 2 } else { 1 },
                    offset: offset as u32,
                },
            });
            offset += piece.len() + 1;
        }
    }
    Comments { lines }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    /// Texts of the closest and second-closest blocks for the first token on `line`.
    fn docs(src: &str, line: u32) -> (Vec<String>, Vec<String>) {
        let lexed = lex(src);
        let index = CommentIndex::build(&lexed.comments, &lexed.tokens);
        let render = |g: Option<Group>| {
            g.map_or_else(Vec::new, |g| {
                g.render(src, &lexed.comments, 0)
                    .lines
                    .into_iter()
                    .map(|l| l.text)
                    .collect()
            })
        };
        (
            render(index.closest(line)),
            render(index.second_closest(line)),
        )
    }

    #[test]
    fn closest_and_second_closest_blocks() {
        let src = "// a1\n// a2\n\n// b\nx\n";
        assert_eq!(
            docs(src, 5),
            (vec![" b".into()], vec![" a1".into(), " a2".into()])
        );
        // Two blank lines: no second block.
        let src = "// a\n\n\n// b\nx\n";
        assert_eq!(docs(src, 5), (vec![" b".into()], vec![]));
        // No closest block: the block two lines above counts as second.
        let src = "// a\n\nx\n";
        assert_eq!(docs(src, 3), (vec![], vec![" a".into()]));
    }

    #[test]
    fn trailing_comment_is_its_own_group() {
        let src = "x // t\n// d\ny\n";
        assert_eq!(docs(src, 3), (vec![" d".into()], vec![]));
        // A trailing comment directly above a line is that line's closest block, as in
        // gengo's end-line index.
        let src = "x // t\ny\n";
        assert_eq!(docs(src, 2), (vec![" t".into()], vec![]));
    }

    #[test]
    fn block_comment_lines_and_locations() {
        let src = "/* one\n  two */\nx\n";
        let lexed = lex(src);
        let c = comment_lines(src, &lexed.comments, 3);
        assert_eq!(c.lines.len(), 2);
        assert_eq!(c.lines[0].text, " one");
        assert_eq!(
            c.lines[0].loc,
            Loc {
                file: 3,
                line: 1,
                col: 3,
                offset: 2
            }
        );
        assert_eq!(c.lines[1].text, "  two ");
        assert_eq!(
            c.lines[1].loc,
            Loc {
                file: 3,
                line: 2,
                col: 1,
                offset: 7
            }
        );
        assert_eq!(docs(src, 3).0, vec![" one", "  two "]);
    }

    #[test]
    fn line_comment_location_points_after_slashes() {
        let src = "\t// +k8s:x\r\ny\n";
        let lexed = lex(src);
        let c = comment_lines(src, &lexed.comments, 0);
        assert_eq!(c.lines[0].text, " +k8s:x");
        assert_eq!((c.lines[0].loc.col, c.lines[0].loc.offset), (4, 3));
        assert_eq!(&src[3..10], " +k8s:x");
    }
}
