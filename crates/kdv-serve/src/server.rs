//! The HTTP(S) server: routes, deadlines, failure mode, rule and certificate reloads,
//! graceful shutdown.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use arc_swap::{ArcSwap, ArcSwapOption};
use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{CONTENT_LENGTH, CONTENT_TYPE, HeaderValue};
use hyper::service::service_fn;
use hyper::{Method, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use kdv_runtime::ErrorListExt;
use tokio::net::TcpListener;

use crate::admission::{self, Limits, Operation, Response, Review, Status, Warnings};
use crate::judge::{Judge, Subject, Verdict};
use crate::metrics::{KindLabels, Metrics, RequestLabels, RuleLabels};

/// What a denial does: enforce denies, warn allows with warnings, audit allows with audit
/// annotations and counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Deny invalid objects.
    Enforce,
    /// Allow, with each error as a warning.
    Warn,
    /// Allow, with the errors in an audit annotation and metrics.
    Audit,
}

impl Mode {
    /// The metric label.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Enforce => "enforce",
            Mode::Warn => "warn",
            Mode::Audit => "audit",
        }
    }
}

/// How a request kdv could not judge (timeout, panic, rules not loaded) is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureMode {
    /// Allow it, with a warning.
    Allow,
    /// Deny it (code 500, reason `InternalError`).
    Deny,
}

/// PEM files of the server's certificate chain and key, re-read when they change.
#[derive(Debug, Clone)]
pub struct TlsFiles {
    /// The certificate chain.
    pub cert: PathBuf,
    /// The private key.
    pub key: PathBuf,
}

/// A server's configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where to listen.
    pub listen: SocketAddr,
    /// TLS; `None` serves plain HTTP.
    pub tls: Option<TlsFiles>,
    /// Enforce, warn or audit.
    pub mode: Mode,
    /// How requests kdv could not judge are answered.
    pub failure_mode: FailureMode,
    /// The per-request deadline, from the request's arrival.
    pub timeout: Duration,
    /// Body and object limits.
    pub limits: Limits,
    /// Deny objects of kinds no rule set knows (default: allow them).
    pub fail_unknown: bool,
    /// Rule files and directories whose change reloads the rules.
    pub watch: Vec<PathBuf>,
    /// How often the watched files and the certificate are checked for changes.
    pub poll_interval: Duration,
    /// Serve the playground page (`/playground`) and its checks (`/playground/check`).
    pub playground: bool,
    /// A second listener, plain HTTP, serving only `/metrics`, `/healthz` and `/readyz`
    /// (for a scraper or probes that do not speak the webhook's TLS).
    pub metrics_listen: Option<SocketAddr>,
}

impl Config {
    /// The defaults, listening on `listen` without TLS.
    pub fn new(listen: SocketAddr) -> Config {
        Config {
            listen,
            tls: None,
            mode: Mode::Enforce,
            failure_mode: FailureMode::Allow,
            timeout: Duration::from_secs(9),
            limits: Limits::default(),
            fail_unknown: false,
            watch: Vec::new(),
            poll_interval: Duration::from_secs(3),
            playground: false,
            metrics_listen: None,
        }
    }
}

/// The rules a server judges with: the live set, and the candidate set of
/// `--candidate-crd` (reported on, never deciding).
#[derive(Clone)]
pub struct Rules {
    /// The rules that decide.
    pub live: Arc<dyn Judge>,
    /// Rules evaluated beside them, whose rejections are reported only.
    pub candidate: Option<Arc<dyn Judge>>,
}

/// Loads the rules (at start, on SIGHUP, when a watched file changes).
pub type Loader = Arc<dyn Fn() -> Result<Rules, String> + Send + Sync>;

/// Why the server could not start or run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address cannot be listened on.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The certificate or key cannot be used.
    #[error("{0}")]
    Tls(String),
}

struct State {
    config: Config,
    rules: ArcSwapOption<Rules>,
    loader: Loader,
    metrics: Metrics,
    /// One reload at a time.
    reloading: Mutex<()>,
}

