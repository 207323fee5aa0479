//! The server in-process on 127.0.0.1 port 0, with judges written for the tests: TLS with a
//! certificate generated here (and rotated), malformed, truncated, too large and mistyped
//! bodies, a panicking and a stalling judge under both failure modes, routes and metrics.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use kdv_runtime::{BadValue, ErrorType, FieldError, FieldPath};
use kdv_serve::{
    Config, FailureMode, Handle, Judge, Loader, Rules, Server, Subject, TlsFiles, Verdict,
};
use kdv_test_support::Scratch;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

/// Denies every object whose `spec.size` is over 10; panics on kind `Panic`; stalls on kind
/// `Slow`; knows no kind `Unknown`.
fn judge(subject: &Subject<'_>) -> Verdict {
    match subject.kind.kind.as_str() {
        "Panic" => panic!("a rule panicked"),
        "Slow" => {
            std::thread::sleep(Duration::from_secs(3));
            Verdict::Checked {
                errors: Vec::new(),
                warnings: Vec::new(),
            }
        }
        "Unknown" => Verdict::Unknown,
        _ => {
            let value: serde_json::Value = serde_json::from_str(subject.object).unwrap();
            let size = value["spec"]["size"].as_i64().unwrap_or(0);
            let errors = if size > 10 {
                vec![FieldError::new(
                    ErrorType::Invalid,
                    FieldPath::new("spec").child("size"),
                    BadValue::Int(size),
                    "must be at most 10",
                )]
            } else {
                Vec::new()
            };
            Verdict::Checked {
                errors,
                warnings: Vec::new(),
            }
        }
    }
}

fn loader() -> Loader {
    Arc::new(|| {
        Ok(Rules {
            live: Arc::new(judge) as Arc<dyn Judge>,
            candidate: None,
        })
    })
}

struct Running {
    addr: SocketAddr,
    handle: Handle,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<()>,
}

impl Running {
    async fn start(config: Config) -> Running {
        Running::serve(Server::bind(config, loader()).await.expect("binds")).await
    }

    /// Runs a bound server until [`Running::stop`]; returns once its rules are loaded.
    async fn serve(server: Server) -> Running {
        let addr = server.local_addr().unwrap();
        let handle = server.handle();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let done = tokio::spawn(async move {
            server
                .run(async {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
        });
        for _ in 0..200 {
            if handle.is_ready() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(handle.is_ready());
        Running {
            addr,
            handle,
            stop: Some(stop),
            done,
        }
    }

    async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        self.done.await.unwrap();
    }
}

fn loopback() -> Config {
    Config::new("127.0.0.1:0".parse().unwrap())
}

/// One HTTP/1.1 exchange on `stream`: status code and body.
async fn exchange<S: AsyncRead + AsyncWrite + Unpin>(
    mut stream: S,
    method: &str,
    path: &str,
    content_type: &str,
    body: &[u8],
) -> (u16, String) {
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    // The server may answer (413) before the whole body is written.
    let _ = stream.write_all(body).await;
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response).await;
    let response = String::from_utf8(response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").expect("a response");
    let code = head.split(' ').nth(1).unwrap().parse().unwrap();
    (code, body.to_string())
}

async fn post(addr: SocketAddr, body: &[u8]) -> (u16, String) {
    let stream = TcpStream::connect(addr).await.unwrap();
    exchange(stream, "POST", "/validate", "application/json", body).await
}

async fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let stream = TcpStream::connect(addr).await.unwrap();
    exchange(stream, "GET", path, "text/plain", b"").await
}

fn review(kind: &str, operation: &str, size: i64) -> Vec<u8> {
    serde_json::json!({
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "request": {
            "uid": "0b6f9d1c-1111-4222-8333-444455556666",
            "kind": {"group": "demo.kdv.dev", "version": "v1", "kind": kind},
            "resource": {"group": "demo.kdv.dev", "version": "v1", "resource": "things"},
            "name": "t1",
            "namespace": "default",
            "operation": operation,
            "userInfo": {"username": "admin"},
            "object": {"apiVersion": "demo.kdv.dev/v1", "kind": kind, "metadata": {"name": "t1"}, "spec": {"size": size}},
            "oldObject": if operation == "UPDATE" { serde_json::json!({"apiVersion": "demo.kdv.dev/v1", "kind": kind, "metadata": {"name": "t1"}, "spec": {"size": 1}}) } else { serde_json::Value::Null },
            "dryRun": false
        }
    })
    .to_string()
    .into_bytes()
}

#[tokio::test]
async fn a_denial_is_the_api_servers_invalid_status() {
    let server = Running::start(loopback()).await;
    let (code, body) = post(server.addr, &review("Thing", "CREATE", 11)).await;
    assert_eq!(code, 200);
    assert_eq!(
        body,
        r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"0b6f9d1c-1111-4222-8333-444455556666","allowed":false,"status":{"metadata":{},"status":"Failure","message":"Thing.demo.kdv.dev \"t1\" is invalid: spec.size: Invalid value: 11: must be at most 10","reason":"Invalid","details":{"name":"t1","group":"demo.kdv.dev","kind":"Thing","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: 11: must be at most 10","field":"spec.size"}]},"code":422}}}"#
    );
    let (code, body) = post(server.addr, &review("Thing", "UPDATE", 3)).await;
    assert_eq!(code, 200);
    assert_eq!(
        body,
        r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"0b6f9d1c-1111-4222-8333-444455556666","allowed":true}}"#
    );
    server.stop().await;
}

