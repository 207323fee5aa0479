//! The interpreter for test-file function bodies: Go statements and expressions over
//! [`Value`]s, with the fixture package's types and constants from the type model, and the
//! emulated libraries (`field`, `ptr`, `fmt`, `strings`, `testing`, testscheme) in
//! [`crate::library`]. What it cannot interpret is an [`InterpError`] with a line number.

use std::collections::HashMap;
use std::rc::Rc;

use kdv_model::{Builtin, ConstValue, Field, StructType, TypeRef};
use kdv_runtime::FieldError;

use crate::matcher::Matcher;
use crate::syntax::*;
use crate::types::{FIELD_PKG, TypeEnv, int_kind, is_named, named, wrap_int};
use crate::value::*;

/// Something the interpreter could not do, with the test-file line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterpError {
    pub message: String,
    pub line: u32,
}

/// Why evaluation stopped early.
#[derive(Debug, Clone)]
pub enum Abort {
    /// An unsupported construct or a Go runtime panic (nil dereference, bad index).
    Error(InterpError),
    /// `t.Fatalf` / `t.FailNow`: the test function fails with this message.
    Fatal(String, u32),
}

/// Result of evaluation.
pub type R<T> = Result<T, Abort>;

/// Builds an [`Abort::Error`].
pub fn fail<T>(line: u32, message: impl Into<String>) -> R<T> {
    Err(Abort::Error(InterpError {
        message: message.into(),
        line,
    }))
}

/// What a test asks of a case.
#[derive(Debug, Clone)]
pub enum Expectation {
    Valid,
    Matches(Matcher, Vec<FieldError>),
    ValidateFalseByPath(std::collections::BTreeMap<String, Vec<String>>),
}

/// The side of the interpreter that validates: provided by the runner.
pub trait Harness {
    /// `st.Value(v)` ran at `line`; returns the new case's index.
    fn new_case(&mut self, line: u32) -> usize;
    /// An expectation verb on a case. `Err` is a harness problem (the case fails with it).
    fn expect(&mut self, env: &TypeEnv<'_>, tester: &TesterState, expectation: Expectation);
    /// A direct `matcher.Test(t, want, got)`.
    fn matcher_test(
        &mut self,
        line: u32,
        matcher: &Matcher,
        want: &[FieldError],
        got: &[FieldError],
    );
    /// A direct call of a generated `Validate_<Type>` function of package `package`.
    fn call_validate(
        &mut self,
        env: &TypeEnv<'_>,
        package: &str,
        type_name: &str,
        new: &Value,
        old: &Value,
    ) -> Result<Vec<FieldError>, String>;
    /// Marks the cases created since `since` that ran no expectation as failed; returns how
    /// many it marked.
    fn fail_pending(
        &mut self,
        since: usize,
        kind: crate::report::FailureKind,
        reason: &str,
    ) -> usize;
    /// Number of cases created so far.
    fn case_count(&self) -> usize;
    /// Whether the harness provides function `name` itself, in place of the test file's
    /// (a helper that decodes YAML, say).
    fn hook(&self, _name: &str) -> bool {
        false
    }
    /// Calls a function [`Harness::hook`] provides.
    fn call_hook(
        &mut self,
        _env: &TypeEnv<'_>,
        name: &str,
        _args: Vec<Value>,
        line: u32,
    ) -> R<Value> {
        fail(line, format!("no harness function {name}"))
    }
}

/// The fixture package and test file the interpreter runs in.
pub struct PackageCtx<'u> {
    pub env: TypeEnv<'u>,
    /// Import path of the package under test.
    pub path: String,
    /// Imports of the test file: local name → import path.
    pub imports: HashMap<String, String>,
    /// Top-level functions of the test files.
    pub funcs: HashMap<String, Rc<FuncDecl>>,
    /// Top-level variables and constants of the test files.
    pub globals: Rc<Scope>,
}

enum Flow {
    Normal,
    Break,
    Continue,
    Return(Vec<Value>),
}

/// Statement budget per test function: a runaway loop is an error, not a hang.
const MAX_STEPS: u64 = 5_000_000;
/// Nesting bound for calls and expression evaluation. Evaluation recurses on the Rust
/// stack: callers run the interpreter on a thread with [`STACK_SIZE`] bytes of stack.
const MAX_DEPTH: u32 = 300;

/// Stack size the interpreter needs for `MAX_DEPTH` (300) nested evaluations (debug builds
/// have large frames).
pub const STACK_SIZE: usize = 256 * 1024 * 1024;

/// A reference to a storage location, for assignments.
enum Place {
    Cell(Cell),
    Field(Box<Place>, usize),
    Elem(SliceRef, usize),
    ArrElem(Box<Place>, usize),
    MapEntry(MapRef, Value, TypeRef),
}

/// The interpreter. Run it on a thread with [`STACK_SIZE`] bytes of stack.
pub struct Interp<'a, 'u> {
    pub ctx: &'a PackageCtx<'u>,
    pub harness: &'a mut dyn Harness,
    steps: u64,
    depth: u32,
}

impl<'a, 'u> Interp<'a, 'u> {
    /// Creates an interpreter for one test function run.
    pub fn new(ctx: &'a PackageCtx<'u>, harness: &'a mut dyn Harness) -> Interp<'a, 'u> {
        Interp {
            ctx,
            harness,
            steps: 0,
            depth: 0,
        }
    }

