//! What the end-to-end test files share: running the `kdv` binary from the repository root and
//! reading what it printed.

#![allow(dead_code)] // each test file uses its own part of this module

use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;

/// The repository root, where every test runs `kdv`.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// What one run of `kdv` printed and how it exited.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Exit status, stdout and stderr as one text, for assertions and snapshots.
    pub fn transcript(&self) -> String {
        format!(
            "exit: {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// Runs `kdv` with `args` in the repository root.
pub fn kdv(args: &[&str]) -> Run {
    let output = cargo_bin_cmd!("kdv")
        .current_dir(root())
        .args(args)
        .output()
        .expect("kdv runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}
