//! The edge cases upstream documents for every function of Kubernetes' CEL libraries
//! (`k8s.io/apiserver/pkg/cel/library`: lists, regex, urls, quantity, ip, cidr, format,
//! semver), run against kdv-cel in the Kubernetes environment.
//!
//! Sources of the cases (expressions and expected results carried over as facts):
//! - the library unit tests (`cidr_test.go`, `ip_test.go`, `quantity_test.go`,
//!   `semver_test.go`, `format_test.go`) and the runtime costs of `cost_test.go`;
//! - the examples in the libraries' doc comments (where an example is wrong, the test says
//!   so and asserts what upstream's code does);
//! - the library cases of apiextensions' `TestValidationExpressions` (schema-typed `self`
//!   is bound as JSON, with format-typed fields converted as the structural schema would).
//!
//! Not covered here: the authz, authzSelectors, jsonpatch and test libraries (not
//! available to CRD rules) and static cost estimates (`EstimateCost`, `TestSize`).

use std::collections::HashMap;
use std::sync::Arc;

use kdv_cel::checker::{Env, TypeProvider};
use kdv_cel::interp::{EvalConfig, Program, ProgramOptions, Vars};
use kdv_cel::k8s;
use kdv_cel::types::Type;
use kdv_cel::value::{Key, Map, OwnedMap, Value};

// ---------------------------------------------------------------------------------------
// Helpers

/// The object types of a structural schema: type name → field name → CEL type.
#[derive(Default)]
struct Schema(HashMap<String, HashMap<String, Type>>);

impl Schema {
    fn with(mut self, type_name: &str, fields: &[(&str, Type)]) -> Schema {
        let fields = fields
            .iter()
            .map(|(name, ty)| (name.to_string(), ty.clone()))
            .collect();
        self.0.insert(type_name.to_string(), fields);
        self
    }
}

impl TypeProvider for Schema {
    fn has_type(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    fn field_type(&self, type_name: &str, field: &str) -> Option<Type> {
        self.0.get(type_name)?.get(field).cloned()
    }
}

/// Name of the root object type of every [`Object`].
const ROOT: &str = "Object";

/// A schema-typed `self`, as apiextensions binds it.
struct Object {
    value: Value<'static>,
    schema: Arc<Schema>,
}

fn list(element: Type) -> Type {
    Type::List(Box::new(element))
}

fn object_type(name: &str) -> Type {
    Type::Object(Arc::from(name))
}

/// The Kubernetes environment with every library and `self`: typed by `this`'s schema
/// when given, else `dyn`.
fn env(this: Option<&Object>) -> Env {
    let mut env = k8s::env();
    match this {
        Some(o) => {
            env.set_provider(o.schema.clone());
            env.add_variable("self", object_type(ROOT));
        }
        None => {
            env.add_variable("self", Type::Dyn);
        }
    }
    env
}

/// Kubernetes' program options with every Kubernetes library; `optimize` as in production
/// (CRD rules) or off, as in the upstream library unit tests.
fn options(optimize: bool) -> ProgramOptions {
    let mut options = ProgramOptions::kubernetes();
    options.registry = Arc::new(k8s::registry());
    options.optimize = optimize;
    options
}

fn program(src: &str, this: Option<&Object>, optimize: bool) -> Program {
    match Program::compile(&env(this), src, &options(optimize)) {
        Ok(p) => p,
        Err(issues) => panic!("{src}: unexpected compile error\n{issues}"),
    }
}

/// Evaluates `src` (with `self` bound when given): the value and the runtime cost, or the
/// error text.
fn eval(src: &str, this: Option<&Object>, optimize: bool) -> Result<(Value<'static>, u64), String> {
    let p = program(src, this, optimize);
    let mut vars = Vars::new();
    if let Some(o) = this {
        vars.insert("self", o.value.clone());
    }
    p.eval(&vars, &EvalConfig::default())
        .map(|(v, cost)| (v.into_static(), cost))
        .map_err(|e| e.message.to_string())
}

fn value_in(src: &str, this: Option<&Object>) -> Value<'static> {
    match eval(src, this, true) {
        Ok((v, _)) => v,
        Err(e) => panic!("{src}: unexpected error: {e}"),
    }
}

fn value(src: &str) -> Value<'static> {
    value_in(src, None)
}

fn assert_true(src: &str) {
    assert!(
        matches!(value(src), Value::Bool(true)),
        "{src}: expected true"
    );
}

fn assert_false(src: &str) {
    assert!(
        matches!(value(src), Value::Bool(false)),
        "{src}: expected false"
    );
}

/// `src` evaluates to a value of the same type as, and CEL-equal to, `expected`'s.
fn assert_eq_value(src: &str, expected: &str) {
    let (got, want) = (value(src), value(expected));
    assert!(
        got.type_of() == want.type_of() && got.cel_eq(&want),
        "{src}: got {got}, expected {expected} ({want})"
    );
}

fn assert_string(src: &str, expected: &str) {
    match value(src) {
        Value::String(s) => assert_eq!(s.as_str(), expected, "{src}"),
        v => panic!("{src}: expected a string, got {v}"),
    }
}

fn assert_int(src: &str, expected: i64) {
    match value(src) {
        Value::Int(i) => assert_eq!(i, expected, "{src}"),
        v => panic!("{src}: expected an int, got {v}"),
    }
}

/// Evaluation of `src` fails with exactly `message`.
fn assert_error(src: &str, message: &str) {
    match eval(src, None, true) {
        Ok((v, _)) => panic!("{src}: expected error {message:?}, got {v}"),
        Err(e) => assert_eq!(e, message, "{src}"),
    }
}

/// Type-checking `src` fails with exactly one issue, `message`.
fn assert_compile_error(src: &str, message: &str) {
    compile_error_in(None, src, message);
}

fn assert_compile_error_with(this: &Object, src: &str, message: &str) {
    compile_error_in(Some(this), src, message);
}

fn compile_error_in(this: Option<&Object>, src: &str, message: &str) {
    match Program::compile(&env(this), src, &options(true)) {
        Ok(_) => panic!("{src}: expected compile error {message:?}"),
        Err(issues) => {
            let messages: Vec<&str> = issues.iter().map(|i| i.message.as_str()).collect();
            assert_eq!(messages, [message], "{src}");
        }
    }
}

/// Creating the program for `src` fails (cel-go: `program instantiation failed: <message>`).
fn assert_program_error_with(this: &Object, src: &str, message: &str) {
    let p = program(src, Some(this), true);
    let messages: Vec<&str> = p.plan_errors().iter().map(|e| e.message.as_str()).collect();
    assert_eq!(messages, [message], "{src}");
}

/// `format.….validate(…)` in `src` returns `optional.of(<errors>)`.
fn assert_format_errors(src: &str, errors: &[&str]) {
    let got = match value(src) {
        Value::Optional(Some(list)) => match &*list {
            Value::List(l) => l
                .iter()
                .map(|v| match v {
                    Value::String(s) => s.as_str().to_string(),
                    v => panic!("{src}: non-string error {v}"),
                })
                .collect::<Vec<_>>(),
            v => panic!("{src}: expected optional.of(list), got optional.of({v})"),
        },
        v => panic!("{src}: expected optional.of(list), got {v}"),
    };
    assert_eq!(got, errors, "{src}");
}

/// Runtime costs of the `(expression, cost)` cases in programs built without optimisation,
/// as upstream's library cost tests build them (`cost_test.go`: list literals cost 10,
/// conversions are charged). Reports every mismatch at once.
fn assert_costs<S: AsRef<str>>(cases: impl IntoIterator<Item = (S, u64)>) {
    let mut wrong = Vec::new();
    for (src, expected) in cases {
        let src = src.as_ref();
        match eval(src, None, false) {
            Ok((_, cost)) if cost == expected => {}
            Ok((_, cost)) => wrong.push(format!("{src}: cost {cost}, expected {expected}")),
            Err(e) => wrong.push(format!("{src}: unexpected error: {e}")),
        }
    }
    assert!(wrong.is_empty(), "runtime costs:\n{}", wrong.join("\n"));
}

/// Runtime cost of `src` as a CRD rule (optimised program, as apiextensions evaluates).
fn assert_crd_cost(src: &str, expected: u64) {
    match eval(src, None, true) {
        Ok((_, cost)) => assert_eq!(cost, expected, "runtime cost of {src}"),
        Err(e) => panic!("{src}: unexpected error: {e}"),
    }
}

/// A `self` of type [`ROOT`] in `schema`: `json` with the fields in `typed` replaced by the
/// values of CEL expressions (what the structural schema makes of format-typed or
/// number-typed fields).
fn object(schema: Schema, json: serde_json::Value, typed: &[(&str, &str)]) -> Object {
    let Value::Map(base) = Value::from_json(&json).into_static() else {
        panic!("object(): not a JSON object");
    };
    let mut out = OwnedMap::new();
    for (k, v) in base.entries() {
        let v = match typed
            .iter()
            .find(|(name, _)| Value::string(*name).cel_eq(&k))
        {
            Some((_, src)) => value(src),
            None => v,
        };
        let key = Key::from_value(&k).ok().flatten().expect("string keys");
        assert!(out.insert_new(key, v).is_ok(), "duplicate key {k}");
    }
    Object {
        value: Value::Map(Map::Owned(Arc::new(out))),
        schema: Arc::new(schema),
    }
}

/// An object whose fields are all strings.
fn strings_object(json: serde_json::Value) -> Object {
    let serde_json::Value::Object(fields) = &json else {
        panic!("strings_object(): not a JSON object");
    };
    let fields: Vec<(&str, Type)> = fields.keys().map(|k| (k.as_str(), Type::String)).collect();
    object(Schema::default().with(ROOT, &fields), json.clone(), &[])
}

