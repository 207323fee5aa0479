//! cel-go `checker/cost_test.go` (`TestCost`): the core algorithm with cel-go's defaults
//! (presence tests cost 1, no Kubernetes library) and upstream's test estimator (hints by
//! dotted path, `{0, 12}` for bytes). Cases that plug in custom call estimators are left out,
//! except `list_bytes_max`, whose custom estimator is Kubernetes' own (checked with
//! Kubernetes' options).

use std::collections::HashMap;
use std::sync::Arc;

use crate::checker::{Env, TypeProvider, compile};
use crate::cost::{CostEstimate, CostOptions, SizeEstimate, SizeEstimator, estimate_cost};
use crate::types::Type;

const ALL_TYPES: &str = "google.expr.proto3.test.TestAllTypes";

/// The few `TestAllTypes` fields the cases use.
struct Proto;

impl TypeProvider for Proto {
    fn has_type(&self, name: &str) -> bool {
        name == ALL_TYPES
    }

    fn field_type(&self, type_name: &str, field: &str) -> Option<Type> {
        if type_name != ALL_TYPES {
            return None;
        }
        match field {
            "single_int32" => Some(Type::Int),
            "single_float" => Some(Type::Double),
            "single_string" => Some(Type::String),
            _ => None,
        }
    }
}

/// Upstream `testCostEstimator`: hints by dotted path, bytes `{0, 12}`.
struct Hints(HashMap<String, u64>);

impl SizeEstimator for Hints {
    fn estimate_size(&self, path: &[&str], ty: &Type) -> Option<SizeEstimate> {
        if let Some(&max) = self.0.get(&path.join(".")) {
            return Some(SizeEstimate { min: 0, max });
        }
        (*ty == Type::Bytes).then_some(SizeEstimate { min: 0, max: 12 })
    }
}

fn all_types() -> Type {
    Type::Object(Arc::from(ALL_TYPES))
}

fn list(t: Type) -> Type {
    Type::List(Box::new(t))
}

fn map(k: Type, v: Type) -> Type {
    Type::Map(Box::new(k), Box::new(v))
}

