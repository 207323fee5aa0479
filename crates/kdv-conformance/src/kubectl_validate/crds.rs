//! kubectl-validate's `--local-crds` loader (`pkg/openapiclient/local_crds.go`): the
//! `*.yaml`, `*.yml` and `*.json` files directly in each directory (sorted by name, not
//! recursive), cut into documents; documents that are not
//! `apiextensions.k8s.io/CustomResourceDefinition`s are ignored; a directory that does not
//! exist contributes nothing, a path that is not a directory is an error. Each CRD serves
//! one schema per entry of `spec.versions`, under the group-version path
//! `apis/<group>/<version>`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::split::{is_empty_document, yaml_documents};

/// One CustomResourceDefinition read from a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Crd {
    /// The file it was read from.
    pub file: PathBuf,
    /// The document, as JSON.
    pub value: Value,
}

impl Crd {
    /// `spec.group`.
    pub fn group(&self) -> &str {
        self.value["spec"]["group"].as_str().unwrap_or_default()
    }

    /// `spec.names.kind`.
    pub fn kind(&self) -> &str {
        self.value["spec"]["names"]["kind"]
            .as_str()
            .unwrap_or_default()
    }

    /// The names of `spec.versions` (served or not, as kubectl-validate takes them).
    pub fn versions(&self) -> Vec<&str> {
        self.value["spec"]["versions"]
            .as_array()
            .map(|vs| vs.iter().filter_map(|v| v["name"].as_str()).collect())
            .unwrap_or_default()
    }

    /// The `openAPIV3Schema` of one version (`spec.versions[].schema`, or the v1beta1
    /// CRD's top-level `spec.validation`).
    pub fn schema(&self, version: &str) -> Option<&Value> {
        let versions = self.value["spec"]["versions"].as_array()?;
        let entry = versions.iter().find(|v| v["name"] == version)?;
        let schema = &entry["schema"]["openAPIV3Schema"];
        if schema.is_object() {
            return Some(schema);
        }
        let top = &self.value["spec"]["validation"]["openAPIV3Schema"];
        top.is_object().then_some(top)
    }
}

/// Reads the CRDs of `dirs` in order.
pub fn load_crd_dirs(dirs: &[&Path]) -> Result<Vec<Crd>, String> {
    let mut crds = Vec::new();
    for dir in dirs {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(format!("error listing: {}: {e}", dir.display())),
        };
        let mut files = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| format!("error listing: {}: {e}", dir.display()))?;
            let path = entry.path();
            if !path.is_dir() {
                files.push(path);
            }
        }
        files.sort();
        for file in files {
            let extension = file
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase());
            let texts = match extension.as_deref() {
                Some("json") => vec![read(&file)?],
                Some("yaml" | "yml") => yaml_documents(&read(&file)?)
                    .map_err(|e| format!("failed to read {}: {e}", file.display()))?
                    .into_iter()
                    .filter(|d| !is_empty_document(d))
                    .collect(),
                _ => continue,
            };
            for text in texts {
                let value = parse_one(&text)
                    .map_err(|e| format!("failed to read {}: {e}", file.display()))?;
                if is_crd(&value) {
                    crds.push(Crd {
                        file: file.clone(),
                        value,
                    });
                }
            }
        }
    }
    Ok(crds)
}

/// The group-version paths the CRDs serve and the `<group>/<version>.<Kind>` names in each
/// (the form of upstream's loader test).
pub fn group_versions(crds: &[Crd]) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for crd in crds {
        for version in crd.versions() {
            out.entry(format!("apis/{}/{version}", crd.group()))
                .or_default()
                .insert(format!("{}/{version}.{}", crd.group(), crd.kind()));
        }
    }
    out
}

/// Whether a document is a CustomResourceDefinition (any version of the group).
pub fn is_crd(value: &Value) -> bool {
    let group = value["apiVersion"]
        .as_str()
        .and_then(|v| v.split_once('/'))
        .map(|(group, _)| group);
    group == Some("apiextensions.k8s.io") && value["kind"] == "CustomResourceDefinition"
}

