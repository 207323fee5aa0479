//! cel-go's math extension (`ext.Math`, `cel.lib.ext.math`): not part of the Kubernetes
//! environment; used by the cel-spec conformance environment.
//!
//! `math.greatest`/`math.least` are macros in cel-go that expand to `math.@max`/`math.@min`;
//! both spellings are registered so unexpanded calls work too.

use std::cmp::Ordering;
use std::sync::Arc;

use crate::library::{
    CallCtx, Declarations, Functions, Library, Overload, ParamType as P, cached, g, list, nso,
};
use crate::types::Type;
use crate::value::{EvalError, Value};

/// The library's name.
const NAME: &str = "cel.lib.ext.math";

/// The library at `version` (`u32::MAX`: every version).
pub fn library(version: u32) -> Library {
    Library::new(NAME, version, declarations, |_| functions())
}

// ---- declarations ------------------------------------------------------------------------

/// cel-go's math extension (`ext.Math`) at `version`. Not part of Kubernetes' environment.
pub fn declarations(version: u32) -> Arc<Declarations> {
    cached("math", version, declare)
}

fn declare(version: u32) -> Declarations {
    use Type::{Bool, Double, Dyn, Int, Uint};
    let mut lib = Declarations::new(NAME);
    for (function, op) in [("math.@min", "min"), ("math.@max", "max")] {
        let id = |suffix: &str| format!("math_@{op}_{suffix}");
        lib.function(
            function,
            vec![
                g(&id("double"), vec![Double], Double),
                g(&id("int"), vec![Int], Int),
                g(&id("uint"), vec![Uint], Uint),
                g(&id("double_double"), vec![Double, Double], Double),
                g(&id("int_int"), vec![Int, Int], Int),
                g(&id("uint_uint"), vec![Uint, Uint], Uint),
                g(&id("int_uint"), vec![Int, Uint], Dyn),
                g(&id("int_double"), vec![Int, Double], Dyn),
                g(&id("double_int"), vec![Double, Int], Dyn),
                g(&id("double_uint"), vec![Double, Uint], Dyn),
                g(&id("uint_int"), vec![Uint, Int], Dyn),
                g(&id("uint_double"), vec![Uint, Double], Dyn),
                g(&id("list_double"), vec![list(Double)], Double),
                g(&id("list_int"), vec![list(Int)], Int),
                g(&id("list_uint"), vec![list(Uint)], Uint),
            ],
        );
    }
    if version >= 1 {
        for name in ["ceil", "floor", "round", "trunc"] {
            lib.function(
                &format!("math.{name}"),
                vec![g(&format!("math_{name}_double"), vec![Double], Double)],
            );
        }
        for name in ["isInf", "isNaN", "isFinite"] {
            lib.function(
                &format!("math.{name}"),
                vec![g(&format!("math_{name}_double"), vec![Double], Bool)],
            );
        }
        for name in ["abs", "sign"] {
            lib.function(
                &format!("math.{name}"),
                vec![
                    g(&format!("math_{name}_double"), vec![Double], Double),
                    g(&format!("math_{name}_int"), vec![Int], Int),
                    g(&format!("math_{name}_uint"), vec![Uint], Uint),
                ],
            );
        }
        for name in ["bitAnd", "bitOr", "bitXor"] {
            lib.function(
                &format!("math.{name}"),
                vec![
                    g(&format!("math_{name}_int_int"), vec![Int, Int], Int),
                    g(&format!("math_{name}_uint_uint"), vec![Uint, Uint], Uint),
                ],
            );
        }
        lib.function(
            "math.bitNot",
            vec![
                g("math_bitNot_int_int", vec![Int], Int),
                g("math_bitNot_uint_uint", vec![Uint], Uint),
            ],
        );
        for name in ["bitShiftLeft", "bitShiftRight"] {
            lib.function(
                &format!("math.{name}"),
                vec![
                    g(&format!("math_{name}_int_int"), vec![Int, Int], Int),
                    g(&format!("math_{name}_uint_int"), vec![Uint, Int], Uint),
                ],
            );
        }
    }
    if version >= 2 {
        lib.function(
            "math.sqrt",
            vec![
                g("math_sqrt_double", vec![Double], Double),
                g("math_sqrt_int", vec![Int], Double),
                g("math_sqrt_uint", vec![Uint], Double),
            ],
        );
    }
    lib
}

// ---- implementations and runtime costs ----------------------------------------------

