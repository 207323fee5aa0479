//! Which `+k8s:` tag names are known — the registry's, validation-gen's own, and those other
//! generators and tools own — and the finding for one nobody knows, with the closest known
//! name. Used by the lint rules and by `+k8s:declarativeValidationNative`'s checks.

use kdv_model::suggest::edit_distance;
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
        let c_lower = c.to_ascii_lowercase();
        // More than two characters apart in length is more than two edits apart.
        let d = if c_lower == lower {
            0
        } else if lower.chars().count().abs_diff(c_lower.chars().count()) > 2 {
            continue;
        } else {
            edit_distance(&lower, &c_lower)
        };
        if d <= 2 && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
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
