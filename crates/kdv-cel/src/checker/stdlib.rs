//! Declarations of CEL's standard library (cel-go `common/stdlib`): functions with their
//! overload ids in cel-go's order, and the type identifiers. Built once, shared by every
//! environment.

use std::sync::{Arc, LazyLock};

use crate::library::{Declarations as Library, OverloadDecl};
use crate::types::Type;

pub(crate) fn param(name: &str) -> Type {
    Type::Param(Arc::from(name))
}

pub(crate) fn list(t: Type) -> Type {
    Type::List(Box::new(t))
}

pub(crate) fn map(k: Type, v: Type) -> Type {
    Type::Map(Box::new(k), Box::new(v))
}

pub(crate) fn g(id: &str, params: Vec<Type>, result: Type) -> OverloadDecl {
    OverloadDecl::global(id, params, result)
}

pub(crate) fn m(id: &str, params: Vec<Type>, result: Type) -> OverloadDecl {
    OverloadDecl::member(id, params, result)
}

static STANDARD: LazyLock<Arc<Library>> = LazyLock::new(|| Arc::new(build()));

/// The standard library.
pub fn standard() -> Arc<Library> {
    STANDARD.clone()
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

fn build() -> Library {
    use Type::{Bool, Bytes, Double, Duration, Dyn, Int, String as Str, Timestamp, Uint};
    let a = param("A");
    let b = param("B");
    let list_a = list(a.clone());
    let map_ab = map(a.clone(), b.clone());
    let mut lib = Library::new("cel.lib.std");

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
