//! `api-types`: the kubernetes/api type models of one release, for `kdv-k8s-api`.
//!
//! For every package of the checkout whose group-version the release serves (the
//! group-versions of its embedded OpenAPI documents, `kdv-k8s-openapi`), the package and every
//! kubernetes/api package it imports are read with kdv's Go frontend (`kdv-go`, constants
//! resolved across packages), checked by compiling their declarative rules as the API server
//! selects them (every type with `TypeMeta` a root), and stored as data: the model's JSON
//! (`kdv-model`'s `serde` form) without descriptions and file texts, raw DEFLATE compressed,
//! one file per package (`v1.N/<path under k8s.io/api>.json.deflate`), listed in
//! `v1.N/PACKAGES.tsv` (path, group-version or `-` for a package only imported, JSON bytes,
//! number of `+k8s:` tag lines).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use kdv_model::{ConstValue, Package, TypeRef, Universe};

/// The module path of kubernetes/api.
const MODULE: &str = "k8s.io/api";

/// Arguments of `api-types`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Root of a kubernetes/api checkout at the release's tag (`git archive v0.N.x`).
    #[arg(long, value_name = "DIR")]
    api: PathBuf,
    /// The release (`1.N`); its served group-versions are those of its embedded OpenAPI
    /// documents.
    #[arg(long, value_name = "1.N")]
    version: String,
    /// The checkout's tag (`v0.N.x`), recorded in the file names of the data.
    #[arg(long, value_name = "TAG")]
    tag: String,
    /// The data root (`testdata/kubernetes-api`); `v1.N/` is written below it, replacing what
    /// is there.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

/// Runs `api-types`.
pub fn run(args: &Args) -> Result<(), String> {
    let served: Vec<&str> = kdv_k8s_openapi::documents(&args.version)
        .map(|d| d.group_version())
        .collect();
    if served.is_empty() {
        return Err(format!(
            "release {} has no embedded OpenAPI documents (embedded: {})",
            args.version,
            kdv_k8s_openapi::versions().join(", ")
        ));
    }
    let mut packages: BTreeMap<String, Package> = BTreeMap::new();
    let mut group_versions: BTreeMap<String, String> = BTreeMap::new();
    for dir in package_dirs(&args.api)? {
        let Ok((package, _)) = kdv_go::load_package(&dir) else {
            continue;
        };
        let Some(group) = group_of(&package) else {
            continue;
        };
        let version = package.name.clone();
        let gv = if group.is_empty() {
            version
        } else {
            format!("{group}/{version}")
        };
        if !served.contains(&gv.as_str()) {
            continue;
        }
        let (universe, diagnostics) =
            kdv_go::load_universe(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let errors = kdv_go::count_errors(&diagnostics);
        if errors > 0 {
            return Err(format!(
                "{}: {errors} Go errors, first: {}",
                dir.display(),
                diagnostics[0]
            ));
        }
        check_compiles(&universe, &package.path)?;
        group_versions.insert(package.path.clone(), gv);
        for (path, p) in universe.packages {
            if path.starts_with(MODULE) && path[MODULE.len()..].starts_with('/') {
                packages.entry(path).or_insert(p);
            }
        }
    }
    let missing: Vec<&&str> = served
        .iter()
        .filter(|gv| !group_versions.values().any(|g| g == **gv))
        .collect();
    eprintln!(
        "{}: {} served group-versions, {} from kubernetes/api, {} packages stored; not in kubernetes/api: {missing:?}",
        args.version,
        served.len(),
        group_versions.len(),
        packages.len()
    );

    let out = args.out.join(format!("v{}", args.version));
    if out.exists() {
        fs::remove_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    let mut index = String::from("# path\tgroup-version\tjson bytes\t+k8s: tag lines\n");
    let mut total = 0;
    for (path, mut package) in packages {
        let relative = &path[MODULE.len() + 1..];
        reduce(&mut package, &format!("{MODULE}@{}/{relative}", args.tag));
        let k8s_tags = count_k8s_tags(&package);
        let json = serde_json::to_vec(&package).map_err(|e| e.to_string())?;
        let compressed = miniz_oxide::deflate::compress_to_vec(&json, 10);
        let file = out.join(format!("{relative}.json.deflate"));
        if let Some(parent) = file.parent() {
            fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        fs::write(&file, &compressed).map_err(|e| format!("{}: {e}", file.display()))?;
        total += compressed.len();
        let gv = group_versions.get(&path).map_or("-", String::as_str);
        writeln!(index, "{relative}\t{gv}\t{}\t{k8s_tags}", json.len())
            .map_err(|e| e.to_string())?;
    }
    fs::write(out.join("PACKAGES.tsv"), index).map_err(|e| e.to_string())?;
    eprintln!("{}: {total} bytes compressed", out.display());
    Ok(())
}

/// Every directory below `root` holding Go files, sorted.
fn package_dirs(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut dirs = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut has_go = false;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if entry.file_name() != "testdata" {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "go") {
                has_go = true;
            }
        }
        if has_go && dir != root {
            dirs.push(dir);
        }
    }
    dirs.sort();
    Ok(dirs)
}

/// A package's API group, as `kdv-rules` reads it: its `+groupName=` tag, else its
/// `GroupName` constant.
fn group_of(package: &Package) -> Option<String> {
    if let Some(group) = package.tags.raw_values("groupName").into_iter().next() {
        return Some(group);
    }
    package.consts.iter().find_map(|c| match &c.value {
        ConstValue::String(s) if c.name == "GroupName" => Some(s.clone()),
        _ => None,
    })
}

/// Compiles the package's rules with every `TypeMeta` type a root, as the API server selects
/// them; errors stop the tool (the embedded data must compile cleanly).
fn check_compiles(universe: &Universe, package: &str) -> Result<(), String> {
    let mut universe = universe.clone();
    kdv_go::add_well_known_packages(&mut universe);
    let compiled = kdv_rules::compile_with(
        &universe,
        &kdv_rules::CompileOptions {
            roots: kdv_rules::Roots::TypeMeta,
            package: Some(package.to_string()),
            lint: false,
        },
    );
    let errors: Vec<String> = compiled
        .diagnostics
        .iter()
        .filter(|d| d.severity == kdv_model::Severity::Error)
        .map(ToString::to_string)
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("{package}: {}", errors.join("\n")))
    }
}

