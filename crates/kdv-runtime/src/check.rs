//! The scalar validators behind the `+k8s:` tags, shared by the interpreter and generated
//! code so the two cannot drift. Each appends its errors (with upstream's exact types,
//! details, bad values and origins) to `out`, and allocates nothing when the value passes.
//!
//! Presence is the caller's business: upstream skips most validators for an absent value
//! (a nil pointer), so call these only for present values unless the doc says otherwise.

use crate::error::{BadValue, ErrorList, FieldError};
use crate::gofmt;
use crate::operation::Operation;
use crate::path::PathRef;

/// The origins carried by the errors of these validators (spec Appendix B).
pub mod origin {
    /// `+k8s:minimum`.
    pub const MINIMUM: &str = "minimum";
    /// `+k8s:maximum`.
    pub const MAXIMUM: &str = "maximum";
    /// `+k8s:minLength`.
    pub const MIN_LENGTH: &str = "minLength";
    /// `+k8s:maxLength`.
    pub const MAX_LENGTH: &str = "maxLength";
    /// `+k8s:maxBytes`.
    pub const MAX_BYTES: &str = "maxBytes";
    /// `+k8s:minItems`.
    pub const MIN_ITEMS: &str = "minItems";
    /// `+k8s:maxItems`.
    pub const MAX_ITEMS: &str = "maxItems";
    /// `+k8s:minProperties`.
    pub const MIN_PROPERTIES: &str = "minProperties";
    /// `+k8s:maxProperties`.
    pub const MAX_PROPERTIES: &str = "maxProperties";
    /// `+k8s:neq`.
    pub const NEQ: &str = "neq";
    /// `+k8s:immutable`.
    pub const IMMUTABLE: &str = "immutable";
    /// `+k8s:update`.
    pub const UPDATE: &str = "update";
    /// `+k8s:monotonic`.
    pub const MONOTONIC: &str = "monotonic";
    /// `+k8s:unionMember` (exactly-one and discriminated unions).
    pub const UNION: &str = "union";
    /// `+k8s:zeroOrOneOfMember`.
    pub const ZERO_OR_ONE_OF: &str = "zeroOrOneOf";
    /// `+k8s:dependentRequired`.
    pub const DEPENDENT_REQUIRED: &str = "dependentRequired";
    /// `+k8s:dependentForbidden`.
    pub const DEPENDENT_FORBIDDEN: &str = "dependentForbidden";
    /// `+k8s:validateFalse`.
    pub const VALIDATE_FALSE: &str = "validateFalse";
}

// ---- numeric bounds ----

/// `+k8s:minimum` on a signed integer: `value < min` →
/// `Invalid(value, "must be greater than or equal to <min>")`, origin `minimum`.
#[inline]
pub fn minimum_int(path: &PathRef<'_>, value: i64, min: i64, out: &mut ErrorList) {
    if value < min {
        out.push(
            FieldError::invalid(path, BadValue::Int(value), min_error(min))
                .with_origin(origin::MINIMUM),
        );
    }
}

/// `+k8s:minimum` on an unsigned integer (see [`minimum_int`]).
#[inline]
pub fn minimum_uint(path: &PathRef<'_>, value: u64, min: u64, out: &mut ErrorList) {
    if value < min {
        out.push(
            FieldError::invalid(path, BadValue::Uint(value), min_error(min))
                .with_origin(origin::MINIMUM),
        );
    }
}

/// `+k8s:maximum` on a signed integer: `value > max` →
/// `Invalid(value, "must be less than or equal to <max>")`, origin `maximum`.
#[inline]
pub fn maximum_int(path: &PathRef<'_>, value: i64, max: i64, out: &mut ErrorList) {
    if value > max {
        out.push(
            FieldError::invalid(path, BadValue::Int(value), max_error(max))
                .with_origin(origin::MAXIMUM),
        );
    }
}

/// `+k8s:maximum` on an unsigned integer (see [`maximum_int`]).
#[inline]
pub fn maximum_uint(path: &PathRef<'_>, value: u64, max: u64, out: &mut ErrorList) {
    if value > max {
        out.push(
            FieldError::invalid(path, BadValue::Uint(value), max_error(max))
                .with_origin(origin::MAXIMUM),
        );
    }
}

fn min_error(min: impl std::fmt::Display) -> String {
    format!("must be greater than or equal to {min}")
}

fn max_error(max: impl std::fmt::Display) -> String {
    format!("must be less than or equal to {max}")
}

// ---- string lengths ----

#[inline]
fn quarter_ceil(bytes: usize) -> i64 {
    // Go: int(math.Ceil(float64(len) / 4.0)); a lower bound on the character count.
    bytes.div_ceil(4) as i64
}

/// `+k8s:maxLength`: at most `max` characters (code points). Counts characters only when the
/// byte length alone cannot decide. Failure → `TooLongCharacters(max)`, origin `maxLength`.
#[inline]
pub fn max_length(path: &PathRef<'_>, value: &str, max: i64, out: &mut ErrorList) {
    let bytes = value.len();
    if (bytes as i64) <= max {
        return;
    }
    if quarter_ceil(bytes) > max || value.chars().count() as i64 > max {
        out.push(FieldError::too_long_characters(path, max).with_origin(origin::MAX_LENGTH));
    }
}

/// `+k8s:maxBytes`: at most `max` bytes. Failure → `TooLong(max)`, origin `maxBytes`.
#[inline]
pub fn max_bytes(path: &PathRef<'_>, value: &str, max: i64, out: &mut ErrorList) {
    if value.len() as i64 > max {
        out.push(FieldError::too_long(path, max).with_origin(origin::MAX_BYTES));
    }
}

