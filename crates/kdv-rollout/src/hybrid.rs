//! Hybrid validation: hand-written validation (HV) and declarative validation (DV) run
//! side by side, as upstream's `rest.ValidateDeclarativelyWithMigrationChecks` (1.36+).
//!
//! 1. HV errors are marked hand-written (`from_imperative`).
//! 2. DV runs inside `catch_unwind` (see *Panics* below).
//! 3. When the `DeclarativeValidation` gate is on, the mismatch candidates (DV errors of
//!    `+k8s:alpha` and `+k8s:beta` rules; never declarative-native ones) are compared with the
//!    HV errors marked covered-by-declarative (type, normalized field, origin; many to many);
//!    each covered HV error without a DV twin is an [`MismatchKind::Unmatched`] mismatch, each
//!    candidate without an HV twin an [`MismatchKind::Extra`] one.
//! 4. Enforced DV errors ([`is_enforced`]): declarative-native, internal errors, standard
//!    (unprefixed) rules, and beta rules when `DeclarativeValidationBeta` is on. Alpha rules
//!    are always shadowed.
//! 5. Covered HV errors with an enforced *beta* DV twin are dropped (standard rules' HV
//!    counterparts are expected to be deleted from the source, so they are kept).
//! 6. The result is the surviving HV errors, then the enforced DV errors.
//!
//! # Panics
//!
//! A panic in DV is caught and counted. Without declarative-native rules the call *fails
//! open*: DV's errors are dropped and HV's returned (upstream's behaviour before 1.36 with
//! `DeclarativeValidationTakeover` off), and the outcome carries upstream's log line
//! `panic during declarative validation: <v>`. With declarative-native rules, whose checks
//! have no hand-written twin, it *fails closed*: HV's errors plus
//! `<nil>: Internal error: panic during declarative validation: <v>` (upstream 1.36).
//!
//! The standard library's panic hook still prints the panic message to stderr; a server can
//! call [`silence_caught_panics`] once to keep panics caught here out of stderr (the outcome
//! carries the message). kdv installs no hook on its own.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Once};

use kdv_runtime::{ErrorList, ErrorListExt, ErrorType, FieldError, FieldPath};

use crate::gates::FeatureGates;
use crate::matcher::{ErrorMatcher, NormalizationRule};
use crate::metrics::ValidationMetrics;

/// The recommendation of mismatches no user sees (alpha rules, or beta rules shadowed).
pub const AUTHORITATIVE_MSG: &str = "This difference should not affect system operation since hand written validation is authoritative.";
/// The recommendation of mismatches of enforced beta rules.
pub const DISABLE_BETA_MSG: &str = "Consider disabling the DeclarativeValidationBeta feature gate to keep data persisted in etcd consistent with prior versions of Kubernetes.";
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
    /// The gates in force.
    pub gates: FeatureGates,
    /// The `validation_identifier` label ([`crate::identifier::validation_identifier`]).
    pub identifier: String,
    /// The validated object.
    pub object: ObjectIdentity,
    /// Whether the type has declarative-native rules (`+k8s:declarativeValidationNative`):
    /// a panic then fails closed.
    pub declarative_native: bool,
    /// Field path normalizations applied to DV paths when matching.
    pub normalization_rules: Vec<NormalizationRule>,
    /// Whether a short-circuiting DV error (e.g. `immutable` on a struct) also matches the
    /// covered HV errors below its field.
    pub short_circuit_mismatch: bool,
    /// Counters to increment (mismatches, panics); none when `None`.
    pub metrics: Option<ValidationMetrics>,
}

/// The side a mismatch was found on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MismatchKind {
    /// A covered HV error no DV error matched.
    Unmatched,
    /// A DV alpha/beta error no covered HV error matched.
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
    /// Every HV error (marked hand-written).
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
    /// DV errors that were not enforced (shadowed alpha, and beta with the gate off).
    pub shadowed: ErrorList,
    /// Mismatches found (only when the `DeclarativeValidation` gate is on).
    pub mismatches: Vec<Mismatch>,
    /// The panic caught in DV, if any.
    pub panic: Option<CaughtPanic>,
    /// The `validation_identifier` used.
    pub identifier: String,
}

