//! Checker tests: cel-go's messages and positions, type inference, references, name
//! resolution, the Kubernetes environment's validators.

use std::collections::HashMap;
use std::sync::Arc;

use super::*;
use crate::ast::ExprKind;
use crate::library::{Declarations, ext};
use crate::parser::parse_with;
use crate::types::Type;

/// Object types for tests: `Obj` (and `pkg.Obj`) with a few fields.
struct Objects {
    fields: HashMap<&'static str, HashMap<&'static str, Type>>,
}

fn obj(name: &str) -> Type {
    Type::Object(Arc::from(name))
}

fn list(t: Type) -> Type {
    Type::List(Box::new(t))
}

fn map(k: Type, v: Type) -> Type {
    Type::Map(Box::new(k), Box::new(v))
}

impl Objects {
    fn new() -> Arc<Objects> {
        let mut fields = HashMap::new();
        for name in ["Obj", "pkg.Obj"] {
            let mut f = HashMap::new();
            f.insert("minReplicas", Type::Int);
            f.insert("replicas", Type::Int);
            f.insert("maxReplicas", Type::Int);
            f.insert("name", Type::String);
            f.insert("tags", list(Type::String));
            f.insert("labels", map(Type::String, Type::String));
            f.insert("child", obj(name));
            f.insert("children", list(obj(name)));
            f.insert("any", Type::Dyn);
            f.insert("nullable", Type::wrapper(Type::Int));
            fields.insert(name, f);
        }
        Arc::new(Objects { fields })
    }
}

impl TypeProvider for Objects {
    fn has_type(&self, name: &str) -> bool {
        self.fields.contains_key(name)
    }

    fn field_type(&self, type_name: &str, field: &str) -> Option<Type> {
        self.fields.get(type_name)?.get(field).cloned()
    }

    fn enum_value(&self, name: &str) -> Option<i64> {
        (name == "pkg.Color.RED").then_some(1)
    }
}

fn env_with(vars: &[(&str, Type)]) -> Env {
    let mut env = Env::kubernetes();
    env.set_provider(Objects::new());
    for (n, t) in vars {
        env.add_variable(n, t.clone());
    }
    env
}

fn std_env(vars: &[(&str, Type)]) -> Env {
    let mut env = Env::new();
    env.add_library(ext::optional::declarations(u32::MAX));
    env.set_provider(Objects::new());
    for (n, t) in vars {
        env.add_variable(n, t.clone());
    }
    env
}

fn ok(env: &Env, src: &str) -> CheckedExpr {
    match compile_with(src, &ParseOptions::conformance(), env) {
        Ok(c) => c,
        Err(e) => panic!("{src:?} failed to check:\n{e}"),
    }
}

fn ty(env: &Env, src: &str) -> String {
    ok(env, src).result_type.to_string()
}

fn err(env: &Env, src: &str) -> String {
    match compile_with(src, &ParseOptions::conformance(), env) {
        Ok(c) => panic!("{src:?} checked as {}", c.result_type),
        Err(e) => e.to_string(),
    }
}

/// The overload ids of the root call.
fn root_overloads(c: &CheckedExpr) -> Vec<String> {
    c.overload_ids(c.expr.id)
        .map(<[String]>::to_vec)
        .unwrap_or_default()
}

#[test]
fn undeclared_references() {
    let env = std_env(&[]);
    assert_eq!(
        err(&env, "foo"),
        "ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo\n | ^"
    );
    assert_eq!(
        err(&env, "1 + x"),
        "ERROR: <input>:1:5: undeclared reference to 'x' (in container '')\n | 1 + x\n | ....^"
    );
    assert_eq!(
        err(&env, "fun()"),
        "ERROR: <input>:1:4: undeclared reference to 'fun' (in container '')\n | fun()\n | ...^"
    );
    assert_eq!(
        err(&env, "'string'.fun()"),
        "ERROR: <input>:1:13: undeclared reference to 'fun' (in container '')\n | 'string'.fun()\n | ............^"
    );
    assert_eq!(
        err(&env, "Msg{}"),
        "ERROR: <input>:1:4: undeclared reference to 'Msg' (in container '')\n | Msg{}\n | ...^"
    );
    assert_eq!(
        err(&env, "int{}"),
        "ERROR: <input>:1:4: 'int' is not a message type\n | int{}\n | ...^"
    );
}

