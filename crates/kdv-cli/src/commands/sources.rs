//! Where schemas come from, and which one a document is validated against.
//!
//! Sources, in the order a document's apiVersion and kind are looked up (decision):
//! 1. the Go types of `--types`: a kind the package declares is theirs (as a root type, or
//!    an error saying how to select it, as before); `--type NAME` takes every document;
//! 2. the CRDs of `--crd` (the last one read wins for a kind);
//! 3. the OpenAPI v3 documents of `--schema DIR` (`api/v1.json`,
//!    `apis/<group>/<version>.json`, read when a kind of theirs is first looked up);
//! 4. Kubernetes' built-in kinds of `--k8s-version` (embedded, default the newest release),
//!    when neither `--types` nor `--schema` is given, or `--k8s-version` is.
//!
//! Sources 2–4 form one `kdv_openapi::SchemaSet`, which looks CRDs up before OpenAPI
//! documents and documents in the order they were added; it parses a document and compiles
//! a kind once per process, on first use, and is shared by the worker threads.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use kdv_openapi::{LookupError, Resource, SchemaSet};
use kdv_rollout::FeatureGates;
use kdv_rules::TypeId;
use serde_json::Value;

use super::release::Release;
use super::select::TypeSelector;
use crate::cli::RulesArgs;
use crate::error::CliError;
use crate::file_name;
use crate::input::{self, ReadLimits, Stream};

/// The schema sources of a run besides the Go types, and what they hold (for messages).
pub struct SchemaSources {
    /// CRDs, `--schema` documents and built-in kinds.
    pub set: SchemaSet,
    /// The declarative rules of the built-in kinds (from 1.33), when they are a source.
    pub declarative: Option<kdv_k8s_api::Release>,
    /// What was loaded, for "unknown kind" messages: `2 CRDs (crds/)`, `the Kubernetes 1.35
    /// built-in kinds`.
    pub loaded: Vec<String>,
}

/// The release `args` name (`--k8s-version`, `--emulated-version`) and its feature gates
/// with `--feature-gates` applied, and the warnings of applying them.
pub fn release_and_gates(
    args: &RulesArgs,
) -> Result<(Release, FeatureGates, Vec<String>), CliError> {
    let release = Release::choose(
        args.k8s_version.as_deref(),
        args.emulated_version.as_deref(),
    )?;
    let mut gates = release.gates();
    let warnings = match &args.feature_gates {
        Some(value) => gates
            .parse(value)
            .map_err(|e| CliError::Usage(format!("--feature-gates: {e}")))?,
        None => Vec::new(),
    };
    Ok((release, gates, warnings))
}

/// Whether the run uses Kubernetes' built-in kinds: with no --types and no --schema, or
/// when the release is given.
pub fn uses_builtins(args: &RulesArgs, release: &Release) -> bool {
    release.explicit || (args.types.is_none() && args.schema.is_none())
}

/// The schema sources a command names (`kdv validate`, `kdv serve`, `kdv serve
/// --candidate-crd`).
#[derive(Debug, Clone, Copy)]
pub struct SourceArgs<'a> {
    /// `--crd` files and directories.
    pub crds: &'a [PathBuf],
    /// `--schema DIR`.
    pub schema: Option<&'a Path>,
    /// Whether the built-in kinds of the release are a source ([`uses_builtins`]).
    pub builtins: bool,
}

