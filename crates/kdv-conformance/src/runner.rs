//! Runs the conformance suite: finds the fixture packages under `output_tests`, loads and
//! compiles each with kdv, interprets its test files case by case, runs its
//! `validate-false.json` fixture, and collects the outcomes.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use kdv_model::{NamedRef, TypeRef, Universe};
use kdv_runtime::{FieldError, Operation, OperationKind};

use crate::backend::{CompiledPackage, catch, compile_package};
use crate::coverage::{Gvk, Observed};
use crate::interp::{Abort, Expectation, Harness, Interp, PackageCtx};
use crate::matcher::{Matcher, TestFailure, failure_text, render_error};
use crate::parser::parse_file;
use crate::randfill::Filler;
use crate::report::{CaseFailure, CaseResult, FailureKind, Outcome, PackageReport, Report};
use crate::syntax::{Expr, ExprKind, FuncDecl, Stmt, TypeExpr};
use crate::tojson::to_json;
use crate::types::{TypeEnv, named};
use crate::value::{Scope, TesterState, Value};

/// Options of a run.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Only packages whose path (relative to `output_tests`) contains this text.
    pub package_filter: Option<String>,
    /// The emissions coverage tests declare rules with (default: what lowering attached,
    /// [`kdv_rules::emissions::attached`]). Tests substitute wrong ones to check that the
    /// coverage cases can fail.
    pub emission_table: Option<fn(&kdv_rules::Validation) -> Vec<kdv_rules::Emission>>,
}

/// Where upstream keeps the fixtures, relative to the code-generator root.
const OUTPUT_TESTS: &str = "cmd/validation-gen/output_tests";

/// Runs every fixture package of the code-generator checkout at `codegen_root`. The work
/// happens on a thread of its own with the stack the interpreter needs.
pub fn run_validation_gen(codegen_root: &Path, options: &RunOptions) -> Report {
    let root = codegen_root.to_path_buf();
    let opts = options.clone();
    let worker = std::thread::Builder::new()
        .name("kdv-conformance".into())
        .stack_size(crate::interp::STACK_SIZE)
        .spawn(move || run_all(&root, &opts));
    match worker.map_err(|e| e.to_string()).and_then(|h| {
        h.join()
            .map_err(|_| "the conformance run panicked".to_string())
    }) {
        Ok(r) => r,
        Err(e) => Report {
            errors: vec![e],
            ..Report::default()
        },
    }
}

fn run_all(codegen_root: &Path, options: &RunOptions) -> Report {
    let root = codegen_root.join(OUTPUT_TESTS);
    let mut report = Report::default();
    if !root.is_dir() {
        report
            .errors
            .push(format!("{} is not a directory", root.display()));
        return report;
    }
    let mut dirs = Vec::new();
    collect_dirs(&root, &mut dirs, 0);
    dirs.sort();
    // Panics inside kdv are caught and reported per case; keep them off stderr.
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for dir in dirs {
        let rel = dir
            .strip_prefix(&root)
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        if rel.is_empty() {
            continue;
        }
        if let Some(f) = &options.package_filter
            && !rel.contains(f.as_str())
        {
            continue;
        }
        let files = PackageFiles::find(&dir);
        if files.is_empty() {
            continue;
        }
        report.test_files += files.tests.len();
        let name = rel.clone();
        let pr =
            catch(|| run_package(&dir, &rel, &files, options)).unwrap_or_else(|p| PackageReport {
                name: name.clone(),
                cases: vec![CaseResult {
                    id: format!("{name}#harness"),
                    line: 0,
                    validated: false,
                    outcome: Outcome::Failed(CaseFailure {
                        kind: FailureKind::Harness,
                        cause: "harness panicked".into(),
                        reason: format!("harness panicked: {p}"),
                        expected: String::new(),
                        got: String::new(),
                        input: String::new(),
                    }),
                }],
                compile_errors: Vec::new(),
                unimplemented_tags: Vec::new(),
                notes: Vec::new(),
            });
        report.packages.push(pr);
    }
    std::panic::set_hook(previous_hook);
    report
}

fn collect_dirs(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) {
    if depth > 16 {
        return;
    }
    out.push(dir.to_path_buf());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() && p.file_name().is_some_and(|n| n != "testdata") {
            collect_dirs(&p, out, depth + 1);
        }
    }
}

/// The test inputs of one package directory.
#[derive(Debug, Default)]
struct PackageFiles {
    /// Hand-written test files (`doc_test.go`, `validation_test.go`).
    tests: Vec<PathBuf>,
    fixture: Option<PathBuf>,
    coverage: bool,
}

impl PackageFiles {
    fn find(dir: &Path) -> PackageFiles {
        let mut f = PackageFiles::default();
        let Ok(entries) = std::fs::read_dir(dir) else {
            return f;
        };
        let mut tests = Vec::new();
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with("_test.go") {
                if name == "zz_generated.validations_coverage_test.go" {
                    f.coverage = true;
                } else if !name.starts_with("zz_generated") {
                    tests.push(e.path());
                }
            }
        }
        tests.sort();
        f.tests = tests;
        let fixture = dir.join("testdata/validate-false.json");
        if fixture.is_file() {
            f.fixture = Some(fixture);
        }
        f
    }

    fn is_empty(&self) -> bool {
        self.tests.is_empty() && self.fixture.is_none() && !self.coverage
    }
}

fn harness_failure(cause: impl Into<String>, reason: impl Into<String>) -> CaseFailure {
    CaseFailure {
        kind: FailureKind::Harness,
        cause: cause.into(),
        reason: reason.into(),
        expected: String::new(),
        got: String::new(),
        input: String::new(),
    }
}

