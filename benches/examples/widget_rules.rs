//! The Widget CRD's five CEL rules, evaluated rule by rule over a directory of Widget
//! manifests by kdv-cel and by the kube-cel crate, in one process, for the per-rule ratio
//! of issue 11's throughput measurement:
//!
//! ```sh
//! OUT_DIR=/tmp/wl python3 testdata/cli-workload/gen_manifests.py
//! cargo run --release -p kdv-benches --example widget_rules -- \
//!     testdata/cli-workload/crds/widget-crd.yaml /tmp/wl/widget
//! ```
//!
//! Each rule is compiled once by each engine, as each engine's users do: kdv with the typed
//! environment of the rule's schema node (as `kdv validate --crd` compiles it), kube-cel with
//! `compile_schema` on the node's schema holding only that rule. Both then evaluate it on
//! the node's value of every Widget that has the node (kube-cel through its `Validator`,
//! which also applies the schema's defaults first, as its users get it). The verdicts of
//! both engines are compared; a disagreement is printed and makes the exit code 1.
//! `--kdv-only` times kdv alone (for profilers). `--first N` keeps the first N Widgets: with
//! 10,000 distinct documents each evaluation waits on memory (the documents do not fit in the
//! caches, as in a real run over many files); with 100 it measures the engines' own work.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use kdv_cel::CompiledExpression;
use kdv_cel::interp::{Activation, EvalConfig};
use kdv_cel::value::Value;
use kdv_openapi::Resource;
use kdv_openapi::cel::{RuleTypes, schema_decl_type};
use serde_json::Value as Json;

/// Kubernetes' per-call runtime cost limit (`PerCallLimit`).
const PER_CALL_LIMIT: u64 = 1_000_000;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("usage: widget_rules CRD.yaml WIDGET_DIR [--kdv-only] [--first N]");
        std::process::exit(2)
    };
    let [crd_path, dir, flags @ ..] = args.as_slice() else {
        usage()
    };
    let mut kdv_only = false;
    let mut first = usize::MAX;
    let mut flags = flags.iter();
    while let Some(flag) = flags.next() {
        match flag.as_str() {
            "--kdv-only" => kdv_only = true,
            "--first" => {
                first = flags
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| usage())
            }
            _ => usage(),
        }
    }
    let crd = read_yaml(Path::new(crd_path))
        .pop()
        .unwrap_or_else(|| fail("the CRD file holds no document"));
    let version = &crd["spec"]["versions"][0];
    let schema = &version["schema"]["openAPIV3Schema"];
    let mut widgets = read_dir(Path::new(dir));
    widgets.truncate(first);
    eprintln!("{} Widgets from {dir}", widgets.len());

    // The resource is built without its rules, only for the schema arena (typed self).
    let stripped = strip_rules(schema);
    let resource = Resource::from_crd_schema("anchor.example.com", "v1", "Widget", &stripped, 35)
        .unwrap_or_else(|e| fail(&format!("the Widget schema does not load: {e:?}")));
    let (arena, root) = resource.schema();

    let mut disagreements = 0usize;
    println!(
        "{:<52} {:>7} {:>10} {:>10} {:>7}",
        "rule", "evals", "kdv ns", "kube-cel", "ratio"
    );
    for (path, index) in [
        (&["spec"][..], 0usize),
        (&["spec"][..], 1),
        (&["spec", "endpoint"][..], 0),
        (&["spec", "tags"][..], 0),
        (&["spec", "resources"][..], 0),
    ] {
        let mut node_schema = schema;
        let mut node = root;
        for seg in path {
            node_schema = &node_schema["properties"][*seg];
            node = arena
                .node(node)
                .property(seg)
                .unwrap_or_else(|| fail(&format!("the schema has no property {seg}")));
        }
        let rule = &node_schema["x-kubernetes-validations"][index];
        let source = rule["rule"]
            .as_str()
            .unwrap_or_else(|| fail("a rule without `rule`"));
        let values: Vec<&Json> = widgets
            .iter()
            .filter_map(|w| path.iter().try_fold(w, |v, seg| v.get(*seg)))
            .collect();

        // kdv: typed self, compiled once.
        let decl = schema_decl_type(arena, node, false)
            .unwrap_or_else(|| fail("the node has no CEL type"));
        let types = RuleTypes::new(decl, "selfType0");
        let env = types.env(&kdv_cel::k8s::env(), false);
        let program = CompiledExpression::compile(
            &env,
            source,
            &types.sizes(),
            &kdv_cel::k8s::program_options(),
        )
        .unwrap_or_else(|e| fail(&format!("kdv does not compile {source}: {e}")));
        let config = EvalConfig {
            cost_limit: Some(PER_CALL_LIMIT),
            interrupt: None,
        };
        let kdv_verdict = |v: &Json| {
            let vars = SelfOnly(v);
            matches!(program.eval(&vars, &config), Ok((Value::Bool(true), _)))
        };

        // kube-cel: the node's schema holding only this rule.
        let mut single = strip_rules(node_schema);
        if let Json::Object(m) = &mut single {
            m.insert(
                "x-kubernetes-validations".into(),
                Json::Array(vec![rule.clone()]),
            );
        }
        let compiled = kube_cel::compile_schema(&single);
        if compiled.has_errors() {
            fail(&format!("kube-cel does not compile {source}"));
        }
        let validator = kube_cel::Validator::new();
        let kube_verdict = |v: &Json| validator.validate_compiled(&compiled, v, None).is_ok();

        let kdv = time_per_eval(&values, |v| kdv_verdict(v));
        if kdv_only {
            println!("{:<52} {:>7} {:>10.1}", clip(source, 52), values.len(), kdv);
            continue;
        }
        for v in &values {
            let (a, b) = (kdv_verdict(v), kube_verdict(v));
            if a != b {
                disagreements += 1;
                println!("  disagreement on {source}: kdv {a}, kube-cel {b}: {v}");
            }
        }
        let kube = time_per_eval(&values, |v| kube_verdict(v));
        println!(
            "{:<52} {:>7} {:>10.1} {:>10.1} {:>6.1}x",
            clip(source, 52),
            values.len(),
            kdv,
            kube,
            kube / kdv
        );
    }
    if disagreements > 0 {
        std::process::exit(1);
    }
}

