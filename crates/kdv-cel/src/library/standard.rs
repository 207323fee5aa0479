//! cel-go's standard library (`common/stdlib`, `cel.lib.std`): operators, comparisons,
//! conversions, `size`, string predicates, `matches`, `type`, time accessors — their
//! declarations (cel-go's overload ids in cel-go's order, the type identifiers), their
//! implementations with runtime costs, and cel-go's static cost estimates of them.

use std::cmp::Ordering;
use std::ops::Add as _;
use std::sync::{Arc, LazyLock};

use super::decl::{g, list, m, map, param};
use super::estimate::{
    CallEstimate, CallSite, CostEstimate, REGEX_STRING_LENGTH_COST_FACTOR,
    STRING_TRAVERSAL_COST_FACTOR, SizeEstimate,
};
use super::{CallCtx, Declarations, Functions, Library, Overload, ParamType, nso, traversal};
use crate::types::Type;
use crate::value::{Bytes, Duration, EvalError, List, Str, Timestamp, Value, typed};

/// cel-go's name of the library.
const NAME: &str = "cel.lib.std";

/// The library.
pub fn library() -> Library {
    Library::new(NAME, 0, |_| declarations(), |_| functions())
}

// ---- declarations ------------------------------------------------------------------------

static DECLARATIONS: LazyLock<Arc<Declarations>> = LazyLock::new(|| Arc::new(declare()));

/// The declarations: functions with cel-go's overload ids in cel-go's order, and the type
/// identifiers. Built once, shared by every environment.
pub fn declarations() -> Arc<Declarations> {
    DECLARATIONS.clone()
}

/// Overload ids the checker hides unless cross-type numeric comparisons are enabled.
pub(crate) fn is_cross_type_comparison(id: &str) -> bool {
    const SUFFIXES: [&str; 6] = [
        "_int64_double",
        "_int64_uint64",
        "_uint64_double",
        "_uint64_int64",
        "_double_int64",
        "_double_uint64",
    ];
    (id.starts_with("less_") || id.starts_with("greater_"))
        && SUFFIXES.iter().any(|s| id.ends_with(s))
}

