//! The cel-spec conformance runner: runs the `simple` test files of google/cel-spec (JSON
//! form, see `testdata/cel-spec/README.md`) against `kdv-cel`'s parser, checker and
//! interpreter, the way cel-go's reference runner does (all extensions at their latest
//! versions, the cel-spec environment), and reports per-file pass/fail/skip counts.
//!
//! Tests are skipped only for features the Kubernetes CEL environment lacks (protobuf
//! messages, `cel.block`, `cel.bind`, cel-go's network extension) or that cel-go's own
//! runner skips; each skip carries its reason. Error matchers only require that evaluation
//! fails (cel-go's runner does not compare messages either).
//!
//! ```no_run
//! use kdv_conformance::cel_spec::{RunOptions, run_cel_spec};
//! let report = run_cel_spec("testdata/cel-spec".as_ref(), &RunOptions::default());
//! match report {
//!     Ok(report) => print!("{}", report.render(false)),
//!     Err(e) => eprintln!("error: {e}"),
//! }
//! ```

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value as Json;

use kdv_cel::ast::{Expr, ExprKind};
use kdv_cel::checker::{self, Env, OverloadDecl};
use kdv_cel::interp::{EvalConfig, Program, ProgramOptions, Vars};
use kdv_cel::library::{Registry, ext};
use kdv_cel::parser::{Macros, ParseOptions};
use kdv_cel::types::Type;
use kdv_cel::value::time::{Duration, Timestamp};
use kdv_cel::value::{Key, List, Map, OwnedMap, RtType, Value};

/// Skip reason: protobuf messages.
pub const SKIP_PROTO: &str = "protobuf messages are not part of the Kubernetes CEL environment";
/// Skip reason: `cel.block`.
pub const SKIP_BLOCK: &str = "cel.block is not part of the Kubernetes CEL environment";
/// Skip reason: `cel.bind`.
pub const SKIP_BIND: &str = "cel.bind (ext.Bindings) is not part of the Kubernetes CEL environment";
/// Skip reason: cel-go's network extension.
pub const SKIP_NETWORK: &str = "cel-go ext.Network is not part of the Kubernetes CEL environment (Kubernetes has its own ip/cidr library)";
/// Skip reason: a test cel-go's own runner skips because cel-go (and so Kubernetes) behaves
/// differently, and kdv follows cel-go.
pub const SKIP_CEL_GO: &str =
    "cel-go's runner skips it: Kubernetes (cel-go) behaves differently and kdv follows cel-go";

/// Tests cel-go skips where kdv deliberately behaves like cel-go (file/section/test).
const CEL_GO_PARITY: &[&str] = &[
    "timestamps/duration_converters/get_milliseconds",
    "string_ext/value_errors/indexof_out_of_range",
    "string_ext/value_errors/lastindexof_out_of_range",
    "type_deduction/legacy_nullable_types/null_assignable_to_abstract_parameter_candidate",
];

/// Runner settings.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Only files whose name contains this.
    pub file_filter: Option<String>,
}

/// Counts for one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileReport {
    /// File name without extension (`basic`).
    pub name: String,
    /// Tests that passed.
    pub passed: usize,
    /// Tests that failed.
    pub failed: usize,
    /// Tests skipped (see [`Report::skip_reasons`]).
    pub skipped: usize,
}

/// One failed test.
#[derive(Clone, Debug)]
pub struct Failure {
    /// File name.
    pub file: String,
    /// Section name.
    pub section: String,
    /// Test name.
    pub test: String,
    /// The expression.
    pub expr: String,
    /// What the test expects.
    pub expected: String,
    /// What happened.
    pub got: String,
}

/// The outcome of a run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Per file, in file-name order.
    pub files: Vec<FileReport>,
    /// Skip reason → number of tests.
    pub skip_reasons: BTreeMap<String, usize>,
    /// Every failure.
    pub failures: Vec<Failure>,
}

