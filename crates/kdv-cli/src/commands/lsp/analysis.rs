//! What the server knows of one file: its kind (CRD, manifest, Go or Rust types), its
//! diagnostics, hover and completion. Pure functions of the text and the loaded rules, so
//! `kdv lsp --check` prints exactly what the server publishes.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use kdv_manifest::{StepBuf, Syntax};
use lsp_types::{CompletionItem, Diagnostic, DiagnosticSeverity, Position, Range};
use serde::Deserialize;

use super::text::{LineIndex, diagnostic};
use super::{crd, tags};
use crate::cli::UnknownFields;
use crate::commands::release::Release;
use crate::commands::validate::TextValidation;
use crate::error::CliError;

/// The client's settings (`initializationOptions`, or `workspace/didChangeConfiguration`'s
/// `kdv` section), over the command line's.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Settings {
    /// The Kubernetes release (`1.35`): built-in kinds and the CEL environment.
    pub kubernetes_version: Option<String>,
    /// Folders searched for CRD files (default: the workspace folders).
    pub crd_folders: Vec<PathBuf>,
    /// `error` (default), `warn` or `ignore`: fields the schema does not have.
    pub unknown_fields: Option<String>,
    /// A git revision (`HEAD`): manifests are validated as UPDATEs of their documents at
    /// that revision (transition rules, ratcheting), as `kdv validate --old-ref`.
    pub old_ref: Option<String>,
    /// A Go package folder or Rust file whose kinds manifests are validated against, as
    /// `kdv validate --types` (relative to the first workspace folder).
    pub types: Option<PathBuf>,
}

/// What a file is to kdv.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Crd(Syntax),
    Manifest(Syntax),
    Go,
    Rust,
    Other,
}

/// The kind of `path` with text `text`.
pub fn kind_of(path: &Path, text: &str) -> FileKind {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let syntax = match ext.as_str() {
        "go" => return FileKind::Go,
        "rs" => return FileKind::Rust,
        "yaml" | "yml" => Syntax::Yaml,
        "json" => Syntax::Json,
        _ => return FileKind::Other,
    };
    if is_crd_text(text) {
        FileKind::Crd(syntax)
    } else {
        FileKind::Manifest(syntax)
    }
}

/// Whether the text declares a CustomResourceDefinition (a `kind:` line or JSON member).
fn is_crd_text(text: &str) -> bool {
    let json_member = text.match_indices("\"kind\"").any(|(i, m)| {
        let rest = text[i + m.len()..].trim_start();
        rest.strip_prefix(':')
            .is_some_and(|r| r.trim_start().starts_with("\"CustomResourceDefinition\""))
    });
    json_member
        || text.lines().any(|l| {
            let l = l.trim();
            l.strip_prefix("kind:")
                .or_else(|| l.strip_prefix("\"kind\":"))
                .is_some_and(|v| {
                    v.trim()
                        .trim_end_matches(',')
                        .trim_matches('"')
                        .trim_matches('\'')
                        == "CustomResourceDefinition"
                })
        })
}

/// The rules and settings every file is judged with.
pub struct Analyzer {
    settings: Settings,
    release: Release,
    /// The workspace folders (CRDs are searched there when no folder is configured).
    roots: Vec<PathBuf>,
    /// Built-in kinds and workspace CRDs, loaded on first use and after a CRD file is saved.
    validation: Mutex<Option<Arc<TextValidation>>>,
    /// Problems found loading the workspace's CRDs.
    pub load_problems: Mutex<Vec<String>>,
    /// The workspace's CRD files, as last loaded.
    crd_paths: Mutex<Vec<PathBuf>>,
}

impl Analyzer {
    pub fn new(settings: Settings, roots: Vec<PathBuf>) -> Result<Analyzer, CliError> {
        let release = Release::choose(settings.kubernetes_version.as_deref(), None)?;
        Ok(Analyzer {
            settings,
            release,
            roots,
            validation: Mutex::new(None),
            load_problems: Mutex::new(Vec::new()),
            crd_paths: Mutex::new(Vec::new()),
        })
    }

    /// The Kubernetes minor version rules are judged with.
    pub fn minor(&self) -> u32 {
        self.release.minor
    }

    /// Forgets the loaded CRDs (a CRD file was saved): the next manifest reloads them.
    pub fn invalidate(&self) {
        if let Ok(mut v) = self.validation.lock() {
            *v = None;
        }
    }

