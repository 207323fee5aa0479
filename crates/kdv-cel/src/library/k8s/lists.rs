//! `kubernetes.lists`: `isSorted`, `sum`, `min`, `max`, `indexOf`, `lastIndexOf` on lists, and
//! (library version 1, Kubernetes 1.37) `includes` on any value.
//!
//! In order: the declarations, the implementations with their runtime costs,
//! and the part of Kubernetes' static cost estimator that prices these functions.

use std::ops::Add as _;

use crate::library::estimate::{
    CallEstimate, CallSite, CostEstimate, STRING_TRAVERSAL_COST_FACTOR,
};
use std::sync::Arc;

use std::cmp::Ordering;

use crate::library::nso;
use crate::library::{CallCtx, Functions, Library, Overload, ParamType as P};
use crate::library::{Declarations, OverloadDecl, cached};
use crate::types::Type;
use crate::value::Duration;
use crate::value::{EvalError, List, Value};

/// The library's name.
const NAME: &str = "kubernetes.lists";

/// The library at `version` (1 adds `includes`; `u32::MAX`: every version).
pub fn library(version: u32) -> Library {
    Library::new(NAME, version, declarations, |_| functions())
}

type R<'a> = Result<Value<'a>, EvalError>;

// ---- declarations ------------------------------------------------------------------------

/// The checker declarations at `version` (Kubernetes 1.37+: 1).
pub fn declarations(version: u32) -> Arc<Declarations> {
    cached(NAME, version, declare)
}

fn declare(version: u32) -> Declarations {
    let list = |t: &Type| Type::List(Box::new(t.clone()));
    let a = Type::Param("A".into());
    let mut lib = Declarations::new(NAME);
    let (mut sorted, mut maxes, mut mins, mut sums) = (vec![], vec![], vec![], vec![]);
    for (t, [sorted_id, max_id, min_id]) in &COMPARABLE {
        sorted.push(OverloadDecl::member(sorted_id, vec![list(t)], Type::Bool));
        maxes.push(OverloadDecl::member(max_id, vec![list(t)], t.clone()));
        mins.push(OverloadDecl::member(min_id, vec![list(t)], t.clone()));
    }
    for (t, id, _) in &SUMMABLE {
        sums.push(OverloadDecl::member(id, vec![list(t)], t.clone()));
    }
    lib.function("isSorted", sorted);
    lib.function("max", maxes);
    lib.function("min", mins);
    lib.function("sum", sums);
    lib.function(
        "indexOf",
        vec![OverloadDecl::member(
            "list_a_index_of_int",
            vec![list(&a), a.clone()],
            Type::Int,
        )],
    );
    lib.function(
        "lastIndexOf",
        vec![OverloadDecl::member(
            "list_a_last_index_of_int",
            vec![list(&a), a.clone()],
            Type::Int,
        )],
    );
    if version >= 1 {
        lib.function(
            "includes",
            vec![OverloadDecl::member(
                "list_includes_dyn_dyn",
                vec![Type::Dyn, Type::Dyn],
                Type::Bool,
            )],
        );
    }
    lib
}

// ---- implementations and runtime costs ----------------------------------------------

/// Element types of `isSorted`, `min` and `max`, with their overload ids
/// (`list_<T>_is_sorted_bool`, `list_<T>_max_<T>`, `list_<T>_min_<T>`).
const COMPARABLE: [(Type, [&str; 3]); 8] = [
    (
        Type::Int,
        [
            "list_int_is_sorted_bool",
            "list_int_max_int",
            "list_int_min_int",
        ],
    ),
    (
        Type::Uint,
        [
            "list_uint_is_sorted_bool",
            "list_uint_max_uint",
            "list_uint_min_uint",
        ],
    ),
    (
        Type::Double,
        [
            "list_double_is_sorted_bool",
            "list_double_max_double",
            "list_double_min_double",
        ],
    ),
    (
        Type::Bool,
        [
            "list_bool_is_sorted_bool",
            "list_bool_max_bool",
            "list_bool_min_bool",
        ],
    ),
    (
        Type::Duration,
        [
            "list_duration_is_sorted_bool",
            "list_duration_max_duration",
            "list_duration_min_duration",
        ],
    ),
    (
        Type::Timestamp,
        [
            "list_timestamp_is_sorted_bool",
            "list_timestamp_max_timestamp",
            "list_timestamp_min_timestamp",
        ],
    ),
    (
        Type::String,
        [
            "list_string_is_sorted_bool",
            "list_string_max_string",
            "list_string_min_string",
        ],
    ),
    (
        Type::Bytes,
        [
            "list_bytes_is_sorted_bool",
            "list_bytes_max_bytes",
            "list_bytes_min_bytes",
        ],
    ),
];

