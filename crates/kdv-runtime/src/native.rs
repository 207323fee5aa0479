//! Views of Rust values as generated code reads them (`#[derive(Validate)]`).
//!
//! Generated code holds every value in its *nilable* form ([`AsView::Nilable`]): a struct
//! `T` as `Option<&T>` (`None` is a nil pointer, or no old value), a `String` as
//! `Option<&String>`, a `Vec<T>` as a [`ListOf`] that may be nil, and so on, so that the new
//! value and the old value of a field always have the same view type whatever the field's
//! Rust type (`T`, `Option<T>`, `Box<T>`). The `kdv-runtime` checks are generic over
//! [`View`]; this module makes the standard library's types views, and generated code adds
//! the user's structs, newtypes and unit enums.
//!
//! Semantics follow the Go types the Rust frontend maps Rust types onto (see
//! `kdv-rust-model`): `Option<T>` is a pointer, except that an optional list or map is a
//! nil-able list or map, whose nil and empty forms are equal for ratcheting
//! (`equality.Semantic.DeepEqual`).

use std::collections::{BTreeMap, HashMap};

use crate::error::BadValue;
use crate::lists::{Identity, ItemHasher};
use crate::view::{Int, ListView, MapView, View, to_json};

/// A view type with a nil value (every [`AsView::Nilable`] view).
pub trait NilView: Copy {
    /// The nil value.
    fn nil() -> Self;
}

impl<V: Copy> NilView for Option<V> {
    #[inline]
    fn nil() -> Self {
        None
    }
}

impl<T> NilView for ListOf<'_, T> {
    #[inline]
    fn nil() -> Self {
        ListOf { items: None }
    }
}

impl<M, T> NilView for MapOf<'_, M, T> {
    #[inline]
    fn nil() -> Self {
        MapOf {
            map: None,
            value: std::marker::PhantomData,
        }
    }
}

impl<V: NilView> NilView for Named<V> {
    #[inline]
    fn nil() -> Self {
        Named(V::nil())
    }
}

impl NilView for AnyView<'_> {
    #[inline]
    fn nil() -> Self {
        AnyView(None)
    }
}

/// The nil value of `like`'s view type.
#[inline(always)]
pub fn nil_of<V: NilView>(_like: V) -> V {
    V::nil()
}

/// A Rust type whose values checks can read.
pub trait AsView {
    /// The view of a present value.
    type View<'a>: View<'a>
    where
        Self: 'a;
    /// The view of a value that may be absent (`None`: nil).
    type Nilable<'a>: View<'a> + NilView
    where
        Self: 'a;
    /// The nilable view of `v`.
    fn nilable(v: Option<&Self>) -> Self::Nilable<'_>;
}

impl AsView for String {
    type View<'a> = &'a String;
    type Nilable<'a> = Option<&'a String>;
    #[inline]
    fn nilable(v: Option<&Self>) -> Option<&String> {
        v
    }
}

impl AsView for bool {
    type View<'a> = bool;
    type Nilable<'a> = Option<bool>;
    #[inline]
    fn nilable(v: Option<&Self>) -> Option<bool> {
        v.copied()
    }
}

macro_rules! copy_as_view {
    ($($t:ty),*) => {$(
        impl AsView for $t {
            type View<'a> = $t;
            type Nilable<'a> = Option<$t>;
            #[inline]
            fn nilable(v: Option<&Self>) -> Option<$t> {
                v.copied()
            }
        }
    )*};
}

copy_as_view!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

impl AsView for isize {
    type View<'a> = i64;
    type Nilable<'a> = Option<i64>;
    #[inline]
    fn nilable(v: Option<&Self>) -> Option<i64> {
        // isize is at most 64 bits on every supported target.
        v.map(|x| *x as i64)
    }
}

impl AsView for usize {
    type View<'a> = u64;
    type Nilable<'a> = Option<u64>;
    #[inline]
    fn nilable(v: Option<&Self>) -> Option<u64> {
        // usize is at most 64 bits on every supported target.
        v.map(|x| *x as u64)
    }
}

