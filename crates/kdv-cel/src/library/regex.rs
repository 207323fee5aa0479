//! RE2 (Go `regexp`) patterns on top of the `regex` crate.
//!
//! A pattern is read by a rewrite of Go's own parser (the `parse` module: `regexp/syntax`
//! with the flags `regexp.Compile` uses), so it is accepted or rejected exactly as Go does,
//! with Go's error text (``error parsing regexp: <code>: `<expr>` ``, [`GoRegexError`]), and
//! means
//! what it means in Go: the syntax tree is turned into a `regex-syntax` HIR with Go's
//! semantics spelled out (ASCII `\d \s \w \b`, Go's case folding of classes, `.` without
//! `\n`, `$` at the end of text only, Unicode classes by Go's names), which the `regex`
//! crate compiles. The `regex` crate never parses Go syntax itself.
//!
//! Differences that remain: the Unicode tables are `regex-syntax`'s (Unicode 16; Go 1.25
//! has 15.0) for the names both know; capture names are dropped (they change no match);
//! the height and size limits are computed on a tree without Go's prefix factoring of
//! alternations; and the compiled program has the `regex` crate's size
//! limit ([`SIZE_LIMIT`]), reported as Go's `expression too large`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use regex::Regex;

use crate::hash::FastMap;
use crate::value::EvalError;

mod parse;
mod tables;

#[cfg(test)]
mod go_tests;

#[cfg(test)]
mod literal_tests {
    use super::*;

    #[test]
    fn item_04_literal_patterns_are_matched_by_substring_search() {
        let form = |p: &str| literal_form(p).map(|f| (f.start, f.text, f.end));
        assert_eq!(form("abc"), Some((false, "abc".into(), false)));
        assert_eq!(form("^abc$"), Some((true, "abc".into(), true)));
        assert_eq!(form("^a\\.b"), Some((true, "a.b".into(), false)));
        assert_eq!(form("a.c"), None);
        assert_eq!(form("(?i)abc"), None);
        assert_eq!(form("a$b"), None);
        assert_eq!(form("(?m)^abc$"), None);
        // The issue's case: 100,000 literal characters against 200,000, in linear time.
        let pattern = "x".repeat(100_000);
        let lit = literal_form(&pattern).expect("a literal");
        let mut value = "x".repeat(199_999);
        value.push('y');
        assert!(lit.is_match(&value));
        let value = "xy".repeat(100_000);
        assert!(!lit.is_match(&value));
        // Same verdicts as the regex for small cases.
        for (p, v) in [
            ("^ab$", "ab"),
            ("^ab$", "abc"),
            ("b$", "ab"),
            ("^a", "ba"),
            ("é", "café"),
        ] {
            let re = compile_go(p).unwrap();
            assert_eq!(
                literal_form(p).unwrap().is_match(v),
                re.is_match(v),
                "{p} {v}"
            );
        }
    }
}

/// Nesting limit when the `regex` crate reads the translated pattern.
use kdv_runtime::pattern::NEST_LIMIT;
/// Compiled size limit per pattern (bytes of each compiled NFA; kdv-runtime's, which
/// compiles `+k8s:pattern` translations with it).
pub use kdv_runtime::pattern::SIZE_LIMIT;
/// Dynamic patterns kept per program before the cache is reset.
const CACHE_CAPACITY: usize = 256;

/// A pattern Go's `regexp.Compile` rejects. `Display` is Go's text:
/// ``error parsing regexp: <code>: `<expr>` ``.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoRegexError {
    code: &'static str,
    expr: String,
}

impl GoRegexError {
    /// Go's error code text, e.g. `missing closing )`.
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The offending text Go quotes.
    pub fn expr(&self) -> &str {
        &self.expr
    }

    fn large(pattern: &str) -> GoRegexError {
        GoRegexError {
            code: parse::Code::Large.as_str(),
            expr: pattern.to_owned(),
        }
    }
}

impl std::fmt::Display for GoRegexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "error parsing regexp: {}: `{}`", self.code, self.expr)
    }
}

