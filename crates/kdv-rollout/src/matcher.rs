//! Comparing field errors as apimachinery's `field.ErrorMatcher` does: a matcher is the set
//! of properties two errors must share, built with `by_*` methods; [`ErrorMatcher::render`]
//! prints an error as the matcher sees it (`{Type="Invalid value", Field="spec.x",
//! Origin="minimum"}`), the text of mismatch logs.
//!
//! Fields are compared as their rendered paths (Go's `Error.Field` is a string; the root is
//! `<nil>`). Normalization rules rewrite only the *got* error's path (an older API version's
//! path brought to the canonical one); the first rule that changes the path wins.

use kdv_runtime::FieldError;
use kdv_runtime::gofmt;
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

/// Which properties of two errors must be equal (Go's `field.ErrorMatcher`).
#[derive(Clone, Debug, Default)]
pub struct ErrorMatcher {
    match_type: bool,
    match_field: bool,
    match_value: bool,
    match_origin: bool,
    match_detail: bool,
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
        self.match_detail = true;
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
        if self.match_value && want.bad_value != got.bad_value {
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
        if self.match_detail && want.detail != got.detail {
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
        if self.match_detail {
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
