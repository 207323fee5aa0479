//! A read-only view of how the rules of a schema node compile, as apiextensions-apiserver's
//! `cel.Compile` reports them in its `CompilationResult`s: per rule, the compile error (its
//! type and upstream's text), whether a program was built, whether the rule is a transition
//! rule, the estimated maximum cost and cardinality, the `messageExpression`'s error and
//! cost, and the normalized `fieldPath`.
//!
//! The rules are compiled by the same code [`crate::Resource::validate`] and the CRD checks
//! use (`compile`), so what this reports is what they run. Upstream's own compile tests
//! (`TestCelCompilation`, `TestCostEstimation`) are replayed through [`compile_rules`] by the
//! conformance runner; tools can use it to show a rule's estimated cost.
//!
//! ```
//! use kdv_openapi::Resource;
//! use kdv_openapi::cel::compile_rules;
//!
//! let schema = serde_json::json!({
//!     "type": "array",
//!     "maxItems": 10,
//!     "items": {"type": "number"},
//!     "x-kubernetes-validations": [{"rule": "self.all(x, true)"}, {"rule": "size(self) == 'a'"}],
//! });
//! let r = Resource::from_crd_schema("example.com", "v1", "Widget", &schema, 35).unwrap();
//! let rules = compile_rules(&r, false).unwrap();
//! assert_eq!(rules[0].max_cost, 32);
//! assert!(rules[0].error.is_none());
//! assert!(rules[1].error.as_ref().unwrap().detail.starts_with("compilation failed: "));
//! ```

use std::fmt;

use super::compile::{CompiledRule, RuleEnv, RuleError, compile_node};
use crate::Resource;

/// The type of a rule's compile error (apiserver `cel.ErrorType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompileErrorType {
    /// `ErrorTypeRequired` (`RuleRequired`).
    Required,
    /// `ErrorTypeInvalid` (`RuleInvalid`): the rule is wrong.
    Invalid,
    /// `ErrorTypeInternal` (`InternalError`): the compiler failed, not the rule.
    Internal,
}

impl CompileErrorType {
    /// Upstream's name of the type (`RuleRequired`, `RuleInvalid`, `InternalError`).
    pub fn as_str(self) -> &'static str {
        match self {
            CompileErrorType::Required => "RuleRequired",
            CompileErrorType::Invalid => "RuleInvalid",
            CompileErrorType::Internal => "InternalError",
        }
    }
}

/// Why a rule or its `messageExpression` did not compile (apiserver `cel.Error`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleCompileError {
    /// The error's type.
    pub error_type: CompileErrorType,
    /// The detail, which is the whole of `Error()` (`compilation failed: ...`,
    /// `cel expression must evaluate to a bool`, `messageExpression must evaluate to a
    /// string`, ...).
    pub detail: String,
}

impl fmt::Display for RuleCompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.detail)
    }
}

impl RuleCompileError {
    fn of(e: &RuleError) -> RuleCompileError {
        // kdv's compiler records only whether an error is `Required`; upstream's `Compile`
        // reports these two failures of its own machinery as internal errors, every other
        // one as invalid.
        let internal = ["cost estimation failed", "unexpected "]
            .iter()
            .any(|p| e.detail.starts_with(p));
        RuleCompileError {
            error_type: if e.required {
                CompileErrorType::Required
            } else if internal {
                CompileErrorType::Internal
            } else {
                CompileErrorType::Invalid
            },
            detail: e.detail.clone(),
        }
    }
}

