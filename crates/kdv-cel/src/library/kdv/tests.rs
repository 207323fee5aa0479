//! Test support: expressions compiled and run in the type-rule environment (kdv's libraries
//! included), and compiled in the CRD environment (where they must not exist).

use crate::interp::{EvalConfig, Program};
use crate::k8s::{self, EnvType, NEWEST_MINOR};

/// Compiles and evaluates `src` in the type-rule environment: the rendered value and the
/// runtime cost, or the error.
pub(crate) fn eval_cost(src: &str) -> Result<(String, u64), String> {
    let env = k8s::type_rule_env(NEWEST_MINOR, EnvType::StoredExpressions);
    let p = Program::compile(&env, src, &k8s::type_rule_program_options())
        .unwrap_or_else(|e| panic!("compile {src}: {e}"));
    if let Some(e) = p.plan_errors().first() {
        return Err(format!("plan: {e:?}"));
    }
    p.eval(&(), &EvalConfig::default())
        .map(|(v, c)| (v.to_string(), c))
        .map_err(|e| e.message.to_string())
}

/// The error of `src`.
pub(crate) fn err(src: &str) -> String {
    match eval_cost(src) {
        Ok((v, _)) => panic!("{src}: expected an error, got {v}"),
        Err(e) => e,
    }
}

/// Asserts that `src` evaluates to `true`.
pub(crate) fn is_true(src: &str) {
    assert_eq!(eval_cost(src).map(|(v, _)| v), Ok("true".into()), "{src}");
}

/// The compile error of `src` in every CRD environment (both types, every release).
pub(crate) fn compile_err_crd(src: &str) -> String {
    let mut last = String::new();
    for minor in k8s::OLDEST_MINOR..=NEWEST_MINOR {
        for t in [EnvType::NewExpressions, EnvType::StoredExpressions] {
            match Program::compile(&k8s::env_for(minor, t), src, &k8s::program_options()) {
                Ok(_) => panic!("{src}: compiled in the CRD environment of 1.{minor}"),
                Err(e) => last = e.to_string(),
            }
        }
    }
    last
}
