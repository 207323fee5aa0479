//! The rule IR: the single source of truth every backend (interpreter, code generation, docs,
//! schema emission) consumes. Nothing here refers to tags or Go syntax; everything a backend
//! needs is resolved at compile time (list-map keys, enum members, formats, JSON names, value
//! shapes for Go zero values and typed equality).
//!
//! Layout:
//! * [`RuleSet`] holds every discovered named type as a [`TypeRules`] (indexed by [`TypeId`])
//!   and the [`Shape`] arena (indexed by [`ShapeId`]) describing how Go would decode a JSON
//!   value of each type.
//! * A type's validation function is [`TypeRules::validations`] (type-level calls, already
//!   partitioned into cohorts), then its key/value iterations, then (unless opaque) one
//!   [`FieldRules`] block per struct field in declaration order.
//! * A [`Validation`] is one emitted function: a [`Check`] plus flags, stability and the tag
//!   it came from. Wrappers (`eachVal`, `subfield`, `ifEnabled`, ...) hold exactly one inner
//!   validation, as upstream does.

use std::borrow::Cow;
use std::collections::HashMap;

pub use kdv_model::SourceSpan;
pub use kdv_runtime::{ErrorType, Format};

/// Index of a named type in a [`RuleSet`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

/// Index of a tag's source span in a [`RuleSet`] ([`RuleSet::span`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SpanId(pub u32);

/// Index of a value shape in a [`RuleSet`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShapeId(pub u32);

/// How Go's `encoding/json` decodes a value of some type: enough to produce Go zero values
/// for absent fields, to check JSON kinds, and to compare values the way Go would
/// (`Semantic.DeepEqual`, `==`).
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// `string` (`named: false`) or a named string type (`named: true`; Go prints values of
    /// named types JSON-encoded in errors).
    String {
        /// A named type (`type X string`), not `string` itself.
        named: bool,
    },
    /// `bool`.
    Bool,
    /// An integer type as Go holds it (the real width and signedness, e.g. `int8` is signed).
    Int(IntKind),
    /// `float32` (32) or `float64` (64).
    Float(u8),
    /// `[]byte`: a base64 string in JSON.
    Bytes,
    /// `*T`.
    Pointer(ShapeId),
    /// `[]T`.
    Slice(ShapeId),
    /// `map[K]V` (only string-based keys are supported; `key` is a string shape).
    Map {
        /// Shape of the keys (a string shape).
        key: ShapeId,
        /// Shape of the values.
        value: ShapeId,
    },
    /// A struct: its JSON-visible fields.
    Struct(StructShape),
    /// An interface, or a type the compiler could not see (another module, unsupported
    /// kinds): any JSON is accepted and compared structurally.
    Any,
}

impl Shape {
    /// Whether a Go value of this shape can be nil (pointer, slice, map, interface).
    pub fn is_nilable(&self) -> bool {
        matches!(
            self,
            Shape::Pointer(_) | Shape::Slice(_) | Shape::Map { .. } | Shape::Any | Shape::Bytes
        )
    }
}

/// Width and signedness of a Go integer type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IntKind {
    /// Width in bits (8, 16, 32, 64).
    pub bits: u8,
    /// Whether the type is signed.
    pub signed: bool,
}

impl IntKind {
    /// Smallest value of the type.
    pub fn min(self) -> i128 {
        if self.signed {
            -(1i128 << (self.bits - 1))
        } else {
            0
        }
    }

    /// Largest value of the type.
    pub fn max(self) -> i128 {
        if self.signed {
            (1i128 << (self.bits - 1)) - 1
        } else {
            (1i128 << self.bits) - 1
        }
    }
}

/// The JSON-visible fields of a struct, in declaration order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StructShape {
    /// The fields, in declaration order.
    pub fields: Vec<StructField>,
    /// Indices into `fields` of the fields read from a key, ordered by key (ties by index):
    /// a backend can walk these and a JSON object's sorted entries together in one merge
    /// pass instead of looking every key up.
    pub key_order: Vec<u32>,
    /// When every field is read from a key and decodes a scalar JSON kind (under any
    /// pointers), and all but at most [`MAX_OTHER_KINDS`] share one, that kind: an object
    /// whose values all have it (or are `null`) and whose keys are none of
    /// [`other_kinds`](StructShape::other_kinds) decodes without matching keys to fields.
    pub common_kind: Option<CommonKind>,
    /// Indices into `fields` of the fields not of [`common_kind`](StructShape::common_kind).
    pub other_kinds: Vec<u32>,
}

/// At most this many fields of a struct may differ from its
/// [`common_kind`](StructShape::common_kind).
pub const MAX_OTHER_KINDS: usize = 2;

impl StructShape {
    /// A struct shape with its [`key_order`](StructShape::key_order) computed
    /// ([`common_kind`](StructShape::common_kind) is filled once all shapes are known).
    pub fn new(fields: Vec<StructField>) -> StructShape {
        let key_order = key_order(fields.iter().map(|f| &f.access));
        StructShape {
            fields,
            key_order,
            common_kind: None,
            other_kinds: Vec::new(),
        }
    }
}

/// The JSON kind all fields of a struct decode ([`StructShape::common_kind`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommonKind {
    /// Strings (`string` and named string types; not `[]byte`).
    String,
    /// Booleans.
    Bool,
    /// Integers within `min..=max`, the range every field's integer type holds.
    Int {
        /// The largest of the fields' minimums.
        min: i128,
        /// The smallest of the fields' maximums.
        max: i128,
    },
}

