//! cel-go's optional types library (`cel.OptionalTypes()`, `cel.lib.optional`):
//! `optional.of`, `optional.none`, `optional.ofNonZeroValue`, `value`, `hasValue`, `or`,
//! `orValue`, `first`, `last`, `optional.unwrap`, `unwrapOpt`, and the optional selection and
//! index operators. `or`/`orValue` short-circuit in the evaluator and `_?._`, `_[?_]` are
//! planned as their own nodes; the overloads here serve dynamic dispatch.

use std::sync::Arc;

use crate::library::{
    CallCtx, Declarations, Functions, Library, Overload, ParamType as P, cached, g, list, m, map,
    nso, param,
};
use crate::types::Type;
use crate::value::{EvalError, Value};

/// The library's name.
const NAME: &str = "cel.lib.optional";

/// The library at `version` (`u32::MAX`: every version).
pub fn library(version: u32) -> Library {
    Library::new(NAME, version, declarations, |_| functions())
}

fn opt(t: Type) -> Type {
    Type::Optional(Box::new(t))
}

// ---- declarations ------------------------------------------------------------------------

/// cel-go's optional types library (`cel.OptionalTypes`); `u32::MAX` = every version
/// (what Kubernetes uses). Version 2 adds `first`, `last`, `optional.unwrap`, `unwrapOpt`.
pub fn declarations(version: u32) -> Arc<Declarations> {
    cached("optional", version, declare)
}

fn declare(version: u32) -> Declarations {
    use Type::{Bool, Dyn, Int, String as Str};
    let v = param("V");
    let k = param("K");
    let opt_v = opt(v.clone());
    let list_v = list(v.clone());
    let map_kv = map(k.clone(), v.clone());
    let mut lib = Declarations::new(NAME);
    lib.type_ident("optional_type", opt(param("T")));
    lib.function(
        "optional.of",
        vec![g("optional_of", vec![v.clone()], opt_v.clone())],
    );
    lib.function(
        "optional.ofNonZeroValue",
        vec![g("optional_ofNonZeroValue", vec![v.clone()], opt_v.clone())],
    );
    lib.function(
        "optional.none",
        vec![g("optional_none", vec![], opt_v.clone())],
    );
    lib.function(
        "value",
        vec![m("optional_value", vec![opt_v.clone()], v.clone())],
    );
    lib.function(
        "hasValue",
        vec![m("optional_hasValue", vec![opt_v.clone()], Bool)],
    );
    lib.function(
        "or",
        vec![m(
            "optional_or_optional",
            vec![opt_v.clone(), opt_v.clone()],
            opt_v.clone(),
        )],
    );
    lib.function(
        "orValue",
        vec![m(
            "optional_orValue_value",
            vec![opt_v.clone(), v.clone()],
            v.clone(),
        )],
    );
    lib.function(
        "_?._",
        vec![g("select_optional_field", vec![Dyn, Str], opt_v.clone())],
    );
    lib.function(
        "_[?_]",
        vec![
            g(
                "list_optindex_optional_int",
                vec![list_v.clone(), Int],
                opt_v.clone(),
            ),
            g(
                "optional_list_optindex_optional_int",
                vec![opt(list_v.clone()), Int],
                opt_v.clone(),
            ),
            g(
                "map_optindex_optional_value",
                vec![map_kv.clone(), k.clone()],
                opt_v.clone(),
            ),
            g(
                "optional_map_optindex_optional_value",
                vec![opt(map_kv.clone()), k.clone()],
                opt_v.clone(),
            ),
        ],
    );
    lib.function(
        "_[_]",
        vec![
            g(
                "optional_list_index_int",
                vec![opt(list_v.clone()), Int],
                opt_v.clone(),
            ),
            g(
                "optional_map_index_value",
                vec![opt(map_kv), k],
                opt_v.clone(),
            ),
        ],
    );
    if version >= 2 {
        lib.function(
            "last",
            vec![m("list_last", vec![list_v.clone()], opt_v.clone())],
        );
        lib.function(
            "first",
            vec![m("list_first", vec![list_v.clone()], opt_v.clone())],
        );
        lib.function(
            "optional.unwrap",
            vec![g(
                "optional_unwrap",
                vec![list(opt_v.clone())],
                list_v.clone(),
            )],
        );
        lib.function(
            "unwrapOpt",
            vec![m("optional_unwrapOpt", vec![list(opt_v)], list_v)],
        );
    }
    lib
}

// ---- implementations and runtime costs ----------------------------------------------

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
pub fn functions() -> Functions {
    Functions {
        name: NAME,
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
