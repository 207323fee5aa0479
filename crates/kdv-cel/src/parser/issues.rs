//! Compile issues (parse and check errors) and their cel-go rendering
//! (`ERROR: <input>:1:5: message` + source line + caret line).

use std::fmt;

use crate::ast::{ExprId, Source, Span};

/// Most issues rendered; the rest are summarised as `N more errors were truncated`.
pub(crate) const MAX_REPORTED: usize = 100;

/// Longest source line (in bytes) shown under an issue.
const MAX_SNIPPET_BYTES: usize = 16384;

/// One compile error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// The message, in cel-go's wording.
    pub message: String,
    /// Where it points (`span.start` is the reported position); `None` for issues without a
    /// location (rendered `<input>:-1:0`, e.g. recursion limits).
    pub span: Option<Span>,
    /// The expression the issue is about, 0 when none.
    pub expr_id: ExprId,
}

/// The issues of one compilation, with the source they refer to.
#[derive(Debug, Clone)]
pub struct Issues {
    source: Source,
    description: String,
    issues: Vec<Issue>,
    /// Issues reported, including ones dropped beyond [`MAX_REPORTED`].
    reported: usize,
}

impl Issues {
    /// An empty set for `source`, described as `<input>` (what Kubernetes shows).
    pub fn new(source: Source) -> Issues {
        Issues {
            source,
            description: "<input>".to_string(),
            issues: Vec::new(),
            reported: 0,
        }
    }

    /// Replaces the source description used in rendering (default `<input>`).
    pub fn with_description(mut self, description: impl Into<String>) -> Issues {
        self.description = description.into();
        self
    }

    /// Records an issue (beyond 100 issues only the count is kept, as in cel-go).
    pub fn push(&mut self, issue: Issue) {
        self.reported += 1;
        if self.issues.len() < MAX_REPORTED {
            self.issues.push(issue);
        }
    }

    /// Records an issue from its parts.
    pub fn report(&mut self, span: Option<Span>, expr_id: ExprId, message: impl Into<String>) {
        self.push(Issue {
            message: message.into(),
            span,
            expr_id,
        });
    }

    /// Counts `n` issues beyond the ones kept, reported without their details (their
    /// messages would never be shown).
    pub(crate) fn count_truncated(&mut self, n: usize) {
        self.reported += n;
    }

    /// True when nothing was reported.
    pub fn is_empty(&self) -> bool {
        self.reported == 0
    }

    /// Number of issues reported (including ones beyond the rendering limit).
    pub fn len(&self) -> usize {
        self.reported
    }

    /// The kept issues, in report order.
    pub fn iter(&self) -> impl Iterator<Item = &Issue> {
        self.issues.iter()
    }

    /// The source the issues refer to.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// 1-based line and column of an issue, `(-1, 0)` for issues without a location.
    pub fn line_col(&self, issue: &Issue) -> (i64, i64) {
        match issue.span {
            Some(span) => {
                let (l, c) = self.source.line_col(span.start);
                (l as i64, c as i64)
            }
            None => (-1, 0),
        }
    }

    fn render_issue(&self, out: &mut String, issue: &Issue) {
        use fmt::Write;
        let (line, col) = self.line_col(issue);
        let _ = write!(
            out,
            "ERROR: {}:{}:{}: {}",
            self.description, line, col, issue.message
        );
        if line < 1 || self.source.text().is_empty() {
            return;
        }
        let Some(snippet) = self.source.text().split('\n').nth(line as usize - 1) else {
            return;
        };
        if snippet.len() > MAX_SNIPPET_BYTES {
            return;
        }
        let snippet = snippet.replace('\t', " ");
        out.push_str("\n | ");
        out.push_str(&snippet);
        out.push_str("\n | ");
        let mut chars = snippet.chars();
        for _ in 0..(col - 1) {
            match chars.next() {
                Some(c) if c.len_utf8() > 1 => out.push('\u{ff0e}'),
                Some(_) => out.push('.'),
                None => break,
            }
        }
        match chars.next() {
            Some(c) if c.len_utf8() > 1 => out.push('\u{ff3e}'),
            _ => out.push('^'),
        }
    }
}

impl fmt::Display for Issues {
    /// cel-go's `Errors.ToDisplayString`: issues sorted by position, newline separated.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut order: Vec<(i64, i64, usize)> = self
            .issues
            .iter()
            .enumerate()
            .map(|(i, issue)| {
                let (l, c) = self.line_col(issue);
                (l, c, i)
            })
            .collect();
        // Stable: equal positions keep report order.
        order.sort_by_key(|&(l, c, _)| (l, c));
        let mut out = String::new();
        for (n, &(_, _, i)) in order.iter().enumerate() {
            if n > 0 {
                out.push('\n');
            }
            self.render_issue(&mut out, &self.issues[i]);
        }
        if self.reported > MAX_REPORTED {
            out.push_str(&format!(
                "\n{} more errors were truncated",
                self.reported - MAX_REPORTED
            ));
        }
        f.write_str(&out)
    }
}

impl std::error::Error for Issues {}

#[cfg(test)]
mod tests {
    use super::*;

    fn issues(src: &str, at: &[(Option<u32>, &str)]) -> String {
        let mut iss = Issues::new(Source::new(src));
        for (off, msg) in at {
            iss.report(off.map(|o| Span { start: o, end: o }), 0, *msg);
        }
        iss.to_string()
    }

    #[test]
    fn caret_under_the_column() {
        assert_eq!(
            issues(
                "1 + x",
                &[(Some(4), "undeclared reference to 'x' (in container '')")]
            ),
            "ERROR: <input>:1:5: undeclared reference to 'x' (in container '')\n | 1 + x\n | ....^"
        );
    }

    #[test]
    fn wide_characters_get_wide_dots() {
        assert_eq!(
            issues("'é' + ☺", &[(Some(7), "m")]),
            "ERROR: <input>:1:7: m\n | 'é' + ☺\n | .．....＾"
        );
    }

    #[test]
    fn sorted_by_position_and_unlocated_first() {
        let out = issues(
            "a\nb",
            &[(Some(2), "second"), (None, "limit"), (Some(0), "first")],
        );
        assert_eq!(
            out,
            "ERROR: <input>:-1:0: limit\nERROR: <input>:1:1: first\n | a\n | ^\nERROR: <input>:2:1: second\n | b\n | ^"
        );
    }

    #[test]
    fn tabs_render_as_spaces() {
        assert_eq!(
            issues("\tx", &[(Some(1), "m")]),
            "ERROR: <input>:1:2: m\n |  x\n | .^"
        );
    }

    #[test]
    fn truncation_summary() {
        let at: Vec<(Option<u32>, &str)> = (0..102).map(|_| (None, "e")).collect();
        let out = issues("x", &at);
        assert!(out.ends_with("\n2 more errors were truncated"));
        assert_eq!(out.matches("ERROR").count(), 100);
    }
}
