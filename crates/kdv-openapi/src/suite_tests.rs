//! The JSON-Schema-Test-Suite fixtures kube-openapi's validator is tested with
//! (`testdata/kube-openapi-jsonschema-suite`): every datum is valid exactly when the suite
//! says so. Schemas using a keyword a structural schema cannot have (and kdv does not
//! compile) are skipped and counted.

use std::path::Path;

use serde_json::{Map, Value};

use crate::validate::{Errs, OPath, St, Validator};

const UNSUPPORTED: [&str; 5] = [
    "$ref",
    "additionalItems",
    "dependencies",
    "patternProperties",
    "definitions",
];

fn uses_unsupported(schema: &Value) -> bool {
    match schema {
        Value::Object(m) => m.iter().any(|(k, v)| {
            UNSUPPORTED.contains(&k.as_str())
                || (k == "items" && v.is_array())
                || if k == "properties" || k == "enum" || k == "default" {
                    match v {
                        Value::Object(props) if k == "properties" => {
                            props.values().any(uses_unsupported)
                        }
                        _ => false,
                    }
                } else {
                    uses_unsupported(v)
                }
        }),
        Value::Array(items) => items.iter().any(uses_unsupported),
        _ => false,
    }
}

/// The datum as kube-openapi's test decodes it: `encoding/json` into `interface{}` makes every
/// number a `float64` (the API server's decoder keeps integers as `int64`, which changes the
/// verdict of `multipleOf: 1.5` on `35`, for one).
fn as_go_test_decodes(v: &Value) -> Value {
    match v {
        Value::Number(n) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        Value::Array(items) => Value::Array(items.iter().map(as_go_test_decodes).collect()),
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), as_go_test_decodes(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[test]
fn json_schema_suite_verdicts() {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/kube-openapi-jsonschema-suite");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("suite directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 23);
    let (mut passed, mut skipped) = (0, 0);
    let mut failures = Vec::new();
    for file in files {
        let groups: Vec<Value> =
            serde_json::from_slice(&std::fs::read(&file).expect("read")).expect("JSON");
        for group in groups {
            let schema = &group["schema"];
            let tests = group["tests"].as_array().expect("tests");
            if uses_unsupported(schema) {
                skipped += tests.len();
                continue;
            }
            let mut defs = Map::new();
            defs.insert("s".into(), schema.clone());
            let (arena, root) = crate::openapi::compile_definition(&defs, "s", false)
                .unwrap_or_else(|e| panic!("{}: {}", file.display(), e.message));
            for t in tests {
                let mut errs = Errs::new();
                let raw = St {
                    node: None,
                    resource: false,
                };
                let data = as_go_test_decodes(&t["data"]);
                Validator { arena: &arena }.schema(root, &data, raw, &OPath::Root, 0, &mut errs);
                let valid = errs.into_list().is_empty();
                if valid == t["valid"].as_bool().expect("valid") {
                    passed += 1;
                } else {
                    failures.push(format!(
                        "{}: {} / {}",
                        file.file_name().unwrap_or_default().to_string_lossy(),
                        group["description"],
                        t["description"]
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!((passed, skipped), (217, 20));
}
