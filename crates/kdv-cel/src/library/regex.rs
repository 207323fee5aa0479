//! RE2 (Go `regexp`) patterns on top of the `regex` crate.
//!
//! The two dialects mostly agree. Where they differ, patterns are rewritten or rejected so a
//! pattern never silently means something else than in Go:
//! - `\d \D \w \W \s \S` are ASCII in Go: rewritten to explicit ASCII ranges;
//! - `\b \B` are ASCII word boundaries in Go: rewritten to `(?-u:\b)` / `(?-u:\B)`;
//! - `\<` and `\>` are escaped literals in Go (word boundaries in Rust): rewritten to `<`, `>`;
//! - text Go reads literally but Rust reads as syntax is escaped first: a `{` that starts no
//!   valid repetition (`a{`, `a{,5}`), `[` inside a class (`[a[b]]`; POSIX `[:alpha:]` kept),
//!   `&&` and `~~` inside a class, and `\Q...\E` quoted text;
//! - the class difference `--` is rejected (Go reads it as a range ending in `-`);
//! - flags Go lacks (`x`, `u`, `R`) and Rust-only assertions (`\b{start}`) are rejected;
//! - repetition counts above 1000 are rejected as in Go (`invalid repeat count`);
//! - stacked repetition operators (`a**`, `a++`) are rejected as in Go (`invalid nested
//!   repetition operator`; Rust reads them as a repetition of a repetition).
//!
//! Errors use Go's wording, ``<code>: `<offending text>` ``, for the errors both parsers
//! detect alike.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use regex::Regex;
use regex_syntax::ast::{self, Ast, ClassPerlKind, ClassSetItem, Visitor};

use crate::hash::FastMap;
use crate::value::EvalError;

/// Compiled size limit per pattern (bytes of compiled program).
const SIZE_LIMIT: usize = 8 << 20;
/// Nesting limit of the pattern parser (bounded recursion on untrusted patterns).
const NEST_LIMIT: u32 = 250;
/// Go's maximum repetition count.
const MAX_REPEAT: u32 = 1000;
/// Dynamic patterns kept per program before the cache is reset.
const CACHE_CAPACITY: usize = 256;

/// Compiles a Go RE2 pattern; errors read like Go's (`error parsing regexp: ...`).
pub fn compile(pattern: &str) -> Result<Regex, EvalError> {
    let translated =
        translate(pattern).map_err(|e| EvalError::new(format!("error parsing regexp: {e}")))?;
    regex::RegexBuilder::new(&translated)
        .size_limit(SIZE_LIMIT)
        .nest_limit(NEST_LIMIT)
        .build()
        .map_err(|e| EvalError::new(format!("error parsing regexp: {}", short_error(&e))))
}

/// Checks that `compile(pattern)` would succeed without building the matcher: the Go-syntax
/// translation, the pattern's meaning (Unicode classes resolve) and the compiled-size limit,
/// all as [`compile`] applies them. The checker's `matches` literal validator runs this on
/// every compile, where building the regex itself would dominate the compile time.
pub fn validate(pattern: &str) -> bool {
    let Ok(go) = parse_go(pattern) else {
        return false;
    };
    // Text that needed no rewriting reads the same to the `regex` crate: its syntax tree is
    // reused instead of parsed again. Octal escapes are the exception (Go reads `\1` as
    // one, the `regex` crate rejects it).
    let hir = if go.edits.is_empty() && !go.octal {
        regex_syntax::hir::translate::Translator::new().translate(&go.text, &go.ast)
    } else {
        let rewritten = go.rewritten();
        return regex_syntax::ParserBuilder::new()
            .nest_limit(NEST_LIMIT)
            .build()
            .parse(&rewritten)
            .is_ok_and(|hir| fits_size_limit(&hir));
    };
    hir.is_ok_and(|hir| fits_size_limit(&hir))
}

