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
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

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
    let mut planner = Planner::new(paths);
    let jobs = planner.by_ref().collect();
    (jobs, planner.finish())
}

/// [`plan`] as an iterator: the jobs in the same order, found as they are asked for, so a
/// run over a million files never holds the list of them. Directories are read one at a
/// time, when the walk reaches them: what is held is the sorted names of the directories
/// being walked (the current one and its ancestors; a directory with a million entries
/// directly in it needs its million names), one identity per directory walked (a symlink
/// must not walk one twice), and the problems found. The problems come from
/// [`Planner::finish`], in [`plan`]'s order.
pub struct Planner<'a> {
    args: std::slice::Iter<'a, String>,
    /// The directory argument being walked.
    walk: Option<Walk>,
    errors: Vec<InputError>,
    /// Counts the jobs handed out (for a progress bar's total).
    found: Option<&'a AtomicUsize>,
}

impl<'a> Planner<'a> {
    /// A planner of `paths`' jobs.
    pub fn new(paths: &'a [String]) -> Planner<'a> {
        Planner {
            args: paths.iter(),
            walk: None,
            errors: Vec::new(),
            found: None,
        }
    }

    /// Counts every job handed out in `found`.
    pub fn counting(mut self, found: &'a AtomicUsize) -> Planner<'a> {
        self.found = Some(found);
        self
    }

    /// The problems met, once every job has been taken.
    pub fn finish(self) -> Vec<InputError> {
        self.errors
    }

    /// Names of directory entries held (not walked yet).
    #[cfg(test)]
    fn names_held(&self) -> usize {
        self.walk.as_ref().map_or(0, Walk::names_held)
    }

    fn found(&self, job: Job) -> Option<Job> {
        if let Some(found) = self.found {
            found.fetch_add(1, Ordering::Relaxed);
        }
        Some(job)
    }
}

impl Iterator for Planner<'_> {
    type Item = Job;

    fn next(&mut self) -> Option<Job> {
        loop {
            if let Some(walk) = &mut self.walk {
                match walk.step(&mut self.errors) {
                    Step::Job(job) => return self.found(job),
                    Step::Next => continue,
                    Step::Done => {
                        if let Some(walk) = self.walk.take() {
                            walk.finish(&mut self.errors);
                        }
                        continue;
                    }
                }
            }
            let arg = self.args.next()?;
            if arg == "-" {
                return self.found(Job {
                    new: Source::Stdin,
                    old: None,
                });
            }
            let path = PathBuf::from(arg);
            match fs::metadata(&path) {
                Err(e) => self.errors.push(InputError::file(
                    file_name::display(&path),
                    format!("cannot read: {e}"),
                )),
                Ok(meta) if meta.is_dir() => {
                    let mut walk = Walk {
                        root: path.clone(),
                        visited: HashSet::new(),
                        stack: Vec::new(),
                        files: 0,
                        ambiguous: Vec::new(),
                        orphans: BTreeMap::new(),
                    };
                    walk.enter(path, 0, &mut self.errors);
                    self.walk = Some(walk);
                }
                Ok(meta) => match special_kind(&meta.file_type()) {
                    None | Some("FIFO") => {
                        let job = plan_named_file(path, &mut self.errors);
                        return self.found(job);
                    }
                    Some(kind) => self.errors.push(InputError::file(
                        file_name::display(&path),
                        format!("is a {kind}, not a file; kdv reads files, FIFOs and `-`"),
                    )),
                },
            }
        }
    }
}

/// The walk of one directory argument.
struct Walk {
    root: PathBuf,
    /// Every directory walked (canonical), so a symlink back up the tree ends there.
    visited: HashSet<PathBuf>,
    /// The directories being walked, innermost last.
    stack: Vec<Frame>,
    /// Files found (new and old revisions).
    files: usize,
    /// Files with more than one old revision, in walk order (reported after the walk's
    /// other problems).
    ambiguous: Vec<InputError>,
    /// Old revisions without a new file, by directory and stem (reported last).
    orphans: BTreeMap<(PathBuf, String), Vec<PathBuf>>,
}

/// A directory being walked.
struct Frame {
    dir: PathBuf,
    depth: usize,
    /// Its entries' names (hidden ones left out), sorted, with their types when the
    /// directory listing gives them; a name is dropped once walked.
    entries: Vec<(OsString, Option<fs::FileType>)>,
    /// The next entry to walk.
    next: usize,
    /// Its old revisions (files only), by stem.
    olds: BTreeMap<String, Vec<PathBuf>>,
    /// Stems of the old revisions a new file took.
    used: HashSet<String>,
}

/// What one step of a walk found.
enum Step {
    Job(Job),
    Next,
    Done,
}

impl Walk {
    /// Reads `dir`'s listing and makes it the directory being walked.
    fn enter(&mut self, dir: PathBuf, depth: usize, errors: &mut Vec<InputError>) {
        let name = file_name::display(&dir);
        if depth > MAX_DIR_DEPTH {
            errors.push(InputError::file(
                name,
                format!("directory tree deeper than {MAX_DIR_DEPTH} levels; not walked further"),
            ));
            return;
        }
        // A symlink back up the tree would otherwise be walked forever.
        if let Ok(canonical) = fs::canonicalize(&dir)
            && !self.visited.insert(canonical)
        {
            return;
        }
        let listing = match fs::read_dir(&dir) {
            Ok(listing) => listing,
            Err(e) => {
                errors.push(InputError::file(
                    name,
                    format!("cannot read directory: {e}"),
                ));
                return;
            }
        };
        let mut entries = Vec::new();
        for entry in listing {
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
            entries.push((file_name, entry.file_type().ok()));
        }
        // Sorted, so problems are reported in the same order on every run. Names of one
        // directory order their paths as `Path`'s order does (and are cheaper to compare):
        // the walk yields every file in `Path` order.
        entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        entries.shrink_to_fit();
        // The old revisions are known before the walk reaches them: `x.json` comes before
        // `x.old.yaml`.
        let mut olds: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
        for (entry, file_type) in &entries {
            let path = dir.join(entry);
            if let Some(stem) = old_revision_of(&path)
                && match file_type {
                    Some(t) if t.is_file() => true,
                    _ => fs::metadata(&path).is_ok_and(|m| m.is_file()),
                }
            {
                olds.entry(stem).or_default().push(path);
            }
        }
        self.stack.push(Frame {
            dir,
            depth,
            entries,
            next: 0,
            olds,
            used: HashSet::new(),
        });
    }

