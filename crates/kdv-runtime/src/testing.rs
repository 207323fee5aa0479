//! Test tags (`+k8s:validateFalse`, `validateTrue`, ...): upstream's `validate/testing.go`.

use crate::error::FieldError;
use crate::path::PathRef;
use crate::sink::ErrorSink;
use crate::view::View;

/// The origins of these errors.
pub mod origin {
    /// `+k8s:validateFalse`.
    pub const VALIDATE_FALSE: &str = "validateFalse";
}

/// `FixedResult`: when `ok` is false, `Invalid(value, "forced failure: <msg>")`, origin
/// `validateFalse`. The bad value is the nilable value JSON-encoded, as Go prints the pointer
/// upstream passes (`null` when nil).
#[inline]
pub fn fixed_result<'a>(
    path: &PathRef<'_>,
    v: impl View<'a>,
    ok: bool,
    msg: &str,
    out: &mut impl ErrorSink,
) {
    if !ok {
        out.fail(|| {
            FieldError::invalid(
                path,
                v.nilable_bad_value(),
                format!("forced failure: {msg}"),
            )
            .with_origin(origin::VALIDATE_FALSE)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorList;

    #[test]
    fn fixed() {
        let root = PathRef::Nil;
        let f = root.child("f");
        let mut out = ErrorList::new();
        fixed_result(&f, 1i64, true, "never", &mut out);
        fixed_result(&f, "v", false, "msg", &mut out);
        fixed_result(&f, None::<&str>, false, "", &mut out);
        let texts: Vec<String> = out.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                "f: Invalid value: \"v\": forced failure: msg",
                "f: Invalid value: null: forced failure: ",
            ]
        );
        assert!(out.iter().all(|e| e.origin == "validateFalse"));
    }
}
