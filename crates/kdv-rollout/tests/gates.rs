//! Feature gates: upstream's versioned specs for every gate of kube-apiserver 1.30–1.37 and
//! component-base's `--feature-gates` texts at each release.

use kdv_rollout::gates::{
    Component, FeatureGates, Gate, GateSpec, KNOWN_RELEASES, PreRelease, parse_version,
};

const fn spec(minor: u32, default: bool, pre_release: PreRelease, lock: bool) -> GateSpec {
    GateSpec {
        version: (1, minor),
        default,
        pre_release,
        lock_to_default: lock,
    }
}

/// The three gates of declarative validation keep the specs kdv had before the table.
#[test]
fn declarative_validation_specs_are_unchanged() {
    use PreRelease::*;
    assert_eq!(
        Gate::DeclarativeValidation.specs(),
        [spec(33, true, Beta, false), spec(36, true, Ga, true)]
    );
    assert_eq!(
        Gate::DeclarativeValidationBeta.specs(),
        [spec(36, true, Beta, false)]
    );
    assert_eq!(
        Gate::DeclarativeValidationTakeover.specs(),
        [
            spec(33, false, Beta, false),
            spec(36, false, Deprecated, false),
            spec(37, false, Deprecated, true),
        ]
    );
    for gate in Gate::ALL {
        assert_eq!(Gate::from_name(gate.name()), Some(gate));
        let state = FeatureGates::for_version(1, 36).state(gate).unwrap();
        assert_eq!(state.component, Component::Apiserver, "{gate}");
    }
}

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
        let gates = FeatureGates::for_version(v.0, v.1);
        assert_eq!(gates.state(gate).unwrap().spec, spec, "{gate} at {v:?}");
        // A PreAlpha gate is not a gate of the release.
        assert_eq!(
            gates.enabled(gate),
            (stage != PreAlpha).then_some(default),
            "{gate} at {v:?}"
        );
    }
    assert_eq!(FeatureGates::default().version(), (1, 36));
    assert!(FeatureGates::default().beta_enforced());
    assert!(FeatureGates::default().compares());
    assert!(!FeatureGates::for_version(1, 35).beta_enforced());
    assert!(!FeatureGates::for_version(1, 32).compares());
}