impl Outcome {
    /// Counts what this hybrid validation found on `metrics`: each mismatch once, the panic
    /// once (done by [`validate_with_migration_checks`] itself when
    /// [`MigrationChecks::metrics`] is set).
    pub fn record(&self, metrics: &ValidationMetrics) {
        for m in &self.mismatches {
            metrics.inc_mismatch(&m.identifier);
        }
        if self.panic.is_some() {
            metrics.inc_panic(&self.identifier);
        }
    }
}

/// Whether a DV error is returned to the caller under `gates` (upstream's
/// `FilterEnforcedDeclarativeErrors`, with declarative-native errors always enforced).
pub fn is_enforced(e: &FieldError, gates: &FeatureGates) -> bool {
    if e.declarative_native || e.error_type == ErrorType::Internal {
        return true;
    }
    if e.is_beta() {
        return gates.beta_enforced();
    }
    !e.is_alpha()
}

/// Splits DV errors into the enforced and the shadowed ones, each in order.
pub fn partition_enforced(errs: ErrorList, gates: &FeatureGates) -> (ErrorList, ErrorList) {
    errs.into_iter().partition(|e| is_enforced(e, gates))
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

/// Runs hand-written and declarative validation together (see the module docs): `handwritten`
/// are HV's errors (covered ones marked `covered_by_declarative`), `declarative` runs DV.
pub fn validate_with_migration_checks(
    mut handwritten: ErrorList,
    declarative: impl FnOnce() -> ErrorList,
    cfg: &MigrationChecks,
) -> Outcome {
    handwritten.mark_from_imperative();
    let mut caught = None;
    let declarative_errs = match run_declarative(declarative) {
        Ok(errs) => errs,
        Err(message) => {
            let fail_closed = cfg.declarative_native;
            let mut errs = ErrorList::new();
            if fail_closed {
                errs.push(FieldError::new(
                    ErrorType::Internal,
                    FieldPath::root(),
                    kdv_runtime::BadValue::String(format!("{PANIC_PREFIX}{message}")),
                    format!("{PANIC_PREFIX}{message}"),
                ));
            }
            caught = Some(CaughtPanic {
                message,
                fail_closed,
            });
            errs
        }
    };

    let mismatches = if cfg.gates.compares() {
        let candidates: Vec<&FieldError> = declarative_errs
            .iter()
            .filter(|e| (e.is_alpha() || e.is_beta()) && !e.declarative_native)
            .collect();
        let found = gather_mismatches(
            &handwritten,
            &candidates,
            cfg.gates.beta_enforced(),
            &cfg.normalization_rules,
            cfg.short_circuit_mismatch,
        );
        if found.is_empty() {
            Vec::new()
        } else {
            let hv = Arc::new(handwritten.clone());
            let dv = Arc::new(declarative_errs.clone());
            found
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
                .collect()
        }
    } else {
        Vec::new()
    };

    let (enforced, shadowed) = partition_enforced(declarative_errs, &cfg.gates);
    let mut errors = filter_covered_handwritten(handwritten, &enforced, &cfg.normalization_rules);
    errors.extend(enforced);
    let outcome = Outcome {
        errors,
        shadowed,
        mismatches,
        panic: caught,
        identifier: cfg.identifier.clone(),
    };
    if let Some(metrics) = &cfg.metrics {
        outcome.record(metrics);
    }
    outcome
}

/// Drops the covered HV errors that an enforced beta DV error matches (upstream's
/// `FilterCoveredHandwrittenErrors`).
pub fn filter_covered_handwritten(
    handwritten: ErrorList,
    enforced_declarative: &[FieldError],
    rules: &[NormalizationRule],
) -> ErrorList {
    if !enforced_declarative.iter().any(FieldError::is_beta)
        || !handwritten.iter().any(|e| e.covered_by_declarative)
    {
        return handwritten;
    }
    let matcher = ErrorMatcher::fuzzy(rules.to_vec());
    handwritten
        .into_iter()
        .filter(|hv| {
            !(hv.covered_by_declarative
                && enforced_declarative
                    .iter()
                    .any(|dv| dv.is_beta() && matcher.matches(hv, dv)))
        })
        .collect()
}

/// One mismatch before it gets the object's identity.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// Which side.
    pub kind: MismatchKind,
    /// The matcher's rendering of the error.
    pub rendered: String,
    /// The error.
    pub error: FieldError,
    /// The recommendation sentence.
    pub recommendation: &'static str,
}

