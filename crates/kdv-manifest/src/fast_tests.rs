//! The fast reader against the full path: generated manifest-like YAML, the repository's
//! YAML files, and the shapes the fast reader must read or leave alone.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::invariants::check_fast;
use crate::{Position, fast};

/// The fast reader's value for `text`, checked against the full path.
fn fast_value(text: &str) -> Option<(Value, Position)> {
    check_fast(text.as_bytes());
    fast::parse(text)
}

#[test]
fn reads_a_deployment_as_the_full_path_does() {
    let text = "\
apiVersion: \"apps/v1\"
kind: Deployment
metadata:
  name: app-1   # the app
  labels:
    app.kubernetes.io/name: 'app-1'
spec:
  replicas: 3
  paused: false
  selector:
    matchLabels: {}
  template:
    spec:
      containers:
        - name: c0
          image: \"registry.example.com/app:v1.1\"
          args: []
          ports:
          - containerPort: 8080
            protocol: TCP
          resources:
            limits: {cpu: 1}
";
    // A non-empty flow mapping: outside the subset.
    assert_eq!(fast_value(text), None);
    let text = text.replace(
        "{cpu: 1}",
        "\n              cpu: 0.5\n              memory: 512Mi",
    );
    let (value, at) = fast_value(&text).expect("in the subset");
    assert_eq!(at, Position { line: 1, column: 1 });
    let container = &value["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(
        container["ports"],
        json!([{"containerPort": 8080, "protocol": "TCP"}])
    );
    assert_eq!(
        container["resources"]["limits"],
        json!({"cpu": 0.5, "memory": "512Mi"})
    );
    assert_eq!(
        value["metadata"]["labels"],
        json!({"app.kubernetes.io/name": "app-1"})
    );
    assert_eq!(value["spec"]["paused"], json!(false));
}

#[test]
fn scalars_resolve_as_the_full_path_resolves_them() {
    let cases: &[(&str, Option<Value>)] = &[
        ("yes", Some(json!(true))),
        ("No", Some(json!(false))),
        ("y", Some(json!(true))),
        ("OFF", Some(json!(false))),
        ("Null", Some(json!(null))),
        ("nULL", Some(json!("nULL"))),
        // go-yaml's booleans are three letter cases of each word; the full path settles
        // the others (strings) from their spelling.
        ("yEs", None),
        ("oN", None),
        ("inf", Some(json!("inf"))),
        ("5.0", Some(json!(5))),
        ("-0", Some(json!(0))),
        ("-0.5", Some(json!(-0.5))),
        (
            "123456789012345678",
            Some(json!(123_456_789_012_345_678_i64)),
        ),
        ("10Gi", Some(json!("10Gi"))),
        ("1:30", Some(json!("1:30"))),
        ("/healthz", Some(json!("/healthz"))),
        ("\"a\\tb\\u00e9\\x41\"", Some(json!("a\tbéA"))),
        ("'it''s'", Some(json!("it's"))),
        ("a#b", Some(json!("a#b"))),
        // Left to the full path: octal, hex, exponents, underscores, signs, dates,
        // special floats, long integers, nulls by `~`, tags, anchors.
        ("0755", None),
        ("0x1F", None),
        ("1e3", None),
        ("1_000", None),
        ("+1", None),
        (".5", None),
        ("2024-01-01", None),
        (".inf", None),
        ("1234567890123456789", None),
        ("~", None),
        ("!!str 1", None),
        ("&a x", None),
    ];
    for (scalar, want) in cases {
        let text = format!("k: {scalar}\n");
        let got = fast_value(&text).map(|(v, _)| v["k"].clone());
        assert_eq!(&got, want, "{text:?}");
    }
}

