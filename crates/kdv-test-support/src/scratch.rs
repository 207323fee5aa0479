//! [`Scratch`]: a fresh folder of one test, removed when dropped.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// Folders made by this process so far: with the process id, a name no other test (of this
/// binary or another running beside it) uses.
static MADE: AtomicU32 = AtomicU32::new(0);

/// A fresh folder of one test under the system's temporary folder, removed when dropped.
pub struct Scratch(PathBuf);

impl Scratch {
    /// An empty folder whose name ends in `name` (for a reader of the temporary folder).
    pub fn new(name: &str) -> Scratch {
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("kdv-test-{}-{n}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch folder");
        Scratch(dir)
    }

    /// A scratch folder holding `files` (name, bytes).
    pub fn with_files(name: &str, files: &[(&str, &[u8])]) -> Scratch {
        let scratch = Scratch::new(name);
        for (file, bytes) in files {
            scratch.write(file, bytes);
        }
        scratch
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The folder, as text.
    pub fn dir(&self) -> &str {
        self.0.to_str().expect("UTF-8 path")
    }

    /// The path of `name` in the folder, as text.
    pub fn file(&self, name: &str) -> String {
        self.0.join(name).to_str().expect("UTF-8 path").to_string()
    }

    /// Writes `bytes` to `name` in the folder (creating the folders `name` names); returns
    /// its path as text.
    pub fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> String {
        let path = self.0.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("scratch folder");
        }
        std::fs::write(&path, bytes).expect("write");
        self.file(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_are_fresh_distinct_and_removed() {
        let a = Scratch::with_files("same", &[("x/y.txt", b"1")]);
        let b = Scratch::new("same");
        assert_ne!(a.path(), b.path());
        assert_eq!(std::fs::read_to_string(a.file("x/y.txt")).unwrap(), "1");
        assert!(std::fs::read_dir(b.path()).unwrap().next().is_none());
        let kept = a.path().to_path_buf();
        drop(a);
        assert!(!kept.exists());
    }
}
