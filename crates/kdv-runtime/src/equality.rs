//! Equality: `+k8s:neq` (upstream's `validate/equality.go`) and the ratcheting test every
//! update-aware check shares.
//!
//! Ratcheting (KEP-5073): on Update, a value equal to its old value is not validated again.
//! "Equal" is [`View::equal`]: Go's `==` for directly comparable types and
//! `equality.Semantic.DeepEqual` otherwise (nil and empty collections are equal, an absent
//! field is its zero value). Where the old value comes from (a struct's field, the correlated
//! item of a list, the same map key) is each check's business.

use crate::error::{BadValue, FieldError};
use crate::gofmt;
use crate::operation::Operation;
use crate::path::PathRef;
use crate::sink::ErrorSink;
use crate::view::{Int, Literal, View};

/// The origins of these errors.
pub mod origin {
    /// `+k8s:neq`.
    pub const NEQ: &str = "neq";
}

/// Whether `new` is unchanged from `old` on this operation: an Update and equal values.
#[inline]
pub fn unchanged<'a, V: View<'a>>(op: &Operation, new: V, old: V) -> bool {
    op.is_update() && (new.identical(old) || new.equal(old))
}

/// `+k8s:neq`: a value equal to `disallowed` → `Invalid(value, "must not be equal to <v>")`
/// (strings Go-quoted), origin `neq`. A nil value, or a literal of another kind than the
/// value, is not checked.
pub fn neq<'a>(
    path: &PathRef<'_>,
    v: impl View<'a>,
    disallowed: &Literal,
    out: &mut impl ErrorSink,
) {
    match disallowed {
        Literal::String(d) => {
            if let Some(s) = v.as_str()
                && s == d
            {
                out.fail(|| {
                    let value = if v.is_named() {
                        BadValue::named_string(s)
                    } else {
                        BadValue::string(s)
                    };
                    FieldError::invalid(
                        path,
                        value,
                        format!("must not be equal to {}", gofmt::quote(d)),
                    )
                    .with_origin(origin::NEQ)
                });
            }
        }
        Literal::Bool(d) => {
            if v.as_bool() == Some(*d) {
                out.fail(|| {
                    FieldError::invalid(
                        path,
                        BadValue::Bool(*d),
                        format!("must not be equal to {d}"),
                    )
                    .with_origin(origin::NEQ)
                });
            }
        }
        Literal::Int(d) => {
            let equal = match v.as_int() {
                Some(Int::Signed(x)) => i64::try_from(*d) == Ok(x),
                Some(Int::Unsigned(x)) => u64::try_from(*d) == Ok(x),
                None => false,
            };
            if equal && let Some(x) = v.as_int() {
                out.fail(|| {
                    FieldError::invalid(path, x.bad_value(), format!("must not be equal to {d}"))
                        .with_origin(origin::NEQ)
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorList;

    /// A named string (`type X string`).
    #[derive(Clone, Copy)]
    struct Named<'a>(&'a str);

    impl<'a> View<'a> for Named<'a> {
        fn is_nil(self) -> bool {
            false
        }
        fn len(self) -> usize {
            0
        }
        fn is_zero(self) -> bool {
            self.0.is_empty()
        }
        fn as_str(self) -> Option<&'a str> {
            Some(self.0)
        }
        fn is_named(self) -> bool {
            true
        }
        fn bad_value(self) -> BadValue {
            BadValue::named_string(self.0)
        }
        fn nilable_bad_value(self) -> BadValue {
            BadValue::named_string(self.0)
        }
        fn equal(self, other: Self) -> bool {
            self.0 == other.0
        }
    }

    #[test]
    fn neq_by_kind() {
        let root = PathRef::Nil;
        let f = root.child("f");
        let s = |x: &str| Literal::String(x.into());
        let mut out = ErrorList::new();
        neq(&f, "bar", &s("foo"), &mut out);
        neq(&f, 4i64, &Literal::Int(5), &mut out);
        neq(&f, 4u64, &Literal::Int(5), &mut out);
        neq(&f, false, &Literal::Bool(true), &mut out);
        neq(&f, None::<&str>, &s(""), &mut out);
        neq(&f, 5i64, &s("5"), &mut out);
        neq(&f, 5u64, &Literal::Int(-1), &mut out);
        assert!(out.is_empty());
        neq(&f, "foo", &s("foo"), &mut out);
        neq(&f, "a\"b", &s("a\"b"), &mut out);
        neq(&f, 5i64, &Literal::Int(5), &mut out);
        neq(&f, 7u64, &Literal::Int(7), &mut out);
        neq(&f, true, &Literal::Bool(true), &mut out);
        neq(&f, Named("x"), &s("y"), &mut out);
        neq(&f, Named("<"), &s("<"), &mut out);
        let texts: Vec<String> = out.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                "f: Invalid value: \"foo\": must not be equal to \"foo\"",
                "f: Invalid value: \"a\\\"b\": must not be equal to \"a\\\"b\"",
                "f: Invalid value: 5: must not be equal to 5",
                "f: Invalid value: 7: must not be equal to 7",
                "f: Invalid value: true: must not be equal to true",
                "f: Invalid value: \"\\u003c\": must not be equal to \"<\"",
            ]
        );
        assert!(out.iter().all(|e| e.origin == "neq"));
    }

    #[test]
    fn unchanged_only_on_update() {
        assert!(unchanged(&Operation::update(), 1i64, 1i64));
        assert!(!unchanged(&Operation::update(), 1i64, 2i64));
        assert!(!unchanged(&Operation::create(), 1i64, 1i64));
    }
}
