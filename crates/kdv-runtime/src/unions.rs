//! Unions (`+k8s:unionMember`, `+k8s:unionDiscriminator`, `+k8s:zeroOrOneOfMember`):
//! upstream's `validate/union.go` and `validate/zeroorone.go`.
//!
//! A union is checked on the struct (or list) value that holds its members; which members
//! are set is asked of [`Extractors`], as upstream asks its extractor functions. On Update
//! with an old value, a union whose members' set-ness (and discriminator) did not change is
//! not checked (ratcheting).

use crate::error::{BadValue, FieldError};
use crate::gofmt;
use crate::operation::Operation;
use crate::path::PathRef;
use crate::sink::ErrorSink;
use crate::view::View;

/// The origins of these errors.
pub mod origin {
    /// `+k8s:unionMember` (exactly-one and discriminated unions).
    pub const UNION: &str = "union";
    /// `+k8s:zeroOrOneOfMember`.
    pub const ZERO_OR_ONE_OF: &str = "zeroOrOneOf";
}

/// One member of a union, as named in messages.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UnionMember {
    /// The member's JSON name (struct fields) or selector segment (list items, e.g.
    /// `tasks[{"name": "a"}]`).
    pub name: String,
    /// The discriminator value selecting it (`memberName`, default the Go field name).
    pub discriminator_value: String,
}

/// Which members of a union are set in a value `V` (upstream's extractor functions,
/// paired with the members by position).
pub trait Extractors<V> {
    /// How many extractors there are (must equal the number of members).
    fn count(&self) -> usize;
    /// Whether member `i` is set in `v`.
    fn is_set(&self, i: usize, v: V) -> bool;
}

/// Extractors given as a count and one function of the member position.
impl<V, F: Fn(usize, V) -> bool> Extractors<V> for (usize, F) {
    fn count(&self) -> usize {
        self.0
    }
    fn is_set(&self, i: usize, v: V) -> bool {
        (self.1)(i, v)
    }
}

/// `prefix` then every member's name in backticks, comma-separated (upstream's
/// ``must specify one of: `a`, `b` ``), written with one allocation: every failed union
/// builds one.
fn with_backticked_names(prefix: &str, members: &[UnionMember]) -> String {
    let names: usize = members.iter().map(|m| m.name.len() + 2).sum();
    let separators = members.len().saturating_sub(1) * 2;
    let mut out = String::with_capacity(prefix.len() + names + separators);
    out.push_str(prefix);
    for (i, m) in members.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push('`');
        out.push_str(&m.name);
        out.push('`');
    }
    out
}

/// The set members' names as Go prints a `sets.List` in braces (`{a, b}`), one allocation.
fn braced_set_names(set: &SetMembers, members: &[UnionMember]) -> String {
    let chosen = || {
        members
            .iter()
            .enumerate()
            .filter(|&(i, _)| set.get(i))
            .map(|(_, m)| m.name.as_str())
    };
    let names: usize = chosen().map(|n| n.len() + 2).sum();
    let mut out = String::with_capacity(names.max(2));
    out.push('{');
    for (i, n) in chosen().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(n);
    }
    out.push('}');
    out
}

/// `prefix`, the discriminator in backticks, ` is ` and `value` Go-quoted.
fn discriminator_message(prefix: &str, discriminator: &str, value: &str) -> String {
    // Quoting adds at least the two quotes; escapes may grow the string once more.
    let mut out = String::with_capacity(prefix.len() + discriminator.len() + value.len() + 8);
    out.push_str(prefix);
    out.push('`');
    out.push_str(discriminator);
    out.push_str("` is ");
    // Writing into a String cannot fail.
    let _ = gofmt::write_quoted(&mut out, value);
    out
}

/// Which members of a union are set in one value, asked of the extractors once.
#[derive(PartialEq, Eq)]
enum SetMembers {
    /// Bit `i` = member `i` is set (unions of up to 64 members).
    Bits(u64),
    /// Larger unions.
    Many(Vec<bool>),
}

impl SetMembers {
    fn of<V: Copy>(extractors: &impl Extractors<V>, n: usize, v: V) -> SetMembers {
        if n <= 64 {
            let mut bits = 0u64;
            for i in 0..n {
                if extractors.is_set(i, v) {
                    bits |= 1 << i;
                }
            }
            SetMembers::Bits(bits)
        } else {
            SetMembers::Many((0..n).map(|i| extractors.is_set(i, v)).collect())
        }
    }

