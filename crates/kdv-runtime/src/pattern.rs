//! Patterns (`+k8s:pattern=<RE2>`, a kdv extension: KEP-5073's catalog and KEP-4153's
//! `+pattern` row; upstream validation-gen has no such tag).
//!
//! A value matches when Go's `regexp.MatchString` finds the pattern in it (unanchored, as
//! OpenAPI's `pattern` and kube-openapi's validator mean it). Patterns are read with Go's
//! syntax and meaning by `kdv-cel`'s regex module when the tag is lowered; this module only
//! holds the result — a literal text (matched by substring search, linear whatever its
//! length) or a `regex` crate program of the translated pattern — and the per-value budget
//! that `kdv-openapi` applies to a CRD's `pattern` too, so that the tag and the schema it
//! emits give the same verdict.
//!
//! Failure → `Invalid(value, "should match '<pattern>'")`, origin `pattern`: kube-openapi's
//! `pattern` message without its `<field> in body` prefix (a `field.Error` prints the path
//! already).

use crate::error::{BadValue, FieldError};
use crate::path::PathRef;
use crate::sink::ErrorSink;
use crate::view::View;

/// The origin of a pattern error.
pub const ORIGIN: &str = "pattern";

/// Most `pattern length × value length` matched by the regex engine for one value: its
/// worst case is proportional to that product (a 100,000-byte literal-heavy pattern against
/// a 200,000-byte value runs for a minute in Go's engine and in the `regex` crate's). A
/// value over the budget fails with a message saying why; literal patterns are exempt
/// (substring search, linear). `kdv-openapi` applies the same budget to CRD patterns.
pub const BUDGET: u64 = 500_000_000;

/// Compiled size limit per pattern (bytes of each compiled NFA). Go's limit is about 128 MB
/// of instructions where a class is one instruction; the `regex` crate's UTF-8 automata
/// are far larger (`\pL{1000}`, which Go accepts, needs about 33 MB in reverse).
pub const SIZE_LIMIT: usize = 64 << 20;

/// Nesting limit when the `regex` crate reads a translated pattern: Go's tree height is at
/// most 1000, and the printed form nests a group and a repetition per level at most.
pub const NEST_LIMIT: u32 = 4096;

/// A pattern that is one literal text, optionally anchored at the start (`^`) and at the
/// end (`$`, end of text in Go): matched by substring search, in time linear in the value
/// whatever the literal's length (automata for a long literal are not).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiteralPattern {
    /// `^`: the value starts with the literal.
    pub start: bool,
    /// The literal text.
    pub text: String,
    /// `$`: the value ends with the literal.
    pub end: bool,
}

impl LiteralPattern {
    /// Whether Go's `regexp.MatchString` finds the pattern in `value`.
    pub fn is_match(&self, value: &str) -> bool {
        match (self.start, self.end) {
            (true, true) => value == self.text,
            (true, false) => value.starts_with(&self.text),
            (false, true) => value.ends_with(&self.text),
            (false, false) => value.contains(self.text.as_str()),
        }
    }
}

#[derive(Clone, Debug)]
enum Matcher {
    Literal(LiteralPattern),
    Regex(regex::Regex),
    /// The translated pattern did not compile here (it did when the tag was lowered).
    Broken(String),
}

/// A Go pattern ready to match: its source text (shown in errors) and its matcher.
#[derive(Clone, Debug)]
pub struct Pattern {
    source: String,
    matcher: Matcher,
}

impl PartialEq for Pattern {
    /// Patterns are equal when their Go sources are: the matcher is derived from it.
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

/// How a value fared against a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The pattern is found in the value.
    Match,
    /// It is not.
    NoMatch,
    /// The value is too long to be matched within [`BUDGET`].
    OverBudget,
    /// The pattern has no matcher (see [`Pattern::compile`]).
    Broken,
}

