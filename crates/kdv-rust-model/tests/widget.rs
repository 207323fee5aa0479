//! The Rust counterpart of `examples/api` (tests/fixtures/widget.rs) compiles to the same
//! rules as the Go package: the same IR (up to source spans) and the same validation
//! results on create and update.

use std::path::Path;

use kdv_model::Universe;
use kdv_runtime::Operation;
use serde_json::{Value, json};

const FIXTURE: &str = include_str!("fixtures/widget.rs");

fn go_rules() -> kdv_rules::Compiled {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/api");
    let (universe, diags) = kdv_go::load_universe(&dir).expect("examples/api loads");
    assert!(diags.is_empty(), "{diags:?}");
    kdv_rules::compile(&universe)
}

fn rust_rules() -> kdv_rules::Compiled {
    let loaded = kdv_rust_model::from_items_in("demo.kdv.dev/api", "v1", "widget.rs", FIXTURE);
    let package = loaded.into_result().expect("the fixture reads cleanly");
    let mut universe = Universe::default();
    universe.packages.insert(package.path.clone(), package);
    kdv_rules::compile(&universe)
}

/// The IR without its source spans and Go field names (which differ by construction: the
/// Rust frontend spells `uid` as `Uid`, Go writes `UID`).
fn ir_text(c: &kdv_rules::Compiled) -> String {
    format!(
        "{:#?}\n{:#?}\n{:#?}",
        c.rules.types, c.rules.shapes, c.rules.roots
    )
    .lines()
    .filter(|l| !l.trim_start().starts_with("go_name:"))
    .collect::<Vec<_>>()
    .join("\n")
}

#[test]
fn widget_ir_matches_go() {
    let go = go_rules();
    let rust = rust_rules();
    assert!(go.diagnostics.is_empty(), "{:?}", go.diagnostics);
    assert!(rust.diagnostics.is_empty(), "{:?}", rust.diagnostics);
    let (g, r) = (ir_text(&go), ir_text(&rust));
    if g != r {
        let first = g
            .lines()
            .zip(r.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        let ctx = |t: &str| {
            t.lines()
                .skip(first.saturating_sub(10))
                .take(20)
                .collect::<Vec<_>>()
                .join("\n")
        };
        panic!(
            "IR differs at line {first}:\n--- go\n{}\n--- rust\n{}",
            ctx(&g),
            ctx(&r)
        );
    }
    // The same tags, each located at its `+k8s:` text in the Rust file.
    assert_eq!(go.rules.spans.len(), rust.rules.spans.len());
    for s in &rust.rules.spans {
        assert!(s.path.ends_with("widget.rs"));
        let at = &s.line_text[s.col as usize - 1..];
        assert!(at.starts_with("k8s:"), "{s:?}");
        assert!(s.line_text.trim_start().starts_with("/// +k8s:"), "{s:?}");
    }
}

fn valid() -> Value {
    json!({
        "apiVersion": "demo.kdv.dev/v1",
        "kind": "Widget",
        "metadata": {"name": "w", "namespace": "ns", "labels": {"app": "w"}, "uid": "3f2b5a52-1c0e-4a7e-9d51-1d1b8f0c2a11"},
        "spec": {
            "replicas": 3,
            "image": "nginx:1",
            "tier": "Standard",
            "ports": [{"name": "http", "port": 80, "protocol": "TCP"}],
            "zones": ["a", "b"],
            "storageClass": "fast",
            "rollout": {"maxUnavailable": 1, "pauseSeconds": 5},
            "owner": "team",
            "probe": {"type": "HTTPGet", "httpGet": {"path": "/", "port": 8080}, "periodSeconds": 10}
        }
    })
}

fn invalid() -> Vec<Value> {
    let mut out = Vec::new();
    let mut edit = |f: &dyn Fn(&mut Value)| {
        let mut v = valid();
        f(&mut v);
        out.push(v);
    };
    edit(&|v| v["spec"]["replicas"] = json!(0));
    edit(&|v| v["spec"]["replicas"] = json!("three"));
    edit(&|v| v["spec"]["image"] = json!("latest"));
    edit(&|v| v["spec"]["image"] = json!("x".repeat(300)));
    edit(&|v| v["spec"]["tier"] = json!("Gold"));
    edit(&|v| v["spec"]["ports"][0]["protocol"] = json!("tcp"));
    edit(&|v| v["spec"]["ports"] = json!([{"name": "a", "port": 1}, {"name": "a", "port": 0}]));
    edit(&|v| v["spec"]["zones"] = json!(["a", "a", "B_", "c"]));
    edit(&|v| v["spec"]["rollout"]["maxUnavailable"] = json!(50));
    edit(&|v| v["spec"]["probe"] = json!({"type": "TCPSocket", "httpGet": {"port": 0}}));
    edit(
        &|v| v["spec"]["probe"] = json!({"type": "HTTPGet", "httpGet": {"port": 1}, "tcpSocket": {"port": 70000}, "periodSeconds": 0}),
    );
    edit(&|v| v["metadata"] = json!({"name": "Bad_Name", "labels": {"-x": "y"}, "uid": "nope"}));
    edit(&|v| {
        v["spec"].as_object_mut().map(|o| o.remove("image"));
    });
    edit(&|v| v["spec"] = json!(null));
    edit(&|v| v["spec"]["ports"] = json!("not a list"));
    out
}

fn run(c: &kdv_rules::Compiled, op: &Operation, new: &Value, old: Option<&Value>) -> String {
    let ty = c.rules.find_type("Widget").expect("Widget is compiled");
    format!("{:#?}", kdv_eval::validate(&c.rules, ty, op, new, old))
}

#[test]
fn widget_validation_matches_go() {
    let go = go_rules();
    let rust = rust_rules();
    let alpha = Operation::create().with_option("1.36", true);
    let mut nonempty = 0;
    for op in [Operation::create(), alpha] {
        for v in std::iter::once(valid()).chain(invalid()) {
            let g = run(&go, &op, &v, None);
            assert_eq!(g, run(&rust, &op, &v, None), "{v}");
            nonempty += usize::from(g != "[]");
        }
    }
    assert!(nonempty >= 15, "the cases exercise the rules ({nonempty})");
    // Updates: immutable, NoRemoveItem, NoUnset, ratcheting of unchanged invalid values.
    let old = valid();
    for new in invalid().into_iter().chain([{
        let mut v = valid();
        v["spec"]["storageClass"] = json!("slow");
        v["spec"]["zones"] = json!(["a"]);
        v["spec"]["owner"] = json!("");
        v["metadata"]["uid"] = json!("00000000-0000-0000-0000-000000000000");
        v
    }]) {
        let g = run(&go, &Operation::update(), &new, Some(&old));
        assert_eq!(
            g,
            run(&rust, &Operation::update(), &new, Some(&old)),
            "{new}"
        );
        let g = run(&go, &Operation::update(), &new, Some(&new));
        assert_eq!(
            g,
            run(&rust, &Operation::update(), &new, Some(&new)),
            "{new}"
        );
    }
}