/// Fills [`StructShape::common_kind`] and [`StructShape::other_kinds`] of every struct
/// shape of the arena.
pub(crate) fn fill_common_kinds(shapes: &mut [Shape]) {
    let kind_of = |shapes: &[Shape], f: &StructField| {
        let FieldAccess::Key(_) = f.access else {
            return None;
        };
        let mut id = f.shape;
        // Bounded: a pointer chain cannot be longer than the arena.
        for _ in 0..shapes.len() {
            match &shapes[id.0 as usize] {
                Shape::Pointer(e) => id = *e,
                Shape::String { .. } => return Some(CommonKind::String),
                Shape::Bool => return Some(CommonKind::Bool),
                Shape::Int(k) => {
                    return Some(CommonKind::Int {
                        min: k.min(),
                        max: k.max(),
                    });
                }
                _ => return None,
            }
        }
        None
    };
    let same = |a: CommonKind, b: CommonKind| {
        matches!(
            (a, b),
            (CommonKind::String, CommonKind::String)
                | (CommonKind::Bool, CommonKind::Bool)
                | (CommonKind::Int { .. }, CommonKind::Int { .. })
        )
    };
    for i in 0..shapes.len() {
        let Shape::Struct(st) = &shapes[i] else {
            continue;
        };
        let kinds: Option<Vec<CommonKind>> = st.fields.iter().map(|f| kind_of(shapes, f)).collect();
        let mut result = (None, Vec::new());
        if let Some(kinds) = kinds {
            // The kind most fields have (ties: the last such field's), counted in one pass:
            // per class (string, bool, int), how many fields and the last one's index.
            let class = |k: CommonKind| match k {
                CommonKind::String => 0,
                CommonKind::Bool => 1,
                CommonKind::Int { .. } => 2,
            };
            let mut counts = [(0usize, 0usize); 3];
            for (j, &k) in kinds.iter().enumerate() {
                let c = &mut counts[class(k)];
                *c = (c.0 + 1, j);
            }
            let majority = counts
                .iter()
                .filter(|c| c.0 > 0)
                .max_by_key(|c| (c.0, c.1))
                .map(|c| kinds[c.1]);
            if let Some(m) = majority {
                let others: Vec<u32> = (0..kinds.len() as u32)
                    .filter(|&j| !same(kinds[j as usize], m))
                    .collect();
                if others.len() <= MAX_OTHER_KINDS {
                    let common =
                        kinds
                            .iter()
                            .filter(|&&k| same(k, m))
                            .fold(m, |acc, &k| match (acc, k) {
                                (
                                    CommonKind::Int { min, max },
                                    CommonKind::Int { min: a, max: b },
                                ) => CommonKind::Int {
                                    min: min.max(a),
                                    max: max.min(b),
                                },
                                (acc, _) => acc,
                            });
                    result = (Some(common), others);
                }
            }
        }
        if let Shape::Struct(st) = &mut shapes[i] {
            (st.common_kind, st.other_kinds) = result;
        }
    }
}

/// Indices of the `Key` accesses among `accesses`, ordered by key, ties by index.
pub fn key_order<'a>(accesses: impl Iterator<Item = &'a FieldAccess>) -> Vec<u32> {
    let mut keyed: Vec<(&str, u32)> = accesses
        .enumerate()
        .filter_map(|(i, a)| match a {
            FieldAccess::Key(k) => Some((k.as_str(), i as u32)),
            _ => None,
        })
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// One field of a [`StructShape`].
#[derive(Debug, Clone, PartialEq)]
pub struct StructField {
    /// The Go field name.
    pub go_name: String,
    /// Where the value is read from.
    pub access: FieldAccess,
    /// Shape of the value.
    pub shape: ShapeId,
}

/// Where a struct field's value lives in the JSON object of its struct (Go `encoding/json`
/// rules, case-sensitive as the Kubernetes decoder is).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldAccess {
    /// The value of this key of the object.
    Key(String),
    /// An embedded struct without a JSON name: its fields are read from the same object.
    /// For an embedded pointer, the pointer is allocated iff one of `keys` (the JSON keys the
    /// embedded struct owns, transitively) is present.
    Inline {
        /// JSON keys owned by the embedded struct.
        keys: Vec<String>,
    },
    /// Never decoded (`json:"-"`): always the zero value.
    Skip,
}

/// How the interpreter decides "unchanged" for ratcheting: Go `==` on the nilable form for
/// directly comparable types, else `equality.Semantic.DeepEqual`. Both compare the same way on
/// JSON values (nil and empty collections are equal, absent is the zero value); the
/// distinction is kept for code generation and docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Equality {
    /// Go `==` (directly comparable types).
    Direct,
    /// `equality.Semantic.DeepEqual`.
    Semantic,
}

/// Stability marks applied to the errors of a validation (`+k8s:alpha` / `+k8s:beta`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Marked `alpha`.
    Alpha,
    /// Marked `beta`.
    Beta,
}

/// One error a validation declares it may report (upstream `WithEmits`): lowering attaches
/// them, [`crate::emissions`] collects them into a type's declared rules.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Emission {
    /// The error's type.
    pub error_type: ErrorType,
    /// The error's origin (empty for none).
    pub origin: &'static str,
    /// Appended to the validation's path: `""`, `[*]` for errors at an element, or `.name`
    /// for errors at a member of the value.
    pub fragment: Cow<'static, str>,
}

impl Emission {
    /// An emission at the validation's own path.
    pub const fn at_path(error_type: ErrorType, origin: &'static str) -> Emission {
        Emission {
            error_type,
            origin,
            fragment: Cow::Borrowed(""),
        }
    }

    /// An emission at an element of the validated value (`[*]`).
    pub const fn at_element(error_type: ErrorType, origin: &'static str) -> Emission {
        Emission {
            error_type,
            origin,
            fragment: Cow::Borrowed("[*]"),
        }
    }

    /// An emission at the member `name` of the validated struct (`.name`).
    pub fn at_member(error_type: ErrorType, origin: &'static str, name: &str) -> Emission {
        Emission {
            error_type,
            origin,
            fragment: Cow::Owned(format!(".{name}")),
        }
    }
}

/// One emitted validation function.
#[derive(Debug, Clone, PartialEq)]
pub struct Validation {
    /// What is checked.
    pub check: Check,
    /// On failure, skip the non-short-circuit validations of the cohort (and, for the
    /// default cohort, the rest of the block); errors are marked ShortCircuit.
    pub short_circuit: bool,
    /// Errors are discarded (only the short-circuit effect remains).
    pub non_error: bool,
    /// Named cohort (`subfield`, `item`, `validateFalse(cohort: ...)`), `None` = default.
    pub cohort: Option<String>,
    /// Stability mark applied to the errors this function returns.
    pub level: Option<Level>,
    /// The tag that produced it (`k8s:minimum`), for docs and diagnostics.
    pub tag: &'static str,
    /// The errors it may report (wrappers declare none: what they wrap does).
    pub emits: Vec<Emission>,
    /// The runtime function takes no arguments beyond the standard ones: upstream passes it
    /// by reference when it is wrapped (`eachVal`, `subfield`, ...), which drops its
    /// stability mark.
    pub bare: bool,
    /// Where the tag that produced it is written (the innermost tag of a chain; `None` for
    /// the calls and loops the compiler adds itself).
    pub origin: Option<SpanId>,
    /// Its errors are marked declarative-native (a union with a
    /// `+k8s:declarativeValidationNative` member, upstream `MarkUnionDeclarative`).
    pub declarative_native: bool,
}

