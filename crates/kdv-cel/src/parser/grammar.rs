//! Recursive-descent parser for CEL's grammar that reproduces cel-go's observable behaviour:
//! expression ids in cel-go's visiting order, ANTLR-style syntax error messages and recovery,
//! and both of cel-go's depth limits (the parse-time per-rule nesting limit and the visitor's
//! recursion limit), enforced before recursing so hostile input cannot exhaust the stack.

use std::sync::Arc;

use super::issues::Issue;
use super::lexer::{Token, TokenKind, TokenSet, escape_ws, tokenize};
use super::macros::{self, Expansion};
use super::unescape::unescape;
use super::{ParseOptions, ParsedExpr};
use crate::ast::{Expr, ExprId, ExprKind, FieldInit, Literal, MapEntry, Source, Span};

use TokenKind as T;

/// Tokens that can start an expression (ANTLR's FIRST(expr)).
const FIRST_EXPR: TokenSet = TokenSet::of(&[
    T::LBracket,
    T::LBrace,
    T::LParen,
    T::Dot,
    T::Minus,
    T::Exclam,
    T::True,
    T::False,
    T::Null,
    T::NumFloat,
    T::NumInt,
    T::NumUint,
    T::String,
    T::Bytes,
    T::Identifier,
]);

/// Tokens that can start a primary expression.
const FIRST_PRIMARY: TokenSet = TokenSet::of(&[
    T::LBracket,
    T::LBrace,
    T::LParen,
    T::Dot,
    T::Minus,
    T::True,
    T::False,
    T::Null,
    T::NumFloat,
    T::NumInt,
    T::NumUint,
    T::String,
    T::Bytes,
    T::Identifier,
]);

/// Operators that can continue an expression after an operand.
const CONT_OPS: TokenSet = TokenSet::of(&[
    T::Equals,
    T::NotEquals,
    T::In,
    T::Less,
    T::LessEquals,
    T::GreaterEquals,
    T::Greater,
    T::LogicalAnd,
    T::LogicalOr,
    T::Minus,
    T::Question,
    T::Plus,
    T::Star,
    T::Slash,
    T::Percent,
]);

/// What can follow a primary expression: the operators plus member continuations.
const CONT_PRIMARY: TokenSet =
    TokenSet(CONT_OPS.0 | (1 << T::Dot as u8) | (1 << T::LBracket as u8));

const FIELD_START: TokenSet = TokenSet::of(&[T::Question, T::Identifier, T::EscIdentifier]);
const ESC_IDENT: TokenSet = TokenSet::of(&[T::Identifier, T::EscIdentifier]);

/// Words cel-go rejects as identifiers and global function names (they are fine as field
/// selectors, member function names and struct field names).
pub(crate) const RESERVED: [&str; 17] = [
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// The parse stops (an ANTLR panic in cel-go); the reason is already recorded.
pub(crate) struct Abort;

type R<T> = Result<T, Abort>;

/// A parsed sub-expression and its height in counted visitor frames (cel-go counts
/// conditionals, relations, arithmetic, selections, member calls and indexing).
pub(crate) struct P {
    pub(crate) e: Expr,
    pub(crate) h: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum IssueKind {
    /// ANTLR lexer/parser error: reported during the parse.
    Syntax,
    /// Reported while building the tree (reserved words, literals, macros, syntax options).
    Visitor,
    /// Limits without a location.
    Internal,
    /// A lexer error (a syntax error too).
    Lexical,
}

/// Outcome of matching an expected token (ANTLR `match` with inline recovery).
enum Match {
    Ok,
    /// Missing token reported (or suppressed) and conjured; parsing continues.
    Conjured,
    /// Mismatch: the current rule must end (recovery already done).
    Failed,
}

pub(crate) struct Parser<'s> {
    src: &'s str,
    toks: Vec<Token>,
    pos: usize,
    pub(crate) next_id: ExprId,
    opts: &'s ParseOptions,
    issues: Vec<(IssueKind, Issue)>,
    syntax_errors: u32,
    error_mode: bool,
    recovery_attempts: u32,
    last_error_pos: Option<usize>,
    depth_expr: u32,
    depth_relation: u32,
    depth_calc: u32,
    follow: Vec<TokenSet>,
    visit_depth_exceeded: bool,
    /// Furthest token looked at (ANTLR lexes lazily: an aborted parse reports no lexical
    /// errors beyond it).
    max_fetched: std::cell::Cell<usize>,
}

impl Parser<'_> {
    /// Whether the tree has outgrown [`ParseOptions::max_nodes`] (macro expansions that copy
    /// their receiver, like chained `optMap`, grow exponentially).
    pub(crate) fn too_many_nodes(&self) -> bool {
        self.next_id > self.opts.max_nodes
    }
}

/// Parses `text` with `opts`, returning the tree or every issue.
pub(crate) fn parse(text: &str, opts: &ParseOptions) -> Result<ParsedExpr, Vec<Issue>> {
    let size = text.chars().count();
    if size > opts.expression_size_limit {
        return Err(vec![Issue {
            message: format!(
                "expression code point size exceeds limit: size: {}, limit {}",
                size, opts.expression_size_limit
            ),
            span: None,
            expr_id: 0,
        }]);
    }
    let (toks, lex_errors) = tokenize(text);
    // Recursion follows the nesting of brackets and conditionals, cut off at the depth limit.
    let levels = nesting(&toks).min(opts.max_recursion_depth as usize + 2);
    super::deep::with_stack(levels, PARSER_BYTES_PER_LEVEL, move || {
        run(text, opts, toks, lex_errors)
    })
    .unwrap_or_else(|| {
        Err(vec![Issue {
            message: "expression nesting too deep to parse".to_string(),
            span: None,
            expr_id: 0,
        }])
    })
}

/// Stack reserved per nesting level for parser threads (generous: unoptimised builds use
/// large frames).
const PARSER_BYTES_PER_LEVEL: usize = 64 << 10;

