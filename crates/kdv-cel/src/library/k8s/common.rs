//! What the Kubernetes libraries share: the overload builder with a cost, Kubernetes'
//! conversion cost (⌈size · 0.1⌉), cel-go's cost multiplication, the opaque-argument accessor
//! and Go's quoting of texts in error messages.

use crate::library::{CostFn, NativeFn, Overload, ParamType, nso};
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