impl Validation {
    /// A validation with default flags, no cohort and no level.
    pub fn new(tag: &'static str, check: Check) -> Validation {
        Validation {
            check,
            short_circuit: false,
            non_error: false,
            cohort: None,
            level: None,
            tag,
            emits: Vec::new(),
            bare: false,
            origin: None,
            declarative_native: false,
        }
    }

    /// Declares the errors it may report.
    pub fn emits(mut self, emits: impl IntoIterator<Item = Emission>) -> Validation {
        self.emits.extend(emits);
        self
    }

    /// Marks it [`bare`](Validation::bare).
    pub fn bare(mut self) -> Validation {
        self.bare = true;
        self
    }

    /// Sets the ShortCircuit flag.
    pub fn short_circuit(mut self) -> Validation {
        self.short_circuit = true;
        self
    }

    /// Sets the NonError flag.
    pub fn non_error(mut self) -> Validation {
        self.non_error = true;
        self
    }
}

/// What a [`Validation`] checks. The value it is applied to (in nilable form) is implied by
/// where the validation sits: a type, a field, a list element, a map key, a subfield.
#[derive(Debug, Clone, PartialEq)]
pub enum Check {
    /// `+k8s:required` (and `+k8s:optional` with a non-zero `+default`): unset →
    /// `Required(path, "")`.
    Required(Presence),
    /// `+k8s:optional`: unset → `Required(path, "optional value was not specified")`
    /// (used with NonError: it only short-circuits).
    Optional(Presence),
    /// `+k8s:forbidden`: set → `Forbidden(path, "")`.
    Forbidden(Presence),
    /// Integer lower bound (origin `minimum`).
    Minimum(i128),
    /// Integer upper bound (origin `maximum`).
    Maximum(i128),
    /// Minimum length in characters (origin `minLength`).
    MinLength(i64),
    /// Maximum length in characters (origin `maxLength`).
    MaxLength(i64),
    /// Maximum length in bytes (origin `maxBytes`).
    MaxBytes(i64),
    /// Minimum list length (origin `minItems`).
    MinItems(i64),
    /// Maximum list length (origin `maxItems`).
    MaxItems(i64),
    /// Minimum map size (origin `minProperties`).
    MinProperties(i64),
    /// Maximum map size (origin `maxProperties`).
    MaxProperties(i64),
    /// Integer exclusive lower bound (origin `exclusiveMinimum`; a kdv extension).
    ExclusiveMinimum(i128),
    /// Integer exclusive upper bound (origin `exclusiveMaximum`; a kdv extension).
    ExclusiveMaximum(i128),
    /// A Go regular expression a string must contain a match of (origin `pattern`; a kdv
    /// extension).
    Pattern(PatternSpec),
    /// A string format (origin `format=<name>`).
    Format(Format),
    /// Enum membership.
    Enum(EnumSpec),
    /// Value must differ from the literal (origin `neq`).
    Neq(Literal),
    /// On Update: `Invalid(path, nil, "field is immutable")` (origin `immutable`).
    Immutable,
    /// `validateTrue` (pass) / `validateFalse` (fail with `forced failure: <message>`).
    Fixed {
        /// `validateTrue*` passes, `validateFalse` fails.
        pass: bool,
        /// The tag payload.
        message: String,
    },
    /// List uniqueness: duplicates reported at `path[j]` in ascending index order.
    Unique(ItemMatch),
    /// Synthetic `PtrSliceNoNils`: each nil element → `Required(path[i], "")`.
    NoNilElements,
    /// `+k8s:eachVal` on a list: run `inner` on each element (nil pointer elements skipped),
    /// skipping correlated unchanged elements on Update.
    EachListVal {
        /// How to find the correlated old element (`None`: no correlation).
        matching: Option<ItemMatch>,
        /// Whether a correlated element is unchanged (`None`: a match implies unchanged).
        equiv: Option<Equality>,
        /// The wrapped validation.
        inner: Box<Validation>,
    },
    /// `+k8s:eachVal` on a map: run `inner` on each value at `path[key]`, skipping unchanged
    /// values of keys present in the old map on Update.
    EachMapVal {
        /// How "unchanged" is decided.
        equiv: Equality,
        /// The wrapped validation.
        inner: Box<Validation>,
    },
    /// `+k8s:eachKey`: run `inner` on each key (at the map's own path), skipping keys that
    /// exist in the old map on Update.
    EachMapKey {
        /// The wrapped validation.
        inner: Box<Validation>,
    },
    /// `+k8s:subfield(name)`: run `inner` on a member of the struct at `path.name`, skipped
    /// on Update when the member is unchanged.
    Subfield {
        /// JSON name (path segment).
        name: String,
        /// Where the member lives in the struct's JSON object.
        access: FieldAccess,
        /// Shape of the member's type.
        shape: ShapeId,
        /// How "unchanged" is decided.
        equiv: Equality,
        /// The wrapped validation.
        inner: Box<Validation>,
    },
    /// `+k8s:ifEnabled(option)` (`enabled == true`) / `+k8s:ifDisabled(option)`: run
    /// `inner` only when the option has that value; undefined option → InternalError.
    IfOption {
        /// The option (feature gate) name.
        option: String,
        /// Run when the option has this value.
        enabled: bool,
        /// The wrapped validation.
        inner: Box<Validation>,
    },
    /// `+k8s:ifSubresource(path)` (`addressed == true`) / `+k8s:ifNotSubresource(path)`
    /// (kdv extensions): run `inner` only when the request does (does not) address that
    /// subresource.
    IfSubresource {
        /// The subresource path (`/status`; `/` is the main resource).
        subresource: String,
        /// Run when the request addresses it (`true`) or when it does not.
        addressed: bool,
        /// The wrapped validation.
        inner: Box<Validation>,
    },
    /// Call another type's validation function on the value.
    CallType(TypeId),
    /// `+k8s:update=<constraints>` (merged per field, in upstream's constraint order): on
    /// Update, forbids the given transitions (origin `update`).
    Update {
        /// Which kind of value the constraints apply to.
        kind: UpdateKind,
        /// The constraints, in upstream order.
        constraints: Vec<UpdateConstraint>,
        /// Item identity for `NoAddItem`/`NoRemoveItem` on lists (`None`: none defined,
        /// which is an internal error when those constraints are checked).
        matching: Option<ItemMatch>,
    },
    /// `+k8s:monotonic`: on Update with both values present, `new < old` is an error.
    Monotonic,
    /// `+k8s:item(key: value, ...)`: run `inner` on the first list item whose key fields
    /// equal the criteria (at `path[index]`), skipped on Update when the first matching old
    /// item is unchanged. Nil pointer items are never matched.
    Item {
        /// The key fields and their values, in list-map key order.
        criteria: Vec<ItemCriterion>,
        /// How "unchanged" is decided.
        equiv: Equality,
        /// The wrapped validation.
        inner: Box<Validation>,
    },
    /// A union of struct fields or list items (`+k8s:unionMember`, `+k8s:zeroOrOneOfMember`,
    /// optionally with a `+k8s:unionDiscriminator`), applied to the struct or list value.
    Union(Box<Union>),
    /// `+k8s:ifMode` rules of one struct field for one mode discriminator (upstream
    /// `Discriminated`), applied to the struct value.
    Discriminated(Box<Discriminated>),
    /// `+k8s:dependentRequired` / `+k8s:dependentForbidden` between two fields of the struct
    /// value.
    Dependency(Box<Dependency>),
    /// `+k8s:customValidation`: a hand-written function, found by upstream's naming
    /// convention (`ValidateCustom_<Type>` or `ValidateCustom_<Struct>_<Field>`). kdv cannot
    /// run Go code: backends call a registry of functions by name.
    CustomValidation {
        /// `ValidateCustom_...`.
        function_name: String,
        /// Import path of the package that declares the validated type (upstream looks the
        /// function up in that type's generated package).
        package: String,
    },
    /// `+validationRule` (a kdv extension, KEP-4153 "CEL Validation"): a CEL rule over the
    /// value, run as a CRD's `x-kubernetes-validations` rule at the value's schema node.
    CelRule(Box<CelRule>),
    /// A limit bounded by another field (a kdv extension, KEP-5073 "Field Path Strategy"):
    /// `+k8s:minimum(constraint: minValue)` and its siblings, hoisted to the struct value.
    CrossFieldLimit(Box<CrossFieldLimit>),
    /// `+k8s:item(<key>: <value>)=+k8s:update=NoSet|NoUnset` (a kdv extension, KEP-5073
    /// "Item-Level Constraints"): on Update, the selected item may not appear or disappear;
    /// applied to the list value.
    ItemUpdate(Box<ItemUpdate>),
}

