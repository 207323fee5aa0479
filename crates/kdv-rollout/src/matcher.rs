//! Comparing field errors as apimachinery's `field.ErrorMatcher` does: a matcher is the set
//! of properties two errors must share, built with `by_*` methods; [`ErrorMatcher::render`]
//! prints an error as the matcher sees it (`{Type="Invalid value", Field="spec.x",
//! Origin="minimum"}`), the text of mismatch logs.
//!
//! Fields are compared as their rendered paths (Go's `Error.Field` is a string; the root is
//! `<nil>`). Normalization rules rewrite only the *got* error's path (an older API version's
//! path brought to the canonical one); the first rule that changes the path wins.

use kdv_runtime::gofmt;
use kdv_runtime::{BadValue, FieldError};
use regex::Regex;
use std::fmt::Write as _;

/// One field-path normalization: every match of `regex` is replaced by `replacement`
/// (`$1` refers to a capture group, as in Go's `Regexp.ReplaceAllString`).
#[derive(Clone, Debug)]
pub struct NormalizationRule {
    /// The pattern.
    pub regex: Regex,
    /// The replacement text.
    pub replacement: String,
}

impl NormalizationRule {
    /// A rule from a pattern, or the regex crate's error for a bad pattern.
    pub fn new(pattern: &str, replacement: &str) -> Result<NormalizationRule, regex::Error> {
        Ok(NormalizationRule {
            regex: Regex::new(pattern)?,
            replacement: replacement.to_owned(),
        })
    }
}

/// How details are compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum DetailMode {
    #[default]
    Ignore,
    Exact,
    Substring,
    Regexp,
}

/// Which properties of two errors must be equal (Go's `field.ErrorMatcher`). The one
/// matcher of the workspace: the hybrid mismatch checks use it, and the conformance harness
/// runs upstream's tests' matchers with it.
#[derive(Clone, Debug, Default)]
pub struct ErrorMatcher {
    match_type: bool,
    match_field: bool,
    match_value: bool,
    match_origin: bool,
    match_detail: DetailMode,
    require_origin_when_invalid: bool,
    match_stability: bool,
    match_source: bool,
    match_ancestor_short_circuit: bool,
    match_short_circuit: bool,
    rules: Vec<NormalizationRule>,
}

impl ErrorMatcher {
    /// Matches every property (Go's `Exactly`: type, field, value, origin, exact detail).
    pub fn exactly(self) -> Self {
        self.by_type()
            .by_field()
            .by_value()
            .by_origin()
            .by_detail_exact()
    }
    /// Requires equal error types.
    pub fn by_type(mut self) -> Self {
        self.match_type = true;
        self
    }
    /// Requires equal field paths.
    pub fn by_field(mut self) -> Self {
        self.match_field = true;
        self
    }
    /// Requires equal field paths after normalizing the got error's path with `rules`.
    pub fn by_field_normalized(mut self, rules: Vec<NormalizationRule>) -> Self {
        self.match_field = true;
        self.rules = rules;
        self
    }
    /// Requires equal bad values.
    pub fn by_value(mut self) -> Self {
        self.match_value = true;
        self
    }
    /// Requires equal origins.
    pub fn by_origin(mut self) -> Self {
        self.match_origin = true;
        self
    }
    /// With [`by_origin`](Self::by_origin): an `Invalid value` error matches only when both
    /// origins are non-empty.
    pub fn require_origin_when_invalid(mut self) -> Self {
        self.require_origin_when_invalid = true;
        self
    }
    /// Requires equal details.
    pub fn by_detail_exact(mut self) -> Self {
        self.match_detail = DetailMode::Exact;
        self
    }
    /// Requires the got detail to contain the want detail.
    pub fn by_detail_substring(mut self) -> Self {
        self.match_detail = DetailMode::Substring;
        self
    }
    /// Requires the got detail to match the want detail as a regular expression (an
    /// invalid one matches nothing).
    pub fn by_detail_regexp(mut self) -> Self {
        self.match_detail = DetailMode::Regexp;
        self
    }
    /// Requires equal stability levels (alpha, beta, unknown).
    pub fn by_validation_stability_level(mut self) -> Self {
        self.match_stability = true;
        self
    }
    /// Requires equal sources (hand-written or not).
    pub fn by_source(mut self) -> Self {
        self.match_source = true;
        self
    }
    /// A short-circuiting got error also matches any want error below its field.
    pub fn match_ancestor_short_circuit(mut self) -> Self {
        self.match_ancestor_short_circuit = true;
        self
    }
    /// Requires equal short-circuit marks.
    pub fn match_short_circuit(mut self) -> Self {
        self.match_short_circuit = true;
        self
    }

