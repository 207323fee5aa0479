//! apiextensions-apiserver's own CEL validation tests against kdv-openapi
//! (`kdv-conformance apiextensions`).
//!
//! The test file `pkg/apiserver/schema/cel/validation_test.go` of a k8s.io/apiextensions-apiserver
//! checkout (named by `KDV_UPSTREAM_APIEXTENSIONS`, read in place, never copied) holds table
//! tests: rows of a schema built with the file's Go helpers (`objectTypePtr`, `withRule`,
//! `listMapType`, `mustSchema` of YAML, ...), an object, an old object, rules and what the
//! validator must answer. The runner
//!
//! 1. parses the package's in-package test files and evaluates each table literal row by row
//!    with the Go interpreter of the validation-gen suite ([`crate::interp`]) over the
//!    package's types from `kdv-go` ([`gotable`]): `schema.Structural` values become OpenAPI
//!    schema JSON, unstructured values JSON;
//! 2. turns each row into cases as the test function's loop does ([`cases`]): one per valid
//!    rule and per error rule in `TestValidationExpressions`, one per row elsewhere, with the
//!    validator's arguments (resource root, cost budget, per-call limit, ratcheting);
//! 3. compiles the schema with [`kdv_openapi::Resource::from_crd_schema`] and runs its rules
//!    with [`kdv_openapi::cel::validate_rules`] (upstream's tests call the CEL validator on
//!    the schema directly, not the whole request pipeline);
//! 4. checks what upstream's loop asserts (no errors and the expected cost; every error of
//!    type Invalid containing a text; types and field paths; ratcheting warnings).
//!
//! The compile and cost tables of the same package (`compilation_test.go`,
//! `celcoststability_test.go`) are read the same way and checked through
//! [`kdv_openapi::cel::compile_rules`] (or, for runtime costs, `validate_rules`); the unit
//! tests of `pkg/apiserver/validation/ratcheting_test.go` are read by [`ratcheting`] and
//! run through [`Resource::validate_values_update`].
//!
//! A row the interpreter cannot evaluate, or a case that needs what kdv has no equivalent
//! for (a klog line), is **skipped** with its reason, counted per reason; a case that ran
//! and disagrees is **failed** with a one-line difference. Nothing passes unchecked.
//!
//! Case names: `<TestFunction>/<row name>[/<rule>]`, as Go's subtests are named (rules
//! truncated to 127 bytes).

pub mod cases;
pub mod gotable;
pub mod ratcheting;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use kdv_openapi::Resource;
use kdv_openapi::cel::{RuleReport, RuleValidation, validate_rules};
use kdv_runtime::{ErrorType, FieldPath};

use self::cases::{Call, Case, Expect, TABLES};

/// Environment variable naming the k8s.io/apiextensions-apiserver checkout.
pub const APIEXTENSIONS_ENV: &str = "KDV_UPSTREAM_APIEXTENSIONS";

/// The package of the CEL validation tests, inside the checkout.
pub const CEL_PACKAGE: &str = "pkg/apiserver/schema/cel";

/// Options of [`run_apiextensions`].
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Only the test functions whose name contains this.
    pub table_filter: Option<String>,
}

/// The outcome of one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// kdv agreed with upstream's assertions.
    Passed,
    /// kdv disagreed: a grouping cause and a one-line difference.
    Failed { cause: String, diff: String },
    /// Not run: why (grouping key) and details.
    Skipped { reason: String, detail: String },
}

/// One case's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseResult {
    /// The test function.
    pub table: String,
    /// The subtest name.
    pub name: String,
    /// Line of the row in the test file.
    pub line: u32,
    /// The outcome.
    pub outcome: Outcome,
}

/// The results of a run.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Every case, table by table in [`TABLES`] order, rows in source order.
    pub cases: Vec<CaseResult>,
    /// Tables that could not be read at all: (test function, why).
    pub table_errors: Vec<(String, String)>,
}

