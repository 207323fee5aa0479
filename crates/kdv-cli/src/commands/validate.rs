//! `kdv validate`: manifests × schemas (Go types, CRDs, OpenAPI documents, Kubernetes'
//! built-in kinds; `sources`) → field errors.

use std::cell::RefCell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use kdv_manifest::{Document, Entry, Syntax};
use kdv_model::{Diagnostic, Severity};
use kdv_rollout::FeatureGates;
use kdv_rules::RuleSet;
use kdv_runtime::{Operation, OperationKind};
use serde_json::Value;

use super::check::{self, check_document, check_resource};
use super::jobs::{default_threads, run_jobs};
use super::old::{GitRevisions, OldSet, OldSource, Pairing};
use super::options::Options;
use super::release::Release;
use super::select::TypeSelector;
use super::sources::{self, Schema, SchemaSources, Selector};
use super::{custom, error_count, load_types};
use crate::cli::{OutputFormat, UnknownFields, ValidateArgs, subresource_parts};
use crate::error::CliError;
use crate::input::{self, InputError, Job, ReadLimits, Source, Stream};
use crate::output::progress::{self, Progress};
use crate::output::{DocumentResult, Finding, Report, json, sarif, text};

/// Runs `kdv validate`; results go to `out`, diagnostics, input errors and the text summary
/// to `err`. Returns the exit status (0 valid, 1 invalid, 2 input errors). With `-o json` or
/// `-o sarif`, a failure is also written to `out` as that format's one document.
pub fn run(args: &ValidateArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8, CliError> {
    let mut diagnostics = Vec::new();
    let result = validate(args, out, err, &mut diagnostics);
    if let Err(e) = &result
        && !matches!(e, CliError::Output(_))
    {
        let report = Report::default();
        match args.output {
            OutputFormat::Text => {}
            OutputFormat::Json => json::write_validate(&report, &diagnostics, &[], Some(e), out)?,
            OutputFormat::Sarif => sarif::write_validate(&report, &diagnostics, &[], Some(e), out)?,
        }
    }
    result
}

fn validate(
    args: &ValidateArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<u8, CliError> {
    check_usage(args)?;
    let (release, gates, warnings) = sources::release_and_gates(&args.rules)?;
    if !args.quiet {
        for w in warnings {
            writeln!(err, "warning: {w}")?;
        }
    }
    let subresource = match &args.subresource {
        Some(path) => subresource_parts(path).map_err(CliError::Usage)?,
        None => Vec::new(),
    };
    let limits = ReadLimits {
        max_document: args
            .max_size
            .unwrap_or(kdv_manifest::DEFAULT_MAX_DOCUMENT_BYTES),
    };
    let types = match &args.rules.types {
        Some(dir) => Some(load_types(dir, args.rules.roots.roots(), false)?),
        None => None,
    };
    let (compiled, home) = match types {
        Some(types) => {
            *diagnostics = types.diagnostics;
            // --quiet keeps the errors among the diagnostics, not the warnings.
            text::write_diagnostics(
                err,
                diagnostics
                    .iter()
                    .filter(|d| !args.quiet || d.severity == Severity::Error),
            )?;
            let errors = error_count(diagnostics);
            if let (true, Some(dir)) = (errors > 0, &args.rules.types) {
                return Err(CliError::TypesInvalid {
                    dir: dir.clone(),
                    count: errors,
                });
            }
            (Some(types.compiled), types.home)
        }
        None => (None, None),
    };
    let rules = compiled.as_ref().map(|c| &c.rules);
    let type_selector = match (rules, &args.rules.types) {
        (Some(rules), Some(dir)) => Some(TypeSelector::new(
            rules,
            args.type_name.as_deref(),
            dir,
            home.as_deref(),
            subresource.clone(),
        )?),
        _ => None,
    };
    let sources = sources::load(
        sources::SourceArgs::of(&args.rules, &release),
        &release,
        limits,
    )?;
    let selector = Selector {
        go: type_selector.as_ref(),
        sources: sources.as_ref(),
    };

    let options = Options::new(&args.rules.options, &gates);
    let mut base = base_operation(args, subresource);
    if let Some(rules) = rules {
        // Every option is defined (warnings only for those of the types validated).
        for (name, value) in options.values(&rules.option_names()) {
            base.options.entry(name).or_insert(value);
        }
    }
    let (old, old_problems) = old_source(args, limits)?;
    let mut report = Report {
        minor: release.minor,
        ..Report::default()
    };
    report.input_errors.extend(old_problems);
    // The files are found as the workers take them (`input::Planner`); the walk's problems
    // are reported where `input::plan` puts them, after those of `--old`.
    let found = AtomicUsize::new(0);
    let mut planner = input::Planner::new(&args.paths).counting(&found);
    let planned_problems_at = report.input_errors.len();

    let ctx = JobContext {
        rules,
        selector: &selector,
        base,
        limits,
        unknown_fields: args.unknown_fields,
        gates: &gates,
        options: &options,
        noted: Default::default(),
        old: old.as_ref(),
        minor: release.minor,
    };
    let threads = args.jobs.map_or_else(default_threads, |n| n as usize);
    let progress = RefCell::new(Progress::new(0, progress::wanted(args.quiet)));
    let streaming = args.output == OutputFormat::Text;
    run_jobs(
        &mut planner,
        threads,
        |job| validate_job(&ctx, job),
        |_, part| {
            let mut progress = progress.borrow_mut();
            progress.set_total(found.load(Ordering::Relaxed));
            // Text lines are written as files finish, in input order.
            if streaming && !part.documents.is_empty() {
                let visible = progress.visible();
                progress.suspend(|| {
                    text::write_document_errors(&part.documents, out)?;
                    if visible { out.flush() } else { Ok(()) }
                })?;
            }
            progress.advance(part.documents.len(), part.error_count());
            if streaming {
                report.absorb_written(part);
            } else {
                report.absorb(part);
            }
            Ok::<(), std::io::Error>(())
        },
        || {
            let mut progress = progress.borrow_mut();
            progress.set_total(found.load(Ordering::Relaxed));
            progress.tick();
        },
    )?;
    progress.into_inner().finish();
    let problems = planner.finish();
    report
        .input_errors
        .splice(planned_problems_at..planned_problems_at, problems);

    let mut warnings = rules.map_or_else(Vec::new, |rules| custom_warnings(rules, &report));
    warnings.extend(options.warnings());
    // Nothing validated and nothing failed: empty files or input (exit status 2).
    warnings.extend(report.nothing_validated().map(|w| format!("warning: {w}")));
    // Warnings go to stderr in every format (JSON and SARIF carry them too).
    if !args.quiet {
        for warning in &warnings {
            writeln!(err, "{warning}")?;
        }
    }
    match args.output {
        OutputFormat::Text => text::write_footer(&report, args.quiet, err)?,
        OutputFormat::Json => json::write_validate(&report, diagnostics, &warnings, None, out)?,
        OutputFormat::Sarif => sarif::write_validate(&report, diagnostics, &warnings, None, out)?,
    }
    Ok(report.exit_code())
}

/// The warnings, once per type documents were validated as, about the
/// `+k8s:customValidation` checks that validation skipped.
fn custom_warnings(rules: &RuleSet, report: &Report) -> Vec<String> {
    let mut seen = std::collections::BTreeSet::new();
    let mut warnings = Vec::new();
    let names = report.written.type_names.iter();
    for name in names.chain(report.documents.iter().map(|d| &d.type_name)) {
        if !seen.insert(name.as_str()) {
            continue;
        }
        let Some(ty) = rules.find_type(name) else {
            continue;
        };
        warnings.extend(custom::skipped_warning(rules, ty, name));
    }
    warnings
}

/// Checks the arguments that clap cannot check alone.
fn check_usage(args: &ValidateArgs) -> Result<(), CliError> {
    let stdin_uses = args.paths.iter().filter(|p| *p == "-").count()
        + usize::from(args.old.as_deref() == Some("-"))
        + args
            .rules
            .crds
            .iter()
            .filter(|p| p.as_os_str() == "-")
            .count();
    if stdin_uses > 1 {
        return Err(CliError::Usage(
            "standard input (`-`) can be read only once".to_string(),
        ));
    }
    Ok(())
}

/// The old revisions of `--old` or `--old-ref`, with the problems met reading `--old`.
fn old_source(
    args: &ValidateArgs,
    limits: ReadLimits,
) -> Result<(Option<OldSource>, Vec<InputError>), CliError> {
    if let Some(rev) = &args.old_ref {
        let git = GitRevisions::open(rev, &args.paths)?;
        return Ok((Some(OldSource::Git(git)), Vec::new()));
    }
    match &args.old {
        Some(path) => {
            let (set, errors) = OldSet::load(path, limits);
            Ok((Some(OldSource::Set(set)), errors))
        }
        None => Ok((None, Vec::new())),
    }
}

fn base_operation(args: &ValidateArgs, subresources: Vec<String>) -> Operation {
    let mut op = Operation::create();
    for (name, enabled) in &args.rules.options {
        op.options.insert(name.clone(), *enabled);
    }
    op.subresources = subresources;
    op
}

/// What every job of a run shares.
struct JobContext<'r> {
    /// The Go types' rules, with `--types`.
    rules: Option<&'r RuleSet>,
    selector: &'r Selector<'r>,
    base: Operation,
    limits: ReadLimits,
    unknown_fields: UnknownFields,
    /// `--feature-gates`: which declarative rules are shadowed.
    gates: &'r FeatureGates,
    /// The values of validation options.
    options: &'r Options<'r>,
    /// The Go types whose options were noted for the warnings.
    noted: std::sync::Mutex<std::collections::HashSet<kdv_rules::TypeId>>,
    /// Old revisions of `--old` or `--old-ref`.
    old: Option<&'r OldSource>,
    /// The release's minor version: the CEL environment of `+validationRule`s.
    minor: u32,
}

impl JobContext<'_> {
    /// Notes the options a Go type's validation reads, once per type.
    fn note_options(&self, rules: &RuleSet, ty: kdv_rules::TypeId) {
        let first = self.noted.lock().is_ok_and(|mut noted| noted.insert(ty));
        if first {
            self.options.note(&rules.option_names_reachable(ty));
        }
    }
}