/// Upper bound of the parser's recursion in nesting levels: open brackets plus the
/// conditionals whose else-branch is still open.
fn nesting(toks: &[Token]) -> usize {
    // Conditionals open at each enclosing bracket level, and their running sum.
    let mut stack: Vec<usize> = Vec::new();
    let mut outer = 0usize;
    let mut ternaries = 0usize;
    let mut max = 0usize;
    for t in toks {
        match t.kind {
            T::LParen | T::LBracket | T::LBrace => {
                stack.push(ternaries);
                outer += ternaries;
                ternaries = 0;
            }
            T::RParen | T::RBracket | T::RBrace => match stack.pop() {
                Some(saved) => {
                    outer -= saved;
                    ternaries = saved;
                }
                None => ternaries = 0,
            },
            T::Question => ternaries += 1,
            _ => {}
        }
        max = max.max(stack.len() + outer + ternaries);
    }
    max + 1
}

fn run(
    text: &str,
    opts: &ParseOptions,
    toks: Vec<Token>,
    lex_errors: Vec<super::lexer::LexError>,
) -> Result<ParsedExpr, Vec<Issue>> {
    let mut p = Parser {
        src: text,
        toks,
        pos: 0,
        next_id: 1,
        opts,
        issues: Vec::new(),
        syntax_errors: 0,
        error_mode: false,
        recovery_attempts: 0,
        last_error_pos: None,
        depth_expr: 0,
        depth_relation: 0,
        depth_calc: 0,
        follow: Vec::new(),
        visit_depth_exceeded: false,
        max_fetched: std::cell::Cell::new(0),
    };
    let mut result = Ok(());
    for err in lex_errors {
        let span = Span {
            start: err.start,
            end: err.start,
        };
        if let Err(a) = p.syntax_error_of(IssueKind::Lexical, span, err.message) {
            result = Err(a);
            break;
        }
    }
    let out = match result {
        Ok(()) => p.start(),
        Err(a) => Err(a),
    };
    let aborted = out.is_err();
    if aborted {
        let horizon = p.toks[p.max_fetched.get().min(p.toks.len() - 1)].start;
        p.issues.retain(|(k, i)| {
            *k != IssueKind::Lexical || i.span.is_some_and(|s| s.start <= horizon)
        });
    }
    if !aborted && p.too_many_nodes() {
        return Err(vec![Issue {
            message: format!(
                "expression exceeds {} nodes after macro expansion",
                opts.max_nodes
            ),
            span: None,
            expr_id: 0,
        }]);
    }
    let has_errors = !p.issues.is_empty() || p.visit_depth_exceeded;
    let mut issues: Vec<Issue> = Vec::new();
    if aborted {
        // The visitor never ran in cel-go: only syntax errors and the abort reason remain.
        issues.extend(
            p.issues
                .into_iter()
                .filter(|(k, _)| *k != IssueKind::Visitor)
                .map(|(_, i)| i),
        );
    } else if p.visit_depth_exceeded {
        issues.extend(
            p.issues
                .into_iter()
                .filter(|(k, _)| *k != IssueKind::Visitor)
                .map(|(_, i)| i),
        );
        issues.push(Issue {
            message: "max recursion depth exceeded".to_string(),
            span: None,
            expr_id: 0,
        });
    } else {
        issues.extend(p.issues.into_iter().map(|(_, i)| i));
    }
    match out {
        Ok(expr) if !has_errors => Ok(ParsedExpr {
            expr: expr.e,
            source: Source::new(text),
            next_id: p.next_id,
        }),
        _ => Err(issues),
    }
}

impl<'s> Parser<'s> {
    // ---- token access -------------------------------------------------------------------

    fn la(&self, k: usize) -> TokenKind {
        self.tok(k).kind
    }

    fn tok(&self, k: usize) -> Token {
        let i = (self.pos + k - 1).min(self.toks.len() - 1);
        if i > self.max_fetched.get() {
            self.max_fetched.set(i);
        }
        self.toks[i]
    }

