//! cel-go's own estimates of standard-library and strings-extension overloads (its checker's
//! `functionCost` switch), asked after the extension and Kubernetes estimators.

use std::ops::Add as _;

use crate::library::estimate::{
    CallEstimate, CallSite, CostEstimate, REGEX_STRING_LENGTH_COST_FACTOR,
    STRING_TRAVERSAL_COST_FACTOR, SizeEstimate,
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
        // Go's unchecked uint64 arithmetic on the result sizes is kept (it wraps).
        "string_to_bytes" if n == 1 => {
            let sz = c.computed_or_unknown(&c.arg(0));
            Some(est(
                sz.multiply_by_cost_factor(tenth),
                Some(SizeEstimate {
                    min: sz.min,
                    max: sz.max.wrapping_mul(4),
                }),
            ))
        }
        "bytes_to_string" if n == 1 => {
            let sz = c.computed_or_unknown(&c.arg(0));
            Some(est(
                sz.multiply_by_cost_factor(tenth),
                Some(SizeEstimate {
                    min: sz.min / 4,
                    max: sz.max,
                }),
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
        "starts_with_string" | "ends_with_string" if n == 1 => {
            let sz = c.computed_or_unknown(&c.arg(0));
            Some(est(sz.multiply_by_cost_factor(tenth), None))
        }
        "in_list" if n == 2 => {
            let sz = c.computed_or_unknown(&c.arg(1));
            Some(est(sz.multiply_by_cost_factor(1.0), None))
        }
        "matches_string" | "matches" => {
            // Member `s.matches(re)`, and since cel-go v0.29 the global `matches(s, re)`.
            let (s, re) = match (c.target(), n) {
                (Some(t), 1) => (t, c.arg(0)),
                (None, 2) => (c.arg(0), c.arg(1)),
                _ => return None,
            };
            let str_cost = c
                .computed_or_unknown(&s)
                .add(SizeEstimate::fixed(1))
                .multiply_by_cost_factor(tenth);
            let re_cost = c
                .computed_or_unknown(&re)
                .multiply_by_cost_factor(REGEX_STRING_LENGTH_COST_FACTOR);
            Some(est(str_cost.multiply(re_cost), None))
        }
        "contains_string" if n == 1 => {
            let t = c.target()?;
            let s = c.computed_or_unknown(&t).multiply_by_cost_factor(tenth);
            let sub = c
                .computed_or_unknown(&c.arg(0))
                .multiply_by_cost_factor(tenth);
            Some(est(s.multiply(sub), None))
        }
        "less_string"
        | "greater_string"
        | "less_equals_string"
        | "greater_equals_string"
        | "less_bytes"
        | "greater_bytes"
        | "less_equals_bytes"
        | "greater_equals_bytes"
        | "equals"
        | "not_equals"
            if n >= 2 =>
        {
            let l = c.computed_or_unknown(&c.arg(0));
            let r = c.computed_or_unknown(&c.arg(1));
            let smallest = l.max.min(r.max);
            let cost = CostEstimate {
                min: u64::from(smallest > 0),
                max: smallest,
            };
            Some(est(cost.multiply_by_cost_factor(tenth), None))
        }
        _ => None,
    }
}
