//! Old revisions for UPDATE validation: `--old PATH` (files or a directory of old objects)
//! and `--old-ref REV` (each manifest file's revision in git).
//!
//! Pairing rule (decision): a document is an UPDATE of the old object with the same
//! *identity* — the apiVersion's group (not its version), `kind`, `metadata.namespace` and
//! `metadata.name`, compared as written (a missing one is empty: no namespace defaulting) —
//! and a CREATE when there is none. With `--old`, the old objects are every document found
//! under PATH (read like the inputs); with `--old-ref`, those of the same file at REV
//! (`git cat-file` of `REV:<path from the repository root>`; a file absent at REV holds
//! none). Several old objects with one identity are an input error of the document that
//! would pair with them (the message names the first [`CANDIDATES_LISTED`] and counts the
//! rest). An object without a name (`generateName`, or none at all) is always a CREATE and
//! is never an old revision: the API server names a `generateName` object anew on every
//! create, and no object is updated without a name. An old object of the same group and kind but another version is
//! not compared (kdv does not convert between versions): the document is a CREATE, with a
//! warning.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

use kdv_manifest::{Entry, Syntax};
use serde_json::Value;

use crate::error::CliError;
use crate::file_name;
use crate::input::{self, InputError, ReadLimits, Source, Stream};

/// What identifies an object across revisions.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Identity {
    group: String,
    kind: String,
    namespace: String,
    name: String,
}

impl Identity {
    /// The identity of a document's value; `None` without a name (never paired).
    pub fn of(value: &Value) -> Option<Identity> {
        let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_owned();
        let api_version = value
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or("");
        let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
        let metadata = value.get("metadata");
        let name = text(metadata.and_then(|m| m.get("name")));
        if name.is_empty() {
            return None;
        }
        Some(Identity {
            group: group.to_owned(),
            kind: text(value.get("kind")),
            namespace: text(metadata.and_then(|m| m.get("namespace"))),
            name,
        })
    }
}

/// One old object.
#[derive(Debug)]
pub struct OldDoc {
    /// Its file's text form (`REV:path` for a git revision).
    pub file: String,
    /// Its index in the file's stream.
    pub index: usize,
    /// The object.
    pub value: Value,
}

/// How many candidates the message of an ambiguous old revision names.
pub const CANDIDATES_LISTED: usize = 5;

/// Old objects by identity.
#[derive(Debug, Default)]
pub struct OldSet {
    docs: Vec<OldDoc>,
    /// The old objects of each identity and apiVersion (as JSON text), in input order.
    by_version: HashMap<(Identity, String), Vec<usize>>,
    /// The first old object of each identity, whatever its version.
    by_identity: HashMap<Identity, usize>,
}

/// The old revision found for a document.
pub enum Pairing<'a> {
    /// None: a CREATE.
    None,
    /// This old object: an UPDATE.
    One(&'a OldDoc),
    /// An object of the same group and kind in another version: a CREATE, with a warning.
    OtherVersion(&'a OldDoc),
    /// Several candidates: an input error.
    Ambiguous {
        /// The first [`CANDIDATES_LISTED`] candidates.
        listed: Vec<&'a OldDoc>,
        /// How many there are.
        total: usize,
    },
}

impl OldSet {
    /// Adds the documents of `stream`; unreadable ones are returned as input errors.
    pub fn add_stream(&mut self, stream: &Stream, errors: &mut Vec<InputError>) {
        for entry in stream.documents() {
            match entry {
                Ok(Entry::Document(doc)) => {
                    let i = self.docs.len();
                    if let Some(identity) = Identity::of(&doc.value) {
                        self.by_identity.entry(identity.clone()).or_insert(i);
                        self.by_version
                            .entry((identity, api_version(&doc.value)))
                            .or_default()
                            .push(i);
                    }
                    self.docs.push(OldDoc {
                        file: stream.name.clone(),
                        index: doc.index,
                        value: doc.value,
                    });
                }
                Ok(Entry::Empty { .. }) => {}
                Err(e) => errors.push(e),
            }
        }
    }

    /// The old objects under `path` (a file, a directory walked as the inputs are, or `-`),
    /// and the problems met reading them. Old revisions named `x.old.yaml` in that tree are
    /// older still and are not read.
    pub fn load(path: &str, limits: ReadLimits) -> (OldSet, Vec<InputError>) {
        let mut set = OldSet::default();
        let (jobs, mut errors) = input::plan(&[path.to_owned()]);
        for job in jobs {
            match Stream::read(&job.new, limits) {
                Ok(stream) => set.add_stream(&stream, &mut errors),
                Err(e) => errors.push(e),
            }
        }
        (set, errors)
    }

    /// The old revision of `value`.
    pub fn pair(&self, value: &Value) -> Pairing<'_> {
        let Some(identity) = Identity::of(value) else {
            return Pairing::None;
        };
        let Some(&first) = self.by_identity.get(&identity) else {
            return Pairing::None;
        };
        match self.by_version.get(&(identity, api_version(value))) {
            Some(same) if same.len() == 1 => Pairing::One(&self.docs[same[0]]),
            Some(same) => Pairing::Ambiguous {
                listed: same
                    .iter()
                    .take(CANDIDATES_LISTED)
                    .map(|&i| &self.docs[i])
                    .collect(),
                total: same.len(),
            },
            // No old object has its version: the first of the identity has another.
            None => Pairing::OtherVersion(&self.docs[first]),
        }
    }
}

