//! `kdv lsp` driven as an editor drives it, over its standard input and output: initialize,
//! didOpen, didChange with incremental edits, hover, completion, shutdown and exit, with
//! exact diagnostics and ranges; `--check`; hostile framing and random edits.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{Kdv, git};
use kdv_test_support::Scratch;
use serde_json::{Value, json};

/// A Gizmo CRD whose second rule names a field the schema lacks (`sise`).
const CRD: &str = include_str!("fixtures/lsp/gizmo-crd.yaml");

/// A Deployment with a misspelled field (`imagePullPolice`, line 14).
const DEPLOYMENT: &str = include_str!("fixtures/lsp/deployment.yaml");

const GO: &str = "package v1\n\n// Widget is a widget.\ntype Widget struct {\n\t// +k8s:minimum=0\n\tSize int `json:\"size\"`\n\t// +k8s:maxLength=-1\n\tName string `json:\"name\"`\n}\n";

struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: mpsc::Receiver<Value>,
    next_id: i64,
}

fn read_message(out: &mut BufReader<ChildStdout>) -> Option<Value> {
    let mut length = 0;
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            length = v.parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    out.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Server {
    fn start(dir: &Path, options: Value) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kdv"))
            .arg("lsp")
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("kdv lsp starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, messages) = mpsc::channel();
        std::thread::spawn(move || {
            while let Some(m) = read_message(&mut stdout) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            child,
            stdin,
            messages,
            next_id: 1,
        };
        let uri = format!("file://{}", dir.display());
        let init = server.request(
            "initialize",
            json!({"processId": null, "rootUri": uri, "capabilities": {},
                   "initializationOptions": options}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "kdv", "{init}");
        assert_eq!(
            init["result"]["capabilities"]["textDocumentSync"]["change"],
            2
        );
        server.notify("initialized", json!({}));
        server
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait(|m| m["id"] == id)
    }

    /// The next message `pick` accepts (others are dropped), within 30 s.
    fn wait(&mut self, pick: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let m = self.messages.recv_timeout(left).expect("an answer in time");
            if pick(&m) {
                return m;
            }
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Value {
        let m = self.wait(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        });
        m["params"].clone()
    }

    fn open(&mut self, uri: &str, language: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}),
        );
    }

    fn stop(mut self) -> i32 {
        let r = self.request("shutdown", Value::Null);
        assert_eq!(r["result"], Value::Null, "{r}");
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        status.code().unwrap_or(-1)
    }
}

/// (line, character, end line, end character, message) of each diagnostic.
fn ranges(params: &Value) -> Vec<(u64, u64, u64, u64, String)> {
    params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let r = &d["range"];
            (
                r["start"]["line"].as_u64().unwrap(),
                r["start"]["character"].as_u64().unwrap(),
                r["end"]["line"].as_u64().unwrap(),
                r["end"]["character"].as_u64().unwrap(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_crd_session_with_edits_hover_and_completion() {
    let dir = Scratch::new("crd");
    let mut server = Server::start(dir.path(), json!({"kubernetesVersion": "1.35"}));
    let uri = format!("file://{}/gizmo-crd.yaml", dir.path().display());
    server.open(&uri, "yaml", CRD);
    let d = server.diagnostics(&uri);
    assert_eq!(d["version"], 1);
    assert_eq!(
        ranges(&d),
        [(
            20,
            24,
            20,
            29,
            "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule: Invalid value: compilation failed: ERROR: <input>:1:5: undefined field 'sise'".to_string()
        )]
    );
    // Two incremental edits in one change: `sise` → `size`, then a comment line.
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 20, "character": 27}, "end": {"line": 20, "character": 28}}, "text": "z"},
            {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "# gizmos\n"}
        ]}),
    );
    let d = server.diagnostics(&uri);
    assert_eq!(d["version"], 2);
    assert_eq!(ranges(&d), []);
    // Hover over the first rule (now on line 20): the type of `self` and the cost.
    let h = server.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 20, "character": 22}}),
    );
    let md = h["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(
        md.contains("`self`: `object{maxSize: int, size: int}`"),
        "{h}"
    );
    assert!(md.contains("of the per-rule limit 10000000"), "{md}");
    // Completion after `self.`.
    let c = server.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": 20, "character": 26}}),
    );
    let labels: Vec<&str> = c["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["maxSize", "size"]);
    // An unknown request is answered with an error, and the server goes on.
    let r = server.request("textDocument/definition", json!({}));
    assert_eq!(r["error"]["code"], -32601, "{r}");
    server.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let d = server.diagnostics(&uri);
    assert_eq!(ranges(&d), []);
    assert_eq!(server.stop(), 0);
}

