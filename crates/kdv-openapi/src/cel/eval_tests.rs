//! Running `x-kubernetes-validations` rules through [`Resource::validate`]: the texts of
//! apiextensions-apiserver's `cel.Validator` (`validation.go`, `validation_test.go`) and the
//! customresource strategy's gating, for create and update.

use serde_json::{Value, json};

use crate::{Options, Outcome, Resource, SchemaSet, UnknownFields};

fn resource_at(schema: Value, minor: u32) -> Resource {
    Resource::from_crd_schema("example.com", "v1", "Widget", &schema, minor).unwrap()
}

fn resource(schema: Value) -> Resource {
    resource_at(schema, 35)
}

fn object(extra: Value) -> Value {
    let mut o =
        json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}});
    if let (Value::Object(o), Value::Object(extra)) = (&mut o, extra) {
        o.extend(extra);
    }
    o
}

fn errors(r: &Resource, new: &Value, old: Option<&Value>) -> Vec<String> {
    let options = Options {
        unknown_fields: UnknownFields::Warn,
        ..Options::default()
    };
    r.validate(new, old, &options)
        .errors
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn spec_schema(spec: Value) -> Value {
    json!({"type": "object", "properties": {"spec": spec}})
}

#[test]
fn message_default_message_and_trimming() {
    let r = resource(spec_schema(json!({
        "type": "object",
        "properties": {"x": {"type": "integer"}},
        "x-kubernetes-validations": [
            {"rule": "  self.x > 0  "},
            {"rule": "self.x > 1", "message": "  x must be more than one  "},
        ],
    })));
    assert_eq!(
        errors(&r, &object(json!({"spec": {"x": 0}})), None),
        [
            "spec: Invalid value: failed rule: self.x > 0",
            "spec: Invalid value: x must be more than one",
        ]
    );
    assert!(errors(&r, &object(json!({"spec": {"x": 2}})), None).is_empty());
}

#[test]
fn scalar_values_are_shown_from_1_35_and_type_strings_before() {
    let schema = spec_schema(json!({
        "type": "object",
        "properties": {"x": {"type": "integer", "x-kubernetes-validations": [
            {"rule": "self > 0", "message": "Must be positive non-zero"}]}},
    }));
    let o = object(json!({"spec": {"x": -3}}));
    assert_eq!(
        errors(&resource(schema.clone()), &o, None),
        ["spec.x: Invalid value: -3: Must be positive non-zero"]
    );
    assert_eq!(
        errors(&resource_at(schema, 34), &o, None),
        ["spec.x: Invalid value: \"integer\": Must be positive non-zero"]
    );
}

#[test]
fn reasons_select_the_error_type() {
    let r = resource(spec_schema(json!({
        "type": "object",
        "properties": {"s": {"type": "string", "x-kubernetes-validations": [
            {"rule": "self == 'ok'", "message": "m1", "reason": "FieldValueForbidden"},
            {"rule": "self == 'ok'", "message": "m2", "reason": "FieldValueRequired"},
            {"rule": "self == 'ok'", "message": "m3", "reason": "FieldValueDuplicate"},
            {"rule": "self == 'ok'", "message": "m4", "reason": "FieldValueInvalid"},
        ]}},
    })));
    assert_eq!(
        errors(&r, &object(json!({"spec": {"s": "no"}})), None),
        [
            "spec.s: Forbidden: m1",
            "spec.s: Required value: m2",
            "spec.s: Duplicate value: \"no\"",
            "spec.s: Invalid value: \"no\": m4",
        ]
    );
}

#[test]
fn field_paths_are_one_child_of_the_node() {
    let r = resource(spec_schema(json!({
        "type": "object",
        "properties": {
            "a": {"type": "object", "properties": {"b.c": {"type": "integer"}}},
            "m": {"type": "object", "additionalProperties": {"type": "integer"}},
        },
        "x-kubernetes-validations": [
            {"rule": "false", "fieldPath": ".a['b.c']"},
            {"rule": "false", "fieldPath": ".m.k"},
            {"rule": "false", "fieldPath": ".nosuch"},
        ],
    })));
    assert_eq!(
        errors(&r, &object(json!({"spec": {}})), None),
        [
            "spec.a.b.c: Invalid value: failed rule: false",
            "spec.m[k]: Invalid value: failed rule: false",
            // An invalid path (rejected with the CRD) reports at the node.
            "spec: Invalid value: failed rule: false",
        ]
    );
}

#[test]
fn message_expressions_and_their_fallbacks() {
    let r = resource(spec_schema(json!({
        "type": "object",
        "properties": {"x": {"type": "integer"}},
        "x-kubernetes-validations": [
            {"rule": "self.x > 5", "messageExpression": "'x is ' + string(self.x)"},
            {"rule": "self.x > 5", "message": "static", "messageExpression": "'  '"},
            {"rule": "self.x > 5", "messageExpression": "'a\\nb'"},
            {"rule": "self.x > 5", "message": "fallback", "messageExpression": "string(1 / (self.x - self.x))"},
        ],
    })));
    assert_eq!(
        errors(&r, &object(json!({"spec": {"x": 3}})), None),
        [
            "spec: Invalid value: x is 3",
            "spec: Invalid value: static",
            "spec: Invalid value: failed rule: self.x > 5",
            "spec: Invalid value: fallback",
        ]
    );
}

#[test]
fn evaluation_errors_use_the_type_string() {
    let r = resource(spec_schema(json!({
        "type": "object",
        "properties": {
            "i": {"x-kubernetes-int-or-string": true},
            "m": {"type": "object", "additionalProperties": {"type": "integer"}},
        },
        "x-kubernetes-validations": [
            {"rule": "self.m['missing'] == 1"},
            {"rule": "self.i == 1 || self.i.startsWith('a')", "message": "bad i"},
        ],
    })));
    assert_eq!(
        errors(&r, &object(json!({"spec": {"m": {}, "i": 5}})), None),
        [
            "spec: Invalid value: \"object\": no such key: missing evaluating rule: self.m['missing'] == 1",
            "spec: Invalid value: \"object\": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: bad i",
        ]
    );
}

#[test]
fn item_12_errors_on_an_int_or_string_node_show_its_structural_type() {
    // Upstream passes the structural schema's `type`, which an int-or-string node leaves
    // empty (not kube-openapi's "integer,string").
    let r = resource(spec_schema(json!({
        "type": "object",
        "properties": {
            "i": {
                "x-kubernetes-int-or-string": true,
                "x-kubernetes-validations": [{"rule": "self.startsWith('a')"}],
            },
        },
    })));
    assert_eq!(
        errors(&r, &object(json!({"spec": {"i": 5}})), None),
        [
            "spec.i: Invalid value: \"\": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self.startsWith('a')"
        ]
    );
}

#[test]
fn item_11_a_huge_range_stops_validation_with_the_cost_error() {
    // cel-go has no size cap on lists.range: the per-call cost limit stops it, and with
    // it every later rule.
    let r = resource(spec_schema(json!({
        "type": "object",
        "x-kubernetes-validations": [
            {"rule": "lists.range(2000000).size() > 0"},
            {"rule": "false", "message": "not reached"},
        ],
    })));
    assert_eq!(
        errors(&r, &object(json!({"spec": {}})), None),
        [
            "spec: Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: lists.range(2000000).size() > 0"
        ]
    );
}

#[test]
fn per_call_cost_limit_stops_validation() {
    let r = resource(spec_schema(json!({
        "type": "object",
        "properties": {"l": {"type": "array", "items": {"type": "integer"}}},
        "x-kubernetes-validations": [
            {"rule": "self.l.all(a, self.l.all(b, self.l.all(c, a + b + c >= 0)))"},
            {"rule": "false", "message": "not reached"},
        ],
    })));
    let l: Vec<i64> = (0..200).collect();
    assert_eq!(
        errors(&r, &object(json!({"spec": {"l": l}})), None),
        [
            "spec: Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.l.all(a, self.l.all(b, self.l.all(c, a + b + c >= 0)))"
        ]
    );
}

#[test]
fn blocking_errors_replace_the_rules() {
    let r = resource(spec_schema(json!({
        "type": "object",
        "required": ["name"],
        "properties": {"name": {"type": "string"}, "x": {"type": "integer", "maximum": 5}},
        "x-kubernetes-validations": [{"rule": "false"}],
    })));
    assert_eq!(
        errors(&r, &object(json!({"spec": {"x": 1}})), None),
        [
            "spec.name: Required value",
            "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        ]
    );
    // A non-blocking error (maximum) lets the rules run.
    assert_eq!(
        errors(&r, &object(json!({"spec": {"name": "n", "x": 9}})), None),
        [
            "spec.x: Invalid value: 9: spec.x in body should be less than or equal to 5",
            "spec: Invalid value: failed rule: false",
        ]
    );
}

#[test]
fn rules_see_defaults_and_not_nulls() {
    let r = resource(spec_schema(json!({
        "type": "object",
        "properties": {
            "x": {"type": "integer", "default": 7},
            "n": {"type": "string", "nullable": true, "x-kubernetes-validations": [{"rule": "false"}]},
        },
        "x-kubernetes-validations": [{"rule": "self.x == 7", "message": "x defaulted"}],
    })));
    assert!(errors(&r, &object(json!({"spec": {"n": null}})), None).is_empty());
    assert_eq!(
        errors(&r, &object(json!({"spec": {"x": 1}})), None),
        ["spec: Invalid value: x defaulted"]
    );
}

#[test]
fn resource_root_rules_report_at_nil() {
    let r = resource(json!({
        "type": "object",
        "properties": {"value": {"type": "integer"}, "other": {"type": "integer"}},
        "x-kubernetes-validations": [{
            "rule": "!has(self.other) || self.other % self.value == 0",
            "message": "Other must be a multiple of value",
        }, {"rule": "self.metadata.name == 'w'"}],
    }));
    assert_eq!(
        errors(&r, &object(json!({"value": 3, "other": 8})), None),
        ["<nil>: Invalid value: Other must be a multiple of value"]
    );
}

#[test]
fn transition_rules_run_on_update_with_the_correlated_old_value() {
    let r = resource(spec_schema(json!({
        "type": "object",
        "properties": {
            "x": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "x is immutable"}]},
            "ports": {
                "type": "array",
                "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["name"],
                "items": {"type": "object", "required": ["name"], "properties": {
                    "name": {"type": "string"},
                    "port": {"type": "integer", "x-kubernetes-validations": [{"rule": "self >= oldSelf"}]},
                }},
            },
            "y": {"type": "integer", "x-kubernetes-validations": [{
                "rule": "!oldSelf.hasValue() || self >= oldSelf.value()",
                "optionalOldSelf": true,
                "message": "y may not decrease",
            }]},
        },
    })));
    let new = object(
        json!({"spec": {"x": "b", "y": 1, "ports": [{"name": "a", "port": 1}, {"name": "new", "port": 0}]}}),
    );
    // On create only the optionalOldSelf rule runs (and holds).
    assert!(errors(&r, &new, None).is_empty());
    let old = object(
        json!({"spec": {"x": "a", "y": 2, "ports": [{"name": "z", "port": 9}, {"name": "a", "port": 5}]}}),
    );
    assert_eq!(
        errors(&r, &new, Some(&old)),
        [
            "spec.ports[0].port: Invalid value: 1: failed rule: self >= oldSelf",
            "spec.x: Invalid value: \"b\": x is immutable",
            "spec.y: Invalid value: 1: y may not decrease",
        ]
    );
}

