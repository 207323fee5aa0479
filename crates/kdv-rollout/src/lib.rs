//! How declarative validation is rolled out beside hand-written validation in an API
//! server, as each Kubernetes release does it (KEP-5073): every feature gate of kube-apiserver
//! 1.30–1.37, each release's hybrid validation with mismatch checks, panic safety and the
//! validation metrics.
//!
//! ```
//! use kdv_rollout::{FeatureGates, MigrationChecks, ValidationMetrics, validate_with_migration_checks};
//! use kdv_runtime::{BadValue, ErrorList, FieldError, FieldPath};
//! use prometheus_client::registry::Registry;
//!
//! let mut registry = Registry::default();
//! let metrics = ValidationMetrics::register(&mut registry);
//! let mut gates = FeatureGates::for_version(1, 37);
//! gates.parse("DeclarativeValidationBeta=false").unwrap();
//! let cfg = MigrationChecks {
//!     gates,
//!     identifier: kdv_rollout::validation_identifier(Some("Widget"), None, Some(kdv_runtime::OperationKind::Create)),
//!     metrics: Some(metrics.clone()),
//!     ..MigrationChecks::default()
//! };
//! let path = FieldPath::new("spec").child("replicas");
//! // Hand-written validation, its error marked as covered by the declarative rule.
//! let handwritten: ErrorList = vec![path.with_path_ref(|p| {
//!     FieldError::invalid(p, BadValue::Int(0), "must be positive").with_origin("minimum")
//! }).mark_covered_by_declarative()];
//! // The declarative rule is `+k8s:beta=+k8s:minimum=1` and disagrees (no error).
//! let outcome = validate_with_migration_checks(handwritten, ErrorList::new, &cfg);
//! assert_eq!(outcome.errors.len(), 1); // hand-written validation is authoritative
//! assert_eq!(outcome.mismatches.len(), 1);
//! assert_eq!(metrics.mismatch_total(), 1);
//! ```
//!
//! The [`FeatureGates`]' version picks the runtime ([`semantics::Semantics`]): 1.33–1.35
//! run declarative validation with `DeclarativeValidation` and make it authoritative with
//! `DeclarativeValidationTakeover`; 1.36 enforces it by lifecycle (`+k8s:alpha`, `+k8s:beta`)
//! for types that opt in; 1.37 for every type. [`semantics::disposition`] says what a tool
//! without hand-written validation reports for a declarative error at each version.
//!
//! Modules: [`gates`] (the gates and their table), [`semantics`] (the runtime of each
//! release, the CLI's dispositions), [`matcher`] (comparing errors), [`hybrid`] (the hybrid
//! run, its outcome and mismatch records, panic safety), [`metrics`] (the counters),
//! [`identifier`] (the metrics' `validation_identifier`).
//!
//! In more detail:
//! - [`gates`]: a [`FeatureGates`] is a value at one emulated version holding every gate
//!   kube-apiserver recognises in 1.30–1.37, from the embedded table `data/feature-gates.txt`
//!   (sources and limits in `data/README.md`, read once by `gates/table.rs`): `enabled(name)`
//!   answers `Option<bool>` (`None`: not a gate of this release), `state`, `gates()`,
//!   `AllAlpha`/`AllBeta`, component-base's `--feature-gates` syntax with each release's errors,
//!   warnings and dependency checks (decision 0053).
//! - [`semantics`]: decisions 0051 (each release's runtime) and 0052 (what a tool without
//!   hand-written validation reports; [`semantics::partition_enforced`] splits a list).
//! - [`matcher`]: apimachinery's `ErrorMatcher` (type, normalized field, origin, ancestor
//!   short-circuit, `render`) and `duplicate_errors`; `kdv-conformance` judges upstream's cases
//!   with this one matcher.
//! - [`hybrid`]: [`validate_with_migration_checks`] runs the declarative side under
//!   `catch_unwind` with the release's fail mode (decision 0054), compares its errors with the
//!   covered hand-written ones by the release's matching rules (`hybrid/mismatch.rs`), enforces or
//!   shadows them and drops covered hand-written errors; its `Outcome` holds the returned list,
//!   the shadowed errors, `Mismatch` records (values, not logs: decision 0047), the caught panic
//!   and the version. `+k8s:declarativeValidationNative` errors: decision 0046.
//! - [`metrics`]: upstream's five counters on a caller's `prometheus-client` registry (decision
//!   0048); `Outcome::record` counts an outcome as its release does; the opt-in
//!   `ValidationDurations` is the histogram KEP-5073's monitoring section proposes,
//!   `apiserver_request_validation_duration_seconds{validation=handwritten|declarative}` (a
//!   kdv extension timing hybrid validation's declarative side).
//! - [`identifier`]: the `validation_identifier` label.
//!
//! No IO: log lines are returned as values. The `kdv` facade re-exports this crate as
//! `kdv::rollout`.

#![warn(missing_docs)]

pub mod gates;
pub mod hybrid;
pub mod identifier;
pub mod matcher;
pub mod metrics;
pub mod semantics;

pub use gates::{Component, FeatureGates, Gate, GateError, GateState};
pub use hybrid::{
    CaughtPanic, MigrationChecks, Mismatch, MismatchKind, ObjectIdentity, Outcome,
    silence_caught_panics, validate_with_migration_checks,
};
pub use identifier::validation_identifier;
pub use matcher::{ErrorMatcher, NormalizationRule, duplicate_errors};
pub use metrics::{ValidationDurations, ValidationKind, ValidationMetrics};
/// The metrics library the counters are registered with (its `Registry` and encoders).
pub use prometheus_client;
pub use semantics::{Disposition, Semantics, disposition, is_enforced, partition_enforced};