impl std::error::Error for GoRegexError {}

impl From<parse::ParseError> for GoRegexError {
    fn from(e: parse::ParseError) -> Self {
        GoRegexError {
            code: e.code.as_str(),
            expr: e.expr,
        }
    }
}

/// Tree height up to which the recursive steps (building the HIR, estimating and compiling
/// it) run on the caller's stack.
const SHALLOW: u32 = 64;
/// Stack of the thread that compiles deeper patterns (Go allows 1000 levels).
const DEEP_STACK: usize = 64 << 20;

/// Runs `f` where a tree of `height` levels can be walked recursively: on the caller's
/// stack for ordinary patterns, on a thread with a large stack for deep ones. `None` when
/// no such thread can be started (the system is out of resources).
fn with_stack<T: Send>(height: u32, f: impl FnOnce() -> T + Send) -> Option<T> {
    if height <= SHALLOW {
        return Some(f());
    }
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .stack_size(DEEP_STACK)
            .spawn_scoped(scope, f)
            .ok()?;
        match handle.join() {
            Ok(v) => Some(v),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// Go's `ErrInternalError`, for what cannot go wrong in Go.
fn internal(pattern: &str) -> GoRegexError {
    GoRegexError {
        code: "regexp/syntax: internal error",
        expr: pattern.to_owned(),
    }
}

/// Parses a Go pattern into the HIR of its meaning, within the compiled-size limit.
fn go_hir(tree: &parse::Tree, pattern: &str) -> Result<regex_syntax::hir::Hir, GoRegexError> {
    let hir = tree.to_hir();
    if !fits_size_limit(&hir) {
        return Err(GoRegexError::large(pattern));
    }
    Ok(hir)
}

/// Compiles a Go RE2 pattern as Go's `regexp.Compile` does, or returns Go's error.
pub fn compile_go(pattern: &str) -> Result<Regex, GoRegexError> {
    if !cacheable(pattern) {
        return compile_go_uncached(pattern);
    }
    let mut compiled = COMPILED.lock().unwrap_or_else(|e| e.into_inner());
    let compiled = compiled.get_or_insert_with(FastMap::default);
    if let Some(hit) = compiled.get(pattern) {
        return hit.clone();
    }
    let result = compile_go_uncached(pattern);
    if compiled.len() >= COMPILED_CAPACITY {
        compiled.clear();
    }
    compiled.insert(pattern.into(), result.clone());
    result
}

/// [`compile_go`]'s results by pattern, for the whole process: CRDs repeat patterns, and a
/// language server compiles a CRD's schema and rules again on every edit. Only patterns
/// [`cacheable`] says are small are kept, so the cache stays small (a counted repetition can
/// compile to megabytes).
static COMPILED: Mutex<Option<Compiled>> = Mutex::new(None);
/// Compilation results by pattern.
type Compiled = FastMap<Box<str>, Result<Regex, GoRegexError>>;
/// Patterns [`COMPILED`] holds before it is reset.
const COMPILED_CAPACITY: usize = 512;

/// Short patterns without a counted repetition.
fn cacheable(pattern: &str) -> bool {
    pattern.len() <= 256 && !pattern.contains('{')
}

fn compile_go_uncached(pattern: &str) -> Result<Regex, GoRegexError> {
    let tree = parse::parse(pattern)?;
    with_stack(tree.height(), || {
        let hir = go_hir(&tree, pattern)?;
        regex::RegexBuilder::new(&hir.to_string())
            .size_limit(SIZE_LIMIT)
            .nest_limit(NEST_LIMIT)
            .build()
            .map_err(|e| match e {
                regex::Error::CompiledTooBig(_) => GoRegexError::large(pattern),
                // The printed HIR always parses.
                _ => internal(pattern),
            })
    })
    .unwrap_or_else(|| Err(internal(pattern)))
}

/// A pattern that is one literal text (kdv-runtime's, shared with `+k8s:pattern`).
pub use kdv_runtime::pattern::LiteralPattern;

/// The [`LiteralPattern`] a valid Go pattern is, if it is one.
pub fn literal_form(pattern: &str) -> Option<LiteralPattern> {
    use regex_syntax::hir::{HirKind, Look};
    let tree = parse::parse(pattern).ok()?;
    let hir = with_stack(tree.height(), || tree.to_hir())?;
    let parts: &[regex_syntax::hir::Hir] = match hir.kind() {
        HirKind::Concat(parts) => parts,
        _ => std::slice::from_ref(&hir),
    };
    let mut form = LiteralPattern {
        start: false,
        text: String::new(),
        end: false,
    };
    for (i, part) in parts.iter().enumerate() {
        match part.kind() {
            HirKind::Look(Look::Start) if i == 0 => form.start = true,
            HirKind::Look(Look::End) if i + 1 == parts.len() => form.end = true,
            HirKind::Literal(lit) if !form.end => {
                form.text.push_str(std::str::from_utf8(&lit.0).ok()?)
            }
            HirKind::Empty => {}
            _ => return None,
        }
    }
    Some(form)
}

/// Compiles a Go RE2 pattern; errors read like Go's (`error parsing regexp: ...`).
pub fn compile(pattern: &str) -> Result<Regex, EvalError> {
    compile_go(pattern).map_err(|e| EvalError::new(e.to_string()))
}

/// Checks that `compile(pattern)` would succeed without building the matcher: Go's parse
/// and the compiled-size limit, as [`compile`] applies them. The checker's `matches`
/// literal validator runs this on every compile, where building the regex itself would
/// dominate the compile time.
pub fn validate(pattern: &str) -> bool {
    let Ok(tree) = parse::parse(pattern) else {
        return false;
    };
    with_stack(tree.height(), || go_hir(&tree, pattern).is_ok()).unwrap_or(false)
}

/// The `regex` crate pattern equivalent to a Go pattern, or Go's error (``<code>: `<expr>` ``).
pub fn translate(pattern: &str) -> Result<String, String> {
    let tree = parse::parse(pattern).map_err(|e| format!("{}: `{}`", e.code.as_str(), e.expr))?;
    with_stack(tree.height(), || tree.to_hir().to_string())
        .ok_or_else(|| "regexp/syntax: internal error".to_owned())
}

/// Whether the Thompson NFAs of `hir` stay within [`SIZE_LIMIT`], which is what the `regex`
/// crate's `size_limit` applies to: the forward NFA and the reverse one (without capture
/// states) its lazy DFA uses. Small patterns are settled by an upper bound of the size
/// without building an NFA.
fn fits_size_limit(hir: &regex_syntax::hir::Hir) -> bool {
    use regex_automata::nfa::thompson::{Compiler, Config, WhichCaptures};
    if nfa_size_bound(hir) <= SIZE_LIMIT {
        return true;
    }
    let config = Config::new().nfa_size_limit(Some(SIZE_LIMIT)).shrink(false);
    Compiler::new()
        .configure(config.clone())
        .build_from_hir(hir)
        .is_ok()
        && Compiler::new()
            .configure(config.which_captures(WhichCaptures::None).reverse(true))
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
        // Go reads `--` in a class as a range ending in `-` (`[a-z--b]` is `[a-z]` and
        // `[--b]`), not as Rust's class difference.
        assert!(m(r"^[a-z--b]+$", "az-.AB"));
        assert!(!m(r"^[a-z--b]+$", "{"));
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
        let config = regex_automata::nfa::thompson::Config::new()
            .nfa_size_limit(Some(bound))
            .shrink(false);
        for config in [
            config.clone(),
            config
                .which_captures(regex_automata::nfa::thompson::WhichCaptures::None)
                .reverse(true),
        ] {
            regex_automata::nfa::thompson::Compiler::new()
                .configure(config)
                .build_from_hir(&hir)
                .map_err(|e| format!("{pattern}: bound {bound}: {e}"))?;
        }
        Ok(())
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
