//! `kdv cel`: compile and evaluate one CEL expression the way the API server runs a CRD
//! validation rule — Kubernetes' environment and libraries, `self` (and `oldSelf`) bound to a
//! YAML/JSON document, the per-call runtime cost limit — and report the value, the runtime
//! cost and the static cost estimate.

use std::io::Write;

use kdv_cel::cost::{NoSizeEstimates, STATIC_ESTIMATED_COST_LIMIT};
use kdv_cel::interp::{EvalConfig, Vars};
use kdv_cel::k8s;
use kdv_cel::types::Type;
use kdv_cel::value::Value;
use kdv_cel::{CompileError, CompiledExpression};
use serde_json::json;

use crate::cli::{CelArgs, OutputFormat};
use crate::error::CliError;
use crate::input::{ReadLimits, Source, Stream};

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
    let rule = match CompiledExpression::compile(
        &env,
        &args.expression,
        &NoSizeEstimates,
        &k8s::program_options(),
    ) {
        Ok(rule) => rule,
        Err(e @ CompileError::Invalid(_)) => {
            writeln!(err, "{e}")?;
            return Ok(2);
        }
        Err(e) => {
            writeln!(err, "error: {e}")?;
            return Ok(2);
        }
    };
    if let Some(e) = rule.plan_errors().first() {
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
    let outcome = rule.eval(&vars, &config);

    let estimate = rule.estimated_cost();
    let code = match &outcome {
        Ok((Value::Bool(false), _)) | Err(_) => 1,
        Ok(_) => 0,
    };
    match args.output {
        OutputFormat::Text => {
            match &outcome {
                Ok((value, cost)) => {
                    writeln!(out, "{value}")?;
                    writeln!(out, "type: {}", rule.result_type())?;
                    writeln!(out, "runtime cost: {cost} (limit {})", args.cost_limit)?;
                }
                Err(e) => {
                    writeln!(out, "error: {}", e.message)?;
                }
            }
            write!(out, "estimated cost: {}..{}", estimate.min, estimate.max)?;
            if estimate.max > STATIC_ESTIMATED_COST_LIMIT {
                write!(
                    out,
                    " (over Kubernetes' limit of {STATIC_ESTIMATED_COST_LIMIT} for a rule; without a schema every size is unknown)"
                )?;
            }
            writeln!(out)?;
        }
        OutputFormat::Json => {
            let (value, runtime_cost, error) = match &outcome {
                Ok((value, cost)) => (json!(value.to_string()), json!(cost), json!(null)),
                Err(e) => (json!(null), json!(null), json!(e.message.to_string())),
            };
            let report = json!({
                "expression": args.expression,
                "type": rule.result_type().to_string(),
                "value": value,
                "error": error,
                "runtimeCost": runtime_cost,
                "costLimit": args.cost_limit,
                "estimatedCost": {"min": estimate.min, "max": estimate.max},
            });
            writeln!(out, "{report:#}")?;
        }
    }
    Ok(code)
}

/// Reads the first document of a YAML/JSON file (`-` for standard input), with the size
/// limits of `kdv validate`'s defaults.
fn read_document(path: &str) -> Result<serde_json::Value, String> {
    let source = if path == "-" {
        Source::Stdin
    } else {
        Source::File(path.into())
    };
    let stream = Stream::read(&source, ReadLimits::default()).map_err(|e| e.to_string())?;
    for entry in stream.documents() {
        match entry {
            Ok(kdv_manifest::Entry::Document(doc)) => return Ok(doc.value),
            Ok(kdv_manifest::Entry::Empty { .. }) => {}
            Err(e) => return Err(e.to_string()),
        }
    }
    Err(format!("{}: no document", stream.name))
}
