//! apiextensions-apiserver's `TestValidateCustomResource` table (transcribed as data in
//! `data/validate_custom_resource.json`): the schema's value validations
//! (`Resource::validate_values`, upstream's `ValidateCustomResource`) give exactly the
//! expected errors; the cases marked `cel` are its rows whose errors come from the schema's
//! CEL rules, run as upstream's test runs them (`cel.Validator` from the root path, with the
//! old object for transition rules). Upstream compares the errors as sets; so does this test,
//! and it also checks that no error is reported twice.

use std::collections::BTreeSet;

use kdv_openapi::Resource;
use kdv_openapi::cel::{RuleValidation, validate_rules};
use kdv_runtime::FieldPath;
use serde_json::Value;

#[test]
fn upstream_table() {
    let text = include_str!("data/validate_custom_resource.json");
    let doc: Value = serde_json::from_str(text).expect("valid JSON");
    let default_minor = doc["defaultCompatMinor"].as_u64().expect("minor") as u32;
    let mut checked = 0;
    let mut cel_checked = 0;
    for case in doc["cases"].as_array().expect("cases") {
        let name = case["name"].as_str().expect("name");
        let minor = case["compatMinor"]
            .as_u64()
            .map_or(default_minor, |m| m as u32);
        let r = Resource::from_crd_schema("example.com", "v1", "Test", &case["schema"], minor)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for obj in case["objects"].as_array().expect("objects") {
            let errs = r.validate_values(obj);
            assert!(errs.is_empty(), "{name}: {obj} gave {errs:?}");
            checked += 1;
        }
        for f in case["failing"].as_array().expect("failing") {
            let expected: BTreeSet<String> = f["errors"]
                .as_array()
                .expect("errors")
                .iter()
                .map(|e| e.as_str().expect("string").to_owned())
                .collect();
            let mut got: Vec<String> = r
                .validate_values(&f["object"])
                .iter()
                .map(ToString::to_string)
                .collect();
            if f["cel"].as_bool() == Some(true) {
                // The rule's error comes from CEL: no value validation may fail.
                assert!(got.is_empty(), "{name}: {got:?}");
                let options = RuleValidation {
                    resource_root: false,
                    root_path: FieldPath::root(),
                    ..RuleValidation::default()
                };
                let old = f.get("oldObject");
                let report = validate_rules(&r, &f["object"], old, &options)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                got = report.errors.iter().map(ToString::to_string).collect();
                cel_checked += 1;
            }
            let got_set: BTreeSet<String> = got.iter().cloned().collect();
            assert_eq!(got_set.len(), got.len(), "{name}: duplicates in {got:?}");
            assert_eq!(got_set, expected, "{name}: {}", f["object"]);
            checked += 1;
        }
    }
    assert_eq!((checked, cel_checked), (81, 3));
}
