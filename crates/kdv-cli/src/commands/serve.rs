//! `kdv serve`: the validating admission webhook (`kdv_serve`) with the rule sources of
//! `kdv validate`. This module is the glue: it loads the sources as `validate` does
//! (`sources`, `select`, `release`, `load_types`) and answers the server's [`Judge`] calls
//! with `validate`'s checks (`check::check_document`, `validate::check_resource_document`),
//! so both commands judge an object with one copy of each mechanism.
//!
//! Decisions (ARCHITECTURE.md):
//! - Unknown fields are not looked for: the API server decodes (built-in kinds) or prunes
//!   (CRDs) an object before admission, so a webhook never sees them.
//! - Subresources other than `status` and `scale` (`pods/binding`, `pods/ephemeralcontainers`,
//!   ...) have no rules in kdv: such a request is of an unknown kind (allowed, unless
//!   `--fail-unknown`). `status` is validated as `kdv validate --subresource status` does
//!   (the status strategy: only `status` changes are validated, against the old object).
//! - A kind no source has is allowed without a warning (a webhook's rules commonly match
//!   more kinds than it has rules for); `--fail-unknown` denies it.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use kdv_manifest::{Entry, Syntax};
use kdv_openapi::LookupError;
use kdv_rollout::FeatureGates;
use kdv_runtime::{ErrorList, Operation, OperationKind};
use kdv_serve::admission::Operation as AdmissionOperation;
use kdv_serve::{
    Config, FailureMode, Judge, Loader, Mode, Rules, Server, Subject, TlsFiles, Verdict,
};
use serde_json::Value;

use super::check::check_document;
use super::options::Options;
use super::release::Release;
use super::select::TypeSelector;
use super::sources::{self, Schema, SchemaSources, Selector, SourceArgs};
use super::validate::{ResourceChecks, check_resource_document};
use super::{MAX_CRD_DOCUMENT, Types, error_count, load_types};
use crate::cli::{FailureModeArg, ServeArgs, ServeMode, UnknownFields};
use crate::error::CliError;
use crate::input::ReadLimits;

/// One loaded rule set: what `kdv validate` would load for the same flags.
pub struct RuleJudge {
    release: Release,
    gates: FeatureGates,
    /// `--option` values.
    given: Vec<(String, bool)>,
    sources: Option<SchemaSources>,
    /// The Go or Rust types of `--types`, with the path they were read from.
    types: Option<(Types, PathBuf)>,
}

/// Loads the live rules of `args`.
pub fn load_live(args: &ServeArgs) -> Result<RuleJudge, CliError> {
    let (release, gates, warnings) = sources::release_and_gates(&args.rules)?;
    for w in warnings {
        tracing::warn!("{w}");
    }
    let types = match &args.rules.types {
        Some(dir) => {
            let types = load_types(dir, args.rules.roots.roots(), false)?;
            let errors = error_count(&types.diagnostics);
            if errors > 0 {
                return Err(CliError::TypesInvalid {
                    dir: dir.clone(),
                    count: errors,
                });
            }
            Some((types, dir.clone()))
        }
        None => None,
    };
    let sources = sources::load(
        SourceArgs::of(&args.rules, &release),
        &release,
        crd_limits(),
    )?;
    Ok(RuleJudge {
        release,
        gates,
        given: args.rules.options.clone(),
        sources,
        types,
    })
}

/// Loads the `--candidate-crd` rules (only those CRDs: other kinds are unknown to them).
pub fn load_candidate(args: &ServeArgs) -> Result<Option<RuleJudge>, CliError> {
    if args.candidate_crds.is_empty() {
        return Ok(None);
    }
    let (release, gates, _) = sources::release_and_gates(&args.rules)?;
    let source_args = SourceArgs {
        crds: &args.candidate_crds,
        schema: None,
        builtins: false,
    };
    let sources = sources::load(source_args, &release, crd_limits())
        .map_err(|e| CliError::Schema(format!("--candidate-crd: {e}")))?;
    Ok(Some(RuleJudge {
        release,
        gates,
        given: args.rules.options.clone(),
        sources,
        types: None,
    }))
}

/// CRDs of large operators approach a few MiB.
fn crd_limits() -> ReadLimits {
    ReadLimits {
        max_document: MAX_CRD_DOCUMENT,
    }
}

impl RuleJudge {
    /// Whether a source has the object's kind (else the verdict is [`Verdict::Unknown`]).
    fn knows(&self, go: Option<&TypeSelector<'_>>, value: &Value) -> bool {
        if go.is_some_and(|g| g.declares_kind(value)) {
            return true;
        }
        let Some(sources) = &self.sources else {
            return false;
        };
        let (Some(api_version), Some(kind)) = (
            value.get("apiVersion").and_then(Value::as_str),
            value.get("kind").and_then(Value::as_str),
        ) else {
            return false;
        };
        match sources.set.resource(api_version, kind) {
            Ok(_) => true,
            // An unreadable schema is reported by the selection.
            Err(LookupError::Load(_)) => true,
            Err(_) => false,
        }
    }
}

