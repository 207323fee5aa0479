//! Test support for the Kubernetes libraries' unit tests (compiling and running expressions
//! in the Kubernetes environment), and tests that span the libraries.

/// Compiling and running expressions in the Kubernetes environment with these libraries.
pub(crate) mod testing {

    use std::sync::Arc;

    use crate::checker::Env;
    use crate::interp::{EvalConfig, Program, ProgramOptions};

    fn env() -> Env {
        crate::k8s::env()
    }

    fn options() -> ProgramOptions {
        let mut o = ProgramOptions::kubernetes();
        o.registry = Arc::new(crate::k8s::registry());
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
            let _ = super::super::quantity::parse(&s);
            let _ = super::super::urls::parse_request_uri(&s);
            let _ = super::super::urls::parse(&s).map(|u| (u.render(), u.query(), u.escaped_path()));
            let _ = super::super::ip::parse_ip(&s).map(|a| a.render());
            let _ = super::super::cidr::parse_cidr(&s).map(|c| c.render());
            let _ = super::super::semver::parse(&s);
            let _ = super::super::semver::normalize_and_parse(&s);
            for f in super::super::format::FORMATS {
                let _ = f.errors(&s);
            }
        }

        #[test]
        fn quantity_arithmetic_never_panics(a in text(), b in text()) {
            if let (Ok(x), Ok(y)) = (super::super::quantity::parse(&a), super::super::quantity::parse(&b)) {
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
