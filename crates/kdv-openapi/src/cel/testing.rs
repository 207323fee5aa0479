//! A narrow entry point for test suites: the CEL rules (`x-kubernetes-validations`) of a
//! schema and of every node below it, on one value, as apiextensions-apiserver's
//! `cel.Validator.Validate(ctx, fldPath, schema, obj, oldObj, costBudget, opts...)` runs
//! them — no decoding, no value validations, no metadata checks, any JSON value as the root
//! (not only objects), errors under a chosen root path, and the remaining cost budget.
//! Upstream's own tests (`TestValidationExpressions` and its siblings) call the validator
//! this way; the conformance runner (`kdv-conformance apiextensions`) replays them through
//! [`validate_rules`].
//!
//! Products validate whole objects with [`Resource::validate`] instead.

use kdv_runtime::{ErrorList, FieldPath};
use serde_json::Value;

use super::compile::RuleEnv;
use super::validator::{Config, Rules, validate};
use crate::Resource;

/// How [`validate_rules`] runs a schema's rules (the arguments of upstream's `validator` /
/// `NewValidator` and `Validate`).
#[derive(Debug, Clone)]
pub struct RuleValidation {
    /// Whether the schema is a resource root (`isResourceRoot`: `apiVersion`, `kind` and
    /// `metadata.name`/`generateName` typed as at the root of a custom resource).
    pub resource_root: bool,
    /// The path errors are reported under (upstream's tests use `field.NewPath("root")`).
    pub root_path: FieldPath,
    /// The runtime cost budget of the whole call (`costBudget`).
    pub cost_budget: i64,
    /// The cost limit of one rule evaluation (`perCallLimit`).
    pub per_call_limit: u64,
    /// Validation ratcheting (`WithRatcheting(correlatedObject)`): errors of rules on
    /// unchanged values are dropped and reported as warnings instead.
    pub ratcheting: bool,
}

impl Default for RuleValidation {
    /// The API server's limits (`celconfig.RuntimeCELCostBudget`, `celconfig.PerCallLimit`),
    /// a resource root, errors from the root path `root`, no ratcheting.
    fn default() -> Self {
        RuleValidation {
            resource_root: true,
            root_path: FieldPath::new("root"),
            cost_budget: 10_000_000,
            per_call_limit: 1_000_000,
            ratcheting: false,
        }
    }
}

/// What [`validate_rules`] found.
#[derive(Debug, Clone, Default)]
pub struct RuleReport {
    /// The field errors, in upstream's order.
    pub errors: ErrorList,
    /// The cost budget left (`remainingBudget`).
    pub remaining_budget: i64,
    /// With ratcheting, the texts (`err.Error()`) of the errors it dropped, which the API
    /// server returns as warnings.
    pub warnings: Vec<String>,
}

/// Why [`validate_rules`] did not run. No case remains: every schema that compiled into a
/// [`Resource`] can have its rules run (rules that do not compile are reported as upstream
/// reports them, as field errors). The type stays so that a future refusal is not a
/// breaking change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleValidationError {}

impl std::fmt::Display for RuleValidationError {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {}
    }
}

impl std::error::Error for RuleValidationError {}

