//! Update constraints (`+k8s:update=NoSet|NoUnset|NoModify|NoAddItem|NoRemoveItem`):
//! upstream's `validate/update.go`. Checked only on Update.

use crate::error::{BadValue, FieldError};
use crate::lists::{Identity, with_lookup};
use crate::operation::Operation;
use crate::path::PathRef;
use crate::sink::ErrorSink;
use crate::view::{ListView, MapView, View};

/// The origins of these errors.
pub mod origin {
    /// `+k8s:update`.
    pub const UPDATE: &str = "update";
}

/// A `+k8s:update=<constraint>` constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UpdateConstraint {
    /// Forbid unset → set.
    NoSet,
    /// Forbid set → unset.
    NoUnset,
    /// Forbid set → different set.
    NoModify,
    /// Forbid new list items / map keys.
    NoAddItem,
    /// Forbid removing list items / map keys.
    NoRemoveItem,
}

impl UpdateConstraint {
    /// All constraints in upstream's processing order.
    pub const ALL: [UpdateConstraint; 5] = [
        UpdateConstraint::NoSet,
        UpdateConstraint::NoUnset,
        UpdateConstraint::NoModify,
        UpdateConstraint::NoAddItem,
        UpdateConstraint::NoRemoveItem,
    ];

    /// The tag payload (`NoSet`, …).
    pub fn name(self) -> &'static str {
        match self {
            UpdateConstraint::NoSet => "NoSet",
            UpdateConstraint::NoUnset => "NoUnset",
            UpdateConstraint::NoModify => "NoModify",
            UpdateConstraint::NoAddItem => "NoAddItem",
            UpdateConstraint::NoRemoveItem => "NoRemoveItem",
        }
    }

    /// Parses a tag payload.
    pub fn from_name(name: &str) -> Option<UpdateConstraint> {
        UpdateConstraint::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// Which upstream update function applies, by the value's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UpdateKind {
    /// `UpdatePointer`: set-ness is nil-ness; runs even without an old value.
    Pointer,
    /// `UpdateStruct`: a non-pointer struct is always set.
    Struct,
    /// `UpdateValueByCompare` / `UpdateValueByReflect`: set-ness is non-zero-ness.
    Value,
    /// `ValSliceUpdate` / `PtrSliceUpdate`: set-ness is non-emptiness; items by identity.
    Slice,
    /// `UpdateMap`: set-ness is non-emptiness; items by key.
    Map,
}

fn set_forbidden(path: &PathRef<'_>) -> FieldError {
    FieldError::invalid(path, BadValue::Null, "field cannot be set once created")
        .with_origin(origin::UPDATE)
}

fn unset_forbidden(path: &PathRef<'_>) -> FieldError {
    FieldError::invalid(path, BadValue::Null, "field cannot be cleared once set")
        .with_origin(origin::UPDATE)
}

fn modify_forbidden(path: &PathRef<'_>) -> FieldError {
    FieldError::invalid(path, BadValue::Null, "field cannot be modified once set")
        .with_origin(origin::UPDATE)
}

/// `NoAddItem` violated: `Forbidden("item may not be added")` at the new item's path.
fn item_added(path: &PathRef<'_>) -> FieldError {
    FieldError::forbidden(path, "item may not be added").with_origin(origin::UPDATE)
}

/// `NoRemoveItem` violated: `Forbidden("item may not be removed")`.
fn item_removed(path: &PathRef<'_>) -> FieldError {
    FieldError::forbidden(path, "item may not be removed").with_origin(origin::UPDATE)
}

/// The set/unset/modify transitions, in the order given: `old_set` is `None` when there is
/// nothing to compare with. `NoModify` assumes ratcheting already established that the
/// value changed.
fn transitions(
    path: &PathRef<'_>,
    old_set: Option<bool>,
    new_set: bool,
    constraints: &[UpdateConstraint],
    out: &mut impl ErrorSink,
) {
    let Some(old_set) = old_set else { return };
    for c in constraints {
        match c {
            UpdateConstraint::NoSet if !old_set && new_set => out.fail(|| set_forbidden(path)),
            UpdateConstraint::NoUnset if old_set && !new_set => {
                out.fail(|| unset_forbidden(path));
            }
            UpdateConstraint::NoModify if old_set && new_set => {
                out.fail(|| modify_forbidden(path));
            }
            _ => {}
        }
    }
}

/// `UpdatePointer`, `UpdateStruct`, `UpdateValueBy*`: the set/unset/modify constraints of a
/// scalar, pointer or struct value (`kind` says which; nil `old` means no old value). Set
/// → `Invalid(null, "field cannot be set once created")`, unset → `"... cleared once set"`,
/// modified → `"... modified once set"`, origin `update`. For lists and maps see
/// [`update_list`] and [`update_map`].
pub fn update<'a, V: View<'a>>(
    op: &Operation,
    path: &PathRef<'_>,
    kind: UpdateKind,
    constraints: &[UpdateConstraint],
    new: V,
    old: V,
    out: &mut impl ErrorSink,
) {
    if !op.is_update() {
        return;
    }
    let (old_set, new_set) = match kind {
        UpdateKind::Pointer => (Some(!old.is_nil()), !new.is_nil()),
        UpdateKind::Struct => ((!old.is_nil()).then_some(true), true),
        UpdateKind::Value => ((!old.is_nil()).then(|| !old.is_zero()), !new.is_zero()),
        UpdateKind::Slice | UpdateKind::Map => (Some(old.len() > 0), new.len() > 0),
    };
    transitions(path, old_set, new_set, constraints, out);
}

