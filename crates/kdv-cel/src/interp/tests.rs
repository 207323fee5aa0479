use std::sync::atomic::AtomicBool;

use super::*;
use crate::parser::{ParseOptions, parse_with};

fn program(src: &str, options: &ProgramOptions) -> Program {
    let parsed = parse_with(src, &ParseOptions::conformance())
        .unwrap_or_else(|e| panic!("parse {src}: {e}"));
    Program::new(&parsed.expr, options)
}

fn run_with<'a>(p: &'a Program, act: &dyn Activation<'a>) -> Result<(Value<'a>, u64), EvalError> {
    p.eval(act, &EvalConfig::default())
}

fn eval(src: &str) -> Result<Value<'static>, String> {
    let p = program(src, &ProgramOptions::default());
    run_with(&p, &())
        .map(|(v, _)| v.into_static())
        .map_err(|e| e.message.to_string())
}

fn ok(src: &str) -> String {
    match eval(src) {
        Ok(v) => v.to_string(),
        Err(e) => panic!("{src}: unexpected error {e}"),
    }
}

fn err(src: &str) -> String {
    match eval(src) {
        Ok(v) => panic!("{src}: expected an error, got {v}"),
        Err(e) => e,
    }
}

#[test]
fn integer_arithmetic_errors() {
    assert_eq!(err("9223372036854775807 + 1"), "integer overflow");
    assert_eq!(err("-9223372036854775808 - 1"), "integer overflow");
    assert_eq!(err("-9223372036854775808 / -1"), "integer overflow");
    assert_eq!(err("-9223372036854775808 % -1"), "integer overflow");
    assert_eq!(err("-(-9223372036854775808)"), "integer overflow");
    assert_eq!(err("1 / 0"), "division by zero");
    assert_eq!(err("1 % 0"), "modulus by zero");
    assert_eq!(err("1u - 2u"), "unsigned integer overflow");
    assert_eq!(
        err("18446744073709551615u * 2u"),
        "unsigned integer overflow"
    );
    assert_eq!(err("1u / 0u"), "division by zero");
    assert_eq!(ok("-7 / 2"), "-3");
    assert_eq!(ok("-7 % 2"), "-1");
    assert_eq!(ok("1.0 / 0.0"), "double(\"Infinity\")");
    assert_eq!(err("1 + 1u"), "no such overload");
    assert_eq!(err("-(42u)"), "no such overload");
}

#[test]
fn conversions_and_ranges() {
    assert_eq!(err("int(9223372036854775807.0)"), "integer overflow");
    assert_eq!(err("int(-9223372036854775808.0)"), "integer overflow");
    assert_eq!(ok("int(-1.9)"), "-1");
    assert_eq!(err("uint(-1)"), "unsigned integer overflow");
    assert_eq!(
        err("uint(18446744073709551616.0)"),
        "unsigned integer overflow"
    );
    assert_eq!(err("int(18446744073709551615u)"), "integer overflow");
    assert_eq!(
        err("int('0x10')"),
        "type conversion error from 'string' to 'int'"
    );
    assert_eq!(ok("int('-42')"), "-42");
    assert_eq!(
        err("uint('+1')"),
        "type conversion error from 'string' to 'uint'"
    );
    assert_eq!(ok("double('1e3')"), "1000.0");
    assert_eq!(ok("bool('T')"), "true");
    assert_eq!(
        err("bool('yes')"),
        "type conversion error from 'string' to 'bool'"
    );
    assert_eq!(ok("string(1234567.0)"), "\"1.234567e+06\"");
    assert_eq!(ok("string(duration('1m1ms'))"), "\"60.001s\"");
    assert_eq!(
        err("string(b'\\xff')"),
        "invalid UTF-8 in bytes, cannot convert to string"
    );
    assert_eq!(ok("type(1) == int && type(type(1)) == type"), "true");
    assert_eq!(ok("int(timestamp('1970-01-01T00:01:00Z'))"), "60");
}

#[test]
fn heterogeneous_equality_and_ordering() {
    assert_eq!(ok("dyn(1) == 1.0"), "true");
    assert_eq!(ok("dyn(1u) == 1"), "true");
    assert_eq!(ok("dyn(1) == 'a'"), "false");
    assert_eq!(ok("0.0/0.0 == 0.0/0.0"), "false");
    assert_eq!(ok("[1, 2] == [1.0, 2u]"), "true");
    assert_eq!(ok("{1: 'a'} == {1u: 'a'}"), "true");
    assert_eq!(ok("1 < 1.5 && 2u > -1 && 1.5 < 2u"), "true");
    assert_eq!(err("1 < 0.0/0.0"), "NaN values cannot be ordered");
    assert_eq!(ok("'a' < 'b' && b'a' < b'b' && false < true"), "true");
    assert_eq!(ok("9223372036854775807 < 9223372036854775808.0"), "false");
    assert_eq!(ok("9223372036854775807 < 9223372036854777856.0"), "true");
    assert_eq!(ok("-1 < 18446744073709551615u"), "true");
}

