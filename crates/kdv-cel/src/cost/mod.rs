//! Static cost estimation: cel-go's `checker.Cost` with Kubernetes' options and
//! `k8s.io/apiserver/pkg/cel/library.CostEstimator`, so a rule gets the same `{min, max}`
//! estimate (and therefore the same accept/reject verdict against
//! [`STATIC_ESTIMATED_COST_LIMIT`]) as on the API server.
//!
//! ```
//! use kdv_cel::checker::compile;
//! use kdv_cel::cost::{estimate_cost, CostEstimate, CostOptions, SizeEstimate, SizeEstimator};
//! use kdv_cel::k8s;
//! use kdv_cel::types::Type;
//!
//! /// `self`: at most 100 names of at most 63 characters (a schema's `MaxElements`).
//! struct Names;
//!
//! impl SizeEstimator for Names {
//!     fn estimate_size(&self, path: &[&str], _: &Type) -> Option<SizeEstimate> {
//!         match path {
//!             [_] => Some(SizeEstimate { min: 0, max: 100 }),
//!             [_, "@items"] => Some(SizeEstimate { min: 0, max: 63 * 4 }),
//!             _ => None,
//!         }
//!     }
//! }
//!
//! let mut env = k8s::env();
//! env.add_variable("self", Type::List(Box::new(Type::String)));
//! let checked = compile("self.all(n, n.startsWith('kube-'))", &env).unwrap();
//! let cost = estimate_cost(&checked, &Names, &CostOptions::kubernetes()).unwrap();
//! // 2 + 100 iterations of (loop condition 2 + `@result && n.startsWith(...)` up to 3).
//! assert_eq!(cost, CostEstimate { min: 2, max: 502 });
//! ```
//!
//! Sizes of values that come from outside the expression (the fields of `self`) are answered
//! by a [`SizeEstimator`], asked with cel-go's field path of the node (`["self", "spec",
//! "items", "@items", "name"]`).
//!
//! Layout: this file holds the public API; the cost arithmetic ([`CostEstimate`],
//! [`SizeEstimate`]) and the interface call estimators answer through
//! ([`crate::library::estimate`]) belong to the libraries. `estimate` walks the tree (cel-go's
//! `coster`) and asks the estimators of a call in cel-go's order of precedence, `paths` keeps
//! the field paths with Go's slice-sharing semantics. The estimators themselves live with
//! the functions they price: `library::k8s` (Kubernetes' `CostEstimator`), `library::kdv`,
//! the cel-go extensions under `library::ext`, and `library::standard` (cel-go's estimates of
//! the standard and strings overloads), assembled by `library::environments`.

mod estimate;
mod paths;

#[cfg(test)]
mod tests;

use std::fmt;

use crate::checker::CheckedExpr;
pub use crate::library::estimate::{CostEstimate, SizeEstimate};
use crate::types::Type;

/// Per-rule limit on estimated cost × cardinality at CRD write (`StaticEstimatedCostLimit`).
pub const STATIC_ESTIMATED_COST_LIMIT: u64 = 10_000_000;

/// Limit on the sum of all rule costs of one CRD version schema
/// (`StaticEstimatedCRDCostLimit`).
pub const STATIC_ESTIMATED_CRD_COST_LIMIT: u64 = 100_000_000;

/// Maximum request size, the basis of every schema size estimate (`MaxRequestSizeBytes`).
pub const MAX_REQUEST_SIZE_BYTES: u64 = 3 * 1024 * 1024;

/// Runtime cost limit of one rule evaluation (`PerCallLimit`).
pub const PER_CALL_LIMIT: u64 = 1_000_000;

/// Answers the size of values reached by a field path (cel-go `CostEstimator.EstimateSize`).
///
/// `path` is cel-go's path of the node: its first segment names the variable (`self`,
/// `oldSelf`, ...), later segments are field names or `@items` (list elements), `@values`
/// (map values), `@keys` (map keys), `@indices` (list indices of two-variable
/// comprehensions). Like upstream, the first segment can be something else when the node
/// derives from a value without a path (`[1, 2][0]` has the path `["@items"]`; Kubernetes'
/// schema estimator ignores the first segment and answers for the schema root), and the path
/// is empty for nodes without one (Kubernetes answers nothing then). `ty` is the checked type
/// of the node (cel-go's own unit tests answer by type).
///
/// `Sync` because deeply nested expressions are estimated on a helper thread.
pub trait SizeEstimator: Sync {
    /// The size range of the values at `path`, or `None` when unknown.
    fn estimate_size(&self, path: &[&str], ty: &Type) -> Option<SizeEstimate>;
}

