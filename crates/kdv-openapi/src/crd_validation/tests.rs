//! Tests of the CRD write-time checks: upstream's test tables (transcribed as data in
//! `tests/data/`), and exact texts per check.

use kdv_runtime::{ErrorList, FieldPath};
use serde_json::{Value, json};

use super::*;

/// Upstream's `validationMatch`: an error type, a path and a text the error contains.
struct Expected {
    error_type: String,
    field: String,
    contains: String,
}

fn expected(v: &Value) -> Vec<Expected> {
    v.as_array()
        .map(|list| {
            list.iter()
                .map(|e| Expected {
                    error_type: e["type"].as_str().unwrap_or_default().to_owned(),
                    field: e["field"].as_str().unwrap_or_default().to_owned(),
                    contains: e["contains"].as_str().unwrap_or_default().to_owned(),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Upstream's matcher: every expectation matches a distinct error, and no error is left.
fn mismatches(got: &ErrorList, want: &[Expected]) -> Vec<String> {
    let mut seen = vec![false; got.len()];
    let mut out = Vec::new();
    for w in want {
        let found = got.iter().enumerate().position(|(i, e)| {
            !seen[i]
                && e.error_type.as_str() == w.error_type
                && e.field.to_string() == w.field
                && e.to_string().contains(&w.contains)
        });
        match found {
            Some(i) => seen[i] = true,
            None => out.push(format!("missing {} at {}", w.error_type, w.field)),
        }
    }
    for (i, s) in seen.iter().enumerate() {
        if !s {
            out.push(format!("unexpected: {}", got[i]));
        }
    }
    out
}

fn opts_from(v: &Value) -> Opts<'static> {
    let flag = |k: &str| v[k].as_bool().unwrap_or(false);
    Opts {
        allow_defaults: flag("allowDefaults"),
        require_valid_property_type: flag("requireValidPropertyType"),
        require_structural_schema: flag("requireStructuralSchema"),
        require_pruned_defaults: flag("requirePrunedDefaults"),
        require_atomic_set_type: flag("requireAtomicSetType"),
        require_map_list_keys_map_set_validation: flag("requireMapListKeysMapSetValidation"),
        // `MustBaseEnvSet(1.N)`: NewExpressions of compatibility version 1.N, the release
        // 1.(N+1)'s.
        kubernetes_minor: v["compatibilityVersion"]
            .as_str()
            .and_then(|s| s.strip_prefix("1."))
            .and_then(|m| m.parse::<u32>().ok())
            .map_or(DEFAULT_KUBERNETES_MINOR, |m| m + 1),
        type_rules: false,
        compiled: None,
    }
}

/// `TestValidateCustomResourceDefinitionValidation`: `validateCustomResourceDefinitionValidation`
/// with the case's options, at `spec.validation`.
#[test]
fn upstream_schema_validation_table() {
    let data: Value = serde_json::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/upstream_crd_schema_validation.json"
    )))
    .expect("valid JSON");
    let (mut passed, mut skipped) = (0, 0);
    let mut failures = Vec::new();
    for case in data["cases"].as_array().expect("cases") {
        let name = case["name"].as_str().unwrap_or_default();
        if case.get("skip").is_some() {
            skipped += 1;
            continue;
        }
        let crd = json!({"spec": {"versions": [{"name": "v", "schema": {"openAPIV3Schema": case["schema"]}}]}});
        let decoded = match decode::decode(&crd) {
            Ok(d) => d,
            Err(e) => {
                failures.push(format!("{name}: does not decode: {}", e.message));
                continue;
            }
        };
        let mut got = ErrorList::new();
        schema::validate_validation(
            decoded.crd.spec.validation.as_ref(),
            case["statusEnabled"].as_bool().unwrap_or(false),
            &opts_from(&case["opts"]),
            &FieldPath::new("spec").child("validation"),
            &mut got,
        );
        let m = mismatches(&got, &expected(&case["expected"]));
        if m.is_empty() {
            passed += 1;
        } else {
            failures.push(format!("{name}: {}", m.join("; ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Every transcribed case runs.
    assert_eq!((passed, skipped), (120, 0));
}

/// Runs a transcribed table of whole CRDs: `ValidateCustomResourceDefinition` of the internal
/// object each v1 CRD converts to, with the case's stored versions and accepted names.
fn run_crd_table(data: &str) -> (usize, usize, Vec<String>) {
    let data: Value = serde_json::from_str(data).expect("valid JSON");
    let (mut passed, mut skipped) = (0, 0);
    let mut failures = Vec::new();
    for case in data["cases"].as_array().expect("cases") {
        let name = case["name"].as_str().unwrap_or_default();
        if case.get("skip").is_some() {
            skipped += 1;
            continue;
        }
        let mut decoded = match decode::decode(&case["crd"]) {
            Ok(d) => d,
            Err(e) => {
                failures.push(format!("{name}: does not decode: {}", e.message));
                continue;
            }
        };
        decoded.crd.stored_versions = case["storedVersions"]
            .as_array()
            .map(|l| {
                l.iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        let accepted = &case["acceptedNames"];
        let text = |k: &str| accepted[k].as_str().unwrap_or_default().to_owned();
        let list = |k: &str| {
            accepted[k]
                .as_array()
                .map(|l| {
                    l.iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default()
        };
        decoded.crd.accepted_names = model::Names {
            plural: text("plural"),
            singular: text("singular"),
            short_names: list("shortNames"),
            kind: text("kind"),
            list_kind: text("listKind"),
            categories: list("categories"),
        };
        let got = validate_internal(&decoded.crd, &Opts::create(DEFAULT_KUBERNETES_MINOR));
        let m = mismatches(&got, &expected(&case["expected"]));
        if m.is_empty() {
            passed += 1;
        } else {
            failures.push(format!("{name}: {}", m.join("; ")));
        }
    }
    (passed, skipped, failures)
}

/// `TestValidateCustomResourceDefinition`.
#[test]
fn upstream_crd_validation_table() {
    let (passed, skipped, failures) = run_crd_table(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/upstream_crd_validation.json"
    )));
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!((passed, skipped), (50, 0));
}

/// `TestSelectableFields`.
#[test]
fn upstream_selectable_fields_table() {
    let (passed, skipped, failures) = run_crd_table(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/upstream_crd_selectable_fields.json"
    )));
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!((passed, skipped), (4, 0));
}

/// The CEL checks' texts (`cel_validation.go`, `validation.go`).
#[test]
fn cel_check_texts() {
    let run = |schema: Value| -> Vec<String> {
        let crd =
            json!({"spec": {"versions": [{"name": "v", "schema": {"openAPIV3Schema": schema}}]}});
        let decoded = decode::decode(&crd).expect("decodes");
        let mut got = ErrorList::new();
        let opts = Opts::create(DEFAULT_KUBERNETES_MINOR);
        schema::validate_validation(
            decoded.crd.spec.validation.as_ref(),
            false,
            &opts,
            &FieldPath::new("spec").child("validation"),
            &mut got,
        );
        got.iter().map(ToString::to_string).collect()
    };
    let got = run(
        json!({"type": "object", "x-kubernetes-validations": [{"rule": "self.unknownProp > 0"}]}),
    );
    assert_eq!(got.len(), 1);
    assert!(
        got[0].starts_with(
            "spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: {\"Rule\":\"self.unknownProp \\u003e 0\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}: compilation failed: ERROR: <input>:1:5: undefined field 'unknownProp'"
        ),
        "{got:?}"
    );
    assert_eq!(
        run(
            json!({"type": "object", "properties": {"v": {"type": "string",
            "x-kubernetes-validations": [{"rule": "self == 'a'", "optionalOldSelf": true}]}}})
        ),
        [
            "spec.validation.openAPIV3Schema.properties[v].x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule"
        ]
    );
    assert_eq!(
        run(
            json!({"type": "object", "properties": {"v": {"type": "array", "items": {"type": "string",
            "maxLength": 10, "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}}}})
        ),
        [
            "spec.validation.openAPIV3Schema.properties[v].items.x-kubernetes-validations[0].rule: Invalid value: \"self == oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[v]"
        ]
    );
    assert_eq!(
        run(
            json!({"type": "object", "properties": {"f": {"type": "string",
            "x-kubernetes-validations": [{"rule": "self == 'x'", "messageExpression": "256"}]}}})
        ),
        [
            "spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0].messageExpression: Invalid value: {\"Rule\":\"self == 'x'\",\"Message\":\"\",\"MessageExpression\":\"256\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}: messageExpression must evaluate to a string"
        ]
    );
    let got = run(
        json!({"type": "object", "properties": {"value": {"type": "array", "items": {
        "type": "object", "additionalProperties": {"type": "object", "required": ["key"],
        "properties": {"key": {"type": "string"}}}},
        "x-kubernetes-validations": [{"rule": "self.all(x, x.all(y, x[y].key == x[y].key))"}]}}}),
    );
    let budget = "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
    assert_eq!(
        got,
        [
            format!("spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x {budget}"),
            "spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema".to_owned(),
            format!("spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x {budget}"),
        ]
    );
}

/// The CEL rules on defaults (`structuraldefaulting.validate`): under `<node>.default`, after
/// and only without the value validations' errors, a second run without old value.
#[test]
fn cel_rules_on_defaults() {
    let run = |schema: Value| -> Vec<String> {
        let crd =
            json!({"spec": {"versions": [{"name": "v", "schema": {"openAPIV3Schema": schema}}]}});
        let decoded = decode::decode(&crd).expect("decodes");
        let mut got = ErrorList::new();
        let opts = Opts::create(DEFAULT_KUBERNETES_MINOR);
        schema::validate_validation(
            decoded.crd.spec.validation.as_ref(),
            false,
            &opts,
            &FieldPath::new("spec").child("validation"),
            &mut got,
        );
        got.iter().map(ToString::to_string).collect()
    };
    let p = "spec.validation.openAPIV3Schema.properties";
    // validation_test.go "invalid default with x-kubernetes-validations", with the texts.
    let data: Value = serde_json::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/upstream_crd_schema_validation.json"
    )))
    .expect("valid JSON");
    let case = data["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .find(|c| c["name"] == "invalid default with x-kubernetes-validations")
        .expect("the case is transcribed");
    assert_eq!(
        run(case["schema"].clone()),
        [
            format!(
                "{p}[embedded].properties[metadata].properties[name].default: Invalid value: \"nope\": failed rule: self == 'singleton'"
            ),
            format!("{p}[object].default: Invalid value: failed rule: self.field1 < self.field2"),
            format!(
                "{p}[value].default: Invalid value: \"nope\": failed rule: self.startsWith('kube')"
            ),
        ]
    );
    // Value validations first: their errors keep the rules from running.
    assert_eq!(
        run(
            json!({"type": "object", "properties": {"v": {"type": "string", "maxLength": 2,
            "default": "nope", "x-kubernetes-validations": [{"rule": "self == 'ok'"}]}}})
        ),
        [format!(
            "{p}[v].default: Too long: may not be more than 2 bytes"
        )]
    );
    // Rules below the node run on the default too, with messages and field paths.
    assert_eq!(
        run(
            json!({"type": "object", "properties": {"o": {"type": "object",
            "default": {"a": "x"}, "properties": {"a": {"type": "string",
            "x-kubernetes-validations": [{"rule": "self == 'y'", "message": "must be y"}]}},
            "x-kubernetes-validations": [{"rule": "self.a == 'z'", "fieldPath": ".a", "reason": "FieldValueForbidden"}]}}})
        ),
        [
            format!("{p}[o].default.a: Forbidden: failed rule: self.a == 'z'"),
            format!("{p}[o].default.a: Invalid value: \"x\": must be y"),
        ]
    );
    // A transition rule passes with the default as its old value and does not run
    // without one; with optionalOldSelf it runs again without old value.
    assert_eq!(
        run(
            json!({"type": "object", "properties": {"v": {"type": "string", "default": "nope",
            "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}}})
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        run(
            json!({"type": "object", "properties": {"v": {"type": "string", "default": "nope",
            "x-kubernetes-validations": [{"rule": "oldSelf.hasValue() || self == 'ok'",
            "optionalOldSelf": true}]}}})
        ),
        [format!(
            "{p}[v].default: Invalid value: \"nope\": failed rule: oldSelf.hasValue() || self == 'ok'"
        )]
    );
}

/// All defaults of a schema share one runtime budget (`RuntimeCELCostBudget`); when it runs
/// out the rule says so and no further default is checked.
#[test]
fn cel_rules_on_defaults_share_one_budget() {
    let mut props = serde_json::Map::new();
    let list: Vec<Value> = (0..300).map(|_| json!("a")).collect();
    for i in 0..40 {
        props.insert(
            format!("p{i:02}"),
            json!({"type": "array", "maxItems": 300, "items": {"type": "string", "maxLength": 1},
                "default": list,
                "x-kubernetes-validations": [{"rule": "self.all(x, self.all(y, x == y))"}]}),
        );
    }
    // Checked last (properties in name order): never reached.
    props.insert(
        "zz".into(),
        json!({"type": "string", "default": "nope",
            "x-kubernetes-validations": [{"rule": "self == 'ok'"}]}),
    );
    let schema = json!({"type": "object", "properties": props});
    let crd = json!({"spec": {"versions": [{"name": "v", "schema": {"openAPIV3Schema": schema}}]}});
    let decoded = decode::decode(&crd).expect("decodes");
    let mut got = ErrorList::new();
    schema::validate_validation(
        decoded.crd.spec.validation.as_ref(),
        false,
        &Opts::create(DEFAULT_KUBERNETES_MINOR),
        &FieldPath::new("spec").child("validation"),
        &mut got,
    );
    let got: Vec<String> = got.iter().map(ToString::to_string).collect();
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].starts_with("spec.validation.openAPIV3Schema.properties[p")
            && got[0].ends_with(
                "].default: Invalid value: \"array\": validation failed due to running out of cost budget, no further validation rules will be run"
            ),
        "{got:?}"
    );
}

/// Rules in `allOf` entries (and `anyOf`, `oneOf`, `not`): a CRD may not have them
/// (`ValidateStructural` runs with `AllowNestedXValidations: false`: `must be empty to be
/// structural`), their static checks still apply, and they are never compiled at CRD write
/// time (upstream validates those entries with no CEL context), so no compile error or cost
/// of theirs is reported. (The validator runs `allOf` rules for upstream's own tests and
/// for schemas that are not CRDs.)
#[test]
fn rules_in_all_of_are_forbidden_and_not_compiled() {
    let run = |schema: Value| -> Vec<String> {
        let crd =
            json!({"spec": {"versions": [{"name": "v", "schema": {"openAPIV3Schema": schema}}]}});
        let decoded = decode::decode(&crd).expect("decodes");
        let mut got = ErrorList::new();
        schema::validate_validation(
            decoded.crd.spec.validation.as_ref(),
            false,
            &Opts::create(DEFAULT_KUBERNETES_MINOR),
            &FieldPath::new("spec").child("validation"),
            &mut got,
        );
        got.iter().map(ToString::to_string).collect()
    };
    let p = "spec.validation.openAPIV3Schema.properties[v]";
    let structural = "x-kubernetes-validations: Forbidden: must be empty to be structural";
    // Would not compile (undefined field, not a bool, oldSelf in an atomic list's items).
    assert_eq!(
        run(
            json!({"type": "object", "properties": {"v": {"type": "object",
            "properties": {"a": {"type": "string"}, "l": {"type": "array", "items": {"type": "string"}}},
            "allOf": [
                {"x-kubernetes-validations": [{"rule": "self.nosuch == 1"}, {"rule": "1"}]},
                {"properties": {"l": {"items": {"x-kubernetes-validations": [{"rule": "self == oldSelf"}]}}}}
            ],
            "anyOf": [{"x-kubernetes-validations": [{"rule": "self.nosuch"}]}],
            "not": {"x-kubernetes-validations": [{"rule": "self.nosuch"}]}}}})
        ),
        [
            format!("{p}.allOf[0].{structural}"),
            format!("{p}.allOf[1].properties[l].items.{structural}"),
            format!("{p}.anyOf[0].{structural}"),
            format!("{p}.not.{structural}"),
        ]
    );
    // The static checks apply.
    assert_eq!(
        run(
            json!({"type": "object", "properties": {"v": {"type": "object",
            "properties": {"a": {"type": "string"}},
            "allOf": [{"properties": {"a": {}}, "x-kubernetes-validations": [
                {"rule": " "},
                {"rule": "true", "reason": "Nope"},
                {"rule": "true", "fieldPath": ".b"},
                {"rule": "true", "fieldPath": ".a"}
            ]}]}}})
        ),
        [
            format!("{p}.allOf[0].{structural}"),
            format!(
                "{p}.allOf[0].x-kubernetes-validations[0].rule: Required value: rule is not specified"
            ),
            format!(
                "{p}.allOf[0].x-kubernetes-validations[1].reason: Unsupported value: \"Nope\": supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\""
            ),
            format!(
                "{p}.allOf[0].x-kubernetes-validations[2].fieldPath: Invalid value: \".b\": must be a valid path"
            ),
        ]
    );
}

#[test]
fn the_cel_checks_keep_each_schema_they_compile_for_the_loader() {
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "names": {"kind": "Widget", "plural": "widgets", "singular": "widget", "listKind": "WidgetList"},
            "scope": "Namespaced",
            "versions": [
                {"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "x-kubernetes-validations": [{"rule": "has(self.spec)"}],
                    "properties": {"spec": {"type": "object"}}
                }}},
                {"name": "v2", "served": true, "storage": false, "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "properties": {"spec": {"type": "object"}}
                }}}
            ]
        }
    });
    let compiled = CompiledSchemas::default();
    let findings = validate_crd_keeping(&crd, DEFAULT_KUBERNETES_MINOR, Some(&compiled));
    assert!(findings.errors.is_empty(), "{:?}", findings.errors);
    // The version with rules was compiled for them, and the loader finds it by the same
    // value; the version without rules was not compiled.
    let v1 = crd
        .pointer("/spec/versions/0/schema/openAPIV3Schema")
        .unwrap();
    let v2 = crd
        .pointer("/spec/versions/1/schema/openAPIV3Schema")
        .unwrap();
    assert!(compiled.take(v2).is_none());
    assert!(compiled.take(v1).is_some());
    assert!(compiled.take(v1).is_none());
}
