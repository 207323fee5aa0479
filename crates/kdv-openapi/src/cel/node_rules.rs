//! The CEL rules of one schema node compiled once and run many times over values found
//! elsewhere: how kdv's `+validationRule` tags (KEP-4153, a kdv extension) are evaluated. The
//! tags' backends build the structural schema of the node the tag sits on, with the tag's
//! rules in its `x-kubernetes-validations`, and run them exactly as the API server runs a
//! CRD's rules at that node: the StoredExpressions environment, the per-call limit, a
//! runtime cost budget the caller threads through a whole request, messages, reasons,
//! `fieldPath`, transition rules with the correlated old value and CEL ratcheting.

use kdv_cel::cost::PER_CALL_LIMIT;
use kdv_runtime::{ErrorList, PathRef};
use serde_json::Value;

use super::compile::RuleEnv;
use super::validator::{Config, Rules, validate, validate_root_value};
use crate::{LoadError, Resource};

/// The runtime budget of all rules of one request (`celconfig.RuntimeCELCostBudget`).
pub const RUNTIME_COST_BUDGET: i64 = super::validator::RUNTIME_CEL_COST_BUDGET;

/// The rules of a schema (its root and any node below), compiled once.
#[derive(Debug)]
pub struct SchemaRules {
    resource: Resource,
    rules: Option<Rules>,
}

impl SchemaRules {
    /// Compiles the rules of `schema` (a structural schema, any type at its root, not a
    /// resource root) in the StoredExpressions environment of Kubernetes 1.`minor` with
    /// kdv's own CEL libraries (UTF-8, label selectors: kdv extensions no CRD rule has). Rules
    /// that do not compile are kept and report upstream's errors when run, as the API
    /// server reports them; the CRD write-time checks are where they are refused.
    pub fn compile(schema: &Value, minor: u32) -> Result<SchemaRules, LoadError> {
        let resource = Resource::from_crd_schema("rules.kdv.dev", "v1", "Rules", schema, minor)?;
        let (arena, root) = resource.schema();
        let rules = Rules::compile(
            arena,
            root,
            false,
            false,
            RuleEnv::stored_expressions(minor).for_type_rules(),
        );
        Ok(SchemaRules { resource, rules })
    }

    /// Runs the rules on `value` (the node's data, already decoded) at `path`, with `old`
    /// the correlated old value on UPDATE (`None`: none, so transition rules do not run).
    /// `ratcheting`: failures of rules on values equal to their old values are dropped
    /// (KEP-4008). `budget` is the request's remaining runtime cost budget: it is charged,
    /// and once negative nothing further runs. Errors go to `errs`.
    pub fn run(
        &self,
        value: &Value,
        old: Option<&Value>,
        path: &PathRef<'_>,
        ratcheting: bool,
        budget: &mut i64,
        errs: &mut ErrorList,
    ) {
        let Some(rules) = &self.rules else { return };
        if *budget < 0 {
            return;
        }
        let (arena, root) = self.resource.schema();
        let config = self.config(path, *budget, ratcheting);
        let ran = validate(arena, rules, root, value, old, &config, errs);
        *budget = ran.remaining_budget;
    }

    /// How the rules run at `path` (not a resource root; the API server's per-call limit).
    fn config<'p>(&self, path: &'p PathRef<'p>, budget: i64, ratcheting: bool) -> Config<'p> {
        Config {
            root_path: path,
            resource_root: false,
            cost_budget: budget,
            per_call_limit: PER_CALL_LIMIT,
            ratcheting,
            optional_old_self: false,
            values: self.resource.kubernetes_minor() >= 35,
            unvalidated: false,
        }
    }

    /// Whether [`SchemaRules::run_value`] may run these rules: they all sit on the root,
    /// and the root's data reads as plain JSON (no formats, no `number`,
    /// no set or map lists, no escaped names), so a value read in place that reads as its
    /// JSON would reads as the API server's conversion of that JSON.
    pub fn reads_plain(&self) -> bool {
        let Some(rules) = &self.rules else {
            return false;
        };
        let (arena, root) = self.resource.schema();
        !rules.reaches_below(root)
            && matches!(
                super::values::value_schema(arena, root, false).shape,
                kdv_cel::value::typed::Shape::Plain
            )
    }