impl Report {
    /// (passed, failed, skipped) over all files.
    pub fn totals(&self) -> (usize, usize, usize) {
        self.files.iter().fold((0, 0, 0), |(p, f, s), r| {
            (p + r.passed, f + r.failed, s + r.skipped)
        })
    }

    /// The report as text: one line per file, skip reasons, failures when `verbose`, and the
    /// closing `N passed, N failed, N skipped` line.
    pub fn render(&self, verbose: bool) -> String {
        let mut out = String::new();
        for f in &self.files {
            let _ = writeln!(
                out,
                "{}: {} passed, {} failed, {} skipped",
                f.name, f.passed, f.failed, f.skipped
            );
        }
        if !self.skip_reasons.is_empty() {
            out.push_str("skipped:\n");
            for (reason, n) in &self.skip_reasons {
                let _ = writeln!(out, "  {n:5}  {reason}");
            }
        }
        if verbose {
            for f in &self.failures {
                let _ = writeln!(
                    out,
                    "FAIL {}/{}/{}\n  expr:     {}\n  expected: {}\n  got:      {}",
                    f.file, f.section, f.test, f.expr, f.expected, f.got
                );
            }
        }
        let (p, fl, s) = self.totals();
        let _ = writeln!(out, "{p} passed, {fl} failed, {s} skipped");
        out
    }
}