    /// The matcher of mismatch checks and of covered hand-written errors: type, origin (an
    /// `Invalid value` needs one on both sides) and the field, normalized by `rules`.
    pub fn fuzzy(rules: Vec<NormalizationRule>) -> Self {
        ErrorMatcher::default()
            .by_type()
            .by_origin()
            .require_origin_when_invalid()
            .by_field_normalized(rules)
    }

    /// Whether `got` matches `want` (Go's `Matches`).
    pub fn matches(&self, want: &FieldError, got: &FieldError) -> bool {
        let want_field = want.field.to_string();
        let got_raw = got.field.to_string();
        self.matches_fields(want, got, &want_field, &got_raw)
    }

    /// [`matches`](Self::matches) with both rendered paths given (callers comparing many
    /// pairs render each path once).
    pub(crate) fn matches_fields(
        &self,
        want: &FieldError,
        got: &FieldError,
        want_field: &str,
        got_raw: &str,
    ) -> bool {
        let normalized;
        let got_field = if want_field != got_raw {
            normalized = self.normalize(got_raw);
            normalized.as_str()
        } else {
            got_raw
        };
        if self.match_ancestor_short_circuit
            && got.short_circuit
            && (is_child_path(got_field, want_field) || is_child_path(got_raw, want_field))
        {
            return true;
        }
        if self.match_type && want.error_type != got.error_type {
            return false;
        }
        if self.match_field && want_field != got_field {
            return false;
        }
        if self.match_value && !bad_values_equal(&want.bad_value, &got.bad_value) {
            return false;
        }
        if self.match_origin {
            if want.origin != got.origin {
                return false;
            }
            if self.require_origin_when_invalid
                && want.error_type == kdv_runtime::ErrorType::Invalid
                && (want.origin.is_empty() || got.origin.is_empty())
            {
                return false;
            }
        }
        let detail = match self.match_detail {
            DetailMode::Ignore => true,
            DetailMode::Exact => want.detail == got.detail,
            DetailMode::Substring => got.detail.contains(want.detail.as_ref() as &str),
            DetailMode::Regexp => Regex::new(&want.detail).is_ok_and(|re| re.is_match(&got.detail)),
        };
        if !detail {
            return false;
        }
        if self.match_stability && want.stability != got.stability {
            return false;
        }
        if self.match_source && want.from_imperative != got.from_imperative {
            return false;
        }
        if self.match_short_circuit && want.short_circuit != got.short_circuit {
            return false;
        }
        true
    }

    /// The path after the first normalization rule that changes it.
    pub fn normalize(&self, path: &str) -> String {
        for rule in &self.rules {
            let out = rule.regex.replace_all(path, rule.replacement.as_str());
            if out != path {
                return out.into_owned();
            }
        }
        path.to_owned()
    }