/// Validates the documents of one job; its report holds the results and input errors.
fn validate_job(ctx: &JobContext<'_>, job: &Job) -> Report {
    let mut report = Report::default();
    validate_job_into(ctx, job, &mut report);
    report
}

/// Documents are validated as they are parsed, so one parsed document is held at a time
/// (with `--old`/`--old-ref`, beside the old objects); an unreadable document is an input
/// error and the others are still validated. Without those options, a file with an
/// `x.old.yaml` sibling pairs the documents of both revisions by position, which needs all
/// of them.
fn validate_job_into(ctx: &JobContext<'_>, job: &Job, report: &mut Report) {
    let new = match Stream::read(&job.new, ctx.limits) {
        Ok(stream) => stream,
        Err(e) => return report.input_errors.push(e),
    };
    // `--old` and `--old-ref` name the old revisions of every file, siblings included.
    let sibling = job.old.as_ref().filter(|_| ctx.old.is_none());
    let Some(old_source) = sibling else {
        let per_file;
        let old_set = match ctx.old {
            None => None,
            Some(OldSource::Set(set)) => Some(set),
            Some(OldSource::Git(git)) => {
                let (set, problems) = git.old_set(&job.new, ctx.limits);
                report.input_errors.extend(problems);
                per_file = set;
                Some(&per_file)
            }
        };
        validate_documents(ctx, &new, old_set, report);
        return;
    };
    let old = match Stream::read(old_source, ctx.limits) {
        Ok(stream) => stream,
        Err(e) => return report.input_errors.push(e),
    };
    let (new_docs, empty, new_errors) = read_all(&new);
    let (old_docs, _, old_errors) = read_all(&old);
    report.empty += empty;
    if !new_errors.is_empty() || !old_errors.is_empty() {
        // Documents are paired by position: with one unreadable, no pairing can be trusted.
        report.input_errors.extend(new_errors);
        report.input_errors.extend(old_errors);
        return;
    }
    if old_docs.len() != new_docs.len() {
        return report.input_errors.push(InputError::file(
            &new.name,
            format!(
                "has {} but its old revision {} has {}; documents are paired by position",
                count(new_docs.len()),
                old.name,
                count(old_docs.len())
            ),
        ));
    }
    for (doc, old_doc) in new_docs.iter().zip(&old_docs) {
        if let Err(message) = same_kind(&doc.value, &old.name, old_doc) {
            report.input_errors.push(InputError::document(
                &new.name,
                doc.index,
                doc.position,
                message,
            ));
            continue;
        }
        let old_ref = OldRef {
            file: &old.name,
            index: old_doc.index,
            value: &old_doc.value,
        };
        validate_document(ctx, &new.name, doc, Some(old_ref), report);
    }
}

