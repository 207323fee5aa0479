//! Fuzzes CEL evaluation of type-checked programs the way Kubernetes runs CRD rules: the input
//! is split at its first NUL into an expression and a JSON document bound to `self` (and to
//! `oldSelf`); the expression is compiled in the Kubernetes environment with every Kubernetes
//! library, its static cost is estimated (unknown sizes), then it is evaluated with the
//! per-call cost limit. Evaluation must never panic, must
//! stop within the cost limit (libFuzzer's `-timeout` catches hangs, `-rss_limit_mb` runaway
//! memory), must be deterministic, and a result must render. The same checked program planned
//! without optimisation (no constant folding) must produce the same value or error text.
#![no_main]

use std::sync::Arc;
use std::sync::OnceLock;

use kdv_cel::checker::{self, Env};
use kdv_cel::cost::{self, CostOptions, NoSizeEstimates};
use kdv_cel::interp::{EvalConfig, Program, ProgramOptions, Vars};
use kdv_cel::k8s;
use kdv_cel::types::Type;
use kdv_cel::value::Value;
use libfuzzer_sys::fuzz_target;

/// Kubernetes' `PerCallLimit`.
const PER_CALL_LIMIT: u64 = 1_000_000;

fn setup() -> &'static (Env, ProgramOptions, ProgramOptions) {
    static SETUP: OnceLock<(Env, ProgramOptions, ProgramOptions)> = OnceLock::new();
    SETUP.get_or_init(|| {
        let mut env = k8s::env();
        env.add_variable("self", Type::Dyn);
        env.add_variable("oldSelf", Type::Dyn);
        let mut options = ProgramOptions::kubernetes();
        options.registry = Arc::new(k8s::registry());
        let mut unoptimized = options.clone();
        unoptimized.optimize = false;
        (env, options, unoptimized)
    })
}

fuzz_target!(|data: &[u8]| {
    let (expr, doc) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &b"{\"a\": [1, \"x\", {\"b\": null}], \"n\": 3, \"s\": \"abc\"}"[..]),
    };
    let Ok(text) = std::str::from_utf8(expr) else {
        return;
    };
    let Ok(json) = serde_json::from_slice::<serde_json::Value>(doc) else {
        return;
    };
    let (env, options, unoptimized) = setup();
    let checked = match checker::compile(text, env) {
        Ok(c) => c,
        Err(issues) => {
            let _ = issues.to_string();
            return;
        }
    };
    if let Ok(estimate) =
        cost::estimate_cost(&checked, &NoSizeEstimates, &CostOptions::kubernetes())
    {
        assert!(estimate.min <= estimate.max, "{estimate:?} for {text:?}");
    }
    let program = Program::from_checked(&checked, options);
    let plain = Program::from_checked(&checked, unoptimized);
    if !program.plan_errors().is_empty() {
        return;
    }
    let vars = Vars::new()
        .with("self", Value::from_json(&json))
        .with("oldSelf", Value::from_json(&json));
    let config = EvalConfig {
        cost_limit: Some(PER_CALL_LIMIT),
        ..EvalConfig::default()
    };
    let first = program.eval(&vars, &config);
    let second = program.eval(&vars, &config);
    match (&first, &second) {
        (Ok((a, ca)), Ok((b, cb))) => {
            assert_eq!(ca, cb, "cost differs between runs of {text:?}");
            assert!(*ca <= PER_CALL_LIMIT, "cost {ca} above the limit for {text:?}");
            assert_eq!(a.to_string(), b.to_string(), "result differs for {text:?}");
        }
        (Err(a), Err(b)) => assert_eq!(a.message, b.message, "error differs for {text:?}"),
        _ => panic!("{text:?}: one run failed, the other did not: {first:?} / {second:?}"),
    }
    if !plain.plan_errors().is_empty() {
        return;
    }
    // Folding changes costs: compare under a looser limit and skip runs either one aborted.
    let loose = EvalConfig {
        cost_limit: Some(10 * PER_CALL_LIMIT),
        ..EvalConfig::default()
    };
    let folded = program.eval(&vars, &loose);
    let unfolded = plain.eval(&vars, &loose);
    if matches!(&folded, Err(e) if e.abort) || matches!(&unfolded, Err(e) if e.abort) {
        return;
    }
    match (&folded, &unfolded) {
        (Ok((a, _)), Ok((b, _))) => {
            assert_eq!(a.to_string(), b.to_string(), "optimised result differs for {text:?}")
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.message, b.message, "optimised error differs for {text:?}")
        }
        _ => panic!("{text:?}: optimised {folded:?} vs unoptimised {unfolded:?}"),
    }
});