    /// The error as this matcher sees it (Go's `Render`): `{Type="...", Field="..." (aka
    /// "..."), Value=..., Origin="...", Detail="...", ValidationStabilityLevel=...,
    /// FromImperative=..., ShortCircuit=...}` with only the matched properties.
    pub fn render(&self, e: &FieldError) -> String {
        let mut buf = String::new();
        let comma = |buf: &mut String| {
            if !buf.is_empty() {
                buf.push_str(", ");
            }
        };
        // Writing into a String cannot fail.
        if self.match_type {
            comma(&mut buf);
            let _ = write!(buf, "Type={}", gofmt::quote(e.error_type.description()));
        }
        if self.match_field {
            comma(&mut buf);
            let field = e.field.to_string();
            let normalized = self.normalize(&field);
            if normalized != field {
                let _ = write!(
                    buf,
                    "Field={} (aka {})",
                    gofmt::quote(&normalized),
                    gofmt::quote(&field)
                );
            } else {
                let _ = write!(buf, "Field={}", gofmt::quote(&field));
            }
        }
        if self.match_value {
            comma(&mut buf);
            buf.push_str("Value=");
            match &e.bad_value {
                kdv_runtime::BadValue::String(s) => buf.push_str(&gofmt::quote(s)),
                // Go's `%v` of a nil interface.
                kdv_runtime::BadValue::Null => buf.push_str("<nil>"),
                other => {
                    let _ = other.write_go(&mut buf);
                }
            }
        }
        if self.match_origin
            || self.require_origin_when_invalid && e.error_type == kdv_runtime::ErrorType::Invalid
        {
            comma(&mut buf);
            let _ = write!(buf, "Origin={}", gofmt::quote(&e.origin));
        }
        if self.match_detail != DetailMode::Ignore {
            comma(&mut buf);
            let _ = write!(buf, "Detail={}", gofmt::quote(&e.detail));
        }
        if self.match_stability {
            comma(&mut buf);
            let _ = write!(buf, "ValidationStabilityLevel={}", e.stability);
        }
        if self.match_source {
            comma(&mut buf);
            let _ = write!(buf, "FromImperative={}", e.from_imperative);
        }
        if self.match_short_circuit {
            comma(&mut buf);
            let _ = write!(buf, "ShortCircuit={}", e.short_circuit);
        }
        format!("{{{buf}}}")
    }
}

/// A builder method.
type Builder = fn(ErrorMatcher) -> ErrorMatcher;

/// The builder methods of Go's `field.ErrorMatcher` that take no argument, by name.
const GO_METHODS: &[(&str, Builder)] = &[
    ("ByType", ErrorMatcher::by_type),
    ("ByField", ErrorMatcher::by_field),
    ("ByValue", ErrorMatcher::by_value),
    ("ByOrigin", ErrorMatcher::by_origin),
    (
        "RequireOriginWhenInvalid",
        ErrorMatcher::require_origin_when_invalid,
    ),
    ("ByDetailExact", ErrorMatcher::by_detail_exact),
    ("ByDetailSubstring", ErrorMatcher::by_detail_substring),
    ("ByDetailRegexp", ErrorMatcher::by_detail_regexp),
    (
        "ByValidationStabilityLevel",
        ErrorMatcher::by_validation_stability_level,
    ),
    ("BySource", ErrorMatcher::by_source),
    ("MatchShortCircuit", ErrorMatcher::match_short_circuit),
    (
        "MatchAncestorShortCircuit",
        ErrorMatcher::match_ancestor_short_circuit,
    ),
    ("Exactly", ErrorMatcher::exactly),
];

