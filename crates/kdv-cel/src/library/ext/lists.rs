//! cel-go's lists extension (`ext.Lists`, `cel.lib.ext.lists`; Kubernetes 1.34+: version 3):
//! `slice`, `flatten`, `sort`, `sortBy` (through `@sortByAssociatedKeys`), `lists.range`,
//! `reverse`, `distinct` — declarations by version, implementations with runtime costs, and
//! the extension's static overload estimators.

use std::cmp::Ordering;
use std::ops::Add as _;
use std::sync::Arc;

use crate::ast::{Expr, ExprKind, Literal};
use crate::library::estimate::{
    CallEstimate, CallSite, CostEstimate, LIST_CREATE_BASE_COST, STRING_TRAVERSAL_COST_FACTOR,
    SizeEstimate,
};
use crate::library::{
    CallCtx, Declarations, Functions, Library, Overload, ParamType as P, cached, g, list, m, nso,
    param,
};
use crate::types::Type;
use crate::value::{EvalError, List, Value};

/// The library's name.
const NAME: &str = "cel.lib.ext.lists";

/// The library at `version` (`u32::MAX`: every version).
pub fn library(version: u32) -> Library {
    Library::new(NAME, version, declarations, |_| functions())
}

// ---- declarations ------------------------------------------------------------------------

/// cel-go's lists extension (`ext.Lists`) at `version` (Kubernetes 1.34+: 3).
pub fn declarations(version: u32) -> Arc<Declarations> {
    cached("lists", version, declare)
}

fn declare(version: u32) -> Declarations {
    use Type::{Bool, Bytes, Double, Duration, Dyn, Int, String as Str, Timestamp, Uint};
    let t = param("T");
    let list_t = list(t.clone());
    let mut lib = Declarations::new(NAME);
    lib.function(
        "slice",
        vec![m(
            "list_slice",
            vec![list_t.clone(), Int, Int],
            list_t.clone(),
        )],
    );
    if version >= 1 {
        lib.function(
            "flatten",
            vec![
                m("list_flatten", vec![list(list_t.clone())], list_t.clone()),
                m("list_flatten_int", vec![list(Dyn), Int], list(Dyn)),
            ],
        );
    }
    if version >= 2 {
        let comparable = [
            (Int, "int"),
            (Uint, "uint"),
            (Double, "double"),
            (Bool, "bool"),
            (Duration, "google.protobuf.Duration"),
            (Timestamp, "google.protobuf.Timestamp"),
            (Str, "string"),
            (Bytes, "bytes"),
        ];
        lib.function(
            "sort",
            comparable
                .iter()
                .map(|(ty, name)| {
                    m(
                        &format!("list_{name}_sort"),
                        vec![list(ty.clone())],
                        list(ty.clone()),
                    )
                })
                .collect(),
        );
        lib.function(
            "@sortByAssociatedKeys",
            comparable
                .iter()
                .map(|(ty, name)| {
                    m(
                        &format!("list_{name}_sortByAssociatedKeys"),
                        vec![list_t.clone(), list(ty.clone())],
                        list_t.clone(),
                    )
                })
                .collect(),
        );
        lib.function("lists.range", vec![g("lists_range", vec![Int], list(Int))]);
        lib.function(
            "reverse",
            vec![m("list_reverse", vec![list_t.clone()], list_t.clone())],
        );
        lib.function(
            "distinct",
            vec![m("list_distinct", vec![list_t.clone()], list_t)],
        );
    }
    lib
}

// ---- implementations and runtime costs ----------------------------------------------

type R<'a> = Result<Value<'a>, EvalError>;

/// Nesting limit of `flatten(depth)` (bounded recursion).
const MAX_FLATTEN_DEPTH: i64 = 1000;

fn list_arg<'v, 'a>(v: &'v Value<'a>) -> Result<&'v List<'a>, EvalError> {
    match v {
        Value::List(l) => Ok(l),
        _ => Err(nso()),
    }
}

fn int_arg(v: &Value<'_>) -> Result<i64, EvalError> {
    match v {
        Value::Int(i) => Ok(*i),
        _ => Err(nso()),
    }
}