/// Validates `doc` as an UPDATE of the old object with its identity in `set`, or as a
/// CREATE when there is none (`commands::old`).
fn validate_paired(
    ctx: &JobContext<'_>,
    file: &str,
    doc: &Document<'_>,
    set: &OldSet,
    report: &mut Report,
) {
    match set.pair(&doc.value) {
        Pairing::None => validate_document(ctx, file, doc, None, report),
        Pairing::One(old) => {
            let old_ref = OldRef {
                file: &old.file,
                index: old.index,
                value: &old.value,
            };
            validate_document(ctx, file, doc, Some(old_ref), report);
        }
        Pairing::OtherVersion(old) => {
            validate_document(ctx, file, doc, None, report);
            if let Some(result) = report.documents.last_mut()
                && result.file == file
                && result.document == doc.index
            {
                let was = string_field(&old.value, "apiVersion").unwrap_or_default();
                result.warnings.push(Finding {
                    field: "apiVersion".into(),
                    message: format!(
                        "its old revision {} (document {}) has apiVersion {was:?}; kdv does not convert between versions, so it is validated as a CREATE",
                        old.file, old.index
                    ),
                    position: check::position_of(doc, "apiVersion"),
                });
            }
        }
        Pairing::Ambiguous { listed, total } => {
            let mut names: Vec<String> = listed
                .iter()
                .map(|c| format!("{} (document {})", c.file, c.index))
                .collect();
            if total > listed.len() {
                names.push(format!("and {} more", total - listed.len()));
            }
            report.input_errors.push(InputError::document(
                file,
                doc.index,
                doc.position,
                format!(
                    "its old revision is ambiguous: {total} old objects have its apiVersion, kind, namespace and name: {}",
                    names.join(", ")
                ),
            ));
        }
    }
}

