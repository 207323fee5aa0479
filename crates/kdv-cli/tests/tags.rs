//! End-to-end tests of every tag of the catalog through `kdv validate`: each tag has a Go
//! API package under `tests/fixtures/tags/<package>/` and manifests under
//! `cases/<tag>/` (see `tests/fixtures/tags/README.md`). Each case checks its exit status;
//! the errors of all cases of a tag are one snapshot (`snapshots/tags__tag_<tag>.snap`).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{Run, kdv, root};
use serde_json::Value;

const TAGS: &str = "crates/kdv-cli/tests/fixtures/tags";

/// Tags for which an update case makes no sense.
const WITHOUT_UPDATE: &[(&str, &str)] = &[(
    "validateError",
    "the types never compile, so nothing is validated",
)];

/// Tags without a valid case.
const WITHOUT_VALID: &[(&str, &str)] = &[("validateError", "every use is a compile error")];

/// One tag's cases: the Go package and the case directory.
struct TagCases {
    package: String,
    dir: PathBuf,
}

/// Every `cases/<tag>` directory of every fixture package, by tag name (without `k8s:`).
fn tag_cases() -> BTreeMap<String, TagCases> {
    let mut out = BTreeMap::new();
    let base = root().join(TAGS);
    for package in sorted_entries(&base).into_iter().filter(|p| p.is_dir()) {
        let cases = package.join("cases");
        if !cases.is_dir() {
            continue;
        }
        for dir in sorted_entries(&cases).into_iter().filter(|p| p.is_dir()) {
            let tag = file_name(&dir);
            let previous = out.insert(
                tag.clone(),
                TagCases {
                    package: file_name(&package),
                    dir,
                },
            );
            assert!(previous.is_none(), "cases for {tag} in two packages");
        }
    }
    out
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    entries
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .expect("a file name")
        .to_string_lossy()
        .into_owned()
}

/// The case manifests of a tag (old revisions excluded), sorted.
fn case_files(dir: &Path) -> Vec<String> {
    sorted_entries(dir)
        .iter()
        .map(|p| file_name(p))
        .filter(|n| n.ends_with(".yaml") && !n.ends_with(".old.yaml"))
        .collect()
}

/// The Go sources of a fixture package, concatenated.
fn go_sources(package: &str) -> String {
    let dir = root().join(TAGS).join(package);
    sorted_entries(&dir)
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "go"))
        .map(|p| std::fs::read_to_string(p).expect("Go source"))
        .collect()
}

