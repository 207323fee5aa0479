//! apimachinery's `field.ErrorMatcher` (validation-gen spec §8.4): per-criterion matching of
//! an expected error against an actual one, and `Test(want, got)` with duplicate detection
//! and multi-matching by origin.

use kdv_runtime::{BadValue, ErrorType, FieldError, StabilityLevel};

/// How details are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DetailMode {
    #[default]
    Ignore,
    Exact,
    Substring,
    Regexp,
}

/// A set of enabled criteria; the empty matcher matches any pair.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Matcher {
    pub by_type: bool,
    pub by_field: bool,
    pub by_value: bool,
    pub by_origin: bool,
    pub require_origin_when_invalid: bool,
    pub detail: DetailMode,
    pub by_level: bool,
    pub by_source: bool,
    pub short_circuit: bool,
    pub ancestor_short_circuit: bool,
    /// `ByFieldNormalized` rules: (regex, replacement).
    pub normalizers: Vec<(String, String)>,
}

impl Matcher {
    /// Applies a builder method by its Go name; `None` for an unknown method.
    pub fn with(&self, method: &str) -> Option<Matcher> {
        let mut m = self.clone();
        match method {
            "ByType" => m.by_type = true,
            "ByField" => m.by_field = true,
            "ByValue" => m.by_value = true,
            "ByOrigin" => m.by_origin = true,
            "RequireOriginWhenInvalid" => m.require_origin_when_invalid = true,
            "ByDetailExact" => m.detail = DetailMode::Exact,
            "ByDetailSubstring" => m.detail = DetailMode::Substring,
            "ByDetailRegexp" => m.detail = DetailMode::Regexp,
            "ByValidationStabilityLevel" => m.by_level = true,
            "BySource" => m.by_source = true,
            "MatchShortCircuit" => m.short_circuit = true,
            "MatchAncestorShortCircuit" => m.ancestor_short_circuit = true,
            "Exactly" => {
                m.by_type = true;
                m.by_field = true;
                m.by_value = true;
                m.by_origin = true;
                m.detail = DetailMode::Exact;
            }
            _ => return None,
        }
        Some(m)
    }

    fn normalized_field(&self, field: &str) -> String {
        for (re, rep) in &self.normalizers {
            if let Ok(re) = regex::Regex::new(re) {
                let out = re.replace_all(field, rep.as_str());
                if out != field {
                    return out.into_owned();
                }
            }
        }
        field.to_string()
    }

    /// Whether `got` matches `want` under the enabled criteria.
    pub fn matches(&self, want: &FieldError, got: &FieldError) -> bool {
        let want_field = want.field.to_string();
        let got_field = got.field.to_string();
        if self.ancestor_short_circuit
            && got.short_circuit
            && want_field.len() > got_field.len()
            && want_field.starts_with(&got_field)
            && matches!(want_field.as_bytes()[got_field.len()], b'.' | b'[')
        {
            return true;
        }
        if self.by_type && want.error_type != got.error_type {
            return false;
        }
        if self.by_field && want_field != got_field {
            if self.normalizers.is_empty() || self.normalized_field(&got_field) != want_field {
                return false;
            }
        } else if !self.by_field && !self.normalizers.is_empty() && want_field != got_field {
            // ByFieldNormalized without ByField.
            if self.normalized_field(&got_field) != want_field {
                return false;
            }
        }
        if self.by_value && !bad_values_equal(&want.bad_value, &got.bad_value) {
            return false;
        }
        if self.by_origin {
            if self.require_origin_when_invalid
                && want.error_type == ErrorType::Invalid
                && (want.origin.is_empty() || got.origin.is_empty())
            {
                return false;
            }
            if want.origin != got.origin {
                return false;
            }
        }
        match self.detail {
            DetailMode::Ignore => {}
            DetailMode::Exact => {
                if got.detail != want.detail {
                    return false;
                }
            }
            DetailMode::Substring => {
                if !got.detail.contains(&want.detail) {
                    return false;
                }
            }
            DetailMode::Regexp => match regex::Regex::new(&want.detail) {
                Ok(re) if re.is_match(&got.detail) => {}
                _ => return false,
            },
        }
        if self.by_level && want.stability != got.stability {
            return false;
        }
        if self.by_source && want.from_imperative != got.from_imperative {
            return false;
        }
        if self.short_circuit && want.short_circuit != got.short_circuit {
            return false;
        }
        true
    }

    /// The key used for duplicate detection: the `Exactly()` fields plus every criterion
    /// enabled on this matcher.
    fn duplicate_key(&self, e: &FieldError) -> String {
        let mut key = format!(
            "{}\u{0}{}\u{0}{}\u{0}{}\u{0}{}",
            e.error_type.as_str(),
            e.field,
            render_value(&e.bad_value),
            e.origin,
            e.detail
        );
        if self.by_level {
            key.push_str(&format!("\u{0}{}", e.stability.as_str()));
        }
        if self.short_circuit {
            key.push_str(&format!("\u{0}{}", e.short_circuit));
        }
        if self.by_source {
            key.push_str(&format!("\u{0}{}", e.from_imperative));
        }
        key
    }

