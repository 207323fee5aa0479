//! `+k8s:customValidation` names a hand-written Go function that kdv cannot run, so
//! `kdv validate` skips those checks. This warning says so, once per validated type (`kdv
//! lint` reports each tag: `kdv_rules::lint`).

use std::collections::BTreeSet;

use kdv_rules::custom_validations::reachable_custom_validations;
use kdv_rules::{RuleSet, TypeId};

/// The tag as written in comments.
const TAG: &str = "k8s:customValidation";

/// The warning for validating values of `ty`, if its validation reaches custom validation
/// functions: `warning: <type>: skipping N +k8s:customValidation check(s) kdv cannot run
/// (...)`.
pub fn skipped_warning(rules: &RuleSet, ty: TypeId, type_name: &str) -> Option<String> {
    let uses = reachable_custom_validations(rules, ty);
    if uses.is_empty() {
        return None;
    }
    let names: BTreeSet<&str> = uses.iter().map(|u| u.function_name.as_str()).collect();
    let names: Vec<&str> = names.into_iter().collect();
    Some(format!(
        "warning: {type_name}: skipping {} +{TAG} check{} kdv cannot run (hand-written Go: {})",
        names.len(),
        if names.len() == 1 { "" } else { "s" },
        names.join(", ")
    ))
}