/// Element types of `sum`, with their overload ids (`list_<T>_sum_<T>`) and implementations.
const SUMMABLE: [(Type, &str, crate::library::NativeFn); 4] = [
    (Type::Int, "list_int_sum_int", sum_int),
    (Type::Uint, "list_uint_sum_uint", sum_uint),
    (Type::Double, "list_double_sum_double", sum_double),
    (Type::Duration, "list_duration_sum_duration", sum_duration),
];

fn list_arg<'v, 'a>(v: &'v Value<'a>) -> Result<&'v List<'a>, EvalError> {
    match v {
        Value::List(l) => Ok(l),
        _ => Err(nso()),
    }
}

/// Whether `v` supports ordering (cel-go `traits.Comparer`).
fn comparable(v: &Value<'_>) -> Result<(), EvalError> {
    match v {
        Value::Int(_)
        | Value::Uint(_)
        | Value::Double(_)
        | Value::Bool(_)
        | Value::String(_)
        | Value::Bytes(_)
        | Value::Duration(_)
        | Value::Timestamp(_) => Ok(()),
        _ => Err(nso()),
    }
}

/// Like upstream, a comparison that fails (NaN, mixed kinds behind `dyn`) counts as "not
/// greater" rather than an error.
fn is_sorted<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let l = list_arg(&a[0])?;
    let mut prev: Option<Value<'a>> = None;
    for e in l.iter() {
        comparable(&e)?;
        if let Some(p) = &prev
            && p.cel_cmp(&e).ok() == Some(Ordering::Greater)
        {
            return Ok(Value::Bool(false));
        }
        prev = Some(e);
    }
    Ok(Value::Bool(true))
}

fn add<'a>(x: Value<'a>, y: &Value<'a>) -> R<'a> {
    match (&x, y) {
        (Value::Int(a), Value::Int(b)) => a
            .checked_add(*b)
            .map(Value::Int)
            .ok_or_else(|| EvalError::new("integer overflow")),
        (Value::Uint(a), Value::Uint(b)) => a
            .checked_add(*b)
            .map(Value::Uint)
            .ok_or_else(|| EvalError::new("unsigned integer overflow")),
        (Value::Double(a), Value::Double(b)) => Ok(Value::Double(a + b)),
        (Value::Duration(a), Value::Duration(b)) => a
            .nanos()
            .checked_add(b.nanos())
            .map(|n| Value::Duration(Duration::from_nanos(n)))
            .ok_or_else(|| EvalError::new("integer overflow")),
        _ => Err(nso()),
    }
}

/// Sums the list. The zero follows the first element's kind, so a `dyn` receiver that the
/// dispatcher routed to another summable overload still adds like cel-go's `+` would.
fn sum_from<'a>(a: &[Value<'a>], zero: Value<'a>) -> R<'a> {
    let l = list_arg(&a[0])?;
    let mut acc = match l.get(0) {
        Some(Value::Int(_)) => Value::Int(0),
        Some(Value::Uint(_)) => Value::Uint(0),
        Some(Value::Double(_)) => Value::Double(0.0),
        Some(Value::Duration(_)) => Value::Duration(Duration::from_nanos(0)),
        _ => zero,
    };
    for e in l.iter() {
        acc = add(acc, &e)?;
    }
    Ok(acc)
}

fn sum_int<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    sum_from(a, Value::Int(0))
}

fn sum_uint<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    sum_from(a, Value::Uint(0))
}

fn sum_double<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    sum_from(a, Value::Double(0.0))
}

fn sum_duration<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    sum_from(a, Value::Duration(Duration::from_nanos(0)))
}

/// The first element that no later element beats; `replace_when` is how the current best
/// compares to an element that replaces it (failed comparisons never replace).
fn extreme<'a>(a: &[Value<'a>], replace_when: Ordering, name: &str) -> R<'a> {
    let l = list_arg(&a[0])?;
    let mut best: Option<Value<'a>> = None;
    for e in l.iter() {
        comparable(&e)?;
        best = Some(match best {
            Some(b) if b.cel_cmp(&e).ok() != Some(replace_when) => b,
            _ => e,
        });
    }
    best.ok_or_else(|| EvalError::new(format!("{name} called on empty list")))
}

fn max<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    extreme(a, Ordering::Less, "max")
}

fn min<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    extreme(a, Ordering::Greater, "min")
}

fn index_of<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let l = list_arg(&a[0])?;
    Ok(Value::Int(
        l.iter()
            .position(|e| e.cel_eq(&a[1]))
            .map_or(-1, |i| i as i64),
    ))
}

