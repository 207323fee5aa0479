//! Serializing a value into an existing JSON tree, reusing the tree's strings, arrays and
//! objects: the JSON a derived `+validationRule` gives its CEL program. The result is always
//! what `serde_json::to_value` gives; serializing a value again into the tree it produced (the
//! same shape: the same keys, no longer strings or lists) allocates nothing, so generated code
//! can keep one tree per rule and validate valid objects without heap allocation.
//!
//! What this writer does not do itself (map keys other than strings, characters and 64-bit
//! integers, 128-bit numbers, serde_json's private raw-value types, an object whose keys were
//! not all written again) it leaves to `serde_json::to_value`, which then replaces the tree.

use std::fmt::{self, Write as _};

use serde::ser::{self, Serialize};
use serde_json::{Map, Number, Value};

/// Writes `v`'s JSON into `slot`: `serde_json::to_value(v)`, reusing `slot`'s allocations.
/// `false` when `v` cannot be written as JSON (`to_value` fails; `slot` is then `null`).
pub fn serialize_into<T: Serialize + ?Sized>(v: &T, slot: &mut Value) -> bool {
    if v.serialize(Slot(slot)).is_ok() {
        return true;
    }
    match serde_json::to_value(v) {
        Ok(j) => {
            *slot = j;
            true
        }
        Err(_) => {
            *slot = Value::Null;
            false
        }
    }
}

/// Why the writer handed a value to `serde_json::to_value` (never shown).
#[derive(Debug)]
pub struct Fallback;

impl fmt::Display for Fallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("value left to serde_json::to_value")
    }
}

impl std::error::Error for Fallback {}

impl ser::Error for Fallback {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        Fallback
    }
}

type Result<T = ()> = std::result::Result<T, Fallback>;

fn set_str(slot: &mut Value, s: &str) {
    match slot {
        Value::String(t) => {
            t.clear();
            t.push_str(s);
        }
        _ => *slot = Value::String(s.to_owned()),
    }
}

fn array(slot: &mut Value) -> &mut Vec<Value> {
    if !slot.is_array() {
        *slot = Value::Array(Vec::new());
    }
    match slot {
        Value::Array(a) => a,
        _ => unreachable!("made an array above"),
    }
}

fn object(slot: &mut Value) -> &mut Map<String, Value> {
    if !slot.is_object() {
        *slot = Value::Object(Map::new());
    }
    match slot {
        Value::Object(m) => m,
        _ => unreachable!("made an object above"),
    }
}

/// The value of `key` in `m`, inserted as `null` when missing.
fn entry<'m>(m: &'m mut Map<String, Value>, key: &str) -> &'m mut Value {
    if !m.contains_key(key) {
        m.insert(key.to_owned(), Value::Null);
    }
    &mut m[key]
}

/// The value of an externally tagged variant: `slot` becomes `{variant: ...}`.
fn variant<'s>(slot: &'s mut Value, variant: &str) -> &'s mut Value {
    let reuse = matches!(&*slot, Value::Object(m) if m.len() == 1 && m.contains_key(variant));
    if !reuse {
        *slot = Value::Object(Map::new());
    }
    entry(object(slot), variant)
}

/// A serializer writing into one node of the tree.
struct Slot<'s>(&'s mut Value);

impl<'s> ser::Serializer for Slot<'s> {
    type Ok = ();
    type Error = Fallback;
    type SerializeSeq = Items<'s>;
    type SerializeTuple = Items<'s>;
    type SerializeTupleStruct = Items<'s>;
    type SerializeTupleVariant = Items<'s>;
    type SerializeMap = Entries<'s>;
    type SerializeStruct = Entries<'s>;
    type SerializeStructVariant = Entries<'s>;