#[test]
fn logical_absorption() {
    assert_eq!(ok("(1/0 == 1) && false"), "false");
    assert_eq!(ok("false && (1/0 == 1)"), "false");
    assert_eq!(ok("(1/0 == 1) || true"), "true");
    assert_eq!(ok("true || (1/0 == 1)"), "true");
    assert_eq!(err("(1/0 == 1) && true"), "division by zero");
    assert_eq!(err("(1/0 == 1) || false"), "division by zero");
    assert_eq!(err("dyn(1) && true"), "no such overload");
    assert_eq!(ok("dyn(1) || true"), "true");
    assert_eq!(ok("true ? 1 : 1/0"), "1");
    assert_eq!(err("dyn(1) ? 1 : 2"), "no such overload");
    assert_eq!(ok("[0, 2, 1].all(x, 2 / x > 1)"), "false");
    assert_eq!(err("[1, 2, 0].all(x, 2 / x > 0)"), "division by zero");
    assert_eq!(ok("[0, 2].exists(x, 2 / x == 1)"), "true");
    assert_eq!(err("[0, 1].exists_one(x, 2 / x == 2)"), "division by zero");
}

#[test]
fn comprehensions() {
    assert_eq!(ok("[1, 2, 3].map(x, x * 2)"), "[2, 4, 6]");
    assert_eq!(ok("[1, 2, 3].map(x, x > 1, x * 2)"), "[4, 6]");
    assert_eq!(ok("[1, 2, 3].filter(x, x != 2)"), "[1, 3]");
    assert_eq!(ok("[1, 2, 3].exists_one(x, x > 2)"), "true");
    assert_eq!(ok("{'a': 1, 'b': 2}.map(k, k)"), "[\"a\", \"b\"]");
    assert_eq!(ok("[[1], [2, 3]].all(l, l.all(x, x > 0))"), "true");
    assert_eq!(ok("[1, 2].all(i, v, v > i)"), "true");
    assert_eq!(ok("[5, 6].transformList(i, v, v + i)"), "[5, 7]");
    assert_eq!(ok("{'a': 1}.transformMap(k, v, v + 1)"), "{\"a\": 2}");
    assert_eq!(
        err("[1, 1u].transformMapEntry(i, v, {v: i})"),
        "insert failed: key 1 already exists"
    );
}

#[test]
fn maps_lists_and_indexing() {
    assert_eq!(err("{'a': 1}.b"), "no such key: b");
    assert_eq!(err("{'a': 1}['b']"), "no such key: b");
    assert_eq!(err("[1, 2][2]"), "index out of bounds: 2");
    assert_eq!(err("[1, 2][-1]"), "index out of bounds: -1");
    assert_eq!(ok("[1, 2][1u]"), "2");
    assert_eq!(ok("[1, 2][1.0]"), "2");
    assert_eq!(ok("{1: 'a'}[1.0]"), "\"a\"");
    assert_eq!(ok("{1u: 'a'}[1]"), "\"a\"");
    assert_eq!(ok("has({'a': 1}.a) && !has({'a': 1}.b)"), "true");
    assert_eq!(
        ok("2 in [1, 2] && 'a' in {'a': 1} && !(3 in [1, 2])"),
        "true"
    );
    assert_eq!(ok("size('fiance\\u0301') == 7 && size(b'ab') == 2"), "true");
    assert_eq!(ok("[1] + [2]"), "[1, 2]");
    assert!(err("{'a': 1, 'a': 2}").contains("repeated key"));
}

#[test]
fn strings_and_regex() {
    assert_eq!(ok("'abc'.startsWith('ab') && 'abc'.endsWith('bc')"), "true");
    assert_eq!(ok("'abc'.contains('b')"), "true");
    assert_eq!(
        ok("'foo123'.matches('\\\\d+') && !'foo'.matches('^\\\\d+$')"),
        "true"
    );
    assert_eq!(ok("matches('٣', '^\\\\d$')"), "false");
    assert!(err("'a'.matches('(')").starts_with("error parsing regexp"));
    assert_eq!(ok("'hello'.charAt(1) + 'hello'.substring(1, 3)"), "\"eel\"");
    assert_eq!(ok("'a,b'.split(',')"), "[\"a\", \"b\"]");
    assert_eq!(ok("['a', 'b'].join('-')"), "\"a-b\"");
    assert_eq!(
        err("'abc'.substring(2, 1)"),
        "invalid substring range. start: 2, end: 1"
    );
    assert_eq!(err("'abc'.charAt(4)"), "index out of range: 4");
}

