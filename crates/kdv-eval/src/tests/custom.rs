//! `+k8s:customValidation` with and without a registry of functions.

use std::sync::{Arc, Mutex};

use kdv_runtime::BadValue;

use super::*;
use crate::{CustomCall, CustomRegistry, EvalOptions, validate_with};

const CUSTOM: &str = r#"
package p

// +k8s:customValidation
type Struct struct {
	// +k8s:customValidation
	StringField string `json:"stringField"`
	// +k8s:maxLength=3
	// +k8s:customValidation
	MaxLengthField string `json:"maxLengthField"`
	TypedefField StringType `json:"typedefField"`
	TypedefPtrField *StringType `json:"typedefPtrField"`
	TypedefSliceField []StringType `json:"typedefSliceField"`
	TypedefMapField map[string]StringType `json:"typedefMapField"`
	// +k8s:ifEnabled(FeatureX)=+k8s:customValidation
	Gated string `json:"gated"`
}

// +k8s:customValidation
type StringType string
"#;

/// A registry where every function reports its own name at the path it is called with.
fn registry(names: &[&'static str]) -> CustomRegistry {
    let mut reg = CustomRegistry::new();
    for &name in names {
        reg.register(name, move |c: &CustomCall<'_>| {
            vec![FieldError::invalid(c.path, BadValue::Null, name)]
        });
    }
    reg
}

const ALL: &[&str] = &[
    "ValidateCustom_Struct",
    "ValidateCustom_Struct_StringField",
    "ValidateCustom_Struct_MaxLengthField",
    "ValidateCustom_Struct_Gated",
    "ValidateCustom_StringType",
];

const VALUE: &str = r#"{"stringField": "s", "maxLengthField": "toolong", "typedefField": "t",
    "typedefPtrField": "p", "typedefSliceField": ["e"], "typedefMapField": {"k": "m"}}"#;

fn run_with(
    f: &Fixture,
    reg: &CustomRegistry,
    op: &Operation,
    new: &str,
    old: Option<&str>,
) -> Vec<String> {
    let id = f.rules.find_type("Struct").expect("type");
    let new: Value = serde_json::from_str(new).expect("json");
    let old: Option<Value> = old.map(|o| serde_json::from_str(o).expect("json"));
    let options = EvalOptions {
        custom_validators: Some(reg),
        ..Default::default()
    };
    render(&validate_with(
        &f.rules,
        id,
        op,
        &new,
        old.as_ref(),
        &options,
    ))
}

#[test]
fn custom_functions_run_where_upstream_calls_them() {
    let f = fixture(CUSTOM);
    let reg = registry(ALL);
    let op = Operation::create().with_option("FeatureX", false);
    assert_eq!(
        sorted(run_with(&f, &reg, &op, VALUE, None)),
        sorted(strs(&[
            "<nil>: Invalid value: null: ValidateCustom_Struct",
            "stringField: Invalid value: null: ValidateCustom_Struct_StringField",
            "maxLengthField: Too long: may not be more than 3 characters [maxLength]",
            "maxLengthField: Invalid value: null: ValidateCustom_Struct_MaxLengthField",
            "typedefField: Invalid value: null: ValidateCustom_StringType",
            "typedefPtrField: Invalid value: null: ValidateCustom_StringType",
            "typedefSliceField[0]: Invalid value: null: ValidateCustom_StringType",
            "typedefMapField[k]: Invalid value: null: ValidateCustom_StringType",
        ]))
    );
    // Unchanged fields are ratcheted; the root type's function always runs.
    let op = Operation::update().with_option("FeatureX", false);
    assert_eq!(
        run_with(&f, &reg, &op, VALUE, Some(VALUE)),
        strs(&["<nil>: Invalid value: null: ValidateCustom_Struct"])
    );
    // Gated by an option.
    let op = Operation::update().with_option("FeatureX", true);
    assert_eq!(
        run_with(&f, &reg, &op, r#"{"gated": "x"}"#, Some("{}")),
        strs(&[
            "<nil>: Invalid value: null: ValidateCustom_Struct",
            "gated: Invalid value: null: ValidateCustom_Struct_Gated",
        ])
    );
}

#[test]
fn without_a_registry_custom_validations_are_skipped() {
    let f = fixture(CUSTOM);
    let op = Operation::create().with_option("FeatureX", true);
    assert_eq!(
        render(&f.run("Struct", &op, VALUE, None)),
        strs(&["maxLengthField: Too long: may not be more than 3 characters [maxLength]"])
    );
}

#[test]
fn unregistered_functions_are_internal_errors() {
    let f = fixture(CUSTOM);
    let reg = registry(&[
        "ValidateCustom_Struct",
        "ValidateCustom_Struct_MaxLengthField",
        "ValidateCustom_StringType",
    ]);
    let op = Operation::create().with_option("FeatureX", false);
    assert_eq!(
        run_with(
            &f,
            &reg,
            &op,
            r#"{"stringField": "s", "maxLengthField": "m"}"#,
            None
        ),
        strs(&[
            "<nil>: Invalid value: null: ValidateCustom_Struct",
            "stringField: Internal error: no custom validation function ValidateCustom_Struct_StringField registered (package example.com/p)",
            "maxLengthField: Invalid value: null: ValidateCustom_Struct_MaxLengthField",
            "typedefField: Invalid value: null: ValidateCustom_StringType",
            // A nil pointer still reaches the type's function, as upstream (value nil).
            "typedefPtrField: Invalid value: null: ValidateCustom_StringType",
        ])
    );
}

#[test]
fn custom_functions_see_the_nilable_value_and_the_old_value() {
    let f = fixture(CUSTOM);
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let mut reg = CustomRegistry::new();
    for name in ALL {
        let seen = seen.clone();
        reg.register_in("example.com/p", *name, move |c: &CustomCall<'_>| {
            seen.lock().expect("lock").push(format!(
                "{} {} {} {:?} {:?}",
                c.function,
                c.package,
                c.path.to_path(),
                c.value.map(ToString::to_string),
                c.old_value.map(ToString::to_string),
            ));
            Vec::new()
        });
    }
    let op = Operation::update().with_option("FeatureX", false);
    let errs = run_with(
        &f,
        &reg,
        &op,
        r#"{"stringField": "new", "typedefPtrField": null}"#,
        Some(r#"{"typedefPtrField": "p"}"#),
    );
    assert!(errs.is_empty(), "{errs:?}");
    let mut seen = seen.lock().expect("lock").clone();
    seen.sort();
    assert_eq!(
        seen,
        strs(&[
            "ValidateCustom_StringType example.com/p typedefPtrField None Some(\"\\\"p\\\"\")",
            "ValidateCustom_Struct example.com/p <nil> Some(\"{\\\"stringField\\\":\\\"new\\\",\\\"typedefPtrField\\\":null}\") Some(\"{\\\"typedefPtrField\\\":\\\"p\\\"}\")",
            "ValidateCustom_Struct_StringField example.com/p stringField Some(\"\\\"new\\\"\") Some(\"\\\"\\\"\")",
        ])
    );
}
