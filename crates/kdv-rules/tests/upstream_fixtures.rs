//! Compiles every upstream validation-gen fixture package (`output_tests/**`): all of them
//! generate successfully upstream, so none may produce an error diagnostic here. Reads the
//! checkout named by `KDV_UPSTREAM_CODEGEN`; skips (and passes) when it is unset.

use std::path::{Path, PathBuf};

fn go_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut has_go = false;
    let mut subdirs = Vec::new();
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            subdirs.push(p);
        } else if p.extension().is_some_and(|x| x == "go")
            && !p.to_string_lossy().ends_with("_test.go")
        {
            has_go = true;
        }
    }
    if has_go {
        out.push(dir.to_path_buf());
    }
    subdirs.sort();
    for d in subdirs {
        go_dirs(&d, out);
    }
}

#[test]
fn upstream_fixtures_compile_without_errors() {
    let Ok(root) = std::env::var("KDV_UPSTREAM_CODEGEN") else {
        eprintln!("skipped: KDV_UPSTREAM_CODEGEN is not set");
        return;
    };
    let base = Path::new(&root).join("cmd/validation-gen/output_tests");
    let mut dirs = Vec::new();
    go_dirs(&base, &mut dirs);
    assert!(
        dirs.len() > 100,
        "found only {} fixture packages",
        dirs.len()
    );
    let mut failures = Vec::new();
    for dir in &dirs {
        let (universe, _) = match kdv_go::load_universe(dir) {
            Ok(u) => u,
            Err(kdv_go::LoadError::NoGoFiles { .. }) => continue,
            Err(e) => {
                failures.push(format!("{}: load: {e}", dir.display()));
                continue;
            }
        };
        let compiled = kdv_rules::compile(&universe);
        for d in &compiled.diagnostics {
            if d.severity == kdv_rules::Severity::Error {
                failures.push(format!("{}: {d}", dir.display()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} errors:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
