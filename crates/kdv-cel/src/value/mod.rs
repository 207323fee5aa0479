//! Runtime values.
//!
//! A [`Value<'a>`] may borrow from the data it was read from (`'a`): strings, lists and maps
//! read out of a `serde_json::Value` document are views into it, so walking a document costs no
//! allocation per field access. Values built during evaluation are shared (`Arc`), so cloning a
//! value never copies its contents.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::types::Kind;

mod error;
mod format;
pub mod native;
mod number;
pub mod time;
pub mod typed;

pub use error::EvalError;
use number::{cmp_i64_f64, cmp_u64_f64};
pub use number::{double_to_i64_lossless, double_to_u64_lossless, format_double};
pub use time::{Duration, Timestamp};
use typed::{TypedList, TypedMap};

/// A string value: borrowed from the input or the program, or shared.
#[derive(Clone)]
pub enum Str<'a> {
    /// Borrowed from the evaluated data or the program's constants.
    Borrowed(&'a str),
    /// Built during evaluation.
    Shared(Arc<str>),
}

impl Str<'_> {
    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        match self {
            Str::Borrowed(s) => s,
            Str::Shared(s) => s,
        }
    }
}

impl std::ops::Deref for Str<'_> {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Debug for Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// A byte-string value: borrowed or shared.
#[derive(Clone)]
pub enum Bytes<'a> {
    /// Borrowed from the program's constants or the data.
    Borrowed(&'a [u8]),
    /// Built during evaluation.
    Shared(Arc<[u8]>),
}

impl Bytes<'_> {
    /// The bytes.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Borrowed(b) => b,
            Bytes::Shared(b) => b,
        }
    }
}

impl std::ops::Deref for Bytes<'_> {
    type Target = [u8];
    #[inline]
    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl fmt::Debug for Bytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b{:?}", String::from_utf8_lossy(self.as_slice()))
    }
}