    fn validation(&self) -> Option<Arc<TextValidation>> {
        let mut slot = self.validation.lock().ok()?;
        if let Some(v) = &*slot {
            return Some(v.clone());
        }
        let folders = if self.settings.crd_folders.is_empty() {
            &self.roots
        } else {
            &self.settings.crd_folders
        };
        let files = crd_files(folders);
        let unknown = match self.settings.unknown_fields.as_deref() {
            Some("warn") => UnknownFields::Warn,
            Some("ignore") => UnknownFields::Ignore,
            _ => UnknownFields::Error,
        };
        let types = self
            .settings
            .types
            .as_ref()
            .map(|t| match self.roots.first() {
                Some(root) if t.is_relative() => root.join(t),
                _ => t.clone(),
            });
        let (validation, problems) =
            TextValidation::load(self.release, &files, types.as_deref(), unknown).ok()?;
        if let Ok(mut p) = self.load_problems.lock() {
            *p = problems;
        }
        if let Ok(mut p) = self.crd_paths.lock() {
            *p = files;
        }
        let validation = Arc::new(validation);
        *slot = Some(validation.clone());
        Some(validation)
    }

    /// The diagnostics of `path` with text `text`.
    pub fn diagnostics(&self, path: &Path, text: &str) -> Vec<Diagnostic> {
        let index = LineIndex::new(text);
        let name = crate::file_name::display(path);
        match kind_of(path, text) {
            FileKind::Crd(_) => crd::diagnostics(&name, text, &index, self.minor()),
            FileKind::Manifest(syntax) => self.manifest(path, &name, syntax, text, &index),
            FileKind::Go | FileKind::Rust => types(path, text, &index),
            FileKind::Other => Vec::new(),
        }
    }

    fn manifest(
        &self,
        path: &Path,
        name: &str,
        syntax: Syntax,
        text: &str,
        index: &LineIndex,
    ) -> Vec<Diagnostic> {
        let Some(validation) = self.validation() else {
            return Vec::new();
        };
        let old_ref = self.settings.old_ref.as_deref().map(|rev| (rev, path));
        let report = validation.validate(name, syntax, text, old_ref);
        let mut out = Vec::new();
        let at = |line: Option<u64>, column: Option<u64>, doc: (u64, u64)| {
            let (l, c) = (line.unwrap_or(doc.0), column.unwrap_or(doc.1));
            index.token(text, index.at_char_column(text, l, c))
        };
        let problems = self
            .load_problems
            .lock()
            .map(|p| p.clone())
            .unwrap_or_default();
        for e in &report.input_errors {
            let mut message = e.message.clone();
            // A kind no source has may be that of a CRD that did not load.
            if message.starts_with("unknown kind") && !problems.is_empty() {
                message.push_str(&format!(
                    "; {} CRD file(s) of the workspace could not be loaded: {}",
                    problems.len(),
                    problems
                        .iter()
                        .map(|p| p.lines().next().unwrap_or(""))
                        .collect::<Vec<_>>()
                        .join("; ")
                ));
            }
            out.push(diagnostic(
                at(e.line, e.column, (1, 1)),
                DiagnosticSeverity::ERROR,
                message,
            ));
        }
        for d in &report.documents {
            let start = (d.line, d.column);
            for u in &d.unknown_fields {
                let range = at(Some(u.position.line), Some(u.position.column), start);
                out.push(diagnostic(
                    range,
                    DiagnosticSeverity::ERROR,
                    u.message.clone(),
                ));
            }
            for e in &d.errors {
                out.push(diagnostic(
                    at(e.line, e.column, start),
                    DiagnosticSeverity::ERROR,
                    e.error.to_string(),
                ));
            }
            for w in &d.warnings {
                let range = at(Some(w.position.line), Some(w.position.column), start);
                out.push(diagnostic(
                    range,
                    DiagnosticSeverity::WARNING,
                    w.message.clone(),
                ));
            }
            for e in &d.shadowed {
                out.push(diagnostic(
                    at(e.line, e.column, start),
                    DiagnosticSeverity::INFORMATION,
                    format!(
                        "shadowed rule (not enforced by the API server): {}",
                        e.error
                    ),
                ));
            }
        }
        out
    }

    /// Hover at `at`: a CRD rule's types and cost, a tag's catalog entry.
    pub fn hover(&self, path: &Path, text: &str, at: Position) -> Option<String> {
        let index = LineIndex::new(text);
        match kind_of(path, text) {
            FileKind::Crd(syntax) => crd::hover(text, &index, syntax, at, self.minor()),
            FileKind::Go | FileKind::Rust => tags::hover(text, &index, at),
            FileKind::Manifest(syntax) => self.manifest_hover(syntax, text, &index, at),
            FileKind::Other => None,
        }
    }

