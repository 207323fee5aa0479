//! Time budget of the estimator on typical rules: a few hundred nanoseconds each, next to
//! microseconds for parsing and checking. Timed only in optimised builds (`cargo test
//! --release`); unoptimised builds just run it.

use std::time::Instant;

use super::schema::*;
use crate::cost::{CostOptions, estimate_cost};

/// The benchmark rules with the schemas they are attached to.
fn rules() -> Vec<(Schema, &'static str)> {
    vec![
        (
            object(&[
                ("minReplicas", Schema::Int),
                ("replicas", Schema::Int),
                ("maxReplicas", Schema::Int),
            ]),
            "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas",
        ),
        (list(string()), "self.all(x, x.startsWith('a'))"),
        (string(), "self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')"),
        (
            object(&[("stateCounts", map(Schema::Int))]),
            "'Available' in self.stateCounts",
        ),
        (
            object(&[("items", list(object(&[("name", string())])))]),
            "self.items.filter(e, e.name == 'x').size() == 1",
        ),
    ]
}

/// Best per-iteration time of `f` in seconds over a few rounds.
fn best_of(n: u32, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        for _ in 0..n {
            f();
        }
        best = best.min(start.elapsed().as_secs_f64() / f64::from(n));
    }
    best
}

#[test]
fn estimates_quickly() {
    let n = if cfg!(debug_assertions) { 20 } else { 20_000 };
    let options = CostOptions::kubernetes();
    let mut total_compile = 0.0;
    for (schema, rule) in rules() {
        let env = RuleEnv::new(&schema);
        let checked = env.compile(rule).expect("compiles");
        let estimate = best_of(n, || {
            std::hint::black_box(estimate_cost(&checked, &env.sizes, &options).unwrap());
        });
        let compile = best_of(n, || {
            let checked = env.compile(rule).unwrap();
            std::hint::black_box(estimate_cost(&checked, &env.sizes, &options).unwrap());
        });
        total_compile += compile;
        println!(
            "{rule}: estimate {:.0} ns, parse + check + estimate {:.2} µs",
            estimate * 1e9,
            compile * 1e6
        );
        if !cfg!(debug_assertions) {
            assert!(
                estimate < 3e-6,
                "{rule}: estimate took {:.0} ns",
                estimate * 1e9
            );
        }
    }
    // Parse + check (with the regex literal validator) dominates; it is the checker's budget.
    println!(
        "all five: parse + check + estimate {:.2} µs",
        total_compile * 1e6
    );
}