#[test]
fn timestamps_and_durations() {
    assert_eq!(ok("timestamp('2009-02-13T23:31:30Z').getDayOfWeek()"), "5");
    assert_eq!(
        ok("timestamp('2009-02-13T23:31:30Z').getDate('Australia/Sydney')"),
        "14"
    );
    assert_eq!(ok("duration('1h30m').getMinutes()"), "90");
    assert_eq!(ok("duration('1.5s').getMilliseconds()"), "1500");
    assert_eq!(
        err("timestamp('9999-12-31T23:59:59Z') + duration('1s')"),
        "timestamp overflow"
    );
    assert_eq!(
        ok("string(timestamp('2000-01-01T00:00:00+01:00') + duration('1h'))"),
        "\"2000-01-01T01:00:00+01:00\""
    );
    assert_eq!(
        ok("timestamp('2000-01-01T00:00:00Z') - timestamp('1999-12-31T00:00:00Z')"),
        "duration(\"86400s\")"
    );
}

#[test]
fn optionals() {
    assert_eq!(ok("{'a': 1}.?a.orValue(5)"), "1");
    assert_eq!(ok("{'a': 1}.?b.orValue(5)"), "5");
    assert_eq!(ok("optional.none().or(optional.of(2)).value()"), "2");
    assert_eq!(
        err("optional.none().value()"),
        "optional.none() dereference"
    );
    assert_eq!(ok("[1, ?optional.none(), ?optional.of(3)]"), "[1, 3]");
    assert_eq!(ok("{?'a': optional.none(), 'b': 2}"), "{\"b\": 2}");
    assert_eq!(ok("{'a': {'b': 1}}.?a.b.value()"), "1");
    assert_eq!(ok("[1, 2][?5].hasValue()"), "false");
    assert_eq!(ok("optional.of(1).optMap(x, x + 1).value()"), "2");
    assert_eq!(ok("type(optional.none()) == optional_type"), "true");
}

#[test]
fn json_host_values() {
    let doc = serde_json::json!({
        "minReplicas": 1, "replicas": 3, "maxReplicas": 5,
        "items": [{"name": "x"}, {"name": "y"}],
        "labels": {"app": "web"}
    });
    let p = program(
        "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas",
        &ProgramOptions::default(),
    );
    let act = Vars::new().with("self", Value::from_json(&doc));
    let (v, cost) = run_with(&p, &act).unwrap();
    assert!(matches!(v, Value::Bool(true)));
    assert_eq!(cost, 10);
    let p = program(
        "self.items.filter(e, e.name == 'x').size() == 1 && self.labels.app == 'web'",
        &ProgramOptions::default(),
    );
    assert!(matches!(run_with(&p, &act).unwrap().0, Value::Bool(true)));
    let p = program("self.items[1].name", &ProgramOptions::default());
    let v = run_with(&p, &act).unwrap().0;
    // The string is borrowed from the document.
    assert!(matches!(v, Value::String(crate::value::Str::Borrowed("y"))));
}

#[test]
fn kubernetes_runtime_costs() {
    // Vectors of upstream TestCelCostStability (spec §6.5.3).
    let doc = serde_json::json!({
        "val": {"b": 1, "d": 2},
        "array": [1, 1, 2, 2, 3, 3, 4, 5],
        "listMap": [{"k": "a1", "v": "b1"}, {"k": "a2", "v": "b2"}, {"k": "a3", "v": "b3", "v2": "z"}],
        "val1": "Rook takes 👑",
        "ints": {"val1": 1, "val6": 1, "val4": 2.0},
    });
    let opts = ProgramOptions::kubernetes();
    let act = Vars::new().with("self", Value::from_json(&doc));
    for (src, want) in [
        ("!('a' in self.val)", 4),
        ("'b' in self.val", 3),
        ("!has(self.val.a)", 3),
        ("has(self.val.b)", 2),
        ("self.val.all(k, self.val[k] > 0)", 17),
        ("!self.val.exists(k, self.val[k] == 3)", 20),
        ("self.val.exists_one(k, self.val[k] == 2)", 14),
        ("size(self.val) == 2", 4),
        ("size(self.val.filter(k, self.val[k] > 1)) == 1", 26),
        ("self.val.all(k, v, v > 0)", 13),
        ("self.val.transformMap(k, v, v + 1).size() == 2", 15),
        (
            "self.val.transformMapEntry(k, v, {k + '2': v + 1}).size() == 2",
            77,
        ),
        ("has(self.listMap[0].v)", 3),
        ("self.listMap.all(m, m.k.startsWith('a'))", 21),
        ("self.listMap.exists(m, m.k.endsWith('1'))", 13),
        ("self.listMap.exists_one(m, m.k == 'a3')", 15),
        ("self.listMap.map(m, m.v).exists(v, v == 'b1')", 55),
        ("self.listMap.exists(m, m.v2 == 'z')", 24),
        ("2 in self.array", 10),
        ("self.array.all(e, e > 0)", 43),
        ("self.array.exists(e, e > 2)", 36),
        ("self.array.exists_one(e, e > 4)", 22),
        ("size(self.array.filter(e, e%2 == 0)) == 3", 68),
        (
            "self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)",
            194,
        ),
        ("self.val1.startsWith('Rook')", 3),
        ("!self.val1.startsWith('knight')", 4),
        ("self.val1.matches('^[^0-9]*$')", 8),
        ("size(self.val1) == 12", 4),
        ("self.val1.charAt(3) == 'k'", 4),
        ("self.val1.replace(' ', 'x') == 'Rookxtakesx👑'", 7),
        ("self.val1.split(' ') == ['Rook', 'takes', '👑']", 6),
        ("self.val1.upperAscii() == 'ROOK TAKES 👑'", 6),
        ("double(5) < 10.0", 1),
        ("self.ints.val1 == self.ints.val6", 7),
        ("type(self.ints.val1) == int", 5),
        ("double(self.ints.val1) < self.ints.val4", 8),
        ("type(self.val1) == string", 4),
    ] {
        let p = program(src, &opts);
        let (v, cost) = run_with(&p, &act).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert!(matches!(v, Value::Bool(true)), "{src}: {v}");
        assert_eq!(cost, want, "{src}");
    }
}

