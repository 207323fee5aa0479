//! Declarations of cel-go's extension libraries, by version: optional types, strings, lists,
//! sets, math, encoders, two-variable comprehensions. Each is built once per version and
//! shared.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use crate::library::Declarations as Library;
use crate::library::{g, list, m, map, param};
use crate::types::Type;

type Builder = fn(u32) -> Library;

/// Libraries already built, by (name, version).
/// Built libraries keyed by (library name, version).
type Cache = HashMap<(&'static str, u32), Arc<Library>>;

static CACHE: LazyLock<Mutex<Cache>> = LazyLock::new(|| Mutex::new(HashMap::new()));

fn cached(name: &'static str, version: u32, build: Builder) -> Arc<Library> {
    let mut cache = match CACHE.lock() {
        Ok(c) => c,
        // A panic while building cannot leave a half-inserted entry: use the map as is.
        Err(poisoned) => poisoned.into_inner(),
    };
    cache
        .entry((name, version))
        .or_insert_with(|| Arc::new(build(version)))
        .clone()
}

fn opt(t: Type) -> Type {
    Type::Optional(Box::new(t))
}

/// cel-go's optional types library (`cel.OptionalTypes`); `u32::MAX` = every version
/// (what Kubernetes uses). Version 2 adds `first`, `last`, `optional.unwrap`, `unwrapOpt`.
pub fn optional(version: u32) -> Arc<Library> {
    cached("optional", version, build_optional)
}

fn build_optional(version: u32) -> Library {
    use Type::{Bool, Dyn, Int, String as Str};
    let v = param("V");
    let k = param("K");
    let opt_v = opt(v.clone());
    let list_v = list(v.clone());
    let map_kv = map(k.clone(), v.clone());
    let mut lib = Library::new("cel.lib.optional");
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

/// cel-go's strings extension (`ext.Strings`) at `version` (Kubernetes: 2).
pub fn strings(version: u32) -> Arc<Library> {
    cached("strings", version, build_strings)
}

fn build_strings(version: u32) -> Library {
    use Type::{Dyn, Int, String as Str};
    let mut lib = Library::new("cel.lib.ext.strings");
    lib.function("charAt", vec![m("string_char_at_int", vec![Str, Int], Str)]);
    lib.function(
        "indexOf",
        vec![
            m("string_index_of_string", vec![Str, Str], Int),
            m("string_index_of_string_int", vec![Str, Str, Int], Int),
        ],
    );
    lib.function(
        "lastIndexOf",
        vec![
            m("string_last_index_of_string", vec![Str, Str], Int),
            m("string_last_index_of_string_int", vec![Str, Str, Int], Int),
        ],
    );
    lib.function("lowerAscii", vec![m("string_lower_ascii", vec![Str], Str)]);
    lib.function(
        "replace",
        vec![
            m("string_replace_string_string", vec![Str, Str, Str], Str),
            m(
                "string_replace_string_string_int",
                vec![Str, Str, Str, Int],
                Str,
            ),
        ],
    );
    lib.function(
        "split",
        vec![
            m("string_split_string", vec![Str, Str], list(Str)),
            m("string_split_string_int", vec![Str, Str, Int], list(Str)),
        ],
    );
    lib.function(
        "substring",
        vec![
            m("string_substring_int", vec![Str, Int], Str),
            m("string_substring_int_int", vec![Str, Int, Int], Str),
        ],
    );
    lib.function("trim", vec![m("string_trim", vec![Str], Str)]);
    lib.function("upperAscii", vec![m("string_upper_ascii", vec![Str], Str)]);
    if version >= 1 {
        lib.function(
            "format",
            vec![m("string_format", vec![Str, list(Dyn)], Str)],
        );
        lib.function("strings.quote", vec![g("strings_quote", vec![Str], Str)]);
        lib.homogeneous_exempt.push("format".to_string());
    }
    lib.function(
        "join",
        vec![
            m("list_join", vec![list(Str)], Str),
            m("list_join_string", vec![list(Str), Str], Str),
        ],
    );
    if version >= 3 {
        lib.function("reverse", vec![m("string_reverse", vec![Str], Str)]);
    }
    lib
}

/// cel-go's lists extension (`ext.Lists`) at `version` (Kubernetes 1.34+: 3).
pub fn lists(version: u32) -> Arc<Library> {
    cached("lists", version, build_lists)
}

fn build_lists(version: u32) -> Library {
    use Type::{Bool, Bytes, Double, Duration, Dyn, Int, String as Str, Timestamp, Uint};
    let t = param("T");
    let list_t = list(t.clone());
    let mut lib = Library::new("cel.lib.ext.lists");
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

/// cel-go's sets extension (`ext.Sets`).
pub fn sets() -> Arc<Library> {
    cached("sets", 0, |_| {
        let list_t = list(param("T"));
        let mut lib = Library::new("cel.lib.ext.sets");
        for (name, id) in [
            ("sets.contains", "list_sets_contains_list"),
            ("sets.equivalent", "list_sets_equivalent_list"),
            ("sets.intersects", "list_sets_intersects_list"),
        ] {
            lib.function(
                name,
                vec![g(id, vec![list_t.clone(), list_t.clone()], Type::Bool)],
            );
        }
        lib
    })
}

/// cel-go's math extension (`ext.Math`) at `version`. Not part of Kubernetes' environment.
pub fn math(version: u32) -> Arc<Library> {
    cached("math", version, build_math)
}

fn build_math(version: u32) -> Library {
    use Type::{Bool, Double, Dyn, Int, Uint};
    let mut lib = Library::new("cel.lib.ext.math");
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

/// cel-go's encoders extension (`ext.Encoders`). Not part of Kubernetes' environment.
pub fn encoders() -> Arc<Library> {
    cached("encoders", 0, |_| {
        let mut lib = Library::new("cel.lib.ext.encoders");
        lib.function(
            "base64.decode",
            vec![g("base64_decode_string", vec![Type::String], Type::Bytes)],
        );
        lib.function(
            "base64.encode",
            vec![g("base64_encode_bytes", vec![Type::Bytes], Type::String)],
        );
        lib
    })
}

/// The helper function of cel-go's two-variable comprehension macros
/// (`ext.TwoVarComprehensions`; Kubernetes 1.32+).
pub fn two_var_comprehensions() -> Arc<Library> {
    cached("comprev2", 0, |_| {
        let k = param("K");
        let v = param("V");
        let map_kv = map(k.clone(), v.clone());
        let mut lib = Library::new("cel.lib.ext.comprev2");
        lib.function(
            "cel.@mapInsert",
            vec![
                g(
                    "@mapInsert_map_key_value",
                    vec![map_kv.clone(), k, v],
                    map_kv.clone(),
                ),
                g(
                    "@mapInsert_map_map",
                    vec![map_kv.clone(), map_kv.clone()],
                    map_kv,
                ),
            ],
        );
        lib
    })
}

/// cel-go's bindings extension, version 1: `cel.@block` (the target of the `cel.block`
/// macro), whose list argument is exempt from the homogeneous literal check. The `cel.bind`
/// macro needs no declaration.
pub fn bindings() -> Arc<Library> {
    cached("bindings", 1, |_| {
        let t = param("T");
        let mut lib = Library::new("cel.lib.ext.cel.bindings");
        lib.function(
            "cel.@block",
            vec![g("cel_block_list", vec![list(Type::Dyn), t.clone()], t)],
        );
        lib.homogeneous_exempt.push("cel.@block".to_string());
        lib
    })
}
