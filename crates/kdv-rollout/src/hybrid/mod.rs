//! Hybrid validation: hand-written validation (HV) and declarative validation (DV) run side
//! by side as the API server of the [`FeatureGates`]' version does it
//! ([`crate::semantics::Semantics`]):
//!
//! - **before 1.33**: no DV; HV's errors are returned and DV does not run.
//! - **1.33–1.35** (`ValidateDeclarativelyWithMigrationChecks` in 1.35, the same steps in the
//!   resource strategies of 1.33 and 1.34): with `DeclarativeValidation` off, HV's errors
//!   and nothing else. Otherwise DV runs (see *Panics*), every DV error is compared with the
//!   covered HV errors, and with `DeclarativeValidationTakeover` on the result is HV without
//!   its covered errors followed by every DV error; with it off, HV's errors.
//! - **1.36** (v0.36 `ValidateDeclarativelyWithMigrationChecks`): HV errors are marked
//!   hand-written. Types that do not opt in ([`MigrationChecks::declarative_enforcement`]):
//!   DV runs, every DV error is compared, HV's errors are returned. Types that opt in (and,
//!   kdv's rule, types with declarative-native rules): only `+k8s:alpha`/`+k8s:beta` DV
//!   errors are compared; covered HV errors marked beta are dropped when
//!   `DeclarativeValidationBeta` is on; enforced DV errors (internal, standard, beta with the
//!   gate) follow HV's.
//! - **1.37 and later** (main): HV errors are marked hand-written; alpha and beta DV errors
//!   (never declarative-native ones) are compared many to many; enforced DV errors
//!   (declarative-native, internal, standard, beta with `DeclarativeValidationBeta`) follow
//!   HV's, and covered HV errors an enforced beta DV error matches are dropped.
//!
//! [`Outcome::shadowed`] holds the DV errors not returned. Comparing is [`mismatch`]'s job;
//! each release's matching rules differ slightly (see [`gather_mismatches_at`]).
//!
//! # Panics
//!
//! A panic in DV is caught and counted. It *fails closed* (DV's result is
//! `<nil>: Internal error: panic during declarative validation: <v>`) with
//! `DeclarativeValidationTakeover` on (1.33–1.35), for types that enforce DV (1.36), and for
//! types with declarative-native rules (1.37 and later, kdv's decision: upstream main always
//! fails closed); otherwise it *fails open*: DV's errors are dropped and the outcome carries
//! upstream's log line `panic during declarative validation: <v>`.
//!
//! The standard library's panic hook still prints the panic message to stderr; a server can
//! call [`silence_caught_panics`] once to keep panics caught here out of stderr (the outcome
//! carries the message). kdv installs no hook on its own.

pub mod mismatch;

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Once};

use kdv_runtime::{ErrorList, ErrorListExt, ErrorType, FieldError, FieldPath};

pub use mismatch::{
    AUTHORITATIVE_MSG, DISABLE_BETA_MSG, DISABLE_TAKEOVER_MSG, Found, filter_covered_handwritten,
    gather_mismatches, gather_mismatches_at,
};

use crate::gates::FeatureGates;
use crate::matcher::NormalizationRule;
use crate::metrics::{ValidationDurations, ValidationKind, ValidationMetrics};
use crate::semantics::{Semantics, lifecycle_enforced};

/// The prefix of a caught panic's message.
pub const PANIC_PREFIX: &str = "panic during declarative validation: ";

/// Which object a validation was about (for mismatch records).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ObjectIdentity {
    /// `kind`.
    pub kind: String,
    /// `apiVersion`.
    pub api_version: String,
    /// `metadata.namespace` (empty when cluster-scoped).
    pub namespace: String,
    /// `metadata.name`.
    pub name: String,
}