/// A document's apiVersion as JSON text (`null` without one), what pairing compares.
fn api_version(value: &Value) -> String {
    value
        .get("apiVersion")
        .map_or_else(|| "null".into(), Value::to_string)
}

/// Where old revisions come from.
pub enum OldSource {
    /// `--old PATH`.
    Set(OldSet),
    /// `--old-ref REV`.
    Git(GitRevisions),
}

/// The revision `--old-ref` names, in the git repositories holding the inputs; reads the
/// files' contents at that commit with one `git cat-file --batch` per repository, shared by
/// the worker threads.
pub struct GitRevisions {
    /// The revision as the user wrote it (for names and messages).
    rev: String,
    /// Repository roots (canonical), each with the commit REV names there and its reader.
    repos: Vec<Repo>,
}

struct Repo {
    root: PathBuf,
    commit: String,
    batch: Mutex<Option<Batch>>,
}

/// A running `git cat-file --batch`.
struct Batch {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Drop for Batch {
    fn drop(&mut self) {
        // Closing its input ends `git cat-file`.
        self.stdin.take();
        let _ = self.child.wait();
    }
}

fn git(dir: &Path, args: &[&str]) -> Result<std::process::Output, CliError> {
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| CliError::Usage(format!("--old-ref needs git, which cannot be run: {e}")))
}

impl GitRevisions {
    /// Finds the repository of every PATH and the commit `rev` names in it. A PATH outside
    /// a git work tree, standard input, or a revision that is not a commit there is a usage
    /// error.
    pub fn open(rev: &str, paths: &[String]) -> Result<GitRevisions, CliError> {
        let mut repos: Vec<Repo> = Vec::new();
        for arg in paths {
            if arg == "-" {
                return Err(CliError::Usage(
                    "--old-ref reads old revisions from git: standard input (`-`) has none; name the files".into(),
                ));
            }
            let path = Path::new(arg);
            let dir = if path.is_dir() {
                path.to_path_buf()
            } else {
                match path.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                    _ => PathBuf::from("."),
                }
            };
            let out = git(&dir, &["rev-parse", "--show-toplevel"])?;
            if !out.status.success() {
                return Err(CliError::Usage(format!(
                    "--old-ref {rev}: {} is not inside a git work tree",
                    file_name::display(path)
                )));
            }
            let top = String::from_utf8_lossy(&out.stdout).trim_end().to_owned();
            let root = std::fs::canonicalize(&top).unwrap_or_else(|_| PathBuf::from(&top));
            if repos.iter().any(|r| r.root == root) {
                continue;
            }
            let spec = format!("{rev}^{{commit}}");
            let out = git(
                &root,
                &[
                    "rev-parse",
                    "--verify",
                    "--quiet",
                    "--end-of-options",
                    &spec,
                ],
            )?;
            if !out.status.success() {
                return Err(CliError::Usage(format!(
                    "--old-ref {rev}: no such commit in the git repository at {}",
                    file_name::display(&root)
                )));
            }
            let commit = String::from_utf8_lossy(&out.stdout).trim().to_owned();
            repos.push(Repo {
                root,
                commit,
                batch: Mutex::new(None),
            });
        }
        // Deepest roots first, so a file in a nested repository is read from it.
        repos.sort_by_key(|r| std::cmp::Reverse(r.root.components().count()));
        Ok(GitRevisions {
            rev: rev.to_owned(),
            repos,
        })
    }

    /// The old objects of manifest `file` at the revision (none when the file did not exist
    /// there), and the problems met reading them.
    pub fn old_set(&self, file: &Source, limits: ReadLimits) -> (OldSet, Vec<InputError>) {
        let mut set = OldSet::default();
        let mut errors = Vec::new();
        let Source::File(path) = file else {
            return (set, errors);
        };
        let name = file.display_name();
        let problem = |message: String| InputError::file(&name, message);
        let canonical = match std::fs::canonicalize(path) {
            Ok(p) => p,
            Err(e) => {
                errors.push(problem(format!("cannot read: {e}")));
                return (set, errors);
            }
        };
        let Some((repo, relative)) = self.repos.iter().find_map(|r| {
            canonical
                .strip_prefix(&r.root)
                .ok()
                .map(|rel| (r, rel.to_path_buf()))
        }) else {
            errors.push(problem(format!(
                "--old-ref {}: not inside the git work tree of its PATH",
                self.rev
            )));
            return (set, errors);
        };
        let Some(relative) = git_path(&relative) else {
            errors.push(problem(format!(
                "--old-ref {}: a path git cannot be asked for (not UTF-8 or with a line break)",
                self.rev
            )));
            return (set, errors);
        };
        let cap = match file.syntax() {
            Syntax::Json => limits.max_document,
            Syntax::Yaml => limits.max_stream(),
        };
        match repo.blob(&relative, cap) {
            Ok(Blob::Absent) => {}
            Ok(Blob::TooLarge) => errors.push(problem(format!(
                "--old-ref {}: {relative} is larger than {} at that revision",
                self.rev,
                kdv_manifest::format_size(cap)
            ))),
            Ok(Blob::Found(bytes)) => {
                let old_name = format!("{}:{relative}", self.rev);
                let stream = Stream::from_bytes(old_name, file.syntax(), bytes, limits);
                set.add_stream(&stream, &mut errors);
            }
            Err(e) => errors.push(problem(format!(
                "--old-ref {}: cannot read {relative} from git: {e}",
                self.rev
            ))),
        }
        (set, errors)
    }
}

