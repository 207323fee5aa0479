//! Every check's yes/no form (run against a `Verdict`) agrees with its error form (run
//! against an `ErrorList`): the same code runs in both, and these properties keep it so.

use std::collections::BTreeMap;

use kdv_runtime::enums::{EnumExclusion, EnumSet, enum_value};
use kdv_runtime::lists::{Identity, ItemHasher, unique};
use kdv_runtime::required::{Presence, forbidden, optional, required};
use kdv_runtime::unions::{UnionMember, union, zero_or_one_of};
use kdv_runtime::update::{UpdateConstraint, UpdateKind, update, update_map};
use kdv_runtime::{
    ErrorList, Format, Literal, Operation, PathRef, Verdict, equality, format, immutable, limits,
};
use proptest::prelude::*;

/// Runs one check against an `ErrorList` and against a `Verdict` (the body is expanded
/// twice, so each run is monomorphised for its sink) and asserts they agree.
macro_rules! both {
    (|$out:ident| $body:expr) => {{
        let mut errs = ErrorList::new();
        {
            let $out = &mut errs;
            $body;
        }
        let mut verdict = Verdict::default();
        {
            let $out = &mut verdict;
            $body;
        }
        assert_eq!(verdict.failed(), !errs.is_empty(), "{errs:?}");
    }};
}

/// Items identified by their first character.
struct FirstChar;

impl<'a> Identity<'a, &'a String> for FirstChar {
    type Key = Option<char>;
    fn key(&self, item: &'a String) -> Option<char> {
        item.chars().next()
    }
    fn hash(&self, key: &Option<char>, h: &mut ItemHasher) {
        use std::hash::Hasher;
        h.write_u64(key.map_or(0, u64::from));
    }
    fn same(&self, a: &Option<char>, b: &Option<char>) -> bool {
        a == b
    }
}

proptest! {
    #[test]
    fn scalar_checks(s in ".{0,12}", n in -3i64..20, x in any::<i64>(), u in any::<u32>()) {
        let root = PathRef::Nil;
        let p = &root;
        both!(|out| limits::max_length(p, s.as_str(), n, out));
        both!(|out| limits::min_length(p, s.as_str(), n, out));
        both!(|out| limits::max_bytes(p, s.as_str(), n, out));
        both!(|out| limits::minimum(p, x, i128::from(n), out));
        both!(|out| limits::maximum(p, u, i128::from(n), out));
        both!(|out| equality::neq(p, x, &Literal::Int(i128::from(n)), out));
        both!(|out| equality::neq(p, s.as_str(), &Literal::String("a".into()), out));
        both!(|out| format::format(p, s.as_str(), Format::ShortName, out));
        both!(|out| format::format(p, s.as_str(), Format::LabelKey, out));
        for presence in [Presence::Value, Presence::Pointer] {
            let v = (!s.is_empty()).then_some(s.as_str());
            both!(|out| required(p, presence, v, out));
            both!(|out| optional(p, presence, v, out));
            both!(|out| forbidden(p, presence, v, out));
        }
        let set = EnumSet::new(["a", "b", "ab"]);
        let none: &[EnumExclusion] = &[];
        both!(|out| enum_value(p, s.as_str(), &set, none, &Operation::create(), out));
        both!(|out| immutable::monotonic(p, &Operation::update(), x, i64::from(u), out));
        let cs = UpdateConstraint::ALL;
        both!(|out| update(&Operation::update(), p, UpdateKind::Value, &cs, x, n, out));
    }

    #[test]
    fn collection_checks(items in proptest::collection::vec("[a-e]{0,3}", 0..40), n in 0i64..10) {
        let root = PathRef::Nil;
        let p = &root;
        let list: &[String] = &items;
        both!(|out| limits::max_items(p, list, n, out));
        both!(|out| limits::min_items(p, list, n, out));
        both!(|out| unique(p, list, &FirstChar, out));
        let map: BTreeMap<String, i64> = items.iter().map(|s| (s.clone(), 1)).collect();
        let old: BTreeMap<String, i64> = items.iter().skip(1).map(|s| (s.clone(), 1)).collect();
        both!(|out| limits::max_properties(p, &map, n, out));
        both!(|out| update_map(&Operation::update(), p, &UpdateConstraint::ALL, &map, &old, out));
        let members: Vec<UnionMember> = ["a", "b", "c"]
            .iter()
            .map(|m| UnionMember { name: m.to_string(), discriminator_value: m.to_uppercase() })
            .collect();
        let set = (3usize, |i: usize, v: &[String]| v.iter().any(|s| s.starts_with(["a", "b", "c"][i])));
        both!(|out| union(&Operation::create(), p, list, list, &members, &set, out));
        both!(|out| zero_or_one_of(&Operation::create(), p, list, list, &members, &set, out));
    }
}

#[test]
fn always_failing_checks_fail_both_ways() {
    let root = PathRef::Nil;
    both!(|out| immutable::immutable(&root, &Operation::update(), out));
}