fn declare() -> Declarations {
    use Type::{Bool, Bytes, Double, Duration, Dyn, Int, String as Str, Timestamp, Uint};
    let a = param("A");
    let b = param("B");
    let list_a = list(a.clone());
    let map_ab = map(a.clone(), b.clone());
    let mut lib = Declarations::new(NAME);

    lib.function(
        "_?_:_",
        vec![g(
            "conditional",
            vec![Bool, a.clone(), a.clone()],
            a.clone(),
        )],
    );
    lib.function("_&&_", vec![g("logical_and", vec![Bool, Bool], Bool)]);
    lib.function("_||_", vec![g("logical_or", vec![Bool, Bool], Bool)]);
    lib.function("!_", vec![g("logical_not", vec![Bool], Bool)]);
    lib.function(
        "@not_strictly_false",
        vec![g("not_strictly_false", vec![Bool], Bool)],
    );
    lib.function("_==_", vec![g("equals", vec![a.clone(), a.clone()], Bool)]);
    lib.function(
        "_!=_",
        vec![g("not_equals", vec![a.clone(), a.clone()], Bool)],
    );
    lib.function(
        "_+_",
        vec![
            g("add_bytes", vec![Bytes, Bytes], Bytes),
            g("add_double", vec![Double, Double], Double),
            g("add_duration_duration", vec![Duration, Duration], Duration),
            g(
                "add_duration_timestamp",
                vec![Duration, Timestamp],
                Timestamp,
            ),
            g(
                "add_timestamp_duration",
                vec![Timestamp, Duration],
                Timestamp,
            ),
            g("add_int64", vec![Int, Int], Int),
            g(
                "add_list",
                vec![list_a.clone(), list_a.clone()],
                list_a.clone(),
            ),
            g("add_string", vec![Str, Str], Str),
            g("add_uint64", vec![Uint, Uint], Uint),
        ],
    );
    lib.function(
        "_/_",
        vec![
            g("divide_double", vec![Double, Double], Double),
            g("divide_int64", vec![Int, Int], Int),
            g("divide_uint64", vec![Uint, Uint], Uint),
        ],
    );
    lib.function(
        "_%_",
        vec![
            g("modulo_int64", vec![Int, Int], Int),
            g("modulo_uint64", vec![Uint, Uint], Uint),
        ],
    );
    lib.function(
        "_*_",
        vec![
            g("multiply_double", vec![Double, Double], Double),
            g("multiply_int64", vec![Int, Int], Int),
            g("multiply_uint64", vec![Uint, Uint], Uint),
        ],
    );
    lib.function(
        "-_",
        vec![
            g("negate_double", vec![Double], Double),
            g("negate_int64", vec![Int], Int),
        ],
    );
    lib.function(
        "_-_",
        vec![
            g("subtract_double", vec![Double, Double], Double),
            g(
                "subtract_duration_duration",
                vec![Duration, Duration],
                Duration,
            ),
            g("subtract_int64", vec![Int, Int], Int),
            g(
                "subtract_timestamp_duration",
                vec![Timestamp, Duration],
                Timestamp,
            ),
            g(
                "subtract_timestamp_timestamp",
                vec![Timestamp, Timestamp],
                Duration,
            ),
            g("subtract_uint64", vec![Uint, Uint], Uint),
        ],
    );
    for (function, prefix) in [
        ("_<_", "less"),
        ("_<=_", "less_equals"),
        ("_>_", "greater"),
        ("_>=_", "greater_equals"),
    ] {
        let o = |suffix: &str, l: Type, r: Type| g(&format!("{prefix}_{suffix}"), vec![l, r], Bool);
        lib.function(
            function,
            vec![
                o("bool", Bool, Bool),
                o("int64", Int, Int),
                o("int64_double", Int, Double),
                o("int64_uint64", Int, Uint),
                o("uint64", Uint, Uint),
                o("uint64_double", Uint, Double),
                o("uint64_int64", Uint, Int),
                o("double", Double, Double),
                o("double_int64", Double, Int),
                o("double_uint64", Double, Uint),
                o("string", Str, Str),
                o("bytes", Bytes, Bytes),
                o("timestamp", Timestamp, Timestamp),
                o("duration", Duration, Duration),
            ],
        );
    }
    lib.function(
        "_[_]",
        vec![
            g("index_list", vec![list_a.clone(), Int], a.clone()),
            g("index_map", vec![map_ab.clone(), a.clone()], b.clone()),
        ],
    );
    lib.function(
        "@in",
        vec![
            g("in_list", vec![a.clone(), list_a.clone()], Bool),
            g("in_map", vec![a.clone(), map_ab.clone()], Bool),
        ],
    );
    lib.function(
        "size",
        vec![
            g("size_bytes", vec![Bytes], Int),
            m("bytes_size", vec![Bytes], Int),
            g("size_list", vec![list_a.clone()], Int),
            m("list_size", vec![list_a.clone()], Int),
            g("size_map", vec![map_ab.clone()], Int),
            m("map_size", vec![map_ab.clone()], Int),
            g("size_string", vec![Str], Int),
            m("string_size", vec![Str], Int),
        ],
    );
    lib.function(
        "type",
        vec![g("type", vec![a.clone()], Type::Type(Box::new(a.clone())))],
    );
    lib.function(
        "bool",
        vec![
            g("bool_to_bool", vec![Bool], Bool),
            g("string_to_bool", vec![Str], Bool),
        ],
    );
    lib.function(
        "bytes",
        vec![
            g("bytes_to_bytes", vec![Bytes], Bytes),
            g("string_to_bytes", vec![Str], Bytes),
        ],
    );
    lib.function(
        "double",
        vec![
            g("double_to_double", vec![Double], Double),
            g("int64_to_double", vec![Int], Double),
            g("string_to_double", vec![Str], Double),
            g("uint64_to_double", vec![Uint], Double),
        ],
    );
    lib.function(
        "duration",
        vec![
            g("duration_to_duration", vec![Duration], Duration),
            g("string_to_duration", vec![Str], Duration),
        ],
    );
    lib.function("dyn", vec![g("to_dyn", vec![a.clone()], Dyn)]);
    lib.function(
        "int",
        vec![
            g("int64_to_int64", vec![Int], Int),
            g("double_to_int64", vec![Double], Int),
            g("duration_to_int64", vec![Duration], Int),
            g("string_to_int64", vec![Str], Int),
            g("timestamp_to_int64", vec![Timestamp], Int),
            g("uint64_to_int64", vec![Uint], Int),
        ],
    );
    lib.function(
        "string",
        vec![
            g("string_to_string", vec![Str], Str),
            g("bool_to_string", vec![Bool], Str),
            g("bytes_to_string", vec![Bytes], Str),
            g("double_to_string", vec![Double], Str),
            g("duration_to_string", vec![Duration], Str),
            g("int64_to_string", vec![Int], Str),
            g("timestamp_to_string", vec![Timestamp], Str),
            g("uint64_to_string", vec![Uint], Str),
        ],
    );
    lib.function(
        "timestamp",
        vec![
            g("timestamp_to_timestamp", vec![Timestamp], Timestamp),
            g("int64_to_timestamp", vec![Int], Timestamp),
            g("string_to_timestamp", vec![Str], Timestamp),
        ],
    );
    lib.function(
        "uint",
        vec![
            g("uint64_to_uint64", vec![Uint], Uint),
            g("double_to_uint64", vec![Double], Uint),
            g("int64_to_uint64", vec![Int], Uint),
            g("string_to_uint64", vec![Str], Uint),
        ],
    );
    lib.function("contains", vec![m("contains_string", vec![Str, Str], Bool)]);
    lib.function(
        "endsWith",
        vec![m("ends_with_string", vec![Str, Str], Bool)],
    );
    lib.function(
        "startsWith",
        vec![m("starts_with_string", vec![Str, Str], Bool)],
    );
    lib.function(
        "matches",
        vec![
            g("matches", vec![Str, Str], Bool),
            m("matches_string", vec![Str, Str], Bool),
        ],
    );
    let ts = |id: &str| m(id, vec![Timestamp], Int);
    let ts_tz = |id: &str| m(id, vec![Timestamp, Str], Int);
    let dur = |id: &str| m(id, vec![Duration], Int);
    lib.function(
        "getFullYear",
        vec![ts("timestamp_to_year"), ts_tz("timestamp_to_year_with_tz")],
    );
    lib.function(
        "getMonth",
        vec![
            ts("timestamp_to_month"),
            ts_tz("timestamp_to_month_with_tz"),
        ],
    );
    lib.function(
        "getDayOfYear",
        vec![
            ts("timestamp_to_day_of_year"),
            ts_tz("timestamp_to_day_of_year_with_tz"),
        ],
    );
    lib.function(
        "getDayOfMonth",
        vec![
            ts("timestamp_to_day_of_month"),
            ts_tz("timestamp_to_day_of_month_with_tz"),
        ],
    );
    lib.function(
        "getDate",
        vec![
            ts("timestamp_to_day_of_month_1_based"),
            ts_tz("timestamp_to_day_of_month_1_based_with_tz"),
        ],
    );
    lib.function(
        "getDayOfWeek",
        vec![
            ts("timestamp_to_day_of_week"),
            ts_tz("timestamp_to_day_of_week_with_tz"),
        ],
    );
    lib.function(
        "getHours",
        vec![
            ts("timestamp_to_hours"),
            ts_tz("timestamp_to_hours_with_tz"),
            dur("duration_to_hours"),
        ],
    );
    lib.function(
        "getMinutes",
        vec![
            ts("timestamp_to_minutes"),
            ts_tz("timestamp_to_minutes_with_tz"),
            dur("duration_to_minutes"),
        ],
    );
    lib.function(
        "getSeconds",
        vec![
            ts("timestamp_to_seconds"),
            ts_tz("timestamp_to_seconds_tz"),
            dur("duration_to_seconds"),
        ],
    );
    lib.function(
        "getMilliseconds",
        vec![
            ts("timestamp_to_milliseconds"),
            ts_tz("timestamp_to_milliseconds_with_tz"),
            dur("duration_to_milliseconds"),
        ],
    );

    // Type identifiers (cel-go declares them with their runtime type names).
    lib.type_ident("bool", Bool);
    lib.type_ident("bytes", Bytes);
    lib.type_ident("double", Double);
    lib.type_ident("google.protobuf.Duration", Duration);
    lib.type_ident("int", Int);
    lib.type_ident("list", list_a);
    lib.type_ident("map", map_ab);
    lib.type_ident("null_type", Type::Null);
    lib.type_ident("string", Str);
    lib.type_ident("google.protobuf.Timestamp", Timestamp);
    lib.type_ident("type", Type::Type(Box::new(Dyn)));
    lib.type_ident("uint", Uint);
    lib
}

