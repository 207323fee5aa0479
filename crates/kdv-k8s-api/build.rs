//! Embeds the kubernetes/api type models of `testdata/kubernetes-api/v<X.Y>/`: each release's
//! `PACKAGES.tsv` lists its packages (path under `k8s.io/api`, the group-version it serves or
//! `-`, the JSON's length); each package is a raw DEFLATE file `<path>.json.deflate`, embedded
//! as it is (`$OUT_DIR/packages.rs` lists them for the library).

use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

fn main() {
    if let Err(e) = run() {
        eprintln!("error: kdv-k8s-api build: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let manifest_dir =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").map_err(|e| e.to_string())?);
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").map_err(|e| e.to_string())?);
    let root = manifest_dir.join("../../testdata/kubernetes-api");
    println!("cargo:rerun-if-changed={}", root.display());
    println!("cargo:rerun-if-changed=build.rs");
    let mut versions = Vec::new();
    for entry in fs::read_dir(&root).map_err(|e| format!("{}: {e}", root.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(version) = name.strip_prefix('v')
            && let Some((major, minor)) = version.split_once('.')
            && let (Ok(major), Ok(minor)) = (major.parse::<u32>(), minor.parse::<u32>())
            && entry.path().is_dir()
        {
            versions.push(((major, minor), version.to_string(), entry.path()));
        }
    }
    versions.sort();
    let mut index = String::new();
    index.push_str("/// The releases with type models, oldest first.\n");
    index.push_str("pub(crate) static VERSIONS: &[&str] = &[");
    for (_, version, _) in &versions {
        write!(index, "{version:?}, ").map_err(|e| e.to_string())?;
    }
    index.push_str("];\n\n");
    index.push_str("/// Per release (in `VERSIONS` order), its packages sorted by path.\n");
    index.push_str("pub(crate) static PACKAGES: &[&[EmbeddedPackage]] = &[\n");
    for (_, version, dir) in &versions {
        let tsv = dir.join("PACKAGES.tsv");
        println!("cargo:rerun-if-changed={}", tsv.display());
        let text = fs::read_to_string(&tsv).map_err(|e| format!("{}: {e}", tsv.display()))?;
        let mut rows = Vec::new();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let cols: Vec<&str> = line.split('\t').collect();
            let [path, gv, len, ..] = cols[..] else {
                return Err(format!("{}: bad line {line:?}", tsv.display()));
            };
            let len: usize = len
                .parse()
                .map_err(|_| format!("{}: bad length in {line:?}", tsv.display()))?;
            let file = dir.join(format!("{path}.json.deflate"));
            if !file.is_file() {
                return Err(format!("{}: missing {}", tsv.display(), file.display()));
            }
            rows.push((path.to_string(), gv.to_string(), len, file));
        }
        rows.sort();
        index.push_str("    &[\n");
        for (path, gv, len, file) in rows {
            let gv = if gv == "-" { String::new() } else { gv };
            writeln!(
                index,
                "        EmbeddedPackage {{ version: {version:?}, path: {path:?}, group_version: {gv:?}, len: {len}, compressed: include_bytes!({:?}) }},",
                file.display().to_string()
            )
            .map_err(|e| e.to_string())?;
        }
        index.push_str("    ],\n");
    }
    index.push_str("];\n");
    fs::write(out_dir.join("packages.rs"), index).map_err(|e| format!("writing packages.rs: {e}"))
}