fn run_package(dir: &Path, rel: &str, files: &PackageFiles, options: &RunOptions) -> PackageReport {
    let mut report = PackageReport {
        name: rel.to_string(),
        ..PackageReport::default()
    };
    let fail_all = |report: &mut PackageReport, cause: &str, reason: String| {
        report.cases.push(CaseResult {
            id: format!("{rel}#load"),
            line: 0,
            validated: false,
            outcome: Outcome::Failed(harness_failure(cause, reason)),
        });
    };
    // Parse the test files first: their imports may name packages the package itself does
    // not import.
    let mut parsed = Vec::new();
    for path in &files.tests {
        match std::fs::read_to_string(path) {
            Ok(text) => parsed.push((path.clone(), parse_file(&text))),
            Err(e) => {
                fail_all(
                    &mut report,
                    "cannot read test file",
                    format!("{}: {e}", path.display()),
                );
                return report;
            }
        }
    }
    let extra: Vec<String> = parsed
        .iter()
        .flat_map(|(_, p)| p.file.imports.iter().map(|(_, path)| path.clone()))
        .collect();
    let (universe, package_path) = match load_package_universe(dir, &extra) {
        Ok(x) => x,
        Err(e) => {
            fail_all(&mut report, "cannot load package", e);
            return report;
        }
    };
    let compiled = compile_package(&universe, &package_path);
    let custom = crate::custom::GoCustomValidators::load(&universe);
    if let Ok(c) = &compiled {
        report.compile_errors = c.errors.clone();
        report.unimplemented_tags = c.unimplemented_tags.iter().cloned().collect();
        if let Some(note) = registration_note(dir, c) {
            report.notes.push(note);
        }
    }
    let env = TypeEnv::new(&universe);
    let mut imports = HashMap::new();
    let mut funcs = HashMap::new();
    let mut order: Vec<Rc<FuncDecl>> = Vec::new();
    let mut globals = Vec::new();
    let mut broken: Vec<(String, String)> = Vec::new();
    for (path, p) in &parsed {
        for (alias, ipath) in &p.file.imports {
            imports.insert(alias.clone(), ipath.clone());
        }
        for f in &p.file.funcs {
            let f = Rc::new(f.clone());
            funcs.insert(f.name.clone(), f.clone());
            order.push(f);
        }
        globals.extend(p.file.values.iter().cloned());
        for (name, e) in &p.broken {
            broken.push((
                name.clone(),
                format!(
                    "syntax error at {}:{}: {}",
                    path.display(),
                    e.line,
                    e.message
                ),
            ));
        }
        for e in &p.errors {
            broken.push((
                String::new(),
                format!(
                    "syntax error at {}:{}: {}",
                    path.display(),
                    e.line,
                    e.message
                ),
            ));
        }
    }
    let ctx = PackageCtx {
        env,
        path: package_path.clone(),
        imports,
        funcs,
        globals: Rc::new(Scope::default()),
    };
    let mut harness = PackageHarness {
        rel: rel.to_string(),
        package_path: package_path.clone(),
        compiled: &compiled,
        custom: custom
            .as_ref()
            .map(|c| c as &dyn kdv_eval::CustomValidators),
        func: String::new(),
        counter: 0,
        cases: Vec::new(),
        others: HashMap::new(),
        observed: Observed::default(),
    };
    for (name, reason) in &broken {
        harness.push_failed(
            &format!(
                "{rel}/{}#parse",
                if name.is_empty() { "file" } else { name }
            ),
            0,
            harness_failure("harness: syntax error in test file", reason.clone()),
        );
    }
    {
        let mut it = Interp::new(&ctx, &mut harness);
        if let Err(e) = it.init_globals(&globals) {
            let reason = abort_text(&e);
            harness.push_failed(
                &format!("{rel}#globals"),
                0,
                harness_failure(format!("harness: {}", cause_of(&reason)), reason),
            );
        }
    }
    for f in &order {
        if !is_test_func(f) || broken.iter().any(|(n, _)| n == &f.name) {
            continue;
        }
        harness.func = f.name.clone();
        harness.counter = 0;
        let since = harness.cases.len();
        let result = {
            let mut it = Interp::new(&ctx, &mut harness);
            it.run_test(f)
        };
        let (kind, reason, line) = match result {
            Ok(()) => continue,
            Err(Abort::Error(e)) => (
                FailureKind::Harness,
                format!("harness: cannot interpret (line {}): {}", e.line, e.message),
                e.line,
            ),
            Err(Abort::Fatal(msg, line)) => (
                FailureKind::Mismatch,
                format!("t.Fatalf at line {line}: {msg}"),
                line,
            ),
        };
        let marked = harness.fail_pending(since, kind, &reason);
        // Cases the function would still have run.
        let mut lines = Vec::new();
        visit_stmts(&f.body, &mut |e| {
            if crate::library::is_value_call(e) && e.line > line {
                lines.push(e.line);
            }
        });
        if marked == 0 && lines.is_empty() {
            let id = format!("{rel}/{}#abort", f.name);
            harness.push_failed(&id, line, failure_with(kind, &reason));
        }
        for l in lines {
            let id = format!("{rel}/{}#unreached@{l}", f.name);
            harness.push_failed(
                &id,
                l,
                failure_with(kind, &format!("not reached: {reason}")),
            );
        }
    }
    if let Some(fixture) = &files.fixture {
        harness.func = "validate-false.json".into();
        let custom_ref = harness.custom;
        let mut observed = Observed::default();
        let results = {
            let mut it = Interp::new(&ctx, &mut harness);
            run_fixture(&mut it, fixture, &compiled, custom_ref, rel, &mut observed)
        };
        harness.observed.merge(observed);
        for (id, failure) in results {
            match failure {
                None => harness.cases.push(CaseRecord {
                    id,
                    line: 0,
                    verbs: 1,
                    validated: true,
                    failure: None,
                }),
                Some(f) => harness.push_failed(&id, 0, f),
            }
        }
    }
    let coverage_case = files.coverage.then(|| {
        let table: &kdv_rules::emissions::EmissionTable = match &options.emission_table {
            Some(f) => f,
            None => &kdv_rules::emissions::attached,
        };
        run_coverage(
            dir,
            rel,
            &ctx.env,
            &package_path,
            &compiled,
            &harness.observed,
            table,
        )
    });
    report.cases = harness
        .cases
        .into_iter()
        .map(|c| CaseResult {
            id: c.id,
            line: c.line,
            validated: c.validated,
            outcome: match c.failure {
                Some(f) => Outcome::Failed(f),
                None => Outcome::Passed,
            },
        })
        .collect();
    report.cases.extend(coverage_case);
    report
}

