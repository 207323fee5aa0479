//! Hybrid validation: upstream's `rest/validate_test.go` tables as oracles, the gates ×
//! lifecycle table of KEP-5073, panic safety in both fail modes.

mod support;

use kdv_rollout::hybrid::{
    AUTHORITATIVE_MSG, DISABLE_BETA_MSG, Found, MismatchKind, gather_mismatches,
};
use kdv_rollout::matcher::NormalizationRule;
use kdv_rollout::{
    FeatureGates, MigrationChecks, ObjectIdentity, ValidationMetrics,
    validate_with_migration_checks,
};
use kdv_runtime::{ErrorList, FieldError};
use prometheus_client::registry::Registry;
use support::*;

fn gates(dv: bool, beta: bool) -> FeatureGates {
    // Upstream's test emulates 1.35 to turn DeclarativeValidation off (locked on from 1.36).
    if !dv {
        let mut g = FeatureGates::for_version(1, 35);
        g.parse("DeclarativeValidation=false").unwrap();
        return g;
    }
    let mut g = FeatureGates::for_version(1, 36);
    g.set("DeclarativeValidationBeta", beta).unwrap();
    g
}

fn checks(gates: FeatureGates) -> MigrationChecks {
    MigrationChecks {
        gates,
        identifier: "pod_create".into(),
        object: ObjectIdentity {
            kind: "Pod".into(),
            api_version: "v1".into(),
            namespace: String::new(),
            name: "test-pod".into(),
        },
        ..MigrationChecks::default()
    }
}

/// Upstream's `TestValidateDeclarativelyWithMigrationChecks`.
#[test]
fn validate_declaratively_with_migration_checks() {
    let hv_standard =
        forbidden("spec.standard", "imperative standard").mark_covered_by_declarative();
    let dv_standard = forbidden("spec.standard", "decStandard");
    let dv_additional = invalid("spec.additional", "decAdditional", "declarative additional");
    let hv_beta = invalid("spec.beta", "val", "imperative beta")
        .with_origin("min")
        .mark_covered_by_declarative();
    let dv_beta = invalid("spec.beta", "decBeta", "declarative beta")
        .with_origin("min")
        .mark_beta();
    let hv_beta_forbidden =
        forbidden("spec.betaForbidden", "imperative beta forbidden").mark_covered_by_declarative();
    let dv_beta_forbidden =
        forbidden("spec.betaForbidden", "declarative beta forbidden").mark_beta();
    let hv_alpha = forbidden("spec.alpha", "imperative alpha");
    let dv_alpha = invalid("spec.alpha", "decAlpha", "declarative alpha").mark_alpha();
    let internal_err = internal("internal error");
    let panic_err = internal("panic during declarative validation: test panic");

    struct Case {
        name: &'static str,
        dv: bool,
        beta: bool,
        hv: Vec<FieldError>,
        dv_errs: Option<Vec<FieldError>>, // None: panics
        want: Vec<FieldError>,
    }
    let cases = vec![
        Case {
            name: "Feature Disabled -> Enforces Standard",
            dv: false,
            beta: false,
            hv: vec![hv_standard.clone()],
            dv_errs: Some(vec![dv_standard.clone(), dv_additional.clone()]),
            want: vec![
                hv_standard.clone(),
                dv_standard.clone(),
                dv_additional.clone(),
            ],
        },
        Case {
            name: "Feature Enabled -> Enforces Standard",
            dv: true,
            beta: false,
            hv: vec![hv_standard.clone()],
            dv_errs: Some(vec![dv_standard.clone(), dv_additional.clone()]),
            want: vec![
                hv_standard.clone(),
                dv_standard.clone(),
                dv_additional.clone(),
            ],
        },
        Case {
            name: "Feature Disabled, Panics -> Returns InternalError",
            dv: false,
            beta: false,
            hv: vec![hv_standard.clone()],
            dv_errs: None,
            want: vec![hv_standard.clone(), panic_err.clone()],
        },
        Case {
            name: "Feature Enabled, InternalError -> Returns InternalError",
            dv: true,
            beta: false,
            hv: vec![hv_standard.clone()],
            dv_errs: Some(vec![internal_err.clone()]),
            want: vec![hv_standard.clone(), internal_err.clone()],
        },
        Case {
            name: "Beta Gate Enabled -> Enforces Beta",
            dv: true,
            beta: true,
            hv: vec![hv_beta.clone()],
            dv_errs: Some(vec![dv_beta.clone()]),
            want: vec![dv_beta.clone()],
        },
        Case {
            name: "Beta Gate Disabled -> Shadows Beta",
            dv: true,
            beta: false,
            hv: vec![hv_beta.clone()],
            dv_errs: Some(vec![dv_beta.clone()]),
            want: vec![hv_beta.clone()],
        },
        Case {
            name: "Beta Gate Enabled, declarative not emitted -> HV kept",
            dv: true,
            beta: true,
            hv: vec![hv_beta.clone()],
            dv_errs: Some(vec![]),
            want: vec![hv_beta.clone()],
        },
        Case {
            name: "Beta Gate Enabled, origin-less Forbidden -> HV removed, DV returned",
            dv: true,
            beta: true,
            hv: vec![hv_beta_forbidden.clone()],
            dv_errs: Some(vec![dv_beta_forbidden.clone()]),
            want: vec![dv_beta_forbidden.clone()],
        },
        Case {
            name: "Alpha -> Shadows Alpha",
            dv: true,
            beta: true,
            hv: vec![hv_alpha.clone()],
            dv_errs: Some(vec![dv_alpha.clone()]),
            want: vec![hv_alpha.clone()],
        },
    ];
    for case in cases {
        let mut cfg = checks(gates(case.dv, case.beta));
        // Upstream 1.36 fails closed on every panic; kdv does so for declarative-native types.
        cfg.declarative_native = case.dv_errs.is_none();
        let dv_errs = case.dv_errs.clone();
        let out = validate_with_migration_checks(
            case.hv.clone(),
            move || match dv_errs {
                Some(e) => e,
                None => std::panic::panic_any("test panic"),
            },
            &cfg,
        );
        assert_eq!(texts(&out.errors), texts(&case.want), "{}", case.name);
        for (got, want) in out.errors.iter().zip(&case.want) {
            assert_eq!(got.stability, want.stability, "{}", case.name);
        }
        // Hand-written errors come back marked as such.
        let n_hv = case
            .hv
            .iter()
            .filter(|h| out.errors.iter().any(|e| e.to_string() == h.to_string()))
            .count();
        assert_eq!(
            out.errors.iter().filter(|e| e.from_imperative).count(),
            n_hv,
            "{}",
            case.name
        );
    }
}

