//! Upstream's Go test tables read in place: a test file of apiextensions-apiserver is parsed
//! ([`crate::parser`]) and the table literal of a test function (`tests := []struct{...}{...}`)
//! is evaluated row by row by the interpreter ([`crate::interp`]) over the package's types
//! (`kdv-go`), with the helper functions and globals of the test file. Each row becomes a
//! [`Row`] of neutral data: `schema.Structural` values as OpenAPI schema JSON, unstructured
//! values as JSON (floats stay floats), `field.ErrorList`s as field errors. A row the
//! interpreter cannot evaluate is an `Err` naming the unsupported construct, so the runner
//! can skip it with that reason and keep the other rows.

use std::collections::HashMap;
use std::path::Path;
use std::rc::Rc;

use kdv_model::{Builtin, TypeRef, Universe};
use kdv_runtime::FieldError;
use serde_json::{Map, Number, Value as J};

use crate::interp::{Abort, Expectation, Harness, Interp, PackageCtx};
use crate::matcher::Matcher;
use crate::parser::parse_file;
use crate::report::FailureKind;
use crate::syntax::{Expr, ExprKind, FuncDecl, Stmt, TypeExpr, ValueSpec};
use crate::types::{TypeEnv, is_named};
use crate::value::{Scope, TesterState, Value};

/// Import path of apiextensions-apiserver's structural schema package.
pub const SCHEMA_PKG: &str = "k8s.io/apiextensions-apiserver/pkg/apiserver/schema";

/// Nesting bound of the conversions (schemas and values are trees; deeper means a cycle).
const MAX_DEPTH: usize = 200;

/// One value of a table row, converted out of the interpreter.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// A `schema.Structural` (or pointer to one) as an OpenAPI v3 schema; `None` for a nil
    /// pointer.
    Schema(Option<J>),
    /// Any other value as JSON: Go's unstructured values (`map[string]interface{}`,
    /// `[]interface{}`, numbers with floats kept as floats), strings, string lists and maps,
    /// integers, booleans; nil as `null`.
    Json(J),
    /// A `field.ErrorList` (or one `*field.Error`).
    Errors(Vec<FieldError>),
    /// A function value (called through [`FieldCall`]s, not converted).
    Func,
}

impl Cell {
    /// The JSON of a [`Cell::Json`], `None` otherwise.
    pub fn json(&self) -> Option<&J> {
        match self {
            Cell::Json(j) => Some(j),
            _ => None,
        }
    }
}

/// One row of a table: the struct literal's fields by Go field name (every field, zero
/// values included), with the row's line and `name` field.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Line of the row's literal in the test file.
    pub line: u32,
    /// The row's `name` field (empty when it has none).
    pub name: String,
    /// Fields by Go name.
    pub fields: HashMap<String, Cell>,
}

impl Row {
    /// A string field (`""` when absent or not a string).
    pub fn str(&self, field: &str) -> &str {
        match self.fields.get(field) {
            Some(Cell::Json(J::String(s))) => s,
            _ => "",
        }
    }

    /// An integer field (0 when absent or not an integer).
    pub fn int(&self, field: &str) -> i64 {
        match self.fields.get(field) {
            Some(Cell::Json(J::Number(n))) => n.as_i64().unwrap_or(0),
            _ => 0,
        }
    }

    /// A boolean field (false when absent).
    pub fn bool(&self, field: &str) -> bool {
        matches!(self.fields.get(field), Some(Cell::Json(J::Bool(true))))
    }

    /// A JSON field (`null` when absent).
    pub fn json(&self, field: &str) -> &J {
        static NULL: J = J::Null;
        self.fields.get(field).and_then(Cell::json).unwrap_or(&NULL)
    }

    /// A schema field (`None` when absent or nil).
    pub fn schema(&self, field: &str) -> Option<&J> {
        match self.fields.get(field) {
            Some(Cell::Schema(s)) => s.as_ref(),
            _ => None,
        }
    }