impl Judge for RuleJudge {
    fn judge(&self, subject: &Subject<'_>) -> Verdict {
        let subresource: Vec<String> = match subject.subresource {
            None | Some("") => Vec::new(),
            Some(s @ ("status" | "scale")) => vec![s.to_string()],
            Some(_) => return Verdict::Unknown,
        };
        let limits = kdv_manifest::Limits {
            max_document_bytes: usize::MAX,
            max_documents: 1,
        };
        let mut doc =
            match kdv_manifest::documents(subject.object.as_bytes(), Syntax::Json, limits).next() {
                Some(Ok(Entry::Document(doc))) => doc,
                Some(Err(e)) => return Verdict::Failed(format!("request.object: {}", e.message)),
                _ => return Verdict::Failed("request.object is empty".to_string()),
            };
        let old = match subject.old_object.map(serde_json::from_str::<Value>) {
            None => None,
            Some(Ok(v)) => Some(v),
            Some(Err(e)) => return Verdict::Failed(format!("request.oldObject: {e}")),
        };
        // A package none of whose roots has the subresource takes no part (as `validate`
        // refuses such a --subresource).
        let go = self.types.as_ref().and_then(|(t, dir)| {
            TypeSelector::new(
                &t.compiled.rules,
                None,
                dir,
                t.home.as_deref(),
                subresource.clone(),
            )
            .ok()
        });
        if !self.knows(go.as_ref(), &doc.value) {
            return Verdict::Unknown;
        }
        let selector = Selector {
            go: go.as_ref(),
            sources: self.sources.as_ref(),
        };
        let schema = match selector.select(&doc.value) {
            Ok(schema) => schema,
            Err(message) => return Verdict::Failed(message),
        };
        let options = Options::new(&self.given, &self.gates);
        let mut op = Operation::create();
        if subject.operation == AdmissionOperation::Update {
            op.kind = OperationKind::Update;
        }
        for (name, enabled) in &self.given {
            op.options.insert(name.clone(), *enabled);
        }
        op.subresources = subresource;
        let found = match (schema, &self.types) {
            (Schema::Go(ty), Some((types, _))) => {
                let rules = &types.compiled.rules;
                for (name, value) in options.values(&rules.option_names()) {
                    op.options.entry(name).or_insert(value);
                }
                check_document(
                    rules,
                    ty,
                    &op,
                    &doc,
                    old.as_ref(),
                    UnknownFields::Ignore,
                    &self.gates,
                    self.release.minor,
                )
            }
            (Schema::Go(_), None) => return Verdict::Unknown,
            (Schema::Resource(resource, builtin), _) => {
                // The strategy's reset of `status` done once, in place: a webhook looks for no
                // unknown fields, so nothing reads the body as sent, and the checks then find
                // the object prepared instead of copying it (a deep copy per request).
                let strategy = kdv_openapi::Options {
                    subresource: if op.subresources.iter().any(|s| s == "status") {
                        kdv_openapi::Subresource::Status
                    } else {
                        kdv_openapi::Subresource::Main
                    },
                    builtin_strategy: !resource.is_crd(),
                    ..kdv_openapi::Options::default()
                };
                resource.prepare_in_place(&mut doc.value, old.as_ref(), &strategy);
                let checks = ResourceChecks {
                    gates: &self.gates,
                    options: &options,
                    unknown_fields: UnknownFields::Ignore,
                };
                match check_resource_document(
                    &checks,
                    &resource,
                    builtin.as_ref(),
                    &op,
                    &doc,
                    old.as_ref(),
                ) {
                    Ok(found) => found,
                    Err(message) => return Verdict::Failed(message),
                }
            }
        };
        let errors: ErrorList = found.errors.into_iter().map(|r| r.error).collect();
        let warnings = found
            .shadowed
            .iter()
            .map(|r| format!("shadowed rule (not enforced): {}", r.error))
            .collect();
        Verdict::Checked { errors, warnings }
    }
}

/// Loads the live and candidate rules of `args`.
pub fn load_rules(args: &ServeArgs) -> Result<Rules, CliError> {
    let live = load_live(args)?;
    let candidate = load_candidate(args)?;
    Ok(Rules {
        live: Arc::new(live),
        candidate: candidate.map(|c| Arc::new(c) as Arc<dyn Judge>),
    })
}

