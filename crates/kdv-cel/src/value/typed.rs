//! JSON data read through a schema: the values of custom resources as Kubernetes gives them
//! to CEL rules (apiserver `UnstructuredToVal`).
//!
//! A [`JsonSchema`] says, for one schema node, how its JSON data becomes a CEL value. Only
//! the parts of a schema whose values differ from [`Value::from_json`]'s reading are
//! described: everything else is [`Shape::Plain`], read in place. Objects, maps and lists
//! that need more stay views of the JSON ([`Map::Typed`], [`List::Typed`]) and convert an
//! element only when it is reached (by field, index, iteration or comparison), so a
//! conversion error surfaces only if the expression touches the element, as upstream's error
//! values do.
//!
//! What differs from the plain reading (upstream `valuesunstructured.go`):
//! - formats: strings of a `byte`, `date`, `date-time` or `duration` schema become bytes,
//!   timestamps or durations ([`Shape::Format`], by a function the schema supplies);
//! - `type: number`: integral JSON numbers become doubles;
//! - objects with properties: field names are unescaped (`a__dash__b` reads `a-b`,
//!   `__namespace__` and `namespace` read `namespace`), null fields are absent, keys without a
//!   property schema are not fields; equality compares fields, and the raw data of keys without
//!   a schema;
//! - maps (`additionalProperties`): null values are `null` when the value schema is nullable,
//!   else an error;
//! - lists with `x-kubernetes-list-type: set` compare without order and `+` is a union;
//!   `map` lists compare by key without order and `+` merges by key. The results of `+` keep
//!   these semantics ([`List::Merged`]).
//! - data of the wrong JSON kind for its schema (`invalid data, expected ...`): checked where
//!   the schema is typed; a [`Shape::Checked`] node checks its own kind and is read plainly
//!   (for callers that give CEL unvalidated data; the API server validates types first).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::{EvalError, List, Map, Str, Value, json_field};

/// A function converting the string data of a formatted string schema (`byte`, `date`,
/// `date-time`, `duration`) to its CEL value; its error is the value's error.
pub type StrConvert = fn(&str) -> Result<Value<'static>, EvalError>;

/// How the JSON data of one schema node becomes a CEL value.
#[derive(Debug)]
pub struct JsonSchema {
    /// `nullable`: JSON `null` is CEL `null` (else an error, where the data is read through
    /// the schema).
    pub nullable: bool,
    /// The conversion.
    pub shape: Shape,
}

/// The conversion of a [`JsonSchema`].
#[derive(Debug)]
pub enum Shape {
    /// No conversion anywhere in the subtree: [`Value::from_json`].
    Plain,
    /// `type: number`: every JSON number is a `double`.
    Number,
    /// A string converted by a function (formats).
    Format(StrConvert),
    /// An object with properties, or a map with an `additionalProperties` schema.
    Map(TypedMap),
    /// An array.
    List(TypedList),
    /// Data of this JSON kind, read as it is; other kinds are upstream's `invalid data`
    /// error values.
    Checked(JsonKind),
}

/// The JSON kind a [`Shape::Checked`] node's data must have (its schema's `type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonKind {
    /// `type: string` (without a converted format).
    String,
    /// `type: integer`: a JSON number that is an int64.
    Integer,
    /// `type: boolean`.
    Boolean,
    /// `x-kubernetes-int-or-string`: a string or an int64.
    IntOrString,
    /// `type: object` without properties or a typed `additionalProperties`.
    Object,
    /// `type: array`.
    Array,
}

/// The schema of an object or map ([`Map::Typed`]).
#[derive(Debug)]
pub enum TypedMap {
    /// An object with properties: (JSON name, schema), sorted by name. Field names are
    /// unescaped; null fields are absent.
    Object(Box<[(Box<str>, Arc<JsonSchema>)]>),
    /// A map: every key has this value schema.
    Map(Arc<JsonSchema>),
}

/// The schema of an array ([`List::Typed`]).
#[derive(Debug)]
pub struct TypedList {
    /// The schema of the items.
    pub items: Arc<JsonSchema>,
    /// `x-kubernetes-list-type`.
    pub kind: ListKind,
}

/// `x-kubernetes-list-type`, as values use it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListKind {
    /// `atomic` or unset: an ordinary list.
    Atomic,
    /// `set`: order-independent equality, `+` is a union.
    Set,
    /// `map`: order-independent equality by key, `+` merges by key. The key properties are
    /// given **escaped**, as upstream looks them up in the raw elements (so a key whose name
    /// needs escaping is never found there, and reads as null).
    Map(Box<[Box<str>]>),
}