    /// A `[]string` field, in order (empty when absent or nil).
    pub fn strings(&self, field: &str) -> Vec<String> {
        match self.fields.get(field) {
            Some(Cell::Json(J::Array(a))) => a
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// A `map[string]string` field, in source order (empty when absent or nil).
    pub fn string_map(&self, field: &str) -> Vec<(String, String)> {
        match self.fields.get(field) {
            Some(Cell::Json(J::Object(m))) => m
                .iter()
                .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string())))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// A field-error list field (empty when absent or nil).
    pub fn errors(&self, field: &str) -> &[FieldError] {
        match self.fields.get(field) {
            Some(Cell::Errors(e)) => e,
            _ => &[],
        }
    }
}

/// How a table's rows are read beyond field-by-field conversion ([`GoTestFile::table_with`]).
#[derive(Debug, Clone, Default)]
pub struct TableOptions {
    /// Function-valued fields called for each row, their results stored as further cells.
    pub calls: Vec<FieldCall>,
    /// Fields converted with their Go type names ([`typed_json`]), for values of test-local
    /// types whose type tells what they mean (matchers).
    pub typed_fields: Vec<&'static str>,
}

/// A call of a row's function-valued field (`tt.schemaGenerator(&tt.setMaxElements)`).
#[derive(Debug, Clone)]
pub struct FieldCall {
    /// The function-valued field.
    pub field: &'static str,
    /// The arguments.
    pub args: Vec<CallArg>,
    /// The name of the cell the result is stored in.
    pub cell: &'static str,
}

/// An argument of a [`FieldCall`].
#[derive(Debug, Clone)]
pub enum CallArg {
    /// Go's `nil`.
    Nil,
    /// `&tt.<field>`: a pointer to (a copy of) another field of the row.
    AddrOfField(&'static str),
}

/// A table read from a test function: its rows, each evaluated or with the reason it could
/// not be.
#[derive(Debug, Clone)]
pub struct Table {
    /// The test function.
    pub func: String,
    /// Rows in source order.
    pub rows: Vec<Result<Row, RowError>>,
}

/// Why a row could not be evaluated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    /// Line of the row.
    pub line: u32,
    /// The row's name when it could be read from the literal.
    pub name: String,
    /// A short grouping key (the unsupported construct).
    pub reason: String,
    /// The interpreter's message.
    pub detail: String,
}

/// A test file of a package, parsed and ready to evaluate tables from.
pub struct GoTestFile {
    universe: Universe,
    package_path: String,
    imports: HashMap<String, String>,
    funcs: HashMap<String, Rc<FuncDecl>>,
    globals: Vec<ValueSpec>,
    /// Syntax errors: (function or "" for the file, message).
    pub syntax_errors: Vec<(String, String)>,
}

impl GoTestFile {
    /// Loads the package in `dir` (with the packages it imports from its own module, through
    /// `kdv-go`) and parses its in-package test files (`*_test.go` of the same package, as
    /// `go test` compiles them together: helpers and globals of one are visible in all).
    pub fn load(dir: &Path) -> Result<GoTestFile, String> {
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with("_test.go"))
            .collect();
        names.sort();
        let (mut universe, _) = kdv_go::load_universe(dir).map_err(|e| e.to_string())?;
        let package_path = crate::runner::package_path_of(&universe, dir)
            .ok_or_else(|| format!("{}: package not found by kdv-go", dir.display()))?;
        let package_name = package_path
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_string();
        let mut file = GoTestFile {
            universe: Universe::default(),
            package_path: package_path.clone(),
            imports: HashMap::new(),
            funcs: HashMap::new(),
            globals: Vec::new(),
            syntax_errors: Vec::new(),
        };
        let mut extra = Vec::new();
        let mut test_sources = Vec::new();
        for path in names {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let parsed = parse_file(&text);
            if parsed.file.package != package_name {
                // An external test package (`package x_test`) sees only exported names.
                continue;
            }
            test_sources.push((path.clone(), text.clone()));
            let base = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            for (name, e) in &parsed.broken {
                file.syntax_errors
                    .push((name.clone(), format!("{base}:{}: {}", e.line, e.message)));
            }
            for e in &parsed.errors {
                file.syntax_errors
                    .push((String::new(), format!("{base}:{}: {}", e.line, e.message)));
            }
            for (alias, ipath) in &parsed.file.imports {
                extra.push(ipath.clone());
                file.imports.insert(alias.clone(), ipath.clone());
            }
            for f in &parsed.file.funcs {
                file.funcs.insert(f.name.clone(), Rc::new(f.clone()));
            }
            file.globals.extend(parsed.file.values.iter().cloned());
        }
        add_test_types(&mut universe, &package_path, test_sources);
        crate::runner::load_test_imports(&mut universe, dir, &extra);
        file.universe = universe;
        Ok(file)
    }

    /// Whether the file declares function `name` (with a body that parsed).
    pub fn has_func(&self, name: &str) -> bool {
        self.funcs.contains_key(name) && !self.syntax_errors.iter().any(|(n, _)| n == name)
    }

    /// Evaluates the table of test function `func`: the first `var := []T{...}` whose name
    /// is `var`, after the statements before it (those that cannot be run, such as feature
    /// gate or logging set-up, are passed over). Each row is evaluated on its own.
    pub fn table(&self, func: &str, var: &str) -> Result<Table, String> {
        self.table_with(func, var, &TableOptions::default())
    }

    /// [`GoTestFile::table`] with function-valued fields called and fields converted with
    /// their type names, as `options` says.
    pub fn table_with(
        &self,
        func: &str,
        var: &str,
        options: &TableOptions,
    ) -> Result<Table, String> {
        let Some(f) = self.funcs.get(func) else {
            return Err(format!("no function {func} in the test file"));
        };
        if let Some((_, e)) = self.syntax_errors.iter().find(|(n, _)| n == func) {
            return Err(format!("syntax error in {func}: {e}"));
        }
        let ctx = PackageCtx {
            env: TypeEnv::new(&self.universe),
            path: self.package_path.clone(),
            imports: self.imports.clone(),
            funcs: self.funcs.clone(),
            globals: Rc::new(Scope::default()),
        };
        let mut harness = TableHarness;
        let mut it = Interp::new(&ctx, &mut harness);
        // Globals one by one: one that cannot be evaluated only fails the rows using it.
        for spec in &self.globals {
            let _ = it.init_globals(std::slice::from_ref(spec));
        }
        let sc = Scope::child(&ctx.globals);
        if let Some((Some(name), _)) = f.sig.params.first() {
            sc.declare(name, Value::TestingT);
        }
        for s in &f.body {
            if let Stmt::Define(names, values, line) = s
                && names.len() == 1
                && names[0] == var
                && values.len() == 1
            {
                return Ok(Table {
                    func: func.to_string(),
                    rows: rows(&mut it, &values[0], &sc, *line, options)?,
                });
            }
            // Set-up before the table: definitions the rows may use. Statements that fail
            // (logging, feature gates) do not matter to the table.
            let _ = it.exec_stmt(s, &sc);
        }
        Err(format!("no `{var} := []...{{...}}` table in {func}"))
    }
}

