//! The interpreter: a [`RuleSet`] × a JSON value (× the old value) × an [`Operation`] →
//! field errors, exactly as upstream's generated validation functions would report them
//! (spec §4, §5).
//!
//! The traversal follows upstream: a type's function runs its type-level validations
//! (cohorts, short-circuits), its key/value iterations and then, unless opaque, each field
//! block — ratchet check, field validations, the field type's function, element loops.
//! Values are read as Go would decode them: an absent non-pointer field is its zero value,
//! `null` is nil for pointers and collections. Validating a valid object allocates nothing
//! (paths are built on the stack); only long lists (more than [`STACK_INDEX_LIMIT`] items)
//! allocate a hash index for uniqueness and old-item correlation.
//!
//! Modules: `eval` (the traversal), `decode` (the decoding pass: type errors, Go zero values),
//! `value` (fields matched to an object's sorted keys in one merge pass, decision 0006),
//! `calls` (one dispatch arm per IR `Check`, handing views to the `kdv-runtime` family
//! function), `view` (the JSON side's views: `Typed`, `TypedList`, `TypedMap`, item identity
//! from list-map keys, union extractors), `cel_rules` (`+validationRule`: the node schema from
//! `kdv-schema`, compiled and run by `kdv-openapi`'s CRD rule machinery, decision 0081),
//! `custom` ([`validate_with`]: [`EvalOptions`] with a [`CustomValidators`] registry for
//! `+k8s:customValidation` (0005), the release of `+validationRule`s, `skip_decoding` (0077)),
//! `defaults` ([`apply_defaults`], decision 0101) and `unknown` ([`unknown_fields`], the
//! strict-decoding pass run only when asked, 0021).

#![warn(missing_docs)]

mod calls;
mod cel_rules;
mod custom;
mod decode;
mod defaults;
mod eval;
mod unknown;
mod value;
mod view;

use kdv_rules::{RuleSet, TypeId};
use kdv_runtime::{ErrorList, Operation};
use serde_json::Value;

pub use custom::{CustomCall, CustomFn, CustomRegistry, CustomValidators, EvalOptions};
pub use defaults::{apply_defaults, default_findings};
pub use kdv_runtime::lists::{PAIRWISE_LIMIT, STACK_INDEX_LIMIT};
pub use unknown::{MAX_UNKNOWN_FIELDS, UnknownField, unknown_fields};

/// Validates `new` (and, on Update, `old`) as a value of type `ty`. The root is validated
/// with the nil path and is never ratcheted. A JSON value whose kind cannot be decoded into
/// the Go type yields one `FieldValueTypeInvalid` error at its path and is not validated
/// further. `+k8s:customValidation` functions are not run (see [`validate_with`]).
pub fn validate(
    rules: &RuleSet,
    ty: TypeId,
    op: &Operation,
    new: &Value,
    old: Option<&Value>,
) -> ErrorList {
    eval::run(rules, ty, op, new, old, &EvalOptions::default())
}

/// [`validate`] with options: custom validation functions ([`EvalOptions`]).
pub fn validate_with(
    rules: &RuleSet,
    ty: TypeId,
    op: &Operation,
    new: &Value,
    old: Option<&Value>,
    options: &EvalOptions<'_>,
) -> ErrorList {
    eval::run(rules, ty, op, new, old, options)
}

#[cfg(test)]
mod tests;
