//! Immutability (`+k8s:immutable`, upstream's `validate/immutable.go`) and monotonic growth
//! (`+k8s:monotonic`, `validate/monotonic.go`).

use crate::error::{BadValue, FieldError};
use crate::operation::Operation;
use crate::path::PathRef;
use crate::sink::ErrorSink;
use crate::view::{Int, View};

/// The origins of these errors.
pub mod origin {
    /// `+k8s:immutable`.
    pub const IMMUTABLE: &str = "immutable";
    /// `+k8s:monotonic`.
    pub const MONOTONIC: &str = "monotonic";
}

/// `+k8s:immutable`: on Update, unconditionally `Invalid(null, "field is immutable")`, origin
/// `immutable` (ratcheting decides whether it is reached: an unchanged value never is);
/// nothing on Create.
#[inline]
pub fn immutable(path: &PathRef<'_>, op: &Operation, out: &mut impl ErrorSink) {
    if op.is_update() {
        out.fail(|| {
            FieldError::invalid(path, BadValue::Null, "field is immutable")
                .with_origin(origin::IMMUTABLE)
        });
    }
}

/// `+k8s:monotonic` on an integer: on Update with both values present, `new < old` →
/// `Invalid(new, "may not be decreased from <old>")`, origin `monotonic`.
#[inline]
pub fn monotonic<'a, V: View<'a>>(
    path: &PathRef<'_>,
    op: &Operation,
    new: V,
    old: V,
    out: &mut impl ErrorSink,
) {
    if !op.is_update() || new.is_nil() || old.is_nil() {
        return;
    }
    let decreased = match (new.as_int(), old.as_int()) {
        (Some(Int::Signed(x)), Some(Int::Signed(o))) => x < o,
        (Some(Int::Unsigned(x)), Some(Int::Unsigned(o))) => x < o,
        _ => false,
    };
    if decreased && let (Some(x), Some(o)) = (new.as_int(), old.as_int()) {
        out.fail(|| {
            FieldError::invalid(
                path,
                x.bad_value(),
                format!("may not be decreased from {}", o.get()),
            )
            .with_origin(origin::MONOTONIC)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorList;

    #[test]
    fn update_only() {
        let root = PathRef::Nil;
        let spec = root.child("spec");
        let x = spec.child("x");
        let (create, update) = (Operation::create(), Operation::update());
        let mut out = ErrorList::new();
        immutable(&x, &create, &mut out);
        monotonic(&x, &update, 5i64, 5i64, &mut out);
        monotonic(&x, &create, 1i64, 5i64, &mut out);
        monotonic(&x, &update, 6u64, 5u64, &mut out);
        monotonic(&x, &update, Some(1i64), None, &mut out);
        assert!(out.is_empty());
        immutable(&x, &update, &mut out);
        monotonic(&x, &update, 3i64, 5i64, &mut out);
        monotonic(&x, &update, 3u64, 5u64, &mut out);
        let texts: Vec<String> = out.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                "spec.x: Invalid value: null: field is immutable",
                "spec.x: Invalid value: 3: may not be decreased from 5",
                "spec.x: Invalid value: 3: may not be decreased from 5",
            ]
        );
        assert_eq!(out[0].origin, "immutable");
        assert_eq!(out[1].origin, "monotonic");
    }
}