#[test]
fn overload_errors() {
    let env = std_env(&[("x", Type::Int)]);
    assert_eq!(
        err(&env, "x + 'a'"),
        "ERROR: <input>:1:3: found no matching overload for '_+_' applied to '(int, string)'\n | x + 'a'\n | ..^"
    );
    assert_eq!(
        err(&env, "'a'.startsWith(1)"),
        "ERROR: <input>:1:15: found no matching overload for 'startsWith' applied to 'string.(int)'\n | 'a'.startsWith(1)\n | ..............^"
    );
    assert_eq!(
        err(&env, "[].length"),
        "ERROR: <input>:1:3: type 'list(_var0)' does not support field selection\n | [].length\n | ..^"
    );
    assert_eq!(
        err(&env, "true ? 1 : 'a'"),
        "ERROR: <input>:1:6: found no matching overload for '_?_:_' applied to '(bool, int, string)'\n | true ? 1 : 'a'\n | .....^"
    );
    assert_eq!(
        err(&env, "[].map(x, [].map(y, x in y && y in x))"),
        "ERROR: <input>:1:33: found no matching overload for '@in' applied to '(list(dyn), dyn)'\n | [].map(x, [].map(y, x in y && y in x))\n | ................................^"
    );
    assert_eq!(
        err(&env, "1 && true"),
        "ERROR: <input>:1:1: expected type 'bool' but found 'int'\n | 1 && true\n | ^"
    );
}

#[test]
fn cross_type_numeric_comparisons_are_opt_in() {
    let src = "1 <= 1.0 && 1u <= 1.0 && 1.0 <= 1 && 1.0 <= 1u && 1 <= 1u && 1u <= 1";
    let e = err(&std_env(&[]), src);
    assert_eq!(
        e.matches("found no matching overload for '_<=_'").count(),
        6,
        "{e}"
    );
    assert!(e.starts_with(
        "ERROR: <input>:1:3: found no matching overload for '_<=_' applied to '(int, double)'"
    ));
    let k = ok(&env_with(&[]), "1 < 1.0");
    assert_eq!(root_overloads(&k), vec!["less_int64_double"]);
}

#[test]
fn field_selection_errors() {
    let env = std_env(&[("x", obj("Obj")), ("n", Type::Int)]);
    assert_eq!(
        err(&env, "x.child.undefined == x.undefined"),
        "ERROR: <input>:1:8: undefined field 'undefined'\n | x.child.undefined == x.undefined\n | .......^\nERROR: <input>:1:23: undefined field 'undefined'\n | x.child.undefined == x.undefined\n | ......................^"
    );
    assert_eq!(
        err(&env, "n.foo"),
        "ERROR: <input>:1:2: type 'int' does not support field selection\n | n.foo\n | .^"
    );
    assert_eq!(
        err(&env, "x.all(e, 0)"),
        "ERROR: <input>:1:1: expression of type 'Obj' cannot be range of a comprehension (must be list, map, or dynamic)\n | x.all(e, 0)\n | ^\nERROR: <input>:1:10: expected type 'bool' but found 'int'\n | x.all(e, 0)\n | .........^"
    );
    assert_eq!(
        err(&env, "x.tags.exists(y, y == 'a') && y == 'b'"),
        "ERROR: <input>:1:31: undeclared reference to 'y' (in container '')\n | x.tags.exists(y, y == 'a') && y == 'b'\n | ..............................^"
    );
}

#[test]
fn struct_literals() {
    let env = std_env(&[]);
    assert_eq!(ty(&env, "Obj{replicas: 1, name: 'a'}"), "Obj");
    assert_eq!(
        err(&env, "Obj{replicas: 1u}"),
        "ERROR: <input>:1:13: expected type of field 'replicas' is 'int' but provided type is 'uint'\n | Obj{replicas: 1u}\n | ............^"
    );
    assert_eq!(
        err(&env, "Obj{replicas: 1, undefined: 2}"),
        "ERROR: <input>:1:27: undefined field 'undefined'\n | Obj{replicas: 1, undefined: 2}\n | ..........................^"
    );
    assert_eq!(ty(&env, "Obj{nullable: null}.nullable"), "wrapper(int)");
    assert_eq!(ty(&env, "Obj{?replicas: optional.of(1)}"), "Obj");
    assert_eq!(
        err(&env, "Obj{?replicas: 1}"),
        "ERROR: <input>:1:16: expected type 'optional_type(int)' but found 'int'\n | Obj{?replicas: 1}\n | ...............^"
    );
}

