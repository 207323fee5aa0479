//! Hybrid validation at each release: upstream's `rest/validate_test.go` tables as oracles
//! (1.35, v0.36 and main), a table of release × gates × lifecycle × hand-written twin, and
//! panic safety in each fail mode.

mod support;

use std::cell::Cell;

use kdv_rollout::hybrid::{
    AUTHORITATIVE_MSG, DISABLE_BETA_MSG, DISABLE_TAKEOVER_MSG, Found, MismatchKind,
    gather_mismatches, gather_mismatches_at,
};
use kdv_rollout::matcher::NormalizationRule;
use kdv_rollout::{
    FeatureGates, MigrationChecks, ObjectIdentity, ValidationMetrics,
    validate_with_migration_checks,
};
use kdv_runtime::{ErrorList, FieldError};
use prometheus_client::registry::Registry;
use support::*;

/// The gates of Kubernetes 1.`minor` with `settings` applied (a `--feature-gates` value).
fn gates_at(minor: u32, settings: &str) -> FeatureGates {
    let mut g = FeatureGates::for_version(1, minor);
    g.parse(settings).unwrap();
    g
}

/// 1.37 (main) with DeclarativeValidationBeta on or off.
fn gates(beta: bool) -> FeatureGates {
    gates_at(37, &format!("DeclarativeValidationBeta={beta}"))
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

/// Upstream main's `TestValidateDeclarativelyWithMigrationChecks`, at 1.37. Its rows that turn
/// `DeclarativeValidation` off emulate 1.35 in a 1.37 binary; kdv runs 1.35's own runtime
/// there (see `runtime_by_release`), so they are not repeated here.
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
        beta: bool,
        hv: Vec<FieldError>,
        dv_errs: Option<Vec<FieldError>>, // None: panics
        want: Vec<FieldError>,
    }
    let cases = vec![
        Case {
            name: "Feature Enabled -> Enforces Standard",
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
            name: "Feature Enabled, Panics -> Returns InternalError",
            beta: false,
            hv: vec![hv_standard.clone()],
            dv_errs: None,
            want: vec![hv_standard.clone(), panic_err.clone()],
        },
        Case {
            name: "Feature Enabled, InternalError -> Returns InternalError",
            beta: false,
            hv: vec![hv_standard.clone()],
            dv_errs: Some(vec![internal_err.clone()]),
            want: vec![hv_standard.clone(), internal_err.clone()],
        },
        Case {
            name: "Beta Gate Enabled -> Enforces Beta",
            beta: true,
            hv: vec![hv_beta.clone()],
            dv_errs: Some(vec![dv_beta.clone()]),
            want: vec![dv_beta.clone()],
        },
        Case {
            name: "Beta Gate Disabled -> Shadows Beta",
            beta: false,
            hv: vec![hv_beta.clone()],
            dv_errs: Some(vec![dv_beta.clone()]),
            want: vec![hv_beta.clone()],
        },
        Case {
            name: "Beta Gate Enabled, declarative not emitted -> HV kept",
            beta: true,
            hv: vec![hv_beta.clone()],
            dv_errs: Some(vec![]),
            want: vec![hv_beta.clone()],
        },
        Case {
            name: "Beta Gate Enabled, origin-less Forbidden -> HV removed, DV returned",
            beta: true,
            hv: vec![hv_beta_forbidden.clone()],
            dv_errs: Some(vec![dv_beta_forbidden.clone()]),
            want: vec![dv_beta_forbidden.clone()],
        },
        Case {
            name: "Alpha -> Shadows Alpha",
            beta: true,
            hv: vec![hv_alpha.clone()],
            dv_errs: Some(vec![dv_alpha.clone()]),
            want: vec![hv_alpha.clone()],
        },
    ];
    for case in cases {
        let mut cfg = checks(gates(case.beta));
        // Upstream main fails closed on every panic; kdv does so for declarative-native types.
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

#[derive(Clone, Copy, Debug, PartialEq)]
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

/// The covered hand-written twin of `dv_error(level)`, marked with the rule's lifecycle.
fn hv_twin(level: Level) -> FieldError {
    let e = match level {
        Level::Internal => internal("handwritten internal"),
        _ => invalid("spec.replicas", "0", "handwritten").with_origin("minimum"),
    }
    .mark_covered_by_declarative();
    match level {
        Level::Alpha => e.mark_alpha(),
        Level::Beta => e.mark_beta(),
        _ => e,
    }
}

/// A release and gate setting of the runtime table.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Setting {
    /// 1.32: no declarative validation.
    V132,
    /// 1.35 with DeclarativeValidation=false.
    V135Off,
    /// 1.35 defaults (DeclarativeValidation on, Takeover off).
    V135,
    /// 1.35 with DeclarativeValidationTakeover=true.
    V135Takeover,
    /// 1.36 defaults, type not opted in to declarative enforcement.
    V136,
    /// 1.36 defaults, type opted in (`WithDeclarativeEnforcement`).
    V136OptIn,
    /// 1.36, opted in, DeclarativeValidationBeta=false.
    V136OptInBetaOff,
    /// 1.37 defaults.
    V137,
    /// 1.37 with DeclarativeValidationBeta=false.
    V137BetaOff,
}

