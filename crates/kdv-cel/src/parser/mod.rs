//! The CEL parser: lexer, recursive-descent parser and macro expansion, matching cel-go's
//! parser (grammar, expression ids, macro expansions, limits and error texts).
//!
//! ```
//! let parsed = kdv_cel::parser::parse("self.replicas <= 10").unwrap();
//! assert_eq!(parsed.next_id, 5);
//! let err = kdv_cel::parser::parse("self.replicas <=").unwrap_err();
//! assert!(err.to_string().starts_with("ERROR: <input>:1:17: Syntax error: mismatched input '<EOF>'"));
//! ```
//!
//! Node spans are the token cel-go reports a node's position at: the operator of an operator
//! call, the `(` of a function call, the `.` of a selection, the `[`/`{` of literals and
//! indexing, the `:` of a map entry or field initializer, the name of an identifier, the whole
//! text of a literal (with its sign). Nodes created by a macro expansion carry the span of the
//! macro call.

mod deep;
mod grammar;
mod issues;
mod lexer;
mod macros;
mod unescape;

pub(crate) use deep::with_stack;
pub(crate) use grammar::RESERVED as RESERVED_IDENTIFIERS;
pub(crate) use grammar::drop_iteratively as drop_tree;
pub(crate) use issues::MAX_REPORTED;
pub use issues::{Issue, Issues};
pub use macros::{ACCUMULATOR, Macros};

use crate::ast::{Expr, ExprId, Source};

/// Parser settings. [`ParseOptions::default`]: the newest Kubernetes environment's macros with
/// cel-go's newest parser defaults (back-quoted identifiers on, which no Kubernetes release has
/// yet); an environment's own settings are [`crate::checker::CheckOptions::parse`], which
/// [`crate::checker::compile`] uses.
#[derive(Debug, Clone)]
pub struct ParseOptions {
    /// Macros expanded at parse time.
    pub macros: Macros,
    /// cel-go's `MaxRecursionDepth` (default 250): both the parse-time nesting limit
    /// (`expression recursion limit exceeded: N`) and the tree-building recursion limit
    /// (`max recursion depth exceeded`).
    pub max_recursion_depth: u32,
    /// Longest accepted source in Unicode code points (default 100,000).
    pub expression_size_limit: usize,
    /// Error recovery attempts before the parse gives up (default 30).
    pub error_recovery_limit: u32,
    /// Tokens one recovery may skip before the parse gives up (default 256).
    pub error_recovery_lookahead_limit: u32,
    /// Syntax errors reported before the parse gives up (default 100).
    pub error_reporting_limit: u32,
    /// Optional syntax `a.?b`, `a[?i]`, `[?x]`, `{?k: v}` (on: Kubernetes enables the optional
    /// library).
    pub enable_optional_syntax: bool,
    /// Back-quoted field names `` a.`b-c` `` (on: cel-go's parser default since v0.28;
    /// Kubernetes 1.30–1.37 vendor older cel-go versions, which refuse them).
    pub enable_identifier_escape_syntax: bool,
    /// Most expression ids a parse may use (default 250,000). Macros that copy their receiver
    /// (`optMap`, `optFlatMap`) make chained calls grow exponentially; cel-go has no bound and
    /// exhausts memory, this parser fails with `expression exceeds N nodes after macro
    /// expansion`.
    pub max_nodes: u32,
}

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions {
            macros: Macros::KUBERNETES,
            max_recursion_depth: 250,
            expression_size_limit: 100_000,
            error_recovery_limit: 30,
            error_recovery_lookahead_limit: 256,
            error_reporting_limit: 100,
            enable_optional_syntax: true,
            enable_identifier_escape_syntax: true,
            max_nodes: 250_000,
        }
    }
}

impl ParseOptions {
    /// The settings of cel-go's conformance runner: every macro this parser knows.
    pub fn conformance() -> ParseOptions {
        ParseOptions {
            macros: Macros::ALL_MACROS,
            ..ParseOptions::default()
        }
    }
}

/// A successfully parsed expression.
#[derive(Debug, Clone)]
pub struct ParsedExpr {
    /// The tree, macros expanded.
    pub expr: Expr,
    /// The source, for positions.
    pub source: Source,
    /// One more than the largest id used (ids are 1-based; some ids are skipped where cel-go
    /// skips them, e.g. the call a macro replaced).
    pub next_id: ExprId,
}

/// Parses `source` with the default (Kubernetes) options.
pub fn parse(source: &str) -> Result<ParsedExpr, Issues> {
    parse_with(source, &ParseOptions::default())
}

/// Parses `source` with `options`.
pub fn parse_with(source: &str, options: &ParseOptions) -> Result<ParsedExpr, Issues> {
    grammar::parse(source, options).map_err(|list| {
        let mut issues = Issues::new(Source::new(source));
        for issue in list {
            issues.push(issue);
        }
        issues
    })
}

#[cfg(test)]
mod tests;