/// Why Go's `ErrorMatcher.Test` fails.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TestFailure<'e> {
    /// The matcher matches ancestors' short-circuits, which `Test` does not support.
    AncestorShortCircuitUnsupported,
    /// A got error exactly repeats an earlier one.
    Duplicate(&'e FieldError),
    /// No got error matches this want error.
    Missing(&'e FieldError),
    /// No want error matched this got error.
    Unmatched(&'e FieldError),
}

impl ErrorMatcher {
    /// Applies the argument-less builder method Go calls `name` (`ByType`,
    /// `ByDetailSubstring`, `Exactly`, ...); `None` for any other name.
    pub fn by_go_name(self, name: &str) -> Option<Self> {
        GO_METHODS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, apply)| apply(self))
    }

    /// The Go names of the criteria this matcher checks, as [`by_go_name`](Self::by_go_name)
    /// takes them (`Exactly` appears as its parts).
    pub fn go_names(&self) -> Vec<&'static str> {
        let detail = match self.match_detail {
            DetailMode::Ignore => None,
            DetailMode::Exact => Some("ByDetailExact"),
            DetailMode::Substring => Some("ByDetailSubstring"),
            DetailMode::Regexp => Some("ByDetailRegexp"),
        };
        [
            (self.match_type, "ByType"),
            (self.match_field, "ByField"),
            (self.match_value, "ByValue"),
            (self.match_origin, "ByOrigin"),
            (self.require_origin_when_invalid, "RequireOriginWhenInvalid"),
            (self.match_stability, "ByValidationStabilityLevel"),
            (self.match_source, "BySource"),
            (self.match_short_circuit, "MatchShortCircuit"),
            (
                self.match_ancestor_short_circuit,
                "MatchAncestorShortCircuit",
            ),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .chain(detail)
        .collect()
    }

    /// Go's `ErrorMatcher.Test`: every want error must match some got error (all got errors
    /// matching it, when matching by a non-empty origin), no got error may be left over, and
    /// no two got errors may be exactly alike. Returns the failures, in that order.
    pub fn test<'e>(&self, want: &'e [FieldError], got: &'e [FieldError]) -> Vec<TestFailure<'e>> {
        if self.match_ancestor_short_circuit {
            return vec![TestFailure::AncestorShortCircuitUnsupported];
        }
        let mut failures = Vec::new();
        let exactly = self.clone().exactly();
        let mut seen = std::collections::HashSet::new();
        for e in got {
            if !seen.insert(exactly.render(e)) {
                failures.push(TestFailure::Duplicate(e));
            }
        }
        let mut used = vec![false; got.len()];
        for w in want {
            let multi = self.match_origin && !w.origin.is_empty();
            let mut found = false;
            for (i, g) in got.iter().enumerate() {
                if used[i] || !self.matches(w, g) {
                    continue;
                }
                used[i] = true;
                found = true;
                if !multi {
                    break;
                }
            }
            if !found {
                failures.push(TestFailure::Missing(w));
            }
        }
        failures.extend(
            got.iter()
                .zip(&used)
                .filter(|(_, used)| !**used)
                .map(|(g, _)| TestFailure::Unmatched(g)),
        );
        failures
    }
}

/// Go's `reflect.DeepEqual` of two bad values, as far as Rust's representations allow:
/// numbers compare by value across the integer, float and JSON-number variants, and a
/// string or null equals its JSON form.
pub fn bad_values_equal(a: &BadValue, b: &BadValue) -> bool {
    use serde_json::Value as J;
    let num = |v: &BadValue| -> Option<f64> {
        match v {
            BadValue::Int(i) => Some(*i as f64),
            BadValue::Uint(u) => Some(*u as f64),
            BadValue::Float(f) => Some(*f),
            BadValue::Json(J::Number(n)) => n.as_f64(),
            _ => None,
        }
    };
    if let (Some(x), Some(y)) = (num(a), num(b)) {
        return x == y;
    }
    match (a, b) {
        (BadValue::String(x), BadValue::Json(J::String(y)))
        | (BadValue::Json(J::String(y)), BadValue::String(x)) => x == y,
        (BadValue::Null, BadValue::Json(J::Null)) | (BadValue::Json(J::Null), BadValue::Null) => {
            true
        }
        _ => a == b,
    }
}

/// Whether `child` lies below `parent` (`parent.x` or `parent[..]`); an empty parent never
/// has children (it would match everything).
pub fn is_child_path(parent: &str, child: &str) -> bool {
    !parent.is_empty()
        && child.len() > parent.len()
        && child.starts_with(parent)
        && matches!(child.as_bytes()[parent.len()], b'.' | b'[')
}

/// The errors of `errs` whose text repeats an earlier error's, in order, one entry per
/// repetition (upstream's `RecordDuplicateValidationErrors`: each counts once in
/// `apiserver_validation_duplicate_validation_error_total`).
pub fn duplicate_errors(errs: &[FieldError]) -> Vec<&FieldError> {
    let mut seen: Vec<String> = Vec::with_capacity(errs.len());
    let mut dups = Vec::new();
    for e in errs {
        let text = e.to_string();
        if seen.contains(&text) {
            dups.push(e);
        } else {
            seen.push(text);
        }
    }
    dups
}