    fn get(&self, i: usize) -> bool {
        match self {
            SetMembers::Bits(b) => i < 64 && b & (1 << i) != 0,
            SetMembers::Many(v) => v.get(i).copied().unwrap_or(false),
        }
    }

    fn count(&self) -> usize {
        match self {
            SetMembers::Bits(b) => b.count_ones() as usize,
            SetMembers::Many(v) => v.iter().filter(|&&x| x).count(),
        }
    }
}

/// The shared part of the union checks: the extractor count must match the members (else
/// an internal error, with `origin`: upstream sets it for exactly-one unions only); then the
/// set members of `new`, or `None` when ratcheting skips the union — on Update with an old
/// value whose members' set-ness (and, for discriminated unions, discriminator:
/// `same_discriminator`) is the same. Identical values skip without asking the extractors.
#[allow(clippy::too_many_arguments)]
fn set_members<'a, V: View<'a>>(
    op: &Operation,
    path: &PathRef<'_>,
    new: V,
    old: V,
    members: &[UnionMember],
    extractors: &impl Extractors<V>,
    origin: &str,
    same_discriminator: impl FnOnce() -> bool,
    out: &mut impl ErrorSink,
) -> Option<SetMembers> {
    let n = extractors.count();
    if n != members.len() {
        out.fail(|| {
            let e = FieldError::internal(
                path,
                format!(
                    "number of extractors ({n}) does not match number of union members ({})",
                    members.len()
                ),
            );
            if origin.is_empty() {
                e
            } else {
                e.with_origin(origin.to_owned())
            }
        });
        return None;
    }
    let ratchet = op.is_update() && !old.is_nil();
    if ratchet && new.identical(old) {
        return None;
    }
    let set = SetMembers::of(extractors, n, new);
    if ratchet && same_discriminator() && set == SetMembers::of(extractors, n, old) {
        return None;
    }
    Some(set)
}

/// `Union` (spec §6.2): exactly one member must be set. None set →
/// ``Invalid("", "must specify one of: `a`, `b`")``; several →
/// ``Invalid("{a, b}", "must specify exactly one of: `a`, `b`")``; origin `union`.
pub fn union<'a, V: View<'a>>(
    op: &Operation,
    path: &PathRef<'_>,
    new: V,
    old: V,
    members: &[UnionMember],
    extractors: &impl Extractors<V>,
    out: &mut impl ErrorSink,
) {
    let Some(set) = set_members(
        op,
        path,
        new,
        old,
        members,
        extractors,
        origin::UNION,
        || true,
        out,
    ) else {
        return;
    };
    match set.count() {
        1 => {}
        0 => out.fail(|| {
            FieldError::invalid(
                path,
                BadValue::string(""),
                with_backticked_names("must specify one of: ", members),
            )
            .with_origin(origin::UNION)
        }),
        _ => out.fail(|| {
            FieldError::invalid(
                path,
                BadValue::String(braced_set_names(&set, members)),
                with_backticked_names("must specify exactly one of: ", members),
            )
            .with_origin(origin::UNION)
        }),
    }
}

/// `ZeroOrOneOfUnion` (spec §6.3): several members set →
/// ``Invalid("{a, b}", "must specify at most one of: `a`, `b`")``, origin `zeroOrOneOf`.
pub fn zero_or_one_of<'a, V: View<'a>>(
    op: &Operation,
    path: &PathRef<'_>,
    new: V,
    old: V,
    members: &[UnionMember],
    extractors: &impl Extractors<V>,
    out: &mut impl ErrorSink,
) {
    let Some(set) = set_members(op, path, new, old, members, extractors, "", || true, out) else {
        return;
    };
    if set.count() > 1 {
        out.fail(|| {
            FieldError::invalid(
                path,
                BadValue::String(braced_set_names(&set, members)),
                with_backticked_names("must specify at most one of: ", members),
            )
            .with_origin(origin::ZERO_OR_ONE_OF)
        });
    }
}

