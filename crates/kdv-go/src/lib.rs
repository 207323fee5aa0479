//! Go source frontend: reads Go files into the `kdv-model` type model, the way upstream
//! `gengo` sees them (validation-gen spec §1.1, §2.1–2.4).
//!
//! A hand-written lexer and declaration parser: package clause, imports, `type` and
//! `const` declarations are modelled; `var` and `func` declarations are skipped. Nothing
//! here type-checks: a type definition keeps its definition as written, and qualified
//! names are resolved through the file's imports only. Constants are evaluated as Go
//! evaluates them, within a file as it is parsed, across files and packages once they are
//! loaded ([`resolve_constants`]).
//!
//! Syntax errors never abort: each becomes a [`Diagnostic`] and parsing resumes at the
//! next top-level declaration.
//!
//! Loading: [`load_universe`] reads the package in a directory and every package it imports
//! from the same Go module (found through `go.mod`), adds kdv's built-in declarations of the
//! well-known apimachinery packages (`metav1`, `types`, `resource`, `intstr`) that are
//! imported but not found ([`add_well_known_packages`]), and evaluates the constants that name
//! other files' or packages' constants ([`resolve_constants`]: `AddressType(v1.IPv4Protocol)`
//! is `"IPv4"` of type `AddressType`; decision 0057). Comment blocks are associated with
//! declarations as gengo does it (doc and detached blocks) and become the model's tags and
//! descriptions ([`Comments`]); struct tags become [`kdv_model::JsonTag`]s ([`struct_tag_lookup`],
//! [`json_tag`]). A qualifier no import names is reported as Go's `undefined`, invalid UTF-8 at
//! its line and column. Generics are skipped, as methods and function bodies are.
//!
//! ```
//! use std::path::PathBuf;
//! use kdv_model::{ConstValue, TypeRef};
//!
//! let src = r#"package v1
//!
//! import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
//!
//! // +k8s:enum
//! type Phase string
//!
//! const PhaseRunning Phase = "Running"
//!
//! type Widget struct {
//!     metav1.TypeMeta `json:",inline"`
//!     // +k8s:required
//!     Phase Phase `json:"phase"`
//! }
//! "#;
//! let (pkg, diags) = kdv_go::load_sources("example.com/api/v1", &[(PathBuf::from("types.go"), src.into())]);
//! assert!(diags.is_empty());
//! let widget = pkg.type_decl("Widget").unwrap();
//! let TypeRef::Struct(s) = &widget.def else { unreachable!() };
//! assert_eq!(s.fields[0].json_name(), None); // embedded, inline
//! assert_eq!(s.fields[1].json_name(), Some("phase"));
//! assert_eq!(s.fields[1].tags.lines[0].name, "k8s:required");
//! assert_eq!(pkg.consts[0].value, ConstValue::String("Running".into()));
//! ```

#![warn(missing_docs)]

mod build;
mod comments;
pub use kdv_model::{CommentLine, Comments};
pub use parser::{json_tag, struct_tag_lookup};
mod consteval;
pub mod lexer;
mod literal;
mod parser;
mod resolve;
mod well_known;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use kdv_model::{Diagnostic, Loc, Package, Severity, SourceFile, SourceSpan, Universe};

pub use well_known::{
    add_well_known_packages, well_known_package, well_known_paths, well_known_source,
};

/// One `import` spec of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    /// The name written before the path: an alias, `_` or `.`; `None` when absent.
    pub name: Option<String>,
    /// The import path, unquoted.
    pub path: String,
    /// Location of the path literal.
    pub loc: Loc,
}

/// The declarations of one Go file.
#[derive(Debug, Clone, Default)]
pub struct ParsedFile {
    /// Path as given to [`parse_file`].
    pub path: PathBuf,
    /// Name in the package clause; empty when the clause is missing or malformed.
    pub package_name: String,
    /// Location of the package name.
    pub package_loc: Option<Loc>,
    /// All comment lines above the package clause.
    pub doc: Comments,
    /// The `//go:build` expression above the package clause, if any.
    pub build_constraint: Option<String>,
    /// Import specs in source order.
    pub imports: Vec<Import>,
    /// Named types in source order. References to types declared in the file's own
    /// package carry an empty package path (see [`parse_file`]).
    pub types: Vec<kdv_model::TypeDecl>,
    /// Constants in source order, after implicit repetition.
    pub consts: Vec<kdv_model::ConstDecl>,
}

