//! apimachinery's `field.ErrorMatcher` (validation-gen spec §8.4) as the harness runs it:
//! the matcher is the product's ([`kdv_rollout::ErrorMatcher`]); this module adds the
//! harness's side, the text of `Test`'s failures and of errors in reports.

use kdv_runtime::{FieldError, StabilityLevel};

pub use kdv_rollout::ErrorMatcher as Matcher;
pub use kdv_rollout::matcher::TestFailure;

/// One failure of Go's `ErrorMatcher.Test` as the harness reports it.
pub fn failure_text(f: &TestFailure<'_>) -> String {
    match f {
        TestFailure::AncestorShortCircuitUnsupported => {
            "matchAncestorShortCircuit is not supported for test".to_string()
        }
        TestFailure::Duplicate(e) => format!("exact duplicate error: {}", render_error(e)),
        TestFailure::Missing(e) => format!("expected an error matching: {}", render_error(e)),
        TestFailure::Unmatched(e) => format!("unmatched error: {}", render_error(e)),
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
    use kdv_runtime::{BadValue, ErrorListExt, ErrorType, FieldPath, PathRef};

    /// Go's `ErrorMatcher.Test` with each failure as the harness reports it.
    fn test(m: &Matcher, want: &[FieldError], got: &[FieldError]) -> Vec<String> {
        m.test(want, got).iter().map(failure_text).collect()
    }

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
        methods.iter().fold(Matcher::default(), |m, x| {
            m.by_go_name(x).expect("known method")
        })
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
        let f = test(&matcher, &want, &got);
        assert_eq!(f.len(), 2);
        assert!(f[0].starts_with("expected an error matching"));
        assert!(f[1].starts_with("unmatched error"));
        let dup = [invalid("a", "", ""), invalid("a", "", "")];
        let f = test(&matcher, &want, &dup);
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
        assert!(test(&matcher, &want, &got).is_empty());
        // Without an origin, each expected error consumes a single actual error.
        let matcher = m(&["ByType"]);
        let want = [invalid("a", "", "")];
        assert_eq!(test(&matcher, &want, &got).len(), 1);
    }

    #[test]
    fn ancestor_short_circuit() {
        let mut got = vec![invalid("a", "", "")];
        got.mark_short_circuit();
        let want = invalid("a.b", "", "x");
        assert!(m(&["ByType", "MatchAncestorShortCircuit"]).matches(&want, &got[0]));
        assert_eq!(
            test(&m(&["MatchAncestorShortCircuit"]), &[want], &got),
            ["matchAncestorShortCircuit is not supported for test"]
        );
    }

    #[test]
    fn numeric_bad_values_compare_by_value() {
        assert!(kdv_rollout::matcher::bad_values_equal(
            &BadValue::Int(5),
            &BadValue::Json(serde_json::json!(5))
        ));
        assert!(!kdv_rollout::matcher::bad_values_equal(
            &BadValue::Int(5),
            &BadValue::Int(6)
        ));
        assert!(kdv_rollout::matcher::bad_values_equal(
            &BadValue::String("x".into()),
            &BadValue::Json(serde_json::json!("x"))
        ));
    }
}