enum Outcome {
    Pass,
    Fail(String, String),
    Skip(&'static str),
}

/// Why a run could not read its data.
#[derive(Debug)]
pub enum DataError {
    /// The data directory (or its `simple` folder) cannot be listed.
    Directory {
        /// The directory.
        dir: PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
    /// A test file cannot be read or is not JSON.
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The runner's thread could not be started or panicked outside a test.
    Thread(String),
}

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DataError::Directory { dir, error } => write!(f, "{}: {error}", dir.display()),
            DataError::File { path, message } => write!(f, "{}: {message}", path.display()),
            DataError::Thread(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for DataError {}

/// Stack size of the runner's thread: deep expressions of the suite recurse in the parser,
/// checker and interpreter.
const STACK_SIZE: usize = 256 << 20;

/// Runs the [`test_files`] of `data_dir` (those whose name contains
/// [`RunOptions::file_filter`]) in file-name order, on a thread of its own with the stack deep
/// expressions need. A directory without test files gives an empty report.
pub fn run_cel_spec(data_dir: &Path, opts: &RunOptions) -> Result<Report, DataError> {
    let data_dir = data_dir.to_path_buf();
    let opts = opts.clone();
    std::thread::Builder::new()
        .name("cel-spec".into())
        .stack_size(STACK_SIZE)
        .spawn(move || run_files(&data_dir, &opts))
        .map_err(|e| DataError::Thread(format!("cannot start the runner thread: {e}")))?
        .join()
        .unwrap_or_else(|_| Err(DataError::Thread("the cel-spec run panicked".into())))
}

/// The test files of the suite in `data_dir`: every `*.json` file of `data_dir/simple` (or of
/// `data_dir` itself if it has no `simple` folder), sorted by path.
pub fn test_files(data_dir: &Path) -> Result<Vec<PathBuf>, DataError> {
    let dir = if data_dir.join("simple").is_dir() {
        data_dir.join("simple")
    } else {
        data_dir.to_path_buf()
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|error| DataError::Directory {
            dir: dir.clone(),
            error,
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Ok(files)
}

fn run_files(data_dir: &Path, opts: &RunOptions) -> Result<Report, DataError> {
    let files = test_files(data_dir)?;
    let registry = Arc::new(Registry::full());
    let mut report = Report::default();
    for path in files {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some(f) = &opts.file_filter
            && !name.contains(f.as_str())
        {
            continue;
        }
        let file_error = |message: String| DataError::File {
            path: path.clone(),
            message,
        };
        let text = std::fs::read_to_string(&path).map_err(|e| file_error(e.to_string()))?;
        let doc: Json = serde_json::from_str(&text).map_err(|e| file_error(e.to_string()))?;
        let mut fr = FileReport {
            name: name.clone(),
            ..FileReport::default()
        };
        for section in doc["section"].as_array().into_iter().flatten() {
            let section_name = section["name"].as_str().unwrap_or("");
            for test in section["test"].as_array().into_iter().flatten() {
                let test_name = test["name"].as_str().unwrap_or("");
                let id = format!("{name}/{section_name}/{test_name}");
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    run_test(&name, &id, test, &registry)
                }))
                .unwrap_or_else(|_| Outcome::Fail("no panic".into(), "panic".into()));
                match outcome {
                    Outcome::Pass => fr.passed += 1,
                    Outcome::Skip(reason) => {
                        fr.skipped += 1;
                        *report.skip_reasons.entry(reason.to_string()).or_default() += 1;
                    }
                    Outcome::Fail(expected, got) => {
                        fr.failed += 1;
                        report.failures.push(Failure {
                            file: name.clone(),
                            section: section_name.to_string(),
                            test: test_name.to_string(),
                            expr: test["expr"].as_str().unwrap_or("").to_string(),
                            expected,
                            got,
                        });
                    }
                }
            }
        }
        report.files.push(fr);
    }
    Ok(report)
}

fn file_skip(file: &str) -> Option<&'static str> {
    match file {
        "proto2" | "proto3" | "proto2_ext" | "enums" | "wrappers" => Some(SKIP_PROTO),
        "block_ext" => Some(SKIP_BLOCK),
        "bindings_ext" => Some(SKIP_BIND),
        "network_ext" => Some(SKIP_NETWORK),
        _ => None,
    }
}

/// Well-known message types whose values CEL sees as plain values.
fn well_known_value_type(url: &str) -> bool {
    let name = url.rsplit('/').next().unwrap_or(url);
    matches!(
        name,
        "google.protobuf.Duration"
            | "google.protobuf.Timestamp"
            | "google.protobuf.Value"
            | "google.protobuf.Struct"
            | "google.protobuf.ListValue"
            | "google.protobuf.BoolValue"
            | "google.protobuf.Int32Value"
            | "google.protobuf.Int64Value"
            | "google.protobuf.UInt32Value"
            | "google.protobuf.UInt64Value"
            | "google.protobuf.FloatValue"
            | "google.protobuf.DoubleValue"
            | "google.protobuf.StringValue"
            | "google.protobuf.BytesValue"
    )
}

/// Whether a JSON test fragment needs protobuf messages.
fn mentions_messages(j: &Json) -> bool {
    match j {
        Json::Object(o) => {
            if let Some(Json::String(t)) = o.get("@type")
                && !well_known_value_type(t)
            {
                return true;
            }
            if o.contains_key("message_type") || o.contains_key("enum_value") {
                return true;
            }
            o.values().any(mentions_messages)
        }
        Json::Array(a) => a.iter().any(mentions_messages),
        _ => false,
    }
}

fn has_struct_literal(e: &Expr) -> bool {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Struct { .. } => return true,
            ExprKind::Select { operand, .. } => stack.push(operand),
            ExprKind::Call { target, args, .. } => {
                stack.extend(target.as_deref());
                stack.extend(args.iter());
            }
            ExprKind::List { elements, .. } => stack.extend(elements.iter()),
            ExprKind::Map { entries } => {
                for en in entries {
                    stack.push(&en.key);
                    stack.push(&en.value);
                }
            }
            ExprKind::Comprehension(c) => {
                stack.extend([
                    &c.iter_range,
                    &c.accu_init,
                    &c.loop_condition,
                    &c.loop_step,
                    &c.result,
                ]);
            }
            ExprKind::Literal(_) | ExprKind::Ident(_) => {}
        }
    }
    false
}