/// The coverage test of a package (spec §10.7): kdv's declared rules must equal those
/// upstream's generated coverage test registers, and each must have been observed by the
/// package's validations.
fn run_coverage(
    dir: &Path,
    rel: &str,
    env: &TypeEnv<'_>,
    package_path: &str,
    compiled: &Result<CompiledPackage, String>,
    observed: &Observed,
    table: &kdv_rules::emissions::EmissionTable,
) -> CaseResult {
    let result = |failure: Option<CaseFailure>| CaseResult {
        id: format!("{rel}#coverage"),
        line: 0,
        validated: true,
        outcome: failure.map_or(Outcome::Passed, Outcome::Failed),
    };
    let compiled = match compiled {
        Ok(c) => c,
        Err(e) => {
            return result(Some(failure_with(FailureKind::Panic, e)));
        }
    };
    let mut sources = vec![package_path.to_string()];
    if let Some(pkg) = env.universe.packages.get(package_path) {
        sources.extend(pkg.tags.raw_values("k8s:validation-gen-input"));
    }
    let roots: Vec<(Gvk, kdv_rules::TypeId)> = compiled
        .rules
        .roots()
        .filter(|r| sources.contains(&r.package))
        .map(|r| {
            let gvk = Gvk {
                group: r.package.clone(),
                version: compiled.rules.type_rules(r.id).package_name.clone(),
                kind: r.name.clone(),
            };
            (gvk, r.id)
        })
        .collect();
    let declared = match crate::coverage::declared(&compiled.rules, &roots, table) {
        Ok(d) => d,
        Err(e) => return result(Some(failure_with(FailureKind::Mismatch, &e))),
    };
    let generated = dir.join("zz_generated.validations_coverage_test.go");
    let upstream = match std::fs::read_to_string(&generated)
        .map_err(|e| e.to_string())
        .and_then(|t| crate::coverage::parse_generated(&t))
    {
        Ok(u) => u,
        Err(e) => {
            return result(Some(harness_failure(
                "harness: cannot read the generated coverage test",
                format!("{}: {e}", generated.display()),
            )));
        }
    };
    if declared != upstream {
        return result(Some(CaseFailure {
            kind: FailureKind::Mismatch,
            cause: "coverage: declared rules differ from upstream's".into(),
            reason: "kdv's declared rules differ from those upstream's generated coverage test registers".into(),
            expected: crate::coverage::render_rules(&upstream),
            got: crate::coverage::render_rules(&declared),
            input: String::new(),
        }));
    }
    let missing = crate::coverage::uncovered(&declared, observed);
    if missing.is_empty() {
        return result(None);
    }
    let message = crate::coverage::render_uncovered(&missing);
    result(Some(CaseFailure {
        kind: FailureKind::Mismatch,
        cause: "coverage: uncovered declarative-validation rules".into(),
        reason: message.trim_end().to_string(),
        expected: "every declared rule observed".into(),
        got: message,
        input: String::new(),
    }))
}

/// The GVK upstream's test scheme records a validation of `value` under (the package path,
/// package name and name of its type, pointers removed), if the type is named.
fn gvk_of(env: &TypeEnv<'_>, value: &Value) -> Option<Gvk> {
    let ty = match value.clone().unwrap_iface() {
        Value::Ptr(ty, _) | Value::Slice(ty, _) | Value::Map(ty, _) => ty,
        _ => return None,
    };
    let TypeRef::Named(n) = env.unalias(&ty) else {
        return None;
    };
    let version = env.universe.packages.get(&n.package)?.name.clone();
    Some(Gvk {
        group: n.package.clone(),
        version,
        kind: n.name.clone(),
    })
}

fn failure_with(kind: FailureKind, reason: &str) -> CaseFailure {
    CaseFailure {
        kind,
        cause: cause_of(reason),
        reason: reason.to_string(),
        expected: String::new(),
        got: String::new(),
        input: String::new(),
    }
}

/// A grouping key for a free-text reason: the message without line numbers.
fn cause_of(reason: &str) -> String {
    let mut s = reason.to_string();
    if let Some(i) = s.find("(line ")
        && let Some(j) = s[i..].find(')')
    {
        s.replace_range(i..i + j + 1, "");
    }
    if let Some(i) = s.find(" at line ")
        && let Some(j) = s[i + 9..].find(':')
    {
        s.replace_range(i..i + 9 + j, "");
    }
    s.trim_start_matches("not reached: ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn abort_text(a: &Abort) -> String {
    match a {
        Abort::Error(e) => format!("harness: cannot interpret (line {}): {}", e.line, e.message),
        Abort::Fatal(m, l) => format!("t.Fatalf at line {l}: {m}"),
    }
}

fn is_test_func(f: &FuncDecl) -> bool {
    f.name.starts_with("Test")
        && f.sig.params.len() == 1
        && matches!(&f.sig.params[0].1, TypeExpr::Pointer(inner) if matches!(&**inner, TypeExpr::Name { pkg: Some(p), name, .. } if p == "testing" && name == "T"))
}

/// The import path of the package in `dir`.
pub(crate) fn package_path_of(universe: &Universe, dir: &Path) -> Option<String> {
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let want = canon(dir);
    universe
        .packages
        .values()
        .find(|p| p.dir.as_deref().map(canon).as_deref() == Some(want.as_path()))
        .map(|p| p.path.clone())
}

/// Compares the root types kdv registers with those upstream's generated
/// `RegisterValidations` (in `zz_generated.validations.go`) registers; a note when they
/// differ.
fn registration_note(dir: &Path, compiled: &CompiledPackage) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("zz_generated.validations.go")).ok()?;
    let mut upstream = std::collections::BTreeSet::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("AddValidationFunc(") {
        rest = &rest[i + "AddValidationFunc(".len()..];
        let arg = rest.trim_start();
        // `(*T)(nil)` or `(T)(nil)`.
        if let Some(inner) = arg.strip_prefix('(')
            && let Some(end) = inner.find(')')
        {
            // Compare type names only: `*types.T1` registers kdv's `types.T1` as `*T1`.
            let t = inner[..end].trim();
            let (star, name) = match t.strip_prefix('*') {
                Some(n) => ("*", n),
                None => ("", t),
            };
            let name = name.rsplit('.').next().unwrap_or(name);
            upstream.insert(format!("{star}{name}"));
        }
    }
    let ours: std::collections::BTreeSet<String> = compiled
        .registered
        .iter()
        .map(|r| {
            if r.nilable {
                r.name.clone()
            } else {
                format!("*{}", r.name)
            }
        })
        .collect();
    if ours == upstream {
        return None;
    }
    let only_up: Vec<_> = upstream.difference(&ours).cloned().collect();
    let only_ours: Vec<_> = ours.difference(&upstream).cloned().collect();
    Some(format!(
        "registered roots differ from upstream's RegisterValidations: only upstream {only_up:?}, only kdv {only_ours:?}"
    ))
}

