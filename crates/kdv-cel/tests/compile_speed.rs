//! Compile-time budget: parse + check of a typical Kubernetes rule stays far under 20 µs.
//! Timed only in optimised builds (`cargo test --release`); unoptimised builds just run it.

use std::sync::Arc;
use std::time::Instant;

use kdv_cel::checker::{self, Env, TypeProvider};
use kdv_cel::types::Type;

struct Scale;

impl TypeProvider for Scale {
    fn has_type(&self, name: &str) -> bool {
        name == "Scale"
    }

    fn field_type(&self, type_name: &str, field: &str) -> Option<Type> {
        match (type_name, field) {
            ("Scale", "minReplicas" | "replicas" | "maxReplicas") => Some(Type::Int),
            _ => None,
        }
    }
}

#[test]
fn parse_and_check_a_rule_quickly() {
    let mut env = Env::kubernetes();
    env.set_provider(Arc::new(Scale));
    env.add_variable("self", Type::Object(Arc::from("Scale")));
    let rule = "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas";
    let n = std::env::var("KDV_CEL_SPEED_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 100 } else { 20_000 });
    let mut best = f64::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        for _ in 0..n {
            let checked = checker::compile(rule, &env).expect("compiles");
            assert_eq!(checked.result_type, Type::Bool);
        }
        best = best.min(start.elapsed().as_secs_f64() / n as f64);
    }
    println!("parse + check: {:.2} µs", best * 1e6);
    if !cfg!(debug_assertions) {
        assert!(best < 20e-6, "parse + check took {:.2} µs", best * 1e6);
    }
}
