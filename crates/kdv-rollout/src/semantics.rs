//! What the declarative-validation gates mean at each Kubernetes release (KEP-5073), and what
//! a tool without hand-written validation (kdv's CLI) reports for a declarative error.
//!
//! | release | runtime ([`Semantics`]) |
//! |---|---|
//! | before 1.33 | no declarative validation in the API server |
//! | 1.33–1.35 | `DeclarativeValidation` runs declarative validation (DV) beside hand-written validation (HV) and compares them; `DeclarativeValidationTakeover` returns DV's errors in place of the covered HV ones |
//! | 1.36 | DV runs and is compared; types that opt in (`WithDeclarativeEnforcement`) enforce DV by lifecycle (`+k8s:alpha` shadowed, `+k8s:beta` with `DeclarativeValidationBeta`, standard always), the others keep HV authoritative |
//! | 1.37 (main) and later | every type enforces DV by lifecycle |
//!
//! [`disposition`] is the CLI's reading of the same table, where no hand-written validation
//! exists: a DV error is *enforced* (reported as an error) when the API server would refuse
//! the object for it, whether through DV or through the HV check DV mirrors; *shadowed* (a
//! warning) when DV is not trusted to mirror HV (`+k8s:alpha`, `+k8s:beta` without
//! `DeclarativeValidationBeta`); *off* (not reported) when declarative validation is off.
//!
//! | release, gates | standard, declarative-native, internal | `+k8s:beta` | `+k8s:alpha` |
//! |---|---|---|---|
//! | before 1.33 | enforced | shadowed | shadowed |
//! | 1.33–1.35, `DeclarativeValidation=false` | off | off | off |
//! | 1.33–1.35, Takeover off (default) | enforced | shadowed | shadowed |
//! | 1.33–1.35, Takeover on | enforced | enforced | enforced |
//! | 1.36 and later | enforced | enforced iff `DeclarativeValidationBeta` | shadowed |

use kdv_runtime::{ErrorList, ErrorType, FieldError};

use crate::gates::FeatureGates;

/// The declarative-validation runtime of a Kubernetes release.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Semantics {
    /// Before 1.33: API servers run no declarative validation.
    NoDeclarative,
    /// 1.33–1.35: `DeclarativeValidation` runs and compares DV; `DeclarativeValidationTakeover`
    /// makes it authoritative.
    Takeover,
    /// 1.36: DV is compared; types that opt in enforce it by lifecycle.
    OptIn,
    /// 1.37 (main) and later: every type enforces DV by lifecycle.
    Lifecycle,
}

impl Semantics {
    /// The runtime of Kubernetes `version` (major, minor).
    pub fn of(version: (u32, u32)) -> Semantics {
        match version {
            v if v < (1, 33) => Semantics::NoDeclarative,
            v if v < (1, 36) => Semantics::Takeover,
            (1, 36) => Semantics::OptIn,
            _ => Semantics::Lifecycle,
        }
    }
}

impl FeatureGates {
    /// The declarative-validation runtime of this version.
    pub fn semantics(&self) -> Semantics {
        Semantics::of(self.version())
    }
}

/// What the CLI does with one DV error (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Disposition {
    /// Reported as an error: the API server refuses the object for it.
    Enforced,
    /// Reported as a warning: the server would not return it.
    Shadowed,
    /// Not reported: declarative validation is off.
    Off,
}

/// Whether a DV error is enforced under the lifecycle rules (upstream's
/// `FilterEnforcedDeclarativeErrors`, with declarative-native errors always enforced).
pub(crate) fn lifecycle_enforced(e: &FieldError, beta_enabled: bool) -> bool {
    if e.declarative_native || e.error_type == ErrorType::Internal {
        return true;
    }
    if e.is_beta() {
        return beta_enabled;
    }
    !e.is_alpha()
}

/// The CLI's disposition of a DV error under `gates` (see the module docs).
pub fn disposition(e: &FieldError, gates: &FeatureGates) -> Disposition {
    if gates.semantics() == Semantics::Takeover {
        if !gates.declarative_validation() {
            return Disposition::Off;
        }
        if gates.takeover() {
            return Disposition::Enforced;
        }
    }
    if lifecycle_enforced(e, gates.beta_enforced()) {
        Disposition::Enforced
    } else {
        Disposition::Shadowed
    }
}

/// Whether the CLI reports a DV error as an error under `gates` ([`disposition`] is
/// [`Disposition::Enforced`]).
pub fn is_enforced(e: &FieldError, gates: &FeatureGates) -> bool {
    disposition(e, gates) == Disposition::Enforced
}

/// Splits DV errors into the enforced and the shadowed ones, each in order; errors of
/// [`Disposition::Off`] are in neither.
pub fn partition_enforced(errs: ErrorList, gates: &FeatureGates) -> (ErrorList, ErrorList) {
    let mut enforced = ErrorList::new();
    let mut shadowed = ErrorList::new();
    for e in errs {
        match disposition(&e, gates) {
            Disposition::Enforced => enforced.push(e),
            Disposition::Shadowed => shadowed.push(e),
            Disposition::Off => {}
        }
    }
    (enforced, shadowed)
}