#[test]
fn aggregate_literal_types() {
    let env = std_env(&[]);
    assert_eq!(ty(&env, "[1, 2]"), "list(int)");
    assert_eq!(ty(&env, "[1, 'a']"), "list(dyn)");
    assert_eq!(ty(&env, "{'a': 1}"), "map(string, int)");
    assert_eq!(ty(&env, "[]"), "list(dyn)");
    assert_eq!(ty(&env, "[[], [1]]"), "list(list(int))");
    assert_eq!(
        ty(&env, "[optional.none(), optional.of(1)]"),
        "list(optional_type(int))"
    );
    assert_eq!(ty(&env, "[?optional.of(1), 2]"), "list(int)");
    assert_eq!(
        err(&env, "{?'key': 'hi'}"),
        "ERROR: <input>:1:10: expected type 'optional_type(string)' but found 'string'\n | {?'key': 'hi'}\n | .........^"
    );
    assert_eq!(
        err(&env, "[?'value']"),
        "ERROR: <input>:1:3: expected type 'optional_type(string)' but found 'string'\n | [?'value']\n | ..^"
    );
}

#[test]
fn homogeneous_aggregate_literals_in_kubernetes() {
    let env = env_with(&[]);
    assert_eq!(
        err(&env, "[1, 'a']"),
        "ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, 'a']\n | ....^"
    );
    assert_eq!(
        err(&env, "{'a': 1, 'b': 'x'}"),
        "ERROR: <input>:1:15: expected type 'int' but found 'string'\n | {'a': 1, 'b': 'x'}\n | ..............^"
    );
    assert_eq!(
        err(&env, "[1, dyn(2)]"),
        "ERROR: <input>:1:8: expected type 'int' but found 'dyn'\n | [1, dyn(2)]\n | .......^"
    );
    assert_eq!(ty(&env, "[dyn(1), dyn('a')]"), "list(dyn)");
    assert_eq!(ty(&env, "'%s %d'.format(['a', 1])"), "string");
    assert_eq!(ty(&env, "[?optional.of(1), 2]"), "list(int)");
}

#[test]
fn generic_overloads_and_references() {
    let env = std_env(&[("d", Type::Dyn), ("l", list(Type::Int))]);
    let c = ok(&env, "size(d)");
    assert_eq!(c.result_type, Type::Int);
    assert_eq!(
        root_overloads(&c),
        vec!["size_bytes", "size_list", "size_map", "size_string"]
    );
    let c = ok(&env, "d.size()");
    assert_eq!(
        root_overloads(&c),
        vec!["bytes_size", "list_size", "map_size", "string_size"]
    );
    let c = ok(&env, "d + 1");
    assert_eq!(c.result_type, Type::Int);
    let c = ok(&env, "d + d");
    assert_eq!(c.result_type, Type::Dyn);
    assert_eq!(root_overloads(&c).len(), 9);
    assert_eq!(ty(&env, "l[0]"), "int");
    assert_eq!(ty(&env, "l + [2]"), "list(int)");
    assert_eq!(ty(&env, "type(1)"), "type(int)");
    assert_eq!(ty(&env, "int"), "type(int)");
    assert_eq!(ty(&env, "dyn(1)"), "dyn");
    assert_eq!(ty(&env, "([].map(x, x))[0].foo"), "dyn");
    assert_eq!(
        ty(&env, "true ? optional.of(dyn(1)) : optional.of(1)"),
        "optional_type(dyn)"
    );
    let c = ok(&env, "1 == 2");
    assert_eq!(root_overloads(&c), vec!["equals"]);
    assert_eq!(c.type_of(c.expr.id), Some(&Type::Bool));
}

#[test]
fn timestamps_and_durations() {
    let env = std_env(&[]);
    assert_eq!(
        ty(&env, "timestamp('2020-01-01T00:00:00Z') + duration('1h')"),
        "google.protobuf.Timestamp"
    );
    assert_eq!(
        ty(&env, "timestamp('2020-01-01T00:00:00Z').getFullYear('UTC')"),
        "int"
    );
    let c = ok(&env, "duration('1h').getHours()");
    assert_eq!(root_overloads(&c), vec!["duration_to_hours"]);
    assert_eq!(
        err(&env, "timestamp(1) + timestamp(2)"),
        "ERROR: <input>:1:14: found no matching overload for '_+_' applied to '(timestamp, timestamp)'\n | timestamp(1) + timestamp(2)\n | .............^"
    );
}

