//! The embedded documents against `testdata/kubernetes-openapi`: for 1.35 (kept as
//! published) the same schemas without their description texts, the same paths with only
//! their `x-kubernetes-*` operation extensions; for the stored releases, the stored files
//! (reduced JSON, raw DEFLATE) as `FILES-v<X.Y>.tsv` lists them.

use std::path::PathBuf;

use serde_json::Value;
use sha2::{Digest, Sha256};

fn testdata() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/kubernetes-openapi")
}

fn published(version: &str, path: &str) -> Value {
    let file = testdata()
        .join(format!("v{version}"))
        .join(format!("{path}.json"));
    let text = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    serde_json::from_slice(&text).unwrap()
}

/// `embedded` is `source` less some string-valued `description` members.
fn same_but_descriptions(source: &Value, embedded: &Value, at: &str) {
    match (source, embedded) {
        (Value::Object(s), Value::Object(e)) => {
            for (k, v) in s {
                match e.get(k) {
                    Some(ev) => same_but_descriptions(v, ev, &format!("{at}.{k}")),
                    None => assert!(
                        k == "description" && v.is_string(),
                        "{at}.{k} is missing from the embedded document"
                    ),
                }
            }
            for k in e.keys() {
                assert!(s.contains_key(k), "{at}.{k} was added");
            }
        }
        (Value::Array(s), Value::Array(e)) => {
            assert_eq!(s.len(), e.len(), "{at}");
            for (i, (sv, ev)) in s.iter().zip(e).enumerate() {
                same_but_descriptions(sv, ev, &format!("{at}[{i}]"));
            }
        }
        _ => assert_eq!(source, embedded, "{at}"),
    }
}

fn has_string_description(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.iter().any(|(k, v)| {
            (k == "description" && v.is_string()) || (k != "default" && has_string_description(v))
        }),
        Value::Array(a) => a.iter().any(has_string_description),
        _ => false,
    }
}

#[test]
fn every_document_is_the_published_one_shrunk() {
    let mut total = 0;
    for doc in kdv_k8s_openapi::documents("1.35") {
        let embedded: Value = serde_json::from_slice(&doc.load().unwrap()).unwrap();
        assert_eq!(serde_json::to_vec(&embedded).unwrap().len(), doc.len());
        let source = published("1.35", doc.path());
        assert_eq!(embedded["openapi"], source["openapi"], "{}", doc.path());
        same_but_descriptions(&source["components"], &embedded["components"], doc.path());
        assert!(
            !has_string_description(&embedded["components"]["schemas"]),
            "{}",
            doc.path()
        );
        // Every published path is kept, with its operations' extensions.
        let (Value::Object(src_paths), Value::Object(emb_paths)) =
            (&source["paths"], &embedded["paths"])
        else {
            panic!("{}: paths", doc.path())
        };
        assert_eq!(
            src_paths.keys().collect::<Vec<_>>(),
            emb_paths.keys().collect::<Vec<_>>()
        );
        for (p, item) in src_paths {
            for (method, operation) in item.as_object().unwrap() {
                let Some(op) = operation.as_object() else {
                    continue;
                };
                for (k, v) in op.iter().filter(|(k, _)| k.starts_with("x-kubernetes-")) {
                    assert_eq!(
                        &emb_paths[p][method][k],
                        v,
                        "{} {p} {method} {k}",
                        doc.path()
                    );
                }
                for k in emb_paths[p]
                    .get(method)
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                    .map(|(k, _)| k)
                {
                    assert!(k.starts_with("x-kubernetes-"), "{p} {method} {k}");
                }
            }
        }
        total += 1;
    }
    assert_eq!(total, 36);
}

#[test]
fn a_property_named_description_is_kept() {
    let doc = kdv_k8s_openapi::document("1.35", "apiextensions.k8s.io/v1").unwrap();
    let json: Value = serde_json::from_slice(&doc.load().unwrap()).unwrap();
    let props = &json["components"]["schemas"]["io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps"]
        ["properties"];
    assert_eq!(props["description"]["type"], "string");
    assert!(props["x-kubernetes-validations"].is_object());
}

