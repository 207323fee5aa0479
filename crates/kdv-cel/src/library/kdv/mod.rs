//! kdv's own CEL libraries: functions KEP-4153 ("CEL Validation") lists for declarative
//! validation that no Kubernetes release ships — the UTF-8 functions ([`utf8`]) and
//! label-selector matching ([`selectors`]). They are **kdv extensions**: only the
//! environment of `+validationRule` on types holds them ([`crate::k8s::type_rule_env`]);
//! the CRD rule environments ([`crate::k8s::env_for`]) never do, so a CRD rule calling one
//! fails to compile with the API server's `undeclared reference` error.

pub mod selectors;
pub mod utf8;

use super::Library;
use super::estimate::{CallEstimate, CallSite};

/// kdv's libraries, in registration order.
pub fn libraries() -> [Library; 2] {
    [utf8::library(), selectors::library()]
}

/// The static cost estimates of kdv's functions (by function name, as Kubernetes' estimator
/// dispatches; the names are kdv's own, so no other library's call is priced here).
pub(crate) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    utf8::estimate(c).or_else(|| selectors::estimate(c))
}

#[cfg(test)]
mod tests;