// ---- implementations and runtime costs ----------------------------------------------

type R<'a> = Result<Value<'a>, EvalError>;

fn overflow() -> EvalError {
    EvalError::new("integer overflow")
}

fn uoverflow() -> EvalError {
    EvalError::new("unsigned integer overflow")
}

macro_rules! bin {
    ($name:ident, $p1:ident, $p2:ident, |$x:ident, $y:ident| $body:expr) => {
        fn $name<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
            match (&a[0], &a[1]) {
                (Value::$p1($x), Value::$p2($y)) => $body,
                _ => Err(nso()),
            }
        }
    };
}

macro_rules! un {
    ($name:ident, $p1:ident, |$x:ident| $body:expr) => {
        fn $name<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
            match &a[0] {
                Value::$p1($x) => $body,
                _ => Err(nso()),
            }
        }
    };
}

bin!(add_int, Int, Int, |x, y| x
    .checked_add(*y)
    .map(Value::Int)
    .ok_or_else(overflow));
bin!(add_uint, Uint, Uint, |x, y| x
    .checked_add(*y)
    .map(Value::Uint)
    .ok_or_else(uoverflow));
bin!(add_double, Double, Double, |x, y| Ok(Value::Double(x + y)));
bin!(add_string, String, String, |x, y| {
    if y.is_empty() {
        return Ok(Value::String(x.clone()));
    }
    if x.is_empty() {
        return Ok(Value::String(y.clone()));
    }
    let mut s = String::with_capacity(x.len() + y.len());
    s.push_str(x);
    s.push_str(y);
    Ok(Value::string(s))
});
bin!(add_bytes, Bytes, Bytes, |x, y| {
    let mut b = Vec::with_capacity(x.len() + y.len());
    b.extend_from_slice(x);
    b.extend_from_slice(y);
    Ok(Value::bytes(b))
});
bin!(add_list, List, List, |x, y| {
    // A set or map list on the left unions or merges (Kubernetes' list types).
    if let (Some(_), List::Typed(_, t) | List::Merged(_, t)) = (typed::list_kind(x), x) {
        return typed::keyed_list_add(x, t, y);
    }
    if y.is_empty() {
        return Ok(Value::List(x.clone()));
    }
    if x.is_empty() && typed::list_kind(y).is_none() {
        return Ok(Value::List(y.clone()));
    }
    let mut v = Vec::with_capacity(x.len() + y.len());
    v.extend(x.iter());
    v.extend(y.iter());
    Ok(Value::list(v))
});
bin!(add_ts_dur, Timestamp, Duration, |t, d| t
    .add(*d)
    .map(Value::Timestamp));
bin!(add_dur_ts, Duration, Timestamp, |d, t| t
    .add(*d)
    .map(Value::Timestamp));
bin!(add_dur_dur, Duration, Duration, |x, y| x
    .nanos()
    .checked_add(y.nanos())
    .map(|n| Value::Duration(Duration::from_nanos(n)))
    .ok_or_else(overflow));

bin!(sub_int, Int, Int, |x, y| x
    .checked_sub(*y)
    .map(Value::Int)
    .ok_or_else(overflow));
bin!(sub_uint, Uint, Uint, |x, y| x
    .checked_sub(*y)
    .map(Value::Uint)
    .ok_or_else(uoverflow));
bin!(sub_double, Double, Double, |x, y| Ok(Value::Double(x - y)));
bin!(sub_ts_ts, Timestamp, Timestamp, |x, y| x
    .sub(y)
    .map(Value::Duration));
bin!(sub_ts_dur, Timestamp, Duration, |t, d| t
    .sub_duration(*d)
    .map(Value::Timestamp));
bin!(sub_dur_dur, Duration, Duration, |x, y| x
    .nanos()
    .checked_sub(y.nanos())
    .map(|n| Value::Duration(Duration::from_nanos(n)))
    .ok_or_else(overflow));

bin!(mul_int, Int, Int, |x, y| x
    .checked_mul(*y)
    .map(Value::Int)
    .ok_or_else(overflow));
