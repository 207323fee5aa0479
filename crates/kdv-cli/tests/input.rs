//! End-to-end tests of how `kdv validate` reads manifests (issue 9): broken documents among
//! good ones, unknown fields, number decoding, empty inputs, special files and size limits,
//! and positions.

mod common;

use std::time::Duration;

use common::{Kdv, Run};
use kdv_test_support::Scratch;
use serde_json::Value;

const API: &str = "examples/api";

/// Every run here must end quickly: a hang is the bug being tested for.
const LIMIT: Duration = Duration::from_secs(60);

fn validate(extra: &[&str]) -> Run {
    let mut args = vec!["validate", "--types", API];
    args.extend_from_slice(extra);
    Kdv::new(&args).timeout(LIMIT).lossy().run()
}

fn validate_stdin(extra: &[&str], stdin: impl Into<Vec<u8>>) -> Run {
    let mut args = vec!["validate", "--types", API];
    args.extend_from_slice(extra);
    args.push("-");
    Kdv::new(&args)
        .timeout(LIMIT)
        .lossy()
        .stdin(stdin.into())
        .run()
}

fn widget(name: &str, replicas: &str) -> String {
    format!(
        "apiVersion: demo.kdv.dev/v1\nkind: Widget\nmetadata:\n  name: {name}\n\
         spec:\n  replicas: {replicas}\n  image: registry.example.com/widget:1.0\n"
    )
}

// ---------------------------------------------------------------------------------------
// Item 4: one broken document does not drop the stream

#[test]
fn item_04_broken_documents_are_reported_and_the_others_validated() {
    let mut text = Vec::new();
    text.extend(widget("first", "1").as_bytes()); // #0 valid, lines 1-7
    text.extend(b"---\nspec: [1, 2\n  image: x\n"); // #1 syntax error, lines 8-10
    text.extend(b"---\n");
    text.extend(widget("third", "200").as_bytes()); // #2 invalid, lines 12-18
    text.extend(b"---\nkind: Widget\nkind: Gadget\n"); // #3 duplicate key, lines 19-21
    text.extend(b"---\nmetadata:\n  name: caf\xE9\n"); // #4 bad UTF-8, lines 22-24
    text.extend(b"---\n");
    text.extend(widget("last", "2").as_bytes()); // #5 valid, lines 26-32
    let s = Scratch::new("item04");
    let file = s.write("stream.yaml", &text);
    let run = validate(&[&file]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert_eq!(
        run.stdout,
        format!(
            "{file}:17:13: spec.replicas: Invalid value: 200: must be less than or equal to 100\n"
        ),
        "{}",
        run.transcript()
    );
    let errors: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(errors.len(), 4, "{}", run.transcript());
    assert!(
        errors[0].starts_with(&format!("{file}:10:")) && errors[0].contains(": error: "),
        "{}",
        run.transcript()
    );
    assert_eq!(
        errors[1],
        format!("{file}:21:1: error: duplicate key \"kind\"")
    );
    assert_eq!(
        errors[2],
        format!("{file}:24:12: error: invalid UTF-8 (byte 0xE9)")
    );
    assert_eq!(errors[3], "3 documents, 2 valid, 1 invalid, 3 input errors");
}

#[test]
fn item_04_document_numbers_stay_positions_in_the_stream() {
    let text = format!("---\n---\n{}---\n", widget("w", "0"));
    let run = validate_stdin(&["-o", "json"], text);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let report = run.json();
    assert_eq!(report["documents"][0]["document"], 1);
    assert_eq!(report["documents"][0]["line"], 3);
    assert_eq!(report["summary"]["empty"], 2);
}

// ---------------------------------------------------------------------------------------
// Item 5: unknown fields

const MISSPELLED: &str = "\
apiVersion: demo.kdv.dev/v1
kind: Widget
metadata:
  name: w
  labelz: {a: b}
spec:
  replicas: 0
  image: registry.example.com/widget:1.0
  spce: {}
  ports:
  - name: http
    port: 80
    prot: TCP
";

#[test]
fn item_05_unknown_fields_are_errors_by_default() {
    let run = validate_stdin(&[], MISSPELLED);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(
        run.stdout,
        "<stdin>:5:3: unknown field \"metadata.labelz\"\n\
         <stdin>:13:5: unknown field \"spec.ports[0].prot\"\n\
         <stdin>:9:3: unknown field \"spec.spce\"\n\
         <stdin>:7:13: spec.replicas: Invalid value: 0: must be greater than or equal to 1\n",
        "{}",
        run.transcript()
    );
    assert_eq!(run.stderr, "1 document, 0 valid, 1 invalid\n");
    // A document whose only problem is an unknown field is invalid.
    let run = validate_stdin(&[], widget("w", "1") + "  replica: 1\n");
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(run.stdout, "<stdin>:8:3: unknown field \"spec.replica\"\n");
}

#[test]
fn item_05_unknown_fields_as_warnings_or_ignored() {
    let text = widget("w", "1") + "  spce: {}\n";
    let run = validate_stdin(&["--unknown-fields", "warn"], text.clone());
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "<stdin>:8:3: warning: unknown field \"spec.spce\"\n1 document, 1 valid, 0 invalid\n"
    );
    let run = validate_stdin(&["--unknown-fields=warn", "-o", "json"], text.clone());
    assert_eq!(run.code, 0, "{}", run.transcript());
    let doc = &run.json()["documents"][0];
    assert_eq!(doc["valid"], true);
    assert_eq!(doc["errors"], serde_json::json!([]));
    assert_eq!(
        doc["warnings"],
        serde_json::json!([{
            "type": "UnknownField", "field": "spec.spce", "detail": "", "origin": "",
            "message": "unknown field \"spec.spce\"", "line": 8, "column": 3,
        }])
    );
    let run = validate_stdin(&["--unknown-fields", "ignore"], text.clone());
    assert_eq!(
        run.transcript(),
        "exit: 0\n--- stdout\n--- stderr\n1 document, 1 valid, 0 invalid\n"
    );
    let run = validate_stdin(&["-o", "json"], text);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let doc = &run.json()["documents"][0];
    assert_eq!(doc["valid"], false);
    assert_eq!(doc["errors"][0]["type"], "UnknownField");
    assert_eq!(run.json()["summary"]["invalid"], 1);
}

