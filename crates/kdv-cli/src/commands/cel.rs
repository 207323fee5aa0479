//! `kdv cel`: compile and evaluate one CEL expression the way the API server runs a CRD
//! validation rule — Kubernetes' environment and libraries (of `--k8s-version`, the stored or
//! new expressions environment of `--env`), `self` (and `oldSelf`) bound to a YAML/JSON
//! document, the per-call runtime cost limit — and report the value, the runtime cost and
//! the static cost estimate.

use std::io::Write;

use kdv_cel::cost::{CostOptions, NoSizeEstimates, STATIC_ESTIMATED_COST_LIMIT};
use kdv_cel::interp::{EvalConfig, Vars};
use kdv_cel::k8s::{self, EnvType};
use kdv_cel::types::Type;
use kdv_cel::value::Value;
use kdv_cel::{CompileError, CompiledExpression};

use crate::cli::{CelArgs, CelEnvArg, CelOutput};
use crate::error::CliError;
use crate::input::{ReadLimits, Source, Stream};
use crate::output::json::{self, CelReport, CostRange, JsonError};

/// Runs `kdv cel`. Exit status: 0 the expression evaluated to `true` (or to a non-boolean
/// value), 1 it evaluated to `false` or failed at run time (the rule would reject the object),
/// 2 it does not compile or an input cannot be read. Values print as cel-go formats them
/// (`Value`'s `Display`); with `-o json` every outcome, failures included, is one JSON object.
pub fn run(args: &CelArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8, CliError> {
    let mut report = CelReport {
        expression: &args.expression,
        type_name: None,
        value: None,
        error: None,
        runtime_cost: None,
        cost_limit: args.cost_limit,
        estimated_cost: None,
    };
    let json_output = args.output == CelOutput::Json;
    // A failure before evaluation: text on stderr, or the JSON report with `error` set.
    let mut fail = |report: &mut CelReport<'_>,
                    kind: &'static str,
                    text: String,
                    message: String|
     -> Result<u8, CliError> {
        writeln!(err, "{text}")?;
        if json_output {
            report.error = Some(JsonError { kind, message });
            json::write_cel(report, out)?;
        }
        Ok(2)
    };

    let self_doc = match args.self_file.as_deref().map(read_document).transpose() {
        Ok(d) => d,
        Err(message) => return fail(&mut report, "input", format!("error: {message}"), message),
    };
    let old_doc = match args.old_self.as_deref().map(read_document).transpose() {
        Ok(d) => d,
        Err(message) => return fail(&mut report, "input", format!("error: {message}"), message),
    };

    let minor = match args.k8s_version.as_deref() {
        None => k8s::NEWEST_MINOR,
        Some(v) => match super::lint_crd::kubernetes_minor(Some(v)) {
            Ok(m) => m,
            Err(e) => {
                let message = e.to_string();
                return fail(&mut report, "usage", format!("error: {message}"), message);
            }
        },
    };
    let env_type = match args.env {
        CelEnvArg::Stored => EnvType::StoredExpressions,
        CelEnvArg::New => EnvType::NewExpressions,
    };
    let mut env = k8s::env_for(minor, env_type);
    env.add_variable("self", Type::Dyn);
    env.add_variable("oldSelf", Type::Dyn);
    let rule = match CompiledExpression::compile_with(
        &env,
        &args.expression,
        &NoSizeEstimates,
        &k8s::program_options(),
        &CostOptions::kubernetes_for(minor),
    ) {
        Ok(rule) => rule,
        Err(e @ CompileError::Invalid(_)) => {
            return fail(&mut report, "compile", e.to_string(), e.to_string());
        }
        Err(e) => return fail(&mut report, "compile", format!("error: {e}"), e.to_string()),
    };
    let estimate = rule.estimated_cost();
    report.type_name = Some(rule.result_type().to_string());
    report.estimated_cost = Some(CostRange {
        min: estimate.min,
        max: estimate.max,
    });
    if let Some(e) = rule.plan_errors().first() {
        let message = format!("program instantiation failed: {}", e.message);
        return fail(&mut report, "program", message.clone(), message);
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
    let code = match &outcome {
        Ok((Value::Bool(false), _)) | Err(_) => 1,
        Ok(_) => 0,
    };
    match args.output {
        CelOutput::Text => {
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
        CelOutput::Json => {
            match &outcome {
                Ok((value, cost)) => {
                    report.value = Some(value.to_string());
                    report.runtime_cost = Some(*cost);
                }
                Err(e) => {
                    report.error = Some(JsonError {
                        kind: "evaluation",
                        message: e.message.to_string(),
                    });
                }
            }
            json::write_cel(&report, out)?;
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
