//! `kdv serve` end to end: the binary on a loopback port, AdmissionReviews shaped as an API
//! server sends them (tests/fixtures/serve), the exact response JSON; rule reload on file
//! change and on SIGHUP; graceful exit on SIGTERM; the TLS flags' usage error.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use kdv_test_support::Scratch;

/// A running `kdv serve`, stopped (SIGKILL) when dropped unless it exited.
struct Served {
    child: Child,
    addr: SocketAddr,
    /// The log lines read so far, and the receiver of the rest.
    logs: mpsc::Receiver<String>,
}

impl Served {
    /// Starts `kdv serve --insecure-http --listen 127.0.0.1:0 ARGS` and waits for its
    /// "listening" line.
    fn start(args: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kdv"))
            .current_dir(common::root())
            .args(["serve", "--insecure-http", "--listen", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kdv serve starts");
        let stderr = child.stderr.take();
        let (sender, logs) = mpsc::channel();
        // Held from here, so the child is stopped and reaped on every path (Drop).
        let mut served = Served {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            logs,
        };
        let stderr = stderr.expect("stderr piped");
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let line = served
                .logs
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
                .expect("kdv serve logs its address");
            let log: serde_json::Value = serde_json::from_str(&line).expect("JSON log lines");
            if log["message"] == "listening" {
                served.addr = log["addr"]
                    .as_str()
                    .expect("addr")
                    .parse()
                    .expect("an address");
                return served;
            }
        }
    }

    /// POSTs `body` to `path`; the status code and the body.
    fn post(&self, path: &str, content_type: &str, body: &[u8]) -> (u16, String) {
        http(self.addr, "POST", path, content_type, body)
    }

    /// POSTs a fixture to /validate; the response body, pretty.
    fn review(&self, fixture: &str) -> String {
        let body = std::fs::read(fixtures().join(fixture)).expect("fixture");
        let (code, body) = self.post("/validate", "application/json", &body);
        assert_eq!(code, 200, "{fixture}: {body}");
        let value: serde_json::Value = serde_json::from_str(&body).expect("JSON response");
        serde_json::to_string_pretty(&value).unwrap()
    }

    /// Waits for a log line with `message`.
    fn wait_for_log(&self, message: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let line = self
                .logs
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
                .unwrap_or_else(|_| panic!("no log line {message:?}"));
            if line.contains(message) {
                return;
            }
        }
    }

    fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/serve")
}

/// One HTTP/1.1 request on a new connection.
fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    content_type: &str,
    body: &[u8],
) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("a response");
    let (head, body) = response.split_once("\r\n\r\n").expect("head and body");
    let code = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("a status code");
    (code, body.to_string())
}

#[test]
fn reviews_are_answered_as_the_api_server_answers() {
    // The release is named: which built-in rules are enforced or shadowed is the release's
    // (1.36 shadows the Scale's replicas rule), and the default moves with each release.
    let served = Served::start(&[
        "--k8s-version",
        "1.36",
        "--crd",
        "crates/kdv-cli/tests/fixtures/serve/crd.yaml",
        "--candidate-crd",
        "crates/kdv-cli/tests/fixtures/serve/candidate.yaml",
    ]);
    for fixture in [
        "pod-create-valid",
        "pod-create-invalid",
        "pod-delete",
        "deployment-update-invalid",
        "deployment-create-v1beta1-dryrun",
        "deployment-status-update",
        "deployment-scale-update",
        "gizmo-create-valid",
        "gizmo-create-invalid",
        "gizmo-update-transition",
        "gizmo-update-ratchet",
        "gizmo-status-invalid",
        "unknown-kind",
    ] {
        insta::assert_snapshot!(
            format!("serve_{fixture}"),
            served.review(&format!("{fixture}.json"))
        );
    }
    let (code, body) = http(served.addr, "GET", "/metrics", "text/plain", b"");
    assert_eq!(code, 200);
    for line in [
        "kdv_admission_requests_total{kind=\"Pod\",operation=\"CREATE\",verdict=\"denied\",mode=\"enforce\"} 1",
        "kdv_admission_requests_total{kind=\"Pod\",operation=\"DELETE\",verdict=\"allowed\",mode=\"enforce\"} 1",
        "kdv_admission_requests_total{kind=\"Thing\",operation=\"CREATE\",verdict=\"unknown\",mode=\"enforce\"} 1",
        "kdv_candidate_rejections_total{kind=\"Gizmo\"} 4",
        "kdv_candidate_rule_failures_total{kind=\"Gizmo\",field=\"spec.size\",reason=\"FieldValueInvalid\"} 2",
        "kdv_candidate_rule_failures_total{kind=\"Gizmo\",field=\"status.phase\",reason=\"FieldValueNotSupported\"} 1",
        "kdv_admission_validation_duration_seconds_count 12",
    ] {
        assert!(body.contains(line), "{line} in\n{body}");
    }
    assert_eq!(
        http(served.addr, "GET", "/readyz", "text/plain", b""),
        (200, "ok".to_string())
    );
}