/// `ValSliceUpdate` / `PtrSliceUpdate`: the set/unset/modify constraints of a list
/// (set = non-empty), then `NoAddItem` for each new item without a same-identity old item
/// (`Forbidden("item may not be added")` at `path[i]`) and `NoRemoveItem` for each old item
/// without a new one (`Forbidden("item may not be removed")` at the list's path). Without
/// an identity, items are not compared. Nil items are ignored.
pub fn update_list<'a, L, I>(
    op: &Operation,
    path: &PathRef<'_>,
    constraints: &[UpdateConstraint],
    new: L,
    old: L,
    identity: Option<&I>,
    out: &mut impl ErrorSink,
) where
    L: ListView<'a>,
    I: Identity<'a, L::Item>,
{
    update(op, path, UpdateKind::Slice, constraints, new, old, out);
    let Some(identity) = identity else { return };
    if !op.is_update() {
        return;
    }
    let missing = |from: L, to: L, added: bool, out: &mut _| {
        if from.len() == 0 {
            return;
        }
        with_lookup(to, identity, |lookup| {
            for i in 0..from.len() {
                let Some(x) = from.item(i) else { continue };
                if lookup.find(&identity.key(x)).is_none() {
                    if added {
                        ErrorSink::fail(out, || item_added(&path.index(i)));
                    } else {
                        ErrorSink::fail(out, || item_removed(path));
                    }
                }
            }
        });
    };
    if constraints.contains(&UpdateConstraint::NoAddItem) {
        missing(new, old, true, out);
    }
    if constraints.contains(&UpdateConstraint::NoRemoveItem) {
        missing(old, new, false, out);
    }
}

/// `UpdateMap`: the set/unset/modify constraints of a map (set = non-empty), then
/// `NoAddItem` for each new key (`Forbidden("item may not be added")` at `path[key]`) and
/// `NoRemoveItem` for each removed key (`Forbidden("item may not be removed")` at
/// `path[key]`).
pub fn update_map<'a, M: MapView<'a>>(
    op: &Operation,
    path: &PathRef<'_>,
    constraints: &[UpdateConstraint],
    new: M,
    old: M,
    out: &mut impl ErrorSink,
) {
    update(op, path, UpdateKind::Map, constraints, new, old, out);
    if !op.is_update() {
        return;
    }
    if constraints.contains(&UpdateConstraint::NoAddItem) && !new.is_nil() {
        for (k, _) in new.entries() {
            if old.is_nil() || !old.contains_key(k) {
                out.fail(|| item_added(&path.key(k)));
            }
        }
    }
    if constraints.contains(&UpdateConstraint::NoRemoveItem) && !old.is_nil() {
        for (k, _) in old.entries() {
            if new.is_nil() || !new.contains_key(k) {
                out.fail(|| item_removed(&path.key(k)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::error::ErrorList;
    use crate::lists::tests::{FirstChar, strings};

    fn texts(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn transitions_by_kind() {
        use UpdateConstraint::*;
        assert_eq!(UpdateConstraint::from_name("NoModify"), Some(NoModify));
        assert_eq!(UpdateConstraint::from_name("nomodify"), None);
        let root = PathRef::Nil;
        let spec = root.child("spec");
        let x = spec.child("x");
        let (create, up) = (Operation::create(), Operation::update());
        let all = [NoSet, NoUnset, NoModify];
        let mut out = ErrorList::new();
        update(&create, &x, UpdateKind::Value, &all, 1i64, 0i64, &mut out);
        update(&up, &x, UpdateKind::Value, &all, 0i64, 0i64, &mut out);
        update(
            &up,
            &x,
            UpdateKind::Value,
            &all,
            None::<i64>,
            None,
            &mut out,
        );
        assert!(out.is_empty());
        update(
            &up,
            &x,
            UpdateKind::Pointer,
            &all,
            Some(1i64),
            None,
            &mut out,
        );
        update(&up, &x, UpdateKind::Value, &all, 0i64, 1i64, &mut out);
        update(&up, &x, UpdateKind::Value, &all, 2i64, 1i64, &mut out);
        assert_eq!(
            texts(&out),
            [
                "spec.x: Invalid value: null: field cannot be set once created",
                "spec.x: Invalid value: null: field cannot be cleared once set",
                "spec.x: Invalid value: null: field cannot be modified once set",
            ]
        );
        assert!(out.iter().all(|e| e.origin == "update"));
    }

    #[test]
    fn items_and_keys() {
        use UpdateConstraint::*;
        let root = PathRef::Nil;
        let l = root.child("l");
        let up = Operation::update();
        let old = strings(&["a1", "b1"]);
        let new = strings(&["b2", "c1"]);
        let (n, o): (&[String], &[String]) = (&new, &old);
        let mut out = ErrorList::new();
        update_list(
            &up,
            &l,
            &[NoAddItem, NoRemoveItem],
            n,
            o,
            Some(&FirstChar),
            &mut out,
        );
        let mut old_map = BTreeMap::new();
        old_map.insert("a".to_string(), 1i64);
        let mut new_map = BTreeMap::new();
        new_map.insert("b".to_string(), 1i64);
        let m = root.child("m");
        update_map(
            &up,
            &m,
            &[NoAddItem, NoRemoveItem],
            &new_map,
            &old_map,
            &mut out,
        );
        assert_eq!(
            texts(&out),
            [
                "l[1]: Forbidden: item may not be added",
                "l: Forbidden: item may not be removed",
                "m[b]: Forbidden: item may not be added",
                "m[a]: Forbidden: item may not be removed",
            ]
        );
    }
}