/// Drops what validation never reads: descriptions; the directory; tags of other generators
/// (`+k8s:deepcopy-gen`, `+genclient`, `+protobuf`, ...: only `+k8s:` validation tags,
/// `+default` and `+groupName` are kept); constants that are neither of a named type (enum
/// members) nor the package's `GroupName`; and every line of the file texts but the tag lines
/// (`// +...`), which diagnostics and `kdv explain` quote — other lines are kept empty, so line
/// numbers stay as in the source, and every offset is moved to its place in the reduced text
/// (its line's start + its column), where `kdv-model` finds a line in constant time. Names the
/// files by module version
/// (`k8s.io/api@v0.36.3/apps/v1/types.go`).
fn reduce(package: &mut Package, prefix: &str) {
    package.dir = None;
    for file in &mut package.files {
        let name = file
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        file.path = PathBuf::from(format!("{prefix}/{name}"));
        file.text = tag_lines_only(&file.text);
    }
    let line_starts: Vec<Vec<u32>> = package
        .files
        .iter()
        .map(|f| {
            std::iter::once(0)
                .chain(f.text.match_indices('\n').map(|(i, _)| i as u32 + 1))
                .collect()
        })
        .collect();
    let relocate = |loc: &mut kdv_model::Loc| {
        let start = line_starts
            .get(loc.file as usize)
            .and_then(|starts| starts.get(loc.line.saturating_sub(1) as usize));
        loc.offset = match start {
            Some(s) => s.saturating_add(loc.col.saturating_sub(1)),
            None => u32::MAX,
        };
    };
    keep_tags(&mut package.tags);
    for t in &mut package.types {
        t.description.clear();
        keep_tags(&mut t.tags);
        keep_tags(&mut t.detached_tags);
        reduce_type(&mut t.def);
    }
    package
        .consts
        .retain(|c| matches!(c.ty, Some(TypeRef::Named(_))) || c.name == "GroupName");
    for c in &mut package.consts {
        c.description.clear();
        keep_tags(&mut c.tags);
    }
    for_each_loc(package, &mut |loc| relocate(loc));
}