fn assert_true_with(this: &Object, src: &str) {
    assert!(
        matches!(value_in(src, Some(this)), Value::Bool(true)),
        "{src}: expected true"
    );
}

fn assert_error_with(this: &Object, src: &str, message: &str) {
    match eval(src, Some(this), true) {
        Ok((v, _)) => panic!("{src}: expected error {message:?}, got {v}"),
        Err(e) => assert_eq!(e, message, "{src}"),
    }
}

// ---------------------------------------------------------------------------------------
// kubernetes.lists

const INT_LIST: &str = "[1, 2, 3, 4, 5]";
const UINT_LIST: &str = "[uint(1), uint(2), uint(3), uint(4), uint(5)]";
const DOUBLE_LIST: &str = "[1.0, 2.0, 3.0, 4.0, 5.0]";
const BOOL_LIST: &str = "[false, true, false, true, false]";
const STRING_LIST: &str =
    "['012345678901', '012345678901', '012345678901', '012345678901', '012345678901']";
const BYTES_LIST: &str = "[bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), \
     bytes('012345678901'), bytes('012345678901')]";
const DURATION_LIST: &str =
    "[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')]";
const TIMESTAMP_LIST: &str = "[timestamp('2011-01-01T00:00:00.000+01:00'), \
     timestamp('2011-01-02T00:00:00.000+01:00'), timestamp('2011-01-03T00:00:00.000+01:00'), \
     timestamp('2011-01-04T00:00:00.000+01:00'), timestamp('2011-01-05T00:00:00.000+01:00')]";
const STRING_50: &str = "'01234567890123456789012345678901234567890123456789'";

/// apiextensions' "stdlib list functions" object; durations/dates are format-typed strings
/// there (durations and timestamps in CEL), `intBackedDoubles` number-typed (doubles).
fn lists_object() -> Object {
    let schema = Schema::default()
        .with(
            ROOT,
            &[
                ("ints", list(Type::Int)),
                ("unsortedInts", list(Type::Int)),
                ("emptyInts", list(Type::Int)),
                ("doubles", list(Type::Double)),
                ("unsortedDoubles", list(Type::Double)),
                ("emptyDoubles", list(Type::Double)),
                ("intBackedDoubles", list(Type::Double)),
                ("unsortedIntBackedDDoubles", list(Type::Double)),
                ("emptyIntBackedDDoubles", list(Type::Double)),
                ("durations", list(Type::Duration)),
                ("unsortedDurations", list(Type::Duration)),
                ("emptyDurations", list(Type::Duration)),
                ("strings", list(Type::String)),
                ("unsortedStrings", list(Type::String)),
                ("emptyStrings", list(Type::String)),
                ("dates", list(Type::Timestamp)),
                ("unsortedDates", list(Type::Timestamp)),
                ("emptyDates", list(Type::Timestamp)),
                ("objs", list(object_type("Object.objs"))),
            ],
        )
        .with("Object.objs", &[("f1", Type::String), ("f2", Type::String)]);
    object(
        schema,
        serde_json::json!({
            "ints": [1, 2, 2, 3], "unsortedInts": [2, 1], "emptyInts": [],
            "doubles": [1.0, 2.0, 2.0, 3.0], "unsortedDoubles": [2.0, 1.0], "emptyDoubles": [],
            "intBackedDoubles": [1, 2, 2, 3], "unsortedIntBackedDDoubles": [2, 1],
            "emptyIntBackedDDoubles": [],
            "durations": ["1s", "1m", "1m", "1h"], "unsortedDurations": ["1m", "1s"],
            "emptyDurations": [],
            "strings": ["a", "b", "b", "c"], "unsortedStrings": ["b", "a"], "emptyStrings": [],
            "dates": ["2000-01-01", "2000-02-01", "2000-02-01", "2010-01-01"],
            "unsortedDates": ["2000-02-01", "2000-01-01"], "emptyDates": [],
            "objs": [
                {"f1": "a", "f2": "a"}, {"f1": "a", "f2": "b"},
                {"f1": "a", "f2": "b"}, {"f1": "a", "f2": "c"}
            ]
        }),
        &[
            ("intBackedDoubles", "[1.0, 2.0, 2.0, 3.0]"),
            ("unsortedIntBackedDDoubles", "[2.0, 1.0]"),
            (
                "durations",
                "[duration('1s'), duration('1m'), duration('1m'), duration('1h')]",
            ),
            ("unsortedDurations", "[duration('1m'), duration('1s')]"),
            (
                "dates",
                "[timestamp('2000-01-01T00:00:00Z'), timestamp('2000-02-01T00:00:00Z'), \
                 timestamp('2000-02-01T00:00:00Z'), timestamp('2010-01-01T00:00:00Z')]",
            ),
            (
                "unsortedDates",
                "[timestamp('2000-02-01T00:00:00Z'), timestamp('2000-01-01T00:00:00Z')]",
            ),
        ],
    )
}

#[test]
fn lists_is_sorted() {
    // Doc comment examples.
    assert_true("[1, 2, 3].isSorted()");
    assert_true("['a', 'b', 'b', 'c'].isSorted()");
    assert_false("[2.0, 1.0].isSorted()");
    assert_true("[1].isSorted()");
    assert_true("[].isSorted()");
    // apiextensions TestValidationExpressions.
    let o = lists_object();
    for rule in [
        "self.ints.isSorted()",
        "self.emptyInts.isSorted()",
        "self.unsortedInts.isSorted() == false",
        "self.doubles.isSorted()",
        "self.emptyDoubles.isSorted()",
        "self.unsortedDoubles.isSorted() == false",
        "self.intBackedDoubles.isSorted()",
        "self.unsortedIntBackedDDoubles.isSorted() == false",
        "self.durations.isSorted()",
        "self.emptyDurations.isSorted()",
        "self.unsortedDurations.isSorted() == false",
        "self.strings.isSorted()",
        "self.emptyStrings.isSorted()",
        "self.unsortedStrings.isSorted() == false",
        "self.dates.isSorted()",
        "self.emptyDates.isSorted()",
        "self.unsortedDates.isSorted() == false",
    ] {
        assert_true_with(&o, rule);
    }
}

#[test]
fn lists_sum() {
    // Doc comment examples (`['1m', '1s'].sum()` there means durations: strings do not sum).
    assert_eq_value("[1, 3].sum()", "4");
    assert_eq_value("[1.0, 3.0].sum()", "4.0");
    assert_eq_value("[duration('1m'), duration('1s')].sum()", "duration('1m1s')");
    assert_eq_value("[].sum()", "0");
    let o = lists_object();
    for rule in [
        "self.ints.sum() == 8",
        "self.emptyInts.sum() == 0",
        "self.doubles.sum() == 8.0",
        "self.emptyDoubles.sum() == 0.0",
        "self.intBackedDoubles.sum() == 8.0",
        "self.emptyIntBackedDDoubles.sum() == 0.0",
        "self.durations.sum() == duration('1h2m1s')",
        "self.emptyDurations.sum() == duration('0')",
        // CEL's dynamic dispatch, including the empty list.
        "dyn([]).sum() == 0",
        "dyn([1, 2]).sum() == 3",
        "dyn([1.0, 2.0]).sum() == 3.0",
        "[].sum() == 0",
    ] {
        assert_true_with(&o, rule);
    }
    // Only numbers and durations sum.
    assert_compile_error(
        "['a', 'b'].sum() == 'c'",
        "found no matching overload for 'sum' applied to 'list(string).()'",
    );
    assert_compile_error(
        "['1m', '1s'].sum()",
        "found no matching overload for 'sum' applied to 'list(string).()'",
    );
    // lists.go: the error of `+` is the result.
    assert_error("[9223372036854775807, 1].sum()", "integer overflow");
    assert_error(
        "[duration('2562047h'), duration('2562047h')].sum()",
        "integer overflow",
    );
}

#[test]
fn lists_min_max() {
    // Doc comment examples.
    assert_eq_value("[1, 3].min()", "1");
    assert_eq_value("[1, 3].max()", "3");
    assert_error("[].min()", "min called on empty list");
    assert_eq_value("[1].min()", "1");
    assert_eq_value("([0] + []).min()", "0");
    let o = lists_object();
    for rule in [
        "self.ints.min() == 1",
        "self.ints.max() == 3",
        "self.doubles.min() == 1.0",
        "self.doubles.max() == 3.0",
        "self.intBackedDoubles.min() == 1.0",
        "self.intBackedDoubles.max() == 3.0",
        "self.durations.min() == duration('1s')",
        "self.durations.max() == duration('1h')",
        "self.strings.min() == 'a'",
        "self.strings.max() == 'c'",
        "self.dates.min() == timestamp('2000-01-01T00:00:00.000Z')",
        "self.dates.max() == timestamp('2010-01-01T00:00:00.000Z')",
        // A default minimum avoids the empty-list error.
        "([0] + self.emptyInts).min() == 0",
    ] {
        assert_true_with(&o, rule);
    }
    for (rule, message) in [
        ("self.emptyInts.min() == 1", "min called on empty list"),
        ("self.emptyInts.max() == 3", "max called on empty list"),
        ("self.emptyDoubles.min() == 1.0", "min called on empty list"),
        ("self.emptyDoubles.max() == 3.0", "max called on empty list"),
        ("self.emptyStrings.min() == 'a'", "min called on empty list"),
        ("self.emptyStrings.max() == 'c'", "max called on empty list"),
    ] {
        assert_error_with(&o, rule, message);
    }
    // Only comparable element types.
    assert_compile_error(
        "[[1], [2]].min() == [1]",
        "found no matching overload for 'min' applied to 'list(list(int)).()'",
    );
    assert_compile_error(
        "[{'a': 1}, {'b': 2}].max() == {'b': 2}",
        "found no matching overload for 'max' applied to 'list(map(string, int)).()'",
    );
}