/// Well-known gates of every component at several releases: (version, name, stage, default,
/// locked), or `None` when kube-apiserver does not recognise the gate at that version.
#[test]
fn spot_checks_of_well_known_gates() {
    use PreRelease::*;
    type Row = (
        (u32, u32),
        &'static str,
        Option<(PreRelease, bool, bool)>,
        Component,
    );
    let k = Component::Kubernetes;
    let a = Component::Apiserver;
    let rows: &[Row] = &[
        // Kubernetes gates, including the ones +k8s:ifEnabled options name.
        ((1, 30), "HPAScaleToZero", Some((Alpha, false, false)), k),
        ((1, 36), "HPAScaleToZero", Some((Alpha, false, false)), k),
        ((1, 37), "HPAScaleToZero", Some((Beta, true, false)), k),
        (
            (1, 35),
            "TopologyAwareWorkloadScheduling",
            Some((PreAlpha, false, false)),
            k,
        ),
        (
            (1, 36),
            "TopologyAwareWorkloadScheduling",
            Some((Alpha, false, false)),
            k,
        ),
        (
            (1, 36),
            "CompositePodGroup",
            Some((PreAlpha, false, false)),
            k,
        ),
        ((1, 37), "CompositePodGroup", Some((Alpha, false, false)), k),
        (
            (1, 37),
            "DRAPartitionableDevicesType",
            Some((Alpha, false, false)),
            k,
        ),
        (
            (1, 36),
            "WorkloadAwarePreemption",
            Some((Alpha, false, false)),
            k,
        ),
        ((1, 37), "WorkloadAwarePreemption", None, k),
        ((1, 37), "WorkloadWithJob", Some((Alpha, false, false)), k),
        (
            (1, 37),
            "InPlacePodVerticalScalingSchedulerPreemption",
            Some((Alpha, false, false)),
            k,
        ),
        (
            (1, 33),
            "InPlacePodVerticalScaling",
            Some((Beta, true, false)),
            k,
        ),
        (
            (1, 35),
            "InPlacePodVerticalScaling",
            Some((Ga, true, true)),
            k,
        ),
        (
            (1, 34),
            "DynamicResourceAllocation",
            Some((Ga, true, false)),
            k,
        ),
        (
            (1, 35),
            "DynamicResourceAllocation",
            Some((Ga, true, true)),
            k,
        ),
        ((1, 33), "SidecarContainers", Some((Ga, true, true)), k),
        ((1, 36), "SidecarContainers", Some((Ga, true, true)), k),
        ((1, 37), "SidecarContainers", None, k),
        ((1, 30), "JobReadyPods", Some((Ga, true, true)), k),
        ((1, 31), "JobReadyPods", None, k),
        ((1, 32), "AppArmor", Some((Ga, true, true)), k),
        ((1, 33), "AppArmor", None, k),
        (
            (1, 36),
            "CustomCPUCFSQuotaPeriod",
            Some((Ga, true, false)),
            k,
        ),
        ((1, 36), "CPUCFSQuotaPeriod", None, k),
        (
            (1, 36),
            "RuntimeClassInImageCriApi",
            Some((Alpha, false, false)),
            k,
        ),
        // k8s.io/apiserver.
        ((1, 30), "KMSv1", Some((Deprecated, false, false)), a),
        ((1, 33), "WatchList", Some((Beta, false, false)), a),
        ((1, 34), "WatchList", Some((Beta, true, false)), a),
        ((1, 36), "APIServerTracing", Some((Ga, true, true)), a),
        ((1, 37), "APIServerTracing", None, a),
        ((1, 31), "APIPriorityAndFairness", None, a),
        (
            (1, 32),
            "MutatingAdmissionPolicy",
            Some((Alpha, false, false)),
            a,
        ),
        (
            (1, 36),
            "MutatingAdmissionPolicy",
            Some((Ga, true, false)),
            a,
        ),
        // The others kube-apiserver registers.
        (
            (1, 36),
            "CRDObservedGenerationTracking",
            Some((Beta, true, false)),
            Component::ApiextensionsApiserver,
        ),
        (
            (1, 36),
            "ContextualLogging",
            Some((Beta, true, false)),
            Component::ComponentBaseLogs,
        ),
        (
            (1, 34),
            "ComponentSLIs",
            Some((Ga, true, true)),
            Component::ComponentBaseMetrics,
        ),
        (
            (1, 35),
            "ComponentSLIs",
            None,
            Component::ComponentBaseMetrics,
        ),
        (
            (1, 37),
            "NativeHistograms",
            Some((Beta, true, false)),
            Component::ComponentBaseMetrics,
        ),
        (
            (1, 36),
            "ComponentStatusz",
            Some((Beta, true, false)),
            Component::ComponentBaseZpages,
        ),
        (
            (1, 36),
            "InOrderInformers",
            Some((Ga, true, true)),
            Component::ClientGo,
        ),
        (
            (1, 37),
            "CloudControllerManagerWebhook",
            Some((Alpha, false, false)),
            Component::ControllerManager,
        ),
    ];
    for &(v, name, want, component) in rows {
        let gates = FeatureGates::for_version(v.0, v.1);
        let got = gates.state(name);
        assert_eq!(
            got.map(|s| (s.spec.pre_release, s.spec.default, s.spec.lock_to_default)),
            want,
            "{name} at {v:?}"
        );
        if let Some(s) = got {
            assert_eq!(s.component, component, "{name}");
            assert_eq!(
                gates.enabled(name),
                (s.spec.pre_release != PreAlpha).then_some(s.spec.default),
                "{name} at {v:?}"
            );
        } else {
            assert_eq!(gates.enabled(name), None, "{name} at {v:?}");
            let err = FeatureGates::for_version(v.0, v.1)
                .set(name, true)
                .unwrap_err();
            assert_eq!(err.message(), format!("unrecognized feature gate: {name}"));
        }
    }
}

