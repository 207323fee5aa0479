//! Overload estimators that cel-go's extension libraries register (`checker.OverloadCostEstimate`):
//! ext.Sets and ext.Lists version 3 (spec §6.3.5). They take precedence over every other
//! estimate of their overloads.

use std::ops::Add as _;

use crate::ast::{Expr, ExprKind, Literal};
use crate::library::estimate::{
    CallEstimate, CallSite, CostEstimate, LIST_CREATE_BASE_COST, STRING_TRAVERSAL_COST_FACTOR,
    SizeEstimate,
};

/// The estimate of the registered overload estimator, or `None` when there is none (or it
/// declines, as upstream's do for unexpected argument counts).
pub(super) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    // Every overload below is a `list_*` or `lists_*` one; calls visit every candidate
    // overload, most of them others.
    if !c.overload().starts_with("list") {
        return None;
    }
    let n = c.argc();
    match c.overload() {
        "list_sets_contains_list" | "list_sets_intersects_list" => sets(c, 1.0),
        "list_sets_equivalent_list" => sets(c, 2.0),
        "list_slice" if n == 2 => {
            let size = c.node_size(&c.target()?);
            let start = literal_uint(c.expr(&c.arg(0)), 0);
            let end = literal_uint(c.expr(&c.arg(1)), size.max);
            // Go's unchecked subtraction: wraps when start > end.
            Some(allocating_list_call(
                1.0,
                SizeEstimate::fixed(end.wrapping_sub(start)),
            ))
        }
        "lists_range" if c.target().is_none() && n == 1 => Some(allocating_list_call(
            1.0,
            SizeEstimate::fixed(literal_uint(c.expr(&c.arg(0)), u64::MAX)),
        )),
        "list_reverse" if n == 0 => {
            let size = c.node_size(&c.target()?);
            Some(allocating_list_call(1.0, size))
        }
        "list_flatten" | "list_flatten_int" if n <= 1 => {
            let t = c.target()?;
            let depth = if n == 1 {
                literal_uint(c.expr(&c.arg(0)), u64::MAX)
            } else {
                1
            };
            Some(allocating_list_call(depth as f64, c.node_size(&t)))
        }
        "list_distinct" if n == 0 => {
            let size = c.node_size(&c.target()?);
            Some(allocating_list_call(2.0, size.multiply(size)))
        }
        id => {
            let (element, is_sort_by) = sort_element(id)?;
            let node = match (is_sort_by, n) {
                (false, 0) => c.target()?,
                // sortBy: the size of the list of sort keys.
                (true, 1) => {
                    c.target()?;
                    c.arg(0)
                }
                _ => return None,
            };
            let size = c.node_size(&node);
            let factor = if matches!(element, "string" | "bytes") {
                2.0 + STRING_TRAVERSAL_COST_FACTOR
            } else {
                2.0
            };
            Some(allocating_list_call(factor, size.multiply(size)))
        }
    }
}

/// `sets.*`: `size(a) · size(b) · factor + 1`.
fn sets<'a>(c: &impl CallSite<'a>, factor: f64) -> Option<CallEstimate> {
    if c.argc() != 2 {
        return None;
    }
    let a = c.node_size(&c.arg(0));
    let b = c.node_size(&c.arg(1));
    Some(CallEstimate::cost(
        a.multiply(b)
            .multiply_by_cost_factor(factor)
            .add(CostEstimate::fixed(1)),
    ))
}

/// The element type name of `list_<T>_sort` / `list_<T>_sortByAssociatedKeys` overloads,
/// and whether it is the latter.
fn sort_element(overload: &str) -> Option<(&str, bool)> {
    const COMPARABLE: [&str; 8] = [
        "int",
        "uint",
        "double",
        "bool",
        "google.protobuf.Duration",
        "google.protobuf.Timestamp",
        "string",
        "bytes",
    ];
    let rest = overload.strip_prefix("list_")?;
    let (t, sort_by) = match rest.strip_suffix("_sortByAssociatedKeys") {
        Some(t) => (t, true),
        None => (rest.strip_suffix("_sort")?, false),
    };
    COMPARABLE.contains(&t).then_some((t, sort_by))
}

/// A list-producing call: `size × factor + 1` plus the list allocation; the result has `size`
/// elements.
fn allocating_list_call(factor: f64, size: SizeEstimate) -> CallEstimate {
    CallEstimate {
        cost: size
            .multiply_by_cost_factor(factor)
            .add(CostEstimate::fixed(1))
            .add(CostEstimate::fixed(LIST_CREATE_BASE_COST)),
        result: Some(size),
    }
}

/// An int literal argument as uint64 (negative → 0), else `default`.
fn literal_uint(e: &Expr, default: u64) -> u64 {
    match e.kind {
        ExprKind::Literal(Literal::Int(v)) => u64::try_from(v).unwrap_or(0),
        _ => default,
    }
}