macro_rules! float_view {
    ($($t:ty),*) => {$(
        impl View<'_> for $t {
            fn is_nil(self) -> bool {
                false
            }
            fn len(self) -> usize {
                0
            }
            fn is_zero(self) -> bool {
                self == 0.0
            }
            fn bad_value(self) -> BadValue {
                BadValue::Float(f64::from(self))
            }
            fn nilable_bad_value(self) -> BadValue {
                serde_json::Number::from_f64(f64::from(self))
                    .map_or(BadValue::Null, |n| BadValue::Json(n.into()))
            }
            fn equal(self, other: Self) -> bool {
                self == other
            }
        }
    )*};
}

float_view!(f32, f64);

/// `Option<T>`: a pointer to `T` (for lists and maps: the nil-able list or map itself).
impl<T: AsView> AsView for Option<T> {
    type View<'a>
        = T::Nilable<'a>
    where
        T: 'a;
    type Nilable<'a>
        = T::Nilable<'a>
    where
        T: 'a;
    #[inline]
    fn nilable(v: Option<&Self>) -> T::Nilable<'_> {
        T::nilable(v.and_then(Option::as_ref))
    }
}

/// `Box<T>` is `T`.
impl<T: AsView> AsView for Box<T> {
    type View<'a>
        = T::View<'a>
    where
        T: 'a;
    type Nilable<'a>
        = T::Nilable<'a>
    where
        T: 'a;
    #[inline]
    fn nilable(v: Option<&Self>) -> T::Nilable<'_> {
        T::nilable(v.map(|b| &**b))
    }
}

/// A list of `T` (a Go slice): nil when absent.
pub struct ListOf<'a, T> {
    items: Option<&'a Vec<T>>,
}

impl<T> Clone for ListOf<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for ListOf<'_, T> {}

impl<T: AsView> AsView for Vec<T> {
    type View<'a>
        = ListOf<'a, T>
    where
        T: 'a;
    type Nilable<'a>
        = ListOf<'a, T>
    where
        T: 'a;
    #[inline]
    fn nilable(v: Option<&Self>) -> ListOf<'_, T> {
        ListOf { items: v }
    }
}

impl<'a, T: AsView> ListOf<'a, T> {
    /// The items (none when nil).
    #[inline]
    pub fn slice(self) -> &'a [T] {
        self.items.map_or(&[], Vec::as_slice)
    }

    /// The list (none when nil).
    #[inline]
    pub fn vec(self) -> Option<&'a Vec<T>> {
        self.items
    }
}

impl<'a, T: AsView> View<'a> for ListOf<'a, T> {
    #[inline]
    fn is_nil(self) -> bool {
        self.items.is_none()
    }
    #[inline]
    fn len(self) -> usize {
        self.slice().len()
    }
    #[inline]
    fn is_zero(self) -> bool {
        self.slice().is_empty()
    }
    fn bad_value(self) -> BadValue {
        self.nilable_bad_value()
    }
    fn nilable_bad_value(self) -> BadValue {
        match self.items {
            None => BadValue::Null,
            Some(items) => BadValue::Json(
                items
                    .iter()
                    .map(|x| to_json(T::nilable(Some(x)).nilable_bad_value()))
                    .collect(),
            ),
        }
    }
    /// Nil and empty lists are equal (`equality.Semantic.DeepEqual`).
    fn equal(self, other: Self) -> bool {
        let (a, b) = (self.slice(), other.slice());
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| T::nilable(Some(x)).equal(T::nilable(Some(y))))
    }
    #[inline]
    fn identical(self, other: Self) -> bool {
        match (self.items, other.items) {
            (Some(a), Some(b)) => std::ptr::eq(a.as_slice(), b.as_slice()),
            _ => false,
        }
    }
}

impl<'a, T: AsView> ListView<'a> for ListOf<'a, T> {
    type Item = T::Nilable<'a>;
    #[inline]
    fn item(self, i: usize) -> Option<T::Nilable<'a>> {
        let v = T::nilable(Some(self.slice().get(i)?));
        // A nil item of a list of pointers (`Vec<Option<T>>`).
        (!v.is_nil()).then_some(v)
    }
}

/// Map entries as a slice-like source (`BTreeMap` or `HashMap` with `String` keys).
pub trait StringKeyed<T> {
    /// The number of entries.
    fn count(&self) -> usize;
    /// The value of `key`.
    fn lookup(&self, key: &str) -> Option<&T>;
    /// The entries, in key order.
    fn pairs<'s>(&'s self) -> impl Iterator<Item = (&'s String, &'s T)>
    where
        T: 's;
    /// The entries, in the order the map keeps (for order-blind uses such as equality).
    fn pairs_any_order<'s>(&'s self) -> impl Iterator<Item = (&'s String, &'s T)>
    where
        T: 's;
}