/// The table is complete enough to be useful, and consistent: at every release the defaults
/// satisfy the dependencies, and every gate accepts its own default.
#[test]
fn every_release_is_consistent() {
    for minor in KNOWN_RELEASES {
        let gates = FeatureGates::for_version(1, minor);
        let known: Vec<_> = gates.gates().collect();
        assert!(known.len() > 240, "1.{minor}: {}", known.len());
        let mut g = gates.clone();
        assert_eq!(g.parse(""), Ok(vec![]), "1.{minor}");
        for state in known {
            if state.spec.pre_release == PreRelease::PreAlpha {
                continue;
            }
            let mut g = gates.clone();
            assert!(
                g.set(state.name, state.spec.default).is_ok(),
                "{} at 1.{minor}",
                state.name
            );
            if state.spec.lock_to_default {
                assert_eq!(
                    g.set(state.name, !state.spec.default)
                        .unwrap_err()
                        .message(),
                    format!(
                        "cannot set feature gate {} to {}, feature is locked to {}",
                        state.name, !state.spec.default, state.spec.default
                    )
                );
            }
        }
    }
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
        // 1.35 added the minimum compatibility version to the PreAlpha error.
        (
            (1, 35),
            "DeclarativeValidationBeta=true",
            "cannot set feature gate DeclarativeValidationBeta to true, feature is PreAlpha at emulated version 1.35, min compatibility version 1.34",
        ),
        (
            (1, 34),
            "DeclarativeValidationBeta=true",
            "cannot set feature gate DeclarativeValidationBeta to true, feature is PreAlpha at emulated version 1.34",
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
            "cannot set feature gate DeclarativeValidationBeta to true, feature is PreAlpha at emulated version 1.35, min compatibility version 1.34",
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
        // Any gate of the release: locked GA, PreAlpha, removed.
        (
            (1, 36),
            "ImageVolume=false",
            "cannot set feature gate ImageVolume to false, feature is locked to true",
        ),
        (
            (1, 36),
            "CompositePodGroup=true",
            "cannot set feature gate CompositePodGroup to true, feature is PreAlpha at emulated version 1.36, min compatibility version 1.35",
        ),
        (
            (1, 33),
            "JobReadyPods=true",
            "unrecognized feature gate: JobReadyPods",
        ),
        // 1.30 stops at the first refused entry; later releases report them all.
        (
            (1, 30),
            "PodSchedulingReadiness=false,CPUManager=false",
            "cannot set feature gate PodSchedulingReadiness to false, feature is locked to true",
        ),
        (
            (1, 31),
            "PodSchedulingReadiness=false,CPUManager=false",
            "[cannot set feature gate PodSchedulingReadiness to false, feature is locked to true, cannot set feature gate CPUManager to false, feature is locked to true]",
        ),
        // From 1.35, dependencies (the dependency's list is sorted).
        (
            (1, 36),
            "WorkloadAwarePreemption=true",
            "WorkloadAwarePreemption is enabled, but depends on features that are disabled: [GangScheduling]",
        ),
        (
            (1, 37),
            "DRAPartitionableDevicesType=true,DRAPartitionableDevices=false",
            "DRAPartitionableDevicesType is enabled, but depends on features that are disabled: [DRAPartitionableDevices DRAResourcePoolStatus]",
        ),
        ((1, 35), "DeclarativeValidation=false", ""),
    ];
    for &(v, value, want) in cases {
        let mut gates = FeatureGates::for_version(v.0, v.1);
        let before = gates.clone();
        if want.is_empty() {
            assert!(gates.parse(value).is_ok(), "{value} at {v:?}");
            continue;
        }
        let err = gates.parse(value).expect_err(value);
        assert_eq!(err.to_string(), want, "{value} at {v:?}");
        assert_eq!(gates, before, "{value}: all or nothing");
    }
}

