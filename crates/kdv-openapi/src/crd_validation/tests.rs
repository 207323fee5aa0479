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

fn opts_from(v: &Value) -> Opts {
    let flag = |k: &str| v[k].as_bool().unwrap_or(false);
    Opts {
        allow_defaults: flag("allowDefaults"),
        require_valid_property_type: flag("requireValidPropertyType"),
        require_structural_schema: flag("requireStructuralSchema"),
        require_pruned_defaults: flag("requirePrunedDefaults"),
        require_atomic_set_type: flag("requireAtomicSetType"),
        require_map_list_keys_map_set_validation: flag("requireMapListKeysMapSetValidation"),
        kubernetes_minor: DEFAULT_KUBERNETES_MINOR,
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
    // Every transcribed case runs except the one expecting CEL rules run on defaults.
    assert_eq!((passed, skipped), (117, 1));
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