fn setting_checks(setting: Setting, level: Level) -> MigrationChecks {
    use Setting::*;
    let gates = match setting {
        V132 => gates_at(32, ""),
        V135Off => gates_at(35, "DeclarativeValidation=false"),
        V135 => gates_at(35, ""),
        V135Takeover => gates_at(35, "DeclarativeValidationTakeover=true"),
        V136 | V136OptIn => gates_at(36, ""),
        V136OptInBetaOff => gates_at(36, "DeclarativeValidationBeta=false"),
        V137 => gates(true),
        V137BetaOff => gates(false),
    };
    let mut cfg = checks(gates);
    cfg.declarative_enforcement = matches!(setting, V136OptIn | V136OptInBetaOff);
    cfg.declarative_native = level == Level::Native;
    cfg
}

/// Release × gate setting × rule lifecycle × covered hand-written twin, against what each
/// release's `ValidateDeclarativelyWithMigrationChecks` (or, in 1.33 and 1.34, the strategies'
/// same steps) does: which errors are returned, whether DV ran, which mismatch is reported.
#[test]
fn runtime_by_release() {
    use Level::*;
    use MismatchKind::*;
    use Setting::*;
    const AUTH: &str = AUTHORITATIVE_MSG;
    const BETA: &str = DISABLE_BETA_MSG;
    const TAKE: &str = DISABLE_TAKEOVER_MSG;
    const LEVELS: [Level; 5] = [Alpha, Beta, Standard, Native, Internal];
    // (setting, level, twin) -> (returned sides, DV ran, mismatch)
    type Want = (
        &'static [&'static str],
        bool,
        Option<(MismatchKind, &'static str)>,
    );
    let want = |setting: Setting, level: Level, twin: bool| -> Want {
        let hv: &'static [&'static str] = if twin { &["HV"] } else { &[] };
        // 1.36 types with declarative-native rules enforce as opted-in types do.
        let setting = if setting == V136 && level == Native {
            V136OptIn
        } else {
            setting
        };
        match setting {
            // DV does not run: hand-written validation alone.
            V132 | V135Off => (hv, false, None),
            // HV authoritative; every DV error is compared.
            V135 | V136 => (hv, true, (!twin).then_some((Extra, AUTH))),
            // DV replaces the covered HV errors.
            V135Takeover => (&["DV"], true, (!twin).then_some((Extra, TAKE))),
            // Lifecycle: alpha shadowed, beta per the gate, the rest enforced; only alpha and
            // beta errors are compared, so a covered twin of the others is unmatched.
            V136OptIn | V136OptInBetaOff | V137 | V137BetaOff => {
                let beta = matches!(setting, V136OptIn | V137);
                let rec = if beta { BETA } else { AUTH };
                match (level, twin) {
                    (Alpha, true) => (&["HV"], true, None),
                    (Alpha, false) => (&[], true, Some((Extra, AUTH))),
                    (Beta, true) if beta => (&["DV"], true, None),
                    (Beta, true) => (&["HV"], true, None),
                    (Beta, false) if beta => (&["DV"], true, Some((Extra, BETA))),
                    (Beta, false) => (&[], true, Some((Extra, AUTH))),
                    (_, true) => (&["HV", "DV"], true, Some((Unmatched, rec))),
                    (_, false) => (&["DV"], true, None),
                }
            }
        }
    };
    let settings = [
        V132,
        V135Off,
        V135,
        V135Takeover,
        V136,
        V136OptIn,
        V136OptInBetaOff,
        V137,
        V137BetaOff,
    ];
    let mut rows = 0;
    for setting in settings {
        for level in LEVELS {
            for twin in [true, false] {
                let name = format!("{setting:?} {level:?} twin={twin}");
                let (returned, ran, mismatch) = want(setting, level, twin);
                let cfg = setting_checks(setting, level);
                let hv: ErrorList = if twin { vec![hv_twin(level)] } else { vec![] };
                let called = Cell::new(false);
                let out = validate_with_migration_checks(
                    hv,
                    || {
                        called.set(true);
                        vec![dv_error(level)]
                    },
                    &cfg,
                );
                let sides: Vec<&str> = out
                    .errors
                    .iter()
                    .map(|e| {
                        if e.detail.contains("handwritten") {
                            "HV"
                        } else {
                            "DV"
                        }
                    })
                    .collect();
                assert_eq!(sides, returned, "{name}");
                assert_eq!(called.get(), ran, "{name}");
                let got = out
                    .mismatches
                    .iter()
                    .map(|m| (m.kind, m.recommendation))
                    .next();
                assert_eq!(got, mismatch, "{name}");
                assert!(out.mismatches.len() <= 1, "{name}");
                // Every DV error that ran and was not returned is reported as shadowed.
                let dv_returned = sides.iter().filter(|s| **s == "DV").count();
                assert_eq!(out.shadowed.len(), usize::from(ran) - dv_returned, "{name}");
                // 1.36 and later mark hand-written errors; earlier releases do not.
                let marks = cfg.gates.version() >= (1, 36);
                for e in &out.errors {
                    if e.detail.contains("handwritten") {
                        assert_eq!(e.from_imperative, marks, "{name}");
                    }
                }
                assert_eq!(out.version, cfg.gates.version(), "{name}");
                rows += 1;
            }
        }
    }
    assert_eq!(rows, 90);
}

