//! The embedded documents against the published ones in `testdata/kubernetes-openapi`: the
//! same schemas without their description texts, the same paths with only their
//! `x-kubernetes-*` operation extensions.

use std::path::PathBuf;

use serde_json::Value;

fn published(version: &str, path: &str) -> Value {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/kubernetes-openapi")
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