/// Loads the package in `dir` with everything kdv and the interpreter need: the packages it
/// imports (kdv-go, including its well-known apimachinery packages), the packages named by
/// `+k8s:validation-gen-input` and the test files' imports (`extra`). Returns the universe
/// and the package's import path.
fn load_package_universe(dir: &Path, extra: &[String]) -> Result<(Universe, String), String> {
    let (mut universe, _) = kdv_go::load_universe(dir).map_err(|e| e.to_string())?;
    let package_path = package_path_of(&universe, dir)
        .ok_or_else(|| "package not found in universe".to_string())?;
    let mut wanted: Vec<String> = extra.to_vec();
    if let Some(pkg) = universe.packages.get(&package_path) {
        wanted.extend(pkg.tags.raw_values("k8s:validation-gen-input"));
    }
    load_test_imports(&mut universe, dir, &wanted);
    Ok((universe, package_path))
}

/// Test files may import sibling fixture packages, or well-known apimachinery packages
/// (`metav1`), that the package itself does not; load those (and their imports) too.
pub(crate) fn load_test_imports(universe: &mut Universe, dir: &Path, imports: &[String]) {
    for import in imports {
        if universe.packages.contains_key(import) {
            continue;
        }
        if let Some((package, _)) = kdv_go::well_known_package(import) {
            universe.packages.insert(import.clone(), package);
            kdv_go::add_well_known_packages(universe);
            continue;
        }
        let Some(pdir) = module_dir_of(dir, import) else {
            continue;
        };
        if let Ok((u, _)) = kdv_go::load_universe(&pdir) {
            for (k, v) in u.packages {
                universe.packages.entry(k).or_insert(v);
            }
        }
    }
    // Constants of the merged packages may refer to each other.
    kdv_go::resolve_constants(universe);
}

/// The directory of an import path inside the Go module enclosing `dir`.
fn module_dir_of(dir: &Path, import: &str) -> Option<PathBuf> {
    let mut cur = Some(dir);
    while let Some(d) = cur {
        let gomod = d.join("go.mod");
        if let Ok(text) = std::fs::read_to_string(&gomod) {
            let module = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("module "))?
                .trim()
                .trim_matches('"')
                .to_string();
            let rest = import.strip_prefix(&module)?.trim_start_matches('/');
            let p = d.join(rest);
            return p.is_dir().then_some(p);
        }
        cur = d.parent();
    }
    None
}

struct CaseRecord {
    id: String,
    line: u32,
    verbs: usize,
    /// kdv validated something for this case.
    validated: bool,
    failure: Option<CaseFailure>,
}

/// The harness side of one package run.
struct PackageHarness<'c> {
    rel: String,
    package_path: String,
    compiled: &'c Result<CompiledPackage, String>,
    /// The package's `ValidateCustom_*` functions, interpreted.
    custom: Option<&'c dyn kdv_eval::CustomValidators>,
    func: String,
    counter: usize,
    cases: Vec<CaseRecord>,
    /// Other packages compiled for direct `pkg.Validate_T` calls.
    others: HashMap<String, Result<CompiledPackage, String>>,
    /// The rules the package's scheme validations reported (for the coverage test).
    observed: Observed,
}

/// Whether the validated type was registered (affects failure classification).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Dispatch {
    Registered,
    /// Not validated; the value's named type, when it has one.
    NotRegistered(Option<(String, String)>),
}

