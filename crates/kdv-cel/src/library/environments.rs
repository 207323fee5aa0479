//! Which libraries each environment holds, in registration order, and in which order the
//! libraries' static cost estimators are asked. The checker, the interpreter and the cost walk
//! take their libraries from here rather than naming each one.

use super::estimate::{CallEstimate, CallSite};
use super::{Library, Registry, ext, k8s, standard};

/// cel-go's libraries as Kubernetes' base environment configures them: the standard library,
/// optional types (every version), strings v2, lists v3, sets, two-variable comprehensions.
pub fn kubernetes_base() -> [Library; 6] {
    [
        standard::library(),
        ext::optional::library(u32::MAX),
        ext::strings::library(2),
        ext::lists::library(3),
        ext::sets::library(),
        ext::comprehensions::library(),
    ]
}

/// Kubernetes' own libraries ([`super::k8s`]).
pub fn kubernetes() -> [Library; 8] {
    [
        k8s::lists::library(),
        k8s::regex::library(),
        k8s::quantity::library(),
        k8s::format::library(),
        k8s::urls::library(),
        k8s::ip::library(),
        k8s::cidr::library(),
        k8s::semver::library(),
    ]
}

/// cel-go's libraries as the cel-spec conformance environment runs them: every one at its
/// latest version.
pub fn cel_spec() -> [Library; 9] {
    [
        standard::library(),
        ext::strings::library(u32::MAX),
        ext::lists::library(u32::MAX),
        ext::comprehensions::library(),
        ext::sets::library(),
        ext::math::library(u32::MAX),
        ext::optional::library(u32::MAX),
        ext::encoders::library(),
        ext::bindings::library(),
    ]
}

impl Registry {
    /// The functions of [`cel_spec`]'s libraries (the cel-spec conformance environment).
    pub fn full() -> Registry {
        let mut r = Registry::new();
        for lib in cel_spec() {
            r.add(lib.functions());
        }
        r
    }

    /// The functions of [`kubernetes_base`]'s libraries, with Kubernetes' runtime prices of
    /// the strings-extension functions it prices itself (Kubernetes' own libraries are added
    /// by the caller: [`crate::k8s::registry`]).
    pub fn kubernetes() -> Registry {
        let mut r = Registry::new();
        for lib in kubernetes_base() {
            r.add(lib.functions());
        }
        k8s::cost::set_runtime_costs(&mut r);
        r
    }
}

/// The overload estimators cel-go's extension libraries register (`OverloadCostEstimate`:
/// ext.Sets, ext.Lists v3). Asked first: they take precedence over every other estimate of
/// their overloads.
pub(crate) fn extension_estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    ext::sets::estimate(c).or_else(|| ext::lists::estimate(c))
}

/// Kubernetes' `CostEstimator` (by function name), asked next when the cost options enable it.
pub(crate) fn kubernetes_estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    k8s::estimate(c)
}

/// cel-go's own estimates of standard-library and strings-extension overloads (its checker's
/// `functionCost`), asked last, after the cost walk's structural ones (`&&`, `||`, `?:`,
/// concatenation).
pub(crate) fn cel_go_estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    standard::estimate(c).or_else(|| ext::strings::estimate(c))
}