/// v0.36's `TestValidateDeclarativelyWithMigrationChecks`, its rows with
/// `DeclarativeValidation` on (the others emulate 1.35 in a 1.36 binary).
#[test]
fn validate_declaratively_with_migration_checks_1_36() {
    let hv_standard_covered =
        forbidden("spec.standard", "imperative standard").mark_covered_by_declarative();
    let dv_standard = forbidden("spec.standard", "decStandard");
    let dv_additional = invalid("spec.additional", "decAdditional", "declarative additional");
    let hv_beta_covered = forbidden("spec.beta", "imperative beta")
        .mark_covered_by_declarative()
        .mark_beta();
    let dv_beta = invalid("spec.beta", "decBeta", "declarative beta").mark_beta();
    let hv_alpha = forbidden("spec.alpha", "imperative alpha");
    let dv_alpha = invalid("spec.alpha", "decAlpha", "declarative alpha").mark_alpha();
    let internal_err = internal("internal error");
    // (name, enforcement, beta gate, HV, DV, want)
    type Case = (
        &'static str,
        bool,
        bool,
        Vec<FieldError>,
        Vec<FieldError>,
        Vec<FieldError>,
    );
    let cases: Vec<Case> = vec![
        (
            "Feature Enabled, Not Enforced -> Returns imperative (Shadow Mode)",
            false,
            false,
            vec![hv_standard_covered.clone()],
            vec![dv_standard.clone()],
            vec![hv_standard_covered.clone()],
        ),
        (
            "Feature Enabled, Enforced -> Enforces Standard (HV kept+DV returned, duplicate expected if HV not deleted)",
            true,
            false,
            vec![hv_standard_covered.clone()],
            vec![dv_standard.clone(), dv_additional.clone()],
            vec![
                hv_standard_covered.clone(),
                dv_standard.clone(),
                dv_additional.clone(),
            ],
        ),
        (
            "Feature Enabled, Enforced, InternalError -> Returns InternalError",
            true,
            false,
            vec![hv_standard_covered.clone()],
            vec![internal_err.clone()],
            vec![hv_standard_covered.clone(), internal_err.clone()],
        ),
        (
            "Enforced, Beta Gate Enabled -> Enforces Beta (HV removed, DV returned)",
            true,
            true,
            vec![hv_beta_covered.clone()],
            vec![dv_beta.clone()],
            vec![dv_beta.clone()],
        ),
        (
            "Enforced, Beta Gate Disabled -> Shadows Beta (HV kept, DV hidden)",
            true,
            false,
            vec![hv_beta_covered.clone()],
            vec![dv_beta.clone()],
            vec![hv_beta_covered.clone()],
        ),
        (
            "Enforced, Alpha -> Shadows Alpha (HV kept, DV hidden)",
            true,
            true,
            vec![hv_alpha.clone()],
            vec![dv_alpha.clone()],
            vec![hv_alpha.clone()],
        ),
    ];
    for (name, enforcement, beta, hv, dv, want) in cases {
        let mut cfg = checks(gates_at(36, &format!("DeclarativeValidationBeta={beta}")));
        cfg.declarative_enforcement = enforcement;
        let out = validate_with_migration_checks(hv, move || dv, &cfg);
        assert_eq!(texts(&out.errors), texts(&want), "{name}");
        for (got, want) in out.errors.iter().zip(&want) {
            assert_eq!(got.stability, want.stability, "{name}");
        }
    }
    // v0.36 drops a covered beta HV error by its own mark, with or without a DV twin; main
    // only when an enforced beta DV error matches it.
    let hv = vec![hv_beta_covered.clone()];
    let mut cfg = checks(gates_at(36, ""));
    cfg.declarative_enforcement = true;
    assert!(
        validate_with_migration_checks(hv.clone(), Vec::new, &cfg)
            .errors
            .is_empty()
    );
    let out = validate_with_migration_checks(hv, Vec::new, &checks(gates(true)));
    assert_eq!(texts(&out.errors), texts(&[hv_beta_covered]));
}