/// Whether the Thompson NFA of `hir` stays within [`SIZE_LIMIT`], which is what the `regex`
/// crate's `size_limit` applies to. Small patterns are settled by an upper bound of the size
/// without building the NFA.
fn fits_size_limit(hir: &regex_syntax::hir::Hir) -> bool {
    if nfa_size_bound(hir) <= SIZE_LIMIT {
        return true;
    }
    regex_automata::nfa::thompson::Compiler::new()
        .configure(
            regex_automata::nfa::thompson::Config::new()
                .nfa_size_limit(Some(SIZE_LIMIT))
                .shrink(false),
        )
        .build_from_hir(hir)
        .is_ok()
}

/// An upper bound of the memory the Thompson NFA builder accounts against its size limit
/// for `hir` (states times the size of a state plus transition lists): generous sizes per
/// state and edge, every copy a counted repetition expands to, and a Unicode class at its
/// worst UTF-8 automaton (a scalar range splits into at most 21 byte sequences of at most 4
/// states each). Saturates instead of overflowing.
fn nfa_size_bound(hir: &regex_syntax::hir::Hir) -> usize {
    /// Builder states are 32 bytes on 64-bit targets.
    const STATE: usize = 64;
    /// Sparse transitions are 8 bytes, union alternates 4.
    const EDGE: usize = 16;
    const SEQUENCES_PER_RANGE: usize = 32;
    /// Start states, the unanchored prefix, the implicit capture group, the match state.
    const FIXED: usize = 64 * STATE;

    fn bound(hir: &regex_syntax::hir::Hir) -> usize {
        use regex_syntax::hir::{Class, HirKind};
        let sum = |hirs: &[regex_syntax::hir::Hir]| {
            hirs.iter()
                .fold(0usize, |acc, h| acc.saturating_add(bound(h)))
        };
        match hir.kind() {
            HirKind::Empty | HirKind::Look(_) => STATE,
            HirKind::Literal(lit) => lit.0.len().saturating_mul(STATE + EDGE),
            HirKind::Class(Class::Bytes(c)) => {
                STATE.saturating_add(c.ranges().len().saturating_mul(STATE + EDGE))
            }
            HirKind::Class(Class::Unicode(c)) => STATE.saturating_add(
                c.ranges()
                    .len()
                    .saturating_mul(SEQUENCES_PER_RANGE * 4 * (STATE + EDGE)),
            ),
            HirKind::Repetition(r) => {
                let copies = r.max.unwrap_or(r.min.saturating_add(1)).max(1) as usize;
                copies.saturating_mul(bound(&r.sub).saturating_add(2 * (STATE + EDGE)))
            }
            HirKind::Capture(c) => bound(&c.sub).saturating_add(2 * STATE),
            HirKind::Concat(hirs) => sum(hirs).saturating_add(STATE),
            HirKind::Alternation(hirs) => sum(hirs)
                .saturating_add(hirs.len().saturating_mul(2 * (STATE + EDGE)))
                .saturating_add(STATE),
        }
    }
    bound(hir).saturating_add(FIXED)
}

fn short_error(e: &regex::Error) -> String {
    match e {
        regex::Error::Syntax(s) => s
            .lines()
            .rev()
            .find(|l| l.starts_with("error:"))
            .map_or_else(
                || s.clone(),
                |l| l.trim_start_matches("error: ").to_string(),
            ),
        regex::Error::CompiledTooBig(_) => "expression too large".into(),
        _ => e.to_string(),
    }
}

/// Rewrites a Go pattern into an equivalent `regex` crate pattern, or explains why it cannot.
pub fn translate(pattern: &str) -> Result<String, String> {
    parse_go(pattern).map(|go| go.rewritten())
}

/// A Go pattern read with the `regex` crate's parser.
struct GoPattern<'p> {
    /// The pattern with Go's literal-only text escaped.
    text: Cow<'p, str>,
    /// The syntax tree of `text`.
    ast: Ast,
    /// Replacements (byte range of `text`, new text) giving the `regex` crate's spelling.
    edits: Vec<(usize, usize, &'static str)>,
    /// Whether `text` has octal escapes.
    octal: bool,
}