/// The old revision an UPDATE compares with.
#[derive(Clone, Copy)]
struct OldRef<'a> {
    /// Its file's text form.
    file: &'a str,
    /// Its index in that file.
    index: usize,
    value: &'a Value,
}

/// All documents of a stream: the non-empty ones, the number of empty ones, the errors.
fn read_all(stream: &Stream) -> (Vec<Document<'_>>, usize, Vec<InputError>) {
    let (mut docs, mut empty, mut errors) = (Vec::new(), 0, Vec::new());
    for entry in stream.documents() {
        match entry {
            Ok(Entry::Document(doc)) => docs.push(doc),
            Ok(Entry::Empty { .. }) => empty += 1,
            Err(e) => errors.push(e),
        }
    }
    (docs, empty, errors)
}

/// Validates the documents of `new` one at a time (each paired with its old revision in
/// `old_set`, when given).
fn validate_documents(
    ctx: &JobContext<'_>,
    new: &Stream,
    old_set: Option<&OldSet>,
    report: &mut Report,
) {
    for entry in new.documents() {
        match entry {
            Ok(Entry::Document(doc)) => {
                // kubectl sends the objects of a list, never the list.
                let items = doc.list_items();
                if items.as_ref().is_some_and(Vec::is_empty) {
                    report.empty += 1;
                }
                for doc in items.as_deref().unwrap_or(std::slice::from_ref(&doc)) {
                    match old_set {
                        None => validate_document(ctx, &new.name, doc, None, report),
                        Some(set) => validate_paired(ctx, &new.name, doc, set, report),
                    }
                }
            }
            Ok(Entry::Empty { .. }) => report.empty += 1,
            Err(e) => report.input_errors.push(e),
        }
    }
}

/// The rules manifests held in memory are validated with (`kdv lsp`): what `kdv validate`
/// loads for a release, CRD files and an unknown-field mode, loaded once.
pub struct TextValidation {
    release: Release,
    gates: FeatureGates,
    sources: Option<SchemaSources>,
    unknown_fields: UnknownFields,
    /// The Go or Rust types of `--types`, with where they were read from.
    types: Option<(super::Types, PathBuf)>,
}

