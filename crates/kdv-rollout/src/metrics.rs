//! Upstream's validation counters (`k8s.io/apiserver/pkg/validation/metrics.go`) on a
//! caller's `prometheus-client` registry: no global state, registered once per registry.
//!
//! prometheus-client writes OpenMetrics text: a counter family's `# HELP`/`# TYPE` lines
//! name it without the `_total` suffix its sample line carries, and the exposition ends with
//! `# EOF`. The sample lines, HELP texts (with the `[BETA] `/`[ALPHA] `/`[INTERNAL] ` stability
//! prefix component-base adds) and labels are upstream's.

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::registry::Registry;

/// The label set of the per-identifier counters.
type IdLabels = Vec<(&'static str, String)>;

/// The five counters of declarative validation. Cloning shares the counters.
#[derive(Clone, Debug, Default)]
pub struct ValidationMetrics {
    mismatch: Counter,
    parity_discrepancies: Family<IdLabels, Counter>,
    panic: Counter,
    panics: Family<IdLabels, Counter>,
    duplicate_errors: Counter,
}

/// Name (without `_total`, which the encoder appends) and HELP text (without the final
/// `.`, which prometheus-client appends) of each counter.
pub const MISMATCH: (&str, &str) = (
    "apiserver_validation_declarative_validation_mismatch",
    "[BETA] Number of times declarative validation results differed from handwritten validation results for core types",
);
/// See [`MISMATCH`].
pub const PARITY_DISCREPANCIES: (&str, &str) = (
    "apiserver_validation_declarative_validation_parity_discrepancies",
    "[ALPHA] Number of discrepancies between declarative and handwritten validation, broken down by validation identifier",
);
/// See [`MISMATCH`].
pub const PANIC: (&str, &str) = (
    "apiserver_validation_declarative_validation_panic",
    "[BETA] Number of times declarative validation has panicked during validation",
);
/// See [`MISMATCH`].
pub const PANICS: (&str, &str) = (
    "apiserver_validation_declarative_validation_panics",
    "[ALPHA] Number of panics in declarative validation, broken down by validation identifier",
);
/// See [`MISMATCH`].
pub const DUPLICATE_ERRORS: (&str, &str) = (
    "apiserver_validation_duplicate_validation_error",
    "[INTERNAL] Number of duplicate validation errors during validation",
);

/// The label of the per-identifier counters.
pub const IDENTIFIER_LABEL: &str = "validation_identifier";

impl ValidationMetrics {
    /// Creates the counters and registers them in `registry`.
    pub fn register(registry: &mut Registry) -> ValidationMetrics {
        let m = ValidationMetrics::default();
        registry.register(MISMATCH.0, MISMATCH.1, m.mismatch.clone());
        registry.register(
            PARITY_DISCREPANCIES.0,
            PARITY_DISCREPANCIES.1,
            m.parity_discrepancies.clone(),
        );
        registry.register(PANIC.0, PANIC.1, m.panic.clone());
        registry.register(PANICS.0, PANICS.1, m.panics.clone());
        registry.register(
            DUPLICATE_ERRORS.0,
            DUPLICATE_ERRORS.1,
            m.duplicate_errors.clone(),
        );
        m
    }

    /// Counts one mismatch (upstream's `IncDeclarativeValidationMismatchMetric`): the
    /// unlabeled counter and the identifier's.
    pub fn inc_mismatch(&self, identifier: &str) {
        self.mismatch.inc();
        self.parity_discrepancies
            .get_or_create(&vec![(IDENTIFIER_LABEL, identifier.to_owned())])
            .inc();
    }

    /// Counts one mismatch on the unlabeled counter only (1.33 and 1.34, whose
    /// `IncDeclarativeValidationMismatchMetric` had no identifier).
    pub fn inc_mismatch_unlabeled(&self) {
        self.mismatch.inc();
    }

    /// Counts one caught panic on the unlabeled counter only (1.33 and 1.34).
    pub fn inc_panic_unlabeled(&self) {
        self.panic.inc();
    }

    /// Counts one caught panic (upstream's `IncDeclarativeValidationPanicMetric`).
    pub fn inc_panic(&self, identifier: &str) {
        self.panic.inc();
        self.panics
            .get_or_create(&vec![(IDENTIFIER_LABEL, identifier.to_owned())])
            .inc();
    }

    /// Counts one duplicate hand-written error (upstream's
    /// `IncDuplicateValidationErrorMetric`; see [`crate::duplicate_errors`]).
    pub fn inc_duplicate_error(&self) {
        self.duplicate_errors.inc();
    }

    /// The unlabeled mismatch count.
    pub fn mismatch_total(&self) -> u64 {
        self.mismatch.get()
    }

    /// The unlabeled panic count.
    pub fn panic_total(&self) -> u64 {
        self.panic.get()
    }

    /// The duplicate-error count.
    pub fn duplicate_error_total(&self) -> u64 {
        self.duplicate_errors.get()
    }
}
