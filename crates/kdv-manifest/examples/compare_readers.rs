//! Reads every YAML/JSON file under the directories given as arguments with both readers and
//! checks they agree (`kdv_manifest::invariants::check_fast`: same values, same positions);
//! panics on the first disagreement. For corpora too large for the test suite, such as the
//! CLI workload's output:
//!
//! ```sh
//! cargo run --release -p kdv-manifest --example compare_readers -- $OUT_DIR/deploy $OUT_DIR/widget
//! ```

use std::path::{Path, PathBuf};

fn main() {
    let mut files = Vec::new();
    for dir in std::env::args().skip(1) {
        yaml_files(Path::new(&dir), &mut files);
    }
    let mut documents = 0;
    for file in &files {
        match std::fs::read(file) {
            Ok(bytes) => documents += kdv_manifest::invariants::check_fast(&bytes),
            Err(e) => eprintln!("{}: {e}", file.display()),
        }
    }
    println!(
        "{} files, {documents} documents read by the fast reader, all alike",
        files.len()
    );
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
        {
            out.push(path);
        }
    }
}
