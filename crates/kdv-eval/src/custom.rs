//! Hand-written validation functions for `+k8s:customValidation`.
//!
//! Upstream wires Go functions found by naming convention (`ValidateCustom_<Type>`,
//! `ValidateCustom_<Struct>_<Field>`) into the generated code. kdv cannot run Go, so the
//! rule IR only names the function ([`kdv_rules::Check::CustomValidation`]) and the caller
//! supplies the functions through [`EvalOptions::custom_validators`]:
//!
//! * without a registry ([`crate::validate`], or `custom_validators: None`) custom
//!   validations are skipped: kdv reports the declarative rules only;
//! * with a registry, each call goes to the registered function; a function the registry
//!   does not know is an `InternalError` at the call's path (the caller asked for custom
//!   validation, so silently passing would hide a misconfiguration).
//!
//! Functions are called exactly where upstream calls them: ratcheted like any field
//! validation, under `ifEnabled`/`ifDisabled`, with the value in nilable form.

use std::collections::HashMap;
use std::fmt;

use kdv_runtime::{ErrorList, Operation, PathRef};
use serde_json::Value;

/// One call of a custom validation function: upstream's
/// `(ctx, op, fldPath, value, oldValue)`.
#[derive(Clone, Copy)]
pub struct CustomCall<'a> {
    /// The function's name, `ValidateCustom_<Type>` or `ValidateCustom_<Struct>_<Field>`.
    pub function: &'a str,
    /// Import path of the package declaring the validated type.
    pub package: &'a str,
    /// The operation (Create or Update, options, subresources).
    pub op: &'a Operation,
    /// Path of the validated value (`fldPath`).
    pub path: &'a PathRef<'a>,
    /// The value in nilable form: `None` for nil (an absent pointer, list or map); absent
    /// non-nilable values are given as their Go zero value.
    pub value: Option<&'a Value>,
    /// The old value on Update when it is known (same form); `None` on Create, and for
    /// values without a correlated old value.
    pub old_value: Option<&'a Value>,
}

impl fmt::Debug for CustomCall<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CustomCall")
            .field("function", &self.function)
            .field("package", &self.package)
            .field("path", &self.path.to_path().to_string())
            .field("value", &self.value)
            .field("old_value", &self.old_value)
            .finish()
    }
}

/// A source of custom validation functions.
pub trait CustomValidators {
    /// Runs the function `call.function` (of `call.package`) and returns its errors, or
    /// `None` when this source does not have it.
    fn call(&self, call: &CustomCall<'_>) -> Option<ErrorList>;
}

/// A custom validation function.
pub type CustomFn = dyn Fn(&CustomCall<'_>) -> ErrorList + Send + Sync;

/// Custom validation functions registered by name, optionally per package.
#[derive(Default)]
pub struct CustomRegistry {
    by_name: HashMap<String, Box<CustomFn>>,
    by_package: HashMap<String, HashMap<String, Box<CustomFn>>>,
}

impl CustomRegistry {
    /// An empty registry.
    pub fn new() -> CustomRegistry {
        CustomRegistry::default()
    }

    /// Registers `f` as the function `name` of any package.
    pub fn register(
        &mut self,
        name: impl Into<String>,
        f: impl Fn(&CustomCall<'_>) -> ErrorList + Send + Sync + 'static,
    ) -> &mut Self {
        self.by_name.insert(name.into(), Box::new(f));
        self
    }

    /// Registers `f` as the function `name` of the package `package` (preferred over a
    /// package-less registration of the same name).
    pub fn register_in(
        &mut self,
        package: impl Into<String>,
        name: impl Into<String>,
        f: impl Fn(&CustomCall<'_>) -> ErrorList + Send + Sync + 'static,
    ) -> &mut Self {
        self.by_package
            .entry(package.into())
            .or_default()
            .insert(name.into(), Box::new(f));
        self
    }

    /// Whether a function is registered for `package.name`.
    pub fn contains(&self, package: &str, name: &str) -> bool {
        self.lookup(package, name).is_some()
    }

    fn lookup(&self, package: &str, name: &str) -> Option<&CustomFn> {
        self.by_package
            .get(package)
            .and_then(|m| m.get(name))
            .or_else(|| self.by_name.get(name))
            .map(|b| b.as_ref())
    }
}

impl fmt::Debug for CustomRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names: Vec<String> = self.by_name.keys().cloned().collect();
        for (pkg, m) in &self.by_package {
            names.extend(m.keys().map(|n| format!("{pkg}.{n}")));
        }
        names.sort();
        f.debug_struct("CustomRegistry")
            .field("functions", &names)
            .finish()
    }
}

impl CustomValidators for CustomRegistry {
    fn call(&self, call: &CustomCall<'_>) -> Option<ErrorList> {
        self.lookup(call.package, call.function).map(|f| f(call))
    }
}

/// Options of [`crate::validate_with`].
#[derive(Clone, Copy, Default)]
pub struct EvalOptions<'a> {
    /// Functions for `+k8s:customValidation`; `None` skips those validations.
    pub custom_validators: Option<&'a dyn CustomValidators>,
    /// Skip the decoding pass (its `FieldValueTypeInvalid` errors): for a caller that
    /// decodes the object itself (an OpenAPI pipeline). The validations are the same: each
    /// skips a value of the wrong kind, as after a failed decoding pass.
    pub skip_decoding: bool,
    /// The Kubernetes release (1.x) whose CEL environment compiles `+validationRule`s (with
    /// kdv's own CEL libraries); `None`: kdv-openapi's default release.
    pub kubernetes_minor: Option<u32>,
}

impl fmt::Debug for EvalOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EvalOptions")
            .field("custom_validators", &self.custom_validators.is_some())
            .field("skip_decoding", &self.skip_decoding)
            .field("kubernetes_minor", &self.kubernetes_minor)
            .finish()
    }
}