#[test]
fn lists_index_of_last_index_of() {
    // Doc comment examples.
    assert_eq_value("[1, 2, 2, 3].indexOf(2)", "1");
    assert_eq_value("['a', 'b', 'b', 'c'].lastIndexOf('b')", "2");
    assert_eq_value("[1.0].indexOf(1.1)", "-1");
    assert_eq_value("[].indexOf('string')", "-1");
    let o = lists_object();
    for rule in [
        "self.ints.indexOf(2) == 1",
        "self.ints.lastIndexOf(2) == 2",
        "self.ints.indexOf(10) == -1",
        "self.ints.lastIndexOf(10) == -1",
        "self.doubles.indexOf(2.0) == 1",
        "self.doubles.lastIndexOf(2.0) == 2",
        "self.doubles.indexOf(10.0) == -1",
        "self.doubles.lastIndexOf(10.0) == -1",
        "self.intBackedDoubles.indexOf(2.0) == 1",
        "self.intBackedDoubles.lastIndexOf(2.0) == 2",
        "self.intBackedDoubles.indexOf(10.0) == -1",
        "self.intBackedDoubles.lastIndexOf(10.0) == -1",
        "self.durations.indexOf(duration('1m')) == 1",
        "self.durations.lastIndexOf(duration('1m')) == 2",
        "self.durations.indexOf(duration('2m')) == -1",
        "self.durations.lastIndexOf(duration('2m')) == -1",
        "self.strings.indexOf('b') == 1",
        "self.strings.lastIndexOf('b') == 2",
        "self.strings.indexOf('x') == -1",
        "self.strings.lastIndexOf('x') == -1",
        "self.dates.indexOf(timestamp('2000-02-01T00:00:00.000Z')) == 1",
        "self.dates.lastIndexOf(timestamp('2000-02-01T00:00:00.000Z')) == 2",
        "self.dates.indexOf(timestamp('2005-02-01T00:00:00.000Z')) == -1",
        "self.dates.lastIndexOf(timestamp('2005-02-01T00:00:00.000Z')) == -1",
        // Lists, maps and objects compare structurally.
        "[[1], [2]].indexOf([1]) == 0",
        "[{'a': 1}, {'b': 2}].lastIndexOf({'b': 2}) == 1",
        "self.objs.indexOf(self.objs[1]) == 1",
        "self.objs.lastIndexOf(self.objs[1]) == 2",
    ] {
        assert_true_with(&o, rule);
    }
}

#[test]
fn lists_includes() {
    // Doc comment examples.
    assert_true("[1, 2, 3].includes(2)");
    assert_false("[1, 2, 3].includes(4)");
    assert_true("'model-a'.includes('model-a')");
    assert_false("'model-a'.includes('model-b')");
    // lists.go: a non-list receiver is compared whole (no substring search); elements and
    // receivers use CEL equality.
    assert_false("'model-a'.includes('model')");
    assert_true("[[1], [2]].includes([1])");
    assert_true("dyn({'a': 1}).includes({'a': 1})");
    assert_true("dyn(1).includes(1.0)");
    assert_false("[1, 2, 3].includes(dyn('a'))");
}

#[test]
fn lists_runtime_costs() {
    // cost_test.go TestListsCost: 10 for the list literal, the rest for the call.
    let mut cases = Vec::new();
    for (list, cost) in [
        (INT_LIST, 15),
        (UINT_LIST, 20),
        (DOUBLE_LIST, 15),
        (DURATION_LIST, 20),
    ] {
        cases.push((format!("{list}.sum()"), cost));
    }
    for f in [".isSorted()", ".max()", ".min()"] {
        for (list, cost) in [
            (INT_LIST, 15),
            (UINT_LIST, 20),
            (DOUBLE_LIST, 15),
            (BOOL_LIST, 15),
            (STRING_LIST, 15),
            (BYTES_LIST, 25),
            (DURATION_LIST, 20),
            (TIMESTAMP_LIST, 20),
        ] {
            cases.push((format!("{list}{f}"), cost));
        }
    }
    // TestIndexOfCost and TestIncludesCost.
    let with_arg = [
        (INT_LIST, "3", 15),
        (UINT_LIST, "uint(3)", 21),
        (DOUBLE_LIST, "3.0", 15),
        (BOOL_LIST, "true", 15),
        (STRING_LIST, "'x'", 15),
        (BYTES_LIST, "bytes('x')", 26),
        (DURATION_LIST, "duration('3s')", 21),
        (
            TIMESTAMP_LIST,
            "timestamp('2011-01-03T00:00:00.000+01:00')",
            21,
        ),
        // Strings share the function names (strings extension), with the same costs.
        (STRING_50, "'123'", 5),
    ];
    for f in ["indexOf", "lastIndexOf", "includes"] {
        for (list, arg, cost) in with_arg {
            cases.push((format!("{list}.{f}({arg})"), cost));
        }
    }
    assert_costs(cases);
    // apiextensions TestValidationExpressions: the same call as a CRD rule (the constant
    // list is folded).
    assert_crd_cost("[1,2,3,4].isSorted()", 4);
}

// ---------------------------------------------------------------------------------------
// kubernetes.regex

#[test]
fn regex_find() {
    // Doc comment examples. The doc claims `"abc 123".find('[0-9]*')` is '123'; Go's
    // leftmost-first match is the empty match at 0.
    assert_string("'abc 123'.find('[0-9]*')", "");
    assert_string("'abc 123'.find('xyz')", "");
    // apiextensions TestValidationExpressions ("stdlib regex functions").
    let o = strings_object(serde_json::json!({"str": "this is a 123 string 456"}));
    for rule in [
        "self.str.find('[0-9]+') == '123'",
        "self.str.find('[0-9]+') != '456'",
        "self.str.find('xyz') == ''",
    ] {
        assert_true_with(&o, rule);
    }
    // A constant invalid pattern fails when the program is created.
    assert_program_error_with(
        &o,
        "self.str.find(')') == ''",
        "error parsing regexp: unexpected ): `)`",
    );
    assert_program_error_with(
        &o,
        "self.str.find('x++') == ''",
        "error parsing regexp: invalid nested repetition operator: `++`",
    );
    // regex.go: a pattern known only at run time fails the call.
    let p = strings_object(serde_json::json!({"str": "abc", "pattern": ")"}));
    assert_error_with(
        &p,
        "self.str.find(self.pattern)",
        "Illegal regex: error parsing regexp: unexpected ): `)`",
    );
    assert_error_with(
        &p,
        "self.str.findAll(self.pattern, 1)",
        "Illegal regex: error parsing regexp: unexpected ): `)`",
    );
}

#[test]
fn regex_find_all() {
    // Doc comment examples. The doc claims `['123', '456']` for the first; Go keeps the
    // empty matches that do not directly follow a match.
    assert_eq_value(
        "'123 abc 456'.findAll('[0-9]*')",
        "['123', '', '', '', '', '456']",
    );
    assert_eq_value("'123 abc 456'.findAll('[0-9]*', 1)", "['123']");
    assert_eq_value("'123 abc 456'.findAll('xyz')", "[]");
    let o = strings_object(serde_json::json!({"str": "this is a 123 string 456"}));
    for rule in [
        "self.str.findAll('[0-9]+') == ['123', '456']",
        "self.str.findAll('[0-9]+', 0) == []",
        "self.str.findAll('[0-9]+', 1) == ['123']",
        "self.str.findAll('[0-9]+', 2) == ['123', '456']",
        "self.str.findAll('[0-9]+', 3) == ['123', '456']",
        "self.str.findAll('[0-9]+', -1) == ['123', '456']",
        "self.str.findAll('xyz') == []",
        "self.str.findAll('xyz', 1) == []",
    ] {
        assert_true_with(&o, rule);
    }
    assert_program_error_with(
        &o,
        "self.str.findAll(')') == []",
        "error parsing regexp: unexpected ): `)`",
    );
    assert_program_error_with(
        &o,
        "self.str.findAll(')', 1) == []",
        "error parsing regexp: unexpected ): `)`",
    );
}

#[test]
fn regex_matches_literal_validation() {
    // Same test group upstream: RE2 rejects stacked repetition operators, and Kubernetes
    // validates constant `matches` patterns at compile time.
    assert_compile_error("'x'.matches('x++')", "invalid matches argument");
    assert_compile_error_with(
        &strings_object(serde_json::json!({"str": "this is a 123 string 456"})),
        "self.str.matches('x++')",
        "invalid matches argument",
    );
}

#[test]
fn regex_runtime_costs() {
    // cost_test.go TestStringLibrary.
    assert_costs([
        ("'abc 123 def 123'.find('123')", 2),
        ("'abc 123 def 123'.findAll('123')", 2),
        ("'abc 123 def 123'.findAll('123', 1)", 2),
    ]);
}

// ---------------------------------------------------------------------------------------
// kubernetes.urls