#[tokio::test]
async fn bad_requests_get_json_errors_never_a_panic() {
    let mut config = loopback();
    config.limits.max_body = 64 << 10;
    let server = Running::start(config).await;
    let whole = review("Thing", "CREATE", 1);
    let cases: Vec<(&[u8], u16, &str)> = vec![
        (b"{", 400, "malformed AdmissionReview: EOF while parsing"),
        (&whole[..whole.len() / 2], 400, "malformed AdmissionReview"),
        (b"[]", 400, "malformed AdmissionReview: not a JSON object"),
        (br#"{"apiVersion":"v1","kind":"Pod"}"#, 400, "apiVersion \"v1\" is not admission.k8s.io/v1"),
        (br#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}"#, 400, "the AdmissionReview has no request"),
        (
            br#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u","kind":{"kind":"X"},"operation":"UPDATE","object":{}}}"#,
            400,
            "request.oldObject is required for UPDATE",
        ),
    ];
    for (body, want_code, want) in cases {
        let (code, text) = post(server.addr, body).await;
        assert_eq!(code, want_code, "{text}");
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(json["error"].as_str().unwrap().contains(want), "{text}");
    }
    // Over --max-body: refused from Content-Length, before reading.
    let big = vec![b' '; (64 << 10) + 1];
    let (code, text) = post(server.addr, &big).await;
    assert_eq!(code, 413, "{text}");
    // Wrong content type.
    let stream = TcpStream::connect(server.addr).await.unwrap();
    let (code, text) = exchange(stream, "POST", "/validate", "text/yaml", &whole).await;
    assert_eq!(
        (code, text.as_str()),
        (415, r#"{"error":"Content-Type must be application/json"}"#)
    );
    // Routes.
    assert_eq!(get(server.addr, "/healthz").await, (200, "ok".into()));
    assert_eq!(get(server.addr, "/readyz").await, (200, "ok".into()));
    assert_eq!(get(server.addr, "/validate").await.0, 405);
    assert_eq!(get(server.addr, "/nope").await.0, 404);
    server.stop().await;
}

#[tokio::test]
async fn a_panic_or_a_timeout_is_answered_per_the_failure_mode() {
    // The panic hook may print a backtrace (RUST_BACKTRACE), slow in debug builds: the
    // panic is not to be mistaken for a timeout.
    let mut config = loopback();
    config.timeout = Duration::from_secs(30);
    let server = Running::start(config.clone()).await;
    let (_, body) = post(server.addr, &review("Panic", "CREATE", 1)).await;
    assert_eq!(
        body,
        r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"0b6f9d1c-1111-4222-8333-444455556666","allowed":true,"warnings":["kdv: not validated: validation panicked (a kdv bug; please report it)"]}}"#
    );
    // The server still answers.
    let (_, body) = post(server.addr, &review("Thing", "CREATE", 1)).await;
    assert!(body.contains(r#""allowed":true}"#), "{body}");
    let metrics = server.handle.metrics();
    assert!(
        metrics.contains("kdv_validation_panics_total 1"),
        "{metrics}"
    );
    assert!(
        metrics.contains(r#"kdv_admission_requests_total{kind="Panic",operation="CREATE",verdict="error",mode="enforce"} 1"#),
        "{metrics}"
    );
    server.stop().await;

    config.failure_mode = FailureMode::Deny;
    let server = Running::start(config.clone()).await;
    let (_, body) = post(server.addr, &review("Panic", "CREATE", 1)).await;
    assert_eq!(
        body,
        r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"0b6f9d1c-1111-4222-8333-444455556666","allowed":false,"status":{"metadata":{},"status":"Failure","message":"kdv: validation panicked (a kdv bug; please report it)","reason":"InternalError","code":500}}}"#
    );
    server.stop().await;

    config.failure_mode = FailureMode::Allow;
    config.timeout = Duration::from_millis(300);
    let server = Running::start(config).await;
    let (_, body) = post(server.addr, &review("Slow", "CREATE", 1)).await;
    assert_eq!(
        body,
        r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"0b6f9d1c-1111-4222-8333-444455556666","allowed":true,"warnings":["kdv: not validated: validation did not finish within 0.3s"]}}"#
    );
    let metrics = server.handle.metrics();
    assert!(
        metrics.contains("kdv_validation_timeouts_total 1"),
        "{metrics}"
    );
    server.stop().await;
}