#[test]
fn failures_on_unchanged_parts_are_ratcheted_on_update() {
    let r = resource(spec_schema(json!({
        "type": "object",
        "properties": {
            "a": {"type": "integer", "x-kubernetes-validations": [{"rule": "self > 10"}]},
            "b": {"type": "integer", "x-kubernetes-validations": [{"rule": "self > 10"}]},
            "l": {"type": "array", "items": {"type": "integer", "x-kubernetes-validations": [{"rule": "self > 10"}]}},
        },
    })));
    let old = object(json!({"spec": {"a": 1, "b": 1, "l": [1]}}));
    let new = object(json!({"spec": {"a": 1, "b": 2, "l": [1]}}));
    // a and the atomic list (through its unchanged ancestor) are unchanged: only b fails.
    assert_eq!(
        errors(&r, &new, Some(&old)),
        ["spec.b: Invalid value: 2: failed rule: self > 10"]
    );
    let new = object(json!({"spec": {"a": 1, "b": 1, "l": [1, 2]}}));
    assert_eq!(
        errors(&r, &new, Some(&old)),
        [
            "spec.l[0]: Invalid value: 1: failed rule: self > 10",
            "spec.l[1]: Invalid value: 2: failed rule: self > 10",
        ]
    );
}

#[test]
fn rules_that_do_not_compile_are_reported_at_runtime() {
    // `from_crd_schema` does not run the CRD checks, which would refuse this schema.
    let r = resource(spec_schema(json!({
        "type": "object",
        "x-kubernetes-validations": [{"rule": "self.nosuch == 1"}, {"rule": "1"}],
    })));
    let got = errors(&r, &object(json!({"spec": {}})), None);
    assert_eq!(got.len(), 2);
    assert!(
        got[0].starts_with(
            "spec: Invalid value: \"object\": rule compile error: compilation failed: ERROR: <input>:1:5: undefined field 'nosuch'"
        ),
        "{got:?}"
    );
    assert_eq!(
        got[1],
        "spec: Invalid value: \"object\": rule compile error: cel expression must evaluate to a bool"
    );
}