/// 1.35's `TestGatherDeclarativeValidationMismatches` (every DV error is a candidate;
/// `takeover` picks the recommendation).
#[test]
fn gather_declarative_validation_mismatches_1_35() {
    let replicas = "spec.replicas";
    let min_ready = "spec.minReadySeconds";
    let nil_invalid =
        |path: &str, detail: &str| err(kdv_runtime::ErrorType::Invalid, path, "<nil>", detail);
    let err_a = nil_invalid(replicas, "regular error A");
    let err_b = invalid(min_ready, "-1", "covered error B").with_origin("minimum");
    let covered_err_b = err_b.clone().mark_covered_by_declarative();
    let err_b_diff_detail =
        invalid(min_ready, "-1", "covered error B - different detail").with_origin("minimum");
    let err_b_diff_path =
        invalid("spec.fakeminReadySeconds", "-1", "covered error B").with_origin("minimum");
    let err_c = nil_invalid(replicas, "covered error C").with_origin("minimum");
    let covered_err_c = err_c.clone().mark_covered_by_declarative();
    let err_c_diff_origin = nil_invalid(replicas, "covered error C").with_origin("maximum");
    let err_d = nil_invalid("spec.selector", "regular error D");
    let rule = NormalizationRule::new("spec.fakeminReadySeconds", "spec.minReadySeconds").unwrap();
    let common = "Unexpected difference between hand written validation and declarative validation error results";
    // (name, HV, DV, takeover, rules, expected fragments; empty: no mismatch)
    type Case = (
        &'static str,
        Vec<FieldError>,
        Vec<FieldError>,
        bool,
        Vec<NormalizationRule>,
        Vec<&'static str>,
    );
    let cases: Vec<Case> = vec![
        (
            "Declarative and imperative return 0 errors - no mismatch",
            vec![],
            vec![],
            false,
            vec![],
            vec![],
        ),
        (
            "Declarative returns multiple errors with different origins, errors match - no mismatch",
            vec![
                err_a.clone(),
                covered_err_b.clone(),
                covered_err_c.clone(),
                err_d.clone(),
            ],
            vec![err_b.clone(), err_c.clone()],
            false,
            vec![],
            vec![],
        ),
        (
            "Declarative returns multiple errors with different origins, errors don't match - mismatch case",
            vec![err_a.clone(), covered_err_b.clone(), covered_err_c.clone()],
            vec![err_b.clone(), err_c_diff_origin.clone()],
            true,
            vec![],
            vec![
                common,
                "unmatched error(s) found",
                "extra error(s) found",
                "replicas",
                "Consider disabling the DeclarativeValidationTakeover feature gate to keep data persisted in etcd consistent with prior versions of Kubernetes",
            ],
        ),
        (
            "Declarative and imperative return exactly 1 error, errors match - no mismatch",
            vec![covered_err_b.clone()],
            vec![err_b.clone()],
            false,
            vec![],
            vec![],
        ),
        (
            "Declarative and imperative exactly 1 error, errors don't match - mismatch",
            vec![covered_err_b.clone()],
            vec![err_c.clone()],
            false,
            vec![],
            vec![
                common,
                "unmatched error(s) found",
                "minReadySeconds",
                "extra error(s) found",
                "replicas",
                "This difference should not affect system operation since hand written validation is authoritative",
            ],
        ),
        (
            "Declarative returns 0 errors, imperative returns 1 covered error - mismatch",
            vec![covered_err_b.clone()],
            vec![],
            true,
            vec![],
            vec![
                common,
                "unmatched error(s) found",
                "minReadySeconds",
                "Consider disabling the DeclarativeValidationTakeover feature gate to keep data persisted in etcd consistent with prior versions of Kubernetes",
            ],
        ),
        (
            "Declarative returns 0 errors, imperative returns 1 uncovered error - no mismatch",
            vec![err_b.clone()],
            vec![],
            false,
            vec![],
            vec![],
        ),
        (
            "Declarative returns 1 error, imperative returns 0 error - mismatch",
            vec![],
            vec![err_b.clone()],
            false,
            vec![],
            vec![
                common,
                "extra error(s) found",
                "minReadySeconds",
                "This difference should not affect system operation since hand written validation is authoritative",
            ],
        ),
        (
            "Declarative returns 1 error, imperative returns 3 matching errors  - no mismatch",
            vec![covered_err_b.clone()],
            vec![err_b.clone(), err_b.clone(), err_b_diff_detail],
            false,
            vec![],
            vec![],
        ),
        (
            "Field normalization, errors don't match - mismatch",
            vec![covered_err_b.clone()],
            vec![err_b_diff_path.clone()],
            false,
            vec![rule.clone()],
            vec![],
        ),
    ];
    for (name, hv, dv, takeover, rules, fragments) in cases {
        let dv_refs: Vec<&FieldError> = dv.iter().collect();
        let lines: Vec<String> =
            gather_mismatches_at((1, 35), &hv, &dv_refs, takeover, &rules, false)
                .iter()
                .map(Found::log_line)
                .collect();
        let joined = lines.join(" ");
        for f in &fragments {
            assert!(joined.contains(f), "{name}: {f:?} not in {lines:?}");
        }
        assert_eq!(lines.is_empty(), fragments.is_empty(), "{name}: {lines:?}");
    }
    // 1.33 and 1.34 compare raw paths: the normalization rule does not apply.
    let dv = [&err_b_diff_path];
    let hv = [covered_err_b.clone()];
    assert_eq!(
        gather_mismatches_at((1, 34), &hv, &dv, false, &[rule], false).len(),
        2
    );
}