fn run_test(file: &str, id: &str, test: &Json, registry: &Arc<Registry>) -> Outcome {
    if let Some(reason) = file_skip(file) {
        return Outcome::Skip(reason);
    }
    if CEL_GO_PARITY.contains(&id) {
        return Outcome::Skip(SKIP_CEL_GO);
    }
    let expr_text = test["expr"].as_str().unwrap_or("");
    if expr_text.contains("TestAllTypes")
        || expr_text.contains("NestedTestAllTypes")
        || mentions_messages(&test["type_env"])
        || mentions_messages(&test["bindings"])
        || mentions_messages(&test["value"])
        || mentions_messages(&test["typed_result"])
    {
        return Outcome::Skip(SKIP_PROTO);
    }
    let mut popts = ParseOptions::conformance();
    if test["disable_macros"].as_bool() == Some(true) {
        // cel-go's "no macros" environment keeps the extension libraries' macros.
        popts.macros = Macros::OPTIONAL
            .union(Macros::TWO_VAR)
            .union(Macros::MATH)
            .union(Macros::BIND);
    }
    let parsed = match kdv_cel::parser::parse_with(expr_text, &popts) {
        Ok(p) => p,
        Err(issues) => {
            return Outcome::Fail(expected_text(test), format!("parse error: {issues}"));
        }
    };
    if has_struct_literal(&parsed.expr) {
        return Outcome::Skip(SKIP_PROTO);
    }
    let mut vars = Vars::new();
    let mut names = HashSet::new();
    if let Some(b) = test["bindings"].as_object() {
        for (name, ev) in b {
            match ev.get("value").map(json_to_value) {
                Some(Ok(v)) => {
                    names.insert(name.clone());
                    vars.insert(name.as_str(), v);
                }
                Some(Err(e)) => return Outcome::Fail(expected_text(test), format!("binding: {e}")),
                None => return Outcome::Fail(expected_text(test), "unsupported binding".into()),
            }
        }
    }
    let options = ProgramOptions {
        registry: registry.clone(),
        variables: None,
        container: test["container"].as_str().unwrap_or("").to_string(),
        ..ProgramOptions::default()
    };
    let program = if test["disable_check"].as_bool() == Some(true) {
        Program::new(&parsed.expr, &options)
    } else {
        let env = conformance_env(test);
        let checked = match checker::check(parsed, &env) {
            Ok(c) => c,
            Err(issues) => {
                return Outcome::Fail(expected_text(test), format!("check error: {issues}"));
            }
        };
        if let Some(want) = test
            .get("typed_result")
            .map(|t| json_type(&t["deduced_type"]))
            && checked.result_type != want
        {
            return Outcome::Fail(
                format!("type {want}"),
                format!("type {}", checked.result_type),
            );
        }
        if test["check_only"].as_bool() == Some(true) {
            return Outcome::Pass;
        }
        Program::from_checked(&checked, &options)
    };
    let config = EvalConfig {
        cost_limit: Some(1_000_000_000),
        interrupt: None,
    };
    let result = program.eval(&vars, &config).map(|(v, _)| v);
    if test.get("eval_error").is_some() || test.get("any_eval_errors").is_some() {
        return match result {
            Err(_) => Outcome::Pass,
            Ok(v) => Outcome::Fail(expected_text(test), format!("value {v}")),
        };
    }
    let expected_json = test
        .get("value")
        .or_else(|| test.get("typed_result").and_then(|t| t.get("result")));
    let expected = match expected_json {
        Some(v) => match json_to_value(v) {
            Ok(v) => v,
            Err(e) => return Outcome::Fail(expected_text(test), format!("expected value: {e}")),
        },
        None => Value::Bool(true),
    };
    match result {
        Ok(v) if strict_eq(&v, &expected) => Outcome::Pass,
        Ok(v) => Outcome::Fail(expected.to_string(), format!("{v}")),
        Err(e) => Outcome::Fail(expected.to_string(), format!("error: {e}")),
    }
}

