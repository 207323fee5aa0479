//! `kdv validate`: manifests × Go types → field errors.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use kdv_manifest::{Document, Entry};
use kdv_rules::{RuleSet, TypeId};
use kdv_runtime::{Operation, OperationKind};
use serde_json::Value;

use super::check::{self, check_document};
use super::{custom, error_count, load_types, write_diagnostics};
use crate::cli::{OutputFormat, UnknownFields, ValidateArgs, subresource_parts};
use crate::error::CliError;
use crate::input::{self, InputError, Job, ReadLimits, Source, Stream};
use crate::output::{self, DocumentResult, Report};

/// Runs `kdv validate`; results go to `out`, diagnostics, input errors and the text summary
/// to `err`. Returns the exit status (0 valid, 1 invalid, 2 input errors).
pub fn run(args: &ValidateArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8, CliError> {
    let explicit_job = check_usage(args)?;
    let types = load_types(&args.types)?;
    let (compiled, diagnostics) = (types.compiled, types.diagnostics);
    write_diagnostics(err, &diagnostics)?;
    let errors = error_count(&diagnostics);
    if errors > 0 {
        return Err(CliError::TypesInvalid {
            dir: args.types.clone(),
            count: errors,
        });
    }
    let rules = &compiled.rules;
    let selector = TypeSelector::new(rules, args.type_name.as_deref(), &args.types)?;

    let mut report = Report::default();
    let jobs = match explicit_job {
        Some(job) => vec![job],
        None => {
            let (jobs, problems) = input::plan(&args.paths);
            report.input_errors.extend(problems);
            jobs
        }
    };

    let ctx = JobContext {
        rules,
        selector: &selector,
        base: base_operation(args),
        limits: ReadLimits {
            max_document: args
                .max_size
                .unwrap_or(kdv_manifest::DEFAULT_MAX_DOCUMENT_BYTES),
        },
        unknown_fields: args.unknown_fields,
    };
    for part in run_jobs(&jobs, |job| validate_job(&ctx, job)) {
        report.documents.extend(part.documents);
        report.input_errors.extend(part.input_errors);
        report.empty += part.empty;
    }

    write_custom_warnings(rules, &report, err)?;
    match args.output {
        OutputFormat::Text => output::write_text(&report, out, err)?,
        OutputFormat::Json => {
            if let Some(warning) = report.nothing_validated() {
                writeln!(err, "warning: {warning}")?;
            }
            output::write_json(&report, out)?;
        }
    }
    Ok(report.exit_code())
}

/// Warns, once per type documents were validated as, about the `+k8s:customValidation`
/// checks that validation skipped.
fn write_custom_warnings(
    rules: &RuleSet,
    report: &Report,
    err: &mut dyn Write,
) -> Result<(), CliError> {
    let mut seen = std::collections::BTreeSet::new();
    for doc in &report.documents {
        if !seen.insert(doc.type_name.as_str()) {
            continue;
        }
        let Some(ty) = rules.find_type(&doc.type_name) else {
            continue;
        };
        if let Some(warning) = custom::skipped_warning(rules, ty, &doc.type_name) {
            writeln!(err, "{warning}")?;
        }
    }
    Ok(())
}

/// Checks the arguments that clap cannot check alone. With `--old`, returns the single job.
fn check_usage(args: &ValidateArgs) -> Result<Option<Job>, CliError> {
    let stdin_uses = args.paths.iter().filter(|p| *p == "-").count()
        + usize::from(args.old.as_deref() == Some("-"));
    if stdin_uses > 1 {
        return Err(CliError::Usage(
            "standard input (`-`) can be read only once".to_string(),
        ));
    }
    let Some(old) = &args.old else {
        return Ok(None);
    };
    let [path] = args.paths.as_slice() else {
        return Err(CliError::Usage(format!(
            "--old needs exactly one PATH to compare with, got {}",
            args.paths.len()
        )));
    };
    let source = |arg: &str, what: &str| -> Result<Source, CliError> {
        if arg == "-" {
            return Ok(Source::Stdin);
        }
        if Path::new(arg).is_dir() {
            return Err(CliError::Usage(format!(
                "{what} {arg} is a directory; --old compares two files \
                 (in a directory, name old revisions x.old.yaml next to x.yaml)"
            )));
        }
        Ok(Source::File(arg.into()))
    };
    Ok(Some(Job {
        new: source(path, "PATH")?,
        old: Some(source(old, "--old")?),
    }))
}

fn base_operation(args: &ValidateArgs) -> Operation {
    let mut op = Operation::create();
    for (name, enabled) in &args.options {
        op.options.insert(name.clone(), *enabled);
    }
    if let Some(path) = &args.subresource {
        op.subresources = subresource_parts(path);
    }
    op
}

/// Runs `work` on every job, on as many threads as there are cores, and returns the
/// results in job order (so output does not depend on scheduling). A panic in one job (a
/// bug) becomes an input error for that job's file instead of ending the run.
fn run_jobs<W>(jobs: &[Job], work: W) -> Vec<Report>
where
    W: Fn(&Job) -> Report + Sync,
{
    let guarded = |job: &Job| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(job))).unwrap_or_else(|_| {
            let mut report = Report::default();
            report.input_errors.push(InputError::file(
                job.new.display_name(),
                "internal error: validation panicked (please report this bug)",
            ));
            report
        })
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(jobs.len());
    if threads <= 1 {
        return jobs.iter().map(guarded).collect();
    }
    let next = AtomicUsize::new(0);
    let worker = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(job) = jobs.get(i) else { break };
            done.push((i, guarded(job)));
        }
        done
    };
    let mut results: Vec<(usize, Report)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .stack_size(crate::WORKER_STACK_BYTES)
                    .spawn_scoped(scope, worker)
                    .ok()
            })
            .collect();
        // If no thread could start, this thread does all the work.
        let mut all = if handles.is_empty() {
            worker()
        } else {
            Vec::new()
        };
        for handle in handles {
            // Jobs catch their own panics, so a worker cannot die with work undone.
            all.extend(handle.join().unwrap_or_default());
        }
        all
    });
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, report)| report).collect()
}