#[test]
fn outside_the_subset_the_full_path_reads() {
    for text in [
        "a: 1\na: 2\n",
        "a: |\n  x\n",
        "a: b\n  c\n",
        "a: \"b\n  c\"\n",
        "a:\n\t- b\n",
        "? a\n: b\n",
        "%YAML 1.1\n---\na: 1\n",
        "a: &x 1\nb: *x\n",
        "- - a\n",
        "yes: 1\n",
        "1: a\n",
        "a: b: c\n",
        "a: caf\u{e9}\n",
        "a: 1\n---\nb: 2\n",
        // Found by the fuzz target: a `...` line with text after it is a marker, not a key.
        "a:\n  b: 1\n...   c: 2\n",
        "a: 1\n... x: 2\n",
        "a: 1\n...\nb: 2\n",
        "",
        "# only a comment\n",
        "null\n",
    ] {
        assert_eq!(fast_value(text), None, "{text:?}");
    }
}

/// Every YAML file of the repository: whatever the fast reader reads, it reads as the full
/// path does; most manifests are in its subset.
#[test]
fn repository_yaml_files_read_alike() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in ["examples", "testdata/kubectl-validate/testcases"] {
        yaml_files(&root.join(dir), &mut files);
    }
    if let Ok(crates) = std::fs::read_dir(root.join("crates")) {
        for krate in crates.flatten() {
            yaml_files(&krate.path().join("tests/fixtures"), &mut files);
        }
    }
    assert!(files.len() > 100, "found only {} YAML files", files.len());
    let mut read = 0;
    for file in &files {
        let bytes = std::fs::read(file).unwrap_or_default();
        read += check_fast(&bytes);
    }
    println!(
        "{} files, {read} documents read by the fast reader",
        files.len()
    );
    assert!(read > 50, "the fast reader read only {read} documents");
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
        {
            out.push(path);
        }
    }
}

/// A generated node: scalars as written.
#[derive(Debug, Clone)]
enum Node {
    Scalar(String),
    Map(Vec<(String, Node)>),
    Seq(Vec<Node>),
}

const SCALARS: &[&str] = &[
    "yes",
    "No",
    "Y",
    "n",
    "On",
    "OFF",
    "0755",
    "0x1F",
    "0o17",
    "0b101",
    "1e3",
    "1E-3",
    "5.0",
    "-0",
    "+1",
    ".5",
    "1.",
    "1_000",
    "~",
    "null",
    "Null",
    "NULL",
    "nULL",
    "true",
    "False",
    "2024-01-01",
    ":",
    "a:",
    "a:b",
    "x: y",
    "a#b",
    "a #b",
    "# c",
    "plain text",
    "1.5",
    "-1",
    "0",
    "00",
    "-00",
    "0.0",
    "-0.5",
    "00.5",
    "123456789012345678",
    "1234567890123456789",
    "99999999999999999999",
    "10Gi",
    "500m",
    "/healthz",
    "http://x:80/p",
    "-foo",
    "inf",
    "nan",
    "Infinity",
    ".inf",
    "-.inf",
    ".NaN",
    "e5",
    "E",
    "_x",
    "x\\y",
    "\"\"",
    "''",
    "\"q\\\"e\\n\"",
    "'it''s'",
    "\"\\x41\\u00e9\\t\"",
    "\"\\ud800\"",
    "\"a\\qb\"",
    "\"\\/\"",
    "'#'",
    "\"a # b\"",
    "[]",
    "{}",
    "[ ]",
    "[a]",
    "{a: 1}",
    "&a x",
    "*a",
    "!!str 1",
    "!x y",
    "|",
    ">",
    "'unterminated",
    "%x",
    "@x",
    "`x`",
    "- x",
    "? x",
    "-",
    "1 2",
    "a  b",
    "v1.2.3",
];

const KEYS: &[&str] = &[
    "a",
    "b",
    "name",
    "my key",
    "a:b",
    "app.kubernetes.io/name",
    "_x",
    ".d",
    "/p",
    "\"q k\"",
    "'s k'",
    "\"a\"",
    "yes",
    "y",
    "1",
    "null",
    "~",
    "x#y",
    "-x",
    "a b",
    "\"\\t\"",
    "''",
];