/// A CEL value.
#[derive(Clone, Debug, Default)]
pub enum Value<'a> {
    /// `null`.
    #[default]
    Null,
    /// `bool`.
    Bool(bool),
    /// `int`.
    Int(i64),
    /// `uint`.
    Uint(u64),
    /// `double`.
    Double(f64),
    /// `string`.
    String(Str<'a>),
    /// `bytes`.
    Bytes(Bytes<'a>),
    /// `list`.
    List(List<'a>),
    /// `map`.
    Map(Map<'a>),
    /// A type value (`int`, `list`, `google.protobuf.Timestamp`, ...).
    Type(RtType),
    /// `google.protobuf.Duration`.
    Duration(Duration),
    /// `google.protobuf.Timestamp`.
    Timestamp(Timestamp),
    /// `optional_type`: `None` is `optional.none()`.
    Optional(Option<Arc<Value<'a>>>),
    /// A value of a library-defined type (`net.IP`, `kubernetes.Quantity`, ...).
    Opaque(Arc<dyn OpaqueValue>),
}

/// Values of library-defined types (Kubernetes `net.IP`, `kubernetes.Quantity`, ...).
pub trait OpaqueValue: fmt::Debug + Send + Sync {
    /// The CEL type name (what `type(x)` shows).
    fn type_name(&self) -> &str;
    /// How the value prints (`Value`'s `Display`, cel-go's `types.Format`): for Kubernetes'
    /// types, what their Go `String()` method returns (`1Gi`, `10.0.0.1`, `1.2.3`).
    fn format(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
    /// CEL equality with another opaque value (values of other types are never equal).
    fn equals(&self, other: &dyn OpaqueValue) -> bool;
    /// For downcasting in library functions.
    fn as_any(&self) -> &dyn std::any::Any;
    /// Ordering, for types that support `<`; `None` = not ordered.
    fn compare(&self, _other: &dyn OpaqueValue) -> Option<Ordering> {
        None
    }
    /// Size used by the runtime cost tracker.
    fn cost_size(&self) -> u64 {
        1
    }
}

/// A type as a runtime value: what `type(x)` returns and what type identifiers evaluate to
/// (CEL type values carry no parameters at run time). Not a classification of its own:
/// built-in types are identified by their [`Kind`]; every other type (library types,
/// messages) by its name, which its kind alone does not tell apart.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RtType {
    /// A built-in type (`int`, `list`, `google.protobuf.Timestamp`, `optional_type`, `type`,
    /// `dyn`, ...): one of the kinds [`Kind::from_builtin_name`] knows.
    Builtin(Kind),
    /// Any other named type (library types, messages).
    Named(Arc<str>),
}

impl RtType {
    /// cel-go's name of the type.
    pub fn name(&self) -> &str {
        match self {
            RtType::Builtin(kind) => kind.name(),
            RtType::Named(n) => n,
        }
    }

    /// The type named `name`, for the built-in type identifiers.
    pub fn from_name(name: &str) -> Option<RtType> {
        Kind::from_builtin_name(name).map(RtType::Builtin)
    }
}

impl fmt::Display for RtType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Result of evaluating something.
pub type EvalResult<'a> = Result<Value<'a>, EvalError>;

/// A list: owned elements, or a view of a JSON array.
#[derive(Clone)]
pub enum List<'a> {
    /// Elements built during evaluation (or program constants).
    Owned(Arc<Vec<Value<'a>>>),
    /// A JSON array of the evaluated document.
    Json(&'a [serde_json::Value]),
    /// A JSON array read through its schema ([`typed`]): items converted when reached, and
    /// the list type's equality and `+`.
    Typed(&'a Vec<serde_json::Value>, &'a TypedList),
    /// The result of `+` on a list with set or map-list semantics: keeps them.
    Merged(Arc<Vec<Value<'a>>>, &'a TypedList),
    /// A sequence of the host program ([`native`]): items converted when reached.
    Native(&'a (dyn native::NativeList + Sync)),
}

impl fmt::Debug for List<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> List<'a> {
    /// An owned list of `values`.
    pub fn new(values: Vec<Value<'a>>) -> List<'a> {
        List::Owned(Arc::new(values))
    }

    /// Number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        match self {
            List::Owned(v) | List::Merged(v, _) => v.len(),
            List::Json(v) => v.len(),
            List::Typed(v, _) => v.len(),
            List::Native(v) => v.len(),
        }
    }

    /// No elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i`. An element of a [`List::Typed`] whose conversion fails is given
    /// unconverted; [`List::try_get`] gives the error.
    #[inline]
    pub fn get(&self, i: usize) -> Option<Value<'a>> {
        match self {
            List::Owned(v) | List::Merged(v, _) => v.get(i).cloned(),
            List::Json(v) => v.get(i).map(Value::from_json),
            List::Typed(v, t) => v.get(i).map(|j| t.items.value_or_raw(j)),
            List::Native(v) => v.get(i),
        }
    }

    /// Element `i`, or the error its conversion gives (see [`typed`]).
    #[inline]
    pub fn try_get(&self, i: usize) -> Option<Result<Value<'a>, EvalError>> {
        match self {
            List::Typed(v, t) => v.get(i).map(|j| t.items.value(j)),
            _ => self.get(i).map(Ok),
        }
    }

    /// The elements in order.
    pub fn iter(&self) -> ListIter<'_, 'a> {
        ListIter { list: self, i: 0 }
    }

    /// Owned copy of the elements (shared when already owned).
    pub fn to_vec(&self) -> Vec<Value<'a>> {
        self.iter().collect()
    }
}

/// Iterator over a [`List`].
pub struct ListIter<'l, 'a> {
    list: &'l List<'a>,
    i: usize,
}

impl<'a> Iterator for ListIter<'_, 'a> {
    type Item = Value<'a>;
    #[inline]
    fn next(&mut self) -> Option<Value<'a>> {
        let v = self.list.get(self.i)?;
        self.i += 1;
        Some(v)
    }
}

/// A map key: CEL map keys are bool, int, uint or string; int and uint keys with the same
/// numeric value are the same key.
#[derive(Clone, Debug)]
pub enum Key<'a> {
    /// `bool` key.
    Bool(bool),
    /// `int` key.
    Int(i64),
    /// `uint` key.
    Uint(u64),
    /// `string` key.
    String(Str<'a>),
}

impl<'a> Key<'a> {
    /// The key as a value.
    pub fn to_value(&self) -> Value<'a> {
        match self {
            Key::Bool(b) => Value::Bool(*b),
            Key::Int(i) => Value::Int(*i),
            Key::Uint(u) => Value::Uint(*u),
            Key::String(s) => Value::String(s.clone()),
        }
    }

    /// The value as a key: `Ok(None)` for doubles that are no integer (no key can match),
    /// an error for types that can never be keys.
    pub fn from_value(v: &Value<'a>) -> Result<Option<Key<'a>>, EvalError> {
        Ok(Some(match v {
            Value::Bool(b) => Key::Bool(*b),
            Value::Int(i) => Key::Int(*i),
            Value::Uint(u) => Key::Uint(*u),
            Value::String(s) => Key::String(s.clone()),
            Value::Double(d) => {
                if let Some(i) = double_to_i64_lossless(*d) {
                    Key::Int(i)
                } else if let Some(u) = double_to_u64_lossless(*d) {
                    Key::Uint(u)
                } else {
                    return Ok(None);
                }
            }
            _ => {
                return Err(EvalError::new(format!(
                    "unsupported key type: {}",
                    v.type_of()
                )));
            }
        }))
    }

    fn num(&self) -> Option<i128> {
        match self {
            Key::Int(i) => Some(*i as i128),
            Key::Uint(u) => Some(*u as i128),
            _ => None,
        }
    }
}

