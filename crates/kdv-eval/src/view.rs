//! The runtime's value views over JSON: a [`Val`] read through the IR's decoding [`Shape`]
//! of its Go type. This is how the checks of `kdv-runtime` see JSON values; the same checks
//! see Rust values through generated code.

use kdv_rules::{FieldAccess, FieldPresence, ItemMatch, MemberSet, RuleSet, Shape, ShapeId, Union};
use kdv_runtime::lists::{Identity, ItemHasher};
use kdv_runtime::required;
use kdv_runtime::unions::Extractors;
use kdv_runtime::{BadValue, Int, ListView, MapView, View};
use serde_json::{Map, Value};

use crate::value::{
    Val, as_bool, as_int, deep_equal, deep_hash, deref, field, is_zero, json_identical, len,
    normalize,
};

/// A JSON value as a value of the Go type `shape` describes.
#[derive(Clone, Copy)]
pub(crate) struct Typed<'a> {
    pub rules: &'a RuleSet,
    pub shape: ShapeId,
    pub val: Val<'a>,
}

impl<'a> Typed<'a> {
    #[inline]
    pub(crate) fn new(rules: &'a RuleSet, shape: ShapeId, val: Val<'a>) -> Typed<'a> {
        Typed { rules, shape, val }
    }

    /// The member of a struct value at `access` (of type `shape`).
    #[inline]
    pub(crate) fn field(self, access: &FieldAccess, shape: ShapeId) -> Typed<'a> {
        Typed::new(
            self.rules,
            shape,
            field(self.rules, self.val, access, shape),
        )
    }

    /// The value's shape under any pointers.
    #[inline(always)]
    fn base(self) -> &'a Shape {
        self.rules.shape(deref(self.rules, self.shape))
    }

    /// The value as a list, when its type is one.
    #[inline]
    pub(crate) fn list(self) -> Option<TypedList<'a>> {
        match self.rules.shape(self.shape) {
            Shape::Slice(e) => Some(TypedList {
                of: self,
                elem: *e,
                elem_is_ptr: matches!(self.rules.shape(*e), Shape::Pointer(_)),
                items: self.val.array(),
            }),
            _ => None,
        }
    }

    /// The value as a map, when its type is one.
    #[inline]
    pub(crate) fn map(self) -> Option<TypedMap<'a>> {
        match self.rules.shape(self.shape) {
            Shape::Map { value, .. } => Some(TypedMap {
                of: self,
                value: *value,
                obj: self.val.object(),
            }),
            _ => None,
        }
    }

    /// The value as a list; a value whose type is not one is an empty list.
    #[inline]
    pub(crate) fn list_or_empty(self) -> TypedList<'a> {
        self.list().unwrap_or(TypedList {
            of: self,
            elem: self.shape,
            elem_is_ptr: false,
            items: &[],
        })
    }

    /// The value as a map; a value whose type is not one is an empty map.
    #[inline]
    pub(crate) fn map_or_empty(self) -> TypedMap<'a> {
        self.map().unwrap_or(TypedMap {
            of: self,
            value: self.shape,
            obj: None,
        })
    }

    /// Whether the member `f` of this struct value is set.
    #[inline]
    pub(crate) fn is_set(self, f: &FieldPresence) -> bool {
        required::is_set(f.presence, self.field(&f.access, f.shape))
    }
}

impl<'a> View<'a> for Typed<'a> {
    #[inline(always)]
    fn is_nil(self) -> bool {
        self.val.is_nil()
    }

    #[inline(always)]
    fn len(self) -> usize {
        len(self.rules, self.shape, self.val)
    }

    #[inline(always)]
    fn is_zero(self) -> bool {
        is_zero(self.rules, self.shape, self.val)
    }

    #[inline(always)]
    fn as_int(self) -> Option<Int> {
        let Shape::Int(kind) = self.base() else {
            return None;
        };
        let x = as_int(self.val, *kind)?;
        // `as_int` checked the value fits the type.
        Some(if kind.signed {
            Int::Signed(x as i64)
        } else {
            Int::Unsigned(x as u64)
        })
    }

    #[inline(always)]
    fn as_str(self) -> Option<&'a str> {
        match self.val {
            Val::Json(Value::String(s)) => Some(s),
            Val::Key(k) => Some(*k),
            Val::Zero if matches!(self.base(), Shape::String { .. }) => Some(""),
            _ => None,
        }
    }

    #[inline(always)]
    fn as_bool(self) -> Option<bool> {
        match self.val {
            Val::Zero if !matches!(self.base(), Shape::Bool) => None,
            v => as_bool(v),
        }
    }

    #[inline(always)]
    fn is_named(self) -> bool {
        matches!(self.base(), Shape::String { named: true })
    }

    fn bad_value(self) -> BadValue {
        match self.rules.shape(self.shape) {
            Shape::String { named: false } => {
                BadValue::String(self.as_str().unwrap_or_default().to_string())
            }
            Shape::Bool => BadValue::Bool(self.as_bool().unwrap_or(false)),
            Shape::Int(_) => self.as_int().map_or(BadValue::Null, Int::bad_value),
            // Go's error body dereferences a pointer before choosing how to print it
            // (a `*string` item of a list prints as its string, `%q`).
            Shape::Pointer(inner) if !self.val.is_nil() => Typed {
                shape: *inner,
                ..self
            }
            .bad_value(),
            _ => self.nilable_bad_value(),
        }
    }

    fn nilable_bad_value(self) -> BadValue {
        match self.val {
            Val::Nil => BadValue::Null,
            Val::Json(j) => BadValue::Json(j.clone()),
            Val::Key(k) => BadValue::Json(Value::String(k.to_string())),
            Val::Zero => BadValue::Json(zero_json(self.rules, self.shape)),
        }
    }

    #[inline(always)]
    fn equal(self, other: Self) -> bool {
        deep_equal(self.rules, self.shape, self.val, other.val)
    }

    #[inline(always)]
    fn identical(self, other: Self) -> bool {
        matches!((self.val, other.val), (Val::Json(x), Val::Json(y)) if json_identical(x, y, 0))
    }
}

