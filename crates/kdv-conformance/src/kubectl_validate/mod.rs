//! The kubectl-validate test cases (`testdata/kubectl-validate`, from
//! kubernetes-sigs/kubectl-validate) run as its own test runs them
//! (`pkg/cmd/validate_test.go`): every document of every `testcases/manifests/*.yaml` file
//! validated as `kubectl-validate <file> --local-crds testcases/crds --schema-patches
//! schema-patches/1.23 --output json` would, against the embedded Kubernetes 1.35 schemas,
//! and the `metav1.Status` it would print compared with the one written in the document's
//! leading comment.

pub mod backend;
pub mod crds;
pub mod pipeline;
pub mod split;
pub mod status;
pub mod suite;
pub mod yamlv2;

use serde_json::{Map, Value};

/// Applies `patch` to `target` as an RFC 7386 JSON merge patch (objects merge member by
/// member, `null` removes a member, anything else, arrays included, replaces).
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(members) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    if let Value::Object(object) = target {
        for (key, value) in members {
            if value.is_null() {
                object.remove(key);
            } else {
                merge_patch(object.entry(key.clone()).or_insert(Value::Null), value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merge_patch_rfc_7386_examples() {
        // The examples of RFC 7386 §3 and appendix A.
        let cases = [
            (json!({"a": "b"}), json!({"a": "c"}), json!({"a": "c"})),
            (
                json!({"a": "b"}),
                json!({"b": "c"}),
                json!({"a": "b", "b": "c"}),
            ),
            (json!({"a": "b"}), json!({"a": null}), json!({})),
            (
                json!({"a": "b", "b": "c"}),
                json!({"a": null}),
                json!({"b": "c"}),
            ),
            (json!({"a": ["b"]}), json!({"a": "c"}), json!({"a": "c"})),
            (json!({"a": "c"}), json!({"a": ["b"]}), json!({"a": ["b"]})),
            (
                json!({"a": {"b": "c"}}),
                json!({"a": {"b": "d", "c": null}}),
                json!({"a": {"b": "d"}}),
            ),
            (
                json!({"a": [{"b": "c"}]}),
                json!({"a": [1]}),
                json!({"a": [1]}),
            ),
            (json!(["a", "b"]), json!(["c", "d"]), json!(["c", "d"])),
            (json!({"a": "b"}), json!(["c"]), json!(["c"])),
            (json!({"a": "foo"}), json!(null), json!(null)),
            (json!({"a": "foo"}), json!("bar"), json!("bar")),
            (
                json!({"e": null}),
                json!({"a": 1}),
                json!({"e": null, "a": 1}),
            ),
            (
                json!([1, 2]),
                json!({"a": "b", "c": null}),
                json!({"a": "b"}),
            ),
            (
                json!({}),
                json!({"a": {"bb": {"ccc": null}}}),
                json!({"a": {"bb": {}}}),
            ),
        ];
        for (mut target, patch, expected) in cases {
            merge_patch(&mut target, &patch);
            assert_eq!(target, expected, "patch {patch}");
        }
    }
}

#[cfg(test)]
mod data_tests {
    use std::path::{Path, PathBuf};

    use super::split::{expectation, yaml_documents};
    use super::status::Status;

    fn data() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/kubectl-validate")
    }

    /// The documents and expectations as the derived `EXPECTATIONS.json` lists them (it was
    /// cross-checked against a Go re-implementation of the upstream splitter).
    #[test]
    fn split_and_expectations_agree_with_the_index() {
        let index: serde_json::Value =
            serde_json::from_slice(&std::fs::read(data().join("EXPECTATIONS.json")).unwrap())
                .unwrap();
        let mut documents = 0;
        let mut errors = 0;
        for file in index["files"].as_array().unwrap() {
            let name = file["file"].as_str().unwrap();
            if file["skipped_by_upstream_harness"] == true {
                continue;
            }
            let text = std::fs::read(data().join("testcases").join(name)).unwrap();
            let docs = yaml_documents(&text).unwrap();
            let listed = file["documents"].as_array().unwrap();
            assert_eq!(docs.len(), listed.len(), "{name}");
            for (doc, entry) in docs.iter().zip(listed) {
                let got = expectation(doc).unwrap();
                let want = Status::from_json(&entry["expected"]).unwrap();
                assert_eq!(got, want, "{name}");
                assert_eq!(got.is_failure(), entry["expect_error"] == true, "{name}");
                documents += 1;
                errors += usize::from(got.is_failure());
            }
        }
        assert_eq!((documents, errors), (36, 22));
    }

    #[test]
    fn the_duplicate_key_case_is_on_line_24() {
        let text =
            std::fs::read(data().join("testcases/manifests/error_multiple_fields.yaml")).unwrap();
        let docs = yaml_documents(&text).unwrap();
        let doc = String::from_utf8(docs[0].clone()).unwrap();
        assert_eq!(
            super::yamlv2::duplicate_key_errors(&doc),
            ["line 24: key \"containers\" already set in map"]
        );
    }
}