/// Errors that stop loading: the files cannot be read. Syntax problems are diagnostics.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Reading a directory or file failed.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file or directory that could not be read.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The directory holds no Go files that would be compiled.
    #[error("no Go files in {}", dir.display())]
    NoGoFiles {
        /// The directory that was searched.
        dir: PathBuf,
    },
}

/// Parses one file. `file_index` is stored in every [`Loc`]. Since a single file does not
/// know its package's import path, references to the package's own types get an empty
/// `NamedRef::package`; use [`parse_file_in_package`] (or the loaders) to fill it in.
pub fn parse_file(path: &Path, text: &str, file_index: u32) -> (ParsedFile, Vec<Diagnostic>) {
    parser::parse(path, text, file_index, "")
}

/// [`parse_file`] for a file of the package with import path `package_path`: references
/// to the package's own types carry that path.
pub fn parse_file_in_package(
    path: &Path,
    text: &str,
    file_index: u32,
    package_path: &str,
) -> (ParsedFile, Vec<Diagnostic>) {
    parser::parse(path, text, file_index, package_path)
}

/// Builds a package from in-memory files (path, text); `package_path` is its import path.
/// Files are used in the order given.
pub fn load_sources(package_path: &str, files: &[(PathBuf, String)]) -> (Package, Vec<Diagnostic>) {
    let mut parsed = Vec::with_capacity(files.len());
    let mut diags = Vec::new();
    for (i, (path, text)) in files.iter().enumerate() {
        let (file, d) = parser::parse(path, text, i as u32, package_path);
        parsed.push(file);
        diags.extend(d);
    }
    let sources = files
        .iter()
        .map(|(path, text)| SourceFile {
            path: path.clone(),
            text: text.clone(),
        })
        .collect();
    let package = assemble(package_path, parsed, sources, &mut diags);
    (package, diags)
}

/// Loads the package in `dir`: every `.go` file the Go tool would compile for
/// linux/amd64 with the `ignore_autogenerated` tag (no `_test.go` files), in name order.
/// The import path comes from the enclosing `go.mod`, else the directory name.
pub fn load_package(dir: &Path) -> Result<(Package, Vec<Diagnostic>), LoadError> {
    let module = build::Module::find(dir);
    let (package, diags, _) = load_dir(dir, module.as_ref(), &|_| None)?;
    Ok((package, diags))
}

/// Loads the package in `dir` and, transitively, every package it imports from the same
/// Go module. Imports of well-known apimachinery packages that the module does not hold
/// (`metav1`, `types`, `resource`, `intstr`) get kdv's built-in declarations
/// ([`add_well_known_packages`]); other imports from outside the module stay unresolved
/// (their `NamedRef`s point at packages the universe does not hold).
pub fn load_universe(dir: &Path) -> Result<(Universe, Vec<Diagnostic>), LoadError> {
    load_universe_with(dir, &|_| None)
}

/// [`load_universe`] with some files' text given rather than read (`overlay` answers the
/// text of a path, or `None` to read it): an editor's unsaved buffers.
pub fn load_universe_with(
    dir: &Path,
    overlay: &dyn Fn(&Path) -> Option<String>,
) -> Result<(Universe, Vec<Diagnostic>), LoadError> {
    let module = build::Module::find(dir);
    let (root, mut diags, imports) = load_dir(dir, module.as_ref(), overlay)?;
    let mut universe = Universe::default();
    let mut pending: Vec<String> = imports.into_iter().collect();
    universe.packages.insert(root.path.clone(), root);
    if let Some(module) = &module {
        while let Some(import) = pending.pop() {
            if universe.packages.contains_key(&import) {
                continue;
            }
            let Some(dir) = module.dir_of(&import) else {
                continue;
            };
            if !dir.is_dir() {
                continue;
            }
            match load_dir(&dir, Some(module), overlay) {
                Ok((package, d, imports)) => {
                    diags.extend(d);
                    pending.extend(imports);
                    // Key by the import path used, which is what references carry.
                    universe.packages.insert(import, package);
                }
                // A directory without buildable Go files is simply not a package.
                Err(LoadError::NoGoFiles { .. }) => {}
                Err(e) => return Err(e),
            }
        }
    }
    diags.extend(add_well_known_packages(&mut universe));
    resolve_constants(&mut universe);
    Ok((universe, diags))
}