/// How one rule compiled (apiextensions-apiserver `CompilationResult`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleCompilation {
    /// The rule as written.
    pub rule: String,
    /// Why the rule did not compile (`Error`).
    pub error: Option<RuleCompileError>,
    /// A program was built (`Program != nil`): false for an empty (whitespace-only) rule and
    /// for a rule that did not compile.
    pub has_program: bool,
    /// The rule references `oldSelf` (`UsesOldSelf`: a transition rule).
    pub uses_old_self: bool,
    /// The estimated maximum cost of one evaluation (`MaxCost`).
    pub max_cost: u64,
    /// How often the node can occur in a request of the maximum size (`MaxCardinality`).
    pub max_cardinality: u64,
    /// Why the `messageExpression` did not compile (`MessageExpressionError`).
    pub message_expression_error: Option<RuleCompileError>,
    /// A `messageExpression` program was built (`MessageExpression != nil`).
    pub has_message_expression_program: bool,
    /// The estimated maximum cost of the `messageExpression` (`MessageExpressionMaxCost`).
    pub message_expression_max_cost: u64,
    /// The `fieldPath` as `ValidFieldPath` renders it (`NormalizedRuleFieldPath`), empty
    /// when unset or invalid.
    pub normalized_field_path: String,
}

impl RuleCompilation {
    fn of(r: &CompiledRule) -> RuleCompilation {
        RuleCompilation {
            rule: r.source.rule.clone(),
            error: r.error.as_ref().map(RuleCompileError::of),
            has_program: r.program.is_some(),
            uses_old_self: r.uses_old_self,
            max_cost: r.max_cost,
            max_cardinality: r.max_cardinality,
            message_expression_error: r.message_error.as_ref().map(RuleCompileError::of),
            has_message_expression_program: r.message_program.is_some(),
            message_expression_max_cost: r.message_max_cost,
            normalized_field_path: r.field_path.as_deref().unwrap_or_default().to_owned(),
        }
    }
}

/// Why [`compile_rules`] produced no per-rule results (upstream `Compile`'s error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileRulesError(pub String);

impl fmt::Display for CompileRulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CompileRulesError {}

/// Compiles the `x-kubernetes-validations` rules on the root of `resource`'s schema, one
/// result per rule in order (empty when it has none), with the root typed as a resource
/// root (`apiVersion`, `kind`, `metadata`) when `resource_root` — upstream's
/// `Compile(s, model.SchemaDeclType(s, resourceRoot), ...)` with the NewExpressions
/// environment of the resource's Kubernetes release (as a CRD create compiles them). An error
/// when the schema has no CEL type (`failed to convert to declType for CEL validation
/// rules`).
pub fn compile_rules(
    resource: &Resource,
    resource_root: bool,
) -> Result<Vec<RuleCompilation>, CompileRulesError> {
    compile_rules_at(resource, resource.schema().1, resource_root)
}