bin!(mul_uint, Uint, Uint, |x, y| x
    .checked_mul(*y)
    .map(Value::Uint)
    .ok_or_else(uoverflow));
bin!(mul_double, Double, Double, |x, y| Ok(Value::Double(x * y)));

bin!(div_int, Int, Int, |x, y| {
    if *y == 0 {
        return Err(EvalError::new("division by zero"));
    }
    x.checked_div(*y).map(Value::Int).ok_or_else(overflow)
});
bin!(div_uint, Uint, Uint, |x, y| {
    if *y == 0 {
        return Err(EvalError::new("division by zero"));
    }
    Ok(Value::Uint(x / y))
});
bin!(div_double, Double, Double, |x, y| Ok(Value::Double(x / y)));
bin!(mod_int, Int, Int, |x, y| {
    if *y == 0 {
        return Err(EvalError::new("modulus by zero"));
    }
    x.checked_rem(*y).map(Value::Int).ok_or_else(overflow)
});
bin!(mod_uint, Uint, Uint, |x, y| {
    if *y == 0 {
        return Err(EvalError::new("modulus by zero"));
    }
    Ok(Value::Uint(x % y))
});

un!(neg_int, Int, |x| x
    .checked_neg()
    .map(Value::Int)
    .ok_or_else(overflow));
un!(neg_double, Double, |x| Ok(Value::Double(-x)));
un!(not_bool, Bool, |x| Ok(Value::Bool(!x)));

fn equals<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Bool(a[0].equals(&a[1])?))
}

fn not_equals<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Bool(!a[0].equals(&a[1])?))
}

/// cel-go cost of `==`, `!=` and string/bytes ordering: ⌈min(size(a), size(b)) · 0.1⌉.
pub(crate) fn cost_min_size(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    match args {
        // A string of at most 10 bytes has at most 10 characters: no need to count them.
        [Value::String(a), Value::String(b)] if a.as_str().len().min(b.as_str().len()) <= 10 => {
            u64::from(!a.as_str().is_empty() && !b.as_str().is_empty())
        }
        [a, b] => traversal(a.cost_size().min(b.cost_size())),
        _ => 1,
    }
}

fn cost_sum_size(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    match args {
        [a, b] => traversal(a.cost_size() + b.cost_size()),
        _ => 1,
    }
}

fn cost_arg0(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    args.first().map_or(1, |a| traversal(a.cost_size()))
}

fn cost_arg1(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    args.get(1).map_or(1, |a| traversal(a.cost_size()))
}

fn cost_in_list(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    args.get(1).map_or(1, Value::cost_size)
}

fn cost_matches(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    match args {
        [s, re] => {
            let s = ((1 + s.cost_size()) as f64 * 0.1).ceil() as u64;
            let r = (re.cost_size() as f64 * 0.25).ceil() as u64;
            s.saturating_mul(r)
        }
        _ => 1,
    }
}

fn cost_contains(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    match args {
        [s, sub] => traversal(s.cost_size()).saturating_mul(traversal(sub.cost_size())),
        _ => 1,
    }
}

fn cmp_op(a: &[Value<'_>], accept: fn(Ordering) -> bool) -> Result<bool, EvalError> {
    a[0].cel_cmp(&a[1]).map(accept)
}

fn less<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    cmp_op(a, |o| o == Ordering::Less).map(Value::Bool)
}
fn less_equals<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    cmp_op(a, |o| o != Ordering::Greater).map(Value::Bool)
}
fn greater<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    cmp_op(a, |o| o == Ordering::Greater).map(Value::Bool)
}
fn greater_equals<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    cmp_op(a, |o| o != Ordering::Less).map(Value::Bool)
}

fn in_list<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    match &a[1] {
        Value::List(l) => Ok(Value::Bool(l.iter().any(|e| e.cel_eq(&a[0])))),
        _ => Err(nso()),
    }
}

fn in_map<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    match &a[1] {
        Value::Map(m) => Ok(Value::Bool(match &a[0] {
            Value::Bool(_)
            | Value::Int(_)
            | Value::Uint(_)
            | Value::String(_)
            | Value::Double(_) => m.get(&a[0])?.is_some(),
            _ => false,
        })),
        _ => Err(nso()),
    }
}

fn size<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Int(match &a[0] {
        Value::String(s) => s.chars().count() as i64,
        Value::Bytes(b) => b.len() as i64,
        Value::List(l) => l.len() as i64,
        Value::Map(m) => m.len() as i64,
        _ => return Err(nso()),
    }))
}

bin!(contains, String, String, |s, t| Ok(Value::Bool(
    s.contains(t.as_str())
)));
bin!(starts_with, String, String, |s, t| Ok(Value::Bool(
    s.starts_with(t.as_str())
)));
bin!(ends_with, String, String, |s, t| Ok(Value::Bool(
    s.ends_with(t.as_str())
)));

fn matches<'a>(ctx: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    match (&a[0], &a[1]) {
        (Value::String(s), Value::String(p)) => {
            if let Some(re) = ctx.precompiled {
                return Ok(Value::Bool(re.is_match(s)));
            }
            Ok(Value::Bool(ctx.regex(p)?.is_match(s)))
        }
        _ => Err(nso()),
    }
}

fn conv_err(from: &str, to: &str) -> EvalError {
    EvalError::new(format!("type conversion error from '{from}' to '{to}'"))
}

fn identity<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(a[0].clone())
}

