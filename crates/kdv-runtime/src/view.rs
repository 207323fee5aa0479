//! The borrowed value view every check reads.
//!
//! Checks are written once, generic over [`View`] (and [`ListView`], [`MapView`] for
//! collections). A view is a cheap `Copy` handle on one value *as its Go type holds it*, in
//! nilable form: a nil pointer, list or map is nil; an absent non-pointer field is its zero
//! value. The interpreter implements the traits for JSON values read through the rule IR's
//! decoding shapes (`kdv-eval`); generated code implements them for Rust types. Structural
//! questions a check cannot ask generically (which struct field is a union member, which
//! list-map keys identify an item) are answered by callbacks and by
//! [`Identity`](crate::lists::Identity), as upstream's generic Go functions take extractor
//! and match functions.
//!
//! This module also implements the views for plain Rust values (`&str`, integers, `bool`,
//! `Option<V>` as a nilable value, slices and string-keyed maps), which the doc examples and
//! tests use.

use std::collections::BTreeMap;

use crate::error::BadValue;

/// An integer as its Go type holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Int {
    /// A value of a signed type.
    Signed(i64),
    /// A value of an unsigned type.
    Unsigned(u64),
}

impl Int {
    /// The value, widened.
    #[inline]
    pub fn get(self) -> i128 {
        match self {
            Int::Signed(i) => i128::from(i),
            Int::Unsigned(u) => i128::from(u),
        }
    }

    /// The value as Go prints it in an error.
    #[inline]
    pub fn bad_value(self) -> BadValue {
        match self {
            Int::Signed(i) => BadValue::Int(i),
            Int::Unsigned(u) => BadValue::Uint(u),
        }
    }
}

/// A scalar constant from a tag payload that checks compare values with (`neq`, item
/// selectors, mode and discriminator values).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Literal {
    /// A string (quoted or an identifier in the tag).
    String(String),
    /// An integer.
    Int(i128),
    /// `true` / `false`.
    Bool(bool),
}

impl Literal {
    /// Whether the (non-nil) value `v` equals this literal: same kind and value.
    pub fn matches<'a>(&self, v: impl View<'a>) -> bool {
        match self {
            Literal::String(s) => v.as_str().is_some_and(|x| str_eq(x, s)),
            Literal::Bool(b) => v.as_bool() == Some(*b),
            Literal::Int(i) => v.as_int().is_some_and(|x| x.get() == *i),
        }
    }
}

impl std::fmt::Display for Literal {
    /// The literal as its tag wrote it, without quotes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Literal::String(s) => f.write_str(s),
            Literal::Int(i) => write!(f, "{i}"),
            Literal::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// One value as its Go type holds it (nilable form), as checks read it.
pub trait View<'a>: Copy {
    /// Nil: a nil pointer, list, map or interface, or no value at all.
    fn is_nil(self) -> bool;
    /// Items of a list, entries of a map, bytes of a byte string; 0 otherwise and when nil.
    fn len(self) -> usize;
    /// Whether [`len`](View::len) is 0.
    #[inline]
    fn is_empty(self) -> bool {
        self.len() == 0
    }
    /// Whether the value is its type's zero value (nil counts as zero).
    fn is_zero(self) -> bool;
    /// The value of an integer type (`None` when nil or not an integer).
    #[inline]
    fn as_int(self) -> Option<Int> {
        None
    }
    /// The value of a string type (`None` when nil or not a string).
    #[inline]
    fn as_str(self) -> Option<&'a str> {
        None
    }
    /// The value of a bool type (`None` when nil or not a bool).
    #[inline]
    fn as_bool(self) -> Option<bool> {
        None
    }
    /// Whether the type is a named type (`type X string`): Go prints such values
    /// JSON-encoded in errors.
    #[inline]
    fn is_named(self) -> bool {
        false
    }
    /// The value as Go prints an element in an error (`Duplicate`): scalars of unnamed types
    /// as themselves, everything else JSON-encoded.
    fn bad_value(self) -> BadValue;
    /// The nilable form JSON-encoded, as Go prints a pointer to the value (`validateFalse`):
    /// `null` when nil.
    fn nilable_bad_value(self) -> BadValue;
    /// Go's equality for ratcheting: `==` on directly comparable types, else
    /// `equality.Semantic.DeepEqual` (nil and empty collections are equal).
    fn equal(self, other: Self) -> bool;
    /// A cheap test that may prove equality (`false` proves nothing): e.g. identical JSON.
    #[inline]
    fn identical(self, _other: Self) -> bool {
        false
    }
}

/// A list value.
pub trait ListView<'a>: View<'a> {
    /// The view of one item.
    type Item: View<'a>;
    /// Item `i`, or `None` for a nil item of a list of pointers (and out of range).
    fn item(self, i: usize) -> Option<Self::Item>;
}