impl GoPattern<'_> {
    /// The text with the edits applied.
    fn rewritten(&self) -> String {
        let text: &str = &self.text;
        let mut out = String::with_capacity(text.len() + 16);
        let mut at = 0;
        for &(start, end, new) in &self.edits {
            out.push_str(&text[at..start]);
            out.push_str(new);
            at = end;
        }
        out.push_str(&text[at..]);
        out
    }
}

/// Parses a Go pattern and works out its rewriting, or explains why it has none.
fn parse_go(pattern: &str) -> Result<GoPattern<'_>, String> {
    let text = escape_go_literals(pattern);
    let ast = ast::parse::ParserBuilder::new()
        .nest_limit(NEST_LIMIT)
        .octal(true)
        .build()
        .parse(&text)
        .map_err(|e| go_parse_error(&text, &e))?;
    let (edits, octal) = ast::visit(
        &ast,
        Shim {
            pattern: &text,
            edits: Vec::new(),
            octal: false,
        },
    )?;
    Ok(GoPattern {
        text,
        ast,
        edits,
        octal,
    })
}

/// Escapes what Go's parser reads as literal text but `regex-syntax` reads as syntax (see
/// the module docs); borrows the pattern when nothing needs escaping.
fn escape_go_literals(pattern: &str) -> Cow<'_, str> {
    if !pattern.contains(['{', '[', '\\']) {
        return Cow::Borrowed(pattern);
    }
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut in_class = false;
    // Index of the first character of the current class's body (after `[` and `^`): a `]`
    // there is a literal in both dialects.
    let mut class_body = 0;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if !in_class && chars.get(i + 1) == Some(&'Q') => {
                i += 2;
                while i < chars.len() {
                    if chars[i] == '\\' && chars.get(i + 1) == Some(&'E') {
                        i += 1;
                        break;
                    }
                    let mut buf = [0u8; 4];
                    out.push_str(&regex_syntax::escape(chars[i].encode_utf8(&mut buf)));
                    i += 1;
                }
            }
            '\\' => {
                out.push(c);
                if let Some(&next) = chars.get(i + 1) {
                    out.push(next);
                    i += 1;
                    // `\p{Greek}`, `\x{10FFFF}`: the braces belong to the escape.
                    if matches!(next, 'p' | 'P' | 'x') && chars.get(i + 1) == Some(&'{') {
                        while let Some(&b) = chars.get(i + 1) {
                            out.push(b);
                            i += 1;
                            if b == '}' {
                                break;
                            }
                        }
                    }
                }
            }
            '[' if !in_class => {
                out.push(c);
                in_class = true;
                class_body = i + 1;
                if chars.get(i + 1) == Some(&'^') {
                    out.push('^');
                    i += 1;
                    class_body = i + 1;
                }
            }
            '[' if chars.get(i + 1) == Some(&':') => {
                // A POSIX class `[:name:]` is syntax in both dialects.
                let end = (i + 2..chars.len().saturating_sub(1))
                    .find(|&j| chars[j] == ':' && chars[j + 1] == ']');
                match end {
                    Some(j) => {
                        out.extend(&chars[i..=j + 1]);
                        i = j + 1;
                    }
                    None => out.push_str("\\["),
                }
            }
            '[' => out.push_str("\\["),
            ']' if in_class && i != class_body => {
                out.push(c);
                in_class = false;
            }
            '&' | '~' if in_class && chars.get(i + 1) == Some(&c) => {
                out.push('\\');
                out.push(c);
            }
            '{' if !in_class && !starts_repetition(&chars[i..]) => out.push_str("\\{"),
            c => out.push(c),
        }
        i += 1;
    }
    Cow::Owned(out)
}