impl<'a> SourceArgs<'a> {
    /// The sources the arguments name.
    pub fn of(args: &'a RulesArgs, release: &Release) -> SourceArgs<'a> {
        SourceArgs {
            crds: &args.crds,
            schema: args.schema.as_deref(),
            builtins: uses_builtins(args, release),
        }
    }
}

/// Reads the `--crd` files, registers the `--schema` documents and the built-in kinds.
/// Returns `None` when the run has no such source (only `--types`).
pub fn load(
    args: SourceArgs<'_>,
    release: &Release,
    limits: ReadLimits,
) -> Result<Option<SchemaSources>, CliError> {
    let builtins = args.builtins.then_some(release.version);
    if args.crds.is_empty() && args.schema.is_none() && builtins.is_none() {
        return Ok(None);
    }
    let mut set = SchemaSet::new();
    // CRD rules compile in the release's CEL environment; its rule-failure texts apply.
    set.set_kubernetes_minor(release.minor);
    let mut loaded = Vec::new();
    let mut declarative = None;
    if !args.crds.is_empty() {
        let mut count = 0;
        for path in args.crds {
            let found = load_crds(&mut set, path, limits)?;
            if found == 0 {
                return Err(CliError::Schema(format!(
                    "--crd {}: no CustomResourceDefinition found",
                    file_name::display(path)
                )));
            }
            count += found;
        }
        let paths: Vec<String> = args.crds.iter().map(|p| file_name::display(p)).collect();
        loaded.push(format!(
            "{count} CRD{} ({})",
            if count == 1 { "" } else { "s" },
            paths.join(", ")
        ));
    }
    if let Some(dir) = args.schema {
        let count = register_schema_dir(&mut set, dir)?;
        loaded.push(format!(
            "{count} OpenAPI document{} ({})",
            if count == 1 { "" } else { "s" },
            file_name::display(dir)
        ));
    }
    if let Some(version) = builtins {
        for doc in kdv_k8s_openapi::documents(version) {
            let file = format!("<kubernetes {version}>/{}.json", doc.path());
            set.add_openapi_v3_lazy(
                doc.group_version(),
                &file,
                Box::new(move || {
                    doc.load()
                        .map(std::borrow::Cow::Owned)
                        .map_err(|e| kdv_openapi::LoadError {
                            file: format!("<kubernetes {}>/{}.json", doc.version(), doc.path()),
                            line: 0,
                            column: 0,
                            message: e.to_string(),
                        })
                }),
            );
        }
        loaded.push(format!("the Kubernetes {version} built-in kinds"));
        declarative = release.builtin_rules();
    }
    Ok(Some(SchemaSources {
        set,
        declarative,
        loaded,
    }))
}

/// Adds the CRDs of a file, or of the files of a directory (searched as manifests are).
fn load_crds(set: &mut SchemaSet, path: &Path, limits: ReadLimits) -> Result<usize, CliError> {
    let arg = path.to_string_lossy().into_owned();
    let (jobs, problems) = input::plan(std::slice::from_ref(&arg));
    if let Some(problem) = problems.into_iter().next() {
        return Err(CliError::Schema(format!("--crd: {problem}")));
    }
    let mut count = 0;
    for job in &jobs {
        for source in std::iter::once(&job.new).chain(&job.old) {
            // `--crd -` reads standard input (`validate` refuses it when the manifests or
            // `--old` read it too).
            let stream = Stream::read(source, limits)
                .map_err(|e| CliError::Schema(format!("--crd: {e}")))?;
            count += set
                .add_crds(&stream.name, stream.bytes())
                .map_err(|e| CliError::Schema(format!("--crd: {e}")))?;
        }
    }
    Ok(count)
}

/// Registers the OpenAPI documents of a `--schema` directory, to be read on first use.
fn register_schema_dir(set: &mut SchemaSet, dir: &Path) -> Result<usize, CliError> {
    let shown = file_name::display(dir);
    if !dir.is_dir() {
        return Err(CliError::Schema(format!(
            "--schema {shown}: not a directory (expected a directory holding api/v1.json and apis/<group>/<version>.json, as the API server serves /openapi/v3)"
        )));
    }
    let mut documents: Vec<(String, PathBuf)> = Vec::new();
    let json_files = |d: &Path| -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(d)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        files
    };
    for file in json_files(&dir.join("api")) {
        if let Some(version) = file.file_stem() {
            documents.push((version.to_string_lossy().into_owned(), file));
        }
    }
    let mut groups: Vec<PathBuf> = std::fs::read_dir(dir.join("apis"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    groups.sort();
    for group_dir in groups {
        let Some(group) = group_dir
            .file_name()
            .map(|g| g.to_string_lossy().into_owned())
        else {
            continue;
        };
        for file in json_files(&group_dir) {
            if let Some(version) = file.file_stem() {
                documents.push((format!("{group}/{}", version.to_string_lossy()), file));
            }
        }
    }
    if documents.is_empty() {
        return Err(CliError::Schema(format!(
            "--schema {shown}: no OpenAPI documents (expected api/v1.json and apis/<group>/<version>.json, as the API server serves /openapi/v3)"
        )));
    }
    let count = documents.len();
    for (group_version, file) in documents {
        let name = file_name::display(&file);
        let loader_name = name.clone();
        set.add_openapi_v3_lazy(
            &group_version,
            &name,
            Box::new(move || {
                std::fs::read(&file)
                    .map(std::borrow::Cow::Owned)
                    .map_err(|e| kdv_openapi::LoadError {
                        file: loader_name.clone(),
                        line: 0,
                        column: 0,
                        message: format!("cannot read: {e}"),
                    })
            }),
        );
    }
    Ok(count)
}

/// The schema a document is validated against.
pub enum Schema {
    /// A Go type of `--types`.
    Go(TypeId),
    /// A CRD, OpenAPI or built-in kind, with the release's declarative rules of a built-in
    /// kind.
    Resource(Arc<Resource>, Option<kdv_k8s_api::BuiltinKind>),
}

/// Chooses each document's schema among the sources.
pub struct Selector<'a> {
    /// The Go types, when `--types` is given.
    pub go: Option<&'a TypeSelector<'a>>,
    /// The other sources.
    pub sources: Option<&'a SchemaSources>,
}

impl Selector<'_> {
    /// The schema for a document, or why there is none (an input error of the document).
    pub fn select(&self, value: &Value) -> Result<Schema, String> {
        let Some(sources) = self.sources else {
            return match self.go {
                Some(go) => go.select(value).map(Schema::Go),
                None => Err("no schema sources".to_string()),
            };
        };
        let go_message = match self.go {
            Some(go) if go.is_fixed() || go.declares_kind(value) => {
                return go.select(value).map(Schema::Go);
            }
            Some(go) => match go.select(value) {
                Ok(ty) => return Ok(Schema::Go(ty)),
                Err(message) => Some(message),
            },
            None => None,
        };
        let (api_version, kind) = type_meta(value, self.go.is_some())?;
        let resource = match sources.set.resource(api_version, kind) {
            Ok(resource) => resource,
            Err(e) => return Err(self.unknown(sources, api_version, kind, &e, go_message)),
        };
        let declarative = match &sources.declarative {
            Some(release) if !resource.is_crd() => release
                .kind(api_version, kind)
                .map_err(|e| format!("cannot read the rules of kind {kind:?}: {e}"))?,
            _ => None,
        };
        Ok(Schema::Resource(resource, declarative))
    }