/// `+k8s:minLength`: at least `min` characters. Failure → `TooShort(value, min)`, origin
/// `minLength`.
#[inline]
pub fn min_length(path: &PathRef<'_>, value: &str, min: i64, out: &mut ErrorList) {
    let bytes = value.len();
    if quarter_ceil(bytes) >= min {
        return;
    }
    if (bytes as i64) < min || (value.chars().count() as i64) < min {
        out.push(
            FieldError::too_short(path, BadValue::string(value), min)
                .with_origin(origin::MIN_LENGTH),
        );
    }
}

// ---- collection sizes ----

/// `+k8s:minItems`: `len < min` → `TooFew(len, min)`, origin `minItems` (a nil list has
/// length 0 and is checked).
#[inline]
pub fn min_items(path: &PathRef<'_>, len: usize, min: i64, out: &mut ErrorList) {
    if (len as i64) < min {
        out.push(FieldError::too_few(path, len as i64, min).with_origin(origin::MIN_ITEMS));
    }
}

/// `+k8s:maxItems`: `len > max` → `TooMany(len, max)`, origin `maxItems`.
#[inline]
pub fn max_items(path: &PathRef<'_>, len: usize, max: i64, out: &mut ErrorList) {
    if len as i64 > max {
        out.push(FieldError::too_many(path, len as i64, max).with_origin(origin::MAX_ITEMS));
    }
}

/// `+k8s:minProperties`: `len < min` → `TooFew(len, min)`, origin `minProperties` (a nil
/// map has length 0 and is checked).
#[inline]
pub fn min_properties(path: &PathRef<'_>, len: usize, min: i64, out: &mut ErrorList) {
    if (len as i64) < min {
        out.push(FieldError::too_few(path, len as i64, min).with_origin(origin::MIN_PROPERTIES));
    }
}

/// `+k8s:maxProperties`: `len > max` → `TooMany(len, max)`, origin `maxProperties`.
/// Upstream skips a nil map; the caller does that.
#[inline]
pub fn max_properties(path: &PathRef<'_>, len: usize, max: i64, out: &mut ErrorList) {
    if len as i64 > max {
        out.push(FieldError::too_many(path, len as i64, max).with_origin(origin::MAX_PROPERTIES));
    }
}

// ---- enums ----

/// A conditional enum exclusion (`+k8s:ifEnabled(Opt)=+k8s:enumExclude` on a constant):
/// `value` is excluded when option `option` is `exclude_when`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EnumExclusion<S = String> {
    /// The excluded member.
    pub value: S,
    /// The option deciding the exclusion.
    pub option: S,
    /// Exclude when the option has this state (`true` for ifEnabled, `false` for ifDisabled).
    pub exclude_when: bool,
}

/// The members of an enum: sorted ascending (byte-wise) and deduplicated, as
/// [`enum_value`] requires.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct EnumSet {
    values: Vec<String>,
}

impl EnumSet {
    /// Builds the set from members in any order, with duplicates.
    pub fn new<S: Into<String>>(members: impl IntoIterator<Item = S>) -> EnumSet {
        let mut values: Vec<String> = members.into_iter().map(Into::into).collect();
        values.sort();
        values.dedup();
        EnumSet { values }
    }

    /// Whether `value` is a member.
    #[inline]
    pub fn contains(&self, value: &str) -> bool {
        self.values
            .binary_search_by(|m| m.as_str().cmp(value))
            .is_ok()
    }

    /// The members, sorted.
    pub fn values(&self) -> &[String] {
        &self.values
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there are no members.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

impl std::ops::Deref for EnumSet {
    type Target = [String];
    fn deref(&self) -> &[String] {
        &self.values
    }
}

/// Upstream's exclusion lookup: rules are examined in order; the first rule whose option
/// is undefined ends the lookup with that option as the error.
fn is_excluded<'x, X: AsRef<str>>(
    op: &Operation,
    exclusions: &'x [EnumExclusion<X>],
    value: &str,
) -> Result<bool, &'x str> {
    for rule in exclusions {
        let Some(on) = op.has_option(rule.option.as_ref()) else {
            return Err(rule.option.as_ref());
        };
        if rule.value.as_ref() == value && rule.exclude_when == on {
            return Ok(true);
        }
    }
    Ok(false)
}

fn undefined_option_message(option: &str) -> String {
    format!("undefined validation option {}", gofmt::quote(option))
}

/// `+k8s:enum` (spec §3.9). `members` must be sorted ascending and deduplicated (use
/// [`EnumSet`], or a sorted static slice in generated code). A value that is not a member,
/// or is excluded, gets `NotSupported(value, <supported members, sorted>)` with no origin
/// (the bad value is a [`BadValue::named_string`], as enums are named types); an
/// exclusion rule naming an undefined option gets
/// `InternalError("undefined validation option \"<Opt>\"")`.
pub fn enum_value<M: AsRef<str>, X: AsRef<str>>(
    path: &PathRef<'_>,
    value: &str,
    members: &[M],
    exclusions: &[EnumExclusion<X>],
    op: &Operation,
    out: &mut ErrorList,
) {
    let excluded = match is_excluded(op, exclusions, value) {
        Ok(excluded) => excluded,
        Err(option) => {
            out.push(FieldError::internal(path, undefined_option_message(option)));
            return;
        }
    };
    let is_member = members.binary_search_by(|m| m.as_ref().cmp(value)).is_ok();
    if is_member && !excluded {
        return;
    }
    let mut supported: Vec<&str> = Vec::with_capacity(members.len());
    for m in members {
        match is_excluded(op, exclusions, m.as_ref()) {
            Ok(true) => {}
            Ok(false) => supported.push(m.as_ref()),
            Err(option) => {
                out.push(FieldError::internal(path, undefined_option_message(option)));
                return;
            }
        }
    }
    // Members are sorted already; sorting again keeps the output right for unsorted input.
    supported.sort_unstable();
    // An enum is always a named string type, which Go prints JSON-encoded.
    out.push(FieldError::not_supported(
        path,
        BadValue::named_string(value),
        &supported,
    ));
}

