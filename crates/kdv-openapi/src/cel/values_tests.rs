//! Runtime values of custom resources: upstream's `values_test.go` tables (apiextensions
//! `TestEquality`, `TestLister`, `TestMapper`) as data, and rules compiled against the typed
//! environment and evaluated on the values.

use serde_json::{Value as J, json};

use super::*;
use crate::Resource;
use kdv_cel::checker::Env;
use kdv_cel::interp::{EvalConfig, Program, ProgramOptions, Vars};
use kdv_cel::types::Type;
use kdv_cel::value::{EvalError, Value};

fn resource(x: &J) -> Resource {
    let schema = json!({"type": "object", "properties": {"x": x}});
    Resource::from_crd_schema("example.com", "v1", "Widget", &schema, 35).unwrap()
}

/// Evaluates `expr` with the dyn variables `vars` (each the data of schema `x`).
fn eval_dyn(x: &J, expr: &str, vars: &[(&str, &J)]) -> Result<J, EvalError> {
    let r = resource(x);
    let (arena, root) = r.schema();
    let id = arena.node(root).property("x").unwrap();
    let mut env = Env::kubernetes();
    let mut bound = Vars::new();
    for (name, data) in vars {
        env.add_variable(name, Type::Dyn);
        bound.insert(*name, to_value(arena, id, false, data)?);
    }
    let options = ProgramOptions {
        variables: None,
        ..ProgramOptions::kubernetes()
    };
    let program = Program::compile(&env, expr, &options).unwrap();
    program
        .eval(&bound, &EvalConfig::default())
        .map(|(v, _)| v.to_json())
}

fn string() -> J {
    json!({"type": "string"})
}
fn int() -> J {
    json!({"type": "integer", "format": "int64"})
}
fn map_list_element() -> J {
    json!({"type": "object", "properties": {"key": string(), "val": int()}})
}
fn map_list() -> J {
    json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["key"], "items": map_list_element()})
}
fn multi_key_map_list() -> J {
    json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["key1", "key2"],
        "items": {"type": "object", "properties": {"key1": string(), "key2": string(), "val": int()}}})
}
fn set_list() -> J {
    json!({"type": "array", "x-kubernetes-list-type": "set", "items": string()})
}
fn atomic_list() -> J {
    json!({"type": "array", "items": string()})
}
fn object() -> J {
    json!({"type": "object", "properties": {"field1": string(), "field2": string()}})
}
fn map() -> J {
    json!({"type": "object", "additionalProperties": string()})
}

