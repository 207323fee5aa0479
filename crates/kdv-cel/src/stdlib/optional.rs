//! Optional types (`cel.OptionalTypes()`, all versions): `optional.of`, `optional.none`,
//! `optional.ofNonZeroValue`, `value`, `hasValue`, `or`, `orValue`, `first`, `last`,
//! `optional.unwrap`, `unwrapOpt`. `or`/`orValue` short-circuit in the evaluator; the
//! overloads here serve dynamic dispatch.

use std::sync::Arc;

use crate::library::nso;
use crate::library::{CallCtx, Functions, Overload, ParamType as P};
use crate::value::{EvalError, Value};

type R<'a> = Result<Value<'a>, EvalError>;

fn of<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::optional_of(a[0].clone()))
}

fn of_non_zero<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(if a[0].is_zero() {
        Value::Optional(None)
    } else {
        Value::optional_of(a[0].clone())
    })
}

fn none<'a>(_: &CallCtx<'_>, _: &[Value<'a>]) -> R<'a> {
    Ok(Value::Optional(None))
}

fn value<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    match &a[0] {
        Value::Optional(Some(v)) => Ok(Value::clone(v)),
        Value::Optional(None) => Err(EvalError::new("optional.none() dereference")),
        _ => Err(nso()),
    }
}

fn has_value<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    match &a[0] {
        Value::Optional(o) => Ok(Value::Bool(o.is_some())),
        _ => Err(nso()),
    }
}

fn or<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    match (&a[0], &a[1]) {
        (Value::Optional(Some(_)), _) => Ok(a[0].clone()),
        (Value::Optional(None), Value::Optional(_)) => Ok(a[1].clone()),
        _ => Err(nso()),
    }
}

fn or_value<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    match &a[0] {
        Value::Optional(Some(v)) => Ok(Value::clone(v)),
        Value::Optional(None) => Ok(a[1].clone()),
        _ => Err(nso()),
    }
}

fn first<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    match &a[0] {
        Value::List(l) => Ok(Value::Optional(l.get(0).map(Arc::new))),
        _ => Err(nso()),
    }
}

fn last<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    match &a[0] {
        Value::List(l) => Ok(Value::Optional(
            l.len().checked_sub(1).and_then(|i| l.get(i)).map(Arc::new),
        )),
        _ => Err(nso()),
    }
}

fn unwrap<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let Value::List(l) = &a[0] else {
        return Err(nso());
    };
    let mut out = Vec::with_capacity(l.len());
    for e in l.iter() {
        match e {
            Value::Optional(Some(v)) => out.push(Value::clone(&v)),
            Value::Optional(None) => {}
            other => {
                return Err(EvalError::new(format!("value {other} is not optional")));
            }
        }
    }
    Ok(Value::list(out))
}

/// The optional library.
pub fn library() -> Functions {
    Functions {
        name: "cel.lib.optional",
        overloads: vec![
            Overload::new("optional_of", "optional.of", false, &[P::DYN], of),
            Overload::new(
                "optional_ofNonZeroValue",
                "optional.ofNonZeroValue",
                false,
                &[P::DYN],
                of_non_zero,
            ),
            Overload::new("optional_none", "optional.none", false, &[], none),
            Overload::new("optional_value", "value", true, &[P::OPTIONAL], value),
            Overload::new(
                "optional_hasValue",
                "hasValue",
                true,
                &[P::OPTIONAL],
                has_value,
            ),
            Overload::new(
                "optional_or_optional",
                "or",
                true,
                &[P::OPTIONAL, P::OPTIONAL],
                or,
            ),
            Overload::new(
                "optional_orValue_value",
                "orValue",
                true,
                &[P::OPTIONAL, P::DYN],
                or_value,
            ),
            Overload::new("list_first", "first", true, &[P::LIST], first),
            Overload::new("list_last", "last", true, &[P::LIST], last),
            Overload::new(
                "optional_unwrap",
                "optional.unwrap",
                false,
                &[P::LIST],
                unwrap,
            ),
            Overload::new("optional_unwrapOpt", "unwrapOpt", true, &[P::LIST], unwrap),
        ],
        regex_functions: Vec::new(),
    }
}
