//! The CEL rules of a schema node run on the node's `default` at CRD write time (spec §5.7,
//! `structuraldefaulting.validate`): `cel.NewValidator(s, isResourceRoot, PerCallLimit)` —
//! the rules of the node and of every node below it — on the default as both the new and
//! the old value, errors under `<node>.default`; then, only when that found nothing, again
//! with no old value, so rules with `optionalOldSelf` see none (the `CRDValidationRatcheting`
//! gate). The remaining budget is the smaller of the two runs'; all defaults of a schema
//! share one budget (`RuntimeCELCostBudget`).

use kdv_cel::cost::PER_CALL_LIMIT;
use kdv_runtime::{ErrorList, FieldPath};
use serde_json::Value;

use super::compile::RuleEnv;
use super::validator::{Config, Rules, validate};
use crate::Resource;

/// What the CEL check of one default needs besides the default.
pub(crate) struct DefaultRules<'a> {
    /// The node's schema compiled on its own (its root is the node).
    pub resource: &'a Resource,
    /// The node is the root of an embedded resource or of the CRD (`s == rootSchema`).
    pub resource_root: bool,
    /// `<node path>.default`.
    pub at: &'a FieldPath,
    /// Bad values rendered as Kubernetes 1.35 and later render them.
    pub values: bool,
    /// The `CRDValidationRatcheting` feature gate: the second run without an old value.
    pub optional_old_self: bool,
    /// The Kubernetes release whose StoredExpressions environment compiles the rules (as
    /// `NewValidator`'s).
    pub kubernetes_minor: u32,
}

/// Runs the rules on `default` with `budget` left; returns the budget left after it
/// (negative once it ran out: no further default is checked).
pub(crate) fn validate_default_rules(
    d: &DefaultRules<'_>,
    default: &Value,
    budget: i64,
    out: &mut ErrorList,
) -> i64 {
    let (arena, root) = d.resource.schema();
    // `NewValidator`: no validator, and no cost, unless a rule is written outside `allOf`.
    let env = RuleEnv::stored_expressions(d.kubernetes_minor);
    let Some(rules) = Rules::compile(arena, root, d.resource_root, true, env) else {
        return budget;
    };
    let mut remaining = budget;
    d.at.with_path_ref(|root_path| {
        let config = Config {
            root_path,
            resource_root: d.resource_root,
            cost_budget: budget,
            per_call_limit: PER_CALL_LIMIT,
            ratcheting: false,
            optional_old_self: d.optional_old_self,
            values: d.values,
            // The default passed the node's value validations, but those of the CRD
            // checks keep every format and may differ from the rules' typing in corners:
            // reading the data defensively costs nothing here.
            unvalidated: true,
        };
        let mut errs = ErrorList::new();
        let with_old = validate(
            arena,
            &rules,
            root,
            default,
            Some(default),
            &config,
            &mut errs,
        );
        remaining = with_old.remaining_budget;
        let clean = errs.is_empty();
        out.extend(errs);
        if clean && d.optional_old_self {
            let mut errs = ErrorList::new();
            let without_old = validate(arena, &rules, root, default, None, &config, &mut errs);
            out.extend(errs);
            remaining = remaining.min(without_old.remaining_budget);
        }
    });
    remaining
}
