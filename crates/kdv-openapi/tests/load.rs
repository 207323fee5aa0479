//! Every schema document of the project's test data loads: the Kubernetes 1.35 OpenAPI set
//! (every kind of every group-version compiles) and the CRDs of kubectl-validate's test
//! cases.

use std::path::{Path, PathBuf};

use kdv_openapi::{LookupError, SchemaSet};

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("test data directory") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// The group-version a file of the 1.35 set declares (`api/v1.json` → `v1`,
/// `apis/apps/v1.json` → `apps/v1`).
fn group_version(root: &Path, file: &Path) -> String {
    let rel = file
        .strip_prefix(root)
        .expect("below root")
        .with_extension("");
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    match parts.as_slice() {
        [api, v] if api == "api" => v.clone(),
        [apis, g, v] if apis == "apis" => format!("{g}/{v}"),
        other => panic!("unexpected layout {other:?}"),
    }
}

#[test]
fn every_kubernetes_1_35_kind_compiles() {
    let root = testdata().join("kubernetes-openapi/v1.35");
    let mut files = Vec::new();
    json_files(&root, &mut files);
    files.sort();
    assert_eq!(files.len(), 36, "the 1.35 set has 36 group-versions");
    let mut kinds = 0;
    for file in &files {
        let bytes = std::fs::read(file).expect("read");
        let gv = group_version(&root, file);
        let mut set = SchemaSet::new();
        set.add_openapi_v3(&file.display().to_string(), &bytes)
            .unwrap_or_else(|e| panic!("{e}"));
        let doc: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
        let schemas = doc["components"]["schemas"].as_object().expect("schemas");
        for def in schemas.values() {
            let Some(list) = def["x-kubernetes-group-version-kind"].as_array() else {
                continue;
            };
            for gvk in list {
                let (g, v, k) = (
                    gvk["group"].as_str().unwrap_or(""),
                    gvk["version"].as_str().unwrap_or(""),
                    gvk["kind"].as_str().unwrap_or(""),
                );
                let api_version = if g.is_empty() {
                    v.to_owned()
                } else {
                    format!("{g}/{v}")
                };
                if api_version != gv {
                    continue;
                }
                let r = set
                    .resource(&api_version, k)
                    .unwrap_or_else(|e| panic!("{}: {api_version} {k}: {e}", file.display()));
                assert_eq!(r.kind(), k);
                kinds += 1;
            }
        }
    }
    assert_eq!(kinds, 243, "kinds compiled");
}

#[test]
fn lazy_documents_and_lookup_errors() {
    let root = testdata().join("kubernetes-openapi/v1.35");
    let mut set = SchemaSet::new();
    let file = root.join("apis/apps/v1.json");
    set.add_openapi_v3_lazy(
        "apps/v1",
        "apps/v1.json",
        Box::new(move || {
            std::fs::read(&file)
                .map(std::borrow::Cow::Owned)
                .map_err(|e| kdv_openapi::LoadError {
                    file: "apps/v1.json".into(),
                    line: 0,
                    column: 0,
                    message: e.to_string(),
                })
        }),
    );
    let d = set.resource("apps/v1", "Deployment").expect("Deployment");
    assert_eq!(
        (d.group(), d.version(), d.kind()),
        ("apps", "v1", "Deployment")
    );
    assert_eq!(d.namespaced(), Some(true));
    match set.resource("apps/v1", "deployment") {
        Err(LookupError::UnknownKind { known, .. }) => {
            assert!(known.contains(&"Deployment".to_owned()), "{known:?}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        set.resource("apps/v1", "deployment")
            .unwrap_err()
            .to_string(),
        "kind \"deployment\" not found in apps/v1 (kinds: ControllerRevision, ControllerRevisionList, DaemonSet, DaemonSetList, DeleteOptions, Deployment, DeploymentList, ReplicaSet, ReplicaSetList, StatefulSet, StatefulSetList, WatchEvent)"
    );
    match set.resource("v1", "Pod") {
        Err(LookupError::UnknownGroupVersion { known, .. }) => assert_eq!(known, ["apps/v1"]),
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_kubectl_validate_crd_loads() {
    let dir = testdata().join("kubectl-validate/testcases");
    let mut set = SchemaSet::new();
    let mut total = 0;
    for sub in ["crds", "more-crds"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(sub))
            .expect("dir")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        for f in files {
            let bytes = std::fs::read(&f).expect("read");
            let n = set
                .add_crds(&f.display().to_string(), &bytes)
                .unwrap_or_else(|e| panic!("{e}"));
            let name = f
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let expected = match name.as_str() {
                "cel_basic.yaml" | "jobset.yaml" | "dnsendpoints.yaml" => 1,
                "cert-manager.crds.yaml" => 6,
                "not-a-crd-should-be-ignored.yaml" => 0,
                other => panic!("unexpected file {other}"),
            };
            assert_eq!(n, expected, "{name}");
            total += n;
        }
    }
    assert_eq!(total, 9);
    for (api_version, kind) in [
        ("batch.x-k8s.io/v1alpha1", "JobSet"),
        ("stable.example.com/v1", "CELBasic"),
        ("acme.cert-manager.io/v1", "Challenge"),
        ("acme.cert-manager.io/v1", "Order"),
        ("cert-manager.io/v1", "Certificate"),
        ("cert-manager.io/v1", "CertificateRequest"),
        ("cert-manager.io/v1", "ClusterIssuer"),
        ("cert-manager.io/v1", "Issuer"),
        ("externaldns.k8s.io/v1alpha1", "DNSEndpoint"),
    ] {
        let r = set
            .resource(api_version, kind)
            .unwrap_or_else(|e| panic!("{api_version} {kind}: {e}"));
        assert!(r.is_crd());
    }
}
