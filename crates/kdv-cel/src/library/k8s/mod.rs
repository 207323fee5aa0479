//! Kubernetes' CEL libraries (`k8s.io/apiserver/pkg/cel/library`), one module each: lists,
//! regex, urls, ip, cidr, quantity, format, semver. Each holds its declarations,
//! implementations with runtime costs, and the part of Kubernetes' `CostEstimator` that
//! prices its functions.
//!
//! The Kubernetes environment that puts them together with cel-go's libraries is
//! [`crate::k8s`].

pub mod cidr;
pub(crate) mod common;
pub(crate) mod cost;
pub mod format;
pub mod ip;
pub mod lists;
pub mod quantity;
pub mod regex;
pub mod semver;
pub mod urls;

use super::estimate::{CallEstimate, CallSite};

/// Kubernetes' `CostEstimator.EstimateCallCost`: the static estimate of a call, by function
/// name as upstream dispatches (so it also prices other libraries' functions of the same
/// names, such as strings-extension `indexOf`), or `None` to leave the call to cel-go's
/// estimates. Each library prices its own functions; `cidr` is asked before `ip` (both price
/// `ip`).
pub(crate) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    lists::estimate(c)
        .or_else(|| regex::estimate(c))
        .or_else(|| urls::estimate(c))
        .or_else(|| cidr::estimate(c))
        .or_else(|| ip::estimate(c))
        .or_else(|| quantity::estimate(c))
        .or_else(|| format::estimate(c))
        .or_else(|| semver::estimate(c))
        .or_else(|| cost::estimate(c))
}

#[cfg(test)]
mod tests;