    /// [`SchemaRules::run`] on a create (no old value) over `value`, a CEL value the caller
    /// read in place; `json` gives the JSON it serializes to (for a failure's bad value).
    /// Only where [`SchemaRules::reads_plain`]. `verdict`: only whether the value passes is
    /// asked: the first failing rule stops the run without building its error, and the
    /// result says it failed (errors of other kinds, such as evaluation errors, still go to
    /// `errs`).
    #[allow(clippy::too_many_arguments)]
    pub fn run_value<'v>(
        &self,
        value: &'v kdv_cel::value::Value<'v>,
        json: &'v dyn Fn() -> Value,
        path: &PathRef<'_>,
        budget: &mut i64,
        verdict: bool,
        errs: &mut ErrorList,
    ) -> bool {
        let Some(rules) = &self.rules else {
            return false;
        };
        if *budget < 0 {
            return false;
        }
        let (arena, root) = self.resource.schema();
        let config = self.config(path, *budget, false);
        let (left, failed) =
            validate_root_value(arena, rules, root, value, json, &config, verdict, errs);
        *budget = left;
        failed
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn rules_run_at_the_callers_path_with_field_paths_and_reasons() {
        let schema = json!({"type": "object", "properties": {
            "type": {"type": "string"},
            "rollingUpdate": {"type": "object", "properties": {"maxSurge": {"type": "integer"}}}},
            "x-kubernetes-validations": [{"rule": "!(self.type == 'Recreate') || !has(self.rollingUpdate)",
                "message": "may not be specified when strategy `type` is Recreate",
                "reason": "FieldValueForbidden", "fieldPath": ".rollingUpdate"}]});
        let r = SchemaRules::compile(&schema, 35).unwrap();
        let spec = PathRef::Nil.child("spec");
        let path = spec.child("strategy");
        let mut budget = RUNTIME_COST_BUDGET;
        let mut errs = ErrorList::new();
        let bad = json!({"type": "Recreate", "rollingUpdate": {}});
        r.run(&bad, None, &path, false, &mut budget, &mut errs);
        let texts: Vec<String> = errs.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is Recreate"
            ]
        );
        assert!(budget < RUNTIME_COST_BUDGET);
        // Ratcheting: an unchanged failing value is not reported on UPDATE.
        let mut errs = ErrorList::new();
        r.run(&bad, Some(&bad), &path, true, &mut budget, &mut errs);
        assert!(errs.is_empty());
        // No budget left: nothing runs.
        let mut none = -1;
        let mut errs = ErrorList::new();
        r.run(&bad, None, &path, false, &mut none, &mut errs);
        assert!(errs.is_empty());
    }

    #[test]
    fn kdv_libraries_are_type_rule_only() {
        let schema = json!({"type": "object", "properties": {
            "title": {"type": "string", "maxLength": 64},
            "labels": {"type": "object", "maxProperties": 8,
                "additionalProperties": {"type": "string", "maxLength": 63}}},
            "x-kubernetes-validations": [{"rule": "self.title.isPrint() && self.labels.matchesLabelSelector('app=web')"}]});
        let crd = json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced",
                "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": schema.clone()}}}}]}});
        // A CRD rule fails as the API server fails it.
        let crd_errors: Vec<String> = crate::validate_crd(&crd)
            .errors
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(crd_errors.len(), 1, "{crd_errors:?}");
        assert!(
            crd_errors[0].contains("undeclared reference to 'isPrint'"),
            "{crd_errors:?}"
        );
        // The same rule is a valid type rule, in every release.
        for minor in [30, 35, 36] {
            assert!(crate::validate_type_rule_crd(&crd, minor).errors.is_empty());
            let r = SchemaRules::compile(&schema, minor).unwrap();
            let mut errs = ErrorList::new();
            let mut budget = RUNTIME_COST_BUDGET;
            let good = json!({"title": "ok", "labels": {"app": "web"}});
            r.run(&good, None, &PathRef::Nil, false, &mut budget, &mut errs);
            assert!(errs.is_empty(), "{errs:?}");
            let bad = json!({"title": "ok", "labels": {"app": "db"}});
            r.run(&bad, None, &PathRef::Nil, false, &mut budget, &mut errs);
            assert_eq!(errs.len(), 1);
        }
    }
}