/// Evaluates the constants that refer to constants of other packages, as Go does once
/// every package is loaded: `pkg.C`, conversions of them (`T(pkg.C)`, `pkg.T(C)`), and
/// any expression over them, in chains across files and packages. Each gets its value and
/// the type Go gives it (declared, converted to, or the operand constant's). Expressions
/// Go could not evaluate either (or that kdv does not model, such as function calls) stay
/// [`ConstValue::Expr`](kdv_model::ConstValue::Expr); a cycle (an error in Go) stays
/// unevaluated.
///
/// [`load_universe`] calls it; call it after assembling a universe from
/// [`load_sources`] packages. Constants are read again from [`Package::files`], so a
/// package without its sources keeps its unevaluated constants (its evaluated ones are
/// still used).
pub fn resolve_constants(universe: &mut Universe) {
    resolve::resolve_packages(&mut universe.packages);
}

/// Reads and assembles one directory; also returns every import path of its files.
fn load_dir(
    dir: &Path,
    module: Option<&build::Module>,
    overlay: &dyn Fn(&Path) -> Option<String>,
) -> Result<(Package, Vec<Diagnostic>, BTreeSet<String>), LoadError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| LoadError::Io { path, source }
    };
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let entry = entry.map_err(io(dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        // `Path::is_file` follows symlinks, as the Go tool does.
        if build::file_name_selected(&name) && entry.path().is_file() {
            names.push(name);
        }
    }
    names.sort();
    let package_path = module
        .and_then(|m| m.import_path(dir))
        .unwrap_or_else(|| directory_name(dir));
    let mut parsed = Vec::new();
    let mut sources = Vec::new();
    let mut diags = Vec::new();
    for name in names {
        let path = dir.join(&name);
        let bytes = match overlay(&path) {
            Some(text) => text.into_bytes(),
            None => std::fs::read(&path).map_err(io(&path))?,
        };
        let (text, invalid_utf8) = match String::from_utf8(bytes) {
            Ok(text) => (text, None),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let span = invalid_utf8_span(&path, e.as_bytes(), at);
                (
                    String::from_utf8_lossy(e.as_bytes()).into_owned(),
                    Some(span),
                )
            }
        };
        let index = parsed.len() as u32;
        let (file, mut d) = parser::parse(&path, &text, index, &package_path);
        if let Some(expr) = &file.build_constraint
            && !build::constraint_satisfied(expr)
        {
            continue;
        }
        if let Some(span) = invalid_utf8 {
            d.push(Diagnostic::error("invalid UTF-8 encoding", Some(span)));
        }
        diags.extend(d);
        parsed.push(file);
        sources.push(SourceFile { path, text });
    }
    if parsed.is_empty() {
        return Err(LoadError::NoGoFiles {
            dir: dir.to_path_buf(),
        });
    }
    let imports = parsed
        .iter()
        .flat_map(|f| f.imports.iter().map(|i| i.path.clone()))
        .collect();
    let mut package = assemble(&package_path, parsed, sources, &mut diags);
    package.dir = Some(dir.to_path_buf());
    Ok((package, diags, imports))
}

/// Where the first invalid byte of a file is (`at`: the length of the valid prefix), with
/// its line as the replacement-character text shows it.
fn invalid_utf8_span(path: &Path, bytes: &[u8], at: usize) -> SourceSpan {
    let before = &bytes[..at];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line_end = bytes[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| at + i);
    let line_text = String::from_utf8_lossy(&bytes[line_start..line_end])
        .trim_end_matches('\r')
        .to_string();
    SourceSpan {
        path: path.to_path_buf(),
        line: before.iter().filter(|&&b| b == b'\n').count() as u32 + 1,
        col: (at - line_start) as u32 + 1,
        len: 1,
        line_text,
        text_start: kdv_model::TextStart::default(),
    }
}

