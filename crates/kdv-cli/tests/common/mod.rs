//! What the end-to-end test files share: running the `kdv` binary (from the repository root
//! by default) and reading what it printed, and git (scratch folders are
//! `kdv_test_support::Scratch`).

#![allow(dead_code)] // each test file uses its own part of this module

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

/// The repository root, where every test runs `kdv` unless it says otherwise.
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
    /// Exit status, stdout and stderr as one text, for assertions and snapshots. Paths need
    /// no normalising: the tests run in the repository root and name every input with a
    /// relative `/` path.
    pub fn transcript(&self) -> String {
        format!(
            "exit: {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }

    /// Stdout as one JSON document.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not one JSON document ({e}):\n{}\n--- stderr\n{}",
                self.stdout, self.stderr
            )
        })
    }
}

/// Runs `kdv` with `args` in the repository root; what it prints must be UTF-8.
pub fn kdv<S: AsRef<OsStr>>(args: &[S]) -> Run {
    Kdv::new(args).run()
}

/// Runs `kdv` with `args` in `dir`; what it prints must be UTF-8.
pub fn kdv_in<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Run {
    Kdv::new(args).current_dir(dir).run()
}

/// One run of `kdv`, set up before it starts: in the repository root, with nothing on
/// standard input, no time limit and UTF-8 output unless told otherwise.
pub struct Kdv {
    command: assert_cmd::Command,
    lossy: bool,
}

impl Kdv {
    /// `kdv` with `args`.
    pub fn new<S: AsRef<OsStr>>(args: &[S]) -> Kdv {
        let mut command = cargo_bin_cmd!("kdv");
        command.current_dir(root()).args(args);
        Kdv {
            command,
            lossy: false,
        }
    }

    /// Runs in `dir` instead of the repository root.
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Kdv {
        self.command.current_dir(dir);
        self
    }

    /// Writes `bytes` to standard input.
    pub fn stdin(mut self, bytes: impl AsRef<[u8]>) -> Kdv {
        self.command.write_stdin(bytes.as_ref().to_vec());
        self
    }

    /// Kills `kdv` if it has not ended after `limit` (its code is then -1): for tests where
    /// a hang is the bug.
    pub fn timeout(mut self, limit: Duration) -> Kdv {
        self.command.timeout(limit);
        self
    }

    /// Accepts output that is not UTF-8, replacing what is not.
    pub fn lossy(mut self) -> Kdv {
        self.lossy = true;
        self
    }

    /// Runs `kdv` to its end.
    pub fn run(mut self) -> Run {
        let output = self.command.output().expect("kdv runs");
        let text = |bytes: Vec<u8>, stream: &str| {
            if self.lossy {
                String::from_utf8_lossy(&bytes).into_owned()
            } else {
                String::from_utf8(bytes).unwrap_or_else(|e| panic!("{stream} is not UTF-8: {e}"))
            }
        };
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: text(output.stdout, "stdout"),
            stderr: text(output.stderr, "stderr"),
        }
    }
}

/// Runs `git ARGS` in `dir` as a fixed author, unsigned, `main` the first branch. These
/// tests need git (installed in CI): they fail rather than skip without it.
pub fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=kdv",
            "-c",
            "user.email=kdv@example.com",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!("these tests need git (installed in CI), which cannot be run: {e}")
        });
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
