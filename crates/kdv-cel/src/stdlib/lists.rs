//! The lists extension (cel-go `ext.Lists`, version 3) and the runtime helpers of the
//! two-variable comprehensions (`cel.@mapInsert`).

use std::cmp::Ordering;
use std::sync::Arc;

use crate::library::nso;
use crate::library::{CallCtx, Functions, Overload, ParamType as P};
use crate::value::{EvalError, Key, List, Map, OwnedMap, Value};

type R<'a> = Result<Value<'a>, EvalError>;

/// Largest `lists.range` size (cel-go v0.29 default).
pub const MAX_RANGE: i64 = 1_000_000;
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

fn range<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let n = int_arg(&a[0])?;
    if n < 0 {
        return Err(EvalError::new(format!(
            "lists.range: size must be non-negative, got {n}"
        )));
    }
    if n > MAX_RANGE {
        return Err(EvalError::new(format!(
            "lists.range: size {n} exceeds maximum allowed ({MAX_RANGE})"
        )));
    }
    Ok(Value::list((0..n).map(Value::Int).collect()))
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

/// `cel.@mapInsert(map, key, value)` / `cel.@mapInsert(map, map)`.
fn map_insert<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let Value::Map(m) = &a[0] else {
        return Err(nso());
    };
    let mut out = match m {
        Map::Owned(o) => OwnedMap::clone(o),
        Map::Json(_) => {
            let mut o = OwnedMap::new();
            for (k, v) in m.entries() {
                if let Ok(Some(k)) = Key::from_value(&k) {
                    let _ = o.insert_new(k, v);
                }
            }
            o
        }
    };
    let mut insert = |k: &Value<'a>, v: &Value<'a>| -> Result<(), EvalError> {
        let key = match k {
            Value::Bool(_) | Value::Int(_) | Value::Uint(_) | Value::String(_) => {
                Key::from_value(k)?.ok_or_else(nso)?
            }
            other => {
                return Err(EvalError::new(format!(
                    "unsupported key type: {}",
                    other.type_of()
                )));
            }
        };
        out.insert_new(key, v.clone()).map_err(|_| {
            EvalError::new(format!(
                "insert failed: key {} already exists",
                match k {
                    Value::String(s) => s.to_string(),
                    other => other.to_string(),
                }
            ))
        })
    };
    match a {
        [_, k, v] => insert(k, v)?,
        [_, Value::Map(other)] => {
            for (k, v) in other.entries() {
                insert(&k, &v)?;
            }
        }
        _ => return Err(nso()),
    }
    Ok(Value::Map(Map::Owned(Arc::new(out))))
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

fn cost_quadratic(args: &[Value<'_>], factor: f64) -> u64 {
    let n = args.first().map_or(0, Value::cost_size) as f64;
    ((n * n * factor) as u64).saturating_add(11)
}

fn cost_distinct(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    cost_quadratic(args, 2.0)
}

fn cost_sort(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    let factor = match args.first() {
        Some(Value::List(l)) => match l.get(0) {
            Some(Value::String(_) | Value::Bytes(_)) => 2.1,
            _ => 2.0,
        },
        _ => 2.0,
    };
    cost_quadratic(args, factor)
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

/// The lists extension (version 3) plus `cel.@mapInsert`.
pub fn library() -> Functions {
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
            .with_cost(cost_distinct),
        Overload::new(
            "@mapInsert_map_key_value",
            "cel.@mapInsert",
            false,
            &[P::MAP, P::DYN, P::DYN],
            map_insert,
        ),
        Overload::new(
            "@mapInsert_map_map",
            "cel.@mapInsert",
            false,
            &[P::MAP, P::MAP],
            map_insert,
        ),
    ];
    for id in SORT_IDS {
        o.push(Overload::new(id, "sort", true, &[P::LIST], sort).with_cost(cost_sort));
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
            .with_cost(cost_sort),
        );
    }
    Functions {
        name: "cel.lib.ext.lists",
        overloads: o,
        regex_functions: Vec::new(),
    }
}
