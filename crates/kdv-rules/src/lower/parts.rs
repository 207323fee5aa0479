//! The plain data of lowering that leaf modules share without the lowering context: where a
//! tag is written ([`Site`], [`SitedTag`]) and a lowering error ([`LowerError`]).

use kdv_model::{Diagnostic, Loc, Severity, SourceFile, SourceSpan};
use kdv_tags::{Span, Tag};

/// Where a tag line is in the source: the file and the location of the first byte of the tag
/// text (right after the `+`). Spans from `kdv-tags` are relative to that byte.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Site<'u> {
    pub file: &'u SourceFile,
    pub loc: Loc,
}

impl Site<'_> {
    /// The source span of `span` within the tag text.
    pub(crate) fn span(&self, span: Span) -> SourceSpan {
        let start = span.start as u32;
        let loc = Loc {
            col: self.loc.col + start,
            offset: self.loc.offset + start,
            ..self.loc
        };
        SourceSpan::from_loc(
            self.file,
            loc,
            (span.end.saturating_sub(span.start)).max(1) as u32,
        )
    }
}

/// A tag parsed from a comment line, with where it came from.
#[derive(Debug, Clone)]
pub(crate) struct SitedTag<'u> {
    pub tag: Tag,
    pub site: Option<Site<'u>>,
}

/// A lowering error: upstream's message and, when known, where it points.
#[derive(Debug, Clone)]
pub(crate) struct LowerError {
    pub message: String,
    pub span: Option<SourceSpan>,
    pub severity: Severity,
}

impl LowerError {
    /// Prepends `prefix` to the message.
    pub(crate) fn prefixed(mut self, prefix: &str) -> LowerError {
        self.message.insert_str(0, prefix);
        self
    }

    pub(crate) fn into_diagnostic(self) -> Diagnostic {
        Diagnostic {
            severity: self.severity,
            message: self.message,
            span: self.span,
        }
    }
}