impl JsonSchema {
    /// A schema whose data is read as it is (not nullable: a property of this schema does not
    /// make its object typed).
    pub const PLAIN: JsonSchema = JsonSchema {
        nullable: false,
        shape: Shape::Plain,
    };

    /// Whether the data is read as it is.
    pub fn is_plain(&self) -> bool {
        matches!(self.shape, Shape::Plain)
    }

    /// The CEL value of `json` under this schema; the error is the error value upstream's
    /// conversion gives (`invalid data, ...`, `Invalid duration ...`).
    #[inline]
    pub fn value<'a>(&'a self, json: &'a serde_json::Value) -> Result<Value<'a>, EvalError> {
        use serde_json::Value as J;
        if let Shape::Plain = self.shape {
            return Ok(Value::from_json(json));
        }
        if json.is_null() {
            return if self.nullable {
                Ok(Value::Null)
            } else {
                Err(EvalError::new(
                    "invalid data, got null for schema with nullable=false",
                ))
            };
        }
        match (&self.shape, json) {
            (Shape::Plain, _) => Ok(Value::from_json(json)),
            (Shape::Number, J::Number(n)) => Ok(Value::Double(n.as_f64().unwrap_or(f64::NAN))),
            (Shape::Number, other) => Err(EvalError::new(format!(
                "invalid data, expected float, got {}",
                go_type(other)
            ))),
            (Shape::Format(f), J::String(s)) => f(s),
            (Shape::Format(_), other) => Err(EvalError::new(format!(
                "invalid data, expected string, got {}",
                go_type(other)
            ))),
            (Shape::Map(m), J::Object(o)) => Ok(Value::Map(Map::Typed(o, m))),
            (Shape::Map(_), _) => Err(EvalError::new(
                "invalid data, expected a map for the provided schema with type=object",
            )),
            (Shape::List(l), J::Array(a)) => Ok(Value::List(List::Typed(a, l))),
            (Shape::List(_), _) => Err(EvalError::new(
                "invalid data, expected an array for the provided schema with type=array",
            )),
            (Shape::Checked(kind), _) => checked(*kind, json),
        }
    }

    /// [`JsonSchema::value`], with the unconverted value in place of an error: for readers
    /// that cannot report one (library functions walking a list, rendering).
    #[inline]
    pub(crate) fn value_or_raw<'a>(&'a self, json: &'a serde_json::Value) -> Value<'a> {
        self.value(json).unwrap_or_else(|_| Value::from_json(json))
    }
}

/// The data of a [`Shape::Checked`] node: as it is when of `kind`, else upstream's error.
#[cold]
fn checked<'a>(kind: JsonKind, json: &'a serde_json::Value) -> Result<Value<'a>, EvalError> {
    use serde_json::Value as J;
    let int = |n: &serde_json::Number| n.as_i64().is_some();
    let ok = match (kind, json) {
        (JsonKind::String, J::String(_))
        | (JsonKind::Boolean, J::Bool(_))
        | (JsonKind::IntOrString, J::String(_))
        | (JsonKind::Object, J::Object(_))
        | (JsonKind::Array, J::Array(_)) => true,
        (JsonKind::Integer | JsonKind::IntOrString, J::Number(n)) => int(n),
        _ => false,
    };
    if ok {
        return Ok(Value::from_json(json));
    }
    Err(EvalError::new(match kind {
        JsonKind::String => format!("invalid data, expected string, got {}", go_type(json)),
        JsonKind::Integer => format!("invalid data, expected int, got {}", go_type(json)),
        JsonKind::Boolean => format!("invalid data, expected bool, got {}", go_type(json)),
        JsonKind::IntOrString => {
            "invalid data, expected XIntOrString value to be either a string or integer".into()
        }
        JsonKind::Object => {
            "invalid data, expected a map for the provided schema with type=object".into()
        }
        JsonKind::Array => {
            "invalid data, expected an array for the provided schema with type=array".into()
        }
    }))
}

/// Go's `%T` of unstructured JSON data.
fn go_type(v: &serde_json::Value) -> &'static str {
    use serde_json::Value as J;
    match v {
        J::Null => "<nil>",
        J::Bool(_) => "bool",
        J::Number(n) if n.as_i64().is_some() => "int64",
        J::Number(_) => "float64",
        J::String(_) => "string",
        J::Array(_) => "[]interface {}",
        J::Object(_) => "map[string]interface {}",
    }
}

