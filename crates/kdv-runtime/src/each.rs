//! Iteration (`+k8s:eachVal`, `+k8s:eachKey`): upstream's `EachValSliceVal`,
//! `EachPtrSliceVal`, `EachMapVal`, `EachMapKey`. The wrapped validation is a callback;
//! these functions decide which items it runs on, with which old item, and where
//! ratcheting skips it.

use crate::equality::unchanged;
use crate::lists::{Identity, with_lookup};
use crate::operation::Operation;
use crate::path::PathRef;
use crate::sink::ErrorSink;
use crate::view::{ListView, MapView, View};

/// Runs `validate` on each (non-nil) item of `new` at `path[i]`. On Update, an item is
/// correlated with the first old item of the same identity (none without `identity`:
/// atomic lists); a correlated item is skipped when unchanged, or whenever it is correlated
/// if `equiv` is false (the wrapped validation has no notion of change). `old` is nil when
/// there is no old list.
#[allow(clippy::too_many_arguments)]
pub fn each_list_val<'a, L, I, S>(
    op: &Operation,
    path: &PathRef<'_>,
    new: L,
    old: L,
    identity: Option<&I>,
    equiv: bool,
    out: &mut S,
    mut validate: impl FnMut(&mut S, &PathRef<'_>, L::Item, Option<L::Item>),
) where
    L: ListView<'a>,
    I: Identity<'a, L::Item>,
    S: ErrorSink,
{
    let n = new.len();
    let has_old = old.len() > 0;
    match identity {
        Some(id) if n > 0 && has_old => with_lookup(old, id, |lookup| {
            let find = |nv| lookup.find(&id.key(nv)).map(|(_, o)| o);
            visit_items(
                op,
                path,
                new,
                old,
                equiv,
                lookup.distinct(),
                find,
                out,
                &mut validate,
            )
        }),
        _ => visit_items(
            op,
            path,
            new,
            old,
            equiv,
            false,
            |_| None,
            out,
            &mut validate,
        ),
    }
}

/// The loop of [`each_list_val`], given how to find an item's old item.
#[allow(clippy::too_many_arguments)]
#[inline]
fn visit_items<'a, L, S>(
    op: &Operation,
    path: &PathRef<'_>,
    new: L,
    old: L,
    equiv: bool,
    distinct: bool,
    find: impl Fn(L::Item) -> Option<L::Item>,
    out: &mut S,
    validate: &mut impl FnMut(&mut S, &PathRef<'_>, L::Item, Option<L::Item>),
) where
    L: ListView<'a>,
    S: ErrorSink,
{
    for i in 0..new.len() {
        let Some(nv) = new.item(i) else { continue };
        // With distinct old items, an identical old item at the same index is the
        // correlated one (identical items have the same identity).
        let (ov, identical) = match old.item(i) {
            Some(o) if distinct && nv.identical(o) => (Some(o), true),
            _ => (find(nv), false),
        };
        if let Some(ov) = ov
            && op.is_update()
            && (!equiv || identical || nv.equal(ov))
        {
            continue;
        }
        let p = path.index(i);
        validate(out, &p, nv, ov);
    }
}

/// Runs `validate` on each entry value of `new` at `path[key]`, with the old value of the
/// same key; on Update an unchanged value is skipped.
pub fn each_map_val<'a, M, S>(
    op: &Operation,
    path: &PathRef<'_>,
    new: M,
    old: M,
    out: &mut S,
    mut validate: impl FnMut(&mut S, &PathRef<'_>, M::Value, Option<M::Value>),
) where
    M: MapView<'a>,
    S: ErrorSink,
{
    let has_old = !old.is_nil();
    for (k, nv) in new.entries() {
        let ov = if has_old { old.get(k) } else { None };
        if let Some(ov) = ov
            && unchanged(op, nv, ov)
        {
            continue;
        }
        let p = path.key(k);
        validate(out, &p, nv, ov);
    }
}

/// Runs `validate` on each key of `new` (at the map's own path); on Update a key the old
/// map has is skipped.
pub fn each_map_key<'a, M, S>(
    op: &Operation,
    path: &PathRef<'_>,
    new: M,
    old: M,
    out: &mut S,
    mut validate: impl FnMut(&mut S, &PathRef<'_>, &'a str),
) where
    M: MapView<'a>,
    S: ErrorSink,
{
    let skip_known = op.is_update() && !old.is_nil();
    for (k, _) in new.entries() {
        if skip_known && old.contains_key(k) {
            continue;
        }
        validate(out, path, k);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::error::{ErrorList, FieldError};
    use crate::lists::tests::{FirstChar, strings};

    fn visits_of(op: &Operation, new: &[String], old: &[String], equiv: bool) -> Vec<String> {
        let root = PathRef::Nil;
        let mut out = ErrorList::new();
        each_list_val(
            op,
            &root,
            new,
            old,
            Some(&FirstChar),
            equiv,
            &mut out,
            |out, p, nv, ov| {
                let text = format!("{nv}<-{}", ov.map_or("none", |s| s.as_str()));
                out.push(FieldError::forbidden(p, text));
            },
        );
        out.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn list_items_correlate_by_identity() {
        let update = Operation::update();
        let old = strings(&["a1", "b1", "c1"]);
        let new = strings(&["b1", "a2", "d1"]);
        assert_eq!(
            visits_of(&update, &new, &old, true),
            ["[1]: Forbidden: a2<-a1", "[2]: Forbidden: d1<-none"]
        );
        // Without equivalence a correlated item is always skipped.
        assert_eq!(
            visits_of(&update, &new, &old, false),
            ["[2]: Forbidden: d1<-none"]
        );
        // On Create nothing is skipped.
        assert_eq!(visits_of(&Operation::create(), &new, &old, true).len(), 3);
        // Long lists (indexed) give the same visits.
        let old: Vec<String> = (0..26)
            .map(|i| format!("{}0", (b'a' + i) as char))
            .collect();
        let mut new = old.clone();
        new[3] = "d-changed".into();
        new.swap(0, 25);
        assert_eq!(
            visits_of(&update, &new, &old, true),
            ["[3]: Forbidden: d-changed<-d0"]
        );
    }

    #[test]
    fn maps_skip_unchanged_values_and_known_keys() {
        let root = PathRef::Nil;
        let mut old = BTreeMap::new();
        old.insert("a".to_string(), 1i64);
        old.insert("b".to_string(), 2i64);
        let mut new = old.clone();
        new.insert("b".to_string(), 3);
        new.insert("c".to_string(), 4);
        let update = Operation::update();
        let mut seen = Vec::new();
        each_map_val(
            &update,
            &root,
            &new,
            &old,
            &mut ErrorList::new(),
            |_, p, v, o| {
                seen.push(format!("{p}={v}<-{o:?}"));
            },
        );
        assert_eq!(seen, ["[b]=3<-Some(2)", "[c]=4<-None"]);
        let mut keys = Vec::new();
        each_map_key(
            &update,
            &root,
            &new,
            &old,
            &mut ErrorList::new(),
            |_, _, k| keys.push(k),
        );
        assert_eq!(keys, ["c"]);
    }
}
