//! `kdv lsp`: a language server over standard input and output (decision 0146).
//!
//! - `transport`: LSP's framing, bounded.
//! - `text`: positions (LSP's UTF-16 columns, kdv's character and byte columns) and
//!   incremental edits.
//! - `analysis`: a file's kind, diagnostics, hover and completion: pure functions of the
//!   text and the loaded rules (what `--check` prints is what the server publishes).
//! - `crd`, `tags`: CRD files and `+k8s:` tags in Go and Rust files.
//!
//! The main thread reads messages, keeps the open documents and answers hover and
//! completion; one worker thread computes diagnostics. Edits to a document are coalesced,
//! and a result computed for a version older than the document's newest is dropped, never
//! published.

mod analysis;
mod crd;
mod tags;
mod text;
mod transport;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::{
    CompletionItem, Diagnostic, DiagnosticSeverity, Hover, HoverContents, MarkupContent,
    MarkupKind, Position, Range,
};
use serde_json::{Value, json};

use analysis::{Analyzer, FileKind, Settings};

use crate::cli::LspArgs;
use crate::error::CliError;

/// Runs `kdv lsp` (or `--check FILE`).
pub fn run(args: &LspArgs) -> Result<u8, CliError> {
    if let Some(file) = &args.check {
        return check(args, file);
    }
    let (connection, io) = transport::stdio();
    let code = serve(&connection, args);
    drop(connection);
    // The reader ends at `exit` or the end of input; an I/O error after the session ended
    // is of no interest.
    let _ = io.join();
    code
}

/// The settings of the command line.
fn base_settings(args: &LspArgs) -> Settings {
    Settings {
        kubernetes_version: args.k8s_version.clone(),
        crd_folders: args.crd_folders.clone(),
        types: args.types.clone(),
        ..Settings::default()
    }
}

/// `--check FILE`: the diagnostics the server would publish, one per line.
fn check(args: &LspArgs, file: &Path) -> Result<u8, CliError> {
    let text = std::fs::read_to_string(file).map_err(|e| CliError::TypesUnreadable {
        dir: file.to_path_buf(),
        message: e.to_string(),
    })?;
    let roots = vec![std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))];
    let analyzer = Analyzer::new(base_settings(args), roots)?;
    let path = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
    let diagnostics = analyzer.diagnostics(&path, &text);
    let name = crate::file_name::display(file);
    let mut out = String::new();
    for d in &diagnostics {
        out.push_str(&format!(
            "{name}:{}:{}: {}: {}\n",
            d.range.start.line + 1,
            d.range.start.character + 1,
            severity_text(d.severity),
            d.message
        ));
    }
    print!("{out}");
    let errors = diagnostics
        .iter()
        .any(|d| d.severity == Some(DiagnosticSeverity::ERROR));
    Ok(u8::from(errors))
}

fn severity_text(s: Option<DiagnosticSeverity>) -> &'static str {
    match s {
        Some(DiagnosticSeverity::ERROR) => "error",
        Some(DiagnosticSeverity::WARNING) => "warning",
        Some(DiagnosticSeverity::INFORMATION) => "info",
        _ => "hint",
    }
}

/// An open document.
struct Doc {
    path: PathBuf,
    version: i32,
    text: String,
}

/// A diagnostics job: one version of one document.
struct Job {
    uri: String,
    path: PathBuf,
    version: i32,
    text: Arc<str>,
}

/// The newest version of each open document, shared with the worker.
type Versions = Arc<Mutex<HashMap<String, i32>>>;