struct Tls {
    files: TlsFiles,
    config: ArcSwap<rustls::ServerConfig>,
    stamp: Mutex<Option<Vec<Stamp>>>,
}

/// A bound server, not yet serving.
pub struct Server {
    listener: TcpListener,
    /// `--metrics-listen`'s listener.
    ops: Option<TcpListener>,
    state: Arc<State>,
    tls: Option<Arc<Tls>>,
}

/// Controls a running server from outside: reloads, readiness.
#[derive(Clone)]
pub struct Handle {
    state: Arc<State>,
}

impl Handle {
    /// Loads the rules again and swaps them in (requests in flight finish on the old set).
    /// On failure the old set stays.
    pub fn reload(&self) -> Result<(), String> {
        reload(&self.state)
    }

    /// Installs rules loaded elsewhere (as the first set, before [`Server::run`]).
    pub fn install(&self, rules: Rules) {
        self.state.rules.store(Some(Arc::new(rules)));
    }

    /// Whether rules are loaded.
    pub fn is_ready(&self) -> bool {
        self.state.rules.load().is_some()
    }

    /// The metrics text, as `/metrics` serves it.
    pub fn metrics(&self) -> String {
        self.state.metrics.encode()
    }
}

fn reload(state: &State) -> Result<(), String> {
    let _one = state.reloading.lock().unwrap_or_else(|e| e.into_inner());
    let started = Instant::now();
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (state.loader)())) {
        Ok(Ok(rules)) => {
            state.rules.store(Some(Arc::new(rules)));
            state.metrics.reloaded("rules", true);
            tracing::info!(
                elapsed_ms = started.elapsed().as_millis() as u64,
                "rules loaded"
            );
            Ok(())
        }
        Ok(Err(e)) => {
            state.metrics.reloaded("rules", false);
            tracing::error!(error = %e, "cannot load the rules; keeping the previous set");
            Err(e)
        }
        Err(_) => {
            state.metrics.reloaded("rules", false);
            tracing::error!("loading the rules panicked; keeping the previous set");
            Err("loading the rules panicked".to_string())
        }
    }
}

impl Server {
    /// Binds the listener and reads the certificate; the rules are loaded when
    /// [`Server::run`] starts (`/readyz` answers 503 until then).
    pub async fn bind(config: Config, loader: Loader) -> Result<Server, ServeError> {
        let tls = match &config.tls {
            Some(files) => {
                let (server_config, stamp) = load_tls(files)?;
                Some(Arc::new(Tls {
                    files: files.clone(),
                    config: ArcSwap::from(server_config),
                    stamp: Mutex::new(Some(stamp)),
                }))
            }
            None => None,
        };
        let listener =
            TcpListener::bind(config.listen)
                .await
                .map_err(|source| ServeError::Listen {
                    addr: config.listen,
                    source,
                })?;
        let ops = match config.metrics_listen {
            Some(addr) => Some(
                TcpListener::bind(addr)
                    .await
                    .map_err(|source| ServeError::Listen { addr, source })?,
            ),
            None => None,
        };
        let state = Arc::new(State {
            config,
            rules: ArcSwapOption::empty(),
            loader,
            metrics: Metrics::new(),
            reloading: Mutex::new(()),
        });
        Ok(Server {
            listener,
            ops,
            state,
            tls,
        })
    }

    /// The address listened on (with its port when port 0 was asked).
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The address of the plain-HTTP metrics listener, when there is one.
    pub fn metrics_addr(&self) -> Option<std::io::Result<SocketAddr>> {
        self.ops.as_ref().map(TcpListener::local_addr)
    }

    /// A handle for reloads and readiness.
    pub fn handle(&self) -> Handle {
        Handle {
            state: self.state.clone(),
        }
    }