/// The files whose change reloads the rules.
fn watched(args: &ServeArgs) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = args.rules.crds.clone();
    paths.extend(args.candidate_crds.iter().cloned());
    paths.extend(args.rules.schema.iter().cloned());
    paths.extend(args.rules.types.iter().cloned());
    paths.retain(|p| p.as_os_str() != "-");
    paths
}

/// Runs `kdv serve` until SIGTERM or SIGINT; 0 after a graceful shutdown.
pub fn run(args: &ServeArgs) -> Result<u8, CliError> {
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => Some(TlsFiles {
            cert: cert.clone(),
            key: key.clone(),
        }),
        _ if args.insecure_http => None,
        _ => {
            return Err(CliError::Usage(
                "--tls-cert and --tls-key are required (the API server calls webhooks over HTTPS); --insecure-http serves plain HTTP, for tests and behind a mesh that terminates TLS".to_string(),
            ));
        }
    };
    if args
        .rules
        .crds
        .iter()
        .chain(&args.candidate_crds)
        .any(|p| p.as_os_str() == "-")
    {
        return Err(CliError::Usage(
            "kdv serve reads rules from files (they are reloaded): `-` is not accepted".to_string(),
        ));
    }
    // Rules that cannot load stop the start (exit status 2); later reloads keep the old set.
    let rules = load_rules(args)?;
    let _ = tracing_subscriber::fmt()
        .json()
        .flatten_event(true)
        .with_current_span(false)
        .with_writer(std::io::stderr)
        .try_init();
    let mut config = Config::new(args.listen);
    config.tls = tls;
    config.mode = match args.mode {
        ServeMode::Enforce => Mode::Enforce,
        ServeMode::Warn => Mode::Warn,
        ServeMode::Audit => Mode::Audit,
    };
    config.failure_mode = match args.failure_mode {
        FailureModeArg::Allow => FailureMode::Allow,
        FailureModeArg::Deny => FailureMode::Deny,
    };
    config.timeout = args.timeout;
    if let Some(max) = args.max_body {
        config.limits.max_body = max;
    }
    config.fail_unknown = args.fail_unknown;
    config.playground = args.playground;
    config.metrics_listen = args.metrics_listen;
    config.watch = watched(args);
    config.poll_interval = args.poll_interval;
    let loader: Loader = {
        let args = args.clone();
        Arc::new(move || load_rules(&args).map_err(|e| e.to_string()))
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // Validation recurses once per nesting level (bounded), as on `validate`'s worker.
        .thread_stack_size(crate::WORKER_STACK_BYTES)
        // Verdicts are CPU-bound and bounded (deadline, CEL cost limits): more threads than
        // a few per core add no throughput, and each one's allocator heap and stack pages
        // add resident memory (64 threads: 100 MB peak under 64 connections; 8: 55 MB at
        // the same throughput, measured with oha on 2 cores). A stalled verdict holds its
        // thread until it returns; requests behind it meet the deadline and the failure mode.
        .max_blocking_threads(
            std::thread::available_parallelism().map_or(8, |n| (n.get() * 4).max(8)),
        )
        .build()?;
    let served: Result<(), CliError> = runtime.block_on(async move {
        let server = Server::bind(config, loader)
            .await
            .map_err(|e| CliError::Usage(e.to_string()))?;
        server.handle().install(rules);
        // The handlers are installed before the address is logged: a supervisor (or a
        // test) that signals once it sees the address must not kill the process instead.
        let shutdown = shutdown_signal()?;
        #[cfg(unix)]
        let mut hup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())?;
        let addr = server.local_addr()?;
        tracing::info!(addr = %addr, tls = args.tls_cert.is_some(), "listening");
        if let Some(Ok(ops)) = server.metrics_addr() {
            tracing::info!(addr = %ops, "metrics listening");
        }
        if args.playground {
            let scheme = if args.tls_cert.is_some() {
                "https"
            } else {
                "http"
            };
            tracing::info!(url = %format!("{scheme}://{addr}/playground"), "playground");
        }
        #[cfg(unix)]
        {
            let handle = server.handle();
            tokio::spawn(async move {
                while hup.recv().await.is_some() {
                    tracing::info!("SIGHUP: reloading the rules");
                    let handle = handle.clone();
                    let _ = tokio::task::spawn_blocking(move || handle.reload()).await;
                }
            });
        }
        server
            .run(shutdown)
            .await
            .map_err(|e| CliError::Usage(e.to_string()))
    });
    runtime.shutdown_timeout(Duration::from_secs(1));
    served?;
    Ok(0)
}

/// A future that completes on SIGTERM or SIGINT; the handlers are installed now.
fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate())?;
        let mut int = signal(SignalKind::interrupt())?;
        Ok(async move {
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
            tracing::info!("shutdown signal received");
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
            tracing::info!("shutdown signal received");
        })
    }
}