fn read(file: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(file).map_err(|e| format!("failed to read {}: {e}", file.display()))
}

/// Parses one document (YAML or JSON text) into JSON.
pub(crate) fn parse_one(text: &[u8]) -> Result<Value, String> {
    let limits = kdv_manifest::Limits::default();
    for entry in kdv_manifest::documents(text, kdv_manifest::Syntax::Yaml, limits) {
        match entry.map_err(|e| e.to_string())? {
            kdv_manifest::Entry::Document(d) => return Ok(d.value),
            kdv_manifest::Entry::Empty { .. } => {}
        }
    }
    Ok(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn testcases() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/kubectl-validate/testcases")
    }

    fn names(pairs: &[(&str, &[&str])]) -> BTreeMap<String, BTreeSet<String>> {
        pairs
            .iter()
            .map(|(gv, kinds)| {
                (
                    gv.to_string(),
                    kinds.iter().map(|k| k.to_string()).collect(),
                )
            })
            .collect()
    }

    // Upstream's `Test_localCRDsClient_Paths` (pkg/openapiclient/local_crds_test.go) as data.
    #[test]
    fn one_directory() {
        let crds = load_crd_dirs(&[&testcases().join("crds")]).unwrap();
        assert_eq!(
            group_versions(&crds),
            names(&[
                (
                    "apis/acme.cert-manager.io/v1",
                    &[
                        "acme.cert-manager.io/v1.Challenge",
                        "acme.cert-manager.io/v1.Order"
                    ]
                ),
                (
                    "apis/batch.x-k8s.io/v1alpha1",
                    &["batch.x-k8s.io/v1alpha1.JobSet"]
                ),
                (
                    "apis/cert-manager.io/v1",
                    &[
                        "cert-manager.io/v1.Certificate",
                        "cert-manager.io/v1.CertificateRequest",
                        "cert-manager.io/v1.ClusterIssuer",
                        "cert-manager.io/v1.Issuer",
                    ]
                ),
                (
                    "apis/stable.example.com/v1",
                    &["stable.example.com/v1.CELBasic"]
                ),
            ])
        );
        assert_eq!(crds.len(), 8, "the PodDisruptionBudget is not a CRD");
    }

    #[test]
    fn two_directories() {
        let t = testcases();
        let crds = load_crd_dirs(&[&t.join("crds"), &t.join("more-crds")]).unwrap();
        let gvs = group_versions(&crds);
        assert_eq!(gvs.len(), 5);
        assert_eq!(
            gvs["apis/externaldns.k8s.io/v1alpha1"],
            ["externaldns.k8s.io/v1alpha1.DNSEndpoint".to_string()].into()
        );
    }

    #[test]
    fn missing_directory_is_empty_and_a_file_is_an_error() {
        let t = testcases();
        assert_eq!(load_crd_dirs(&[&t.join("no-such-dir")]).unwrap(), vec![]);
        assert_eq!(load_crd_dirs(&[]).unwrap(), vec![]);
        let e = load_crd_dirs(&[&t.join("schemas/error_not_a_dir")]).unwrap_err();
        assert!(e.starts_with("error listing: "), "{e}");
    }

    #[test]
    fn schemas_by_version() {
        let crds = load_crd_dirs(&[&testcases().join("crds")]).unwrap();
        let cel = crds.iter().find(|c| c.kind() == "CELBasic").unwrap();
        assert_eq!(cel.versions(), ["v1"]);
        assert_eq!(cel.schema("v1").unwrap()["type"], "object");
        assert!(cel.schema("v2").is_none());
        assert!(is_crd(&cel.value));
        assert!(!is_crd(
            &serde_json::json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget"})
        ));
        assert!(!is_crd(
            &serde_json::json!({"apiVersion": "apiextensions.k8s.io", "kind": "CustomResourceDefinition"})
        ));
    }
}