/// The session: initialize, the message loop, shutdown. Exit status 0 after `shutdown` (and
/// `exit` or the end of input), 1 after an `exit` or the end of input alone.
fn serve(connection: &Connection, args: &LspArgs) -> Result<u8, CliError> {
    let protocol = |e: lsp_server::ProtocolError| CliError::Usage(format!("LSP: {e}"));
    let (id, params) = connection.initialize_start().map_err(protocol)?;
    let mut settings = base_settings(args);
    if let Some(options) = params
        .get("initializationOptions")
        .filter(|v| v.is_object())
    {
        let given: Settings = serde_json::from_value(options.clone()).unwrap_or_default();
        merge(&mut settings, given);
    }
    let roots = workspace_roots(&params);
    let capabilities = json!({
        "capabilities": {
            "positionEncoding": "utf-16",
            "textDocumentSync": {
                "openClose": true,
                "change": 2,
                "save": {"includeText": false}
            },
            "hoverProvider": true,
            "completionProvider": {"triggerCharacters": [".", "+", ":", "=", "("]}
        },
        "serverInfo": {"name": "kdv", "version": env!("CARGO_PKG_VERSION")}
    });
    connection
        .initialize_finish(id, capabilities)
        .map_err(protocol)?;
    let analyzer = match Analyzer::new(settings.clone(), roots.clone()) {
        Ok(a) => a,
        Err(e) => {
            show_message(
                connection,
                1,
                &format!("kdv: {e}; using the default release"),
            );
            settings.kubernetes_version = None;
            Analyzer::new(settings, roots)?
        }
    };
    let analyzer = Arc::new(analyzer);
    let versions: Versions = Arc::default();
    let (jobs, queue) = crossbeam_channel::unbounded::<Job>();
    let worker = {
        let analyzer = analyzer.clone();
        let versions = versions.clone();
        let sender = connection.sender.clone();
        std::thread::Builder::new()
            .name("kdv-lsp-diagnostics".into())
            .stack_size(crate::WORKER_STACK_BYTES)
            .spawn(move || diagnose_loop(&analyzer, &versions, &queue, &sender))
            .map_err(CliError::Output)?
    };
    let mut docs: HashMap<String, Doc> = HashMap::new();
    // After `shutdown`, the end of the session (`exit`, or the client closing the pipe, as
    // editors quitting do) is a clean one.
    let mut shut_down = false;
    for message in &connection.receiver {
        match message {
            Message::Request(req) => {
                let response = if shut_down {
                    Response::new_err(
                        req.id,
                        ErrorCode::InvalidRequest as i32,
                        "the server is shut down".into(),
                    )
                } else if req.method == "shutdown" {
                    shut_down = true;
                    Response::new_ok(req.id, Value::Null)
                } else {
                    answer(&analyzer, &docs, req)
                };
                let _ = connection.sender.send(Message::Response(response));
            }
            Message::Notification(n) => {
                if n.method == "exit" {
                    break;
                }
                notify(&analyzer, &mut docs, &versions, &jobs, connection, n);
            }
            Message::Response(_) => {}
        }
    }
    drop(jobs);
    let _ = worker.join();
    Ok(if shut_down { 0 } else { 1 })
}

/// The client's settings over the command line's, where given.
fn merge(settings: &mut Settings, given: Settings) {
    if given.kubernetes_version.is_some() {
        settings.kubernetes_version = given.kubernetes_version;
    }
    if !given.crd_folders.is_empty() {
        settings.crd_folders = given.crd_folders;
    }
    if given.unknown_fields.is_some() {
        settings.unknown_fields = given.unknown_fields;
    }
    if given.old_ref.is_some() {
        settings.old_ref = given.old_ref;
    }
    if given.types.is_some() {
        settings.types = given.types;
    }
}

/// The workspace folders of `initialize` (its `rootUri` when it names none).
fn workspace_roots(params: &Value) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = params
        .get("workspaceFolders")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|f| f.get("uri").and_then(Value::as_str).and_then(path_of))
        .collect();
    if roots.is_empty()
        && let Some(root) = params
            .get("rootUri")
            .and_then(Value::as_str)
            .and_then(path_of)
    {
        roots.push(root);
    }
    roots
}

/// The path of a `file:` URI (percent-decoded); `None` for other schemes.
fn path_of(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = rest.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    let path = String::from_utf8(out).ok()?;
    // `file:///C:/x` on Windows; `file:///x` elsewhere.
    Some(PathBuf::from(path))
}

fn show_message(connection: &Connection, kind: u8, text: &str) {
    let n = Notification::new(
        "window/showMessage".into(),
        json!({"type": kind, "message": text}),
    );
    let _ = connection.sender.send(Message::Notification(n));
}

/// Answers a request (hover, completion; others are not supported).
fn answer(analyzer: &Analyzer, docs: &HashMap<String, Doc>, req: Request) -> Response {
    let located = || -> Option<(&Doc, Position)> {
        let uri = req.params.pointer("/textDocument/uri")?.as_str()?;
        let at: Position = serde_json::from_value(req.params.get("position")?.clone()).ok()?;
        Some((docs.get(uri)?, at))
    };
    match req.method.as_str() {
        "textDocument/hover" => {
            let hover = located().and_then(|(doc, at)| {
                let md = analyzer.hover(&doc.path, &doc.text, at)?;
                Some(Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: md,
                    }),
                    range: None,
                })
            });
            Response::new_ok(req.id, hover)
        }
        "textDocument/completion" => {
            let items: Vec<CompletionItem> = located()
                .map(|(doc, at)| analyzer.completion(&doc.path, &doc.text, at))
                .unwrap_or_default();
            Response::new_ok(req.id, items)
        }
        _ => Response::new_err(
            req.id,
            ErrorCode::MethodNotFound as i32,
            format!("kdv lsp does not answer {}", req.method),
        ),
    }
}

