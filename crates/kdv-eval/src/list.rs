//! List uniqueness and old-item correlation. Tiny lists compare pairwise, as upstream
//! does; longer ones use a hash table of item indices (on the stack up to
//! [`STACK_INDEX_LIMIT`] items, one allocation beyond) with the same results: first-match
//! correlation, duplicates in ascending index order.

use std::hash::Hasher;

use kdv_rules::{
    Check, ItemCriterion, ItemMatch, Literal, RuleSet, Shape, ShapeId, UpdateConstraint, Validation,
};
use kdv_runtime::{PathRef, check};
use serde_json::Value;

use crate::eval::{Eval, bad_value_elem};
use crate::value::{
    Val, as_bool, as_int, as_str, deep_equal, deep_hash, deref, field, json_identical, normalize,
};

/// Lists with at most this many items are compared pairwise; longer lists get a hash index.
pub const PAIRWISE_LIMIT: usize = 4;

/// Hash indexes of lists with at most this many items live on the stack; longer lists
/// allocate one table.
pub const STACK_INDEX_LIMIT: usize = 32;

/// Table slots on the stack: a power of two, at least twice [`STACK_INDEX_LIMIT`].
const STACK_SLOTS: usize = 64;
const _: () = assert!(STACK_SLOTS.is_power_of_two() && STACK_SLOTS >= 2 * STACK_INDEX_LIMIT);

/// A fast, non-cryptographic hash of list items (a multiply-rotate mix per eight bytes, a
/// final avalanche so the low bits index the table well). Crafted collisions only make the
/// index degrade to pairwise comparison, which is what upstream does anyway.
struct ItemHasher(u64);

impl ItemHasher {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;

    #[inline]
    fn mix(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(23) ^ word).wrapping_mul(Self::K);
    }
}

impl Hasher for ItemHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.mix(u64::from_le_bytes(c.try_into().unwrap_or([0; 8])));
        }
        let rest = chunks.remainder();
        let n = rest.len();
        if n > 0 {
            // Loads covering every byte of the 1..=7 left (with the length mixed in, the
            // word is unique per tail), without copying into a buffer.
            let word = if n >= 4 {
                let lo = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
                let hi = u32::from_le_bytes([rest[n - 4], rest[n - 3], rest[n - 2], rest[n - 1]]);
                u64::from(lo) | (u64::from(hi) << 32)
            } else {
                u64::from(rest[0]) | (u64::from(rest[n / 2]) << 8) | (u64::from(rest[n - 1]) << 16)
            };
            self.mix(word ^ ((n as u64) << 59));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.mix(u64::from(i) | 0x100);
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.mix(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.mix(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // murmur3's 64-bit finaliser.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// One slot of an [`ItemIndex`]: an item index plus one (0 = empty) and the high half of
/// its hash.
#[derive(Clone, Copy, Default)]
struct Slot {
    item: u32,
    tag: u32,
}

/// An open-addressing table of item indices (linear probing, never deleted from). Items
/// with equal hashes lie along one probe sequence in insertion order, so inserting in
/// ascending index order makes the first match found the first matching item.
struct ItemIndex<'b> {
    slots: &'b mut [Slot],
}

impl ItemIndex<'_> {
    /// Slots needed for `n` items (a power of two, at most half full).
    fn slots_for(n: usize) -> usize {
        (2 * n).next_power_of_two().max(8)
    }

    /// The first item with hash `h` for which `is_match` holds, else the free slot where
    /// an item with that hash goes.
    fn find(&self, h: u64, mut is_match: impl FnMut(usize) -> bool) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let tag = (h >> 32) as u32;
        let mut pos = h as usize & mask;
        loop {
            let s = self.slots[pos];
            if s.item == 0 {
                return Err(pos);
            }
            if s.tag == tag && is_match(s.item as usize - 1) {
                return Ok(s.item as usize - 1);
            }
            pos = (pos + 1) & mask;
        }
    }

    fn insert(&mut self, h: u64, item: usize) {
        if let Err(pos) = self.find(h, |_| false) {
            self.put(pos, h, item);
        }
    }

    /// Puts `item` into the free slot `pos` that [`find`](ItemIndex::find) returned.
    fn put(&mut self, pos: usize, h: u64, item: usize) {
        self.slots[pos] = Slot {
            item: item as u32 + 1,
            tag: (h >> 32) as u32,
        };
    }
}