    /// Hover over a manifest's key: `kdv explain` for that field of the document's kind
    /// (a built-in kind of the release, or a CRD of the workspace).
    fn manifest_hover(
        &self,
        syntax: Syntax,
        text: &str,
        index: &LineIndex,
        at: Position,
    ) -> Option<String> {
        let line_text = index.line(text, at.line as usize);
        let column = index.at_char_column_of(line_text, at.character) + 1;
        let line = u64::from(at.line) + 1;
        for entry in kdv_manifest::documents(text.as_bytes(), syntax, Default::default()) {
            let Ok(kdv_manifest::Entry::Document(doc)) = entry else {
                continue;
            };
            let mut paths = Vec::new();
            field_paths(&doc.value, &mut Vec::new(), &mut paths);
            let steps: Vec<Vec<kdv_manifest::Step<'_>>> = paths
                .iter()
                .map(|p| p.iter().map(StepBuf::as_step).collect())
                .collect();
            let queries: Vec<kdv_manifest::Query<'_>> = steps
                .iter()
                .map(|path| kdv_manifest::Query {
                    path,
                    target: kdv_manifest::Target::Key,
                })
                .collect();
            let positions = doc.locate(&queries);
            let found = paths.iter().zip(&positions).find(|(p, pos)| {
                let Some(StepBuf::Key(key)) = p.last() else {
                    return false;
                };
                let width = key.chars().count() as u64 + 2;
                pos.line == line && pos.column <= column && column < pos.column + width
            });
            let Some((path, _)) = found else {
                continue;
            };
            let api_version = doc.value.get("apiVersion")?.as_str()?;
            let kind = doc.value.get("kind")?.as_str()?;
            let field = path_text(path);
            let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
            let mut description = None;
            let explained = crate::commands::explain_builtin::explain(
                kind,
                Some(api_version),
                Some(&field),
                &self.release,
            )
            .or_else(|_| {
                self.validation();
                let files = self.crd_paths.lock().map(|f| f.clone()).unwrap_or_default();
                description = crd_description(&files, group, version, kind, path);
                let name = if group.is_empty() {
                    kind.to_string()
                } else {
                    format!("{kind}.{group}")
                };
                crate::commands::explain_crd::explain(&files, &name, Some(version), Some(&field))
            })
            .ok()?;
            let rendered = crate::commands::explanation::render(&explained);
            let mut md = description.map(|d| format!("{d}\n\n")).unwrap_or_default();
            md.push_str(&format!("```text\n{rendered}```\n"));
            return Some(md);
        }
        None
    }

    /// Completion at `at`: `self.` fields in a CRD rule, tags in a type file.
    pub fn completion(&self, path: &Path, text: &str, at: Position) -> Vec<CompletionItem> {
        let index = LineIndex::new(text);
        match kind_of(path, text) {
            FileKind::Crd(syntax) => crd::completion(text, &index, syntax, at, self.minor()),
            FileKind::Go | FileKind::Rust => tags::completion(text, &index, at),
            _ => Vec::new(),
        }
    }
}

/// Most keys of one document looked at for a hover.
const MAX_HOVER_PATHS: usize = 50_000;

/// The path of every key of `value` (bounded).
fn field_paths(value: &serde_json::Value, at: &mut Vec<StepBuf>, out: &mut Vec<Vec<StepBuf>>) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                if out.len() >= MAX_HOVER_PATHS {
                    return;
                }
                at.push(StepBuf::Key(k.clone()));
                out.push(at.clone());
                field_paths(v, at, out);
                at.pop();
            }
        }
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                at.push(StepBuf::Index(i));
                field_paths(v, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

/// The `description` of a field in the schema of a workspace CRD (`group`, `version`,
/// `kind`); built-in kinds have none (the embedded schemas drop them).
fn crd_description(
    files: &[PathBuf],
    group: &str,
    version: &str,
    kind: &str,
    path: &[StepBuf],
) -> Option<String> {
    use serde_json::Value;
    for file in files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let syntax = if file.extension().is_some_and(|e| e == "json") {
            Syntax::Json
        } else {
            Syntax::Yaml
        };
        for entry in kdv_manifest::documents(text.as_bytes(), syntax, Default::default()) {
            let Ok(kdv_manifest::Entry::Document(doc)) = entry else {
                continue;
            };
            let v = &doc.value;
            if v.pointer("/spec/group").and_then(Value::as_str) != Some(group)
                || v.pointer("/spec/names/kind").and_then(Value::as_str) != Some(kind)
            {
                continue;
            }
            let versions = v.pointer("/spec/versions").and_then(Value::as_array)?;
            let found = versions
                .iter()
                .find(|x| x.get("name").and_then(Value::as_str) == Some(version))?;
            let mut schema = found.pointer("/schema/openAPIV3Schema")?;
            for step in path {
                schema = match step {
                    StepBuf::Key(k) => schema
                        .pointer(&format!(
                            "/properties/{}",
                            k.replace('~', "~0").replace('/', "~1")
                        ))
                        .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()))?,
                    StepBuf::Index(_) => schema.get("items")?,
                };
            }
            return schema
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string);
        }
    }
    None
}