type R<'a> = Result<Value<'a>, EvalError>;

fn is_number(v: &Value<'_>) -> bool {
    matches!(v, Value::Int(_) | Value::Uint(_) | Value::Double(_))
}

/// The extreme of `values`: `greater` picks the maximum. Equal values keep the first.
fn extreme<'a>(values: &[Value<'a>], greater: bool, name: &str) -> R<'a> {
    let Some(first) = values.first() else {
        return Err(EvalError::new(format!(
            "{name}(list) argument must not be empty"
        )));
    };
    let mut best = first.clone();
    for v in &values[1..] {
        if !is_number(&best) || !is_number(v) {
            return Err(EvalError::new(format!("no such overload: {name}")));
        }
        let o = best
            .cel_cmp(v)
            .map_err(|e| EvalError::new(format!("{}: {name}", e.message)))?;
        let replace = if greater {
            o == Ordering::Less
        } else {
            o == Ordering::Greater
        };
        if replace {
            best = v.clone();
        }
    }
    if !is_number(&best) {
        return Err(EvalError::new(format!("no such overload: {name}")));
    }
    Ok(best)
}

fn args_or_list<'a>(a: &[Value<'a>]) -> Vec<Value<'a>> {
    match a {
        [Value::List(l)] => l.to_vec(),
        _ => a.to_vec(),
    }
}

fn max<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    extreme(&args_or_list(a), true, "math.@max")
}

fn min<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    extreme(&args_or_list(a), false, "math.@min")
}

fn double_fn<'a>(a: &[Value<'a>], f: fn(f64) -> f64) -> R<'a> {
    match &a[0] {
        Value::Double(d) => Ok(Value::Double(f(*d))),
        _ => Err(nso()),
    }
}

fn ceil<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    double_fn(a, f64::ceil)
}
fn floor<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    double_fn(a, f64::floor)
}
fn round<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    // Go math.Round: half away from zero, like Rust's f64::round.
    double_fn(a, f64::round)
}
fn trunc<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    double_fn(a, f64::trunc)
}

fn double_pred<'a>(a: &[Value<'a>], f: fn(f64) -> bool) -> R<'a> {
    match &a[0] {
        Value::Double(d) => Ok(Value::Bool(f(*d))),
        _ => Err(nso()),
    }
}

fn is_inf<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    double_pred(a, f64::is_infinite)
}
fn is_nan<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    double_pred(a, f64::is_nan)
}
fn is_finite<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    double_pred(a, f64::is_finite)
}

fn abs<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    match &a[0] {
        Value::Double(d) => Ok(Value::Double(d.abs())),
        Value::Int(i) => i
            .checked_abs()
            .map(Value::Int)
            .ok_or_else(|| EvalError::new("integer overflow")),
        Value::Uint(u) => Ok(Value::Uint(*u)),
        _ => Err(nso()),
    }
}

fn sign<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    match &a[0] {
        Value::Double(d) if d.is_nan() => Ok(Value::Double(*d)),
        Value::Double(d) => Ok(Value::Double(if *d > 0.0 {
            1.0
        } else if *d < 0.0 {
            -1.0
        } else {
            0.0
        })),
        Value::Int(i) => Ok(Value::Int(i.signum())),
        Value::Uint(u) => Ok(Value::Uint(u64::from(*u != 0))),
        _ => Err(nso()),
    }
}

fn sqrt<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    match &a[0] {
        Value::Double(d) => Ok(Value::Double(d.sqrt())),
        Value::Int(i) => Ok(Value::Double((*i as f64).sqrt())),
        Value::Uint(u) => Ok(Value::Double((*u as f64).sqrt())),
        _ => Err(nso()),
    }
}

fn bit_op<'a>(a: &[Value<'a>], fi: fn(i64, i64) -> i64, fu: fn(u64, u64) -> u64) -> R<'a> {
    match (&a[0], &a[1]) {
        (Value::Int(x), Value::Int(y)) => Ok(Value::Int(fi(*x, *y))),
        (Value::Uint(x), Value::Uint(y)) => Ok(Value::Uint(fu(*x, *y))),
        _ => Err(nso()),
    }
}

fn bit_and<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    bit_op(a, |x, y| x & y, |x, y| x & y)
}
fn bit_or<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    bit_op(a, |x, y| x | y, |x, y| x | y)
}
fn bit_xor<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    bit_op(a, |x, y| x ^ y, |x, y| x ^ y)
}