// ---------------------------------------------------------------------------------------
// Item 6: numbers for integer fields, as the API server decodes them

#[test]
fn item_06_yaml_integral_floats_are_integers_as_yaml_to_json_writes_them() {
    for replicas in ["5.0", "1e1", "-0.0", "1.0e0", "09"] {
        let run = validate_stdin(&["-o", "json"], widget("w", replicas));
        let errors = &run.json()["documents"][0]["errors"];
        // -0.0 is 0, which the minimum rejects, but it decodes.
        let expected = if replicas == "-0.0" {
            serde_json::json!([
                "spec.replicas: Invalid value: 0: must be greater than or equal to 1"
            ])
        } else {
            serde_json::json!([])
        };
        let messages: Vec<&Value> = errors
            .as_array()
            .unwrap()
            .iter()
            .map(|e| &e["message"])
            .collect();
        assert_eq!(
            serde_json::json!(messages),
            expected,
            "{replicas}: {}",
            run.transcript()
        );
    }
    for replicas in ["5.5", "1e21", "1e-1"] {
        let run = validate_stdin(&[], widget("w", replicas));
        assert_eq!(run.code, 1, "{replicas}: {}", run.transcript());
        assert!(
            run.stdout.contains("spec.replicas: Invalid value: ")
                && run.stdout.contains("expected integer, got number"),
            "{replicas}: {}",
            run.transcript()
        );
    }
    let run = validate_stdin(&[], widget("w", ".inf"));
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.starts_with("<stdin>:6:13: error: "),
        "{}",
        run.transcript()
    );
}

#[test]
fn item_06_json_number_literals_decode_as_go_decodes_them() {
    let s = Scratch::new("item06");
    let doc = |replicas: &str| {
        format!(
            r#"{{"apiVersion": "demo.kdv.dev/v1", "kind": "Widget", "metadata": {{"name": "w"}},
  "spec": {{"replicas": {replicas}, "image": "i", "rollout": {{"maxUnavailable": -0}}}}}}"#
        )
    };
    // -0 is an integer literal: accepted (maxUnavailable takes 0).
    let file = s.write("ok.json", doc("1"));
    let run = validate(&[&file]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    for literal in ["5.0", "1e1", "-0.0", "1E0"] {
        let file = s.write("bad.json", doc(literal));
        let run = validate(&[&file]);
        assert_eq!(run.code, 1, "{literal}: {}", run.transcript());
        assert!(
            run.stdout
                .contains(&format!("{file}:2:24: spec.replicas: Invalid value: "))
                && run.stdout.ends_with(": expected integer, got number\n"),
            "{literal}: {}",
            run.transcript()
        );
    }
}

// ---------------------------------------------------------------------------------------
// Item 8: nothing validated