impl PartialEq for Key<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Key::Bool(a), Key::Bool(b)) => a == b,
            (Key::String(a), Key::String(b)) => a.as_str() == b.as_str(),
            _ => match (self.num(), other.num()) {
                (Some(a), Some(b)) => a == b,
                _ => false,
            },
        }
    }
}

impl Eq for Key<'_> {}

impl Hash for Key<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            Key::Bool(b) => {
                0u8.hash(state);
                b.hash(state)
            }
            Key::Int(_) | Key::Uint(_) => {
                1u8.hash(state);
                self.num().hash(state)
            }
            Key::String(s) => {
                2u8.hash(state);
                s.as_str().hash(state)
            }
        }
    }
}

impl fmt::Display for Key<'_> {
    /// Go `%v` rendering, as used in `no such key: %v`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Bool(b) => write!(f, "{b}"),
            Key::Int(i) => write!(f, "{i}"),
            Key::Uint(u) => write!(f, "{u}"),
            Key::String(s) => f.write_str(s),
        }
    }
}

/// Maps with more entries than this get a hash index.
const MAP_INDEX_THRESHOLD: usize = 8;

/// End of a hash chain.
const CHAIN_END: u32 = u32::MAX;

/// The entries of a map built during evaluation, in insertion order (cel-go iterates map
/// literals in the order written).
#[derive(Clone, Default)]
pub struct OwnedMap<'a> {
    entries: Vec<(Key<'a>, Value<'a>)>,
    index: Option<MapIndex>,
}

/// Hash index of a large map: key hash → first entry, chained through `next` (parallel to the
/// entries). Keyed by hash rather than by `Key` so that keys of any lifetime can be looked up.
#[derive(Clone, Default)]
struct MapIndex {
    heads: HashMap<u64, u32>,
    next: Vec<u32>,
}

fn key_hash(key: &Key<'_>) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut h);
    h.finish()
}

impl fmt::Debug for OwnedMap<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

impl<'a> OwnedMap<'a> {
    /// An empty map.
    pub fn new() -> OwnedMap<'a> {
        OwnedMap::default()
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// No entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Inserts a new key; `Err(())` if the key is present.
    #[allow(clippy::result_unit_err)]
    pub fn insert_new(&mut self, key: Key<'a>, value: Value<'a>) -> Result<(), ()> {
        if self.position(&key).is_some() {
            return Err(());
        }
        let i = self.entries.len() as u32;
        if let Some(index) = &mut self.index {
            let prev = index.heads.insert(key_hash(&key), i).unwrap_or(CHAIN_END);
            index.next.push(prev);
        }
        self.entries.push((key, value));
        if self.index.is_none() && self.entries.len() > MAP_INDEX_THRESHOLD {
            let mut index = MapIndex::default();
            for (i, (k, _)) in self.entries.iter().enumerate() {
                let prev = index
                    .heads
                    .insert(key_hash(k), i as u32)
                    .unwrap_or(CHAIN_END);
                index.next.push(prev);
            }
            self.index = Some(index);
        }
        Ok(())
    }

    fn position(&self, key: &Key<'_>) -> Option<usize> {
        match &self.index {
            Some(index) => {
                let mut i = *index.heads.get(&key_hash(key))?;
                while i != CHAIN_END {
                    if self.entries[i as usize].0 == *key {
                        return Some(i as usize);
                    }
                    i = index.next[i as usize];
                }
                None
            }
            None => self.entries.iter().position(|(k, _)| k == key),
        }
    }

    /// The value for `key`.
    pub fn get(&self, key: &Key<'_>) -> Option<&Value<'a>> {
        self.position(key).map(|i| &self.entries[i].1)
    }

    /// The value for a string key.
    pub fn get_str(&self, key: &str) -> Option<&Value<'a>> {
        match &self.index {
            Some(_) => self.get(&Key::String(Str::Borrowed(key))),
            None => self.entries.iter().find_map(|(k, v)| match k {
                Key::String(s) if s.as_str() == key => Some(v),
                _ => None,
            }),
        }
    }

    /// Entries in insertion order.
    pub fn entries(&self) -> &[(Key<'a>, Value<'a>)] {
        &self.entries
    }
}

/// Objects with at most this many fields are searched linearly.
const LINEAR_FIELDS: usize = 8;