/// Handles a notification: the document's life (open, change, save, close).
fn notify(
    analyzer: &Analyzer,
    docs: &mut HashMap<String, Doc>,
    versions: &Versions,
    jobs: &Sender<Job>,
    connection: &Connection,
    n: Notification,
) {
    let uri = n
        .params
        .pointer("/textDocument/uri")
        .and_then(Value::as_str)
        .map(str::to_string);
    let Some(uri) = uri else {
        return;
    };
    let version = n
        .params
        .pointer("/textDocument/version")
        .and_then(Value::as_i64)
        .and_then(|v| i32::try_from(v).ok());
    match n.method.as_str() {
        "textDocument/didOpen" => {
            let (Some(path), Some(text)) = (
                path_of(&uri),
                n.params
                    .pointer("/textDocument/text")
                    .and_then(Value::as_str),
            ) else {
                return;
            };
            docs.insert(
                uri.clone(),
                Doc {
                    path,
                    version: version.unwrap_or(0),
                    text: text.to_string(),
                },
            );
        }
        "textDocument/didChange" => {
            let Some(doc) = docs.get_mut(&uri) else {
                return;
            };
            let changes = n.params.get("contentChanges").and_then(Value::as_array);
            for change in changes.into_iter().flatten() {
                let new_text = change.get("text").and_then(Value::as_str).unwrap_or("");
                let range: Option<Range> = change
                    .get("range")
                    .and_then(|r| serde_json::from_value(r.clone()).ok());
                text::apply_change(&mut doc.text, range, new_text);
            }
            doc.version = version.unwrap_or(doc.version + 1);
        }
        "textDocument/didSave" => {
            // A saved CRD changes the kinds manifests are validated against.
            let Some(doc) = docs.get(&uri) else {
                return;
            };
            if matches!(analysis::kind_of(&doc.path, &doc.text), FileKind::Crd(_)) {
                analyzer.invalidate();
                let manifests: Vec<String> = docs
                    .iter()
                    .filter(|(_, d)| {
                        matches!(analysis::kind_of(&d.path, &d.text), FileKind::Manifest(_))
                    })
                    .map(|(u, _)| u.clone())
                    .collect();
                for u in manifests {
                    queue_job(docs, versions, jobs, &u);
                }
            }
            return;
        }
        "textDocument/didClose" => {
            docs.remove(&uri);
            if let Ok(mut v) = versions.lock() {
                v.remove(&uri);
            }
            publish(&connection.sender, &uri, None, Vec::new());
            return;
        }
        _ => return,
    }
    queue_job(docs, versions, jobs, &uri);
}

/// Queues the diagnostics of the document's current version.
fn queue_job(docs: &HashMap<String, Doc>, versions: &Versions, jobs: &Sender<Job>, uri: &str) {
    let Some(doc) = docs.get(uri) else {
        return;
    };
    if let Ok(mut v) = versions.lock() {
        v.insert(uri.to_string(), doc.version);
    }
    let _ = jobs.send(Job {
        uri: uri.to_string(),
        path: doc.path.clone(),
        version: doc.version,
        text: Arc::from(doc.text.as_str()),
    });
}

fn is_current(versions: &Versions, uri: &str, version: i32) -> bool {
    versions.lock().is_ok_and(|v| v.get(uri) == Some(&version))
}

/// The worker: takes the queued jobs, keeps the newest per document, computes, and
/// publishes only what is still current.
fn diagnose_loop(
    analyzer: &Analyzer,
    versions: &Versions,
    queue: &Receiver<Job>,
    sender: &Sender<Message>,
) {
    while let Ok(first) = queue.recv() {
        let mut pending = vec![first];
        pending.extend(queue.try_iter());
        // The newest job of each document, in the order they were queued.
        let mut newest: Vec<Job> = Vec::new();
        for job in pending {
            newest.retain(|j| j.uri != job.uri);
            newest.push(job);
        }
        for job in newest {
            if !is_current(versions, &job.uri, job.version) {
                continue;
            }
            let diagnostics = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                analyzer.diagnostics(&job.path, &job.text)
            }))
            .unwrap_or_else(|_| {
                vec![text::diagnostic(
                    Range::default(),
                    DiagnosticSeverity::ERROR,
                    "kdv could not check this file (an internal error; please report it)".into(),
                )]
            });
            if is_current(versions, &job.uri, job.version) {
                publish(sender, &job.uri, Some(job.version), diagnostics);
            }
        }
    }
}

fn publish(
    sender: &Sender<Message>,
    uri: &str,
    version: Option<i32>,
    diagnostics: Vec<Diagnostic>,
) {
    let mut params = json!({"uri": uri, "diagnostics": diagnostics});
    if let Some(v) = version {
        params["version"] = json!(v);
    }
    let n = Notification::new("textDocument/publishDiagnostics".into(), params);
    let _ = sender.send(Message::Notification(n));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris() {
        assert_eq!(
            path_of("file:///tmp/a%20b.yaml"),
            Some(PathBuf::from("/tmp/a b.yaml"))
        );
        assert_eq!(path_of("untitled:1"), None);
        assert_eq!(path_of("file:///x%"), Some(PathBuf::from("/x%")));
    }
}
