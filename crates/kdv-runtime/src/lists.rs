//! Lists (`+k8s:listType=set|map`, `+k8s:listMapKey`, `+k8s:unique`): item identity,
//! uniqueness (upstream's `ValSliceUnique`/`PtrSliceUnique`), nil items (`PtrSliceNoNils`),
//! and the lookup that correlates new items with old ones for ratcheting and update rules.
//!
//! Items are "the same item" by an [`Identity`]: list-map key fields, or the whole value
//! for sets. Tiny lists are compared pairwise, as upstream does; longer ones get a hash
//! index of item positions (on the stack up to [`STACK_INDEX_LIMIT`] items, one allocation
//! beyond) with the same results: the first match wins, duplicates are reported in ascending
//! index order. Crafted hash collisions only degrade the index to pairwise comparison.

use std::hash::Hasher;
use std::marker::PhantomData;

use crate::error::FieldError;
use crate::path::PathRef;
use crate::sink::ErrorSink;
use crate::view::{ListView, View};

/// Lists with at most this many items are compared pairwise; longer lists get a hash index.
pub const PAIRWISE_LIMIT: usize = 4;

/// Hash indexes of lists with at most this many items live on the stack; longer lists
/// allocate one table.
pub const STACK_INDEX_LIMIT: usize = 32;

/// Table slots on the stack: a power of two, at least twice [`STACK_INDEX_LIMIT`].
const STACK_SLOTS: usize = 64;
const _: () = assert!(STACK_SLOTS.is_power_of_two() && STACK_SLOTS >= 2 * STACK_INDEX_LIMIT);

/// How the items of a list are recognised as "the same item": list-map keys, or the whole
/// value. Implemented by the interpreter over the IR's item matching and by generated code
/// over key fields.
pub trait Identity<'a, T> {
    /// What identifies an item, read once per item.
    type Key: Copy;
    /// The identity of `item`.
    fn key(&self, item: T) -> Self::Key;
    /// Hashes a key: keys that are [`same`](Identity::same) must hash alike.
    fn hash(&self, key: &Self::Key, h: &mut ItemHasher);
    /// Whether two keys identify the same item.
    fn same(&self, a: &Self::Key, b: &Self::Key) -> bool;
}

/// A fast, non-cryptographic hasher for item identities (a multiply-rotate mix per eight
/// bytes, a final avalanche so the low bits index the table well).
#[derive(Debug, Default, Clone, Copy)]
pub struct ItemHasher(u64);

impl ItemHasher {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;

    /// A hasher in its initial state.
    #[inline]
    pub fn new() -> ItemHasher {
        ItemHasher(0)
    }

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
            let mut word = [0u8; 8];
            word.copy_from_slice(c);
            self.mix(u64::from_le_bytes(word));
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
    #[inline]
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

    #[inline]
    fn insert(&mut self, h: u64, item: usize) {
        if let Err(pos) = self.find(h, |_| false) {
            self.put(pos, h, item);
        }
    }

    /// Puts `item` into the free slot `pos` that [`find`](ItemIndex::find) returned.
    #[inline]
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
        // Tables of long lists come from a per-thread pool, so validating a valid object
        // allocates nothing once the pool holds a table as large (lookups nest: a pool, not
        // one buffer).
        let mut table = INDEX_POOL
            .try_with(|p| p.borrow_mut().pop())
            .ok()
            .flatten()
            .unwrap_or_default();
        table.clear();
        table.resize(len, Slot::default());
        let r = f(&mut ItemIndex { slots: &mut table });
        // A pool for the thread's deepest nesting; oversized tables are dropped.
        if table.capacity() <= MAX_POOLED_SLOTS {
            let _ = INDEX_POOL.try_with(|p| {
                let mut p = p.borrow_mut();
                if p.len() < 8 {
                    p.push(table);
                }
            });
        }
        r
    }
}

/// Slots of the largest table the pool keeps (a list of 64k items).
const MAX_POOLED_SLOTS: usize = 1 << 17;