/// The value of field `key` of a JSON object. Small objects are scanned, comparing lengths
/// first: cheaper than the ordered search, which calls `memcmp` for every key it passes.
#[inline]
pub(crate) fn json_field<'a>(
    m: &'a serde_json::Map<String, serde_json::Value>,
    key: &str,
) -> Option<&'a serde_json::Value> {
    if m.len() > LINEAR_FIELDS {
        return m.get(key);
    }
    m.iter()
        .find(|(k, _)| k.len() == key.len() && k.as_bytes() == key.as_bytes())
        .map(|(_, v)| v)
}

/// Equality of variable names: names of 4 to 8 bytes (`self`, `oldSelf`) in two overlapping
/// loads rather than a call to `memcmp`.
#[inline]
pub(crate) fn name_eq(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if (4..=8).contains(&n) {
        let word = |s: &[u8], i: usize| u32::from_le_bytes([s[i], s[i + 1], s[i + 2], s[i + 3]]);
        return word(a, 0) == word(b, 0) && word(a, n - 4) == word(b, n - 4);
    }
    a == b
}

/// A map: owned entries, or a view of a JSON object.
#[derive(Clone)]
pub enum Map<'a> {
    /// Entries built during evaluation (or program constants).
    Owned(Arc<OwnedMap<'a>>),
    /// A JSON object of the evaluated document.
    Json(&'a serde_json::Map<String, serde_json::Value>),
    /// A JSON object read through its schema ([`typed`]): an object with properties (field
    /// names unescaped, null fields absent) or a map, values converted when reached.
    Typed(&'a serde_json::Map<String, serde_json::Value>, &'a TypedMap),
    /// An object or map of the host program ([`native`]): values converted when reached.
    Native(&'a (dyn native::NativeMap + Sync)),
}

impl fmt::Debug for Map<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Map::Owned(m) => fmt::Debug::fmt(m, f),
            Map::Json(m) | Map::Typed(m, _) => fmt::Debug::fmt(m, f),
            Map::Native(_) => f.debug_map().entries(self.entries()).finish(),
        }
    }
}

impl<'a> Map<'a> {
    /// Number of entries.
    pub fn len(&self) -> usize {
        match self {
            Map::Owned(m) => m.len(),
            Map::Json(m) | Map::Typed(m, _) => m.len(),
            Map::Native(m) => m.len(),
        }
    }

    /// No entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value for a string key (field selection `m.f`). A value of a [`Map::Typed`] whose
    /// conversion fails is given as `null`; [`Map::find`] gives the error.
    #[inline]
    pub fn get_str(&self, key: &str) -> Option<Value<'a>> {
        match self {
            Map::Owned(m) => m.get_str(key).cloned(),
            Map::Json(m) => json_field(m, key).map(Value::from_json),
            Map::Typed(m, t) => typed::find(m, t, key).map(|r| r.unwrap_or(Value::Null)),
            Map::Native(m) => m.get_str(key),
        }
    }

    /// The value for a string key, or the error its conversion gives (upstream's `Find`: for
    /// an object read through its schema, `key` is a CEL field name, unescaped, and a null
    /// field is absent).
    #[inline]
    pub fn find(&self, key: &str) -> Option<Result<Value<'a>, EvalError>> {
        match self {
            Map::Typed(m, t) => typed::find(m, t, key),
            _ => self.get_str(key).map(Ok),
        }
    }

    /// Whether the map has this string key.
    #[inline]
    pub fn contains_str(&self, key: &str) -> bool {
        match self {
            Map::Owned(m) => m.get_str(key).is_some(),
            Map::Json(m) => m.contains_key(key),
            Map::Typed(m, t) => typed::contains(m, t, key),
            Map::Native(m) => m.get_str(key).is_some(),
        }
    }

    /// The value for a key value (index `m[k]`), with CEL's numeric key equivalence;
    /// an error for keys of unsupported types.
    pub fn get(&self, key: &Value<'_>) -> Result<Option<Value<'a>>, EvalError> {
        if let Value::String(s) = key {
            return Ok(self.get_str(s));
        }
        let Some(k) = Key::from_value(key)? else {
            return Ok(None);
        };
        Ok(match self {
            Map::Owned(m) => m.get(&k).cloned(),
            Map::Json(_) | Map::Typed(..) | Map::Native(_) => None,
        })
    }

    /// The keys in iteration order.
    pub fn keys(&self) -> impl Iterator<Item = Value<'a>> + '_ {
        self.entries().map(|(k, _)| k)
    }

    /// The entries in iteration order.
    pub fn entries(&self) -> MapEntries<'_, 'a> {
        match self {
            Map::Owned(m) => MapEntries::Owned(m.entries.iter()),
            Map::Json(m) => MapEntries::Json(m.iter()),
            Map::Typed(m, t) => MapEntries::Typed(m.iter(), t),
            Map::Native(m) => MapEntries::Native(*m, 0),
        }
    }
}

