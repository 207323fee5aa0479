//! cel-go's own estimates of standard-library and strings-extension overloads (its checker's
//! `functionCost` switch), asked after the extension and Kubernetes estimators.

use crate::library::estimate::{
    CallEstimate, CallSite, CostEstimate, STRING_TRAVERSAL_COST_FACTOR, SizeEstimate,
};

/// The estimate of the call, or `None` for cel-go's O(1) default.
pub(super) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    let n = c.argc();
    let tenth = STRING_TRAVERSAL_COST_FACTOR;
    let est = |cost: CostEstimate, result: Option<SizeEstimate>| CallEstimate { cost, result };
    match c.overload() {
        "string_format" => {
            let t = c.target()?;
            Some(est(
                c.computed_or_unknown(&t).multiply_by_cost_factor(tenth),
                None,
            ))
        }
        "strings_quote" if n == 1 => {
            let sz = c.computed_or_unknown(&c.arg(0));
            Some(est(
                sz.multiply_by_cost_factor(tenth),
                Some(SizeEstimate {
                    min: sz.min.wrapping_add(2),
                    max: sz.max.wrapping_mul(2).wrapping_add(2),
                }),
            ))
        }
        _ => crate::library::standard::estimate(c),
    }
}
