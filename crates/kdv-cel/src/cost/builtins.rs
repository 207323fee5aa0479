//! cel-go's own estimates of standard-library and strings-extension overloads (its checker's
//! `functionCost` switch), asked after the extension and Kubernetes estimators.

use crate::library::estimate::{CallEstimate, CallSite};
use crate::library::{ext, standard};

/// The estimate of the call, or `None` for cel-go's O(1) default.
pub(super) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    standard::estimate(c).or_else(|| ext::strings::estimate(c))
}