/// The JSON zero value of a type (for values the JSON leaves out).
pub(crate) fn zero_json(rules: &RuleSet, shape: ShapeId) -> Value {
    match rules.shape(deref(rules, shape)) {
        Shape::String { .. } | Shape::Bytes => Value::String(String::new()),
        Shape::Bool => Value::Bool(false),
        Shape::Int(_) | Shape::Float(_) => Value::from(0),
        Shape::Struct(_) => Value::Object(Default::default()),
        _ => Value::Null,
    }
}

/// A list value with its element type resolved once.
#[derive(Clone, Copy)]
pub(crate) struct TypedList<'a> {
    pub of: Typed<'a>,
    pub elem: ShapeId,
    elem_is_ptr: bool,
    items: &'a [Value],
}

impl<'a> View<'a> for TypedList<'a> {
    #[inline]
    fn is_nil(self) -> bool {
        self.of.is_nil()
    }
    #[inline]
    fn len(self) -> usize {
        self.items.len()
    }
    #[inline]
    fn is_zero(self) -> bool {
        self.items.is_empty()
    }
    fn bad_value(self) -> BadValue {
        self.of.bad_value()
    }
    fn nilable_bad_value(self) -> BadValue {
        self.of.nilable_bad_value()
    }
    #[inline]
    fn equal(self, other: Self) -> bool {
        self.of.equal(other.of)
    }
    #[inline]
    fn identical(self, other: Self) -> bool {
        self.of.identical(other.of)
    }
}

impl<'a> ListView<'a> for TypedList<'a> {
    type Item = Typed<'a>;

    #[inline]
    fn item(self, i: usize) -> Option<Typed<'a>> {
        let x = self.items.get(i)?;
        if self.elem_is_ptr && x.is_null() {
            None
        } else {
            Some(Typed::new(
                self.of.rules,
                self.elem,
                normalize(self.of.rules, self.elem, Some(x)),
            ))
        }
    }
}

/// A map value with its value type resolved once.
#[derive(Clone, Copy)]
pub(crate) struct TypedMap<'a> {
    pub of: Typed<'a>,
    pub value: ShapeId,
    obj: Option<&'a Map<String, Value>>,
}

impl<'a> View<'a> for TypedMap<'a> {
    #[inline]
    fn is_nil(self) -> bool {
        self.of.is_nil()
    }
    #[inline]
    fn len(self) -> usize {
        self.obj.map_or(0, Map::len)
    }
    #[inline]
    fn is_zero(self) -> bool {
        self.len() == 0
    }
    fn bad_value(self) -> BadValue {
        self.of.bad_value()
    }
    fn nilable_bad_value(self) -> BadValue {
        self.of.nilable_bad_value()
    }
    #[inline]
    fn equal(self, other: Self) -> bool {
        self.of.equal(other.of)
    }
    #[inline]
    fn identical(self, other: Self) -> bool {
        self.of.identical(other.of)
    }
}

impl<'a> MapView<'a> for TypedMap<'a> {
    type Value = Typed<'a>;

    fn entries(self) -> impl Iterator<Item = (&'a str, Typed<'a>)> {
        let (rules, value) = (self.of.rules, self.value);
        self.obj.into_iter().flatten().map(move |(k, x)| {
            (
                k.as_str(),
                Typed::new(rules, value, normalize(rules, value, Some(x))),
            )
        })
    }

    #[inline]
    fn get(self, key: &str) -> Option<Typed<'a>> {
        let x = self.obj?.get(key)?;
        let rules = self.of.rules;
        Some(Typed::new(
            rules,
            self.value,
            normalize(rules, self.value, Some(x)),
        ))
    }

    #[inline]
    fn contains_key(self, key: &str) -> bool {
        self.obj.is_some_and(|o| o.contains_key(key))
    }
}