impl TextValidation {
    /// Loads the built-in kinds of `release`, the CRDs of the files `crds` and the kinds of
    /// the `types` package (a Go package folder or a Rust file, as `--types`); a file whose
    /// CRDs cannot be loaded, or types that do not compile, are left out, with their problem
    /// among those returned (one broken CRD in a workspace does not stop the others' kinds).
    pub fn load(
        release: Release,
        crds: &[PathBuf],
        types: Option<&Path>,
        unknown_fields: UnknownFields,
    ) -> Result<(TextValidation, Vec<String>), CliError> {
        let source_args = sources::SourceArgs {
            crds: &[],
            schema: None,
            builtins: true,
        };
        let limits = ReadLimits {
            max_document: super::MAX_CRD_DOCUMENT,
        };
        let mut sources = sources::load(source_args, &release, limits)?;
        let mut problems = Vec::new();
        if let Some(sources) = &mut sources {
            let mut count = 0;
            for path in crds {
                let name = crate::file_name::display(path);
                match std::fs::read(path) {
                    Ok(bytes) => match sources.set.add_crds(&name, &bytes) {
                        Ok(n) => count += n,
                        Err(e) => problems.push(e.to_string()),
                    },
                    Err(e) => problems.push(format!("{name}: {e}")),
                }
            }
            if count > 0 {
                sources.loaded.insert(
                    0,
                    format!(
                        "{count} CRD{} of the workspace",
                        if count == 1 { "" } else { "s" }
                    ),
                );
            }
        }
        let types = types.and_then(
            |dir| match load_types(dir, kdv_rules::Roots::Package, false) {
                Ok(t) if error_count(&t.diagnostics) == 0 => Some((t, dir.to_path_buf())),
                Ok(t) => {
                    problems.push(format!(
                        "{}: {} error(s) in the types (kdv lint --types shows them)",
                        crate::file_name::display(dir),
                        error_count(&t.diagnostics)
                    ));
                    None
                }
                Err(e) => {
                    problems.push(e.to_string());
                    None
                }
            },
        );
        let validation = TextValidation {
            gates: release.gates(),
            release,
            sources,
            unknown_fields,
            types,
        };
        Ok((validation, problems))
    }

    /// Validates the documents of `text` (file `name`), as CREATEs, or as UPDATEs of the
    /// documents of `old_ref`'s revision of `path` (a git revision, `--old-ref`).
    pub fn validate(
        &self,
        name: &str,
        syntax: Syntax,
        text: &str,
        old_ref: Option<(&str, &Path)>,
    ) -> Report {
        let rules = self.types.as_ref().map(|(t, _)| &t.compiled.rules);
        let go = self.types.as_ref().and_then(|(t, dir)| {
            TypeSelector::new(&t.compiled.rules, None, dir, t.home.as_deref(), Vec::new()).ok()
        });
        let selector = Selector {
            go: go.as_ref(),
            sources: self.sources.as_ref(),
        };
        let options = Options::new(&[], &self.gates);
        let limits = ReadLimits {
            max_document: kdv_manifest::DEFAULT_MAX_DOCUMENT_BYTES,
        };
        let mut base = Operation::create();
        if let Some(rules) = rules {
            for (name, value) in options.values(&rules.option_names()) {
                base.options.entry(name).or_insert(value);
            }
        }
        let ctx = JobContext {
            rules,
            selector: &selector,
            base,
            limits,
            unknown_fields: self.unknown_fields,
            gates: &self.gates,
            options: &options,
            noted: Default::default(),
            old: None,
            minor: self.release.minor,
        };
        let stream = Stream::from_bytes(name.to_string(), syntax, text.as_bytes().to_vec(), limits);
        let mut report = Report {
            minor: self.release.minor,
            ..Report::default()
        };
        let old = old_ref.and_then(|(rev, path)| {
            let file = path.display().to_string();
            let git = GitRevisions::open(rev, std::slice::from_ref(&file)).ok()?;
            let (set, problems) = git.old_set(&Source::File(path.to_path_buf()), limits);
            report.input_errors.extend(problems);
            Some(set)
        });
        validate_documents(&ctx, &stream, old.as_ref(), &mut report);
        report
    }
}

