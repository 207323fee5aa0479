//! The real [`Backend`]: `kdv_openapi` with the sources of the upstream harness — the CRDs of
//! `testcases/crds`, and the embedded Kubernetes built-in documents with the schema patches
//! of `schema-patches/1.23` applied (RFC 7386 merge patch on the document whose path the
//! patch file names, `api/v1.json`).

use std::borrow::Cow;
use std::path::Path;

use kdv_openapi::{LookupError, Options, SchemaSet};
use kdv_runtime::FieldPath;
use serde_json::Value;

use super::merge_patch;
use super::pipeline::{Backend, Lookup, Validated};

/// The Kubernetes release whose embedded documents stand in for kubectl-validate's
/// built-in schemas (its test uses its default, 1.30, which is not embedded; the README of
/// the data set compares the two for the kinds the cases use).
pub const BUILTIN_VERSION: &str = "1.35";

/// kdv's schema pipeline with the harness's sources.
pub struct OpenApiBackend {
    set: SchemaSet,
}

impl OpenApiBackend {
    /// Loads the CRD files of `crd_dirs` (as `--local-crds`: the `*.yaml`, `*.yml`, `*.json`
    /// files directly in each directory, sorted) and the built-in documents, patched from
    /// `patches` (a directory laid out as `<path>.json`).
    pub fn new(crd_dirs: &[&Path], patches: Option<&Path>) -> Result<OpenApiBackend, String> {
        let mut set = SchemaSet::new();
        for dir in crd_dirs {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
            files.sort();
            for file in files {
                let crd_file = file
                    .extension()
                    .map(|e| e.to_string_lossy().to_ascii_lowercase())
                    .is_some_and(|e| matches!(e.as_str(), "yaml" | "yml" | "json"));
                if !crd_file || !file.is_file() {
                    continue;
                }
                let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
                set.add_crds(&file.display().to_string(), &bytes)
                    .map_err(|e| e.to_string())?;
            }
        }
        for doc in kdv_k8s_openapi::documents(BUILTIN_VERSION) {
            let file = format!("<kubernetes {BUILTIN_VERSION}>/{}.json", doc.path());
            let patch = patches.map(|dir| dir.join(format!("{}.json", doc.path())));
            match patch.filter(|p| p.is_file()) {
                Some(patch) => {
                    let text = doc.load().map_err(|e| e.to_string())?;
                    let mut json: Value =
                        serde_json::from_slice(&text).map_err(|e| format!("{file}: {e}"))?;
                    let patch_text =
                        std::fs::read(&patch).map_err(|e| format!("{}: {e}", patch.display()))?;
                    let patch_json: Value = serde_json::from_slice(&patch_text)
                        .map_err(|e| format!("{}: {e}", patch.display()))?;
                    merge_patch(&mut json, &patch_json);
                    let bytes = serde_json::to_vec(&json).map_err(|e| e.to_string())?;
                    set.add_openapi_v3(&file, &bytes)
                        .map_err(|e| e.to_string())?;
                }
                None => set.add_openapi_v3_lazy(
                    doc.group_version(),
                    &file,
                    Box::new(move || {
                        doc.load()
                            .map(Cow::Owned)
                            .map_err(|e| kdv_openapi::LoadError {
                                file: doc.path().to_string(),
                                line: 0,
                                column: 0,
                                message: e.to_string(),
                            })
                    }),
                ),
            }
        }
        Ok(OpenApiBackend { set })
    }
}

impl Backend for OpenApiBackend {
    fn lookup(&self, _path: &str, group_version: &str, kind: &str) -> Lookup {
        match self.set.resource(group_version, kind) {
            Ok(resource) => Lookup::Found {
                namespaced: resource.namespaced().unwrap_or(false),
            },
            Err(LookupError::UnknownKind { .. }) => Lookup::NoKind,
            Err(_) => Lookup::NoGroupVersion,
        }
    }

    fn validate(&self, _path: &str, group_version: &str, kind: &str, object: &Value) -> Validated {
        let Ok(resource) = self.set.resource(group_version, kind) else {
            return Validated::default();
        };
        let outcome = resource.validate(object, None, &Options::default());
        Validated {
            // kubectl-validate shows the decoder's Go error text, the field error's detail.
            decode_error: outcome.decode_error.map(|e| e.detail),
            unknown_fields: outcome
                .unknown_fields
                .iter()
                .map(FieldPath::strict_text)
                .collect(),
            errors: outcome.errors,
        }
    }

    /// kdv-openapi's CRD write-time checks (`crd_validation`), as the CRD strategy runs them
    /// on create.
    fn validate_crd(&self, object: &Value) -> Option<Validated> {
        let findings = kdv_openapi::validate_crd(object);
        Some(Validated {
            decode_error: findings.decode_error.map(|d| d.message),
            unknown_fields: findings
                .unknown_fields
                .into_iter()
                .map(|u| u.path)
                .collect(),
            errors: findings.errors,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubectl_validate::crds::{group_versions, load_crd_dirs};

    /// Every kind the loader test lists (upstream's `local_crds_test.go`, both directories)
    /// is found in kdv-openapi's schema set built from the same files, with its scope.
    #[test]
    fn kdv_openapi_serves_every_crd_kind_of_the_loader_test() {
        let t =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/kubectl-validate/testcases");
        let dirs = [t.join("crds"), t.join("more-crds")];
        let dirs: Vec<&Path> = dirs.iter().map(|d| d.as_path()).collect();
        let crds = load_crd_dirs(&dirs).unwrap();
        let backend = OpenApiBackend::new(&dirs, None).unwrap();
        let mut kinds = 0;
        for (path, names) in group_versions(&crds) {
            for name in names {
                let (group_version, kind) = name.rsplit_once('.').unwrap();
                let crd = crds.iter().find(|c| c.kind() == kind).unwrap();
                let namespaced = crd.value["spec"]["scope"] == "Namespaced";
                assert_eq!(
                    backend.lookup(&path, group_version, kind),
                    Lookup::Found { namespaced },
                    "{name}"
                );
                kinds += 1;
            }
        }
        assert_eq!(kinds, 9);
        assert_eq!(backend.lookup("api/v1", "v1", "configmap"), Lookup::NoKind);
        assert_eq!(
            backend.lookup("api/v9", "v9", "Pod"),
            Lookup::NoGroupVersion
        );
        assert_eq!(
            backend.lookup("api/v1", "v1", "Pod"),
            Lookup::Found { namespaced: true }
        );
        assert_eq!(
            backend.lookup("api/v1", "v1", "Namespace"),
            Lookup::Found { namespaced: false }
        );
    }
}
