//! Keyword semantics of kube-openapi's validator as the API server runs it on custom
//! resources (spec §7.2–7.5), with exact texts: each case compiles a CRD schema (Kubernetes
//! 1.35 rules unless stated) and checks `validate_values` (no decoding) in order.

use kdv_openapi::Resource;
use serde_json::{Value, json};

fn schema(props: Value) -> Value {
    json!({"type": "object", "properties": props})
}

fn errors_at(minor: u32, schema: &Value, object: &Value) -> Vec<String> {
    Resource::from_crd_schema("example.com", "v1", "T", schema, minor)
        .expect("schema compiles")
        .validate_values(object)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn errors(schema: &Value, object: &Value) -> Vec<String> {
    errors_at(35, schema, object)
}

#[test]
fn type_and_null() {
    let s = schema(json!({"i": {"type": "integer"}, "s": {"type": "string"}}));
    assert_eq!(
        errors(&s, &json!({"i": "1", "s": 1})),
        [
            r#"i: Invalid value: "string": i in body must be of type integer: "string""#,
            r#"s: Invalid value: "integer": s in body must be of type string: "integer""#,
        ]
    );
    // A float that is a JSON integer is an integer; 1.5 is not.
    assert!(errors(&s, &json!({"i": 1.0})).is_empty());
    assert_eq!(
        errors(&s, &json!({"i": 1.5})),
        [
            r#"i: Invalid value: "number": i in body must be of type integer: "number""#,
            r#"<nil>: Invalid value: "": Checked value must be of type integer (default format) in i"#,
        ]
    );
    assert_eq!(
        errors(&s, &json!({"s": null})),
        [r#"s: Invalid value: "null": s in body must be of type string: "null""#]
    );
}

#[test]
fn formats_and_their_type_quirks() {
    let s = schema(json!({
        "d": {"type": "string", "format": "date-time"},
        "n": {"type": "string", "format": "k8s-short-name"},
        "u": {"type": "string", "format": "not-a-format"},
        "i": {"type": "integer", "format": "int32"},
    }));
    assert_eq!(
        errors(&s, &json!({"d": "yesterday", "n": "A_", "u": "x"})),
        [
            r#"d: Invalid value: "yesterday": d in body must be of type date-time: "yesterday""#,
            r#"n: Invalid value: "A_": n in body must be of type k8s-short-name: "A_""#,
        ]
    );
    // A boolean for a string with a format fails the format's type check (empty data
    // format); an array passes the type check (quirk) and is not format-checked.
    assert_eq!(
        errors(&s, &json!({"d": true})),
        [r#"d: Invalid value: "": d in body must be of type date-time: """#]
    );
    assert!(errors(&s, &json!({"d": ["x"]})).is_empty());
    // Up to 1.35 numeric formats are stripped from CRDs: no int32 range check.
    assert!(errors(&s, &json!({"i": 3_000_000_000_i64})).is_empty());
    assert_eq!(
        errors_at(36, &s, &json!({"i": 3_000_000_000_i64})),
        [
            r#"<nil>: Invalid value: "": Checked value must be of type integer with format int32 in i"#
        ]
    );
    // k8s-short-name is unknown before 1.34.
    assert!(errors_at(33, &s, &json!({"n": "A_"})).is_empty());
}

#[test]
fn enum_converts_data_to_the_members_type() {
    let s = schema(json!({
        "i": {"enum": [1, 2]},
        "s": {"enum": ["A", "b"]},
        "o": {"enum": [{"a": 1}]},
    }));
    // float64 1.5 converted to int64 is 1; int64 65 converted to string is "A".
    assert!(errors(&s, &json!({"i": 1.5, "s": 65, "o": {"a": 1}})).is_empty());
    assert_eq!(
        errors(&s, &json!({"i": 3, "s": "c", "o": {"a": 1.5}})),
        [
            r#"i: Unsupported value: 3: supported values: "1", "2""#,
            r#"o: Unsupported value: {"a":1.5}: supported values: "{\"a\":1}""#,
            r#"s: Unsupported value: "c": supported values: "A", "b""#,
        ]
    );
    assert_eq!(
        errors(&s, &json!({"s": null})),
        [r#"s: Unsupported value: null: supported values: "A", "b""#]
    );
}

#[test]
fn numbers_bounds_and_multiples() {
    let s = schema(json!({
        "a": {"type": "integer", "minimum": 5, "maximum": 10},
        "b": {"type": "integer", "minimum": 5, "exclusiveMinimum": true, "maximum": 10, "exclusiveMaximum": true},
        "c": {"type": "number", "maximum": 1000000},
        "m": {"type": "integer", "multipleOf": 3},
        "f": {"type": "number", "multipleOf": 0.5},
        "z": {"type": "integer", "multipleOf": 0},
    }));
    assert_eq!(
        errors(
            &s,
            &json!({"a": 3, "b": 10, "c": 1e7, "m": 4, "f": 0.7, "z": 1})
        ),
        [
            "a: Invalid value: 3: a in body should be greater than or equal to 5",
            "b: Invalid value: 10: b in body should be less than 10",
            "c: Invalid value: 1e+07: c in body should be less than or equal to 1e+06",
            "f: Invalid value: 0.7: f in body should be a multiple of 0.5",
            "m: Invalid value: 4: m in body should be a multiple of 3",
            "z: Invalid value: 0: factor MultipleOf declared for z must be positive: 0",
        ]
    );
    assert_eq!(
        errors(&s, &json!({"a": 11, "b": 5})),
        [
            "a: Invalid value: 11: a in body should be less than or equal to 10",
            "b: Invalid value: 5: b in body should be greater than 5",
        ]
    );
    // A bound that is not an integer: its range check fails for an integer type and the
    // comparison is done in floats; without a single numeric type it is truncated.
    let t = schema(json!({
        "i": {"type": "integer", "maximum": 1.5},
        "x": {"x-kubernetes-int-or-string": true, "maximum": 1.5},
    }));
    assert_eq!(
        errors(&t, &json!({"i": 2, "x": 2})),
        [
            r#"<nil>: Invalid value: "": Maximum boundary value must be of type integer (default format) in i"#,
            "i: Invalid value: 2: i in body should be less than or equal to 1.5",
            "x: Invalid value: 2: x in body should be less than or equal to 1",
        ]
    );
    // The same truncation for multipleOf: an integer is checked against int64(1.5) = 1,
    // a float against 1.5.
    let m = schema(json!({"x": {"multipleOf": 1.5}}));
    assert!(errors(&m, &json!({"x": 35})).is_empty());
    assert_eq!(
        errors(&m, &json!({"x": 35.5})),
        ["x: Invalid value: 35.5: x in body should be a multiple of 1.5"]
    );
}

#[test]
fn strings_stop_at_the_first_failure() {
    let s = schema(json!({
        "s": {"type": "string", "maxLength": 3, "minLength": 2, "pattern": "^[a-z]+$"},
    }));
    assert_eq!(
        errors(&s, &json!({"s": "ABCD"})),
        [r#"s: Too long: may not be more than 3 bytes"#]
    );
    assert_eq!(
        errors(&s, &json!({"s": "A"})),
        [r#"s: Invalid value: "A": s in body should be at least 2 chars long"#]
    );
    assert_eq!(
        errors(&s, &json!({"s": "AB"})),
        [r#"s: Invalid value: "AB": s in body should match '^[a-z]+$'"#]
    );
    // Lengths count runes.
    assert!(errors(&s, &json!({"s": "äöü"})).len() == 1);
    let u = schema(json!({"s": {"type": "string", "maxLength": 3}}));
    assert!(errors(&u, &json!({"s": "äöü"})).is_empty());
}

#[test]
fn arrays_and_objects() {
    let s = schema(json!({
        "l": {"type": "array", "minItems": 2, "items": {"type": "integer"}},
        "u": {"type": "array", "uniqueItems": true},
        "o": {"type": "object", "minProperties": 2, "additionalProperties": {"type": "integer", "maximum": 1}},
        "c": {"type": "object", "additionalProperties": false, "properties": {"a": {}}},
    }));
    assert_eq!(
        errors(
            &s,
            &json!({"l": ["x"], "u": [1, 1.0, 1], "o": {"k": 2}, "c": {"a": 1, "b": 2}})
        ),
        [
            r#"c: Invalid value: "b": c.b in body is a forbidden property"#,
            r#"l[0]: Invalid value: "string": l[0] in body must be of type integer: "string""#,
            "l: Invalid value: 1: l in body should have at least 2 items",
            "o: Invalid value: 1: o in body should have at least 2 properties",
            "o.k: Invalid value: 2: o.k in body should be less than or equal to 1",
            r#"u: Invalid value: "": u in body shouldn't contain duplicates"#,
        ]
    );
}

#[test]
fn junctors() {
    let s = schema(json!({
        "one": {"oneOf": [{"minimum": 1}, {"maximum": 10}]},
        "any": {"anyOf": [{"maxLength": 1}, {"pattern": "^a"}]},
        "all": {"allOf": [{"maxLength": 1}, {"pattern": "^a"}]},
        "not": {"not": {"maxLength": 1}},
    }));
    assert_eq!(
        errors(&s, &json!({"one": 5, "any": "bb", "all": "bb", "not": "b"})),
        [
            // allOf: every branch's errors, then the composite error.
            "all: Too long: may not be more than 1 byte",
            r#"all: Invalid value: "bb": all in body should match '^a'"#,
            r#"<nil>: Invalid value: "": "all" must validate all the schemas (allOf). None validated"#,
            // anyOf: the composite error, then the errors of the failing branch with the
            // highest match count (the first on a tie).
            r#"<nil>: Invalid value: "": "any" must validate at least one schema (anyOf)"#,
            "any: Too long: may not be more than 1 byte",
            r#"<nil>: Invalid value: "": "not" must not validate the schema (not)"#,
            r#"<nil>: Invalid value: "": "one" must validate one and only one schema (oneOf). Found 2 valid alternatives"#,
        ]
    );
}

#[test]
fn identical_messages_are_reported_once() {
    // Both branches of the allOf fail with the same message.
    let s = schema(json!({"x": {"allOf": [{"maxLength": 1}, {"maxLength": 1}], "type": "string"}}));
    assert_eq!(
        errors(&s, &json!({"x": "ab"})),
        [
            "x: Too long: may not be more than 1 byte",
            r#"<nil>: Invalid value: "": "x" must validate all the schemas (allOf). None validated"#,
        ]
    );
}

#[test]
fn item_04_long_patterns_on_long_values_are_bounded() {
    // A literal pattern (the issue's 100,000 characters against 200,000) is a substring
    // search: linear, with the regex's verdict.
    let pattern = "x".repeat(100_000);
    let s = schema(json!({"s": {"type": "string", "pattern": pattern}}));
    let mut value = "y".repeat(100_000);
    value.push_str(&pattern);
    assert!(errors(&s, &json!({"s": value})).is_empty());
    let value = "xy".repeat(100_000);
    let errs = errors(&s, &json!({"s": value}));
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0].contains("in body should match 'xxx"),
        "{}",
        &errs[0][..200]
    );
    // Any other pattern is matched within a budget of pattern × value length; beyond it
    // the value is reported, saying why.
    let pattern = format!("{}[0-9]", "x".repeat(5_000));
    let s = schema(json!({"s": {"type": "string", "pattern": pattern}}));
    let errs = errors(&s, &json!({"s": "x".repeat(200_000)}));
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0].contains(
            "but kdv did not match it: a 5005-byte pattern against a 200000-byte value exceeds kdv's regex budget"
        ),
        "{}",
        &errs[0][errs[0].len().saturating_sub(300)..]
    );
    // Within the budget, the regex decides.
    assert!(errors(&s, &json!({"s": format!("{}1", "x".repeat(5_000))})).is_empty());
}