// ---- neq ----

/// `+k8s:neq` on a string: equal → `Invalid(value, "must not be equal to \"<v>\"")`
/// (Go-quoted), origin `neq`.
#[inline]
pub fn neq_string(path: &PathRef<'_>, value: &str, disallowed: &str, out: &mut ErrorList) {
    if value == disallowed {
        let detail = format!("must not be equal to {}", gofmt::quote(disallowed));
        out.push(
            FieldError::invalid(path, BadValue::string(value), detail).with_origin(origin::NEQ),
        );
    }
}

/// [`neq_string`] for a field of a named string type: the bad value is a
/// [`BadValue::named_string`], as Go prints it JSON-encoded.
#[inline]
pub fn neq_named_string(path: &PathRef<'_>, value: &str, disallowed: &str, out: &mut ErrorList) {
    if value == disallowed {
        let detail = format!("must not be equal to {}", gofmt::quote(disallowed));
        out.push(
            FieldError::invalid(path, BadValue::named_string(value), detail)
                .with_origin(origin::NEQ),
        );
    }
}

/// `+k8s:neq` on a signed integer: equal → `Invalid(value, "must not be equal to <v>")`.
#[inline]
pub fn neq_int(path: &PathRef<'_>, value: i64, disallowed: i64, out: &mut ErrorList) {
    if value == disallowed {
        let detail = format!("must not be equal to {disallowed}");
        out.push(FieldError::invalid(path, BadValue::Int(value), detail).with_origin(origin::NEQ));
    }
}

/// `+k8s:neq` on an unsigned integer (see [`neq_int`]).
#[inline]
pub fn neq_uint(path: &PathRef<'_>, value: u64, disallowed: u64, out: &mut ErrorList) {
    if value == disallowed {
        let detail = format!("must not be equal to {disallowed}");
        out.push(FieldError::invalid(path, BadValue::Uint(value), detail).with_origin(origin::NEQ));
    }
}

/// `+k8s:neq` on a bool: equal → `Invalid(value, "must not be equal to true")`.
#[inline]
pub fn neq_bool(path: &PathRef<'_>, value: bool, disallowed: bool, out: &mut ErrorList) {
    if value == disallowed {
        let detail = format!("must not be equal to {disallowed}");
        out.push(FieldError::invalid(path, BadValue::Bool(value), detail).with_origin(origin::NEQ));
    }
}

// ---- update-time rules ----

/// `+k8s:immutable`: on Update, unconditionally `Invalid(null, "field is immutable")`, origin
/// `immutable` (ratcheting decides whether it is reached); nothing on Create.
#[inline]
pub fn immutable(path: &PathRef<'_>, op: &Operation, out: &mut ErrorList) {
    if op.is_update() {
        out.push(
            FieldError::invalid(path, BadValue::Null, "field is immutable")
                .with_origin(origin::IMMUTABLE),
        );
    }
}

/// `+k8s:monotonic` on a signed integer, for an Update where both values are present:
/// `value < old` → `Invalid(value, "may not be decreased from <old>")`, origin `monotonic`.
#[inline]
pub fn monotonic_int(
    path: &PathRef<'_>,
    op: &Operation,
    value: i64,
    old: i64,
    out: &mut ErrorList,
) {
    if op.is_update() && value < old {
        let detail = format!("may not be decreased from {old}");
        out.push(
            FieldError::invalid(path, BadValue::Int(value), detail).with_origin(origin::MONOTONIC),
        );
    }
}

/// `+k8s:monotonic` on an unsigned integer (see [`monotonic_int`]).
#[inline]
pub fn monotonic_uint(
    path: &PathRef<'_>,
    op: &Operation,
    value: u64,
    old: u64,
    out: &mut ErrorList,
) {
    if op.is_update() && value < old {
        let detail = format!("may not be decreased from {old}");
        out.push(
            FieldError::invalid(path, BadValue::Uint(value), detail).with_origin(origin::MONOTONIC),
        );
    }
}

/// A `+k8s:update=<constraint>` constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UpdateConstraint {
    /// Forbid unset → set.
    NoSet,
    /// Forbid set → unset.
    NoUnset,
    /// Forbid set → different set.
    NoModify,
    /// Forbid new list items / map keys.
    NoAddItem,
    /// Forbid removing list items / map keys.
    NoRemoveItem,
}

impl UpdateConstraint {
    /// All constraints in upstream's processing order.
    pub const ALL: [UpdateConstraint; 5] = [
        UpdateConstraint::NoSet,
        UpdateConstraint::NoUnset,
        UpdateConstraint::NoModify,
        UpdateConstraint::NoAddItem,
        UpdateConstraint::NoRemoveItem,
    ];

