//! kdv-k8s-openapi: the OpenAPI v3 documents Kubernetes publishes (`/openapi/v3/api/v1`,
//! `/openapi/v3/apis/<group>/<version>`) for the releases kdv knows (1.30 to 1.36), embedded
//! in the binary so that `kdv validate deployment.yaml` needs no schema argument.
//!
//! The documents come from the project's `testdata/kubernetes-openapi/v<X.Y>/` (one file per
//! group-version), in their reduced form (module `reduce`, behind the `reduce` feature): schema
//! `description` texts dropped, and `paths` keeping only each operation's `x-kubernetes-*`
//! extensions (the group-version-kind and action, from which a kind's scope is read). Each
//! one is compressed on its own with raw DEFLATE, so a run decompresses and parses only the
//! group-versions its manifests use ([`Document::load`]). A release is stored either as
//! published (1.35: `.json`, reduced and compressed by the build script) or already reduced
//! and compressed (`.json.deflate`, written by `kdv-release-data`; the build script checks
//! them). A release's set: about 36 documents, 11 MB as published, 1.1 MB reduced, 110 KB
//! compressed.
//!
//! The API: [`versions`], [`latest_version`] (the default of every `kdv` command),
//! [`documents`]`(version)`, [`document`]`(version, group_version)`, and [`Document::load`],
//! which decompresses one. Nothing here parses: callers parse what they load. Decisions 0022
//! (reduction, one DEFLATE stream per group-version, miniz_oxide) and 0059 (every minor release,
//! stored reduced; 0060 for how 1.36 was obtained).
//!
//! ```
//! let version = kdv_k8s_openapi::latest_version();
//! let apps = kdv_k8s_openapi::document(version, "apps/v1").expect("apps/v1 is embedded");
//! assert_eq!(apps.path(), "apis/apps/v1");
//! let json: serde_json::Value = serde_json::from_slice(&apps.load()?)?;
//! assert!(json["components"]["schemas"]["io.k8s.api.apps.v1.Deployment"].is_object());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

#[cfg(feature = "reduce")]
pub mod reduce;

/// One embedded group-version document of one release.
#[derive(Debug)]
pub struct Document {
    version: &'static str,
    path: &'static str,
    group_version: &'static str,
    len: usize,
    compressed: &'static [u8],
}

include!(concat!(env!("OUT_DIR"), "/documents.rs"));

impl Document {
    /// The Kubernetes release (`1.36`).
    pub fn version(&self) -> &'static str {
        self.version
    }

    /// The document's path under `/openapi/v3/`: `api/v1` for the core group,
    /// `apis/<group>/<version>` for the others.
    pub fn path(&self) -> &'static str {
        self.path
    }

    /// The group-version as an `apiVersion` spells it: `v1`, `apps/v1`.
    pub fn group_version(&self) -> &'static str {
        self.group_version
    }

    /// The size of the JSON text [`load`](Self::load) returns.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the JSON text is empty (never, for a document the build accepted).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The size of the compressed form in the binary.
    pub fn compressed_len(&self) -> usize {
        self.compressed.len()
    }

    /// Decompresses the document: the OpenAPI v3 JSON text (compact, descriptions dropped).
    pub fn load(&self) -> Result<Vec<u8>, LoadError> {
        let text = miniz_oxide::inflate::decompress_to_vec_with_limit(self.compressed, self.len)
            .map_err(|e| LoadError {
                version: self.version,
                path: self.path,
                reason: format!("{e}"),
            })?;
        if text.len() != self.len {
            return Err(LoadError {
                version: self.version,
                path: self.path,
                reason: format!("{} bytes, expected {}", text.len(), self.len),
            });
        }
        Ok(text)
    }
}

/// A document that did not decompress (a corrupt build; not expected in practice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    version: &'static str,
    path: &'static str,
    reason: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "embedded Kubernetes {} OpenAPI document {}: {}",
            self.version, self.path, self.reason
        )
    }
}

impl std::error::Error for LoadError {}

/// The embedded releases (`["1.30", ..., "1.36"]`), oldest first.
pub fn versions() -> &'static [&'static str] {
    VERSIONS
}

/// The newest embedded release: the default of `kdv validate --k8s-version`.
pub fn latest_version() -> &'static str {
    // The build script fails when it finds no release, so the list is never empty.
    VERSIONS.last().copied().unwrap_or("")
}

/// The documents of `version` (`1.36`), sorted by path; none for a release that is not
/// embedded.
pub fn documents(version: &str) -> impl Iterator<Item = &'static Document> + use<> {
    VERSIONS
        .iter()
        .position(|v| *v == version)
        .and_then(|i| DOCUMENTS.get(i))
        .map(|docs| docs.iter())
        .unwrap_or_default()
}

/// The document of one group-version (`v1`, `apps/v1`) of `version`.
pub fn document(version: &str, group_version: &str) -> Option<&'static Document> {
    documents(version).find(|d| d.group_version == group_version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_and_default() {
        assert_eq!(
            versions(),
            ["1.30", "1.31", "1.32", "1.33", "1.34", "1.35", "1.36"]
        );
        assert_eq!(latest_version(), "1.36");
        let counts: Vec<usize> = versions().iter().map(|v| documents(v).count()).collect();
        assert_eq!(counts, [32, 34, 33, 35, 36, 36, 36]);
        assert_eq!(documents("1.29").count(), 0);
        assert!(document("1.29", "v1").is_none());
        assert!(document("1.30", "v1").is_some());
    }

    #[test]
    fn paths_and_group_versions() {
        for version in versions() {
            let core = document(version, "v1").unwrap();
            assert_eq!(core.path(), "api/v1");
            assert_eq!(core.version(), *version);
            let apps = document(version, "apps/v1").unwrap();
            assert_eq!(apps.path(), "apis/apps/v1");
            let paths: Vec<_> = documents(version).map(Document::path).collect();
            let mut sorted = paths.clone();
            sorted.sort();
            assert_eq!(paths, sorted);
            for d in documents(version) {
                assert_eq!(d.version(), *version);
                assert_eq!(
                    d.path(),
                    if d.group_version().contains('/') {
                        format!("apis/{}", d.group_version())
                    } else {
                        format!("api/{}", d.group_version())
                    }
                );
            }
        }
    }

    #[test]
    fn load_reports_corruption() {
        let bad = Document {
            version: "1.35",
            path: "api/v1",
            group_version: "v1",
            len: 10,
            compressed: b"\xff\xff\xff",
        };
        let e = bad.load().unwrap_err();
        assert!(
            e.to_string()
                .starts_with("embedded Kubernetes 1.35 OpenAPI document api/v1: "),
            "{e}"
        );
    }
}