/// A map value with string keys.
pub trait MapView<'a>: View<'a> {
    /// The view of one value.
    type Value: View<'a>;
    /// The entries (in any order the map keeps).
    fn entries(self) -> impl Iterator<Item = (&'a str, Self::Value)>;
    /// The value of `key`.
    fn get(self, key: &str) -> Option<Self::Value>;
    /// Whether `key` is present.
    #[inline]
    fn contains_key(self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

/// String equality without a `memcmp` call for short strings (the interpreter's JSON and
/// generated code's Rust strings alike). Besides the call itself, glibc's vectorised
/// `memcmp` spends a slow masked load on the dangling pointer of an empty `String` (a
/// fault-suppression assist: on AMD EPYC, 13 comparisons of unchanged fields took 480 ns
/// instead of 20).
#[inline]
pub fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    // Two overlapping loads cover every byte of strings up to twice their width.
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        // First and last chunks: no bounds checks once the length is known.
        4..=7 => {
            a.first_chunk::<4>() == b.first_chunk::<4>()
                && a.last_chunk::<4>() == b.last_chunk::<4>()
        }
        8..=16 => {
            a.first_chunk::<8>() == b.first_chunk::<8>()
                && a.last_chunk::<8>() == b.last_chunk::<8>()
        }
        17..=32 => {
            a.first_chunk::<16>() == b.first_chunk::<16>()
                && a.last_chunk::<16>() == b.last_chunk::<16>()
        }
        _ => a == b,
    }
}

/// `BadValue` → JSON, for composite bad values of plain Rust views.
pub(crate) fn to_json(b: BadValue) -> serde_json::Value {
    match b {
        BadValue::Omitted | BadValue::Null => serde_json::Value::Null,
        BadValue::Bool(b) => b.into(),
        BadValue::Int(i) => i.into(),
        BadValue::Uint(u) => u.into(),
        BadValue::Float(f) => f.into(),
        BadValue::String(s) => s.into(),
        BadValue::Json(v) => v,
        BadValue::Encoded(text) => serde_json::from_str(&text).unwrap_or(serde_json::Value::Null),
    }
}

impl<'a> View<'a> for &'a str {
    fn is_nil(self) -> bool {
        false
    }
    fn len(self) -> usize {
        0
    }
    fn is_zero(self) -> bool {
        self.is_empty()
    }
    fn as_str(self) -> Option<&'a str> {
        Some(self)
    }
    fn bad_value(self) -> BadValue {
        BadValue::string(self)
    }
    fn nilable_bad_value(self) -> BadValue {
        BadValue::named_string(self)
    }
    fn equal(self, other: Self) -> bool {
        str_eq(self, other)
    }
}

impl<'a> View<'a> for &'a String {
    fn is_nil(self) -> bool {
        false
    }
    fn len(self) -> usize {
        0
    }
    fn is_zero(self) -> bool {
        self.is_empty()
    }
    fn as_str(self) -> Option<&'a str> {
        Some(self)
    }
    fn bad_value(self) -> BadValue {
        self.as_str().bad_value()
    }
    fn nilable_bad_value(self) -> BadValue {
        self.as_str().nilable_bad_value()
    }
    fn equal(self, other: Self) -> bool {
        str_eq(self, other)
    }
}

impl View<'_> for bool {
    fn is_nil(self) -> bool {
        false
    }
    fn len(self) -> usize {
        0
    }
    fn is_zero(self) -> bool {
        !self
    }
    fn as_bool(self) -> Option<bool> {
        Some(self)
    }
    fn bad_value(self) -> BadValue {
        BadValue::Bool(self)
    }
    fn nilable_bad_value(self) -> BadValue {
        BadValue::Json(self.into())
    }
    fn equal(self, other: Self) -> bool {
        self == other
    }
}

macro_rules! int_view {
    ($($t:ty => $variant:ident as $wide:ty),*) => {$(
        impl View<'_> for $t {
            fn is_nil(self) -> bool {
                false
            }
            fn len(self) -> usize {
                0
            }
            fn is_zero(self) -> bool {
                self == 0
            }
            fn as_int(self) -> Option<Int> {
                Some(Int::$variant(<$wide>::from(self)))
            }
            fn bad_value(self) -> BadValue {
                Int::$variant(<$wide>::from(self)).bad_value()
            }
            fn nilable_bad_value(self) -> BadValue {
                BadValue::Json(self.into())
            }
            fn equal(self, other: Self) -> bool {
                self == other
            }
        }
    )*};
}

int_view!(i8 => Signed as i64, i16 => Signed as i64, i32 => Signed as i64, i64 => Signed as i64,
    u8 => Unsigned as u64, u16 => Unsigned as u64, u32 => Unsigned as u64, u64 => Unsigned as u64);

/// A reference to a view is the same view (items of slices of views).
impl<'a, T: View<'a>> View<'a> for &'a T {
    fn is_nil(self) -> bool {
        (*self).is_nil()
    }
    fn len(self) -> usize {
        (*self).len()
    }
    fn is_zero(self) -> bool {
        (*self).is_zero()
    }
    fn as_int(self) -> Option<Int> {
        (*self).as_int()
    }
    fn as_str(self) -> Option<&'a str> {
        (*self).as_str()
    }
    fn as_bool(self) -> Option<bool> {
        (*self).as_bool()
    }
    fn is_named(self) -> bool {
        (*self).is_named()
    }
    fn bad_value(self) -> BadValue {
        (*self).bad_value()
    }
    fn nilable_bad_value(self) -> BadValue {
        (*self).nilable_bad_value()
    }
    fn equal(self, other: Self) -> bool {
        (*self).equal(*other)
    }
}