/// List-map keys with at most this many fields are read once per item into a [`Key`].
const INLINE_KEYS: usize = 4;

/// An item's identity: the values of its list-map key fields, or the item itself.
#[derive(Clone, Copy)]
pub(crate) enum Key<'a> {
    /// The value of the only key field (most list-maps have one).
    One(Val<'a>),
    Keys([Val<'a>; INLINE_KEYS]),
    Whole(Val<'a>),
}

/// Item identity from the IR's [`ItemMatch`].
pub(crate) struct JsonIdentity<'a> {
    rules: &'a RuleSet,
    matching: &'a ItemMatch,
    elem: ShapeId,
}

impl<'a> JsonIdentity<'a> {
    pub(crate) fn new(rules: &'a RuleSet, matching: &'a ItemMatch, elem: ShapeId) -> Self {
        JsonIdentity {
            rules,
            matching,
            elem,
        }
    }

    /// Whether two (non-nil) items are the same item.
    fn matches(&self, a: Val<'_>, b: Val<'_>) -> bool {
        let rules = self.rules;
        match self.matching {
            ItemMatch::Direct | ItemMatch::Semantic => deep_equal(rules, self.elem, a, b),
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
}

impl<'a> Identity<'a, Typed<'a>> for JsonIdentity<'a> {
    type Key = Key<'a>;

    #[inline]
    fn key(&self, item: Typed<'a>) -> Key<'a> {
        match self.matching {
            ItemMatch::Keys(keys) if keys.len() == 1 => {
                let k = &keys[0];
                Key::One(field(self.rules, item.val, &k.access, k.shape))
            }
            ItemMatch::Keys(keys) if keys.len() <= INLINE_KEYS => {
                let mut vals = [Val::Nil; INLINE_KEYS];
                for (slot, k) in vals.iter_mut().zip(keys) {
                    *slot = field(self.rules, item.val, &k.access, k.shape);
                }
                Key::Keys(vals)
            }
            _ => Key::Whole(item.val),
        }
    }

    fn hash(&self, key: &Key<'a>, h: &mut ItemHasher) {
        let rules = self.rules;
        match (self.matching, key) {
            (ItemMatch::Keys(keys), Key::One(v)) => {
                if let Some(k) = keys.first() {
                    deep_hash(rules, k.shape, *v, h);
                }
            }
            (ItemMatch::Keys(keys), Key::Keys(vals)) => {
                for (k, v) in keys.iter().zip(vals) {
                    deep_hash(rules, k.shape, *v, h);
                }
            }
            (ItemMatch::Keys(keys), Key::Whole(v)) => {
                for k in keys {
                    deep_hash(rules, k.shape, field(rules, *v, &k.access, k.shape), h);
                }
            }
            (
                ItemMatch::Direct | ItemMatch::Semantic,
                Key::Whole(v) | Key::One(v) | Key::Keys([v, ..]),
            ) => {
                deep_hash(rules, self.elem, *v, h);
            }
        }
    }

    #[inline]
    fn same(&self, a: &Key<'a>, b: &Key<'a>) -> bool {
        match (self.matching, a, b) {
            (ItemMatch::Keys(keys), Key::One(x), Key::One(y)) => keys
                .first()
                .is_some_and(|k| deep_equal(self.rules, k.shape, *x, *y)),
            (ItemMatch::Keys(keys), Key::Keys(x), Key::Keys(y)) => keys
                .iter()
                .zip(x.iter().zip(y))
                .all(|(k, (p, q))| deep_equal(self.rules, k.shape, *p, *q)),
            (_, Key::Whole(x), Key::Whole(y)) => self.matches(*x, *y),
            _ => false,
        }
    }
}

/// A union's members' set-ness from the IR's extractors (upstream pairs them with the
/// members by position).
pub(crate) struct UnionExtractors<'a> {
    pub union: &'a Union,
}

impl<'a> Extractors<Typed<'a>> for UnionExtractors<'a> {
    #[inline]
    fn count(&self) -> usize {
        self.union.extractors.len()
    }

    #[inline]
    fn is_set(&self, i: usize, v: Typed<'a>) -> bool {
        match &self.union.extractors[i] {
            MemberSet::Field(f) => v.is_set(f),
            MemberSet::Item(criteria) => v.list().is_some_and(|l| {
                (0..l.len()).any(|j| {
                    l.item(j).is_some_and(|e| {
                        criteria.iter().all(|c| {
                            kdv_runtime::item::selects(
                                e.field(&c.field.access, c.field.shape),
                                &c.value,
                            )
                        })
                    })
                })
            }),
        }
    }
}