/// Adds the type declarations of the in-package test files to the package's model (as
/// `go test` compiles them into the package): tables hold values of test-local types, such
/// as the matchers of `TestCelCompilation`. The package is assembled again from its files
/// and the test files; methods and function bodies stay out of the model.
fn add_test_types(
    universe: &mut Universe,
    package_path: &str,
    test_sources: Vec<(std::path::PathBuf, String)>,
) {
    if test_sources.is_empty() {
        return;
    }
    let Some(package) = universe.packages.get(package_path) else {
        return;
    };
    let mut files: Vec<_> = package
        .files
        .iter()
        .map(|f| (f.path.clone(), f.text.clone()))
        .collect();
    files.extend(test_sources);
    let dir = package.dir.clone();
    let (mut rebuilt, _) = kdv_go::load_sources(package_path, &files);
    rebuilt.dir = dir;
    universe.packages.insert(package_path.to_string(), rebuilt);
}

impl GoTestFile {
    /// Evaluates one expression of another file of the checkout (with that file's
    /// `imports`: local name → path) to unstructured JSON, as [`unstructured`] converts Go
    /// values: for test files that are not tables (map literals, conversions, `math`
    /// constants).
    pub fn eval_data(&self, e: &Expr, imports: &[(String, String)]) -> Result<J, String> {
        let ctx = PackageCtx {
            env: TypeEnv::new(&self.universe),
            path: self.package_path.clone(),
            imports: imports.iter().cloned().collect(),
            funcs: HashMap::new(),
            globals: Rc::new(Scope::default()),
        };
        let mut harness = TableHarness;
        let mut it = Interp::new(&ctx, &mut harness);
        let sc = Scope::child(&ctx.globals);
        let v = it.eval(e, &sc).map_err(|a| abort_text(&a))?;
        unstructured(it.env(), &v, 0)
    }
}

/// Evaluates a slice literal row by row.
fn rows(
    it: &mut Interp<'_, '_>,
    e: &Expr,
    sc: &Rc<Scope>,
    line: u32,
    options: &TableOptions,
) -> Result<Vec<Result<Row, RowError>>, String> {
    let ExprKind::Composite {
        ty: Some(ty),
        elems,
    } = &e.kind
    else {
        return Err(format!("line {line}: the table is not a slice literal"));
    };
    let TypeExpr::Slice(elem_ty) = &**ty else {
        return Err(format!("line {line}: the table is not a slice literal"));
    };
    let elem_ty = it
        .resolve_type(elem_ty, sc, line)
        .map_err(|a| abort_text(&a))?;
    let mut out = Vec::new();
    for el in elems {
        let row_line = el.value.line;
        let name = literal_name(&el.value);
        let ExprKind::Composite {
            elems: fields,
            ty: None,
        } = &el.value.kind
        else {
            out.push(Err(RowError {
                line: row_line,
                name,
                reason: "row is not a struct literal".into(),
                detail: String::new(),
            }));
            continue;
        };
        let value = match it.composite(&elem_ty, fields, sc, row_line) {
            Ok(v) => v,
            Err(a) => {
                let detail = abort_text(&a);
                out.push(Err(RowError {
                    line: row_line,
                    name,
                    reason: reason_of(&detail),
                    detail,
                }));
                continue;
            }
        };
        let row = convert_row(it.env(), &value, row_line, options)
            .and_then(|row| call_fields(it, &value, row, options));
        out.push(row.map_err(|detail| RowError {
            line: row_line,
            name,
            reason: reason_of(&detail),
            detail,
        }));
    }
    Ok(out)
}

/// The `name: "..."` of a row literal, when it is a plain string.
fn literal_name(e: &Expr) -> String {
    if let ExprKind::Composite { elems, .. } = &e.kind {
        for el in elems {
            if let Some(k) = &el.key
                && matches!(&k.kind, ExprKind::Ident(n) if n == "name")
                && let ExprKind::Str(s) = &el.value.kind
            {
                return s.clone();
            }
        }
    }
    String::new()
}

fn abort_text(a: &Abort) -> String {
    match a {
        Abort::Error(e) => format!("line {}: {}", e.line, e.message),
        Abort::Fatal(m, line) => format!("line {line}: t.Fatal: {m}"),
    }
}

/// A grouping key for an interpreter message: without the line and quoted specifics.
pub fn reason_of(detail: &str) -> String {
    let text = match detail.split_once(": ") {
        Some((l, rest)) if l.starts_with("line ") => rest,
        _ => detail,
    };
    text.chars().take(80).collect()
}

