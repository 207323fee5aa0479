//! cel-go's sets extension (`ext.Sets`, `cel.lib.ext.sets`): `sets.contains`,
//! `sets.equivalent`, `sets.intersects` over lists with CEL equality — declarations,
//! implementations with runtime costs, and the extension's static overload estimators.

use std::ops::Add as _;
use std::sync::Arc;

use crate::library::estimate::{CallEstimate, CallSite, CostEstimate};
use crate::library::{
    CallCtx, Declarations, Functions, Library, Overload, ParamType as P, cached, g, list, nso,
    param,
};
use crate::types::Type;
use crate::value::{EvalError, List, Value};

/// The library's name.
const NAME: &str = "cel.lib.ext.sets";

/// The library.
pub fn library() -> Library {
    Library::new(NAME, 0, |_| declarations(), |_| functions())
}

// ---- declarations ------------------------------------------------------------------------

/// cel-go's sets extension (`ext.Sets`).
pub fn declarations() -> Arc<Declarations> {
    cached("sets", 0, |_| {
        let list_t = list(param("T"));
        let mut lib = Declarations::new(NAME);
        for (name, id) in [
            ("sets.contains", "list_sets_contains_list"),
            ("sets.equivalent", "list_sets_equivalent_list"),
            ("sets.intersects", "list_sets_intersects_list"),
        ] {
            lib.function(
                name,
                vec![g(id, vec![list_t.clone(), list_t.clone()], Type::Bool)],
            );
        }
        lib
    })
}

// ---- implementations and runtime costs ----------------------------------------------

type R<'a> = Result<Value<'a>, EvalError>;

fn lists<'v, 'a>(a: &'v [Value<'a>]) -> Result<(&'v List<'a>, &'v List<'a>), EvalError> {
    match (&a[0], &a[1]) {
        (Value::List(x), Value::List(y)) => Ok((x, y)),
        _ => Err(nso()),
    }
}

fn contains_all(x: &List<'_>, y: &List<'_>) -> bool {
    y.iter().all(|e| x.iter().any(|f| f.cel_eq(&e)))
}

fn contains<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let (x, y) = lists(a)?;
    Ok(Value::Bool(contains_all(x, y)))
}

fn equivalent<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let (x, y) = lists(a)?;
    Ok(Value::Bool(contains_all(x, y) && contains_all(y, x)))
}

fn intersects<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let (x, y) = lists(a)?;
    Ok(Value::Bool(
        y.iter().any(|e| x.iter().any(|f| f.cel_eq(&e))),
    ))
}

fn product(args: &[Value<'_>], factor: u64) -> u64 {
    match args {
        [a, b] => {
            1 + a
                .cost_size()
                .saturating_mul(b.cost_size())
                .saturating_mul(factor)
        }
        _ => 1,
    }
}

fn cost_one(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    product(args, 1)
}

fn cost_two(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    product(args, 2)
}

/// The sets extension.
pub fn functions() -> Functions {
    let mut c = Overload::new(
        "list_sets_contains_list",
        "sets.contains",
        false,
        &[P::LIST, P::LIST],
        contains,
    );
    c.cost = Some(cost_one);
    let mut e = Overload::new(
        "list_sets_equivalent_list",
        "sets.equivalent",
        false,
        &[P::LIST, P::LIST],
        equivalent,
    );
    e.cost = Some(cost_two);
    let mut i = Overload::new(
        "list_sets_intersects_list",
        "sets.intersects",
        false,
        &[P::LIST, P::LIST],
        intersects,
    );
    i.cost = Some(cost_one);
    Functions {
        name: NAME,
        overloads: vec![c, e, i],
        regex_functions: Vec::new(),
    }
}

// ---- static cost estimates ---------------------------------------------------------------

/// The extension's overload estimators (cel-go `OverloadCostEstimate`), which take precedence
/// over every other estimate of these overloads; `None` for other overloads (or calls of an
/// unexpected shape, as upstream's decline them).
pub(crate) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    match c.overload() {
        "list_sets_contains_list" | "list_sets_intersects_list" => sets(c, 1.0),
        "list_sets_equivalent_list" => sets(c, 2.0),
        _ => None,
    }
}

/// `sets.*`: `size(a) · size(b) · factor + 1`.
fn sets<'a>(c: &impl CallSite<'a>, factor: f64) -> Option<CallEstimate> {
    if c.argc() != 2 {
        return None;
    }
    let a = c.node_size(&c.arg(0));
    let b = c.node_size(&c.arg(1));
    Some(CallEstimate::cost(
        a.multiply(b)
            .multiply_by_cost_factor(factor)
            .add(CostEstimate::fixed(1)),
    ))
}
