//! Item-level update constraints (a kdv extension, KEP-5073 "Item-Level Constraints"):
//! `+k8s:item(<key>: <value>)=+k8s:update=NoSet|NoUnset|NoClear`, checked at the list
//! because the item they protect may be missing from one side. `NoModify` below `item`
//! keeps upstream's per-item check ([`crate::update::update`] through [`crate::item::item`]).

use crate::error::{BadValue, FieldError};
use crate::operation::Operation;
use crate::path::PathRef;
use crate::sink::ErrorSink;
use crate::update::{UpdateConstraint, origin};
use crate::view::ListView;

/// The first non-nil item of `list` that `selects` accepts, with its index.
#[inline]
fn first<'a, L: ListView<'a>>(list: L, selects: &impl Fn(L::Item) -> bool) -> Option<usize> {
    (0..list.len()).find(|&i| list.item(i).is_some_and(selects))
}

/// On Update, the item selected by `selects` (its list-map key values) may not appear when
/// no old item was selected (`NoSet`: `Invalid(path[i], null, "field cannot be set once
/// created")` at the new item), nor disappear when an old item was selected (`NoUnset`, the
/// seed's `NoClear`: `Invalid(path, null, "field cannot be cleared once set")` at the list,
/// clearing the whole list included). Other constraints are ignored here.
pub fn item_update<'a, L: ListView<'a>>(
    op: &Operation,
    path: &PathRef<'_>,
    constraints: &[UpdateConstraint],
    new: L,
    old: L,
    selects: impl Fn(L::Item) -> bool,
    out: &mut impl ErrorSink,
) {
    if !op.is_update() {
        return;
    }
    let in_new = first(new, &selects);
    let in_old = first(old, &selects).is_some();
    for c in constraints {
        match (c, in_new) {
            (UpdateConstraint::NoSet, Some(i)) if !in_old => out.fail(|| {
                FieldError::invalid(
                    &path.index(i),
                    BadValue::Null,
                    "field cannot be set once created",
                )
                .with_origin(origin::UPDATE)
            }),
            (UpdateConstraint::NoUnset, None) if in_old => out.fail(|| {
                FieldError::invalid(path, BadValue::Null, "field cannot be cleared once set")
                    .with_origin(origin::UPDATE)
            }),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorList;
    use crate::lists::tests::strings;

    fn run(op: Operation, c: UpdateConstraint, new: &[&str], old: &[&str]) -> Vec<String> {
        let (n, o) = (strings(new), strings(old));
        let (n, o): (&[String], &[String]) = (&n, &o);
        let mut out = ErrorList::new();
        let root = PathRef::Nil;
        let p = root.child("conditions");
        item_update(&op, &p, &[c], n, o, |s: &String| s == "Approved", &mut out);
        out.iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn no_set_and_no_unset() {
        let up = Operation::update;
        assert!(run(up(), UpdateConstraint::NoSet, &["Approved"], &["Approved"]).is_empty());
        assert_eq!(
            run(up(), UpdateConstraint::NoSet, &["x", "Approved"], &["x"]),
            ["conditions[1]: Invalid value: null: field cannot be set once created"]
        );
        assert!(
            run(
                Operation::create(),
                UpdateConstraint::NoSet,
                &["Approved"],
                &[]
            )
            .is_empty()
        );
        assert_eq!(
            run(up(), UpdateConstraint::NoUnset, &[], &["Approved"]),
            ["conditions: Invalid value: null: field cannot be cleared once set"]
        );
        assert!(run(up(), UpdateConstraint::NoUnset, &["Approved"], &[]).is_empty());
        assert!(run(up(), UpdateConstraint::NoModify, &[], &["Approved"]).is_empty());
    }
}
