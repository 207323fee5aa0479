//! Mode-dependent rules (`+k8s:modeDiscriminator` + `+k8s:ifMode`): upstream's
//! `validate/discriminator.go` (`Discriminated`). A struct member gets different
//! validations depending on a discriminator member; with no rule for the discriminator's
//! value, the member must be unset.

use crate::equality::unchanged;
use crate::operation::Operation;
use crate::path::PathRef;
use crate::required::{Presence, forbidden};
use crate::sink::ErrorSink;
use crate::view::{Literal, View};

/// What [`discriminated`] decided: the rule whose validations must run on the member (with
/// the member's new and old values), or nothing (ratcheted, nil struct, or no rule and the
/// implicit `Forbidden` was applied).
pub enum ModeChoice<'r, R, F> {
    /// Nothing more to do.
    Done,
    /// Run the validations of this rule on the member.
    Run {
        /// The selected rule.
        rule: &'r R,
        /// The member's value.
        value: F,
        /// The member's old value (when there is an old struct).
        old: Option<F>,
    },
}

/// `Discriminated` on the struct `new` for one member (`field` reads it, `discriminator`
/// reads the discriminator): nil struct → nothing; on Update with an old struct whose
/// discriminator and member are unchanged → nothing; else the first rule whose value
/// equals the discriminator (strings and bools) is chosen; without one, a set member gets
/// `Forbidden("")` at `path` (the member's path; set-ness by `presence`), and the errors
/// recorded since `ErrorSink::count` was `start` are the caller's to mark.
#[allow(clippy::too_many_arguments)]
pub fn discriminated<'a, 'r, V, F, D, R>(
    op: &Operation,
    path: &PathRef<'_>,
    new: V,
    old: V,
    field: impl Fn(V) -> F,
    discriminator: impl Fn(V) -> D,
    rules: &'r [R],
    rule_value: impl Fn(&R) -> &Literal,
    presence: Presence,
    out: &mut impl ErrorSink,
) -> ModeChoice<'r, R, F>
where
    V: View<'a>,
    F: View<'a>,
    D: View<'a>,
{
    if new.is_nil() {
        return ModeChoice::Done;
    }
    // An identical struct has the same discriminator and member: ratcheted without reading.
    if op.is_update() && !old.is_nil() && new.identical(old) {
        return ModeChoice::Done;
    }
    let value = field(new);
    let disc = discriminator(new);
    let old_value = if old.is_nil() {
        None
    } else {
        let old_value = field(old);
        if unchanged(op, disc, discriminator(old)) && unchanged(op, value, old_value) {
            return ModeChoice::Done;
        }
        Some(old_value)
    };
    let selected = rules.iter().find(|r| match rule_value(r) {
        Literal::String(s) => disc.as_str() == Some(s.as_str()),
        Literal::Bool(b) => disc.as_bool() == Some(*b),
        Literal::Int(_) => false,
    });
    match selected {
        Some(rule) => ModeChoice::Run {
            rule,
            value,
            old: old_value,
        },
        None => {
            forbidden(path, presence, value, out);
            ModeChoice::Done
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorList;

    #[test]
    fn rule_by_discriminator() {
        let root = PathRef::Nil;
        let m = root.child("m");
        let rules = [
            (Literal::String("A".into()), "rule a"),
            (Literal::String("B".into()), "rule b"),
        ];
        // A struct as bits: the member in the low byte, the discriminator above.
        let member = |s: Option<u16>| s.map(|p| i64::from(p & 0xff));
        let disc = |s: Option<u16>| s.map(|p| ["A", "B", "C"][usize::from(p >> 8) % 3]);
        let st = |m: u16, d: &str| Some(m | (u16::from(d.as_bytes()[0] - b'A') << 8));
        let mut out = ErrorList::new();
        let choose = |new, old, out: &mut ErrorList| match discriminated(
            &Operation::update(),
            &m,
            new,
            old,
            member,
            disc,
            &rules,
            |r| &r.0,
            Presence::Pointer,
            out,
        ) {
            ModeChoice::Done => "done".to_string(),
            ModeChoice::Run { rule, value, old } => format!("{} {value:?} {old:?}", rule.1),
        };
        assert_eq!(choose(st(1, "B"), None, &mut out), "rule b Some(1) None");
        assert_eq!(choose(st(1, "B"), st(1, "B"), &mut out), "done");
        assert_eq!(
            choose(st(2, "A"), st(1, "B"), &mut out),
            "rule a Some(2) Some(Some(1))"
        );
        assert!(out.is_empty());
        assert_eq!(choose(st(1, "C"), None, &mut out), "done");
        assert_eq!(out[0].to_string(), "m: Forbidden");
    }
}