thread_local! {
    static INDEX_POOL: std::cell::RefCell<Vec<Vec<Slot>>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn hash_key<'a, T, I: Identity<'a, T>>(identity: &I, key: &I::Key) -> u64 {
    let mut h = ItemHasher::new();
    identity.hash(key, &mut h);
    h.finish()
}

/// Finds items of one list by identity: the first matching (non-nil) item, pairwise for
/// short lists, through a hash index otherwise. Built by [`with_lookup`].
pub struct Lookup<'x, 'a, L, I> {
    list: L,
    identity: &'x I,
    index: Option<&'x ItemIndex<'x>>,
    distinct: bool,
    _items: PhantomData<&'a ()>,
}

impl<'a, L: ListView<'a>, I: Identity<'a, L::Item>> Lookup<'_, 'a, L, I> {
    /// The first item identified by `key`, with its position.
    pub fn find(&self, key: &I::Key) -> Option<(usize, L::Item)> {
        let same = |j: usize| {
            self.list
                .item(j)
                .filter(|o| self.identity.same(key, &self.identity.key(*o)))
        };
        match self.index {
            None => (0..self.list.len()).find_map(|j| same(j).map(|o| (j, o))),
            Some(idx) => {
                let mut found = None;
                let _ = idx.find(hash_key(self.identity, key), |j| {
                    found = same(j).map(|o| (j, o));
                    found.is_some()
                });
                found
            }
        }
    }

    /// Whether no item of the list is the same item as an earlier one, as far as known:
    /// `true` only when the index was built and found none (pairwise lookups say `false`).
    /// With distinct items, an item equal to the one being looked up is its first match.
    pub fn distinct(&self) -> bool {
        self.distinct
    }
}