/// An item-level update constraint, checked at the list (see
/// `kdv_runtime::item_update`).
#[derive(Debug, Clone, PartialEq)]
pub struct ItemUpdate {
    /// The item's list-map key fields and values, in key order.
    pub criteria: Vec<ItemCriterion>,
    /// `NoSet` and/or `NoUnset` (the seed's `NoClear`), in upstream order.
    pub constraints: Vec<UpdateConstraint>,
    /// The selector as upstream prints it (`{"type": "Approved"}`).
    pub selector: String,
}

pub use kdv_runtime::crossfield::Bound;

/// A limit tag with a `constraint`: the struct member it bounds and the member path whose
/// integer value is the bound.
#[derive(Debug, Clone, PartialEq)]
pub struct CrossFieldLimit {
    /// Which limit.
    pub bound: Bound,
    /// JSON name of the bounded member (the error's path segment).
    pub field: String,
    /// Where the bounded member lives in the struct.
    pub access: FieldAccess,
    /// Shape of the bounded member.
    pub shape: ShapeId,
    /// The bounded member is `+k8s:optional`, with its presence rule: unset, it is not
    /// checked.
    pub optional: Option<Presence>,
    /// The path as written (`limits.max`).
    pub reference: String,
    /// The members the path selects, from the struct; the last is the integer.
    pub steps: Vec<RefStep>,
    /// Written as `+k8s:eachVal=+k8s:<limit>(constraint: ...)`: the limit bounds each
    /// value of the list or map member instead of the member itself.
    pub each: Option<CrossFieldEach>,
}

/// Which values of a list or map member a [`CrossFieldLimit`] written under `eachVal`
/// bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrossFieldEach {
    /// Every item of a list (errors at `field[i]`).
    Items,
    /// Every value of a map (errors at `field[key]`).
    Values,
}

/// One member of a [`CrossFieldLimit`]'s reference path.
#[derive(Debug, Clone, PartialEq)]
pub struct RefStep {
    /// JSON name.
    pub name: String,
    /// Where the member lives in its struct.
    pub access: FieldAccess,
    /// Shape of the member (a struct or pointer to one on the way, an integer or pointer to
    /// one at the end).
    pub shape: ShapeId,
}

/// A `+validationRule` of a type or a struct field: the CEL rule and the options written
/// after it, as they are published in `x-kubernetes-validations`.
#[derive(Debug, Clone, PartialEq)]
pub struct CelRule {
    /// The CEL expression (`rule`).
    pub rule: String,
    /// `message`.
    pub message: Option<String>,
    /// `messageExpression`.
    pub message_expression: Option<String>,
    /// `reason` (`None`: the server's default, `FieldValueInvalid`).
    pub reason: Option<CelReason>,
    /// `field` as written (`rollingUpdate`); see [`CelRule::field_path`].
    pub field: Option<String>,
    /// The schema node the rule sits on, whose structural schema types `self`.
    pub site: CelSite,
    /// The backend's compiled form, built on first use (not part of the rule's identity).
    pub compiled: CelCache,
}

impl CelRule {
    /// The rule's `fieldPath`: `field="a.b"` is `.a.b`; a path starting with `.` or `[` is
    /// taken as written.
    pub fn field_path(&self) -> Option<String> {
        self.field.as_ref().map(|f| {
            if f.starts_with('.') || f.starts_with('[') {
                f.clone()
            } else {
                format!(".{f}")
            }
        })
    }

    /// The rule reads `oldSelf`: a transition rule (the same test the CRD compiler makes on
    /// the checked expression decides at run time; this one is for display).
    pub fn mentions_old_self(&self) -> bool {
        self.rule.contains("oldSelf")
    }
}

/// The `reason` of a `+validationRule` (the seed's spelling).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CelReason {
    /// `Invalid` (`FieldValueInvalid`).
    Invalid,
    /// `Required` (`FieldValueRequired`).
    Required,
    /// `Forbidden` (`FieldValueForbidden`).
    Forbidden,
}