#[test]
fn kubernetes_runtime_costs_optionals_and_self_compare() {
    // Upstream TestCelCostStability, "optionals" and "ext lists version 3": cel-go does not
    // charge `or`/`orValue` (short-circuiting steps, not calls), and `distinct` costs
    // ⌊n²·f⌋ + 11 with f = 2.1 when the first element is a string.
    let doc = serde_json::json!({"obj": {"field": "a"}, "m": {"k": "v"}, "l": ["a"]});
    let opts = ProgramOptions::kubernetes();
    let act = Vars::new().with("self", Value::from_json(&doc));
    for (src, want) in [
        ("optional.of('a').or(optional.of('a')).hasValue()", 2),
        ("optional.none().or(optional.of('a')).hasValue()", 3),
        ("self.obj.?field.orValue('v') == 'a'", 4),
        ("self.obj.?absentField.orValue('v') == 'v'", 3),
        ("self.obj.?field == optional.of('a')", 5),
        ("[].distinct() == []", 11),
        ("[1].distinct() == [1]", 14),
        ("[-2, 5, -2, 1, 1, 5, -2, 1].distinct() == [-2, 5, 1]", 140),
        (
            "['c', 'a', 'a', 'b', 'a', 'b', 'c', 'c'].distinct() == ['c', 'a', 'b']",
            146,
        ),
        ("[[1], [1], [2]].distinct() == [[1], [2]]", 30),
        ("['d', 'a', 'b', 'c'].sort() == ['a', 'b', 'c', 'd']", 45),
        (
            "['a', 'c', 'b', 'first'].sortBy(e, e == 'first' ? '' : e) == ['first', 'a', 'b', 'c']",
            104,
        ),
    ] {
        let p = program(src, &opts);
        let (v, cost) = run_with(&p, &act).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert!(matches!(v, Value::Bool(true)), "{src}: {v}");
        assert_eq!(cost, want, "{src}");
    }
}

#[test]
fn cost_limit_and_interrupt() {
    let p = program(
        "[1, 2, 3].map(x, [1, 2, 3].map(y, x * y))",
        &ProgramOptions::default(),
    );
    let cfg = EvalConfig {
        cost_limit: Some(20),
        interrupt: None,
    };
    let e = p.eval(&(), &cfg).unwrap_err();
    assert_eq!(e.message, "operation cancelled: actual cost limit exceeded");
    // A limit-exceeded error is not absorbed by `||`.
    let p = program(
        "[1, 2, 3].all(x, x > 0) || true",
        &ProgramOptions::default(),
    );
    let cfg = EvalConfig {
        cost_limit: Some(3),
        interrupt: None,
    };
    assert!(p.eval(&(), &cfg).unwrap_err().abort);
    let stop = AtomicBool::new(true);
    let p = program(
        "lists.range(1000).all(x, x >= 0)",
        &ProgramOptions::default(),
    );
    let cfg = EvalConfig {
        cost_limit: None,
        interrupt: Some(&stop),
    };
    assert_eq!(
        p.eval(&(), &cfg).unwrap_err().message,
        "operation interrupted"
    );
}

#[test]
fn constant_regex_is_compiled_at_plan_time() {
    let p = program("'x'.matches('(')", &ProgramOptions::kubernetes());
    assert_eq!(p.plan_errors().len(), 1);
    let p = program("'abc'.matches('^a')", &ProgramOptions::kubernetes());
    assert!(p.plan_errors().is_empty());
}

#[test]
fn unchecked_names_resolve_at_run_time() {
    let opts = ProgramOptions {
        container: "a".into(),
        ..ProgramOptions::default()
    };
    let p = program("b.c + x", &opts);
    let act = Vars::new()
        .with("a.b.c", Value::Int(1))
        .with("x", Value::Int(2));
    assert!(matches!(run_with(&p, &act).unwrap().0, Value::Int(3)));
    let p = program("y", &ProgramOptions::default());
    assert_eq!(
        run_with(&p, &()).unwrap_err().message,
        "undeclared reference to 'y' (in container '')"
    );
}