impl<T> StringKeyed<T> for BTreeMap<String, T> {
    fn count(&self) -> usize {
        self.len()
    }
    fn lookup(&self, key: &str) -> Option<&T> {
        self.get(key)
    }
    fn pairs<'s>(&'s self) -> impl Iterator<Item = (&'s String, &'s T)>
    where
        T: 's,
    {
        self.iter()
    }
    fn pairs_any_order<'s>(&'s self) -> impl Iterator<Item = (&'s String, &'s T)>
    where
        T: 's,
    {
        self.iter()
    }
}

/// Maps up to this size are walked in key order by selection (no allocation); larger ones
/// through a sorted vector of their entries.
const SORT_BY_SELECTION: usize = 32;

/// A `HashMap`'s entries in key order: errors come in one order whatever the hasher, the
/// order of a `BTreeMap` and of the interpreter's JSON objects.
enum SortedPairs<'s, T, H> {
    Small {
        map: &'s HashMap<String, T, H>,
        last: Option<&'s String>,
        left: usize,
    },
    Large(std::vec::IntoIter<(&'s String, &'s T)>),
}

impl<'s, T, H> Iterator for SortedPairs<'s, T, H> {
    type Item = (&'s String, &'s T);
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            SortedPairs::Small { map, last, left } => {
                if *left == 0 {
                    return None;
                }
                // The smallest key after the last one returned (keys are distinct).
                let mut best: Option<(&'s String, &'s T)> = None;
                for (k, v) in map.iter() {
                    if last.is_some_and(|l| k <= l) {
                        continue;
                    }
                    if best.is_none_or(|(b, _)| k < b) {
                        best = Some((k, v));
                    }
                }
                *left -= 1;
                *last = best.map(|(k, _)| k);
                best
            }
            SortedPairs::Large(it) => it.next(),
        }
    }
}

impl<T, H: std::hash::BuildHasher> StringKeyed<T> for HashMap<String, T, H> {
    fn count(&self) -> usize {
        self.len()
    }
    fn lookup(&self, key: &str) -> Option<&T> {
        self.get(key)
    }
    fn pairs<'s>(&'s self) -> impl Iterator<Item = (&'s String, &'s T)>
    where
        T: 's,
    {
        if self.len() <= SORT_BY_SELECTION {
            SortedPairs::Small {
                map: self,
                last: None,
                left: self.len(),
            }
        } else {
            let mut all: Vec<(&String, &T)> = self.iter().collect();
            all.sort_unstable_by(|a, b| a.0.cmp(b.0));
            SortedPairs::Large(all.into_iter())
        }
    }
    fn pairs_any_order<'s>(&'s self) -> impl Iterator<Item = (&'s String, &'s T)>
    where
        T: 's,
    {
        self.iter()
    }
}

/// A map with string keys and values `T` (a Go `map[string]T`): nil when absent.
pub struct MapOf<'a, M, T> {
    map: Option<&'a M>,
    value: std::marker::PhantomData<fn() -> T>,
}

impl<M, T> Clone for MapOf<'_, M, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<M, T> Copy for MapOf<'_, M, T> {}

impl<T: AsView> AsView for BTreeMap<String, T> {
    type View<'a>
        = MapOf<'a, Self, T>
    where
        T: 'a;
    type Nilable<'a>
        = MapOf<'a, Self, T>
    where
        T: 'a;
    #[inline]
    fn nilable(v: Option<&Self>) -> MapOf<'_, Self, T> {
        MapOf {
            map: v,
            value: std::marker::PhantomData,
        }
    }
}

impl<T: AsView, H: std::hash::BuildHasher> AsView for HashMap<String, T, H> {
    type View<'a>
        = MapOf<'a, Self, T>
    where
        Self: 'a;
    type Nilable<'a>
        = MapOf<'a, Self, T>
    where
        Self: 'a;
    #[inline]
    fn nilable(v: Option<&Self>) -> MapOf<'_, Self, T> {
        MapOf {
            map: v,
            value: std::marker::PhantomData,
        }
    }
}

impl<'a, M, T> MapOf<'a, M, T> {
    /// The map (none when nil).
    #[inline]
    pub fn map(self) -> Option<&'a M> {
        self.map
    }
}