impl Report {
    /// (passed, failed, skipped) over all cases.
    pub fn totals(&self) -> (usize, usize, usize) {
        totals(self.cases.iter())
    }

    /// (passed, failed, skipped) of one table.
    pub fn table_totals(&self, table: &str) -> (usize, usize, usize) {
        totals(self.cases.iter().filter(|c| c.table == table))
    }

    /// Cases of `table` that were interpreted (run, whatever the verdict), and all cases.
    pub fn interpreted(&self, table: &str) -> (usize, usize) {
        let all: Vec<_> = self.cases.iter().filter(|c| c.table == table).collect();
        let run = all
            .iter()
            .filter(|c| !matches!(c.outcome, Outcome::Skipped { .. }))
            .count();
        (run, all.len())
    }

    /// Skip reasons with their counts, most frequent first.
    pub fn skip_reasons(&self) -> Vec<(String, usize)> {
        count_by(self.cases.iter().filter_map(|c| match &c.outcome {
            Outcome::Skipped { reason, .. } => Some(reason.clone()),
            _ => None,
        }))
    }

    /// Failure causes with their counts, most frequent first.
    pub fn failure_causes(&self) -> Vec<(String, usize)> {
        count_by(self.cases.iter().filter_map(|c| match &c.outcome {
            Outcome::Failed { cause, .. } => Some(cause.clone()),
            _ => None,
        }))
    }

    /// The text report: one line per table, the skip reasons, the top failure causes (with
    /// an example each), with `verbose` every failing case with its difference, and the
    /// closing `apiextensions: N passed, N failed, N skipped`.
    pub fn render(&self, verbose: bool) -> String {
        let mut out = String::new();
        let mut tables: Vec<&str> = Vec::new();
        for c in &self.cases {
            if !tables.contains(&c.table.as_str()) {
                tables.push(&c.table);
            }
        }
        for t in &tables {
            let (p, f, s) = self.table_totals(t);
            let _ = writeln!(out, "{t}: {p} passed, {f} failed, {s} skipped");
        }
        for (t, e) in &self.table_errors {
            let _ = writeln!(out, "{t}: not read: {e}");
        }
        let skips = self.skip_reasons();
        if !skips.is_empty() {
            let _ = writeln!(out, "\nskipped, by reason:");
            for (r, n) in &skips {
                let _ = writeln!(out, "  {n:5}  {r}");
            }
        }
        let causes = self.failure_causes();
        if !causes.is_empty() {
            let _ = writeln!(out, "\nfailed, by cause:");
            for (cause, n) in causes.iter().take(if verbose { usize::MAX } else { 15 }) {
                let example = self
                    .cases
                    .iter()
                    .find(|c| matches!(&c.outcome, Outcome::Failed { cause: k, .. } if k == cause));
                let _ = writeln!(out, "  {n:5}  {cause}");
                if let Some(c) = example {
                    let _ = writeln!(out, "         e.g. {}/{}", c.table, c.name);
                }
            }
        }
        if verbose {
            let failed: Vec<_> = self
                .cases
                .iter()
                .filter(|c| matches!(c.outcome, Outcome::Failed { .. }))
                .collect();
            if !failed.is_empty() {
                let _ = writeln!(out, "\nfailures:");
            }
            for c in failed {
                if let Outcome::Failed { diff, .. } = &c.outcome {
                    let _ = writeln!(
                        out,
                        "  {}/{} (line {}): {}",
                        c.table,
                        one_line(&c.name),
                        c.line,
                        diff
                    );
                }
            }
        }
        let (p, f, s) = self.totals();
        let _ = writeln!(out, "\napiextensions: {p} passed, {f} failed, {s} skipped");
        out
    }
}