/// [`compile_rules`] for the rules on schema node `node` of `resource` (an editor's hover
/// over one rule: its cost and cardinality where it is written).
pub fn compile_rules_at(
    resource: &Resource,
    node: crate::schema::NodeId,
    resource_root: bool,
) -> Result<Vec<RuleCompilation>, CompileRulesError> {
    let (arena, _) = resource.schema();
    let env = RuleEnv::new_expressions(resource.kubernetes_minor());
    let Some(node) = compile_node(arena, node, resource_root, env) else {
        return Ok(Vec::new());
    };
    if let Some(e) = &node.init_error {
        return Err(CompileRulesError(e.clone()));
    }
    Ok(node.rules.iter().map(RuleCompilation::of).collect())
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn compile(schema: Value, root: bool) -> Vec<RuleCompilation> {
        let r = Resource::from_crd_schema("example.com", "v1", "Widget", &schema, 35)
            .expect("a structural schema");
        compile_rules(&r, root).expect("a CEL type")
    }

    /// Upstream's texts: `compilation failed: ` + cel-go's issues, the bool and string
    /// result checks; an empty rule compiles to nothing without an error.
    #[test]
    fn errors_with_upstream_texts_and_types() {
        let rs = compile(
            json!({"type": "integer", "x-kubernetes-validations": [
                {"rule": "size(self) == 10"},
                {"rule": "42"},
                {"rule": " \t"},
                {"rule": "self == 5", "messageExpression": "42"},
                {"rule": "self == 5", "messageExpression": "'five'"},
            ]}),
            false,
        );
        assert_eq!(rs.len(), 5);
        let e = rs[0].error.as_ref().expect("size of an int");
        assert_eq!(e.error_type, CompileErrorType::Invalid);
        assert_eq!(
            e.to_string(),
            "compilation failed: ERROR: <input>:1:5: found no matching overload for 'size' \
             applied to '(int)'\n | size(self) == 10\n | ....^"
        );
        assert!(!rs[0].has_program);
        assert_eq!(
            rs[1].error.as_ref().map(|e| e.detail.as_str()),
            Some("cel expression must evaluate to a bool")
        );
        assert_eq!(rs[2].error, None);
        assert!(!rs[2].has_program);
        assert_eq!(rs[3].error, None);
        assert!(rs[3].has_program);
        let m = rs[3]
            .message_expression_error
            .as_ref()
            .expect("an int message");
        assert_eq!(
            (m.error_type.as_str(), m.detail.as_str()),
            ("RuleInvalid", "messageExpression must evaluate to a string")
        );
        assert!(rs[4].has_message_expression_program);
        assert_eq!(rs[4].message_expression_max_cost, 0);
    }

    /// `oldSelf` makes a transition rule; with `optionalOldSelf` it is `optional_type(T)`.
    #[test]
    fn transition_rules_and_optional_old_self() {
        let rs = compile(
            json!({"type": "integer", "x-kubernetes-validations": [
                {"rule": "self > 0"},
                {"rule": "self >= oldSelf"},
                {"rule": "self >= oldSelf.orValue(1)", "optionalOldSelf": true},
                {"rule": "self >= oldSelf", "optionalOldSelf": true},
            ]}),
            false,
        );
        assert_eq!(
            rs.iter().map(|r| r.uses_old_self).collect::<Vec<_>>(),
            [false, true, true, false]
        );
        assert!(rs[..3].iter().all(|r| r.error.is_none()));
        assert!(
            rs[3]
                .error
                .as_ref()
                .is_some_and(|e| e.detail.contains("'(int, optional_type(int))'"))
        );
    }

    /// Upstream's `TestCostEstimation` numbers: "string with contains" and "number array
    /// with all", without and with the size limit; cardinality from the minimal size.
    #[test]
    fn estimated_costs_and_cardinality() {
        let string = |max: Option<u64>| {
            let mut s = json!({"type": "string",
                "x-kubernetes-validations": [{"rule": "self.contains('test')"}]});
            if let Some(m) = max {
                s["maxLength"] = json!(m);
            }
            compile(s, false).remove(0)
        };
        assert_eq!(string(None).max_cost, 314_574);
        assert_eq!(string(Some(10)).max_cost, 5);
        let array = |max: Option<u64>| {
            let mut s = json!({"type": "array", "items": {"type": "number"},
                "x-kubernetes-validations": [{"rule": "self.all(x, true)"}]});
            if let Some(m) = max {
                s["maxItems"] = json!(m);
            }
            compile(s, false).remove(0)
        };
        assert_eq!(array(None).max_cost, 4_718_591);
        assert_eq!(array(Some(10)).max_cost, 32);
        // `maxCardinality(minSize)`: 3 MiB / (2 + 1) for an array (`[]`).
        assert_eq!(array(None).max_cardinality, 1_048_576);
    }

    /// `NormalizedRuleFieldPath`: set only for a valid `fieldPath`; a resource root types
    /// `metadata.name`.
    #[test]
    fn field_paths_and_resource_roots() {
        let rs = compile(
            json!({"type": "object",
            "properties": {"a": {"type": "object", "additionalProperties": {"type": "string"}}},
            "x-kubernetes-validations": [
                {"rule": "true", "fieldPath": "['a']['b c']"},
                {"rule": "true", "fieldPath": ".nosuch"},
                {"rule": "self.metadata.name.contains('x')"},
            ]}),
            true,
        );
        assert_eq!(rs[0].normalized_field_path, "a[b c]");
        assert_eq!(rs[1].normalized_field_path, "");
        assert_eq!(rs[2].error, None);
        assert!(rs[2].max_cost > 0 && rs[2].max_cost <= 10_000);
    }

    #[test]
    fn no_rules_no_results() {
        assert!(compile(json!({"type": "string"}), false).is_empty());
    }
}