    fn serialize_bool(self, v: bool) -> Result {
        *self.0 = Value::Bool(v);
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result {
        *self.0 = Value::Number(Number::from(v));
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result {
        *self.0 = Value::Number(Number::from(v));
        Ok(())
    }
    fn serialize_i128(self, _v: i128) -> Result {
        Err(Fallback)
    }
    fn serialize_u128(self, _v: u128) -> Result {
        Err(Fallback)
    }
    fn serialize_f32(self, v: f32) -> Result {
        *self.0 = Value::from(v);
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result {
        *self.0 = Value::from(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result {
        set_str(self.0, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result {
        set_str(self.0, v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result {
        let a = array(self.0);
        a.clear();
        a.extend(v.iter().map(|&b| Value::Number(Number::from(b))));
        Ok(())
    }
    fn serialize_none(self) -> Result {
        *self.0 = Value::Null;
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result {
        *self.0 = Value::Null;
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _name: &'static str, _i: u32, variant: &'static str) -> Result {
        set_str(self.0, variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        value.serialize(Slot(self::variant(self.0, variant)))
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Items<'s>> {
        Ok(Items {
            items: array(self.0),
            written: 0,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Items<'s>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Items<'s>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Items<'s>> {
        Slot(self::variant(self.0, variant)).serialize_seq(Some(len))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Entries<'s>> {
        Ok(Entries {
            map: object(self.0),
            written: 0,
            pending: None,
        })
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Entries<'s>> {
        // serde_json's own number and raw-value types, which only it writes as it does.
        if name.starts_with("$serde_json::private::") {
            return Err(Fallback);
        }
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Entries<'s>> {
        Slot(self::variant(self.0, variant)).serialize_map(Some(len))
    }
    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result {
        match self.0 {
            Value::String(s) => {
                s.clear();
                write!(s, "{value}").map_err(|_| Fallback)
            }
            slot => {
                *slot = Value::String(value.to_string());
                Ok(())
            }
        }
    }
}

/// The items of an array being written; the array keeps what it had past them until `end`.
struct Items<'s> {
    items: &'s mut Vec<Value>,
    written: usize,
}

impl Items<'_> {
    fn item<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        if self.written == self.items.len() {
            self.items.push(Value::Null);
        }
        value.serialize(Slot(&mut self.items[self.written]))?;
        self.written += 1;
        Ok(())
    }
    fn finish(self) -> Result {
        self.items.truncate(self.written);
        Ok(())
    }
}

impl ser::SerializeSeq for Items<'_> {
    type Ok = ();
    type Error = Fallback;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.item(value)
    }
    fn end(self) -> Result {
        self.finish()
    }
}

impl ser::SerializeTuple for Items<'_> {
    type Ok = ();
    type Error = Fallback;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.item(value)
    }
    fn end(self) -> Result {
        self.finish()
    }
}

impl ser::SerializeTupleStruct for Items<'_> {
    type Ok = ();
    type Error = Fallback;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.item(value)
    }
    fn end(self) -> Result {
        self.finish()
    }
}

impl ser::SerializeTupleVariant for Items<'_> {
    type Ok = ();
    type Error = Fallback;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.item(value)
    }
    fn end(self) -> Result {
        self.finish()
    }
}

/// The entries of an object being written. Keys written before and not again are stale:
/// `end` then hands the whole value to `to_value` (counting written entries tells, as keys
/// are unique in what serde writes).
struct Entries<'s> {
    map: &'s mut Map<String, Value>,
    written: usize,
    /// A key given by `serialize_key` alone, waiting for its value.
    pending: Option<String>,
}

impl Entries<'_> {
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result {
        value.serialize(Slot(entry(self.map, key)))?;
        self.written += 1;
        Ok(())
    }
    fn finish(self) -> Result {
        if self.map.len() == self.written {
            Ok(())
        } else {
            Err(Fallback)
        }
    }
}

impl ser::SerializeMap for Entries<'_> {
    type Ok = ();
    type Error = Fallback;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result {
        let mut owned = String::new();
        key.serialize(Key(&mut |k: &str| {
            owned.push_str(k);
            Ok(())
        }))?;
        self.pending = Some(owned);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        let key = self.pending.take().ok_or(Fallback)?;
        self.field(&key, value)
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result {
        key.serialize(Key(&mut |k: &str| self.field(k, value)))
    }
    fn end(self) -> Result {
        self.finish()
    }
}