/// Iterator over the entries of a [`Map`].
pub enum MapEntries<'m, 'a> {
    /// Over owned entries.
    Owned(std::slice::Iter<'m, (Key<'a>, Value<'a>)>),
    /// Over a JSON object.
    Json(serde_json::map::Iter<'a>),
    /// Over a JSON object read through its schema.
    Typed(serde_json::map::Iter<'a>, &'a TypedMap),
    /// Over a host object or map, from a position.
    Native(&'a (dyn native::NativeMap + Sync), usize),
}

impl<'a> Iterator for MapEntries<'_, 'a> {
    type Item = (Value<'a>, Value<'a>);
    #[inline]
    fn next(&mut self) -> Option<(Value<'a>, Value<'a>)> {
        match self {
            MapEntries::Owned(it) => it.next().map(|(k, v)| (k.to_value(), v.clone())),
            MapEntries::Json(it) => it
                .next()
                .map(|(k, v)| (Value::String(Str::Borrowed(k)), Value::from_json(v))),
            MapEntries::Typed(it, t) => it.find_map(|(k, v)| typed::entry(k, v, t)),
            MapEntries::Native(m, from) => {
                let m: &'a (dyn native::NativeMap + Sync) = *m;
                let (next, k, v) = m.next_entry(*from)?;
                *from = next;
                Some((Value::String(Str::Borrowed(k)), v))
            }
        }
    }
}

impl<'a> Value<'a> {
    /// The CEL value of a JSON node, borrowing strings, arrays and objects. Integral numbers
    /// that fit an i64 are `int`, other numbers `double` (Kubernetes' unstructured decoding).
    #[inline]
    pub fn from_json(v: &'a serde_json::Value) -> Value<'a> {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => match n.as_i64() {
                Some(i) => Value::Int(i),
                None => Value::Double(n.as_f64().unwrap_or(f64::NAN)),
            },
            serde_json::Value::String(s) => Value::String(Str::Borrowed(s)),
            serde_json::Value::Array(a) => Value::List(List::Json(a)),
            serde_json::Value::Object(o) => Value::Map(Map::Json(o)),
        }
    }

    /// A shared string value.
    pub fn string(s: impl Into<Arc<str>>) -> Value<'a> {
        Value::String(Str::Shared(s.into()))
    }

    /// A shared bytes value.
    pub fn bytes(b: impl Into<Arc<[u8]>>) -> Value<'a> {
        Value::Bytes(Bytes::Shared(b.into()))
    }