/// What every job of a run shares.
struct JobContext<'r> {
    rules: &'r RuleSet,
    selector: &'r TypeSelector<'r>,
    base: Operation,
    limits: ReadLimits,
    unknown_fields: UnknownFields,
}

/// Validates the documents of one job; its report holds the results and input errors.
fn validate_job(ctx: &JobContext<'_>, job: &Job) -> Report {
    let mut report = Report::default();
    validate_job_into(ctx, job, &mut report);
    report
}

/// A CREATE job validates each document as it is parsed, so one parsed document is held at
/// a time; an unreadable document is an input error and the others are still validated.
/// An UPDATE pairs the documents of both revisions by position, which needs all of them.
fn validate_job_into(ctx: &JobContext<'_>, job: &Job, report: &mut Report) {
    let new = match Stream::read(&job.new, ctx.limits) {
        Ok(stream) => stream,
        Err(e) => return report.input_errors.push(e),
    };
    let Some(old_source) = &job.old else {
        for entry in new.documents() {
            match entry {
                Ok(Entry::Document(doc)) => validate_document(ctx, &new.name, &doc, None, report),
                Ok(Entry::Empty { .. }) => report.empty += 1,
                Err(e) => report.input_errors.push(e),
            }
        }
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
        validate_document(ctx, &new.name, doc, Some((&old.name, old_doc)), report);
    }
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

/// Validates one document of `file` (against its old revision for an UPDATE).
fn validate_document(
    ctx: &JobContext<'_>,
    file: &str,
    doc: &Document<'_>,
    old_doc: Option<(&String, &Document<'_>)>,
    report: &mut Report,
) {
    let ty = match ctx.selector.select(&doc.value) {
        Ok(ty) => ty,
        Err(message) => {
            let at = check::position_of(doc, "kind");
            report
                .input_errors
                .push(InputError::document(file, doc.index, at, message));
            return;
        }
    };
    if let Some((old_file, old_doc)) = old_doc
        && let Err(message) = same_kind(&doc.value, old_file, old_doc)
    {
        report
            .input_errors
            .push(InputError::document(file, doc.index, doc.position, message));
        return;
    }
    let mut op = ctx.base.clone();
    if old_doc.is_some() {
        op.kind = OperationKind::Update;
    }
    let old_value = old_doc.map(|(_, d)| &d.value);
    let found = check_document(ctx.rules, ty, &op, doc, old_value, ctx.unknown_fields);
    report.documents.push(DocumentResult {
        file: file.to_string(),
        document: doc.index,
        line: doc.position.line,
        column: doc.position.column,
        kind: string_field(&doc.value, "kind").map(str::to_string),
        type_name: ctx.selector.qualified_name(ty),
        operation: op.kind,
        old_file: old_doc.map(|(name, _)| name.clone()),
        errors: found.errors,
        positions: found.positions,
        unknown_fields: found.unknown_fields,
        warnings: found.warnings,
    });
}

fn count(n: usize) -> String {
    format!("{n} document{}", if n == 1 { "" } else { "s" })
}

fn string_field<'a>(value: &'a Value, name: &str) -> Option<&'a str> {
    value.get(name)?.as_str()
}

