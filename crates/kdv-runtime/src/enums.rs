//! Enums (`+k8s:enum`, `+k8s:enumExclude`, conditional exclusions): upstream's
//! `validate/enum.go`.

use crate::error::{BadValue, FieldError};
use crate::gofmt;
use crate::operation::Operation;
use crate::path::PathRef;
use crate::sink::ErrorSink;
use crate::view::View;

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

/// `InternalError("undefined validation option \"<Opt>\"")`.
pub(crate) fn undefined_option(path: &PathRef<'_>, option: &str) -> FieldError {
    FieldError::internal(
        path,
        format!("undefined validation option {}", gofmt::quote(option)),
    )
}

/// `+k8s:enum` (spec §3.9) on a string value (nil is not checked). `members` must be sorted
/// ascending and deduplicated (use [`EnumSet`], or a sorted static slice in generated code).
/// A value that is not a member, or is excluded, gets
/// `NotSupported(value, <supported members, sorted>)` with no origin (the bad value is a
/// [`BadValue::named_string`], as enums are named types); an exclusion rule naming an
/// undefined option gets `InternalError("undefined validation option \"<Opt>\"")`.
pub fn enum_value<'a, M: AsRef<str>, X: AsRef<str>>(
    path: &PathRef<'_>,
    v: impl View<'a>,
    members: &[M],
    exclusions: &[EnumExclusion<X>],
    op: &Operation,
    out: &mut impl ErrorSink,
) {
    let Some(value) = v.as_str() else { return };
    let excluded = match is_excluded(op, exclusions, value) {
        Ok(excluded) => excluded,
        Err(option) => {
            out.fail(|| undefined_option(path, option));
            return;
        }
    };
    let is_member = members.binary_search_by(|m| m.as_ref().cmp(value)).is_ok();
    if is_member && !excluded {
        return;
    }
    let mut undefined = None;
    for m in members {
        if let Err(option) = is_excluded(op, exclusions, m.as_ref()) {
            undefined = Some(option);
            break;
        }
    }
    if let Some(option) = undefined {
        out.fail(|| undefined_option(path, option));
        return;
    }
    out.fail(|| {
        let mut supported: Vec<&str> = members
            .iter()
            .map(AsRef::as_ref)
            .filter(|m| is_excluded(op, exclusions, m) == Ok(false))
            .collect();
        // Members are sorted already; sorting again keeps the output right for unsorted
        // input.
        supported.sort_unstable();
        // An enum is always a named string type, which Go prints JSON-encoded.
        FieldError::not_supported(path, BadValue::named_string(value), &supported)
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{ErrorList, ErrorType};

    fn texts(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
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
        enum_value(&f, None::<&str>, &set, none, &op, &mut out);
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
}