/// Upstream's `TestGatherDeclarativeValidationMismatches` (on the mismatch candidates).
#[test]
fn gather_declarative_validation_mismatches() {
    let hv_standard = invalid("spec.standard", "val", "impStandard")
        .mark_covered_by_declarative()
        .with_origin("min");
    let dv_standard = invalid("spec.standard", "val", "decStandard").with_origin("min");
    let hv_beta = invalid("spec.beta", "val", "impBeta")
        .mark_covered_by_declarative()
        .mark_beta()
        .with_origin("min");
    let dv_alpha = invalid("spec.alpha", "val", "decAlpha")
        .mark_alpha()
        .with_origin("min");
    let dv_diff_detail =
        invalid("spec.standard", "val", "decStandardDiffDetail").with_origin("min");
    let dv_diff_path = invalid("spec.standardAliased", "val", "decStandard").with_origin("min");
    let unmatched = |rendered: &str, rec| {
        format!(
            "Unexpected difference between hand written validation and declarative validation error results, unmatched error(s) found {rendered}. This indicates an issue with declarative validation. {rec}"
        )
    };
    let extra = |rendered: &str, rec| {
        format!(
            "Unexpected difference between hand written validation and declarative validation error results, extra error(s) found {rendered}. This indicates an issue with declarative validation. {rec}"
        )
    };
    let r_std = r#"{Type="Invalid value", Field="spec.standard", Origin="min"}"#;
    let r_beta = r#"{Type="Invalid value", Field="spec.beta", Origin="min"}"#;
    let r_alpha = r#"{Type="Invalid value", Field="spec.alpha", Origin="min"}"#;

    type Case = (
        &'static str,
        Vec<FieldError>,
        Vec<FieldError>,
        bool,
        Vec<NormalizationRule>,
        bool,
        Vec<String>,
    );
    let cases: Vec<Case> = vec![
        (
            "No errors - no mismatch",
            vec![],
            vec![],
            false,
            vec![],
            false,
            vec![],
        ),
        (
            "Clean match - no mismatch",
            vec![hv_standard.clone()],
            vec![dv_standard.clone()],
            false,
            vec![],
            false,
            vec![],
        ),
        (
            "Mismatch: Missing DV (Standard) + Enforced -> Disable Beta Gate",
            vec![hv_standard.clone()],
            vec![],
            true,
            vec![],
            false,
            vec![unmatched(r_std, DISABLE_BETA_MSG)],
        ),
        (
            "Mismatch: Extra DV (Standard) + Not Enforced -> HV Authoritative",
            vec![],
            vec![dv_standard.clone()],
            false,
            vec![],
            false,
            vec![extra(r_std, AUTHORITATIVE_MSG)],
        ),
        (
            "Mismatch: Missing DV (Beta) + Enforced -> Disable Beta Gate",
            vec![hv_beta.clone()],
            vec![],
            true,
            vec![],
            false,
            vec![unmatched(r_beta, DISABLE_BETA_MSG)],
        ),
        (
            "Mismatch: Extra DV (Alpha) + Enforced -> HV Authoritative (Override)",
            vec![],
            vec![dv_alpha.clone()],
            true,
            vec![],
            false,
            vec![extra(r_alpha, AUTHORITATIVE_MSG)],
        ),
        (
            "Fuzzy matching (different detail) - no mismatch",
            vec![hv_standard.clone()],
            vec![dv_diff_detail],
            false,
            vec![],
            false,
            vec![],
        ),
        (
            "Field normalization - no mismatch",
            vec![hv_standard.clone()],
            vec![dv_diff_path],
            false,
            vec![NormalizationRule::new("spec.standardAliased", "spec.standard").unwrap()],
            false,
            vec![],
        ),
        (
            "Multiple mismatches - combined log info",
            vec![hv_beta.clone()],
            vec![dv_alpha.clone()],
            true,
            vec![],
            false,
            vec![
                unmatched(r_beta, DISABLE_BETA_MSG),
                extra(r_alpha, AUTHORITATIVE_MSG),
            ],
        ),
        (
            "Uncovered HV error - no mismatch (ignored)",
            vec![invalid("spec.other", "val", "other").with_origin("min")],
            vec![],
            false,
            vec![],
            false,
            vec![],
        ),
        (
            "Short-circuit match: DV parent covers HV parent and child",
            vec![
                invalid("spec.standard", "val", "immutable")
                    .mark_covered_by_declarative()
                    .with_origin("immutable"),
                required("spec.standard.kind", "val")
                    .mark_covered_by_declarative()
                    .with_origin("min"),
            ],
            vec![short_circuit(
                invalid("spec.standard", "val", "immutable").with_origin("immutable"),
            )],
            false,
            vec![],
            true,
            vec![],
        ),
    ];
    for (name, hv, dv, enforced, rules, sc, want) in cases {
        let dv_refs: Vec<&FieldError> = dv.iter().collect();
        let found: Vec<Found> = gather_mismatches(&hv, &dv_refs, enforced, &rules, sc);
        let lines: Vec<String> = found.iter().map(Found::log_line).collect();
        assert_eq!(lines, want, "{name}");
    }
    // Without the short-circuit option the child's error is unmatched.
    let hv = vec![required("spec.standard.kind", "val").mark_covered_by_declarative()];
    let dv = [short_circuit(
        invalid("spec.standard", "val", "immutable").with_origin("immutable"),
    )];
    let found = gather_mismatches(&hv, &dv.iter().collect::<Vec<_>>(), false, &[], false);
    assert_eq!(
        found.iter().map(|f| f.kind).collect::<Vec<_>>(),
        [MismatchKind::Unmatched, MismatchKind::Extra]
    );
    // Duplicate covered HV errors are one.
    let hv = vec![hv_beta.clone(), hv_beta.clone()];
    assert_eq!(gather_mismatches(&hv, &[], true, &[], false).len(), 1);
}