/// Validates one document of `file` (against its old revision for an UPDATE).
fn validate_document(
    ctx: &JobContext<'_>,
    file: &str,
    doc: &Document<'_>,
    old_doc: Option<OldRef<'_>>,
    report: &mut Report,
) {
    let schema = match ctx.selector.select(&doc.value) {
        Ok(schema) => schema,
        Err(message) => {
            let at = check::position_of(doc, "kind");
            report
                .input_errors
                .push(InputError::document(file, doc.index, at, message));
            return;
        }
    };
    let mut op = ctx.base.clone();
    if old_doc.is_some() {
        op.kind = OperationKind::Update;
    }
    let old_value = old_doc.map(|d| d.value);
    let (found, type_name) = match (&schema, ctx.rules, ctx.selector.go) {
        (Schema::Go(ty), Some(rules), Some(go)) => (
            {
                ctx.note_options(rules, *ty);
                check_document(
                    rules,
                    *ty,
                    &op,
                    doc,
                    old_value,
                    ctx.unknown_fields,
                    ctx.gates,
                    ctx.minor,
                )
            },
            go.qualified_name(*ty),
        ),
        (Schema::Resource(resource, builtin), _, _) => {
            let checks = ResourceChecks {
                gates: ctx.gates,
                options: ctx.options,
                unknown_fields: ctx.unknown_fields,
            };
            match check_resource_document(&checks, resource, builtin.as_ref(), &op, doc, old_value)
            {
                Ok(found) => (
                    found,
                    format!("{}.{}", resource.api_version(), resource.kind()),
                ),
                Err(message) => {
                    let at = check::position_of(doc, "kind");
                    report
                        .input_errors
                        .push(InputError::document(file, doc.index, at, message));
                    return;
                }
            }
        }
        // A Go type is selected only when Go types are loaded.
        (Schema::Go(_), _, _) => return,
    };
    report.documents.push(DocumentResult {
        file: file.to_string(),
        document: doc.index,
        line: doc.position.line,
        column: doc.position.column,
        kind: string_field(&doc.value, "kind").map(str::to_string),
        type_name,
        operation: op.kind,
        old_file: old_doc.map(|d| d.file.to_string()),
        old_document: old_doc.map(|d| d.index),
        errors: found.errors,
        unknown_fields: found.unknown_fields,
        warnings: found.warnings,
        shadowed: found.shadowed,
    });
}

/// What checking a document of a CRD, OpenAPI or built-in kind needs of a run.
pub struct ResourceChecks<'r> {
    /// Which declarative rules are shadowed.
    pub gates: &'r FeatureGates,
    /// The values of validation options.
    pub options: &'r Options<'r>,
    /// What to do with unknown fields.
    pub unknown_fields: UnknownFields,
}

