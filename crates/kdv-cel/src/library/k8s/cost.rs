//! Kubernetes' prices for functions outside its libraries here: cel-go's strings-extension
//! functions it prices itself (at run time and statically), and the authorization, selector
//! and JSON-patch libraries, which kdv does not implement but whose calls the static estimator
//! prices as upstream's does (for environments that declare them).

use std::ops::Add as _;

use super::common::{equal_operands, fixed};
use crate::ast::{ExprKind, Literal};
use crate::library::estimate::{
    CallEstimate, CallSite, CostEstimate, LIST_CREATE_BASE_COST, STRING_TRAVERSAL_COST_FACTOR,
    SizeEstimate,
};
use crate::library::{Registry, traversal};
use crate::types::Type;
use crate::value::Value;

/// Cost of an authorization check (`check`): allows two per expression.
const AUTHZ_CHECK_COST: u64 = 350_000;
/// Struct and values list allocated per selector requirement.
const COST_PER_REQUIREMENT: f64 = 10.0 + 40.0;
/// Shortest repeatable selector requirement (`k,`) is two characters.
const SELECTOR_LENGTH_TO_REQUIREMENT_COUNT: f64 = 0.5;

/// Parsing a field or label selector of `len` characters into requirements.
fn selector_cost(len: SizeEstimate) -> CostEstimate {
    let parse = len.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR);
    let requirements = len.multiply_by_cost_factor(SELECTOR_LENGTH_TO_REQUIREMENT_COUNT);
    let requirement_cost = requirements.multiply_by_cost_factor(COST_PER_REQUIREMENT);
    CostEstimate::fixed(LIST_CREATE_BASE_COST)
        .add(parse)
        .add(requirement_cost)
}

// ---- static cost estimates ---------------------------------------------------------------

/// The part of Kubernetes' `CostEstimator.EstimateCallCost` for functions of libraries
/// outside this folder, by function name as upstream's; `None` leaves the call to the next
/// estimator.
pub(crate) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    let n = c.argc();
    let tenth = STRING_TRAVERSAL_COST_FACTOR;
    match c.function() {
        // Authorization.
        "check" => fixed(AUTHZ_CHECK_COST),
        "serviceAccount" | "path" | "group" | "resource" | "subresource" | "namespace" | "name"
        | "allowed" | "reason" | "error" | "errored" => fixed(1),
        // Selectors.
        "fieldSelector" | "labelSelector" if n == 1 => {
            let len = c.node_size(&c.arg(0));
            Some(CallEstimate::cost(selector_cost(len)))
        }
        // JSON patch.
        "jsonpatch.escapeKey" if n == 1 => {
            let sz = c.node_size(&c.arg(0));
            Some(CallEstimate {
                cost: sz.multiply_by_cost_factor(tenth),
                result: Some(sz),
            })
        }
        // cel-go's strings extension.
        "lowerAscii" | "upperAscii" | "substring" | "trim" => {
            let sz = c.node_size(&c.target()?);
            Some(CallEstimate {
                cost: sz.multiply_by_cost_factor(tenth),
                result: Some(sz),
            })
        }
        "replace" if n >= 2 => {
            let sz = c.node_size(&c.target()?);
            let old = c.node_size(&c.arg(0));
            let new = c.node_size(&c.arg(1));
            Some(CallEstimate {
                cost: sz.multiply_by_cost_factor(2.0 * tenth),
                result: Some(replace_size(sz, old, new)),
            })
        }
        "split" => {
            let sz = c.node_size(&c.target()?);
            // Worst case: an empty separator splits every character off; a literal limit
            // bounds the parts.
            let mut max = sz.max;
            if n > 1
                && let ExprKind::Literal(Literal::Int(limit)) = c.expr(&c.arg(1)).kind
            {
                max = limit as u64;
            }
            Some(CallEstimate {
                cost: sz.multiply_by_cost_factor(2.0 * tenth),
                result: Some(SizeEstimate { min: 0, max }),
            })
        }
        "join" => {
            let t = c.target()?;
            let list = c.node_size(&t);
            let mut sz = SizeEstimate::default();
            if let Some((_, elem)) = c.element(&t) {
                sz = list.multiply(elem);
            }
            if n > 0 {
                let sep = c.node_size(&c.arg(0));
                let separators = SizeEstimate {
                    min: list.min.saturating_sub(1),
                    max: list.max.saturating_sub(1),
                };
                sz = sz.add(sep.multiply(separators));
            }
            Some(CallEstimate {
                cost: sz.multiply_by_cost_factor(tenth),
                result: Some(sz),
            })
        }
        // Equality of authorization values.
        "_==_" => match equal_operands(c)? {
            (Type::Object(name), ..)
                if matches!(
                    &**name,
                    "kubernetes.authorization.Authorizer"
                        | "kubernetes.authorization.PathCheck"
                        | "kubernetes.authorization.GroupCheck"
                        | "kubernetes.authorization.ResourceCheck"
                        | "kubernetes.authorization.Decision"
                ) =>
            {
                fixed(1)
            }
            _ => None,
        },
        _ => None,
    }
}