/// Runs the [`FieldCall`]s of `options` on a row's struct value, adding their results to
/// `row` (schemas as [`Cell::Schema`], other results as JSON).
fn call_fields(
    it: &mut Interp<'_, '_>,
    v: &Value,
    mut row: Row,
    options: &TableOptions,
) -> Result<Row, String> {
    if options.calls.is_empty() {
        return Ok(row);
    }
    let Value::Struct(ty, values) = v else {
        return Err(format!("line {}: row is not a struct", row.line));
    };
    let fields = it
        .env()
        .struct_fields(ty)
        .ok_or_else(|| format!("line {}: row type is not a struct", row.line))?;
    let field = |name: &str| {
        fields
            .iter()
            .position(|f| f.name == name)
            .map(|i| (&fields[i], &values[i]))
            .ok_or_else(|| format!("line {}: the row has no field {name}", row.line))
    };
    for call in &options.calls {
        let (_, f) = field(call.field)?;
        let closure = match f {
            Value::Func(c) => c.clone(),
            other => {
                return Err(format!(
                    "line {}: {} is a {}, not a function",
                    row.line,
                    call.field,
                    other.kind_name()
                ));
            }
        };
        let mut args = Vec::new();
        for a in &call.args {
            args.push(match a {
                CallArg::Nil => Value::Nil,
                CallArg::AddrOfField(name) => {
                    let (decl, v) = field(name)?;
                    Value::Ptr(decl.ty.clone(), Some(crate::value::cell(v.clone())))
                }
            });
        }
        let result = it
            .call_closure(&closure, args, false, row.line)
            .map_err(|a| abort_text(&a))?;
        let result = match result {
            Value::Tuple(mut v) if v.len() == 1 => v.remove(0),
            other => other,
        };
        let env = it.env();
        let cell = match &result {
            Value::Ptr(t, _) if is_named(&env.unalias(t), SCHEMA_PKG, "Structural") => {
                Cell::Schema(schema_json(env, &result, 0)?)
            }
            Value::Struct(t, _) if is_named(&env.unalias(t), SCHEMA_PKG, "Structural") => {
                Cell::Schema(schema_json(env, &result, 0)?)
            }
            other => Cell::Json(unstructured(env, other, 0)?),
        };
        row.fields.insert(call.cell.to_string(), cell);
    }
    Ok(row)
}

fn convert_row(
    env: &TypeEnv<'_>,
    v: &Value,
    line: u32,
    options: &TableOptions,
) -> Result<Row, String> {
    let Value::Struct(ty, values) = v else {
        return Err(format!("line {line}: row is not a struct"));
    };
    let Some(fields) = env.struct_fields(ty) else {
        return Err(format!("line {line}: row type is not a struct"));
    };
    let mut out = HashMap::new();
    for (f, v) in fields.iter().zip(values) {
        let cell = if matches!(v, Value::Func(_)) {
            Cell::Func
        } else if options.typed_fields.contains(&f.name.as_str()) {
            Cell::Json(typed_json(env, v, 0)?)
        } else if is_structural(env, &f.ty) {
            Cell::Schema(schema_json(env, v, 0)?)
        } else if is_error_list(env, &f.ty) {
            Cell::Errors(errors_of(v)?)
        } else {
            Cell::Json(unstructured(env, v, 0)?)
        };
        out.insert(f.name.clone(), cell);
    }
    let name = match out.get("name") {
        Some(Cell::Json(J::String(s))) => s.clone(),
        _ => String::new(),
    };
    Ok(Row {
        line,
        name,
        fields: out,
    })
}

fn is_structural(env: &TypeEnv<'_>, ty: &TypeRef) -> bool {
    let t = match env.unalias(ty) {
        TypeRef::Pointer(inner) => env.unalias(&inner),
        t => t,
    };
    is_named(&t, SCHEMA_PKG, "Structural")
}

fn is_error_list(env: &TypeEnv<'_>, ty: &TypeRef) -> bool {
    let t = env.unalias(ty);
    is_named(&t, crate::types::FIELD_PKG, "ErrorList")
        || matches!(&t, TypeRef::Pointer(inner) if is_named(inner, crate::types::FIELD_PKG, "Error"))
}

fn errors_of(v: &Value) -> Result<Vec<FieldError>, String> {
    match v.as_dynamic() {
        Value::Nil | Value::Slice(_, None) | Value::FieldErr(None) => Ok(Vec::new()),
        Value::FieldErr(Some(e)) => Ok(vec![e.borrow().clone()]),
        Value::Slice(_, Some(s)) => {
            let mut out = Vec::new();
            for e in s.borrow().iter() {
                // `&field.Error{...}` elided in a list literal: a pointer to the emulated error.
                let e = match e.as_dynamic() {
                    Value::Ptr(_, Some(c)) => c.borrow().clone(),
                    other => other.clone(),
                };
                match e.as_dynamic() {
                    Value::FieldErr(Some(e)) => out.push(e.borrow().clone()),
                    Value::FieldErr(None) => {}
                    other => return Err(format!("{} in a field.ErrorList", other.kind_name())),
                }
            }
            Ok(out)
        }
        other => Err(format!("{} is not a field.ErrorList", other.kind_name())),
    }
}

