//! CEL benchmarks: kdv-cel next to the Rust peers (`cel` 0.15 and `kube-cel` 0.8) on the
//! rules and data of the performance anchors (§2 and §3), named
//! `cel_eval/<rule>/<engine>` and `cel_compile/<rule>/<engine>` so one run puts the engines
//! side by side (the machine is noisy; compare ratios within a run).
//!
//! What each engine does inside the timed loop of `cel_eval` (everything else is set up once):
//! - `kdv`: `CompiledExpression::eval` of a rule compiled in the Kubernetes environment
//!   (`k8s::env()` with `self: dyn`, `k8s::program_options()`: `ProgramOptions::kubernetes()`
//!   with the Kubernetes libraries), with Kubernetes' runtime settings: cost tracking with
//!   the per-call limit 1,000,000 and an interrupt flag. `self` borrows the JSON document
//!   parsed once; the activation (`Vars`) is built once.
//! - `cel`: `Program::execute` against a `Context` built once with `self` bound to the
//!   document converted once to `cel::Value` (the crate's cheapest documented way; it has no
//!   cost tracking).
//! - `kube-cel`: `Validator::validate_compiled` of a schema compiled once (the rule at the
//!   root of a small structural schema of the data): its documented entry point, which applies
//!   defaults, converts the JSON to CEL values and evaluates the rule on every call.
//!
//! `cel_compile`: `kdv` = `CompiledExpression::compile`: parse + check + static cost estimate
//! (Kubernetes options, no size estimates) + plan, with the environment and options built
//! once, so what kdv remembers across compiles (checker resolutions and pattern verdicts per
//! environment, compiled constant patterns per process) is warm, as when many rules or many
//! copies of a CRD are compiled. `kdv-cold` compiles each time in a new environment with no
//! compiled patterns kept (the environment is built, and its name indexes completed by
//! compiling `int(self)`, outside the timing): the first compile of a rule in a process.
//! `cel` = `Env::compile` (parse and macro expansion); `kube-cel` = `compile_schema` of the
//! same small schema.
//!
//! Every engine's result is checked to be `true` (valid) before timing, so no error path is
//! measured. Allocations per operation are printed to stderr.

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use kdv_benches::{CountingAllocator, allocations_per_call};
use kdv_cel::CompiledExpression;
use kdv_cel::checker::Env;
use kdv_cel::cost::NoSizeEstimates;
use kdv_cel::interp::{EvalConfig, ProgramOptions, Vars, clear_shared_patterns};
use kdv_cel::k8s;
use kdv_cel::types::Type;
use kdv_cel::value::Value;
use serde_json::{Value as Json, json};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Kubernetes' per-call cost limit (`PerCallLimit`).
const COST_LIMIT: u64 = 1_000_000;

/// Runs used to average allocation counts.
const ALLOC_RUNS: u64 = 200;

/// One rule of anchors §2: its source, the `self` document, and the structural schema
/// kube-cel walks (the rule sits at the schema's root).
struct Rule {
    name: &'static str,
    source: &'static str,
    data: Json,
    schema: Json,
}

fn rules() -> Vec<Rule> {
    let strings: Vec<Json> = (0..100).map(|i| json!(format!("a-item-{i}"))).collect();
    let items: Vec<Json> = (0..100)
        .map(|i| {
            let name = if i == 50 {
                "x".to_string()
            } else {
                format!("item-{i}")
            };
            json!({ "name": name, "value": i })
        })
        .collect();
    let validations = |rule: &str| json!([{ "rule": rule }]);
    let int = json!({ "type": "integer" });
    let string = json!({ "type": "string" });
    let mut out = vec![
        Rule {
            name: "Replicas",
            source: "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas",
            data: json!({ "minReplicas": 1, "replicas": 3, "maxReplicas": 10 }),
            schema: json!({
                "type": "object",
                "properties": { "minReplicas": int, "replicas": int, "maxReplicas": int },
            }),
        },
        Rule {
            name: "AllStartsWith100",
            source: "self.all(x, x.startsWith('a'))",
            data: Json::Array(strings),
            schema: json!({ "type": "array", "items": string }),
        },
        Rule {
            name: "MatchesDNSLabel",
            source: "self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",
            data: json!("my-service-name-123"),
            schema: string.clone(),
        },
        Rule {
            name: "InMapKey",
            source: "'Available' in self.stateCounts",
            data: json!({ "stateCounts": { "Available": 3, "Progressing": 1, "Degraded": 0 } }),
            schema: json!({
                "type": "object",
                "properties": {
                    "stateCounts": { "type": "object", "additionalProperties": int },
                },
            }),
        },
        Rule {
            name: "FilterSize100",
            source: "self.items.filter(e, e.name == 'x').size() == 1",
            data: json!({ "items": items }),
            schema: json!({
                "type": "object",
                "properties": {
                    "items": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": { "name": string, "value": int },
                        },
                    },
                },
            }),
        },
    ];
    for r in &mut out {
        let Json::Object(schema) = &mut r.schema else {
            unreachable!("every schema above is an object")
        };
        schema.insert("x-kubernetes-validations".into(), validations(r.source));
    }
    out
}