    /// The tag payload (`NoSet`, …).
    pub fn name(self) -> &'static str {
        match self {
            UpdateConstraint::NoSet => "NoSet",
            UpdateConstraint::NoUnset => "NoUnset",
            UpdateConstraint::NoModify => "NoModify",
            UpdateConstraint::NoAddItem => "NoAddItem",
            UpdateConstraint::NoRemoveItem => "NoRemoveItem",
        }
    }

    /// Parses a tag payload.
    pub fn from_name(name: &str) -> Option<UpdateConstraint> {
        UpdateConstraint::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// `NoSet` violated: `Invalid(null, "field cannot be set once created")`, origin `update`.
pub fn update_set_forbidden(path: &PathRef<'_>, out: &mut ErrorList) {
    out.push(
        FieldError::invalid(path, BadValue::Null, "field cannot be set once created")
            .with_origin(origin::UPDATE),
    );
}

/// `NoUnset` violated: `Invalid(null, "field cannot be cleared once set")`, origin `update`.
pub fn update_unset_forbidden(path: &PathRef<'_>, out: &mut ErrorList) {
    out.push(
        FieldError::invalid(path, BadValue::Null, "field cannot be cleared once set")
            .with_origin(origin::UPDATE),
    );
}

/// `NoModify` violated: `Invalid(null, "field cannot be modified once set")`, origin `update`.
pub fn update_modify_forbidden(path: &PathRef<'_>, out: &mut ErrorList) {
    out.push(
        FieldError::invalid(path, BadValue::Null, "field cannot be modified once set")
            .with_origin(origin::UPDATE),
    );
}

/// `NoAddItem` violated: `Forbidden("item may not be added")`, origin `update`; `path` is
/// the new item's path (`list[i]` or `map[key]`).
pub fn update_item_added(path: &PathRef<'_>, out: &mut ErrorList) {
    out.push(FieldError::forbidden(path, "item may not be added").with_origin(origin::UPDATE));
}

/// `NoRemoveItem` violated: `Forbidden("item may not be removed")`, origin `update`; `path`
/// is the list's own path for lists and `map[key]` for maps.
pub fn update_item_removed(path: &PathRef<'_>, out: &mut ErrorList) {
    out.push(FieldError::forbidden(path, "item may not be removed").with_origin(origin::UPDATE));
}

/// The set/unset/modify part of `+k8s:update`, in the order given (only on Update).
/// `old_set` is `None` when there is no old value to compare with (nothing is checked), else
/// whether the old value was set; `new_set` whether the new one is. Per kind (spec §3.13):
/// pointers pass `Some(old.is_some())` even when the old value is absent; non-pointer structs
/// pass `Some(true)`/`true`; scalars and lists pass their zero/empty-ness. `NoModify` assumes
/// ratcheting already established that the value changed. `NoAddItem`/`NoRemoveItem` need item
/// identity and are ignored here (see [`update_item_added`], [`update_item_removed`]).
pub fn update_transition(
    path: &PathRef<'_>,
    op: &Operation,
    old_set: Option<bool>,
    new_set: bool,
    constraints: &[UpdateConstraint],
    out: &mut ErrorList,
) {
    if !op.is_update() {
        return;
    }
    let Some(old_set) = old_set else { return };
    for c in constraints {
        match c {
            UpdateConstraint::NoSet if !old_set && new_set => update_set_forbidden(path, out),
            UpdateConstraint::NoUnset if old_set && !new_set => update_unset_forbidden(path, out),
            UpdateConstraint::NoModify if old_set && new_set => update_modify_forbidden(path, out),
            _ => {}
        }
    }
}

// ---- presence ----

/// `+k8s:required` on an unset value: `Required("")`, no origin.
#[inline]
pub fn required(path: &PathRef<'_>, out: &mut ErrorList) {
    out.push(FieldError::required(path, ""));
}

/// `+k8s:forbidden` on a set value (also a mode's implicit forbidden): `Forbidden("")`, no
/// origin.
#[inline]
pub fn forbidden(path: &PathRef<'_>, out: &mut ErrorList) {
    out.push(FieldError::forbidden(path, ""));
}

/// `+k8s:optional` on an unset value: `Required("optional value was not specified")`. Used
/// as a non-error short-circuit; callers normally discard it.
#[inline]
pub fn optional_unset(path: &PathRef<'_>, out: &mut ErrorList) {
    out.push(FieldError::required(
        path,
        "optional value was not specified",
    ));
}

/// A nil element of a list of pointers (`PtrSliceNoNils`): `Required("")` at `list[i]`.
#[inline]
pub fn nil_list_item(item_path: &PathRef<'_>, out: &mut ErrorList) {
    out.push(FieldError::required(item_path, ""));
}

/// A uniqueness violation: `Duplicate(value)`, no origin.
#[inline]
pub fn duplicate(path: &PathRef<'_>, value: BadValue, out: &mut ErrorList) {
    out.push(FieldError::duplicate(path, value));
}

// ---- options and testing tags ----

/// An `ifEnabled`/`ifDisabled`/enum-exclusion option that the operation does not define:
/// `InternalError("undefined validation option \"<Opt>\"")`, no origin.
#[inline]
pub fn if_option_undefined(path: &PathRef<'_>, option: &str, out: &mut ErrorList) {
    out.push(FieldError::internal(path, undefined_option_message(option)));
}

/// `IfOption`: whether the wrapped validation runs — the option is defined and equals
/// `enabled`. An undefined option appends the internal error of [`if_option_undefined`] and
/// returns `false`.
#[inline]
pub fn if_option(
    path: &PathRef<'_>,
    op: &Operation,
    option: &str,
    enabled: bool,
    out: &mut ErrorList,
) -> bool {
    match op.has_option(option) {
        Some(on) => on == enabled,
        None => {
            if_option_undefined(path, option, out);
            false
        }
    }
}

/// `+k8s:validateFalse` / `validateTrue` (`FixedResult`): when `ok` is false,
/// `Invalid(value(), "forced failure: <msg>")`, origin `validateFalse`. The bad value is
/// built only on failure. Upstream passes the nilable form (a pointer for scalars and
/// structs), which Go prints with `json.Marshal`: pass `BadValue::Json(..)`, or
/// `BadValue::Null` for an absent value, to print the same text.
#[inline]
pub fn fixed_result(
    path: &PathRef<'_>,
    value: impl FnOnce() -> BadValue,
    ok: bool,
    msg: &str,
    out: &mut ErrorList,
) {
    if !ok {
        out.push(
            FieldError::invalid(path, value(), format!("forced failure: {msg}"))
                .with_origin(origin::VALIDATE_FALSE),
        );
    }
}

// ---- dependencies and unions ----

/// `+k8s:dependentRequired`: the dependent (at `dependent_path`) is unset while `trigger` is
/// set → `Required("must be set when <trigger> is set")`, origin `dependentRequired`.
pub fn dependent_required(dependent_path: &PathRef<'_>, trigger: &str, out: &mut ErrorList) {
    out.push(
        FieldError::required(dependent_path, format!("must be set when {trigger} is set"))
            .with_origin(origin::DEPENDENT_REQUIRED),
    );
}

/// `+k8s:dependentForbidden`: both set → `Forbidden("may not be set when <trigger> is set")`,
/// origin `dependentForbidden`.
pub fn dependent_forbidden(dependent_path: &PathRef<'_>, trigger: &str, out: &mut ErrorList) {
    out.push(
        FieldError::forbidden(
            dependent_path,
            format!("may not be set when {trigger} is set"),
        )
        .with_origin(origin::DEPENDENT_FORBIDDEN),
    );
}

fn backticked_list(names: &[&str]) -> String {
    let mut out = String::new();
    for (i, n) in names.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push('`');
        out.push_str(n);
        out.push('`');
    }
    out
}