#[test]
fn manifests_and_go_types() {
    let dir = Scratch::new("manifests");
    std::fs::write(
        dir.path().join("go.mod"),
        "module example.com/w\n\ngo 1.22\n",
    )
    .unwrap();
    let mut server = Server::start(dir.path(), json!({}));
    let uri = format!("file://{}/deploy.yaml", dir.path().display());
    server.open(&uri, "yaml", DEPLOYMENT);
    let d = server.diagnostics(&uri);
    assert_eq!(
        ranges(&d),
        [(
            14,
            8,
            14,
            23,
            r#"unknown field "spec.template.spec.containers[0].imagePullPolice""#.to_string()
        )]
    );
    // Hover over a key: `kdv explain` for the field.
    let h = server.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 13, "character": 10}}),
    );
    let md = h["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(
        md.contains("Deployment apps/v1 spec.template.spec.containers[*].image (Kubernetes 1."),
        "{h}"
    );
    assert!(md.contains("must be of type string"), "{md}");
    let go = dir.path().join("types.go");
    std::fs::write(&go, GO).unwrap();
    let go_uri = format!("file://{}", go.display());
    server.open(&go_uri, "go", GO);
    let d = server.diagnostics(&go_uri);
    let found = ranges(&d);
    assert!(
        found.iter().any(|(l, ..)| *l == 6),
        "the negative maxLength on line 7: {found:?}"
    );
    let h = server.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": go_uri}, "position": {"line": 4, "character": 8}}),
    );
    let md = h["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(md.starts_with("**+k8s:minimum**"), "{h}");
    let c = server.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": go_uri}, "position": {"line": 4, "character": 9}}),
    );
    assert!(
        c["result"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["label"] == "k8s:maxItems"),
        "{c}"
    );
    assert_eq!(server.stop(), 0);
}

/// Each edit of a burst gets a newer version; what is published is never of an older
/// version than one already published, and the last publication is of the last version.
#[test]
fn no_stale_diagnostics_under_a_burst_of_edits() {
    let dir = Scratch::new("burst");
    let mut server = Server::start(dir.path(), json!({}));
    let uri = format!("file://{}/deploy.yaml", dir.path().display());
    server.open(&uri, "yaml", DEPLOYMENT);
    server.diagnostics(&uri);
    for v in 2..=60 {
        // Toggles the misspelled key's last letter.
        let letter = if v % 2 == 0 { "x" } else { "e" };
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": v}, "contentChanges": [
                {"range": {"start": {"line": 14, "character": 22}, "end": {"line": 14, "character": 23}}, "text": letter}
            ]}),
        );
    }
    let mut last = 0;
    loop {
        let d = server.diagnostics(&uri);
        let v = d["version"].as_i64().unwrap();
        assert!(v > last, "version {v} published after {last}");
        last = v;
        if v == 60 {
            let found = ranges(&d);
            assert_eq!(found.len(), 1);
            assert!(found[0].4.ends_with("imagePullPolicx\""), "{found:?}");
            break;
        }
    }
    assert_eq!(server.stop(), 0);
}

/// Hostile framing ends the session with an error status, never a hang or a crash;
/// `exit` without `shutdown` is status 1.
#[test]
fn hostile_input_and_exit_statuses() {
    for input in [
        b"Content-Length: 99999999999\r\n\r\n".to_vec(),
        b"Content-Length: 5\r\n\r\n{}}}}".to_vec(),
        vec![b'a'; 20_000],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kdv"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(&input).unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("error: LSP"),
            "{out:?}"
        );
    }
    let dir = Scratch::new("hostile");
    let mut server = Server::start(dir.path(), json!({}));
    server.notify("exit", Value::Null);
    assert_eq!(server.child.wait().unwrap().code(), Some(1));
}

/// Random edits (insertions and deletions anywhere, any text) keep the server answering.
#[test]
fn random_edits_keep_it_answering() {
    let dir = Scratch::new("random");
    let mut server = Server::start(dir.path(), json!({}));
    let uri = format!("file://{}/gizmo-crd.yaml", dir.path().display());
    server.open(&uri, "yaml", CRD);
    server.diagnostics(&uri);
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n.max(1)
    };
    let pieces = [
        "", "x", ":", "\n", "- ", "  ", "\"", "|", "{", "]", "é😀", "self.", "&&", "\t", "'",
    ];
    for v in 2..=300 {
        let (l1, c1) = (next(40), next(60));
        let (l2, c2) = (l1 + next(3), next(60));
        let text = pieces[next(pieces.len() as u64) as usize];
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": v}, "contentChanges": [
                {"range": {"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}}, "text": text}
            ]}),
        );
        if v % 50 == 0 {
            let h = server.request(
                "textDocument/hover",
                json!({"textDocument": {"uri": uri}, "position": {"line": next(40), "character": next(40)}}),
            );
            assert!(h.get("result").is_some(), "{h}");
        }
    }
    let c = server.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": 3, "character": 3}}),
    );
    assert!(c.get("result").is_some(), "{c}");
    assert_eq!(server.stop(), 0);
}

