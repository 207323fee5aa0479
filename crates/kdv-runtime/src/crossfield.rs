//! Cross-field limits (a kdv extension, KEP-5073 "Referencing Fields in Validation-Gen For
//! Cross-Field Validation Rules"): `+k8s:minimum(constraint: minValue)` and its siblings
//! bound a field by the value of another field of the same struct. The check is hoisted to
//! the struct (the common ancestor) so it sees both values; the referenced value stands in
//! for the literal bound, so the error (type, text, origin) is exactly the literal tag's
//! (`kdv_runtime::limits`).

use crate::limits;
use crate::operation::Operation;
use crate::path::PathRef;
use crate::required::{Presence, is_set};
use crate::sink::ErrorSink;
use crate::view::{ListView, MapView, View};

/// Which limit the referenced value is the bound of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bound {
    /// `+k8s:minimum`: the value is at least the bound.
    Minimum,
    /// `+k8s:maximum`: the value is at most the bound.
    Maximum,
    /// `+k8s:minLength`: the string has at least the bound's number of characters.
    MinLength,
    /// `+k8s:maxLength`: the string has at most the bound's number of characters.
    MaxLength,
    /// `+k8s:minItems`: the list has at least the bound's number of items.
    MinItems,
    /// `+k8s:maxItems`: the list has at most the bound's number of items.
    MaxItems,
}

impl Bound {
    /// The tag's name (`k8s:minimum`).
    pub fn tag(self) -> &'static str {
        match self {
            Bound::Minimum => "k8s:minimum",
            Bound::Maximum => "k8s:maximum",
            Bound::MinLength => "k8s:minLength",
            Bound::MaxLength => "k8s:maxLength",
            Bound::MinItems => "k8s:minItems",
            Bound::MaxItems => "k8s:maxItems",
        }
    }

    /// The limit of a tag name, if it takes a `constraint`.
    pub fn of_tag(name: &str) -> Option<Bound> {
        Some(match name {
            "k8s:minimum" => Bound::Minimum,
            "k8s:maximum" => Bound::Maximum,
            "k8s:minLength" => Bound::MinLength,
            "k8s:maxLength" => Bound::MaxLength,
            "k8s:minItems" => Bound::MinItems,
            "k8s:maxItems" => Bound::MaxItems,
            _ => return None,
        })
    }
}

/// One cross-field limit of a struct.
#[derive(Debug, Clone, Copy)]
pub struct CrossField<'d> {
    /// Which limit.
    pub bound: Bound,
    /// JSON name of the bounded field (the error's path segment).
    pub field: &'d str,
    /// The bounded field is `+k8s:optional` (with this presence rule): while it is unset
    /// the limit is not checked, as `optional` short-circuits the literal tag.
    pub optional: Option<Presence>,
}