/// On a runtime of several workers a small review is judged on a worker task, not the
/// blocking pool: a judge that stalls there still meets the deadline (another worker fires
/// its timer), other requests are answered meanwhile, and a panic is caught.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_judge_on_a_worker_meets_the_deadline_and_leaves_the_others_served() {
    let mut config = loopback();
    config.timeout = Duration::from_millis(300);
    let server = Running::start(config).await;
    let addr = server.addr;
    let started = std::time::Instant::now();
    let slow = tokio::spawn(async move { post(addr, &review("Slow", "CREATE", 1)).await });
    // While the stall holds one worker, the other answers.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let (_, body) = post(addr, &review("Thing", "CREATE", 11)).await;
    assert!(body.contains(r#""allowed":false"#), "{body}");
    let (_, body) = slow.await.unwrap();
    assert_eq!(
        body,
        r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"0b6f9d1c-1111-4222-8333-444455556666","allowed":true,"warnings":["kdv: not validated: validation did not finish within 0.3s"]}}"#
    );
    // Answered at the deadline, not when the stalled judge returned (3 s).
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    let (_, body) = post(addr, &review("Panic", "CREATE", 1)).await;
    assert!(body.contains("validation panicked"), "{body}");
    let metrics = server.handle.metrics();
    assert!(
        metrics.contains("kdv_validation_timeouts_total 1"),
        "{metrics}"
    );
    assert!(
        metrics.contains("kdv_validation_panics_total 1"),
        "{metrics}"
    );
    server.stop().await;
}

/// `metrics_listen`: /metrics, /healthz and /readyz over plain HTTP on a second address,
/// nothing else there; the main listener keeps them too.
#[tokio::test]
async fn a_plain_http_metrics_listener_serves_only_the_operations_routes() {
    let mut config = loopback();
    config.metrics_listen = Some("127.0.0.1:0".parse().unwrap());
    let server = Server::bind(config, loader()).await.expect("binds");
    let ops = server.metrics_addr().expect("a metrics listener").unwrap();
    let server = Running::serve(server).await;
    let addr = server.addr;
    let (code, _) = post(addr, &review("Thing", "CREATE", 11)).await;
    assert_eq!(code, 200);
    let (code, body) = get(ops, "/metrics").await;
    assert_eq!(code, 200);
    assert!(body.contains("kdv_admission_requests_total"), "{body}");
    assert_eq!(get(ops, "/healthz").await.0, 200);
    assert_eq!(get(ops, "/readyz").await.0, 200);
    let stream = TcpStream::connect(ops).await.unwrap();
    let (code, _) = exchange(
        stream,
        "POST",
        "/validate",
        "application/json",
        &review("Thing", "CREATE", 1),
    )
    .await;
    assert_eq!(code, 404);
    assert_eq!(get(addr, "/metrics").await.0, 200);
    server.stop().await;
}