/// The Kubernetes environment with `self: dyn`, and Kubernetes' program options.
fn kdv_setup() -> (Env, ProgramOptions) {
    let mut env = k8s::env();
    env.add_variable("self", Type::Dyn);
    (env, k8s::program_options())
}

/// Parse, check, static cost estimate and plan, as Kubernetes compiles a rule.
fn kdv_compile(env: &Env, source: &str, options: &ProgramOptions) -> CompiledExpression {
    CompiledExpression::compile(env, source, &NoSizeEstimates, options)
        .unwrap_or_else(|e| panic!("kdv compile {source}: {e}"))
}

fn report_allocs(name: &str, f: impl FnMut()) {
    let allocs = allocations_per_call(ALLOC_RUNS, f);
    eprintln!("allocs/op {name:<40} {allocs:>8.1}");
}

fn cel_eval(c: &mut Criterion) {
    let (env, options) = kdv_setup();
    let interrupt = AtomicBool::new(false);
    let config = EvalConfig {
        cost_limit: Some(COST_LIMIT),
        interrupt: Some(&interrupt),
    };
    let cel_env = Arc::new(cel::Env::stdlib());
    let validator = kube_cel::Validator::new();
    for rule in rules() {
        let mut group = c.benchmark_group(format!("cel_eval/{}", rule.name));

        let program = kdv_compile(&env, rule.source, &options);
        assert!(program.plan_errors().is_empty(), "{}", rule.name);
        let vars = Vars::new().with("self", Value::from_json(&rule.data));
        let run = || program.eval(&vars, &config);
        match run() {
            Ok((Value::Bool(true), _)) => {}
            other => panic!("kdv {}: {other:?}", rule.name),
        }
        report_allocs(&format!("cel_eval/{}/kdv", rule.name), || {
            let _ = black_box(run());
        });
        group.bench_function("kdv", |b| b.iter(|| black_box(run())));

        let cel_program = cel_env
            .compile(rule.source)
            .unwrap_or_else(|e| panic!("cel compile {}: {e}", rule.name));
        let mut context = cel::Context::with_env(cel_env.clone());
        let data = cel::to_value(&rule.data).expect("JSON converts to cel values");
        context.add_variable_from_value("self", data);
        let run = || cel_program.execute(&context);
        assert_eq!(run(), Ok(cel::Value::Bool(true)), "cel {}", rule.name);
        report_allocs(&format!("cel_eval/{}/cel", rule.name), || {
            let _ = black_box(run());
        });
        group.bench_function("cel", |b| b.iter(|| black_box(run())));

        let compiled = kube_cel::compile_schema(&rule.schema);
        assert!(!compiled.has_errors(), "kube-cel compile {}", rule.name);
        let run = || validator.validate_compiled(&compiled, &rule.data, None);
        if let Err(e) = run() {
            panic!("kube-cel {}: {:?}", rule.name, e.as_slice());
        }
        report_allocs(&format!("cel_eval/{}/kube-cel", rule.name), || {
            let _ = black_box(run());
        });
        group.bench_function("kube-cel", |b| b.iter(|| black_box(run())));

        group.finish();
    }
}

fn cel_compile(c: &mut Criterion) {
    let (env, options) = kdv_setup();
    let cel_env = Arc::new(cel::Env::stdlib());
    for rule in rules() {
        let mut group = c.benchmark_group(format!("cel_compile/{}", rule.name));

        let compile = || kdv_compile(&env, black_box(rule.source), &options);
        report_allocs(&format!("cel_compile/{}/kdv", rule.name), || {
            let _ = black_box(compile());
        });
        group.bench_function("kdv", |b| b.iter(|| black_box(compile())));
        group.bench_function("kdv-cold", |b| {
            b.iter_batched_ref(
                || {
                    clear_shared_patterns();
                    let (env, _) = kdv_setup();
                    // Completes the environment (its name indexes are built on first use)
                    // with a call none of the rules makes.
                    kdv_compile(&env, "int(self)", &options);
                    env
                },
                |env| black_box(kdv_compile(env, black_box(rule.source), &options)),
                BatchSize::PerIteration,
            )
        });

        let compile = || cel_env.compile(black_box(rule.source));
        assert!(compile().is_ok(), "cel compile {}", rule.name);
        report_allocs(&format!("cel_compile/{}/cel", rule.name), || {
            let _ = black_box(compile());
        });
        group.bench_function("cel", |b| b.iter(|| black_box(compile())));

        let compile = || kube_cel::compile_schema(black_box(&rule.schema));
        assert!(!compile().has_errors(), "kube-cel compile {}", rule.name);
        report_allocs(&format!("cel_compile/{}/kube-cel", rule.name), || {
            let _ = black_box(compile());
        });
        group.bench_function("kube-cel", |b| b.iter(|| black_box(compile())));

        group.finish();
    }
}

criterion_group!(benches, cel_eval, cel_compile);
criterion_main!(benches);