    /// Loads the rules and serves until `shutdown` completes; then stops accepting, lets
    /// the requests in flight finish (up to the request timeout and 5 s more) and returns.
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> Result<(), ServeError> {
        let Server {
            listener,
            ops,
            state,
            tls,
        } = self;
        let ops = ops.map(|l| tokio::spawn(serve_ops(l, state.clone())));
        if state.rules.load().is_none() {
            let state = state.clone();
            tokio::task::spawn_blocking(move || {
                let _ = reload(&state);
            });
        }
        // Stamped before the first connection is accepted: a change made after a request was
        // answered is always seen.
        let rules_stamp = stamps(&state.config.watch);
        let poller = tokio::spawn(poll(state.clone(), tls.clone(), rules_stamp));
        let graceful = GracefulShutdown::new();
        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(Duration::from_secs(10));
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            let (stream, peer) = tokio::select! {
                () = &mut shutdown => break,
                accepted = listener.accept() => match accepted {
                    Ok(pair) => pair,
                    Err(e) => {
                        // Out of file descriptors and the like: back off, keep serving.
                        tracing::warn!(error = %e, "accept failed");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
            };
            let _ = stream.set_nodelay(true);
            let watcher = graceful.watcher();
            let builder = builder.clone();
            let state = state.clone();
            let acceptor = tls
                .as_ref()
                .map(|t| tokio_rustls::TlsAcceptor::from(t.config.load_full()));
            tokio::spawn(async move {
                let service = service_fn(move |req| {
                    let state = state.clone();
                    async move { Ok::<_, Infallible>(route(state, req).await) }
                });
                match acceptor {
                    None => {
                        let conn = builder.serve_connection(TokioIo::new(stream), service);
                        let _ = watcher.watch(conn).await;
                    }
                    Some(acceptor) => {
                        let handshake =
                            tokio::time::timeout(Duration::from_secs(10), acceptor.accept(stream))
                                .await;
                        let stream = match handshake {
                            Ok(Ok(s)) => s,
                            Ok(Err(e)) => {
                                tracing::debug!(%peer, error = %e, "TLS handshake failed");
                                return;
                            }
                            Err(_) => {
                                tracing::debug!(%peer, "TLS handshake timed out");
                                return;
                            }
                        };
                        let conn = builder.serve_connection(TokioIo::new(stream), service);
                        let _ = watcher.watch(conn).await;
                    }
                }
            });
        }
        drop(listener);
        if let Some(ops) = ops {
            ops.abort();
        }
        poller.abort();
        tracing::info!("shutting down: draining requests in flight");
        let drain = state.config.timeout + Duration::from_secs(5);
        if tokio::time::timeout(drain, graceful.shutdown())
            .await
            .is_err()
        {
            tracing::warn!("connections still open after the drain period; closing them");
        }
        Ok(())
    }
}

/// Serves `/metrics`, `/healthz` and `/readyz` on the plain-HTTP metrics listener until
/// aborted.
async fn serve_ops(listener: TcpListener, state: Arc<State>) {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(10));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                tracing::warn!(error = %e, "accept failed (metrics listener)");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let builder = builder.clone();
        let state = state.clone();
        tokio::spawn(async move {
            let service = service_fn(move |req: hyper::Request<Incoming>| {
                let state = state.clone();
                async move {
                    let path = req.uri().path();
                    let response = match (req.method(), path) {
                        (&Method::GET, "/metrics" | "/healthz" | "/readyz") => {
                            route(state, req).await
                        }
                        _ => json_error(StatusCode::NOT_FOUND, &format!("no route {path}")),
                    };
                    Ok::<_, Infallible>(response)
                }
            });
            let _ = builder
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// Checks the watched rule files and the certificate every poll interval.
async fn poll(state: Arc<State>, tls: Option<Arc<Tls>>, mut rules_stamp: Vec<Stamp>) {
    let mut tick = tokio::time::interval(state.config.poll_interval);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if let Some(tls) = &tls {
            let now = stamps(&[tls.files.cert.clone(), tls.files.key.clone()]);
            let changed = tls
                .stamp
                .lock()
                .map(|s| s.as_ref() != Some(&now))
                .unwrap_or(false);
            if changed {
                match load_tls(&tls.files) {
                    Ok((config, stamp)) => {
                        tls.config.store(config);
                        if let Ok(mut s) = tls.stamp.lock() {
                            *s = Some(stamp);
                        }
                        state.metrics.reloaded("certificate", true);
                        tracing::info!("TLS certificate reloaded");
                    }
                    Err(e) => {
                        // A half-written pair: keep the old one and try again next tick.
                        state.metrics.reloaded("certificate", false);
                        tracing::warn!(error = %e, "cannot reload the TLS certificate");
                    }
                }
            }
        }
        if !state.config.watch.is_empty() {
            let now = stamps(&state.config.watch);
            if now != rules_stamp {
                rules_stamp = now;
                tracing::info!("rule files changed; reloading");
                let state = state.clone();
                let _ = tokio::task::spawn_blocking(move || reload(&state)).await;
            }
        }
    }
}

/// A file's identity for change detection.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp {
    path: PathBuf,
    modified: Option<SystemTime>,
    len: u64,
}

/// Most files a watched directory is searched for.
const MAX_WATCHED_FILES: usize = 10_000;

/// The stamps of `paths` and of the files under those that are directories.
fn stamps(paths: &[PathBuf]) -> Vec<Stamp> {
    let mut out = Vec::new();
    for path in paths {
        collect_stamps(path, 0, &mut out);
    }
    out
}

fn collect_stamps(path: &Path, depth: usize, out: &mut Vec<Stamp>) {
    if out.len() >= MAX_WATCHED_FILES {
        return;
    }
    let meta = std::fs::metadata(path).ok();
    out.push(Stamp {
        path: path.to_path_buf(),
        modified: meta.as_ref().and_then(|m| m.modified().ok()),
        len: meta.as_ref().map_or(0, |m| m.len()),
    });
    if depth < 16 && meta.is_some_and(|m| m.is_dir()) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for entry in entries {
            collect_stamps(&entry, depth + 1, out);
        }
    }
}

