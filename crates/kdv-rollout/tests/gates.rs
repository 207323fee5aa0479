//! Feature gates: upstream's versioned specs and component-base's `--feature-gates` texts.

use kdv_rollout::gates::{FeatureGates, Gate, PreRelease, parse_version};

#[test]
fn specs_per_version() {
    use PreRelease::*;
    // (version, gate, enabled by default, stage, locked) — kube_features.go.
    type Row = ((u32, u32), Gate, bool, PreRelease, bool);
    let table: &[Row] = &[
        ((1, 32), Gate::DeclarativeValidation, false, PreAlpha, false),
        ((1, 33), Gate::DeclarativeValidation, true, Beta, false),
        ((1, 35), Gate::DeclarativeValidation, true, Beta, false),
        ((1, 36), Gate::DeclarativeValidation, true, Ga, true),
        ((1, 37), Gate::DeclarativeValidation, true, Ga, true),
        (
            (1, 33),
            Gate::DeclarativeValidationBeta,
            false,
            PreAlpha,
            false,
        ),
        (
            (1, 35),
            Gate::DeclarativeValidationBeta,
            false,
            PreAlpha,
            false,
        ),
        ((1, 36), Gate::DeclarativeValidationBeta, true, Beta, false),
        ((1, 37), Gate::DeclarativeValidationBeta, true, Beta, false),
        (
            (1, 33),
            Gate::DeclarativeValidationTakeover,
            false,
            Beta,
            false,
        ),
        (
            (1, 35),
            Gate::DeclarativeValidationTakeover,
            false,
            Beta,
            false,
        ),
        (
            (1, 36),
            Gate::DeclarativeValidationTakeover,
            false,
            Deprecated,
            false,
        ),
        (
            (1, 37),
            Gate::DeclarativeValidationTakeover,
            false,
            Deprecated,
            true,
        ),
    ];
    for &(v, gate, default, stage, locked) in table {
        let spec = gate.spec_at(v);
        assert_eq!(spec.default, default, "{gate} at {v:?}");
        assert_eq!(spec.pre_release, stage, "{gate} at {v:?}");
        assert_eq!(spec.lock_to_default, locked, "{gate} at {v:?}");
        assert_eq!(FeatureGates::for_version(v.0, v.1).enabled(gate), default);
    }
    assert_eq!(FeatureGates::default().version(), (1, 36));
    assert!(FeatureGates::default().beta_enforced());
    assert!(FeatureGates::default().compares());
    assert!(!FeatureGates::for_version(1, 35).beta_enforced());
}

#[test]
fn parse_errors_have_component_base_texts() {
    let cases: &[((u32, u32), &str, &str)] = &[
        (
            (1, 36),
            "DeclarativeValidation=false",
            "cannot set feature gate DeclarativeValidation to false, feature is locked to true",
        ),
        (
            (1, 37),
            "DeclarativeValidationTakeover=true",
            "cannot set feature gate DeclarativeValidationTakeover to true, feature is locked to false",
        ),
        (
            (1, 35),
            "DeclarativeValidationBeta=true",
            "cannot set feature gate DeclarativeValidationBeta to true, feature is PreAlpha at emulated version 1.35",
        ),
        ((1, 36), "Foo=true", "unrecognized feature gate: Foo"),
        (
            (1, 36),
            "DeclarativeValidationBeta",
            "missing bool value for DeclarativeValidationBeta",
        ),
        (
            (1, 36),
            " DeclarativeValidationBeta = maybe ",
            "invalid value of DeclarativeValidationBeta=maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax",
        ),
        (
            (1, 35),
            "DeclarativeValidationBeta=true,DeclarativeValidation=false,DeclarativeValidationTakeover=true",
            "cannot set feature gate DeclarativeValidationBeta to true, feature is PreAlpha at emulated version 1.35",
        ),
        (
            (1, 37),
            "DeclarativeValidation=false,DeclarativeValidationTakeover=true",
            "[cannot set feature gate DeclarativeValidation to false, feature is locked to true, cannot set feature gate DeclarativeValidationTakeover to true, feature is locked to false]",
        ),
        // An unknown gate stops at once, even after refused entries.
        (
            (1, 36),
            "DeclarativeValidation=false,Nope=true",
            "unrecognized feature gate: Nope",
        ),
    ];
    for &(v, value, want) in cases {
        let mut gates = FeatureGates::for_version(v.0, v.1);
        let before = gates.clone();
        let err = gates.parse(value).expect_err(value);
        assert_eq!(err.to_string(), want, "{value}");
        assert_eq!(gates, before, "{value}: all or nothing");
    }
}

#[test]
fn warnings_and_values() {
    let mut g = FeatureGates::default();
    let w = g
        .parse("DeclarativeValidation=true,,DeclarativeValidationBeta=false,DeclarativeValidationTakeover=false")
        .unwrap();
    assert_eq!(
        w,
        [
            "Setting GA feature gate DeclarativeValidation=true. It will be removed in a future release.",
            "Setting deprecated feature gate DeclarativeValidationTakeover=false. It will be removed in a future release.",
            "DeclarativeValidationTakeover is not honored: declarative validation follows the lifecycle prefixes (+k8s:alpha, +k8s:beta) and DeclarativeValidationBeta",
        ]
    );
    assert!(!g.beta_enforced());
    assert!(g.compares());
    assert!(!g.enabled(Gate::DeclarativeValidationTakeover));

    // 1.35: DeclarativeValidation is Beta (settable, no warning); Takeover is Beta and ignored.
    let mut g = FeatureGates::for_version(1, 35);
    let w = g
        .parse("DeclarativeValidation=F,DeclarativeValidationTakeover=1")
        .unwrap();
    assert_eq!(
        w,
        [
            "DeclarativeValidationTakeover is not honored: declarative validation follows the lifecycle prefixes (+k8s:alpha, +k8s:beta) and DeclarativeValidationBeta"
        ]
    );
    assert!(!g.compares());
    assert!(g.enabled(Gate::DeclarativeValidationTakeover));

    // A later entry wins; set() as one entry.
    let mut g = FeatureGates::default();
    g.parse("DeclarativeValidationBeta=false,DeclarativeValidationBeta=true")
        .unwrap();
    assert!(g.beta_enforced());
    assert_eq!(
        g.set("DeclarativeValidationBeta", false).unwrap(),
        Vec::<String>::new()
    );
    assert!(!g.beta_enforced());
    assert_eq!(
        g.set("X", true).unwrap_err().message(),
        "unrecognized feature gate: X"
    );
    assert_eq!(parse_version("1.34"), Some((1, 34)));
}