/// An UPDATE compares two revisions of one object: the old document must have the same
/// apiVersion and kind.
fn same_kind(new: &Value, old_file: &str, old: &Document<'_>) -> Result<(), String> {
    for field in ["apiVersion", "kind"] {
        let (a, b) = (string_field(new, field), string_field(&old.value, field));
        if a != b {
            return Err(format!(
                "its old revision ({old_file}#{}) has {field} {}, not {}",
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

/// Chooses the type each document is validated as.
struct TypeSelector<'r> {
    rules: &'r RuleSet,
    fixed: Option<TypeId>,
    /// `group/version Kind` of every root, for messages.
    known: Vec<String>,
}

impl<'r> TypeSelector<'r> {
    fn new(rules: &'r RuleSet, name: Option<&str>, dir: &Path) -> Result<Self, CliError> {
        let known: Vec<String> = rules
            .roots()
            .map(|r| match &r.group {
                Some(group) if !group.is_empty() => format!("{group}/{} {}", r.version, r.kind),
                _ => format!("{} {}", r.version, r.kind),
            })
            .collect();
        let fixed = match name {
            None => None,
            Some(name) => Some(rules.find_type(name).ok_or_else(|| CliError::UnknownType {
                name: name.to_string(),
                dir: dir.to_path_buf(),
                known: known.clone(),
            })?),
        };
        Ok(TypeSelector {
            rules,
            fixed,
            known,
        })
    }

    /// The type for a document: the `--type`, else the root for its apiVersion and kind.
    fn select(&self, value: &Value) -> Result<TypeId, String> {
        if let Some(ty) = self.fixed {
            return Ok(ty);
        }
        let Some(object) = value.as_object() else {
            return Err(format!(
                "document is {}, not an object with apiVersion and kind; pass --type to name its type",
                json_kind(value)
            ));
        };
        let kind = match object.get("kind") {
            Some(Value::String(kind)) if !kind.is_empty() => kind,
            Some(Value::String(_)) | None => {
                return Err(
                    "document has no kind; set apiVersion and kind, or pass --type".to_string(),
                );
            }
            Some(other) => return Err(format!("kind must be a string, not {}", json_kind(other))),
        };
        let api_version = match object.get("apiVersion") {
            Some(Value::String(v)) if !v.is_empty() => v,
            Some(Value::String(_)) | None => {
                return Err(format!(
                    "document of kind {kind:?} has no apiVersion; set it, or pass --type"
                ));
            }
            Some(other) => {
                return Err(format!(
                    "apiVersion must be a string, not {}",
                    json_kind(other)
                ));
            }
        };
        self.rules
            .root_for_kind(api_version, kind)
            .ok_or_else(|| self.unknown_kind(api_version, kind))
    }

    fn unknown_kind(&self, api_version: &str, kind: &str) -> String {
        let known = if self.known.is_empty() {
            "the types declare no root kinds (see +k8s:validation-gen in doc.go)".to_string()
        } else {
            format!("known: {}", self.known.join(", "))
        };
        format!("unknown kind {kind:?} in apiVersion {api_version:?} ({known})")
    }

    /// `pkg/path.Name` for roots, else the Go name.
    fn qualified_name(&self, ty: TypeId) -> String {
        self.rules.roots().find(|r| r.id == ty).map_or_else(
            || self.rules.type_name(ty).to_string(),
            |r| format!("{}.{}", r.package, r.name),
        )
    }
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
