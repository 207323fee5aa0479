//! Turning the PATH arguments into the list of files to validate, pairing each file with its
//! old revision where there is one.
//!
//! Directories are walked recursively (hidden entries skipped) for `*.yaml`, `*.yml` and
//! `*.json`, in sorted path order. A file `x.old.yaml` (or `.yml`, `.json`) next to `x.yaml`
//! (or `.yml`, `.json`) is the old revision of `x`: `x` is then validated as an UPDATE
//! against it, and the old file is not validated on its own. The same pairing applies to a
//! file named on the command line, so validating a directory or one of its files gives the
//! same result; naming an `x.old.yaml` file itself validates it alone.
//!
//! What is read (decision): the walk takes regular files only, symlinks to regular files
//! included; a FIFO, device or socket with a manifest's name found in a directory is an
//! input error and is not opened (a FIFO could block forever, a device read without end).
//! Symlinks to directories are followed, each directory is walked once (a symlink back up
//! the tree ends there) and at most 64 levels deep. Named on the command line, a FIFO is
//! read (the user asked for it, like `-`), with the same size cap as any read; a device or
//! socket is an input error.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use kdv_manifest::Syntax;

use super::InputError;
use crate::file_name;

/// File name extensions of manifests, in the order used to name the expected new file.
const EXTENSIONS: [&str; 3] = ["yaml", "yml", "json"];
/// Deepest directory nesting walked; deeper trees are almost surely a mistake or a loop.
const MAX_DIR_DEPTH: usize = 64;

/// Where a stream of documents is read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Standard input (`-`).
    Stdin,
    File(PathBuf),
}

impl Source {
    /// The name used in messages and reports: the path as the user spelled it, escaped and
    /// quoted where needed (`crate::file_name`), or `<stdin>`.
    pub fn display_name(&self) -> String {
        match self {
            Source::Stdin => file_name::STDIN.to_string(),
            Source::File(path) => file_name::display(path),
        }
    }

    /// `.json` files hold one JSON value; everything else (stdin included) is read as a
    /// YAML stream, which also accepts JSON.
    pub fn syntax(&self) -> Syntax {
        match self {
            Source::File(path) if path.extension().is_some_and(|e| e == "json") => Syntax::Json,
            _ => Syntax::Yaml,
        }
    }
}

/// One unit of work: a stream to validate and, for UPDATE validation, its old revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// The stream to validate.
    pub new: Source,
    /// Its old revision, for UPDATE validation.
    pub old: Option<Source>,
}

/// Expands `paths` (files, directories, `-`) into jobs. Problems (missing paths, an old
/// revision without its new file, two old revisions for one file) are returned alongside the
/// jobs that could be planned, so every problem is reported in one run.
pub fn plan(paths: &[String]) -> (Vec<Job>, Vec<InputError>) {
    let mut jobs = Vec::new();
    let mut errors = Vec::new();
    for arg in paths {
        if arg == "-" {
            jobs.push(Job {
                new: Source::Stdin,
                old: None,
            });
            continue;
        }
        let path = PathBuf::from(arg);
        match fs::metadata(&path) {
            Err(e) => errors.push(InputError::file(
                file_name::display(&path),
                format!("cannot read: {e}"),
            )),
            Ok(meta) if meta.is_dir() => {
                let mut files = Vec::new();
                let mut visited = HashSet::new();
                walk(&path, 0, &mut visited, &mut files, &mut errors);
                // An empty directory is more likely a wrong path than nothing to check.
                if files.is_empty() {
                    errors.push(InputError::file(
                        file_name::display(&path),
                        "no *.yaml, *.yml or *.json files in this directory",
                    ));
                }
                // `walk` yields the files in `Path` order.
                debug_assert!(files.is_sorted());
                pair_directory_files(files, &mut jobs, &mut errors);
            }
            Ok(meta) => match special_kind(&meta.file_type()) {
                None | Some("FIFO") => jobs.push(plan_named_file(path, &mut errors)),
                Some(kind) => errors.push(InputError::file(
                    file_name::display(&path),
                    format!("is a {kind}, not a file; kdv reads files, FIFOs and `-`"),
                )),
            },
        }
    }
    (jobs, errors)
}

/// What a file that is neither a regular file nor a directory is (`FIFO`, `character
/// device`, ...); `None` for regular files and directories.
pub(crate) fn special_kind(file_type: &fs::FileType) -> Option<&'static str> {
    if file_type.is_file() || file_type.is_dir() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return Some("FIFO");
        }
        if file_type.is_char_device() {
            return Some("character device");
        }
        if file_type.is_block_device() {
            return Some("block device");
        }
        if file_type.is_socket() {
            return Some("socket");
        }
    }
    Some("special file")
}

