//! The evaluator: a [`Program`] is an expression tree planned once (names resolved,
//! comprehension variables turned into slots, functions looked up, constant patterns
//! compiled, optionally constants folded) and evaluated many times against an
//! [`Activation`], with cel-go's runtime cost tracking and an optional interrupt flag.
//!
//! ```
//! use kdv_cel::checker::Env;
//! use kdv_cel::interp::{EvalConfig, Program, ProgramOptions, Vars};
//! use kdv_cel::types::Type;
//! use kdv_cel::value::Value;
//!
//! let mut env = Env::kubernetes();
//! env.add_variable("self", Type::Dyn);
//! let program = Program::compile(
//!     &env,
//!     "self.items.filter(e, e.name == 'x').size() == 1",
//!     &ProgramOptions::kubernetes(),
//! )
//! .unwrap();
//! let doc = serde_json::json!({"items": [{"name": "x"}, {"name": "y"}]});
//! // `self` borrows the document: no copy of it is made.
//! let vars = Vars::new().with("self", Value::from_json(&doc));
//! let config = EvalConfig { cost_limit: Some(1_000_000), ..EvalConfig::default() };
//! let (value, cost) = program.eval(&vars, &config).unwrap();
//! assert!(matches!(value, Value::Bool(true)));
//! assert!(cost > 0);
//! ```

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::ast::{Expr, ExprId};
use crate::checker::{CheckedExpr, Env};
use crate::library::Registry;
use crate::library::regex::RegexCache;
use crate::parser::{Issues, ParseOptions};
use crate::types::Type;
use crate::value::{EvalError, Value};

mod eval;
mod plan;

pub use plan::PlanError;

/// Where evaluation finds variables (`self`, `oldSelf`, test bindings).
pub trait Activation<'a> {
    /// The value of variable `name`, if bound.
    fn resolve(&self, name: &str) -> Option<Value<'a>>;
}

impl<'a> Activation<'a> for () {
    fn resolve(&self, _: &str) -> Option<Value<'a>> {
        None
    }
}

impl<'a, S: std::borrow::Borrow<str> + std::hash::Hash + Eq> Activation<'a>
    for std::collections::HashMap<S, Value<'a>>
{
    fn resolve(&self, name: &str) -> Option<Value<'a>> {
        self.get(name).cloned()
    }
}

/// A small list of bindings, searched in order; the usual activation for `self`/`oldSelf`.
#[derive(Clone, Debug, Default)]
pub struct Vars<'a> {
    vars: Vec<(Arc<str>, Value<'a>)>,
}

impl<'a> Vars<'a> {
    /// No bindings.
    pub fn new() -> Vars<'a> {
        Vars { vars: Vec::new() }
    }

    /// Adds a binding (a later binding of the same name is shadowed by the earlier one).
    pub fn with(mut self, name: impl Into<Arc<str>>, value: Value<'a>) -> Vars<'a> {
        self.vars.push((name.into(), value));
        self
    }

    /// Adds a binding in place.
    pub fn insert(&mut self, name: impl Into<Arc<str>>, value: Value<'a>) {
        self.vars.push((name.into(), value));
    }
}

impl<'a> Activation<'a> for Vars<'a> {
    #[inline]
    fn resolve(&self, name: &str) -> Option<Value<'a>> {
        self.vars
            .iter()
            .find(|(n, _)| crate::value::name_eq(n.as_bytes(), name.as_bytes()))
            .map(|(_, v)| v.clone())
    }
}

/// What the type checker found out about an expression, as the planner uses it.
pub trait CheckedInfo {
    /// The overload ids a call node may resolve to.
    fn overload_ids(&self, id: ExprId) -> Option<&[String]>;
    /// For an identifier or a select chain that names a declared variable (after container
    /// and qualified-name resolution): the variable's full name.
    fn variable(&self, id: ExprId) -> Option<&str>;
    /// For an identifier or select chain that names a type: its name.
    fn type_name(&self, _id: ExprId) -> Option<&str> {
        None
    }
}

impl CheckedInfo for CheckedExpr {
    fn overload_ids(&self, id: ExprId) -> Option<&[String]> {
        CheckedExpr::overload_ids(self, id)
    }

    fn variable(&self, id: ExprId) -> Option<&str> {
        if matches!(self.type_of(id), Some(Type::Type(_))) {
            return None;
        }
        let r = self.reference(id)?;
        if r.value.is_some() {
            return None;
        }
        r.name.as_deref().map(|n| n.trim_start_matches('.'))
    }

    fn type_name(&self, id: ExprId) -> Option<&str> {
        if !matches!(self.type_of(id), Some(Type::Type(_))) {
            return None;
        }
        self.reference(id)?
            .name
            .as_deref()
            .map(|n| n.trim_start_matches('.'))
    }
}

/// How programs are planned.
#[derive(Clone, Debug)]
pub struct ProgramOptions {
    /// The functions available.
    pub registry: Arc<Registry>,
    /// Declared variable names, when known: names resolve at plan time. `None` = resolve
    /// at run time (qualified names try the longest bound name first).
    pub variables: Option<HashSet<String>>,
    /// Name-resolution container (`a.b` makes `x` try `a.b.x`, `a.x`, `x`).
    pub container: String,
    /// cel-go `OptOptimize`: fold constant conversions and constant list/map literals, turn
    /// `x in <constant list>` into a set test. Changes runtime costs as in Kubernetes.
    pub optimize: bool,
    /// `has()` on a value that supports no fields is an error (cel-go
    /// `EnableErrorOnBadPresenceTest`) rather than `false`.
    pub error_on_bad_presence_test: bool,
    /// Presence tests cost 1 (cel-go default); Kubernetes sets `false`.
    pub presence_test_has_cost: bool,
}

