//! The sets extension (cel-go `ext.Sets`): `sets.contains`, `sets.equivalent`,
//! `sets.intersects` over lists with CEL equality.

use crate::library::nso;
use crate::library::{CallCtx, Functions, Overload, ParamType as P};
use crate::value::{EvalError, List, Value};

type R<'a> = Result<Value<'a>, EvalError>;

fn lists<'v, 'a>(a: &'v [Value<'a>]) -> Result<(&'v List<'a>, &'v List<'a>), EvalError> {
    match (&a[0], &a[1]) {
        (Value::List(x), Value::List(y)) => Ok((x, y)),
        _ => Err(nso()),
    }
}

fn contains_all(x: &List<'_>, y: &List<'_>) -> bool {
    y.iter().all(|e| x.iter().any(|f| f.cel_eq(&e)))
}

fn contains<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let (x, y) = lists(a)?;
    Ok(Value::Bool(contains_all(x, y)))
}

fn equivalent<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let (x, y) = lists(a)?;
    Ok(Value::Bool(contains_all(x, y) && contains_all(y, x)))
}

fn intersects<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let (x, y) = lists(a)?;
    Ok(Value::Bool(
        y.iter().any(|e| x.iter().any(|f| f.cel_eq(&e))),
    ))
}

fn product(args: &[Value<'_>], factor: u64) -> u64 {
    match args {
        [a, b] => {
            1 + a
                .cost_size()
                .saturating_mul(b.cost_size())
                .saturating_mul(factor)
        }
        _ => 1,
    }
}

fn cost_one(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    product(args, 1)
}

fn cost_two(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    product(args, 2)
}

/// The sets extension.
pub fn library() -> Functions {
    let mut c = Overload::new(
        "list_sets_contains_list",
        "sets.contains",
        false,
        &[P::LIST, P::LIST],
        contains,
    );
    c.cost = Some(cost_one);
    let mut e = Overload::new(
        "list_sets_equivalent_list",
        "sets.equivalent",
        false,
        &[P::LIST, P::LIST],
        equivalent,
    );
    e.cost = Some(cost_two);
    let mut i = Overload::new(
        "list_sets_intersects_list",
        "sets.intersects",
        false,
        &[P::LIST, P::LIST],
        intersects,
    );
    i.cost = Some(cost_one);
    Functions {
        name: "cel.lib.ext.sets",
        overloads: vec![c, e, i],
        regex_functions: Vec::new(),
    }
}
