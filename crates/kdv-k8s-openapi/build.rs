//! Embeds the Kubernetes OpenAPI v3 documents of `testdata/kubernetes-openapi/v<X.Y>/`.
//!
//! A release directory holds one file per group-version (`api/v1`, `apis/<group>/<version>`)
//! in either form:
//! - `<path>.json`: the document as published. It is reduced here (`src/reduce.rs`: schema
//!   descriptions dropped, `paths` reduced to the operations' `x-kubernetes-*` extensions),
//!   compressed with raw DEFLATE and written to `$OUT_DIR/<version>/<path>.json.deflate`;
//! - `<path>.json.deflate`: the reduced document already compressed (the stored form
//!   `kdv-release-data` writes). It is inflated and checked (JSON, compact, reduced) and the
//!   file itself is embedded.
//!
//! `$OUT_DIR/documents.rs` lists them for the library (`include_bytes!`).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

#[path = "src/reduce.rs"]
mod reduce;

/// The largest reduced document accepted (api/v1 is about 150 KB).
const MAX_DOCUMENT: usize = 64 << 20;

fn main() {
    if let Err(e) = run() {
        eprintln!("error: kdv-k8s-openapi build: {e}");
        std::process::exit(1);
    }
}

/// One embedded document, as the generated index describes it.
struct Entry {
    /// `api/v1`, `apis/apps/v1`.
    path: String,
    /// `v1`, `apps/v1`.
    group_version: String,
    /// Bytes of the reduced JSON.
    len: usize,
    /// The compressed file (in `OUT_DIR`, or the stored file itself).
    file: PathBuf,
}

/// A document file of a release directory.
enum Source {
    /// `<path>.json`: published, reduced and compressed here.
    Published(PathBuf),
    /// `<path>.json.deflate`: reduced and compressed already.
    Stored(PathBuf),
}

fn run() -> Result<(), String> {
    let manifest_dir = PathBuf::from(env("CARGO_MANIFEST_DIR")?);
    let out_dir = PathBuf::from(env("OUT_DIR")?);
    let root = manifest_dir.join("../../testdata/kubernetes-openapi");
    println!("cargo:rerun-if-changed={}", root.display());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/reduce.rs");

    let mut versions = Vec::new();
    for entry in read_dir(&root)? {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(version) = name.strip_prefix('v')
            && let Some(key) = version_key(version)
            && entry.path().is_dir()
        {
            versions.push((key, version.to_string(), entry.path()));
        }
    }
    versions.sort();
    if versions.is_empty() {
        return Err(format!(
            "no v<major>.<minor> directories in {}",
            root.display()
        ));
    }

    let mut index = String::new();
    index.push_str("/// The embedded releases, oldest first.\n");
    index.push_str("pub(crate) static VERSIONS: &[&str] = &[");
    for (_, version, _) in &versions {
        write!(index, "{version:?}, ").map_err(|e| e.to_string())?;
    }
    index.push_str("];\n\n");
    index.push_str("/// Per release (in `VERSIONS` order), its documents sorted by path.\n");
    index.push_str("pub(crate) static DOCUMENTS: &[&[Document]] = &[\n");
    for (_, version, dir) in &versions {
        let mut files = Vec::new();
        collect(dir, &mut files)?;
        let mut entries = Vec::new();
        for file in files {
            entries.push(embed(version, dir, &file, &out_dir)?);
        }
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        if let Some(pair) = entries.windows(2).find(|p| p[0].path == p[1].path) {
            return Err(format!(
                "{}: {} is there both as .json and as .json.deflate",
                dir.display(),
                pair[0].path
            ));
        }
        if entries.is_empty() {
            return Err(format!("{}: no documents", dir.display()));
        }
        index.push_str("    &[\n");
        for e in &entries {
            writeln!(
                index,
                "        Document {{ version: {version:?}, path: {:?}, group_version: {:?}, \
                 len: {}, compressed: include_bytes!({:?}) }},",
                e.path,
                e.group_version,
                e.len,
                e.file.display().to_string(),
            )
            .map_err(|e| e.to_string())?;
        }
        index.push_str("    ],\n");
    }
    index.push_str("];\n");
    fs::write(out_dir.join("documents.rs"), index)
        .map_err(|e| format!("writing documents.rs: {e}"))?;
    Ok(())
}

fn env(name: &str) -> Result<String, String> {
    std::env::var(name).map_err(|_| format!("{name} is not set"))
}

/// `1.35` → `(1, 35)`; anything else is not a release directory.
fn version_key(version: &str) -> Option<(u32, u32)> {
    let (major, minor) = version.split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

fn read_dir(dir: &Path) -> Result<Vec<fs::DirEntry>, String> {
    fs::read_dir(dir)
        .and_then(|entries| entries.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("{}: {e}", dir.display()))
}

fn collect(dir: &Path, files: &mut Vec<Source>) -> Result<(), String> {
    for entry in read_dir(dir)? {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            collect(&path, files)?;
        } else if name.ends_with(".json.deflate") {
            files.push(Source::Stored(path));
        } else if name.ends_with(".json") {
            files.push(Source::Published(path));
        }
    }
    Ok(())
}

fn embed(version: &str, dir: &Path, source: &Source, out_dir: &Path) -> Result<Entry, String> {
    let (file, suffix) = match source {
        Source::Published(file) => (file, ".json"),
        Source::Stored(file) => (file, ".json.deflate"),
    };
    let relative = file.strip_prefix(dir).map_err(|e| e.to_string())?;
    let path = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/");
    let path = path.strip_suffix(suffix).unwrap_or(&path).to_string();
    let group_version = match path.split('/').collect::<Vec<_>>()[..] {
        ["api", version] => version.to_string(),
        ["apis", group, version] => format!("{group}/{version}"),
        _ => {
            return Err(format!(
                "{}: not laid out as api/<version>{suffix} or apis/<group>/<version>{suffix}",
                file.display()
            ));
        }
    };
    let bytes = fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    match source {
        Source::Published(_) => {
            let mut document: serde_json::Value =
                serde_json::from_slice(&bytes).map_err(|e| format!("{}: {e}", file.display()))?;
            reduce::reduce(&mut document);
            let compact = reduce::to_json(&document);
            let out = out_dir.join(version).join(format!("{path}.json.deflate"));
            if let Some(parent) = out.parent() {
                fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            fs::write(&out, reduce::compress(&compact))
                .map_err(|e| format!("{}: {e}", out.display()))?;
            Ok(Entry {
                path,
                group_version,
                len: compact.len(),
                file: out,
            })
        }
        Source::Stored(_) => {
            let json = reduce::decompress(&bytes, MAX_DOCUMENT)
                .map_err(|e| format!("{}: does not inflate: {e}", file.display()))?;
            reduce::check_reduced(&json).map_err(|e| format!("{}: {e}", file.display()))?;
            let file = std::path::absolute(file).map_err(|e| format!("{}: {e}", file.display()))?;
            Ok(Entry {
                path,
                group_version,
                len: json.len(),
                file,
            })
        }
    }
}