fn bit_not<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    match &a[0] {
        Value::Int(x) => Ok(Value::Int(!x)),
        Value::Uint(x) => Ok(Value::Uint(!x)),
        _ => Err(nso()),
    }
}

fn shift<'a>(a: &[Value<'a>], left: bool) -> R<'a> {
    let Value::Int(bits) = &a[1] else {
        return Err(nso());
    };
    let name = if left {
        "bitShiftLeft"
    } else {
        "bitShiftRight"
    };
    if *bits < 0 {
        return Err(EvalError::new(format!(
            "math.{name}() negative offset: {bits}"
        )));
    }
    // Go shifts by 64 or more give 0; right shifts of ints are logical (through uint).
    let b = u32::try_from(*bits).unwrap_or(u32::MAX);
    let sh = |u: u64| -> u64 {
        if left {
            u.checked_shl(b).unwrap_or(0)
        } else {
            u.checked_shr(b).unwrap_or(0)
        }
    };
    match &a[0] {
        Value::Int(x) => Ok(Value::Int(sh(*x as u64) as i64)),
        Value::Uint(x) => Ok(Value::Uint(sh(*x))),
        _ => Err(nso()),
    }
}

fn shift_left<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    shift(a, true)
}
fn shift_right<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    shift(a, false)
}

fn variadic(id: &'static str, function: &'static str, imp: crate::library::NativeFn) -> Overload {
    Overload {
        id,
        function,
        member: false,
        params: None,
        imp,
        cost: None,
        cost_by_id: false,
    }
}

/// The parameter types of the `math.@max`/`math.@min` overloads by id suffix, in declaration
/// order.
const EXTREME_PARAMS: [(&str, &[P]); 15] = [
    ("double", &[P::DOUBLE]),
    ("int", &[P::INT]),
    ("uint", &[P::UINT]),
    ("double_double", &[P::DOUBLE, P::DOUBLE]),
    ("int_int", &[P::INT, P::INT]),
    ("uint_uint", &[P::UINT, P::UINT]),
    ("int_uint", &[P::INT, P::UINT]),
    ("int_double", &[P::INT, P::DOUBLE]),
    ("double_int", &[P::DOUBLE, P::INT]),
    ("double_uint", &[P::DOUBLE, P::UINT]),
    ("uint_int", &[P::UINT, P::INT]),
    ("uint_double", &[P::UINT, P::DOUBLE]),
    ("list_double", &[P::LIST]),
    ("list_int", &[P::LIST]),
    ("list_uint", &[P::LIST]),
];

/// The declared ids of `math.@max` and `math.@min`, in [`EXTREME_PARAMS`]' order (spelled out
/// because ids are `&'static str`).
const EXTREME_IDS: [[&str; 15]; 2] = [
    [
        "math_@max_double",
        "math_@max_int",
        "math_@max_uint",
        "math_@max_double_double",
        "math_@max_int_int",
        "math_@max_uint_uint",
        "math_@max_int_uint",
        "math_@max_int_double",
        "math_@max_double_int",
        "math_@max_double_uint",
        "math_@max_uint_int",
        "math_@max_uint_double",
        "math_@max_list_double",
        "math_@max_list_int",
        "math_@max_list_uint",
    ],
    [
        "math_@min_double",
        "math_@min_int",
        "math_@min_uint",
        "math_@min_double_double",
        "math_@min_int_int",
        "math_@min_uint_uint",
        "math_@min_int_uint",
        "math_@min_int_double",
        "math_@min_double_int",
        "math_@min_double_uint",
        "math_@min_uint_int",
        "math_@min_uint_double",
        "math_@min_list_double",
        "math_@min_list_int",
        "math_@min_list_uint",
    ],
];