/// Whether `source` uses the tag `+k8s:<tag>` (not just a longer tag name starting so).
fn uses_tag(source: &str, tag: &str) -> bool {
    let needle = format!("+k8s:{tag}");
    source.match_indices(&needle).any(|(i, _)| {
        !source[i + needle.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

#[test]
fn every_catalog_tag_has_end_to_end_cases() {
    let cases = tag_cases();
    let mut problems = Vec::new();
    for doc in kdv_rules::catalog() {
        let tag = doc.name.trim_start_matches("k8s:");
        let Some(found) = cases.get(tag) else {
            problems.push(format!("{tag}: no {TAGS}/<package>/cases/{tag}/ directory"));
            continue;
        };
        let files = case_files(&found.dir);
        let has = |prefix: &str| files.iter().any(|f| f.starts_with(prefix));
        let exempt = |list: &[(&str, &str)]| list.iter().any(|(t, _)| *t == tag);
        if !has("valid") && !exempt(WITHOUT_VALID) {
            problems.push(format!("{tag}: no valid*.yaml case"));
        }
        if !has("invalid") {
            problems.push(format!("{tag}: no invalid*.yaml case"));
        }
        let has_updates = has("update-pass") && has("update-fail");
        if !has_updates && !exempt(WITHOUT_UPDATE) {
            problems.push(format!(
                "{tag}: needs update-pass*.yaml and update-fail*.yaml"
            ));
        }
        if !uses_tag(&go_sources(&found.package), tag) {
            problems.push(format!(
                "{tag}: the Go sources of {TAGS}/{} do not use +k8s:{tag}",
                found.package
            ));
        }
    }
    // kdv's extensions outside `+k8s:` (`+validationRule`).
    for doc in kdv_rules::EXTENSION_TAGS {
        let dir = extension_dir(doc.name);
        let Some(found) = cases.get(&dir) else {
            problems.push(format!(
                "{}: no {TAGS}/<package>/cases/{dir}/ directory",
                doc.name
            ));
            continue;
        };
        let files = case_files(&found.dir);
        for prefix in ["valid", "invalid", "update-pass", "update-fail"] {
            if !files.iter().any(|f| f.starts_with(prefix)) {
                problems.push(format!("{}: no {prefix}*.yaml case", doc.name));
            }
        }
        // A form of a catalog tag (`k8s:minimum(constraint: <path>)`) is found by its
        // text up to the placeholder.
        let needle = match doc.name.split_once(" <") {
            Some((form, _)) => format!("+{form}"),
            None => format!("+{}=", doc.name),
        };
        if !go_sources(&found.package).contains(&needle) {
            problems.push(format!(
                "{}: the Go sources do not use +{}",
                doc.name, doc.name
            ));
        }
    }
    for tag in cases.keys() {
        if !kdv_rules::is_known_tag(&format!("k8s:{tag}"))
            && !kdv_rules::EXTENSION_TAGS
                .iter()
                .any(|d| extension_dir(d.name) == *tag)
        {
            problems.push(format!("cases/{tag}: not a tag of the catalog"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The case directory of a kdv extension outside the catalog: its name, with each run of
/// other characters than letters and digits as one `-` (`k8s:minimum(constraint: <path>)`
/// → `minimum-constraint-path`).
fn extension_dir(name: &str) -> String {
    let name = name.strip_prefix("k8s:").unwrap_or(name);
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

#[test]
fn the_coverage_check_sees_tag_names_exactly() {
    let src = "// +k8s:validateTrueAlpha=\"x\"\n// +k8s:minimum=1\n";
    assert!(uses_tag(src, "validateTrueAlpha"));
    assert!(!uses_tag(src, "validateTrue"));
    assert!(uses_tag(src, "minimum"));
    assert!(!uses_tag(src, "min"));
}

/// What a case expects, from its name and its `# kdv:` / `# exit:` comment lines.
struct Case {
    file: String,
    args: Vec<String>,
    exit: i32,
    comments: Vec<String>,
}

fn read_case(dir: &Path, file: &str) -> Case {
    let text = std::fs::read_to_string(dir.join(file)).expect("case manifest");
    let mut args = Vec::new();
    let mut exit = None;
    let mut comments = Vec::new();
    for line in text.lines().take_while(|l| l.starts_with('#')) {
        let line = line.trim_start_matches('#').trim();
        if let Some(a) = line.strip_prefix("kdv:") {
            args.extend(a.split_whitespace().map(str::to_string));
        } else if let Some(n) = line.strip_prefix("exit:") {
            exit = Some(n.trim().parse().expect("exit status"));
        } else {
            comments.push(line.to_string());
        }
    }
    let by_name = if file.starts_with("valid") || file.starts_with("update-pass") {
        0
    } else if file.starts_with("invalid") || file.starts_with("update-fail") {
        1
    } else {
        panic!("{file}: a case is named valid*, invalid*, update-pass* or update-fail*")
    };
    Case {
        file: file.to_string(),
        args,
        exit: exit.unwrap_or(by_name),
        comments,
    }
}

/// Runs one case; returns its transcript and exit status.
fn run_case(package: &str, dir: &Path, case: &Case) -> (String, i32) {
    let path = dir.join(&case.file);
    let rel = path
        .strip_prefix(root())
        .unwrap_or(&path)
        .to_string_lossy()
        .replace('\\', "/");
    let types = format!("{TAGS}/{package}");
    let mut args = vec!["validate", "--types", &types, "-o", "json"];
    args.extend(case.args.iter().map(String::as_str));
    args.push(&rel);
    let Run {
        code,
        stdout,
        stderr,
    } = kdv(&args);

    let mut t = String::new();
    let old = case.file.replace(".yaml", ".old.yaml");
    let operation = if dir.join(&old).is_file() {
        format!("UPDATE from {old}")
    } else {
        "CREATE".to_string()
    };
    t.push_str(&format!("== {} ({operation}) exit {code}\n", case.file));
    if !case.args.is_empty() {
        t.push_str(&format!("   args: {}\n", case.args.join(" ")));
    }
    for c in &case.comments {
        t.push_str(&format!("   # {c}\n"));
    }
    if !stdout.is_empty() {
        let report: Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("{rel}: stdout is not JSON ({e}):\n{stdout}"));
        for doc in report["documents"].as_array().into_iter().flatten() {
            let errors = doc["errors"].as_array().cloned().unwrap_or_default();
            if errors.is_empty() {
                t.push_str("   valid\n");
            }
            for e in errors {
                let mut line = format!("   {}", e["type"].as_str().unwrap_or("?"));
                if let Some(origin) = e["origin"].as_str().filter(|o| !o.is_empty()) {
                    line.push_str(&format!(" origin={origin}"));
                }
                if let Some(level) = e["stability"].as_str() {
                    line.push_str(&format!(" [{level}]"));
                }
                if e["declarativeNative"] == Value::Bool(true) {
                    line.push_str(" [native]");
                }
                line.push_str(&format!(": {}\n", e["message"].as_str().unwrap_or("?")));
                t.push_str(&line);
            }
        }
        for e in report["inputErrors"].as_array().into_iter().flatten() {
            t.push_str(&format!(
                "   input error: {}\n",
                e["text"].as_str().unwrap_or("?")
            ));
        }
    }
    for line in stderr.lines() {
        t.push_str(&format!("   stderr: {line}\n"));
    }
    (t, code)
}

#[test]
fn each_tag_end_to_end() {
    let mut wrong_exit = Vec::new();
    for (tag, found) in tag_cases() {
        let mut transcript = String::new();
        for file in case_files(&found.dir) {
            let case = read_case(&found.dir, &file);
            let (text, code) = run_case(&found.package, &found.dir, &case);
            if code != case.exit {
                wrong_exit.push(format!(
                    "{tag}/{file}: exit {code}, want {}\n{text}",
                    case.exit
                ));
            }
            transcript.push_str(&text);
        }
        insta::assert_snapshot!(format!("tag_{tag}"), transcript);
    }
    assert!(wrong_exit.is_empty(), "{}", wrong_exit.join("\n"));
}
