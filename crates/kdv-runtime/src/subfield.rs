//! Subfields (`+k8s:subfield(name)=...`): upstream's `validate/subfield.go`.

use crate::equality::unchanged;
use crate::operation::Operation;
use crate::path::PathRef;
use crate::sink::ErrorSink;
use crate::view::View;

/// Runs `validate` on the member `name` of the struct `new` (read by `get`) at
/// `path.name`, with the member of `old` when there is an old struct. A nil struct has no
/// members; on Update an unchanged member is skipped.
#[allow(clippy::too_many_arguments)]
pub fn subfield<'a, V, F, S>(
    op: &Operation,
    path: &PathRef<'_>,
    name: &str,
    new: V,
    old: V,
    get: impl Fn(V) -> F,
    out: &mut S,
    validate: impl FnOnce(&mut S, &PathRef<'_>, F, Option<F>),
) where
    V: View<'a>,
    F: View<'a>,
    S: ErrorSink,
{
    if new.is_nil() {
        return;
    }
    let nv = get(new);
    let ov = (!old.is_nil()).then(|| get(old));
    if let Some(ov) = ov
        && unchanged(op, nv, ov)
    {
        return;
    }
    let p = path.child(name);
    validate(out, &p, nv, ov);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorList;

    #[test]
    fn members_of_present_structs() {
        let root = PathRef::Nil;
        let first = |s: Option<(i64, i64)>| s.map(|p| p.0);
        let mut seen = Vec::new();
        let mut out = ErrorList::new();
        let (create, update) = (Operation::create(), Operation::update());
        let cases = [
            (&create, Some((1, 2)), None),
            (&update, None, Some((1, 2))),
            (&update, Some((1, 2)), Some((1, 3))),
            (&update, Some((2, 2)), Some((1, 3))),
        ];
        for (op, new, old) in cases {
            let new = new.map(Pair);
            let old = old.map(Pair);
            subfield(
                op,
                &root,
                "a",
                new,
                old,
                |s| first(s.map(|p| p.0)),
                &mut out,
                |_, p, v, o| seen.push(format!("{p} {v:?} {o:?}")),
            );
        }
        assert_eq!(seen, ["a Some(1) None", "a Some(2) Some(Some(1))"]);
    }

    /// A struct with two integer members.
    #[derive(Clone, Copy, PartialEq)]
    struct Pair((i64, i64));

    impl View<'_> for Pair {
        fn is_nil(self) -> bool {
            false
        }
        fn len(self) -> usize {
            0
        }
        fn is_zero(self) -> bool {
            self.0 == (0, 0)
        }
        fn is_named(self) -> bool {
            true
        }
        fn bad_value(self) -> crate::BadValue {
            crate::BadValue::Null
        }
        fn nilable_bad_value(self) -> crate::BadValue {
            crate::BadValue::Null
        }
        fn equal(self, other: Self) -> bool {
            self == other
        }
    }
}