/// A repository-relative path as git spells it (`/`-separated).
fn git_path(relative: &Path) -> Option<String> {
    let mut parts = Vec::new();
    for c in relative.components() {
        let part = c.as_os_str().to_str()?;
        if part.contains('\n') {
            return None;
        }
        parts.push(part);
    }
    Some(parts.join("/"))
}

impl Repo {
    /// The contents of `path` at the commit (at most `cap` bytes).
    fn blob(&self, path: &str, cap: usize) -> std::io::Result<Blob> {
        let mut guard = self
            .batch
            .lock()
            .map_err(|_| std::io::Error::other("a reader thread panicked"))?;
        if guard.is_none() {
            let mut child = Command::new("git")
                .arg("-C")
                .arg(&self.root)
                .args(["cat-file", "--batch"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()?;
            let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
                return Err(std::io::Error::other("git cat-file has no pipes"));
            };
            *guard = Some(Batch {
                child,
                stdin: Some(stdin),
                stdout: BufReader::new(stdout),
            });
        }
        let Some(batch) = guard.as_mut() else {
            return Err(std::io::Error::other("git cat-file is not running"));
        };
        let result = batch.read(&self.commit, path, cap);
        if !matches!(result, Ok(Blob::Found(_) | Blob::Absent)) {
            // Output left unread or out of step: start over on the next request.
            *guard = None;
        }
        result
    }
}

impl Batch {
    /// Asks for `commit:path`; a blob larger than `cap` is not read (the reader is then
    /// restarted, as its output is not consumed).
    fn read(&mut self, commit: &str, path: &str, cap: usize) -> std::io::Result<Blob> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::other("git cat-file input closed"))?;
        writeln!(stdin, "{commit}:{path}")?;
        stdin.flush()?;
        let mut header = String::new();
        self.stdout.read_line(&mut header)?;
        let header = header.trim_end_matches('\n');
        // `<oid> <type> <size>`, or `<object> missing` / `<object> ambiguous`.
        if header.ends_with(" missing") || header.ends_with(" ambiguous") {
            return Ok(Blob::Absent);
        }
        let mut fields = header.rsplitn(3, ' ');
        let (Some(size), Some(kind)) = (
            fields.next().and_then(|s| s.parse::<usize>().ok()),
            fields.next(),
        ) else {
            return Err(std::io::Error::other(format!(
                "unexpected answer {header:?}"
            )));
        };
        if size > cap {
            return Ok(Blob::TooLarge);
        }
        let kind = kind.to_owned();
        let mut bytes = vec![0; size];
        self.stdout.read_exact(&mut bytes)?;
        let mut newline = [0u8; 1];
        self.stdout.read_exact(&mut newline)?;
        // A directory or a submodule at that path is no manifest.
        Ok(if kind == "blob" {
            Blob::Found(bytes)
        } else {
            Blob::Absent
        })
    }
}

/// What `git cat-file` found.
enum Blob {
    Found(Vec<u8>),
    Absent,
    TooLarge,
}