/// Runs `f` with an empty [`ItemIndex`] sized for `n` items: on the stack when small.
fn with_index<R>(n: usize, f: impl FnOnce(&mut ItemIndex<'_>) -> R) -> R {
    let len = ItemIndex::slots_for(n);
    if len <= STACK_SLOTS {
        let mut stack = [Slot::default(); STACK_SLOTS];
        f(&mut ItemIndex {
            slots: &mut stack[..len],
        })
    } else {
        let mut heap = vec![Slot::default(); len];
        f(&mut ItemIndex { slots: &mut heap })
    }
}

/// An index of the (non-nil) elements of `xs`, in ascending order, passed to `f` with
/// whether the items are distinct (no item matches an earlier one).
fn with_list_index<R>(
    rules: &RuleSet,
    m: &ItemMatch,
    elem: ShapeId,
    is_ptr: bool,
    xs: &[Value],
    f: impl FnOnce(&ItemIndex<'_>, bool) -> R,
) -> R {
    with_index(xs.len(), |idx| {
        let mut distinct = true;
        for (i, x) in xs.iter().enumerate() {
            if let Some(v) = element(rules, elem, is_ptr, x) {
                let id = ident(rules, m, v);
                let h = ident_hash(rules, m, elem, &id);
                let earlier = if distinct {
                    idx.find(h, |j| {
                        element(rules, elem, is_ptr, &xs[j])
                            .is_some_and(|o| ident_matches(rules, m, elem, &id, o))
                    })
                } else {
                    Ok(0)
                };
                match earlier {
                    Err(free) => idx.put(free, h, i),
                    Ok(_) => {
                        distinct = false;
                        idx.insert(h, i);
                    }
                }
            }
        }
        f(idx, distinct)
    })
}

/// The element shape of a list shape, and whether elements are pointers.
pub(crate) fn elem_shape(rules: &RuleSet, shape: ShapeId) -> Option<(ShapeId, bool)> {
    match rules.shape(shape) {
        Shape::Slice(e) => Some((*e, matches!(rules.shape(*e), Shape::Pointer(_)))),
        _ => None,
    }
}

/// An element as a value (`None` for a nil element of a pointer list).
pub(crate) fn element<'a>(
    rules: &RuleSet,
    elem: ShapeId,
    is_ptr: bool,
    x: &'a Value,
) -> Option<Val<'a>> {
    if is_ptr && x.is_null() {
        None
    } else {
        Some(normalize(rules, elem, Some(x)))
    }
}

/// Whether two (non-nil) elements are the same item.
fn matches(rules: &RuleSet, m: &ItemMatch, elem: ShapeId, a: Val<'_>, b: Val<'_>) -> bool {
    match m {
        ItemMatch::Direct | ItemMatch::Semantic => deep_equal(rules, elem, a, b),
        ItemMatch::Keys(keys) => keys.iter().all(|k| {
            deep_equal(
                rules,
                k.shape,
                field(rules, a, &k.access, k.shape),
                field(rules, b, &k.access, k.shape),
            )
        }),
    }
}

/// List-map keys with at most this many fields are read once per item ([`Ident`]).
const INLINE_KEYS: usize = 4;

/// An item's identity as [`matches`] compares it: the values of its list-map key fields
/// (read once, then hashed and compared), or else the element itself.
#[derive(Clone, Copy)]
enum Ident<'a> {
    Keys([Val<'a>; INLINE_KEYS]),
    Whole(Val<'a>),
}

fn ident<'a>(rules: &RuleSet, m: &ItemMatch, v: Val<'a>) -> Ident<'a> {
    match m {
        ItemMatch::Keys(keys) if keys.len() <= INLINE_KEYS => {
            let mut vals = [Val::Nil; INLINE_KEYS];
            for (slot, k) in vals.iter_mut().zip(keys) {
                *slot = field(rules, v, &k.access, k.shape);
            }
            Ident::Keys(vals)
        }
        _ => Ident::Whole(v),
    }
}

/// A hash of an item's identity, consistent with [`ident_matches`].
fn ident_hash(rules: &RuleSet, m: &ItemMatch, elem: ShapeId, id: &Ident<'_>) -> u64 {
    let mut h = ItemHasher(0);
    match (m, id) {
        (ItemMatch::Keys(keys), Ident::Keys(vals)) => {
            for (k, v) in keys.iter().zip(vals) {
                deep_hash(rules, k.shape, *v, &mut h);
            }
        }
        (ItemMatch::Keys(keys), Ident::Whole(v)) => {
            for k in keys {
                deep_hash(rules, k.shape, field(rules, *v, &k.access, k.shape), &mut h);
            }
        }
        (ItemMatch::Direct | ItemMatch::Semantic, _) => {
            let (Ident::Whole(v) | Ident::Keys([v, ..])) = id;
            deep_hash(rules, elem, *v, &mut h);
        }
    }
    h.finish()
}

/// Whether the (non-nil) element `b` is the item `a` identifies ([`matches`]).
fn ident_matches(rules: &RuleSet, m: &ItemMatch, elem: ShapeId, a: &Ident<'_>, b: Val<'_>) -> bool {
    match (m, a) {
        (ItemMatch::Keys(keys), Ident::Keys(vals)) => keys
            .iter()
            .zip(vals)
            .all(|(k, av)| deep_equal(rules, k.shape, *av, field(rules, b, &k.access, k.shape))),
        (_, Ident::Whole(a)) => matches(rules, m, elem, *a, b),
        (_, Ident::Keys(_)) => false,
    }
}

