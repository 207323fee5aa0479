//! How declarative validation is rolled out beside hand-written validation in an API
//! server, as Kubernetes does it (KEP-5073): feature gates, hybrid validation with mismatch
//! checks, panic safety and the validation metrics.
//!
//! ```
//! use kdv_rollout::{FeatureGates, MigrationChecks, ValidationMetrics, validate_with_migration_checks};
//! use kdv_runtime::{BadValue, ErrorList, FieldError, FieldPath};
//! use prometheus_client::registry::Registry;
//!
//! let mut registry = Registry::default();
//! let metrics = ValidationMetrics::register(&mut registry);
//! let mut gates = FeatureGates::for_version(1, 36);
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
//! kdv follows the current upstream runtime (1.36 and later) at every target version:
//! declarative validation always runs; `DeclarativeValidation` only turns the comparison on
//! or off; `+k8s:beta` rules are enforced when `DeclarativeValidationBeta` is on (versions
//! before 1.36 do not know the gate, so it is off there); `+k8s:alpha` rules are always
//! shadowed; standard (unprefixed) rules, declarative-native rules and internal errors are
//! always enforced; `DeclarativeValidationTakeover` is accepted and ignored.
//!
//! Modules: [`gates`] (the gates), [`matcher`] (comparing errors), [`hybrid`] (the hybrid
//! run, its outcome and mismatch records, panic safety), [`metrics`] (the counters),
//! [`identifier`] (the metrics' `validation_identifier`).

#![warn(missing_docs)]

pub mod gates;
pub mod hybrid;
pub mod identifier;
pub mod matcher;
pub mod metrics;

pub use gates::{FeatureGates, Gate, GateError};
pub use hybrid::{
    CaughtPanic, MigrationChecks, Mismatch, MismatchKind, ObjectIdentity, Outcome, is_enforced,
    partition_enforced, silence_caught_panics, validate_with_migration_checks,
};
pub use identifier::validation_identifier;
pub use matcher::{ErrorMatcher, NormalizationRule, duplicate_errors};
pub use metrics::ValidationMetrics;
/// The metrics library the counters are registered with (its `Registry` and encoders).
pub use prometheus_client;