/// cel-go's conformance environment: the standard library and every extension at its latest
/// version, plus the test's declarations and container.
fn conformance_env(test: &Json) -> Env {
    let mut env = Env::new();
    env.add_library(ext::optional::declarations(u32::MAX));
    env.add_library(ext::strings::declarations(u32::MAX));
    env.add_library(ext::math::declarations(u32::MAX));
    env.add_library(ext::encoders::declarations());
    env.add_library(ext::comprehensions::declarations());
    env.add_library(ext::bindings::declarations());
    env.add_library(ext::lists::declarations(u32::MAX));
    env.add_library(ext::sets::declarations());
    if let Some(c) = test["container"].as_str() {
        env.set_container(c);
    }
    for decl in test["type_env"].as_array().into_iter().flatten() {
        let name = decl["name"].as_str().unwrap_or("");
        if let Some(ident) = decl.get("ident") {
            env.add_variable(name, json_type(&ident["type"]));
        } else if let Some(f) = decl.get("function") {
            let overloads = f["overloads"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|o| {
                    let params = o["params"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(json_type)
                        .collect();
                    let result = json_type(&o["result_type"]);
                    let id = o["overload_id"].as_str().unwrap_or("");
                    if o["is_instance_function"].as_bool() == Some(true) {
                        OverloadDecl::member(id, params, result)
                    } else {
                        OverloadDecl::global(id, params, result)
                    }
                })
                .collect();
            env.add_function(name, overloads);
        }
    }
    env
}

fn primitive_type(name: &str) -> Type {
    match name {
        "BOOL" => Type::Bool,
        "INT64" => Type::Int,
        "UINT64" => Type::Uint,
        "DOUBLE" => Type::Double,
        "STRING" => Type::String,
        "BYTES" => Type::Bytes,
        _ => Type::Error,
    }
}

/// A `cel.expr.Type` in its JSON form.
pub fn json_type(t: &Json) -> Type {
    let Some(o) = t.as_object() else {
        return Type::Dyn;
    };
    let Some((kind, v)) = o.iter().next() else {
        return Type::Dyn;
    };
    match kind.as_str() {
        "dyn" => Type::Dyn,
        "null" => Type::Null,
        "primitive" => primitive_type(v.as_str().unwrap_or("")),
        "wrapper" => Type::wrapper(primitive_type(v.as_str().unwrap_or(""))),
        "well_known" => match v.as_str() {
            Some("TIMESTAMP") => Type::Timestamp,
            Some("DURATION") => Type::Duration,
            _ => Type::Object(Arc::from("google.protobuf.Any")),
        },
        "list_type" => Type::List(Box::new(json_type(&v["elem_type"]))),
        "map_type" => Type::Map(
            Box::new(json_type(&v["key_type"])),
            Box::new(json_type(&v["value_type"])),
        ),
        "message_type" => Type::Object(Arc::from(v.as_str().unwrap_or(""))),
        "type_param" => Type::Param(Arc::from(v.as_str().unwrap_or(""))),
        "type" => {
            if v.as_object().is_none_or(|o| o.is_empty()) {
                Type::Type(Box::new(Type::Dyn))
            } else {
                Type::Type(Box::new(json_type(v)))
            }
        }
        "error" => Type::Error,
        "abstract_type" => {
            let name = v["name"].as_str().unwrap_or("");
            let mut params: Vec<Type> = v["parameter_types"]
                .as_array()
                .into_iter()
                .flatten()
                .map(json_type)
                .collect();
            if name == "optional_type" && params.len() == 1 {
                return Type::Optional(Box::new(params.remove(0)));
            }
            Type::Opaque(Arc::from(name), params)
        }
        _ => Type::Dyn,
    }
}

fn expected_text(test: &Json) -> String {
    if let Some(e) = test.get("eval_error") {
        return format!("error {}", e["errors"][0]["message"]);
    }
    match test.get("value").map(json_to_value) {
        Some(Ok(v)) => v.to_string(),
        Some(Err(e)) => e,
        None => "true".into(),
    }
}

/// Test-expectation equality: like values of the same type (no numeric cross-type equality),
/// NaN equal to NaN, maps compared without order.
pub fn strict_eq(a: &Value<'_>, b: &Value<'_>) -> bool {
    match (a, b) {
        (Value::Double(x), Value::Double(y)) => (x.is_nan() && y.is_nan()) || x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Uint(x), Value::Uint(y)) => x == y,
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| strict_eq(&p, &q))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.entries().all(|(k, v)| {
                    y.entries()
                        .any(|(k2, v2)| strict_eq(&k, &k2) && strict_eq(&v, &v2))
                })
        }
        (Value::Optional(x), Value::Optional(y)) => match (x, y) {
            (None, None) => true,
            (Some(p), Some(q)) => strict_eq(p, q),
            _ => false,
        },
        (Value::Int(_) | Value::Uint(_) | Value::Double(_), _) => false,
        _ => a.type_of() == b.type_of() && a.cel_eq(b),
    }
}