/// Reads the certificate chain and key into a rustls configuration (HTTP/2 and HTTP/1.1).
fn load_tls(files: &TlsFiles) -> Result<(Arc<rustls::ServerConfig>, Vec<Stamp>), ServeError> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    // Stamped before reading: a change during the read is seen on the next poll.
    let stamp = stamps(&[files.cert.clone(), files.key.clone()]);
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(&files.cert)
        .and_then(|it| it.collect::<Result<Vec<_>, _>>())
        .map_err(|e| ServeError::Tls(format!("--tls-cert {}: {e}", files.cert.display())))?;
    if certs.is_empty() {
        return Err(ServeError::Tls(format!(
            "--tls-cert {}: no certificate",
            files.cert.display()
        )));
    }
    let key = PrivateKeyDer::from_pem_file(&files.key)
        .map_err(|e| ServeError::Tls(format!("--tls-key {}: {e}", files.key.display())))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| ServeError::Tls(e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| ServeError::Tls(format!("--tls-cert/--tls-key: {e}")))?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok((Arc::new(config), stamp))
}

type HttpResponse = hyper::Response<Full<Bytes>>;

fn respond(status: StatusCode, content_type: &'static str, body: impl Into<Bytes>) -> HttpResponse {
    let mut response = hyper::Response::new(Full::new(body.into()));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// A JSON error body: `{"error": "..."}`.
fn json_error(status: StatusCode, message: &str) -> HttpResponse {
    let body = serde_json::json!({ "error": message }).to_string();
    respond(status, "application/json", body)
}

async fn route(state: Arc<State>, req: hyper::Request<Incoming>) -> HttpResponse {
    let path = req.uri().path();
    match (req.method(), path) {
        (&Method::POST, "/validate") => validate(state, req).await,
        (&Method::GET, "/playground") if state.config.playground => {
            let mut page = respond(
                StatusCode::OK,
                "text/html; charset=utf-8",
                crate::playground::PAGE,
            );
            // The page is one file: nothing from elsewhere may load or run.
            page.headers_mut().insert(
                hyper::header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(
                    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'",
                ),
            );
            page
        }
        (&Method::POST, "/playground/check") if state.config.playground => {
            playground_check(state, req).await
        }
        (&Method::GET, "/healthz") => respond(StatusCode::OK, "text/plain", "ok"),
        (&Method::GET, "/readyz") => {
            if state.rules.load().is_some() {
                respond(StatusCode::OK, "text/plain", "ok")
            } else {
                respond(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "text/plain",
                    "rules not loaded",
                )
            }
        }
        (&Method::GET, "/metrics") => respond(
            StatusCode::OK,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
            state.metrics.encode(),
        ),
        (_, "/playground" | "/playground/check") if state.config.playground => json_error(
            StatusCode::METHOD_NOT_ALLOWED,
            &format!("method {} is not allowed on {path}", req.method()),
        ),
        (_, "/validate" | "/healthz" | "/readyz" | "/metrics") => json_error(
            StatusCode::METHOD_NOT_ALLOWED,
            &format!("method {} is not allowed on {path}", req.method()),
        ),
        _ => json_error(StatusCode::NOT_FOUND, &format!("no route {path}")),
    }
}

/// Whether a Content-Type names JSON (`application/json`, with parameters or not).
fn is_json(value: Option<&HeaderValue>) -> bool {
    value
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

async fn validate(state: Arc<State>, req: hyper::Request<Incoming>) -> HttpResponse {
    let started = Instant::now();
    let limits = state.config.limits;
    let body = match read_json_body(req, limits, state.config.timeout).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    let review = match admission::decode(&body, limits) {
        Ok(review) => review,
        Err(e) => return json_error(StatusCode::BAD_REQUEST, &e.to_string()),
    };
    let body_bytes = body.len();
    drop(body);
    let version = review.version;
    let response = answer(&state, review, body_bytes, started).await;
    respond(
        StatusCode::OK,
        "application/json",
        response.to_review_json(version),
    )
}

/// `POST /playground/check`: the report on a pasted manifest, judged on a blocking thread
/// within the deadline, a panic caught.
async fn playground_check(state: Arc<State>, req: hyper::Request<Incoming>) -> HttpResponse {
    let started = Instant::now();
    let body = match read_json_body(req, state.config.limits, state.config.timeout).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    let request = match crate::playground::CheckRequest::parse(&body) {
        Ok(request) => request,
        Err(e) => return json_error(StatusCode::BAD_REQUEST, &e),
    };
    let Some(rules) = state.rules.load_full() else {
        return json_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the rules are not loaded yet",
        );
    };
    let job = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::playground::report(&*rules.live, rules.candidate.as_deref(), &request)
        }))
    });
    let remaining = state.config.timeout.saturating_sub(started.elapsed());
    match tokio::time::timeout(remaining, job).await {
        Ok(Ok(Ok(report))) => respond(StatusCode::OK, "application/json", report.to_string()),
        Ok(Ok(Err(_)) | Err(_)) => {
            state.metrics.panics.inc();
            tracing::error!("playground check panicked");
            json_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "validation panicked (a kdv bug; please report it)",
            )
        }
        Err(_) => json_error(
            StatusCode::SERVICE_UNAVAILABLE,
            &format!(
                "validation did not finish within {}s",
                state.config.timeout.as_secs_f64()
            ),
        ),
    }
}