fn last_index_of<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let l = list_arg(&a[0])?;
    let found = l.iter().enumerate().filter(|(_, e)| e.cel_eq(&a[1])).last();
    Ok(Value::Int(found.map_or(-1, |(i, _)| i as i64)))
}

/// `includes`: membership for a list receiver, plain equality for any other receiver.
fn includes<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Bool(match &a[0] {
        Value::List(l) => l.iter().any(|e| e.cel_eq(&a[1])),
        other => other.cel_eq(&a[1]),
    }))
}

/// Runtime cost: the traversal cost of the receiver (spec §3.1).
pub(crate) fn cost_traverse(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    args.first().map_or(1, traversal_cost)
}

/// Kubernetes' `traversalCost`: ⌊bytes · 0.1⌋ per string or bytes, summed over containers.
fn traversal_cost(v: &Value<'_>) -> u64 {
    match v {
        Value::String(s) => (s.len() as f64 * 0.1) as u64,
        Value::Bytes(b) => (b.len() as f64 * 0.1) as u64,
        Value::List(l) => l
            .iter()
            .fold(0u64, |acc, e| acc.saturating_add(traversal_cost(&e))),
        Value::Map(m) => m.entries().fold(0u64, |acc, (k, e)| {
            acc.saturating_add(traversal_cost(&k))
                .saturating_add(traversal_cost(&e))
        }),
        _ => 1,
    }
}

fn member(
    id: &'static str,
    function: &'static str,
    params: &'static [P],
    imp: crate::library::NativeFn,
) -> Overload {
    super::common::overload(id, function, true, params, imp, Some(cost_traverse))
}

/// The runtime overloads.
pub fn functions() -> Functions {
    let mut overloads = vec![
        member(
            "list_a_index_of_int",
            "indexOf",
            &[P::LIST, P::DYN],
            index_of,
        ),
        member(
            "list_a_last_index_of_int",
            "lastIndexOf",
            &[P::LIST, P::DYN],
            last_index_of,
        ),
        member(
            "list_includes_dyn_dyn",
            "includes",
            &[P::DYN, P::DYN],
            includes,
        ),
    ];
    for (_, [sorted, max_id, min_id]) in &COMPARABLE {
        overloads.push(member(sorted, "isSorted", &[P::LIST], is_sorted));
        overloads.push(member(max_id, "max", &[P::LIST], max));
        overloads.push(member(min_id, "min", &[P::LIST], min));
    }
    for (_, id, imp) in &SUMMABLE {
        overloads.push(member(id, "sum", &[P::LIST], *imp));
    }
    Functions {
        name: NAME,
        overloads,
        regex_functions: Vec::new(),
    }
}

// ---- static cost estimates ---------------------------------------------------------------

