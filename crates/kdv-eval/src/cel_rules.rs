//! `+validationRule` (kdv extension, KEP-4153): the rule runs as the CRD rule at its node.
//! On first use the node's structural schema is built (`kdv_schema::validation_rules`) and
//! the rule compiled into a `kdv_openapi::cel::SchemaRules`, kept in the rule's slot of the
//! IR; each evaluation reads the JSON value as it is (no copy) and charges the request's
//! runtime cost budget, which [`Eval`] carries through one validation.

use kdv_openapi::cel::SchemaRules;
use kdv_rules::CelRule;
use kdv_runtime::{ErrorList, ErrorSink, FieldError, PathRef};

use crate::eval::Eval;
use crate::value::Val;

/// The compiled form a rule's slot holds: the program, or why there is none.
type Compiled = Result<SchemaRules, String>;

/// Kubernetes release whose CRD rule environment compiles the rules (kdv-openapi's default).
pub(crate) const KUBERNETES_MINOR: u32 = 35;

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
        let Some(compiled) = rule.compiled.get_or_init(|| -> Compiled {
            let schema = kdv_schema::validation_rules::rule_schema(rules, rule)
                .ok_or_else(|| "the rule's schema node was not found".to_string())?;
            SchemaRules::compile(&schema, KUBERNETES_MINOR).map_err(|e| e.message)
        }) else {
            return;
        };
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