#[test]
fn warn_and_audit_modes_allow() {
    let served = Served::start(&[
        "--crd",
        "crates/kdv-cli/tests/fixtures/serve/crd.yaml",
        "--mode",
        "warn",
    ]);
    insta::assert_snapshot!(
        "serve_warn_mode",
        served.review("gizmo-create-invalid.json")
    );
    drop(served);
    let served = Served::start(&[
        "--crd",
        "crates/kdv-cli/tests/fixtures/serve/crd.yaml",
        "--mode",
        "audit",
    ]);
    insta::assert_snapshot!(
        "serve_audit_mode",
        served.review("gizmo-create-invalid.json")
    );
    let (_, metrics) = http(served.addr, "GET", "/metrics", "text/plain", b"");
    assert!(
        metrics.contains("kdv_audit_violations_total{kind=\"Gizmo\"} 1"),
        "{metrics}"
    );
}

#[test]
fn unknown_kinds_are_denied_with_fail_unknown() {
    let served = Served::start(&[
        "--crd",
        "crates/kdv-cli/tests/fixtures/serve/crd.yaml",
        "--fail-unknown",
    ]);
    insta::assert_snapshot!("serve_fail_unknown", served.review("unknown-kind.json"));
}

/// The CRD file changes (maximum 10 → 3): the verdict on a size-7 Gizmo changes, from the
/// file watch and again (back to 10) from SIGHUP.
#[test]
fn rules_reload_when_the_crd_changes_and_on_sighup() {
    let scratch = Scratch::new("serve-reload");
    let dir = scratch.path();
    let crd = dir.join("crd.yaml");
    let original = std::fs::read_to_string(fixtures().join("crd.yaml")).unwrap();
    std::fs::write(&crd, &original).unwrap();
    let served = Served::start(&["--crd", crd.to_str().unwrap(), "--poll-interval", "100ms"]);
    let allowed = |served: &Served| {
        served
            .review("gizmo-create-valid.json")
            .contains("\"allowed\": true")
    };
    assert!(allowed(&served));
    // A broken CRD is not loaded: the previous rules stay.
    std::fs::write(&crd, original.replace("maximum: 10", "maximum: [")).unwrap();
    served.wait_for_log("cannot load the rules; keeping the previous set");
    assert!(allowed(&served));
    // A different length too, so the change is seen whatever the file system's mtime
    // granularity.
    std::fs::write(
        &crd,
        original.replace("maximum: 10", "maximum: 3 # tightened"),
    )
    .unwrap();
    served.wait_for_log("rules loaded");
    assert!(!allowed(&served), "the tightened CRD denies size 7");
    // SIGHUP reloads what is on disk now.
    std::fs::write(&crd, &original).unwrap();
    served.signal("HUP");
    served.wait_for_log("rules loaded");
    assert!(allowed(&served));
    let (_, metrics) = http(served.addr, "GET", "/metrics", "text/plain", b"");
    assert!(
        metrics.contains("kdv_reloads_total{what=\"rules\",result=\"success\"}"),
        "{metrics}"
    );
}