/// `ValSliceUnique` / `PtrSliceUnique`: every element equal to an earlier one is a
/// duplicate, reported once, in ascending index order.
pub(crate) fn unique(
    ev: &mut Eval<'_>,
    m: &ItemMatch,
    path: &PathRef<'_>,
    shape: ShapeId,
    v: Val<'_>,
) {
    let rules = ev.rules;
    let Some((elem, is_ptr)) = elem_shape(rules, shape) else {
        return;
    };
    let xs = v.array();
    let report = |ev: &mut Eval<'_>, j: usize| {
        let x = &xs[j];
        let bad = bad_value_elem(rules, elem, normalize(rules, elem, Some(x)));
        check::duplicate(&path.index(j), bad, &mut ev.out);
    };
    if xs.len() <= PAIRWISE_LIMIT {
        for j in 0..xs.len() {
            let Some(vj) = element(rules, elem, is_ptr, &xs[j]) else {
                continue;
            };
            let dup = (0..j).any(|i| {
                element(rules, elem, is_ptr, &xs[i])
                    .is_some_and(|vi| matches(rules, m, elem, vi, vj))
            });
            if dup {
                report(ev, j);
            }
        }
        return;
    }
    with_index(xs.len(), |idx| {
        for (j, x) in xs.iter().enumerate() {
            let Some(vj) = element(rules, elem, is_ptr, x) else {
                continue;
            };
            let id = ident(rules, m, vj);
            let h = ident_hash(rules, m, elem, &id);
            // Compared for real against every earlier item with the same hash.
            let earlier = idx.find(h, |i| {
                element(rules, elem, is_ptr, &xs[i])
                    .is_some_and(|vi| ident_matches(rules, m, elem, &id, vi))
            });
            if earlier.is_ok() {
                report(ev, j);
            }
            idx.insert(h, j);
        }
    });
}

/// `EachValSliceVal` / `EachPtrSliceVal`: runs `inner` on each element (nil pointer elements
/// skipped); on Update an element correlated with an old one (first match) that is
/// unchanged (or, without `equiv`, merely correlated) is skipped.
#[allow(clippy::too_many_arguments)]
pub(crate) fn each_list_val(
    ev: &mut Eval<'_>,
    matching: Option<&ItemMatch>,
    has_equiv: bool,
    inner: &Validation,
    path: &PathRef<'_>,
    shape: ShapeId,
    v: Val<'_>,
    old: Val<'_>,
) {
    let rules = ev.rules;
    let Some((elem, is_ptr)) = elem_shape(rules, shape) else {
        return;
    };
    let xs = v.array();
    let olds = old.array();
    if matches!(inner.check, Check::Immutable) && !ev.op.is_update() {
        // Immutability reports nothing outside updates: no element needs visiting.
        return;
    }
    // `distinct`: no old item matches an earlier one, so an old item at the same index
    // with identical JSON (which matches) is the first match.
    let visit = |ev: &mut Eval<'_>, idx: Option<&ItemIndex<'_>>, distinct: bool| {
        for (i, x) in xs.iter().enumerate() {
            let Some(nv) = element(rules, elem, is_ptr, x) else {
                continue;
            };
            let (ov, identical) = match matching {
                Some(_) if distinct && olds.get(i).is_some_and(|o| json_identical(x, o, 0)) => {
                    (element(rules, elem, is_ptr, &olds[i]), true)
                }
                Some(m) if !olds.is_empty() => {
                    (find_old(rules, m, elem, is_ptr, olds, idx, nv), false)
                }
                _ => (None, false),
            };
            if let Some(ov) = ov
                && ev.op.is_update()
                && (!has_equiv || identical || deep_equal(rules, elem, nv, ov))
            {
                continue;
            }
            let p = path.index(i);
            ev.call_inner(inner, &p, elem, nv, ov.unwrap_or(Val::Nil));
        }
    };
    match matching {
        Some(m) if olds.len() > PAIRWISE_LIMIT && !xs.is_empty() => {
            with_list_index(rules, m, elem, is_ptr, olds, |idx, distinct| {
                visit(ev, Some(idx), distinct)
            })
        }
        _ => visit(ev, None, false),
    }
}