/// The math extension.
pub fn functions() -> Functions {
    let mut o = Vec::new();
    for (k, (f, imp)) in [
        ("math.@max", max as crate::library::NativeFn),
        ("math.@min", min),
    ]
    .into_iter()
    .enumerate()
    {
        // The declared overloads, by the checker's ids; one implementation serves them all.
        for (id, (suffix, params)) in EXTREME_IDS[k].into_iter().zip(EXTREME_PARAMS) {
            debug_assert!(id.ends_with(suffix));
            o.push(Overload::new(id, f, false, params, imp));
        }
        // Arguments of other kinds (reachable through `dyn`) reach the same implementation,
        // which reports them.
        let ids: [&'static str; 2] = if f == "math.@max" {
            ["math_@max_any", "math_@max_pair"]
        } else {
            ["math_@min_any", "math_@min_pair"]
        };
        o.push(Overload::new(ids[0], f, false, &[P::DYN], imp));
        o.push(Overload::new(ids[1], f, false, &[P::DYN, P::DYN], imp));
    }
    o.push(variadic("math_greatest_variadic", "math.greatest", max));
    o.push(variadic("math_least_variadic", "math.least", min));
    o.extend([
        Overload::new("math_ceil_double", "math.ceil", false, &[P::DOUBLE], ceil),
        Overload::new(
            "math_floor_double",
            "math.floor",
            false,
            &[P::DOUBLE],
            floor,
        ),
        Overload::new(
            "math_round_double",
            "math.round",
            false,
            &[P::DOUBLE],
            round,
        ),
        Overload::new(
            "math_trunc_double",
            "math.trunc",
            false,
            &[P::DOUBLE],
            trunc,
        ),
        Overload::new(
            "math_isInf_double",
            "math.isInf",
            false,
            &[P::DOUBLE],
            is_inf,
        ),
        Overload::new(
            "math_isNaN_double",
            "math.isNaN",
            false,
            &[P::DOUBLE],
            is_nan,
        ),
        Overload::new(
            "math_isFinite_double",
            "math.isFinite",
            false,
            &[P::DOUBLE],
            is_finite,
        ),
        Overload::new("math_abs_double", "math.abs", false, &[P::DOUBLE], abs),
        Overload::new("math_abs_int", "math.abs", false, &[P::INT], abs),
        Overload::new("math_abs_uint", "math.abs", false, &[P::UINT], abs),
        Overload::new("math_sign_double", "math.sign", false, &[P::DOUBLE], sign),
        Overload::new("math_sign_int", "math.sign", false, &[P::INT], sign),
        Overload::new("math_sign_uint", "math.sign", false, &[P::UINT], sign),
        Overload::new("math_sqrt_double", "math.sqrt", false, &[P::DOUBLE], sqrt),
        Overload::new("math_sqrt_int", "math.sqrt", false, &[P::INT], sqrt),
        Overload::new("math_sqrt_uint", "math.sqrt", false, &[P::UINT], sqrt),
        Overload::new(
            "math_bitAnd_int_int",
            "math.bitAnd",
            false,
            &[P::INT, P::INT],
            bit_and,
        ),
        Overload::new(
            "math_bitAnd_uint_uint",
            "math.bitAnd",
            false,
            &[P::UINT, P::UINT],
            bit_and,
        ),
        Overload::new(
            "math_bitOr_int_int",
            "math.bitOr",
            false,
            &[P::INT, P::INT],
            bit_or,
        ),
        Overload::new(
            "math_bitOr_uint_uint",
            "math.bitOr",
            false,
            &[P::UINT, P::UINT],
            bit_or,
        ),
        Overload::new(
            "math_bitXor_int_int",
            "math.bitXor",
            false,
            &[P::INT, P::INT],
            bit_xor,
        ),
        Overload::new(
            "math_bitXor_uint_uint",
            "math.bitXor",
            false,
            &[P::UINT, P::UINT],
            bit_xor,
        ),
        Overload::new(
            "math_bitNot_int_int",
            "math.bitNot",
            false,
            &[P::INT],
            bit_not,
        ),
        Overload::new(
            "math_bitNot_uint_uint",
            "math.bitNot",
            false,
            &[P::UINT],
            bit_not,
        ),
        Overload::new(
            "math_bitShiftLeft_int_int",
            "math.bitShiftLeft",
            false,
            &[P::INT, P::INT],
            shift_left,
        ),
        Overload::new(
            "math_bitShiftLeft_uint_int",
            "math.bitShiftLeft",
            false,
            &[P::UINT, P::INT],
            shift_left,
        ),
        Overload::new(
            "math_bitShiftRight_int_int",
            "math.bitShiftRight",
            false,
            &[P::INT, P::INT],
            shift_right,
        ),
        Overload::new(
            "math_bitShiftRight_uint_int",
            "math.bitShiftRight",
            false,
            &[P::UINT, P::INT],
            shift_right,
        ),
    ]);
    Functions {
        name: NAME,
        overloads: o,
        regex_functions: Vec::new(),
    }
}
