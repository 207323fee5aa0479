//! apimachinery's `field/error_matcher_test.go` tables, as data.

mod support;

use kdv_rollout::matcher::{ErrorMatcher, NormalizationRule, is_child_path};
use kdv_runtime::{BadValue, ErrorType, FieldError, FieldPath};
use support::*;

fn base() -> FieldError {
    invalid("field", "value", "detail").with_origin("origin")
}

/// `&Error{...}` with Go's zero values: type 0 is not a valid type in Go; the closest
/// Rust stand-in that differs from every `want` below is `NotFound` unless the case sets one.
fn zero() -> FieldError {
    FieldError::new(ErrorType::NotFound, FieldPath::root(), BadValue::Null, "")
}

fn rule_a() -> Vec<NormalizationRule> {
    vec![NormalizationRule::new(r"f\[(\d+)\]\.a", "f[$1].x.a").unwrap()]
}

#[test]
fn error_matcher_matches() {
    let m = ErrorMatcher::default;
    let with = |f: &dyn Fn(&mut FieldError)| {
        let mut e = zero();
        f(&mut e);
        e
    };
    let want_field = |field: &str| {
        let mut e = base();
        e.field = path(field);
        e
    };
    let cases: Vec<(&str, ErrorMatcher, FieldError, FieldError, bool)> = vec![
        (
            "ByType: match",
            m().by_type(),
            base(),
            with(&|e| e.error_type = ErrorType::Invalid),
            true,
        ),
        (
            "ByType: no match",
            m().by_type(),
            base(),
            with(&|e| e.error_type = ErrorType::Required),
            false,
        ),
        (
            "ByField: match",
            m().by_field(),
            base(),
            with(&|e| e.field = path("field")),
            true,
        ),
        (
            "ByField: no match",
            m().by_field(),
            base(),
            with(&|e| e.field = path("other")),
            false,
        ),
        (
            "ByFieldNormalized: older API to latest",
            m().by_field_normalized(rule_a()),
            want_field("f[0].x.a"),
            with(&|e| e.field = path("f[0].a")),
            true,
        ),
        (
            "ByFieldNormalized: both latest format",
            m().by_field_normalized(rule_a()),
            want_field("f[0].x.a"),
            with(&|e| e.field = path("f[0].x.a")),
            true,
        ),
        (
            "ByFieldNormalized: different index",
            m().by_field_normalized(rule_a()),
            want_field("f[0].x.a"),
            with(&|e| e.field = path("f[1].a")),
            false,
        ),
        (
            "ByFieldNormalized: multiple patterns",
            m().by_field_normalized(vec![
                NormalizationRule::new(r"f\[(\d+)\]\.a", "f[$1].x.a").unwrap(),
                NormalizationRule::new(r"f\[(\d+)\]\.b", "f[$1].x.b").unwrap(),
            ]),
            want_field("f[2].x.b"),
            with(&|e| e.field = path("f[2].b")),
            true,
        ),
        (
            "ByFieldNormalized: no normalization needed",
            m().by_field_normalized(rule_a()),
            want_field("other.field"),
            with(&|e| e.field = path("other.field")),
            true,
        ),
        (
            "ByValue: match",
            m().by_value(),
            base(),
            with(&|e| e.bad_value = BadValue::string("value")),
            true,
        ),
        (
            "ByValue: no match",
            m().by_value(),
            base(),
            with(&|e| e.bad_value = BadValue::string("other")),
            false,
        ),
        (
            "ByOrigin: match",
            m().by_origin(),
            base(),
            with(&|e| e.origin = "origin".into()),
            true,
        ),
        (
            "ByOrigin: no match",
            m().by_origin(),
            base(),
            with(&|e| e.origin = "other".into()),
            false,
        ),
        (
            "ByDetailExact: match",
            m().by_detail_exact(),
            base(),
            with(&|e| e.detail = "detail".into()),
            true,
        ),
        (
            "ByDetailExact: no match",
            m().by_detail_exact(),
            base(),
            with(&|e| e.detail = "other".into()),
            false,
        ),
        ("Exactly: match", m().exactly(), base(), base(), true),
        (
            "Exactly: no match (type)",
            m().exactly(),
            base(),
            with(&|e| {
                *e = base();
                e.error_type = ErrorType::Required;
            }),
            false,
        ),
        (
            "RequireOriginWhenInvalid: match",
            m().by_origin().require_origin_when_invalid(),
            base(),
            with(&|e| {
                e.error_type = ErrorType::Invalid;
                e.origin = "origin".into();
            }),
            true,
        ),
        (
            "RequireOriginWhenInvalid: no match (missing origin)",
            m().by_origin().require_origin_when_invalid(),
            base(),
            with(&|e| e.error_type = ErrorType::Invalid),
            false,
        ),
        (
            "BySource: match",
            m().by_source(),
            base().mark_from_imperative(),
            with(&|e| e.from_imperative = true),
            true,
        ),
        (
            "BySource: no match",
            m().by_source(),
            base().mark_from_imperative(),
            zero(),
            false,
        ),
        (
            "MatchShortCircuit: match",
            m().match_short_circuit(),
            short_circuit(base()),
            with(&|e| e.short_circuit = true),
            true,
        ),
        (
            "MatchShortCircuit: no match",
            m().match_short_circuit(),
            short_circuit(base()),
            zero(),
            false,
        ),
        (
            "MatchAncestorShortCircuit: child field match",
            m().by_type().by_field().match_ancestor_short_circuit(),
            {
                let mut e = want_field("field.child");
                e.error_type = ErrorType::Required;
                e
            },
            short_circuit(invalid("field", "", "").with_origin("immutable")),
            true,
        ),
        (
            "MatchAncestorShortCircuit: array child match",
            m().by_type().by_field().match_ancestor_short_circuit(),
            {
                let mut e = want_field("field[0]");
                e.error_type = ErrorType::Required;
                e
            },
            short_circuit(invalid("field", "", "").with_origin("immutable")),
            true,
        ),
        (
            "MatchAncestorShortCircuit: not a child",
            m().by_type().by_field().match_ancestor_short_circuit(),
            want_field("other.child"),
            short_circuit(invalid("field", "", "").with_origin("immutable")),
            false,
        ),
        (
            "MatchAncestorShortCircuit: substring but not child",
            m().by_type().by_field().match_ancestor_short_circuit(),
            want_field("field_other"),
            short_circuit(invalid("field", "", "").with_origin("immutable")),
            false,
        ),
        (
            // Go's parent is the empty string; kdv's root path renders `<nil>`, which is no
            // prefix of a field either.
            "MatchAncestorShortCircuit: parent path is empty string",
            m().by_type().by_field().match_ancestor_short_circuit(),
            want_field("field.child"),
            short_circuit(invalid("<nil>", "", "").with_origin("immutable")),
            false,
        ),
        (
            "MatchAncestorShortCircuit: child field match with normalized parent",
            m().by_type()
                .by_field_normalized(rule_a())
                .match_ancestor_short_circuit(),
            {
                let mut e = want_field("f[0].x.a.child");
                e.error_type = ErrorType::Required;
                e
            },
            short_circuit(invalid("f[0].a", "", "").with_origin("immutable")),
            true,
        ),
        (
            "MatchAncestorShortCircuit: child field match with unnormalized parent",
            m().by_type()
                .by_field_normalized(rule_a())
                .match_ancestor_short_circuit(),
            {
                let mut e = want_field("f[0].a.child");
                e.error_type = ErrorType::Required;
                e
            },
            short_circuit(invalid("f[0].a", "", "").with_origin("immutable")),
            true,
        ),
    ];
    for (name, matcher, want, got, expect) in cases {
        assert_eq!(matcher.matches(&want, &got), expect, "{name}");
    }
}

