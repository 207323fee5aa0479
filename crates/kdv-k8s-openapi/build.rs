//! Embeds the Kubernetes OpenAPI v3 documents of `testdata/kubernetes-openapi/v<X.Y>/`.
//!
//! Each group-version document is shrunk before it is compressed, keeping everything a
//! validator reads:
//! - schema `description` texts are dropped (only where `description` is the keyword of a
//!   schema: a property *named* `description` and `default`/`enum`/`example` values stay);
//! - `paths` keeps each path and, per operation, only its `x-kubernetes-*` extensions (the
//!   group-version-kind and action): the scope of a kind (namespaced when one of its paths
//!   holds `namespaces/{namespace}`) is read from there, the parameters and responses are
//!   not needed.
//!
//! The compact JSON is compressed with raw DEFLATE (miniz_oxide, its highest level) and
//! written to `$OUT_DIR/<version>/<path>.json.deflate`; `$OUT_DIR/documents.rs` lists them
//! for the library (`include_bytes!`).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

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
    /// Bytes of the shrunk JSON.
    len: usize,
    /// The compressed file in `OUT_DIR`.
    file: PathBuf,
}

fn run() -> Result<(), String> {
    let manifest_dir = PathBuf::from(env("CARGO_MANIFEST_DIR")?);
    let out_dir = PathBuf::from(env("OUT_DIR")?);
    let root = manifest_dir.join("../../testdata/kubernetes-openapi");
    println!("cargo:rerun-if-changed={}", root.display());
    println!("cargo:rerun-if-changed=build.rs");

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
        collect_json(dir, &mut files)?;
        let mut entries = Vec::new();
        for file in files {
            entries.push(embed(version, dir, &file, &out_dir)?);
        }
        entries.sort_by(|a, b| a.path.cmp(&b.path));
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

fn collect_json(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    for entry in read_dir(dir)? {
        let path = entry.path();
        if path.is_dir() {
            collect_json(&path, files)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            files.push(path);
        }
    }
    Ok(())
}

fn embed(version: &str, dir: &Path, file: &Path, out_dir: &Path) -> Result<Entry, String> {
    let relative = file
        .strip_prefix(dir)
        .map_err(|e| e.to_string())?
        .with_extension("");
    let path = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/");
    let group_version = match path.split('/').collect::<Vec<_>>()[..] {
        ["api", version] => version.to_string(),
        ["apis", group, version] => format!("{group}/{version}"),
        _ => {
            return Err(format!(
                "{}: not laid out as api/<version>.json or apis/<group>/<version>.json",
                file.display()
            ));
        }
    };
    let text = fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut document: Value =
        serde_json::from_slice(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    shrink(&mut document);
    let compact = serde_json::to_vec(&document).map_err(|e| e.to_string())?;
    let compressed = miniz_oxide::deflate::compress_to_vec(&compact, 10);
    let out = out_dir.join(version).join(format!("{path}.json.deflate"));
    if let Some(parent) = out.parent() {
        fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    fs::write(&out, compressed).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(Entry {
        path,
        group_version,
        len: compact.len(),
        file: out,
    })
}

/// Drops what no validator reads (see the crate's build documentation at the top).
fn shrink(document: &mut Value) {
    let Some(top) = document.as_object_mut() else {
        return;
    };
    if let Some(Value::Object(schemas)) =
        top.get_mut("components").and_then(|c| c.get_mut("schemas"))
    {
        for schema in schemas.values_mut() {
            shrink_schema(schema);
        }
    }
    if let Some(Value::Object(paths)) = top.get_mut("paths") {
        for item in paths.values_mut() {
            let Value::Object(item) = item else { continue };
            let kept: Map<String, Value> = std::mem::take(item)
                .into_iter()
                .filter_map(|(method, operation)| {
                    let Value::Object(operation) = operation else {
                        return None;
                    };
                    let extensions: Map<String, Value> = operation
                        .into_iter()
                        .filter(|(k, _)| k.starts_with("x-kubernetes-"))
                        .collect();
                    (!extensions.is_empty()).then_some((method, Value::Object(extensions)))
                })
                .collect();
            *item = kept;
        }
    }
}

/// Removes the `description` keyword of a schema and of the schemas it holds.
fn shrink_schema(schema: &mut Value) {
    let Value::Object(schema) = schema else {
        return;
    };
    if schema.get("description").is_some_and(Value::is_string) {
        schema.remove("description");
    }
    for (keyword, value) in schema.iter_mut() {
        match keyword.as_str() {
            "properties" | "patternProperties" | "definitions" => {
                if let Value::Object(named) = value {
                    for sub in named.values_mut() {
                        shrink_schema(sub);
                    }
                }
            }
            "items"
            | "additionalProperties"
            | "additionalItems"
            | "not"
            | "allOf"
            | "anyOf"
            | "oneOf" => match value {
                Value::Array(subs) => subs.iter_mut().for_each(shrink_schema),
                sub => shrink_schema(sub),
            },
            _ => {}
        }
    }
}