fn parse_i64(j: &Json) -> Result<i64, String> {
    match j {
        Json::String(s) => s.parse().map_err(|_| format!("bad int {s}")),
        Json::Number(n) => n.as_i64().ok_or_else(|| format!("bad int {n}")),
        _ => Err(format!("bad int {j}")),
    }
}

fn parse_u64(j: &Json) -> Result<u64, String> {
    match j {
        Json::String(s) => s.parse().map_err(|_| format!("bad uint {s}")),
        Json::Number(n) => n.as_u64().ok_or_else(|| format!("bad uint {n}")),
        _ => Err(format!("bad uint {j}")),
    }
}

fn parse_f64(j: &Json) -> Result<f64, String> {
    match j {
        Json::Number(n) => n.as_f64().ok_or_else(|| format!("bad double {n}")),
        Json::String(s) => match s.as_str() {
            "NaN" => Ok(f64::NAN),
            "Infinity" => Ok(f64::INFINITY),
            "-Infinity" => Ok(f64::NEG_INFINITY),
            other => other.parse().map_err(|_| format!("bad double {other}")),
        },
        _ => Err(format!("bad double {j}")),
    }
}

/// A `cel.expr.Value` in its JSON form as a CEL value.
pub fn json_to_value(j: &Json) -> Result<Value<'static>, String> {
    let Some(o) = j.as_object() else {
        return Err(format!("not a Value: {j}"));
    };
    let Some((kind, v)) = o.iter().next() else {
        return Err("empty Value".into());
    };
    Ok(match kind.as_str() {
        "null_value" => Value::Null,
        "bool_value" => Value::Bool(v.as_bool().ok_or("bad bool")?),
        "int64_value" => Value::Int(parse_i64(v)?),
        "uint64_value" => Value::Uint(parse_u64(v)?),
        "double_value" => Value::Double(parse_f64(v)?),
        "string_value" => Value::string(v.as_str().ok_or("bad string")?),
        "bytes_value" => Value::bytes(
            ext::encoders::base64_decode(v.as_str().ok_or("bad bytes")?).ok_or("bad base64")?,
        ),
        "list_value" => Value::list(
            v["values"]
                .as_array()
                .into_iter()
                .flatten()
                .map(json_to_value)
                .collect::<Result<Vec<_>, _>>()?,
        ),
        "map_value" => {
            let mut m = OwnedMap::new();
            for e in v["entries"].as_array().into_iter().flatten() {
                let k = json_to_value(&e["key"])?;
                let val = json_to_value(&e["value"])?;
                let key = Key::from_value(&k)
                    .ok()
                    .flatten()
                    .ok_or_else(|| format!("bad map key {k}"))?;
                m.insert_new(key, val)
                    .map_err(|_| format!("repeated key {k}"))?;
            }
            Value::Map(Map::Owned(Arc::new(m)))
        }
        "type_value" => {
            let name = v.as_str().ok_or("bad type")?;
            Value::Type(RtType::from_name(name).unwrap_or_else(|| RtType::Named(Arc::from(name))))
        }
        "object_value" => any_to_value(v)?,
        other => return Err(format!("unsupported value kind {other}")),
    })
}