fn to_int<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Int(match &a[0] {
        Value::Int(i) => *i,
        Value::Uint(u) => i64::try_from(*u).map_err(|_| overflow())?,
        Value::Double(d) => {
            if d.is_nan() || *d <= -9.223_372_036_854_776e18 || *d >= 9.223_372_036_854_776e18 {
                return Err(overflow());
            }
            *d as i64
        }
        Value::String(s) => parse_go_int(s).ok_or_else(|| conv_err("string", "int"))?,
        Value::Timestamp(t) => t.secs(),
        Value::Duration(d) => d.nanos(),
        _ => return Err(nso()),
    }))
}

fn parse_go_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn to_uint<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Uint(match &a[0] {
        Value::Uint(u) => *u,
        Value::Int(i) => u64::try_from(*i).map_err(|_| uoverflow())?,
        Value::Double(d) => {
            if d.is_nan() || *d < 0.0 || *d >= 1.844_674_407_370_955_2e19 {
                return Err(uoverflow());
            }
            *d as u64
        }
        Value::String(s) => {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(conv_err("string", "uint"));
            }
            s.parse().map_err(|_| conv_err("string", "uint"))?
        }
        _ => return Err(nso()),
    }))
}

/// Go `strconv.ParseFloat(s, 64)` for the inputs CEL sees (decimal, exponent, Inf, NaN).
pub(crate) fn parse_go_float(s: &str) -> Option<f64> {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let lower = body.to_ascii_lowercase();
    let special = matches!(lower.as_str(), "inf" | "infinity" | "nan");
    if !special
        && (body.is_empty()
            || !body
                .bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-')))
    {
        return None;
    }
    s.parse::<f64>().ok()
}

fn to_double<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Double(match &a[0] {
        Value::Double(d) => *d,
        Value::Int(i) => *i as f64,
        Value::Uint(u) => *u as f64,
        Value::String(s) => parse_go_float(s).ok_or_else(|| conv_err("string", "double"))?,
        _ => return Err(nso()),
    }))
}

fn to_bool<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Bool(match &a[0] {
        Value::Bool(b) => *b,
        Value::String(s) => match s.as_str() {
            "1" | "t" | "T" | "TRUE" | "true" | "True" => true,
            "0" | "f" | "F" | "FALSE" | "false" | "False" => false,
            _ => return Err(conv_err("string", "bool")),
        },
        _ => return Err(nso()),
    }))
}

fn to_string<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(match &a[0] {
        Value::String(s) => Value::String(s.clone()),
        Value::Bool(b) => Value::String(Str::Borrowed(if *b { "true" } else { "false" })),
        Value::Int(i) => Value::string(i.to_string()),
        Value::Uint(u) => Value::string(u.to_string()),
        Value::Double(d) => Value::string(crate::value::format_double(*d)),
        Value::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => Value::string(s),
            Err(_) => {
                return Err(EvalError::new(
                    "invalid UTF-8 in bytes, cannot convert to string",
                ));
            }
        },
        Value::Timestamp(t) => Value::string(t.to_string()),
        Value::Duration(d) => Value::string(d.to_string()),
        _ => return Err(nso()),
    })
}

fn to_bytes<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(match &a[0] {
        Value::Bytes(b) => Value::Bytes(b.clone()),
        Value::String(Str::Borrowed(s)) => Value::Bytes(Bytes::Borrowed(s.as_bytes())),
        Value::String(s) => Value::bytes(s.as_bytes()),
        _ => return Err(nso()),
    })
}

fn to_duration<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(match &a[0] {
        Value::Duration(d) => Value::Duration(*d),
        Value::String(s) => Value::Duration(
            Duration::parse(s).ok_or_else(|| conv_err("string", "google.protobuf.Duration"))?,
        ),
        _ => return Err(nso()),
    })
}

fn to_timestamp<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(match &a[0] {
        Value::Timestamp(t) => Value::Timestamp(*t),
        Value::String(s) => Value::Timestamp(Timestamp::parse_rfc3339(s)?),
        Value::Int(i) => Value::Timestamp(
            Timestamp::from_unix(*i, 0).ok_or_else(|| EvalError::new("timestamp overflow"))?,
        ),
        _ => return Err(nso()),
    })
}

fn to_type<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Type(a[0].type_of()))
}

/// A timestamp accessor, optionally with a time zone argument.
fn ts_field<'a>(a: &[Value<'a>], f: fn(&crate::value::time::Civil) -> i64) -> R<'a> {
    let Value::Timestamp(t) = &a[0] else {
        return Err(nso());
    };
    let offset = match a.get(1) {
        None => 0,
        Some(Value::String(tz)) => t.offset_in(tz)?,
        Some(_) => return Err(nso()),
    };
    Ok(Value::Int(f(&t.civil(offset))))
}

macro_rules! ts_accessor {
    ($name:ident, |$c:ident| $body:expr) => {
        fn $name<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
            ts_field(a, |$c| $body)
        }
    };
}

ts_accessor!(ts_year, |c| c.year);
ts_accessor!(ts_month, |c| c.month as i64 - 1);
ts_accessor!(ts_day_of_year, |c| c.yday as i64);
ts_accessor!(ts_day_of_month, |c| c.day as i64 - 1);
ts_accessor!(ts_date, |c| c.day as i64);
ts_accessor!(ts_day_of_week, |c| c.weekday as i64);
ts_accessor!(ts_hours, |c| c.hour as i64);
ts_accessor!(ts_minutes, |c| c.minute as i64);
ts_accessor!(ts_seconds, |c| c.second as i64);
ts_accessor!(ts_millis, |c| (c.nanos / 1_000_000) as i64);

un!(dur_hours, Duration, |d| Ok(Value::Int(
    d.nanos() / 3_600_000_000_000
)));
un!(dur_minutes, Duration, |d| Ok(Value::Int(
    d.nanos() / 60_000_000_000
)));
un!(dur_seconds, Duration, |d| Ok(Value::Int(
    d.nanos() / 1_000_000_000
)));
un!(dur_millis, Duration, |d| Ok(Value::Int(
    d.nanos() / 1_000_000
)));