/// Go values → JSON as unstructured data: maps with string keys, slices, numbers (a Go
/// float stays a JSON float even when integral, as the value the test hands the validator
/// is a float64), strings, booleans, nil; pointers followed; structs by Go field name.
pub fn unstructured(env: &TypeEnv<'_>, v: &Value, depth: usize) -> Result<J, String> {
    if depth > MAX_DEPTH {
        return Err("value nested too deeply".into());
    }
    let d = depth + 1;
    Ok(match v {
        Value::Nil | Value::Iface(None) => J::Null,
        Value::Iface(Some(inner)) => unstructured(env, inner, d)?,
        Value::UntypedBool(b) | Value::Bool(_, b) => J::Bool(*b),
        Value::UntypedInt(i) | Value::UntypedRune(i) | Value::Int(_, i) => {
            if let Ok(x) = i64::try_from(*i) {
                J::Number(x.into())
            } else if let Ok(x) = u64::try_from(*i) {
                J::Number(x.into())
            } else {
                return Err(format!("integer {i} out of range"));
            }
        }
        Value::UntypedFloat(f) | Value::Float(_, f) => {
            J::Number(Number::from_f64(*f).ok_or_else(|| format!("float {f} has no JSON form"))?)
        }
        Value::UntypedString(s) | Value::Str(_, s) => J::String(s.clone()),
        Value::Path(p) => {
            if p.is_nil() {
                J::Null
            } else {
                J::String(p.to_string())
            }
        }
        Value::Ptr(_, None) | Value::Slice(_, None) | Value::Map(_, None) => J::Null,
        Value::Ptr(_, Some(c)) => unstructured(env, &c.borrow(), d)?,
        Value::Slice(t, Some(s)) => {
            if matches!(env.underlying(t), TypeRef::Slice(e) if matches!(*e, TypeRef::Builtin(Builtin::Byte | Builtin::Uint8)))
            {
                return Err("[]byte values are not supported".into());
            }
            J::Array(
                s.borrow()
                    .iter()
                    .map(|e| unstructured(env, e, d))
                    .collect::<Result<_, _>>()?,
            )
        }
        Value::Array(_, items) => J::Array(
            items
                .iter()
                .map(|e| unstructured(env, e, d))
                .collect::<Result<_, _>>()?,
        ),
        Value::Map(_, Some(m)) => {
            let mut obj = Map::new();
            for (k, val) in m.borrow().iter() {
                let key = match k.as_dynamic() {
                    Value::Str(_, s) | Value::UntypedString(s) => s.clone(),
                    other => return Err(format!("map key of kind {}", other.kind_name())),
                };
                obj.insert(key, unstructured(env, val, d)?);
            }
            J::Object(obj)
        }
        Value::Struct(t, values) => {
            let fields = env
                .struct_fields(t)
                .ok_or_else(|| format!("{} is not a struct", env.type_string(t)))?;
            let mut obj = Map::new();
            for (f, v) in fields.iter().zip(values) {
                obj.insert(f.name.clone(), unstructured(env, v, d)?);
            }
            J::Object(obj)
        }
        other => return Err(format!("cannot convert {} to data", other.kind_name())),
    })
}

/// Go values → JSON keeping the names of their named types: a value of a named type is
/// `{"type": <name>, "value": <value>}` (a struct's value an object of its fields by Go
/// name), other values as [`unstructured`] converts them; function values are `null`.
pub fn typed_json(env: &TypeEnv<'_>, v: &Value, depth: usize) -> Result<J, String> {
    if depth > MAX_DEPTH {
        return Err("value nested too deeply".into());
    }
    let d = depth + 1;
    let named = |t: &TypeRef, value: J| -> J {
        match env.unalias(t) {
            TypeRef::Named(n) => {
                let mut m = Map::new();
                m.insert("type".into(), J::String(n.name.clone()));
                m.insert("value".into(), value);
                J::Object(m)
            }
            _ => value,
        }
    };
    Ok(match v {
        Value::Func(_) => J::Null,
        Value::Iface(Some(inner)) => typed_json(env, inner, d)?,
        Value::Ptr(_, Some(c)) => typed_json(env, &c.borrow(), d)?,
        Value::Struct(t, values) => {
            let fields = env
                .struct_fields(t)
                .ok_or_else(|| format!("{} is not a struct", env.type_string(t)))?;
            let mut obj = Map::new();
            for (f, v) in fields.iter().zip(values) {
                obj.insert(f.name.clone(), typed_json(env, v, d)?);
            }
            named(t, J::Object(obj))
        }
        Value::Slice(t, Some(s)) => {
            let items = s
                .borrow()
                .iter()
                .map(|e| typed_json(env, e, d))
                .collect::<Result<Vec<_>, _>>()?;
            named(t, J::Array(items))
        }
        Value::Bool(t, _) | Value::Int(t, _) | Value::Float(t, _) | Value::Str(t, _) => {
            named(t, unstructured(env, v, d)?)
        }
        other => unstructured(env, other, d)?,
    })
}