/// Runs `f` with a [`Lookup`] over `list`: pairwise when the list has at most
/// [`PAIRWISE_LIMIT`] items, else through a hash index (built once, on the stack for short
/// lists).
pub fn with_lookup<'a, L, I, R>(
    list: L,
    identity: &I,
    f: impl FnOnce(&Lookup<'_, 'a, L, I>) -> R,
) -> R
where
    L: ListView<'a>,
    I: Identity<'a, L::Item>,
{
    let n = list.len();
    if n <= PAIRWISE_LIMIT {
        return f(&Lookup {
            list,
            identity,
            index: None,
            distinct: false,
            _items: PhantomData,
        });
    }
    with_index(n, |idx| {
        let mut distinct = true;
        for i in 0..n {
            let Some(v) = list.item(i) else { continue };
            let key = identity.key(v);
            let h = hash_key(identity, &key);
            let earlier = if distinct {
                idx.find(h, |j| {
                    list.item(j)
                        .is_some_and(|o| identity.same(&key, &identity.key(o)))
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
        f(&Lookup {
            list,
            identity,
            index: Some(idx),
            distinct,
            _items: PhantomData,
        })
    })
}

/// `ValSliceUnique` / `PtrSliceUnique` (`+k8s:listType=set|map`, `+k8s:unique`): every item
/// that is the same item as an earlier one is a duplicate → `Duplicate(item)` at
/// `path[i]`, no origin, reported once each in ascending index order. Nil items are
/// skipped.
pub fn unique<'a, L, I>(path: &PathRef<'_>, list: L, identity: &I, out: &mut impl ErrorSink)
where
    L: ListView<'a>,
    I: Identity<'a, L::Item>,
{
    let n = list.len();
    let mut report = |j: usize, item: L::Item| {
        out.fail(|| FieldError::duplicate(&path.index(j), item.bad_value()));
    };
    if n <= PAIRWISE_LIMIT {
        for j in 0..n {
            let Some(vj) = list.item(j) else { continue };
            let kj = identity.key(vj);
            let dup = (0..j).any(|i| {
                list.item(i)
                    .is_some_and(|vi| identity.same(&identity.key(vi), &kj))
            });
            if dup {
                report(j, vj);
            }
        }
        return;
    }
    with_index(n, |idx| {
        for j in 0..n {
            let Some(vj) = list.item(j) else { continue };
            let key = identity.key(vj);
            let h = hash_key(identity, &key);
            // Compared for real against every earlier item with the same hash.
            let earlier = idx.find(h, |i| {
                list.item(i)
                    .is_some_and(|vi| identity.same(&key, &identity.key(vi)))
            });
            if earlier.is_ok() {
                report(j, vj);
            }
            idx.insert(h, j);
        }
    });
}

/// `PtrSliceNoNils`: each nil item of a list of pointers → `Required("")` at `path[i]`.
pub fn no_nil_items<'a>(path: &PathRef<'_>, list: impl ListView<'a>, out: &mut impl ErrorSink) {
    for i in 0..list.len() {
        if list.item(i).is_none() {
            out.fail(|| FieldError::required(&path.index(i), ""));
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::error::ErrorList;

    /// Items identified by their first character (as a list-map key would).
    pub(crate) struct FirstChar;

    impl<'a> Identity<'a, &'a String> for FirstChar {
        type Key = Option<char>;
        fn key(&self, item: &'a String) -> Option<char> {
            item.chars().next()
        }
        fn hash(&self, key: &Option<char>, h: &mut ItemHasher) {
            h.write_u64(key.map_or(0, u64::from));
        }
        fn same(&self, a: &Option<char>, b: &Option<char>) -> bool {
            a == b
        }
    }

    pub(crate) fn strings(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn duplicates_pairwise_and_indexed_agree() {
        let root = PathRef::Nil;
        for n in [3usize, 40] {
            let mut items: Vec<String> = (0..n)
                .map(|i| format!("{}-{i}", (b'a' + (i % 26) as u8) as char))
                .collect();
            items.push("a-again".into());
            let list: &[String] = &items;
            let mut out = ErrorList::new();
            unique(&root, list, &FirstChar, &mut out);
            let want: Vec<usize> = (0..items.len())
                .filter(|&j| (0..j).any(|i| items[i].chars().next() == items[j].chars().next()))
                .collect();
            let got: Vec<String> = out.iter().map(|e| e.field.to_string()).collect();
            let want: Vec<String> = want.iter().map(|j| format!("[{j}]")).collect();
            assert_eq!(got, want, "n={n}");
            assert!(
                out.iter()
                    .all(|e| e.to_string().contains("Duplicate value"))
            );
        }
    }

    #[test]
    fn lookup_finds_first_match_and_knows_distinct() {
        let long = strings(&["a1", "b1", "c1", "a2", "d1", "e1"]);
        let list: &[String] = &long;
        with_lookup(list, &FirstChar, |l| {
            assert!(!l.distinct());
            assert_eq!(l.find(&Some('a')).map(|(i, _)| i), Some(0));
            assert_eq!(
                l.find(&Some('e')).map(|(i, s)| (i, s.as_str())),
                Some((5, "e1"))
            );
            assert!(l.find(&Some('z')).is_none());
        });
        let distinct = strings(&["a", "b", "c", "d", "e"]);
        let list: &[String] = &distinct;
        with_lookup(list, &FirstChar, |l| assert!(l.distinct()));
        let short = strings(&["a", "b"]);
        let list: &[String] = &short;
        with_lookup(list, &FirstChar, |l| {
            assert!(!l.distinct());
            assert_eq!(l.find(&Some('b')).map(|(i, _)| i), Some(1));
        });
        assert_eq!(View::len(list), 2);
    }

    #[test]
    fn nil_items() {
        let root = PathRef::Nil;
        let l = root.child("l");
        let items = [Some(1i64), None, Some(2), None];
        let list: &[Option<i64>] = &items;
        let mut out = ErrorList::new();
        no_nil_items(&l, OptionItems(list), &mut out);
        let texts: Vec<String> = out.iter().map(ToString::to_string).collect();
        assert_eq!(texts, ["l[1]: Required value", "l[3]: Required value"]);
    }

    /// A list of pointers: nil items are `None`.
    #[derive(Clone, Copy)]
    struct OptionItems<'a>(&'a [Option<i64>]);

    impl<'a> View<'a> for OptionItems<'a> {
        fn is_nil(self) -> bool {
            false
        }
        fn len(self) -> usize {
            self.0.len()
        }
        fn is_zero(self) -> bool {
            self.0.is_empty()
        }
        fn bad_value(self) -> crate::BadValue {
            crate::BadValue::Null
        }
        fn nilable_bad_value(self) -> crate::BadValue {
            crate::BadValue::Null
        }
        fn equal(self, other: Self) -> bool {
            self.0 == other.0
        }
    }

    impl<'a> ListView<'a> for OptionItems<'a> {
        type Item = i64;
        fn item(self, i: usize) -> Option<i64> {
            self.0.get(i).copied().flatten()
        }
    }
}