/// apiextensions `TestEquality`: both directions, and against the plain (schema-less) data.
#[test]
fn upstream_equality() {
    let kv = |k: &str, v: i64| json!({"key": k, "val": v});
    let kkv = |a: &str, b: &str, v: i64| json!({"key1": a, "key2": b, "val": v});
    let cases: Vec<(&str, J, J, J, bool)> = vec![
        (
            "map lists are equal regardless of order",
            map_list(),
            json!([kv("a", 1), kv("b", 2)]),
            json!([kv("b", 2), kv("a", 1)]),
            true,
        ),
        (
            "map lists are not equal if contents differs",
            map_list(),
            json!([kv("a", 1), kv("b", 2)]),
            json!([kv("a", 1), kv("b", 3)]),
            false,
        ),
        (
            "map lists are not equal if length differs",
            map_list(),
            json!([kv("a", 1), kv("b", 2)]),
            json!([kv("a", 1), kv("b", 2), kv("c", 3)]),
            false,
        ),
        (
            "multi-key map lists are equal regardless of order",
            multi_key_map_list(),
            json!([kkv("a1", "a2", 1), kkv("b1", "b2", 2)]),
            json!([kkv("b1", "b2", 2), kkv("a1", "a2", 1)]),
            true,
        ),
        (
            "multi-key map lists with different contents are not equal",
            multi_key_map_list(),
            json!([kkv("a1", "a2", 1), kkv("b1", "b2", 2)]),
            json!([kkv("a1", "a2", 1), kkv("b1", "b2", 3)]),
            false,
        ),
        (
            "multi-key map lists with different keys are not equal",
            multi_key_map_list(),
            json!([kkv("a1", "a2", 1), kkv("b1", "b2", 2)]),
            json!([kkv("a1", "a2", 1), kkv("c1", "c2", 3)]),
            false,
        ),
        (
            "multi-key map lists with different lengths are not equal",
            multi_key_map_list(),
            json!([kkv("a1", "a2", 1)]),
            json!([kkv("a1", "a2", 1), kkv("b1", "b2", 3)]),
            false,
        ),
        (
            "set lists are equal regardless of order",
            set_list(),
            json!(["a", "b"]),
            json!(["b", "a"]),
            true,
        ),
        (
            "set lists are not equal if contents differ",
            set_list(),
            json!(["a", "b"]),
            json!(["a", "c"]),
            false,
        ),
        (
            "set lists are not equal if lengths differ",
            set_list(),
            json!(["a", "b"]),
            json!(["a", "b", "c"]),
            false,
        ),
        (
            "identical atomic lists are equal",
            atomic_list(),
            json!(["a", "b"]),
            json!(["a", "b"]),
            true,
        ),
        (
            "atomic lists are not equal if order differs",
            atomic_list(),
            json!(["a", "b"]),
            json!(["b", "a"]),
            false,
        ),
        (
            "atomic lists are not equal if contents differ",
            atomic_list(),
            json!(["a", "b"]),
            json!(["a", "c"]),
            false,
        ),
        (
            "atomic lists are not equal if lengths differ",
            atomic_list(),
            json!(["a", "b"]),
            json!(["a", "b", "c"]),
            false,
        ),
        (
            "identical objects are equal",
            object(),
            json!({"field1": "a", "field2": "b"}),
            json!({"field1": "a", "field2": "b"}),
            true,
        ),
        (
            "objects are equal regardless of field order",
            object(),
            json!({"field1": "a", "field2": "b"}),
            json!({"field2": "b", "field1": "a"}),
            true,
        ),
        (
            "objects are not equal if contents differs",
            object(),
            json!({"field1": "a", "field2": "b"}),
            json!({"field1": "a", "field2": "c"}),
            false,
        ),
        (
            "objects are not equal if length differs",
            object(),
            json!({"field1": "a", "field2": "b"}),
            json!({"field1": "a"}),
            false,
        ),
        (
            "identical maps are equal",
            map(),
            json!({"key1": "a", "key2": "b"}),
            json!({"key1": "a", "key2": "b"}),
            true,
        ),
        (
            "maps are equal regardless of field order",
            map(),
            json!({"key1": "a", "key2": "b"}),
            json!({"key2": "b", "key1": "a"}),
            true,
        ),
        (
            "maps are not equal if contents differs",
            map(),
            json!({"key1": "a", "key2": "b"}),
            json!({"key1": "a", "key2": "c"}),
            false,
        ),
        (
            "maps are not equal if length differs",
            map(),
            json!({"key1": "a", "key2": "b"}),
            json!({"key1": "a", "key2": "b", "key3": "c"}),
            false,
        ),
    ];
    for (name, schema, lhs, rhs, equal) in cases {
        let r = resource(&schema);
        let (arena, root) = r.schema();
        let id = arena.node(root).property("x").unwrap();
        let l = to_value(arena, id, false, &lhs).unwrap();
        let rv = to_value(arena, id, false, &rhs).unwrap();
        assert_eq!(l.equals(&rv).unwrap(), equal, "{name}");
        assert_eq!(rv.equals(&l).unwrap(), equal, "{name} (reversed)");
        assert_eq!(
            l.equals(&Value::from_json(&rhs)).unwrap(),
            equal,
            "{name} (native rhs)"
        );
        assert_eq!(
            rv.equals(&Value::from_json(&lhs)).unwrap(),
            equal,
            "{name} (native lhs)"
        );
        // Through CEL's `==` and `!=`.
        let got = eval_dyn(&schema, "l == r && !(l != r)", &[("l", &lhs), ("r", &rhs)]).unwrap();
        assert_eq!(got, json!(equal), "{name} (CEL)");
    }
}

