//! `+k8s:customValidation` functions (`ValidateCustom_*`) of a fixture package, run by
//! interpreting their Go source (spec §10.8): kdv-eval calls them through its
//! [`CustomValidators`] hook with the value as JSON, which is decoded back into a Go value.

use std::collections::HashMap;
use std::path::Path;
use std::rc::Rc;

use kdv_eval::{CustomCall, CustomValidators};
use kdv_model::Universe;
use kdv_runtime::{ErrorList, FieldError};

use crate::interp::{Abort, Expectation, Harness, Interp, PackageCtx};
use crate::matcher::Matcher;
use crate::report::FailureKind;
use crate::syntax::FuncDecl;
use crate::tojson::from_json;
use crate::types::TypeEnv;
use crate::value::{Scope, TesterState, Value};

/// The Go sources of one package's custom validation functions.
struct PackageFuncs {
    imports: HashMap<String, String>,
    funcs: HashMap<String, Rc<FuncDecl>>,
}

/// Custom validation functions read from fixture packages' non-test Go files.
pub struct GoCustomValidators<'u> {
    universe: &'u Universe,
    packages: HashMap<String, PackageFuncs>,
}

impl<'u> GoCustomValidators<'u> {
    /// Reads the `ValidateCustom_*` functions of every package of `universe` that was
    /// loaded from a directory. `None` when there are none.
    pub fn load(universe: &'u Universe) -> Option<GoCustomValidators<'u>> {
        let mut packages = HashMap::new();
        for pkg in universe.packages.values() {
            let Some(dir) = &pkg.dir else { continue };
            if let Some(funcs) = read_package(dir) {
                packages.insert(pkg.path.clone(), funcs);
            }
        }
        (!packages.is_empty()).then_some(GoCustomValidators { universe, packages })
    }

    fn run(
        &self,
        call: &CustomCall<'_>,
        src: &PackageFuncs,
        f: &FuncDecl,
    ) -> Result<ErrorList, String> {
        let ctx = PackageCtx {
            env: TypeEnv::new(self.universe),
            path: call.package.to_string(),
            imports: src.imports.clone(),
            funcs: src.funcs.clone(),
            globals: Rc::new(Scope::default()),
        };
        let mut none = NoHarness;
        let mut it = Interp::new(&ctx, &mut none);
        let globals = ctx.globals.clone();
        let mut args = Vec::new();
        for (i, (_, ty)) in f.sig.params.iter().enumerate() {
            let t = it
                .resolve_type(ty, &globals, f.line)
                .map_err(|e| abort_text(&e))?;
            let json = match i {
                3 => call.value,
                4 => call.old_value,
                _ => None,
            };
            args.push(match i {
                0 => Value::Context,
                1 => Value::Operation,
                2 => Value::Path(call.path.to_path()),
                _ => match json {
                    Some(j) => from_json(it.env(), &t, j)?,
                    None => it.zero(&t),
                },
            });
        }
        let closure = crate::value::Closure {
            name: f.name.clone(),
            sig: f.sig.clone(),
            body: f.body.clone(),
            env: globals,
        };
        let result = it
            .call_closure(&closure, args, false, f.line)
            .map_err(|e| abort_text(&e))?;
        crate::library::error_list(&result, f.line).map_err(|e| abort_text(&e))
    }
}

impl CustomValidators for GoCustomValidators<'_> {
    fn call(&self, call: &CustomCall<'_>) -> Option<ErrorList> {
        let src = self.packages.get(call.package)?;
        let f = src.funcs.get(call.function)?;
        Some(self.run(call, src, f).unwrap_or_else(|e| {
            vec![FieldError::internal(
                call.path,
                format!("harness: cannot interpret {}: {e}", call.function),
            )]
        }))
    }
}

fn abort_text(a: &Abort) -> String {
    match a {
        Abort::Error(e) => format!("line {}: {}", e.line, e.message),
        Abort::Fatal(m, l) => format!("line {l}: {m}"),
    }
}

/// Parses the package's hand-written (non-test, non-generated) Go files and keeps their
/// functions when some are `ValidateCustom_*`.
fn read_package(dir: &Path) -> Option<PackageFuncs> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.ends_with(".go") && !n.ends_with("_test.go") && !n.starts_with("zz_generated")
            })
        })
        .collect();
    names.sort();
    let mut imports = HashMap::new();
    let mut funcs = HashMap::new();
    for path in names {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        // Cheap filter: only files that declare custom validation functions are parsed.
        if !text.contains("func ValidateCustom_") {
            continue;
        }
        let parsed = crate::parser::parse_file(&text);
        imports.extend(parsed.file.imports.iter().cloned());
        for f in parsed.file.funcs {
            funcs.insert(f.name.clone(), Rc::new(f));
        }
    }
    funcs
        .keys()
        .any(|n: &String| n.starts_with("ValidateCustom_"))
        .then_some(PackageFuncs { imports, funcs })
}

/// Custom functions do not create test cases.
struct NoHarness;

impl Harness for NoHarness {
    fn new_case(&mut self, _line: u32) -> usize {
        0
    }
    fn expect(&mut self, _env: &TypeEnv<'_>, _t: &TesterState, _e: Expectation) {}
    fn matcher_test(&mut self, _l: u32, _m: &Matcher, _w: &[FieldError], _g: &[FieldError]) {}
    fn call_validate(
        &mut self,
        _env: &TypeEnv<'_>,
        _package: &str,
        _type_name: &str,
        _new: &Value,
        _old: &Value,
    ) -> Result<Vec<FieldError>, String> {
        Err("validation calls inside custom functions are not supported".into())
    }
    fn fail_pending(&mut self, _since: usize, _kind: FailureKind, _reason: &str) -> usize {
        0
    }
    fn case_count(&self) -> usize {
        0
    }
}