fn walk(
    dir: &Path,
    depth: usize,
    visited: &mut HashSet<PathBuf>,
    files: &mut Vec<PathBuf>,
    errors: &mut Vec<InputError>,
) {
    let name = file_name::display(dir);
    if depth > MAX_DIR_DEPTH {
        errors.push(InputError::file(
            name,
            format!("directory tree deeper than {MAX_DIR_DEPTH} levels; not walked further"),
        ));
        return;
    }
    // A symlink back up the tree would otherwise be walked forever.
    if let Ok(canonical) = fs::canonicalize(dir)
        && !visited.insert(canonical)
    {
        return;
    }
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            errors.push(InputError::file(
                name,
                format!("cannot read directory: {e}"),
            ));
            return;
        }
    };
    let mut paths = Vec::new();
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                errors.push(InputError::file(
                    &name,
                    format!("cannot read directory: {e}"),
                ));
                continue;
            }
        };
        let file_name = entry.file_name();
        if file_name.as_encoded_bytes().starts_with(b".") {
            continue;
        }
        paths.push((file_name, entry.path(), entry.file_type().ok()));
    }
    // Sorted, so problems are reported in the same order on every run. Names of one
    // directory order their paths as `Path`'s order does (and are cheaper to compare): the
    // walk yields every file in `Path` order.
    paths.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    for (_, path, file_type) in paths {
        // A plain file's type comes with the directory entry; a symlink's target needs a stat.
        let meta = match file_type {
            Some(t) if t.is_file() && manifest_extension(&path).is_none() => continue,
            Some(t) if t.is_file() => {
                files.push(path);
                continue;
            }
            _ => fs::metadata(&path),
        };
        match meta {
            Ok(meta) if meta.is_dir() => walk(&path, depth + 1, visited, files, errors),
            Ok(_) if manifest_extension(&path).is_none() => {}
            Ok(meta) if meta.is_file() => files.push(path),
            Ok(meta) => {
                let kind = special_kind(&meta.file_type()).unwrap_or("special file");
                errors.push(InputError::file(
                    file_name::display(&path),
                    format!(
                        "is a {kind}, not a regular file; not read (name it on the command \
                         line to read a FIFO)"
                    ),
                ));
            }
            // A dangling symlink to a manifest is worth a message; other noise is not.
            Err(e) if manifest_extension(&path).is_some() => errors.push(InputError::file(
                file_name::display(&path),
                unreadable_entry(&path, &e),
            )),
            Err(_) => {}
        }
    }
}

/// Why a directory entry cannot be read: a dangling symlink says so and names its target
/// (the OS error alone, "No such file or directory", reads as if the entry were missing).
fn unreadable_entry(path: &Path, e: &std::io::Error) -> String {
    match fs::read_link(path) {
        Ok(target) if e.kind() == std::io::ErrorKind::NotFound => format!(
            "is a dangling symlink: its target {} does not exist",
            file_name::display(&target)
        ),
        Ok(target) => format!(
            "is a symlink to {} that cannot be read: {e}",
            file_name::display(&target)
        ),
        Err(_) => format!("cannot read: {e}"),
    }
}

fn manifest_extension(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?;
    EXTENSIONS.into_iter().find(|e| ext == *e)
}