/// What differs between the releases' matching rules, beyond the recommendation.
#[test]
fn mismatch_rules_by_release() {
    let covered = |detail: &str| {
        invalid("spec.x", "1", detail)
            .with_origin("minimum")
            .mark_covered_by_declarative()
    };
    let dv = invalid("spec.x", "1", "dv").with_origin("minimum");
    let kinds = |version, hv: &[FieldError], dv: &[&FieldError], sc| {
        gather_mismatches_at(version, hv, dv, false, &[], sc)
            .iter()
            .map(|f| f.kind)
            .collect::<Vec<_>>()
    };
    // 1.33–1.35 keep HV errors that differ in detail (exact dedupe) and let one DV error
    // match only the first of them; 1.36 dedupes them by type, field and origin.
    let hv = [covered("a"), covered("b")];
    assert_eq!(
        kinds((1, 35), &hv, &[&dv], false),
        [MismatchKind::Unmatched]
    );
    assert_eq!(kinds((1, 36), &hv, &[&dv], false), []);
    assert_eq!(kinds((1, 37), &hv, &[&dv], false), []);
    // Alpha errors are HV-authoritative from 1.36; in 1.35 Takeover decides.
    let alpha = [covered("a").mark_alpha()];
    let rec =
        |version| gather_mismatches_at(version, &alpha, &[], true, &[], false)[0].recommendation;
    assert_eq!(rec((1, 35)), DISABLE_TAKEOVER_MSG);
    assert_eq!(rec((1, 36)), AUTHORITATIVE_MSG);
    assert_eq!(rec((1, 37)), AUTHORITATIVE_MSG);
    // Only 1.37 honors ShortCircuitMismatch.
    let hv = [required("spec.x.kind", "v").mark_covered_by_declarative()];
    let sc = short_circuit(invalid("spec.x", "v", "immutable").with_origin("immutable"));
    assert_eq!(
        kinds((1, 36), &hv, &[&sc], true),
        [MismatchKind::Unmatched, MismatchKind::Extra]
    );
    assert_eq!(kinds((1, 37), &hv, &[&sc], true), [MismatchKind::Extra]);
}