/// The body of a JSON request, within the body limit and read within `deadline` (a client
/// that sends its body slowly or stops holds no worker past the request's deadline); else
/// the response to send.
async fn read_json_body(
    req: hyper::Request<Incoming>,
    limits: Limits,
    deadline: Duration,
) -> Result<Bytes, HttpResponse> {
    if !is_json(req.headers().get(CONTENT_TYPE)) {
        return Err(json_error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Content-Type must be application/json",
        ));
    }
    let declared = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if let Some(length) = declared
        && length > limits.max_body as u64
    {
        return Err(json_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!(
                "request body is {length} bytes, over the limit of {} bytes",
                limits.max_body
            ),
        ));
    }
    let read = Limited::new(req.into_body(), limits.max_body).collect();
    let Ok(read) = tokio::time::timeout(deadline, read).await else {
        return Err(json_error(
            StatusCode::REQUEST_TIMEOUT,
            &format!(
                "the request body did not arrive within {}s",
                deadline.as_secs_f64()
            ),
        ));
    };
    match read {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => Err(json_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!(
                "request body is over the limit of {} bytes",
                limits.max_body
            ),
        )),
        Err(e) => Err(json_error(
            StatusCode::BAD_REQUEST,
            &format!("cannot read the request body: {e}"),
        )),
    }
}