impl CelReason {
    /// The `x-kubernetes-validations` reason.
    pub fn crd_reason(self) -> &'static str {
        match self {
            CelReason::Invalid => "FieldValueInvalid",
            CelReason::Required => "FieldValueRequired",
            CelReason::Forbidden => "FieldValueForbidden",
        }
    }

    /// The error type the API server reports.
    pub fn error_type(self) -> ErrorType {
        match self {
            CelReason::Invalid => ErrorType::Invalid,
            CelReason::Required => ErrorType::Required,
            CelReason::Forbidden => ErrorType::Forbidden,
        }
    }
}

/// Where a [`CelRule`] is written: the node whose value is `self`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum CelSite {
    /// On a type: `self` is a value of the type (of this shape).
    Type(ShapeId),
    /// On a struct field: `self` is the field's value, the property `name` of the struct of
    /// shape `parent` (so the field's own keywords, such as `+k8s:maxItems`, bound it).
    Field {
        /// The struct's shape.
        parent: ShapeId,
        /// The field's JSON name.
        name: String,
    },
}

/// A slot for a backend's compiled form of a [`CelRule`] (the rules IR cannot name the CEL
/// compiler's types): filled once, shared by threads. Clones start empty and every slot
/// compares equal, so it never changes a rule's identity.
#[derive(Default)]
pub struct CelCache(std::sync::OnceLock<std::sync::Arc<dyn std::any::Any + Send + Sync>>);

impl CelCache {
    /// The compiled form, built by `init` on first use; `None` if a slot was filled with
    /// another type.
    pub fn get_or_init<T: std::any::Any + Send + Sync>(
        &self,
        init: impl FnOnce() -> T,
    ) -> Option<&T> {
        self.0
            .get_or_init(|| std::sync::Arc::new(init()))
            .downcast_ref::<T>()
    }
}

impl Clone for CelCache {
    fn clone(&self) -> Self {
        CelCache::default()
    }
}

impl PartialEq for CelCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for CelCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CelCache")
    }
}

/// A `+k8s:pattern`: the pattern, ready to match (its Go source is
/// [`Pattern::source`](kdv_runtime::pattern::Pattern::source)), and the `regex` crate form
/// of its meaning, which generated code compiles.
#[derive(Debug, Clone, PartialEq)]
pub struct PatternSpec {
    /// The matcher (literal or compiled regex).
    pub pattern: kdv_runtime::pattern::Pattern,
    /// The translated pattern (`kdv-cel`'s `regex::translate`).
    pub translated: String,
}

/// One criterion of an item selector: a list-map key field and the value it must have.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemCriterion {
    /// The key member of the element struct.
    pub field: KeyField,
    /// The required value (pointer keys must be non-nil and point to it).
    pub value: Literal,
}

/// Whether a member of a union, a trigger or a dependent "is set".
#[derive(Debug, Clone, PartialEq)]
pub enum MemberSet {
    /// A field of the struct value: pointer non-nil, list/map non-empty, scalar non-zero.
    Field(FieldPresence),
    /// The list value holds an item whose key fields equal these values.
    Item(Vec<ItemCriterion>),
}

/// A struct field and how its set-ness is decided.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldPresence {
    /// Where the value lives in the struct's JSON object.
    pub access: FieldAccess,
    /// Shape of the field's type.
    pub shape: ShapeId,
    /// Set-ness rule for the field's kind.
    pub presence: Presence,
}

/// Which union function applies.
#[derive(Debug, Clone, PartialEq)]
pub enum UnionKind {
    /// `Union`: exactly one member must be set (origin `union`).
    ExactlyOne,
    /// `ZeroOrOneOfUnion`: at most one member may be set (origin `zeroOrOneOf`).
    ZeroOrOne,
    /// `DiscriminatedUnion`: the discriminator's value names the member that must be set;
    /// the others must not be (origin `union`).
    Discriminated {
        /// JSON name of the discriminator (used in messages).
        name: String,
        /// Where the discriminator lives in the struct.
        access: FieldAccess,
        /// Shape of the discriminator (a string, or a pointer to one).
        shape: ShapeId,
    },
}

pub use kdv_runtime::unions::UnionMember;

/// A union check. `extractors[i]` decides whether member `i` is set; upstream orders
/// list-item extractors by selector while members stay in tag order, and the two are
/// paired by index, exactly as here.
#[derive(Debug, Clone, PartialEq)]
pub struct Union {
    /// Which function applies.
    pub kind: UnionKind,
    /// The members, in tag order.
    pub members: Vec<UnionMember>,
    /// Set-ness of each member.
    pub extractors: Vec<MemberSet>,
}

/// The mode rules of one struct field (`+k8s:modeDiscriminator` + `+k8s:ifMode`).
#[derive(Debug, Clone, PartialEq)]
pub struct Discriminated {
    /// JSON name of the field (its path segment).
    pub field: String,
    /// Where the field lives in the struct.
    pub access: FieldAccess,
    /// Shape of the field's type.
    pub shape: ShapeId,
    /// How "unchanged" is decided for ratcheting.
    pub equiv: Equality,
    /// Where the discriminator lives in the struct.
    pub discriminator_access: FieldAccess,
    /// Shape of the discriminator (string or bool).
    pub discriminator_shape: ShapeId,
    /// The rules, sorted by mode value; the first whose value equals the discriminator
    /// applies.
    pub rules: Vec<ModeRule>,
    /// Set-ness rule of the implicit `Forbidden` applied when no rule matches.
    pub default_forbidden: Presence,
    /// Stability mark of the implicit `Forbidden` (the level all rules share, if any).
    pub default_level: Option<Level>,
}

/// The validations of one mode value, run in order: short-circuit functions append their
/// errors and, after the last of them, any failure stops the rule.
#[derive(Debug, Clone, PartialEq)]
pub struct ModeRule {
    /// The discriminator value (a string, or a bool for bool discriminators).
    pub value: Literal,
    /// The validations, in tag order, each with its own stability mark.
    pub validations: Vec<Validation>,
}

/// `+k8s:dependentRequired` (`forbidden == false`) or `+k8s:dependentForbidden`.
#[derive(Debug, Clone, PartialEq)]
pub struct Dependency {
    /// Dependent must be unset (`dependentForbidden`) instead of set.
    pub forbidden: bool,
    /// JSON name of the trigger field (used in the message).
    pub trigger: String,
    /// Set-ness of the trigger.
    pub trigger_set: FieldPresence,
    /// JSON name of the dependent field (the error's path segment).
    pub dependent: String,
    /// Set-ness of the dependent.
    pub dependent_set: FieldPresence,
}