impl PackageHarness<'_> {
    fn push_failed(&mut self, id: &str, line: u32, f: CaseFailure) {
        self.cases.push(CaseRecord {
            id: id.to_string(),
            line,
            verbs: 1,
            validated: false,
            failure: Some(f),
        });
    }

    fn next_id(&mut self) -> String {
        self.counter += 1;
        format!("{}/{}#{}", self.rel, self.func, self.counter)
    }

    fn compiled(&self) -> Result<&CompiledPackage, Box<CaseFailure>> {
        self.compiled.as_ref().map_err(|e| {
            Box::new(CaseFailure {
                kind: FailureKind::Panic,
                cause: "kdv-rules panicked".into(),
                reason: e.clone(),
                expected: String::new(),
                got: String::new(),
                input: String::new(),
            })
        })
    }

    /// Runs the validation a tester describes (spec §10.4 dispatch).
    fn validate_tester(
        &self,
        env: &TypeEnv<'_>,
        t: &TesterState,
    ) -> Result<(Vec<FieldError>, Dispatch, String), Box<CaseFailure>> {
        let compiled = self.compiled()?;
        let value = t.value.clone().unwrap_iface();
        let (named_ref, nilable) = match &value {
            Value::Ptr(ty, _) => match env.unalias(ty) {
                TypeRef::Named(n) => (n, false),
                _ => return Ok((Vec::new(), Dispatch::NotRegistered(None), String::new())),
            },
            Value::Slice(ty, _) | Value::Map(ty, _) => match env.unalias(ty) {
                TypeRef::Named(n) => (n, true),
                _ => return Ok((Vec::new(), Dispatch::NotRegistered(None), String::new())),
            },
            _ => return Ok((Vec::new(), Dispatch::NotRegistered(None), String::new())),
        };
        let Some(reg) = compiled
            .registration(&named_ref.package, &named_ref.name)
            .filter(|r| r.nilable == nilable)
        else {
            let key = (named_ref.package.clone(), named_ref.name.clone());
            return Ok((
                Vec::new(),
                Dispatch::NotRegistered(Some(key)),
                String::new(),
            ));
        };
        if matches!(&value, Value::Ptr(_, None)) {
            return Err(Box::new(harness_failure(
                "harness: nil object passed to Value",
                "st.Value with a nil pointer (upstream would panic)",
            )));
        }
        let path = if t.subresources.is_empty() {
            "/".to_string()
        } else {
            format!("/{}", t.subresources.join("/"))
        };
        if !reg.subresources.contains(&path) {
            let type_name = match &value {
                Value::Ptr(ty, _) => format!("*{}", env.type_string(ty)),
                v => v
                    .as_dynamic()
                    .clone()
                    .unwrap_iface()
                    .kind_name()
                    .to_string(),
            };
            let type_name = if nilable {
                env.type_string(&TypeRef::Named(named_ref.clone()))
            } else {
                type_name
            };
            let e = FieldError::internal(
                &kdv_runtime::PathRef::Nil,
                format!("no validation found for {type_name}, subresource: {path}"),
            );
            return Ok((
                vec![e],
                Dispatch::Registered,
                format!("subresource path {path}"),
            ));
        }
        let new = to_json(env, &value)
            .map_err(|e| harness_failure("harness: cannot convert value to JSON", e))?;
        let old = match &t.old {
            None => None,
            Some(o) => {
                let o = o.clone().unwrap_iface();
                let same = match (&o, nilable) {
                    (Value::Ptr(ty, Some(_)), false) => {
                        matches!(env.unalias(ty), TypeRef::Named(n) if n == named_ref)
                    }
                    (Value::Slice(ty, Some(_)) | Value::Map(ty, Some(_)), true) => {
                        matches!(env.unalias(ty), TypeRef::Named(n) if n == named_ref)
                    }
                    _ => false,
                };
                if same {
                    Some(to_json(env, &o).map_err(|e| {
                        harness_failure("harness: cannot convert old value to JSON", e)
                    })?)
                } else {
                    None
                }
            }
        };
        let op = Operation {
            kind: if t.old.is_some() {
                OperationKind::Update
            } else {
                OperationKind::Create
            },
            options: options_of(t.opts.as_ref()),
            subresources: t.subresources.clone(),
        };
        let errs = compiled
            .validate(reg.id, &op, &new, old.as_ref(), self.custom)
            .map_err(|p| CaseFailure {
                kind: FailureKind::Panic,
                cause: "kdv-eval panicked".into(),
                reason: p,
                expected: String::new(),
                got: String::new(),
                input: String::new(),
            })?;
        let input = format!(
            "{} options={:?} subresources={:?}\nnew: {}\nold: {}",
            if op.kind == OperationKind::Update {
                "Update"
            } else {
                "Create"
            },
            op.options,
            op.subresources,
            new,
            old.as_ref()
                .map_or_else(|| "<absent>".to_string(), |o| o.to_string())
        );
        Ok((errs, Dispatch::Registered, input))
    }

    /// Classifies a failed comparison.
    fn failure(
        &self,
        dispatch: &Dispatch,
        cause: String,
        reason: String,
        expected: String,
        got: String,
    ) -> CaseFailure {
        let compile_errors = self
            .compiled
            .as_ref()
            .map(|c| c.errors.as_slice())
            .unwrap_or(&[]);
        let unimplemented = self
            .compiled
            .as_ref()
            .map(|c| c.unimplemented_tags.iter().cloned().collect::<Vec<_>>())
            .unwrap_or_default();
        let (kind, cause) = if !unimplemented.is_empty() {
            (
                FailureKind::NotImplemented,
                format!(
                    "package uses tags kdv does not implement: {}",
                    unimplemented.join(", ")
                ),
            )
        } else if let Dispatch::NotRegistered(ty) = dispatch {
            let why = match (ty, self.compiled.as_ref()) {
                (Some((p, n)), Ok(c)) => c.why_unregistered(p, n),
                _ => "validated value is not of a registrable type",
            };
            (FailureKind::NotRegistered, why.to_string())
        } else if let Some(first) = compile_errors.first() {
            (
                FailureKind::Compile,
                format!("compile: {}", diagnostic_message(first)),
            )
        } else {
            (FailureKind::Mismatch, cause)
        };
        CaseFailure {
            kind,
            cause,
            reason,
            expected,
            got,
            input: String::new(),
        }
    }

    fn check(
        &self,
        dispatch: &Dispatch,
        exp: &Expectation,
        got: &[FieldError],
    ) -> Option<CaseFailure> {
        match exp {
            Expectation::Valid => {
                if got.is_empty() {
                    return None;
                }
                Some(self.failure(
                    dispatch,
                    format!("unexpected {}", error_key(&got[0])),
                    "ExpectValid: want no errors".into(),
                    "<no errors>".into(),
                    render_list(got),
                ))
            }
            Expectation::Matches(m, want) => self.check_matches(dispatch, m, want, got),
            Expectation::ValidateFalseByPath(want) => {
                let mut want = want.clone();
                for v in want.values_mut() {
                    v.sort();
                }
                let actual = validate_false_by_path(got);
                if actual == want {
                    return None;
                }
                let cause = vf_cause(&want, &actual);
                Some(self.failure(
                    dispatch,
                    cause,
                    "ExpectValidateFalseByPath: validateFalse messages by path differ".into(),
                    render_by_path(&want),
                    render_by_path(&actual),
                ))
            }
        }
    }

    fn check_matches(
        &self,
        dispatch: &Dispatch,
        m: &Matcher,
        want: &[FieldError],
        got: &[FieldError],
    ) -> Option<CaseFailure> {
        let failures = m.test(want, got);
        let first = failures.first()?;
        let cause = match first {
            TestFailure::Missing(e) => format!("missing {}", error_key(e)),
            TestFailure::Unmatched(e) => format!("unexpected {}", error_key(e)),
            TestFailure::Duplicate(e) => format!("duplicate {}", error_key(e)),
            TestFailure::AncestorShortCircuitUnsupported => failure_text(first),
        };
        let texts: Vec<String> = failures.iter().map(failure_text).collect();
        Some(self.failure(
            dispatch,
            cause,
            format!(
                "ExpectMatches ({}): {}",
                describe_matcher(m),
                texts.join("; ")
            ),
            render_list(want),
            render_list(got),
        ))
    }

    fn compiled_for(
        &mut self,
        env: &TypeEnv<'_>,
        package: &str,
    ) -> Result<&CompiledPackage, String> {
        if package == self.package_path {
            return self.compiled.as_ref().map_err(Clone::clone);
        }
        if !self.others.contains_key(package) {
            let dir = env
                .universe
                .packages
                .get(package)
                .and_then(|p| p.dir.clone());
            let result = match dir {
                None => Err(format!("package {package} is not loaded")),
                Some(dir) => match load_package_universe(&dir, &[]) {
                    Ok((u, path)) => compile_package(&u, &path),
                    Err(e) => Err(e),
                },
            };
            self.others.insert(package.to_string(), result);
        }
        match self.others.get(package) {
            Some(Ok(c)) => Ok(c),
            Some(Err(e)) => Err(e.clone()),
            None => Err(format!("package {package} is not loaded")),
        }
    }
}