/// `x.old.yaml` → `Some("x")`.
fn old_revision_of(path: &Path) -> Option<String> {
    manifest_extension(path)?;
    let stem = path.file_stem()?.to_str()?;
    stem.strip_suffix(".old")
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

fn pair_directory_files(files: Vec<PathBuf>, jobs: &mut Vec<Job>, errors: &mut Vec<InputError>) {
    // (directory, stem) → old revisions found.
    let mut olds: BTreeMap<(PathBuf, String), Vec<PathBuf>> = BTreeMap::new();
    let mut news = Vec::new();
    for file in files {
        match old_revision_of(&file) {
            Some(stem) => olds.entry((parent(&file), stem)).or_default().push(file),
            None => news.push(file),
        }
    }
    let mut used = HashSet::new();
    for file in news {
        let key = (parent(&file), stem_of(&file));
        let old = match olds.get(&key).map(Vec::as_slice) {
            None | Some([]) => None,
            Some([old]) => {
                used.insert(key);
                Some(Source::File(old.clone()))
            }
            Some(many) => {
                used.insert(key);
                errors.push(ambiguous_old(&file, many));
                continue;
            }
        };
        jobs.push(Job {
            new: Source::File(file),
            old,
        });
    }
    for (key, paths) in olds {
        if !used.contains(&key) {
            for path in paths {
                errors.push(InputError::file(
                    file_name::display(&path),
                    format!(
                        "old revision without a new file: expected {} next to it",
                        expected_new_names(&key.1)
                    ),
                ));
            }
        }
    }
}

fn plan_named_file(path: PathBuf, errors: &mut Vec<InputError>) -> Job {
    if old_revision_of(&path).is_some() || manifest_extension(&path).is_none() {
        return Job {
            new: Source::File(path),
            old: None,
        };
    }
    let stem = stem_of(&path);
    let dir = path.parent().unwrap_or(Path::new(""));
    let olds: Vec<PathBuf> = EXTENSIONS
        .iter()
        .map(|ext| dir.join(format!("{stem}.old.{ext}")))
        .filter(|p| p.is_file())
        .collect();
    match olds.as_slice() {
        [] => Job {
            new: Source::File(path),
            old: None,
        },
        [old] => Job {
            old: Some(Source::File(old.clone())),
            new: Source::File(path),
        },
        many => {
            errors.push(ambiguous_old(&path, many));
            Job {
                new: Source::File(path),
                old: None,
            }
        }
    }
}

fn ambiguous_old(file: &Path, olds: &[PathBuf]) -> InputError {
    let names: Vec<String> = olds.iter().map(|p| file_name::display(p)).collect();
    InputError::file(
        file_name::display(file),
        format!("more than one old revision: {}; keep one", names.join(", ")),
    )
}

fn expected_new_names(stem: &str) -> String {
    let names: Vec<String> = EXTENSIONS.iter().map(|e| format!("{stem}.{e}")).collect();
    names.join(" or ")
}

fn parent(path: &Path) -> PathBuf {
    path.parent().map(Path::to_path_buf).unwrap_or_default()
}

fn stem_of(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch directory under the target dir's temp, removed on drop.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir = std::env::temp_dir()
                .join(format!("kdv-cli-discover-{}-{name}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn file(&self, rel: &str) -> &Self {
            let path = self.0.join(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "a: 1\n").unwrap();
            self
        }

        fn arg(&self) -> String {
            self.0.display().to_string()
        }

        fn rel(&self, source: &Source) -> String {
            match source {
                Source::Stdin => "-".into(),
                Source::File(p) => p
                    .strip_prefix(&self.0)
                    .unwrap()
                    .display()
                    .to_string()
                    .replace('\\', "/"),
            }
        }

        fn rel_jobs(&self, jobs: &[Job]) -> Vec<(String, Option<String>)> {
            jobs.iter()
                .map(|j| (self.rel(&j.new), j.old.as_ref().map(|o| self.rel(o))))
                .collect()
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn walks_recursively_sorted_and_pairs_old_revisions() {
        let s = Scratch::new("walk");
        s.file("b.yaml")
            .file("a.yml")
            .file("sub/c.json")
            .file("sub/c.old.yaml")
            .file("notes.txt")
            .file(".hidden/x.yaml")
            .file(".y.yaml");
        let (jobs, errors) = plan(&[s.arg()]);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            s.rel_jobs(&jobs),
            vec![
                ("a.yml".into(), None),
                ("b.yaml".into(), None),
                ("sub/c.json".into(), Some("sub/c.old.yaml".into())),
            ]
        );
    }

    #[test]
    fn orphan_and_ambiguous_old_revisions_are_errors() {
        let s = Scratch::new("orphan");
        s.file("lonely.old.yaml")
            .file("x.yaml")
            .file("x.old.yaml")
            .file("x.old.json");
        let (jobs, errors) = plan(&[s.arg()]);
        assert!(jobs.is_empty(), "{jobs:?}");
        let messages: Vec<String> = errors.iter().map(|e| e.message.clone()).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(messages[0].starts_with("more than one old revision"));
        assert_eq!(
            messages[1],
            "old revision without a new file: expected lonely.yaml or lonely.yml or lonely.json next to it"
        );
    }

    #[test]
    fn named_file_picks_up_its_sibling_old_revision() {
        let s = Scratch::new("named");
        s.file("x.yaml").file("x.old.yml").file("y.yaml");
        let x = s.0.join("x.yaml").display().to_string();
        let old = s.0.join("x.old.yml").display().to_string();
        let y = s.0.join("y.yaml").display().to_string();
        let (jobs, errors) = plan(&[x, old, y, "-".into()]);
        assert!(errors.is_empty());
        assert_eq!(
            s.rel_jobs(&jobs),
            vec![
                ("x.yaml".into(), Some("x.old.yml".into())),
                ("x.old.yml".into(), None),
                ("y.yaml".into(), None),
                ("-".into(), None),
            ]
        );
    }

    #[test]
    fn directory_without_manifests_is_reported() {
        let s = Scratch::new("empty");
        s.file("notes.txt");
        let (jobs, errors) = plan(&[s.arg()]);
        assert!(jobs.is_empty());
        assert_eq!(
            errors[0].message,
            "no *.yaml, *.yml or *.json files in this directory"
        );
    }

    #[test]
    fn missing_path_is_reported() {
        let (jobs, errors) = plan(&["/definitely/not/here.yaml".into()]);
        assert!(jobs.is_empty());
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0]
                .to_string()
                .starts_with("/definitely/not/here.yaml: cannot read")
        );
    }

    #[test]
    fn syntax_follows_the_extension() {
        assert_eq!(Source::File("a.json".into()).syntax(), Syntax::Json);
        assert_eq!(Source::File("a.yaml".into()).syntax(), Syntax::Yaml);
        assert_eq!(Source::Stdin.syntax(), Syntax::Yaml);
        assert_eq!(old_revision_of(Path::new("d/x.old.yaml")), Some("x".into()));
        assert_eq!(old_revision_of(Path::new("d/.old.yaml")), None);
        assert_eq!(old_revision_of(Path::new("d/x.old.txt")), None);
    }
}