    /// An owned list value.
    pub fn list(values: Vec<Value<'a>>) -> Value<'a> {
        Value::List(List::new(values))
    }

    /// `optional.of(v)`.
    pub fn optional_of(v: Value<'a>) -> Value<'a> {
        Value::Optional(Some(Arc::new(v)))
    }

    /// The value's kind: what runtime overloads dispatch on.
    #[inline]
    pub fn kind(&self) -> Kind {
        match self {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Int(_) => Kind::Int,
            Value::Uint(_) => Kind::Uint,
            Value::Double(_) => Kind::Double,
            Value::String(_) => Kind::String,
            Value::Bytes(_) => Kind::Bytes,
            Value::List(_) => Kind::List,
            Value::Map(_) => Kind::Map,
            Value::Type(_) => Kind::Type,
            Value::Duration(_) => Kind::Duration,
            Value::Timestamp(_) => Kind::Timestamp,
            Value::Optional(_) => Kind::Optional,
            Value::Opaque(_) => Kind::Opaque,
        }
    }

    /// The runtime type (`type(x)`).
    pub fn type_of(&self) -> RtType {
        match self {
            Value::Opaque(o) => RtType::Named(Arc::from(o.type_name())),
            other => RtType::Builtin(other.kind()),
        }
    }

    /// Size used by the runtime cost tracker (cel-go `actualSize`): code points of strings,
    /// length of bytes, lists and maps, the wrapped value's size for optionals, else 1.
    pub fn cost_size(&self) -> u64 {
        match self {
            Value::String(s) => char_count(s) as u64,
            Value::Bytes(b) => b.len() as u64,
            Value::List(l) => l.len() as u64,
            Value::Map(m) => m.len() as u64,
            Value::Optional(Some(v)) => v.cost_size(),
            Value::Opaque(o) => o.cost_size(),
            _ => 1,
        }
    }

    /// CEL equality (`_==_`): heterogeneous values are unequal, numbers compare on one number
    /// line, NaN is unequal to everything.
    pub fn cel_eq(&self, other: &Value<'_>) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::String(a), Value::String(b)) => a.as_str() == b.as_str(),
            (Value::Bytes(a), Value::Bytes(b)) => a.as_slice() == b.as_slice(),
            (Value::Int(_) | Value::Uint(_) | Value::Double(_), _) => {
                numeric_cmp(self, other) == Some(Ordering::Equal)
            }
            (Value::List(_), Value::List(_)) | (Value::Map(_), Value::Map(_)) => {
                self.equals(other).unwrap_or(false)
            }
            (Value::Type(a), Value::Type(b)) => a == b,
            (Value::Duration(a), Value::Duration(b)) => a == b,
            (Value::Timestamp(a), Value::Timestamp(b)) => a.same_instant(b),
            (Value::Optional(a), Value::Optional(b)) => match (a, b) {
                (None, None) => true,
                (Some(a), Some(b)) => a.cel_eq(b),
                _ => false,
            },
            (Value::Opaque(a), Value::Opaque(b)) => a.equals(b.as_ref()),
            _ => false,
        }
    }

    /// CEL equality with the errors Kubernetes' values give (`==` and `!=`): an element that
    /// fails to convert, a set list of non-scalars. Lists with set or map-list semantics
    /// compare without order ([`typed`]); otherwise [`Value::cel_eq`].
    pub fn equals(&self, other: &Value<'_>) -> Result<bool, EvalError> {
        match (self, other) {
            (Value::List(a), Value::List(b)) => {
                if let Some(kind) = typed::list_kind(a) {
                    return typed::keyed_list_equals(a, kind, b);
                }
                if a.len() != b.len() {
                    return Ok(false);
                }
                for i in 0..a.len() {
                    let (Some(x), Some(y)) = (a.try_get(i), b.try_get(i)) else {
                        return Ok(false);
                    };
                    if !x?.equals(&y?)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            (Value::Map(Map::Typed(m, t)), Value::Map(b)) => typed::map_equals(m, t, b),
            (Value::Map(a), Value::Map(b)) => maps_equal(a, b),
            (Value::Optional(Some(a)), Value::Optional(Some(b))) => a.equals(b),
            _ => Ok(self.cel_eq(other)),
        }
    }

    /// CEL ordering (`_<_` and friends): numbers across types, strings, bytes, bools,
    /// durations, timestamps. NaN and mismatched types are errors.
    pub fn cel_cmp(&self, other: &Value<'_>) -> Result<Ordering, EvalError> {
        match (self, other) {
            (Value::Int(_) | Value::Uint(_) | Value::Double(_), _) => {
                if matches!(self, Value::Double(d) if d.is_nan())
                    || matches!(other, Value::Double(d) if d.is_nan())
                {
                    return Err(EvalError::new("NaN values cannot be ordered"));
                }
                numeric_cmp(self, other).ok_or_else(EvalError::no_such_overload)
            }
            (Value::String(a), Value::String(b)) => Ok(a.as_str().cmp(b.as_str())),
            (Value::Bytes(a), Value::Bytes(b)) => Ok(a.as_slice().cmp(b.as_slice())),
            (Value::Bool(a), Value::Bool(b)) => Ok(a.cmp(b)),
            (Value::Duration(a), Value::Duration(b)) => Ok(a.cmp(b)),
            (Value::Timestamp(a), Value::Timestamp(b)) => Ok(a.cmp_instant(b)),
            (Value::Opaque(a), Value::Opaque(b)) => a
                .compare(b.as_ref())
                .ok_or_else(EvalError::no_such_overload),
            _ => Err(EvalError::no_such_overload()),
        }
    }

    /// The value with borrowed parts re-shared, so it no longer borrows from `'a`.
    pub fn into_static(self) -> Value<'static> {
        match self {
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(b),
            Value::Int(i) => Value::Int(i),
            Value::Uint(u) => Value::Uint(u),
            Value::Double(d) => Value::Double(d),
            Value::String(s) => Value::String(Str::Shared(match s {
                Str::Borrowed(s) => Arc::from(s),
                Str::Shared(s) => s,
            })),
            Value::Bytes(b) => Value::Bytes(Bytes::Shared(match b {
                Bytes::Borrowed(b) => Arc::from(b),
                Bytes::Shared(b) => b,
            })),
            Value::List(l) => Value::list_static(l.iter().map(Value::into_static).collect()),
            Value::Map(m) => {
                let mut out = OwnedMap::new();
                for (k, v) in m.entries() {
                    if let Ok(Some(k)) = Key::from_value(&k.into_static()) {
                        let _ = out.insert_new(k, v.into_static());
                    }
                }
                Value::Map(Map::Owned(Arc::new(out)))
            }
            Value::Type(t) => Value::Type(t),
            Value::Duration(d) => Value::Duration(d),
            Value::Timestamp(t) => Value::Timestamp(t),
            Value::Optional(o) => {
                Value::Optional(o.map(|v| Arc::new(Value::clone(&v).into_static())))
            }
            Value::Opaque(o) => Value::Opaque(o),
        }
    }

    fn list_static(values: Vec<Value<'static>>) -> Value<'static> {
        Value::List(List::Owned(Arc::new(values)))
    }

    /// Whether this is the zero value of its type (for `optional.ofNonZeroValue`).
    pub fn is_zero(&self) -> bool {
        match self {
            Value::Null => true,
            Value::Bool(b) => !b,
            Value::Int(i) => *i == 0,
            Value::Uint(u) => *u == 0,
            Value::Double(d) => *d == 0.0,
            Value::String(s) => s.is_empty(),
            Value::Bytes(b) => b.is_empty(),
            Value::List(l) => l.is_empty(),
            Value::Map(m) => m.is_empty(),
            Value::Duration(d) => d.nanos() == 0,
            // Go's `time.Time.IsZero`: the instant 0001-01-01T00:00:00Z, not the Unix epoch.
            Value::Timestamp(t) => t.secs() == time::MIN_UNIX_SECS && t.subsec_nanos() == 0,
            Value::Optional(o) => o.is_none(),
            Value::Type(_) | Value::Opaque(_) => false,
        }
    }

    /// The value as JSON (for reports); doubles that are not finite become strings.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match self {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Int(i) => J::from(*i),
            Value::Uint(u) => J::from(*u),
            Value::Double(d) => serde_json::Number::from_f64(*d)
                .map(J::Number)
                .unwrap_or_else(|| J::String(format_double(*d))),
            Value::String(s) => J::String(s.to_string()),
            Value::List(l) => J::Array(l.iter().map(|v| v.to_json()).collect()),
            Value::Map(m) => J::Object(
                m.entries()
                    .map(|(k, v)| (display_key(&k), v.to_json()))
                    .collect(),
            ),
            other => J::String(other.to_string()),
        }
    }
}

/// Code points in `s`. Cost accounting counts the code points of every string compared or
/// searched; the standard counter is built for long texts, rule data is mostly short ASCII.
#[inline]
pub(crate) fn char_count(s: &str) -> usize {
    let b = s.as_bytes();
    let n = b.len();
    // ASCII (the usual case) in a few loads: the first and last words overlap to cover the
    // whole string.
    let ascii = match n {
        0 => return 0,
        1..=3 => b.iter().all(u8::is_ascii),
        4..=8 => {
            let head = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            let tail = u32::from_le_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]]);
            (head | tail) & 0x8080_8080 == 0
        }
        9..=64 => {
            let word = |i: usize| {
                let mut w = [0u8; 8];
                w.copy_from_slice(&b[i..i + 8]);
                u64::from_le_bytes(w)
            };
            let mut all = word(n - 8);
            let mut i = 0;
            while i + 8 <= n {
                all |= word(i);
                i += 8;
            }
            all & 0x8080_8080_8080_8080 == 0
        }
        _ => false,
    };
    if ascii { n } else { s.chars().count() }
}