impl<'a, M: StringKeyed<T>, T: AsView + 'a> View<'a> for MapOf<'a, M, T> {
    #[inline]
    fn is_nil(self) -> bool {
        self.map.is_none()
    }
    #[inline]
    fn len(self) -> usize {
        self.map.map_or(0, StringKeyed::count)
    }
    #[inline]
    fn is_zero(self) -> bool {
        self.len() == 0
    }
    fn bad_value(self) -> BadValue {
        self.nilable_bad_value()
    }
    fn nilable_bad_value(self) -> BadValue {
        let Some(m) = self.map else {
            return BadValue::Null;
        };
        // Go's encoding/json writes map keys sorted.
        let mut entries: Vec<(&String, &T)> = m.pairs().collect();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        BadValue::Json(serde_json::Value::Object(
            entries
                .into_iter()
                .map(|(k, v)| (k.clone(), to_json(T::nilable(Some(v)).nilable_bad_value())))
                .collect(),
        ))
    }
    /// Nil and empty maps are equal (`equality.Semantic.DeepEqual`).
    fn equal(self, other: Self) -> bool {
        self.len() == other.len()
            && self
                .map
                .into_iter()
                .flat_map(|m| m.pairs_any_order())
                .all(|(k, a)| {
                    other
                        .map
                        .and_then(|m| m.lookup(k))
                        .is_some_and(|b| T::nilable(Some(a)).equal(T::nilable(Some(b))))
                })
    }
    #[inline]
    fn identical(self, other: Self) -> bool {
        match (self.map, other.map) {
            (Some(a), Some(b)) => std::ptr::eq(a, b),
            _ => false,
        }
    }
}

impl<'a, M: StringKeyed<T>, T: AsView + 'a> MapView<'a> for MapOf<'a, M, T> {
    type Value = T::Nilable<'a>;
    fn entries(self) -> impl Iterator<Item = (&'a str, T::Nilable<'a>)> {
        self.map
            .into_iter()
            .flat_map(|m| m.pairs())
            .map(|(k, v)| (k.as_str(), T::nilable(Some(v))))
    }
    #[inline]
    fn get(self, key: &str) -> Option<T::Nilable<'a>> {
        Some(T::nilable(Some(self.map?.lookup(key)?)))
    }
}

/// A value of a named type (a newtype `struct X(String)` or a unit enum, Go's
/// `type X string`): Go prints named strings JSON-encoded.
#[derive(Clone, Copy)]
pub struct Named<V>(pub V);

impl<'a, V: View<'a>> View<'a> for Named<V> {
    #[inline]
    fn is_nil(self) -> bool {
        self.0.is_nil()
    }
    #[inline]
    fn len(self) -> usize {
        self.0.len()
    }
    #[inline]
    fn is_zero(self) -> bool {
        self.0.is_zero()
    }
    #[inline]
    fn as_int(self) -> Option<Int> {
        self.0.as_int()
    }
    #[inline]
    fn as_str(self) -> Option<&'a str> {
        self.0.as_str()
    }
    #[inline]
    fn as_bool(self) -> Option<bool> {
        self.0.as_bool()
    }
    #[inline]
    fn is_named(self) -> bool {
        self.0.as_str().is_some()
    }
    fn bad_value(self) -> BadValue {
        if self.0.as_str().is_some() {
            self.0.nilable_bad_value()
        } else {
            self.0.bad_value()
        }
    }
    fn nilable_bad_value(self) -> BadValue {
        self.0.nilable_bad_value()
    }
    #[inline]
    fn equal(self, other: Self) -> bool {
        self.0.equal(other.0)
    }
    #[inline]
    fn identical(self, other: Self) -> bool {
        self.0.identical(other.0)
    }
}

impl<'a, L: ListView<'a>> ListView<'a> for Named<L> {
    type Item = L::Item;
    #[inline]
    fn item(self, i: usize) -> Option<L::Item> {
        self.0.item(i)
    }
}

impl<'a, M: MapView<'a>> MapView<'a> for Named<M> {
    type Value = M::Value;
    fn entries(self) -> impl Iterator<Item = (&'a str, M::Value)> {
        self.0.entries()
    }
    #[inline]
    fn get(self, key: &str) -> Option<M::Value> {
        self.0.get(key)
    }
}