fn totals<'a>(cases: impl Iterator<Item = &'a CaseResult>) -> (usize, usize, usize) {
    let (mut p, mut f, mut s) = (0, 0, 0);
    for c in cases {
        match c.outcome {
            Outcome::Passed => p += 1,
            Outcome::Failed { .. } => f += 1,
            Outcome::Skipped { .. } => s += 1,
        }
    }
    (p, f, s)
}

fn count_by(keys: impl Iterator<Item = String>) -> Vec<(String, usize)> {
    let mut m: BTreeMap<String, usize> = BTreeMap::new();
    for k in keys {
        *m.entry(k).or_default() += 1;
    }
    let mut v: Vec<_> = m.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v
}

/// Newlines and tabs shown escaped, so that a case stays on one line.
fn one_line(s: &str) -> String {
    s.replace('\n', "\\n").replace('\t', "\\t")
}

/// Runs the tables of [`TABLES`] from the checkout at `root`.
pub fn run_apiextensions(root: &Path, options: &Options) -> Report {
    let root = root.to_path_buf();
    let options = options.clone();
    // The interpreter recurses on the Rust stack (see `interp::STACK_SIZE`).
    let worker = std::thread::Builder::new()
        .stack_size(crate::interp::STACK_SIZE)
        .spawn(move || run_inner(&root, &options));
    match worker.map(|h| h.join()) {
        Ok(Ok(report)) => report,
        Ok(Err(_)) => Report {
            table_errors: vec![("*".into(), "the runner panicked".into())],
            ..Report::default()
        },
        Err(e) => Report {
            table_errors: vec![("*".into(), format!("cannot start the runner: {e}"))],
            ..Report::default()
        },
    }
}

fn run_inner(root: &Path, options: &Options) -> Report {
    let mut report = Report::default();
    let dir = root.join(CEL_PACKAGE);
    let file = match gotable::GoTestFile::load(&dir) {
        Ok(f) => f,
        Err(e) => {
            report.table_errors.push(("*".into(), e));
            return report;
        }
    };
    for (func, var) in TABLES {
        if options
            .table_filter
            .as_deref()
            .is_some_and(|f| !func.contains(f))
        {
            continue;
        }
        let table = match file.table_with(func, var, &cases::table_options(func)) {
            Ok(t) => t,
            Err(e) => {
                report.table_errors.push((func.to_string(), e));
                continue;
            }
        };
        for case in cases::cases(&table) {
            push_case(&mut report, case);
        }
    }
    let ratcheting = root.join(ratcheting::RATCHETING_FILE);
    match std::fs::read_to_string(&ratcheting) {
        Ok(text) => {
            for case in ratcheting::cases(&text, &file, options.table_filter.as_deref()) {
                push_case(&mut report, case);
            }
        }
        Err(e) => report.table_errors.push((
            ratcheting::RATCHETING_FILE.to_string(),
            format!("{}: {e}", ratcheting.display()),
        )),
    }
    report
}

fn push_case(report: &mut Report, case: Case) {
    let outcome = run_case(&case);
    report.cases.push(CaseResult {
        table: case.table,
        name: case.name,
        line: case.line,
        outcome,
    });
}