    fn text(&self, t: Token) -> &'s str {
        self.src.get(t.start as usize..t.end as usize).unwrap_or("")
    }

    /// Consumes the current token as a successful match (ends error recovery mode).
    fn advance(&mut self) -> Token {
        let t = self.tok(1);
        if t.kind != T::Eof {
            self.pos += 1;
        }
        self.error_mode = false;
        t
    }

    /// Consumes the current token without matching it (error recovery).
    fn skip(&mut self) {
        if self.la(1) != T::Eof {
            self.pos += 1;
        }
    }

    fn span(t: Token) -> Span {
        Span {
            start: t.start,
            end: t.end,
        }
    }

    pub(crate) fn new_id(&mut self) -> ExprId {
        let id = self.next_id;
        self.next_id = self.next_id.saturating_add(1);
        id
    }

    // ---- issues -------------------------------------------------------------------------

    fn syntax_error(&mut self, span: Span, message: String) -> R<()> {
        self.syntax_error_of(IssueKind::Syntax, span, message)
    }

    fn syntax_error_of(&mut self, kind: IssueKind, span: Span, message: String) -> R<()> {
        if self.syntax_errors < self.opts.error_reporting_limit {
            self.syntax_errors += 1;
            self.push_issue(kind, Some(span), format!("Syntax error: {message}"));
            Ok(())
        } else {
            let msg = format!(
                "Syntax error: More than {} syntax errors",
                self.opts.error_reporting_limit
            );
            self.push_issue(IssueKind::Syntax, Some(span), msg);
            Err(Abort)
        }
    }

    fn push_issue(&mut self, kind: IssueKind, span: Option<Span>, message: String) {
        self.issues.push((
            kind,
            Issue {
                message,
                span,
                expr_id: 0,
            },
        ));
    }

    /// A semantic error found while building the tree; returns a placeholder node.
    pub(crate) fn visitor_error(&mut self, span: Span, message: impl Into<String>) -> Expr {
        self.push_issue(IssueKind::Visitor, Some(span), message.into());
        self.placeholder(span)
    }

    pub(crate) fn placeholder(&mut self, span: Span) -> Expr {
        Expr {
            id: self.new_id(),
            kind: ExprKind::Literal(Literal::Null),
            span,
        }
    }

    fn token_display(&self, t: Token) -> String {
        if t.kind == T::Eof {
            "'<EOF>'".to_string()
        } else {
            format!("'{}'", escape_ws(self.text(t)))
        }
    }

    fn report_unwanted(&mut self, expected: TokenSet) -> R<()> {
        if self.error_mode {
            return Ok(());
        }
        self.error_mode = true;
        let t = self.tok(1);
        let msg = format!(
            "extraneous input {} expecting {}",
            self.token_display(t),
            expected.render()
        );
        self.syntax_error(Self::span(t), msg)
    }

    fn report_missing(&mut self, expected: TokenSet) -> R<()> {
        if self.error_mode {
            return Ok(());
        }
        self.error_mode = true;
        let t = self.tok(1);
        let msg = format!("missing {} at {}", expected.render(), self.token_display(t));
        self.syntax_error(Self::span(t), msg)
    }

    fn report_mismatch(&mut self, expected: TokenSet) -> R<()> {
        if self.error_mode {
            return Ok(());
        }
        self.error_mode = true;
        let t = self.tok(1);
        let msg = format!(
            "mismatched input {} expecting {}",
            self.token_display(t),
            expected.render()
        );
        self.syntax_error(Self::span(t), msg)
    }

    /// `no viable alternative at input '<start..offending>'`, located at the offending token.
    fn report_no_viable(&mut self, start: Token, offending: Token) -> R<()> {
        if self.error_mode {
            return Ok(());
        }
        self.error_mode = true;
        // ANTLR's text of the token range: at the end of input it stops after the last token
        // (characters the lexer rejected are not tokens).
        let end = if offending.kind == T::Eof {
            self.toks
                .iter()
                .rev()
                .find(|t| t.kind != T::Eof && t.start >= start.start)
                .map_or(start.end, |t| t.end)
        } else {
            offending.end
        };
        let text = self
            .src
            .get(start.start as usize..end as usize)
            .unwrap_or("");
        let msg = format!("no viable alternative at input '{}'", escape_ws(text));
        self.syntax_error(Self::span(offending), msg)
    }

    fn check_recovery_attempts(&mut self) -> R<()> {
        if self.recovery_attempts == self.opts.error_recovery_limit {
            self.recovery_attempts += 1;
            let msg = format!(
                "error recovery attempt limit exceeded: {}",
                self.opts.error_recovery_limit
            );
            let span = Self::span(self.tok(1));
            self.push_issue(
                IssueKind::Syntax,
                Some(span),
                format!("Syntax error: {msg}"),
            );
            return Err(Abort);
        }
        self.recovery_attempts += 1;
        Ok(())
    }

    /// ANTLR's rule-level recovery: consume tokens until one that can follow the rules being
    /// parsed (`level` is what may follow the failing rule itself).
    fn recover(&mut self, level: TokenSet) -> R<()> {
        self.check_recovery_attempts()?;
        if self.last_error_pos == Some(self.pos) {
            self.skip();
        }
        self.last_error_pos = Some(self.pos);
        let mut set = level.with(T::Eof);
        for f in &self.follow {
            set = set.union(*f);
        }
        let mut consumed = 0u32;
        while !set.contains(self.la(1)) {
            if consumed >= self.opts.error_recovery_lookahead_limit {
                let msg = format!(
                    "error recovery token lookahead limit exceeded: {}",
                    self.opts.error_recovery_lookahead_limit
                );
                self.push_issue(IssueKind::Internal, None, msg);
                return Err(Abort);
            }
            consumed += 1;
            self.skip();
        }
        Ok(())
    }

    /// ANTLR's `match` with single-token deletion and insertion.
    fn expect(&mut self, kind: TokenKind, follow_after: TokenSet, level: TokenSet) -> R<Match> {
        if self.la(1) == kind {
            {
                self.advance();
                return Ok(Match::Ok);
            }
        }
        self.check_recovery_attempts()?;
        let expected = TokenSet::empty().with(kind);
        if self.la(2) == kind {
            self.report_unwanted(expected)?;
            self.skip();
            {
                self.advance();
                return Ok(Match::Ok);
            }
        }
        if follow_after.contains(self.la(1)) {
            self.report_missing(expected)?;
            return Ok(Match::Conjured);
        }
        self.report_mismatch(expected)?;
        self.recover(level)?;
        Ok(Match::Failed)
    }

    /// What may follow the construct being parsed, from the enclosing constructs.
    fn outer_follow(&self) -> TokenSet {
        let mut set = TokenSet::empty().with(T::Eof);
        for f in &self.follow {
            set = set.union(*f);
        }
        set
    }

    /// Matches the closing token of a bracketed primary expression.
    fn expect_closer(&mut self, close: TokenKind) -> R<Match> {
        let after = CONT_PRIMARY.union(self.outer_follow());
        self.expect(close, after, CONT_PRIMARY)
    }

    /// Sync at the start of a block whose alternatives start with `first`: deletes one
    /// unexpected token or reports the mismatch and recovers. True when parsing may go on.
    fn sync(&mut self, first: TokenSet, level: TokenSet) -> R<bool> {
        if first.contains(self.la(1)) {
            return Ok(true);
        }
        if self.error_mode {
            self.recover(level)?;
            return Ok(false);
        }
        if first.contains(self.la(2)) {
            self.report_unwanted(first)?;
            self.skip();
            self.error_mode = false;
            return Ok(true);
        }
        self.report_mismatch(first)?;
        self.recover(level)?;
        Ok(false)
    }

    // ---- depth limits -------------------------------------------------------------------

    fn enter(counter: &mut u32, max: u32, issues: &mut Vec<(IssueKind, Issue)>) -> R<()> {
        *counter += 1;
        if *counter > max {
            issues.push((
                IssueKind::Internal,
                Issue {
                    message: format!("expression recursion limit exceeded: {max}"),
                    span: None,
                    expr_id: 0,
                },
            ));
            return Err(Abort);
        }
        Ok(())
    }

    fn enter_expr(&mut self) -> R<()> {
        Self::enter(
            &mut self.depth_expr,
            self.opts.max_recursion_depth,
            &mut self.issues,
        )
    }

    fn enter_relation(&mut self) -> R<()> {
        Self::enter(
            &mut self.depth_relation,
            self.opts.max_recursion_depth,
            &mut self.issues,
        )
    }

    fn enter_calc(&mut self) -> R<()> {
        Self::enter(
            &mut self.depth_calc,
            self.opts.max_recursion_depth,
            &mut self.issues,
        )
    }

    /// Wraps a counted node; beyond the visitor's recursion limit the subtree is dropped (the
    /// parse fails with `max recursion depth exceeded` once the whole input has been read).
    fn counted(&mut self, e: Expr, child_height: u32) -> P {
        let h = child_height + 1;
        if h > self.opts.max_recursion_depth {
            self.visit_depth_exceeded = true;
            let span = e.span;
            drop_iteratively(e);
            return P {
                e: self.placeholder(span),
                h: 0,
            };
        }
        P { e, h }
    }

    // ---- rules --------------------------------------------------------------------------

    fn start(&mut self) -> R<P> {
        let e = self.expr()?;
        if self.la(1) != T::Eof {
            let expected = TokenSet::empty().with(T::Eof);
            self.check_recovery_attempts()?;
            if self.la(2) == T::Eof {
                self.report_unwanted(expected)?;
            } else {
                self.report_mismatch(expected)?;
                self.recover(TokenSet::empty())?;
            }
        }
        Ok(e)
    }

    fn expr(&mut self) -> R<P> {
        self.enter_expr()?;
        let cond = self.conditional_or()?;
        let out = if self.la(1) == T::Question {
            let q = self.advance();
            let id = self.new_id();
            self.follow.push(TokenSet::empty().with(T::Colon));
            let e1 = self.conditional_or();
            self.follow.pop();
            let e1 = e1?;
            match self.expect(T::Colon, FIRST_EXPR, TokenSet::empty())? {
                Match::Failed => {
                    self.depth_expr -= 1;
                    return Ok(P {
                        e: self.placeholder(Self::span(q)),
                        h: 0,
                    });
                }
                Match::Ok | Match::Conjured => {}
            }
            let e2 = self.expr()?;
            let h = cond.h.max(e1.h).max(e2.h);
            let call =
                self.call_or_macro(id, Self::span(q), "_?_:_", None, vec![cond.e, e1.e, e2.e]);
            self.counted(call, h)
        } else {
            cond
        };
        self.depth_expr -= 1;
        Ok(out)
    }

    fn conditional_or(&mut self) -> R<P> {
        self.logical_chain(T::LogicalOr)
    }

    /// `a || b || c` (or `&&`): terms left to right, each operator id after its right term,
    /// folded into cel-go's balanced tree.
    fn logical_chain(&mut self, op: TokenKind) -> R<P> {
        let first = if op == T::LogicalOr {
            self.logical_chain(T::LogicalAnd)?
        } else {
            self.conjunct()?
        };
        if self.la(1) != op {
            return Ok(first);
        }
        let function = if op == T::LogicalOr { "_||_" } else { "_&&_" };
        let t = self.advance();
        let second = if op == T::LogicalOr {
            self.logical_chain(T::LogicalAnd)?
        } else {
            self.conjunct()?
        };
        let id = self.new_id();
        let mut h = first.h.max(second.h);
        if self.la(1) != op {
            // One operator (the usual case): the balanced tree is the call itself.
            let e = Expr {
                id,
                kind: ExprKind::Call {
                    target: None,
                    function: function.to_string(),
                    args: vec![first.e, second.e],
                },
                span: Self::span(t),
            };
            return Ok(P { e, h });
        }
        let mut terms = vec![Some(first.e), Some(second.e)];
        let mut ops: Vec<(ExprId, Span)> = vec![(id, Self::span(t))];
        while self.la(1) == op {
            let t = self.advance();
            let next = if op == T::LogicalOr {
                self.logical_chain(T::LogicalAnd)?
            } else {
                self.conjunct()?
            };
            let id = self.new_id();
            h = h.max(next.h);
            terms.push(Some(next.e));
            ops.push((id, Self::span(t)));
        }
        let e = balanced(&mut terms, &ops, function, 0, ops.len() - 1);
        Ok(P { e, h })
    }

    /// One operand of `&&`: a relation.
    fn conjunct(&mut self) -> R<P> {
        self.enter_relation()?;
        let mut lhs = self.calc(0)?;
        while let Some(function) = relation_function(self.la(1)) {
            let t = self.advance();
            let id = self.new_id();
            self.enter_relation()?;
            let rhs = self.calc(0)?;
            self.depth_relation -= 1;
            let h = lhs.h.max(rhs.h);
            let call = self.call_or_macro(id, Self::span(t), function, None, vec![lhs.e, rhs.e]);
            lhs = self.counted(call, h);
        }
        self.depth_relation -= 1;
        Ok(lhs)
    }

    /// Arithmetic with ANTLR's precedence climbing: `*` `/` `%` bind tighter than `+` `-`.
    fn calc(&mut self, min_prec: u8) -> R<P> {
        self.enter_calc()?;
        let mut lhs = self.unary()?;
        loop {
            let (function, prec) = match self.la(1) {
                T::Star => ("_*_", 2),
                T::Slash => ("_/_", 2),
                T::Percent => ("_%_", 2),
                T::Plus => ("_+_", 1),
                T::Minus => ("_-_", 1),
                _ => break,
            };
            if prec < min_prec {
                break;
            }
            let t = self.advance();
            let id = self.new_id();
            let rhs = self.calc(prec + 1)?;
            let h = lhs.h.max(rhs.h);
            let call = self.call_or_macro(id, Self::span(t), function, None, vec![lhs.e, rhs.e]);
            lhs = self.counted(call, h);
        }
        self.depth_calc -= 1;
        Ok(lhs)
    }

    fn unary(&mut self) -> R<P> {
        if !self.sync(FIRST_EXPR, CONT_OPS)? {
            let span = Self::span(self.tok(1));
            return Ok(P {
                e: self.placeholder(span),
                h: 0,
            });
        }
        match self.la(1) {
            T::Exclam => self.prefix_ops(T::Exclam, "!_"),
            T::Minus => {
                if matches!(self.la(2), T::NumInt | T::NumFloat) {
                    // A single `-` before a number is the literal's sign.
                    self.member()
                } else {
                    self.prefix_ops(T::Minus, "-_")
                }
            }
            _ => self.member(),
        }
    }

    /// A run of `!` or `-`: pairs cancel (cel-go keeps only the parity), the first operator
    /// token carries the id.
    fn prefix_ops(&mut self, op: TokenKind, function: &str) -> R<P> {
        let first = self.tok(1);
        let mut n = 0usize;
        let mut second = first;
        while self.la(1) == op {
            let t = self.advance();
            n += 1;
            if n == 2 {
                second = t;
            }
        }
        let id = if n % 2 == 1 {
            Some(self.new_id())
        } else {
            None
        };
        if op == T::Minus && n >= 2 && !FIRST_PRIMARY.contains(self.la(1)) && !self.error_mode {
            // ANTLR's `(ops+='-')+` loop decision fails from the second `-` on, then the
            // operand rule reports the missing expression.
            let offending = self.tok(1);
            self.report_no_viable(second, offending)?;
            self.error_mode = false;
            self.report_mismatch(FIRST_EXPR)?;
            self.recover(CONT_OPS)?;
            return Ok(P {
                e: self.placeholder(Self::span(offending)),
                h: 0,
            });
        }
        if !self.sync(FIRST_PRIMARY, CONT_OPS)? {
            let span = Self::span(self.tok(1));
            return Ok(P {
                e: self.placeholder(span),
                h: 0,
            });
        }
        let m = self.member()?;
        match id {
            None => Ok(m),
            Some(id) => {
                let e = self.call_or_macro(id, Self::span(first), function, None, vec![m.e]);
                Ok(P { e, h: m.h })
            }
        }
    }

    fn member(&mut self) -> R<P> {
        let mut m = self.primary()?;
        loop {
            match self.la(1) {
                T::Dot => {
                    let dot = self.tok(1);
                    match self.la(2) {
                        T::Identifier if self.la(3) == T::LParen => {
                            self.advance();
                            let name = self.advance();
                            let open = self.advance();
                            let id = self.new_id();
                            let Some((args, h)) = self.call_args()? else {
                                return Ok(m);
                            };
                            let function = self.text(name).to_string();
                            let call = self.call_or_macro(
                                id,
                                Self::span(open),
                                &function,
                                Some(m.e),
                                args,
                            );
                            m = self.counted(call, m.h.max(h));
                        }
                        T::Identifier | T::EscIdentifier => {
                            self.advance();
                            let name = self.advance();
                            let field = self.field_name(name);
                            let id = self.new_id();
                            let e = Expr {
                                id,
                                kind: ExprKind::Select {
                                    operand: Box::new(m.e),
                                    field,
                                    test_only: false,
                                },
                                span: Self::span(dot),
                            };
                            m = self.counted(e, m.h);
                        }
                        T::Question => {
                            self.advance();
                            self.advance();
                            if !ESC_IDENT.contains(self.la(1)) {
                                self.report_mismatch(ESC_IDENT)?;
                                self.recover(CONT_OPS)?;
                                return Ok(m);
                            }
                            let name = self.advance();
                            let field = self.field_name(name);
                            if !self.opts.enable_optional_syntax {
                                let e =
                                    self.visitor_error(Self::span(dot), "unsupported syntax '.?'");
                                m = self.counted(e, m.h);
                                continue;
                            }
                            let lit = Expr {
                                id: self.new_id(),
                                kind: ExprKind::Literal(Literal::String(Arc::from(field.as_str()))),
                                span: Self::span(name),
                            };
                            let id = self.new_id();
                            let e = Expr {
                                id,
                                kind: ExprKind::Call {
                                    target: None,
                                    function: "_?._".to_string(),
                                    args: vec![m.e, lit],
                                },
                                span: Self::span(dot),
                            };
                            m = self.counted(e, m.h);
                        }
                        T::True | T::False | T::Null if !self.error_mode => {
                            // cel-go rewrites ANTLR's message for reserved literals after a dot.
                            self.error_mode = true;
                            let t = self.tok(2);
                            let msg =
                                format!("mismatched input '{}' expecting IDENTIFIER", self.text(t));
                            self.syntax_error(Self::span(t), msg)?;
                            self.recover(CONT_OPS)?;
                            return Ok(m);
                        }
                        _ => {
                            let offending = self.tok(2);
                            self.report_no_viable(dot, offending)?;
                            self.recover(CONT_OPS)?;
                            return Ok(m);
                        }
                    }
                }
                T::LBracket => {
                    let open = self.advance();
                    let optional = if self.la(1) == T::Question {
                        self.advance();
                        true
                    } else {
                        false
                    };
                    let id = self.new_id();
                    self.follow.push(CONT_PRIMARY.with(T::RBracket));
                    let index = self.expr();
                    self.follow.pop();
                    let index = index?;
                    let after = CONT_PRIMARY.union(self.outer_follow());
                    if let Match::Failed = self.expect(T::RBracket, after, CONT_OPS)? {
                        return Ok(m);
                    }
                    let function = if optional {
                        if !self.opts.enable_optional_syntax {
                            let e = self.visitor_error(Self::span(open), "unsupported syntax '[?'");
                            m = self.counted(e, m.h.max(index.h));
                            continue;
                        }
                        "_[?_]"
                    } else {
                        "_[_]"
                    };
                    let call = self.call_or_macro(
                        id,
                        Self::span(open),
                        function,
                        None,
                        vec![m.e, index.e],
                    );
                    m = self.counted(call, m.h.max(index.h));
                }
                _ => return Ok(m),
            }
        }
    }

    /// Field name of a selection or initializer: plain, or back-quoted when allowed.
    fn field_name(&mut self, t: Token) -> String {
        let text = self.text(t);
        if t.kind == T::EscIdentifier {
            if !self.opts.enable_identifier_escape_syntax {
                self.push_issue(
                    IssueKind::Visitor,
                    Some(Self::span(t)),
                    "unsupported syntax: '`'".to_string(),
                );
            }
            return text[1..text.len() - 1].to_string();
        }
        text.to_string()
    }

    /// `( exprList? )` after the open parenthesis: the arguments and their height, or None
    /// when the closing parenthesis was missing beyond recovery.
    fn call_args(&mut self) -> R<Option<(Vec<Expr>, u32)>> {
        let mut args = Vec::new();
        let mut h = 0;
        let first = FIRST_EXPR.with(T::RParen);
        if !self.sync(first, CONT_PRIMARY)? {
            return Ok(None);
        }
        if self.la(1) != T::RParen {
            loop {
                self.follow
                    .push(CONT_PRIMARY.with(T::Comma).with(T::RParen));
                let a = self.expr();
                self.follow.pop();
                let a = a?;
                h = h.max(a.h);
                args.push(a.e);
                if self.la(1) == T::Comma {
                    self.advance();
                    continue;
                }
                break;
            }
        }
        match self.expect_closer(T::RParen)? {
            Match::Failed => Ok(None),
            _ => Ok(Some((args, h))),
        }
    }

    fn primary(&mut self) -> R<P> {
        match self.la(1) {
            T::Dot | T::Identifier => self.ident_or_call(),
            T::LParen => {
                let open = self.advance();
                self.follow.push(CONT_PRIMARY.with(T::RParen));
                let e = self.expr();
                self.follow.pop();
                let e = e?;
                self.expect_closer(T::RParen)?;
                let _ = open;
                Ok(e)
            }
            T::LBracket => self.list(),
            T::LBrace => self.map(),
            _ => self.literal(),
        }
    }

    fn literal(&mut self) -> R<P> {
        let first = self.tok(1);
        let negative = first.kind == T::Minus;
        if negative {
            self.advance();
        }
        let t = self.tok(1);
        let span = Span {
            start: first.start,
            end: t.end,
        };
        let text = self.text(t);
        let lit = match t.kind {
            T::NumInt => {
                self.advance();
                match parse_int(text, negative) {
                    Some(v) => Literal::Int(v),
                    None => {
                        let e = self.visitor_error(span, "invalid int literal");
                        return Ok(P { e, h: 0 });
                    }
                }
            }
            T::NumFloat => {
                self.advance();
                let v: Option<f64> = text.parse::<f64>().ok().filter(|v| v.is_finite());
                match v {
                    Some(v) => Literal::Double(if negative { -v } else { v }),
                    None => {
                        let e = self.visitor_error(span, "invalid double literal");
                        return Ok(P { e, h: 0 });
                    }
                }
            }
            T::NumUint if !negative => {
                self.advance();
                let digits = &text[..text.len() - 1];
                let v = match digits.strip_prefix("0x") {
                    Some(hex) => u64::from_str_radix(hex, 16).ok(),
                    None => digits.parse::<u64>().ok(),
                };
                match v {
                    Some(v) => Literal::Uint(v),
                    None => {
                        let e = self.visitor_error(span, "invalid uint literal");
                        return Ok(P { e, h: 0 });
                    }
                }
            }
            T::String if !negative => {
                self.advance();
                match unescape(text, false) {
                    Ok(b) => match String::from_utf8(b) {
                        Ok(s) => Literal::String(Arc::from(s)),
                        Err(_) => {
                            let e = self.visitor_error(span, "invalid unicode code point");
                            return Ok(P { e, h: 0 });
                        }
                    },
                    Err(msg) => {
                        let e = self.visitor_error(span, msg);
                        return Ok(P { e, h: 0 });
                    }
                }
            }
            T::Bytes if !negative => {
                self.advance();
                match unescape(&text[1..], true) {
                    Ok(b) => Literal::Bytes(Arc::from(b)),
                    Err(msg) => {
                        let e = self.visitor_error(span, msg);
                        return Ok(P { e, h: 0 });
                    }
                }
            }
            T::True if !negative => {
                self.advance();
                Literal::Bool(true)
            }
            T::False if !negative => {
                self.advance();
                Literal::Bool(false)
            }
            T::Null if !negative => {
                self.advance();
                Literal::Null
            }
            _ => {
                // A `-` not followed by a number after `!` (`!-x`), or a token `sync` let
                // through: the literal alternative fails here.
                self.report_mismatch(FIRST_PRIMARY)?;
                self.recover(CONT_PRIMARY)?;
                return Ok(P {
                    e: self.placeholder(span),
                    h: 0,
                });
            }
        };
        let id = self.new_id();
        Ok(P {
            e: Expr {
                id,
                kind: ExprKind::Literal(lit),
                span,
            },
            h: 0,
        })
    }

    /// Identifier, global call, or message construction (`.a.b.C{...}`).
    fn ident_or_call(&mut self) -> R<P> {
        let start = self.tok(1);
        let leading_dot = start.kind == T::Dot;
        if leading_dot && self.la(2) != T::Identifier {
            let offending = self.tok(2);
            self.report_no_viable(start, offending)?;
            self.recover(CONT_PRIMARY)?;
            return Ok(P {
                e: self.placeholder(Self::span(start)),
                h: 0,
            });
        }
        // Message construction: IDENT ('.' IDENT)* '{'.
        let first_ident = self.pos + usize::from(leading_dot);
        let mut k = first_ident + 1;
        while self.toks.get(k).map(|t| t.kind) == Some(T::Dot)
            && self.toks.get(k + 1).map(|t| t.kind) == Some(T::Identifier)
        {
            k += 2;
        }
        if self.toks.get(k).map(|t| t.kind) == Some(T::LBrace) {
            return self.message(k);
        }
        if leading_dot {
            self.advance();
        }
        let ident = self.advance();
        let name = self.text(ident);
        let full = if leading_dot {
            format!(".{name}")
        } else {
            name.to_string()
        };
        let ctx_span = Span {
            start: start.start,
            end: ident.end,
        };
        if self.la(1) == T::LParen {
            let reserved = RESERVED.contains(&name);
            let open = self.advance();
            let id = if reserved { 0 } else { self.new_id() };
            let Some((args, h)) = self.call_args()? else {
                return Ok(P {
                    e: self.placeholder(Self::span(open)),
                    h: 0,
                });
            };
            if reserved {
                let e = self.visitor_error(ctx_span, format!("reserved identifier: {name}"));
                return Ok(P { e, h: 0 });
            }
            let e = self.call_or_macro(id, Self::span(open), &full, None, args);
            return Ok(P { e, h });
        }
        if RESERVED.contains(&name) {
            let e = self.visitor_error(ctx_span, format!("reserved identifier: {name}"));
            return Ok(P { e, h: 0 });
        }
        let id = self.new_id();
        Ok(P {
            e: Expr {
                id,
                kind: ExprKind::Ident(full),
                span: Self::span(ident),
            },
            h: 0,
        })
    }

    /// `Name.Parts{field: value, ?opt: value}`; `brace` is the index of the `{` token.
    fn message(&mut self, brace: usize) -> R<P> {
        let mut type_name = String::new();
        while self.pos < brace {
            let t = self.advance();
            type_name.push_str(self.text(t));
        }
        let open = self.advance();
        let id = self.new_id();
        let mut fields = Vec::new();
        let mut h = 0;
        let level = CONT_PRIMARY.with(T::Comma).with(T::RBrace);
        let first = FIELD_START.with(T::Comma).with(T::RBrace);
        let ok = self.sync(first, CONT_PRIMARY)?;
        if ok && FIELD_START.contains(self.la(1)) {
            loop {
                let opt = if self.la(1) == T::Question {
                    Some(self.advance())
                } else {
                    None
                };
                if !ESC_IDENT.contains(self.la(1)) {
                    self.report_mismatch(ESC_IDENT)?;
                    self.recover(level)?;
                    break;
                }
                let name_tok = self.advance();
                let colon = Self::span(self.tok(1));
                if let Match::Failed = self.expect(T::Colon, FIRST_EXPR, level)? {
                    break;
                }
                let field_id = self.new_id();
                let escaped_ok =
                    name_tok.kind != T::EscIdentifier || self.opts.enable_identifier_escape_syntax;
                let field = self.field_name(name_tok);
                self.follow
                    .push(CONT_PRIMARY.with(T::Comma).with(T::RBrace));
                let value = self.expr();
                self.follow.pop();
                let value = value?;
                h = h.max(value.h);
                let optional = opt.is_some();
                if let Some(q) = opt
                    && !self.opts.enable_optional_syntax
                {
                    self.push_issue(
                        IssueKind::Visitor,
                        Some(Self::span(q)),
                        "unsupported syntax '?'".to_string(),
                    );
                } else if escaped_ok {
                    fields.push(FieldInit {
                        id: field_id,
                        field,
                        value: value.e,
                        optional,
                        span: colon,
                    });
                }
                if self.la(1) == T::Comma && FIELD_START.contains(self.la(2)) {
                    self.advance();
                    continue;
                }
                break;
            }
        }
        if ok {
            self.trailing_comma(T::RBrace, CONT_PRIMARY)?;
        }
        self.expect_closer(T::RBrace)?;
        let e = Expr {
            id,
            kind: ExprKind::Struct { type_name, fields },
            span: Self::span(open),
        };
        Ok(P { e, h })
    }

    /// The optional `,` before a closing bracket, with its sync.
    fn trailing_comma(&mut self, close: TokenKind, level: TokenSet) -> R<()> {
        let set = TokenSet::empty().with(T::Comma).with(close);
        if self.sync(set, level)? && self.la(1) == T::Comma {
            self.advance();
        }
        Ok(())
    }

    fn list(&mut self) -> R<P> {
        let open = self.advance();
        let id = self.new_id();
        let mut elements = Vec::new();
        let mut optional_indices = Vec::new();
        let mut h = 0;
        let starts = FIRST_EXPR.with(T::Question);
        let level = CONT_PRIMARY.with(T::Comma).with(T::RBracket);
        let ok = self.sync(starts.with(T::Comma).with(T::RBracket), CONT_PRIMARY)?;
        if ok && starts.contains(self.la(1)) {
            loop {
                let opt = if self.la(1) == T::Question {
                    Some(self.advance())
                } else {
                    None
                };
                self.follow.push(level);
                let e = self.expr();
                self.follow.pop();
                let e = e?;
                h = h.max(e.h);
                if let Some(q) = opt {
                    if self.opts.enable_optional_syntax {
                        optional_indices.push(elements.len() as u32);
                    } else {
                        self.push_issue(
                            IssueKind::Visitor,
                            Some(Self::span(q)),
                            "unsupported syntax '?'".to_string(),
                        );
                    }
                }
                elements.push(e.e);
                if self.la(1) == T::Comma && self.la(2) != T::RBracket {
                    self.advance();
                    continue;
                }
                break;
            }
        }
        if ok {
            self.trailing_comma(T::RBracket, CONT_PRIMARY)?;
        }
        self.expect_closer(T::RBracket)?;
        let e = Expr {
            id,
            kind: ExprKind::List {
                elements,
                optional_indices,
            },
            span: Self::span(open),
        };
        Ok(P { e, h })
    }

    fn map(&mut self) -> R<P> {
        let open = self.advance();
        let id = self.new_id();
        let mut entries = Vec::new();
        let mut h = 0;
        let starts = FIRST_EXPR.with(T::Question);
        let level = CONT_PRIMARY.with(T::Comma).with(T::RBrace);
        let ok = self.sync(starts.with(T::Comma).with(T::RBrace), CONT_PRIMARY)?;
        if ok && starts.contains(self.la(1)) {
            loop {
                let entry_id = self.new_id();
                let opt = if self.la(1) == T::Question {
                    Some(self.advance())
                } else {
                    None
                };
                self.follow.push(CONT_PRIMARY.with(T::Colon));
                let key = self.expr();
                self.follow.pop();
                let key = key?;
                let colon = Self::span(self.tok(1));
                if let Match::Failed = self.expect(T::Colon, FIRST_EXPR, level)? {
                    break;
                }
                self.follow.push(level);
                let value = self.expr();
                self.follow.pop();
                let value = value?;
                h = h.max(key.h).max(value.h);
                let mut optional = false;
                if let Some(q) = opt {
                    if self.opts.enable_optional_syntax {
                        optional = true;
                    } else {
                        self.push_issue(
                            IssueKind::Visitor,
                            Some(Self::span(q)),
                            "unsupported syntax '?'".to_string(),
                        );
                    }
                }
                entries.push(MapEntry {
                    id: entry_id,
                    key: key.e,
                    value: value.e,
                    optional,
                    span: colon,
                });
                if self.la(1) == T::Comma && self.la(2) != T::RBrace {
                    self.advance();
                    continue;
                }
                break;
            }
        }
        if ok {
            self.trailing_comma(T::RBrace, CONT_PRIMARY)?;
        }
        self.expect_closer(T::RBrace)?;
        let e = Expr {
            id,
            kind: ExprKind::Map { entries },
            span: Self::span(open),
        };
        Ok(P { e, h })
    }

    // ---- tree building ------------------------------------------------------------------

    /// A call node, or its macro expansion when `function` names an enabled macro.
    fn call_or_macro(
        &mut self,
        id: ExprId,
        span: Span,
        function: &str,
        target: Option<Expr>,
        args: Vec<Expr>,
    ) -> Expr {
        let enabled = self.opts.macros;
        match macros::expand(self, enabled, id, span, function, target, args) {
            Expansion::Expanded(e) => e,
            Expansion::Error { span: at, message } => self.visitor_error(at, message),
            Expansion::NotMacro(target, args) => Expr {
                id,
                kind: ExprKind::Call {
                    target: target.map(Box::new),
                    function: function.to_string(),
                    args,
                },
                span,
            },
        }
    }
}