    fn unknown(
        &self,
        sources: &SchemaSources,
        api_version: &str,
        kind: &str,
        error: &LookupError,
        go_message: Option<String>,
    ) -> String {
        let loaded = sources.loaded.join(", ");
        let mut message = match error {
            LookupError::UnknownKind { known, .. } => {
                let mut kinds = resource_kinds(known);
                if kinds.is_empty() {
                    kinds = known.iter().map(String::as_str).collect();
                }
                if kinds.is_empty() {
                    format!(
                        "unknown kind {kind:?} in apiVersion {api_version:?} ({api_version} declares no kinds: none of its schemas carries x-kubernetes-group-version-kind; loaded: {loaded})"
                    )
                } else {
                    format!(
                        "unknown kind {kind:?} in apiVersion {api_version:?} ({api_version} has: {}; loaded: {loaded})",
                        kinds.join(", ")
                    )
                }
            }
            LookupError::UnknownGroupVersion { .. } => format!(
                "unknown kind {kind:?}: no schema for apiVersion {api_version:?} (loaded: {loaded})"
            ),
            LookupError::InvalidApiVersion { .. } => {
                format!("apiVersion {api_version:?} is not GROUP/VERSION or VERSION")
            }
            LookupError::Load(e) => format!("cannot read the schema of kind {kind:?}: {e}"),
        };
        if let Some(go) = go_message
            && !matches!(
                error,
                LookupError::Load(_) | LookupError::InvalidApiVersion { .. }
            )
        {
            message = format!("{message}; the --types package: {go}");
        }
        message
    }
}

/// The kinds a manifest can be among those a group-version declares: not the list kinds
/// (`DeploymentList`) nor the API machinery kinds every built-in document repeats.
fn resource_kinds(known: &[String]) -> Vec<&str> {
    known
        .iter()
        .map(String::as_str)
        .filter(|k| {
            !k.ends_with("List") && !matches!(*k, "DeleteOptions" | "WatchEvent" | "Status")
        })
        .collect()
}

/// The apiVersion and kind of a document, with the messages of the Go type selector (the
/// `--type` hint only when Go types are loaded).
fn type_meta(value: &Value, go: bool) -> Result<(&str, &str), String> {
    let hint = if go { ", or pass --type" } else { "" };
    let Some(object) = value.as_object() else {
        return Err(format!(
            "document is {}, not an object with apiVersion and kind",
            super::select::json_kind(value)
        ));
    };
    let kind = match object.get("kind") {
        Some(Value::String(kind)) if !kind.is_empty() => kind,
        Some(Value::String(_)) | None => {
            return Err(format!(
                "document has no kind; set apiVersion and kind{hint}"
            ));
        }
        Some(other) => {
            return Err(format!(
                "kind must be a string, not {}",
                super::select::json_kind(other)
            ));
        }
    };
    let api_version = match object.get("apiVersion") {
        Some(Value::String(v)) if !v.is_empty() => v,
        Some(Value::String(_)) | None => {
            return Err(format!(
                "document of kind {kind:?} has no apiVersion; set it{hint}"
            ));
        }
        Some(other) => {
            return Err(format!(
                "apiVersion must be a string, not {}",
                super::select::json_kind(other)
            ));
        }
    };
    Ok((api_version, kind))
}