/// The Widget of the CLI workload: its five rules, each failing once.
#[test]
fn widget_rules_each_fail_once() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    let crd = std::fs::read(format!("{root}testdata/cli-workload/crds/widget-crd.yaml")).unwrap();
    let mut set = SchemaSet::new();
    set.add_crds("widget-crd.yaml", &crd).unwrap();
    let r = set.resource("anchor.example.com/v1", "Widget").unwrap();
    let valid = json!({
        "apiVersion": "anchor.example.com/v1", "kind": "Widget",
        "metadata": {"name": "w", "namespace": "ns"},
        "spec": {
            "name": "w", "replicas": 3, "minReplicas": 1, "maxReplicas": 5, "tier": "gold",
            "ports": [{"name": "http", "protocol": "TCP", "port": 80}],
            "endpoint": "https://example.com/x",
            "tags": ["tag-a"],
            "resources": {"cpuMillis": 100, "memoryMiB": 64, "limits": {"cpuMillis": 200, "memoryMiB": 128}},
        },
    });
    assert!(
        errors(&r, &valid, None).is_empty(),
        "{:?}",
        errors(&r, &valid, None)
    );
    let with = |path: &[&str], v: Value| {
        let mut o = valid.clone();
        let mut cur = &mut o["spec"];
        for p in &path[..path.len() - 1] {
            cur = &mut cur[*p];
        }
        cur[path[path.len() - 1]] = v;
        o
    };
    for (o, want) in [
        (
            {
                let mut o = with(&["minReplicas"], json!(6));
                o["spec"].as_object_mut().map(|s| s.remove("replicas"));
                o
            },
            vec!["spec: Invalid value: minReplicas must be <= maxReplicas"],
        ),
        (
            with(&["replicas"], json!(9)),
            vec!["spec: Invalid value: replicas must lie within [minReplicas, maxReplicas]"],
        ),
        (
            with(&["endpoint"], json!("http://example.com")),
            vec![
                "spec.endpoint: Invalid value: \"http://example.com\": endpoint must be an https URL",
            ],
        ),
        (
            with(&["tags"], json!(["tag-a", "b"])),
            vec!["spec.tags: Invalid value: every tag must start with 'tag-'"],
        ),
        (
            with(&["resources", "limits", "cpuMillis"], json!(50)),
            vec!["spec.resources: Invalid value: limits must be >= requests"],
        ),
    ] {
        assert_eq!(errors(&r, &o, None), want);
    }
}

