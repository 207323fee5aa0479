//! Which `+k8s:` tag names are known — the registry's, validation-gen's own, and those other
//! generators and tools own — and the finding for one nobody knows, with the closest known
//! name. Used by the lint rules and by `+k8s:declarativeValidationNative`'s checks.

use kdv_tags::go_quote;

use crate::registry;
use crate::roots;

/// `+k8s:` tags other generators and tools own, besides `*-gen` tags (which are all left to
/// their generators except validation-gen's own).
pub(crate) const OTHER_TOOLS_TAGS: &[&str] = &[
    // The subresources a root type is validated for (validation-gen's targets; these two
    // come first: kdv checks their repeats too).
    "k8s:isSubresource",
    "k8s:supportsSubresource",
    // go-to-protobuf: renamed or removed fields.
    "k8s:deprecated",
    // openapi-gen and conversion-gen.
    "k8s:openapi-model-package",
    "k8s:conversion-fn",
];

/// The finding for a `+k8s:` tag name nobody knows, if it is unknown.
pub(crate) fn unknown_tag(name: &str) -> Option<String> {
    if registry::is_known_tag(name) || OTHER_TOOLS_TAGS.contains(&name) {
        return None;
    }
    // `k8s:<base>` or `k8s:<base>:<sub>`: generator tags are their generators' business,
    // except validation-gen's own.
    let rest = name.strip_prefix("k8s:")?;
    let base = rest.split(':').next().unwrap_or(rest);
    if base.starts_with("validation-gen") {
        if roots::VALIDATION_GEN_TAGS.contains(&name) {
            return None;
        }
    } else if base.contains("-gen") {
        return None;
    }
    let suggestion = closest_known(name)
        .map(|s| format!(" (did you mean {}?)", go_quote(s)))
        .unwrap_or_default();
    Some(format!(
        "unknown tag {}{suggestion}: validation-gen ignores it, so it validates nothing",
        go_quote(name)
    ))
}

/// The registered tag (or validation-gen tag) closest to `name`: the same but for case, or
/// at most two edits away.
fn closest_known(name: &str) -> Option<&'static str> {
    let candidates = registry::catalog()
        .iter()
        .map(|d| d.name)
        .chain(roots::VALIDATION_GEN_TAGS.iter().copied())
        .chain(OTHER_TOOLS_TAGS.iter().copied());
    let lower = name.to_ascii_lowercase();
    let mut best: Option<(usize, &'static str)> = None;
    for c in candidates {
        let d = if c.to_ascii_lowercase() == lower {
            0
        } else {
            edit_distance(&lower, &c.to_ascii_lowercase())
        };
        if d <= 2 && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Levenshtein distance (tag names are short; a long name just costs its length squared
/// once per candidate, bounded by the line length kdv reads).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > 2 {
        return 3;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_tags_and_suggestions() {
        assert_eq!(unknown_tag("k8s:maxLength"), None);
        assert_eq!(unknown_tag("k8s:deepcopy-gen:interfaces"), None);
        assert_eq!(unknown_tag("k8s:prerelease-lifecycle-gen:introduced"), None);
        assert_eq!(unknown_tag("k8s:validation-gen-nolint"), None);
        assert_eq!(unknown_tag("k8s:supportsSubresource"), None);
        assert_eq!(
            unknown_tag("k8s:maxlength").as_deref(),
            Some(
                "unknown tag \"k8s:maxlength\" (did you mean \"k8s:maxLength\"?): validation-gen ignores it, so it validates nothing"
            )
        );
        assert_eq!(
            unknown_tag("k8s:validation-gen-nolnt").as_deref(),
            Some(
                "unknown tag \"k8s:validation-gen-nolnt\" (did you mean \"k8s:validation-gen-nolint\"?): validation-gen ignores it, so it validates nothing"
            )
        );
        assert!(
            unknown_tag("k8s:frobnicate")
                .is_some_and(|m| m.starts_with("unknown tag \"k8s:frobnicate\": "))
        );
    }
}
