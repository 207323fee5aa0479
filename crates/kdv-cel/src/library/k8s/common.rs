//! What the Kubernetes libraries share: the overload builder with a cost, Kubernetes'
//! conversion cost (⌈size · 0.1⌉), cel-go's cost multiplication, the opaque-argument accessor
//! and Go's quoting of texts in error messages.

use crate::library::estimate::{CallEstimate, CallSite, CostEstimate};
use crate::library::{CostFn, NativeFn, Overload, ParamType, nso};
use crate::types::Type;
use crate::value::{EvalError, Value};

/// Kubernetes' runtime cost of conversions and string functions: ⌈size(args[0]) · 0.1⌉.
pub(crate) fn cost_tenth(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    args.first().map_or(1, |a| mul_ceil(a.cost_size(), 0.1))
}

/// A runtime overload with fixed parameter kinds.
pub(crate) fn overload(
    id: &'static str,
    function: &'static str,
    member: bool,
    params: &'static [ParamType],
    imp: NativeFn,
    cost: Option<CostFn>,
) -> Overload {
    Overload {
        id,
        function,
        member,
        params: Some(params),
        imp,
        cost,
        cost_by_id: false,
    }
}

/// The opaque value of type `T` held by `v`, or `no such overload` (argument-type errors of
/// the bindings, reachable only through `dyn`).
pub(crate) fn opaque_arg<'v, T: 'static>(v: &'v Value<'_>) -> Result<&'v T, EvalError> {
    match v {
        Value::Opaque(o) => o.as_any().downcast_ref::<T>().ok_or_else(nso),
        _ => Err(nso()),
    }
}

/// ⌈x · f⌉ as cel-go's cost multiplication does (saturating at `u64::MAX`).
pub(crate) fn mul_ceil(x: u64, f: f64) -> u64 {
    let v = (x as f64 * f).ceil();
    if v >= u64::MAX as f64 {
        u64::MAX
    } else {
        v as u64
    }
}

/// Go `strconv.Quote` for the texts upstream errors quote (`%q`).
pub(crate) use kdv_runtime::gofmt::quote as go_quote;

/// A fixed static cost.
pub(super) fn fixed(cost: u64) -> Option<CallEstimate> {
    Some(CallEstimate::cost(CostEstimate::fixed(cost)))
}

/// For `_==_` on two operands of the same checked type: that type and the operands (the
/// Kubernetes estimator prices equality of its own types).
pub(super) fn equal_operands<'a, C: CallSite<'a>>(c: &C) -> Option<(&'a Type, C::Node, C::Node)> {
    if c.function() != "_==_" || c.argc() != 2 {
        return None;
    }
    let (lhs, rhs) = (c.arg(0), c.arg(1));
    let t = c.node_type(&lhs);
    (t == c.node_type(&rhs)).then_some((t, lhs, rhs))
}