impl TypedMap {
    /// The schema of property `key` (a JSON name) of an object; every key of a map.
    #[inline]
    pub fn property(&self, key: &str) -> Option<&JsonSchema> {
        match self {
            TypedMap::Object(props) => {
                if props.len() <= 8 {
                    props
                        .iter()
                        .find(|(k, _)| k.as_bytes() == key.as_bytes())
                        .map(|(_, s)| &**s)
                } else {
                    props
                        .binary_search_by(|(k, _)| (**k).cmp(key))
                        .ok()
                        .map(|i| &*props[i].1)
                }
            }
            TypedMap::Map(s) => Some(s),
        }
    }

    fn is_object(&self) -> bool {
        matches!(self, TypedMap::Object(_))
    }
}

/// Upstream `unstructuredMap.Find`: the value of CEL key `key` (an escaped field name of an
/// object; a raw key of a map). `None`: absent (or null, for objects; or a name that does not
/// unescape).
#[inline]
pub(crate) fn find<'a>(
    m: &'a serde_json::Map<String, serde_json::Value>,
    schema: &'a TypedMap,
    key: &str,
) -> Option<Result<Value<'a>, EvalError>> {
    match schema {
        TypedMap::Object(_) => {
            let unescaped = unescape(key)?;
            let v = json_field(m, &unescaped)?;
            if v.is_null() {
                return None;
            }
            let s = schema.property(&unescaped)?;
            Some(s.value(v))
        }
        TypedMap::Map(s) => json_field(m, key).map(|v| s.value(v)),
    }
}

/// Upstream `unstructuredMap.Contains` of a string key: [`find`] finds it (without converting
/// the value).
#[inline]
pub(crate) fn contains(
    m: &serde_json::Map<String, serde_json::Value>,
    schema: &TypedMap,
    key: &str,
) -> bool {
    match schema {
        TypedMap::Object(_) => {
            let Some(unescaped) = unescape(key) else {
                return false;
            };
            json_field(m, &unescaped).is_some_and(|v| !v.is_null())
                && schema.property(&unescaped).is_some()
        }
        TypedMap::Map(_) => json_field(m, key).is_some(),
    }
}

/// One entry of a typed map as its iteration gives it, `None` for keys iteration skips: for
/// objects, the escaped names of the keys that have a property schema (a name that cannot be
/// escaped as it is); values converted (unconverted when that fails).
#[inline]
pub(crate) fn entry<'a>(
    k: &'a str,
    v: &'a serde_json::Value,
    schema: &'a TypedMap,
) -> Option<(Value<'a>, Value<'a>)> {
    let s = schema.property(k)?;
    let key = match (schema.is_object(), escape(k)) {
        (true, Some(Cow::Owned(e))) => Value::String(Str::Shared(Arc::from(e))),
        _ => Value::String(Str::Borrowed(k)),
    };
    Some((key, s.value_or_raw(v)))
}

// ---- property-name escaping (apiserver `cel/escaping.go`) --------------------------------

/// The literals and the `in` operator (keywords of the lexer), besides the words the parser
/// rejects as identifiers ([`crate::parser::RESERVED_IDENTIFIERS`]).
const KEYWORDS: [&str; 4] = ["true", "false", "null", "in"];

/// Whether `name` is one of CEL's reserved symbols: a property with exactly this name is the
/// field `__<name>__`.
pub fn is_reserved(name: &str) -> bool {
    KEYWORDS.contains(&name) || crate::parser::RESERVED_IDENTIFIERS.contains(&name)
}

