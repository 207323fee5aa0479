//! The one-call API: compile an expression the way Kubernetes compiles a validation rule —
//! parse, type-check, estimate its static cost and plan it — once, then evaluate it many
//! times, from any number of threads.
//!
//! ```
//! use kdv_cel::{CompiledExpression, cost::NoSizeEstimates};
//! use kdv_cel::interp::{EvalConfig, ProgramOptions, Vars};
//! use kdv_cel::k8s;
//! use kdv_cel::types::Type;
//! use kdv_cel::value::Value;
//!
//! let mut env = k8s::env();
//! env.add_variable("self", Type::Dyn);
//! let rule = CompiledExpression::compile(
//!     &env,
//!     "quantity(self.memory).isLessThan(quantity('1Gi'))",
//!     &NoSizeEstimates,
//!     &k8s::program_options(),
//! )
//! .unwrap();
//! assert!(rule.estimated_cost().max > 0);
//!
//! let doc = serde_json::json!({"memory": "512Mi"});
//! let vars = Vars::new().with("self", Value::from_json(&doc));
//! let config = EvalConfig { cost_limit: Some(1_000_000), ..EvalConfig::default() };
//! let (value, cost) = rule.eval(&vars, &config).unwrap();
//! assert!(matches!(value, Value::Bool(true)));
//! assert!(cost <= rule.estimated_cost().max);
//! ```

use std::fmt;

use crate::checker::{self, Env};
use crate::cost::{self, CostError, CostEstimate, CostOptions, SizeEstimator};
use crate::interp::{Activation, EvalConfig, PlanError, Program, ProgramOptions};
use crate::parser::Issues;
use crate::types::Type;
use crate::value::{EvalError, Value};

/// A parsed, type-checked, cost-estimated and planned expression. `Send + Sync`: share it
/// (e.g. in an `Arc`) across threads and evaluate concurrently.
#[derive(Debug)]
pub struct CompiledExpression {
    program: Program,
    result_type: Type,
    estimated_cost: CostEstimate,
}

/// Why an expression does not compile.
#[derive(Debug)]
pub enum CompileError {
    /// Syntax or type errors, rendered as cel-go renders them (`ERROR: <input>:1:3: ...`).
    Invalid(Issues),
    /// The static cost could not be estimated (Kubernetes reports
    /// `cost estimation failed: ...`).
    CostEstimation(CostError),
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::Invalid(issues) => issues.fmt(f),
            CompileError::CostEstimation(e) => write!(f, "cost estimation failed: {e}"),
        }
    }
}

impl std::error::Error for CompileError {}

impl CompiledExpression {
    /// Compiles `source` against `env` with Kubernetes' parser options and cost model; sizes
    /// of variables and fields come from `sizes` (e.g. a CRD schema's `maxLength`/`maxItems`;
    /// [`cost::NoSizeEstimates`] when unknown).
    pub fn compile(
        env: &Env,
        source: &str,
        sizes: &dyn SizeEstimator,
        options: &ProgramOptions,
    ) -> Result<CompiledExpression, CompileError> {
        Self::compile_with(env, source, sizes, options, &CostOptions::kubernetes())
    }

    /// [`CompiledExpression::compile`] with the static cost estimated under `costs` (e.g.
    /// [`CostOptions::kubernetes_for`] a release).
    pub fn compile_with(
        env: &Env,
        source: &str,
        sizes: &dyn SizeEstimator,
        options: &ProgramOptions,
        costs: &CostOptions,
    ) -> Result<CompiledExpression, CompileError> {
        let checked = checker::compile(source, env).map_err(CompileError::Invalid)?;
        let estimated_cost =
            cost::estimate_cost(&checked, sizes, costs).map_err(CompileError::CostEstimation)?;
        Ok(CompiledExpression {
            program: Program::from_checked(&checked, options),
            result_type: checked.result_type,
            estimated_cost,
        })
    }

    /// The static cost estimate (cel-go `checker.Cost` with Kubernetes' options). Kubernetes
    /// rejects a rule whose `max` times its cardinality exceeds
    /// [`cost::STATIC_ESTIMATED_COST_LIMIT`].
    pub fn estimated_cost(&self) -> CostEstimate {
        self.estimated_cost
    }

    /// The checked type of the whole expression.
    pub fn result_type(&self) -> &Type {
        &self.result_type
    }

    /// Problems cel-go reports at program creation (`program instantiation failed`), such as
    /// an invalid constant pattern of `find`; the program still runs and fails where it
    /// reaches them.
    pub fn plan_errors(&self) -> &[PlanError] {
        self.program.plan_errors()
    }

    /// The planned program.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Evaluates against `activation`: the value and the runtime cost (Kubernetes' cost
    /// model), or the error (`operation cancelled: actual cost limit exceeded` past
    /// `config.cost_limit`).
    pub fn eval<'a>(
        &'a self,
        activation: &dyn Activation<'a>,
        config: &EvalConfig<'_>,
    ) -> Result<(Value<'a>, u64), EvalError> {
        self.program.eval(activation, config)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::cost::NoSizeEstimates;
    use crate::interp::Vars;
    use crate::k8s;

    fn env() -> Env {
        let mut env = k8s::env();
        env.add_variable("self", Type::Dyn);
        env
    }

    #[test]
    fn is_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<CompiledExpression>();
    }

    #[test]
    fn compiles_estimates_and_evaluates_from_threads() {
        let rule = Arc::new(
            CompiledExpression::compile(
                &env(),
                "self.items.filter(e, e.name == 'x').size() == 1",
                &NoSizeEstimates,
                &k8s::program_options(),
            )
            .unwrap(),
        );
        assert_eq!(rule.result_type(), &Type::Bool);
        let handles: Vec<_> = (0..4)
            .map(|i| {
                let rule = Arc::clone(&rule);
                std::thread::spawn(move || {
                    let doc =
                        serde_json::json!({"items": [{"name": "x"}, {"name": format!("{i}")}]});
                    let vars = Vars::new().with("self", Value::from_json(&doc));
                    let (v, cost) = rule.eval(&vars, &EvalConfig::default()).unwrap();
                    assert!(matches!(v, Value::Bool(true)));
                    cost
                })
            })
            .collect();
        for h in handles {
            let cost = h.join().unwrap();
            assert!(cost > 0 && cost <= rule.estimated_cost().max);
        }
    }

    #[test]
    fn errors_render_like_cel_go() {
        let err = CompiledExpression::compile(
            &env(),
            "self.x + ",
            &NoSizeEstimates,
            &k8s::program_options(),
        )
        .unwrap_err();
        assert!(matches!(err, CompileError::Invalid(_)));
        assert!(
            err.to_string().starts_with("ERROR: <input>:1:10: "),
            "{err}"
        );
    }
}