    /// The type environment.
    pub fn env(&self) -> &TypeEnv<'u> {
        &self.ctx.env
    }

    /// Runs `func TestX(t *testing.T)`.
    pub fn run_test(&mut self, f: &FuncDecl) -> R<()> {
        let sc = Scope::child(&self.ctx.globals);
        if let Some((Some(name), _)) = f.sig.params.first() {
            sc.declare(name, Value::TestingT);
        }
        match self.exec_block(&f.body, &sc)? {
            Flow::Normal | Flow::Return(_) => Ok(()),
            Flow::Break | Flow::Continue => fail(f.line, "break/continue outside a loop"),
        }
    }

    /// Evaluates the top-level `var`/`const` specs of the test files into the globals.
    pub fn init_globals(&mut self, specs: &[ValueSpec]) -> R<()> {
        let globals = self.ctx.globals.clone();
        for spec in specs {
            self.exec_var(spec, &globals)?;
        }
        Ok(())
    }

    /// Executes one statement of a function body in scope `sc` (for harnesses that run a
    /// test function's set-up statements one by one, such as table readers).
    pub fn exec_stmt(&mut self, s: &Stmt, sc: &Rc<Scope>) -> R<()> {
        self.exec(s, sc).map(|_| ())
    }

    fn tick(&mut self, line: u32) -> R<()> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return fail(line, "statement budget exhausted (runaway loop?)");
        }
        Ok(())
    }

    fn enter(&mut self, line: u32) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return fail(line, "nesting too deep");
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    // ---- statements ---------------------------------------------------------------------

    fn exec_block(&mut self, stmts: &[Stmt], parent: &Rc<Scope>) -> R<Flow> {
        let sc = Scope::child(parent);
        for s in stmts {
            match self.exec(s, &sc)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    fn exec(&mut self, s: &Stmt, sc: &Rc<Scope>) -> R<Flow> {
        let line = s.line();
        self.tick(line)?;
        self.enter(line)?;
        let r = self.exec_inner(s, sc);
        self.leave();
        r
    }

    fn exec_inner(&mut self, s: &Stmt, sc: &Rc<Scope>) -> R<Flow> {
        match s {
            Stmt::Expr(e) => {
                self.eval_multi(e, sc)?;
                Ok(Flow::Normal)
            }
            Stmt::Define(names, rhs, line) => {
                let values = self.eval_rhs(rhs, names.len(), sc, *line)?;
                let any_new = names.iter().any(|n| n == "_" || !sc.declares(n));
                if !any_new && names.len() > 1 {
                    return fail(*line, "no new variables on left side of :=");
                }
                for (n, v) in names.iter().zip(values) {
                    let v = self.default_typed(v, *line)?;
                    if let Some(existing) = sc.declares(n).then(|| sc.lookup(n)).flatten() {
                        *existing.borrow_mut() = v;
                    } else {
                        sc.declare(n, v);
                    }
                }
                Ok(Flow::Normal)
            }
            Stmt::Assign(lhs, rhs, line) => {
                let values = self.eval_rhs(rhs, lhs.len(), sc, *line)?;
                let mut places = Vec::new();
                for l in lhs {
                    if matches!(&l.kind, ExprKind::Ident(n) if n == "_") {
                        places.push(None);
                    } else {
                        places.push(Some(self.place(l, sc)?));
                    }
                }
                for (p, v) in places.into_iter().zip(values) {
                    if let Some(p) = p {
                        self.store(&p, v, *line)?;
                    }
                }
                Ok(Flow::Normal)
            }
            Stmt::OpAssign(target, op, rhs, line) => {
                let p = self.place(target, sc)?;
                let cur = self.load(&p, *line)?;
                let r = self.eval(rhs, sc)?;
                let v = self.binary(*op, cur, r, *line)?;
                self.store(&p, v, *line)?;
                Ok(Flow::Normal)
            }
            Stmt::IncDec(target, inc, line) => {
                let p = self.place(target, sc)?;
                let cur = self.load(&p, *line)?;
                let op = if *inc { BinOp::Add } else { BinOp::Sub };
                let v = self.binary(op, cur, Value::UntypedInt(1), *line)?;
                self.store(&p, v, *line)?;
                Ok(Flow::Normal)
            }
            Stmt::Var(spec) => {
                self.exec_var(spec, sc)?;
                Ok(Flow::Normal)
            }
            Stmt::Block(b) => self.exec_block(b, sc),
            Stmt::If {
                init,
                cond,
                then,
                els,
                line,
            } => {
                let inner = Scope::child(sc);
                if let Some(init) = init {
                    self.exec(init, &inner)?;
                }
                let c = self.eval(cond, &inner)?;
                let Some(b) = c.as_bool() else {
                    return fail(*line, "non-boolean condition in if statement");
                };
                if b {
                    self.exec_block(then, &inner)
                } else if let Some(e) = els {
                    self.exec(e, &inner)
                } else {
                    Ok(Flow::Normal)
                }
            }
            Stmt::For {
                init,
                cond,
                post,
                body,
                line,
            } => {
                let outer = Scope::child(sc);
                if let Some(init) = init {
                    self.exec(init, &outer)?;
                }
                loop {
                    self.tick(*line)?;
                    if let Some(c) = cond {
                        let v = self.eval(c, &outer)?;
                        match v.as_bool() {
                            Some(true) => {}
                            Some(false) => break,
                            None => return fail(*line, "non-boolean loop condition"),
                        }
                    }
                    // Go 1.22: each iteration has its own copy of the loop variables.
                    let iter = Scope::child(&outer);
                    for (n, c) in outer.vars.borrow().iter() {
                        iter.declare(n, c.borrow().clone());
                    }
                    let flow = self.exec_block(body, &iter)?;
                    for (n, c) in iter.vars.borrow().iter() {
                        if let Some(o) = outer.lookup(n) {
                            *o.borrow_mut() = c.borrow().clone();
                        }
                    }
                    match flow {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        Flow::Normal | Flow::Continue => {}
                    }
                    if let Some(p) = post {
                        self.exec(p, &outer)?;
                    }
                }
                Ok(Flow::Normal)
            }
            Stmt::Range {
                key,
                value,
                define,
                expr,
                body,
                line,
            } => self.exec_range(key.as_ref(), value.as_ref(), *define, expr, body, *line, sc),
            Stmt::Switch {
                init,
                tag,
                cases,
                line,
            } => {
                let inner = Scope::child(sc);
                if let Some(init) = init {
                    self.exec(init, &inner)?;
                }
                let tag_v = match tag {
                    Some(t) => Some(self.eval(t, &inner)?),
                    None => None,
                };
                let mut chosen = None;
                'outer: for (i, (exprs, _)) in cases.iter().enumerate() {
                    let Some(exprs) = exprs else { continue };
                    for e in exprs {
                        let v = self.eval(e, &inner)?;
                        let hit = match &tag_v {
                            Some(t) => self.equal(t, &v, *line)?,
                            None => v.as_bool() == Some(true),
                        };
                        if hit {
                            chosen = Some(i);
                            break 'outer;
                        }
                    }
                }
                if chosen.is_none() {
                    chosen = cases.iter().position(|(e, _)| e.is_none());
                }
                match chosen {
                    Some(i) => match self.exec_block(&cases[i].1, &inner)? {
                        Flow::Break => Ok(Flow::Normal),
                        other => Ok(other),
                    },
                    None => Ok(Flow::Normal),
                }
            }
            Stmt::Return(values, line) => {
                let mut out = Vec::new();
                for v in values {
                    match self.eval_multi(v, sc)? {
                        Value::Tuple(t) if values.len() == 1 => out.extend(t),
                        Value::Tuple(_) => return fail(*line, "multi-value in return list"),
                        v => out.push(v),
                    }
                }
                Ok(Flow::Return(out))
            }
            Stmt::Break(_) => Ok(Flow::Break),
            Stmt::Continue(_) => Ok(Flow::Continue),
            Stmt::Unsupported(what, line) => fail(*line, format!("unsupported statement: {what}")),
        }
    }

    fn exec_var(&mut self, spec: &ValueSpec, sc: &Rc<Scope>) -> R<()> {
        let ty = match &spec.ty {
            Some(t) => Some(self.resolve_type(t, sc, spec.line)?),
            None => None,
        };
        let values = if spec.values.is_empty() {
            let Some(t) = &ty else {
                return fail(spec.line, "missing type or value in declaration");
            };
            vec![self.zero(t); spec.names.len()]
        } else {
            let mut vs = Vec::new();
            if spec.values.len() == 1 && spec.names.len() > 1 {
                match self.eval_multi(&spec.values[0], sc)? {
                    Value::Tuple(t) => vs = t,
                    _ => return fail(spec.line, "assignment mismatch"),
                }
            } else {
                for e in &spec.values {
                    vs.push(match &ty {
                        Some(t) => self.eval_typed(e, sc, t)?,
                        None => self.eval(e, sc)?,
                    });
                }
            }
            vs
        };
        if values.len() != spec.names.len() {
            return fail(spec.line, "assignment mismatch");
        }
        for (n, v) in spec.names.iter().zip(values) {
            let v = match &ty {
                Some(t) => self.assign_conv(v, t, spec.line)?,
                None if spec.is_const => v,
                None => self.default_typed(v, spec.line)?,
            };
            sc.declare(n, v);
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn exec_range(
        &mut self,
        key: Option<&Expr>,
        value: Option<&Expr>,
        define: bool,
        expr: &Expr,
        body: &[Stmt],
        line: u32,
        sc: &Rc<Scope>,
    ) -> R<Flow> {
        let subject = self.eval(expr, sc)?.unwrap_iface();
        // (key, value) pairs to iterate.
        let items: Vec<(Value, Value)> = match &subject {
            Value::Int(..) | Value::UntypedInt(_) => {
                let n = subject.as_int().unwrap_or(0);
                if n > 10_000_000 {
                    return fail(line, "range count too large");
                }
                let ty = match &subject {
                    Value::Int(t, _) => t.clone(),
                    _ => TypeRef::Builtin(Builtin::Int),
                };
                (0..n.max(0))
                    .map(|i| (Value::Int(ty.clone(), i), Value::Nil))
                    .collect()
            }
            Value::Slice(..) | Value::Array(..) => subject
                .elements()
                .unwrap_or_default()
                .into_iter()
                .enumerate()
                .map(|(i, v)| (Value::int(i as i128), v))
                .collect(),
            Value::Map(_, Some(m)) => m.borrow().clone(),
            Value::Map(_, None) => Vec::new(),
            Value::Str(_, s) | Value::UntypedString(s) => s
                .char_indices()
                .map(|(i, c)| {
                    (
                        Value::int(i as i128),
                        Value::Int(TypeRef::Builtin(Builtin::Rune), c as i128),
                    )
                })
                .collect(),
            other => return fail(line, format!("cannot range over {}", other.kind_name())),
        };
        for (k, v) in items {
            self.tick(line)?;
            let iter = Scope::child(sc);
            let targets = [(key, k), (value, v)];
            for (target, val) in targets {
                let Some(target) = target else { continue };
                if define {
                    match &target.kind {
                        ExprKind::Ident(n) => {
                            iter.declare(n, val);
                        }
                        _ => return fail(line, "non-name in range clause"),
                    }
                } else if !matches!(&target.kind, ExprKind::Ident(n) if n == "_") {
                    let p = self.place(target, sc)?;
                    self.store(&p, val, line)?;
                }
            }
            match self.exec_block(body, &iter)? {
                Flow::Break => break,
                Flow::Return(v) => return Ok(Flow::Return(v)),
                Flow::Normal | Flow::Continue => {}
            }
        }
        Ok(Flow::Normal)
    }

    fn eval_rhs(&mut self, rhs: &[Expr], n: usize, sc: &Rc<Scope>, line: u32) -> R<Vec<Value>> {
        if rhs.len() == 1 && n > 1 {
            return match self.eval_multi(&rhs[0], sc)? {
                Value::Tuple(t) if t.len() == n => Ok(t),
                _ => fail(line, "assignment mismatch"),
            };
        }
        if rhs.len() != n {
            return fail(line, "assignment mismatch");
        }
        rhs.iter().map(|e| self.eval(e, sc)).collect()
    }

    // ---- places -------------------------------------------------------------------------

    fn place(&mut self, e: &Expr, sc: &Rc<Scope>) -> R<Place> {
        match &e.kind {
            ExprKind::Ident(n) => match sc.lookup(n) {
                Some(c) => Ok(Place::Cell(c)),
                None => fail(e.line, format!("cannot assign to {n}")),
            },
            ExprKind::Paren(x) => self.place(x, sc),
            ExprKind::Unary(UnOp::Deref, x) => match self.eval(x, sc)? {
                Value::Ptr(_, Some(c)) => Ok(Place::Cell(c)),
                Value::Ptr(_, None) => fail(e.line, "nil pointer dereference"),
                _ => fail(e.line, "cannot dereference a non-pointer"),
            },
            ExprKind::Selector(x, name) => {
                // Addressable base (a variable holding a struct) or a pointer value.
                let base = match self.place(x, sc) {
                    Ok(p) => p,
                    Err(_) => match self.eval(x, sc)? {
                        Value::Ptr(_, Some(c)) => Place::Cell(c),
                        _ => return fail(e.line, format!("cannot assign to field {name}")),
                    },
                };
                self.field_place(base, name, e.line)
            }
            ExprKind::Index(x, idx) if idx.len() == 1 => {
                let base = self.eval(x, sc)?.unwrap_iface();
                match base {
                    Value::Slice(_, Some(s)) => {
                        let i = self.eval(&idx[0], sc)?.as_int().unwrap_or(-1);
                        let len = s.borrow().len() as i128;
                        if i < 0 || i >= len {
                            return fail(
                                e.line,
                                format!("index out of range [{i}] with length {len}"),
                            );
                        }
                        Ok(Place::Elem(s, i as usize))
                    }
                    Value::Slice(_, None) => fail(e.line, "index out of range (nil slice)"),
                    Value::Map(ty, Some(m)) => {
                        let (kt, vt) = self.map_types(&ty, e.line)?;
                        let k = self.eval_typed(&idx[0], sc, &kt)?;
                        Ok(Place::MapEntry(m, k, vt))
                    }
                    Value::Map(_, None) => fail(e.line, "assignment to entry in nil map"),
                    Value::Array(..) => {
                        let p = self.place(x, sc)?;
                        let i = self.eval(&idx[0], sc)?.as_int().unwrap_or(-1);
                        if i < 0 {
                            return fail(e.line, "negative index");
                        }
                        Ok(Place::ArrElem(Box::new(p), i as usize))
                    }
                    other => fail(e.line, format!("cannot index {}", other.kind_name())),
                }
            }
            _ => fail(e.line, "expression is not assignable"),
        }
    }

    fn field_place(&mut self, base: Place, name: &str, line: u32) -> R<Place> {
        let v = self.load(&base, line)?;
        match v {
            Value::Ptr(_, Some(c)) => {
                let inner = Place::Cell(c);
                self.field_place(inner, name, line)
            }
            Value::Ptr(_, None) => fail(line, "nil pointer dereference"),
            Value::Struct(ty, _) => {
                let Some(path) = self.field_path(&ty, name) else {
                    return fail(
                        line,
                        format!("no field {name} in {}", self.env().type_string(&ty)),
                    );
                };
                let mut p = base;
                for (i, idx) in path.iter().enumerate() {
                    if i > 0 {
                        // Promoted through an embedded field: follow pointers.
                        if let Value::Ptr(_, c) = self.load(&p, line)? {
                            match c {
                                Some(c) => p = Place::Cell(c),
                                None => return fail(line, "nil embedded pointer"),
                            }
                        }
                    }
                    p = Place::Field(Box::new(p), *idx);
                }
                Ok(p)
            }
            other => fail(line, format!("{} has no field {name}", other.kind_name())),
        }
    }

    /// Field indexes from `ty` to the field `name`, through embedded fields (shallowest
    /// first, as Go promotes).
    fn field_path(&self, ty: &TypeRef, name: &str) -> Option<Vec<usize>> {
        let mut frontier: Vec<(TypeRef, Vec<usize>)> = vec![(ty.clone(), Vec::new())];
        for _ in 0..8 {
            let mut next = Vec::new();
            for (t, path) in &frontier {
                let Some(fields) = self.env().struct_fields(t) else {
                    continue;
                };
                if let Some(i) = fields.iter().position(|f| f.name == name) {
                    let mut p = path.clone();
                    p.push(i);
                    return Some(p);
                }
                for (i, f) in fields.iter().enumerate() {
                    if f.embedded {
                        let inner = match &f.ty {
                            TypeRef::Pointer(t) => (**t).clone(),
                            t => t.clone(),
                        };
                        let mut p = path.clone();
                        p.push(i);
                        next.push((inner, p));
                    }
                }
            }
            if next.is_empty() {
                return None;
            }
            frontier = next;
        }
        None
    }

    fn load(&self, p: &Place, line: u32) -> R<Value> {
        match p {
            Place::Cell(c) => Ok(c.borrow().clone()),
            Place::Field(base, i) | Place::ArrElem(base, i) => match self.load(base, line)? {
                Value::Struct(_, fields) | Value::Array(_, fields) => match fields.get(*i) {
                    Some(v) => Ok(v.clone()),
                    None => fail(line, "index out of range"),
                },
                _ => fail(line, "field of a non-struct"),
            },
            Place::Elem(s, i) => match s.borrow().get(*i) {
                Some(v) => Ok(v.clone()),
                None => fail(line, "index out of range"),
            },
            Place::MapEntry(m, k, vt) => {
                for (ek, ev) in m.borrow().iter() {
                    if self.equal(ek, k, line)? {
                        return Ok(ev.clone());
                    }
                }
                Ok(self.zero(vt))
            }
        }
    }

    fn with_place_mut(
        &self,
        p: &Place,
        line: u32,
        f: &mut dyn FnMut(&mut Value) -> R<()>,
    ) -> R<()> {
        match p {
            Place::Cell(c) => f(&mut c.borrow_mut()),
            Place::Field(base, i) | Place::ArrElem(base, i) => {
                self.with_place_mut(base, line, &mut |v| match v {
                    Value::Struct(_, fields) | Value::Array(_, fields) => {
                        match fields.get_mut(*i) {
                            Some(slot) => f(slot),
                            None => fail(line, "index out of range"),
                        }
                    }
                    _ => fail(line, "field of a non-struct"),
                })
            }
            Place::Elem(s, i) => match s.borrow_mut().get_mut(*i) {
                Some(slot) => f(slot),
                None => fail(line, "index out of range"),
            },
            Place::MapEntry(..) => fail(line, "map entries are not addressable"),
        }
    }

    fn place_type(&self, p: &Place, line: u32) -> R<Option<TypeRef>> {
        Ok(match p {
            Place::MapEntry(_, _, vt) => Some(vt.clone()),
            Place::Field(base, i) => match self.load(base, line)? {
                Value::Struct(ty, _) => self
                    .env()
                    .struct_fields(&ty)
                    .and_then(|f| f.get(*i).map(|f| f.ty.clone())),
                _ => None,
            },
            Place::Elem(..) | Place::ArrElem(..) | Place::Cell(_) => {
                self.static_type_of(&self.load(p, line)?)
            }
        })
    }

    fn store(&mut self, p: &Place, v: Value, line: u32) -> R<()> {
        let v = match self.place_type(p, line)? {
            Some(t) => self.assign_conv(v, &t, line)?,
            None => self.default_typed(v, line)?,
        };
        if let Place::MapEntry(m, k, _) = p {
            let k = self.default_typed(k.clone(), line)?;
            let mut found = None;
            for (i, (ek, _)) in m.borrow().iter().enumerate() {
                if self.equal(ek, &k, line)? {
                    found = Some(i);
                    break;
                }
            }
            match found {
                Some(i) => m.borrow_mut()[i].1 = v,
                None => m.borrow_mut().push((k, v)),
            }
            return Ok(());
        }
        let mut v = Some(v);
        self.with_place_mut(p, line, &mut |slot| {
            if let Some(v) = v.take() {
                *slot = v;
            }
            Ok(())
        })
    }

    /// The static type a slot holding `v` has, where the value tells it (interfaces keep
    /// their interface type).
    fn static_type_of(&self, v: &Value) -> Option<TypeRef> {
        match v {
            Value::Iface(_) => Some(TypeRef::Interface),
            _ => self.dyn_type(v),
        }
    }

    // ---- types --------------------------------------------------------------------------

    /// Resolves a written type in the package of the test file.
    pub fn resolve_type(&self, t: &TypeExpr, sc: &Rc<Scope>, line: u32) -> R<TypeRef> {
        Ok(match t {
            TypeExpr::Name { pkg, name, args } => {
                if !args.is_empty() {
                    return fail(line, "generic type instantiation is not supported");
                }
                match pkg {
                    None => {
                        if let Some(b) = Builtin::from_name(name) {
                            match b {
                                Builtin::Any => TypeRef::Interface,
                                _ => TypeRef::Builtin(b),
                            }
                        } else if self
                            .env()
                            .universe
                            .type_decl(&self.ctx.path, name)
                            .is_some()
                        {
                            named(&self.ctx.path, name)
                        } else {
                            return fail(line, format!("unknown type {name}"));
                        }
                    }
                    Some(p) => {
                        let Some(path) = self.ctx.imports.get(p) else {
                            return fail(line, format!("unknown package {p}"));
                        };
                        match crate::library::package_type(path, name) {
                            Some(t) => t,
                            None => {
                                if self.env().universe.type_decl(path, name).is_some() {
                                    named(path, name)
                                } else {
                                    return fail(line, format!("unknown type {p}.{name}"));
                                }
                            }
                        }
                    }
                }
            }
            TypeExpr::Pointer(t) => TypeRef::Pointer(Box::new(self.resolve_type(t, sc, line)?)),
            TypeExpr::Slice(t) => TypeRef::Slice(Box::new(self.resolve_type(t, sc, line)?)),
            TypeExpr::Array(len, elem) => {
                let Some(len) = len else {
                    return fail(line, "[...]T arrays are not supported");
                };
                let n = self.eval_const_int(len, sc)?;
                TypeRef::Array {
                    len: n.to_string(),
                    elem: Box::new(self.resolve_type(elem, sc, line)?),
                }
            }
            TypeExpr::Map(k, v) => TypeRef::Map {
                key: Box::new(self.resolve_type(k, sc, line)?),
                value: Box::new(self.resolve_type(v, sc, line)?),
            },
            TypeExpr::Struct(fields) => {
                let mut out = Vec::new();
                for f in fields {
                    out.push(Field {
                        name: f.name.clone(),
                        embedded: f.embedded,
                        ty: self.resolve_type(&f.ty, sc, line)?,
                        json: f.tag.as_deref().and_then(kdv_go::json_tag),
                        description: String::new(),
                        tags: Default::default(),
                        loc: Default::default(),
                    });
                }
                TypeRef::Struct(StructType { fields: out })
            }
            TypeExpr::Func(_) => TypeRef::Unsupported("func".into()),
            TypeExpr::Interface => TypeRef::Interface,
            TypeExpr::Chan(_) => TypeRef::Unsupported("chan".into()),
        })
    }

    fn eval_const_int(&self, e: &Expr, _sc: &Rc<Scope>) -> R<i128> {
        match &e.kind {
            ExprKind::Int(i) => Ok(*i),
            _ => fail(e.line, "array length must be an integer literal"),
        }
    }

    /// The dynamic type of a typed value; untyped constants get their default type.
    pub fn dyn_type(&self, v: &Value) -> Option<TypeRef> {
        Some(match v {
            Value::UntypedBool(_) => TypeRef::Builtin(Builtin::Bool),
            Value::UntypedInt(_) => TypeRef::Builtin(Builtin::Int),
            Value::UntypedRune(_) => TypeRef::Builtin(Builtin::Rune),
            Value::UntypedFloat(_) => TypeRef::Builtin(Builtin::Float64),
            Value::UntypedString(_) => TypeRef::Builtin(Builtin::String),
            Value::Bool(t, _)
            | Value::Int(t, _)
            | Value::Float(t, _)
            | Value::Str(t, _)
            | Value::Struct(t, _)
            | Value::Array(t, _)
            | Value::Slice(t, _)
            | Value::Map(t, _) => t.clone(),
            Value::Ptr(t, _) => TypeRef::Pointer(Box::new(t.clone())),
            Value::Iface(Some(v)) => return self.dyn_type(v),
            Value::Path(_) => TypeRef::Pointer(Box::new(named(FIELD_PKG, "Path"))),
            Value::FieldErr(_) => TypeRef::Pointer(Box::new(named(FIELD_PKG, "Error"))),
            Value::Matcher(_) => named(FIELD_PKG, "ErrorMatcher"),
            Value::GoError(_) => TypeRef::Builtin(Builtin::Error),
            _ => return None,
        })
    }

    /// The zero value of a type.
    pub fn zero(&self, ty: &TypeRef) -> Value {
        Value::zero(self.env(), ty)
    }

    fn map_types(&self, ty: &TypeRef, line: u32) -> R<(TypeRef, TypeRef)> {
        match self.env().underlying(ty) {
            TypeRef::Map { key, value } => Ok((*key, *value)),
            _ => fail(line, "not a map type"),
        }
    }

    /// Gives untyped constants their default type (for `:=` and interfaces).
    pub fn default_typed(&self, v: Value, _line: u32) -> R<Value> {
        Ok(match v {
            Value::UntypedBool(b) => Value::bool(b),
            Value::UntypedInt(i) => Value::int(i),
            Value::UntypedRune(i) => Value::Int(TypeRef::Builtin(Builtin::Rune), i),
            Value::UntypedFloat(f) => Value::Float(TypeRef::Builtin(Builtin::Float64), f),
            Value::UntypedString(s) => Value::string(s),
            v => v,
        })
    }

    /// Assignability: converts `v` for storing in a slot of type `target` (untyped constants
    /// take the type, interfaces box, unnamed composites take a named type with the same
    /// underlying type).
    pub fn assign_conv(&self, v: Value, target: &TypeRef, line: u32) -> R<Value> {
        if self.env().is_interface(target) || matches!(target, TypeRef::Builtin(Builtin::Error)) {
            return Ok(match v {
                Value::Nil => Value::Iface(None),
                Value::Iface(x) => Value::Iface(x),
                // Error values are themselves interface values.
                Value::GoError(None) => Value::Iface(None),
                v if v.is_nil() && matches!(v, Value::FieldErr(_)) => {
                    Value::Iface(Some(Box::new(v)))
                }
                v => Value::Iface(Some(Box::new(self.default_typed(v, line)?))),
            });
        }
        match v {
            Value::Nil if matches!(target, TypeRef::Unsupported(_)) => Ok(Value::Nil),
            Value::Nil => {
                let z = self.zero(target);
                match z {
                    Value::Ptr(..)
                    | Value::Slice(..)
                    | Value::Map(..)
                    | Value::Path(_)
                    | Value::FieldErr(_)
                    | Value::GoError(_)
                    | Value::Iface(_) => Ok(z),
                    _ => fail(
                        line,
                        format!("cannot use nil as {}", self.env().type_string(target)),
                    ),
                }
            }
            Value::UntypedBool(_)
            | Value::UntypedInt(_)
            | Value::UntypedRune(_)
            | Value::UntypedFloat(_)
            | Value::UntypedString(_) => self.convert(v, target, line),
            Value::Slice(t, s) if t != *target && self.same_underlying(&t, target) => {
                Ok(Value::Slice(target.clone(), s))
            }
            Value::Map(t, m) if t != *target && self.same_underlying(&t, target) => {
                Ok(Value::Map(target.clone(), m))
            }
            Value::Struct(t, f) if t != *target && self.same_underlying(&t, target) => {
                Ok(Value::Struct(target.clone(), f))
            }
            v => Ok(v),
        }
    }

    fn same_underlying(&self, a: &TypeRef, b: &TypeRef) -> bool {
        let (na, nb) = (
            matches!(a, TypeRef::Named(_)),
            matches!(b, TypeRef::Named(_)),
        );
        // Assignability needs one side unnamed.
        (!na || !nb) && self.env().underlying(a) == self.env().underlying(b)
    }

    /// Go conversion `T(v)`.
    pub fn convert(&self, v: Value, target: &TypeRef, line: u32) -> R<Value> {
        let v = v.unwrap_iface();
        let under = self.env().underlying(target);
        let t = target.clone();
        match &under {
            TypeRef::Interface => return self.assign_conv(v, target, line),
            TypeRef::Builtin(b) if *b == Builtin::String => {
                return match v {
                    Value::Str(_, s) | Value::UntypedString(s) => Ok(Value::Str(t, s)),
                    Value::Int(_, i) | Value::UntypedInt(i) | Value::UntypedRune(i) => {
                        let c = u32::try_from(i)
                            .ok()
                            .and_then(char::from_u32)
                            .unwrap_or('\u{fffd}');
                        Ok(Value::Str(t, c.to_string()))
                    }
                    Value::Slice(_, s) => {
                        let bytes: Vec<u8> = s
                            .map(|s| {
                                s.borrow()
                                    .iter()
                                    .filter_map(|b| b.as_int())
                                    .map(|b| b as u8)
                                    .collect()
                            })
                            .unwrap_or_default();
                        Ok(Value::Str(t, String::from_utf8_lossy(&bytes).into_owned()))
                    }
                    other => fail(
                        line,
                        format!("cannot convert {} to string", other.kind_name()),
                    ),
                };
            }
            TypeRef::Builtin(Builtin::Bool) => {
                return match v.as_bool() {
                    Some(b) => Ok(Value::Bool(t, b)),
                    None => fail(line, "cannot convert to bool"),
                };
            }
            TypeRef::Builtin(b) if b.is_integer() => {
                let (bits, signed) = int_kind(*b).unwrap_or((64, true));
                let i = match &v {
                    Value::Float(_, f) | Value::UntypedFloat(f) => f.trunc() as i128,
                    other => match other.as_int() {
                        Some(i) => i,
                        None => {
                            return fail(
                                line,
                                format!("cannot convert {} to integer", other.kind_name()),
                            );
                        }
                    },
                };
                return Ok(Value::Int(t, wrap_int(i, bits, signed)));
            }
            TypeRef::Builtin(Builtin::Float32) | TypeRef::Builtin(Builtin::Float64) => {
                let f = match &v {
                    Value::Float(_, f) | Value::UntypedFloat(f) => *f,
                    other => match other.as_int() {
                        Some(i) => i as f64,
                        None => return fail(line, "cannot convert to float"),
                    },
                };
                let f = if matches!(under, TypeRef::Builtin(Builtin::Float32)) {
                    f as f32 as f64
                } else {
                    f
                };
                return Ok(Value::Float(t, f));
            }
            _ => {}
        }
        match (v, &under) {
            (Value::Nil, _) => self.assign_conv(Value::Nil, target, line),
            (Value::Str(_, s) | Value::UntypedString(s), TypeRef::Slice(e))
                if matches!(
                    self.env().underlying(e),
                    TypeRef::Builtin(Builtin::Byte | Builtin::Uint8)
                ) =>
            {
                let elems = s
                    .bytes()
                    .map(|b| Value::Int((**e).clone(), b as i128))
                    .collect();
                Ok(Value::Slice(
                    t,
                    Some(Rc::new(std::cell::RefCell::new(elems))),
                ))
            }
            (Value::Slice(_, s), TypeRef::Slice(_)) => Ok(Value::Slice(t, s)),
            (Value::Map(_, m), TypeRef::Map { .. }) => Ok(Value::Map(t, m)),
            (Value::Struct(_, f), TypeRef::Struct(_)) => Ok(Value::Struct(t, f)),
            (Value::Array(_, f), TypeRef::Array { .. }) => Ok(Value::Array(t, f)),
            (Value::Ptr(_, c), TypeRef::Pointer(inner)) => Ok(Value::Ptr((**inner).clone(), c)),
            (v, _) if is_named(target, FIELD_PKG, "ErrorList") => match v {
                Value::Slice(_, s) => Ok(Value::Slice(t, s)),
                other => fail(
                    line,
                    format!("cannot convert {} to field.ErrorList", other.kind_name()),
                ),
            },
            (v, _) => fail(
                line,
                format!(
                    "cannot convert {} to {}",
                    v.kind_name(),
                    self.env().type_string(target)
                ),
            ),
        }
    }

    // ---- expressions --------------------------------------------------------------------

    /// Evaluates an expression to one value.
    pub fn eval(&mut self, e: &Expr, sc: &Rc<Scope>) -> R<Value> {
        match self.eval_multi(e, sc)? {
            Value::Tuple(mut t) if t.len() == 1 => Ok(t.remove(0)),
            Value::Tuple(_) => fail(e.line, "multiple-value expression in single-value context"),
            v => Ok(v),
        }
    }

    /// Evaluates an expression for a slot of type `target` (elided composite literals take
    /// the type; the result is assignment-converted).
    pub fn eval_typed(&mut self, e: &Expr, sc: &Rc<Scope>, target: &TypeRef) -> R<Value> {
        if let ExprKind::Composite { ty: None, elems } = &e.kind {
            // `{...}` for a `*T` slot means `&T{...}`.
            if let TypeRef::Pointer(inner) = self.env().underlying(target) {
                let v = self.composite(&inner, elems, sc, e.line)?;
                return Ok(Value::Ptr(*inner, Some(cell(v))));
            }
            return self.composite(target, elems, sc, e.line);
        }
        let v = self.eval(e, sc)?;
        self.assign_conv(v, target, e.line)
    }

    /// Evaluates an expression, keeping multiple call results as a tuple.
    pub fn eval_multi(&mut self, e: &Expr, sc: &Rc<Scope>) -> R<Value> {
        self.enter(e.line)?;
        let r = self.eval_inner(e, sc);
        self.leave();
        r
    }

    fn eval_inner(&mut self, e: &Expr, sc: &Rc<Scope>) -> R<Value> {
        let line = e.line;
        match &e.kind {
            ExprKind::Ident(n) => self.ident(n, sc, line),
            ExprKind::Int(i) => Ok(Value::UntypedInt(*i)),
            ExprKind::Float(f) => Ok(Value::UntypedFloat(*f)),
            ExprKind::Rune(r) => Ok(Value::UntypedRune(*r)),
            ExprKind::Str(s) => Ok(Value::UntypedString(s.clone())),
            ExprKind::Paren(x) => self.eval_multi(x, sc),
            ExprKind::Type(t) => Ok(Value::Type(self.resolve_type(t, sc, line)?)),
            ExprKind::Composite { ty, elems } => match ty {
                Some(t) => {
                    let t = self.resolve_type(t, sc, line)?;
                    self.composite(&t, elems, sc, line)
                }
                None => fail(line, "composite literal without a type"),
            },
            ExprKind::FuncLit { sig, body } => Ok(Value::Func(Rc::new(Closure {
                name: "func literal".into(),
                sig: (**sig).clone(),
                body: body.clone(),
                env: sc.clone(),
            }))),
            ExprKind::Selector(x, name) => self.selector(x, name, sc, line),
            ExprKind::Index(x, idx) => {
                let base = self.eval(x, sc)?.unwrap_iface();
                if idx.len() != 1 {
                    return fail(line, "generic instantiation is not supported");
                }
                match base {
                    Value::Slice(..) | Value::Array(..) => {
                        let i = self.eval(&idx[0], sc)?.as_int().unwrap_or(-1);
                        let elems = base.elements().unwrap_or_default();
                        match usize::try_from(i).ok().and_then(|i| elems.get(i)) {
                            Some(v) => Ok(v.clone()),
                            None => fail(
                                line,
                                format!("index out of range [{i}] with length {}", elems.len()),
                            ),
                        }
                    }
                    Value::Map(ty, m) => {
                        let (kt, vt) = self.map_types(&ty, line)?;
                        let k = self.eval_typed(&idx[0], sc, &kt)?;
                        if let Some(m) = m {
                            for (ek, ev) in m.borrow().iter() {
                                if self.equal(ek, &k, line)? {
                                    return Ok(ev.clone());
                                }
                            }
                        }
                        Ok(self.zero(&vt))
                    }
                    Value::Str(_, s) | Value::UntypedString(s) => {
                        let i = self.eval(&idx[0], sc)?.as_int().unwrap_or(-1);
                        match usize::try_from(i).ok().and_then(|i| s.as_bytes().get(i)) {
                            Some(b) => Ok(Value::Int(TypeRef::Builtin(Builtin::Uint8), *b as i128)),
                            None => fail(line, "index out of range"),
                        }
                    }
                    other => fail(line, format!("cannot index {}", other.kind_name())),
                }
            }
            ExprKind::Slice(x, lo, hi) => {
                let base = self.eval(x, sc)?.unwrap_iface();
                let lo = match lo {
                    Some(l) => self.eval(l, sc)?.as_int().unwrap_or(-1),
                    None => 0,
                };
                match base {
                    Value::Str(t, s) => {
                        let hi = match hi {
                            Some(h) => self.eval(h, sc)?.as_int().unwrap_or(-1),
                            None => s.len() as i128,
                        };
                        match s.get(lo.max(0) as usize..hi.max(0) as usize) {
                            Some(sub) if lo >= 0 && hi >= lo => Ok(Value::Str(t, sub.to_string())),
                            _ => fail(line, "slice bounds out of range"),
                        }
                    }
                    Value::Slice(t, s) => {
                        let elems = s.map(|s| s.borrow().clone()).unwrap_or_default();
                        let hi = match hi {
                            Some(h) => self.eval(h, sc)?.as_int().unwrap_or(-1),
                            None => elems.len() as i128,
                        };
                        if lo < 0 || hi < lo || hi as usize > elems.len() {
                            return fail(line, "slice bounds out of range");
                        }
                        // A copy: aliasing of sub-slices is not modelled.
                        let sub = elems[lo as usize..hi as usize].to_vec();
                        Ok(Value::Slice(t, Some(Rc::new(std::cell::RefCell::new(sub)))))
                    }
                    other => fail(line, format!("cannot slice {}", other.kind_name())),
                }
            }
            ExprKind::TypeAssert(x, ty) => {
                let v = self.eval(x, sc)?;
                let Some(ty) = ty else {
                    return fail(line, "type switches are not supported");
                };
                let t = self.resolve_type(ty, sc, line)?;
                let inner = v.unwrap_iface();
                if self.env().is_interface(&t) {
                    return self.assign_conv(inner, &t, line);
                }
                match self.dyn_type(&inner) {
                    Some(d) if d == t => Ok(inner),
                    _ => fail(line, "type assertion failed"),
                }
            }
            ExprKind::Call { fun, args, spread } => self.call_expr(fun, args, *spread, sc, line),
            ExprKind::Unary(op, x) => self.unary(*op, x, sc, line),
            ExprKind::Binary(op, l, r) => {
                let lv = self.eval(l, sc)?;
                // Short-circuit evaluation.
                match op {
                    BinOp::LAnd if lv.as_bool() == Some(false) => return Ok(lv),
                    BinOp::LOr if lv.as_bool() == Some(true) => return Ok(lv),
                    _ => {}
                }
                let rv = self.eval(r, sc)?;
                self.binary(*op, lv, rv, line)
            }
        }
    }

    fn ident(&mut self, n: &str, sc: &Rc<Scope>, line: u32) -> R<Value> {
        if let Some(c) = sc.lookup(n) {
            return Ok(c.borrow().clone());
        }
        if self.harness.hook(n) {
            return Ok(Value::Native(Native::Hook(n.to_string())));
        }
        if let Some(f) = self.ctx.funcs.get(n) {
            return Ok(Value::Func(Rc::new(Closure {
                name: f.name.clone(),
                sig: f.sig.clone(),
                body: f.body.clone(),
                env: self.ctx.globals.clone(),
            })));
        }
        match n {
            "true" => return Ok(Value::UntypedBool(true)),
            "false" => return Ok(Value::UntypedBool(false)),
            "nil" => return Ok(Value::Nil),
            "localSchemeBuilder" => return Ok(Value::Scheme),
            _ => {}
        }
        if let Some(v) = self.package_member(&self.ctx.path.clone(), n, line)? {
            return Ok(v);
        }
        if let Some(b) = Builtin::from_name(n) {
            return Ok(Value::Type(match b {
                Builtin::Any => TypeRef::Interface,
                b => TypeRef::Builtin(b),
            }));
        }
        if let Some(b) = crate::library::builtin_func(n) {
            return Ok(Value::Native(Native::Builtin(b)));
        }
        if let Some(path) = self.ctx.imports.get(n) {
            return Ok(Value::Package(path.clone()));
        }
        fail(line, format!("undefined: {n}"))
    }

    /// A constant, type or generated function of a fixture (or well-known) package.
    fn package_member(&self, path: &str, name: &str, line: u32) -> R<Option<Value>> {
        let Some(pkg) = self.env().universe.packages.get(path) else {
            return Ok(None);
        };
        if let Some(c) = pkg.consts.iter().find(|c| c.name == name) {
            let untyped = match &c.value {
                ConstValue::String(s) => Value::UntypedString(s.clone()),
                ConstValue::Int(i) => Value::UntypedInt(*i),
                ConstValue::Float(f) => Value::UntypedFloat(*f),
                ConstValue::Bool(b) => Value::UntypedBool(*b),
                ConstValue::Expr(text) => {
                    return fail(line, format!("cannot evaluate constant {name} = {text}"));
                }
            };
            return Ok(Some(match &c.ty {
                Some(t) => self.convert(untyped, t, line)?,
                None => untyped,
            }));
        }
        if pkg.type_decl(name).is_some() {
            return Ok(Some(Value::Type(named(path, name))));
        }
        if let Some(t) = name.strip_prefix("Validate_") {
            return Ok(Some(Value::Native(Native::ValidateFn(
                path.to_string(),
                t.to_string(),
            ))));
        }
        Ok(None)
    }

    fn selector(&mut self, x: &Expr, name: &str, sc: &Rc<Scope>, line: u32) -> R<Value> {
        let base = self.eval(x, sc)?;
        if let Value::Package(path) = &base {
            if let Some(v) = crate::library::package_member(path, name) {
                return Ok(v);
            }
            if let Some(v) = self.package_member(path, name, line)? {
                return Ok(v);
            }
            return fail(line, format!("unsupported: {path}.{name}"));
        }
        self.field_of(base, name, line)
    }

    /// `v.name` for a struct field (through pointers and embedded fields).
    fn field_of(&self, v: Value, name: &str, line: u32) -> R<Value> {
        match v.unwrap_iface() {
            Value::Ptr(_, Some(c)) => {
                let inner = c.borrow().clone();
                self.field_of(inner, name, line)
            }
            Value::Ptr(_, None) => fail(line, format!("nil pointer dereference reading .{name}")),
            Value::Struct(ty, fields) => {
                let Some(path) = self.field_path(&ty, name) else {
                    return fail(
                        line,
                        format!("no field {name} in {}", self.env().type_string(&ty)),
                    );
                };
                let mut cur = Value::Struct(ty, fields);
                for idx in path {
                    cur = match cur {
                        Value::Ptr(_, Some(c)) => c.borrow().clone(),
                        other => other,
                    };
                    cur = match cur {
                        Value::Struct(_, mut f) if idx < f.len() => f.swap_remove(idx),
                        _ => return fail(line, format!("cannot read field {name}")),
                    };
                }
                Ok(cur)
            }
            other => fail(
                line,
                format!("{} has no field or method {name}", other.kind_name()),
            ),
        }
    }

    fn unary(&mut self, op: UnOp, x: &Expr, sc: &Rc<Scope>, line: u32) -> R<Value> {
        match op {
            UnOp::Addr => {
                if let ExprKind::Composite { .. } = &x.kind {
                    let v = self.eval(x, sc)?;
                    let ty = self.dyn_type(&v).unwrap_or(TypeRef::Interface);
                    return Ok(Value::Ptr(ty, Some(cell(v))));
                }
                if let ExprKind::Paren(inner) = &x.kind {
                    return self.unary(op, inner, sc, line);
                }
                match self.place(x, sc)? {
                    Place::Cell(c) => {
                        let v = c.borrow().clone();
                        let ty = self.static_type_of(&v).unwrap_or(TypeRef::Interface);
                        Ok(Value::Ptr(ty, Some(c)))
                    }
                    p => {
                        // Pointers into the middle of a value are snapshots: aliasing of
                        // `&x.f` is not modelled (no test file relies on it).
                        let v = self.load(&p, line)?;
                        let ty = self.static_type_of(&v).unwrap_or(TypeRef::Interface);
                        Ok(Value::Ptr(ty, Some(cell(v))))
                    }
                }
            }
            UnOp::Deref => match self.eval(x, sc)?.unwrap_iface() {
                Value::Type(t) => Ok(Value::Type(TypeRef::Pointer(Box::new(t)))),
                Value::Ptr(_, Some(c)) => Ok(c.borrow().clone()),
                Value::Ptr(_, None) => fail(line, "nil pointer dereference"),
                other => fail(line, format!("cannot dereference {}", other.kind_name())),
            },
            UnOp::Neg | UnOp::Plus | UnOp::BitNot => {
                let v = self.eval(x, sc)?;
                let neg = op == UnOp::Neg;
                Ok(match v {
                    Value::UntypedInt(i) if op == UnOp::BitNot => Value::UntypedInt(!i),
                    Value::UntypedInt(i) => {
                        Value::UntypedInt(if neg { i.saturating_neg() } else { i })
                    }
                    Value::UntypedRune(i) => {
                        Value::UntypedRune(if neg { i.saturating_neg() } else { i })
                    }
                    Value::UntypedFloat(f) => Value::UntypedFloat(if neg { -f } else { f }),
                    Value::Int(t, i) => {
                        let r = match op {
                            UnOp::Neg => i.saturating_neg(),
                            UnOp::BitNot => !i,
                            _ => i,
                        };
                        self.convert(Value::UntypedInt(r), &t, line)?
                    }
                    Value::Float(t, f) => Value::Float(t, if neg { -f } else { f }),
                    other => {
                        return fail(
                            line,
                            format!("bad operand {} for unary operator", other.kind_name()),
                        );
                    }
                })
            }
            UnOp::Not => match self.eval(x, sc)? {
                Value::UntypedBool(b) => Ok(Value::UntypedBool(!b)),
                Value::Bool(t, b) => Ok(Value::Bool(t, !b)),
                other => fail(line, format!("bad operand {} for !", other.kind_name())),
            },
            UnOp::Recv => fail(line, "channel receive is not supported"),
        }
    }

    /// Go `==` on comparable values.
    pub fn equal(&self, a: &Value, b: &Value, line: u32) -> R<bool> {
        // `x == nil` looks at the interface itself: an interface holding a typed nil
        // pointer is not nil.
        if matches!(a, Value::Nil) {
            return Ok(b.is_nil());
        }
        if matches!(b, Value::Nil) {
            return Ok(a.is_nil());
        }
        let (a, b) = (a.as_dynamic(), b.as_dynamic());
        if let (Some(x), Some(y)) = (a.as_str(), b.as_str()) {
            return Ok(x == y);
        }
        if let (Some(x), Some(y)) = (a.as_bool(), b.as_bool()) {
            return Ok(x == y);
        }
        let num = |v: &Value| -> Option<f64> {
            match v {
                Value::Float(_, f) | Value::UntypedFloat(f) => Some(*f),
                _ => None,
            }
        };
        if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
            return Ok(x == y);
        }
        if let (Some(x), Some(y)) = (
            num(a).or(a.as_int().map(|i| i as f64)),
            num(b).or(b.as_int().map(|i| i as f64)),
        ) {
            return Ok(x == y);
        }
        Ok(match (a, b) {
            (Value::Ptr(_, x), Value::Ptr(_, y)) => match (x, y) {
                (Some(x), Some(y)) => Rc::ptr_eq(x, y),
                (None, None) => true,
                _ => false,
            },
            (Value::Struct(_, x), Value::Struct(_, y))
            | (Value::Array(_, x), Value::Array(_, y)) => {
                if x.len() != y.len() {
                    return Ok(false);
                }
                for (p, q) in x.iter().zip(y) {
                    if !self.equal(p, q, line)? {
                        return Ok(false);
                    }
                }
                true
            }
            (Value::FieldErr(x), Value::FieldErr(y)) => match (x, y) {
                (Some(x), Some(y)) => Rc::ptr_eq(x, y),
                (None, None) => true,
                _ => false,
            },
            (Value::GoError(x), Value::GoError(y)) => match (x, y) {
                (Some(x), Some(y)) => Rc::ptr_eq(x, y),
                (None, None) => true,
                _ => false,
            },
            (Value::Slice(..), _) | (Value::Map(..), _) | (Value::Func(_), _) => {
                return fail(line, "slices, maps and funcs can only be compared to nil");
            }
            _ => false,
        })
    }

    /// Binary operators.
    pub fn binary(&self, op: BinOp, l: Value, r: Value, line: u32) -> R<Value> {
        use BinOp::*;
        match op {
            Eq | Ne => {
                let eq = self.equal(&l, &r, line)?;
                return Ok(Value::UntypedBool(if op == Eq { eq } else { !eq }));
            }
            LAnd | LOr => {
                let (Some(a), Some(b)) = (l.as_bool(), r.as_bool()) else {
                    return fail(line, "non-boolean operand of && or ||");
                };
                return Ok(Value::UntypedBool(if op == LAnd { a && b } else { a || b }));
            }
            _ => {}
        }
        // The result type: a typed operand's type wins.
        let typed = match (&l, &r) {
            (Value::Int(t, _) | Value::Float(t, _) | Value::Str(t, _), _) => Some(t.clone()),
            (_, Value::Int(t, _) | Value::Float(t, _) | Value::Str(t, _)) => Some(t.clone()),
            _ => None,
        };
        if let (Some(a), Some(b)) = (l.as_str(), r.as_str()) {
            return match op {
                Add => {
                    let s = format!("{a}{b}");
                    Ok(match typed {
                        Some(t) => Value::Str(t, s),
                        None => Value::UntypedString(s),
                    })
                }
                Lt => Ok(Value::UntypedBool(a < b)),
                Le => Ok(Value::UntypedBool(a <= b)),
                Gt => Ok(Value::UntypedBool(a > b)),
                Ge => Ok(Value::UntypedBool(a >= b)),
                _ => fail(line, "invalid string operation"),
            };
        }
        let is_float = |v: &Value| matches!(v, Value::Float(..) | Value::UntypedFloat(_));
        if is_float(&l) || is_float(&r) {
            let f = |v: &Value| match v {
                Value::Float(_, f) | Value::UntypedFloat(f) => Some(*f),
                v => v.as_int().map(|i| i as f64),
            };
            let (Some(a), Some(b)) = (f(&l), f(&r)) else {
                return fail(line, "invalid float operation");
            };
            let res = match op {
                Add => a + b,
                Sub => a - b,
                Mul => a * b,
                Div => a / b,
                Lt => return Ok(Value::UntypedBool(a < b)),
                Le => return Ok(Value::UntypedBool(a <= b)),
                Gt => return Ok(Value::UntypedBool(a > b)),
                Ge => return Ok(Value::UntypedBool(a >= b)),
                _ => return fail(line, "invalid float operation"),
            };
            return Ok(match typed {
                Some(t) => Value::Float(t, res),
                None => Value::UntypedFloat(res),
            });
        }
        let (Some(a), Some(b)) = (l.as_int(), r.as_int()) else {
            return fail(
                line,
                format!(
                    "invalid operation on {} and {}",
                    l.kind_name(),
                    r.kind_name()
                ),
            );
        };
        let res = match op {
            Add => a.checked_add(b),
            Sub => a.checked_sub(b),
            Mul => a.checked_mul(b),
            Div => {
                if b == 0 {
                    return fail(line, "integer divide by zero");
                }
                a.checked_div(b)
            }
            Rem => {
                if b == 0 {
                    return fail(line, "integer divide by zero");
                }
                a.checked_rem(b)
            }
            And => Some(a & b),
            Or => Some(a | b),
            Xor => Some(a ^ b),
            AndNot => Some(a & !b),
            Shl => u32::try_from(b).ok().filter(|s| *s < 127).map(|s| a << s),
            Shr => u32::try_from(b).ok().filter(|s| *s < 127).map(|s| a >> s),
            Lt => return Ok(Value::UntypedBool(a < b)),
            Le => return Ok(Value::UntypedBool(a <= b)),
            Gt => return Ok(Value::UntypedBool(a > b)),
            Ge => return Ok(Value::UntypedBool(a >= b)),
            _ => None,
        };
        let Some(res) = res else {
            return fail(line, "integer overflow or bad shift");
        };
        let untyped_rune = matches!(l, Value::UntypedRune(_)) || matches!(r, Value::UntypedRune(_));
        match typed {
            Some(t) => self.convert(Value::UntypedInt(res), &t, line),
            None if untyped_rune => Ok(Value::UntypedRune(res)),
            None => Ok(Value::UntypedInt(res)),
        }
    }

    // ---- composite literals -------------------------------------------------------------

    /// Builds a composite literal of type `ty`.
    pub fn composite(
        &mut self,
        ty: &TypeRef,
        elems: &[Element],
        sc: &Rc<Scope>,
        line: u32,
    ) -> R<Value> {
        if is_named(ty, FIELD_PKG, "ErrorMatcher") {
            if !elems.is_empty() {
                return fail(
                    line,
                    "field.ErrorMatcher literal with fields is not supported",
                );
            }
            return Ok(Value::Matcher(Matcher::default()));
        }
        if is_named(ty, FIELD_PKG, "Error") {
            return self.field_error_literal(elems, sc, line);
        }
        if crate::library::is_operation_type(ty) {
            if !elems.is_empty() {
                return fail(
                    line,
                    "operation.Operation literal with fields is not supported",
                );
            }
            return Ok(Value::Operation);
        }
        match self.env().underlying(ty) {
            TypeRef::Struct(st) => {
                let mut values: Vec<Value> = st.fields.iter().map(|f| self.zero(&f.ty)).collect();
                let keyed = elems.first().is_some_and(|e| e.key.is_some());
                if !keyed && !elems.is_empty() && elems.len() != st.fields.len() {
                    return fail(line, "too few values in struct literal");
                }
                for (i, el) in elems.iter().enumerate() {
                    let idx = match &el.key {
                        Some(k) => {
                            let ExprKind::Ident(name) = &k.kind else {
                                return fail(line, "invalid field name in struct literal");
                            };
                            match st.fields.iter().position(|f| &f.name == name) {
                                Some(i) => i,
                                None => {
                                    return fail(
                                        line,
                                        format!(
                                            "unknown field {name} in struct literal of type {}",
                                            self.env().type_string(ty)
                                        ),
                                    );
                                }
                            }
                        }
                        None => i,
                    };
                    let fty = st.fields[idx].ty.clone();
                    values[idx] = self.eval_typed(&el.value, sc, &fty)?;
                }
                Ok(Value::Struct(ty.clone(), values))
            }
            TypeRef::Slice(elem) | TypeRef::Array { elem, .. } => {
                let is_array = matches!(self.env().underlying(ty), TypeRef::Array { .. });
                let mut out: Vec<Value> = Vec::new();
                let mut next = 0usize;
                for el in elems {
                    if let Some(k) = &el.key {
                        let i = self.eval(k, sc)?.as_int().unwrap_or(-1);
                        if !(0..1_000_000).contains(&i) {
                            return fail(line, "bad index in slice literal");
                        }
                        next = i as usize;
                    }
                    let v = self.eval_typed(&el.value, sc, &elem)?;
                    while out.len() <= next {
                        out.push(self.zero(&elem));
                    }
                    out[next] = v;
                    next += 1;
                }
                if is_array {
                    if let TypeRef::Array { len, .. } = self.env().underlying(ty) {
                        let n: usize = len.parse().unwrap_or(0);
                        while out.len() < n {
                            out.push(self.zero(&elem));
                        }
                    }
                    Ok(Value::Array(ty.clone(), out))
                } else {
                    Ok(Value::Slice(
                        ty.clone(),
                        Some(Rc::new(std::cell::RefCell::new(out))),
                    ))
                }
            }
            TypeRef::Map { key, value } => {
                let mut entries: Vec<(Value, Value)> = Vec::new();
                for el in elems {
                    let Some(k) = &el.key else {
                        return fail(line, "missing key in map literal");
                    };
                    let k = self.eval_typed(k, sc, &key)?;
                    let v = self.eval_typed(&el.value, sc, &value)?;
                    let mut replaced = false;
                    for (ek, ev) in entries.iter_mut() {
                        if self.equal(ek, &k, line)? {
                            *ev = v.clone();
                            replaced = true;
                            break;
                        }
                    }
                    if !replaced {
                        entries.push((k, v));
                    }
                }
                Ok(Value::Map(
                    ty.clone(),
                    Some(Rc::new(std::cell::RefCell::new(entries))),
                ))
            }
            TypeRef::Pointer(inner) if is_named(&inner, FIELD_PKG, "Error") => {
                // `*field.Error` values are emulated as such (`field.ErrorList{{...}}`).
                self.field_error_literal(elems, sc, line)
            }
            TypeRef::Pointer(inner) => {
                // Only reachable for elided `{...}` in a `[]*T` literal via eval_typed.
                let v = self.composite(&inner, elems, sc, line)?;
                Ok(Value::Ptr(*inner, Some(cell(v))))
            }
            _ => fail(
                line,
                format!(
                    "invalid composite literal type {}",
                    self.env().type_string(ty)
                ),
            ),
        }
    }

    /// A `field.Error{Type: ..., Field: "a.b", BadValue: ..., Detail: ...}` literal. `Field`
    /// is a string in Go: it is kept as a one-segment path, which renders the same.
    fn field_error_literal(&mut self, elems: &[Element], sc: &Rc<Scope>, line: u32) -> R<Value> {
        let mut err = FieldError::new(
            kdv_runtime::ErrorType::Invalid,
            kdv_runtime::FieldPath::root(),
            kdv_runtime::BadValue::Omitted,
            "",
        );
        for el in elems {
            let Some(ExprKind::Ident(name)) = el.key.as_ref().map(|k| &k.kind) else {
                return fail(line, "field.Error literal without field names");
            };
            let v = self.eval(&el.value, sc)?;
            match name.as_str() {
                "Type" => {
                    let Some(t) = v.as_str().and_then(kdv_runtime::ErrorType::from_name) else {
                        return fail(line, "field.Error literal with an unknown Type");
                    };
                    err.error_type = t;
                }
                "Field" => {
                    let Some(f) = v.as_str() else {
                        return fail(line, "field.Error literal with a non-string Field");
                    };
                    err.field = if f.is_empty() {
                        kdv_runtime::FieldPath::root()
                    } else {
                        kdv_runtime::FieldPath::new(f)
                    };
                }
                "Detail" => err.detail = v.as_str().unwrap_or_default().to_string(),
                "BadValue" => err.bad_value = crate::tojson::to_bad_value(self.env(), &v),
                other => return fail(line, format!("field.Error literal field {other}")),
            }
        }
        Ok(Value::FieldErr(Some(Rc::new(std::cell::RefCell::new(err)))))
    }

    // ---- calls --------------------------------------------------------------------------

    fn call_expr(
        &mut self,
        fun: &Expr,
        args: &[Expr],
        spread: bool,
        sc: &Rc<Scope>,
        line: u32,
    ) -> R<Value> {
        // `ptr.To[T](v)`: the one generic instantiation test files write; the argument
        // takes the type argument's type.
        if let ExprKind::Index(inner, targs) = &fun.kind
            && targs.len() == 1
            && let ExprKind::Selector(p, name) = &inner.kind
            && name == "To"
            && matches!(self.eval(p, sc)?, Value::Package(ref path) if path == "k8s.io/utils/ptr")
            && let Value::Type(t) = self.eval(&targs[0], sc)?
        {
            if args.len() != 1 || spread {
                return fail(line, "ptr.To takes one argument");
            }
            let v = self.eval_typed(&args[0], sc, &t)?;
            return Ok(Value::Ptr(t, Some(crate::value::cell(v))));
        }
        // Method call: evaluate the receiver, then dispatch by its kind.
        if let ExprKind::Selector(recv, name) = &fun.kind {
            let rv = self.eval(recv, sc)?;
            if !matches!(rv, Value::Package(_)) {
                let is_field_func = matches!(rv.as_dynamic(), Value::Struct(..) | Value::Ptr(..))
                    && self.field_of(rv.clone(), name, line).is_ok();
                if !is_field_func {
                    return crate::library::call_method(self, rv, name, args, sc, line);
                }
            }
        }
        let f = self.eval(fun, sc)?;
        self.call_value(f, args, spread, sc, line)
    }

    /// Calls a function value with argument expressions.
    pub fn call_value(
        &mut self,
        f: Value,
        args: &[Expr],
        spread: bool,
        sc: &Rc<Scope>,
        line: u32,
    ) -> R<Value> {
        match f {
            Value::Type(t) => {
                if args.len() != 1 {
                    return fail(line, "conversion needs exactly one argument");
                }
                let v = self.eval_typed_for_conversion(&args[0], sc, &t)?;
                self.convert(v, &t, line)
            }
            Value::Func(c) => {
                let mut values = Vec::new();
                let n_params = c.sig.params.len();
                for (i, a) in args.iter().enumerate() {
                    let pty = if c.sig.variadic && i + 1 >= n_params && !spread {
                        c.sig.params.last().map(|p| p.1.clone())
                    } else {
                        c.sig.params.get(i).map(|p| p.1.clone())
                    };
                    let v = match pty {
                        Some(pt) if !(spread && i + 1 == args.len()) => {
                            let t = self.resolve_type(&pt, &c.env, line)?;
                            self.eval_typed(a, sc, &t)?
                        }
                        _ => self.eval(a, sc)?,
                    };
                    values.push(v);
                }
                self.call_closure(&c, values, spread, line)
            }
            Value::Native(n) => crate::library::call_native(self, &n, args, spread, sc, line),
            other => fail(line, format!("cannot call {}", other.kind_name())),
        }
    }

    fn eval_typed_for_conversion(&mut self, e: &Expr, sc: &Rc<Scope>, t: &TypeRef) -> R<Value> {
        if let ExprKind::Composite { ty: None, .. } = &e.kind {
            return self.eval_typed(e, sc, t);
        }
        self.eval(e, sc)
    }

    /// Calls a closure with already evaluated arguments.
    pub fn call_closure(
        &mut self,
        c: &Closure,
        args: Vec<Value>,
        spread: bool,
        line: u32,
    ) -> R<Value> {
        self.enter(line)?;
        let r = self.call_closure_inner(c, args, spread, line);
        self.leave();
        r
    }

    fn call_closure_inner(
        &mut self,
        c: &Closure,
        mut args: Vec<Value>,
        spread: bool,
        line: u32,
    ) -> R<Value> {
        let sc = Scope::child(&c.env);
        let n = c.sig.params.len();
        if c.sig.variadic {
            if n == 0 {
                return fail(line, "variadic function without parameters");
            }
            if !spread {
                if args.len() + 1 < n {
                    return fail(line, format!("not enough arguments in call to {}", c.name));
                }
                let rest: Vec<Value> = args.split_off(n - 1);
                let elem = self.resolve_type(&c.sig.params[n - 1].1, &c.env, line)?;
                let mut packed = Vec::new();
                for v in rest {
                    packed.push(self.assign_conv(v, &elem, line)?);
                }
                let slice_ty = TypeRef::Slice(Box::new(elem));
                let v = if packed.is_empty() {
                    Value::Slice(slice_ty, None)
                } else {
                    Value::Slice(slice_ty, Some(Rc::new(std::cell::RefCell::new(packed))))
                };
                args.push(v);
            }
        }
        if args.len() != n {
            return fail(
                line,
                format!("wrong number of arguments in call to {}", c.name),
            );
        }
        for (i, ((name, ty), v)) in c.sig.params.iter().zip(args).enumerate() {
            let is_variadic_slot = c.sig.variadic && i + 1 == n;
            let v = if is_variadic_slot {
                v
            } else {
                let t = self.resolve_type(ty, &c.env, line)?;
                self.assign_conv(v, &t, line)?
            };
            if let Some(name) = name {
                sc.declare(name, v);
            }
        }
        // Named results start at their zero values.
        for (name, ty) in &c.sig.results {
            if let Some(name) = name {
                let t = self.resolve_type(ty, &c.env, line)?;
                let z = self.zero(&t);
                sc.declare(name, z);
            }
        }
        let flow = self.exec_block(&c.body, &sc)?;
        let mut results = match flow {
            Flow::Return(v) if v.is_empty() => c
                .sig
                .results
                .iter()
                .filter_map(|(n, _)| {
                    n.as_ref()
                        .and_then(|n| sc.lookup(n))
                        .map(|c| c.borrow().clone())
                })
                .collect(),
            Flow::Return(v) => v,
            _ => Vec::new(),
        };
        if results.len() != c.sig.results.len() {
            return fail(
                line,
                format!(
                    "{} returned {} values, want {}",
                    c.name,
                    results.len(),
                    c.sig.results.len()
                ),
            );
        }
        for (i, (_, ty)) in c.sig.results.iter().enumerate() {
            let t = self.resolve_type(ty, &c.env, line)?;
            let v = std::mem::replace(&mut results[i], Value::Nil);
            results[i] = self.assign_conv(v, &t, line)?;
        }
        Ok(match results.len() {
            0 => Value::Tuple(Vec::new()),
            1 => results.remove(0),
            _ => Value::Tuple(results),
        })
    }
}