/// Upstream `Escape`: the CEL field name of property `ident`, or `None` when it has none
/// (empty, a leading digit, or a character outside `[A-Za-z0-9_./-]`). Borrowed when the
/// name needs no escaping.
///
/// `__` becomes `__underscores__`, `.` `__dot__`, `-` `__dash__`, `/` `__slash__`, and a
/// name that is exactly a reserved symbol becomes `__<name>__`.
pub fn escape(ident: &str) -> Option<Cow<'_, str>> {
    let bytes = ident.as_bytes();
    if bytes.first().is_none_or(u8::is_ascii_digit) {
        return None;
    }
    if is_reserved(ident) {
        return Some(Cow::Owned(format!("__{ident}__")));
    }
    let plain = bytes
        .iter()
        .all(|&b| b.is_ascii_alphanumeric() || b == b'_')
        && !bytes.windows(2).any(|w| w == b"__");
    if plain {
        return Some(Cow::Borrowed(ident));
    }
    let mut out = String::with_capacity(ident.len() + 8);
    let mut i = 0;
    while i < bytes.len() {
        // Matches of `(__|[-./]|[^a-zA-Z0-9-./_])`, left to right, without overlap.
        match bytes[i] {
            b'_' if bytes.get(i + 1) == Some(&b'_') => {
                out.push_str("__underscores__");
                i += 2;
            }
            b'.' => {
                out.push_str("__dot__");
                i += 1;
            }
            b'-' => {
                out.push_str("__dash__");
                i += 1;
            }
            b'/' => {
                out.push_str("__slash__");
                i += 1;
            }
            b if b.is_ascii_alphanumeric() || b == b'_' => {
                out.push(char::from(b));
                i += 1;
            }
            _ => return None,
        }
    }
    Some(Cow::Owned(out))
}

/// Upstream `Unescape`: the property name of CEL field name `escaped`, or `None` when it
/// holds an escape sequence that [`escape`] never writes (`__illegal__`, or a reserved
/// symbol's escape that is not the whole name, as in `__int__extra`). Borrowed when the name
/// has no `__`.
#[inline]
pub fn unescape(escaped: &str) -> Option<Cow<'_, str>> {
    let bytes = escaped.as_bytes();
    if !bytes.windows(2).any(|w| w == b"__") {
        return Some(Cow::Borrowed(escaped));
    }
    let mut out = String::with_capacity(escaped.len());
    // Start of the text not yet copied.
    let mut copied = 0;
    let mut i = 0;
    // Matches of `(_{2}[^_]+_{2})`, left to right, without overlap: the run of non-`_`
    // bytes is maximal, so a match at `i` is decided by where that run ends.
    while i + 1 < bytes.len() {
        if bytes[i] != b'_' || bytes[i + 1] != b'_' {
            i += 1;
            continue;
        }
        let start = i + 2;
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'_')
            .map_or(bytes.len(), |p| start + p);
        if end == start || end + 1 >= bytes.len() || bytes[end + 1] != b'_' {
            i += 1;
            continue;
        }
        let contents = &escaped[start..end];
        let replacement = match contents {
            "underscores" => "__",
            "dot" => ".",
            "dash" => "-",
            "slash" => "/",
            c if is_reserved(c) => {
                if end + 2 - i != escaped.len() {
                    return None;
                }
                c
            }
            _ => return None,
        };
        out.push_str(&escaped[copied..i]);
        out.push_str(replacement);
        i = end + 2;
        copied = i;
    }
    out.push_str(&escaped[copied..]);
    Some(Cow::Owned(out))
}

// ---- equality ---------------------------------------------------------------------------

