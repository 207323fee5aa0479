//! Overload estimators that cel-go's extension libraries register (`checker.OverloadCostEstimate`):
//! ext.Sets and ext.Lists version 3 (spec §6.3.5). They take precedence over every other
//! estimate of their overloads.

use crate::library::estimate::{CallEstimate, CallSite};
use crate::library::ext;

/// The estimate of the registered overload estimator, or `None` when there is none (or it
/// declines, as upstream's do for unexpected argument counts).
pub(super) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    ext::sets::estimate(c).or_else(|| ext::lists::estimate(c))
}