use ParamType as P;

const ORDERED: &[(&str, [ParamType; 2])] = &[
    ("bool", [P::BOOL, P::BOOL]),
    ("int64", [P::INT, P::INT]),
    ("int64_double", [P::INT, P::DOUBLE]),
    ("int64_uint64", [P::INT, P::UINT]),
    ("uint64", [P::UINT, P::UINT]),
    ("uint64_double", [P::UINT, P::DOUBLE]),
    ("uint64_int64", [P::UINT, P::INT]),
    ("double", [P::DOUBLE, P::DOUBLE]),
    ("double_int64", [P::DOUBLE, P::INT]),
    ("double_uint64", [P::DOUBLE, P::UINT]),
    ("string", [P::STRING, P::STRING]),
    ("bytes", [P::BYTES, P::BYTES]),
    ("timestamp", [P::TIMESTAMP, P::TIMESTAMP]),
    ("duration", [P::DURATION, P::DURATION]),
];

/// Overload ids of the ordering operators, `[prefix][suffix]`, spelled out because ids are
/// `&'static str`.
const ORDER_IDS: [[&str; 14]; 4] = [
    [
        "less_bool",
        "less_int64",
        "less_int64_double",
        "less_int64_uint64",
        "less_uint64",
        "less_uint64_double",
        "less_uint64_int64",
        "less_double",
        "less_double_int64",
        "less_double_uint64",
        "less_string",
        "less_bytes",
        "less_timestamp",
        "less_duration",
    ],
    [
        "less_equals_bool",
        "less_equals_int64",
        "less_equals_int64_double",
        "less_equals_int64_uint64",
        "less_equals_uint64",
        "less_equals_uint64_double",
        "less_equals_uint64_int64",
        "less_equals_double",
        "less_equals_double_int64",
        "less_equals_double_uint64",
        "less_equals_string",
        "less_equals_bytes",
        "less_equals_timestamp",
        "less_equals_duration",
    ],
    [
        "greater_bool",
        "greater_int64",
        "greater_int64_double",
        "greater_int64_uint64",
        "greater_uint64",
        "greater_uint64_double",
        "greater_uint64_int64",
        "greater_double",
        "greater_double_int64",
        "greater_double_uint64",
        "greater_string",
        "greater_bytes",
        "greater_timestamp",
        "greater_duration",
    ],
    [
        "greater_equals_bool",
        "greater_equals_int64",
        "greater_equals_int64_double",
        "greater_equals_int64_uint64",
        "greater_equals_uint64",
        "greater_equals_uint64_double",
        "greater_equals_uint64_int64",
        "greater_equals_double",
        "greater_equals_double_int64",
        "greater_equals_double_uint64",
        "greater_equals_string",
        "greater_equals_bytes",
        "greater_equals_timestamp",
        "greater_equals_duration",
    ],
];

