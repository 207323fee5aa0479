//! `kdv.utf8` (kdv extension): the UTF-8 and character-class checks KEP-4153 lists as
//! `IsValid`, `IsPrint`, `IsControl` (Go's `unicode/utf8.Valid`, `unicode.IsPrint`,
//! `unicode.IsControl`), in Kubernetes CEL's style:
//!
//! - `isValidUTF8(<bytes>) -> bool`: the bytes are valid UTF-8 (a CEL `string` always is;
//!   `bytes` — a `format: byte` field — may not be);
//! - `<string>.isPrint() -> bool`: every character is printable as Go's `unicode.IsPrint`
//!   says (letters, marks, numbers, punctuation, symbols and the ASCII space; Unicode 15.0);
//!   true for the empty string;
//! - `<string>.containsControl() -> bool`: some character is a control character as Go's
//!   `unicode.IsControl` says (U+0000–U+001F, U+007F–U+009F).
//!
//! Runtime and estimated costs are Kubernetes' string-traversal price, ⌈size · 0.1⌉.

use std::sync::Arc;

use super::super::k8s::common::{cost_tenth, overload as ov};
use crate::library::ParamType as P;
use crate::library::estimate::{CallEstimate, CallSite, STRING_TRAVERSAL_COST_FACTOR};
use crate::library::{CallCtx, Declarations, Functions, Library, OverloadDecl, cached, nso};
use crate::types::Type;
use crate::value::{EvalError, Value};

/// The library's name.
const NAME: &str = "kdv.utf8";

/// The library.
pub fn library() -> Library {
    Library::new(NAME, 0, |_| declarations(), |_| functions())
}

type R<'a> = Result<Value<'a>, EvalError>;

/// The checker declarations.
pub fn declarations() -> Arc<Declarations> {
    cached(NAME, 0, declare)
}

fn declare(_: u32) -> Declarations {
    use Type::{Bool, Bytes, String as S};
    let mut lib = Declarations::new(NAME);
    lib.function(
        "isValidUTF8",
        vec![OverloadDecl::global(
            "is_valid_utf8_bytes",
            vec![Bytes],
            Bool,
        )],
    );
    lib.function(
        "isPrint",
        vec![OverloadDecl::member("string_is_print", vec![S], Bool)],
    );
    lib.function(
        "containsControl",
        vec![OverloadDecl::member(
            "string_contains_control",
            vec![S],
            Bool,
        )],
    );
    lib
}

/// Go's `unicode.IsControl`: the C0 and C1 control codes.
pub fn is_control(c: char) -> bool {
    matches!(c as u32, 0x00..=0x1f | 0x7f..=0x9f)
}

fn is_valid_utf8<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let Value::Bytes(b) = &a[0] else {
        return Err(nso());
    };
    Ok(Value::Bool(std::str::from_utf8(b.as_slice()).is_ok()))
}

fn is_print<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let Value::String(s) = &a[0] else {
        return Err(nso());
    };
    Ok(Value::Bool(
        s.chars().all(kdv_runtime::gofmt::is_go_printable),
    ))
}

fn contains_control<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let Value::String(s) = &a[0] else {
        return Err(nso());
    };
    Ok(Value::Bool(s.chars().any(is_control)))
}

/// The runtime overloads.
pub fn functions() -> Functions {
    Functions {
        name: NAME,
        overloads: vec![
            ov(
                "is_valid_utf8_bytes",
                "isValidUTF8",
                false,
                &[P::BYTES],
                is_valid_utf8,
                Some(cost_tenth),
            ),
            ov(
                "string_is_print",
                "isPrint",
                true,
                &[P::STRING],
                is_print,
                Some(cost_tenth),
            ),
            ov(
                "string_contains_control",
                "containsControl",
                true,
                &[P::STRING],
                contains_control,
                Some(cost_tenth),
            ),
        ],
        regex_functions: vec![],
    }
}

/// Static costs: ⌈size · 0.1⌉ of the string or bytes traversed.
pub(crate) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    let node = match c.function() {
        "isValidUTF8" if c.argc() == 1 && c.target().is_none() => c.arg(0),
        "isPrint" | "containsControl" if c.argc() == 0 => c.target()?,
        _ => return None,
    };
    let sz = c.node_size(&node);
    Some(CallEstimate::cost(
        sz.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{compile_err_crd, eval_cost, is_true};

    #[test]
    fn valid_utf8() {
        is_true("isValidUTF8(b'abc')");
        is_true("isValidUTF8(b'')");
        is_true("isValidUTF8(b'\\xc3\\xa9')");
        is_true("!isValidUTF8(b'\\xff')");
        is_true("!isValidUTF8(b'\\xc3')");
    }

    #[test]
    fn printable() {
        is_true("'abc déf 123 !'.isPrint()");
        is_true("''.isPrint()");
        is_true("!'a\\tb'.isPrint()");
        is_true("!'a\\nb'.isPrint()");
        // Only the ASCII space is a printable space (Go's unicode.IsPrint).
        is_true("!'a\\u00a0b'.isPrint()");
        is_true("'日本語'.isPrint()");
    }

    #[test]
    fn control() {
        is_true("'a\\x01b'.containsControl()");
        is_true("'\\u0085'.containsControl()");
        is_true("!'abc'.containsControl()");
        is_true("!''.containsControl()");
        // Not a control character, yet not printable either.
        is_true("!'\\u200b'.containsControl() && !'\\u200b'.isPrint()");
    }

    #[test]
    fn runtime_costs() {
        // ⌈20 · 0.1⌉ for the call, plus the negation and literal.
        let (_, c) = eval_cost("'abcdefghijklmnopqrst'.isPrint()").unwrap();
        assert_eq!(c, 2);
    }

    #[test]
    fn not_in_the_crd_environment() {
        for src in [
            "isValidUTF8(b'a')",
            "'a'.isPrint()",
            "'a'.containsControl()",
        ] {
            let e = compile_err_crd(src);
            assert!(e.contains("undeclared reference to '"), "{src}: {e}");
        }
    }
}