/// The fields of a struct value by Go name, embedded structs' fields promoted (as Go
/// promotes `Generic`, `Extensions`, `ValidationExtensions` into `Structural`).
fn struct_fields_flat(
    env: &TypeEnv<'_>,
    v: &Value,
    out: &mut Vec<(String, Value)>,
    depth: usize,
) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err("schema nested too deeply".into());
    }
    let Value::Struct(t, values) = v else {
        return Err(format!("expected a struct, found {}", v.kind_name()));
    };
    let fields = env
        .struct_fields(t)
        .ok_or_else(|| format!("{} is not a struct", env.type_string(t)))?;
    for (f, v) in fields.iter().zip(values) {
        if f.embedded {
            let inner = match v {
                Value::Ptr(_, None) => continue,
                Value::Ptr(_, Some(c)) => c.borrow().clone(),
                other => other.clone(),
            };
            struct_fields_flat(env, &inner, out, depth + 1)?;
        } else {
            out.push((f.name.clone(), v.clone()));
        }
    }
    Ok(())
}

/// A `schema.Structural` (or `NestedValueValidation`) value → its OpenAPI v3 JSON form;
/// `None` for a nil pointer.
pub fn schema_json(env: &TypeEnv<'_>, v: &Value, depth: usize) -> Result<Option<J>, String> {
    if depth > MAX_DEPTH {
        return Err("schema nested too deeply".into());
    }
    let d = depth + 1;
    let v = match v.as_dynamic() {
        Value::Nil | Value::Ptr(_, None) => return Ok(None),
        Value::Ptr(_, Some(c)) => c.borrow().clone(),
        other => other.clone(),
    };
    if let Value::Str(t, text) = &v
        && is_named(t, SCHEMA_JSON_PKG, "Schema")
    {
        // A schema `mustSchema` decoded (see [`TableHarness`]).
        return serde_json::from_str(text)
            .map(Some)
            .map_err(|e| format!("decoded schema: {e}"));
    }
    let mut flat = Vec::new();
    struct_fields_flat(env, &v, &mut flat, d)?;
    let mut obj = Map::new();
    for (name, fv) in &flat {
        let data = |fv: &Value| unstructured(env, fv, d);
        match name.as_str() {
            "Items" | "Not" => {
                if let Some(s) = schema_json(env, fv, d)? {
                    obj.insert(json_key(name).into(), s);
                }
            }
            "Properties" => {
                if let Value::Map(_, Some(m)) = fv {
                    let mut props = Map::new();
                    for (k, pv) in m.borrow().iter() {
                        let key = match k.as_dynamic() {
                            Value::Str(_, s) | Value::UntypedString(s) => s.clone(),
                            other => {
                                return Err(format!("property key of kind {}", other.kind_name()));
                            }
                        };
                        props.insert(
                            key,
                            schema_json(env, pv, d)?.unwrap_or(J::Object(Map::new())),
                        );
                    }
                    obj.insert("properties".into(), J::Object(props));
                }
            }
            "AdditionalProperties" => match fv {
                Value::Ptr(_, None) => {}
                Value::Ptr(_, Some(c)) => {
                    let inner = c.borrow().clone();
                    if let Value::Struct(t, _) = &inner
                        && is_named(&env.unalias(t), SCHEMA_PKG, "StructuralOrBool")
                    {
                        let mut sb = Vec::new();
                        struct_fields_flat(env, &inner, &mut sb, d)?;
                        let structural = sb.iter().find(|(n, _)| n == "Structural").map(|(_, v)| v);
                        let allows = sb
                            .iter()
                            .find(|(n, _)| n == "Bool")
                            .is_some_and(|(_, v)| matches!(v, Value::Bool(_, true)));
                        match structural
                            .map(|s| schema_json(env, s, d))
                            .transpose()?
                            .flatten()
                        {
                            Some(s) => {
                                obj.insert("additionalProperties".into(), s);
                            }
                            None => {
                                obj.insert("additionalProperties".into(), J::Bool(allows));
                            }
                        }
                    } else if let Some(s) = schema_json(env, &inner, d)? {
                        obj.insert("additionalProperties".into(), s);
                    }
                }
                other => {
                    return Err(format!(
                        "AdditionalProperties of kind {}",
                        other.kind_name()
                    ));
                }
            },
            "AllOf" | "OneOf" | "AnyOf" => {
                if let Value::Slice(_, Some(s)) = fv {
                    let mut list = Vec::new();
                    for e in s.borrow().iter() {
                        list.push(schema_json(env, e, d)?.unwrap_or(J::Object(Map::new())));
                    }
                    obj.insert(json_key(name).into(), J::Array(list));
                }
            }
            "ValueValidation" => {
                if let Some(J::Object(vv)) = schema_json(env, fv, d)? {
                    obj.extend(vv);
                }
            }
            "Default" | "Example" => {
                // schema.JSON{Object: ...}.
                let mut inner = Vec::new();
                struct_fields_flat(env, fv, &mut inner, d)?;
                if let Some((_, o)) = inner.iter().find(|(n, _)| n == "Object") {
                    let j = data(o)?;
                    if !j.is_null() {
                        obj.insert(json_key(name).into(), j);
                    }
                }
            }
            "Enum" => {
                if let Value::Slice(_, Some(s)) = fv {
                    let mut list = Vec::new();
                    for e in s.borrow().iter() {
                        let mut inner = Vec::new();
                        struct_fields_flat(env, e, &mut inner, d)?;
                        let o = inner.iter().find(|(n, _)| n == "Object").map(|(_, v)| v);
                        list.push(match o {
                            Some(o) => data(o)?,
                            None => J::Null,
                        });
                    }
                    obj.insert("enum".into(), J::Array(list));
                }
            }
            "XValidations" => {
                if let Value::Slice(_, Some(s)) = fv {
                    let mut list = Vec::new();
                    for r in s.borrow().iter() {
                        list.push(validation_rule_json(env, r, d)?);
                    }
                    obj.insert("x-kubernetes-validations".into(), J::Array(list));
                }
            }
            "ForbiddenGenerics" | "ForbiddenExtensions" => {
                if !is_deep_zero(&data(fv)?) {
                    return Err(format!("{name} set in a nested value validation"));
                }
            }
            "ExternalDocs" | "Description" | "Title" => {}
            _ => {
                let j = data(fv)?;
                if is_zero_json(&j) {
                    continue;
                }
                let key = json_key(name);
                if key.is_empty() {
                    return Err(format!("schema field {name} is not supported"));
                }
                obj.insert(key.into(), j);
            }
        }
    }
    Ok(Some(J::Object(obj)))
}