/// Whether `text` (starting at a `{`) is a Go repetition `{n}`, `{n,}` or `{n,m}`.
fn starts_repetition(text: &[char]) -> bool {
    let digits = |from: usize| {
        text[from..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count()
    };
    let n = digits(1);
    if n == 0 {
        return false;
    }
    match text.get(1 + n) {
        Some('}') => true,
        Some(',') => {
            let m = digits(2 + n);
            text.get(2 + n + m) == Some(&'}')
        }
        _ => false,
    }
}

/// Go's `regexp/syntax` error text (`<code>: `<expr>``) for a parse error of `pattern`;
/// kinds without a Go counterpart keep the `regex-syntax` description.
fn go_parse_error(pattern: &str, e: &ast::Error) -> String {
    use ast::ErrorKind as E;
    let span = e.span();
    let (start, end) = (span.start.offset, span.end.offset);
    let text = |s: usize, t: usize| pattern.get(s..t).unwrap_or("");
    let (code, expr) = match e.kind() {
        E::GroupUnopened => ("unexpected )", pattern),
        E::GroupUnclosed => ("missing closing )", pattern),
        // Go quotes the class from its `[` to the end of the pattern.
        E::ClassUnclosed => ("missing closing ]", text(start, pattern.len())),
        E::RepetitionMissing => (
            "missing argument to repetition operator",
            repetition_operator(pattern, start),
        ),
        E::RepetitionCountInvalid => ("invalid repeat count", text(start, end)),
        E::EscapeUnrecognized | E::ClassEscapeInvalid => {
            ("invalid escape sequence", text(start, end))
        }
        E::EscapeUnexpectedEof => ("trailing backslash at end of expression", ""),
        E::ClassRangeInvalid | E::ClassRangeLiteral => {
            ("invalid character class range", text(start, end))
        }
        // Go stops at the character after `(?`.
        E::UnsupportedLookAround => (
            "invalid or unsupported Perl syntax",
            text(start, (start + 3).min(pattern.len())),
        ),
        E::NestLimitExceeded(_) => ("expression nests too deeply", pattern),
        kind => return kind.to_string(),
    };
    format!("{code}: `{expr}`")
}

/// The repetition operator starting at byte `start` (`*`, `+?`, `{2,3}`), as Go quotes it.
fn repetition_operator(pattern: &str, start: usize) -> &str {
    let Some(rest) = pattern.get(start..) else {
        return "";
    };
    let mut len = match rest.chars().next() {
        Some('{') => rest.find('}').map_or(1, |i| i + 1),
        Some(c) => c.len_utf8(),
        None => 0,
    };
    if rest[len..].starts_with('?') {
        len += 1;
    }
    &rest[..len]
}

struct Shim<'p> {
    pattern: &'p str,
    edits: Vec<(usize, usize, &'static str)>,
    octal: bool,
}

impl Shim<'_> {
    fn text(&self, start: usize, end: usize) -> &str {
        self.pattern.get(start..end).unwrap_or("")
    }
}

fn perl_outside(kind: &ClassPerlKind, negated: bool) -> &'static str {
    match (kind, negated) {
        (ClassPerlKind::Digit, false) => "[0-9]",
        (ClassPerlKind::Digit, true) => "[^0-9]",
        (ClassPerlKind::Word, false) => "[0-9A-Za-z_]",
        (ClassPerlKind::Word, true) => "[^0-9A-Za-z_]",
        (ClassPerlKind::Space, false) => r"[\t\n\x0C\r ]",
        (ClassPerlKind::Space, true) => r"[^\t\n\x0C\r ]",
    }
}