/// Runs the CEL rules of `resource`'s schema (its root and every node below) on `value`,
/// with `old` as the old value of transition rules (`None`: a create), as upstream's
/// `cel.Validator.Validate` does: the value as given (no decoding, pruning or defaulting),
/// the `CRDValidationRatcheting` gate on (as in every supported Kubernetes), CEL ratcheting
/// only when asked for ([`RuleValidation::ratcheting`], upstream's `WithRatcheting`).
///
/// The rules are compiled on each call (test suites call this once per case).
pub fn validate_rules(
    resource: &Resource,
    value: &Value,
    old: Option<&Value>,
    options: &RuleValidation,
) -> Result<RuleReport, RuleValidationError> {
    let (arena, root) = resource.schema();
    let mut report = RuleReport {
        remaining_budget: options.cost_budget,
        ..RuleReport::default()
    };
    // Upstream's tests build the validator with `validator(...)`, not `NewValidator`: rules
    // written only in `allOf` entries run too.
    let env = RuleEnv::stored_expressions(resource.kubernetes_minor());
    let Some(rules) = Rules::compile(arena, root, options.resource_root, false, env) else {
        return Ok(report);
    };
    options.root_path.with_path_ref(|root_path| {
        let config = Config {
            root_path,
            resource_root: options.resource_root,
            cost_budget: options.cost_budget,
            per_call_limit: options.per_call_limit,
            ratcheting: options.ratcheting,
            optional_old_self: true,
            values: resource.kubernetes_minor() >= 35,
            // Upstream's tests give the validator any data.
            unvalidated: true,
        };
        let ran = validate(arena, &rules, root, value, old, &config, &mut report.errors);
        report.remaining_budget = ran.remaining_budget;
        report.warnings = ran.warnings;
    });
    Ok(report)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn resource(schema: Value) -> Resource {
        Resource::from_crd_schema("example.com", "v1", "Case", &schema, 35)
            .expect("test schema is structural")
    }

    fn texts(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn ratcheted_failures_become_warnings_with_the_error_text() {
        // validation_test.go TestRatcheting "normal CEL expression".
        let r = resource(
            json!({"type": "object", "properties": {"foo": {"type": "string",
            "x-kubernetes-validations": [{"rule": "self == \"bar\"", "message": "gotta be bar"}]}}}),
        );
        let old = json!({"foo": "baz"});
        let options = RuleValidation {
            ratcheting: true,
            ..RuleValidation::default()
        };
        let report = validate_rules(&r, &json!({"foo": "baz"}), Some(&old), &options).unwrap();
        assert!(report.errors.is_empty());
        assert_eq!(
            report.warnings,
            [r#"root.foo: Invalid value: "baz": gotta be bar"#]
        );
        // Without `WithRatcheting` the failure is an error.
        let report = validate_rules(
            &r,
            &json!({"foo": "baz"}),
            Some(&old),
            &RuleValidation::default(),
        )
        .unwrap();
        assert_eq!(
            texts(&report.errors),
            [r#"root.foo: Invalid value: "baz": gotta be bar"#]
        );
        assert!(report.warnings.is_empty());
    }

    #[test]
    fn any_value_is_a_root_and_the_budget_left_is_returned() {
        let r = resource(json!({"type": "array", "items": {"type": "integer"},
            "x-kubernetes-validations": [{"rule": "self.all(x, x > 1)"}]}));
        let options = RuleValidation {
            resource_root: false,
            ..RuleValidation::default()
        };
        let report = validate_rules(&r, &json!([1, 2]), None, &options).unwrap();
        assert_eq!(
            texts(&report.errors),
            ["root: Invalid value: failed rule: self.all(x, x > 1)"]
        );
        assert!(report.remaining_budget < options.cost_budget);
        assert!(report.remaining_budget > 0);
        // Upstream's "CEL cost budget exceeded" shape: no budget at all stops at once.
        let options = RuleValidation {
            cost_budget: 0,
            ..options
        };
        let report = validate_rules(&r, &json!([2]), None, &options).unwrap();
        assert_eq!(
            texts(&report.errors),
            [
                "root: Invalid value: \"array\": validation failed due to running out of cost budget, no further validation rules will be run"
            ]
        );
        assert_eq!(report.remaining_budget, -1);
    }

    #[test]
    fn optional_old_self_rules_run_without_an_old_value() {
        let r = resource(
            json!({"type": "object", "properties": {"x": {"type": "string",
            "x-kubernetes-validations": [{"rule": "oldSelf.hasValue()", "optionalOldSelf": true,
                "message": "no old value"}]}}}),
        );
        let report =
            validate_rules(&r, &json!({"x": "a"}), None, &RuleValidation::default()).unwrap();
        assert_eq!(
            texts(&report.errors),
            [r#"root.x: Invalid value: "a": no old value"#]
        );
    }

    #[test]
    fn root_paths_of_several_segments() {
        let r = resource(
            json!({"type": "integer", "x-kubernetes-validations": [{"rule": "self > 1"}]}),
        );
        let options = RuleValidation {
            resource_root: false,
            root_path: FieldPath::new("spec").key("k").index(2),
            ..RuleValidation::default()
        };
        let report = validate_rules(&r, &json!(1), None, &options).unwrap();
        assert_eq!(
            texts(&report.errors),
            ["spec[k][2]: Invalid value: 1: failed rule: self > 1"]
        );
    }

    /// TestMessageExpression's object and schema: `str` with one rule `false`.
    fn message_case(message: &str, message_expression: &str, budget: i64) -> RuleReport {
        let mut rule = json!({"rule": "false", "messageExpression": message_expression});
        if !message.is_empty() {
            rule["message"] = json!(message);
        }
        let r = resource(
            json!({"type": "object", "properties": {"str": {"type": "string"}},
            "x-kubernetes-validations": [rule]}),
        );
        let options = RuleValidation {
            resource_root: false,
            cost_budget: budget,
            ..RuleValidation::default()
        };
        validate_rules(&r, &json!({"str": "a string"}), None, &options).unwrap()
    }

    #[test]
    fn failed_evaluations_are_charged() {
        // TestMessageExpression "runtime cost preserved if messageExpression fails during
        // evaluation" (apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go):
        // the failed evaluation's cost, 3 (the index 1, the relative attribute over the
        // constant list 1, the `+` it feeds 1), stays charged: 47 of 50 left.
        let report = message_case(
            "message not messageExpression",
            r#""str1 " + ["a", "b", "c", "d"][4]"#,
            50,
        );
        assert_eq!(
            texts(&report.errors),
            ["root: Invalid value: message not messageExpression"]
        );
        assert_eq!(report.remaining_budget, 47);
        // "messageExpression budget (str concat)": 46 left.
        let report = message_case("", r#""str1 " + self.str"#, 50);
        assert_eq!(
            texts(&report.errors),
            ["root: Invalid value: str1 a string"]
        );
        assert_eq!(report.remaining_budget, 46);
        // Only `\n` counts as a line break (upstream's `[\n]+`).
        let report = message_case("static", r#""a\rb""#, 50);
        assert_eq!(texts(&report.errors), ["root: Invalid value: a\rb"]);
        let report = message_case("static", r#""a\nb""#, 50);
        assert_eq!(texts(&report.errors), ["root: Invalid value: static"]);
        // A rule failing with an error is charged too.
        let r = resource(
            json!({"type": "object", "properties": {"l": {"type": "array",
            "items": {"type": "integer"}}},
            "x-kubernetes-validations": [{"rule": "self.l[4] == 1"}]}),
        );
        let options = RuleValidation {
            resource_root: false,
            cost_budget: 50,
            ..RuleValidation::default()
        };
        let report = validate_rules(&r, &json!({"l": [1]}), None, &options).unwrap();
        assert_eq!(
            texts(&report.errors),
            [
                "root: Invalid value: \"object\": index out of bounds: 4 evaluating rule: self.l[4] == 1"
            ]
        );
        assert!(report.remaining_budget < 50);
    }

    #[test]
    fn data_of_the_wrong_kind_is_an_error_value() {
        // TestValidationExpressions "invalid data".
        let string = json!({"type": "string"});
        let schema = json!({"type": "object", "properties": {
            "o": {"type": "object", "properties": {"field": string}},
            "m": {"type": "object", "additionalProperties": string},
            "l": {"type": "array", "items": string},
            "s": {"type": "array", "items": string, "x-kubernetes-list-type": "set"},
            "lm": {"type": "array", "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["k"], "items": {"type": "object", "required": ["k"],
                "properties": {"k": string, "v": string}}},
            "intorstring": {"x-kubernetes-int-or-string": true},
            "nullable": {"type": "array", "items": string}}});
        let obj = json!({"o": [], "m": [], "l": {}, "s": {}, "lm": {}, "intorstring": true,
            "nullable": [null]});
        let options = RuleValidation {
            resource_root: false,
            ..RuleValidation::default()
        };
        for (rule, want) in [
            (
                "has(self.o)",
                "invalid data, expected a map for the provided schema with type=object",
            ),
            (
                "has(self.m)",
                "invalid data, expected a map for the provided schema with type=object",
            ),
            (
                "has(self.l)",
                "invalid data, expected an array for the provided schema with type=array",
            ),
            (
                "has(self.s)",
                "invalid data, expected an array for the provided schema with type=array",
            ),
            (
                "has(self.lm)",
                "invalid data, expected an array for the provided schema with type=array",
            ),
            (
                "has(self.intorstring)",
                "invalid data, expected XIntOrString value to be either a string or integer",
            ),
            (
                "self.nullable[0] == 'x'",
                "invalid data, got null for schema with nullable=false",
            ),
        ] {
            let mut schema = schema.clone();
            schema["x-kubernetes-validations"] = json!([{"rule": rule}]);
            let with_rule = resource(schema);
            let report = validate_rules(&with_rule, &obj, None, &options).unwrap();
            assert_eq!(
                texts(&report.errors),
                [format!(
                    "root: Invalid value: \"object\": {want} evaluating rule: {rule}"
                )],
                "{rule}"
            );
        }
    }

    #[test]
    fn all_of_entries_run_typed_by_their_structural_node() {
        // TestValidationExpressionsAtSchemaLevels "allOf.additionalProperties".
        let r = resource(json!({"type": "object", "properties": {"myProperty": {
            "type": "object", "additionalProperties": {"type": "string"},
            "allOf": [
                {"additionalProperties": {"x-kubernetes-validations": [
                    {"rule": "self.size() == 5", "message": "len must be 5"}]}},
                {"additionalProperties": {"x-kubernetes-validations": [
                    {"rule": "self == \"value2\" || self != \"value\"",
                     "message": "must be value2 or not value"}]}}]}}}));
        let obj = json!({"myProperty": {"key": "value", "key2": "value2"}});
        let report = validate_rules(&r, &obj, None, &RuleValidation::default()).unwrap();
        let mut got = texts(&report.errors);
        got.sort();
        assert_eq!(
            got,
            [
                r#"root.myProperty[key2]: Invalid value: "value2": len must be 5"#,
                r#"root.myProperty[key]: Invalid value: "value": must be value2 or not value"#,
            ]
        );
        // `anyOf`, `oneOf` and `not` entries never run.
        let r = resource(
            json!({"type": "object", "properties": {"k": {"type": "string"}},
            "x-kubernetes-validations": [{"rule": "true"}],
            "anyOf": [{"x-kubernetes-validations": [{"rule": "false"}]}],
            "not": {"x-kubernetes-validations": [{"rule": "false"}]}}),
        );
        let report = validate_rules(&r, &json!({"k": "v"}), None, &RuleValidation::default());
        assert!(report.unwrap().errors.is_empty());
    }
}