fn slice<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let l = list_arg(&a[0])?;
    let (start, end) = (int_arg(&a[1])?, int_arg(&a[2])?);
    if start < 0 || end < 0 {
        return Err(EvalError::new(format!(
            "cannot slice({start}, {end}), negative indexes not supported"
        )));
    }
    if start > end {
        return Err(EvalError::new(format!(
            "cannot slice({start}, {end}), start index must be less than or equal to end index"
        )));
    }
    if (l.len() as i64) < end {
        return Err(EvalError::new(format!(
            "cannot slice({start}, {end}), list is length {}",
            l.len()
        )));
    }
    Ok(Value::list(
        (start as usize..end as usize)
            .filter_map(|i| l.get(i))
            .collect(),
    ))
}

fn flatten_into<'a>(l: &List<'a>, depth: i64, out: &mut Vec<Value<'a>>) {
    for e in l.iter() {
        match &e {
            Value::List(inner) if depth > 0 => flatten_into(inner, depth - 1, out),
            _ => out.push(e),
        }
    }
}

fn flatten<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let l = list_arg(&a[0])?;
    let depth = match a.get(1) {
        Some(v) => int_arg(v)?,
        None => 1,
    };
    if depth < 0 {
        return Err(EvalError::new("level must be non-negative"));
    }
    let mut out = Vec::new();
    flatten_into(l, depth.min(MAX_FLATTEN_DEPTH), &mut out);
    Ok(Value::list(out))
}

/// Sorts `list` by `keys` (same length, comparable elements of one type).
fn sort_by_keys<'a>(list: &List<'a>, keys: &List<'_>) -> R<'a> {
    if list.len() != keys.len() {
        return Err(EvalError::new(format!(
            "@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got {} and {} elements respectively",
            list.len(),
            keys.len()
        )));
    }
    if list.is_empty() {
        return Ok(Value::List(list.clone()));
    }
    let keys: Vec<Value<'_>> = keys.to_vec();
    let first = keys[0].type_of();
    if !matches!(
        keys[0],
        Value::Int(_)
            | Value::Uint(_)
            | Value::Double(_)
            | Value::Bool(_)
            | Value::String(_)
            | Value::Bytes(_)
            | Value::Duration(_)
            | Value::Timestamp(_)
    ) {
        return Err(EvalError::new("list elements must be comparable"));
    }
    if keys.iter().any(|k| k.type_of() != first) {
        return Err(EvalError::new("list elements must have the same type"));
    }
    let mut idx: Vec<usize> = (0..keys.len()).collect();
    let mut failed = None;
    idx.sort_by(|&i, &j| match keys[i].cel_cmp(&keys[j]) {
        Ok(o) => o,
        Err(e) => {
            failed.get_or_insert(e);
            Ordering::Equal
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    Ok(Value::list(
        idx.into_iter().filter_map(|i| list.get(i)).collect(),
    ))
}

fn sort<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let l = list_arg(&a[0])?;
    sort_by_keys(l, l)
}

fn sort_by_associated_keys<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    sort_by_keys(list_arg(&a[0])?, list_arg(&a[1])?)
}

fn range<'a>(ctx: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    // cel-go's genRange: no size cap, and a negative size is an empty list. Its cost (the
    // result's size plus 11) is charged after the call; refusing beforehand what that
    // charge would refuse keeps memory bounded by the cost limit.
    let n = u64::try_from(int_arg(&a[0])?).unwrap_or(0);
    ctx.reserve(n, n.saturating_add(11))?;
    Ok(Value::list((0..n as i64).map(Value::Int).collect()))
}

fn reverse<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let mut v = list_arg(&a[0])?.to_vec();
    v.reverse();
    Ok(Value::list(v))
}

fn distinct<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let l = list_arg(&a[0])?;
    let mut out: Vec<Value<'a>> = Vec::new();
    for e in l.iter() {
        if !out.iter().any(|x| x.cel_eq(&e)) {
            out.push(e);
        }
    }
    Ok(Value::list(out))
}