/// The first old element matching `nv` (`index`: of `olds`, if built).
fn find_old<'a>(
    rules: &RuleSet,
    m: &ItemMatch,
    elem: ShapeId,
    is_ptr: bool,
    olds: &'a [Value],
    index: Option<&ItemIndex<'_>>,
    nv: Val<'_>,
) -> Option<Val<'a>> {
    let id = ident(rules, m, nv);
    let matching = |o: &'a Value| {
        element(rules, elem, is_ptr, o).filter(|ov| ident_matches(rules, m, elem, &id, *ov))
    };
    match index {
        None => olds.iter().find_map(matching),
        Some(idx) => {
            let mut found = None;
            let _ = idx.find(ident_hash(rules, m, elem, &id), |j| {
                found = matching(&olds[j]);
                found.is_some()
            });
            found
        }
    }
}

/// The item part of `ValSliceUpdate` / `PtrSliceUpdate`: `NoAddItem` reports each new item
/// without a match in the old list (at its index), `NoRemoveItem` each old item without a
/// match in the new list (at the list's path). Nil pointer items are ignored.
pub(crate) fn update_items(
    ev: &mut Eval<'_>,
    m: &ItemMatch,
    constraints: &[UpdateConstraint],
    path: &PathRef<'_>,
    shape: ShapeId,
    v: Val<'_>,
    old: Val<'_>,
) {
    let rules = ev.rules;
    let Some((elem, is_ptr)) = elem_shape(rules, shape) else {
        return;
    };
    let (xs, olds) = (v.array(), old.array());
    // Reports each item of `from` without a match in `to` (indexed when long).
    let missing = |ev: &mut Eval<'_>, from: &[Value], to: &[Value], added: bool| {
        let scan = |ev: &mut Eval<'_>, idx: Option<&ItemIndex<'_>>| {
            for (i, x) in from.iter().enumerate() {
                let Some(xv) = element(rules, elem, is_ptr, x) else {
                    continue;
                };
                if find_old(rules, m, elem, is_ptr, to, idx, xv).is_none() {
                    if added {
                        check::update_item_added(&path.index(i), &mut ev.out);
                    } else {
                        check::update_item_removed(path, &mut ev.out);
                    }
                }
            }
        };
        if to.len() > PAIRWISE_LIMIT && !from.is_empty() {
            with_list_index(rules, m, elem, is_ptr, to, |idx, _| scan(ev, Some(idx)));
        } else {
            scan(ev, None);
        }
    };
    if constraints.contains(&UpdateConstraint::NoAddItem) {
        missing(ev, xs, olds, true);
    }
    if constraints.contains(&UpdateConstraint::NoRemoveItem) {
        missing(ev, olds, xs, false);
    }
}

/// Whether the (non-nil) element `e` has every criterion's key value. A pointer key must be
/// non-nil and point to the value.
pub(crate) fn item_matches(rules: &RuleSet, criteria: &[ItemCriterion], e: Val<'_>) -> bool {
    criteria.iter().all(|c| {
        let x = field(rules, e, &c.field.access, c.field.shape);
        if x.is_nil() {
            return false;
        }
        match &c.value {
            Literal::String(s) => as_str(x) == Some(s.as_str()),
            Literal::Bool(b) => as_bool(x) == Some(*b),
            Literal::Int(i) => match rules.shape(deref(rules, c.field.shape)) {
                Shape::Int(kind) => as_int(x, *kind) == Some(*i),
                _ => false,
            },
        }
    })
}

/// `ValSliceItem` / `PtrSliceItem`: runs `inner` on the first item matching the criteria
/// (at its index), with the first matching old item; skipped on Update when that old item
/// exists and is unchanged.
#[allow(clippy::too_many_arguments)]
pub(crate) fn item(
    ev: &mut Eval<'_>,
    criteria: &[ItemCriterion],
    inner: &Validation,
    path: &PathRef<'_>,
    shape: ShapeId,
    v: Val<'_>,
    old: Val<'_>,
) {
    let rules = ev.rules;
    let Some((elem, is_ptr)) = elem_shape(rules, shape) else {
        return;
    };
    let Some((i, nv)) = find_item(rules, criteria, elem, is_ptr, v.array()) else {
        return;
    };
    let ov = find_item(rules, criteria, elem, is_ptr, old.array()).map(|(_, o)| o);
    if let Some(ov) = ov
        && ev.op.is_update()
        && deep_equal(rules, elem, nv, ov)
    {
        return;
    }
    let p = path.index(i);
    ev.call_inner(inner, &p, elem, nv, ov.unwrap_or(Val::Nil));
}

/// The first (non-nil) item matching the criteria, with its index.
fn find_item<'a>(
    rules: &RuleSet,
    criteria: &[ItemCriterion],
    elem: ShapeId,
    is_ptr: bool,
    xs: &'a [Value],
) -> Option<(usize, Val<'a>)> {
    xs.iter().enumerate().find_map(|(i, x)| {
        element(rules, elem, is_ptr, x)
            .filter(|e| item_matches(rules, criteria, *e))
            .map(|e| (i, e))
    })
}