    /// Walks the next entry.
    fn step(&mut self, errors: &mut Vec<InputError>) -> Step {
        let Some(frame) = self.stack.last_mut() else {
            return Step::Done;
        };
        let Some((entry, file_type)) = frame.entries.get_mut(frame.next) else {
            // The directory is done: its old revisions that no new file took.
            if let Some(frame) = self.stack.pop() {
                for (stem, paths) in frame.olds {
                    if !frame.used.contains(&stem)
                        && let Some(first) = paths.first()
                    {
                        self.orphans.insert((parent(first), stem), paths);
                    }
                }
            }
            return Step::Next;
        };
        frame.next += 1;
        let path = frame.dir.join(std::mem::take(entry));
        let depth = frame.depth;
        // A plain file's type comes with the directory entry; a symlink's target needs a stat.
        let meta = match file_type {
            Some(t) if t.is_file() && manifest_extension(&path).is_none() => return Step::Next,
            Some(t) if t.is_file() => return self.file(path),
            _ => fs::metadata(&path),
        };
        match meta {
            Ok(meta) if meta.is_dir() => {
                self.enter(path, depth + 1, errors);
                Step::Next
            }
            Ok(_) if manifest_extension(&path).is_none() => Step::Next,
            Ok(meta) if meta.is_file() => self.file(path),
            Ok(meta) => {
                let kind = special_kind(&meta.file_type()).unwrap_or("special file");
                errors.push(InputError::file(
                    file_name::display(&path),
                    format!(
                        "is a {kind}, not a regular file; not read (name it on the command \
                         line to read a FIFO)"
                    ),
                ));
                Step::Next
            }
            // A dangling symlink to a manifest is worth a message; other noise is not.
            Err(e) if manifest_extension(&path).is_some() => {
                errors.push(InputError::file(
                    file_name::display(&path),
                    unreadable_entry(&path, &e),
                ));
                Step::Next
            }
            Err(_) => Step::Next,
        }
    }