struct Case {
    expr: &'static str,
    vars: Vec<(&'static str, Type)>,
    hints: Vec<(&'static str, u64)>,
    options: CostOptions,
    want: (u64, u64),
}

fn c(expr: &'static str, min: u64, max: u64) -> Case {
    Case {
        expr,
        vars: Vec::new(),
        hints: Vec::new(),
        options: CostOptions::cel_go(),
        want: (min, max),
    }
}

impl Case {
    fn var(mut self, name: &'static str, t: Type) -> Case {
        self.vars.push((name, t));
        self
    }

    fn hint(mut self, path: &'static str, max: u64) -> Case {
        self.hints.push((path, max));
        self
    }

    fn options(mut self, options: CostOptions) -> Case {
        self.options = options;
        self
    }
}

fn cases() -> Vec<Case> {
    use Type::{Bool, Bytes, Double, Duration, Int, String as Str, Timestamp};
    let nested_map = || map(Str, map(Str, all_types()));
    let no_presence = CostOptions {
        presence_test_cost: 0,
        ..CostOptions::cel_go()
    };
    let huge = 1_844_674_407_370_955_266;
    vec![
        c(r#""Hello World!""#, 0, 0),
        c("input", 1, 1).var("input", list(Int)),
        c("input['key']", 2, 2).var("input", map(Str, Str)),
        c("input.single_int32", 2, 2).var("input", all_types()),
        c("has(input.single_int32)", 1, 1)
            .var("input", all_types())
            .options(no_presence),
        c("has(input.single_int32)", 2, 2).var("input", all_types()),
        c("has(input.testAttr.nestedAttr)", 3, 3).var("input", nested_map()),
        c("has(input.testAttr.nestedAttr)", 2, 2)
            .var("input", nested_map())
            .options(no_presence),
        c("[1, 2, 3]", 10, 10),
        c(
            "google.expr.proto3.test.TestAllTypes{single_int32: 1, single_float: 3.14, single_string: 'str'}",
            40,
            40,
        ),
        c(r#"{"a": 1, "b": 2, "c": 3}"#, 30, 30),
        c("input.all(x, true)", 2, 302)
            .var("input", list(all_types()))
            .hint("input", 100),
        c("input.all(x, x.all(y, true))", 2, 1752)
            .var("input", list(list(all_types())))
            .hint("input", 50)
            .hint("input.@items", 10),
        c("[1, 2, 3].all(x, true)", 20, 20),
        c("input.matches('[0-9]')", 3, 103)
            .var("input", Str)
            .hint("input", 500),
        c("'123'.matches('[0-9]')", 2, 2),
        c("true || false", 0, 0),
        c("a || b || c || d", 1, 4)
            .var("a", Bool)
            .var("b", Bool)
            .var("c", Bool)
            .var("d", Bool),
        c("true && false", 0, 0),
        c("a && b && c && d", 1, 4)
            .var("a", Bool)
            .var("b", Bool)
            .var("c", Bool)
            .var("d", Bool),
        c("1 < 2", 1, 1),
        c("1 <= 2", 1, 1),
        c("1 == 2", 1, 1),
        c("2 > 1", 1, 1),
        c("2 >= 1", 1, 1),
        c("2 in [1, 2, 3]", 13, 13),
        c("1 + 1", 1, 1),
        c("1 - 1", 1, 1),
        c("1 / 1", 1, 1),
        c("1 * 1", 1, 1),
        c("1 % 1", 1, 1),
        c("true ? 1 : 2", 0, 0),
        c(r#"size("123")"#, 1, 1),
        c(r#"size(b"123")"#, 1, 1),
        c("string(input)", 1, 51).var("input", Bytes).hint("input", 500),
        c("string(input) == string(input)", 3, 152)
            .var("input", Bytes)
            .hint("input", 500),
        c("bytes(input)", 1, 51).var("input", Str).hint("input", 500),
        c("bytes(input) == bytes(input)", 3, 302)
            .var("input", Str)
            .hint("input", 500),
        c("string(1)", 1, 1),
        c("input.contains(arg1)", 2, 2502)
            .var("input", Str)
            .var("arg1", Str)
            .hint("input", 500)
            .hint("arg1", 500),
        c(r"input.matches('\\d+a\\d+b')", 3, 103)
            .var("input", Str)
            .hint("input", 500),
        c("input.startsWith(arg1)", 2, 52)
            .var("input", Str)
            .var("arg1", Str)
            .hint("arg1", 500),
        c("input.endsWith(arg1)", 2, 52)
            .var("input", Str)
            .var("arg1", Str)
            .hint("arg1", 500),
        c("input.size()", 2, 2).var("input", Str),
        c("size(input)", 2, 2).var("input", Str),
        c("(x > 2 ? input1 : input2).all(y, true)", 4, 7)
            .var("x", Int)
            .var("input1", list(all_types()))
            .var("input2", list(all_types()))
            .hint("input1", 1)
            .hint("input2", 1),
        c("input.all(k, input[k].single_int32 > 3)", 2, 82)
            .var("input", map(Str, all_types()))
            .hint("input", 10),
        c("input.all(k, input[k].all(x, true))", 2, 187)
            .var("input", nested_map())
            .hint("input", 5)
            .hint("input.@values", 10),
        c("input.all(k, k.contains(k))", 2, 32)
            .var("input", nested_map())
            .hint("input", 5)
            .hint("input.@keys", 10),
        c("input.all(k, input[k].all(k, true) && k.contains(k))", 2, 34)
            .var("input", nested_map())
            .hint("input", 2)
            .hint("input.@values", 2)
            .hint("input.@keys", 5),
        c("(list1 + list2).all(x, true)", 4, 64)
            .var("list1", list(Int))
            .var("list2", list(Int))
            .hint("list1", 10)
            .hint("list2", 10),
        c(r#""abcdefg".contains(str1 + str2)"#, 2, 6)
            .var("str1", Str)
            .var("str2", Str)
            .hint("str1", 10)
            .hint("str2", 10),
        c("list1.size() == list2.size()", 5, 5)
            .var("list1", list(Int))
            .var("list2", list(Int)),
        c("x > y ? list1.size() : list2.size()", 5, 5)
            .var("x", Int)
            .var("y", Int)
            .var("list1", list(Int))
            .var("list2", list(Int)),
        c("([x, y] + list1 + list2).size()", 17, 17)
            .var("x", Int)
            .var("y", Int)
            .var("list1", list(Int))
            .var("list2", list(Int))
            .hint("list1", 10)
            .hint("list2", 20),
        c("[list1, list2].exists(l, l.exists(v, v.startsWith('hi')))", 21, 265)
            .var("list1", list(Str))
            .var("list2", list(Str))
            .hint("list1", 10)
            .hint("list1.@items", 64)
            .hint("list2", 20)
            .hint("list2.@items", 128),
        c(
            r#"str1.endsWith("abcdefghijklmnopqrstuvwxyz") == str2.endsWith("abcdefghijklmnopqrstuvwxyz")"#,
            9,
            9,
        )
        .var("str1", Str)
        .var("str2", Str),
        c("((5 != 6) == (1 == 2)) == ((3 <= 4) == (9 != 9))", 7, 7),
        c("string(timestamp1) == string(timestamp2)", 5, 1_844_674_407_370_955_268)
            .var("timestamp1", Timestamp)
            .var("timestamp2", Timestamp),
        c("timestamp1 == timestamp2", 3, 3)
            .var("timestamp1", Timestamp)
            .var("timestamp2", Timestamp),
        c("duration1 != duration2", 3, 3)
            .var("duration1", Duration)
            .var("duration2", Duration),
        c("[1,2,3,4,5].filter(x, x % 2 == 0)", 41, 101),
        c("[1,2,3,4,5].map(x, x)", 86, 86),
        c("[1,2,3,4,5].map(x, x).filter(x, x % 2 == 0)", 117, 177),
        c("[1,2,3,4,5].map(x, x).exists(x, x == 5) == true", 108, 118),
        c("[1,2,3,4,5].map(x, x).map(x, x)", 162, 162),
        c("[1,2,3,4,5].map(x, x)[4]", 87, 87),
        c("[[1,2],[1,2],[1,2],[1,2],[1,2]][4]", 61, 61),
        c(
            "{'a': [1,2], 'b': [1,2], 'c': [1,2], 'd': [1,2], 'e': [1,2]}.b",
            81,
            81,
        ),
        c("[[1, 1], [2, 2], [3, 3], [4, 4], [5, 5]].all(y, y.all(y, y == 1))", 76, 136),
        c("[1,2,3,4,5].map(x, [x, x]).all(y, y.all(y, y == 1))", 157, 217),
        c(
            r#"["a", "ab", "abc", "abcd", "abcde"].map(x, [x, x]).all(y, y.all(y, y.startsWith('a')))"#,
            157,
            217,
        ),
        c("input.map(x, [x, x]).all(y, y.all(y, y.startsWith('a')))", 13, 208)
            .var("input", list(Str))
            .hint("input", 5)
            .hint("input.@items", 10),
        c("[1,2,3,4,5].map(x, x).map(x, x) + [1]", 173, 173),
        c("[1,2,3].all(i, i in [1,2,3].map(j, j + j))", 20, 230),
        c("dyn([1,2,3]).all(i, i in dyn([1,2,3]).map(j, j + j))", 21, 234),
        c("{'hello': 'hi'}['hello'] != {'hello': 'bye'}['hello']", 63, 63),
        c("['hello', 'hi'][0] != ['hello', 'bye'][1]", 23, 23),
        c("type(1)", 1, 1),
        c("type(self.val1)", 3, 3).var("self", map(Str, Int)),
        c("type(self.val1) == int", 5, 1_844_674_407_370_955_268).var("self", map(Str, Int)),
        c("type(1) == int", 3, huge),
        c("self.val1 == 1.0", 2, 2).var("self.val1", Double),
        c("self.val1 == 1.0", 3, 3).var("self", map(Str, Double)),
        c(
            "self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')",
            6,
            6,
        )
        .var("self", map(Str, Timestamp)),
        c(
            "timestamp(self.val1) == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')",
            7,
            7,
        )
        .var("self", map(Str, Timestamp)),
        c("self.val1 != self.val2", 5, 5).var("self", map(Str, Bool)),
        c("self.val1 != true", 3, 3).var("self", map(Str, Bool)),
        c("self.val1 == 1.0", 3, 3).var("self", map(Str, Double)),
        c(
            "[bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901')].max()",
            25,
            35,
        )
        .options(CostOptions::kubernetes()),
    ]
}

#[test]
fn cel_go_cost_test() {
    let mut failures = Vec::new();
    let all = cases();
    for case in &all {
        // The Kubernetes estimator needs the Kubernetes libraries declared.
        let mut env = if case.options.kubernetes_library {
            crate::k8s::env()
        } else {
            Env::new()
        };
        env.set_provider(Arc::new(Proto));
        for (name, t) in &case.vars {
            env.add_variable(name, t.clone());
        }
        let checked = match compile(case.expr, &env) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{}: {e}", case.expr));
                continue;
            }
        };
        let hints = Hints(
            case.hints
                .iter()
                .map(|(p, n)| (p.to_string(), *n))
                .collect(),
        );
        let want = CostEstimate {
            min: case.want.0,
            max: case.want.1,
        };
        match estimate_cost(&checked, &hints, &case.options) {
            Ok(got) if got == want => {}
            got => failures.push(format!("{}: got {got:?}, want {want:?}", case.expr)),
        }
    }
    println!(
        "cel-go TestCost: {} cases, {} failures",
        all.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