/// cel-go's balanced tree for chains of `&&` / `||` over `terms[lo..=hi+1]`.
fn balanced(
    terms: &mut [Option<Expr>],
    ops: &[(ExprId, Span)],
    function: &str,
    lo: usize,
    hi: usize,
) -> Expr {
    let mid = (lo + hi).div_ceil(2);
    let left = if mid == lo {
        take(terms, mid)
    } else {
        balanced(terms, ops, function, lo, mid - 1)
    };
    let right = if mid == hi {
        take(terms, mid + 1)
    } else {
        balanced(terms, ops, function, mid + 1, hi)
    };
    let (id, span) = ops[mid];
    Expr {
        id,
        kind: ExprKind::Call {
            target: None,
            function: function.to_string(),
            args: vec![left, right],
        },
        span,
    }
}

fn take(terms: &mut [Option<Expr>], i: usize) -> Expr {
    // Each index is taken exactly once by construction of the balanced split.
    terms[i].take().unwrap_or(Expr {
        id: 0,
        kind: ExprKind::Literal(Literal::Null),
        span: Span::default(),
    })
}

fn relation_function(kind: TokenKind) -> Option<&'static str> {
    Some(match kind {
        T::Less => "_<_",
        T::LessEquals => "_<=_",
        T::GreaterEquals => "_>=_",
        T::Greater => "_>_",
        T::Equals => "_==_",
        T::NotEquals => "_!=_",
        T::In => "@in",
        _ => return None,
    })
}

