//! The runtime of each release and the CLI's disposition of declarative errors (no
//! hand-written validation): release × gate setting × rule lifecycle.

mod support;

use kdv_rollout::{Disposition, FeatureGates, Semantics, disposition, partition_enforced};
use kdv_runtime::FieldError;
use support::*;

#[test]
fn runtime_of_each_release() {
    for (minor, want) in [
        (30, Semantics::NoDeclarative),
        (32, Semantics::NoDeclarative),
        (33, Semantics::Takeover),
        (35, Semantics::Takeover),
        (36, Semantics::OptIn),
        (37, Semantics::Lifecycle),
        (40, Semantics::Lifecycle),
    ] {
        assert_eq!(Semantics::of((1, minor)), want, "1.{minor}");
        assert_eq!(FeatureGates::for_version(1, minor).semantics(), want);
    }
}

fn error(level: &str) -> FieldError {
    let e = invalid("spec.replicas", "0", "declarative").with_origin("minimum");
    match level {
        "alpha" => e.mark_alpha(),
        "beta" => e.mark_beta(),
        "native" => {
            let mut e = e;
            e.declarative_native = true;
            e
        }
        "internal" => internal("declarative internal"),
        _ => e,
    }
}

#[test]
fn dispositions_by_release_and_gates() {
    use Disposition::*;
    // (release, --feature-gates, [standard, native, internal, beta, alpha])
    let table: &[(u32, &str, [Disposition; 5])] = &[
        // No declarative validation in the server: DV stands in for the HV it mirrors.
        (32, "", [Enforced, Enforced, Enforced, Shadowed, Shadowed]),
        (35, "DeclarativeValidation=false", [Off, Off, Off, Off, Off]),
        // The server returns HV's errors, which DV mirrors; DeclarativeValidationBeta does
        // not exist, so beta rules are shadowed.
        (35, "", [Enforced, Enforced, Enforced, Shadowed, Shadowed]),
        (
            33,
            "DeclarativeValidationTakeover=true",
            [Enforced, Enforced, Enforced, Enforced, Enforced],
        ),
        (
            35,
            "DeclarativeValidationTakeover=true",
            [Enforced, Enforced, Enforced, Enforced, Enforced],
        ),
        (36, "", [Enforced, Enforced, Enforced, Enforced, Shadowed]),
        (
            36,
            "DeclarativeValidationBeta=false",
            [Enforced, Enforced, Enforced, Shadowed, Shadowed],
        ),
        // Takeover is deprecated and ignored from 1.36.
        (
            36,
            "DeclarativeValidationTakeover=true",
            [Enforced, Enforced, Enforced, Enforced, Shadowed],
        ),
        (37, "", [Enforced, Enforced, Enforced, Enforced, Shadowed]),
        (
            37,
            "DeclarativeValidationBeta=false",
            [Enforced, Enforced, Enforced, Shadowed, Shadowed],
        ),
    ];
    for &(minor, settings, want) in table {
        let mut gates = FeatureGates::for_version(1, minor);
        gates.parse(settings).unwrap();
        let levels = ["standard", "native", "internal", "beta", "alpha"];
        let got: Vec<Disposition> = levels
            .iter()
            .map(|l| disposition(&error(l), &gates))
            .collect();
        assert_eq!(got, want, "1.{minor} {settings:?}");
        // partition_enforced: enforced and shadowed in order; Off in neither.
        let errs: Vec<FieldError> = levels.iter().map(|l| error(l)).collect();
        let (enforced, shadowed) = partition_enforced(errs, &gates);
        assert_eq!(
            enforced.len(),
            want.iter().filter(|d| **d == Enforced).count()
        );
        assert_eq!(
            shadowed.len(),
            want.iter().filter(|d| **d == Shadowed).count()
        );
    }
}