/// How one hybrid validation runs.
#[derive(Clone, Debug, Default)]
pub struct MigrationChecks {
    /// The gates in force; their version picks the runtime.
    pub gates: FeatureGates,
    /// The `validation_identifier` label ([`crate::identifier::validation_identifier`]).
    pub identifier: String,
    /// The validated object.
    pub object: ObjectIdentity,
    /// Whether the type has declarative-native rules (`+k8s:declarativeValidationNative`):
    /// their errors are always enforced and never compared (1.36 and later), and a panic
    /// fails closed.
    pub declarative_native: bool,
    /// Whether the type opted in to declarative enforcement (1.36's
    /// `WithDeclarativeEnforcement`; other releases ignore it).
    pub declarative_enforcement: bool,
    /// Field path normalizations applied to DV paths when matching (1.35 and later).
    pub normalization_rules: Vec<NormalizationRule>,
    /// Whether a short-circuiting DV error (e.g. `immutable` on a struct) also matches the
    /// covered HV errors below its field (1.37 and later).
    pub short_circuit_mismatch: bool,
    /// Counters to increment (mismatches, panics); none when `None`.
    pub metrics: Option<ValidationMetrics>,
    /// The validation-duration histogram (kdv extension): the declarative side is timed
    /// when set.
    pub durations: Option<ValidationDurations>,
}

/// The side a mismatch was found on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MismatchKind {
    /// A covered HV error no DV error matched.
    Unmatched,
    /// A compared DV error no covered HV error matched.
    Extra,
}

impl MismatchKind {
    /// `unmatched` or `extra`, as in the log line.
    pub fn as_str(self) -> &'static str {
        match self {
            MismatchKind::Unmatched => "unmatched",
            MismatchKind::Extra => "extra",
        }
    }
}

/// One mismatch between HV and DV, with what a log or an operator needs.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// Which side had the error.
    pub kind: MismatchKind,
    /// The error as the matcher renders it: `{Type="...", Field="...", Origin="..."}`.
    pub rendered: String,
    /// The error.
    pub error: FieldError,
    /// Upstream's recommendation sentence.
    pub recommendation: &'static str,
    /// The `validation_identifier`.
    pub identifier: String,
    /// The validated object.
    pub object: ObjectIdentity,
    /// Every HV error (marked hand-written from 1.36).
    pub handwritten: Arc<ErrorList>,
    /// Every DV error.
    pub declarative: Arc<ErrorList>,
}

impl Mismatch {
    /// Upstream's log line (`logger.Error(nil, detail)`), word for word.
    pub fn log_line(&self) -> String {
        mismatch_line(self.kind, &self.rendered, self.recommendation)
    }
}

fn mismatch_line(kind: MismatchKind, rendered: &str, recommendation: &str) -> String {
    format!(
        "Unexpected difference between hand written validation and declarative validation error results, {} error(s) found {rendered}. This indicates an issue with declarative validation. {recommendation}",
        kind.as_str()
    )
}

/// A panic caught in DV.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaughtPanic {
    /// The panic's message (`<non-string panic payload>` when it was not a string).
    pub message: String,
    /// Whether the result failed closed (an internal error was returned).
    pub fail_closed: bool,
}

impl CaughtPanic {
    /// `panic during declarative validation: <v>` (upstream's log line when failing open,
    /// and the internal error's detail when failing closed).
    pub fn log_line(&self) -> String {
        format!("{PANIC_PREFIX}{}", self.message)
    }
}

/// What a hybrid validation found.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The errors to return to the caller.
    pub errors: ErrorList,
    /// DV errors that were not returned.
    pub shadowed: ErrorList,
    /// Mismatches found (only when DV ran and `DeclarativeValidation` is on).
    pub mismatches: Vec<Mismatch>,
    /// The panic caught in DV, if any.
    pub panic: Option<CaughtPanic>,
    /// The `validation_identifier` used.
    pub identifier: String,
    /// The Kubernetes version whose runtime produced the outcome.
    pub version: (u32, u32),
}