/// Go `strconv.ParseInt` on the literal text (decimal or `0x` hex) with an optional sign.
fn parse_int(text: &str, negative: bool) -> Option<i64> {
    let (digits, radix) = match text.strip_prefix("0x") {
        Some(hex) => (hex, 16),
        None => (text, 10),
    };
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    if negative {
        if magnitude == 1u64 << 63 {
            Some(i64::MIN)
        } else {
            i64::try_from(magnitude).ok().map(|v| -v)
        }
    } else {
        i64::try_from(magnitude).ok()
    }
}

/// Drops a tree without recursion (subtrees handed here can be deep).
pub(crate) fn drop_iteratively(e: Expr) {
    let mut stack = vec![e];
    while let Some(mut e) = stack.pop() {
        match std::mem::replace(&mut e.kind, ExprKind::Literal(Literal::Null)) {
            ExprKind::Select { operand, .. } => stack.push(*operand),
            ExprKind::Call { target, args, .. } => {
                if let Some(t) = target {
                    stack.push(*t);
                }
                stack.extend(args);
            }
            ExprKind::List { elements, .. } => stack.extend(elements),
            ExprKind::Map { entries } => {
                for en in entries {
                    stack.push(en.key);
                    stack.push(en.value);
                }
            }
            ExprKind::Struct { fields, .. } => stack.extend(fields.into_iter().map(|f| f.value)),
            ExprKind::Comprehension(c) => {
                let c = *c;
                stack.extend([
                    c.iter_range,
                    c.accu_init,
                    c.loop_condition,
                    c.loop_step,
                    c.result,
                ]);
            }
            ExprKind::Literal(_) | ExprKind::Ident(_) => {}
        }
    }
}
