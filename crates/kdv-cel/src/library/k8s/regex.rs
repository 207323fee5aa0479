//! `kubernetes.regex`: `find` and `findAll` with Go `regexp` semantics.
//!
//! In order: the declarations, the implementations with their runtime costs,
//! and the part of Kubernetes' static cost estimator that prices these functions.

use std::ops::Add as _;

use crate::library::estimate::{
    CallEstimate, CallSite, REGEX_STRING_LENGTH_COST_FACTOR, STRING_TRAVERSAL_COST_FACTOR,
    SizeEstimate,
};
use std::sync::Arc;

use super::common::mul_ceil;
use crate::library::nso;
use crate::library::{CallCtx, Functions, Library, Overload, ParamType as P};
use crate::library::{Declarations, OverloadDecl, cached};
use crate::types::Type;
use crate::value::{EvalError, Value};

/// The library's name.
const NAME: &str = "kubernetes.regex";

/// The library.
pub fn library() -> Library {
    Library::new(NAME, 0, |_| declarations(), |_| functions())
}

type R<'a> = Result<Value<'a>, EvalError>;

// ---- declarations ------------------------------------------------------------------------

/// The checker declarations.
pub fn declarations() -> Arc<Declarations> {
    cached(NAME, 0, declare)
}

fn declare(_: u32) -> Declarations {
    use Type::{Int, String as S};
    let list_s = Type::List(Box::new(S));
    let mut lib = Declarations::new(NAME);
    lib.function(
        "find",
        vec![OverloadDecl::member("string_find_string", vec![S, S], S)],
    );
    lib.function(
        "findAll",
        vec![
            OverloadDecl::member("string_find_all_string", vec![S, S], list_s.clone()),
            OverloadDecl::member("string_find_all_string_int", vec![S, S, Int], list_s),
        ],
    );
    lib
}

// ---- implementations and runtime costs ----------------------------------------------

/// Runs `f` with the compiled pattern of the call (`Illegal regex: …` when a dynamic
/// pattern does not compile; constant patterns were compiled when planning).
fn with_pattern<'a>(
    ctx: &CallCtx<'_>,
    p: &str,
    f: impl FnOnce(&::regex::Regex) -> Value<'a>,
) -> R<'a> {
    if let Some(re) = ctx.precompiled {
        return Ok(f(re));
    }
    let re = ctx
        .regex(p)
        .map_err(|e| EvalError::new(format!("Illegal regex: {}", e.message)))?;
    Ok(f(&re))
}

fn find<'a>(ctx: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let (Value::String(s), Value::String(p)) = (&a[0], &a[1]) else {
        return Err(nso());
    };
    with_pattern(ctx, p, |re| {
        Value::string(re.find(s).map_or("", |m| m.as_str()))
    })
}

fn find_all<'a>(ctx: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let (Value::String(s), Value::String(p)) = (&a[0], &a[1]) else {
        return Err(nso());
    };
    let limit = match a.get(2) {
        None => -1,
        Some(Value::Int(n)) => *n,
        Some(_) => return Err(nso()),
    };
    let take = if limit < 0 {
        usize::MAX
    } else {
        usize::try_from(limit).unwrap_or(usize::MAX)
    };
    // Go drops an empty match that abuts the previous match; so does `find_iter`.
    with_pattern(ctx, p, |re| {
        Value::list(
            re.find_iter(s)
                .take(take)
                .map(|m| Value::string(m.as_str()))
                .collect(),
        )
    })
}

/// Runtime cost ⌈(1 + size(str)) · 0.1⌉ · ⌈size(regex) · 0.25⌉ (spec §3.2).
fn cost_find(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    let (Some(s), Some(re)) = (args.first(), args.get(1)) else {
        return 1;
    };
    mul_ceil(s.cost_size().saturating_add(1), 0.1).saturating_mul(mul_ceil(re.cost_size(), 0.25))
}

fn member(
    id: &'static str,
    function: &'static str,
    params: &'static [P],
    imp: crate::library::NativeFn,
) -> Overload {
    super::common::overload(id, function, true, params, imp, Some(cost_find))
}

/// The runtime overloads.
pub fn functions() -> Functions {
    Functions {
        name: NAME,
        overloads: vec![
            member("string_find_string", "find", &[P::STRING, P::STRING], find),
            member(
                "string_find_all_string",
                "findAll",
                &[P::STRING, P::STRING],
                find_all,
            ),
            member(
                "string_find_all_string_int",
                "findAll",
                &[P::STRING, P::STRING, P::INT],
                find_all,
            ),
        ],
        regex_functions: vec!["find", "findAll"],
    }
}

// ---- static cost estimates ---------------------------------------------------------------

/// The part of Kubernetes' `CostEstimator.EstimateCallCost` that prices this library's
/// functions. Upstream dispatches on the function's name alone, so a call of any library with
/// one of these names is priced here; `None` leaves the call to the next estimator.
pub(crate) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    match c.function() {
        "find" | "findAll" if c.argc() >= 1 => {
            let sz = c.node_size(&c.target()?);
            let str_cost = sz
                .add(SizeEstimate::fixed(1))
                .multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR);
            let re_cost = c
                .node_size(&c.arg(0))
                .multiply_by_cost_factor(REGEX_STRING_LENGTH_COST_FACTOR);
            Some(CallEstimate {
                cost: str_cost.multiply(re_cost),
                result: Some(SizeEstimate {
                    min: 0,
                    max: sz.max,
                }),
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::testing::{err, eval_cost, is_true, ok};

    #[test]
    fn find() {
        is_true("'abc 123'.find('[0-9]+') == '123'");
        is_true("'abc'.find('[0-9]+') == ''");
        is_true("'aaa'.find('a|aa') == 'a'");
    }

    #[test]
    fn find_all() {
        is_true("'123 abc 456'.findAll('[0-9]+') == ['123', '456']");
        is_true("'123 abc 456'.findAll('[0-9]+', 1) == ['123']");
        is_true("'123 abc 456'.findAll('[0-9]+', 0) == []");
        is_true("'123 abc 456'.findAll('[0-9]+', -1) == ['123', '456']");
        assert_eq!(
            ok("'123 abc 456'.findAll('[0-9]*')"),
            ok("['123', '', '', '', '', '456']")
        );
        is_true("'abc'.findAll('x') == []");
    }

    #[test]
    fn invalid_patterns() {
        // Constant patterns fail when the program is planned.
        let e = err("'abc'.find('[')");
        assert!(
            e.starts_with("plan: ") && e.contains("error parsing regexp: "),
            "{e}"
        );
        let e = err("['['].all(p, 'abc'.find(p) == '')");
        assert!(e.starts_with("Illegal regex: error parsing regexp:"), "{e}");
    }

    #[test]
    fn runtime_cost() {
        // ⌈(1 + 11)·0.1⌉ · ⌈6·0.25⌉ = 2 · 2
        let (_, c) = eval_cost("'123 abc 456'.find('[0-9]+')").unwrap();
        assert_eq!(c, 4);
    }
}