/// Upstream `unstructuredMap.Equal` with `self` a typed map.
pub(crate) fn map_equals(
    m: &serde_json::Map<String, serde_json::Value>,
    schema: &TypedMap,
    other: &Map<'_>,
) -> Result<bool, EvalError> {
    if m.len() != other.len() {
        return Ok(false);
    }
    for (key, raw) in m {
        if schema.property(key).is_some() {
            let v = find(m, schema, key).transpose()?;
            let ov = other.find(key).transpose()?;
            match (v, ov) {
                (None, None) => {}
                (Some(v), Some(ov)) => {
                    if !v.equals(&ov)? {
                        return Ok(false);
                    }
                }
                _ => return Ok(false),
            }
        } else {
            // A key without a schema: raw equality, and only against another typed object.
            let Map::Typed(o, _) = other else {
                return Err(EvalError::no_such_overload());
            };
            if let Some(ov) = o.get(key)
                && raw != ov
            {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// A set element or map-list key component: the raw scalar Go value upstream uses as a Go
/// map key (so `1` and `1.0` are different keys).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum RawKey {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(u64),
    String(String),
    Other(String),
}

fn double_key(d: f64) -> RawKey {
    RawKey::Double(if d == 0.0 { 0 } else { d.to_bits() })
}

impl RawKey {
    /// The key of a converted value (`ref.Val.Value()`); `None` for lists and maps.
    fn of_value(v: &Value<'_>) -> Option<RawKey> {
        Some(match v {
            Value::Null => RawKey::Null,
            Value::Bool(b) => RawKey::Bool(*b),
            Value::Int(i) => RawKey::Int(*i),
            Value::Uint(u) => RawKey::Uint(*u),
            Value::Double(d) => double_key(*d),
            Value::String(s) => RawKey::String(s.to_string()),
            Value::List(_) | Value::Map(_) => return None,
            other => RawKey::Other(format!("{}:{other:?}", other.type_of())),
        })
    }

    /// The key of raw JSON data.
    fn of_json(v: &serde_json::Value) -> RawKey {
        use serde_json::Value as J;
        match v {
            J::Null => RawKey::Null,
            J::Bool(b) => RawKey::Bool(*b),
            J::Number(n) => match n.as_i64() {
                Some(i) => RawKey::Int(i),
                None => double_key(n.as_f64().unwrap_or(f64::NAN)),
            },
            J::String(s) => RawKey::String(s.clone()),
            other => RawKey::Other(other.to_string()),
        }
    }
}

fn set_key(v: &Value<'_>) -> Result<RawKey, EvalError> {
    RawKey::of_value(v).ok_or_else(|| {
        EvalError::new("listSet operations are only supported on lists of scalar values")
    })
}

/// Upstream `toMapKey` of an unstructured map list: the raw key values of a raw element,
/// looked up by the escaped key names. `None`: the element is no JSON object (a key no
/// element has).
fn raw_map_key(elem: &Value<'_>, keys: &[Box<str>]) -> Option<Vec<RawKey>> {
    let m = match elem {
        Value::Map(Map::Json(m)) | Value::Map(Map::Typed(m, _)) => m,
        _ => return None,
    };
    Some(
        keys.iter()
            .map(|k| m.get(&**k).map_or(RawKey::Null, RawKey::of_json))
            .collect(),
    )
}

/// Upstream `refValMapKey`: the key of a converted element, its key fields found as CEL
/// finds them (a missing field, an error or a non-map element give null).
fn value_map_key(elem: &Value<'_>, keys: &[Box<str>]) -> Vec<RawKey> {
    keys.iter()
        .map(|k| match elem {
            Value::Map(m) => match m.find(k) {
                Some(Ok(v)) => RawKey::of_value(&v)
                    .unwrap_or_else(|| RawKey::Other(format!("{:?}", v.to_json()))),
                _ => RawKey::Null,
            },
            _ => RawKey::Null,
        })
        .collect()
}

/// The list semantics of a list value, if it has any besides the ordinary ones.
pub(crate) fn list_kind<'l>(l: &'l List<'_>) -> Option<&'l ListKind> {
    match l {
        List::Typed(_, t) | List::Merged(_, t) if t.kind != ListKind::Atomic => Some(&t.kind),
        _ => None,
    }
}

/// `a == b` for a list `a` with set or map-list semantics.
pub(crate) fn keyed_list_equals(
    a: &List<'_>,
    kind: &ListKind,
    b: &List<'_>,
) -> Result<bool, EvalError> {
    if a.len() != b.len() {
        return Ok(false);
    }
    match kind {
        ListKind::Atomic => unreachable!("list_kind gives no atomic lists"),
        ListKind::Set => {
            let mut set = HashSet::with_capacity(a.len());
            for i in 0..a.len() {
                if let Some(v) = a.try_get(i) {
                    set.insert(set_key(&v?)?);
                }
            }
            let mut seen = HashSet::with_capacity(set.len());
            for i in 0..b.len() {
                let Some(v) = b.try_get(i) else { break };
                let k = set_key(&v?)?;
                if !set.contains(&k) {
                    return Ok(false);
                }
                seen.insert(k);
            }
            Ok(seen.len() == set.len())
        }
        ListKind::Map(keys) => {
            // An unstructured map list keys raw elements; a merged one keys values.
            let raw = matches!(a, List::Typed(..));
            let key_of = |v: &Value<'_>| -> Option<Vec<RawKey>> {
                if raw {
                    raw_map_key(v, keys)
                } else {
                    Some(value_map_key(v, keys))
                }
            };
            let mut by_key = HashMap::with_capacity(a.len());
            for i in 0..a.len() {
                let Some(v) = a.try_get(i) else { break };
                let v = v?;
                if let Some(k) = key_of(&v) {
                    by_key.insert(k, v);
                }
            }
            let mut seen = HashSet::with_capacity(by_key.len());
            for i in 0..b.len() {
                let Some(v) = b.try_get(i) else { break };
                let v = v?;
                let Some(k) = key_of(&v) else {
                    return Ok(false);
                };
                let Some(e) = by_key.get(&k) else {
                    return Ok(false);
                };
                if !e.equals(&v)? {
                    return Ok(false);
                }
                seen.insert(k);
            }
            Ok(seen.len() == by_key.len())
        }
    }
}

/// `a + b` for a list `a` with set or map-list semantics (`schema` is `a`'s list schema): a
/// union or a merge by key, keeping the semantics.
pub(crate) fn keyed_list_add<'a>(
    a: &List<'a>,
    schema: &'a TypedList,
    b: &List<'a>,
) -> Result<Value<'a>, EvalError> {
    let mut elements = Vec::with_capacity(a.len() + b.len());
    for i in 0..a.len() {
        let Some(v) = a.try_get(i) else { break };
        elements.push(v?);
    }
    match &schema.kind {
        ListKind::Atomic => unreachable!("list_kind gives no atomic lists"),
        ListKind::Set => {
            let mut set = HashSet::with_capacity(elements.len() + b.len());
            for e in &elements {
                set.insert(set_key(e)?);
            }
            for i in 0..b.len() {
                let Some(v) = b.try_get(i) else { break };
                let v = v?;
                if set.insert(set_key(&v)?) {
                    elements.push(v);
                }
            }
        }
        ListKind::Map(keys) => {
            let mut positions = HashMap::with_capacity(elements.len());
            for (i, e) in elements.iter().enumerate() {
                positions.insert(value_map_key(e, keys), i);
            }
            for i in 0..b.len() {
                let Some(v) = b.try_get(i) else { break };
                let v = v?;
                match positions.get(&value_map_key(&v, keys)) {
                    Some(&at) => elements[at] = v,
                    None => elements.push(v),
                }
            }
        }
    }
    Ok(Value::List(List::Merged(Arc::new(elements), schema)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_round_trips() {
        for (name, escaped) in [
            ("a.a", Some("a__dot__a")),
            ("a-a", Some("a__dash__a")),
            ("a__a", Some("a__underscores__a")),
            ("a.-/__a", Some("a__dot____dash____slash____underscores__a")),
            ("a._a", Some("a__dot___a")),
            ("a___a", Some("a__underscores___a")),
            ("a____a", Some("a__underscores____underscores__a")),
            ("a__dot__a", Some("a__underscores__dot__underscores__a")),
            ("namespace", Some("__namespace__")),
            ("-x", Some("__dash__x")),
            ("has", Some("has")),
            ("1up", None),
            ("@", None),
            ("\u{1f451}", None),
            ("", None),
        ] {
            let got = escape(name);
            assert_eq!(got.as_deref(), escaped, "{name:?}");
            if let Some(e) = escaped {
                assert_eq!(unescape(e).as_deref(), Some(name), "{e:?}");
            }
        }
        assert_eq!(unescape("namespace").as_deref(), Some("namespace"));
        assert_eq!(unescape("a__namespace__").as_deref(), None);
        assert_eq!(unescape("__bogus__").as_deref(), None);
    }

    #[test]
    fn checked_nodes_check_their_json_kind() {
        use serde_json::json;
        let cases = [
            (
                JsonKind::String,
                json!(1),
                "invalid data, expected string, got int64",
            ),
            (
                JsonKind::Integer,
                json!(1.5),
                "invalid data, expected int, got float64",
            ),
            (
                JsonKind::Integer,
                json!("1"),
                "invalid data, expected int, got string",
            ),
            (
                JsonKind::Boolean,
                json!([]),
                "invalid data, expected bool, got []interface {}",
            ),
            (
                JsonKind::IntOrString,
                json!(true),
                "invalid data, expected XIntOrString value to be either a string or integer",
            ),
            (
                JsonKind::Object,
                json!([]),
                "invalid data, expected a map for the provided schema with type=object",
            ),
            (
                JsonKind::Array,
                json!({}),
                "invalid data, expected an array for the provided schema with type=array",
            ),
        ];
        for (kind, data, want) in cases {
            let schema = JsonSchema {
                nullable: false,
                shape: Shape::Checked(kind),
            };
            assert_eq!(schema.value(&data).unwrap_err().message, want, "{kind:?}");
        }
        let schema = JsonSchema {
            nullable: false,
            shape: Shape::Checked(JsonKind::IntOrString),
        };
        assert!(matches!(schema.value(&json!(3)), Ok(Value::Int(3))));
        assert_eq!(
            schema.value(&json!(null)).unwrap_err().message,
            "invalid data, got null for schema with nullable=false"
        );
    }
}