fn braced_list(names: &[&str]) -> String {
    format!("{{{}}}", names.join(", "))
}

/// An exactly-one union (`Union`, spec §6.2) given the names of the set members and of all
/// members: none set → ``Invalid("", "must specify one of: `a`, `b`")``; several →
/// ``Invalid("{a, b}", "must specify exactly one of: `a`, `b`")``; origin `union`.
/// Ratcheting (unchanged set-ness on Update) is the caller's.
pub fn union_exactly_one(path: &PathRef<'_>, set: &[&str], all: &[&str], out: &mut ErrorList) {
    match set.len() {
        1 => {}
        0 => out.push(
            FieldError::invalid(
                path,
                BadValue::string(""),
                format!("must specify one of: {}", backticked_list(all)),
            )
            .with_origin(origin::UNION),
        ),
        _ => out.push(
            FieldError::invalid(
                path,
                BadValue::String(braced_list(set)),
                format!("must specify exactly one of: {}", backticked_list(all)),
            )
            .with_origin(origin::UNION),
        ),
    }
}

/// A zero-or-one-of union (spec §6.3): several set →
/// ``Invalid("{a, b}", "must specify at most one of: `a`, `b`")``, origin `zeroOrOneOf`.
pub fn union_zero_or_one(path: &PathRef<'_>, set: &[&str], all: &[&str], out: &mut ErrorList) {
    if set.len() > 1 {
        out.push(
            FieldError::invalid(
                path,
                BadValue::String(braced_list(set)),
                format!("must specify at most one of: {}", backticked_list(all)),
            )
            .with_origin(origin::ZERO_OR_ONE_OF),
        );
    }
}

/// A discriminated-union member set while the discriminator selects another (spec §6.4):
/// ``Invalid("", "may only be specified when `<disc>` is \"<member value>\"")``, origin `union`.
pub fn union_member_not_selected(
    member_path: &PathRef<'_>,
    discriminator: &str,
    member_value: &str,
    out: &mut ErrorList,
) {
    let detail = format!(
        "may only be specified when `{discriminator}` is {}",
        gofmt::quote(member_value)
    );
    out.push(
        FieldError::invalid(member_path, BadValue::string(""), detail).with_origin(origin::UNION),
    );
}