/// Any JSON value (`serde_json::Value`, Go's `any`): nil when absent or `null`.
#[derive(Clone, Copy)]
pub struct AnyView<'a>(pub Option<&'a serde_json::Value>);

impl AsView for serde_json::Value {
    type View<'a> = AnyView<'a>;
    type Nilable<'a> = AnyView<'a>;
    #[inline]
    fn nilable(v: Option<&Self>) -> AnyView<'_> {
        AnyView(v)
    }
}

impl<'a> View<'a> for AnyView<'a> {
    fn is_nil(self) -> bool {
        self.0.is_none_or(serde_json::Value::is_null)
    }
    fn len(self) -> usize {
        match self.0 {
            Some(serde_json::Value::Array(a)) => a.len(),
            Some(serde_json::Value::Object(o)) => o.len(),
            _ => 0,
        }
    }
    fn is_zero(self) -> bool {
        self.is_nil()
    }
    fn bad_value(self) -> BadValue {
        self.nilable_bad_value()
    }
    fn nilable_bad_value(self) -> BadValue {
        self.0.map_or(BadValue::Null, |v| BadValue::Json(v.clone()))
    }
    fn equal(self, other: Self) -> bool {
        match (self.0, other.0) {
            (Some(a), Some(b)) => a == b,
            (a, b) => {
                a.is_none_or(serde_json::Value::is_null) && b.is_none_or(serde_json::Value::is_null)
            }
        }
    }
}

/// How an [`Opaque`] value compares and prints: chosen where the type is known (Go's
/// `equality.Semantic.DeepEqual` through `PartialEq`, JSON through `Serialize`, when the
/// type has them).
pub struct OpaqueOps<T: ?Sized> {
    /// Equality for ratcheting.
    pub eq: fn(&T, &T) -> bool,
    /// The JSON form, for errors.
    pub json: fn(&T) -> serde_json::Value,
}

impl<T: ?Sized> Clone for OpaqueOps<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: ?Sized> Copy for OpaqueOps<T> {}

/// A value of a type kdv cannot see into (a type of another crate, such as a k8s-openapi
/// type): nil when absent; checks that need no knowledge of the type (presence,
/// immutability, update constraints) apply to it.
pub struct Opaque<'a, T> {
    /// The value, `None` when absent.
    pub value: Option<&'a T>,
    /// How it compares and prints.
    pub ops: OpaqueOps<T>,
}

impl<T> Clone for Opaque<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Opaque<'_, T> {}

impl<'a, T> View<'a> for Opaque<'a, T> {
    #[inline]
    fn is_nil(self) -> bool {
        self.value.is_none()
    }
    #[inline]
    fn len(self) -> usize {
        0
    }
    #[inline]
    fn is_zero(self) -> bool {
        self.value.is_none()
    }
    fn bad_value(self) -> BadValue {
        self.nilable_bad_value()
    }
    fn nilable_bad_value(self) -> BadValue {
        self.value
            .map_or(BadValue::Null, |v| BadValue::Json((self.ops.json)(v)))
    }
    fn equal(self, other: Self) -> bool {
        match (self.value, other.value) {
            (None, None) => true,
            (Some(a), Some(b)) => std::ptr::eq(a, b) || (self.ops.eq)(a, b),
            _ => false,
        }
    }
    #[inline]
    fn identical(self, other: Self) -> bool {
        matches!((self.value, other.value), (Some(a), Some(b)) if std::ptr::eq(a, b))
    }
}

impl<T> NilView for Opaque<'_, T> {
    #[inline]
    fn nil() -> Self {
        Opaque {
            value: None,
            ops: OpaqueOps {
                eq: |_, _| false,
                json: |_| serde_json::Value::Null,
            },
        }
    }
}

/// A list of values kdv cannot see into (`Vec<T>` of another crate's type): nil when
/// absent; its items are [`Opaque`].
pub struct OpaqueList<'a, T> {
    items: Option<&'a [T]>,
    ops: OpaqueOps<T>,
}

impl<T> Clone for OpaqueList<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for OpaqueList<'_, T> {}

impl<'a, T> OpaqueList<'a, T> {
    /// The list view of `items` (`None`: nil).
    pub fn new(items: Option<&'a [T]>, ops: OpaqueOps<T>) -> Self {
        OpaqueList { items, ops }
    }

    fn slice(self) -> &'a [T] {
        self.items.unwrap_or(&[])
    }
}

