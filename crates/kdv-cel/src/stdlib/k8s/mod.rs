//! Kubernetes' CEL libraries (`k8s.io/apiserver/pkg/cel/library`): each module builds the
//! runtime overloads (a [`Functions`](crate::library::Functions) for the [`Registry`]) and the checker
//! declarations (a [`Declarations`](crate::library::Declarations)) of one upstream library.

use std::sync::{Arc, OnceLock};

use crate::checker::Env;
use crate::interp::ProgramOptions;
use crate::library::nso;
use crate::library::{CostFn, NativeFn, Overload, ParamType, Registry};
use crate::value::{EvalError, Value};

pub mod format;
pub mod ip;
pub mod lists;
pub mod quantity;
pub mod regex;
pub mod semver;
pub mod url;

/// Adds the runtime overloads of every Kubernetes library implemented here to `r`.
pub fn add_runtime(r: &mut Registry) {
    r.add(lists::library());
    r.add(regex::library());
    r.add(quantity::library());
    r.add(format::library());
    r.add(url::library());
    r.add(ip::ip_library());
    r.add(ip::cidr_library());
    r.add(semver::library());
}

/// Adds the declarations of every Kubernetes library implemented here to `env`.
pub fn add_declarations(env: &mut Env) {
    env.add_library(Arc::new(lists::declarations()));
    env.add_library(Arc::new(regex::declarations()));
    env.add_library(Arc::new(quantity::declarations()));
    env.add_library(Arc::new(format::declarations()));
    env.add_library(Arc::new(url::declarations()));
    env.add_library(Arc::new(ip::ip_declarations()));
    env.add_library(Arc::new(ip::cidr_declarations()));
    env.add_library(Arc::new(semver::declarations()));
}

/// [`Registry::kubernetes`] plus every Kubernetes library implemented here.
pub fn registry() -> Registry {
    let mut r = Registry::kubernetes();
    add_runtime(&mut r);
    r
}

/// [`Env::kubernetes`] plus the declarations of every Kubernetes library implemented here.
pub fn env() -> Env {
    let mut env = Env::kubernetes();
    add_declarations(&mut env);
    env
}

/// [`ProgramOptions::kubernetes`] with [`registry`]: the program settings of CRD rules with
/// every Kubernetes library. The registry is built once per process and shared.
pub fn program_options() -> ProgramOptions {
    static REGISTRY: OnceLock<Arc<Registry>> = OnceLock::new();
    let mut options = ProgramOptions::kubernetes();
    options.registry = Arc::clone(REGISTRY.get_or_init(|| Arc::new(registry())));
    options
}

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

#[cfg(test)]
pub(crate) mod testing {
    //! Compiling and running expressions in the Kubernetes environment with these libraries.

    use std::sync::Arc;

    use crate::checker::Env;
    use crate::interp::{EvalConfig, Program, ProgramOptions};

    fn env() -> Env {
        super::env()
    }

    fn options() -> ProgramOptions {
        let mut o = ProgramOptions::kubernetes();
        o.registry = Arc::new(super::registry());
        o
    }

    /// Compiles and evaluates `src`: the rendered value and the runtime cost, or the error.
    pub fn eval_cost(src: &str) -> Result<(String, u64), String> {
        let p = Program::compile(&env(), src, &options())
            .unwrap_or_else(|e| panic!("compile {src}: {e}"));
        if let Some(e) = p.plan_errors().first() {
            return Err(format!("plan: {e:?}"));
        }
        p.eval(&(), &EvalConfig::default())
            .map(|(v, c)| (v.to_string(), c))
            .map_err(|e| e.message.to_string())
    }

    /// The compile error of `src`.
    pub fn compile_err(src: &str) -> String {
        match Program::compile(&env(), src, &options()) {
            Ok(_) => panic!("{src}: expected a compile error"),
            Err(e) => e.to_string(),
        }
    }

    /// The rendered value of `src`.
    pub fn ok(src: &str) -> String {
        match eval_cost(src) {
            Ok((v, _)) => v,
            Err(e) => panic!("{src}: unexpected error {e}"),
        }
    }

    /// The error of `src`.
    pub fn err(src: &str) -> String {
        match eval_cost(src) {
            Ok((v, _)) => panic!("{src}: expected an error, got {v}"),
            Err(e) => e,
        }
    }

    /// Asserts that `src` evaluates to `true`.
    pub fn is_true(src: &str) {
        assert_eq!(ok(src), "true", "{src}");
    }
}

#[cfg(test)]
mod hostile_input {
    use proptest::prelude::*;

    const ALPHABET: &str = "0123456789.+-eEinumkKMGTPabcfvx:/%[]@?#&=;_ ~\u{e9}\u{17f}";

    fn text() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            proptest::sample::select(ALPHABET.chars().collect::<Vec<_>>()),
            0..40,
        )
        .prop_map(|v| v.into_iter().collect())
    }

    proptest! {
        #[test]
        fn parsers_never_panic(s in text()) {
            let _ = super::quantity::parse(&s);
            let _ = super::url::parse_request_uri(&s);
            let _ = super::url::parse(&s).map(|u| (u.render(), u.query(), u.escaped_path()));
            let _ = super::ip::parse_ip(&s).map(|a| a.render());
            let _ = super::ip::parse_cidr(&s).map(|c| c.render());
            let _ = super::semver::parse(&s);
            let _ = super::semver::normalize_and_parse(&s);
            for f in super::format::FORMATS {
                let _ = f.errors(&s);
            }
        }

        #[test]
        fn quantity_arithmetic_never_panics(a in text(), b in text()) {
            if let (Ok(x), Ok(y)) = (super::quantity::parse(&a), super::quantity::parse(&b)) {
                let _ = x.cmp_value(&y);
                let _ = x.add(&y);
                let _ = x.add(&y.neg());
                let _ = (x.as_f64(), x.as_int64(), x.sign());
            }
        }
    }

    #[test]
    fn huge_quantities() {
        use super::testing::{err, is_true};
        is_true("quantity('1e2147483647').isGreaterThan(quantity('9Ei'))");
        is_true("quantity('-1e2147483647').isLessThan(quantity('1n'))");
        is_true("quantity('1e-2147483648') == quantity('1n')");
        is_true(
            "quantity('99999999999999999999999999999999999999999999').asApproximateFloat() > 1e43",
        );
        assert_eq!(
            err("quantity('1e2147483647').asInteger()"),
            "cannot convert value to integer"
        );
    }
}