#[test]
fn macros_and_comprehensions() {
    let env = env_with(&[("self", obj("Obj"))]);
    assert_eq!(ty(&env, "self.tags.all(t, t.size() > 0)"), "bool");
    assert_eq!(ty(&env, "self.tags.map(t, t.size())"), "list(int)");
    assert_eq!(ty(&env, "self.tags.filter(t, t != '')"), "list(string)");
    assert_eq!(ty(&env, "self.labels.exists_one(k, k == 'a')"), "bool");
    assert_eq!(ty(&env, "self.tags.all(i, v, i < 3 && v != '')"), "bool");
    assert_eq!(
        ty(&env, "self.labels.transformMap(k, v, v.size())"),
        "map(string, int)"
    );
    assert_eq!(ty(&env, "self.tags.transformList(i, v, i)"), "list(int)");
    assert_eq!(
        ty(&env, "self.labels.transformMapEntry(k, v, {v: k})"),
        "map(string, string)"
    );
    assert_eq!(ty(&env, "self.children.map(c, c.replicas)"), "list(int)");
    assert_eq!(ty(&env, "has(self.child)"), "bool");
    assert_eq!(ty(&env, "self.?child.?name.orValue('')"), "string");
    assert_eq!(ty(&env, "self.labels[?'a']"), "optional_type(string)");
    assert_eq!(ty(&env, "self.tags.sortBy(t, t.size())"), "list(string)");
    assert_eq!(
        ty(&env, "optional.of(1).optMap(x, x + 1)"),
        "optional_type(int)"
    );
    assert_eq!(ty(&env, "sets.contains(self.tags, ['a'])"), "bool");
    assert_eq!(ty(&env, "self.tags.join(',')"), "string");
    assert_eq!(ty(&env, "'abc'.indexOf('b')"), "int");
    assert_eq!(ty(&env, "lists.range(3).reverse()"), "list(int)");
}

#[test]
fn namespaced_functions_become_global_calls() {
    let env = env_with(&[("self", obj("Obj"))]);
    let c = ok(&env, "sets.contains(self.tags, ['a'])");
    match &c.expr.kind {
        ExprKind::Call {
            target: None,
            function,
            args,
        } => {
            assert_eq!(function, "sets.contains");
            assert_eq!(args.len(), 2);
        }
        other => panic!("not rewritten: {other:?}"),
    }
    assert_eq!(root_overloads(&c), vec!["list_sets_contains_list"]);
}

#[test]
fn qualified_names_and_containers() {
    let mut env = std_env(&[("a.b.c", Type::Int), ("x", Type::String)]);
    let c = ok(&env, "a.b.c + 1");
    let ExprKind::Call { args, .. } = &c.expr.kind else {
        panic!("not a call");
    };
    assert_eq!(args[0].kind, ExprKind::Ident("a.b.c".to_string()));
    assert_eq!(
        c.reference(args[0].id).unwrap().name.as_deref(),
        Some("a.b.c")
    );

    env.set_container("a.b");
    let c = ok(&env, "c + 1");
    let ExprKind::Call { args, .. } = &c.expr.kind else {
        panic!("not a call");
    };
    assert_eq!(args[0].kind, ExprKind::Ident("a.b.c".to_string()));
    assert_eq!(
        err(&env, "y"),
        "ERROR: <input>:1:1: undeclared reference to 'y' (in container 'a.b')\n | y\n | ^"
    );
    // A leading dot reaches the root scope past a comprehension variable.
    let env = std_env(&[("x", Type::String)]);
    let c = ok(&env, "[1].exists(x, .x == 'a')");
    let names: Vec<String> = c
        .references
        .iter()
        .flatten()
        .filter_map(|r| r.name.clone())
        .collect();
    assert!(names.contains(&".x".to_string()), "{names:?}");
    assert_eq!(ty(&env, "[1].map(x, x + 1)"), "list(int)");
}