/// Runtime cost of `slice`, `range`, `reverse`: the result size plus 11.
fn cost_result_size(_: &[Value<'_>], result: &Value<'_>) -> u64 {
    result.cost_size() + 11
}

fn cost_flatten(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    let size = args.first().map_or(0, Value::cost_size);
    let depth = match args.get(1) {
        Some(Value::Int(d)) if *d > 0 => *d as u64,
        Some(_) => 0,
        None => 1,
    };
    size.saturating_mul(depth).saturating_add(11)
}

/// cel-go's `trackListSelfCompare`: a worst-case O(n²) pass over `list` with a cost factor
/// of 2, or 2.1 when its first element is a string or bytes, plus 11 (call and list
/// allocation).
fn cost_self_compare(list: Option<&Value<'_>>) -> u64 {
    let n = list.map_or(0, Value::cost_size);
    let factor = match list {
        Some(Value::List(l)) => match l.get(0) {
            Some(Value::String(_) | Value::Bytes(_)) => 2.0 + STRING_TRAVERSAL_COST_FACTOR,
            _ => 2.0,
        },
        _ => 2.0,
    };
    ((n.saturating_mul(n) as f64 * factor) as u64).saturating_add(11)
}

/// `distinct` and `sort`: the receiver list.
fn cost_distinct_or_sort(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    cost_self_compare(args.first())
}

/// `@sortByAssociatedKeys`: the list of sort keys (the second argument), whose element
/// type, not the receiver's, decides the string factor.
fn cost_sort_by(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    cost_self_compare(args.get(1))
}

const SORT_IDS: [&str; 8] = [
    "list_int_sort",
    "list_uint_sort",
    "list_double_sort",
    "list_bool_sort",
    "list_google.protobuf.Duration_sort",
    "list_google.protobuf.Timestamp_sort",
    "list_string_sort",
    "list_bytes_sort",
];

const SORT_BY_IDS: [&str; 8] = [
    "list_int_sortByAssociatedKeys",
    "list_uint_sortByAssociatedKeys",
    "list_double_sortByAssociatedKeys",
    "list_bool_sortByAssociatedKeys",
    "list_google.protobuf.Duration_sortByAssociatedKeys",
    "list_google.protobuf.Timestamp_sortByAssociatedKeys",
    "list_string_sortByAssociatedKeys",
    "list_bytes_sortByAssociatedKeys",
];

/// The implementations (every version), with their runtime costs.
pub fn functions() -> Functions {
    let mut o = vec![
        Overload::new(
            "list_slice",
            "slice",
            true,
            &[P::LIST, P::INT, P::INT],
            slice,
        )
        .with_cost(cost_result_size),
        Overload::new("list_flatten", "flatten", true, &[P::LIST], flatten).with_cost(cost_flatten),
        Overload::new(
            "list_flatten_int",
            "flatten",
            true,
            &[P::LIST, P::INT],
            flatten,
        )
        .with_cost(cost_flatten),
        Overload::new("lists_range", "lists.range", false, &[P::INT], range)
            .with_cost(cost_result_size),
        Overload::new("list_reverse", "reverse", true, &[P::LIST], reverse)
            .with_cost(cost_result_size),
        Overload::new("list_distinct", "distinct", true, &[P::LIST], distinct)
            .with_cost(cost_distinct_or_sort),
    ];
    for id in SORT_IDS {
        o.push(Overload::new(id, "sort", true, &[P::LIST], sort).with_cost(cost_distinct_or_sort));
    }
    for id in SORT_BY_IDS {
        o.push(
            Overload::new(
                id,
                "@sortByAssociatedKeys",
                true,
                &[P::LIST, P::LIST],
                sort_by_associated_keys,
            )
            .with_cost(cost_sort_by),
        );
    }
    Functions {
        name: NAME,
        overloads: o,
        regex_functions: Vec::new(),
    }
}

// ---- static cost estimates ---------------------------------------------------------------

/// The extension's overload estimators (cel-go `OverloadCostEstimate`; version 3), which take
/// precedence over every other estimate of these overloads; `None` for other overloads (or
/// calls of an unexpected shape, as upstream's decline them).
pub(crate) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    // Every overload here is a `list_*` or `lists_*` one; calls visit every candidate
    // overload, most of them others.
    if !c.overload().starts_with("list") {
        return None;
    }
    let n = c.argc();
    match c.overload() {
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