/// Calls `f` on every location of the package's declarations and tags.
fn for_each_loc(package: &mut Package, f: &mut dyn FnMut(&mut kdv_model::Loc)) {
    fn tags(t: &mut kdv_model::Tags, f: &mut dyn FnMut(&mut kdv_model::Loc)) {
        for l in &mut t.lines {
            f(&mut l.loc);
        }
    }
    fn ty(t: &mut TypeRef, f: &mut dyn FnMut(&mut kdv_model::Loc)) {
        match t {
            TypeRef::Struct(s) => {
                for field in &mut s.fields {
                    f(&mut field.loc);
                    tags(&mut field.tags, f);
                    ty(&mut field.ty, f);
                }
            }
            TypeRef::Pointer(t) | TypeRef::Slice(t) => ty(t, f),
            TypeRef::Array { elem, .. } => ty(elem, f),
            TypeRef::Map { key, value } => {
                ty(key, f);
                ty(value, f);
            }
            _ => {}
        }
    }
    tags(&mut package.tags, f);
    for t in &mut package.types {
        f(&mut t.loc);
        tags(&mut t.tags, f);
        tags(&mut t.detached_tags, f);
        ty(&mut t.def, f);
    }
    for c in &mut package.consts {
        f(&mut c.loc);
        tags(&mut c.tags, f);
    }
}

/// The fields of struct types (nested ones too) reduced as [`reduce`] does.
fn reduce_type(ty: &mut TypeRef) {
    match ty {
        TypeRef::Struct(s) => {
            for f in &mut s.fields {
                f.description.clear();
                keep_tags(&mut f.tags);
                reduce_type(&mut f.ty);
            }
        }
        TypeRef::Pointer(t) | TypeRef::Slice(t) => reduce_type(t),
        TypeRef::Array { elem, .. } => reduce_type(elem),
        TypeRef::Map { key, value } => {
            reduce_type(key);
            reduce_type(value);
        }
        _ => {}
    }
}

/// Keeps the tags validation reads: `+k8s:` tags but other generators', `+default`,
/// `+groupName`.
fn keep_tags(tags: &mut kdv_model::Tags) {
    const OTHER_GENERATORS: &[&str] = &[
        "k8s:deepcopy-gen",
        "k8s:prerelease-lifecycle-gen",
        "k8s:openapi-gen",
        "k8s:openapi-model-package",
        "k8s:protobuf-gen",
        "k8s:conversion-gen",
        "k8s:deprecated",
    ];
    tags.lines.retain(|l| {
        l.name.starts_with("k8s:")
            && !OTHER_GENERATORS
                .iter()
                .any(|g| l.name == *g || l.name.starts_with(&format!("{g}:")))
            || l.name == "default"
            || l.name == "groupName"
    });
}

fn count_k8s_tags(package: &Package) -> usize {
    let k8s = |tags: &kdv_model::Tags| {
        tags.lines
            .iter()
            .filter(|l| l.name.starts_with("k8s:"))
            .count()
    };
    let mut n = k8s(&package.tags);
    for t in &package.types {
        n += k8s(&t.tags) + k8s(&t.detached_tags);
        if let TypeRef::Struct(s) = &t.def {
            n += s.fields.iter().map(|f| k8s(&f.tags)).sum::<usize>();
        }
    }
    n + package.consts.iter().map(|c| k8s(&c.tags)).sum::<usize>()
}

/// The text with every line that is not a tag line (`// +...`) emptied (its newline kept);
/// empty when no line is a tag line.
fn tag_lines_only(text: &str) -> String {
    let mut out = String::new();
    let mut any = false;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let is_tag = trimmed
            .strip_prefix("//")
            .is_some_and(|rest| rest.trim_start().starts_with('+'));
        if is_tag {
            any = true;
            out.push_str(line);
        } else if line.ends_with('\n') {
            out.push('\n');
        }
    }
    if any { out } else { String::new() }
}