fn perl_inside(kind: &ClassPerlKind, negated: bool) -> &'static str {
    match (kind, negated) {
        (ClassPerlKind::Digit, false) => "0-9",
        (ClassPerlKind::Digit, true) => r"\x00-/:-\x{10FFFF}",
        (ClassPerlKind::Word, false) => "0-9A-Za-z_",
        (ClassPerlKind::Word, true) => r"\x00-/:-@\[-\^\x60\{-\x{10FFFF}",
        (ClassPerlKind::Space, false) => r"\t\n\x0C\r ",
        (ClassPerlKind::Space, true) => r"\x00-\x08\x0B\x0E-\x1F!-\x{10FFFF}",
    }
}

/// Rejects flags Go lacks; `start` is where the group or flag directive (`(?`) begins,
/// Go quotes from there to the offending flag.
fn check_flags(shim: &Shim<'_>, start: usize, flags: &ast::Flags) -> Result<(), String> {
    for item in &flags.items {
        if let ast::FlagsItemKind::Flag(f) = &item.kind {
            match f {
                ast::Flag::CaseInsensitive
                | ast::Flag::MultiLine
                | ast::Flag::DotMatchesNewLine
                | ast::Flag::SwapGreed => {}
                _ => {
                    return Err(format!(
                        "invalid or unsupported Perl syntax: `{}`",
                        shim.text(start, item.span.end.offset)
                    ));
                }
            }
        }
    }
    Ok(())
}

