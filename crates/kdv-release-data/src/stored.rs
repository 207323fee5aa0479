//! The stored form of a release's OpenAPI documents, as `kdv-k8s-openapi` embeds them:
//! `<out>/v<X.Y>/<path>.json.deflate` (the reduced document, compact JSON, raw DEFLATE) and
//! `<out>/FILES-v<X.Y>.tsv` (per file: the published original's bytes and sha256 when there
//! is one, the reduced JSON's bytes and sha256, the stored file's bytes).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use kdv_k8s_openapi::reduce;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The largest document read (published api/v1 is about 2 MB).
const MAX_DOCUMENT: usize = 64 << 20;

/// The header line of a `FILES-v<X.Y>.tsv`.
pub const FILES_HEADER: &str =
    "path\tpublished_bytes\tpublished_sha256\treduced_bytes\treduced_sha256\tstored_bytes";

/// One document to store.
pub struct Document {
    /// `api/v1`, `apis/apps/v1`.
    pub path: String,
    /// The reduced document.
    pub reduced: Value,
    /// The published original's size and sha256, when there is one.
    pub published: Option<(usize, String)>,
}

/// What [`write_release`] wrote.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// Documents.
    pub documents: usize,
    /// Bytes of the published originals.
    pub published_bytes: usize,
    /// Bytes of reduced JSON.
    pub reduced_bytes: usize,
    /// Bytes of the stored (compressed) files.
    pub stored_bytes: usize,
}

/// Lowercase hex sha256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// `1.36` is `<major>.<minor>`.
pub fn check_version(version: &str) -> Result<(), String> {
    let ok = version
        .split_once('.')
        .is_some_and(|(a, b)| a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok());
    if ok {
        Ok(())
    } else {
        Err(format!("--version {version}: expected <major>.<minor>"))
    }
}

