//! The CEL view of a structural schema, for the `x-kubernetes-validations` rules of CRDs
//! (KEP-2876) as the API server compiles them:
//!
//! - [`schema_decl_type`]: a schema node → its CEL declared type (objects with typed fields,
//!   `map(string, T)` for `additionalProperties`, `list(T)` for `items`, `dyn` for
//!   int-or-string, `bytes`/`duration`/`timestamp` by format; resource roots with
//!   `apiVersion`, `kind` and `metadata.name`/`generateName`), with the sizes the cost
//!   estimator reads (`maxItems`, `maxLength`, `maxProperties`, or the request-size bound);
//! - [`escape`]/[`unescape`]: property names ↔ CEL field names (`a-b` ↔ `a__dash__b`,
//!   `namespace` ↔ `__namespace__`); properties without a CEL name are not fields;
//! - [`RuleTypes`]: the checker environment of the rules on one node (`self`, `oldSelf`,
//!   the object types through a [`DeclTypeProvider`], where a reserved word selects its
//!   escaped field) and their size estimator ([`SchemaSizes`]);
//! - [`to_value`]: a node's JSON data as the CEL value the rules see (apiserver
//!   `UnstructuredToVal`), borrowed: plain JSON views where nothing needs converting, typed
//!   views (formats, `number`, escaped names, set and map lists) elsewhere;
//! - [`validate_rules`]: a schema's rules on one value as upstream's `cel.Validator` runs
//!   them, for test suites replaying upstream's tests ([`testing`]);
//! - [`valid_field_path`]: a rule's `fieldPath` checked against its node's schema and
//!   normalized (`ValidFieldPath`), as the CRD checks and the compiler use it;
//! - [`SchemaRules`]: the rules of a schema compiled once and run on values found elsewhere,
//!   with a caller's path, correlated old value and request budget (kdv's `+validationRule`);
//! - [`compile_rules`]: how the rules of a schema compile (errors, transition rules,
//!   estimated costs), as upstream's `Compile` reports them;
//! - the rules compiled once per [`crate::Resource`] (`compile`) and run by
//!   [`crate::Resource::validate`] (`validator`, spec §5.4-5.9).
//!
//! ```
//! use kdv_openapi::Resource;
//! use kdv_openapi::cel::{RuleTypes, schema_decl_type};
//! use kdv_cel::types::Type;
//!
//! let schema = serde_json::json!({
//!     "type": "object",
//!     "properties": {"spec": {"type": "object", "properties": {"replicas": {"type": "integer"}}}},
//! });
//! let widget = Resource::from_crd_schema("example.com", "v1", "Widget", &schema, 35).unwrap();
//! let (arena, root) = widget.schema();
//! let decl = schema_decl_type(arena, root, true).unwrap();
//! let types = RuleTypes::new(decl, "selfType0");
//! let env = types.env(&kdv_cel::k8s::env(), false);
//! let checked = kdv_cel::checker::compile("self.spec.replicas > 0", &env).unwrap();
//! assert_eq!(checked.result_type, Type::Bool);
//! let err = kdv_cel::checker::compile("self.spec.nosuch", &env).unwrap_err();
//! assert!(err.to_string().contains("undefined field 'nosuch'"));
//! ```

mod compile;
mod compile_report;
mod decl;
mod defaults;
mod escaping;
#[cfg(test)]
mod eval_tests;
pub(crate) mod field_path;
mod node_rules;
mod provider;
pub mod testing;
#[cfg(test)]
mod tests;
mod validator;
mod values;
#[cfg(test)]
mod values_tests;

pub(crate) use compile::{RuleEnv, RuleSource, compile_node};
pub use compile_report::{
    CompileErrorType, CompileRulesError, RuleCompilation, RuleCompileError, compile_rules,
    compile_rules_at,
};
pub use decl::{
    DeclField, DeclKind, DeclType, JSON_DATE_SIZE, MAX_DATETIME_SIZE_JSON, MAX_DURATION_SIZE_JSON,
    MAX_REQUEST_SIZE_BYTES, MIN_BOOL_SIZE, MIN_DATETIME_SIZE_JSON, MIN_DURATION_SIZE_JSON,
    MIN_NUMBER_SIZE, MIN_STRING_SIZE, NAME_MAX_LENGTH, schema_decl_type,
};
pub(crate) use defaults::{DefaultRules, validate_default_rules};
pub use escaping::{escape, is_reserved, unescape};
pub use field_path::valid_field_path;
pub use node_rules::{RUNTIME_COST_BUDGET, SchemaRules};
pub use provider::{DeclTypeProvider, RuleTypes, SchemaSizes};
pub use testing::{RuleReport, RuleValidation, RuleValidationError, validate_rules};
pub(crate) use validator::RUNTIME_CEL_COST_BUDGET;
pub(crate) use validator::{Config, Rules, has_blocking_error, not_checked_error, validate};
pub(crate) use values::{ValueSchemaCells, cells as value_schema_cells};
pub use values::{to_value, value_schema};