impl Outcome {
    /// Counts what this hybrid validation found on `metrics`, as the outcome's release does:
    /// each mismatch once, the panic once; 1.35 and later move the per-identifier counters
    /// too (done by [`validate_with_migration_checks`] itself when
    /// [`MigrationChecks::metrics`] is set).
    pub fn record(&self, metrics: &ValidationMetrics) {
        let labeled = self.version >= (1, 35);
        for m in &self.mismatches {
            if labeled {
                metrics.inc_mismatch(&m.identifier);
            } else {
                metrics.inc_mismatch_unlabeled();
            }
        }
        if self.panic.is_some() {
            if labeled {
                metrics.inc_panic(&self.identifier);
            } else {
                metrics.inc_panic_unlabeled();
            }
        }
    }
}

thread_local! {
    static IN_DECLARATIVE: Cell<bool> = const { Cell::new(false) };
}

/// Installs (once, opt-in) a panic hook that keeps panics caught by
/// [`validate_with_migration_checks`] off stderr and hands every other panic to the hook
/// installed before.
pub fn silence_caught_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_DECLARATIVE.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "<non-string panic payload>".to_owned()
    }
}

/// Runs DV, catching a panic: its errors, or the panic's message.
fn run_declarative(declarative: impl FnOnce() -> ErrorList) -> Result<ErrorList, String> {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            IN_DECLARATIVE.with(|c| c.set(self.0));
        }
    }
    let _reset = Reset(IN_DECLARATIVE.with(|c| c.replace(true)));
    catch_unwind(AssertUnwindSafe(declarative)).map_err(|p| panic_message(p.as_ref()))
}

/// Runs DV with upstream's recovery: a panic becomes an internal error when `fail_closed`,
/// else no errors (and the log line in the returned [`CaughtPanic`]).
fn run_with_recovery(
    declarative: impl FnOnce() -> ErrorList,
    fail_closed: bool,
) -> (ErrorList, Option<CaughtPanic>) {
    match run_declarative(declarative) {
        Ok(errs) => (errs, None),
        Err(message) => {
            let mut errs = ErrorList::new();
            if fail_closed {
                let detail = format!("{PANIC_PREFIX}{message}");
                errs.push(FieldError::new(
                    ErrorType::Internal,
                    FieldPath::root(),
                    kdv_runtime::BadValue::String(detail.clone()),
                    detail,
                ));
            }
            (
                errs,
                Some(CaughtPanic {
                    message,
                    fail_closed,
                }),
            )
        }
    }
}

/// Runs hand-written and declarative validation together as the API server of
/// `cfg.gates`' version does (see the module docs): `handwritten` are HV's errors (covered
/// ones marked `covered_by_declarative`), `declarative` runs DV.
pub fn validate_with_migration_checks(
    handwritten: ErrorList,
    declarative: impl FnOnce() -> ErrorList,
    cfg: &MigrationChecks,
) -> Outcome {
    let mut outcome = Outcome {
        identifier: cfg.identifier.clone(),
        version: cfg.gates.version(),
        ..Outcome::default()
    };
    let durations = cfg.durations.clone();
    let declarative = move || match &durations {
        Some(d) => d.time(ValidationKind::Declarative, declarative),
        None => declarative(),
    };
    match cfg.gates.semantics() {
        Semantics::NoDeclarative => outcome.errors = handwritten,
        Semantics::Takeover => takeover(&mut outcome, handwritten, declarative, cfg),
        Semantics::OptIn => opt_in(&mut outcome, handwritten, declarative, cfg),
        Semantics::Lifecycle => lifecycle(&mut outcome, handwritten, declarative, cfg),
    }
    if let Some(metrics) = &cfg.metrics {
        outcome.record(metrics);
    }
    outcome
}

/// Compares `candidates` with `handwritten` and records the mismatches on `outcome`.
fn compare(
    outcome: &mut Outcome,
    handwritten: &ErrorList,
    declarative: &ErrorList,
    candidates: &[&FieldError],
    enforced: bool,
    cfg: &MigrationChecks,
) {
    let found = gather_mismatches_at(
        cfg.gates.version(),
        handwritten,
        candidates,
        enforced,
        &cfg.normalization_rules,
        cfg.short_circuit_mismatch,
    );
    if found.is_empty() {
        return;
    }
    let hv = Arc::new(handwritten.clone());
    let dv = Arc::new(declarative.clone());
    outcome.mismatches = found
        .into_iter()
        .map(|f| Mismatch {
            kind: f.kind,
            rendered: f.rendered,
            error: f.error,
            recommendation: f.recommendation,
            identifier: cfg.identifier.clone(),
            object: cfg.object.clone(),
            handwritten: Arc::clone(&hv),
            declarative: Arc::clone(&dv),
        })
        .collect();
}