/// A body that stops arriving is answered 408 at the request's deadline; the server goes on
/// answering others.
#[tokio::test]
async fn a_body_that_stops_arriving_is_answered_at_the_deadline() {
    let mut config = loopback();
    config.timeout = Duration::from_millis(500);
    let server = Running::start(config).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let head = "POST /validate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"apiVersion\":";
    stream.write_all(head.as_bytes()).await.unwrap();
    let started = std::time::Instant::now();
    let mut response = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut response))
        .await
        .expect("answered before the test's own bound")
        .unwrap();
    let response = String::from_utf8_lossy(&response[..n]);
    assert!(response.starts_with("HTTP/1.1 408"), "{response}");
    assert!(
        response.contains("the request body did not arrive within 0.5s"),
        "{response}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    let (code, _) = post(server.addr, &review("Thing", "CREATE", 1)).await;
    assert_eq!(code, 200);
    server.stop().await;
}

#[tokio::test]
async fn delete_connect_and_unknown_kinds_are_allowed() {
    let server = Running::start(loopback()).await;
    for (kind, op) in [
        ("Thing", "DELETE"),
        ("Thing", "CONNECT"),
        ("Unknown", "CREATE"),
    ] {
        let (_, body) = post(server.addr, &review(kind, op, 99)).await;
        assert!(body.ends_with(r#""allowed":true}}"#), "{kind} {op}: {body}");
    }
    server.stop().await;
}

/// A self-signed certificate for `localhost`, written as PEM files in a fresh directory.
fn certificate(dir: &std::path::Path) -> (TlsFiles, rustls::pki_types::CertificateDer<'static>) {
    let generated = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let cert = dir.join("tls.crt");
    let key = dir.join("tls.key");
    std::fs::write(&cert, generated.cert.pem()).unwrap();
    std::fs::write(&key, generated.signing_key.serialize_pem()).unwrap();
    (TlsFiles { cert, key }, generated.cert.der().clone())
}

async fn tls_post(
    addr: SocketAddr,
    root: &rustls::pki_types::CertificateDer<'static>,
) -> Result<(u16, String), std::io::Error> {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(root.clone()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let tcp = TcpStream::connect(addr).await?;
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
    let stream = connector.connect(name, tcp).await?;
    Ok(exchange(
        stream,
        "POST",
        "/validate",
        "application/json",
        &review("Thing", "CREATE", 11),
    )
    .await)
}

#[tokio::test]
async fn tls_with_certificate_rotation() {
    let scratch = Scratch::new("tls");
    let dir = scratch.path();
    let (files, first) = certificate(dir);
    let mut config = loopback();
    config.tls = Some(files);
    config.poll_interval = Duration::from_millis(50);
    let server = Running::start(config).await;
    let (code, body) = tls_post(server.addr, &first).await.unwrap();
    assert_eq!(code, 200);
    assert!(body.contains(r#""allowed":false"#), "{body}");
    // Rotate: a new key pair in place. New connections get the new certificate.
    let (_, second) = certificate(dir);
    let mut rotated = false;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if tls_post(server.addr, &second).await.is_ok() {
            rotated = true;
            break;
        }
    }
    assert!(rotated, "the rotated certificate is served");
    assert!(
        tls_post(server.addr, &first).await.is_err(),
        "the old certificate is gone"
    );
    let metrics = server.handle.metrics();
    assert!(
        metrics.contains(r#"kdv_reloads_total{what="certificate",result="success"} 1"#),
        "{metrics}"
    );
    server.stop().await;
}

#[tokio::test]
async fn unusable_certificates_are_refused_at_start() {
    let scratch = Scratch::new("badtls");
    let dir = scratch.path();
    std::fs::write(dir.join("tls.crt"), "not a certificate").unwrap();
    std::fs::write(dir.join("tls.key"), "not a key").unwrap();
    let mut config = loopback();
    config.tls = Some(TlsFiles {
        cert: dir.join("tls.crt"),
        key: dir.join("tls.key"),
    });
    let Err(e) = Server::bind(config, loader()).await else {
        panic!("bound with a broken certificate");
    };
    assert!(e.to_string().starts_with("--tls-cert "), "{e}");
}
