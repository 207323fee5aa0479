//! Kubernetes' CEL libraries (`k8s.io/apiserver/pkg/cel/library`), one module each: lists,
//! regex, urls, ip, cidr, quantity, format, semver. Each holds its declarations,
//! implementations with runtime costs, and the part of Kubernetes' `CostEstimator` that
//! prices its functions.
//!
//! The Kubernetes environment that puts them together with cel-go's libraries is
//! [`crate::k8s`].

pub mod cidr;
mod common;
pub mod format;
pub mod ip;
pub mod lists;
pub mod quantity;
pub mod regex;
pub mod semver;
pub mod urls;

#[cfg(test)]
mod tests;