fn directory_name(dir: &Path) -> String {
    std::path::absolute(dir)
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| dir.to_string_lossy().into_owned())
}

/// Merges parsed files into a package: fills in the package path of local references,
/// resolves constants defined as other constants across files, and reports what the Go
/// compiler would reject at package level (mixed package names, redeclarations).
fn assemble(
    package_path: &str,
    files: Vec<ParsedFile>,
    sources: Vec<SourceFile>,
    diags: &mut Vec<Diagnostic>,
) -> Package {
    let mut package = Package {
        path: package_path.to_string(),
        ..Package::default()
    };
    let mut seen: HashMap<String, Loc> = HashMap::new();
    for file in files {
        if !file.package_name.is_empty() {
            if package.name.is_empty() {
                package.name = file.package_name.clone();
            } else if package.name != file.package_name
                && let Some(loc) = file.package_loc
            {
                diags.push(error_at(
                    &sources,
                    loc,
                    file.package_name.len(),
                    format!(
                        "found packages {} and {} in the same directory",
                        package.name, file.package_name
                    ),
                ));
            }
        }
        package.tags.lines.extend(file.doc.tags().lines);
        for import in file.imports {
            let key = match import.name {
                Some(ref n) if n == "_" => continue,
                Some(n) => n,
                None => match guess_package_names(&import.path).into_iter().next() {
                    Some(n) => n,
                    None => continue,
                },
            };
            package.imports.insert(key, import.path);
        }
        let decls = file
            .types
            .iter()
            .map(|t| (&t.name, t.loc))
            .chain(file.consts.iter().map(|c| (&c.name, c.loc)));
        for (name, loc) in decls {
            if let Some(previous) = seen.get(name.as_str()) {
                let prev_file = sources
                    .get(previous.file as usize)
                    .map_or_else(String::new, |s| s.path.display().to_string());
                diags.push(error_at(
                    &sources,
                    loc,
                    name.len(),
                    format!(
                        "{name} redeclared in this package (previous declaration at {prev_file}:{}:{})",
                        previous.line, previous.col
                    ),
                ));
            } else {
                seen.insert(name.clone(), loc);
            }
        }
        package.types.extend(file.types);
        package.consts.extend(file.consts);
    }
    package.files = sources;
    // Constants of later files, or of earlier ones in another file, resolve within the
    // package; those of imported packages wait for `resolve_constants`.
    let mut single = BTreeMap::from([(package.path.clone(), package)]);
    resolve::resolve_packages(&mut single);
    single.into_values().next().unwrap_or_default()
}

fn error_at(sources: &[SourceFile], loc: Loc, len: usize, message: String) -> Diagnostic {
    let span = sources
        .get(loc.file as usize)
        .map(|f| kdv_model::SourceSpan::from_loc(f, loc, len as u32));
    Diagnostic {
        severity: Severity::Error,
        message,
        span,
    }
}

/// Likely package names for an import path, best first: the last element, then
/// variants for paths whose last element is a major version (`.../foo/v2` → `foo`),
/// has a `.vN` suffix (`gopkg.in/yaml.v3` → `yaml`) or a `go-` prefix / `-go` suffix.
pub(crate) fn guess_package_names(path: &str) -> Vec<String> {
    let mut parts = path.rsplit('/');
    let Some(last) = parts.next().filter(|l| !l.is_empty()) else {
        return Vec::new();
    };
    let mut names = vec![last.to_string()];
    let is_major = |s: &str| {
        s.strip_prefix('v')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    let mut base = last;
    if is_major(last)
        && let Some(prev) = parts.next()
    {
        base = prev;
        names.push(prev.to_string());
    }
    if let Some((stem, version)) = base.rsplit_once('.')
        && is_major(version)
    {
        names.push(stem.to_string());
        base = stem;
    }
    for variant in [base.strip_prefix("go-"), base.strip_suffix("-go")]
        .into_iter()
        .flatten()
    {
        names.push(variant.to_string());
    }
    names.push(base.replace(['-', '.'], "_"));
    names.dedup();
    names
}

/// The number of error diagnostics in `diags`.
pub fn count_errors(diags: &[Diagnostic]) -> usize {
    diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count()
}

#[cfg(test)]
mod tests;