/// Runs one case through kdv-openapi and checks upstream's assertions.
pub fn run_case(case: &Case) -> Outcome {
    let (call, expect) = match &case.run {
        Ok(x) => x,
        Err((reason, detail)) => {
            return Outcome::Skipped {
                reason: reason.clone(),
                detail: detail.clone(),
            };
        }
    };
    match expect {
        Expect::Compiled { .. } | Expect::CompiledCost { .. } => {
            return match catch_unwind(AssertUnwindSafe(|| check_compiled(call, expect))) {
                Ok(Ok(())) => Outcome::Passed,
                Ok(Err((cause, diff))) => Outcome::Failed { cause, diff },
                Err(_) => Outcome::Failed {
                    cause: "kdv panicked".into(),
                    diff: "kdv panicked".into(),
                },
            };
        }
        Expect::FieldPath {
            field_path,
            err_detail,
            valid,
        } => {
            return match catch_unwind(AssertUnwindSafe(|| {
                check_field_path(call, field_path, err_detail, valid.as_deref())
            })) {
                Ok(Ok(())) => Outcome::Passed,
                Ok(Err((cause, diff))) => Outcome::Failed { cause, diff },
                Err(_) => Outcome::Failed {
                    cause: "kdv panicked".into(),
                    diff: "kdv panicked".into(),
                },
            };
        }
        Expect::ValuesUpdateValid(valid) => {
            return match catch_unwind(AssertUnwindSafe(|| check_values_update(call, *valid))) {
                Ok(Ok(())) => Outcome::Passed,
                Ok(Err((cause, diff))) => Outcome::Failed { cause, diff },
                Err(_) => Outcome::Failed {
                    cause: "kdv panicked".into(),
                    diff: "kdv panicked".into(),
                },
            };
        }
        _ => {}
    }
    let result = catch_unwind(AssertUnwindSafe(|| kdv_validate(call)));
    let report = match result {
        Ok(Ok(r)) => r,
        Ok(Err((cause, diff))) => return Outcome::Failed { cause, diff },
        Err(_) => {
            return Outcome::Failed {
                cause: "kdv panicked".into(),
                diff: "kdv panicked".into(),
            };
        }
    };
    match check(expect, call, &report) {
        Ok(()) => Outcome::Passed,
        Err((cause, diff)) => Outcome::Failed { cause, diff },
    }
}

/// The Kubernetes minor whose CRD format handling keeps every format the ratcheting unit
/// tests name. Those tests hand their schema to kube-openapi's validator as it is, without
/// the API server's stripping of unsupported formats; kdv-openapi compiles a CRD schema
/// with the stripping of a Kubernetes version, and from 1.36 on it keeps the numeric
/// formats (`int32`, `int64`, `float`, `double`) of numeric types, which before 1.36 it
/// strips as upstream did.
pub const UNSTRIPPED_FORMATS_MINOR: u32 = 36;

/// The schema as a [`Resource`], or (cause, difference).
fn resource_of(schema: &serde_json::Value) -> Result<Resource, Mismatch> {
    resource_at(schema, kdv_openapi::DEFAULT_KUBERNETES_MINOR)
}

/// The schema as a [`Resource`] with the rules of Kubernetes 1.`minor`.
fn resource_at(schema: &serde_json::Value, minor: u32) -> Result<Resource, Mismatch> {
    Resource::from_crd_schema("conformance.kdv.test", "v1", "Case", schema, minor).map_err(|e| {
        (
            "kdv: schema not compiled".to_string(),
            format!("kdv cannot compile the schema: {}", e.message),
        )
    })
}

