//! Presence (`+k8s:required`, `+k8s:optional`, `+k8s:forbidden`): upstream's
//! `validate/required.go`. Whether a value "is set" depends on its kind ([`Presence`]).

use crate::error::FieldError;
use crate::path::PathRef;
use crate::sink::ErrorSink;
use crate::view::View;

/// How "set" is decided for a value's kind (spec §2.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Presence {
    /// A value type: set when it differs from its zero value.
    Value,
    /// A pointer: set when not nil.
    Pointer,
    /// A slice: set when not empty.
    Slice,
    /// A map: set when not empty.
    Map,
}

/// Whether `v` is set under `presence`.
#[inline]
pub fn is_set<'a>(presence: Presence, v: impl View<'a>) -> bool {
    match presence {
        Presence::Pointer => !v.is_nil(),
        Presence::Slice | Presence::Map => v.len() > 0,
        Presence::Value => !v.is_zero(),
    }
}

/// `+k8s:required`: an unset value → `Required("")`, no origin.
#[inline]
pub fn required<'a>(
    path: &PathRef<'_>,
    presence: Presence,
    v: impl View<'a>,
    out: &mut impl ErrorSink,
) {
    if !is_set(presence, v) {
        out.fail(|| FieldError::required(path, ""));
    }
}

/// `+k8s:optional`: an unset value → `Required("optional value was not specified")`. Used
/// as a non-error short-circuit: callers only look at whether it failed.
#[inline]
pub fn optional<'a>(
    path: &PathRef<'_>,
    presence: Presence,
    v: impl View<'a>,
    out: &mut impl ErrorSink,
) {
    if !is_set(presence, v) {
        out.fail(|| FieldError::required(path, "optional value was not specified"));
    }
}

/// `+k8s:forbidden` (also a mode's implicit forbidden): a set value → `Forbidden("")`, no
/// origin.
#[inline]
pub fn forbidden<'a>(
    path: &PathRef<'_>,
    presence: Presence,
    v: impl View<'a>,
    out: &mut impl ErrorSink,
) {
    if is_set(presence, v) {
        out.fail(|| FieldError::forbidden(path, ""));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorList;

    #[test]
    fn presence_by_kind() {
        let root = PathRef::Nil;
        let f = root.child("f");
        let empty: &[i64] = &[];
        let mut out = ErrorList::new();
        required(&f, Presence::Value, 1i64, &mut out);
        required(&f, Presence::Pointer, Some(0i64), &mut out);
        required(&f, Presence::Slice, &[1i64][..], &mut out);
        forbidden(&f, Presence::Pointer, None::<i64>, &mut out);
        forbidden(&f, Presence::Slice, Some(empty), &mut out);
        optional(&f, Presence::Value, "x", &mut out);
        assert!(out.is_empty());
        required(&root, Presence::Value, 0i64, &mut out);
        required(&f, Presence::Map, None::<&[i64]>, &mut out);
        forbidden(&f, Presence::Value, true, &mut out);
        optional(&f, Presence::Pointer, None::<&str>, &mut out);
        let texts: Vec<String> = out.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                "<nil>: Required value",
                "f: Required value",
                "f: Forbidden",
                "f: Required value: optional value was not specified",
            ]
        );
        assert!(out.iter().all(|e| e.origin.is_empty()));
    }
}