#[test]
fn error_matcher_render() {
    let m = ErrorMatcher::default;
    let inv = || invalid("field", "value", "detail");
    let cases: Vec<(&str, ErrorMatcher, FieldError, &str)> = vec![
        ("empty matcher", m(), inv(), "{}"),
        (
            "single field - type",
            m().by_type(),
            inv(),
            r#"{Type="Invalid value"}"#,
        ),
        (
            "single field - value with string",
            m().by_value(),
            invalid("field", "string_value", "detail"),
            r#"{Value="string_value"}"#,
        ),
        (
            "single field - value with nil",
            m().by_value(),
            {
                let mut e = inv();
                e.bad_value = BadValue::Null;
                e
            },
            "{Value=<nil>}",
        ),
        (
            "multiple fields",
            m().by_type().by_field().by_value(),
            inv(),
            r#"{Type="Invalid value", Field="field", Value="value"}"#,
        ),
        (
            "all fields",
            m().by_type()
                .by_field()
                .by_value()
                .by_origin()
                .by_detail_exact(),
            inv().with_origin("origin"),
            r#"{Type="Invalid value", Field="field", Value="value", Origin="origin", Detail="detail"}"#,
        ),
        (
            "with normalization: normalized",
            m().by_field_normalized(rule_a()),
            invalid("f[0].a", "value", "detail"),
            r#"{Field="f[0].x.a" (aka "f[0].a")}"#,
        ),
        (
            "with normalization: no normalization",
            m().by_field_normalized(rule_a()),
            invalid("other.field", "value", "detail"),
            r#"{Field="other.field"}"#,
        ),
        (
            "with normalization: already normalized",
            m().by_field_normalized(rule_a()),
            invalid("f[0].x.a", "value", "detail"),
            r#"{Field="f[0].x.a"}"#,
        ),
        (
            "requireOriginWhenInvalid with origin",
            m().by_origin().require_origin_when_invalid(),
            inv().with_origin("origin"),
            r#"{Origin="origin"}"#,
        ),
        (
            "different error types",
            m().by_type().by_value(),
            required("field", "detail"),
            r#"{Type="Required value", Value=""}"#,
        ),
        (
            "with from imperative",
            m().by_source(),
            inv().mark_from_imperative(),
            "{FromImperative=true}",
        ),
        (
            "all fields with from imperative",
            m().by_type()
                .by_field()
                .by_value()
                .by_origin()
                .by_detail_exact()
                .by_source(),
            inv().with_origin("origin").mark_from_imperative(),
            r#"{Type="Invalid value", Field="field", Value="value", Origin="origin", Detail="detail", FromImperative=true}"#,
        ),
    ];
    for (name, matcher, e, want) in cases {
        assert_eq!(matcher.render(&e), want, "{name}");
    }
    // The mismatch matcher (type, origin, normalized field).
    assert_eq!(
        ErrorMatcher::fuzzy(vec![])
            .render(&invalid("spec.minReadySeconds", "1", "x").with_origin("minimum")),
        r#"{Type="Invalid value", Field="spec.minReadySeconds", Origin="minimum"}"#
    );
}

#[test]
fn child_paths() {
    // apimachinery's TestIsChildPath.
    let cases = [
        ("spec.containers", "spec.containers[0]", true),
        ("spec.container", "spec.container.name", true),
        ("spec.container", "spec.containers", false),
        ("", "spec.containers", false),
        ("spec.containers", "spec", false),
        ("spec.containers", "spec.containers", false),
        ("spec.containers", "status.conditions", false),
    ];
    for (parent, child, want) in cases {
        assert_eq!(is_child_path(parent, child), want, "{parent} {child}");
    }
}

#[test]
fn duplicates() {
    let a = invalid("spec.x", "1", "bad");
    let b = invalid("spec.y", "1", "bad");
    // Errors equal but for the origin render the same: a duplicate (upstream's test).
    let a2 = a.clone().with_origin("other");
    let list = vec![a.clone(), b, a2, a];
    let dups = kdv_rollout::duplicate_errors(&list);
    assert_eq!(dups.len(), 2);
    assert_eq!(dups[0].to_string(), "spec.x: Invalid value: \"1\": bad");
}