impl<'a, T> View<'a> for OpaqueList<'a, T> {
    #[inline]
    fn is_nil(self) -> bool {
        self.items.is_none()
    }
    #[inline]
    fn len(self) -> usize {
        self.slice().len()
    }
    #[inline]
    fn is_zero(self) -> bool {
        self.slice().is_empty()
    }
    fn bad_value(self) -> BadValue {
        self.nilable_bad_value()
    }
    fn nilable_bad_value(self) -> BadValue {
        match self.items {
            None => BadValue::Null,
            Some(items) => BadValue::Json(items.iter().map(|x| (self.ops.json)(x)).collect()),
        }
    }
    fn equal(self, other: Self) -> bool {
        let (a, b) = (self.slice(), other.slice());
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (self.ops.eq)(x, y))
    }
    #[inline]
    fn identical(self, other: Self) -> bool {
        matches!((self.items, other.items), (Some(a), Some(b)) if std::ptr::eq(a, b))
    }
}

impl<'a, T> ListView<'a> for OpaqueList<'a, T> {
    type Item = Opaque<'a, T>;
    #[inline]
    fn item(self, i: usize) -> Option<Opaque<'a, T>> {
        Some(Opaque {
            value: Some(self.slice().get(i)?),
            ops: self.ops,
        })
    }
}

impl<T> NilView for OpaqueList<'_, T> {
    #[inline]
    fn nil() -> Self {
        OpaqueList {
            items: None,
            ops: OpaqueOps {
                eq: |_, _| false,
                json: |_| serde_json::Value::Null,
            },
        }
    }
}

/// Hashes a (key) view for item identity: scalars by value; other values by their length
/// only (equal values still hash equal; identity then compares them with
/// [`View::equal`]).
pub fn hash_view<'a>(v: impl View<'a>, h: &mut ItemHasher) {
    use std::hash::Hasher;
    if v.is_nil() {
        h.write_u8(0);
    } else if let Some(s) = v.as_str() {
        h.write_u8(1);
        h.write(s.as_bytes());
    } else if let Some(i) = v.as_int() {
        h.write_u8(2);
        h.write(&i.get().to_le_bytes());
    } else if let Some(b) = v.as_bool() {
        h.write_u8(3 + u8::from(b));
    } else {
        h.write_u8(5);
        h.write_usize(v.len());
    }
}

/// Item identity by the whole item (`listType=set`, `unique=set`, `+k8s:eachVal` without
/// keys).
pub struct WholeItem;

impl<'a, T: View<'a>> Identity<'a, T> for WholeItem {
    type Key = T;
    #[inline]
    fn key(&self, item: T) -> T {
        item
    }
    #[inline]
    fn hash(&self, key: &T, h: &mut ItemHasher) {
        hash_view(*key, h);
    }
    #[inline]
    fn same(&self, a: &T, b: &T) -> bool {
        View::equal(*a, *b)
    }
}

/// Views of the key fields of a list-map item, as a tuple.
pub trait KeyViews<'a>: Copy {
    /// Hashes every key.
    fn hash_keys(&self, h: &mut ItemHasher);
    /// Whether every key equals.
    fn same_keys(&self, other: &Self) -> bool;
}

macro_rules! key_views {
    ($(($($v:ident $i:tt),+)),*) => {$(
        impl<'a, $($v: View<'a>),+> KeyViews<'a> for ($($v,)+) {
            #[inline]
            fn hash_keys(&self, h: &mut ItemHasher) {
                $(hash_view(self.$i, h);)+
            }
            #[inline]
            fn same_keys(&self, other: &Self) -> bool {
                true $(&& self.$i.equal(other.$i))+
            }
        }
    )*};
}

key_views!((A 0), (A 0, B 1), (A 0, B 1, C 2), (A 0, B 1, C 2, D 3),
    (A 0, B 1, C 2, D 3, E 4), (A 0, B 1, C 2, D 3, E 4, F 5));

/// Item identity by list-map keys: `F` reads an item's key views.
pub struct ByKeys<F>(pub F);

impl<'a, T, K: KeyViews<'a>, F: Fn(T) -> K> Identity<'a, T> for ByKeys<F> {
    type Key = K;
    #[inline]
    fn key(&self, item: T) -> K {
        (self.0)(item)
    }
    #[inline]
    fn hash(&self, key: &K, h: &mut ItemHasher) {
        key.hash_keys(h);
    }
    #[inline]
    fn same(&self, a: &K, b: &K) -> bool {
        a.same_keys(b)
    }
}