impl Harness for PackageHarness<'_> {
    fn new_case(&mut self, line: u32) -> usize {
        let id = self.next_id();
        self.cases.push(CaseRecord {
            id,
            line,
            verbs: 0,
            validated: false,
            failure: None,
        });
        self.cases.len() - 1
    }

    fn expect(&mut self, env: &TypeEnv<'_>, tester: &TesterState, expectation: Expectation) {
        let Some(rec) = self.cases.get(tester.case) else {
            return;
        };
        if rec.failure.is_some() {
            if let Some(r) = self.cases.get_mut(tester.case) {
                r.verbs += 1;
            }
            return;
        }
        let failure = match self.validate_tester(env, tester) {
            Err(f) => Some(*f),
            Ok((got, dispatch, input)) => {
                if let Some(gvk) = gvk_of(env, &tester.value) {
                    self.observed.record(&gvk, &got);
                }
                if dispatch == Dispatch::Registered
                    && let Some(r) = self.cases.get_mut(tester.case)
                {
                    r.validated = true;
                }
                self.check(&dispatch, &expectation, &got).map(|mut f| {
                    f.input = input;
                    f
                })
            }
        };
        if let Some(r) = self.cases.get_mut(tester.case) {
            r.verbs += 1;
            if failure.is_some() {
                r.failure = failure;
            }
        }
    }

    fn matcher_test(
        &mut self,
        line: u32,
        matcher: &Matcher,
        want: &[FieldError],
        got: &[FieldError],
    ) {
        let id = self.next_id();
        let failure = self.check_matches(&Dispatch::Registered, matcher, want, got);
        self.cases.push(CaseRecord {
            id,
            line,
            verbs: 1,
            validated: true,
            failure,
        });
    }

    fn call_validate(
        &mut self,
        env: &TypeEnv<'_>,
        package: &str,
        type_name: &str,
        new: &Value,
        old: &Value,
    ) -> Result<Vec<FieldError>, String> {
        let value = new.clone().unwrap_iface();
        let qualified = match &value {
            Value::Ptr(ty, Some(_)) => match env.unalias(ty) {
                TypeRef::Named(NamedRef { package, name, .. }) => format!("{package}.{name}"),
                _ => type_name.to_string(),
            },
            _ => return Err(format!("Validate_{type_name} needs a non-nil pointer")),
        };
        let json = to_json(env, &value)?;
        let old_json = match old.clone().unwrap_iface() {
            v @ Value::Ptr(_, Some(_)) => Some(to_json(env, &v)?),
            _ => None,
        };
        let custom = self.custom;
        let compiled = self.compiled_for(env, package)?;
        let Some(id) = compiled
            .rules
            .find_type(&qualified)
            .or_else(|| compiled.rules.find_type(type_name))
        else {
            // kdv has no validation function for the type: it validates nothing.
            return Ok(Vec::new());
        };
        let op = if old_json.is_some() {
            Operation::update()
        } else {
            Operation::create()
        };
        compiled.validate(id, &op, &json, old_json.as_ref(), custom)
    }

    fn fail_pending(&mut self, since: usize, kind: FailureKind, reason: &str) -> usize {
        let mut n = 0;
        for c in self.cases.iter_mut().skip(since) {
            if c.verbs == 0 && c.failure.is_none() {
                c.failure = Some(failure_with(kind, reason));
                n += 1;
            }
        }
        n
    }

    fn case_count(&self) -> usize {
        self.cases.len()
    }
}

fn options_of(v: Option<&Value>) -> BTreeMap<String, bool> {
    let mut out = BTreeMap::new();
    if let Some(Value::Map(_, Some(m))) = v.map(Value::as_dynamic) {
        for (k, val) in m.borrow().iter() {
            if let (Some(k), Some(b)) = (k.as_str(), val.as_bool()) {
                out.insert(k.to_string(), b);
            }
        }
    }
    out
}

/// The `validateFalse` messages of an error list, grouped by field path and sorted
/// (spec §10.4).
pub fn validate_false_by_path(errs: &[FieldError]) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for e in errs {
        if let Some(arg) = e.detail.strip_prefix("forced failure: ") {
            let mut f = e.field.to_string();
            if f == "<nil>" {
                f.clear();
            }
            out.entry(f).or_default().push(arg.to_string());
        }
    }
    for v in out.values_mut() {
        v.sort();
    }
    out
}

fn vf_cause(want: &BTreeMap<String, Vec<String>>, got: &BTreeMap<String, Vec<String>>) -> String {
    for (k, v) in want {
        match got.get(k) {
            None => {
                return format!(
                    "validateFalse: missing messages ({})",
                    v.first().map(String::as_str).unwrap_or("")
                );
            }
            Some(g) if g != v => return "validateFalse: different messages at a path".into(),
            _ => {}
        }
    }
    for (k, v) in got {
        if !want.contains_key(k) {
            return format!(
                "validateFalse: unexpected messages ({})",
                v.first().map(String::as_str).unwrap_or("")
            );
        }
    }
    "validateFalse: differ".into()
}

