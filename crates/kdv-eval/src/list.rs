//! List uniqueness and old-item correlation. Small lists compare pairwise, as upstream
//! does; larger ones use a sorted hash index (one allocation per list) with the same
//! results: first-match correlation, duplicates in ascending index order.

use std::collections::hash_map::DefaultHasher;
use std::hash::Hasher;

use kdv_rules::{
    ItemCriterion, ItemMatch, Literal, RuleSet, Shape, ShapeId, UpdateConstraint, Validation,
};
use kdv_runtime::{PathRef, check};
use serde_json::Value;

use crate::eval::{Eval, bad_value_elem};
use crate::value::{Val, as_bool, as_int, as_str, deep_equal, deep_hash, deref, field, normalize};

/// Lists with at most this many items are compared pairwise (no allocation); longer lists
/// get a hash index.
pub const PAIRWISE_LIMIT: usize = 16;

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

fn item_hash(rules: &RuleSet, m: &ItemMatch, elem: ShapeId, v: Val<'_>) -> u64 {
    let mut h = DefaultHasher::new();
    match m {
        ItemMatch::Direct | ItemMatch::Semantic => deep_hash(rules, elem, v, &mut h),
        ItemMatch::Keys(keys) => {
            for k in keys {
                deep_hash(rules, k.shape, field(rules, v, &k.access, k.shape), &mut h);
            }
        }
    }
    h.finish()
}

/// (hash, index) of every non-nil element, sorted.
fn index(
    rules: &RuleSet,
    m: &ItemMatch,
    elem: ShapeId,
    is_ptr: bool,
    xs: &[Value],
) -> Vec<(u64, usize)> {
    let mut idx: Vec<(u64, usize)> = xs
        .iter()
        .enumerate()
        .filter_map(|(i, x)| {
            element(rules, elem, is_ptr, x).map(|v| (item_hash(rules, m, elem, v), i))
        })
        .collect();
    idx.sort_unstable();
    idx
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
    let idx = index(rules, m, elem, is_ptr, xs);
    let mut dups: Vec<usize> = Vec::new();
    let mut start = 0;
    while start < idx.len() {
        let mut end = start + 1;
        while end < idx.len() && idx[end].0 == idx[start].0 {
            end += 1;
        }
        // Within one hash group, indices ascend; compare for real to rule out collisions.
        for p in start + 1..end {
            let j = idx[p].1;
            let Some(vj) = element(rules, elem, is_ptr, &xs[j]) else {
                continue;
            };
            let dup = (start..p).any(|q| {
                element(rules, elem, is_ptr, &xs[idx[q].1])
                    .is_some_and(|vi| matches(rules, m, elem, vi, vj))
            });
            if dup {
                dups.push(j);
            }
        }
        start = end;
    }
    dups.sort_unstable();
    for j in dups {
        report(ev, j);
    }
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
    let old_index = match matching {
        Some(m) if olds.len() > PAIRWISE_LIMIT => Some(index(rules, m, elem, is_ptr, olds)),
        _ => None,
    };
    for (i, x) in xs.iter().enumerate() {
        let Some(nv) = element(rules, elem, is_ptr, x) else {
            continue;
        };
        let ov = match matching {
            Some(m) if !olds.is_empty() => {
                find_old(rules, m, elem, is_ptr, olds, old_index.as_deref(), nv)
            }
            _ => None,
        };
        if let Some(ov) = ov
            && ev.op.is_update()
            && (!has_equiv || deep_equal(rules, elem, nv, ov))
        {
            continue;
        }
        let p = path.index(i);
        ev.call_inner(inner, &p, elem, nv, ov.unwrap_or(Val::Nil));
    }
}

/// The first old element matching `nv`.
fn find_old<'a>(
    rules: &RuleSet,
    m: &ItemMatch,
    elem: ShapeId,
    is_ptr: bool,
    olds: &'a [Value],
    index: Option<&[(u64, usize)]>,
    nv: Val<'_>,
) -> Option<Val<'a>> {
    match index {
        None => olds.iter().find_map(|o| {
            element(rules, elem, is_ptr, o).filter(|ov| matches(rules, m, elem, *ov, nv))
        }),
        Some(idx) => {
            let h = item_hash(rules, m, elem, nv);
            let from = idx.partition_point(|&(k, _)| k < h);
            idx[from..]
                .iter()
                .take_while(|&&(k, _)| k == h)
                .find_map(|&(_, j)| {
                    element(rules, elem, is_ptr, &olds[j])
                        .filter(|ov| matches(rules, m, elem, *ov, nv))
                })
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
    if constraints.contains(&UpdateConstraint::NoAddItem) {
        let idx = (olds.len() > PAIRWISE_LIMIT).then(|| index(rules, m, elem, is_ptr, olds));
        for (i, x) in xs.iter().enumerate() {
            let Some(nv) = element(rules, elem, is_ptr, x) else {
                continue;
            };
            if find_old(rules, m, elem, is_ptr, olds, idx.as_deref(), nv).is_none() {
                check::update_item_added(&path.index(i), &mut ev.out);
            }
        }
    }
    if constraints.contains(&UpdateConstraint::NoRemoveItem) {
        let idx = (xs.len() > PAIRWISE_LIMIT).then(|| index(rules, m, elem, is_ptr, xs));
        for o in olds {
            let Some(ov) = element(rules, elem, is_ptr, o) else {
                continue;
            };
            if find_old(rules, m, elem, is_ptr, xs, idx.as_deref(), ov).is_none() {
                check::update_item_removed(path, &mut ev.out);
            }
        }
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