pub use kdv_runtime::update::{UpdateConstraint, UpdateKind};

impl Check {
    /// The wrapped validation of a wrapper check.
    pub fn inner(&self) -> Option<&Validation> {
        match self {
            Check::EachListVal { inner, .. }
            | Check::EachMapVal { inner, .. }
            | Check::EachMapKey { inner }
            | Check::Subfield { inner, .. }
            | Check::Item { inner, .. }
            | Check::IfOption { inner, .. }
            | Check::IfSubresource { inner, .. } => Some(inner),
            _ => None,
        }
    }
}

pub use kdv_runtime::required::Presence;

/// Enum membership rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumSpec {
    /// Member values, sorted ascending, without duplicates.
    pub members: Vec<String>,
    /// Conditional exclusions, in constant declaration order.
    pub exclusions: Vec<EnumExclusion>,
}

/// `+k8s:ifEnabled(option)=+k8s:enumExclude` (`exclude_when == true`) or `ifDisabled`
/// (`false`) on an enum constant (the runtime's type, so backends pass it through).
pub use kdv_runtime::enums::EnumExclusion;

pub use kdv_runtime::view::Literal;

/// How two list elements are identified as "the same item".
#[derive(Debug, Clone, PartialEq)]
pub enum ItemMatch {
    /// Whole-element `==` (directly comparable elements).
    Direct,
    /// Whole-element `Semantic.DeepEqual`.
    Semantic,
    /// List-map keys: all key fields equal (pointer keys: both nil, or both set and equal).
    Keys(Vec<KeyField>),
}

/// One list-map key field of the element struct.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyField {
    /// JSON name of the key member.
    pub name: String,
    /// Where the value is read from.
    pub access: FieldAccess,
    /// Shape of the member (a scalar, or a pointer to one).
    pub shape: ShapeId,
}

/// Validation calls of one type or field, partitioned as upstream's `run_calls` executes
/// them: the default cohort first (if any), then named cohorts in order of first appearance;
/// within a cohort, short-circuit functions first, both groups keeping their order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Calls {
    /// The cohorts, in execution order.
    pub cohorts: Vec<Cohort>,
}

impl Calls {
    /// Partitions `list` (in emission order) into cohorts.
    pub fn from_ordered(list: Vec<Validation>) -> Calls {
        let mut cohorts: Vec<Cohort> = Vec::new();
        let has_default = list.iter().any(|v| v.cohort.is_none());
        if has_default {
            cohorts.push(Cohort::default());
        }
        // Cohorts by name: one per list item selector, so there can be many.
        let mut by_name: HashMap<String, usize> = HashMap::new();
        for v in list {
            let idx = match &v.cohort {
                None => 0,
                Some(name) => match by_name.get(name) {
                    Some(&i) => i,
                    None => {
                        cohorts.push(Cohort {
                            name: Some(name.clone()),
                            ..Cohort::default()
                        });
                        by_name.insert(name.clone(), cohorts.len() - 1);
                        cohorts.len() - 1
                    }
                },
            };
            let cohort = &mut cohorts[idx];
            if v.short_circuit {
                cohort.short_circuit.push(v);
            } else {
                cohort.regular.push(v);
            }
        }
        Calls { cohorts }
    }

    /// True when there is nothing to call.
    pub fn is_empty(&self) -> bool {
        self.cohorts.is_empty()
    }

    /// All validations, cohort by cohort, short-circuit ones first.
    pub fn iter(&self) -> impl Iterator<Item = &Validation> {
        self.cohorts
            .iter()
            .flat_map(|c| c.short_circuit.iter().chain(c.regular.iter()))
    }
}

/// One cohort of [`Calls`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Cohort {
    /// `None` for the default cohort.
    pub name: Option<String>,
    /// Short-circuit functions, in order; all run even after one fails.
    pub short_circuit: Vec<Validation>,
    /// The other functions, run only if no short-circuit function failed.
    pub regular: Vec<Validation>,
}

/// What kind of named type a [`TypeRules`] describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TypeKind {
    /// A struct type (including `type X OtherStruct`).
    Struct,
    /// A type definition of a non-struct type (`type X string`, `type L []T`).
    Typedef,
}

/// The validation function of one named type.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeRules {
    /// Go type name.
    pub name: String,
    /// Import path of the declaring package.
    pub package: String,
    /// Package clause name (used where Go prints `%T`).
    pub package_name: String,
    /// Struct or typedef.
    pub kind: TypeKind,
    /// Shape of a value of this type (not a pointer).
    pub shape: ShapeId,
    /// Whether calling the function can produce anything (transitively). Callers skip calls
    /// to types without validations; validating such a root yields no errors.
    pub has_validations: bool,
    /// Type-level validations.
    pub validations: Calls,
    /// Key and value iterations of a typedef'd map/list (calls of the key/element type's
    /// function), run after the type-level validations.
    pub iterations: Vec<Validation>,
    /// `+k8s:opaqueType`: fields are not descended.
    pub opaque: bool,
    /// Field blocks of a struct, in declaration order (fields without anything to run are
    /// left out).
    pub fields: Vec<FieldRules>,
    /// Indices into `fields` of the blocks read from a key, ordered by key (see
    /// [`StructShape::key_order`]).
    pub field_key_order: Vec<u32>,
    /// Subresource paths a root accepts (`/` unless `+k8s:isSubresource`), §2.8.
    pub subresources: Vec<String>,
    /// Whether a validation reachable from the function marks its errors declarative-native
    /// ([`RuleSet::has_declarative_native`]).
    pub declarative_native: bool,
}

impl TypeRules {
    /// `pkg/path.Name`.
    pub fn qualified_name(&self) -> String {
        format!("{}.{}", self.package, self.name)
    }
}

/// Where a field's runtime path comes from (§2.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldPathRule {
    /// `parent.Child(name)`.
    Child(String),
    /// No JSON name: the parent path itself, or, when the parent path is nil (a field of a
    /// root object), a single segment with the field's Go type name as upstream renders it.
    Parent {
        /// The segment used when the parent path is nil.
        root_segment: String,
    },
}