#[test]
fn item_08_empty_inputs_are_a_warning_and_exit_2() {
    let s = Scratch::new("item08");
    let empty = s.write("empty.yaml", "");
    let run = validate(&[&empty]);
    assert_eq!(
        run.transcript(),
        "exit: 2\n--- stdout\n--- stderr\n\
         warning: nothing to validate: the input holds no documents\n\
         0 documents, 0 valid, 0 invalid\n"
    );
    let run = validate_stdin(&[], "");
    assert_eq!(run.code, 2, "{}", run.transcript());
    let run = validate_stdin(&[], "---\n# nothing\n---\n");
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.starts_with(
            "warning: nothing to validate: the input holds 2 empty documents and nothing else\n"
        ),
        "{}",
        run.transcript()
    );
    let run = validate(&["-o", "json", &empty]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert_eq!(run.json()["summary"]["documents"], 0);
    assert!(run.stderr.starts_with("warning: nothing to validate"));
    // An empty file next to a valid one is fine.
    let run = validate(&[&empty, "examples/manifests/widget-minimal.yaml"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
}

// ---------------------------------------------------------------------------------------
// Item 9: special files and size limits

#[cfg(unix)]
fn mkfifo(path: &str) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
}

#[cfg(unix)]
#[test]
fn item_09_devices_are_refused_and_walks_take_regular_files_only() {
    let run = validate(&["/dev/zero"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert_eq!(
        run.stderr,
        "/dev/zero: error: is a character device, not a file; kdv reads files, FIFOs and `-`\n\
         0 documents, 0 valid, 0 invalid, 1 input error\n"
    );
    let s = Scratch::new("item09walk");
    std::os::unix::fs::symlink("/dev/zero", s.file("zero.yaml")).expect("symlink");
    mkfifo(&s.file("pipe.yaml"));
    let good = s.write("good.yaml", widget("w", "1"));
    std::os::unix::fs::symlink(&good, s.file("link.yaml")).expect("symlink");
    // A symlink back up the tree is walked once.
    std::os::unix::fs::symlink(s.path(), s.file("loop")).expect("symlink");
    let run = validate(&[&s.path().display().to_string()]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(
        lines,
        [
            format!(
                "{}: error: is a FIFO, not a regular file; not read (name it on the command line to read a FIFO)",
                s.file("pipe.yaml")
            )
            .as_str(),
            &format!(
                "{}: error: is a character device, not a regular file; not read (name it on the command line to read a FIFO)",
                s.file("zero.yaml")
            ),
            "2 documents, 2 valid, 0 invalid, 2 input errors",
        ],
        "{}",
        run.transcript()
    );
}

#[cfg(unix)]
#[test]
fn item_09_a_named_fifo_is_read_with_the_cap() {
    use std::io::Write;
    let s = Scratch::new("item09fifo");
    let fifo = s.file("endless.json");
    mkfifo(&fifo);
    // An endless writer: the read must stop at the cap, and the writer then gets EPIPE.
    let writer_path = fifo.clone();
    let writer = std::thread::spawn(move || {
        if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(writer_path) {
            let chunk = vec![b' '; 64 << 10];
            while f.write_all(&chunk).is_ok() {}
        }
    });
    let run = validate(&["--max-size", "1Mi", &fifo]);
    writer.join().expect("writer");
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert_eq!(
        run.stderr,
        format!(
            "{fifo}: error: larger than 1 MiB (--max-size to raise the limit)\n\
             0 documents, 0 valid, 0 invalid, 1 input error\n"
        )
    );
    // A FIFO with a manifest in it is validated like a file.
    let fifo = s.file("widget.yaml");
    mkfifo(&fifo);
    let writer_path = fifo.clone();
    let writer = std::thread::spawn(move || {
        if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(writer_path) {
            let _ = f.write_all(widget("w", "1").as_bytes());
        }
    });
    let run = validate(&[&fifo]);
    writer.join().expect("writer");
    assert_eq!(run.code, 0, "{}", run.transcript());
}

#[test]
fn item_09_documents_over_the_size_limit_are_errors() {
    let mut big = widget("big", "1");
    big.push_str("  owner: x\n");
    big.push_str(&format!("# {}\n", "x".repeat(3 << 20)));
    let text = format!("{}---\n{big}---\n{}", widget("a", "1"), widget("c", "0"));
    let run = validate_stdin(&[], text.clone());
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert_eq!(
        run.stderr,
        "<stdin>:8:1: error: document is larger than 3 MiB (--max-size to raise the limit)\n\
         2 documents, 1 valid, 1 invalid, 1 input error\n",
        "{}",
        run.transcript()
    );
    // Each document counts, not the file: raising the limit admits the big one.
    let run = validate_stdin(&["--max-size", "4Mi"], text);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(
        run.stderr.ends_with("3 documents, 2 valid, 1 invalid\n"),
        "{}",
        run.transcript()
    );
    // A stream bigger than the document limit is fine when its documents are small.
    let padding = format!("# {}\n", "x".repeat(1100));
    let many: String = (0..3000)
        .map(|i| format!("---\n{padding}{}", widget(&format!("w{i}"), "1")))
        .collect();
    assert!(many.len() > 3 << 20 && many.len() < 4 << 20);
    let run = validate_stdin(&["--max-size", "1Mi"], many);
    assert_eq!(
        run.code,
        0,
        "{}",
        run.stderr.lines().last().unwrap_or_default()
    );
    let run = validate(&["--max-size", "3Q", "-"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("unknown size suffix"),
        "{}",
        run.transcript()
    );
}

// ---------------------------------------------------------------------------------------
// Item 10: large manifests

#[test]
fn item_10_large_documents_are_refused_by_default_and_validated_when_allowed() {
    // A 3.5 MB Widget: 130,000 labels (the type allows 16).
    let mut text = String::from(
        "apiVersion: demo.kdv.dev/v1\nkind: Widget\nmetadata:\n  name: big\n  labels:\n",
    );
    for i in 0..130_000 {
        text.push_str(&format!("    key{i:06}: value-{i:06}\n"));
    }
    text.push_str("spec:\n  replicas: 1\n  image: i\n");
    assert!(text.len() > 3 << 20);
    let run = validate_stdin(&[], text.clone());
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.starts_with(
            "<stdin>:1:1: error: document is larger than 3 MiB (--max-size to raise the limit)\n"
        ),
        "{}",
        run.transcript()
    );
    let run = validate_stdin(&["--max-size", "4Mi"], text);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(
        run.stdout,
        "<stdin>:6:5: metadata.labels: Too many: 130000: must have at most 16 items\n"
    );
}

// ---------------------------------------------------------------------------------------
// Item 13: positions

#[test]
fn item_13_every_input_error_has_a_line_and_column() {
    let run = validate(&["crates/kdv-cli/tests/fixtures/manifests/unknown-kind.yaml"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.starts_with(
            "crates/kdv-cli/tests/fixtures/manifests/unknown-kind.yaml:2:7: error: unknown kind \"Gadget\""
        ),
        "{}",
        run.transcript()
    );
    let run = validate_stdin(
        &[],
        b"apiVersion: demo.kdv.dev/v1\nkind: \"Wid\xFFget\"\n".to_vec(),
    );
    assert!(
        run.stderr
            .starts_with("<stdin>:2:11: error: invalid UTF-8 (byte 0xFF)\n"),
        "{}",
        run.transcript()
    );
}

#[test]
fn item_13_field_errors_name_the_line_and_column_of_the_field() {
    let text = "\
apiVersion: demo.kdv.dev/v1
kind: Widget
metadata:
  name: w
  labels: {ok: fine, -bad: x}
spec:
  image: latest
  ports:
    - {name: a, port: 1}
    - {name: b, port: 0}
";
    let run = validate_stdin(&[], text);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(
        run.stdout
            .lines()
            .map(|l| l.split(": ").next().unwrap_or_default())
            .collect::<Vec<_>>(),
        [
            // A map key error points at the key.
            "<stdin>:5:22",
            // A missing field points at the object that lacks it.
            "<stdin>:7:3",
            "<stdin>:10:23",
        ],
        "{}",
        run.transcript()
    );
    // The +k8s:alpha rule's error is shadowed (issue 13): a warning, at the field too.
    assert!(
        run.stderr.contains("<stdin>:7:10: warning: spec.image: "),
        "{}",
        run.transcript()
    );
    // JSON files get positions too, in JSON output as well.
    let run = validate(&[
        "-o",
        "json",
        "examples/manifests/widget.json",
        "examples/manifests/bad-spec.yaml",
    ]);
    let errors = &run.json()["documents"][1]["errors"];
    assert_eq!(
        (errors[0]["line"].as_u64(), errors[0]["column"].as_u64()),
        (Some(7), Some(13))
    );
    let s = Scratch::new("item13");
    let file = s.write(
        "w.json",
        "{\"apiVersion\": \"demo.kdv.dev/v1\", \"kind\": \"Widget\",\n \"metadata\": {\"name\": \"w\"},\n \"spec\": {\"replicas\": 0, \"image\": \"i\"}}",
    );
    let run = validate(&[&file]);
    assert_eq!(
        run.stdout,
        format!(
            "{file}:3:23: spec.replicas: Invalid value: 0: must be greater than or equal to 1\n"
        )
    );
}