#[derive(Clone, Copy, Debug)]
enum Level {
    Alpha,
    Beta,
    Standard,
    Native,
    Internal,
}

fn dv_error(level: Level) -> FieldError {
    let e = invalid("spec.replicas", "0", "declarative").with_origin("minimum");
    match level {
        Level::Alpha => e.mark_alpha(),
        Level::Beta => e.mark_beta(),
        Level::Standard => e,
        Level::Native => {
            let mut e = e;
            e.declarative_native = true;
            e
        }
        Level::Internal => internal("declarative internal"),
    }
}

fn hv_twin(level: Level) -> FieldError {
    match level {
        Level::Internal => internal("declarative internal"),
        _ => invalid("spec.replicas", "0", "handwritten").with_origin("minimum"),
    }
    .mark_covered_by_declarative()
}

/// Gates × lifecycle (KEP-5073, upstream 1.36 runtime): for a DV error of each lifecycle,
/// with and without a covered HV twin, under (A) 1.36 defaults, (B) 1.36 with
/// DeclarativeValidationBeta=false, (C) 1.35 with DeclarativeValidation=false (Beta unknown,
/// so off): which errors are returned and which mismatches are reported. (DeclarativeValidation
/// off with Beta on cannot be configured: the Beta gate exists only where DV is locked on.)
#[test]
fn gates_by_lifecycle() {
    use Level::*;
    use MismatchKind::*;
    let a = gates(true, true);
    let b = gates(true, false);
    let c = gates(false, false);
    // (level, twin, gates, returned ("HV"/"DV" in order), mismatch (kind, recommendation))
    type Row<'a> = (
        Level,
        bool,
        &'a FeatureGates,
        &'a [&'a str],
        Option<(MismatchKind, &'a str)>,
    );
    let table: Vec<Row> = vec![
        (Alpha, true, &a, &["HV"], None),
        (Alpha, true, &b, &["HV"], None),
        (Alpha, true, &c, &["HV"], None),
        (Beta, true, &a, &["DV"], None),
        (Beta, true, &b, &["HV"], None),
        (Beta, true, &c, &["HV"], None),
        // Standard rules are not compared: a covered HV twin is reported unmatched (its HV
        // code should have been deleted) and both are returned.
        (
            Standard,
            true,
            &a,
            &["HV", "DV"],
            Some((Unmatched, DISABLE_BETA_MSG)),
        ),
        (
            Standard,
            true,
            &b,
            &["HV", "DV"],
            Some((Unmatched, AUTHORITATIVE_MSG)),
        ),
        (Standard, true, &c, &["HV", "DV"], None),
        (
            Native,
            true,
            &a,
            &["HV", "DV"],
            Some((Unmatched, DISABLE_BETA_MSG)),
        ),
        (
            Native,
            true,
            &b,
            &["HV", "DV"],
            Some((Unmatched, AUTHORITATIVE_MSG)),
        ),
        (Native, true, &c, &["HV", "DV"], None),
        (
            Internal,
            true,
            &a,
            &["HV", "DV"],
            Some((Unmatched, DISABLE_BETA_MSG)),
        ),
        (
            Internal,
            true,
            &b,
            &["HV", "DV"],
            Some((Unmatched, AUTHORITATIVE_MSG)),
        ),
        (Internal, true, &c, &["HV", "DV"], None),
        (Alpha, false, &a, &[], Some((Extra, AUTHORITATIVE_MSG))),
        (Alpha, false, &b, &[], Some((Extra, AUTHORITATIVE_MSG))),
        (Alpha, false, &c, &[], None),
        (Beta, false, &a, &["DV"], Some((Extra, DISABLE_BETA_MSG))),
        (Beta, false, &b, &[], Some((Extra, AUTHORITATIVE_MSG))),
        (Beta, false, &c, &[], None),
        (Standard, false, &a, &["DV"], None),
        (Standard, false, &b, &["DV"], None),
        (Standard, false, &c, &["DV"], None),
        (Native, false, &a, &["DV"], None),
        (Native, false, &b, &["DV"], None),
        (Native, false, &c, &["DV"], None),
        (Internal, false, &a, &["DV"], None),
        (Internal, false, &b, &["DV"], None),
        (Internal, false, &c, &["DV"], None),
    ];
    for (level, twin, g, returned, mismatch) in table {
        let name = format!(
            "{level:?} twin={twin} dv={} beta={}",
            g.compares(),
            g.beta_enforced()
        );
        let hv: ErrorList = if twin { vec![hv_twin(level)] } else { vec![] };
        let cfg = checks(g.clone());
        let out = validate_with_migration_checks(hv, || vec![dv_error(level)], &cfg);
        let sides: Vec<&str> = out
            .errors
            .iter()
            .map(|e| if e.from_imperative { "HV" } else { "DV" })
            .collect();
        assert_eq!(sides, returned, "{name}");
        let got = out
            .mismatches
            .iter()
            .map(|m| (m.kind, m.recommendation))
            .next();
        assert_eq!(got, mismatch, "{name}");
        assert!(out.mismatches.len() <= 1, "{name}");
        // Every DV error not returned is reported as shadowed.
        let dv_returned = sides.iter().filter(|s| **s == "DV").count();
        assert_eq!(out.shadowed.len(), 1 - dv_returned, "{name}");
    }
}