/// Panics at each release: fail closed with Takeover (1.33–1.35), for enforcing types (1.36),
/// for declarative-native types (1.37, kdv); fail open otherwise. 1.33 and 1.34 count on the
/// unlabeled counters only.
#[test]
fn panics_by_release() {
    kdv_rollout::silence_caught_panics();
    // (setting, type with declarative-native rules, fail closed)
    let rows = [
        (Setting::V135, false, false),
        (Setting::V135Takeover, false, true),
        (Setting::V136, false, false),
        (Setting::V136, true, true),
        (Setting::V136OptIn, false, true),
        (Setting::V137, false, false),
        (Setting::V137, true, true),
    ];
    let panic_text = "<nil>: Internal error: panic during declarative validation: boom";
    for (setting, native, closed) in rows {
        let name = format!("{setting:?} native={native}");
        let mut cfg = setting_checks(setting, Level::Standard);
        cfg.declarative_native = native;
        let mut registry = Registry::default();
        let metrics = ValidationMetrics::register(&mut registry);
        cfg.metrics = Some(metrics.clone());
        let hv = vec![invalid("spec.replicas", "0", "hv").with_origin("minimum")];
        let out = validate_with_migration_checks(hv, || -> ErrorList { panic!("boom") }, &cfg);
        let p = out.panic.clone().expect("caught");
        assert_eq!(p.fail_closed, closed, "{name}");
        assert_eq!(p.log_line(), "panic during declarative validation: boom");
        let mut want = vec!["spec.replicas: Invalid value: \"0\": hv"];
        if closed {
            want.push(panic_text);
        }
        assert_eq!(texts(&out.errors), want, "{name}");
        assert_eq!(metrics.panic_total(), 1, "{name}");
        // With Takeover the internal error is compared like any DV error.
        let extra = out
            .mismatches
            .iter()
            .any(|m| m.error.to_string() == panic_text);
        assert_eq!(extra, setting == Setting::V135Takeover, "{name}");
    }
    // 1.34 moves the unlabeled counter only.
    let mut cfg = checks(gates_at(34, ""));
    let mut registry = Registry::default();
    let metrics = ValidationMetrics::register(&mut registry);
    cfg.metrics = Some(metrics.clone());
    let hv = vec![
        invalid("spec.replicas", "0", "hv")
            .with_origin("minimum")
            .mark_covered_by_declarative(),
    ];
    let out = validate_with_migration_checks(hv, || -> ErrorList { panic!("boom") }, &cfg);
    assert_eq!(out.mismatches.len(), 1);
    assert_eq!(metrics.panic_total(), 1);
    assert_eq!(metrics.mismatch_total(), 1);
    let mut text = String::new();
    prometheus_client::encoding::text::encode(&mut text, &registry).unwrap();
    assert!(!text.contains("validation_identifier"), "{text}");
}

#[test]
fn mismatch_records_carry_identity_and_lists() {
    let cfg = checks(gates(true));
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
    let mut cfg = checks(gates(true));
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
    let mut cfg = checks(gates(true));
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