    /// A manifest file of the directory being walked: a job, paired with its old revision,
    /// unless it is an old revision itself.
    fn file(&mut self, path: PathBuf) -> Step {
        self.files += 1;
        if old_revision_of(&path).is_some() {
            return Step::Next;
        }
        let Some(frame) = self.stack.last_mut() else {
            return Step::Next;
        };
        let stem = stem_of(&path);
        let old = match frame.olds.get(&stem).map(Vec::as_slice) {
            None | Some([]) => None,
            Some([old]) => {
                let old = Source::File(old.clone());
                frame.used.insert(stem);
                Some(old)
            }
            Some(many) => {
                self.ambiguous.push(ambiguous_old(&path, many));
                frame.used.insert(stem);
                return Step::Next;
            }
        };
        Step::Job(Job {
            new: Source::File(path),
            old,
        })
    }

    /// The problems found once the walk is done, after those found walking: an empty
    /// directory, files with several old revisions, old revisions without a new file.
    fn finish(self, errors: &mut Vec<InputError>) {
        // An empty directory is more likely a wrong path than nothing to check.
        if self.files == 0 {
            errors.push(InputError::file(
                file_name::display(&self.root),
                "no *.yaml, *.yml or *.json files in this directory",
            ));
        }
        errors.extend(self.ambiguous);
        for ((_, stem), paths) in self.orphans {
            for path in paths {
                errors.push(InputError::file(
                    file_name::display(&path),
                    format!(
                        "old revision without a new file: expected {} next to it",
                        expected_new_names(&stem)
                    ),
                ));
            }
        }
    }

    /// Names held: those of the directories being walked not walked yet.
    #[cfg(test)]
    fn names_held(&self) -> usize {
        self.stack.iter().map(|f| f.entries.len() - f.next).sum()
    }
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

    /// A scratch folder of manifests.
    struct Scratch(kdv_test_support::Scratch);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            Scratch(kdv_test_support::Scratch::new(name))
        }

        fn file(&self, rel: &str) -> &Self {
            self.0.write(rel, "a: 1\n");
            self
        }

        fn arg(&self) -> String {
            self.0.path().display().to_string()
        }

        fn rel(&self, source: &Source) -> String {
            match source {
                Source::Stdin => "-".into(),
                Source::File(p) => p
                    .strip_prefix(self.0.path())
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
    fn item_14_the_walk_holds_only_the_directories_being_walked() {
        // 20 directories of 30 files (one with an old revision of each), and 3 files at the
        // top.
        let s = Scratch::new("lazy");
        for d in 0..20 {
            for f in 0..30 {
                s.file(&format!("d{d:02}/f{f:02}.yaml"));
            }
            s.file(&format!("d{d:02}/f00.old.yaml"));
        }
        s.file("a.yaml").file("z.yaml").file("m.yml");
        let arg = s.arg();
        let args = [arg.clone(), arg];
        let mut planner = Planner::new(&args);
        let mut jobs = Vec::new();
        while let Some(job) = planner.next() {
            // At most the top directory's 23 names and one subdirectory's 31.
            assert!(planner.names_held() <= 23 + 31, "{}", planner.names_held());
            jobs.push(job);
        }
        assert_eq!(planner.names_held(), 0);
        assert!(planner.finish().is_empty());
        // The same jobs, in the same order, as collecting them all.
        assert_eq!(jobs, plan(&args).0);
        assert_eq!(jobs.len(), 2 * (20 * 30 + 3));
        assert_eq!(s.rel(&jobs[1].new), "d00/f00.yaml");
        assert_eq!(
            jobs[1].old.as_ref().map(|o| s.rel(o)),
            Some("d00/f00.old.yaml".into())
        );
        assert_eq!(s.rel(&jobs[602].new), "z.yaml");
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
        let x = s.0.path().join("x.yaml").display().to_string();
        let old = s.0.path().join("x.old.yml").display().to_string();
        let y = s.0.path().join("y.yaml").display().to_string();
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