/// A view's value as serde writes it: what a `+validationRule` of generated code reads, the
/// same JSON the value serializes to (and the interpreter reads).
pub trait SerdeJson {
    /// Writes the JSON of the value into `slot`, reusing its allocations
    /// ([`crate::json_reuse`]); `false` when it is nil (no value, as an absent field) or has
    /// no JSON form.
    fn serde_json_into(&self, slot: &mut serde_json::Value) -> bool;
}

impl<T: serde::Serialize> SerdeJson for Option<T> {
    fn serde_json_into(&self, slot: &mut serde_json::Value) -> bool {
        self.as_ref()
            .is_some_and(|v| crate::json_reuse::serialize_into(v, slot))
    }
}

impl<T: serde::Serialize> SerdeJson for ListOf<'_, T> {
    fn serde_json_into(&self, slot: &mut serde_json::Value) -> bool {
        self.items
            .is_some_and(|v| crate::json_reuse::serialize_into(v, slot))
    }
}

impl<M: serde::Serialize, T> SerdeJson for MapOf<'_, M, T> {
    fn serde_json_into(&self, slot: &mut serde_json::Value) -> bool {
        self.map
            .is_some_and(|v| crate::json_reuse::serialize_into(v, slot))
    }
}

impl<V: SerdeJson> SerdeJson for Named<V> {
    fn serde_json_into(&self, slot: &mut serde_json::Value) -> bool {
        self.0.serde_json_into(slot)
    }
}

impl SerdeJson for AnyView<'_> {
    fn serde_json_into(&self, slot: &mut serde_json::Value) -> bool {
        match self.0 {
            Some(v) if !v.is_null() => crate::json_reuse::serialize_into(v, slot),
            _ => false,
        }
    }
}

/// The JSON form of a field's value, for a struct's JSON rendering in errors.
pub fn json_of<'a>(v: impl View<'a>) -> serde_json::Value {
    to_json(v.nilable_bad_value())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nilable_forms() {
        let v: Vec<String> = vec!["a".into()];
        let l = <Vec<String>>::nilable(Some(&v));
        assert_eq!(l.len(), 1);
        assert_eq!(l.item(0).and_then(View::as_str), Some("a"));
        let none = <Vec<String>>::nilable(None);
        let empty: Vec<String> = Vec::new();
        assert!(none.is_nil() && none.equal(<Vec<String>>::nilable(Some(&empty))));
        let o: Option<Box<i32>> = Some(Box::new(3));
        assert_eq!(<Option<Box<i32>>>::nilable(Some(&o)), Some(3));
        assert_eq!(<Option<Box<i32>>>::nilable(Some(&None)), None);
        let mut m = BTreeMap::new();
        m.insert("k".to_string(), 1i64);
        let mv = <BTreeMap<String, i64>>::nilable(Some(&m));
        assert_eq!(mv.get("k"), Some(Some(1)));
        assert_eq!(mv.nilable_bad_value().to_string(), r#"{"k":1}"#);
        assert!(Named("x").is_named() && Named("x").bad_value().to_string() == r#""x""#);
        assert!(!Named(3i32).is_named());
        assert_eq!(
            <Vec<i32>>::nilable(Some(&vec![1, 2]))
                .nilable_bad_value()
                .to_string(),
            "[1,2]"
        );
    }

    /// A `HashMap` is walked in key order, small (selection) and large (sorted vector)
    /// alike, as a `BTreeMap` and a JSON object are.
    #[test]
    fn hash_maps_iterate_in_key_order() {
        for n in [0, 1, 2, 5, SORT_BY_SELECTION, SORT_BY_SELECTION + 1, 100] {
            let m: HashMap<String, usize> = (0..n).map(|i| (format!("k{i:03}"), i)).collect();
            let b: BTreeMap<String, usize> = m.clone().into_iter().collect();
            let hv = <HashMap<String, usize>>::nilable(Some(&m));
            let bv = <BTreeMap<String, usize>>::nilable(Some(&b));
            let he: Vec<(&str, Option<u64>)> = hv.entries().collect();
            let be: Vec<(&str, Option<u64>)> = bv.entries().collect();
            assert_eq!(he, be, "{n} entries");
            assert!(hv.equal(hv) && hv.len() == n);
        }
    }
}