/// Writes a release's stored form under `out` (see the module documentation), replacing
/// what an earlier run stored for the release. Refuses a release directory holding
/// published `.json` files (1.35 is kept so).
pub fn write_release(out: &Path, version: &str, documents: &[Document]) -> Result<Written, String> {
    check_version(version)?;
    let dir = out.join(format!("v{version}"));
    if dir.is_dir() {
        let mut existing = Vec::new();
        files_with_suffix(&dir, ".json", &mut existing)?;
        if let Some(f) = existing.first() {
            return Err(format!(
                "{} holds published documents ({}); not replacing them",
                dir.display(),
                f.display()
            ));
        }
        let mut stale = Vec::new();
        files_with_suffix(&dir, ".json.deflate", &mut stale)?;
        for f in stale {
            fs::remove_file(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        }
    }
    let mut written = Written::default();
    let mut tsv = String::new();
    tsv.push_str(FILES_HEADER);
    tsv.push('\n');
    let mut sorted: Vec<&Document> = documents.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    for document in sorted {
        let json = reduce::to_json(&document.reduced);
        reduce::check_reduced(&json).map_err(|e| format!("{}: {e}", document.path))?;
        let compressed = reduce::compress(&json);
        let relative = format!("{}.json.deflate", document.path);
        let file = dir.join(&relative);
        if let Some(parent) = file.parent() {
            fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        fs::write(&file, &compressed).map_err(|e| format!("{}: {e}", file.display()))?;
        let (published_bytes, published_sha) = match &document.published {
            Some((bytes, sha)) => (bytes.to_string(), sha.clone()),
            None => ("-".to_string(), "-".to_string()),
        };
        writeln!(
            tsv,
            "{relative}\t{published_bytes}\t{published_sha}\t{}\t{}\t{}",
            json.len(),
            sha256_hex(&json),
            compressed.len()
        )
        .map_err(|e| e.to_string())?;
        written.documents += 1;
        written.published_bytes += document.published.as_ref().map_or(0, |p| p.0);
        written.reduced_bytes += json.len();
        written.stored_bytes += compressed.len();
    }
    let files = out.join(format!("FILES-v{version}.tsv"));
    fs::write(&files, tsv).map_err(|e| format!("{}: {e}", files.display()))?;
    Ok(written)
}

/// The documents of a directory laid out as `api/<v>` and `apis/<group>/<v>`, published
/// (`.json`, reduced here) or stored (`.json.deflate`): path → (reduced document, the
/// published original's size and sha256 if it was published).
pub fn read_documents(dir: &Path) -> Result<BTreeMap<String, Document>, String> {
    let mut out = BTreeMap::new();
    for (suffix, published) in [(".json", true), (".json.deflate", false)] {
        let mut files = Vec::new();
        files_with_suffix(dir, suffix, &mut files)?;
        for file in files {
            let relative = file
                .strip_prefix(dir)
                .map_err(|e| e.to_string())?
                .to_string_lossy()
                .replace('\\', "/");
            let path = relative
                .strip_suffix(suffix)
                .unwrap_or(&relative)
                .to_string();
            if !matches!(
                path.split('/').collect::<Vec<_>>()[..],
                ["api", _] | ["apis", _, _]
            ) {
                continue;
            }
            let bytes = fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let document = if published {
                let mut value: Value = serde_json::from_slice(&bytes)
                    .map_err(|e| format!("{}: {e}", file.display()))?;
                reduce::reduce(&mut value);
                Document {
                    path: path.clone(),
                    reduced: value,
                    published: Some((bytes.len(), sha256_hex(&bytes))),
                }
            } else {
                let json = reduce::decompress(&bytes, MAX_DOCUMENT)
                    .map_err(|e| format!("{}: does not inflate: {e}", file.display()))?;
                let value =
                    reduce::check_reduced(&json).map_err(|e| format!("{}: {e}", file.display()))?;
                Document {
                    path: path.clone(),
                    reduced: value,
                    published: None,
                }
            };
            if out.insert(path.clone(), document).is_some() {
                return Err(format!(
                    "{}: {path} is there both as .json and as .json.deflate",
                    dir.display()
                ));
            }
        }
    }
    if out.is_empty() {
        return Err(format!(
            "{}: no api/<version> or apis/<group>/<version> documents",
            dir.display()
        ));
    }
    Ok(out)
}

fn files_with_suffix(dir: &Path, suffix: &str, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = entry.path();
        if path.is_dir() {
            files_with_suffix(&path, suffix, out)?;
        } else if entry.file_name().to_string_lossy().ends_with(suffix) {
            out.push(path);
        }
    }
    out.sort();
    Ok(())
}

#[cfg(test)]
mod tests {
    use kdv_test_support::Scratch;

    use super::*;

    #[test]
    fn sha256_of_known_inputs() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn published_documents_round_trip_through_the_stored_form() {
        let published_scratch = Scratch::new("published");
        let published = published_scratch.path();
        fs::create_dir_all(published.join("apis/apps")).unwrap();
        fs::create_dir_all(published.join("api")).unwrap();
        let apps = serde_json::json!({
            "openapi": "3.0.0",
            "paths": {"/apis/apps/v1/": {"get": {"description": "x", "x-kubernetes-action": "get"}}},
            "components": {"schemas": {"A": {"description": "gone", "type": "object"}}},
        });
        fs::write(published.join("apis/apps/v1.json"), apps.to_string()).unwrap();
        fs::write(published.join("api/v1.json"), "{\"openapi\":\"3.0.0\"}").unwrap();
        let read = read_documents(published).unwrap();
        assert_eq!(read.keys().collect::<Vec<_>>(), ["api/v1", "apis/apps/v1"]);
        assert_eq!(
            read["apis/apps/v1"].reduced,
            serde_json::json!({
                "openapi": "3.0.0",
                "paths": {"/apis/apps/v1/": {"get": {"x-kubernetes-action": "get"}}},
                "components": {"schemas": {"A": {"type": "object"}}},
            })
        );

        let out_scratch = Scratch::new("out");
        let out = out_scratch.path();
        let documents: Vec<Document> = read.into_values().collect();
        let written = write_release(out, "1.99", &documents).unwrap();
        assert_eq!(written.documents, 2);
        let stored = read_documents(&out.join("v1.99")).unwrap();
        assert_eq!(stored.len(), 2);
        for d in &documents {
            assert_eq!(stored[&d.path].reduced, d.reduced);
        }
        let files = fs::read_to_string(out.join("FILES-v1.99.tsv")).unwrap();
        let lines: Vec<&str> = files.lines().collect();
        assert_eq!(lines[0], FILES_HEADER);
        assert!(
            lines[1].starts_with("api/v1.json.deflate\t19\t"),
            "{}",
            lines[1]
        );
        // A directory holding published documents is never replaced.
        fs::create_dir_all(out.join("v1.97")).unwrap();
        fs::write(out.join("v1.97/x.json"), "{}").unwrap();
        assert!(write_release(out, "1.97", &documents).is_err());
    }
}
