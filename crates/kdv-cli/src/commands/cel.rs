//! `kdv cel`: compile and evaluate one CEL expression the way the API server runs a CRD
//! validation rule — Kubernetes' environment and libraries, `self` (and `oldSelf`) bound to a
//! YAML/JSON document, the per-call runtime cost limit — and report the value, the runtime
//! cost and the static cost estimate.

use std::io::Write;
use std::sync::Arc;

use kdv_cel::cost::{self, CostOptions, NoSizeEstimates};
use kdv_cel::interp::{EvalConfig, Program, ProgramOptions, Vars};
use kdv_cel::stdlib::k8s;
use kdv_cel::types::Type;
use kdv_cel::value::Value;
use serde_json::json;

use crate::cli::{CelArgs, OutputFormat};
use crate::error::CliError;
use crate::input::{Source, parse};

/// Kubernetes' `StaticEstimatedCostLimit`: the most a rule may be estimated to cost when a
/// CRD is written (times its cardinality).
const STATIC_ESTIMATED_COST_LIMIT: u64 = 10_000_000;

/// Runs `kdv cel`. Exit status: 0 the expression evaluated to `true` (or to a non-boolean
/// value), 1 it evaluated to `false` or failed at run time (the rule would reject the object),
/// 2 it does not compile or an input cannot be read.
pub fn run(args: &CelArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8, CliError> {
    let self_doc = match args.self_file.as_deref().map(read_document).transpose() {
        Ok(d) => d,
        Err(message) => {
            writeln!(err, "error: {message}")?;
            return Ok(2);
        }
    };
    let old_doc = match args.old_self.as_deref().map(read_document).transpose() {
        Ok(d) => d,
        Err(message) => {
            writeln!(err, "error: {message}")?;
            return Ok(2);
        }
    };

    let mut env = k8s::env();
    env.add_variable("self", Type::Dyn);
    env.add_variable("oldSelf", Type::Dyn);
    let checked = match kdv_cel::checker::compile(&args.expression, &env) {
        Ok(c) => c,
        Err(issues) => {
            writeln!(err, "{issues}")?;
            return Ok(2);
        }
    };
    let estimate = cost::estimate_cost(&checked, &NoSizeEstimates, &CostOptions::kubernetes());
    let mut options = ProgramOptions::kubernetes();
    options.registry = Arc::new(k8s::registry());
    let program = Program::from_checked(&checked, &options);
    if let Some(e) = program.plan_errors().first() {
        writeln!(err, "program instantiation failed: {}", e.message)?;
        return Ok(2);
    }

    let mut vars = Vars::new();
    if let Some(doc) = &self_doc {
        vars.insert("self", Value::from_json(doc));
    }
    if let Some(doc) = &old_doc {
        vars.insert("oldSelf", Value::from_json(doc));
    }
    let config = EvalConfig {
        cost_limit: Some(args.cost_limit),
        ..EvalConfig::default()
    };
    let outcome = program.eval(&vars, &config);

    let estimated = estimate.as_ref().ok().map(|e| (e.min, e.max));
    let code = match &outcome {
        Ok((Value::Bool(false), _)) | Err(_) => 1,
        Ok(_) => 0,
    };
    match args.output {
        OutputFormat::Text => {
            match &outcome {
                Ok((value, cost)) => {
                    writeln!(out, "{value}")?;
                    writeln!(out, "type: {}", checked.result_type)?;
                    writeln!(out, "runtime cost: {cost} (limit {})", args.cost_limit)?;
                }
                Err(e) => {
                    writeln!(out, "error: {}", e.message)?;
                }
            }
            match (&estimate, estimated) {
                (_, Some((min, max))) => {
                    write!(out, "estimated cost: {min}..{max}")?;
                    if max > STATIC_ESTIMATED_COST_LIMIT {
                        write!(
                            out,
                            " (over Kubernetes' limit of {STATIC_ESTIMATED_COST_LIMIT} for a rule; without a schema every size is unknown)"
                        )?;
                    }
                    writeln!(out)?;
                }
                (Err(e), None) => writeln!(out, "estimated cost: not available ({e})")?,
                (Ok(_), None) => {}
            }
        }
        OutputFormat::Json => {
            let (value, runtime_cost, error) = match &outcome {
                Ok((value, cost)) => (json!(value.to_string()), json!(cost), json!(null)),
                Err(e) => (json!(null), json!(null), json!(e.message.to_string())),
            };
            let report = json!({
                "expression": args.expression,
                "type": checked.result_type.to_string(),
                "value": value,
                "error": error,
                "runtimeCost": runtime_cost,
                "costLimit": args.cost_limit,
                "estimatedCost": estimated.map(|(min, max)| json!({"min": min, "max": max})),
            });
            writeln!(out, "{report:#}")?;
        }
    }
    Ok(code)
}

/// Reads the first document of a YAML/JSON file (`-` for standard input).
fn read_document(path: &str) -> Result<serde_json::Value, String> {
    let source = if path == "-" {
        Source::Stdin
    } else {
        Source::File(path.into())
    };
    let name = source.display_name();
    let text = source.read().map_err(|e| e.to_string())?;
    let loaded = parse(&name, &text, source.syntax()).map_err(|e| e.to_string())?;
    loaded
        .documents
        .into_iter()
        .next()
        .map(|d| d.value)
        .ok_or_else(|| format!("{name}: no document"))
}
