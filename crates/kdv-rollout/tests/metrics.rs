//! The counters scraped from a registry, compared with upstream's exposition
//! (`apiserver/pkg/validation/metrics_test.go`).

mod support;

use kdv_rollout::{
    FeatureGates, MigrationChecks, ValidationMetrics, validate_with_migration_checks,
};
use prometheus_client::encoding::text::encode;
use prometheus_client::registry::Registry;
use support::*;

fn scrape(registry: &Registry) -> String {
    let mut out = String::new();
    encode(&mut out, registry).unwrap();
    out
}

/// The exposition of every counter: upstream's sample lines and HELP texts; OpenMetrics
/// names the family in `# HELP`/`# TYPE` without `_total` and ends with `# EOF`.
#[test]
fn exposition_matches_upstream() {
    let mut registry = Registry::default();
    let m = ValidationMetrics::register(&mut registry);
    m.inc_mismatch("test_validation_identifier");
    m.inc_panic("pod_update");
    m.inc_duplicate_error();
    let text = scrape(&registry);
    let expected = "\
# HELP apiserver_validation_declarative_validation_mismatch [BETA] Number of times declarative validation results differed from handwritten validation results for core types.
# TYPE apiserver_validation_declarative_validation_mismatch counter
apiserver_validation_declarative_validation_mismatch_total 1
# HELP apiserver_validation_declarative_validation_parity_discrepancies [ALPHA] Number of discrepancies between declarative and handwritten validation, broken down by validation identifier.
# TYPE apiserver_validation_declarative_validation_parity_discrepancies counter
apiserver_validation_declarative_validation_parity_discrepancies_total{validation_identifier=\"test_validation_identifier\"} 1
# HELP apiserver_validation_declarative_validation_panic [BETA] Number of times declarative validation has panicked during validation.
# TYPE apiserver_validation_declarative_validation_panic counter
apiserver_validation_declarative_validation_panic_total 1
# HELP apiserver_validation_declarative_validation_panics [ALPHA] Number of panics in declarative validation, broken down by validation identifier.
# TYPE apiserver_validation_declarative_validation_panics counter
apiserver_validation_declarative_validation_panics_total{validation_identifier=\"pod_update\"} 1
# HELP apiserver_validation_duplicate_validation_error [INTERNAL] Number of duplicate validation errors during validation.
# TYPE apiserver_validation_duplicate_validation_error counter
apiserver_validation_duplicate_validation_error_total 1
# EOF
";
    assert_eq!(text, expected);
    // upstream metrics_test.go:39-44, sample lines and HELP texts word for word.
    let upstream = [
        (
            "apiserver_validation_declarative_validation_parity_discrepancies_total",
            "[ALPHA] Number of discrepancies between declarative and handwritten validation, broken down by validation identifier.",
            "apiserver_validation_declarative_validation_parity_discrepancies_total{validation_identifier=\"test_validation_identifier\"} 1",
        ),
        (
            "apiserver_validation_declarative_validation_mismatch_total",
            "[BETA] Number of times declarative validation results differed from handwritten validation results for core types.",
            "apiserver_validation_declarative_validation_mismatch_total 1",
        ),
    ];
    for (name, help, sample) in upstream {
        let family = name.trim_end_matches("_total");
        assert!(
            text.contains(&format!("# HELP {family} {help}\n")),
            "{name}"
        );
        assert!(
            text.contains(&format!("# TYPE {family} counter\n")),
            "{name}"
        );
        assert!(text.lines().any(|l| l == sample), "{name}");
    }
}

/// Each mismatch kind counted once, with the identifier label.
#[test]
fn hybrid_validation_counts_mismatches() {
    let mut registry = Registry::default();
    let metrics = ValidationMetrics::register(&mut registry);
    let cfg = MigrationChecks {
        gates: FeatureGates::default(),
        identifier: "widget_update".into(),
        metrics: Some(metrics.clone()),
        ..MigrationChecks::default()
    };
    // Matching lists: nothing counted.
    let hv = vec![
        invalid("spec.replicas", "0", "hv")
            .with_origin("minimum")
            .mark_covered_by_declarative(),
    ];
    let out = validate_with_migration_checks(
        hv.clone(),
        || {
            vec![
                invalid("spec.replicas", "0", "dv")
                    .with_origin("minimum")
                    .mark_beta(),
            ]
        },
        &cfg,
    );
    assert!(out.mismatches.is_empty());
    assert_eq!(metrics.mismatch_total(), 0);
    // One unmatched, one extra.
    let out = validate_with_migration_checks(
        hv,
        || {
            vec![
                invalid("spec.name", "x", "dv")
                    .with_origin("format")
                    .mark_alpha(),
            ]
        },
        &cfg,
    );
    assert_eq!(out.mismatches.len(), 2);
    assert_eq!(metrics.mismatch_total(), 2);
    let text = scrape(&registry);
    assert!(text.lines().any(|l| l == "apiserver_validation_declarative_validation_parity_discrepancies_total{validation_identifier=\"widget_update\"} 2"), "{text}");
    assert!(
        text.lines()
            .any(|l| l == "apiserver_validation_declarative_validation_panic_total 0"),
        "{text}"
    );
    // The DeclarativeValidation gate off (1.35): no comparison, nothing counted.
    let mut g = FeatureGates::for_version(1, 35);
    g.parse("DeclarativeValidation=false").unwrap();
    let cfg = MigrationChecks { gates: g, ..cfg };
    let hv = vec![
        invalid("spec.replicas", "0", "hv")
            .with_origin("minimum")
            .mark_covered_by_declarative(),
    ];
    let out = validate_with_migration_checks(hv, Vec::new, &cfg);
    assert!(out.mismatches.is_empty());
    assert_eq!(metrics.mismatch_total(), 2);
}

#[test]
fn duplicate_counter_from_duplicate_errors() {
    // Upstream's TestRecordDuplicateValidationErrors: repeats of an error's text.
    let mut registry = Registry::default();
    let m = ValidationMetrics::register(&mut registry);
    let r = || invalid("spec.replicas", "-1", "must be greater than or equal to 0");
    for (errs, want) in [
        (
            vec![
                r().with_origin("minimum"),
                r().with_origin("minimum"),
                invalid(
                    "spec.selector",
                    "{}",
                    "empty selector is invalid for deployment",
                ),
                invalid(
                    "spec.selector",
                    "{}",
                    "empty selector is invalid for deployment",
                ),
            ],
            2u64,
        ),
        (vec![r().with_origin("minimum"), r().with_origin("min")], 1),
        (
            vec![
                r().with_origin("minimum"),
                invalid(
                    "spec.selector",
                    "{}",
                    "empty selector is invalid for deployment",
                ),
            ],
            0,
        ),
    ] {
        let before = m.duplicate_error_total();
        for _ in kdv_rollout::duplicate_errors(&errs) {
            m.inc_duplicate_error();
        }
        assert_eq!(m.duplicate_error_total() - before, want);
    }
}

/// The validation-duration histogram (kdv extension, KEP-5073's monitoring section): opt-in,
/// the declarative side timed by hybrid validation, the hand-written side by the caller.
#[test]
fn validation_durations_split_handwritten_and_declarative() {
    let mut registry = Registry::default();
    let durations = kdv_rollout::ValidationDurations::register(&mut registry);
    let cfg = MigrationChecks {
        gates: FeatureGates::default(),
        identifier: "widget_update".into(),
        durations: Some(durations.clone()),
        ..MigrationChecks::default()
    };
    let hv = durations.time(kdv_rollout::ValidationKind::Handwritten, || {
        vec![
            invalid("spec.replicas", "0", "hv")
                .with_origin("minimum")
                .mark_covered_by_declarative(),
        ]
    });
    for _ in 0..3 {
        validate_with_migration_checks(
            hv.clone(),
            || {
                vec![
                    invalid("spec.replicas", "0", "dv")
                        .with_origin("minimum")
                        .mark_beta(),
                ]
            },
            &cfg,
        );
    }
    let text = scrape(&registry);
    assert!(
        text.contains("# TYPE apiserver_request_validation_duration_seconds histogram\n"),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l
            == "apiserver_request_validation_duration_seconds_count{validation=\"declarative\"} 3"),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l
            == "apiserver_request_validation_duration_seconds_count{validation=\"handwritten\"} 1"),
        "{text}"
    );
    // Not registered unless asked for: upstream's exposition is unchanged.
    let mut plain = Registry::default();
    kdv_rollout::ValidationMetrics::register(&mut plain);
    assert!(!scrape(&plain).contains("duration"));
}