/// Go's zero value in JSON form (absent from the schema).
fn is_zero_json(j: &J) -> bool {
    match j {
        J::Null => true,
        J::Bool(b) => !b,
        J::String(s) => s.is_empty(),
        J::Array(a) => a.is_empty(),
        J::Object(_) | J::Number(_) => false,
    }
}

/// Go's zero value of a struct in JSON form: every member zero, recursively.
fn is_deep_zero(j: &J) -> bool {
    match j {
        J::Object(m) => m.values().all(is_deep_zero),
        other => is_zero_json(other),
    }
}

/// The OpenAPI key of a structural schema field ("" when it has none).
fn json_key(go: &str) -> &'static str {
    match go {
        "Items" => "items",
        "Not" => "not",
        "AllOf" => "allOf",
        "OneOf" => "oneOf",
        "AnyOf" => "anyOf",
        "Default" => "default",
        "Example" => "example",
        "Type" => "type",
        "Nullable" => "nullable",
        "XPreserveUnknownFields" => "x-kubernetes-preserve-unknown-fields",
        "XEmbeddedResource" => "x-kubernetes-embedded-resource",
        "XIntOrString" => "x-kubernetes-int-or-string",
        "XListMapKeys" => "x-kubernetes-list-map-keys",
        "XListType" => "x-kubernetes-list-type",
        "XMapType" => "x-kubernetes-map-type",
        "Format" => "format",
        "Maximum" => "maximum",
        "ExclusiveMaximum" => "exclusiveMaximum",
        "Minimum" => "minimum",
        "ExclusiveMinimum" => "exclusiveMinimum",
        "MaxLength" => "maxLength",
        "MinLength" => "minLength",
        "Pattern" => "pattern",
        "MaxItems" => "maxItems",
        "MinItems" => "minItems",
        "UniqueItems" => "uniqueItems",
        "MultipleOf" => "multipleOf",
        "MaxProperties" => "maxProperties",
        "MinProperties" => "minProperties",
        "Required" => "required",
        _ => "",
    }
}

/// An `apiextensions.ValidationRule` → its JSON form.
fn validation_rule_json(env: &TypeEnv<'_>, v: &Value, depth: usize) -> Result<J, String> {
    let mut flat = Vec::new();
    struct_fields_flat(env, v, &mut flat, depth)?;
    let mut obj = Map::new();
    for (name, fv) in &flat {
        let key = match name.as_str() {
            "Rule" => "rule",
            "Message" => "message",
            "MessageExpression" => "messageExpression",
            "Reason" => "reason",
            "FieldPath" => "fieldPath",
            "OptionalOldSelf" => "optionalOldSelf",
            other => return Err(format!("ValidationRule field {other} is not supported")),
        };
        let j = unstructured(env, fv, depth + 1)?;
        // Absent and empty are the same to the API server, except a set optionalOldSelf.
        let keep = match key {
            "rule" => true,
            "optionalOldSelf" => !j.is_null(),
            _ => !is_zero_json(&j),
        };
        if keep {
            obj.insert(key.into(), j);
        }
    }
    Ok(J::Object(obj))
}

/// Marker type of a schema decoded from YAML by the `mustSchema` hook: a `*schema.Structural`
/// pointing at a string of this type holding the schema's JSON. Reading its fields in Go is
/// an interpreter error (the row is skipped), converting it is [`schema_json`]'s.
const SCHEMA_JSON_PKG: &str = "kdv-conformance/apiextensions";

/// The interpreter's harness for table evaluation: tables build values and run no
/// validation. It provides the test files' YAML helpers natively (`mustSchema`,
/// `mustUnstructured`, `FixTabsOrDie`) and `genString` (a `strings.Builder` loop).
struct TableHarness;

impl Harness for TableHarness {
    fn hook(&self, name: &str) -> bool {
        matches!(
            name,
            "mustSchema" | "mustUnstructured" | "FixTabsOrDie" | "genString"
        )
    }