/// A count bound as the literal tags take it (a referenced value beyond `i64` is clamped).
#[inline]
fn count(b: i128) -> i64 {
    b.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// The cross-field limit `c` on the struct `new` (at `path`): the bounded field's value
/// (`target`) against the integer `reference` reads, as the literal tag with that bound
/// checks it, at `path.<field>`. Does not apply when the struct is nil, the bounded field is
/// optional and unset, or the referenced value is absent (a nil pointer on the way or at the
/// end). On Update with an old struct, skipped when neither the bounded value nor the
/// referenced value changed (the rule only reads those two fields; KEP-5073 "Ratcheting and
/// Cross-Field Validation").
#[allow(clippy::too_many_arguments)]
pub fn cross_field_limit<'a, S: View<'a>, T: View<'a>, R: View<'a>>(
    op: &Operation,
    path: &PathRef<'_>,
    new: S,
    old: S,
    c: CrossField<'_>,
    target: impl Fn(S) -> T,
    reference: impl Fn(S) -> R,
    out: &mut impl ErrorSink,
) {
    let Some((value, b)) = applies(op, new, old, c, &target, &reference) else {
        return;
    };
    check(&path.child(c.field), value, c.bound, b, out);
}

/// `+k8s:eachVal=+k8s:<limit>(constraint: <path>)` on a list field (KEP-5073's
/// "Comprehensive Example": `+k8s:eachVal=+k8s:maximum(constraint: maxThreshold)`): every
/// item of the list `target` reads, against the bound, at `path.<field>[i]`. Applies and is
/// ratcheted as [`cross_field_limit`] with the whole list as the bounded value: an atomic
/// list has no item correlation, so once the list or the bound changed every item is checked.
#[allow(clippy::too_many_arguments)]
pub fn cross_field_each_item<'a, S: View<'a>, L: ListView<'a>, R: View<'a>>(
    op: &Operation,
    path: &PathRef<'_>,
    new: S,
    old: S,
    c: CrossField<'_>,
    target: impl Fn(S) -> L,
    reference: impl Fn(S) -> R,
    out: &mut impl ErrorSink,
) {
    let Some((list, b)) = applies(op, new, old, c, &target, &reference) else {
        return;
    };
    let p = path.child(c.field);
    for i in 0..list.len() {
        if let Some(item) = list.item(i) {
            check(&p.index(i), item, c.bound, b, out);
        }
    }
}

/// [`cross_field_each_item`] for a map field: every value, at `path.<field>[key]`, in the
/// map's key order.
#[allow(clippy::too_many_arguments)]
pub fn cross_field_each_value<'a, S: View<'a>, M: MapView<'a>, R: View<'a>>(
    op: &Operation,
    path: &PathRef<'_>,
    new: S,
    old: S,
    c: CrossField<'_>,
    target: impl Fn(S) -> M,
    reference: impl Fn(S) -> R,
    out: &mut impl ErrorSink,
) {
    let Some((map, b)) = applies(op, new, old, c, &target, &reference) else {
        return;
    };
    let p = path.child(c.field);
    for (k, v) in map.entries() {
        check(&p.key(k), v, c.bound, b, out);
    }
}

/// The bounded value and the bound, when the limit applies (see [`cross_field_limit`]).
fn applies<'a, S: View<'a>, T: View<'a>, R: View<'a>>(
    op: &Operation,
    new: S,
    old: S,
    c: CrossField<'_>,
    target: &impl Fn(S) -> T,
    reference: &impl Fn(S) -> R,
) -> Option<(T, i128)> {
    if new.is_nil() {
        return None;
    }
    let updating = op.is_update() && !old.is_nil();
    if updating && new.identical(old) {
        return None;
    }
    let bound = reference(new).as_int()?;
    let value = target(new);
    if c.optional.is_some_and(|p| !is_set(p, value)) {
        return None;
    }
    if updating && reference(old).as_int() == Some(bound) && value.equal(target(old)) {
        return None;
    }
    Some((value, bound.get()))
}

/// The literal tag's check of `value` at `p` with the bound `b`.
fn check<'a>(
    p: &PathRef<'_>,
    value: impl View<'a>,
    bound: Bound,
    b: i128,
    out: &mut impl ErrorSink,
) {
    match bound {
        Bound::Minimum => limits::minimum(p, value, b, out),
        Bound::Maximum => limits::maximum(p, value, b, out),
        Bound::MinLength => limits::min_length(p, value, count(b), out),
        Bound::MaxLength => limits::max_length(p, value, count(b), out),
        Bound::MinItems => limits::min_items(p, value, count(b), out),
        Bound::MaxItems => limits::max_items(p, value, count(b), out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorList;

    #[test]
    fn bound_by_a_sibling_and_ratcheted_on_both_fields() {
        let root = PathRef::Nil;
        // A struct as `value * 100 + minValue`, 99 standing for a nil minValue; `None` for a
        // nil struct.
        let s = |v: i32, m: Option<i32>| Some(v * 100 + m.unwrap_or(99));
        let value = |s: Option<i32>| s.map(|s| s / 100);
        let min = |s: Option<i32>| s.map(|s| s % 100).filter(|m| *m != 99);
        let c = CrossField {
            bound: Bound::Minimum,
            field: "value",
            optional: None,
        };
        let (create, update) = (Operation::create(), Operation::update());
        let mut out = ErrorList::new();
        cross_field_limit(&create, &root, s(5, Some(5)), None, c, value, min, &mut out);
        cross_field_limit(&create, &root, s(1, None), None, c, value, min, &mut out);
        cross_field_limit(&create, &root, None, None, c, value, min, &mut out);
        // Neither field changed: ratcheted.
        let old = s(1, Some(5));
        cross_field_limit(&update, &root, s(1, Some(5)), old, c, value, min, &mut out);
        assert!(out.is_empty(), "{out:?}");
        cross_field_limit(&create, &root, s(1, Some(5)), None, c, value, min, &mut out);
        // The referenced field changed.
        let old = s(1, Some(0));
        cross_field_limit(&update, &root, s(1, Some(5)), old, c, value, min, &mut out);
        let c = CrossField {
            bound: Bound::Maximum,
            ..c
        };
        cross_field_limit(&create, &root, s(9, Some(5)), None, c, value, min, &mut out);
        let texts: Vec<String> = out.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                "value: Invalid value: 1: must be greater than or equal to 5",
                "value: Invalid value: 1: must be greater than or equal to 5",
                "value: Invalid value: 9: must be less than or equal to 5",
            ]
        );
        assert_eq!(out[0].origin, "minimum");
        assert_eq!(out[2].origin, "maximum");
    }

    #[test]
    fn each_item_of_a_list_is_bounded_by_a_sibling() {
        let root = PathRef::Nil;
        // Structs as indexes into a table of (thresholds, maxThreshold).
        static TABLE: [(&[i32], i32); 2] = [(&[1, 50, 10, 11], 10), (&[1, 50, 10, 11], 60)];
        let items = |s: Option<i32>| s.map_or(&[][..], |i| TABLE[i as usize].0);
        let max = |s: Option<i32>| s.map(|i| TABLE[i as usize].1);
        let c = CrossField {
            bound: Bound::Maximum,
            field: "thresholds",
            optional: None,
        };
        let (create, update) = (Operation::create(), Operation::update());
        let mut out = ErrorList::new();
        cross_field_each_item(&create, &root, Some(0), None, c, items, max, &mut out);
        // Unchanged list and bound: ratcheted; a changed bound re-checks every item.
        cross_field_each_item(&update, &root, Some(0), Some(0), c, items, max, &mut out);
        cross_field_each_item(&update, &root, Some(0), Some(1), c, items, max, &mut out);
        let texts: Vec<String> = out.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                "thresholds[1]: Invalid value: 50: must be less than or equal to 10",
                "thresholds[3]: Invalid value: 11: must be less than or equal to 10",
                "thresholds[1]: Invalid value: 50: must be less than or equal to 10",
                "thresholds[3]: Invalid value: 11: must be less than or equal to 10",
            ]
        );
    }
}