#[test]
fn compiled_programs_use_the_checker() {
    let mut env = crate::checker::Env::kubernetes();
    env.add_variable("x", crate::types::Type::Int);
    let opts = ProgramOptions::kubernetes();
    let p = Program::compile(&env, "x + 1 > 2 && [1, 2].exists(y, y == x)", &opts).unwrap();
    assert_eq!(p.result_type(), Some(&crate::types::Type::Bool));
    let act = Vars::new().with("x", Value::Int(2));
    assert!(matches!(run_with(&p, &act).unwrap().0, Value::Bool(true)));
    // Namespaced functions resolved by the checker.
    let p = Program::compile(&env, "sets.contains([1, 2], [2])", &opts).unwrap();
    assert!(matches!(run_with(&p, &()).unwrap().0, Value::Bool(true)));
    // A `dyn` operand dispatches to the overload its runtime type needs.
    let p = Program::compile(&env, "dyn(1) < 2u", &opts).unwrap();
    assert!(matches!(run_with(&p, &()).unwrap().0, Value::Bool(true)));
    assert!(Program::compile(&env, "x + 'a'", &opts).is_err());
}

#[test]
fn programs_are_shareable_across_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Program>();
    let p = std::sync::Arc::new(program("1 + 1 == 2", &ProgramOptions::default()));
    let handles: Vec<_> = (0..2)
        .map(|_| {
            let p = p.clone();
            std::thread::spawn(move || {
                matches!(
                    p.eval(&(), &EvalConfig::default()),
                    Ok((Value::Bool(true), _))
                )
            })
        })
        .collect();
    for h in handles {
        assert!(h.join().unwrap());
    }
}

#[test]
fn kubernetes_strings_v2_format() {
    // Upstream Kubernetes library test vectors (spec §1.15.2): the v1–v3 formatter.
    let opts = ProgramOptions::kubernetes();
    for (src, want) in [
        (
            "'%d %s %f %s %s'.format([1, 'abc', 1.0, duration('1m'), timestamp('2000-01-01T00:00:00.000Z')])",
            "1 abc 1.000000 60s 2000-01-01T00:00:00Z",
        ),
        ("'%o %o %o'.format([7, 8, 9])", "7 10 11"),
        ("'%b %b %b'.format([7, 8, 9])", "111 1000 1001"),
        ("'%e'.format([3.14])", "3.140000×10⁰⁰"),
    ] {
        let p = program(src, &opts);
        let v = run_with(&p, &()).unwrap_or_else(|e| panic!("{src}: {e}")).0;
        assert_eq!(v.to_string(), format!("{want:?}"), "{src}");
    }
    // Strings v3+ functions are absent in Kubernetes.
    let p = program("'abc'.reverse()", &opts);
    assert!(run_with(&p, &()).is_err());
}

/// Value (or error) and cost of `src` over `doc`, planned with or without fast calls.
fn outcome(src: &str, doc: &serde_json::Value, checked: bool, fast: bool) -> String {
    super::plan::NO_FAST_CALLS.with(|c| c.set(!fast));
    let p = if checked {
        let mut env = crate::k8s::env();
        env.add_variable("self", crate::types::Type::Dyn);
        Program::compile(&env, src, &crate::k8s::program_options())
            .unwrap_or_else(|e| panic!("{src}: {e}"))
    } else {
        program(src, &ProgramOptions::kubernetes())
    };
    super::plan::NO_FAST_CALLS.with(|c| c.set(false));
    let act = Vars::new().with("self", Value::from_json(doc));
    match p.eval(&act, &EvalConfig::default()) {
        Ok((v, cost)) => format!("{v} cost {cost}"),
        Err(e) => format!("error {} cost?", e.message),
    }
}