/// `Option<V>` is the nilable form of `V`: `None` is nil (a Go pointer).
impl<'a, V: View<'a>> View<'a> for Option<V> {
    fn is_nil(self) -> bool {
        self.is_none_or(View::is_nil)
    }
    fn len(self) -> usize {
        self.map_or(0, View::len)
    }
    fn is_zero(self) -> bool {
        self.is_none_or(View::is_zero)
    }
    fn as_int(self) -> Option<Int> {
        self?.as_int()
    }
    fn as_str(self) -> Option<&'a str> {
        self?.as_str()
    }
    fn as_bool(self) -> Option<bool> {
        self?.as_bool()
    }
    fn is_named(self) -> bool {
        self.is_some_and(View::is_named)
    }
    fn bad_value(self) -> BadValue {
        self.map_or(BadValue::Null, View::bad_value)
    }
    fn nilable_bad_value(self) -> BadValue {
        self.map_or(BadValue::Null, View::nilable_bad_value)
    }
    fn equal(self, other: Self) -> bool {
        match (self, other) {
            (None, None) => true,
            (Some(a), Some(b)) => a.equal(b),
            _ => false,
        }
    }
    fn identical(self, other: Self) -> bool {
        matches!((self, other), (Some(a), Some(b)) if a.identical(b))
    }
}

impl<'a, T> View<'a> for &'a [T]
where
    &'a T: View<'a>,
{
    fn is_nil(self) -> bool {
        false
    }
    fn len(self) -> usize {
        <[T]>::len(self)
    }
    fn is_zero(self) -> bool {
        self.is_empty()
    }
    fn bad_value(self) -> BadValue {
        self.nilable_bad_value()
    }
    fn nilable_bad_value(self) -> BadValue {
        BadValue::Json(
            self.iter()
                .map(|x| to_json(x.nilable_bad_value()))
                .collect(),
        )
    }
    fn equal(self, other: Self) -> bool {
        <[T]>::len(self) == <[T]>::len(other) && self.iter().zip(other).all(|(a, b)| a.equal(b))
    }
}

impl<'a, T> ListView<'a> for &'a [T]
where
    &'a T: View<'a>,
{
    type Item = &'a T;
    fn item(self, i: usize) -> Option<&'a T> {
        self.get(i)
    }
}

impl<'a, V> View<'a> for &'a BTreeMap<String, V>
where
    &'a V: View<'a>,
{
    fn is_nil(self) -> bool {
        false
    }
    fn len(self) -> usize {
        BTreeMap::len(self)
    }
    fn is_zero(self) -> bool {
        self.is_empty()
    }
    fn bad_value(self) -> BadValue {
        self.nilable_bad_value()
    }
    fn nilable_bad_value(self) -> BadValue {
        BadValue::Json(
            self.iter()
                .map(|(k, v)| (k.clone(), to_json(v.nilable_bad_value())))
                .collect::<serde_json::Map<_, _>>()
                .into(),
        )
    }
    fn equal(self, other: Self) -> bool {
        BTreeMap::len(self) == BTreeMap::len(other)
            && self
                .iter()
                .all(|(k, a)| other.get(k).is_some_and(|b| a.equal(b)))
    }
}

impl<'a, V> MapView<'a> for &'a BTreeMap<String, V>
where
    &'a V: View<'a>,
{
    type Value = &'a V;
    fn entries(self) -> impl Iterator<Item = (&'a str, &'a V)> {
        self.iter().map(|(k, v)| (k.as_str(), v))
    }
    fn get(self, key: &str) -> Option<&'a V> {
        BTreeMap::get(self, key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_rust_values_are_views() {
        let items = ["a".to_string(), "b".to_string()];
        let list: &[String] = &items;
        assert_eq!(View::len(list), 2);
        assert!(list.item(1).is_some_and(|s| View::as_str(s) == Some("b")));
        assert!(list.item(2).is_none());
        assert!(Option::<i32>::None.is_nil() && Option::<i32>::None.is_zero());
        assert_eq!(Some(3i32).as_int(), Some(Int::Signed(3)));
        assert_eq!(7u16.as_int().map(Int::get), Some(7));
        assert!(!Some(0i64).is_nil() && Some(0i64).is_zero());
        assert_eq!(list.nilable_bad_value().to_string(), r#"["a","b"]"#);
        let mut m = BTreeMap::new();
        m.insert("k".to_string(), 1i64);
        assert_eq!(
            MapView::get(&m, "k").and_then(View::as_int),
            Some(Int::Signed(1))
        );
        assert_eq!((&m).nilable_bad_value().to_string(), r#"{"k":1}"#);
        assert!(Literal::Int(1).matches(1u8) && !Literal::Bool(true).matches(1u8));
        assert!(Literal::String("x".into()).matches("x"));
    }
}