/// The block of one struct field (§4.3).
#[derive(Debug, Clone, PartialEq)]
pub struct FieldRules {
    /// Go field name.
    pub go_name: String,
    /// Upstream's JSON name (empty for inline/`-`/`,omitempty` tags).
    pub json_name: String,
    /// Where the value lives in the parent's JSON object.
    pub access: FieldAccess,
    /// How the field's runtime path is formed.
    pub path: FieldPathRule,
    /// Shape of the field's type (including a pointer).
    pub shape: ShapeId,
    /// Ratchet check kind.
    pub equality: Equality,
    /// Field-level validations.
    pub validations: Calls,
    /// The field type's validation function, if it has validations and the field is not
    /// opaque.
    pub type_call: Option<TypeId>,
    /// Key then value iterations of an unnamed map/list field.
    pub iterations: Vec<Validation>,
    /// `+k8s:declarativeValidationNative`: every error the block reports (its validations,
    /// the type call, the iterations) is marked declarative-native, as upstream's deferred
    /// `MarkDeclarativeNative` of the field's closure.
    pub declarative_native: bool,
}

/// A root type selected by the package's `+k8s:validation-gen` filters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootInfo {
    /// The type.
    pub id: TypeId,
    /// Go type name (the kind).
    pub name: String,
    /// Import path of the package.
    pub package: String,
    /// The API group: `+groupName=` of the package, else its `GroupName` constant.
    pub group: Option<String>,
    /// Package name (the version).
    pub version: String,
    /// Type name.
    pub kind: String,
}

/// Everything the backends need: the validation functions of all discovered named types,
/// the value shapes, and the roots.
#[derive(Debug, Clone, Default)]
pub struct RuleSet {
    /// Every discovered named type, indexed by [`TypeId`].
    pub types: Vec<TypeRules>,
    /// Value shapes, indexed by [`ShapeId`].
    pub shapes: Vec<Shape>,
    /// Root types, sorted by qualified name (indexed by kind when compiled: read, do not
    /// edit).
    pub roots: Vec<RootInfo>,
    /// Source spans of the tags validations came from ([`Validation::origin`]).
    pub spans: Vec<SourceSpan>,
    /// How each package of the universe selected its roots, in import-path order.
    pub packages: Vec<crate::roots::PackageRoots>,
    pub(crate) by_name: HashMap<String, TypeId>,
    /// Roots by (group, version, kind); the first in [`RuleSet::roots`] order wins.
    pub(crate) by_kind: HashMap<(String, String, String), TypeId>,
    /// The defaults of struct fields (`+default=` and `+k8s:default=`), by declaring type
    /// and Go field name ([`RuleSet::field_default`]).
    pub defaults: HashMap<(TypeId, String), FieldDefault>,
}

/// A struct field's default: what the API server sets an absent field to before it
/// validates (KEP-4153 "Publish Declarative Defaults in Schema").
#[derive(Debug, Clone, PartialEq)]
pub struct FieldDefault {
    /// The JSON value.
    pub value: serde_json::Value,
    /// The tag it comes from: `default` (upstream's `+default=`) or `k8s:default` (kdv's).
    pub tag: &'static str,
    /// Where the tag is written.
    pub origin: Option<SpanId>,
}

impl RuleSet {
    /// The default of the field `go_name` of the struct `ty`, if it declares one.
    pub fn field_default(&self, ty: TypeId, go_name: &str) -> Option<&FieldDefault> {
        self.defaults.get(&(ty, go_name.to_owned()))
    }
}

/// Why [`RuleSet::resolve_type`] found no single type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeLookupError {
    /// No type has that name.
    Unknown,
    /// The bare name is not declared in the home package, but in several others: their
    /// qualified names (`pkg/path.Name`), sorted.
    Ambiguous(Vec<String>),
}

impl RuleSet {
    /// Finds a type by `Name` or `pkg/path.Name`. A bare name that several packages declare
    /// resolves to a root if one is named so, else to the first package in import-path order.
    pub fn find_type(&self, name: &str) -> Option<TypeId> {
        self.by_name.get(name).copied()
    }

    /// Finds the type a user means by `name`: `pkg/path.Name` names any type; a bare `Name`
    /// is the type of the package `home` (the one the user pointed at) when it declares one,
    /// else the one package that declares it. A bare name declared by several other packages
    /// is ambiguous.
    pub fn resolve_type(&self, name: &str, home: Option<&str>) -> Result<TypeId, TypeLookupError> {
        if name.contains('.') {
            return self
                .by_name
                .get(name)
                .copied()
                .ok_or(TypeLookupError::Unknown);
        }
        if let Some(home) = home
            && let Some(&id) = self.by_name.get(&format!("{home}.{name}"))
        {
            return Ok(id);
        }
        let mut candidates: Vec<(String, TypeId)> = self
            .types
            .iter()
            .enumerate()
            .filter(|(_, t)| t.name == name)
            .map(|(i, t)| (t.qualified_name(), TypeId(i as u32)))
            .collect();
        candidates.sort();
        match candidates.as_slice() {
            [] => Err(TypeLookupError::Unknown),
            [(_, id)] => Ok(*id),
            _ => Err(TypeLookupError::Ambiguous(
                candidates.into_iter().map(|(q, _)| q).collect(),
            )),
        }
    }

    /// How the package with import path `package` selected its roots.
    pub fn package_roots(&self, package: &str) -> Option<&crate::roots::PackageRoots> {
        self.packages.iter().find(|p| p.package == package)
    }

    /// The root types, in sorted order of their qualified names.
    pub fn roots(&self) -> impl Iterator<Item = RootInfo> + '_ {
        self.roots.iter().cloned()
    }

    /// The root type for `apiVersion` (`group/version` or `version`) and `kind`.
    pub fn root_for_kind(&self, api_version: &str, kind: &str) -> Option<TypeId> {
        let (group, version) = match api_version.rsplit_once('/') {
            Some((g, v)) => (g, v),
            None => ("", api_version),
        };
        self.by_kind
            .get(&(group.to_string(), version.to_string(), kind.to_string()))
            .copied()
    }

    /// The Go name of a type.
    pub fn type_name(&self, id: TypeId) -> &str {
        &self.types[id.0 as usize].name
    }

    /// The rules of a type.
    pub fn type_rules(&self, id: TypeId) -> &TypeRules {
        &self.types[id.0 as usize]
    }

    /// A shape by id.
    pub fn shape(&self, id: ShapeId) -> &Shape {
        &self.shapes[id.0 as usize]
    }

    /// Whether validating a value of the type can report declarative-native errors: some
    /// field block or union reachable from its function is `+k8s:declarativeValidationNative`
    /// (a hybrid type, whose declarative-only rules an API server always enforces).
    pub fn has_declarative_native(&self, id: TypeId) -> bool {
        self.types
            .get(id.0 as usize)
            .is_some_and(|t| t.declarative_native)
    }

    /// The source span of a tag ([`Validation::origin`]).
    pub fn span(&self, id: SpanId) -> Option<&SourceSpan> {
        self.spans.get(id.0 as usize)
    }
}