/// What judging one review found.
struct Judged {
    live: Verdict,
    candidate: Option<Verdict>,
}

/// The largest review body judged on an async worker rather than the blocking pool.
///
/// Handing a judge to the blocking pool wakes a parked thread and the worker again (about
/// 30 µs of futex and scheduler time per review, as much as judging a Deployment); a task
/// on the worker costs neither. A review of a few MiB may hold a worker for milliseconds,
/// which the blocking pool keeps away from the connections the worker serves. Either way the
/// request's deadline is a timer another worker fires (decision 0145); a runtime of one
/// worker has none, so there every judge runs on the blocking pool.
const INLINE_JUDGE_MAX_BODY: usize = 256 * 1024;

/// Judges `review` (whose body was `body_bytes` long) within the deadline, a panic caught:
/// on an async worker task, or on the blocking pool when the body is large.
async fn answer(
    state: &Arc<State>,
    review: Review,
    body_bytes: usize,
    started: Instant,
) -> Response {
    let request = Arc::new(review.request);
    let mode = state.config.mode;
    let labels = |verdict: &str| RequestLabels {
        kind: request.kind.kind.clone(),
        operation: request.operation.as_str().to_string(),
        verdict: verdict.to_string(),
        mode: mode.as_str().to_string(),
    };
    let count = |verdict: &str| state.metrics.requests.get_or_create(&labels(verdict)).inc();
    if matches!(request.operation, Operation::Delete | Operation::Connect) {
        count("allowed");
        return Response::allow(&request.uid);
    }
    let Some(rules) = state.rules.load_full() else {
        count("error");
        return failure(state, &request.uid, "the rules are not loaded yet");
    };
    let uid = request.uid.clone();
    let job = {
        let request = request.clone();
        move || {
            let run = std::panic::AssertUnwindSafe(|| {
                let judge_started = Instant::now();
                let subject = Subject {
                    kind: &request.kind,
                    operation: request.operation,
                    subresource: request.sub_resource.as_deref(),
                    object: request.object.as_deref().map_or("null", |o| o.get()),
                    old_object: request.old_object.as_deref().map(|o| o.get()),
                };
                let live = rules.live.judge(&subject);
                let candidate = rules.candidate.as_ref().map(|c| c.judge(&subject));
                (
                    Judged { live, candidate },
                    judge_started.elapsed().as_secs_f64(),
                )
            });
            std::panic::catch_unwind(run)
        }
    };
    // On a runtime of one thread, a judge on it would stop its own deadline's timer.
    let workers = tokio::runtime::Handle::current().metrics().num_workers();
    let job = if body_bytes <= INLINE_JUDGE_MAX_BODY && workers > 1 {
        tokio::task::spawn(async move { job() })
    } else {
        tokio::task::spawn_blocking(job)
    };
    let remaining = state.config.timeout.saturating_sub(started.elapsed());
    let judged = match tokio::time::timeout(remaining, job).await {
        Ok(Ok(Ok((judged, seconds)))) => {
            state.metrics.duration.observe(seconds);
            judged
        }
        Ok(Ok(Err(_)) | Err(_)) => {
            state.metrics.panics.inc();
            count("error");
            tracing::error!(uid = %uid, kind = %request.kind.kind, "validation panicked");
            return failure(
                state,
                &uid,
                "validation panicked (a kdv bug; please report it)",
            );
        }
        Err(_) => {
            state.metrics.timeouts.inc();
            count("error");
            tracing::warn!(uid = %uid, kind = %request.kind.kind, "validation timed out");
            return failure(
                state,
                &uid,
                &format!(
                    "validation did not finish within {}s",
                    state.config.timeout.as_secs_f64()
                ),
            );
        }
    };
    let name = request.name.as_deref().unwrap_or("");
    let namespace = request.namespace.as_deref().unwrap_or("");
    let mut warnings = Warnings::default();
    let mut response = match judged.live {
        Verdict::Unknown => {
            count("unknown");
            if state.config.fail_unknown {
                let message = format!(
                    "kdv: no rules for kind {:?} of apiVersion {:?} (--fail-unknown)",
                    request.kind.kind,
                    request.kind.api_version()
                );
                Response::deny(&uid, Status::failure(400, "BadRequest", message))
            } else {
                Response::allow(&uid)
            }
        }
        Verdict::Failed(message) => {
            count("error");
            tracing::warn!(uid = %uid, kind = %request.kind.kind, error = %message, "cannot validate");
            failure(state, &uid, &message)
        }
        Verdict::Checked {
            errors,
            warnings: found,
        } => {
            for w in &found {
                warnings.push(w);
            }
            if errors.is_empty() {
                count("allowed");
                Response::allow(&uid)
            } else {
                let status = Status::invalid(&request.kind, name, &errors);
                match mode {
                    Mode::Enforce => {
                        count("denied");
                        Response::deny(&uid, status)
                    }
                    Mode::Warn => {
                        count("denied");
                        for e in &errors {
                            warnings.push(&e.to_string());
                        }
                        Response::allow(&uid)
                    }
                    Mode::Audit => {
                        count("denied");
                        state
                            .metrics
                            .audit_violations
                            .get_or_create(&KindLabels {
                                kind: request.kind.kind.clone(),
                            })
                            .inc();
                        let mut response = Response::allow(&uid);
                        response
                            .audit_annotations
                            .insert("invalid".to_string(), status.message);
                        response
                    }
                }
            }
        }
    };
    match judged.candidate {
        Some(Verdict::Checked { errors, .. }) if !errors.is_empty() => {
            state
                .metrics
                .candidate_rejections
                .get_or_create(&KindLabels {
                    kind: request.kind.kind.clone(),
                })
                .inc();
            tracing::warn!(
                uid = %uid,
                kind = %request.kind.kind,
                namespace = %namespace,
                name = %name,
                operation = %request.operation,
                errors = %errors.to_aggregate_string(),
                "the candidate rules would reject this object"
            );
            for e in &errors {
                state
                    .metrics
                    .candidate_rule_failures
                    .get_or_create(&RuleLabels::of(&request.kind.kind, e))
                    .inc();
                warnings.push(&format!("candidate: {e}"));
            }
        }
        Some(Verdict::Failed(message)) => {
            tracing::warn!(uid = %uid, kind = %request.kind.kind, error = %message, "the candidate rules cannot validate this object");
        }
        _ => {}
    }
    response.warnings.extend(warnings.finish());
    response
}

/// The answer to a request kdv could not judge, per the failure mode.
fn failure(state: &State, uid: &str, why: &str) -> Response {
    match state.config.failure_mode {
        FailureMode::Allow => {
            let mut response = Response::allow(uid);
            let mut warnings = Warnings::default();
            warnings.push(&format!("kdv: not validated: {why}"));
            response.warnings = warnings.finish();
            response
        }
        FailureMode::Deny => Response::deny(
            uid,
            Status::failure(500, "InternalError", format!("kdv: {why}")),
        ),
    }
}