/// A `google.protobuf.Any` holding a well-known type.
fn any_to_value(v: &Json) -> Result<Value<'static>, String> {
    let url = v["@type"].as_str().ok_or("Any without @type")?;
    let name = url.rsplit('/').next().unwrap_or(url);
    let payload = &v["value"];
    Ok(match name {
        "google.protobuf.Duration" => Value::Duration(
            payload
                .as_str()
                .and_then(parse_proto_duration)
                .ok_or("bad Duration")?,
        ),
        "google.protobuf.Timestamp" => Value::Timestamp(
            payload
                .as_str()
                .and_then(|s| Timestamp::parse_rfc3339(s).ok())
                .ok_or("bad Timestamp")?,
        ),
        "google.protobuf.BoolValue" => Value::Bool(payload.as_bool().unwrap_or(false)),
        "google.protobuf.Int32Value" | "google.protobuf.Int64Value" => {
            Value::Int(if payload.is_null() {
                0
            } else {
                parse_i64(payload)?
            })
        }
        "google.protobuf.UInt32Value" | "google.protobuf.UInt64Value" => {
            Value::Uint(if payload.is_null() {
                0
            } else {
                parse_u64(payload)?
            })
        }
        "google.protobuf.FloatValue" | "google.protobuf.DoubleValue" => {
            Value::Double(if payload.is_null() {
                0.0
            } else {
                parse_f64(payload)?
            })
        }
        "google.protobuf.StringValue" => Value::string(payload.as_str().unwrap_or("")),
        "google.protobuf.BytesValue" => Value::bytes(
            ext::encoders::base64_decode(payload.as_str().unwrap_or("")).ok_or("bad base64")?,
        ),
        "google.protobuf.Value" | "google.protobuf.Struct" | "google.protobuf.ListValue" => {
            proto_json(payload)
        }
        other => return Err(format!("unsupported message {other}")),
    })
}

/// JSON as `google.protobuf.Value` (numbers are doubles).
fn proto_json(j: &Json) -> Value<'static> {
    match j {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => Value::Double(n.as_f64().unwrap_or(f64::NAN)),
        Json::String(s) => Value::string(s.as_str()),
        Json::Array(a) => Value::List(List::new(a.iter().map(proto_json).collect())),
        Json::Object(o) => {
            let mut m = OwnedMap::new();
            for (k, v) in o {
                let _ = m.insert_new(
                    Key::String(kdv_cel::value::Str::Shared(Arc::from(k.as_str()))),
                    proto_json(v),
                );
            }
            Value::Map(Map::Owned(Arc::new(m)))
        }
    }
}

/// Proto3 JSON duration: decimal seconds with an `s` suffix.
fn parse_proto_duration(s: &str) -> Option<Duration> {
    let body = s.strip_suffix('s')?;
    let (neg, body) = match body.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, body),
    };
    let (secs, frac) = body.split_once('.').unwrap_or((body, ""));
    let secs: i64 = secs.parse().ok()?;
    let mut nanos: i64 = 0;
    for i in 0..9 {
        nanos = nanos * 10 + frac.as_bytes().get(i).map_or(0, |d| (d - b'0') as i64);
    }
    let total = secs.checked_mul(1_000_000_000)?.checked_add(nanos)?;
    Some(Duration::from_nanos(if neg { -total } else { total }))
}