#[test]
fn check_prints_what_the_server_publishes() {
    let dir = Scratch::new("check");
    std::fs::write(dir.path().join("gizmo-crd.yaml"), CRD).unwrap();
    let run = Kdv::new(&["lsp", "--check", "gizmo-crd.yaml", "--k8s-version", "1.35"])
        .current_dir(dir.path())
        .lossy()
        .run();
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout,
        "gizmo-crd.yaml:21:25: error: spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule: Invalid value: compilation failed: ERROR: <input>:1:5: undefined field 'sise'\n"
    );
}

/// A large real CRD (Gateway API's HTTPRoute: 6,919 lines, 178 CEL rules) gets no
/// diagnostic: the API server accepts it.
#[test]
fn a_large_real_crd_gets_no_false_diagnostic() {
    let crd = "testdata/gateway-api/gateway.networking.k8s.io_httproutes.yaml";
    let run = Kdv::new(&["lsp", "--check", crd]).lossy().run();
    assert_eq!(run.stdout, "");
    assert_eq!(run.code, 0, "{}", run.transcript());
}

/// A manifest of a workspace CRD's kind: validated against the CRD, as an UPDATE of its
/// git HEAD revision with `oldRef` (a transition rule sees the old object); hover explains
/// its fields from the CRD.
#[test]
fn workspace_crds_and_updates_against_git_head() {
    let dir = Scratch::new("oldref");
    let crd = CRD
        .replace("self.sise > 0", "self.size >= oldSelf.size")
        .replace(
            "maxSize: {type: integer}",
            "maxSize: {type: integer, description: The largest size.}",
        )
        .replace(
            "            properties:\n              size:",
            "              message: size cannot shrink\n            properties:\n              size:",
        );
    std::fs::write(dir.path().join("gizmo-crd.yaml"), &crd).unwrap();
    let gizmo = "apiVersion: example.com/v1\nkind: Gizmo\nmetadata:\n  name: g\nspec:\n  size: 5\n  maxSize: 9\n";
    std::fs::write(dir.path().join("gizmo.yaml"), gizmo).unwrap();
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "gizmo"]);
    let mut server = Server::start(dir.path(), json!({"oldRef": "HEAD"}));
    let uri = format!("file://{}/gizmo.yaml", dir.path().display());
    server.open(&uri, "yaml", &gizmo.replace("size: 5", "size: 3"));
    let d = server.diagnostics(&uri);
    let found = ranges(&d);
    assert_eq!(found.len(), 1, "{found:?}");
    // Where `kdv validate --old-ref HEAD` puts it.
    assert_eq!((found[0].0, found[0].1), (5, 2), "{found:?}");
    assert!(found[0].4.ends_with("size cannot shrink"), "{found:?}");
    let h = server.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 6, "character": 3}}),
    );
    let md = h["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(md.contains("spec.maxSize"), "{h}");
    assert!(md.starts_with("The largest size.\n\n"), "{md}");
    assert_eq!(server.stop(), 0);
}

/// With `types`, manifests of the package's kinds are validated against its tags.
#[test]
fn manifests_of_go_types() {
    let root = common::root();
    let run = Kdv::new(&[
        "lsp",
        "--check",
        "examples/manifests/bad-ports.yaml",
        "--types",
        "examples/api",
    ])
    .lossy()
    .run();
    assert_eq!(
        run.stdout,
        "examples/manifests/bad-ports.yaml:13:7: error: spec.ports[1]: Duplicate value: {\"name\":\"http\",\"port\":8080}\n\
         examples/manifests/bad-ports.yaml:16:13: error: spec.ports[2].port: Invalid value: 70000: must be less than or equal to 65535\n\
         examples/manifests/bad-ports.yaml:17:17: error: spec.ports[2].protocol: Unsupported value: \"SCTP\": supported values: \"TCP\", \"UDP\"\n\
         examples/manifests/bad-ports.yaml:18:19: error: spec.zones[1]: Duplicate value: \"zone-a\"\n"
    );
    assert_eq!(run.code, 1);
    // The same through initializationOptions.
    let dir = Scratch::new("types");
    let mut server = Server::start(&root, json!({"types": "examples/api"}));
    let uri = format!("file://{}/ports.yaml", dir.path().display());
    let text = std::fs::read_to_string(root.join("examples/manifests/bad-ports.yaml")).unwrap();
    server.open(&uri, "yaml", &text);
    let d = server.diagnostics(&uri);
    assert_eq!(ranges(&d).len(), 4, "{d}");
    assert_eq!(server.stop(), 0);
}
