//! The subcommands. Each takes its arguments and the output streams, and returns the exit
//! status or a [`CliError`].

pub mod cel;
pub mod check;
pub mod custom;
pub mod docs;
pub mod explain;
pub mod explain_builtin;
pub mod explain_crd;
pub mod explain_types;
pub mod explanation;
pub mod jobs;
pub mod lint;
pub mod lint_crd;
pub mod lsp;
pub mod old;
pub mod options;
pub mod packaging;
pub mod release;
pub mod schema;
pub mod select;
pub mod serve;
pub mod sources;
pub mod validate;

use std::path::Path;

use kdv_model::{Diagnostic, Severity, Universe};

use crate::error::CliError;
use crate::input::{self, ReadLimits, Source, Stream};

/// Largest CRD document read (the CRDs of large operators approach a few MiB).
pub const MAX_CRD_DOCUMENT: usize = 64 << 20;

/// Reads, one at a time, the files a `--crd` path names — the file, or the files of a
/// directory searched as manifests are (an `x.old.yaml` beside `x.yaml` is one more file of
/// CRDs here) — and hands each to `each`. A path that names nothing readable is an error.
pub fn for_each_crd_file(
    path: &Path,
    mut each: impl FnMut(&Source, Stream) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let limits = ReadLimits {
        max_document: MAX_CRD_DOCUMENT,
    };
    let arg = path.to_string_lossy().into_owned();
    let (jobs, problems) = input::plan(std::slice::from_ref(&arg));
    if let Some(problem) = problems.into_iter().next() {
        return Err(CliError::Schema(format!("--crd: {problem}")));
    }
    for job in &jobs {
        for source in std::iter::once(&job.new).chain(&job.old) {
            let stream = Stream::read(source, limits)
                .map_err(|e| CliError::Schema(format!("--crd: {e}")))?;
            each(source, stream)?;
        }
    }
    Ok(())
}

/// The Go types a command works on.
pub struct Types {
    /// The compiled rules of the loaded packages.
    pub compiled: kdv_rules::Compiled,
    /// The diagnostics of loading and compiling, ordered by position.
    pub diagnostics: Vec<Diagnostic>,
    /// Import path of the package in the directory the user named (bare type names mean
    /// its types).
    pub home: Option<String>,
    /// Every use of a kdv extension tag, as errors (`kdv lint --upstream` reports them).
    pub extension_uses: Vec<Diagnostic>,
    /// With `lint`: the home package as loaded (`kdv lint` compares the packages of several
    /// `--types` for version drift).
    pub home_package: Option<kdv_model::Package>,
}

/// Loads the Go package in `dir` (and the packages it imports from the same module), or the
/// Rust types of `dir` when it is a `.rs` file (one module, as `#[derive(Validate)]` reads
/// it), and compiles its rules, selecting the package's roots as `roots` says; `lint` also
/// runs the lint rules.
pub fn load_types(dir: &Path, roots: kdv_rules::Roots, lint: bool) -> Result<Types, CliError> {
    load_types_with(dir, roots, lint, None)
}

/// One file's text held in memory in place of its contents on disk (an editor's buffer).
pub type Overlay<'a> = Option<(&'a Path, &'a str)>;

/// [`load_types`], reading `overlay`'s file from its text.
pub fn load_types_with(
    dir: &Path,
    roots: kdv_rules::Roots,
    lint: bool,
    overlay: Overlay<'_>,
) -> Result<Types, CliError> {
    let (universe, mut diagnostics, home) = if dir.extension().is_some_and(|e| e == "rs") {
        match overlay {
            Some((file, text)) if file == dir => load_rust_text(dir, text),
            _ => load_rust(dir)?,
        }
    } else {
        let read = |path: &Path| match overlay {
            Some((file, text)) if file == path => Some(text.to_string()),
            _ => None,
        };
        let (universe, diagnostics): (Universe, Vec<Diagnostic>) =
            kdv_go::load_universe_with(dir, &read).map_err(|e| CliError::TypesUnreadable {
                dir: dir.to_path_buf(),
                message: e.to_string(),
            })?;
        // The loader reads the named directory first and records it as the package's
        // directory.
        let home = universe
            .packages
            .values()
            .find(|p| p.dir.as_deref() == Some(dir))
            .map(|p| p.path.clone());
        (universe, diagnostics, home)
    };
    let options = kdv_rules::CompileOptions {
        roots,
        package: home.clone(),
        lint,
    };
    let compiled = kdv_rules::compile_with(&universe, &options);
    diagnostics.extend(compiled.diagnostics.iter().cloned());
    // `+validationRule`s the API server would refuse are misuse like any other.
    diagnostics.extend(kdv_schema::validation_rules::findings(&compiled.rules));
    kdv_rules::lint::sort(&mut diagnostics);
    let extension_uses = if lint {
        kdv_rules::lint::upstream_findings(&universe)
    } else {
        Vec::new()
    };
    let home_package = if lint {
        home.as_ref()
            .and_then(|h| universe.packages.get(h))
            .cloned()
    } else {
        None
    };
    Ok(Types {
        compiled,
        diagnostics,
        home,
        extension_uses,
        home_package,
    })
}

/// The largest Rust source file read as types.
const MAX_RUST_FILE: u64 = 16 << 20;

/// One Rust file's types as a package named after the file (`types.rs` → `types`).
fn load_rust(file: &Path) -> Result<(Universe, Vec<Diagnostic>, Option<String>), CliError> {
    let unreadable = |message: String| CliError::TypesUnreadable {
        dir: file.to_path_buf(),
        message,
    };
    let meta = std::fs::metadata(file).map_err(|e| unreadable(e.to_string()))?;
    if !meta.is_file() {
        return Err(unreadable("not a regular file".into()));
    }
    if meta.len() > MAX_RUST_FILE {
        return Err(unreadable(format!(
            "larger than {} MiB",
            MAX_RUST_FILE >> 20
        )));
    }
    let bytes = std::fs::read(file).map_err(|e| unreadable(e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        unreadable(format!(
            "not UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok(load_rust_text(file, &text))
}

/// [`load_rust`] of text already read.
fn load_rust_text(file: &Path, text: &str) -> (Universe, Vec<Diagnostic>, Option<String>) {
    let loaded = kdv_rust_model::from_items(&file.display().to_string(), text);
    let home = loaded.package.path.clone();
    let mut universe = Universe::default();
    universe.packages.insert(home.clone(), loaded.package);
    (universe, loaded.diagnostics, Some(home))
}

/// Number of diagnostics that are errors.
fn error_count(diagnostics: &[Diagnostic]) -> usize {
    diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count()
}