#[test]
fn provider_types_enums_and_type_idents() {
    let env = std_env(&[]);
    assert_eq!(ty(&env, "pkg.Obj"), "type(pkg.Obj)");
    assert_eq!(ty(&env, "pkg.Color.RED + 1"), "int");
    let c = ok(&env, "pkg.Color.RED");
    assert_eq!(
        c.reference(c.expr.id).unwrap().value,
        Some(crate::ast::Literal::Int(1))
    );
    let mut env = std_env(&[]);
    env.set_container("pkg");
    assert_eq!(ty(&env, "Obj{name: 'a'}.name"), "string");
    let c = ok(&env, "Obj{}");
    let ExprKind::Struct { type_name, .. } = &c.expr.kind else {
        panic!("not a struct");
    };
    assert_eq!(type_name, "pkg.Obj");
}

#[test]
fn kubernetes_rule_example() {
    let env = env_with(&[("self", obj("Obj")), ("oldSelf", obj("Obj"))]);
    let c = ok(
        &env,
        "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas",
    );
    assert_eq!(c.result_type, Type::Bool);
    assert_eq!(root_overloads(&c), vec!["logical_and"]);
    let ExprKind::Call { args, .. } = &c.expr.kind else {
        panic!("not a call");
    };
    assert_eq!(c.overload_ids(args[0].id).unwrap(), ["less_equals_int64"]);
    assert_eq!(ty(&env, "self.nullable == null"), "bool");
    assert_eq!(ty(&env, "self.any.foo"), "dyn");
    assert_eq!(ty(&env, "self == oldSelf"), "bool");
}

#[test]
fn literal_validators() {
    let mut env = env_with(&[]);
    env.options.literal_validators.clear();
    env.options.literal_validators.push(LiteralValidator {
        function: "duration".to_string(),
        arg_index: 0,
        check: Arc::new(|l| matches!(l, crate::ast::Literal::String(s) if s.ends_with('s'))),
    });
    assert_eq!(ty(&env, "duration('1s')"), "google.protobuf.Duration");
    assert_eq!(
        err(&env, "duration('1x')"),
        "ERROR: <input>:1:10: invalid duration argument\n | duration('1x')\n | .........^"
    );
}

#[test]
fn parse_errors_pass_through_compile() {
    let env = std_env(&[]);
    assert!(err(&env, "1 +").contains("Syntax error: mismatched input '<EOF>'"));
}

#[test]
fn deep_expressions_check_without_overflow() {
    let env = std_env(&[("x", Type::Int)]);
    let src = format!("{}x{}", "[".repeat(200), "]".repeat(200));
    let c = ok(&env, &src);
    assert!(c.result_type.to_string().starts_with("list(list("));
    let src = vec!["x"; 200].join(" + ");
    assert_eq!(ty(&env, &src), "int");
    let src = format!("{}x{}", "x.map(y, ".repeat(120), ")".repeat(120));
    let opts = ParseOptions::conformance();
    assert!(parse_with(&src, &opts).is_ok());
    let _ = compile_with(&src, &opts, &env);
}

#[test]
fn kubernetes_literal_validators() {
    let env = env_with(&[("self", obj("Obj"))]);
    assert_eq!(ty(&env, "duration('1h30m') > duration('0')"), "bool");
    assert_eq!(
        err(&env, "duration('1d')"),
        "ERROR: <input>:1:10: invalid duration argument\n | duration('1d')\n | .........^"
    );
    assert_eq!(
        ty(&env, "timestamp('2024-01-01T00:00:00Z')"),
        "google.protobuf.Timestamp"
    );
    assert_eq!(
        err(&env, "timestamp('2024-01-01')"),
        "ERROR: <input>:1:11: invalid timestamp argument\n | timestamp('2024-01-01')\n | ..........^"
    );
    assert_eq!(ty(&env, "self.name.matches('^[a-z]+$')"), "bool");
    assert_eq!(
        err(&env, "self.name.matches('[')"),
        "ERROR: <input>:1:19: invalid matches argument\n | self.name.matches('[')\n | ..................^"
    );
    // Non-literal arguments are left to run time.
    assert_eq!(ty(&env, "duration(self.name) > duration('1s')"), "bool");
}