/// `DiscriminatedUnion` (spec §6.4): the discriminator's value (`discriminator_of`, `""`
/// when absent) names the member that must be set; the others must not be. A member set
/// while not selected → ``Invalid("", "may only be specified when `<disc>` is
/// \"<member value>\"")`` at `path.member`; the selected member unset →
/// ``Invalid("", "must be specified when `<disc>` is \"<value>\"")``; origin `union`.
/// `discriminator` is the discriminator's JSON name.
#[allow(clippy::too_many_arguments)]
pub fn discriminated_union<'a, V: View<'a>>(
    op: &Operation,
    path: &PathRef<'_>,
    new: V,
    old: V,
    discriminator: &str,
    discriminator_of: impl Fn(V) -> &'a str,
    members: &[UnionMember],
    extractors: &impl Extractors<V>,
    out: &mut impl ErrorSink,
) {
    // Identical values ratchet before the discriminator is read (`set_members` would
    // return at once, after reporting a miscounted union, which still reports here).
    if op.is_update() && !old.is_nil() && extractors.count() == members.len() && new.identical(old)
    {
        return;
    }
    let d = discriminator_of(new);
    let same = || d == discriminator_of(old);
    let Some(set) = set_members(op, path, new, old, members, extractors, "", same, out) else {
        return;
    };
    for (i, m) in members.iter().enumerate() {
        let selected = d == m.discriminator_value;
        match (set.get(i), selected) {
            (true, false) => out.fail(|| {
                FieldError::invalid(
                    &path.child(&m.name),
                    BadValue::string(""),
                    discriminator_message(
                        "may only be specified when ",
                        discriminator,
                        &m.discriminator_value,
                    ),
                )
                .with_origin(origin::UNION)
            }),
            (false, true) => out.fail(|| {
                FieldError::invalid(
                    &path.child(&m.name),
                    BadValue::string(""),
                    discriminator_message("must be specified when ", discriminator, d),
                )
                .with_origin(origin::UNION)
            }),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorList;

    fn members(names: &[&str]) -> Vec<UnionMember> {
        names
            .iter()
            .map(|n| UnionMember {
                name: n.to_string(),
                discriminator_value: n.to_uppercase(),
            })
            .collect()
    }

    /// A struct as the bit set of its set members (0 = nil struct is not used here).
    fn bits(n: usize) -> (usize, impl Fn(usize, u8) -> bool) {
        (n, |i: usize, v: u8| v & (1 << i) != 0)
    }

    #[test]
    fn unions() {
        let root = PathRef::Nil;
        let ms = members(&["m1", "m2"]);
        let create = Operation::create();
        let mut out = ErrorList::new();
        union(&create, &root, 0b01u8, 0, &ms, &bits(2), &mut out);
        zero_or_one_of(&create, &root, 0u8, 0, &ms, &bits(2), &mut out);
        zero_or_one_of(&create, &root, 0b10u8, 0, &ms, &bits(2), &mut out);
        assert!(out.is_empty());
        union(&create, &root, 0u8, 0, &ms, &bits(2), &mut out);
        union(&create, &root, 0b11u8, 0, &ms, &bits(2), &mut out);
        zero_or_one_of(&create, &root, 0b11u8, 0, &ms, &bits(2), &mut out);
        union(&create, &root, 0u8, 0, &ms, &bits(3), &mut out);
        // Ratcheting: the same members set as before.
        union(
            &Operation::update(),
            &root,
            0b11u8,
            0b11,
            &ms,
            &bits(2),
            &mut out,
        );
        let texts: Vec<String> = out.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                "<nil>: Invalid value: \"\": must specify one of: `m1`, `m2`",
                "<nil>: Invalid value: \"{m1, m2}\": must specify exactly one of: `m1`, `m2`",
                "<nil>: Invalid value: \"{m1, m2}\": must specify at most one of: `m1`, `m2`",
                "<nil>: Internal error: number of extractors (3) does not match number of union members (2)",
            ]
        );
        let origins: Vec<&str> = out.iter().map(|e| &*e.origin).collect();
        assert_eq!(origins, ["union", "union", "zeroOrOneOf", "union"]);
    }

    #[test]
    fn discriminated() {
        let root = PathRef::Nil;
        let ms = members(&["m1", "m2"]);
        // The discriminator is the member whose bit 7 is set... here: bit set → "M2".
        let disc = |v: u8| if v & 0x80 != 0 { "M2" } else { "M1" };
        let mut out = ErrorList::new();
        let create = Operation::create();
        discriminated_union(
            &create,
            &root,
            0b01u8,
            0,
            "d",
            disc,
            &ms,
            &bits(2),
            &mut out,
        );
        assert!(out.is_empty());
        discriminated_union(
            &create,
            &root,
            0x81u8,
            0,
            "d",
            disc,
            &ms,
            &bits(2),
            &mut out,
        );
        let texts: Vec<String> = out.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                "m1: Invalid value: \"\": may only be specified when `d` is \"M1\"",
                "m2: Invalid value: \"\": must be specified when `d` is \"M2\"",
            ]
        );
        assert!(out.iter().all(|e| e.origin == "union"));
    }
}