impl ser::SerializeStruct for Entries<'_> {
    type Ok = ();
    type Error = Fallback;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result {
        self.field(key, value)
    }
    fn skip_field(&mut self, key: &'static str) -> Result {
        self.map.remove(key);
        Ok(())
    }
    fn end(self) -> Result {
        self.finish()
    }
}

impl ser::SerializeStructVariant for Entries<'_> {
    type Ok = ();
    type Error = Fallback;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result {
        self.field(key, value)
    }
    fn skip_field(&mut self, key: &'static str) -> Result {
        self.map.remove(key);
        Ok(())
    }
    fn end(self) -> Result {
        self.finish()
    }
}

/// A map key, given to `with` as the string serde_json makes of it (strings, characters,
/// 64-bit integers and what wraps them; anything else falls back).
struct Key<'f>(&'f mut dyn FnMut(&str) -> Result);

/// A small stack buffer for integer keys.
struct Digits {
    buf: [u8; 20],
    len: usize,
}

impl fmt::Write for Digits {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let dst = self.buf.get_mut(self.len..end).ok_or(fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

impl Key<'_> {
    fn int(self, v: impl fmt::Display) -> Result {
        let mut d = Digits {
            buf: [0; 20],
            len: 0,
        };
        write!(d, "{v}").map_err(|_| Fallback)?;
        let s = std::str::from_utf8(&d.buf[..d.len]).map_err(|_| Fallback)?;
        (self.0)(s)
    }
}

macro_rules! fall_back {
    ($($f:ident($($t:ty),*)),* $(,)?) => {$(
        fn $f(self, $(_: $t),*) -> Result<Self::Ok> {
            Err(Fallback)
        }
    )*};
}

impl ser::Serializer for Key<'_> {
    type Ok = ();
    type Error = Fallback;
    type SerializeSeq = ser::Impossible<(), Fallback>;
    type SerializeTuple = ser::Impossible<(), Fallback>;
    type SerializeTupleStruct = ser::Impossible<(), Fallback>;
    type SerializeTupleVariant = ser::Impossible<(), Fallback>;
    type SerializeMap = ser::Impossible<(), Fallback>;
    type SerializeStruct = ser::Impossible<(), Fallback>;
    type SerializeStructVariant = ser::Impossible<(), Fallback>;

