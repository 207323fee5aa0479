//! End-to-end tests of `kdv cel`: values, exit codes, runtime and estimated costs, compile and
//! input errors, JSON output and stdin.

mod common;

use common::Kdv;
use serde_json::{Value, json};

const SCALE: &str = "crates/kdv-cli/tests/fixtures/cel/scale.yaml";
const SCALE_OVER: &str = "crates/kdv-cli/tests/fixtures/cel/scale-over.json";
const REPLICAS_RULE: &str =
    "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas";

/// Runs `kdv cel ARGS` in the workspace root: exit status, stdout, stderr.
fn cel(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut cel = Kdv::new(&[&["cel"], args].concat()).lossy();
    if let Some(input) = stdin {
        cel = cel.stdin(input);
    }
    let run = cel.run();
    (run.code, run.stdout, run.stderr)
}

#[test]
fn true_rule_exits_0_with_value_type_and_costs() {
    let (code, out, err) = cel(&[REPLICAS_RULE, "--self", SCALE], None);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "true");
    assert_eq!(lines[1], "type: bool");
    // Two comparisons of two field reads each (ident + select = 2) plus the call: 5 + 5.
    assert_eq!(lines[2], "runtime cost: 10 (limit 1000000)");
    assert!(lines[3].starts_with("estimated cost: "), "{out}");
}

#[test]
fn false_rule_exits_1() {
    let (code, out, _) = cel(&[REPLICAS_RULE, "--self", SCALE_OVER], None);
    assert_eq!(code, 1);
    assert!(out.starts_with("false\n"), "{out}");
}

#[test]
fn runtime_error_exits_1() {
    let (code, out, _) = cel(&["self.missing > 1", "--self", SCALE], None);
    assert_eq!(code, 1);
    assert!(out.starts_with("error: no such key: missing\n"), "{out}");
}

#[test]
fn compile_error_exits_2_with_caret() {
    let (code, out, err) = cel(&["1 + 'a'"], None);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert_eq!(
        err,
        "ERROR: <input>:1:3: found no matching overload for '_+_' applied to '(int, string)'\n | 1 + 'a'\n | ..^\n"
    );
}

#[test]
fn kubernetes_libraries_are_available() {
    let (code, out, _) = cel(
        &[
            "quantity('1Gi').isGreaterThan(quantity('1Mi')) && [1, 2].includes(2) && isURL('https://a/') && ip('10.0.0.1').family() == 4",
        ],
        None,
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("true\n"), "{out}");
}

#[test]
fn cost_limit_stops_evaluation() {
    let (code, out, _) = cel(
        &[
            "[1, 2, 3].all(x, [1, 2, 3].all(y, x * y > 0))",
            "--cost-limit",
            "5",
        ],
        None,
    );
    assert_eq!(code, 1);
    assert!(
        out.starts_with("error: operation cancelled: actual cost limit exceeded\n"),
        "{out}"
    );
}

#[test]
fn json_output_and_stdin() {
    let (code, out, _) = cel(
        &["self.replicas * 2", "--self", "-", "-o", "json"],
        Some("replicas: 4\n"),
    );
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).expect("JSON output");
    assert_eq!(v["value"], json!("8"));
    assert_eq!(v["type"], json!("int"));
    assert_eq!(v["error"], Value::Null);
    assert_eq!(v["costLimit"], json!(1_000_000));
    assert!(v["runtimeCost"].as_u64().is_some());
    assert!(v["estimatedCost"]["max"].as_u64().is_some());
}

#[test]
fn transition_rule_sees_old_self() {
    let (code, out, _) = cel(
        &[
            "self.replicas >= oldSelf.replicas",
            "--self",
            SCALE_OVER,
            "--old-self",
            SCALE,
        ],
        None,
    );
    assert_eq!(code, 0, "{out}");
}

#[test]
fn unreadable_and_malformed_inputs_exit_2() {
    let (code, _, err) = cel(&["self", "--self", "no/such/file.yaml"], None);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: no/such/file.yaml: cannot read"),
        "{err}"
    );
    let (code, _, err) = cel(&["self", "--self", "-"], Some("a: [1,\n"));
    assert_eq!(code, 2);
    assert!(err.starts_with("error: <stdin>:"), "{err}");
}

/// `--k8s-version` and `--env` pick the release's environment: the IP library came in 1.30, so
/// objects of 1.30 may use it (`stored`, the default) but rules new on 1.30 may not.
#[test]
fn release_environments() {
    let (code, out, _) = cel(&["isIP('10.0.0.1')", "--k8s-version", "1.30"], None);
    assert_eq!((code, out.lines().next()), (0, Some("true")));
    let (code, out, err) = cel(
        &["isIP('10.0.0.1')", "--k8s-version", "1.30", "--env", "new"],
        None,
    );
    assert_eq!(code, 2, "{out}");
    assert_eq!(
        err,
        "ERROR: <input>:1:5: undeclared reference to 'isIP' (in container '')\n | isIP('10.0.0.1')\n | ....^\n"
    );
    let (code, _, _) = cel(
        &["isIP('10.0.0.1')", "--k8s-version", "1.31", "--env", "new"],
        None,
    );
    assert_eq!(code, 0);
    // Newer than the newest release modelled: the newest.
    let (code, _, _) = cel(&["[2, 1].sort() == [1, 2]", "--k8s-version", "1.40"], None);
    assert_eq!(code, 0);
    let (code, out, err) = cel(&["true", "--k8s-version", "2.1", "-o", "json"], None);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: --k8s-version 2.1: expected a release such as 1.35\n"
    );
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["error"]["kind"], "usage");
}