/// A [`SizeEstimator`] that knows nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoSizeEstimates;

impl SizeEstimator for NoSizeEstimates {
    fn estimate_size(&self, _: &[&str], _: &Type) -> Option<SizeEstimate> {
        None
    }
}

/// Settings of the estimator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CostOptions {
    /// Cost of a `has()` presence test on top of its operand (cel-go `PresenceTestHasCost`:
    /// 1 by default, 0 in Kubernetes).
    pub presence_test_cost: u64,
    /// Consult Kubernetes' `library.CostEstimator` for calls (Kubernetes libraries and its
    /// overrides of strings-extension functions).
    pub kubernetes_library: bool,
    /// Use the overload estimators of cel-go's ext.Sets and ext.Lists (version 3).
    pub extension_estimators: bool,
    /// The Kubernetes release (minor version) whose `CostEstimator` prices calls: before 1.32
    /// it had no price for equality of its own types (cel-go's, by their unknown size,
    /// applies), before 1.34 none for its parsing functions called globally (`quantity(s)`,
    /// `isIP(s)`, `cidr(s)`, `semver(s)`, ...: cel-go's 1 applies).
    pub kubernetes_release: u32,
}

impl CostOptions {
    /// What the Kubernetes API server uses for CRD rules (and admission expressions), as the
    /// newest release modelled prices them.
    pub const fn kubernetes() -> CostOptions {
        CostOptions::kubernetes_for(crate::library::releases::NEWEST_MINOR)
    }

    /// [`CostOptions::kubernetes`] as Kubernetes 1.`minor` prices calls.
    pub const fn kubernetes_for(minor: u32) -> CostOptions {
        CostOptions {
            presence_test_cost: 0,
            kubernetes_library: true,
            extension_estimators: true,
            kubernetes_release: minor,
        }
    }

    /// cel-go's defaults: presence tests cost 1, no Kubernetes library estimator.
    pub const fn cel_go() -> CostOptions {
        CostOptions {
            presence_test_cost: 1,
            kubernetes_library: false,
            extension_estimators: true,
            kubernetes_release: crate::library::releases::NEWEST_MINOR,
        }
    }
}

impl Default for CostOptions {
    fn default() -> CostOptions {
        CostOptions::kubernetes()
    }
}

/// Why an estimate could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CostError {
    /// The expression is nested too deeply to walk (no thread with a large enough stack
    /// could be started).
    TooDeep,
}

impl fmt::Display for CostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CostError::TooDeep => f.write_str("expression nesting too deep to estimate its cost"),
        }
    }
}

impl std::error::Error for CostError {}

/// Estimates the cost range of a checked expression.
pub fn estimate_cost(
    checked: &CheckedExpr,
    sizes: &dyn SizeEstimator,
    options: &CostOptions,
) -> Result<CostEstimate, CostError> {
    estimate::estimate(checked, sizes, options)
}

/// How often data of `min_serialized_size` bytes can occur in one request
/// (`maxCardinality`): `MAX_REQUEST_SIZE_BYTES / (min_serialized_size + 1)`.
pub fn max_cardinality(min_serialized_size: u64) -> u64 {
    MAX_REQUEST_SIZE_BYTES / min_serialized_size.saturating_add(1)
}

/// A rule's cost as checked against [`STATIC_ESTIMATED_COST_LIMIT`]: its estimated max cost
/// times the number of times the rule's node can occur (`getExpressionCost`), saturating.
pub fn expression_cost(max_cost: u64, cardinality: u64) -> u64 {
    max_cost.saturating_mul(cardinality)
}

/// The factor part of a budget error (`getCostErrorMessage`): `more than 100x` above 100,
/// six decimals below 1.5 (`1.000000x`), else one decimal (`4.7x`).
pub fn budget_factor(cost: u64, limit: u64) -> String {
    let f = cost as f64 / limit as f64;
    if f > 100.0 {
        "more than 100x".to_string()
    } else if f < 1.5 {
        format!("{f:.6}x")
    } else {
        format!("{f:.1}x")
    }
}

/// Kubernetes' message for a cost over its limit, e.g. `estimated rule cost exceeds budget
/// by factor of 1.5x (try simplifying the rule, ...)`. `name` is `estimated rule cost`,
/// `estimated messageExpression cost` or `x-kubernetes-validations estimated rule cost total
/// for entire OpenAPIv3 schema`.
pub fn cost_exceeds_budget_message(name: &str, cost: u64, limit: u64) -> String {
    format!(
        "{name} exceeds budget by factor of {} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
        budget_factor(cost, limit)
    )
}