#[test]
fn mismatch_records_carry_identity_and_lists() {
    let cfg = checks(gates(true, true));
    let hv = vec![
        invalid("spec.beta", "1", "hv")
            .with_origin("minimum")
            .mark_covered_by_declarative(),
    ];
    let dv = invalid("spec.other", "1", "dv")
        .with_origin("minimum")
        .mark_beta();
    let dv2 = dv.clone();
    let out = validate_with_migration_checks(hv, move || vec![dv2], &cfg);
    assert_eq!(out.mismatches.len(), 2);
    let m = &out.mismatches[0];
    assert_eq!(m.kind, MismatchKind::Unmatched);
    assert_eq!(m.identifier, "pod_create");
    assert_eq!(m.object.name, "test-pod");
    assert_eq!(m.handwritten.len(), 1);
    assert!(m.handwritten[0].from_imperative);
    assert_eq!(m.declarative.as_slice(), [dv]);
    assert_eq!(
        m.log_line(),
        "Unexpected difference between hand written validation and declarative validation error results, unmatched error(s) found {Type=\"Invalid value\", Field=\"spec.beta\", Origin=\"minimum\"}. This indicates an issue with declarative validation. Consider disabling the DeclarativeValidationBeta feature gate to keep data persisted in etcd consistent with prior versions of Kubernetes."
    );
    assert_eq!(out.mismatches[1].kind, MismatchKind::Extra);
    // Both the HV error (not matched) and the beta DV error are returned.
    assert_eq!(out.errors.len(), 2);
}

