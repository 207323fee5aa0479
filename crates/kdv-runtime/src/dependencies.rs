//! Dependencies between fields (`+k8s:dependentRequired`, `+k8s:dependentForbidden`):
//! upstream's `validate/dependentrequired.go`. Checked on the struct value; on Update with
//! an old struct, skipped when neither the trigger's nor the dependent's set-ness changed.

use crate::error::FieldError;
use crate::operation::Operation;
use crate::path::PathRef;
use crate::sink::ErrorSink;
use crate::view::View;

/// The origins of these errors.
pub mod origin {
    /// `+k8s:dependentRequired`.
    pub const DEPENDENT_REQUIRED: &str = "dependentRequired";
    /// `+k8s:dependentForbidden`.
    pub const DEPENDENT_FORBIDDEN: &str = "dependentForbidden";
}

/// One dependency between two fields of a struct.
#[derive(Debug, Clone, Copy)]
pub struct Dependency<'d> {
    /// The dependent must be unset (`dependentForbidden`) instead of set.
    pub forbidden: bool,
    /// JSON name of the trigger field (used in the message).
    pub trigger: &'d str,
    /// JSON name of the dependent field (the error's path segment).
    pub dependent: &'d str,
}

/// `DependentRequired` / `DependentForbidden` on the struct `new` (at `path`): when the
/// trigger is set, the dependent must be set → `Required("must be set when <trigger> is
/// set")` at `path.dependent`, origin `dependentRequired`; or must not be →
/// `Forbidden("may not be set when <trigger> is set")`, origin `dependentForbidden`.
#[allow(clippy::too_many_arguments)]
pub fn dependency<'a, V: View<'a>>(
    op: &Operation,
    path: &PathRef<'_>,
    new: V,
    old: V,
    d: Dependency<'_>,
    trigger_set: impl Fn(V) -> bool,
    dependent_set: impl Fn(V) -> bool,
    out: &mut impl ErrorSink,
) {
    if new.is_nil() {
        return;
    }
    // Identical values have the same set-ness: ratcheted without asking.
    if op.is_update() && !old.is_nil() && new.identical(old) {
        return;
    }
    let trigger = trigger_set(new);
    let dependent = dependent_set(new);
    if op.is_update()
        && !old.is_nil()
        && trigger == trigger_set(old)
        && dependent == dependent_set(old)
    {
        return;
    }
    if !trigger {
        return;
    }
    match (d.forbidden, dependent) {
        (true, true) => out.fail(|| {
            FieldError::forbidden(
                &path.child(d.dependent),
                format!("may not be set when {} is set", d.trigger),
            )
            .with_origin(origin::DEPENDENT_FORBIDDEN)
        }),
        (false, false) => out.fail(|| {
            FieldError::required(
                &path.child(d.dependent),
                format!("must be set when {} is set", d.trigger),
            )
            .with_origin(origin::DEPENDENT_REQUIRED)
        }),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorList;

    #[test]
    fn dependencies() {
        let root = PathRef::Nil;
        // A struct as bits: 1 = trigger set, 2 = dependent set.
        let t = |v: Option<u8>| v.is_some_and(|p| p & 1 != 0);
        let dep = |v: Option<u8>| v.is_some_and(|p| p & 2 != 0);
        let req = Dependency {
            forbidden: false,
            trigger: "t",
            dependent: "d",
        };
        let forb = Dependency {
            forbidden: true,
            ..req
        };
        let (create, update) = (Operation::create(), Operation::update());
        let mut out = ErrorList::new();
        dependency(&create, &root, Some(3), None, req, t, dep, &mut out);
        dependency(&create, &root, Some(2), None, forb, t, dep, &mut out);
        dependency(&create, &root, None, None, req, t, dep, &mut out);
        dependency(&update, &root, Some(1), Some(1), req, t, dep, &mut out);
        assert!(out.is_empty());
        dependency(&create, &root, Some(1), None, req, t, dep, &mut out);
        dependency(&update, &root, Some(3), Some(2), forb, t, dep, &mut out);
        let texts: Vec<String> = out.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                "d: Required value: must be set when t is set",
                "d: Forbidden: may not be set when t is set",
            ]
        );
        assert_eq!(out[0].origin, "dependentRequired");
        assert_eq!(out[1].origin, "dependentForbidden");
    }
}