/// A discriminated-union member unset while the discriminator selects it (spec §6.4):
/// ``Invalid("", "must be specified when `<disc>` is \"<value>\"")``, origin `union`.
pub fn union_member_missing(
    member_path: &PathRef<'_>,
    discriminator: &str,
    value: &str,
    out: &mut ErrorList,
) {
    let detail = format!(
        "must be specified when `{discriminator}` is {}",
        gofmt::quote(value)
    );
    out.push(
        FieldError::invalid(member_path, BadValue::string(""), detail).with_origin(origin::UNION),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorType;

    fn texts(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn passing_checks_allocate_nothing() {
        let root = PathRef::Nil;
        let spec = root.child("spec");
        let x = spec.child("x");
        let members: &[&str] = &["a", "b", "c"];
        let rules = [EnumExclusion {
            value: "c",
            option: "F",
            exclude_when: true,
        }];
        let op = Operation::update().with_option("F", true);
        let set = EnumSet::new(["a", "b"]);
        let mut out = ErrorList::with_capacity(4);
        let n = crate::alloc_count::allocations(|| {
            minimum_int(&x, 5, 1, &mut out);
            maximum_uint(&x, 5, 10, &mut out);
            max_length(&x, "ééé", 3, &mut out);
            max_bytes(&x, "abc", 3, &mut out);
            min_length(&x, "日本", 2, &mut out);
            min_items(&x, 3, 1, &mut out);
            max_items(&x, 3, 3, &mut out);
            min_properties(&x, 1, 1, &mut out);
            max_properties(&x, 1, 1, &mut out);
            enum_value(&x, "b", members, &rules, &op, &mut out);
            enum_value::<String, String>(&x, "a", &set, &[], &op, &mut out);
            neq_string(&x, "a", "b", &mut out);
            neq_int(&x, 1, 2, &mut out);
            neq_bool(&x, true, false, &mut out);
            immutable(&x, &Operation::create(), &mut out);
            monotonic_int(&x, &op, 2, 1, &mut out);
            update_transition(
                &x,
                &op,
                Some(false),
                false,
                &UpdateConstraint::ALL,
                &mut out,
            );
            fixed_result(&x, || BadValue::string("never built"), true, "m", &mut out);
            assert!(if_option(&x, &op, "F", true, &mut out));
        });
        assert_eq!(n, 0);
        assert!(out.is_empty());
    }

    #[test]
    fn bounds() {
        let root = PathRef::Nil;
        let spec = root.child("spec");
        let x = spec.child("x");
        let mut out = ErrorList::new();
        minimum_int(&x, 10, 10, &mut out);
        maximum_int(&x, 10, 10, &mut out);
        minimum_uint(&x, 10, 10, &mut out);
        maximum_uint(&x, 10, 10, &mut out);
        assert!(out.is_empty());
        minimum_int(&x, 5, 10, &mut out);
        maximum_int(&x, 11, 10, &mut out);
        minimum_uint(&x, 0, 1, &mut out);
        maximum_uint(&x, u64::MAX, 1, &mut out);
        minimum_int(&x, i64::MIN, -3, &mut out);
        assert_eq!(
            texts(&out),
            [
                "spec.x: Invalid value: 5: must be greater than or equal to 10",
                "spec.x: Invalid value: 11: must be less than or equal to 10",
                "spec.x: Invalid value: 0: must be greater than or equal to 1",
                "spec.x: Invalid value: 18446744073709551615: must be less than or equal to 1",
                "spec.x: Invalid value: -9223372036854775808: must be greater than or equal to -3",
            ]
        );
        assert_eq!(out[0].origin, "minimum");
        assert_eq!(out[1].origin, "maximum");
        assert_eq!(out[0].bad_value, BadValue::Int(5));
        assert_eq!(out[2].bad_value, BadValue::Uint(0));
    }

    #[test]
    fn lengths() {
        let root = PathRef::Nil;
        let f = root.child("f");
        let mut out = ErrorList::new();
        max_length(&f, "abc", 3, &mut out);
        max_length(&f, "ééé", 3, &mut out); // 6 bytes, 3 characters
        max_length(&f, "", 0, &mut out);
        max_bytes(&f, "abc", 3, &mut out);
        min_length(&f, "ab", 2, &mut out);
        min_length(&f, "éé", 2, &mut out);
        min_length(&f, "", 0, &mut out);
        min_length(&f, "", -1, &mut out);
        assert!(out.is_empty(), "{out:?}");
        max_length(&f, "abcd", 3, &mut out);
        max_length(&f, "éééé", 3, &mut out);
        max_length(&f, "ab", 1, &mut out);
        max_length(&f, "a", -1, &mut out);
        max_bytes(&f, "ééé", 3, &mut out);
        max_bytes(&f, "ab", 1, &mut out);
        min_length(&f, "a", 2, &mut out);
        min_length(&f, "", 1, &mut out);
        min_length(&f, "日本", 3, &mut out); // 6 bytes but 2 characters
        assert_eq!(
            texts(&out),
            [
                "f: Too long: may not be more than 3 characters",
                "f: Too long: may not be more than 3 characters",
                "f: Too long: may not be more than 1 character",
                "f: Too long: value is too long",
                "f: Too long: may not be more than 3 bytes",
                "f: Too long: may not be more than 1 byte",
                "f: Too short: must be at least 2 characters",
                "f: Too short: must be at least 1 character",
                "f: Too short: must be at least 3 characters",
            ]
        );
        assert_eq!(out[0].origin, "maxLength");
        assert_eq!(out[0].bad_value, BadValue::string("<value omitted>"));
        assert_eq!(out[4].origin, "maxBytes");
        assert_eq!(out[6].origin, "minLength");
        assert_eq!(out[6].bad_value, BadValue::string("a"));
        assert_eq!(out[6].error_type, ErrorType::TooShort);
    }

    #[test]
    fn sizes() {
        let root = PathRef::Nil;
        let f = root.child("f");
        let mut out = ErrorList::new();
        min_items(&f, 2, 2, &mut out);
        max_items(&f, 2, 2, &mut out);
        min_properties(&f, 0, 0, &mut out);
        max_properties(&f, 0, 0, &mut out);
        assert!(out.is_empty());
        max_items(&f, 3, 2, &mut out);
        max_items(&f, 2, 1, &mut out);
        min_items(&f, 0, 1, &mut out);
        min_items(&f, 1, 3, &mut out);
        max_properties(&f, 5, 4, &mut out);
        min_properties(&f, 0, 2, &mut out);
        assert_eq!(
            texts(&out),
            [
                "f: Too many: 3: must have at most 2 items",
                "f: Too many: 2: must have at most 1 item",
                "f: Too few: 0: must have at least 1 item",
                "f: Too few: 1: must have at least 3 items",
                "f: Too many: 5: must have at most 4 items",
                "f: Too few: 0: must have at least 2 items",
            ]
        );
        let origins: Vec<&str> = out.iter().map(|e| e.origin.as_str()).collect();
        assert_eq!(
            origins,
            [
                "maxItems",
                "maxItems",
                "minItems",
                "minItems",
                "maxProperties",
                "minProperties"
            ]
        );
    }

    #[test]
    fn enums() {
        let root = PathRef::Nil;
        let f = root.child("f");
        let set = EnumSet::new(["b", "a", "a", "c"]);
        assert_eq!(set.values(), ["a", "b", "c"]);
        assert!(set.contains("b") && !set.contains("d"));
        let none: &[EnumExclusion] = &[];
        let op = Operation::create();
        let mut out = ErrorList::new();
        enum_value(&f, "a", &set, none, &op, &mut out);
        assert!(out.is_empty());
        enum_value(&f, "d", &set, none, &op, &mut out);
        assert_eq!(
            texts(&out),
            ["f: Unsupported value: \"d\": supported values: \"a\", \"b\", \"c\""]
        );
        assert_eq!(out[0].origin, "");
        assert_eq!(out[0].error_type, ErrorType::NotSupported);

        // Enums are named types: the value prints JSON-encoded.
        let mut out = ErrorList::new();
        enum_value(&f, "a<b", &set, none, &op, &mut out);
        assert_eq!(
            texts(&out),
            ["f: Unsupported value: \"a\\u003cb\": supported values: \"a\", \"b\", \"c\""]
        );
        assert_eq!(out[0].bad_value, BadValue::named_string("a<b"));

        // Empty enum: everything rejected, no detail.
        let mut out = ErrorList::new();
        enum_value::<&str, &str>(&f, "", &[], &[], &op, &mut out);
        assert_eq!(texts(&out), ["f: Unsupported value: \"\""]);

        // Conditional exclusions.
        let rules = [
            EnumExclusion {
                value: "b",
                option: "FeatureB",
                exclude_when: true,
            },
            EnumExclusion {
                value: "c",
                option: "FeatureC",
                exclude_when: false,
            },
        ];
        let members: &[&str] = &["a", "b", "c"];
        let on_off = Operation::update()
            .with_option("FeatureB", true)
            .with_option("FeatureC", false);
        let mut out = ErrorList::new();
        enum_value(&f, "a", members, &rules, &on_off, &mut out);
        assert!(out.is_empty());
        enum_value(&f, "b", members, &rules, &on_off, &mut out);
        enum_value(&f, "c", members, &rules, &on_off, &mut out);
        assert_eq!(
            texts(&out),
            [
                "f: Unsupported value: \"b\": supported values: \"a\"",
                "f: Unsupported value: \"c\": supported values: \"a\""
            ]
        );
        let off_on = Operation::update()
            .with_option("FeatureB", false)
            .with_option("FeatureC", true);
        let mut out = ErrorList::new();
        for v in ["a", "b", "c"] {
            enum_value(&f, v, members, &rules, &off_on, &mut out);
        }
        assert!(out.is_empty());

        // An undefined option is an internal error even for a value the rule is not about.
        let only_c = Operation::create().with_option("FeatureC", true);
        let mut out = ErrorList::new();
        enum_value(&f, "a", members, &rules, &only_c, &mut out);
        assert_eq!(
            texts(&out),
            ["f: Internal error: undefined validation option \"FeatureB\""]
        );
        assert_eq!(out[0].error_type, ErrorType::Internal);
        // The first rule matches `b` before the undefined second option is reached, but
        // listing the supported values reaches it.
        let only_b = Operation::create().with_option("FeatureB", true);
        let mut out = ErrorList::new();
        enum_value(&f, "a", members, &rules, &only_b, &mut out);
        assert_eq!(
            texts(&out),
            ["f: Internal error: undefined validation option \"FeatureC\""]
        );
        let mut out = ErrorList::new();
        enum_value(&f, "b", members, &rules, &only_b, &mut out);
        assert_eq!(
            texts(&out),
            ["f: Internal error: undefined validation option \"FeatureC\""]
        );

        // Owned exclusions (as the interpreter stores them).
        let owned = vec![EnumExclusion {
            value: "a".to_owned(),
            option: "X".to_owned(),
            exclude_when: true,
        }];
        let mut out = ErrorList::new();
        enum_value(
            &f,
            "a",
            &set,
            &owned,
            &Operation::create().with_option("X", true),
            &mut out,
        );
        assert_eq!(
            texts(&out),
            ["f: Unsupported value: \"a\": supported values: \"b\", \"c\""]
        );
    }

    #[test]
    fn neq() {
        let root = PathRef::Nil;
        let f = root.child("f");
        let mut out = ErrorList::new();
        neq_string(&f, "bar", "foo", &mut out);
        neq_int(&f, 4, 5, &mut out);
        neq_uint(&f, 4, 5, &mut out);
        neq_bool(&f, false, true, &mut out);
        assert!(out.is_empty());
        neq_string(&f, "foo", "foo", &mut out);
        neq_string(&f, "a\"b", "a\"b", &mut out);
        neq_int(&f, 5, 5, &mut out);
        neq_uint(&f, 7, 7, &mut out);
        neq_bool(&f, true, true, &mut out);
        neq_named_string(&f, "x", "y", &mut out);
        neq_named_string(&f, "<", "<", &mut out);
        assert_eq!(
            texts(&out),
            [
                "f: Invalid value: \"foo\": must not be equal to \"foo\"",
                "f: Invalid value: \"a\\\"b\": must not be equal to \"a\\\"b\"",
                "f: Invalid value: 5: must not be equal to 5",
                "f: Invalid value: 7: must not be equal to 7",
                "f: Invalid value: true: must not be equal to true",
                "f: Invalid value: \"\\u003c\": must not be equal to \"<\"",
            ]
        );
        assert!(out.iter().all(|e| e.origin == "neq"));
    }

    #[test]
    fn update_rules() {
        let root = PathRef::Nil;
        let spec = root.child("spec");
        let x = spec.child("x");
        let create = Operation::create();
        let update = Operation::update();
        let mut out = ErrorList::new();
        immutable(&x, &create, &mut out);
        monotonic_int(&x, &update, 5, 5, &mut out);
        monotonic_int(&x, &create, 1, 5, &mut out);
        monotonic_uint(&x, &update, 6, 5, &mut out);
        assert!(out.is_empty());
        immutable(&x, &update, &mut out);
        monotonic_int(&x, &update, 3, 5, &mut out);
        monotonic_uint(&x, &update, 3, 5, &mut out);
        assert_eq!(
            texts(&out),
            [
                "spec.x: Invalid value: null: field is immutable",
                "spec.x: Invalid value: 3: may not be decreased from 5",
                "spec.x: Invalid value: 3: may not be decreased from 5",
            ]
        );
        assert_eq!(out[0].origin, "immutable");
        assert_eq!(out[1].origin, "monotonic");

        use UpdateConstraint::*;
        assert_eq!(UpdateConstraint::from_name("NoModify"), Some(NoModify));
        assert_eq!(UpdateConstraint::from_name("nomodify"), None);
        let all = [NoSet, NoUnset, NoModify];
        let mut out = ErrorList::new();
        update_transition(&x, &create, Some(false), true, &all, &mut out);
        update_transition(&x, &update, None, true, &all, &mut out);
        update_transition(&x, &update, Some(false), false, &all, &mut out);
        assert!(out.is_empty());
        update_transition(&x, &update, Some(false), true, &all, &mut out);
        update_transition(&x, &update, Some(true), false, &all, &mut out);
        update_transition(&x, &update, Some(true), true, &all, &mut out);
        update_transition(
            &x,
            &update,
            Some(true),
            true,
            &[NoSet, NoUnset, NoAddItem],
            &mut out,
        );
        assert_eq!(
            texts(&out),
            [
                "spec.x: Invalid value: null: field cannot be set once created",
                "spec.x: Invalid value: null: field cannot be cleared once set",
                "spec.x: Invalid value: null: field cannot be modified once set",
            ]
        );
        assert!(out.iter().all(|e| e.origin == "update"));
        let l = spec.child("l");
        let item = l.index(2);
        let mut out = ErrorList::new();
        update_item_added(&item, &mut out);
        update_item_removed(&l, &mut out);
        assert_eq!(
            texts(&out),
            [
                "spec.l[2]: Forbidden: item may not be added",
                "spec.l: Forbidden: item may not be removed"
            ]
        );
        assert!(out.iter().all(|e| e.origin == "update"));
    }

    #[test]
    fn presence_and_testing() {
        let root = PathRef::Nil;
        let f = root.child("f");
        let l = root.child("l");
        let l1 = l.index(1);
        let mut out = ErrorList::new();
        required(&root, &mut out);
        required(&f, &mut out);
        forbidden(&f, &mut out);
        optional_unset(&f, &mut out);
        nil_list_item(&l1, &mut out);
        duplicate(&l1, BadValue::string("x"), &mut out);
        if_option_undefined(&f, "Opt", &mut out);
        fixed_result(&f, || BadValue::Int(1), true, "never", &mut out);
        fixed_result(&f, || BadValue::string("v"), false, "msg", &mut out);
        fixed_result(&f, || BadValue::Null, false, "", &mut out);
        assert_eq!(
            texts(&out),
            [
                "<nil>: Required value",
                "f: Required value",
                "f: Forbidden",
                "f: Required value: optional value was not specified",
                "l[1]: Required value",
                "l[1]: Duplicate value: \"x\"",
                "f: Internal error: undefined validation option \"Opt\"",
                "f: Invalid value: \"v\": forced failure: msg",
                "f: Invalid value: null: forced failure: ",
            ]
        );
        assert!(out[..7].iter().all(|e| e.origin.is_empty()));
        assert_eq!(out[7].origin, "validateFalse");
        assert_eq!(out[0].bad_value, BadValue::string(""));

        let op = Operation::create()
            .with_option("On", true)
            .with_option("Off", false);
        let mut out = ErrorList::new();
        assert!(if_option(&f, &op, "On", true, &mut out));
        assert!(!if_option(&f, &op, "On", false, &mut out));
        assert!(if_option(&f, &op, "Off", false, &mut out));
        assert!(out.is_empty());
        assert!(!if_option(&f, &op, "Missing", true, &mut out));
        assert_eq!(
            texts(&out),
            ["f: Internal error: undefined validation option \"Missing\""]
        );
    }

    #[test]
    fn dependencies_and_unions() {
        let root = PathRef::Nil;
        let d = root.child("d");
        let m1 = root.child("m1");
        let m2 = root.child("m2");
        let mut out = ErrorList::new();
        dependent_required(&d, "t", &mut out);
        dependent_forbidden(&d, "t", &mut out);
        union_exactly_one(&root, &["m1"], &["m1", "m2"], &mut out);
        union_zero_or_one(&root, &[], &["m1", "m2"], &mut out);
        union_zero_or_one(&root, &["m1"], &["m1", "m2"], &mut out);
        assert_eq!(out.len(), 2);
        union_exactly_one(&root, &[], &["m1", "m2"], &mut out);
        union_exactly_one(&root, &["m1", "m2"], &["m1", "m2"], &mut out);
        union_zero_or_one(&root, &["m1", "m2"], &["m1", "m2"], &mut out);
        union_member_missing(&m1, "d", "M1", &mut out);
        union_member_not_selected(&m2, "d", "M2", &mut out);
        assert_eq!(
            texts(&out),
            [
                "d: Required value: must be set when t is set",
                "d: Forbidden: may not be set when t is set",
                "<nil>: Invalid value: \"\": must specify one of: `m1`, `m2`",
                "<nil>: Invalid value: \"{m1, m2}\": must specify exactly one of: `m1`, `m2`",
                "<nil>: Invalid value: \"{m1, m2}\": must specify at most one of: `m1`, `m2`",
                "m1: Invalid value: \"\": must be specified when `d` is \"M1\"",
                "m2: Invalid value: \"\": may only be specified when `d` is \"M2\"",
            ]
        );
        let origins: Vec<&str> = out.iter().map(|e| e.origin.as_str()).collect();
        assert_eq!(
            origins,
            [
                "dependentRequired",
                "dependentForbidden",
                "union",
                "union",
                "zeroOrOneOf",
                "union",
                "union"
            ]
        );
    }
}