#[test]
fn sigterm_drains_and_exits_0() {
    let mut served = Served::start(&["--crd", "crates/kdv-cli/tests/fixtures/serve/crd.yaml"]);
    served.signal("TERM");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = served.child.try_wait().unwrap() {
            assert_eq!(status.code(), Some(0));
            break;
        }
        assert!(Instant::now() < deadline, "kdv serve did not exit");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn tls_or_insecure_http_must_be_chosen() {
    let run = common::kdv(&["serve", "--listen", "127.0.0.1:0"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains("--tls-cert and --tls-key are required"),
        "{}",
        run.transcript()
    );
    let run = common::kdv(&[
        "serve",
        "--insecure-http",
        "--listen",
        "127.0.0.1:0",
        "--crd",
        "crates/kdv-cli/tests/fixtures/serve/missing.yaml",
    ]);
    assert_eq!(run.code, 2, "{}", run.transcript());
}

/// A headless browser from the OS packages: chromium's headless shell (what `.ci/run`
/// installs), or chromium.
fn headless_browser() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["chromium-headless-shell", "chromium", "chromium-browser"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// `application/x-www-form-urlencoded` text of a query value.
fn url_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The playground page in a real browser: chromium's headless shell loads it from
/// `kdv serve --playground`, the page's script posts the manifest given in its URL to
/// /playground/check and shows each document's verdict and each error at its line; the
/// test reads the page the browser rendered. Without a browser on PATH the test says it is
/// skipped, unless KDV_REQUIRE_BROWSER is set (as `.ci/run` sets it), when that is a failure.
#[test]
fn playground_page_in_a_headless_browser() {
    let Some(browser) = headless_browser() else {
        assert!(
            std::env::var_os("KDV_REQUIRE_BROWSER").is_none(),
            "KDV_REQUIRE_BROWSER is set but neither chromium-headless-shell nor chromium is on PATH"
        );
        eprintln!(
            "SKIPPED playground_page_in_a_headless_browser: no chromium-headless-shell or chromium on PATH"
        );
        return;
    };
    let served = Served::start(&[
        "--playground",
        "--crd",
        "crates/kdv-cli/tests/fixtures/serve/crd.yaml",
    ]);
    let manifest = "apiVersion: demo.kdv.dev/v1\nkind: Gizmo\nmetadata:\n  name: g1\nspec:\n  size: 11\n  mode: fast\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: Web_1\nspec:\n  replicas: 2\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: fast\n";
    let url = format!(
        "http://{}/playground?manifest={}",
        served.addr,
        url_encoded(manifest)
    );
    let profile = Scratch::new("playground-profile");
    let output = Command::new(&browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--virtual-time-budget=30000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.dir()))
        .arg(&url)
        .output()
        .expect("the browser runs");
    let dom = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}: {}\n{dom}",
        browser.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    for expected in [
        "document 1 (line 1): Gizmo \"g1\": invalid",
        "6:9: spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10",
        "document 2 (line 9): Deployment \"Web_1\": invalid",
        "12:9: metadata.name: Invalid value: \"Web_1\": a lowercase RFC 1123 subdomain",
        "document 3 (line 16): ConfigMap \"settings\": valid",
        "3 document(s) checked",
    ] {
        assert!(
            dom.contains(expected),
            "{expected:?} not in the page:\n{dom}"
        );
    }
    // The page is served only with --playground, with a policy that loads nothing else.
    let (code, _) = http(served.addr, "GET", "/playground", "text/plain", b"");
    assert_eq!(code, 200);
    let plain = Served::start(&[]);
    let (code, _) = http(plain.addr, "GET", "/playground", "text/plain", b"");
    assert_eq!(code, 404);
}