    fn call_hook(
        &mut self,
        _env: &TypeEnv<'_>,
        name: &str,
        args: Vec<Value>,
        line: u32,
    ) -> crate::interp::R<Value> {
        let text = |i: usize| args.get(i).and_then(Value::as_str).map(str::to_string);
        match name {
            "genString" => {
                let n = args.first().and_then(Value::as_int).unwrap_or(-1);
                let c = args
                    .get(1)
                    .and_then(Value::as_int)
                    .and_then(|c| u32::try_from(c).ok())
                    .and_then(char::from_u32);
                match (usize::try_from(n), c) {
                    (Ok(n), Some(c)) if n <= 10_000_000 => {
                        Ok(Value::string(std::iter::repeat_n(c, n).collect::<String>()))
                    }
                    _ => crate::interp::fail(line, "genString: bad arguments"),
                }
            }
            "FixTabsOrDie" => match text(0).map(|t| fix_tabs(&t)) {
                Some(Ok(t)) => Ok(Value::string(t)),
                Some(Err(e)) => crate::interp::fail(line, format!("FixTabsOrDie: {e}")),
                None => crate::interp::fail(line, "FixTabsOrDie needs a string"),
            },
            "mustSchema" | "mustUnstructured" => {
                let Some(source) = text(0) else {
                    return crate::interp::fail(line, format!("{name} needs a string"));
                };
                let json = fix_tabs(&source).and_then(|t| {
                    serde_saphyr::from_str::<J>(&t).map_err(|e| format!("YAML: {e}"))
                });
                let json = match json {
                    Ok(j) => j,
                    Err(e) => return crate::interp::fail(line, format!("{name}: {e}")),
                };
                if name == "mustSchema" {
                    Ok(Value::Ptr(
                        crate::types::named(SCHEMA_PKG, "Structural"),
                        Some(crate::value::cell(Value::Str(
                            crate::types::named(SCHEMA_JSON_PKG, "Schema"),
                            json.to_string(),
                        ))),
                    ))
                } else {
                    Ok(iface_of(go_unstructured(&json)))
                }
            }
            _ => crate::interp::fail(line, format!("no harness function {name}")),
        }
    }

    // Tables build values only.
    fn new_case(&mut self, _line: u32) -> usize {
        0
    }
    fn expect(&mut self, _env: &TypeEnv<'_>, _tester: &TesterState, _expectation: Expectation) {}
    fn matcher_test(
        &mut self,
        _line: u32,
        _matcher: &Matcher,
        _want: &[FieldError],
        _got: &[FieldError],
    ) {
    }
    fn call_validate(
        &mut self,
        _env: &TypeEnv<'_>,
        package: &str,
        type_name: &str,
        _new: &Value,
        _old: &Value,
    ) -> Result<Vec<FieldError>, String> {
        Err(format!(
            "{package}.Validate_{type_name} is not available in a table"
        ))
    }
    fn fail_pending(&mut self, _since: usize, _kind: FailureKind, _reason: &str) -> usize {
        0
    }
    fn case_count(&self) -> usize {
        0
    }
}

/// The test files' `FixTabsOrDie`: the first line's leading tabs are removed from every line
/// (an error when a line lacks them, a blank last line aside), a leading empty line dropped,
/// and the remaining tabs turned into two spaces each.
pub fn fix_tabs(input: &str) -> Result<String, String> {
    let mut lines: Vec<&str> = input.split('\n').collect();
    if lines.len() > 1 && lines[0].is_empty() {
        lines.remove(0);
    }
    let prefix: String = lines[0].chars().take_while(|c| *c == '\t').collect();
    let last = lines.len() - 1;
    let mut out = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        if i == last && line.len() <= prefix.len() && line.trim().is_empty() {
            out.push("");
            break;
        }
        match line.strip_prefix(prefix.as_str()) {
            Some(rest) => out.push(rest),
            None => {
                return Err(format!(
                    "line {i} doesn't start with expected number ({}) of tabs",
                    prefix.len()
                ));
            }
        }
    }
    Ok(out.join("\n").replace('\t', "  "))
}

/// JSON → a Go unstructured value as `encoding/json` (through apimachinery's YAML decoder,
/// which keeps integers as `int64`) builds it: `map[string]interface{}`, `[]interface{}`,
/// `int64`, `float64`, `string`, `bool`, nil.
pub fn go_unstructured(j: &J) -> Value {
    let iface = || TypeRef::Interface;
    match j {
        J::Null => Value::Nil,
        J::Bool(b) => Value::bool(*b),
        J::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(TypeRef::Builtin(Builtin::Int64), i.into()),
            None => Value::Float(
                TypeRef::Builtin(Builtin::Float64),
                n.as_f64().unwrap_or(f64::NAN),
            ),
        },
        J::String(s) => Value::string(s.clone()),
        J::Array(a) => Value::Slice(
            TypeRef::Slice(Box::new(iface())),
            Some(Rc::new(std::cell::RefCell::new(
                a.iter().map(|e| iface_of(go_unstructured(e))).collect(),
            ))),
        ),
        J::Object(m) => Value::Map(
            TypeRef::Map {
                key: Box::new(TypeRef::Builtin(Builtin::String)),
                value: Box::new(iface()),
            },
            Some(Rc::new(std::cell::RefCell::new(
                m.iter()
                    .map(|(k, v)| (Value::string(k.clone()), iface_of(go_unstructured(v))))
                    .collect(),
            ))),
        ),
    }
}

/// A value in an `interface{}` slot (nil stays the nil interface).
fn iface_of(v: Value) -> Value {
    match v {
        Value::Nil => Value::Iface(None),
        v => Value::Iface(Some(Box::new(v))),
    }
}
