//! Every kind of every embedded release loads and compiles as `kdv validate` uses it: all
//! documents of a release registered lazily in one `kdv_openapi::SchemaSet`, and every kind
//! a document declares for its own group-version (`x-kubernetes-group-version-kind`)
//! resolved to a compiled `Resource`.

use kdv_openapi::SchemaSet;
use serde_json::Value;

#[test]
fn every_kind_of_every_release_resolves() {
    let mut totals = Vec::new();
    for version in kdv_k8s_openapi::versions() {
        let mut set = SchemaSet::new();
        for doc in kdv_k8s_openapi::documents(version) {
            set.add_openapi_v3_lazy(
                doc.group_version(),
                doc.path(),
                Box::new(move || {
                    doc.load()
                        .map(std::borrow::Cow::Owned)
                        .map_err(|e| kdv_openapi::LoadError {
                            file: doc.path().to_string(),
                            line: 0,
                            column: 0,
                            message: e.to_string(),
                        })
                }),
            );
        }
        let mut kinds = 0;
        let mut failures = Vec::new();
        for doc in kdv_k8s_openapi::documents(version) {
            let json: Value = serde_json::from_slice(&doc.load().unwrap()).unwrap();
            let schemas = json["components"]["schemas"].as_object().unwrap();
            for (name, schema) in schemas {
                let Some(gvks) = schema["x-kubernetes-group-version-kind"].as_array() else {
                    continue;
                };
                for gvk in gvks {
                    let (group, gv_version, kind) = (
                        gvk["group"].as_str().unwrap(),
                        gvk["version"].as_str().unwrap(),
                        gvk["kind"].as_str().unwrap(),
                    );
                    let api_version = if group.is_empty() {
                        gv_version.to_string()
                    } else {
                        format!("{group}/{gv_version}")
                    };
                    if api_version != doc.group_version() {
                        continue;
                    }
                    kinds += 1;
                    match set.resource(&api_version, kind) {
                        Ok(resource) => {
                            assert_eq!(resource.kind(), kind);
                            assert_eq!(resource.api_version(), api_version);
                        }
                        Err(e) => failures.push(format!("{api_version} {kind} ({name}): {e}")),
                    }
                }
            }
        }
        assert!(
            failures.is_empty(),
            "{version}: {} of {kinds} kinds fail:\n{}",
            failures.len(),
            failures.join("\n")
        );
        assert!(kinds > 150, "{version}: only {kinds} kinds");
        totals.push(format!("{version}: {kinds}"));
    }
    println!("kinds resolved: {}", totals.join(", "));
}