#[test]
fn fast_calls_match_dispatch() {
    let doc = serde_json::json!({
        "i": 3, "j": 10, "d": 2.5, "u": 18446744073709551615u64, "b": true,
        "s": "Rook takes \u{1f451}", "t": "Rook", "e": "", "long": "x".repeat(70),
        "m": {"Available": 1, "k\u{e9}y": 2}, "l": [1, "a", 2.0],
        "items": [{"name": "a"}, {"name": "x"}, {"name": "\u{e9}t\u{e9}"}],
    });
    let exprs = [
        "self.i < self.j",
        "self.i <= self.j",
        "self.i > self.j",
        "self.i >= self.j",
        "self.i < self.d",
        "self.d >= self.i",
        "self.i < self.u",
        "self.s < self.t",
        "self.i == self.j",
        "self.i == 3",
        "self.i != 3",
        "self.i == self.d",
        "self.s == self.s",
        "self.s != self.t",
        "self.b == true",
        "self.e == ''",
        "self.long == self.long",
        "self.m == self.m",
        "self.l == self.l",
        "self.l == [1]",
        "self.i == self.s",
        "self.m == {}",
        "'Available' in self.m",
        "'k\\u00e9y' in self.m",
        "'nope' in self.m",
        "1 in self.l",
        "'a' in self.l",
        "'a' in self.missing",
        "'a' in self.i",
        "'a' in {'a': 1}",
        "self.s.startsWith(self.t)",
        "self.s.startsWith('')",
        "self.long.startsWith('xx')",
        "self.s.matches('^R.*\u{1f451}$')",
        "self.long.matches('^x+$')",
        "self.items.filter(e, e.name == 'x').size() == 1",
        "self.items.all(e, e.name.startsWith('a'))",
        "self.items.exists(e, e.name > 'b')",
        "self.items.exists_one(e, e.name == '\\u00e9t\\u00e9')",
        "self.missing == 1",
        "self.i < self.missing",
    ];
    for src in exprs {
        for checked in [true, false] {
            assert_eq!(
                outcome(src, &doc, checked, true),
                outcome(src, &doc, checked, false),
                "{src} (checked: {checked})"
            );
        }
    }
}

#[test]
fn constant_patterns_are_shared_by_programs() {
    let src = "'abc'.matches('^[a-c]+$ shared test')";
    let opts = ProgramOptions::kubernetes();
    for _ in 0..2 {
        let p = program(src, &opts);
        assert!(p.plan_errors().is_empty());
        assert!(matches!(run_with(&p, &()).unwrap().0, Value::Bool(false)));
    }
    super::clear_shared_patterns();
    let p = program("'abc'.matches('^[a-c]+$')", &opts);
    assert!(matches!(run_with(&p, &()).unwrap().0, Value::Bool(true)));
    // Invalid patterns are reported by every program that has them.
    for _ in 0..2 {
        assert_eq!(program("'x'.matches('[')", &opts).plan_errors().len(), 1);
    }
}

#[test]
fn variables_read_repeatedly() {
    let doc = serde_json::json!({"a": 1, "b": 2});
    let act = Vars::new().with("self", Value::from_json(&doc));
    let opts = ProgramOptions::kubernetes();
    let p = program("self.a < self.b && self.b > self.a && self != null", &opts);
    assert_eq!(run_with(&p, &act).unwrap().1, 12);
    let p = program("[1].all(x, self.a == x) && self.b == 2", &opts);
    assert!(matches!(run_with(&p, &act).unwrap().0, Value::Bool(true)));
    for src in [
        "oldSelf.a == oldSelf.b",
        "oldSelf.a == 1",
        "self.a == oldSelf.a",
    ] {
        assert_eq!(
            run_with(&program(src, &opts), &act).unwrap_err().message,
            "no such attribute(s): oldSelf",
            "{src}"
        );
    }
}

#[test]
fn failed_evaluations_report_the_cost_so_far() {
    let cfg = EvalConfig::default();
    // The index is charged before it fails (the qualification 1, and the relative
    // attribute over the constant list 1), and the strict call it feeds is charged too:
    // 3, as upstream TestMessageExpression "runtime cost preserved if messageExpression
    // fails during evaluation" expects (50 - 47).
    let p = program(
        r#""str1 " + ["a", "b", "c", "d"][4]"#,
        &ProgramOptions::kubernetes(),
    );
    let (r, cost) = p.eval_with_cost(&(), &cfg);
    assert_eq!(r.unwrap_err().message, "index out of bounds: 4");
    assert_eq!(cost, 3);
    // Success: the same cost as `eval`.
    let p = program(
        r#""str1 " + ["a", "b", "c", "d"][3]"#,
        &ProgramOptions::kubernetes(),
    );
    let (r, cost) = p.eval_with_cost(&(), &cfg);
    assert_eq!(r.unwrap().to_string(), "\"str1 d\"");
    assert_eq!(p.eval(&(), &cfg).unwrap().1, cost);
    // The per-call limit: the first total above it (charges are not split).
    let p = program("[1, 2, 3].all(x, x > 0)", &ProgramOptions::default());
    let limited = EvalConfig {
        cost_limit: Some(3),
        interrupt: None,
    };
    let (r, cost) = p.eval_with_cost(&(), &limited);
    assert!(r.unwrap_err().abort);
    assert!(cost > 3);
}

#[test]
fn zero_timestamps_are_go_zero_times() {
    // cel-go's `IsZeroValue` of a timestamp is Go's `time.Time.IsZero` (year 1), as
    // apiextensions-apiserver's TestValidationExpressions "optionals" relies on.
    for (src, want) in [
        ("timestamp('0001-01-01T00:00:00Z')", true),
        ("timestamp('0001-01-01T00:00:00.000+00:00')", true),
        ("timestamp('1970-01-01T00:00:00Z')", false),
        ("timestamp('0001-01-01T00:00:00.000000001Z')", false),
    ] {
        let p = program(src, &ProgramOptions::default());
        let (v, _) = run_with(&p, &()).unwrap();
        assert_eq!(v.is_zero(), want, "{src}");
    }
}