#[test]
fn kubernetes_format_string_validation() {
    let env = env_with(&[("self", obj("Obj"))]);
    assert_eq!(
        ty(&env, "'%s is %d years'.format([self.name, 3])"),
        "string"
    );
    assert_eq!(ty(&env, "'%s'.format([self.tags])"), "string");
    assert_eq!(
        err(&env, "'%d'.format(['a'])"),
        "ERROR: <input>:1:14: error during formatting: decimal clause can only be used on integers, was given string\n | '%d'.format(['a'])\n | .............^"
    );
    assert_eq!(
        err(&env, "'%s %s'.format(['a'])"),
        "ERROR: <input>:1:15: index 1 out of range\n | '%s %s'.format(['a'])\n | ..............^"
    );
    assert_eq!(
        err(&env, "'%s'.format(['a', 'b'])"),
        "ERROR: <input>:1:12: too many arguments supplied to string.format (expected 1, got 2)\n | '%s'.format(['a', 'b'])\n | ...........^"
    );
    assert_eq!(
        err(&env, "'%q'.format([1])"),
        "ERROR: <input>:1:12: could not parse formatting clause: unrecognized formatting clause \"q\"\n | '%q'.format([1])\n | ...........^"
    );
    assert_eq!(
        err(&env, "'%s'.format([self])"),
        "ERROR: <input>:1:14: error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given Obj\n | '%s'.format([self])\n | .............^"
    );
}

/// Large generated trees (chained `optMap` doubles its receiver) check in linear-ish time.
#[test]
fn large_macro_expansions_check_quickly() {
    let env = env_with(&[]);
    let src = format!("optional.of(1){}.value()", ".optMap(y, y + 1)".repeat(12));
    let t = std::time::Instant::now();
    assert_eq!(ty(&env, &src), "int");
    assert!(t.elapsed().as_secs() < 10);
}

/// Resolutions the environment remembers give the same outcome as resolving afresh: the same
/// references, and type variables numbered as if every candidate had been instantiated.
#[test]
fn remembered_resolutions_match_fresh_ones() {
    let sources = [
        "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas",
        "size([1]) == 1 && [].length == 1",
        "[1, 2].map(x, x + 1).size() == size('ab') && [].length",
        "x + 1 == 2 && x + 1 == 2",
    ];
    for src in sources {
        let fresh = || {
            let env = env_with(&[("self", Type::Dyn), ("x", Type::Int)]);
            compile_with(src, &ParseOptions::conformance(), &env)
        };
        let env = env_with(&[("self", Type::Dyn), ("x", Type::Int)]);
        let first = compile_with(src, &ParseOptions::conformance(), &env);
        let again = compile_with(src, &ParseOptions::conformance(), &env);
        for outcome in [&first, &again] {
            match (outcome, fresh()) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.types, b.types, "{src}");
                    assert_eq!(a.references, b.references, "{src}");
                }
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{src}"),
                (a, b) => panic!("{src}: {:?} vs {:?}", a.is_ok(), b.is_ok()),
            }
        }
    }
    let env = env_with(&[]);
    let shown = err(&env, "size([1]) == 1 && [].length == 1");
    assert!(
        shown.contains("type 'list(_var4)' does not support field selection"),
        "{shown}"
    );
    assert_eq!(err(&env, "size([1]) == 1 && [].length == 1"), shown);
}

/// What an environment remembers follows its declarations and options.
#[test]
fn remembered_resolutions_follow_the_environment() {
    let mut env = env_with(&[("x", Type::Int)]);
    assert_eq!(ty(&env, "x < 2.0"), "bool");
    env.options.cross_type_numeric_comparisons = false;
    assert!(err(&env, "x < 2.0").contains("found no matching overload for '_<_'"));
    env.add_function(
        "f",
        vec![OverloadDecl::global("f_int", vec![Type::Int], Type::Int)],
    );
    assert_eq!(root_overloads(&ok(&env, "f(x)")), ["f_int"]);
    let before = env.clone();
    env.add_function(
        "f",
        vec![OverloadDecl::global("f_dyn", vec![Type::Dyn], Type::String)],
    );
    assert_eq!(root_overloads(&ok(&env, "f(x)")), ["f_int", "f_dyn"]);
    assert_eq!(ty(&env, "f(x)"), "dyn");
    assert_eq!(root_overloads(&ok(&before, "f(x)")), ["f_int"]);
    let mut lib = Declarations::new("more");
    lib.function(
        "f",
        vec![OverloadDecl::global("f_bool", vec![Type::Bool], Type::Bool)],
    );
    assert_eq!(root_overloads(&ok(&env, "f(true)")), ["f_dyn"]);
    env.add_library(Arc::new(lib));
    assert_eq!(root_overloads(&ok(&env, "f(true)")), ["f_bool", "f_dyn"]);
}