fn display_key(k: &Value<'_>) -> String {
    match k {
        Value::String(s) => s.to_string(),
        other => other.to_string(),
    }
}

fn maps_equal(a: &Map<'_>, b: &Map<'_>) -> Result<bool, EvalError> {
    if a.len() != b.len() {
        return Ok(false);
    }
    for (k, v) in a.entries() {
        let w = match &k {
            Value::String(s) => b.find(s).transpose()?,
            _ => b.get(&k).ok().flatten(),
        };
        match w {
            Some(w) if v.equals(&w)? => {}
            _ => return Ok(false),
        }
    }
    Ok(true)
}

/// Compares two numbers of any numeric types; `None` when either is no number or a NaN.
pub fn numeric_cmp(a: &Value<'_>, b: &Value<'_>) -> Option<Ordering> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::Uint(x), Value::Uint(y)) => Some(x.cmp(y)),
        (Value::Double(x), Value::Double(y)) => x.partial_cmp(y),
        (Value::Int(x), Value::Uint(y)) => Some((*x as i128).cmp(&(*y as i128))),
        (Value::Uint(x), Value::Int(y)) => Some((*x as i128).cmp(&(*y as i128))),
        (Value::Int(x), Value::Double(y)) => cmp_i64_f64(*x, *y),
        (Value::Double(x), Value::Int(y)) => cmp_i64_f64(*y, *x).map(Ordering::reverse),
        (Value::Uint(x), Value::Double(y)) => cmp_u64_f64(*x, *y),
        (Value::Double(x), Value::Uint(y)) => cmp_u64_f64(*y, *x).map(Ordering::reverse),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_equality_is_heterogeneous() {
        assert!(Value::Int(1).cel_eq(&Value::Double(1.0)));
        assert!(Value::Uint(1).cel_eq(&Value::Int(1)));
        assert!(!Value::Int(-1).cel_eq(&Value::Uint(u64::MAX)));
        assert!(!Value::Double(f64::NAN).cel_eq(&Value::Double(f64::NAN)));
        assert!(!Value::Int(1).cel_eq(&Value::string("1")));
        assert!(Value::Null.cel_eq(&Value::Null));
    }

    #[test]
    fn cross_type_ordering() {
        assert_eq!(
            Value::Int(i64::MAX)
                .cel_cmp(&Value::Double(9.3e18))
                .unwrap(),
            Ordering::Less
        );
        // cel-go compares in double precision inside the int range.
        assert_eq!(
            Value::Int(i64::MAX)
                .cel_cmp(&Value::Double(9_223_372_036_854_775_808.0))
                .unwrap(),
            Ordering::Equal
        );
        assert_eq!(
            Value::Int(-1).cel_cmp(&Value::Uint(0)).unwrap(),
            Ordering::Less
        );
        assert_eq!(
            Value::Uint(2).cel_cmp(&Value::Double(1.5)).unwrap(),
            Ordering::Greater
        );
        assert_eq!(
            Value::Int(1).cel_cmp(&Value::Double(1.5)).unwrap(),
            Ordering::Less
        );
        assert_eq!(
            Value::Double(f64::NAN)
                .cel_cmp(&Value::Int(1))
                .unwrap_err()
                .message,
            "NaN values cannot be ordered"
        );
        assert_eq!(
            Value::Int(1)
                .cel_cmp(&Value::string("a"))
                .unwrap_err()
                .message,
            "no such overload"
        );
    }

    #[test]
    fn map_keys_unify_numbers() {
        let mut m = OwnedMap::new();
        m.insert_new(Key::Int(1), Value::string("a")).unwrap();
        assert!(m.insert_new(Key::Uint(1), Value::Null).is_err());
        let m = Map::Owned(Arc::new(m));
        assert!(m.get(&Value::Double(1.0)).unwrap().is_some());
        assert!(m.get(&Value::Uint(1)).unwrap().is_some());
        assert!(m.get(&Value::Double(1.5)).unwrap().is_none());
    }

    #[test]
    fn big_maps_use_the_index() {
        let mut m = OwnedMap::new();
        for i in 0..20 {
            m.insert_new(
                Key::String(Str::Shared(Arc::from(format!("k{i}")))),
                Value::Int(i),
            )
            .unwrap();
        }
        assert!(matches!(m.get_str("k17"), Some(Value::Int(17))));
        assert!(
            m.insert_new(Key::String(Str::Borrowed("k3")), Value::Null)
                .is_err()
        );
    }

    #[test]
    fn char_count_counts_code_points() {
        for s in [
            "",
            "a",
            "item-50",
            "exactly8",
            "h\u{e9}llo w\u{f6}rld, \u{65e5}\u{672c}\u{8a9e} \u{1f600}!",
            &"\u{e9}x".repeat(40),
            &"abc\u{1f600}".repeat(3),
        ] {
            assert_eq!(char_count(s), s.chars().count(), "{s:?}");
        }
    }

    #[test]
    fn name_eq_is_byte_equality() {
        let names = [
            "", "a", "ab", "abc", "self", "selg", "tself", "oldSelf", "oldSelg",
        ];
        for a in names {
            for b in names {
                assert_eq!(name_eq(a.as_bytes(), b.as_bytes()), a == b, "{a:?} {b:?}");
            }
        }
        assert!(!name_eq(b"abcdefgh", b"abcdefgX"));
        assert!(!name_eq(b"Xbcdefgh", b"abcdefgh"));
        assert!(name_eq(b"minReplicas", b"minReplicas"));
        assert!(!name_eq(b"minReplicas", b"maxReplicas"));
    }

    #[test]
    fn json_values_borrow() {
        let doc = serde_json::json!({"a": [1, 2.5, "x"], "b": {"c": true}});
        let v = Value::from_json(&doc);
        let Value::Map(m) = &v else { panic!() };
        let Some(Value::List(l)) = m.get_str("a") else {
            panic!()
        };
        assert_eq!(l.len(), 3);
        assert!(matches!(l.get(1), Some(Value::Double(d)) if d == 2.5));
        assert!(matches!(l.get(2), Some(Value::String(Str::Borrowed("x")))));
    }
}