    fn serialize_str(self, v: &str) -> Result {
        (self.0)(v)
    }
    fn serialize_char(self, v: char) -> Result {
        (self.0)(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_i8(self, v: i8) -> Result {
        self.int(v)
    }
    fn serialize_i16(self, v: i16) -> Result {
        self.int(v)
    }
    fn serialize_i32(self, v: i32) -> Result {
        self.int(v)
    }
    fn serialize_i64(self, v: i64) -> Result {
        self.int(v)
    }
    fn serialize_u8(self, v: u8) -> Result {
        self.int(v)
    }
    fn serialize_u16(self, v: u16) -> Result {
        self.int(v)
    }
    fn serialize_u32(self, v: u32) -> Result {
        self.int(v)
    }
    fn serialize_u64(self, v: u64) -> Result {
        self.int(v)
    }
    fn serialize_unit_variant(self, _name: &'static str, _i: u32, variant: &'static str) -> Result {
        (self.0)(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result {
        value.serialize(self)
    }
    fall_back!(
        serialize_bool(bool),
        serialize_i128(i128),
        serialize_u128(u128),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
    );
    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result {
        Err(Fallback)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _i: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result {
        Err(Fallback)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(Fallback)
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(Fallback)
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(Fallback)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(Fallback)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(Fallback)
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(Fallback)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _i: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(Fallback)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;
    use serde::Serialize;
    use serde_json::json;

    use super::*;

    #[derive(Serialize, Clone, Debug)]
    #[serde(rename_all = "camelCase")]
    struct Spec {
        name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        replicas: Option<i32>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        ports: Vec<u16>,
        labels: BTreeMap<String, String>,
        by_id: BTreeMap<u32, bool>,
        mode: Mode,
        #[serde(flatten)]
        extra: BTreeMap<String, f64>,
        wide: Option<u128>,
        ratio: f32,
        letter: char,
    }

    #[derive(Serialize, Clone, Debug)]
    enum Mode {
        Off,
        Scale(i64),
        Pair(i8, String),
        Shape { w: u8, h: Option<u8> },
    }

    fn mode() -> impl Strategy<Value = Mode> {
        prop_oneof![
            Just(Mode::Off),
            any::<i64>().prop_map(Mode::Scale),
            (any::<i8>(), "[a-c]{0,3}").prop_map(|(a, b)| Mode::Pair(a, b)),
            (any::<u8>(), any::<Option<u8>>()).prop_map(|(w, h)| Mode::Shape { w, h }),
        ]
    }

    fn spec() -> impl Strategy<Value = Spec> {
        (
            "[a-z]{0,6}",
            any::<Option<i32>>(),
            proptest::collection::vec(any::<u16>(), 0..4),
            proptest::collection::btree_map("[a-c]{1,2}", "[x-z]{0,2}", 0..3),
            proptest::collection::btree_map(0u32..4, any::<bool>(), 0..3),
            mode(),
            proptest::collection::btree_map("[d-f]{1,2}", any::<f64>(), 0..3),
            prop_oneof![Just(None), Just(Some(7u128)), Just(Some(u128::MAX))],
            any::<f32>(),
            any::<char>(),
        )
            .prop_map(
                |(name, replicas, ports, labels, by_id, mode, extra, wide, ratio, letter)| Spec {
                    name,
                    replicas,
                    ports,
                    labels,
                    by_id,
                    mode,
                    extra,
                    wide,
                    ratio,
                    letter,
                },
            )
    }

    proptest! {
        /// Whatever the tree held before, the result is `to_value`'s.
        #[test]
        fn writes_what_to_value_writes(a in spec(), b in spec()) {
            let mut slot = json!({"stale": [1, 2], "name": {"x": 1}});
            for v in [&a, &b, &a] {
                match serde_json::to_value(v) {
                    Ok(want) => {
                        prop_assert!(serialize_into(v, &mut slot));
                        prop_assert_eq!(&slot, &want);
                    }
                    Err(_) => prop_assert!(!serialize_into(v, &mut slot)),
                }
            }
        }
    }

    #[test]
    fn values_serde_json_refuses_are_refused() {
        let mut slot = json!(1);
        let mut m = BTreeMap::new();
        m.insert(vec![1], 1);
        assert!(!serialize_into(&m, &mut slot));
        assert_eq!(slot, Value::Null);
    }

    #[test]
    fn the_same_shape_again_reuses_the_tree() {
        let s = Spec {
            name: "web".into(),
            replicas: Some(3),
            ports: vec![80, 443],
            labels: [("app".to_owned(), "web".to_owned())].into(),
            by_id: [(1, true)].into(),
            mode: Mode::Shape { w: 1, h: None },
            extra: [("cpu".to_owned(), 0.5)].into(),
            wide: None,
            ratio: 1.5,
            letter: 'x',
        };
        let mut slot = Value::Null;
        assert!(serialize_into(&s, &mut slot));
        let name_ptr = slot["name"].as_str().map(str::as_ptr);
        let ports_ptr = slot["ports"].as_array().map(Vec::as_ptr);
        assert!(serialize_into(&s, &mut slot));
        assert_eq!(slot["name"].as_str().map(str::as_ptr), name_ptr);
        assert_eq!(slot["ports"].as_array().map(Vec::as_ptr), ports_ptr);
        assert_eq!(slot, serde_json::to_value(&s).unwrap());
    }
}