/// Result size of `s.replace(old, new)`: the longest result replaces the shortest `old` as
/// often as possible with the longest `new`; the shortest the reverse.
fn replace_size(s: SizeEstimate, old: SizeEstimate, new: SizeEstimate) -> SizeEstimate {
    let mut count = SizeEstimate::default();
    let mut retained = SizeEstimate::default();
    if old.min == 0 {
        // An empty `old` surrounds every character with `new`.
        count.max = if s.max < u64::MAX { s.max + 1 } else { s.max };
        retained.max = s.max;
    } else if new.max <= old.min {
        retained.max = s.max;
    } else {
        count.max = go_ceil_div(s.max, old.min);
    }
    if old.max == 0 {
        count.min = if s.min < u64::MAX { s.min + 1 } else { s.min };
        retained.min = s.min;
    } else if old.max <= new.min {
        retained.min = s.min;
    } else {
        count.min = go_ceil_div(s.min, old.max);
    }
    count.multiply(new).add(retained)
}

/// Go `uint64(math.Ceil(float64(a) / float64(b)))` (float64 division, saturating conversion).
fn go_ceil_div(a: u64, b: u64) -> u64 {
    let v = (a as f64 / b as f64).ceil();
    if v >= u64::MAX as f64 {
        u64::MAX
    } else {
        v as u64
    }
}

// ---- runtime costs -----------------------------------------------------------------------

fn cost_receiver_tenth(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    args.first().map_or(1, |a| traversal(a.cost_size()))
}

fn cost_receiver_fifth(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    args.first()
        .map_or(1, |a| (a.cost_size() as f64 * 0.2).ceil() as u64)
}

fn cost_result_fifth(_: &[Value<'_>], result: &Value<'_>) -> u64 {
    (result.cost_size() as f64 * 0.2).ceil() as u64
}

/// Kubernetes' runtime `CostEstimator.CallCost` of cel-go's strings-extension functions it
/// prices itself (spec §3.10), in place of cel-go's.
pub(crate) fn set_runtime_costs(r: &mut Registry) {
    for id in [
        "string_lower_ascii",
        "string_upper_ascii",
        "string_substring_int",
        "string_substring_int_int",
        "string_trim",
    ] {
        r.set_cost(id, cost_receiver_tenth);
    }
    for id in [
        "string_replace_string_string",
        "string_replace_string_string_int",
        "string_split_string",
        "string_split_string_int",
    ] {
        r.set_cost(id, cost_receiver_fifth);
    }
    for id in ["list_join", "list_join_string"] {
        r.set_cost(id, cost_result_fifth);
    }
    // Kubernetes prices `indexOf`/`lastIndexOf` by function name, so the strings-extension
    // overloads cost the receiver's traversal like the Kubernetes list functions.
    for id in [
        "string_index_of_string",
        "string_index_of_string_int",
        "string_last_index_of_string",
        "string_last_index_of_string_int",
    ] {
        r.set_cost(id, super::lists::cost_traverse);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(n: u64) -> SizeEstimate {
        SizeEstimate::fixed(n)
    }

    fn range(min: u64, max: u64) -> SizeEstimate {
        SizeEstimate { min, max }
    }

    /// Upstream `TestSize` (apiserver `cost_test.go`).
    #[test]
    fn replace_result_sizes() {
        assert_eq!(replace_size(fixed(3), fixed(0), fixed(1)), fixed(7));
        assert_eq!(replace_size(fixed(3), fixed(1), fixed(0)), range(0, 3));
        assert_eq!(replace_size(fixed(4), fixed(2), fixed(4)), range(4, 8));
        assert_eq!(
            replace_size(fixed(4), range(0, 1), range(0, 2)),
            range(0, 14)
        );
        assert_eq!(
            replace_size(fixed(4), range(1, 1), range(1, 2)),
            range(4, 8)
        );
        assert_eq!(
            replace_size(fixed(4), range(1, 2), range(1, 1)),
            range(2, 4)
        );
    }

    #[test]
    fn selector_costs() {
        // 71 characters: 10 + ⌈7.1⌉ + ⌈35.5⌉·50.
        assert_eq!(selector_cost(fixed(71)), CostEstimate::fixed(1818));
    }
}