#[test]
fn attribute_and_error_path_costs_match_cel_go() {
    // Runtime costs measured with cel-go's cost tracker (OptOptimize, OptTrackCost, presence
    // tests free, optional types, ext lists v3) for `self` of type dyn: relative attributes
    // (a computed value that is selected or indexed) cost 1 for their resolution; attributes
    // used as keys or conditional branches are not charged for their root but are for their
    // qualifiers; failed operands still reach the steps that consume them.
    let cfg = EvalConfig::default();
    let mut env = crate::k8s::env();
    env.add_variable("self", crate::types::Type::Dyn);
    let mut opts = ProgramOptions::kubernetes();
    opts.registry = Arc::new(crate::k8s::registry());
    let doc = serde_json::json!({"obj": {"field": "a"}, "l": ["a", "b"], "m": {"k": "v"}});
    let act = Vars::new().with("self", Value::from_json(&doc));
    for (src, fails, want) in [
        ("self.l.map(x, x)[0]", false, 31),
        ("(true ? self.l : self.l)[0]", false, 2),
        (r#"(true ? self.obj : {"field": "b"}).field"#, false, 2),
        (r#"has({"a": 1}.a)"#, false, 1),
        ("has(self.obj.field)", false, 2),
        (r#"optional.of({"a": 1}).?a.hasValue()"#, false, 4),
        (r#"{"a": 1}.?a.hasValue()"#, false, 3),
        (r#"["a"][?0].hasValue()"#, false, 3),
        ("self.l[0 + 1]", false, 4),
        (r#"self.m[self.obj.field == "a" ? "k" : "z"]"#, false, 7),
        (r#"self.obj.?field.orValue("v").size()"#, false, 4),
        (r#"optional.none().orValue({"a": 1}).a"#, false, 3),
        (r#""x" + self.l[5]"#, true, 4),
        (r#"self.l[5] + "x""#, true, 4),
        ("size(self.l[5])", true, 4),
        (r#"self.l[5] == "a""#, true, 4),
        (r#"self.l.all(x, x[0] == "a")"#, true, 15),
        ("self.l.map(x, self.l[5])", true, 33),
        (r#"self.l.exists(x, self.l[5] == "a")"#, true, 19),
        (r#"self.l[5] == "a" || true"#, false, 4),
        ("self.obj.missing", true, 3),
        ("self.obj.missing.x", true, 3),
        ("self.m.k.size()", false, 4),
        ("optional.none().or(optional.of('a')).hasValue()", false, 3),
        ("optional.of('a').or(optional.of('a')).hasValue()", false, 2),
        ("self.obj.?field.orValue('v') == 'a'", false, 4),
        (
            "['c', 'a', 'a', 'b', 'a', 'b', 'c', 'c'].distinct() == ['c', 'a', 'b']",
            false,
            146,
        ),
        ("[1, 2].sortBy(e, string(e))", false, 50),
        ("self.l[5].size() + 1", true, 5),
        (r#"self.l.filter(x, x == "a")[0].size()"#, false, 23),
        (r#"self.l.map(x, x + "1")[0] == "a1""#, false, 34),
        ("dyn(self.l)[1]", false, 5),
        ("self.l[1].startsWith(self.l[5])", true, 7),
        ("1 / 0 + 1", true, 2),
        ("1 / 0 == 1 / 0", true, 3),
        ("!(1/0 == 1)", true, 3),
        ("-(1/0)", true, 2),
        ("(1/0 == 1) ? 1 : 2", true, 2),
        ("self.l.all(x, 1/0 == 1)", true, 13),
        ("self.l.exists_one(x, 1/0 == 1)", true, 8),
        ("self.l.map(x, 1/0)", true, 29),
        ("self.l.map(x, x, 1/0)", true, 5),
        ("self.l.filter(x, 1/0 == 1)", true, 7),
        (r#"self.m[self.l[0] == "a" ? "k" : "j"]"#, false, 7),
        ("self.m[(true ? self.obj : self.m).field]", true, 5),
        ("(true ? self.obj : self.m)[self.obj.field]", true, 4),
        (
            r#"self.l.exists(x, x == "b" ? self.obj.field == "a" : false)"#,
            false,
            19,
        ),
        ("self.l.map(x, [x][0])", false, 53),
        (r#"self.l.map(x, {"k": x}.k)"#, false, 93),
        ("self.l.exists(x, self.m[?x].hasValue())", false, 17),
        (r#"self.obj.?field.optMap(f, f + "x").value()"#, false, 12),
        ("self.l.filter(x, true)[self.l.size() - 1]", false, 35),
        // `@sortByAssociatedKeys` over `dyn` data: no overload id, so cost 1 for the sort.
        ("self.l.sortBy(e, e)", false, 32),
    ] {
        let p = Program::compile(&env, src, &opts).unwrap_or_else(|e| panic!("{src}: {e:?}"));
        let (r, cost) = p.eval_with_cost(&act, &cfg);
        assert_eq!(r.is_err(), fails, "{src}");
        assert_eq!(cost, want, "{src}");
    }
}

#[test]
fn calls_without_a_single_checked_overload_cost_as_in_cel_go() {
    // Runtime costs measured with cel-go's cost tracker for `self` of type dyn, with the
    // Kubernetes base environment's options (OptOptimize, OptTrackCost, presence tests free,
    // ext lists v3, strings v2, sets, optional types). cel-go plans a call the checker could not narrow to one overload (a `dyn`
    // argument) without an overload id, so the overload-specific cost rules (string `+` and
    // orderings, `in` a list, `sort`, `sortBy`) do not apply and the call costs 1; calls with
    // one candidate overload (`startsWith`, `==`, `distinct`, ...) keep their rule.
    let cfg = EvalConfig::default();
    let mut env = crate::k8s::env();
    env.add_variable("self", crate::types::Type::Dyn);
    let mut opts = ProgramOptions::kubernetes();
    opts.registry = Arc::new(crate::k8s::registry());
    let doc = serde_json::json!({
        "l": ["k", "j", "i", "h", "g", "f", "e", "d", "c", "b", "a"],
        "s": "abcdef",
        "t": "abcdeg",
        "n": [1, 2, 3],
        "ll": [["a"], ["b", "c"]],
    });
    let act = Vars::new().with("self", Value::from_json(&doc));
    for (src, want) in [
        ("['k','j','i','h','g','f','e','d','c','b','a'].sort()", 265),
        (
            "dyn(['k','j','i','h','g','f','e','d','c','b','a']).sort()",
            1,
        ),
        ("self.l.sort()", 3),
        ("self.l.sortBy(e, e)", 149),
        (
            "['k','j','i','h','g','f','e','d','c','b','a'].sortBy(e, e)",
            411,
        ),
        ("'abcdef' + 'abcdeg'", 2),
        ("dyn('abcdef') + 'abcdeg'", 2),
        ("self.s + self.t", 5),
        ("'abcdef' < 'abcdeg'", 1),
        ("dyn('abcdef') < 'abcdeg'", 1),
        ("self.s < self.t", 5),
        ("self.s <= self.t", 5),
        ("self.s > self.t", 5),
        ("self.s >= self.t", 5),
        ("self.s == self.t", 5),
        ("self.l == self.l", 6),
        ("'a' in self.l", 3),
        ("'a' in ['k','j','i','h','g','f','e','d','c','b','a']", 0),
        ("self.s.startsWith('abc')", 3),
        ("self.s.endsWith('abc')", 3),
        ("self.s.contains('cd')", 3),
        ("self.s.matches('^a.*$')", 4),
        ("self.l.distinct().size()", 268),
        ("self.l.reverse().size()", 25),
        ("self.l.slice(0, 3).size()", 17),
        ("self.ll.flatten().size()", 16),
        ("self.n.sort()", 3),
        ("self.l + self.l", 5),
        ("size(self.s)", 3),
        ("self.s.size()", 3),
        ("string(self.s)", 3),
        ("bytes(self.s).size()", 4),
    ] {
        let p = Program::compile(&env, src, &opts).unwrap_or_else(|e| panic!("{src}: {e:?}"));
        let (r, cost) = p.eval_with_cost(&act, &cfg);
        assert!(r.is_ok(), "{src}: {r:?}");
        assert_eq!(cost, want, "{src}");
    }
}

#[test]
fn item_11_lists_range_has_no_cap_of_its_own_and_memory_stays_bounded() {
    // cel-go's genRange: any size the cost limit allows; a negative size is empty.
    let p = program(
        "lists.range(2000000).size() == 2000000",
        &ProgramOptions::default(),
    );
    let cfg = EvalConfig {
        cost_limit: Some(100_000_000),
        interrupt: None,
    };
    assert!(matches!(p.eval(&(), &cfg).unwrap().0, Value::Bool(true)));
    assert_eq!(ok("lists.range(-3)"), "[]");
    // Past the limit: cel-go's cost error, before the list is built.
    let cfg = EvalConfig {
        cost_limit: Some(1_000_000),
        interrupt: None,
    };
    let e = p.eval(&(), &cfg).unwrap_err();
    assert_eq!(e.message, "operation cancelled: actual cost limit exceeded");
    assert!(e.abort);
    // Without a limit, one call still allocates at most MAX_CALL_ELEMENTS elements.
    let p = program(
        "lists.range(9223372036854775807).size() > 0",
        &ProgramOptions::default(),
    );
    let cfg = EvalConfig {
        cost_limit: None,
        interrupt: None,
    };
    let e = p.eval(&(), &cfg).unwrap_err();
    assert_eq!(e.message, "operation cancelled: actual cost limit exceeded");
}