fn ordering_overloads(out: &mut Vec<Overload>) {
    let ops: [(&'static str, crate::library::NativeFn); 4] = [
        ("_<_", less),
        ("_<=_", less_equals),
        ("_>_", greater),
        ("_>=_", greater_equals),
    ];
    for (op_index, (function, imp)) in ops.into_iter().enumerate() {
        for (i, (suffix, params)) in ORDERED.iter().enumerate() {
            let id = ORDER_IDS[op_index][i];
            debug_assert!(id.ends_with(suffix));
            let mut o = Overload::new(id, function, false, params, imp);
            if matches!(params[0], P::STRING | P::BYTES) {
                o.cost = Some(cost_min_size);
            }
            out.push(o);
        }
    }
}

/// The implementations, with their runtime costs.
pub fn functions() -> Functions {
    let mut o = vec![
        Overload::new("add_int64", "_+_", false, &[P::INT, P::INT], add_int),
        Overload::new("add_uint64", "_+_", false, &[P::UINT, P::UINT], add_uint),
        Overload::new(
            "add_double",
            "_+_",
            false,
            &[P::DOUBLE, P::DOUBLE],
            add_double,
        ),
        Overload::new(
            "add_string",
            "_+_",
            false,
            &[P::STRING, P::STRING],
            add_string,
        )
        .with_cost(cost_sum_size),
        Overload::new("add_bytes", "_+_", false, &[P::BYTES, P::BYTES], add_bytes)
            .with_cost(cost_sum_size),
        Overload::new("add_list", "_+_", false, &[P::LIST, P::LIST], add_list),
        Overload::new(
            "add_timestamp_duration",
            "_+_",
            false,
            &[P::TIMESTAMP, P::DURATION],
            add_ts_dur,
        ),
        Overload::new(
            "add_duration_timestamp",
            "_+_",
            false,
            &[P::DURATION, P::TIMESTAMP],
            add_dur_ts,
        ),
        Overload::new(
            "add_duration_duration",
            "_+_",
            false,
            &[P::DURATION, P::DURATION],
            add_dur_dur,
        ),
        Overload::new("subtract_int64", "_-_", false, &[P::INT, P::INT], sub_int),
        Overload::new(
            "subtract_uint64",
            "_-_",
            false,
            &[P::UINT, P::UINT],
            sub_uint,
        ),
        Overload::new(
            "subtract_double",
            "_-_",
            false,
            &[P::DOUBLE, P::DOUBLE],
            sub_double,
        ),
        Overload::new(
            "subtract_timestamp_timestamp",
            "_-_",
            false,
            &[P::TIMESTAMP, P::TIMESTAMP],
            sub_ts_ts,
        ),
        Overload::new(
            "subtract_timestamp_duration",
            "_-_",
            false,
            &[P::TIMESTAMP, P::DURATION],
            sub_ts_dur,
        ),
        Overload::new(
            "subtract_duration_duration",
            "_-_",
            false,
            &[P::DURATION, P::DURATION],
            sub_dur_dur,
        ),
        Overload::new("multiply_int64", "_*_", false, &[P::INT, P::INT], mul_int),
        Overload::new(
            "multiply_uint64",
            "_*_",
            false,
            &[P::UINT, P::UINT],
            mul_uint,
        ),
        Overload::new(
            "multiply_double",
            "_*_",
            false,
            &[P::DOUBLE, P::DOUBLE],
            mul_double,
        ),
        Overload::new("divide_int64", "_/_", false, &[P::INT, P::INT], div_int),
        Overload::new("divide_uint64", "_/_", false, &[P::UINT, P::UINT], div_uint),
        Overload::new(
            "divide_double",
            "_/_",
            false,
            &[P::DOUBLE, P::DOUBLE],
            div_double,
        ),
        Overload::new("modulo_int64", "_%_", false, &[P::INT, P::INT], mod_int),
        Overload::new("modulo_uint64", "_%_", false, &[P::UINT, P::UINT], mod_uint),
        Overload::new("negate_int64", "-_", false, &[P::INT], neg_int),
        Overload::new("negate_double", "-_", false, &[P::DOUBLE], neg_double),
        Overload::new("logical_not", "!_", false, &[P::BOOL], not_bool),
        Overload::new("equals", "_==_", false, &[P::DYN, P::DYN], equals).with_cost(cost_min_size),
        Overload::new("not_equals", "_!=_", false, &[P::DYN, P::DYN], not_equals)
            .with_cost(cost_min_size),
        Overload::new("in_list", "@in", false, &[P::DYN, P::LIST], in_list).with_cost(cost_in_list),
        Overload::new("in_map", "@in", false, &[P::DYN, P::MAP], in_map),
        Overload::new("size_string", "size", false, &[P::STRING], size),
        Overload::new("size_bytes", "size", false, &[P::BYTES], size),
        Overload::new("size_list", "size", false, &[P::LIST], size),
        Overload::new("size_map", "size", false, &[P::MAP], size),
        Overload::new("string_size", "size", true, &[P::STRING], size),
        Overload::new("bytes_size", "size", true, &[P::BYTES], size),
        Overload::new("list_size", "size", true, &[P::LIST], size),
        Overload::new("map_size", "size", true, &[P::MAP], size),
        Overload::new(
            "contains_string",
            "contains",
            true,
            &[P::STRING, P::STRING],
            contains,
        )
        .with_cost(cost_contains),
        Overload::new(
            "starts_with_string",
            "startsWith",
            true,
            &[P::STRING, P::STRING],
            starts_with,
        )
        .with_cost(cost_arg1),
        Overload::new(
            "ends_with_string",
            "endsWith",
            true,
            &[P::STRING, P::STRING],
            ends_with,
        )
        .with_cost(cost_arg1),
        Overload::new(
            "matches",
            "matches",
            false,
            &[P::STRING, P::STRING],
            matches,
        )
        .with_cost(cost_matches),
        Overload::new(
            "matches_string",
            "matches",
            true,
            &[P::STRING, P::STRING],
            matches,
        )
        .with_cost(cost_matches),
        Overload::new("bool_to_bool", "bool", false, &[P::BOOL], to_bool),
        Overload::new("string_to_bool", "bool", false, &[P::STRING], to_bool),
        Overload::new("bytes_to_bytes", "bytes", false, &[P::BYTES], to_bytes),
        Overload::new("string_to_bytes", "bytes", false, &[P::STRING], to_bytes)
            .with_cost(cost_arg0),
        Overload::new("double_to_double", "double", false, &[P::DOUBLE], to_double),
        Overload::new("int64_to_double", "double", false, &[P::INT], to_double),
        Overload::new("uint64_to_double", "double", false, &[P::UINT], to_double),
        Overload::new("string_to_double", "double", false, &[P::STRING], to_double),
        Overload::new(
            "duration_to_duration",
            "duration",
            false,
            &[P::DURATION],
            to_duration,
        ),
        Overload::new(
            "string_to_duration",
            "duration",
            false,
            &[P::STRING],
            to_duration,
        ),
        Overload::new("to_dyn", "dyn", false, &[P::DYN], identity),
        Overload::new("int64_to_int64", "int", false, &[P::INT], to_int),
        Overload::new("uint64_to_int64", "int", false, &[P::UINT], to_int),
        Overload::new("double_to_int64", "int", false, &[P::DOUBLE], to_int),
        Overload::new("string_to_int64", "int", false, &[P::STRING], to_int),
        Overload::new("timestamp_to_int64", "int", false, &[P::TIMESTAMP], to_int),
        Overload::new("duration_to_int64", "int", false, &[P::DURATION], to_int),
        Overload::new("string_to_string", "string", false, &[P::STRING], to_string),
        Overload::new("bool_to_string", "string", false, &[P::BOOL], to_string),
        Overload::new("int64_to_string", "string", false, &[P::INT], to_string),
        Overload::new("uint64_to_string", "string", false, &[P::UINT], to_string),
        Overload::new("double_to_string", "string", false, &[P::DOUBLE], to_string),
        Overload::new("bytes_to_string", "string", false, &[P::BYTES], to_string)
            .with_cost(cost_arg0),
        Overload::new(
            "timestamp_to_string",
            "string",
            false,
            &[P::TIMESTAMP],
            to_string,
        ),
        Overload::new(
            "duration_to_string",
            "string",
            false,
            &[P::DURATION],
            to_string,
        ),
        Overload::new(
            "timestamp_to_timestamp",
            "timestamp",
            false,
            &[P::TIMESTAMP],
            to_timestamp,
        ),
        Overload::new(
            "string_to_timestamp",
            "timestamp",
            false,
            &[P::STRING],
            to_timestamp,
        ),
        Overload::new(
            "int64_to_timestamp",
            "timestamp",
            false,
            &[P::INT],
            to_timestamp,
        ),
        Overload::new("uint64_to_uint64", "uint", false, &[P::UINT], to_uint),
        Overload::new("int64_to_uint64", "uint", false, &[P::INT], to_uint),
        Overload::new("double_to_uint64", "uint", false, &[P::DOUBLE], to_uint),
        Overload::new("string_to_uint64", "uint", false, &[P::STRING], to_uint),
        Overload::new("type", "type", false, &[P::DYN], to_type),
        Overload::new(
            "timestamp_to_year",
            "getFullYear",
            true,
            &[P::TIMESTAMP],
            ts_year,
        ),
        Overload::new(
            "timestamp_to_month",
            "getMonth",
            true,
            &[P::TIMESTAMP],
            ts_month,
        ),
        Overload::new(
            "timestamp_to_day_of_year",
            "getDayOfYear",
            true,
            &[P::TIMESTAMP],
            ts_day_of_year,
        ),
        Overload::new(
            "timestamp_to_day_of_month",
            "getDayOfMonth",
            true,
            &[P::TIMESTAMP],
            ts_day_of_month,
        ),
        Overload::new(
            "timestamp_to_day_of_month_1_based",
            "getDate",
            true,
            &[P::TIMESTAMP],
            ts_date,
        ),
        Overload::new(
            "timestamp_to_day_of_week",
            "getDayOfWeek",
            true,
            &[P::TIMESTAMP],
            ts_day_of_week,
        ),
        Overload::new(
            "timestamp_to_hours",
            "getHours",
            true,
            &[P::TIMESTAMP],
            ts_hours,
        ),
        Overload::new(
            "timestamp_to_minutes",
            "getMinutes",
            true,
            &[P::TIMESTAMP],
            ts_minutes,
        ),
        Overload::new(
            "timestamp_to_seconds",
            "getSeconds",
            true,
            &[P::TIMESTAMP],
            ts_seconds,
        ),
        Overload::new(
            "timestamp_to_milliseconds",
            "getMilliseconds",
            true,
            &[P::TIMESTAMP],
            ts_millis,
        ),
        Overload::new(
            "timestamp_to_year_with_tz",
            "getFullYear",
            true,
            &[P::TIMESTAMP, P::STRING],
            ts_year,
        ),
        Overload::new(
            "timestamp_to_month_with_tz",
            "getMonth",
            true,
            &[P::TIMESTAMP, P::STRING],
            ts_month,
        ),
        Overload::new(
            "timestamp_to_day_of_year_with_tz",
            "getDayOfYear",
            true,
            &[P::TIMESTAMP, P::STRING],
            ts_day_of_year,
        ),
        Overload::new(
            "timestamp_to_day_of_month_with_tz",
            "getDayOfMonth",
            true,
            &[P::TIMESTAMP, P::STRING],
            ts_day_of_month,
        ),
        Overload::new(
            "timestamp_to_day_of_month_1_based_with_tz",
            "getDate",
            true,
            &[P::TIMESTAMP, P::STRING],
            ts_date,
        ),
        Overload::new(
            "timestamp_to_day_of_week_with_tz",
            "getDayOfWeek",
            true,
            &[P::TIMESTAMP, P::STRING],
            ts_day_of_week,
        ),
        Overload::new(
            "timestamp_to_hours_with_tz",
            "getHours",
            true,
            &[P::TIMESTAMP, P::STRING],
            ts_hours,
        ),
        Overload::new(
            "timestamp_to_minutes_with_tz",
            "getMinutes",
            true,
            &[P::TIMESTAMP, P::STRING],
            ts_minutes,
        ),
        Overload::new(
            "timestamp_to_seconds_tz",
            "getSeconds",
            true,
            &[P::TIMESTAMP, P::STRING],
            ts_seconds,
        ),
        Overload::new(
            "timestamp_to_milliseconds_with_tz",
            "getMilliseconds",
            true,
            &[P::TIMESTAMP, P::STRING],
            ts_millis,
        ),
        Overload::new(
            "duration_to_hours",
            "getHours",
            true,
            &[P::DURATION],
            dur_hours,
        ),
        Overload::new(
            "duration_to_minutes",
            "getMinutes",
            true,
            &[P::DURATION],
            dur_minutes,
        ),
        Overload::new(
            "duration_to_seconds",
            "getSeconds",
            true,
            &[P::DURATION],
            dur_seconds,
        ),
        Overload::new(
            "duration_to_milliseconds",
            "getMilliseconds",
            true,
            &[P::DURATION],
            dur_millis,
        ),
    ];
    ordering_overloads(&mut o);
    Functions {
        name: NAME,
        overloads: o,
        regex_functions: vec!["matches"],
    }
}

// ---- static cost estimates ---------------------------------------------------------------

/// cel-go's static estimate of a call to a standard overload (its checker's `functionCost`),
/// or `None` for its O(1) default. `&&`, `||`, `?:` and concatenation, which shape the walk,
/// are the cost walk's own.
pub(crate) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    let n = c.argc();
    let tenth = STRING_TRAVERSAL_COST_FACTOR;
    let est = |cost: CostEstimate, result: Option<SizeEstimate>| CallEstimate { cost, result };
    match c.overload() {
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