/// `spec.containers[*].image`: `kdv explain`'s path of a field.
fn path_text(path: &[StepBuf]) -> String {
    let mut s = String::new();
    for step in path {
        match step {
            StepBuf::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            StepBuf::Index(_) => s.push_str("[*]"),
        }
    }
    s
}

/// `kdv lint`'s findings for the types of a Go file's package or a Rust file, the file's
/// text taken from the editor; only those located in the file.
fn types(path: &Path, text: &str, index: &LineIndex) -> Vec<Diagnostic> {
    let dir = if path.extension().is_some_and(|e| e == "rs") {
        path.to_path_buf()
    } else {
        match path.parent() {
            Some(d) => d.to_path_buf(),
            None => return Vec::new(),
        }
    };
    let loaded =
        crate::commands::load_types_with(&dir, kdv_rules::Roots::Package, true, Some((path, text)));
    let types = match loaded {
        Ok(t) => t,
        Err(e) => {
            return vec![diagnostic(
                Range::default(),
                DiagnosticSeverity::ERROR,
                e.to_string(),
            )];
        }
    };
    let (found, _) = crate::commands::lint::type_findings(types, false);
    found
        .into_iter()
        .filter_map(|d| {
            let range = match &d.span {
                Some(span) if span.path == path => {
                    let start = index.at_byte_column(text, span.line.into(), span.col.into());
                    let end = index.at_byte_column(
                        text,
                        span.line.into(),
                        u64::from(span.col) + u64::from(span.len.max(1)),
                    );
                    Range::new(start, end)
                }
                Some(_) => return None,
                None => Range::default(),
            };
            let severity = match d.severity {
                kdv_model::Severity::Error => DiagnosticSeverity::ERROR,
                kdv_model::Severity::Warning => DiagnosticSeverity::WARNING,
            };
            Some(diagnostic(range, severity, d.message))
        })
        .collect()
}

/// Most files looked at for CRDs under the workspace folders.
const MAX_SCANNED_FILES: usize = 5_000;
/// Largest file read when looking for CRDs.
const MAX_SCANNED_BYTES: u64 = 8 << 20;

/// The YAML and JSON files under `folders` that declare a CRD (hidden folders, `target`,
/// `node_modules` and `vendor` skipped; bounded).
pub fn crd_files(folders: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut pending: Vec<PathBuf> = folders.to_vec();
    let mut seen = 0;
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            if dir.is_file() {
                out.push(dir);
            }
            continue;
        };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if !name.starts_with('.')
                    && !matches!(name.as_str(), "target" | "node_modules" | "vendor")
                {
                    pending.push(entry.path());
                }
                continue;
            }
            if !kind.is_file()
                || !(name.ends_with(".yaml") || name.ends_with(".yml") || name.ends_with(".json"))
            {
                continue;
            }
            seen += 1;
            if seen > MAX_SCANNED_FILES {
                return out;
            }
            let path = entry.path();
            if entry.metadata().is_ok_and(|m| m.len() <= MAX_SCANNED_BYTES)
                && std::fs::read_to_string(&path).is_ok_and(|t| is_crd_text(&t))
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n";
        assert_eq!(
            kind_of(Path::new("a.yaml"), crd),
            FileKind::Crd(Syntax::Yaml)
        );
        assert_eq!(
            kind_of(
                Path::new("a.json"),
                "{\"kind\": \"CustomResourceDefinition\"}"
            ),
            FileKind::Crd(Syntax::Json)
        );
        assert_eq!(
            kind_of(Path::new("a.yml"), "kind: Pod\n"),
            FileKind::Manifest(Syntax::Yaml)
        );
        assert_eq!(kind_of(Path::new("types.go"), ""), FileKind::Go);
        assert_eq!(kind_of(Path::new("README.md"), crd), FileKind::Other);
    }
}