/// A CEL literal of JSON data, scalars of objects wrapped in `dyn` (homogeneous literals).
fn literal(v: &J) -> String {
    match v {
        J::Object(m) => {
            let entries: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("'{k}': dyn({})", literal(v)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
        J::String(s) => format!("'{s}'"),
        other => other.to_string(),
    }
}

/// apiextensions `TestLister`: size, get, iteration, `in`, and `+`.
#[test]
fn upstream_lister() {
    let kv = |k: &str, v: i64| json!({"key": k, "val": v});
    // name, schema, list, elements it does not contain, addition, expected sum.
    type Case<'s> = (&'s str, J, J, Vec<J>, J, J);
    let cases: Vec<Case> = vec![
        (
            "map list",
            map_list(),
            json!([kv("a", 1), kv("b", 2)]),
            vec![kv("a", 2), kv("c", 1)],
            json!([kv("b", 3), kv("c", 4)]),
            json!([kv("a", 1), kv("b", 3), kv("c", 4)]),
        ),
        (
            "set list",
            set_list(),
            json!(["a", "b"]),
            vec![json!("c")],
            json!(["b", "c"]),
            json!(["a", "b", "c"]),
        ),
        (
            "atomic list",
            atomic_list(),
            json!(["a", "b"]),
            vec![json!("c")],
            json!(["b", "c"]),
            json!(["a", "b", "b", "c"]),
        ),
    ];
    for (name, schema, list, not_contains, addition, expect_added) in cases {
        let items = list.as_array().unwrap();
        for (expr, want) in [
            ("l.size()", json!(items.len())),
            ("l.map(e, e)", list.clone()),
            ("l[0]", items[0].clone()),
            ("l[1]", items[1].clone()),
        ] {
            assert_eq!(
                eval_dyn(&schema, expr, &[("l", &list)]).unwrap(),
                want,
                "{name} {expr}"
            );
        }
        for item in items {
            let expr = format!("{} in l", literal(item));
            assert_eq!(
                eval_dyn(&schema, &expr, &[("l", &list)]).unwrap(),
                json!(true),
                "{name} {expr}"
            );
        }
        for item in not_contains {
            let expr = format!("{} in l", literal(&item));
            assert_eq!(
                eval_dyn(&schema, &expr, &[("l", &list)]).unwrap(),
                json!(false),
                "{name} {expr}"
            );
        }
        let added = eval_dyn(&schema, "l + a", &[("l", &list), ("a", &addition)]).unwrap();
        assert_eq!(added, expect_added, "{name}");
    }
}

/// apiextensions `TestMapper`: size, get, iteration, `in`.
#[test]
fn upstream_mapper() {
    for (name, schema, data, missing) in [
        (
            "object",
            object(),
            json!({"field1": "a", "field2": "b"}),
            "field3",
        ),
        ("map", map(), json!({"key1": "a", "key2": "b"}), "key3"),
    ] {
        let m = data.as_object().unwrap();
        let keys: Vec<&String> = m.keys().collect();
        for (expr, want) in [
            ("m.size()".to_string(), json!(2)),
            ("m.map(k, k)".to_string(), json!(keys)),
            (format!("m['{}']", keys[0]), m[keys[0]].clone()),
            (format!("m['{}']", keys[1]), m[keys[1]].clone()),
            (
                format!("'{}' in m && '{}' in m", keys[0], keys[1]),
                json!(true),
            ),
            (format!("'{missing}' in m"), json!(false)),
        ] {
            assert_eq!(
                eval_dyn(&schema, &expr, &[("m", &data)]).unwrap(),
                want,
                "{name} {expr}"
            );
        }
    }
}

/// Evaluates rule `expr` on `data` as the rules of the root node see it: typed `self`.
fn eval_rule(schema: J, expr: &str, data: J) -> Result<J, String> {
    let r = Resource::from_crd_schema("example.com", "v1", "Widget", &schema, 35).unwrap();
    let (arena, root) = r.schema();
    let types = RuleTypes::new(schema_decl_type(arena, root, true).unwrap(), "selfType0");
    let env = types.env(&kdv_cel::k8s::env(), false);
    let program = Program::compile(&env, expr, &ProgramOptions::kubernetes())
        .map_err(|e| format!("compile: {e}"))?;
    let value = to_value(arena, root, true, &data).map_err(|e| e.message.into_owned())?;
    program
        .eval(&Vars::new().with("self", value), &EvalConfig::default())
        .map(|(v, _)| v.to_json())
        .map_err(|e| e.message.into_owned())
}

fn spec(props: J) -> J {
    json!({"type": "object", "properties": {"spec": {"type": "object", "properties": props}}})
}

#[test]
fn escaped_field_names() {
    let schema = spec(json!({
        "a-b": {"type": "integer"},
        "namespace": {"type": "string"},
        "x.y/z": {"type": "string"},
        "a__b": {"type": "string"},
        "plain": {"type": "string"},
    }));
    let data =
        json!({"spec": {"a-b": 1, "namespace": "ns", "x.y/z": "p", "a__b": "u", "plain": "q"}});
    for (expr, want) in [
        ("self.spec.a__dash__b == 1", json!(true)),
        ("self.spec.__namespace__", json!("ns")),
        ("self.spec.namespace", json!("ns")),
        ("self.spec.x__dot__y__slash__z", json!("p")),
        ("self.spec.a__underscores__b", json!("u")),
        (
            "has(self.spec.a__dash__b) && has(self.spec.__namespace__)",
            json!(true),
        ),
        ("self.spec.?a__dash__b.orValue(0)", json!(1)),
        ("self.spec.plain", json!("q")),
    ] {
        assert_eq!(
            eval_rule(schema.clone(), expr, data.clone()),
            Ok(want),
            "{expr}"
        );
    }
    let empty = json!({"spec": {}});
    assert_eq!(
        eval_rule(schema.clone(), "has(self.spec.a__dash__b)", empty.clone()),
        Ok(json!(false))
    );
    assert_eq!(
        eval_rule(
            schema.clone(),
            "self.spec.?a__dash__b.hasValue()",
            empty.clone()
        ),
        Ok(json!(false))
    );
    assert_eq!(
        eval_rule(schema, "self.spec.a__dash__b", empty),
        Err("no such key: a__dash__b".to_string())
    );
}

#[test]
fn null_fields_are_absent() {
    let schema = spec(json!({"n": {"type": "string", "nullable": true}}));
    let data = json!({"spec": {"n": null}});
    assert_eq!(
        eval_rule(schema.clone(), "has(self.spec.n)", data.clone()),
        Ok(json!(false))
    );
    assert_eq!(
        eval_rule(schema.clone(), "self.spec.n", data.clone()),
        Err("no such key: n".to_string())
    );
    let set = json!({"spec": {"n": "v"}});
    assert_eq!(eval_rule(schema, "self.spec.n", set), Ok(json!("v")));
}

#[test]
fn formats() {
    let schema = spec(json!({
        "b": {"type": "string", "format": "byte"},
        "d": {"type": "string", "format": "duration"},
        "t": {"type": "string", "format": "date-time"},
        "day": {"type": "string", "format": "date"},
        "f": {"type": "number"},
        "times": {"type": "array", "items": {"type": "string", "format": "date-time"}},
        "ds": {"type": "object", "additionalProperties": {"type": "string", "format": "duration"}},
    }));
    let data = json!({"spec": {
        "b": "aGk=", "d": "1h", "t": "2024-01-01T00:00:00Z", "day": "2024-01-02", "f": 2,
        "times": ["2020-01-01T00:00:00Z", "2021-01-01T00:00:00Z"],
        "ds": {"a": "1m", "b": "2 days"},
    }});
    for (expr, want) in [
        ("self.spec.b == b'hi'", json!(true)),
        ("self.spec.d == duration('60m')", json!(true)),
        (
            "self.spec.t == timestamp('2024-01-01T00:00:00Z')",
            json!(true),
        ),
        (
            "self.spec.day - self.spec.t == duration('24h')",
            json!(true),
        ),
        ("self.spec.f + 0.5", json!(2.5)),
        (
            "self.spec.times.all(t, t < timestamp('2022-01-01T00:00:00Z'))",
            json!(true),
        ),
        ("self.spec.times[1] > self.spec.times[0]", json!(true)),
        ("self.spec.ds.b > self.spec.ds['a']", json!(true)),
        (
            "self.spec.ds.all(k, self.spec.ds[k] >= duration('1m'))",
            json!(true),
        ),
    ] {
        assert_eq!(
            eval_rule(schema.clone(), expr, data.clone()),
            Ok(want),
            "{expr}"
        );
    }
    // A standard-alphabet value passes the format check but not CEL's URL-safe decoding;
    // the error surfaces only where the value is touched.
    let bad = json!({"spec": {"b": "+/+/", "d": "soon"}});
    assert_eq!(
        eval_rule(schema.clone(), "self.spec.b == b''", bad.clone()),
        Err("Invalid byte formatted string +/+/: illegal base64 data at input byte 0".to_string())
    );
    assert_eq!(
        eval_rule(schema.clone(), "self.spec.d > duration('1s')", bad.clone()),
        Err("Invalid duration soon: unable to parse soon as duration".to_string())
    );
    // `has()` converts the field (upstream's `unstructuredMap.Find`), so it fails too.
    assert_eq!(
        eval_rule(schema.clone(), "has(self.spec.b)", bad.clone()),
        Err("Invalid byte formatted string +/+/: illegal base64 data at input byte 0".to_string())
    );
    let bad_times = json!({"spec": {"times": ["2020-01-01T00:00:00Z", "never"]}});
    assert_eq!(
        eval_rule(schema.clone(), "self.spec.times.size()", bad_times.clone()),
        Ok(json!(2))
    );
    assert_eq!(
        eval_rule(schema, "self.spec.times.all(t, t < timestamp('2022-01-01T00:00:00Z'))", bad_times),
        Err("Invalid date-time formatted string never: parsing time \"never\" as \"2006-01-02T15:04:05\": cannot parse \"never\" as \"2006\"".to_string())
    );
}

#[test]
fn list_types_in_rules() {
    let schema = spec(json!({
        "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
        "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
            "items": {"type": "object", "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}}},
        "atomic": {"type": "array", "items": {"type": "string"}},
    }));
    let data = json!({"spec": {
        "set": ["a", "b"],
        "ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}],
        "atomic": ["a", "b"],
    }});
    for (expr, want) in [
        // The set list on the left compares without order; a literal on the left in order.
        ("self.spec.set == ['b', 'a']", json!(true)),
        ("self.spec.set + ['c', 'a']", json!(["a", "b", "c"])),
        ("(self.spec.set + ['c']) == ['c', 'b', 'a']", json!(true)),
        ("['b', 'a'] == self.spec.set", json!(false)),
        ("self.spec.atomic + ['a']", json!(["a", "b", "a"])),
        (
            "dyn(self.spec.ports) + [{'name': dyn('https'), 'port': dyn(8443)}, {'name': dyn('grpc'), 'port': dyn(9000)}]",
            json!([{"name": "http", "port": 80}, {"name": "https", "port": 8443}, {"name": "grpc", "port": 9000}]),
        ),
        (
            "(dyn(self.spec.ports) + []) == [{'name': dyn('https'), 'port': dyn(443)}, {'name': dyn('http'), 'port': dyn(80)}]",
            json!(true),
        ),
        ("'a' in self.spec.set", json!(true)),
    ] {
        assert_eq!(
            eval_rule(schema.clone(), expr, data.clone()),
            Ok(want),
            "{expr}"
        );
    }
}

#[test]
fn plain_subtrees_are_not_converted() {
    let r = resource(&json!({"type": "object", "properties": {
        "a": {"type": "string"}, "n": {"type": "integer"},
        "l": {"type": "array", "items": {"type": "string"}},
    }}));
    let (arena, root) = r.schema();
    let id = arena.node(root).property("x").unwrap();
    assert!(value_schema(arena, id, false).is_plain());
    assert!(value_schema(arena, root, true).is_plain());
    let data = json!({"a": "s"});
    assert!(matches!(
        to_value(arena, id, false, &data).unwrap(),
        Value::Map(kdv_cel::value::Map::Json(_))
    ));
}

#[test]
fn null_self() {
    let r = resource(&json!({"type": "string"}));
    let (arena, root) = r.schema();
    let id = arena.node(root).property("x").unwrap();
    assert!(matches!(
        to_value(arena, id, false, &J::Null),
        Ok(Value::Null)
    ));
    let r = resource(&json!({"type": "number"}));
    let (arena, root) = r.schema();
    let id = arena.node(root).property("x").unwrap();
    assert_eq!(
        to_value(arena, id, false, &J::Null).unwrap_err().message,
        "invalid data, got null for schema with nullable=false"
    );
    assert_eq!(
        to_value(arena, id, false, &json!("x")).unwrap_err().message,
        "invalid data, expected float, got string"
    );
}
