//! `+validationRule` (kdv extension, KEP-4153): the rule runs as the CRD rule at its node.
//! On first use the node's structural schema is built (`kdv_schema::validation_rules`) and
//! the rule compiled into a `kdv_openapi::cel::SchemaRules` in the CEL environment of the
//! release the caller selects (`EvalOptions::kubernetes_minor`) with kdv's own CEL libraries,
//! kept in the rule's slot of the IR (one program per release); each evaluation reads the JSON value as it is (no copy) and charges the request's
//! runtime cost budget, which [`Eval`] carries through one validation.

use std::sync::OnceLock;

use kdv_openapi::cel::SchemaRules;
use kdv_rules::CelRule;
use kdv_runtime::{ErrorList, ErrorSink, FieldError, PathRef};

use crate::eval::Eval;
use crate::value::Val;

/// The compiled form of a rule in one release's environment: the program, or why there is
/// none.
type Compiled = Result<SchemaRules, String>;

/// A rule's slot: one compiled form per release (releases after the newest modelled one
/// share the last entry, as their environments do).
struct PerRelease(Box<[OnceLock<Compiled>]>);

impl PerRelease {
    fn new() -> PerRelease {
        let slots = kdv_cel::k8s::NEWEST_MINOR as usize + 2;
        PerRelease((0..slots).map(|_| OnceLock::new()).collect())
    }

    fn get(&self, minor: u32) -> &OnceLock<Compiled> {
        let last = self.0.len() - 1;
        &self.0[(minor as usize).min(last)]
    }
}

impl Eval<'_> {
    /// Runs `rule` on the node's value `v` with its correlated old value `old`. The rule runs
    /// only where the value is present in the JSON (as a CRD rule runs only where its node
    /// has data): a zero value standing in for an absent field is not evaluated.
    pub(crate) fn cel_rule<S: ErrorSink>(
        &mut self,
        rule: &CelRule,
        path: &PathRef<'_>,
        v: Val<'_>,
        old: Val<'_>,
        out: &mut S,
    ) {
        let Val::Json(value) = v else { return };
        let rules = self.rules;
        let minor = self.kubernetes_minor;
        let Some(slots) = rule.compiled.get_or_init(PerRelease::new) else {
            return;
        };
        let compiled = slots.get(minor).get_or_init(|| -> Compiled {
            let schema = kdv_schema::validation_rules::rule_schema(rules, rule)
                .ok_or_else(|| "the rule's schema node was not found".to_string())?;
            SchemaRules::compile(&schema, minor).map_err(|e| e.message)
        });
        let program = match compiled {
            Ok(p) => p,
            Err(e) => {
                out.fail(|| FieldError::internal(path, format!("+validationRule: {e}")));
                return;
            }
        };
        let old = match old {
            Val::Json(o) if self.op.is_update() => Some(o),
            _ => None,
        };
        let mut errs = ErrorList::new();
        program.run(
            value,
            old,
            path,
            self.op.is_update(),
            &mut self.cel_budget,
            &mut errs,
        );
        if !errs.is_empty() {
            out.fail_all(errs);
        }
    }
}