impl RuleSet {
    /// The validation options the rules read (`+k8s:ifEnabled(X)`/`ifDisabled(X)`, and
    /// enum exclusions under them), sorted: each must be defined by the operation
    /// ([`kdv_runtime::Operation::options`]), or the rules reading it report an internal
    /// error, as upstream's do.
    pub fn option_names(&self) -> std::collections::BTreeSet<String> {
        let mut names = std::collections::BTreeSet::new();
        for t in &self.types {
            options_of(t, &mut names, &mut |_| {});
        }
        names
    }

    /// The options validating a value of type `root` can read: those of `root` and of every
    /// type its validation calls.
    pub fn option_names_reachable(&self, root: TypeId) -> std::collections::BTreeSet<String> {
        let mut names = std::collections::BTreeSet::new();
        let mut seen = vec![false; self.types.len()];
        let mut queue = vec![root];
        while let Some(id) = queue.pop() {
            let i = id.0 as usize;
            if seen.get(i).copied().unwrap_or(true) {
                continue;
            }
            seen[i] = true;
            let t = &self.types[i];
            queue.extend(t.fields.iter().filter_map(|f| f.type_call));
            options_of(t, &mut names, &mut |called| queue.push(called));
        }
        names
    }
}

/// Adds the options `t`'s validations read to `names`, and tells `calls` each type called.
fn options_of(
    t: &TypeRules,
    names: &mut std::collections::BTreeSet<String>,
    calls: &mut impl FnMut(TypeId),
) {
    let all = t.validations.iter().chain(&t.iterations).chain(
        t.fields
            .iter()
            .flat_map(|f| f.validations.iter().chain(&f.iterations)),
    );
    for v in all {
        visit_validation(v, &mut |x| match &x.check {
            Check::IfOption { option, .. } => {
                names.insert(option.clone());
            }
            Check::Enum(spec) => {
                names.extend(spec.exclusions.iter().map(|e| e.option.clone()));
            }
            Check::CallType(id) => calls(*id),
            _ => {}
        });
    }
}

/// Calls `f` on `v` and on every validation it wraps (wrapper checks, mode rules).
pub(crate) fn visit_validation<'a>(v: &'a Validation, f: &mut impl FnMut(&'a Validation)) {
    f(v);
    if let Some(inner) = v.check.inner() {
        visit_validation(inner, f);
    }
    if let Check::Discriminated(d) = &v.check {
        for rule in &d.rules {
            for r in &rule.validations {
                visit_validation(r, f);
            }
        }
    }
}

/// Fills [`TypeRules::declarative_native`]: a type's own native field blocks and unions,
/// then, backwards along the calls between type functions, every type that reaches one
/// (linear, like `has_validations`).
pub(crate) fn fill_declarative_native(types: &mut [TypeRules]) {
    let n = types.len();
    let mut native = vec![false; n];
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, t) in types.iter().enumerate() {
        let mut own = t.fields.iter().any(|f| f.declarative_native);
        let mut calls: Vec<usize> = t
            .fields
            .iter()
            .filter_map(|f| f.type_call.map(|id| id.0 as usize))
            .collect();
        let all = t.validations.iter().chain(&t.iterations).chain(
            t.fields
                .iter()
                .flat_map(|f| f.validations.iter().chain(&f.iterations)),
        );
        for v in all {
            visit_validation(v, &mut |x| {
                own |= x.declarative_native;
                if let Check::CallType(id) = x.check {
                    calls.push(id.0 as usize);
                }
            });
        }
        native[i] = own;
        for j in calls {
            if j < n {
                callers[j].push(i);
            }
        }
    }
    let mut queue: Vec<usize> = (0..n).filter(|&i| native[i]).collect();
    while let Some(j) = queue.pop() {
        for &i in &callers[j] {
            if !native[i] {
                native[i] = true;
                queue.push(i);
            }
        }
    }
    for (t, n) in types.iter_mut().zip(native) {
        t.declarative_native = n;
    }
}

#[cfg(test)]
mod key_order_tests {
    use super::*;

    #[test]
    fn common_kind_spans_pointers_and_narrows_integer_ranges() {
        let int = |bits, signed| Shape::Int(IntKind { bits, signed });
        let field = |shape: u32| StructField {
            go_name: format!("F{shape}"),
            access: FieldAccess::Key(format!("f{shape}")),
            shape: ShapeId(shape),
        };
        let mut shapes = vec![
            int(16, true),
            Shape::Pointer(ShapeId(2)),
            int(64, false),
            Shape::String { named: true },
            Shape::Struct(StructShape::new(vec![field(0), field(1), field(2)])),
            Shape::Struct(StructShape::new(vec![field(0), field(3)])),
            Shape::Struct(StructShape::new(vec![field(3), field(3)])),
            Shape::Struct(StructShape::new(vec![])),
        ];
        fill_common_kinds(&mut shapes);
        let kind = |i: usize| match &shapes[i] {
            Shape::Struct(st) => st.common_kind,
            _ => None,
        };
        assert_eq!(kind(4), Some(CommonKind::Int { min: 0, max: 32767 }));
        // An int and a string: one of them is the exception.
        assert_eq!(kind(5), Some(CommonKind::String));
        assert_eq!(kind(6), Some(CommonKind::String));
        assert_eq!(kind(7), None);
        let others = |i: usize| match &shapes[i] {
            Shape::Struct(st) => st.other_kinds.clone(),
            _ => Vec::new(),
        };
        assert_eq!(others(5), vec![0]);
        assert_eq!(others(4), Vec::<u32>::new());
    }

    #[test]
    fn key_order_sorts_keyed_fields_and_skips_the_others() {
        let accesses = [
            FieldAccess::Key("b".into()),
            FieldAccess::Inline {
                keys: vec!["z".into()],
            },
            FieldAccess::Key("a".into()),
            FieldAccess::Skip,
            FieldAccess::Key("b".into()),
            FieldAccess::Key("B".into()),
        ];
        assert_eq!(key_order(accesses.iter()), vec![5, 2, 0, 4]);
    }
}

/// One term of a list-item selector (`k8s:item(key: value)`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SelectorTerm {
    pub field: String,
    pub value: Literal,
}