/// Scalars the fast reader resolves (or should), as manifests write them.
const COMMON_SCALARS: &[&str] = &[
    "nginx",
    "\"apps/v1\"",
    "Deployment",
    "'quoted'",
    "80",
    "8080",
    "0",
    "-1",
    "3",
    "0.5",
    "1.0",
    "-2.25",
    "true",
    "false",
    "yes",
    "no",
    "null",
    "Null",
    "~",
    "10Gi",
    "500m",
    "/healthz",
    "\"25%\"",
    "TCP",
    "a b c",
    "v1.2.3",
    "1h30m",
    "\"\"",
    "''",
    "x#y",
    "\"a \\\"b\\\" c\"",
    "'it''s'",
    "registry.example.com/app:v1",
    "123456789012345678",
];

const COMMON_KEYS: &[&str] = &[
    "apiVersion",
    "kind",
    "metadata",
    "name",
    "labels",
    "spec",
    "replicas",
    "containers",
    "image",
    "ports",
    "containerPort",
    "app.kubernetes.io/name",
    "\"quoted key\"",
    "'s'",
    "env",
    "value",
    "my key",
    "a:b",
    "_x",
];

fn scalar(tricky: bool) -> BoxedStrategy<String> {
    if tricky {
        prop_oneof![
            3 => proptest::sample::select(SCALARS).prop_map(str::to_string),
            1 => "[a-zA-Z0-9 ._/:#'\"\\[\\]{},|>!&*%@`?~\\\\-]{1,10}",
        ]
        .boxed()
    } else {
        prop_oneof![
            30 => proptest::sample::select(COMMON_SCALARS).prop_map(str::to_string),
            10 => "[a-z][a-z0-9.-]{0,8}",
            3 => "[a-z][a-zA-Z0-9 ._/:'\"\\[\\]{},|>!&*%@`?~-]{0,8}[a-z]",
            5 => "[1-9][0-9]{0,6}",
            1 => proptest::sample::select(SCALARS).prop_map(str::to_string),
        ]
        .boxed()
    }
}

fn key(tricky: bool) -> BoxedStrategy<String> {
    if tricky {
        prop_oneof![
            4 => proptest::sample::select(KEYS).prop_map(str::to_string),
            1 => "[a-z][a-zA-Z0-9._/-]{0,8}",
        ]
        .boxed()
    } else {
        prop_oneof![
            20 => proptest::sample::select(COMMON_KEYS).prop_map(str::to_string),
            20 => "[a-z][a-zA-Z0-9._/-]{0,8}",
            1 => proptest::sample::select(KEYS).prop_map(str::to_string),
        ]
        .boxed()
    }
}

fn node(tricky: bool) -> impl Strategy<Value = Node> {
    scalar(tricky)
        .prop_map(Node::Scalar)
        .prop_recursive(6, 64, 5, move |inner| {
            prop_oneof![
                proptest::collection::vec((key(tricky), inner.clone()), 0..5).prop_map(Node::Map),
                proptest::collection::vec(inner, 0..5).prop_map(Node::Seq),
            ]
        })
}

/// Writes generated nodes as block YAML, with choices (indentation, indentless sequences,
/// comments, trailing spaces, blank lines) drawn from `choices`.
struct Writer {
    out: String,
    choices: Vec<u8>,
    next: usize,
}

impl Writer {
    fn choose(&mut self, n: u8) -> u8 {
        let c = self.choices.get(self.next).copied().unwrap_or(0);
        self.next += 1;
        c % n
    }

    fn line_end(&mut self) {
        match self.choose(8) {
            0 => self.out.push_str(" # c"),
            1 => self.out.push_str("  "),
            2 => self.out.push_str("\n# comment"),
            3 => self.out.push('\n'),
            4 => self.out.push('\r'),
            _ => {}
        }
        self.out.push('\n');
    }

    fn indent(&mut self, n: usize) {
        self.out.extend(std::iter::repeat_n(' ', n));
    }