impl Default for ProgramOptions {
    fn default() -> Self {
        ProgramOptions {
            registry: Arc::new(Registry::full()),
            variables: None,
            container: String::new(),
            optimize: false,
            error_on_bad_presence_test: true,
            presence_test_has_cost: true,
        }
    }
}

impl ProgramOptions {
    /// The settings Kubernetes uses for CRD rules: Kubernetes' cel-go libraries, `self` and
    /// `oldSelf`, optimisation on, presence tests free.
    pub fn kubernetes() -> ProgramOptions {
        ProgramOptions {
            registry: Arc::new(Registry::kubernetes()),
            variables: Some(["self", "oldSelf"].iter().map(|s| s.to_string()).collect()),
            container: String::new(),
            optimize: true,
            error_on_bad_presence_test: false,
            presence_test_has_cost: false,
        }
    }
}

/// Per-evaluation settings.
#[derive(Clone, Copy, Debug, Default)]
pub struct EvalConfig<'c> {
    /// Abort with `operation cancelled: actual cost limit exceeded` once the runtime cost
    /// exceeds this.
    pub cost_limit: Option<u64>,
    /// Checked every [`INTERRUPT_CHECK_FREQUENCY`] comprehension iterations; when set,
    /// evaluation aborts with `operation interrupted`.
    pub interrupt: Option<&'c AtomicBool>,
}

/// Forgets the compiled constant patterns that programs share process-wide. Planning compiles
/// each distinct constant pattern (`matches`, `find`, ...) once per process and reuses it in
/// every later program; this releases them (memory control, or measuring cold compiles).
pub fn clear_shared_patterns() {
    plan::clear_shared_patterns();
}

/// Comprehension iterations between interrupt checks (Kubernetes `celconfig.CheckFrequency`).
pub const INTERRUPT_CHECK_FREQUENCY: u32 = 100;

/// A planned expression, ready to evaluate. Cheap to share across threads.
#[derive(Debug)]
pub struct Program {
    root: plan::Node,
    slots: usize,
    regexes: RegexCache,
    presence_test_has_cost: bool,
    error_on_bad_presence_test: bool,
    plan_errors: Vec<PlanError>,
    result_type: Option<Type>,
    /// Whether evaluation keeps the last variable it resolved (see `Planned::cache_vars`).
    cache_vars: bool,
}

impl Program {
    /// Plans `expr` (an unchecked tree: functions dispatch on runtime types).
    pub fn new(expr: &Expr, options: &ProgramOptions) -> Program {
        Program::with_checked(expr, None, options)
    }

    /// Plans `expr` using the checker's results (resolved names and overloads).
    pub fn with_checked(
        expr: &Expr,
        checked: Option<&dyn CheckedInfo>,
        options: &ProgramOptions,
    ) -> Program {
        let regexes = RegexCache::new();
        let out = plan::plan(expr, checked, options, &regexes);
        Program {
            root: out.root,
            slots: out.slots,
            regexes,
            presence_test_has_cost: options.presence_test_has_cost,
            error_on_bad_presence_test: options.error_on_bad_presence_test,
            plan_errors: out.errors,
            result_type: None,
            cache_vars: out.cache_vars,
        }
    }

    /// Parses (the environment's parser settings), type-checks against `env` and plans
    /// `source`.
    pub fn compile(env: &Env, source: &str, options: &ProgramOptions) -> Result<Program, Issues> {
        Program::compile_with(env, source, &env.options.parse, options)
    }

    /// [`Program::compile`] with explicit parser options.
    pub fn compile_with(
        env: &Env,
        source: &str,
        parse_options: &ParseOptions,
        options: &ProgramOptions,
    ) -> Result<Program, Issues> {
        let checked = crate::checker::compile_with(source, parse_options, env)?;
        Ok(Program::from_checked(&checked, options))
    }

    /// Plans a type-checked expression.
    pub fn from_checked(checked: &CheckedExpr, options: &ProgramOptions) -> Program {
        let mut p = Program::with_checked(&checked.expr, Some(checked), options);
        p.result_type = Some(checked.result_type.clone());
        p
    }

    /// The checked type of the whole expression (`None` for unchecked programs).
    pub fn result_type(&self) -> Option<&Type> {
        self.result_type.as_ref()
    }

    /// Problems found while planning that cel-go reports when the program is created
    /// (`program instantiation failed`): invalid constant regular expressions, failing
    /// constant conversions (with `optimize`). The program still runs; these surface as
    /// evaluation errors where reached.
    pub fn plan_errors(&self) -> &[PlanError] {
        &self.plan_errors
    }

    /// Evaluates against `activation`; returns the value and the runtime cost.
    pub fn eval<'a>(
        &'a self,
        activation: &dyn Activation<'a>,
        config: &EvalConfig<'_>,
    ) -> Result<(Value<'a>, u64), EvalError> {
        let (value, cost) = eval::run(self, activation, config);
        value.map(|v| (v, cost))
    }

    /// Evaluates against `activation`; returns the result and the runtime cost in both
    /// cases: on an error, the cost charged before it (cel-go's `EvalDetails.ActualCost`
    /// after a failed `Eval`; Kubernetes charges it to the request's budget). When the
    /// per-call limit stopped evaluation, the cost is the first total above the limit.
    pub fn eval_with_cost<'a>(
        &'a self,
        activation: &dyn Activation<'a>,
        config: &EvalConfig<'_>,
    ) -> (Result<Value<'a>, EvalError>, u64) {
        eval::run(self, activation, config)
    }
}

#[cfg(test)]
mod tests;