#[test]
fn deployment_keeps_its_kind_and_scope() {
    let doc = kdv_k8s_openapi::document("1.35", "apps/v1").unwrap();
    let json: Value = serde_json::from_slice(&doc.load().unwrap()).unwrap();
    assert_eq!(
        json["components"]["schemas"]["io.k8s.api.apps.v1.Deployment"]["x-kubernetes-group-version-kind"],
        serde_json::json!([{"group": "apps", "kind": "Deployment", "version": "v1"}])
    );
    let create = &json["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments"]["post"];
    assert_eq!(create["x-kubernetes-action"], "post");
    assert_eq!(
        create["x-kubernetes-group-version-kind"]["kind"],
        "Deployment"
    );
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The release kept as published (checked above); every other embedded release is stored
/// reduced and compressed, so a new release is checked here without being named.
const PUBLISHED: &str = "1.35";

#[test]
fn every_stored_document_is_the_one_files_lists_and_the_one_embedded() {
    let stored: Vec<&str> = kdv_k8s_openapi::versions()
        .iter()
        .copied()
        .filter(|v| *v != PUBLISHED)
        .collect();
    assert!(stored.len() >= 6, "{stored:?}");
    for version in stored {
        let dir = testdata().join(format!("v{version}"));
        let files = std::fs::read_to_string(testdata().join(format!("FILES-v{version}.tsv")))
            .unwrap_or_else(|e| panic!("FILES-v{version}.tsv: {e}"));
        let mut lines = files.lines();
        assert_eq!(
            lines.next(),
            Some(
                "path\tpublished_bytes\tpublished_sha256\treduced_bytes\treduced_sha256\tstored_bytes"
            )
        );
        let mut listed = Vec::new();
        for line in lines {
            let columns: Vec<&str> = line.split('\t').collect();
            let [
                file,
                published_bytes,
                published_sha,
                reduced_bytes,
                reduced_sha,
                stored_bytes,
            ] = columns[..]
            else {
                panic!("FILES-v{version}.tsv: {line}")
            };
            let path = file.strip_suffix(".json.deflate").unwrap();
            let stored = std::fs::read(dir.join(file)).unwrap();
            assert_eq!(stored.len().to_string(), stored_bytes, "{version} {file}");
            let json = miniz_oxide::inflate::decompress_to_vec(&stored).unwrap();
            assert_eq!(json.len().to_string(), reduced_bytes, "{version} {file}");
            assert_eq!(sha256_hex(&json), reduced_sha, "{version} {file}");
            let document: Value = serde_json::from_slice(&json).unwrap();
            assert_eq!(document["openapi"], "3.0.0", "{version} {file}");
            assert!(
                !has_string_description(&document["components"]["schemas"]),
                "{version} {file}"
            );
            // A release converted from the swagger v2 (1.36) has no published document.
            if published_bytes == "-" {
                assert_eq!(published_sha, "-", "{version} {file}");
            } else {
                assert!(published_bytes.parse::<usize>().unwrap() > json.len());
                assert_eq!(published_sha.len(), 64);
            }
            let embedded = kdv_k8s_openapi::documents(version)
                .find(|d| d.path() == path)
                .unwrap_or_else(|| panic!("{version} {path} is not embedded"));
            assert_eq!(embedded.load().unwrap(), json, "{version} {path}");
            listed.push(path.to_string());
        }
        let embedded: Vec<&str> = kdv_k8s_openapi::documents(version)
            .map(|d| d.path())
            .collect();
        assert_eq!(embedded, listed, "{version}");
    }
}

#[test]
fn every_release_has_the_core_kinds() {
    for version in kdv_k8s_openapi::versions() {
        let core = kdv_k8s_openapi::document(version, "v1").unwrap();
        let json: Value = serde_json::from_slice(&core.load().unwrap()).unwrap();
        let pod = &json["components"]["schemas"]["io.k8s.api.core.v1.Pod"];
        assert_eq!(
            pod["x-kubernetes-group-version-kind"],
            serde_json::json!([{"group": "", "kind": "Pod", "version": "v1"}]),
            "{version}"
        );
        // The defaults v3 carries (1.36's were rebuilt from the Go types).
        let port = &json["components"]["schemas"]["io.k8s.api.core.v1.ContainerPort"]["properties"];
        assert_eq!(port["protocol"]["default"], "TCP", "{version}");
        assert_eq!(port["containerPort"]["default"], 0, "{version}");
        let spec = &json["components"]["schemas"]["io.k8s.api.core.v1.PodSpec"]["properties"];
        assert_eq!(
            spec["containers"]["items"]["default"],
            serde_json::json!({}),
            "{version}"
        );
        assert_eq!(
            spec["containers"]["items"]["allOf"],
            serde_json::json!([{"$ref": "#/components/schemas/io.k8s.api.core.v1.Container"}]),
            "{version}"
        );
    }
}