    /// A node as the value after `key:` or `-` (the indicator already written).
    fn value(&mut self, node: &Node, indent: usize, in_map: bool) {
        match node {
            Node::Scalar(s) => {
                self.out.push(' ');
                self.out.push_str(s);
                self.line_end();
            }
            Node::Map(entries) if entries.is_empty() => {
                self.out.push_str(" {}");
                self.line_end();
            }
            Node::Seq(items) if items.is_empty() => {
                if self.choose(2) == 0 {
                    self.out.push_str(" []");
                }
                self.line_end();
            }
            Node::Map(entries) => {
                if !in_map && self.choose(3) != 0 {
                    // A compact mapping in a sequence item.
                    let spaces = 1 + self.choose(2) as usize;
                    self.indent(spaces);
                    self.entries(entries, indent + 1 + spaces, true);
                } else {
                    self.line_end();
                    let step = 1 + self.choose(4) as usize;
                    self.entries(entries, indent + step, false);
                }
            }
            Node::Seq(items) => {
                self.line_end();
                let step = if in_map && self.choose(2) == 0 {
                    0
                } else {
                    1 + self.choose(3) as usize
                };
                self.items(items, indent + step);
            }
        }
    }

    fn entries(&mut self, entries: &[(String, Node)], indent: usize, inline_first: bool) {
        for (i, (key, value)) in entries.iter().enumerate() {
            if i > 0 || !inline_first {
                self.indent(indent);
            }
            self.out.push_str(key);
            if self.choose(6) == 0 {
                self.out.push(' ');
            }
            self.out.push(':');
            self.value(value, indent, true);
        }
    }

    fn items(&mut self, items: &[Node], indent: usize) {
        for item in items {
            self.indent(indent);
            self.out.push('-');
            self.value(item, indent, false);
        }
    }
}

/// A document of generated nodes: tricky ones (mostly outside the subset) or common ones
/// (mostly inside).
fn document() -> impl Strategy<Value = String> {
    prop_oneof![document_of(true), document_of(false)]
}

fn document_of(tricky: bool) -> impl Strategy<Value = String> {
    (
        proptest::collection::vec((key(tricky), node(tricky)), 1..8),
        proptest::collection::vec(any::<u8>(), 64..256),
        0u8..5,
    )
        .prop_map(|(entries, choices, prologue)| {
            let mut w = Writer {
                out: String::new(),
                choices,
                next: 0,
            };
            match prologue {
                1 => w.out.push_str("---\n"),
                2 => w.out.push_str("# head\n--- # start\n\n"),
                _ => {}
            }
            match prologue {
                3 => {
                    let items: Vec<Node> = entries.into_iter().map(|(_, n)| n).collect();
                    w.items(&items, 0);
                }
                // A root written indented.
                4 => {
                    w.indent(2);
                    w.entries(&entries, 2, true);
                }
                _ => w.entries(&entries, 0, false),
            }
            if w.choose(4) == 0 {
                w.out.push_str("...\n");
            }
            w.out
        })
}

fn cases() -> u32 {
    std::env::var("KDV_FAST_YAML_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2000)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Manifest-like YAML: the fast reader reads it as the full path does, or leaves it.
    #[test]
    fn generated_manifests_read_alike(text in document()) {
        check_fast(text.as_bytes());
    }
}

/// The generator reaches the fast reader: a fair share of its documents are in the subset
/// (the property above would hold vacuously otherwise).
#[test]
fn generated_manifests_reach_the_fast_reader() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = document();
    let (mut read, total) = (0, 500);
    for _ in 0..total {
        let text = strategy
            .new_tree(&mut runner)
            .expect("the generator has no filters")
            .current();
        read += check_fast(text.as_bytes());
    }
    println!("{read} of {total} generated documents read by the fast reader");
    assert!(read * 10 >= total, "only {read} of {total}");
}

#[test]
fn item_06_keys_are_named_as_the_full_path_names_them() {
    // Keys go-yaml reads as booleans, nulls or numbers are left to the full path, which
    // names them as sigs.k8s.io/yaml writes them; both readers agree on the rest.
    for key in [
        "on", "y", "No", "true", "yEs", ".5", ".Inf", "~", "1", "0x1F",
    ] {
        let text = format!("spec:\n  {key}: 1\n");
        assert_eq!(fast_value(&text), None, "{key}");
    }
    for key in ["name", "yes_no", "onion", ".hidden", "a.b/c", ".inf"] {
        let text = format!("spec:\n  {key}: 1\n");
        let (value, _) = fast_value(&text).expect("in the subset");
        assert_eq!(value, json!({"spec": {key: 1}}));
    }
}