#[test]
fn panic_fails_open_without_native_rules() {
    kdv_rollout::silence_caught_panics();
    let mut registry = Registry::default();
    let metrics = ValidationMetrics::register(&mut registry);
    let mut cfg = checks(gates(true, true));
    cfg.metrics = Some(metrics.clone());
    let hv = vec![invalid("spec.replicas", "0", "hv").with_origin("minimum")];
    let out =
        validate_with_migration_checks(hv.clone(), || -> ErrorList { panic!("boom {}", 7) }, &cfg);
    assert_eq!(texts(&out.errors), texts(&hv));
    let p = out.panic.expect("caught");
    assert!(!p.fail_closed);
    assert_eq!(p.message, "boom 7");
    assert_eq!(p.log_line(), "panic during declarative validation: boom 7");
    assert_eq!(metrics.panic_total(), 1);
    assert_eq!(metrics.mismatch_total(), 0);
}

#[test]
fn panic_fails_closed_with_native_rules() {
    kdv_rollout::silence_caught_panics();
    let mut registry = Registry::default();
    let metrics = ValidationMetrics::register(&mut registry);
    let mut cfg = checks(gates(true, true));
    cfg.declarative_native = true;
    cfg.metrics = Some(metrics.clone());
    let hv = vec![invalid("spec.replicas", "0", "hv").with_origin("minimum")];
    let out = validate_with_migration_checks(hv, || -> ErrorList { panic!("test panic") }, &cfg);
    assert_eq!(
        texts(&out.errors),
        [
            "spec.replicas: Invalid value: \"0\": hv",
            "<nil>: Internal error: panic during declarative validation: test panic",
        ]
    );
    assert!(out.panic.expect("caught").fail_closed);
    assert_eq!(metrics.panic_total(), 1);
    // A non-string payload.
    let out = validate_with_migration_checks(
        vec![],
        || -> ErrorList { std::panic::panic_any(42u8) },
        &cfg,
    );
    assert_eq!(out.panic.unwrap().message, "<non-string panic payload>");
    assert_eq!(metrics.panic_total(), 2);
}