fn render_by_path(m: &BTreeMap<String, Vec<String>>) -> String {
    if m.is_empty() {
        return "{}".into();
    }
    m.iter()
        .map(|(k, v)| format!("{k:?}: {v:?}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn render_list(errs: &[FieldError]) -> String {
    if errs.is_empty() {
        return "<no errors>".into();
    }
    errs.iter().map(render_error).collect::<Vec<_>>().join("\n")
}

fn error_key(e: &FieldError) -> String {
    if e.origin.is_empty() {
        e.error_type.as_str().to_string()
    } else {
        format!("{} origin={}", e.error_type.as_str(), e.origin)
    }
}

fn describe_matcher(m: &Matcher) -> String {
    let parts = m.go_names();
    if parts.is_empty() {
        "empty matcher".into()
    } else {
        parts.join(".")
    }
}

/// The message of a rendered diagnostic, without location and caret lines.
fn diagnostic_message(d: &str) -> String {
    let first = d.lines().next().unwrap_or("");
    match first.find("error: ") {
        Some(i) => first[i + 7..].to_string(),
        None => first.to_string(),
    }
}

/// The validateFalse messages by path of one fixture type, or why they are unavailable.
type FixtureResult = Result<BTreeMap<String, Vec<String>>, Box<CaseFailure>>;

/// Runs a `validate-false.json` fixture: fills every registered type deterministically,
/// validates it as a Create, and compares the validateFalse messages by path.
fn run_fixture(
    it: &mut Interp<'_, '_>,
    fixture: &Path,
    compiled: &Result<CompiledPackage, String>,
    custom: Option<&dyn kdv_eval::CustomValidators>,
    rel: &str,
    observed: &mut Observed,
) -> Vec<(String, Option<CaseFailure>)> {
    let id_of = |t: &str| format!("{rel}/validate-false.json#{t}");
    let expected: BTreeMap<String, BTreeMap<String, Vec<String>>> =
        match std::fs::read_to_string(fixture)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
        {
            Ok(v) => v,
            Err(e) => {
                return vec![(
                    id_of("load"),
                    Some(harness_failure("harness: cannot read fixture", e)),
                )];
            }
        };
    let compiled = match compiled {
        Ok(c) => c,
        Err(e) => {
            return vec![(
                id_of("compile"),
                Some(CaseFailure {
                    kind: FailureKind::Panic,
                    cause: "kdv-rules panicked".into(),
                    reason: e.clone(),
                    expected: String::new(),
                    got: String::new(),
                    input: String::new(),
                }),
            )];
        }
    };
    let mut got: BTreeMap<String, FixtureResult> = BTreeMap::new();
    for reg in &compiled.registered {
        let ty = named(&reg.package, &reg.name);
        let key = if reg.nilable {
            it.env().type_string(&ty)
        } else {
            it.env()
                .type_string(&TypeRef::Pointer(Box::new(ty.clone())))
        };
        let result = (|| -> Result<BTreeMap<String, Vec<String>>, Box<CaseFailure>> {
            if reg.nilable {
                return Err(Box::new(harness_failure(
                    "harness: fixture of a nilable root type",
                    "randfill cannot fill a nilable root through an interface (upstream panics)",
                )));
            }
            let value = Filler::new()
                .fill(it, &ty, 0)
                .map_err(|e| harness_failure("harness: randfill", e))?;
            let json = to_json(it.env(), &value)
                .map_err(|e| harness_failure("harness: cannot convert value to JSON", e))?;
            let errs = compiled
                .validate(reg.id, &Operation::create(), &json, None, custom)
                .map_err(|p| CaseFailure {
                    kind: FailureKind::Panic,
                    cause: "kdv-eval panicked".into(),
                    reason: p,
                    expected: String::new(),
                    got: String::new(),
                    input: String::new(),
                })?;
            if let Some(pkg) = it.env().universe.packages.get(&reg.package) {
                let gvk = Gvk {
                    group: reg.package.clone(),
                    version: pkg.name.clone(),
                    kind: reg.name.clone(),
                };
                observed.record(&gvk, &errs);
            }
            Ok(validate_false_by_path(&errs))
        })();
        got.insert(key, result);
    }
    let mut out = Vec::new();
    let compile_cause = compiled
        .errors
        .first()
        .map(|d| format!("compile: {}", diagnostic_message(d)));
    let unimplemented: Vec<String> = compiled.unimplemented_tags.iter().cloned().collect();
    let classify = |cause: String, reason: String, expected: String, gotten: String| {
        let (kind, cause) = if !unimplemented.is_empty() {
            (
                FailureKind::NotImplemented,
                format!(
                    "package uses tags kdv does not implement: {}",
                    unimplemented.join(", ")
                ),
            )
        } else {
            match &compile_cause {
                Some(c) => (FailureKind::Compile, c.clone()),
                None => (FailureKind::Mismatch, cause),
            }
        };
        CaseFailure {
            kind,
            cause,
            reason,
            expected,
            got: gotten,
            input: String::new(),
        }
    };
    if expected.is_empty() && got.is_empty() {
        out.push((id_of("{}"), None));
    }
    for (ty, want) in &expected {
        let mut want = want.clone();
        for v in want.values_mut() {
            v.sort();
        }
        match got.get(ty) {
            None => out.push((
                id_of(ty),
                Some(CaseFailure {
                    kind: FailureKind::NotRegistered,
                    cause: "fixture type is not a registered root in kdv".into(),
                    reason: format!(
                        "{ty} has expected validateFalse args but kdv does not register it"
                    ),
                    expected: render_by_path(&want),
                    got: String::new(),
                    input: String::new(),
                }),
            )),
            Some(Err(f)) => out.push((id_of(ty), Some((**f).clone()))),
            Some(Ok(actual)) => {
                if *actual == want {
                    out.push((id_of(ty), None));
                } else {
                    out.push((
                        id_of(ty),
                        Some(classify(
                            format!("fixture {}", vf_cause(&want, actual)),
                            "validate-false.json: validateFalse messages by path differ".into(),
                            render_by_path(&want),
                            render_by_path(actual),
                        )),
                    ));
                }
            }
        }
    }
    for (ty, result) in &got {
        if expected.contains_key(ty) {
            continue;
        }
        let failure = match result {
            Err(f) => (**f).clone(),
            Ok(actual) => classify(
                "fixture: type registered by kdv but absent from the fixture".into(),
                format!("{ty} is registered by kdv but validate-false.json has no entry"),
                String::new(),
                render_by_path(actual),
            ),
        };
        out.push((id_of(ty), Some(failure)));
    }
    out
}

/// Calls `f` on every expression in `stmts`, recursively (including closure bodies).
pub fn visit_stmts(stmts: &[Stmt], f: &mut dyn FnMut(&Expr)) {
    for s in stmts {
        visit_stmt(s, f, 0);
    }
}

fn visit_stmt(s: &Stmt, f: &mut dyn FnMut(&Expr), depth: u32) {
    if depth > 200 {
        return;
    }
    let d = depth + 1;
    match s {
        Stmt::Expr(e) => visit_expr(e, f, d),
        Stmt::Define(_, rhs, _) => rhs.iter().for_each(|e| visit_expr(e, f, d)),
        Stmt::Assign(l, r, _) => l.iter().chain(r).for_each(|e| visit_expr(e, f, d)),
        Stmt::OpAssign(a, _, b, _) => {
            visit_expr(a, f, d);
            visit_expr(b, f, d);
        }
        Stmt::IncDec(e, _, _) => visit_expr(e, f, d),
        Stmt::Var(spec) => spec.values.iter().for_each(|e| visit_expr(e, f, d)),
        Stmt::Block(b) => b.iter().for_each(|s| visit_stmt(s, f, d)),
        Stmt::If {
            init,
            cond,
            then,
            els,
            ..
        } => {
            if let Some(i) = init {
                visit_stmt(i, f, d);
            }
            visit_expr(cond, f, d);
            then.iter().for_each(|s| visit_stmt(s, f, d));
            if let Some(e) = els {
                visit_stmt(e, f, d);
            }
        }
        Stmt::For {
            init,
            cond,
            post,
            body,
            ..
        } => {
            if let Some(i) = init {
                visit_stmt(i, f, d);
            }
            if let Some(c) = cond {
                visit_expr(c, f, d);
            }
            if let Some(p) = post {
                visit_stmt(p, f, d);
            }
            body.iter().for_each(|s| visit_stmt(s, f, d));
        }
        Stmt::Range { expr, body, .. } => {
            visit_expr(expr, f, d);
            body.iter().for_each(|s| visit_stmt(s, f, d));
        }
        Stmt::Switch {
            init, tag, cases, ..
        } => {
            if let Some(i) = init {
                visit_stmt(i, f, d);
            }
            if let Some(t) = tag {
                visit_expr(t, f, d);
            }
            for (exprs, body) in cases {
                exprs.iter().flatten().for_each(|e| visit_expr(e, f, d));
                body.iter().for_each(|s| visit_stmt(s, f, d));
            }
        }
        Stmt::Return(v, _) => v.iter().for_each(|e| visit_expr(e, f, d)),
        Stmt::Break(_) | Stmt::Continue(_) | Stmt::Unsupported(..) => {}
    }
}

fn visit_expr(e: &Expr, f: &mut dyn FnMut(&Expr), depth: u32) {
    if depth > 200 {
        return;
    }
    f(e);
    let d = depth + 1;
    match &e.kind {
        ExprKind::Composite { elems, .. } => {
            for el in elems {
                if let Some(k) = &el.key {
                    visit_expr(k, f, d);
                }
                visit_expr(&el.value, f, d);
            }
        }
        ExprKind::FuncLit { body, .. } => body.iter().for_each(|s| visit_stmt(s, f, d)),
        ExprKind::Selector(x, _)
        | ExprKind::Paren(x)
        | ExprKind::Unary(_, x)
        | ExprKind::TypeAssert(x, _) => visit_expr(x, f, d),
        ExprKind::Index(x, idx) => {
            visit_expr(x, f, d);
            idx.iter().for_each(|i| visit_expr(i, f, d));
        }
        ExprKind::Slice(x, a, b) => {
            visit_expr(x, f, d);
            for y in [a, b].into_iter().flatten() {
                visit_expr(y, f, d);
            }
        }
        ExprKind::Call { fun, args, .. } => {
            visit_expr(fun, f, d);
            args.iter().for_each(|a| visit_expr(a, f, d));
        }
        ExprKind::Binary(_, a, b) => {
            visit_expr(a, f, d);
            visit_expr(b, f, d);
        }
        ExprKind::Ident(_)
        | ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Rune(_)
        | ExprKind::Str(_)
        | ExprKind::Type(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_drop_line_numbers() {
        assert_eq!(
            cause_of("harness: cannot interpret (line 12): undefined: foo"),
            "harness: cannot interpret : undefined: foo"
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        );
        assert_eq!(cause_of("t.Fatalf at line 3: boom"), "t.Fatalf: boom");
    }

    #[test]
    fn test_imports_of_well_known_packages_are_loaded() {
        let scratch = kdv_test_support::Scratch::with_files(
            "imports",
            &[
                ("go.mod", b"module example.com/m\n"),
                ("doc.go", b"package m\n\ntype T struct{}\n"),
            ],
        );
        let dir = scratch.path();
        let metav1 = "k8s.io/apimachinery/pkg/apis/meta/v1";
        let (without, _) = load_package_universe(dir, &[]).unwrap();
        let (with, path) = load_package_universe(dir, &[metav1.to_string()]).unwrap();
        assert_eq!(path, "example.com/m");
        assert!(!without.packages.contains_key(metav1));
        assert!(with.type_decl(metav1, "ObjectMeta").is_some());
    }

    #[test]
    fn validate_false_grouping() {
        let mut e1 = FieldError::invalid(
            &kdv_runtime::PathRef::Nil,
            kdv_runtime::BadValue::Null,
            "forced failure: b",
        );
        e1.origin = "validateFalse".into();
        let mut e2 = e1.clone();
        e2.detail = "forced failure: a".into();
        let other = FieldError::required(&kdv_runtime::PathRef::Nil, "x");
        let m = validate_false_by_path(&[e1, e2, other]);
        assert_eq!(m.len(), 1);
        assert_eq!(m[""], ["a", "b"]);
    }
}