/// 1.33–1.35.
fn takeover(
    outcome: &mut Outcome,
    handwritten: ErrorList,
    declarative: impl FnOnce() -> ErrorList,
    cfg: &MigrationChecks,
) {
    if !cfg.gates.declarative_validation() {
        outcome.errors = handwritten;
        return;
    }
    let takeover = cfg.gates.takeover();
    let (declarative, caught) = run_with_recovery(declarative, takeover);
    outcome.panic = caught;
    let candidates: Vec<&FieldError> = declarative.iter().collect();
    compare(
        outcome,
        &handwritten,
        &declarative,
        &candidates,
        takeover,
        cfg,
    );
    if takeover {
        outcome.errors = handwritten
            .into_iter()
            .filter(|e| !e.covered_by_declarative)
            .collect();
        outcome.errors.extend(declarative);
    } else {
        outcome.errors = handwritten;
        outcome.shadowed = declarative;
    }
}

/// 1.36.
fn opt_in(
    outcome: &mut Outcome,
    mut handwritten: ErrorList,
    declarative: impl FnOnce() -> ErrorList,
    cfg: &MigrationChecks,
) {
    handwritten.mark_from_imperative();
    let enforcement = cfg.declarative_enforcement || cfg.declarative_native;
    let compares = cfg.gates.declarative_validation();
    let beta = cfg.gates.beta_enforced();
    if !compares && !enforcement {
        outcome.errors = handwritten;
        return;
    }
    let (declarative, caught) = run_with_recovery(declarative, enforcement);
    outcome.panic = caught;
    if compares {
        let candidates: Vec<&FieldError> = declarative
            .iter()
            .filter(|e| !e.declarative_native && (!enforcement || e.is_alpha() || e.is_beta()))
            .collect();
        compare(
            outcome,
            &handwritten,
            &declarative,
            &candidates,
            enforcement && beta,
            cfg,
        );
    }
    if !enforcement {
        outcome.errors = handwritten;
        outcome.shadowed = declarative;
        return;
    }
    // v0.36 drops a covered HV error by its own beta mark, not by a DV twin.
    outcome.errors = handwritten
        .into_iter()
        .filter(|e| !(e.covered_by_declarative && e.is_beta() && beta))
        .collect();
    let (enforced, shadowed): (ErrorList, ErrorList) = declarative
        .into_iter()
        .partition(|e| lifecycle_enforced(e, beta));
    outcome.errors.extend(enforced);
    outcome.shadowed = shadowed;
}

/// 1.37 and later.
fn lifecycle(
    outcome: &mut Outcome,
    mut handwritten: ErrorList,
    declarative: impl FnOnce() -> ErrorList,
    cfg: &MigrationChecks,
) {
    handwritten.mark_from_imperative();
    let beta = cfg.gates.beta_enforced();
    let (declarative, caught) = run_with_recovery(declarative, cfg.declarative_native);
    outcome.panic = caught;
    if cfg.gates.declarative_validation() {
        let candidates: Vec<&FieldError> = declarative
            .iter()
            .filter(|e| (e.is_alpha() || e.is_beta()) && !e.declarative_native)
            .collect();
        compare(outcome, &handwritten, &declarative, &candidates, beta, cfg);
    }
    let (enforced, shadowed): (ErrorList, ErrorList) = declarative
        .into_iter()
        .partition(|e| lifecycle_enforced(e, beta));
    outcome.errors = filter_covered_handwritten(handwritten, &enforced, &cfg.normalization_rules);
    outcome.errors.extend(enforced);
    outcome.shadowed = shadowed;
}