    /// Go's `ErrorMatcher.Test`: every expected error must match some actual error (all
    /// actual errors matching it when matching by a non-empty origin), nothing may be left
    /// over, and no two actual errors may be identical. Returns the failures.
    pub fn test(&self, want: &[FieldError], got: &[FieldError]) -> Vec<String> {
        let mut failures = Vec::new();
        if self.ancestor_short_circuit {
            failures.push("matchAncestorShortCircuit is not supported for test".to_string());
            return failures;
        }
        let mut seen = std::collections::HashSet::new();
        for e in got {
            if !seen.insert(self.duplicate_key(e)) {
                failures.push(format!("exact duplicate error: {}", render_error(e)));
            }
        }
        let mut used = vec![false; got.len()];
        for w in want {
            let multi = self.by_origin && !w.origin.is_empty();
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
                failures.push(format!("expected an error matching: {}", render_error(w)));
            }
        }
        for (i, g) in got.iter().enumerate() {
            if !used[i] {
                failures.push(format!("unmatched error: {}", render_error(g)));
            }
        }
        failures
    }
}

/// Go's `reflect.DeepEqual` on bad values, as far as the variants allow: numbers compare by
/// value across integer variants and JSON numbers.
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

/// A bad value as the matcher renders it (strings quoted, the rest as printed).
pub fn render_value(v: &BadValue) -> String {
    match v {
        BadValue::Json(serde_json::Value::String(s)) => format!("{s:?}"),
        _ => v.to_string(),
    }
}

/// One error with everything the matcher may look at: Go's `Error()` text plus origin and
/// marks.
pub fn render_error(e: &FieldError) -> String {
    let mut s = e.to_string();
    let mut marks = Vec::new();
    if !e.origin.is_empty() {
        marks.push(format!("origin={}", e.origin));
    }
    if e.stability != StabilityLevel::Unknown {
        marks.push(e.stability.as_str().to_string());
    }
    if e.short_circuit {
        marks.push("short-circuit".to_string());
    }
    if e.from_imperative {
        marks.push("imperative".to_string());
    }
    if !marks.is_empty() {
        s.push_str(&format!(" [{}]", marks.join(", ")));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use kdv_runtime::{ErrorListExt, FieldPath, PathRef};

    fn invalid(field: &str, detail: &str, origin: &str) -> FieldError {
        let mut e = FieldError::new(
            ErrorType::Invalid,
            FieldPath::new(field),
            BadValue::Int(1),
            detail,
        );
        e.origin = origin.to_owned().into();
        e
    }

    fn m(methods: &[&str]) -> Matcher {
        methods
            .iter()
            .fold(Matcher::default(), |m, x| m.with(x).expect("known method"))
    }

    #[test]
    fn empty_matcher_matches_anything() {
        let a = invalid("a", "x", "");
        let b = FieldError::required(&PathRef::Nil, "");
        assert!(Matcher::default().matches(&a, &b));
    }

    #[test]
    fn criteria_are_checked() {
        let want = invalid("a", "must be", "minimum");
        let got = invalid("a", "value must be positive", "minimum");
        assert!(m(&["ByType", "ByField", "ByOrigin"]).matches(&want, &got));
        assert!(m(&["ByDetailSubstring"]).matches(&want, &got));
        assert!(!m(&["ByDetailExact"]).matches(&want, &got));
        let other = invalid("b", "must be", "minimum");
        assert!(!m(&["ByField"]).matches(&want, &other));
        let alpha = got.clone().mark_alpha();
        assert!(!m(&["ByValidationStabilityLevel"]).matches(&want, &alpha));
        assert!(m(&["ByValidationStabilityLevel"]).matches(&want.clone().mark_alpha(), &alpha));
        let mut sc = vec![got.clone()];
        sc.mark_short_circuit();
        assert!(!m(&["MatchShortCircuit"]).matches(&want, &sc[0]));
        assert!(m(&["ByDetailRegexp"]).matches(&invalid("a", "^value", ""), &got));
    }

    #[test]
    fn test_reports_missing_unmatched_and_duplicates() {
        let matcher = m(&["ByType", "ByField"]);
        let want = [invalid("a", "", "")];
        let got = [invalid("b", "", "")];
        let f = matcher.test(&want, &got);
        assert_eq!(f.len(), 2);
        assert!(f[0].starts_with("expected an error matching"));
        assert!(f[1].starts_with("unmatched error"));
        let dup = [invalid("a", "", ""), invalid("a", "", "")];
        let f = matcher.test(&want, &dup);
        assert!(f.iter().any(|x| x.starts_with("exact duplicate error")));
    }

    #[test]
    fn origin_multi_match_consumes_all() {
        let matcher = m(&["ByType", "ByOrigin"]);
        let want = [invalid("a", "", "format=k8s-uuid")];
        let got = [
            invalid("a", "x", "format=k8s-uuid"),
            invalid("b", "y", "format=k8s-uuid"),
        ];
        assert!(matcher.test(&want, &got).is_empty());
        // Without an origin, each expected error consumes a single actual error.
        let matcher = m(&["ByType"]);
        let want = [invalid("a", "", "")];
        assert_eq!(matcher.test(&want, &got).len(), 1);
    }

    #[test]
    fn ancestor_short_circuit() {
        let mut got = vec![invalid("a", "", "")];
        got.mark_short_circuit();
        let want = invalid("a.b", "", "x");
        assert!(m(&["ByType", "MatchAncestorShortCircuit"]).matches(&want, &got[0]));
        assert_eq!(
            m(&["MatchAncestorShortCircuit"]).test(&[want], &got),
            ["matchAncestorShortCircuit is not supported for test"]
        );
    }

    #[test]
    fn numeric_bad_values_compare_by_value() {
        assert!(bad_values_equal(
            &BadValue::Int(5),
            &BadValue::Json(serde_json::json!(5))
        ));
        assert!(!bad_values_equal(&BadValue::Int(5), &BadValue::Int(6)));
        assert!(bad_values_equal(
            &BadValue::String("x".into()),
            &BadValue::Json(serde_json::json!("x"))
        ));
    }
}