#[test]
fn dependencies_are_checked_from_1_35() {
    // 1.34 has no dependency validation; 1.35 refuses a default-on dependant whose
    // dependency is turned off.
    let value = "GracefulNodeShutdown=false";
    assert!(FeatureGates::for_version(1, 34).parse(value).is_ok());
    let mut g = FeatureGates::for_version(1, 35);
    assert_eq!(
        g.parse(value).unwrap_err().message(),
        "[GracefulNodeShutdownBasedOnPodPriority is enabled, but depends on features that are disabled: [GracefulNodeShutdown], WindowsGracefulNodeShutdown is enabled, but depends on features that are disabled: [GracefulNodeShutdown]]"
    );
    assert_eq!(
        g.parse("DynamicResourceAllocation=true,DRAPartitionableDevices=true")
            .map(|w| w.len()),
        Ok(1),
        "GA warning only"
    );
    let mut g = FeatureGates::for_version(1, 36);
    g.parse("GenericWorkload=true,TopologyAwareWorkloadScheduling=true")
        .unwrap();
    assert_eq!(g.enabled("TopologyAwareWorkloadScheduling"), Some(true));
    // Turning the dependency off later is refused too.
    assert_eq!(
        g.parse("GenericWorkload=false").unwrap_err().message(),
        "TopologyAwareWorkloadScheduling is enabled, but depends on features that are disabled: [GenericWorkload]"
    );
    assert_eq!(g.enabled("GenericWorkload"), Some(true));
}

#[test]
fn all_alpha_and_all_beta() {
    let mut g = FeatureGates::for_version(1, 36);
    assert_eq!(g.enabled("AllAlpha"), Some(false));
    g.parse("AllBeta=false,DeclarativeValidationBeta=true")
        .unwrap();
    assert_eq!(g.enabled("AllBeta"), Some(false));
    // Explicit entries win over AllBeta; other Beta gates follow it.
    assert_eq!(g.enabled("DeclarativeValidationBeta"), Some(true));
    assert_eq!(g.enabled("StrictIPCIDRValidation"), Some(false));
    assert_eq!(g.enabled("HPAScaleToZero"), Some(false));
    // AllAlpha=true turns on Alpha gates, whose dependencies must then hold.
    let mut g = FeatureGates::for_version(1, 36);
    g.parse("AllAlpha=true").unwrap();
    assert_eq!(g.enabled("HPAScaleToZero"), Some(true));
    assert_eq!(g.enabled("TopologyAwareWorkloadScheduling"), Some(true));
    assert_eq!(g.enabled("CompositePodGroup"), None, "PreAlpha in 1.36");
    let mut g = FeatureGates::for_version(1, 37);
    assert_eq!(
        g.parse("AllAlpha=true").unwrap_err().message(),
        "[CompositePodGroup is enabled, but depends on features that are disabled: [GenericWorkload], DRAWorkloadResourceClaims is enabled, but depends on features that are disabled: [GenericWorkload], PodGroupPreemptionPolicy is enabled, but depends on features that are disabled: [GenericWorkload], TopologyAwareWorkloadScheduling is enabled, but depends on features that are disabled: [GenericWorkload], WorkloadWithJob is enabled, but depends on features that are disabled: [GenericWorkload]]"
    );
    g.parse("AllAlpha=true,AllBeta=true").unwrap();
    assert_eq!(g.enabled("GenericWorkload"), Some(true));
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
    assert_eq!(g.enabled(Gate::DeclarativeValidationTakeover), Some(false));

    // 1.35: DeclarativeValidation and Takeover are Beta (settable, no warning), Takeover is
    // honored and depends on DeclarativeValidation.
    let mut g = FeatureGates::for_version(1, 35);
    let w = g.parse("DeclarativeValidationTakeover=1").unwrap();
    assert_eq!(w, Vec::<String>::new());
    assert!(g.takeover());
    assert_eq!(g.enabled(Gate::DeclarativeValidationTakeover), Some(true));
    assert_eq!(
        g.parse("DeclarativeValidation=F").unwrap_err().message(),
        "DeclarativeValidationTakeover is enabled, but depends on features that are disabled: [DeclarativeValidation]"
    );
    let mut g = FeatureGates::for_version(1, 35);
    g.parse("DeclarativeValidation=F").unwrap();
    assert!(!g.compares());

    // Any gate: GA and deprecated warnings.
    let mut g = FeatureGates::for_version(1, 36);
    assert_eq!(
        g.parse("KMSv1=true,ImageVolume=true").unwrap(),
        [
            "Setting deprecated feature gate KMSv1=true. It will be removed in a future release.",
            "Setting GA feature gate ImageVolume=true. It will be removed in a future release.",
        ]
    );
    assert_eq!(g.enabled("KMSv1"), Some(true));
    assert!(g.state("KMSv1").unwrap().explicit);
    assert!(!g.state("HPAScaleToZero").unwrap().explicit);

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
