//! Values of the host program read in place: a Rust value is given to CEL as a
//! [`Map::Native`] or [`List::Native`] view whose fields and items are converted when an
//! expression reaches them, so evaluating a rule over a Rust struct copies nothing (kdv's
//! derive implements [`NativeMap`] and [`ToCel`] for the structs it validates).
//!
//! A native value must read as the JSON the host value serializes to would read through
//! [`Value::from_json`]: the same present keys, iterated in the same (sorted) order, and
//! the same numbers (integers within `i64` are `int`, larger ones `double`).

use std::collections::BTreeMap;

use super::{List, Map, Str, Value};

/// A host value as a CEL value, borrowed.
pub trait ToCel {
    /// The value.
    fn to_cel(&self) -> Value<'_>;
}

/// An object or map of the host program read as a CEL map with string keys.
pub trait NativeMap {
    /// Number of present entries.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The value of a present key.
    fn get_str(&self, key: &str) -> Option<Value<'_>>;
    /// The first present entry at position `from` or later, in key order, with the position
    /// to continue from.
    fn next_entry(&self, from: usize) -> Option<(usize, &str, Value<'_>)>;
}

/// A sequence of the host program read as a CEL list.
pub trait NativeList {
    /// Number of items.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Item `i`.
    fn get(&self, i: usize) -> Option<Value<'_>>;
}

impl ToCel for bool {
    #[inline]
    fn to_cel(&self) -> Value<'_> {
        Value::Bool(*self)
    }
}

impl ToCel for String {
    #[inline]
    fn to_cel(&self) -> Value<'_> {
        Value::String(Str::Borrowed(self))
    }
}

impl ToCel for str {
    #[inline]
    fn to_cel(&self) -> Value<'_> {
        Value::String(Str::Borrowed(self))
    }
}

macro_rules! signed {
    ($($t:ty),*) => {$(
        impl ToCel for $t {
            #[inline]
            fn to_cel(&self) -> Value<'_> {
                Value::Int(*self as i64)
            }
        }
    )*};
}
signed!(i8, i16, i32, i64, isize, u8, u16, u32);

macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl ToCel for $t {
            #[inline]
            fn to_cel(&self) -> Value<'_> {
                // JSON's reading: integers past i64 are doubles.
                match i64::try_from(*self) {
                    Ok(i) => Value::Int(i),
                    Err(_) => Value::Double(*self as f64),
                }
            }
        }
    )*};
}
unsigned!(u64, usize);

impl ToCel for f64 {
    #[inline]
    fn to_cel(&self) -> Value<'_> {
        Value::Double(*self)
    }
}

impl ToCel for f32 {
    #[inline]
    fn to_cel(&self) -> Value<'_> {
        Value::Double(f64::from(*self))
    }
}

impl<T: ToCel> ToCel for Option<T> {
    #[inline]
    fn to_cel(&self) -> Value<'_> {
        match self {
            Some(v) => v.to_cel(),
            None => Value::Null,
        }
    }
}

impl<T: ToCel + ?Sized> ToCel for Box<T> {
    #[inline]
    fn to_cel(&self) -> Value<'_> {
        (**self).to_cel()
    }
}

impl<T: ToCel + ?Sized> ToCel for &T {
    #[inline]
    fn to_cel(&self) -> Value<'_> {
        (**self).to_cel()
    }
}

impl<T: ToCel + Sync> ToCel for Vec<T> {
    #[inline]
    fn to_cel(&self) -> Value<'_> {
        Value::List(List::Native(self))
    }
}

impl<T: ToCel> NativeList for Vec<T> {
    #[inline]
    fn len(&self) -> usize {
        Vec::len(self)
    }
    #[inline]
    fn get(&self, i: usize) -> Option<Value<'_>> {
        self.as_slice().get(i).map(ToCel::to_cel)
    }
}

impl<T: ToCel + Sync> ToCel for BTreeMap<String, T> {
    #[inline]
    fn to_cel(&self) -> Value<'_> {
        Value::Map(Map::Native(self))
    }
}

impl<T: ToCel> NativeMap for BTreeMap<String, T> {
    #[inline]
    fn len(&self) -> usize {
        BTreeMap::len(self)
    }
    #[inline]
    fn get_str(&self, key: &str) -> Option<Value<'_>> {
        self.get(key).map(ToCel::to_cel)
    }
    fn next_entry(&self, from: usize) -> Option<(usize, &str, Value<'_>)> {
        self.iter()
            .nth(from)
            .map(|(k, v)| (from + 1, k.as_str(), v.to_cel()))
    }
}

impl ToCel for serde_json::Value {
    #[inline]
    fn to_cel(&self) -> Value<'_> {
        Value::from_json(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Point {
        x: i32,
        label: Option<String>,
    }

    // `label` is skipped when absent, as `skip_serializing_if = "Option::is_none"` does.
    impl NativeMap for Point {
        fn len(&self) -> usize {
            1 + usize::from(self.label.is_some())
        }
        fn get_str(&self, key: &str) -> Option<Value<'_>> {
            match key {
                "x" => Some(self.x.to_cel()),
                "label" => self.label.as_ref().map(ToCel::to_cel),
                _ => None,
            }
        }
        fn next_entry(&self, from: usize) -> Option<(usize, &str, Value<'_>)> {
            let mut i = from;
            loop {
                match i {
                    0 if self.label.is_some() => return Some((1, "label", self.label.to_cel())),
                    0 => {}
                    1 => return Some((2, "x", self.x.to_cel())),
                    _ => return None,
                }
                i += 1;
            }
        }
    }

    #[test]
    fn native_values_read_as_their_json() {
        let points = [
            Point { x: 1, label: None },
            Point {
                x: 2,
                label: Some("b".into()),
            },
        ];
        let native: Vec<Value<'_>> = points.iter().map(|p| Value::Map(Map::Native(p))).collect();
        let json = serde_json::json!([{"x": 1}, {"label": "b", "x": 2}]);
        let from_json = Value::from_json(&json);
        assert!(Value::list(native.clone()).equals(&from_json).unwrap());
        let Value::Map(m) = &native[1] else { panic!() };
        let keys: Vec<String> = m
            .keys()
            .map(|k| match k {
                Value::String(s) => s.as_str().to_owned(),
                _ => String::new(),
            })
            .collect();
        assert_eq!(keys, ["label", "x"]);
        assert!(m.contains_str("label"));
        let Value::Map(m) = &native[0] else { panic!() };
        assert!(!m.contains_str("label"));
        assert_eq!(m.len(), 1);
        assert!(matches!(u64::MAX.to_cel(), Value::Double(_)));
        assert!(matches!(7u64.to_cel(), Value::Int(7)));
    }
}