/// The compile tables: the schema's root rules compiled as upstream's `Compile(s,
/// model.SchemaDeclType(s, false), ...)` and the expectation checked.
fn check_compiled(call: &Call, expect: &Expect) -> Result<(), Mismatch> {
    let resource = resource_of(&call.schema)?;
    let results = kdv_openapi::cel::compile_rules(&resource, call.resource_root).map_err(|e| {
        (
            "compile error".to_string(),
            format!("expected per-rule results, got the error {e}"),
        )
    })?;
    match expect {
        Expect::Compiled {
            index,
            rules,
            matcher,
        } => {
            if results.len() != *rules {
                return Err((
                    "result count".into(),
                    format!("expected {rules} results, got {}", results.len()),
                ));
            }
            let r = &results[*index];
            if matcher.matches(r) {
                Ok(())
            } else {
                Err((
                    format!("compile result: {matcher}"),
                    format!(
                        "result {} does not match expectation: {matcher}; got error [{}], \
                         messageExpression error [{}], transition rule {}, program {}",
                        index + 1,
                        r.error
                            .as_ref()
                            .map(|e| format!("{} {}", e.error_type.as_str(), one_line(&e.detail)))
                            .unwrap_or_default(),
                        r.message_expression_error
                            .as_ref()
                            .map(|e| format!("{} {}", e.error_type.as_str(), one_line(&e.detail)))
                            .unwrap_or_default(),
                        r.uses_old_self,
                        r.has_program
                    ),
                ))
            }
        }
        Expect::CompiledCost {
            exact,
            at_least,
            at_most,
        } => {
            if results.len() != 1 {
                return Err((
                    "result count".into(),
                    format!("expected one rule, got {}", results.len()),
                ));
            }
            let r = &results[0];
            if let Some(e) = &r.error {
                return Err((
                    "compile error".into(),
                    format!(
                        "expected no compile-time error, got {}",
                        one_line(&e.detail)
                    ),
                ));
            }
            if let Some(c) = exact
                && r.max_cost != *c
            {
                return Err((
                    "estimated cost differs".into(),
                    format!("wrong cost (expected {c}, got {})", r.max_cost),
                ));
            }
            if let Some(c) = at_least
                && r.max_cost < *c
            {
                return Err((
                    "estimated cost below the limit".into(),
                    format!(
                        "cost did not exceed limit as expected (expected more than {c}, got {})",
                        r.max_cost
                    ),
                ));
            }
            if let Some(c) = at_most
                && r.max_cost > *c
            {
                return Err((
                    "estimated cost above the bound".into(),
                    format!("MaxCost = {}, expected it bounded (<= {c})", r.max_cost),
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// TestValidateFieldPath: `ValidFieldPath` on the table's schema, with the test's
/// assertions (an error containing `err_detail`, or none; the normalized path appended to
/// `field.NewPath("")`).
fn check_field_path(
    call: &Call,
    field_path: &str,
    err_detail: &str,
    valid: Option<&str>,
) -> Result<(), Mismatch> {
    let resource = resource_of(&call.schema)?;
    let (arena, root) = resource.schema();
    match kdv_openapi::cel::valid_field_path(field_path, arena, root) {
        Err(e) if err_detail.is_empty() => {
            Err(("unexpected error".into(), format!("unexpected error: {e}")))
        }
        Err(e) if !e.contains(err_detail) => Err((
            "error text differs".into(),
            format!("expected error to contain: {err_detail}, but get: {e}"),
        )),
        Err(_) => Ok(()),
        Ok(_) if !err_detail.is_empty() => Err((
            "missing error".into(),
            format!("expected err contains: {err_detail} but get nil"),
        )),
        Ok(p) => match valid {
            Some(want) => {
                let got = FieldPath::new("").child(&p.to_string()).to_string();
                if got == want {
                    Ok(())
                } else {
                    Err(("path differs".into(), format!("expected {want}, got {got}")))
                }
            }
            None => Ok(()),
        },
    }
}

/// The ratcheting unit tests: the schema's value validations on an update, with ratcheting;
/// only validity is asserted.
fn check_values_update(call: &Call, valid: bool) -> Result<(), Mismatch> {
    let resource = resource_at(&call.schema, UNSTRIPPED_FORMATS_MINOR)?;
    let old = call.old.as_ref().unwrap_or(&serde_json::Value::Null);
    let errs = resource.validate_values_update(&call.object, old);
    if errs.is_empty() == valid {
        return Ok(());
    }
    Err(match errs.first() {
        Some(e) => (
            error_cause("unexpected error", e),
            format!(
                "expected the update to be valid, got {}",
                one_line(&e.to_string())
            ),
        ),
        None => (
            "missing error".into(),
            "expected the update to be invalid, got no errors".into(),
        ),
    })
}

/// The schema compiled and its rules run, or (cause, difference).
fn kdv_validate(call: &Call) -> Result<RuleReport, (String, String)> {
    let resource = Resource::from_crd_schema(
        "conformance.kdv.test",
        "v1",
        "Case",
        &call.schema,
        kdv_openapi::DEFAULT_KUBERNETES_MINOR,
    )
    .map_err(|e| {
        (
            "kdv: schema not compiled".to_string(),
            format!("kdv cannot compile the schema: {}", e.message),
        )
    })?;
    let options = RuleValidation {
        resource_root: call.resource_root,
        root_path: FieldPath::new("root"),
        cost_budget: call.cost_budget,
        per_call_limit: call.per_call_limit,
        ratcheting: call.ratcheting,
    };
    validate_rules(&resource, &call.object, call.old.as_ref(), &options).map_err(|e| {
        (
            format!("kdv: {e}"),
            format!("kdv did not run the rules: {e}"),
        )
    })
}

type Mismatch = (String, String);

/// The grouping cause of an unexpected kdv error: its type and the detail's first words.
fn error_cause(prefix: &str, e: &kdv_runtime::FieldError) -> String {
    let words: Vec<&str> = e.detail.split_whitespace().take(4).collect();
    format!("{prefix} {}: {}", e.error_type.as_str(), words.join(" "))
}

fn check(expect: &Expect, call: &Call, r: &RuleReport) -> Result<(), Mismatch> {
    let errs = &r.errors;
    let spent = call.cost_budget.saturating_sub(r.remaining_budget);
    match expect {
        Expect::NoErrors { cost, no_cost } => {
            if let Some(e) = errs.first() {
                return Err((
                    error_cause("unexpected error", e),
                    format!(
                        "expected no errors, got {}: {}",
                        errs.len(),
                        one_line(&e.to_string())
                    ),
                ));
            }
            if let Some(c) = cost
                && spent != *c
            {
                return Err((
                    "cost differs".into(),
                    format!("expected cost {c}, got {spent}"),
                ));
            }
            if *no_cost && spent != 0 {
                return Err((
                    "skipped rule cost budget".into(),
                    format!("expected no cost for a skipped rule, got {spent}"),
                ));
            }
            Ok(())
        }
        Expect::AllInvalidContaining(text) => {
            if errs.is_empty() {
                return Err((
                    "missing error".into(),
                    format!("expected an error containing {text:?}, got none"),
                ));
            }
            for e in errs {
                let s = e.to_string();
                if e.error_type != ErrorType::Invalid || !s.contains(text.as_str()) {
                    return Err((
                        error_cause("wrong error", e),
                        format!("expected {text:?} in every error, got {}", one_line(&s)),
                    ));
                }
            }
            Ok(())
        }
        Expect::InvalidEachMatched(want) => {
            let mut unmatched: Vec<&String> = want.iter().collect();
            for e in errs {
                if e.error_type != ErrorType::Invalid {
                    return Err((
                        error_cause("unexpected error", e),
                        format!(
                            "expected only Invalid errors, got {}",
                            one_line(&e.to_string())
                        ),
                    ));
                }
                let s = e.to_string();
                match unmatched.iter().position(|w| s.contains(w.as_str())) {
                    Some(i) => {
                        unmatched.remove(i);
                    }
                    None => {
                        return Err((
                            error_cause("unexpected error", e),
                            format!(
                                "expected an error containing one of {unmatched:?}, got {}",
                                one_line(&s)
                            ),
                        ));
                    }
                }
            }
            if let Some(w) = unmatched.first() {
                return Err((
                    "missing error".into(),
                    format!("expected an error containing {w:?}, not reported"),
                ));
            }
            Ok(())
        }
        Expect::TypesAndFields(want) => {
            let mut got: Vec<(ErrorType, String)> = errs
                .iter()
                .map(|e| (e.error_type, e.field.to_string()))
                .collect();
            let mut missing = Vec::new();
            for w in want {
                match got.iter().position(|g| g == w) {
                    Some(i) => {
                        got.remove(i);
                    }
                    None => missing.push(w),
                }
            }
            if missing.is_empty() && got.is_empty() {
                return Ok(());
            }
            let render = |v: &[&(ErrorType, String)]| {
                v.iter()
                    .map(|(t, f)| format!("{} {f}", t.as_str()))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let extra: Vec<&(ErrorType, String)> = got.iter().collect();
            Err((
                if missing.is_empty() {
                    "unexpected error".into()
                } else {
                    "missing error".into()
                },
                format!(
                    "missing [{}], unexpected [{}]",
                    render(&missing),
                    render(&extra)
                ),
            ))
        }
        Expect::Ratcheting { errors, warnings } => {
            if errs.len() != errors.len() {
                return Err((
                    "ratcheting error count".into(),
                    format!(
                        "expected {} errors, got {}{}",
                        errors.len(),
                        errs.len(),
                        errs.first()
                            .map(|e| format!(" (first: {})", one_line(&e.to_string())))
                            .unwrap_or_default()
                    ),
                ));
            }
            if r.warnings.len() != warnings.len() {
                return Err((
                    "ratcheting warning count".into(),
                    format!(
                        "expected {} warnings, got {}",
                        warnings.len(),
                        r.warnings.len()
                    ),
                ));
            }
            for w in errors {
                if !errs.iter().any(|e| e.to_string().contains(w.as_str())) {
                    return Err((
                        "missing error".into(),
                        format!("expected an error containing {w:?}"),
                    ));
                }
            }
            for w in warnings {
                if !r.warnings.iter().any(|g| g == w) {
                    return Err((
                        "missing warning".into(),
                        format!("expected the warning {w:?}"),
                    ));
                }
            }
            Ok(())
        }
        Expect::OneError { text, remaining } => {
            if errs.len() != 1 {
                return Err((
                    "error count".into(),
                    format!("expected 1 error, got {}", errs.len()),
                ));
            }
            let s = errs[0].to_string();
            if !text.is_empty() && !s.contains(text.as_str()) {
                return Err((
                    error_cause("wrong error", &errs[0]),
                    format!("expected {text:?} in the error, got {}", one_line(&s)),
                ));
            }
            if let Some(rem) = remaining
                && *rem != r.remaining_budget
            {
                return Err((
                    "remaining budget differs".into(),
                    format!("expected {rem} cost left, got {}", r.remaining_budget),
                ));
            }
            Ok(())
        }
        Expect::OnlyInvalidContaining(text) => {
            let found = errs.iter().any(|e| {
                e.error_type == ErrorType::Invalid && e.to_string().contains(text.as_str())
            });
            if let Some(e) = errs.iter().find(|e| {
                !(e.error_type == ErrorType::Invalid && e.to_string().contains(text.as_str()))
            }) {
                return Err((
                    error_cause("unexpected error", e),
                    format!("expected only {text:?}, got {}", one_line(&e.to_string())),
                ));
            }
            if !found {
                return Err((
                    "missing error".into(),
                    format!("expected an error containing {text:?}, got none"),
                ));
            }
            if errs.len() > 1 {
                return Err((
                    "error count".into(),
                    format!("expected the error once, got {}", errs.len()),
                ));
            }
            Ok(())
        }
        // Run by `check_compiled` and `check_values_update`, never with a rule report.
        Expect::Compiled { .. }
        | Expect::CompiledCost { .. }
        | Expect::ValuesUpdateValid(_)
        | Expect::FieldPath { .. } => Err((
            "runner".into(),
            "a compile or value-validation case was checked as a rule validation".into(),
        )),
        Expect::SomeInvalidContaining(text) => {
            if errs.iter().any(|e| {
                e.error_type == ErrorType::Invalid && e.to_string().contains(text.as_str())
            }) {
                Ok(())
            } else {
                Err((
                    "missing error".into(),
                    format!(
                        "expected an error containing {text:?}, got {}",
                        errs.first()
                            .map(|e| one_line(&e.to_string()))
                            .unwrap_or_else(|| "none".into())
                    ),
                ))
            }
        }
    }
}