/// The activation of a rule without `oldSelf`: `self` borrowed from the document.
struct SelfOnly<'a>(&'a Json);

impl<'a> Activation<'a> for SelfOnly<'a> {
    fn resolve(&self, name: &str) -> Option<Value<'a>> {
        (name == "self").then(|| Value::from_json(self.0))
    }
}

/// Nanoseconds per evaluation: passes over `values` until half a second has gone by, the
/// best of three such runs.
fn time_per_eval(values: &[&Json], f: impl Fn(&Json) -> bool) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let start = Instant::now();
        let mut evals = 0u64;
        while start.elapsed() < Duration::from_millis(500) {
            for v in values {
                black_box(f(black_box(v)));
            }
            evals += values.len() as u64;
        }
        best = best.min(start.elapsed().as_nanos() as f64 / evals.max(1) as f64);
    }
    best
}

/// The schema without any `x-kubernetes-validations`.
fn strip_rules(schema: &Json) -> Json {
    match schema {
        Json::Object(m) => Json::Object(
            m.iter()
                .filter(|(k, _)| k.as_str() != "x-kubernetes-validations")
                .map(|(k, v)| (k.clone(), strip_rules(v)))
                .collect(),
        ),
        Json::Array(a) => Json::Array(a.iter().map(strip_rules).collect()),
        other => other.clone(),
    }
}

fn read_dir(dir: &Path) -> Vec<Json> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| fail(&format!("{}: {e}", dir.display())))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    files.iter().flat_map(|p| read_yaml(p)).collect()
}

fn read_yaml(path: &Path) -> Vec<Json> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
    kdv_manifest::documents(
        &bytes,
        kdv_manifest::Syntax::Yaml,
        kdv_manifest::Limits::default(),
    )
    .filter_map(|d| match d {
        Ok(kdv_manifest::Entry::Document(d)) => Some(d.value),
        Ok(_) => None,
        Err(e) => fail(&format!("{}: {e:?}", path.display())),
    })
    .collect()
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let head: String = s.chars().take(n - 1).collect();
        format!("{head}…")
    }
}

fn fail(message: &str) -> ! {
    eprintln!("widget_rules: {message}");
    std::process::exit(2)
}