#[test]
fn without_ratcheting_failures_on_unchanged_parts_and_optional_old_self_on_create() {
    let r = resource(spec_schema(json!({
        "type": "object",
        "properties": {
            "a": {"type": "integer", "x-kubernetes-validations": [{"rule": "self > 10"}]},
            "b": {"type": "integer", "x-kubernetes-validations": [
                {"rule": "oldSelf.hasValue()", "optionalOldSelf": true, "message": "no old value"}]},
        },
    })));
    let off = Options {
        unknown_fields: UnknownFields::Warn,
        ratcheting: Some(false),
        ..Options::default()
    };
    let old = object(json!({"spec": {"a": 1}}));
    let texts = |o: Outcome| -> Vec<String> { o.errors.iter().map(ToString::to_string).collect() };
    // The CRDValidationRatcheting gate off: unchanged failures stay errors.
    assert_eq!(
        texts(r.validate(&old, Some(&old), &off)),
        ["spec.a: Invalid value: 1: failed rule: self > 10"]
    );
    assert!(errors(&r, &old, Some(&old)).is_empty());
    // ... and `optionalOldSelf` rules do not run on create.
    let new = object(json!({"spec": {"a": 11, "b": 1}}));
    assert!(texts(r.validate(&new, None, &off)).is_empty());
    assert_eq!(
        errors(&r, &new, None),
        ["spec.b: Invalid value: 1: no old value"]
    );
}

#[test]
fn all_of_rules_run_unless_only_all_of_entries_have_rules() {
    let with_root_rule = spec_schema(json!({
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "x-kubernetes-validations": [{"rule": "true"}],
        "allOf": [{"properties": {"a": {"x-kubernetes-validations": [{"rule": "self > 10"}]}}}],
    }));
    let r = resource(with_root_rule);
    let new = object(json!({"spec": {"a": 1}}));
    assert_eq!(
        errors(&r, &new, None),
        ["spec.a: Invalid value: 1: failed rule: self > 10"]
    );
    // `NewValidator`: no validator when no rule is written outside `allOf` entries.
    let only_all_of = spec_schema(json!({
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "allOf": [{"properties": {"a": {"x-kubernetes-validations": [{"rule": "self > 10"}]}}}],
    }));
    assert!(errors(&resource(only_all_of), &new, None).is_empty());
}