impl Pattern {
    /// A pattern whose Go meaning is the literal `lit`.
    pub fn literal(source: impl Into<String>, lit: LiteralPattern) -> Pattern {
        Pattern {
            source: source.into(),
            matcher: Matcher::Literal(lit),
        }
    }

    /// A pattern with its compiled translation.
    pub fn from_regex(source: impl Into<String>, regex: regex::Regex) -> Pattern {
        Pattern {
            source: source.into(),
            matcher: Matcher::Regex(regex),
        }
    }

    /// Compiles `translated` (the `regex` crate form of the Go pattern `source`, as
    /// `kdv-cel`'s `regex::translate` writes it) with the limits the tag was checked
    /// against. Generated code calls this once per pattern; a failure (which the lowering
    /// already ruled out) makes every match an internal error rather than a panic.
    pub fn compile(source: impl Into<String>, translated: &str) -> Pattern {
        let source = source.into();
        let build = || {
            regex::RegexBuilder::new(translated)
                .size_limit(SIZE_LIMIT)
                .nest_limit(NEST_LIMIT)
                .build()
        };
        // The parser and compiler recurse per nesting level: deep patterns get a large stack.
        let deep = translated.bytes().filter(|&b| b == b'(').count() > 64;
        let built = if deep {
            std::thread::scope(|scope| {
                std::thread::Builder::new()
                    .stack_size(64 << 20)
                    .spawn_scoped(scope, build)
                    .ok()
                    .and_then(|h| h.join().ok())
            })
        } else {
            Some(build())
        };
        let matcher = match built {
            Some(Ok(re)) => Matcher::Regex(re),
            Some(Err(e)) => Matcher::Broken(e.to_string()),
            None => Matcher::Broken("no thread to compile a deep pattern".to_owned()),
        };
        Pattern { source, matcher }
    }

    /// The pattern as written in the tag (Go syntax).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The literal this pattern is, if it is one.
    pub fn as_literal(&self) -> Option<&LiteralPattern> {
        match &self.matcher {
            Matcher::Literal(l) => Some(l),
            _ => None,
        }
    }

    /// Whether Go's `regexp.MatchString` finds the pattern in `value`, within [`BUDGET`].
    pub fn find(&self, value: &str) -> Outcome {
        match &self.matcher {
            Matcher::Literal(l) => bool_outcome(l.is_match(value)),
            Matcher::Regex(re) => {
                if over_budget(self.source.len(), value.len()) {
                    Outcome::OverBudget
                } else {
                    bool_outcome(re.is_match(value))
                }
            }
            Matcher::Broken(_) => Outcome::Broken,
        }
    }
}

fn bool_outcome(b: bool) -> Outcome {
    if b { Outcome::Match } else { Outcome::NoMatch }
}

/// Whether a `pattern_len`-byte (non-literal) pattern against a `value_len`-byte value
/// exceeds [`BUDGET`].
pub fn over_budget(pattern_len: usize, value_len: usize) -> bool {
    (pattern_len as u64).saturating_mul(value_len as u64) > BUDGET
}

/// What follows the pattern in the message of a value over [`BUDGET`] (shared with
/// `kdv-openapi`'s `pattern` message).
pub fn over_budget_note(pattern_len: usize, value_len: usize) -> String {
    format!(
        ", but kdv did not match it: a {pattern_len}-byte pattern against a {value_len}-byte value \
         exceeds kdv's regex budget (pattern length × value length ≤ {BUDGET})"
    )
}

/// `+k8s:pattern`: a string value must contain a match of `p`. Failure →
/// `Invalid(value, "should match '<pattern>'")`, origin `pattern` (over the budget, the
/// message says that kdv did not match it and why). Nil values are not checked.
#[inline]
pub fn pattern<'a>(path: &PathRef<'_>, v: impl View<'a>, p: &Pattern, out: &mut impl ErrorSink) {
    let Some(s) = v.as_str() else { return };
    let outcome = p.find(s);
    if outcome != Outcome::Match {
        mismatch(path, v, s, p, outcome, out);
    }
}