impl Found {
    /// The log line (as [`Mismatch::log_line`]).
    pub fn log_line(&self) -> String {
        mismatch_line(self.kind, &self.rendered, self.recommendation)
    }
}

/// Compares HV errors with DV mismatch candidates (upstream's
/// `gatherDeclarativeValidationMismatches`): `enforced` picks the default recommendation
/// (beta rules enforced), alpha errors always get [`AUTHORITATIVE_MSG`].
pub fn gather_mismatches(
    handwritten: &[FieldError],
    declarative: &[&FieldError],
    enforced: bool,
    rules: &[NormalizationRule],
    short_circuit_mismatch: bool,
) -> Vec<Found> {
    let mut found = Vec::new();
    if handwritten.is_empty() && declarative.is_empty() {
        return found;
    }
    let default_rec = if enforced {
        DISABLE_BETA_MSG
    } else {
        AUTHORITATIVE_MSG
    };
    let fuzzy = ErrorMatcher::fuzzy(rules.to_vec());
    let fuzzy_sc = fuzzy.clone().match_ancestor_short_circuit();
    let hv_fields: Vec<String> = handwritten.iter().map(|e| e.field.to_string()).collect();
    let dv_fields: Vec<String> = declarative.iter().map(|e| e.field.to_string()).collect();

    // Duplicate HV errors come from buggy repeated calls; without deduping, a correct DV
    // result would leave the repeats unmatched.
    let mut deduped: Vec<usize> = Vec::new();
    for (i, e) in handwritten.iter().enumerate() {
        let dup = deduped
            .iter()
            .any(|&j| fuzzy.matches_fields(&handwritten[j], e, &hv_fields[j], &hv_fields[i]));
        if !dup {
            deduped.push(i);
        }
    }

    let mut matched = vec![false; declarative.len()];
    for &i in &deduped {
        let hv = &handwritten[i];
        if !hv.covered_by_declarative {
            continue;
        }
        let mut count = 0usize;
        for (d, dv) in declarative.iter().enumerate() {
            if fuzzy.matches_fields(hv, dv, &hv_fields[i], &dv_fields[d]) {
                count += 1;
                matched[d] = true;
            }
        }
        if short_circuit_mismatch
            && count == 0
            && declarative
                .iter()
                .enumerate()
                .any(|(d, dv)| fuzzy_sc.matches_fields(hv, dv, &hv_fields[i], &dv_fields[d]))
        {
            count = 1;
        }
        if count == 0 {
            found.push(Found {
                kind: MismatchKind::Unmatched,
                rendered: fuzzy.render(hv),
                error: hv.clone(),
                recommendation: if hv.is_alpha() {
                    AUTHORITATIVE_MSG
                } else {
                    default_rec
                },
            });
        }
    }
    for (d, dv) in declarative.iter().enumerate() {
        if matched[d] {
            continue;
        }
        found.push(Found {
            kind: MismatchKind::Extra,
            rendered: fuzzy.render(dv),
            error: (*dv).clone(),
            recommendation: if dv.is_alpha() {
                AUTHORITATIVE_MSG
            } else {
                default_rec
            },
        });
    }
    found
}