#[test]
fn urls_url() {
    // Doc comment examples.
    value("url('https://user:pass@example.com:80/path?query=val#fragment')");
    value("url('/absolute-path')");
    assert_error(
        "url('https://a:b:c/')",
        "URL parse error during conversion from string: parse \"https://a:b:c/\": invalid port \":b:c\" after host",
    );
    assert_error(
        "url('../relative-path')",
        "URL parse error during conversion from string: parse \"../relative-path\": invalid URI for request",
    );
    assert_true("type(url('/absolute-path')) == kubernetes.URL");
    // Go url.ParseRequestURI / url.Parse errors, wrapped.
    assert_error(
        "url('')",
        "URL parse error during conversion from string: parse \"\": empty url",
    );
    assert_error(
        "url('http://[::1]:namedport')",
        "URL parse error during conversion from string: parse \"http://[::1]:namedport\": invalid port \":namedport\" after host",
    );
    // Equality compares Go's URL.String() renderings.
    assert_true("url('https://example.com') == url('https://example.com')");
    assert_false("url('https://example.com') == url('https://example.com/')");
    // URLs convert to nothing.
    assert_compile_error(
        "string(url('https://example.com'))",
        "found no matching overload for 'string' applied to '(kubernetes.URL)'",
    );
}

#[test]
fn urls_is_url() {
    // Doc comment examples and apiextensions TestValidationExpressions.
    assert_true("isURL('https://user:pass@example.com:80/path?query=val#fragment')");
    assert_true("isURL('/absolute-path')");
    assert_false("isURL('https://a:b:c/')");
    assert_false("isURL('../relative-path')");
    assert_true("isURL('/path') == true");
    assert_true("isURL('https://a:b:c/') == false");
    assert_true("isURL('../relative-path') == false");
    assert_false("isURL('')");
}

/// apiextensions' "URL parsing" object.
fn url_object() -> Object {
    strings_object(serde_json::json!({
        "url": "https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor"
    }))
}

#[test]
fn urls_get_scheme() {
    assert_string("url('/path').getScheme()", "");
    assert_string("url('https://example.com/').getScheme()", "https");
    assert_true_with(&url_object(), "url(self.url).getScheme() == 'https'");
}

#[test]
fn urls_get_host() {
    assert_string("url('https://example.com:80/').getHost()", "example.com:80");
    assert_string("url('https://example.com/').getHost()", "example.com");
    assert_string("url('https://[::1]:80/').getHost()", "[::1]:80");
    assert_string("url('https://[::1]/').getHost()", "[::1]");
    assert_string("url('/path').getHost()", "");
    assert_true_with(
        &url_object(),
        "url(self.url).getHost() == 'kubernetes.io:80'",
    );
}

#[test]
fn urls_get_hostname() {
    assert_string(
        "url('https://example.com:80/').getHostname()",
        "example.com",
    );
    assert_string("url('https://127.0.0.1:80/').getHostname()", "127.0.0.1");
    assert_string("url('https://127.0.0.1/').getHostname()", "127.0.0.1");
    assert_string("url('https://[::1]:80/').getHostname()", "::1");
    assert_string("url('https://[::1]/').getHostname()", "::1");
    assert_string("url('/path').getHostname()", "");
    assert_true_with(
        &url_object(),
        "url(self.url).getHostname() == 'kubernetes.io'",
    );
}

#[test]
fn urls_get_port() {
    assert_string("url('https://example.com:80/').getPort()", "80");
    assert_string("url('https://example.com/').getPort()", "");
    assert_string("url('/path').getPort()", "");
    assert_true_with(&url_object(), "url(self.url).getPort() == '80'");
}

#[test]
fn urls_get_escaped_path() {
    assert_string("url('https://example.com/path').getEscapedPath()", "/path");
    assert_string(
        "url('https://example.com/path with spaces/').getEscapedPath()",
        "/path%20with%20spaces/",
    );
    assert_string(
        "url('https://example.com/with space/').getEscapedPath()",
        "/with%20space/",
    );
    assert_string("url('https://example.com').getEscapedPath()", "");
    assert_true_with(
        &url_object(),
        "url(self.url).getEscapedPath() == '/docs/home'",
    );
    // Go's EscapedPath keeps a valid original encoding.
    assert_string(
        "url('https://example.com/a%2Fb').getEscapedPath()",
        "/a%2Fb",
    );
    assert_string(
        "url('https://user:pass@example.com:80/path?query=val#fragment').getEscapedPath()",
        "/path",
    );
}

#[test]
fn urls_get_query() {
    assert_eq_value(
        "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()",
        "{'k1': ['a'], 'k2': ['b', 'c']}",
    );
    assert_eq_value(
        "url('https://example.com/path?key with spaces=value with spaces').getQuery()",
        "{'key with spaces': ['value with spaces']}",
    );
    assert_true("url('https://example.com/path?').getQuery() == {}");
    assert_true("url('https://example.com/path').getQuery() == {}");
    assert_true_with(
        &url_object(),
        "url(self.url).getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
    );
}

#[test]
fn urls_runtime_costs() {
    // cost_test.go TestURLsCost.
    let mut cases = Vec::new();
    for f in [
        ".getScheme()",
        ".getHostname()",
        ".getHost()",
        ".getPort()",
        ".getEscapedPath()",
        ".getQuery()",
    ] {
        cases.push((format!("url('https:://kubernetes.io/'){f}"), 4));
    }
    cases.push((
        "url('https:://kubernetes.io/') == url('https:://kubernetes.io/')".into(),
        7,
    ));
    cases.push((
        "url('https:://kubernetes.io/') == url('http://x.b')".into(),
        5,
    ));
    assert_costs(cases);
    // apiextensions TestValidationExpressions, as a CRD rule.
    assert_crd_cost("url('https:://kubernetes.io/').getHostname() != 'test'", 4);
}

// ---------------------------------------------------------------------------------------
// kubernetes.quantity