impl Visitor for Shim<'_> {
    type Output = (Vec<(usize, usize, &'static str)>, bool);
    type Err = String;

    fn finish(mut self) -> Result<Self::Output, String> {
        self.edits.sort_by_key(|e| e.0);
        Ok((self.edits, self.octal))
    }

    fn visit_pre(&mut self, node: &Ast) -> Result<(), String> {
        match node {
            Ast::Literal(lit) if lit.kind == ast::LiteralKind::Octal => self.octal = true,
            Ast::ClassPerl(p) => self.edits.push((
                p.span.start.offset,
                p.span.end.offset,
                perl_outside(&p.kind, p.negated),
            )),
            Ast::Assertion(a) => {
                let text = match a.kind {
                    ast::AssertionKind::WordBoundary => Some(r"(?-u:\b)"),
                    ast::AssertionKind::NotWordBoundary => Some(r"(?-u:\B)"),
                    ast::AssertionKind::WordBoundaryStartAngle => Some("<"),
                    ast::AssertionKind::WordBoundaryEndAngle => Some(">"),
                    ast::AssertionKind::StartLine
                    | ast::AssertionKind::EndLine
                    | ast::AssertionKind::StartText
                    | ast::AssertionKind::EndText => None,
                    _ => return Err("invalid escape sequence".into()),
                };
                if let Some(t) = text {
                    self.edits.push((a.span.start.offset, a.span.end.offset, t));
                }
            }
            Ast::Flags(f) => check_flags(self, f.span.start.offset, &f.flags)?,
            Ast::Group(g) => {
                if let ast::GroupKind::NonCapturing(flags) = &g.kind {
                    check_flags(self, g.span.start.offset, flags)?;
                }
            }
            Ast::Repetition(r) => {
                if let Ast::Repetition(inner) = &*r.ast {
                    // Go reports the first stacked pair: from the innermost operator to the
                    // one applied to it.
                    let (mut outer, mut inner) = (&**r, &**inner);
                    while let Ast::Repetition(deeper) = &*inner.ast {
                        outer = inner;
                        inner = deeper;
                    }
                    return Err(format!(
                        "invalid nested repetition operator: `{}`",
                        self.text(inner.op.span.start.offset, outer.op.span.end.offset)
                    ));
                }
                if let ast::RepetitionKind::Range(range) = &r.op.kind {
                    let too_big = match range {
                        ast::RepetitionRange::Exactly(n) | ast::RepetitionRange::AtLeast(n) => {
                            *n > MAX_REPEAT
                        }
                        ast::RepetitionRange::Bounded(m, n) => *m > MAX_REPEAT || *n > MAX_REPEAT,
                    };
                    if too_big {
                        return Err(format!(
                            "invalid repeat count: `{}`",
                            self.text(r.op.span.start.offset, r.op.span.end.offset)
                        ));
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn visit_class_set_item_pre(&mut self, item: &ClassSetItem) -> Result<(), String> {
        match item {
            ClassSetItem::Literal(lit) if lit.kind == ast::LiteralKind::Octal => {
                self.octal = true;
                Ok(())
            }
            ClassSetItem::Range(r)
                if r.start.kind == ast::LiteralKind::Octal
                    || r.end.kind == ast::LiteralKind::Octal =>
            {
                self.octal = true;
                Ok(())
            }
            ClassSetItem::Bracketed(_) => Err("nested character classes are not supported".into()),
            ClassSetItem::Perl(p) => {
                self.edits.push((
                    p.span.start.offset,
                    p.span.end.offset,
                    perl_inside(&p.kind, p.negated),
                ));
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn visit_class_set_binary_op_pre(&mut self, _op: &ast::ClassSetBinaryOp) -> Result<(), String> {
        Err("character class set operations are not supported".into())
    }
}

/// Verdicts of [`validate`] reached so far, shared by clones: the `matches` literal validator
/// of one environment sees the same few patterns in rule after rule.
#[derive(Debug, Default, Clone)]
pub(crate) struct Verdicts(Arc<Mutex<FastMap<Arc<str>, bool>>>);

/// Longest pattern whose verdict is kept.
const VERDICT_MAX_LEN: usize = 1024;

impl Verdicts {
    /// [`validate`]`(pattern)`, remembered.
    pub(crate) fn validate(&self, pattern: &Arc<str>) -> bool {
        if let Ok(map) = self.0.lock()
            && let Some(&v) = map.get(&**pattern)
        {
            return v;
        }
        let v = validate(pattern);
        if pattern.len() <= VERDICT_MAX_LEN
            && let Ok(mut map) = self.0.lock()
        {
            if map.len() >= CACHE_CAPACITY {
                map.clear();
            }
            map.insert(Arc::clone(pattern), v);
        }
        v
    }
}

/// Compiled patterns of one program: constant patterns are compiled when the program is
/// planned, dynamic ones on first use and kept (bounded).
#[derive(Debug, Default)]
pub struct RegexCache {
    map: Mutex<HashMap<String, Arc<Regex>>>,
}

impl RegexCache {
    /// An empty cache.
    pub fn new() -> RegexCache {
        RegexCache::default()
    }

    /// The compiled `pattern`.
    pub fn get(&self, pattern: &str) -> Result<Arc<Regex>, EvalError> {
        if let Ok(map) = self.map.lock()
            && let Some(r) = map.get(pattern)
        {
            return Ok(r.clone());
        }
        let r = Arc::new(compile(pattern)?);
        if let Ok(mut map) = self.map.lock() {
            if map.len() >= CACHE_CAPACITY {
                map.clear();
            }
            map.insert(pattern.to_string(), r.clone());
        }
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, s: &str) -> bool {
        compile(p).unwrap().is_match(s)
    }

    #[test]
    fn perl_classes_are_ascii() {
        assert!(m(r"^\d+$", "123"));
        assert!(!m(r"^\d+$", "١٢٣")); // Arabic-Indic digits are \d in Rust's Unicode mode
        assert!(m(r"^\w+$", "abc_1"));
        assert!(!m(r"^\w+$", "é"));
        assert!(m(r"^\W$", "é"));
        assert!(m(r"^\s$", " "));
        assert!(!m(r"^\s$", "\u{2003}"));
        assert!(!m(r"^\s$", "\u{0B}")); // Go's \s has no \v
        assert!(m(r"^[\d\s]+$", "1 2"));
        assert!(m(r"^[\D]+$", "ab"));
        assert!(!m(r"^[\D]+$", "a1"));
        assert!(m(r"^[^\W]+$", "ab"));
        assert!(m(r"^\S+$", "é!"));
    }

    #[test]
    fn word_boundaries_are_ascii() {
        assert!(m(r"\bfoo\b", "a foo b"));
        assert!(m(r"\bé", "xé")); // é is no word character for Go, so x|é is a boundary
        assert!(m(r"a\Bb", "ab"));
        assert!(m(r"\<a\>", "<a>"));
    }

    #[test]
    fn rust_only_syntax_is_rejected() {
        assert!(compile(r"[a-z--b]").is_err());
        assert!(compile(r"(?x)a b").is_err());
        assert!(compile(r"a{1001}").is_err());
        // Go reads `\b{start}` as a word boundary and the text `{start}`, not Rust's
        // start-of-word assertion.
        assert!(m(r"x\b{start}a", "x{start}a"));
        assert!(!m(r"\b{start}a", "a"));
        assert!(
            compile(r"(")
                .unwrap_err()
                .message
                .starts_with("error parsing regexp: ")
        );
        assert!(compile(r"a{1000}").is_ok());
        assert!(compile(r"(?i)abc").is_ok());
    }

    fn parse_error(p: &str) -> String {
        compile(p).unwrap_err().message.to_string()
    }

    #[test]
    fn parse_errors_read_like_go() {
        for (p, e) in [
            (")", "unexpected ): `)`"),
            ("a)b", "unexpected ): `a)b`"),
            ("(a", "missing closing ): `(a`"),
            ("x[a-", "missing closing ]: `[a-`"),
            ("*", "missing argument to repetition operator: `*`"),
            ("a|+", "missing argument to repetition operator: `+`"),
            ("x++", "invalid nested repetition operator: `++`"),
            ("x**", "invalid nested repetition operator: `**`"),
            ("x*?+", "invalid nested repetition operator: `*?+`"),
            ("x{2}{3}", "invalid nested repetition operator: `{2}{3}`"),
            ("x+*?+", "invalid nested repetition operator: `+*?`"),
            ("a{1001}", "invalid repeat count: `{1001}`"),
            ("a{2,1}", "invalid repeat count: `{2,1}`"),
            (r"\q", r"invalid escape sequence: `\q`"),
            ("a\\", "trailing backslash at end of expression: ``"),
            ("[z-a]", "invalid character class range: `z-a`"),
            ("(?=a)", "invalid or unsupported Perl syntax: `(?=`"),
            ("(?x)a", "invalid or unsupported Perl syntax: `(?x`"),
            ("(?ix:a)", "invalid or unsupported Perl syntax: `(?ix`"),
        ] {
            assert_eq!(parse_error(p), format!("error parsing regexp: {e}"), "{p}");
        }
        // Repetitions of groups are not stacked operators.
        assert!(compile("(a+)+").is_ok());
        assert!(compile("a+?").is_ok());
    }

    #[test]
    fn validate_agrees_with_compile() {
        for p in [
            "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
            "a{",
            "[a[b]]",
            "(",
            "a**",
            r"\p{Greek}",
            r"\p{NoSuchClass}",
            "(?x)a",
            "a{1000}",
            "a{1001}",
            "(a{1000}){1000}",
            r"(\pL{100}){100}",
            "[z-a]",
            r"\Qa(b\E",
            r"\1",
            r"[\1-\7]",
            r"a\0",
            r"\d+\.\w",
            r"\bx\B",
            r"(?i)ſ",
            r"^(\pL|\pN){0,63}$",
            r"\pL{1000}",
            r"(\pL{1000}){2}",
        ] {
            assert_eq!(validate(p), compile(p).is_ok(), "{p}");
        }
    }

    /// Builds the NFA of `pattern` with its size bound as the limit.
    fn fits_own_bound(pattern: &str) -> Result<(), String> {
        let Ok(translated) = translate(pattern) else {
            return Ok(());
        };
        let Ok(hir) = regex_syntax::ParserBuilder::new()
            .nest_limit(NEST_LIMIT)
            .build()
            .parse(&translated)
        else {
            return Ok(());
        };
        let bound = nfa_size_bound(&hir);
        regex_automata::nfa::thompson::Compiler::new()
            .configure(
                regex_automata::nfa::thompson::Config::new()
                    .nfa_size_limit(Some(bound))
                    .shrink(false),
            )
            .build_from_hir(&hir)
            .map(|_| ())
            .map_err(|e| format!("{pattern}: bound {bound}: {e}"))
    }

    #[test]
    fn size_bound_covers_the_nfa() {
        for p in [
            "",
            "a",
            "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
            r"\pL",
            r"\PL",
            r"[^a]",
            r".",
            r"(?s).",
            r"(?i)straße",
            r"(?i)[k-ſ]+",
            r"\p{Greek}{3,7}",
            r"[\x{80}-\x{10FFFF}]",
            r"[\x{7F}-\x{800}\x{FFFF}-\x{10000}]",
            r"(a|b|c|d)*?x{2,}",
            r"((a+)+)+",
            r"\b\w+\b",
            r"(?:\d{1,3}\.){3}\d{1,3}",
            "a{1000}",
            "(?-u:[\\x00-\\xFF])",
            r"^(\pL|\pN){0,63}$",
        ] {
            fits_own_bound(p).unwrap();
        }
    }

    proptest::proptest! {
        #[test]
        fn size_bound_covers_generated_patterns(parts in proptest::collection::vec(
            proptest::sample::select(vec![
                "a", "é", "☺", ".", "[a-z]", "[^x]", r"\pL", r"\p{Han}", r"\d", r"\w", r"\s",
                "(", ")", "(?:", "(?i)", "|", "*", "+", "?", "*?", "{2}", "{3,5}", "{0,20}",
                "{2,}", "^", "$", r"\b", r"[\x{100}-\x{10FFFF}]", r"\1", "[a-", "{",
            ]),
            0..10,
        )) {
            let p = parts.concat();
            proptest::prop_assert!(fits_own_bound(&p).is_ok(), "{}", fits_own_bound(&p).unwrap_err());
            proptest::prop_assert_eq!(validate(&p), compile(&p).is_ok(), "{}", p);
        }
    }

    #[test]
    fn text_go_reads_literally_stays_literal() {
        // A `{` that starts no repetition is a literal in Go.
        assert!(m("^a{$", "a{"));
        assert!(m("^a{,5}$", "a{,5}"));
        assert!(m("^a{x}$", "a{x}"));
        assert!(m("^a{2}$", "aa"));
        assert!(m("^a{2,}$", "aaa"));
        assert!(m("^a{1,2}$", "aa"));
        assert!(!m("^a{1,2}$", "aaa"));
        // `[` inside a class is a member; the class ends at the first `]`.
        assert!(m("^[a[b]]$", "[]"));
        assert!(m("^[a[b]]$", "b]"));
        assert!(m("^[[:alpha:]]+$", "abc"));
        assert!(m("^[]a]+$", "]a"));
        assert!(m("^[^]a]$", "b"));
        // Rust's class set operators are plain characters in Go.
        assert!(m("^[a&&b]+$", "a&b"));
        assert!(m("^[a~~b]+$", "~"));
        // Quoted text.
        assert!(m(r"^\Qa.b*\E$", "a.b*"));
        assert!(!m(r"^\Qa.b\E$", "axb"));
        assert!(m(r"^\Qa.b", "a.b"));
        // Escapes with braces keep them.
        assert!(m(r"^\p{Greek}+$", "αβ"));
        assert!(m(r"^\x{41}$", "A"));
        assert!(m(r"^\{$", "{"));
    }

    #[test]
    fn cache_reuses_compiled_patterns() {
        let c = RegexCache::new();
        let a = c.get("a+").unwrap();
        let b = c.get("a+").unwrap();
        assert!(Arc::ptr_eq(&a, &b));
    }
}