#[cold]
#[inline(never)]
fn mismatch<'a>(
    path: &PathRef<'_>,
    v: impl View<'a>,
    s: &str,
    p: &Pattern,
    outcome: Outcome,
    out: &mut impl ErrorSink,
) {
    out.fail(|| {
        if let Matcher::Broken(why) = &p.matcher {
            return FieldError::internal(
                path,
                format!("pattern '{}' cannot be matched: {why}", p.source),
            )
            .with_origin(ORIGIN);
        }
        let value = if v.is_named() {
            BadValue::named_string(s)
        } else {
            BadValue::string(s)
        };
        let mut message = format!("should match '{}'", p.source);
        if outcome == Outcome::OverBudget {
            message.push_str(&over_budget_note(p.source.len(), s.len()));
        }
        FieldError::invalid(path, value, message).with_origin(ORIGIN)
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorList;
    use crate::sink::Verdict;

    fn re(source: &str, translated: &str) -> Pattern {
        Pattern::compile(source, translated)
    }

    #[test]
    fn matches_unanchored_and_reports_invalid() {
        let p = re("^[a-z]+$", "^[a-z]+$");
        let root = PathRef::Nil;
        let f = root.child("name");
        let mut out = ErrorList::new();
        pattern(&f, "abc", &p, &mut out);
        assert!(out.is_empty());
        pattern(&f, "aBc", &p, &mut out);
        assert_eq!(
            out[0].to_string(),
            "name: Invalid value: \"aBc\": should match '^[a-z]+$'"
        );
        assert_eq!(out[0].origin, "pattern");
        let unanchored = re("b", "b");
        let mut out = ErrorList::new();
        pattern(&f, "abc", &unanchored, &mut out);
        assert!(out.is_empty());
        let mut v = Verdict::default();
        pattern(&f, "xyz", &unanchored, &mut v);
        assert!(v.failed());
    }

    #[test]
    fn literals_are_exempt_from_the_budget() {
        let long = "a".repeat(100_000);
        let lit = Pattern::literal(
            long.clone(),
            LiteralPattern {
                start: false,
                text: long.clone(),
                end: false,
            },
        );
        let value = "b".repeat(200_000);
        assert_eq!(lit.find(&value), Outcome::NoMatch);
        let regex = re(&long, &long);
        assert_eq!(regex.find(&value), Outcome::OverBudget);
        let mut out = ErrorList::new();
        pattern(&PathRef::Nil, value.as_str(), &regex, &mut out);
        assert!(out[0].detail.ends_with(
            ", but kdv did not match it: a 100000-byte pattern against a 200000-byte value exceeds kdv's regex budget (pattern length × value length ≤ 500000000)"
        ));
    }

    #[test]
    fn a_broken_pattern_is_an_internal_error() {
        let p = re("(", "(");
        let mut out = ErrorList::new();
        pattern(&PathRef::Nil.child("f"), "x", &p, &mut out);
        assert!(
            out[0]
                .to_string()
                .starts_with("f: Internal error: pattern '(' cannot be matched: ")
        );
    }

    #[test]
    fn deep_patterns_compile() {
        let deep = format!("{}a{}", "(?:".repeat(500), ")".repeat(500));
        assert_eq!(re(&deep, &deep).find("xa"), Outcome::Match);
    }

    #[test]
    fn valid_values_do_not_allocate() {
        let p = re("^[a-z]+$", "^[a-z]+$");
        let mut v = Verdict::default();
        // Warm the regex's per-thread cache.
        pattern(&PathRef::Nil, "abc", &p, &mut v);
        let n = crate::alloc_count::allocations(|| {
            let mut out = ErrorList::new();
            pattern(&PathRef::Nil, "abc", &p, &mut out);
        });
        assert_eq!(n, 0);
    }
}