/// Checks a document of a CRD, OpenAPI or built-in kind: the request `--subresource` names
/// (the status subresource's strategy: an UPDATE that writes only `status`; the scale
/// subresource's body: a `Scale`), the schema's pipeline and, for a built-in kind, the
/// release's declarative rules on the object as the strategy leaves it. `Err` is an input
/// error of the document (a subresource the kind does not have, a status request with no
/// old object).
pub fn check_resource_document(
    ctx: &ResourceChecks<'_>,
    resource: &kdv_openapi::Resource,
    builtin: Option<&kdv_k8s_api::BuiltinKind>,
    op: &Operation,
    doc: &Document<'_>,
    old: Option<&Value>,
) -> Result<check::Findings, String> {
    let kind = format!("kind {:?} of {}", resource.kind(), resource.api_version());
    let subresource = match op.subresources.as_slice() {
        [] => kdv_openapi::Subresource::Main,
        [s] if s == "status" => {
            if !resource.has_status_subresource() {
                return Err(format!(
                    "--subresource status: {kind} has no status subresource"
                ));
            }
            if old.is_none() {
                return Err(
                    "--subresource status: a status request is an UPDATE; give the object's current revision with --old or --old-ref"
                        .to_string(),
                );
            }
            kdv_openapi::Subresource::Status
        }
        // A request to the scale subresource sends a Scale (autoscaling/v1), validated as
        // such (its declarative rules are those of `/scale`).
        [s] if s == "scale" => {
            if resource.kind() != "Scale" {
                let what = if resource.has_scale_subresource() {
                    "a request to its scale subresource sends an autoscaling/v1 Scale"
                } else {
                    "it has no scale subresource"
                };
                return Err(format!("--subresource scale: {kind}: {what}"));
            }
            kdv_openapi::Subresource::Main
        }
        other => {
            return Err(format!(
                "--subresource /{}: {kind}: kdv validates the main resource, status and scale",
                other.join("/")
            ));
        }
    };
    let options = kdv_openapi::Options {
        subresource,
        builtin_strategy: !resource.is_crd(),
        relaxed_service_names: ctx.gates.enabled("RelaxedServiceNameValidation") == Some(true),
        ..kdv_openapi::Options::default()
    };
    let mut rule_op;
    let (prepared, old_decoded);
    let declarative = match builtin {
        // The declarative rules of a kind run for the subresources it declares (upstream's
        // generated code has no function for the others, so the server does not call it).
        Some(kind) if supports(kind, op) || body_of(kind).is_some() => {
            rule_op = op.clone();
            // A kind that is only a subresource's body (a Scale) is validated as that
            // request.
            if op.subresources.is_empty()
                && let Some(path) = body_of(kind)
            {
                rule_op.subresources = vec![path.trim_start_matches('/').to_string()];
            }
            rule_op
                .options
                .extend(ctx.options.values(kind.option_names()));
            ctx.options.note(kind.option_names());
            // The server validates the object as its strategy leaves it, decoded and
            // defaulted (as the stored old object is); what Go types read of that differs
            // from the manifest only where a non-zero default applies.
            let strategy = resource.prepare(&doc.value, old, &options);
            prepared = match resource.with_set_defaults(&strategy) {
                std::borrow::Cow::Borrowed(_) => strategy,
                std::borrow::Cow::Owned(v) => std::borrow::Cow::Owned(v),
            };
            old_decoded = old.map(|o| resource.with_set_defaults(o));
            Some(check::Declarative {
                rules: kind.rules(),
                ty: kind.type_id(),
                op: &rule_op,
                gates: ctx.gates,
                object: &prepared,
                old: old_decoded.as_deref(),
            })
        }
        _ => None,
    };
    Ok(check_resource(
        resource,
        declarative,
        &options,
        doc,
        old,
        ctx.unknown_fields,
    ))
}

/// The one subresource a kind is the body of (`/scale` for a Scale), when it is validated
/// for nothing else.
fn body_of(kind: &kdv_k8s_api::BuiltinKind) -> Option<&str> {
    match kind
        .rules()
        .type_rules(kind.type_id())
        .subresources
        .as_slice()
    {
        [one] if one != "/" => Some(one),
        _ => None,
    }
}

/// Whether the declarative rules of a built-in kind cover the request's subresource.
fn supports(kind: &kdv_k8s_api::BuiltinKind, op: &Operation) -> bool {
    let subresources = &kind.rules().type_rules(kind.type_id()).subresources;
    subresources.is_empty() || subresources.iter().any(|s| op.subresource_is(s))
}

fn count(n: usize) -> String {
    format!("{n} document{}", if n == 1 { "" } else { "s" })
}

fn string_field<'a>(value: &'a Value, name: &str) -> Option<&'a str> {
    value.get(name)?.as_str()
}

/// An `x.old.yaml` sibling holds the old revisions of `x`'s documents by position: each must
/// have the same apiVersion and kind.
fn same_kind(new: &Value, old_file: &str, old: &Document<'_>) -> Result<(), String> {
    for field in ["apiVersion", "kind"] {
        let (a, b) = (string_field(new, field), string_field(&old.value, field));
        if a != b {
            return Err(format!(
                "its old revision ({old_file}, document {}) has {field} {}, not {}",
                old.index,
                quoted_or_none(b),
                quoted_or_none(a)
            ));
        }
    }
    Ok(())
}

fn quoted_or_none(value: Option<&str>) -> String {
    value.map_or_else(|| "(none)".to_string(), |v| format!("{v:?}"))
}