/// The part of Kubernetes' `CostEstimator.EstimateCallCost` that prices this library's
/// functions. Upstream dispatches on the function's name alone, so a call of any library with
/// one of these names is priced here; `None` leaves the call to the next estimator.
pub(crate) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    match c.function() {
        // Also strings-extension `indexOf`/`lastIndexOf` (string receivers), as upstream.
        "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" | "includes" => {
            let t = c.target()?;
            let size = c.node_size(&t);
            match c.element(&t) {
                Some((elem, elem_size)) => {
                    let mut per_element = CostEstimate::fixed(1);
                    // Comparing strings or bytes also traverses them.
                    if matches!(elem, Type::String | Type::Bytes) {
                        per_element = per_element
                            .add(elem_size.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR));
                    }
                    Some(CallEstimate::cost(size.multiply_by_cost(per_element)))
                }
                // A dyn receiver may be a list: n comparisons.
                None if c.function() == "includes" => Some(CallEstimate::cost(
                    size.multiply_by_cost(CostEstimate::fixed(1)),
                )),
                // A string receiver (strings-extension indexOf/lastIndexOf).
                None => Some(CallEstimate::cost(
                    size.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR),
                )),
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::testing::{compile_err, err, eval_cost, is_true, ok};

    #[test]
    fn is_sorted() {
        is_true("[1, 2, 2, 3].isSorted()");
        is_true("[].isSorted()");
        is_true("[5].isSorted()");
        is_true("!['b', 'a'].isSorted()");
        is_true("[false, true].isSorted()");
        is_true("[duration('1s'), duration('2s')].isSorted()");
        is_true(
            "[timestamp('2000-01-01T00:00:00Z'), timestamp('1999-01-01T00:00:00Z')].isSorted() == false",
        );
        is_true("[b'a', b'b'].isSorted()");
        is_true("[1u, 0u].isSorted() == false");
        is_true("[1.0, 1.5].isSorted()");
    }

    #[test]
    fn sum() {
        assert_eq!(ok("[1, 2, 3].sum()"), "6");
        assert_eq!(ok("[].sum()"), "0");
        is_true("[1u, 2u].sum() == 3u");
        is_true("[1.5, 2.0].sum() == 3.5");
        is_true("[duration('1s'), duration('1m')].sum() == duration('61s')");
        assert_eq!(err("[9223372036854775807, 1].sum()"), "integer overflow");
        is_true("dyn([1.5, 2.5]).sum() == 4.0");
        is_true("dyn([duration('1s')]).sum() == duration('1s')");
        assert_eq!(err("dyn(['a']).sum()"), "no such overload");
        assert_eq!(
            err("[18446744073709551615u, 1u].sum()"),
            "unsigned integer overflow"
        );
    }

    #[test]
    fn min_max() {
        assert_eq!(ok("[3, 1, 2].max()"), "3");
        assert_eq!(ok("[3, 1, 2].min()"), "1");
        is_true("['b', 'c', 'a'].max() == 'c'");
        is_true("[duration('2s'), duration('1s')].min() == duration('1s')");
        assert_eq!(err("[].max()"), "max called on empty list");
        assert_eq!(err("[].min()"), "min called on empty list");
        is_true("[1.0, 2.0, 2.0].max() == 2.0");
        is_true("[double('NaN'), 1.0].isSorted()");
        assert_eq!(err("dyn([{}]).isSorted()"), "no such overload");
        assert_eq!(err("dyn([[1]]).max()"), "no such overload");
    }

    #[test]
    fn index_of() {
        assert_eq!(ok("[1, 2, 2, 3].indexOf(2)"), "1");
        assert_eq!(ok("[1, 2, 2, 3].lastIndexOf(2)"), "2");
        assert_eq!(ok("[1, 2].indexOf(5)"), "-1");
        assert_eq!(ok("[1, 2].lastIndexOf(5)"), "-1");
        assert_eq!(ok("['a', 'b'].indexOf('b')"), "1");
        assert_eq!(ok("[[1], [2]].indexOf([2])"), "1");
        // strings keep the strings-extension meaning
        assert_eq!(ok("'abcb'.lastIndexOf('b')"), "3");
    }

    #[test]
    fn includes() {
        // Examples of the upstream doc comment, and the edge cases of its definition.
        is_true("[1, 2, 3].includes(2)");
        is_true("![1, 2, 3].includes(4)");
        is_true("'model-a'.includes('model-a')");
        is_true("!'model-a'.includes('model-b')");
        is_true("![].includes(1)");
        // Heterogeneous numeric equality, as `==`.
        is_true("[1, 2, 3].includes(2.0)");
        is_true("[1u].includes(1)");
        is_true("[[1], [2]].includes([2])");
        is_true("[{'a': 2}].includes({'a': 2})");
        // Not a substring test: a string receiver compares whole values.
        is_true("!'model-a'.includes('model')");
        is_true("!1.includes('1')");
        is_true("{'a': 1}.includes({'a': 1})");
    }

    #[test]
    fn includes_runtime_cost_is_the_receiver_traversal() {
        // Upstream TestIncludesCost: a 50-character string receiver costs ⌊50 · 0.1⌋.
        let (_, c) =
            eval_cost("'01234567890123456789012345678901234567890123456789'.includes('123')")
                .unwrap();
        assert_eq!(c, 5);
        let (_, c) = eval_cost("[1, 2, 3, 4, 5].includes(3)").unwrap();
        assert_eq!(c, 5);
    }

    #[test]
    fn string_index_of_runtime_cost_is_the_receiver_traversal() {
        // Upstream TestIndexOfCost: Kubernetes prices indexOf/lastIndexOf by name, so the
        // strings-extension overloads cost ⌊50 · 0.1⌋ too.
        for f in [
            "indexOf('123')",
            "lastIndexOf('123')",
            "indexOf('1', 2)",
            "lastIndexOf('1', 40)",
        ] {
            let (_, c) = eval_cost(&format!(
                "'01234567890123456789012345678901234567890123456789'.{f}"
            ))
            .unwrap();
            assert_eq!(c, 5, "{f}");
        }
    }

    #[test]
    fn type_errors() {
        assert!(
            compile_err("[{}].isSorted()").contains("found no matching overload for 'isSorted'")
        );
        assert!(compile_err("['a'].sum()").contains("found no matching overload for 'sum'"));
    }

    #[test]
    fn runtime_cost_is_the_receiver_traversal() {
        // Optimised: the constant list literal is folded, so only the call is charged.
        let (_, c) =
            eval_cost("['012345678901', '012345678901', '012345678901'].isSorted()").unwrap();
        assert_eq!(c, 3);
        let (_, c) = eval_cost("[1, 2, 3, 4, 5].sum()").unwrap();
        assert_eq!(c, 5);
    }
}
