//! Item selection (`+k8s:item(key: value, ...)`): upstream's `ValSliceItem` /
//! `PtrSliceItem`.

use crate::equality::unchanged;
use crate::operation::Operation;
use crate::path::PathRef;
use crate::sink::ErrorSink;
use crate::view::{ListView, Literal, View};

/// Whether a key field of an item matches a selector value: set (a nil pointer key matches
/// nothing) and equal to it.
#[inline]
pub fn selects<'a>(key: impl View<'a>, value: &Literal) -> bool {
    !key.is_nil() && value.matches(key)
}

/// Runs `validate` on the first (non-nil) item of `new` that `selects` accepts, at
/// `path[i]`, with the first such item of `old`; on Update it is skipped when that old item
/// exists and is unchanged.
pub fn item<'a, L, S>(
    op: &Operation,
    path: &PathRef<'_>,
    new: L,
    old: L,
    selects: impl Fn(L::Item) -> bool,
    out: &mut S,
    validate: impl FnOnce(&mut S, &PathRef<'_>, L::Item, Option<L::Item>),
) where
    L: ListView<'a>,
    S: ErrorSink,
{
    let first = |list: L| {
        (0..list.len()).find_map(|i| list.item(i).filter(|x| selects(*x)).map(|x| (i, x)))
    };
    let Some((i, nv)) = first(new) else { return };
    let ov = first(old).map(|(_, o)| o);
    if let Some(ov) = ov
        && unchanged(op, nv, ov)
    {
        return;
    }
    let p = path.index(i);
    validate(out, &p, nv, ov);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorList;
    use crate::lists::tests::strings;

    #[test]
    fn first_selected_item() {
        let root = PathRef::Nil;
        let new = strings(&["a", "bx", "by"]);
        let old = strings(&["bx"]);
        let starts_b = |s: &String| s.starts_with('b');
        let mut got = Vec::new();
        let mut out = ErrorList::new();
        let (n, o): (&[String], &[String]) = (&new, &old);
        item(
            &Operation::create(),
            &root,
            n,
            o,
            starts_b,
            &mut out,
            |_, p, v, ov| got.push(format!("{p} {v} {ov:?}")),
        );
        item(
            &Operation::update(),
            &root,
            n,
            o,
            starts_b,
            &mut out,
            |_, p, v, _| got.push(format!("update {p} {v}")),
        );
        assert_eq!(got, ["[1] bx Some(\"bx\")"]);
    }
}