#[test]
fn quantity_quantity() {
    // quantity_test.go.
    assert_eq_value("quantity('12Mi')", "quantity('12582912')");
    assert_error(
        "quantity('10Mo')",
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
    // Passes the shape check, fails on the suffix.
    assert_error("quantity('10Mm')", "unable to parse quantity's suffix");
    // Doc comment examples.
    value("quantity('1.5G')");
    value("quantity('200k')");
    assert_error("quantity('200K')", "unable to parse quantity's suffix");
    assert_error(
        "quantity('Three')",
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
    // The doc claims an error for a bare suffix; `ParseQuantity` reads the missing number as
    // 0 and accepts it.
    assert_true("quantity('Mi') == quantity('0')");
    // `resource.ParseQuantity` edge cases.
    assert_true("quantity('-') == quantity('0')");
    assert_true("quantity('+1') == quantity('1')");
    assert_true("quantity('1.') == quantity('1')");
    assert_true("quantity('.5') == quantity('500m')");
    assert_true("quantity('1e3') == quantity('1k') && quantity('1E3') == quantity('1k')");
    assert_true("quantity('1Ki') == quantity('1024')");
    assert_true("quantity('8Ei') == quantity('9223372036854775807')");
    const SHAPE: &str = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    assert_error("quantity('')", SHAPE);
    assert_error("quantity('1.1.1')", SHAPE);
    assert_error("quantity('1e1.5')", SHAPE);
    assert_error("quantity('1K')", "unable to parse quantity's suffix");
    assert_error("quantity('1e')", "unable to parse quantity's suffix");
}

#[test]
fn quantity_is_quantity() {
    // quantity_test.go.
    assert_true("isQuantity('20')");
    assert_true("isQuantity('20M')");
    assert_true("isQuantity('20Mi')");
    assert_false("isQuantity('20Mo')");
    assert_false("isQuantity('10Mm')");
    assert_compile_error(
        "isQuantity([1, 2, 3])",
        "found no matching overload for 'isQuantity' applied to '(list(int))'",
    );
    // Doc comment examples.
    assert_true("isQuantity('1.3G')");
    assert_true("isQuantity('1.3Gi')");
    assert_false("isQuantity('1,3G')");
    assert_true("isQuantity('10000k')");
    assert_false("isQuantity('200K')");
    assert_false("isQuantity('Three')");
    // The doc claims false; see `quantity_quantity`.
    assert_true("isQuantity('Mi')");
    // apiextensions TestValidationExpressions.
    let o = strings_object(serde_json::json!({"val1": "20", "val2": "200M"}));
    assert_true_with(&o, "isQuantity(self.val1)");
    assert_true_with(&o, "isQuantity(self.val2)");
    assert_true_with(&o, "isQuantity(\"20Mi\")");
}

#[test]
fn quantity_equality() {
    // quantity_test.go: equality is numeric, whatever the format.
    assert_true("quantity('200M') == quantity('200M')");
    assert_true("quantity('200M') == quantity('0.2G') && quantity('0.2G') == quantity('200M')");
    assert_true(
        "quantity('2M') == quantity('0.002G') && quantity('2000k') == quantity('2M') && \
         quantity('0.002G') == quantity('2000k')",
    );
    assert_false("quantity('200M') == quantity('0.3G')");
    let o = strings_object(serde_json::json!({"val1": "20", "val2": "200M"}));
    assert_true_with(
        &o,
        "quantity(self.val2) == quantity(\"0.2G\") && quantity(\"0.2G\") == quantity(\"200M\")",
    );
}

#[test]
fn quantity_sign() {
    // Doc comment: 1 positive, -1 negative, 0 zero. The doc shows `q.sign()`, but only the
    // global overload is declared.
    assert_int("sign(quantity('50k'))", 1);
    assert_int("sign(quantity('-50k'))", -1);
    assert_int("sign(quantity('0'))", 0);
    assert_compile_error(
        "quantity('50k').sign()",
        "found no matching overload for 'sign' applied to 'kubernetes.Quantity.()'",
    );
}

#[test]
fn quantity_is_less_than_is_greater_than() {
    // quantity_test.go and doc comment examples.
    assert_true("quantity('50M').isLessThan(quantity('50Mi'))");
    assert_true("quantity('50M').isLessThan(quantity('100M'))");
    assert_false("quantity('100M').isLessThan(quantity('50M'))");
    assert_true("quantity('50Mi').isGreaterThan(quantity('50M'))");
    assert_true("quantity('150Mi').isGreaterThan(quantity('100Mi'))");
    assert_false("quantity('50M').isGreaterThan(quantity('100M'))");
    assert_false("quantity('50Mi').isGreaterThan(quantity('100Mi'))");
    let o = strings_object(serde_json::json!({"val1": "20", "val2": "200M"}));
    assert_true_with(&o, "quantity(self.val1).isLessThan(quantity(\"100M\"))");
    assert_true_with(&o, "quantity(self.val2).isGreaterThan(quantity(\"50M\"))");
}

#[test]
fn quantity_compare_to() {
    assert_int("quantity('200M').compareTo(quantity('0.2G'))", 0);
    assert_int("quantity('50M').compareTo(quantity('50Mi'))", -1);
    assert_int("quantity('50Mi').compareTo(quantity('50M'))", 1);
    let o = strings_object(serde_json::json!({"val1": "20", "val2": "200M"}));
    assert_true_with(&o, "quantity(self.val2).compareTo(quantity(\"0.2G\")) == 0");
}

#[test]
fn quantity_add_sub() {
    // quantity_test.go.
    assert_true("quantity('50k').add(quantity('20')) == quantity('50.02k')");
    assert_false("quantity('50k').add(20).isLessThan(quantity('50020'))");
    assert_true("quantity('50k').sub(quantity('20')) == quantity('49.98k')");
    assert_true("quantity('50k').sub(20) == quantity('49980')");
    assert_int(
        "quantity('50k').add(20).sub(quantity('100k')).asInteger()",
        -49980,
    );
    assert_int(
        "quantity('50k').add(20).sub(quantity('100k')).sub(-50000).asInteger()",
        20,
    );
    // The receiver is not mutated.
    assert_true(
        "[quantity('9999999999999999999999999999999999999')].all(x, \
         x.add(quantity('1')).compareTo(x.add(quantity('2'))) == -1)",
    );
    // Doc comment examples; the doc's `add("20k")`/`sub("20k")` take strings, which no
    // overload accepts.
    assert_true("quantity('50k').add(quantity('20k')) == quantity('70k')");
    assert_true("quantity('50k').add(20) == quantity('50020')");
    assert_true("quantity('50k').sub(quantity('20k')) == quantity('30k')");
    assert_true("quantity('50k').sub(20000) == quantity('30k')");
    assert_true("quantity('50k').add(20).sub(quantity('100k')).sub(-50000) == quantity('20')");
    assert_compile_error(
        "quantity('50k').add('20k')",
        "found no matching overload for 'add' applied to 'kubernetes.Quantity.(string)'",
    );
    assert_compile_error(
        "quantity('50k').sub('20k')",
        "found no matching overload for 'sub' applied to 'kubernetes.Quantity.(string)'",
    );
    let o = strings_object(serde_json::json!({"val1": "20", "val2": "200M"}));
    assert_true_with(
        &o,
        "quantity(\"50k\").add(quantity(self.val1)) == quantity(\"50.02k\")",
    );
    assert_true_with(
        &o,
        "quantity(\"50k\").sub(quantity(self.val1)) == quantity(\"49980\")",
    );
}

#[test]
fn quantity_as_integer_is_integer() {
    // quantity_test.go and doc comment examples.
    assert_int("quantity('50k').asInteger()", 50000);
    assert_error(
        "quantity('9999999999999999999999999999999999999G').asInteger()",
        "cannot convert value to integer",
    );
    assert_false("quantity('9999999999999999999999999999999999999G').isInteger()");
    assert_true("quantity('50').isInteger()");
    assert_true("quantity('50000000G').isInteger()");
    assert_true("quantity('50k').isInteger()");
    assert_true("quantity('50k').asInteger() == 50000");
    let o = strings_object(serde_json::json!({"val1": "20", "val2": "200M"}));
    assert_true_with(&o, "quantity(self.val1).isInteger()");
    // `Quantity.AsInt64` answers from the parsed representation, not the number: values
    // held as decimals (fractional or binary-suffixed mantissas, more than 18 digits) and
    // negative scales (milli, …) are not integers even when integral.
    for q in [
        "1.5Gi",
        "1000m",
        "9223372036854775807",
        "-9223372036854775808",
        "8Ei",
    ] {
        assert_false(&format!("quantity('{q}').isInteger()"));
        assert_error(
            &format!("quantity('{q}').asInteger()"),
            "cannot convert value to integer",
        );
    }
    assert_int("quantity('1e3').asInteger()", 1000);
    assert_true("quantity('1k').isInteger()");
    assert_false("quantity('2').sub(quantity('1000m')).isInteger()");
}

#[test]
fn quantity_as_approximate_float() {
    assert_eq_value("quantity('50.703k').asApproximateFloat()", "50703.0");
    // The doc compares with the int 30000, which does not type-check (`_==_` takes one type).
    assert_true("quantity('50k').sub(20000).asApproximateFloat() == 30000.0");
    assert_compile_error(
        "quantity('50k').sub(20000).asApproximateFloat() == 30000",
        "found no matching overload for '_==_' applied to '(double, int)'",
    );
}

#[test]
fn quantity_runtime_costs() {
    // cost_test.go TestQuantityCost.
    assert_costs([
        ("quantity('12Mi')", 1),
        ("isQuantity('20')", 1),
        ("isQuantity('20M')", 1),
        ("quantity('200M') == quantity('200M')", 3),
        (
            "quantity('200M') == quantity('0.2G') && quantity('0.2G') == quantity('200M')",
            6,
        ),
        (
            "quantity('2M') == quantity('0.002G') && quantity('2000k') == quantity('2M') && \
             quantity('0.002G') == quantity('2000k')",
            9,
        ),
        ("quantity('50M').isLessThan(quantity('50Mi'))", 3),
        ("quantity('50Mi').isGreaterThan(quantity('50M'))", 3),
        ("quantity('200M').compareTo(quantity('0.2G')) > 0", 4),
        (
            "quantity('50k').add(quantity('20')) == quantity('50.02k')",
            5,
        ),
        (
            "quantity('50k').sub(quantity('20')) == quantity('49.98k')",
            5,
        ),
        ("quantity('50k').sub(20) == quantity('49980')", 4),
        (
            "quantity('50k').add(20).sub(quantity('100k')).asInteger() > 0",
            6,
        ),
        (
            "quantity('50k').add(20).sub(quantity('100k')).sub(-50000).asInteger() > 0",
            7,
        ),
        ("quantity('50k').asInteger() > 0", 3),
        ("quantity('50').isInteger()", 2),
        ("quantity('50.703k').asApproximateFloat() > 0.0", 3),
    ]);
}

// ---------------------------------------------------------------------------------------
// kubernetes.net.ip

#[test]
fn ip_ip() {
    // ip_test.go.
    assert_eq_value("string(ip('192.168.0.1'))", "'192.168.0.1'");
    assert_true("ip('192.168.0.1') == ip('192.168.0.1')");
    assert_error(
        "ip('192.168.0.1.0')",
        "IP Address \"192.168.0.1.0\" parse error during conversion from string: ParseAddr(\"192.168.0.1.0\"): IPv4 address too long",
    );
    assert_eq_value("string(ip('2001:db8::68'))", "'2001:db8::68'");
    assert_error(
        "ip('2001:db8:::68')",
        "IP Address \"2001:db8:::68\" parse error during conversion from string: ParseAddr(\"2001:db8:::68\"): each colon-separated field must have at least one digit (at \":68\")",
    );
    assert_true("type(ip('192.168.0.1')) == net.IP");
    // Doc comment examples and rules.
    value("ip('127.0.0.1')");
    value("ip('::1')");
    assert_error(
        "ip('127.0.0.256')",
        "IP Address \"127.0.0.256\" parse error during conversion from string: ParseAddr(\"127.0.0.256\"): IPv4 field has value >255",
    );
    assert_error(
        "ip(':::1')",
        "IP Address \":::1\" parse error during conversion from string: ParseAddr(\":::1\"): each colon-separated field must have at least one digit (at \":1\")",
    );
    assert_error(
        "ip('::ffff:1.2.3.4')",
        "IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not allowed",
    );
    assert_error(
        "ip('fe80::1%eth0')",
        "IP address \"fe80::1%eth0\" with zone value is not allowed",
    );
    assert_error(
        "ip('127.0.0.01')",
        "IP Address \"127.0.0.01\" parse error during conversion from string: ParseAddr(\"127.0.0.01\"): IPv4 field has octet with leading zero",
    );
    assert_error(
        "ip('::ffff:c0a8:1')",
        "IPv4-mapped IPv6 address \"::ffff:c0a8:1\" is not allowed",
    );
    assert_true("ip('::1') == ip('0:0::1')");
    assert_true("ip('1.2.3.4') == cidr('1.2.3.4/32').ip()");
}

#[test]
fn ip_is_ip() {
    assert_true("isIP('192.168.0.1')");
    assert_false("isIP('192.168.0.1.0')");
    assert_true("isIP('2001:db8::68')");
    assert_false("isIP('2001:db8:::68')");
    assert_compile_error(
        "isIP(cidr('192.168.0.0/24'))",
        "found no matching overload for 'isIP' applied to '(net.CIDR)'",
    );
    // Doc comment examples and rules.
    assert_true("isIP('127.0.0.1')");
    assert_true("isIP('::1')");
    assert_false("isIP('127.0.0.256')");
    assert_false("isIP(':::1')");
    assert_false("isIP('::ffff:1.2.3.4')");
    assert_false("isIP('fe80::1%eth0')");
    assert_false("isIP('127.0.0.01')");
}

#[test]
fn ip_is_canonical() {
    assert_true("ip.isCanonical('127.0.0.1')");
    assert_error(
        "ip.isCanonical('127.0.0.1.0')",
        "IP Address \"127.0.0.1.0\" parse error during conversion from string: ParseAddr(\"127.0.0.1.0\"): IPv4 address too long",
    );
    assert_true("ip.isCanonical('2001:db8::68')");
    assert_false("ip.isCanonical('2001:DB8::68')");
    assert_error(
        "ip.isCanonical('2001:db8:::68')",
        "IP Address \"2001:db8:::68\" parse error during conversion from string: ParseAddr(\"2001:db8:::68\"): each colon-separated field must have at least one digit (at \":68\")",
    );
    // Doc comment examples.
    assert_true("ip.isCanonical('2001:db8::abcd')");
    assert_false("ip.isCanonical('2001:DB8::ABCD')");
    assert_false("ip.isCanonical('2001:db8::0:0:0:abcd')");
}

#[test]
fn ip_family() {
    assert_int("ip('192.168.0.1').family()", 4);
    assert_int("ip('2001:db8::68').family()", 6);
    // Doc comment examples.
    assert_int("ip('127.0.0.1').family()", 4);
    assert_int("ip('::1').family()", 6);
    assert_true("ip('127.0.0.1').family() == 4");
    assert_true("ip('::1').family() == 6");
    assert_true("ip(\"192.168.0.1\").family() > 0");
}

#[test]
fn ip_is_unspecified() {
    assert_true("ip('0.0.0.0').isUnspecified()");
    assert_false("ip('127.0.0.1').isUnspecified()");
    assert_true("ip('::').isUnspecified()");
    assert_false("ip('::1').isUnspecified()");
}

#[test]
fn ip_is_loopback() {
    assert_true("ip('127.0.0.1').isLoopback()");
    assert_false("ip('1.2.3.4').isLoopback()");
    assert_false("ip('192.168.0.1').isLoopback()");
    assert_true("ip('::1').isLoopback()");
    assert_false("ip('2001:db8::abcd').isLoopback()");
}

#[test]
fn ip_is_link_local_multicast() {
    assert_true("ip('224.0.0.1').isLinkLocalMulticast()");
    assert_false("ip('224.0.1.1').isLinkLocalMulticast()");
    assert_true("ip('ff02::1').isLinkLocalMulticast()");
    assert_false("ip('fd00::1').isLinkLocalMulticast()");
}

#[test]
fn ip_is_link_local_unicast() {
    assert_true("ip('169.254.169.254').isLinkLocalUnicast()");
    assert_false("ip('192.168.0.1').isLinkLocalUnicast()");
    assert_true("ip('fe80::1').isLinkLocalUnicast()");
    assert_false("ip('fd80::1').isLinkLocalUnicast()");
}

#[test]
fn ip_is_global_unicast() {
    assert_true("ip('192.168.0.1').isGlobalUnicast()");
    assert_false("ip('255.255.255.255').isGlobalUnicast()");
    assert_true("ip('2001:db8::abcd').isGlobalUnicast()");
    assert_false("ip('ff00::1').isGlobalUnicast()");
}

#[test]
fn ip_string() {
    assert_string("string(ip('192.168.0.1'))", "192.168.0.1");
    assert_string("string(ip('2001:db8::68'))", "2001:db8::68");
}

#[test]
fn ip_runtime_costs() {
    // cost_test.go TestIPCost: parsing costs ⌈len·0.1⌉ (2 and 4 here), accessors 1, == 1.
    let mut cases = Vec::new();
    for (ip, base) in [
        ("ip('192.168.0.1')", 2),
        ("ip('2001:db8:3333:4444:5555:6666:7777:8888')", 4),
    ] {
        cases.push((ip.to_string(), base));
        for f in [
            ".family()",
            ".isUnspecified()",
            ".isLoopback()",
            ".isLinkLocalMulticast()",
            ".isLinkLocalUnicast()",
            ".isGlobalUnicast()",
        ] {
            cases.push((format!("{ip}{f}"), base + 1));
        }
        cases.push((format!("{ip} == ip('192.168.0.1')"), base + 2 + 1));
    }
    // TestIPIsCanonicalCost.
    cases.push(("ip.isCanonical('192.168.0.1')".into(), 3));
    cases.push((
        "ip.isCanonical('2001:db8:3333:4444:5555:6666:7777:8888')".into(),
        8,
    ));
    cases.push(("ip.isCanonical('2001:db8::abcd')".into(), 3));
    assert_costs(cases);
}

// ---------------------------------------------------------------------------------------
// kubernetes.net.cidr

#[test]
fn cidr_cidr() {
    // cidr_test.go.
    assert_eq_value("string(cidr('192.168.0.0/24'))", "'192.168.0.0/24'");
    assert_error(
        "cidr('192.168.0.0/')",
        "network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(\"192.168.0.0/\"): bad bits after slash: \"\"",
    );
    assert_eq_value("string(cidr('2001:db8::/32'))", "'2001:db8::/32'");
    assert_error(
        "cidr('2001:db8::/')",
        "network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(\"2001:db8::/\"): bad bits after slash: \"\"",
    );
    assert_true("type(cidr('192.168.0.0/24')) == net.CIDR");
    // Doc comment examples and rules.
    value("cidr('192.168.0.0/16')");
    value("cidr('::1/128')");
    assert_error(
        "cidr('192.168.0.0/33')",
        "network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(\"192.168.0.0/33\"): prefix length out of range",
    );
    assert_error(
        "cidr('::1/129')",
        "network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(\"::1/129\"): prefix length out of range",
    );
    // The doc claims an error for bits set after the prefix; the parser accepts them (and
    // cidr_test.go's `masked()` cases rely on it).
    assert_eq_value("string(cidr('192.168.0.1/16'))", "'192.168.0.1/16'");
    assert_error(
        "cidr('::ffff:1.2.3.4/24')",
        "network address parse error during conversion from string: IPv4-mapped IPv6 address \"::ffff:1.2.3.4/24\" is not allowed",
    );
    assert_error(
        "cidr('192.168.00.0/16')",
        "network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(\"192.168.00.0/16\"): ParseAddr(\"192.168.00.0\"): IPv4 field has octet with leading zero",
    );
    // netip.ParsePrefix's other errors.
    assert_error(
        "cidr('fe80::1%eth0/64')",
        "network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(\"fe80::1%eth0/64\"): IPv6 zones cannot be present in a prefix",
    );
    assert_error(
        "cidr('192.168.0.0/024')",
        "network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(\"192.168.0.0/024\"): bad bits after slash: \"024\"",
    );
    assert_error(
        "cidr('192.168.0.0')",
        "network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(\"192.168.0.0\"): no '/'",
    );
    // Equality compares address and bits, not spellings.
    assert_true("cidr('2001:DB8::/32') == cidr('2001:db8::/32')");
}

#[test]
fn cidr_is_cidr() {
    // Doc comment examples.
    assert_true("isCIDR('192.168.0.0/16')");
    assert_true("isCIDR('::1/128')");
    assert_false("isCIDR('192.168.0.0/33')");
    assert_false("isCIDR('::1/129')");
    assert_false("isCIDR('::ffff:1.2.3.4/24')");
    assert_false("isCIDR('192.168.00.0/16')");
}

#[test]
fn cidr_contains_ip() {
    // cidr_test.go.
    assert_true("cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))");
    assert_false("cidr('192.168.0.0/24').containsIP(ip('192.168.1.1'))");
    assert_true("cidr('192.168.0.0/24').containsIP('192.168.0.1')");
    assert_false("cidr('192.168.0.0/24').containsIP('192.168.1.1')");
    assert_true("cidr('2001:db8::/32').containsIP(ip('2001:db8::1'))");
    assert_false("cidr('2001:db8::/32').containsIP(ip('2001:dc8::1'))");
    assert_true("cidr('2001:db8::/32').containsIP('2001:db8::1')");
    assert_false("cidr('2001:db8::/32').containsIP('2001:dc8::1')");
    // cidr.go: an unparsable string reaches the IP overload as an error value, which answers
    // "no such overload" (containsCIDR passes the parse error on instead).
    assert_error(
        "cidr('192.168.0.0/24').containsIP('192.168.0.1.0')",
        "no such overload",
    );
}

#[test]
fn cidr_contains_cidr() {
    // cidr_test.go.
    assert_true("cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/25'))");
    assert_true("cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.1/32'))");
    assert_false("cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/23'))");
    assert_false("cidr('192.168.0.0/24').containsCIDR(cidr('192.169.0.1/32'))");
    assert_true("cidr('192.168.0.0/24').containsCIDR('192.168.0.0/25')");
    assert_false("cidr('192.168.0.0/24').containsCIDR('192.168.0.0/23')");
    assert_true("cidr('2001:db8::/32').containsCIDR(cidr('2001:db8::/33'))");
    assert_false("cidr('2001:db8::/32').containsCIDR(cidr('2001:db8::/31'))");
    assert_true("cidr('2001:db8::/32').containsCIDR('2001:db8::/33')");
    assert_false("cidr('2001:db8::/32').containsCIDR('2001:db8::/31')");
    // Doc comment examples.
    assert_true("cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24'))");
    assert_false("cidr('192.168.1.0/24').containsCIDR(cidr('192.168.2.0/24'))");
    assert_true("cidr('192.168.0.0/16').containsCIDR('192.168.10.0/24')");
    assert_false("cidr('192.168.1.0/24').containsCIDR('192.168.2.0/24')");
    assert_error(
        "cidr('192.168.0.0/24').containsCIDR('192.168.0.0/')",
        "network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(\"192.168.0.0/\"): bad bits after slash: \"\"",
    );
}

#[test]
fn cidr_ip() {
    // cidr_test.go.
    assert_eq_value("cidr('192.168.0.0/24').ip()", "ip('192.168.0.0')");
    assert_eq_value("cidr('2001:db8::/32').ip()", "ip('2001:db8::')");
    // Doc comment examples and apiextensions rules.
    assert_eq_value("cidr('192.168.0.1/24').ip()", "ip('192.168.0.1')");
    assert_int("cidr('192.168.0.1/24').ip().family()", 4);
    assert_eq_value("cidr('::1/128').ip()", "ip('::1')");
    assert_int("cidr('::1/128').ip().family()", 6);
    assert_true("type(cidr('2001:db8::/32').ip()) == net.IP");
}

#[test]
fn cidr_masked() {
    // cidr_test.go.
    assert_eq_value("cidr('192.168.0.0/24').masked()", "cidr('192.168.0.0/24')");
    assert_eq_value("cidr('192.168.0.1/24').masked()", "cidr('192.168.0.0/24')");
    assert_eq_value("cidr('2001:db8::/32').masked()", "cidr('2001:db8::/32')");
    assert_eq_value("cidr('2001:db8:1::/32').masked()", "cidr('2001:db8::/32')");
    // Doc comment examples: equality compares address and bits.
    assert_true("cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked()");
    assert_false("cidr('192.168.0.1/24') == cidr('192.168.0.1/24').masked()");
}

#[test]
fn cidr_prefix_length() {
    assert_int("cidr('192.168.0.0/24').prefixLength()", 24);
    assert_int("cidr('2001:db8::/32').prefixLength()", 32);
    assert_int("cidr('192.168.0.0/16').prefixLength()", 16);
    assert_int("cidr('::1/128').prefixLength()", 128);
}

#[test]
fn cidr_string() {
    assert_string("string(cidr('192.168.0.0/24'))", "192.168.0.0/24");
    assert_string("string(cidr('192.168.0.1/24'))", "192.168.0.1/24");
}

#[test]
fn cidr_runtime_costs() {
    // cost_test.go TestCIDRCost: both literals parse for 2.
    let mut cases = Vec::new();
    for c in ["cidr('192.168.0.0/16')", "cidr('2001:db8::/32')"] {
        cases.push((c.to_string(), 2));
        for f in [".ip()", ".prefixLength()", ".masked()"] {
            cases.push((format!("{c}{f}"), 3));
        }
        cases.push((format!("{c} == cidr('2001:db8::/32')"), 5));
    }
    let v4 = "cidr('192.168.0.0/16')";
    for (f, extra) in [
        (".containsCIDR(cidr('192.0.0.0/30'))", 5),
        (".containsCIDR(cidr('192.168.0.0/16'))", 5),
        (".containsCIDR('192.0.0.0/30')", 5),
        (".containsCIDR('192.168.0.0/16')", 5),
        (".containsIP(ip('192.0.0.1'))", 2),
        (".containsIP(ip('192.169.0.1'))", 3),
        (".containsIP(ip('192.169.169.250'))", 3),
        (".containsIP('192.0.0.1')", 2),
        (".containsIP('192.169.0.1')", 3),
    ] {
        cases.push((format!("{v4}{f}"), 2 + extra));
    }
    let v6 = "cidr('2001:db8::/32')";
    for (f, extra) in [
        (".containsCIDR(cidr('2001:db8::/126'))", 5),
        (".containsCIDR(cidr('2001:db8::/32'))", 5),
        (".containsCIDR('2001:db8::/126')", 5),
        (".containsCIDR('2001:db8::/32')", 5),
        (
            ".containsIP(ip('2001:db8:3333:4444:5555:6666:7777:8888'))",
            5,
        ),
        (".containsIP(ip('2001:db8::1'))", 3),
        (".containsIP('2001:db8:3333:4444:5555:6666:7777:8888')", 5),
        (".containsIP('2001:db8::1')", 3),
    ] {
        cases.push((format!("{v6}{f}"), 2 + extra));
    }
    assert_costs(cases);
}

// ---------------------------------------------------------------------------------------
// kubernetes.format

/// The names `format.named` knows, each with a zero-argument `format.<name>()` function.
const FORMAT_NAMES: [&str; 13] = [
    "dns1123Label",
    "dns1123Subdomain",
    "dns1035Label",
    "qualifiedName",
    "dns1123LabelPrefix",
    "dns1123SubdomainPrefix",
    "dns1035LabelPrefix",
    "labelValue",
    "uri",
    "uuid",
    "byte",
    "date",
    "datetime",
];

const DNS1123_LABEL_ERROR: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_SUBDOMAIN_ERROR: &str = r"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035_LABEL_ERROR: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

#[test]
fn format_named() {
    // format_test.go: every name looks up, equals its constant function, and differs from
    // every other format.
    for name in FORMAT_NAMES {
        assert_true(&format!("format.named('{name}').hasValue()"));
        assert_true(&format!(
            "format.named('{name}').value() == format.{name}()"
        ));
        for other in FORMAT_NAMES {
            if other != name {
                assert_false(&format!("format.{name}() == format.{other}()"));
            }
        }
    }
    assert_false("format.named('unknown').hasValue()");
    assert_true("!format.named(\"unknown\").hasValue()");
    // Names are case-sensitive (cost_test.go looks up "dns1123subdomain").
    assert_false("format.named('dns1123subdomain').hasValue()");
}

#[test]
fn format_validate_valid() {
    // format_test.go and doc comment examples: optional.none() when valid.
    for src in [
        "format.dns1123Label().validate('my-label-name')",
        "format.dns1123Subdomain().validate('apiextensions.k8s.io')",
        "format.dns1035Label().validate('my-label-name')",
        "format.qualifiedName().validate('apiextensions.k8s.io/v1beta1')",
        "format.dns1123LabelPrefix().validate('my-label-prefix-')",
        "format.dns1123SubdomainPrefix().validate('mysubdomain.prefix.-')",
        "format.dns1035LabelPrefix().validate('my-label-prefix-')",
        "format.uri().validate('http://example.com')",
        "format.uuid().validate('123e4567-e89b-12d3-a456-426614174000')",
        "format.byte().validate('aGVsbG8=')",
        "format.date().validate('2021-01-01')",
        "format.datetime().validate('2021-01-01T00:00:00Z')",
        "format.dns1123Subdomain().validate('example.com')",
        "format.qualifiedName().validate('my.name')",
        "format.date().validate('2020-01-01')",
        "format.datetime().validate('2020-01-01T00:00:00Z')",
        "format.labelValue().validate('my-cool-label-Value')",
        "format.named('dns1123Label').value().validate('my-name')",
    ] {
        assert_true(&format!("{src} == optional.none()"));
    }
}

#[test]
fn format_validate_errors() {
    // format_test.go.
    assert_format_errors(
        "format.dns1123Label().validate('contains a space')",
        &[DNS1123_LABEL_ERROR],
    );
    assert_format_errors(
        "format.dns1123Subdomain().validate('contains a space')",
        &[DNS1123_SUBDOMAIN_ERROR],
    );
    assert_format_errors(
        "format.dns1035Label().validate('contains a space')",
        &[DNS1035_LABEL_ERROR],
    );
    assert_format_errors(
        "format.qualifiedName().validate('contains a space')",
        &[
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        ],
    );
    assert_format_errors(
        "format.dns1123LabelPrefix().validate('contains a space-')",
        &[DNS1123_LABEL_ERROR],
    );
    assert_format_errors(
        "format.dns1123SubdomainPrefix().validate('contains a space-')",
        &[DNS1123_SUBDOMAIN_ERROR],
    );
    assert_format_errors(
        "format.dns1035LabelPrefix().validate('contains a space-')",
        &[DNS1035_LABEL_ERROR],
    );
    assert_format_errors("format.byte().validate('aGVsbG8')", &["invalid base64"]);
    assert_format_errors("format.date().validate('2020-01-32')", &["invalid date"]);
    assert_format_errors(
        "format.datetime().validate('2020-01-32T00:00:00Z')",
        &["invalid datetime"],
    );
    assert_format_errors(
        "format.labelValue().validate('my-cool-label-Value!!\\n\\n!!!')",
        &[
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        ],
    );
    // apiextensions TestValidationExpressions.
    assert_true(&format!(
        "format.dns1123Label().validate(\"contains a space\").value()[0] == \"{}\"",
        DNS1123_LABEL_ERROR.replace('\'', "\\'")
    ));
    // The apimachinery validators' other branches.
    let long = "a".repeat(64);
    assert_format_errors(
        &format!("format.dns1123Label().validate('{long}')"),
        &["must be no more than 63 characters"],
    );
    assert_format_errors(
        "format.dns1123Label().validate('a.b')",
        &["must not contain dots"],
    );
    assert_format_errors("format.dns1123Label().validate('')", &[DNS1123_LABEL_ERROR]);
    assert_format_errors(
        "format.dns1035Label().validate('1abc')",
        &[DNS1035_LABEL_ERROR],
    );
    assert_format_errors(
        "format.dns1123Subdomain().validate('a..b')",
        &[DNS1123_SUBDOMAIN_ERROR],
    );
    // Prefix formats replace a trailing '-' and the character before it by 'a'; a lone "-"
    // is kept.
    assert_true("format.dns1123LabelPrefix().validate('a--') == optional.none()");
    assert_format_errors(
        "format.dns1123LabelPrefix().validate('-')",
        &[DNS1123_LABEL_ERROR],
    );
    assert_format_errors(
        "format.qualifiedName().validate('a/b/c')",
        &[
            "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
        ],
    );
    assert_format_errors(
        "format.qualifiedName().validate('/a')",
        &["prefix part must be non-empty"],
    );
    assert_format_errors(
        "format.qualifiedName().validate('a/')",
        &[
            "name part must be non-empty",
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        ],
    );
    assert_true("format.labelValue().validate('') == optional.none()");
    assert_format_errors(
        &format!("format.labelValue().validate('{long}')"),
        &["must be no more than 63 bytes"],
    );
    assert_format_errors(
        "format.uri().validate('x')",
        &["parse \"x\": invalid URI for request"],
    );
    assert_format_errors(
        "format.uuid().validate('x')",
        &["does not match the UUID format"],
    );
    assert_true(
        "format.uuid().validate('123E4567-E89B-12D3-A456-426614174000') == optional.none()",
    );
    assert_format_errors("format.byte().validate('')", &["invalid base64"]);
    assert_format_errors("format.date().validate('2021-02-29')", &["invalid date"]);
    assert_format_errors(
        "format.datetime().validate('2020-01-01T00:00:00')",
        &["invalid datetime"],
    );
}

#[test]
fn format_runtime_costs() {
    // cost_test.go TestNameFormatCost: validate costs ⌈(1+len)·0.1⌉·⌈MaxRegexSize·0.25⌉.
    assert_costs([
        ("format.named('dns1123subdomain')", 1),
        (
            "format.named('dns1123Subdomain').value().validate('my-name')",
            17,
        ),
        (
            "format.named('dns1123Label').value().validate('my-name')",
            10,
        ),
        (
            "format.named('dns1123Label').value() == format.named('dns1123Label').value()",
            5,
        ),
    ]);
}

// ---------------------------------------------------------------------------------------
// kubernetes.Semver

#[test]
fn semver_semver() {
    // semver_test.go.
    assert_eq_value("semver('1.2.3')", "semver('1.2.3')");
    assert_error("semver('v1.0')", "No Major.Minor.Patch elements found");
    // Doc comment examples.
    value("semver('1.0.0')");
    value("semver('0.1.0-alpha.1')");
    assert_error("semver('200K')", "No Major.Minor.Patch elements found");
    assert_error("semver('Three')", "No Major.Minor.Patch elements found");
    assert_error("semver('Mi')", "No Major.Minor.Patch elements found");
    // Normalisation (version 1): drop a leading "v", pad missing parts, trim leading zeros.
    assert_true("semver('v1.0.0', true) == semver('1.0.0')");
    assert_true("semver('1.0', true) == semver('1.0.0')");
    assert_true("semver('01.01.01', true) == semver('1.1.1')");
    assert_true("semver('v01.01', true) == semver('1.1.0')");
    assert_true("semver('v1.2.3-beta+b', true) == semver('1.2.3-beta')");
    assert_int("semver('1.2', true).patch()", 0);
    assert_error(
        "semver('1-beta', true)",
        "short version cannot contain PreRelease/Build meta data",
    );
    // blang/semver's messages, wrapped verbatim.
    for (s, message) in [
        ("", "Version string empty"),
        ("1.0", "No Major.Minor.Patch elements found"),
        (
            "v1.0.0",
            "Invalid character(s) found in major number \"v1\"",
        ),
        ("1.2.x", "Invalid character(s) found in patch number \"x\""),
        (
            "01.0.0",
            "Major number must not contain leading zeroes \"01\"",
        ),
        (
            "1.01.0",
            "Minor number must not contain leading zeroes \"01\"",
        ),
        (
            "1.0.01",
            "Patch number must not contain leading zeroes \"01\"",
        ),
        (
            "1.2.3-01",
            "Numeric PreRelease version must not contain leading zeroes \"01\"",
        ),
        ("1.2.3-", "Prerelease is empty"),
        ("1.2.3-a..b", "Prerelease is empty"),
        ("1.2.3+", "Build meta data is empty"),
        (
            "18446744073709551616.0.0",
            "strconv.ParseUint: parsing \"18446744073709551616\": value out of range",
        ),
    ] {
        assert_error(&format!("semver('{s}')"), message);
    }
}

#[test]
fn semver_is_semver() {
    // semver_test.go.
    assert_true("isSemver('1.2.3-beta.1+build.1')");
    for s in [
        "", "v1.0.0", " 1.0.0", "1. 0.0", "1.0.0 ", "01.01.01", "1", "1.1",
    ] {
        assert_false(&format!("isSemver('{s}')"));
    }
    for s in ["", " 1.0.0", "1. 0.0", "1.0.0 "] {
        assert_false(&format!("isSemver('{s}', true)"));
    }
    for s in ["v1.0.0", "01.01.01", "1", "1.1"] {
        assert_true(&format!("isSemver('{s}', true)"));
    }
    assert_compile_error(
        "isSemver([1, 2, 3])",
        "found no matching overload for 'isSemver' applied to '(list(int))'",
    );
    // Doc comment examples.
    assert_true("isSemver('1.0.0')");
    assert_false("isSemver('hello')");
    assert_false("isSemver('v1.0')");
    assert_true("isSemver('v1.0', true)");
}

#[test]
fn semver_equality() {
    assert_true("semver('v01.01', true) == semver('1.1.0')");
    assert_true("semver('1.2.3') == semver('1.2.3')");
    assert_false("semver('1.2.3') == semver('1.0.0')");
}

#[test]
fn semver_is_less_than_is_greater_than() {
    assert_true("semver('1.0.0').isLessThan(semver('1.2.3'))");
    assert_false("semver('1.0.0').isLessThan(semver('1.0.0'))");
    assert_true("semver('1.2.3').isGreaterThan(semver('1.0.0'))");
    assert_false("semver('1.0.0').isGreaterThan(semver('1.0.0'))");
}

#[test]
fn semver_compare_to() {
    assert_int("semver('1.2.3').compareTo(semver('1.2.3'))", 0);
    assert_int("semver('1.0.0').compareTo(semver('1.2.3'))", -1);
    assert_int("semver('1.2.3').compareTo(semver('1.0.0'))", 1);
    // Doc comment examples.
    assert_int("semver('1.2.3').compareTo(semver('2.0.0'))", -1);
    assert_int("semver('1.2.3').compareTo(semver('0.1.2'))", 1);
    // SemVer precedence: pre-releases sort before the release, numerically by identifier;
    // build metadata is ignored (also by equality).
    assert_true("semver('1.0.0-alpha').isLessThan(semver('1.0.0'))");
    assert_true("semver('1.0.0-beta.2').isLessThan(semver('1.0.0-beta.11'))");
    assert_true("semver('1.0.0-alpha.beta').isLessThan(semver('1.0.0-beta'))");
    assert_int(
        "semver('1.0.0+build1').compareTo(semver('1.0.0+build2'))",
        0,
    );
    assert_true("semver('1.0.0+build1') == semver('1.0.0+build2')");
}

#[test]
fn semver_major_minor_patch() {
    // semverlib.go converts the uint64 parts with int64(): the largest major wraps to -1.
    assert_int("semver('18446744073709551615.0.0').major()", -1);
    assert_int("semver('1.2.3').major()", 1);
    assert_int("semver('1.2.3').minor()", 2);
    assert_int("semver('1.2.3').patch()", 3);
}

#[test]
fn semver_runtime_costs() {
    // cost_test.go TestSemverCost.
    assert_costs([
        ("semver('1.0.0')", 1),
        ("semver('1234.56789012345.67890123456789')", 4),
        ("isSemver('1.0.0')", 1),
        ("isSemver('1234.56789012345.67890123456789')", 4),
        ("semver('1.2.3').major()", 2),
        ("semver('1.2.3').minor()", 2),
        ("semver('1.2.3').patch()", 2),
        ("semver('1.0.0').isLessThan(semver('1.1.0'))", 3),
        ("semver('1.1.0').isGreaterThan(semver('1.0.0'))", 3),
        ("semver('1.0.0').compareTo(semver('1.2.3'))", 3),
        // TestTypeEquality: `==` on every library type has a cost (1, spec §3.7).
        ("semver('1.0.0') == semver('1.0.0')", 3),
    ]);
}

// ---------------------------------------------------------------------------------------
// Kubernetes cost overrides for cel-go strings-extension functions

#[test]
fn string_extension_runtime_costs() {
    // cost_test.go TestStringLibrary.
    assert_costs([
        ("'ABCDEFGHIJ abcdefghij'.lowerAscii()", 3),
        (
            "'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()",
            9,
        ),
        ("'ABCDEFGHIJ abcdefghij'.upperAscii()", 3),
        (
            "'ABCDEFGHIJ abcdefghij'.upperAscii() == 'abcdefghij ABCDEFGHIJ'.upperAscii()",
            9,
        ),
        ("strings.quote('ABCDEFGHIJ abcdefghij')", 3),
        (
            "strings.quote('ABCDEFGHIJ abcdefghij') == strings.quote('ABCDEFGHIJ abcdefghij')",
            9,
        ),
        ("'abc 123 def 123'.replace('123', '456')", 3),
        ("'abc 123 def 123'.replace('', 'x')", 3),
        ("'abc 123 def 123'.replace('123', '')", 3),
        ("'abc 123 def 123'.replace('123', '456', 1)", 3),
        ("'abc 123 def 123'.split(' ')", 3),
        ("'abc 123 def 123'.split(' ', 1)", 3),
        ("'abc 123 def 123'.substring(5)", 2),
        ("'abc 123 def 123'.substring(5, 8)", 2),
        ("'  abc 123 def 123  '.trim()", 2),
        (
            "['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')",
            15,
        ),
        (
            "['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join()",
            13,
        ),
    ]);
    // apiextensions TestValidationExpressions, as CRD rules.
    assert_crd_cost("size('abc 123 def 123'.split(' ')) > 0", 5);
    assert_crd_cost(
        "size(['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')) > 0",
        7,
    );
}
