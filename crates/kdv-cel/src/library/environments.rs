//! Which libraries each environment holds, in registration order, and in which order the
//! libraries' static cost estimators are asked. The checker, the interpreter and the cost walk
//! take their libraries from here rather than naming each one. A Kubernetes release's
//! environment holds the libraries of its [`Features`] ([`super::releases`]).

use super::estimate::{CallEstimate, CallSite};
use super::releases::{Feature, Features};
use super::{Library, Registry, ext, k8s, kdv, standard};
use crate::parser::Macros;

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

/// Kubernetes' own libraries ([`super::k8s`]), each at its newest version.
pub fn kubernetes() -> [Library; 8] {
    [
        k8s::lists::library(1),
        k8s::regex::library(),
        k8s::quantity::library(),
        k8s::format::library(),
        k8s::urls::library(),
        k8s::ip::library(),
        k8s::cidr::library(),
        k8s::semver::library(),
    ]
}

/// cel-go's libraries of a Kubernetes environment with `features`, in [`kubernetes_base`]'s
/// order (the newest release's environment holds exactly those).
pub fn kubernetes_base_for(features: Features) -> Vec<Library> {
    let has = |f| features.contains(f);
    let mut out = vec![standard::library()];
    if has(Feature::OptionalTypes) {
        // `cel.OptionalTypes()` is the newest version of the vendored cel-go.
        let version = if has(Feature::OptionalTypesV2) {
            u32::MAX
        } else {
            1
        };
        out.push(ext::optional::library(version));
    }
    if has(Feature::StringsV2) {
        out.push(ext::strings::library(2));
    } else if has(Feature::StringsV0) {
        out.push(ext::strings::library(0));
    }
    if has(Feature::ExtListsV3) {
        out.push(ext::lists::library(3));
    }
    if has(Feature::Sets) {
        out.push(ext::sets::library());
    }
    if has(Feature::TwoVarComprehensions) {
        out.push(ext::comprehensions::library());
    }
    out
}

/// Kubernetes' own libraries of an environment with `features`, in [`kubernetes`]'s order.
pub fn kubernetes_for(features: Features) -> Vec<Library> {
    let lists = if features.contains(Feature::ListsV1) {
        Some(k8s::lists::library(1))
    } else if features.contains(Feature::Lists) {
        Some(k8s::lists::library(0))
    } else {
        None
    };
    lists
        .into_iter()
        .chain(
            [
                (Feature::Regex, k8s::regex::library()),
                (Feature::Quantity, k8s::quantity::library()),
                (Feature::Format, k8s::format::library()),
                (Feature::Urls, k8s::urls::library()),
                (Feature::Ip, k8s::ip::library()),
                (Feature::Cidr, k8s::cidr::library()),
                (Feature::Semver, k8s::semver::library()),
            ]
            .into_iter()
            .filter(|(f, _)| features.contains(*f))
            .map(|(_, lib)| lib),
        )
        .collect()
}

/// The macros a Kubernetes environment with `features` expands: cel-go's standard macros
/// (`existsOne` from cel-go v0.23), the optional library's, two-variable comprehensions',
/// and the lists extension's `sortBy`.
pub fn kubernetes_macros(features: Features) -> Macros {
    let mut m = Macros::HAS
        .union(Macros::ALL)
        .union(Macros::EXISTS)
        .union(Macros::EXISTS_ONE)
        .union(Macros::MAP)
        .union(Macros::FILTER);
    for (f, set) in [
        (Feature::ExistsOneMacro, Macros::EXISTS_ONE_CAMEL),
        (Feature::OptionalTypes, Macros::OPTIONAL),
        (Feature::TwoVarComprehensions, Macros::TWO_VAR),
        (Feature::ExtListsV3, Macros::SORT_BY),
    ] {
        if features.contains(f) {
            m = m.union(set);
        }
    }
    m
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

/// Kubernetes' `CostEstimator` (by function name) of release 1.`release`, asked next when the
/// cost options enable it.
pub(crate) fn kubernetes_estimate<'a>(
    c: &mut impl CallSite<'a>,
    release: u32,
) -> Option<CallEstimate> {
    // Equality of Kubernetes' types got its prices in 1.32.
    if release < 32 && c.function() == "_==_" {
        return None;
    }
    // Until 1.33 these cases required a receiver (`target != nil`), which global calls never
    // have: cel-go's default applied.
    if release < 34
        && c.target().is_none()
        && matches!(
            c.function(),
            "cidr"
                | "isIP"
                | "isCIDR"
                | "ip"
                | "ip.isCanonical"
                | "quantity"
                | "isQuantity"
                | "semver"
                | "isSemver"
        )
    {
        return None;
    }
    kdv::estimate(c).or_else(|| k8s::estimate(c))
}

/// cel-go's own estimates of standard-library and strings-extension overloads (its checker's
/// `functionCost`), asked last, after the cost walk's structural ones (`&&`, `||`, `?:`,
/// concatenation).
pub(crate) fn cel_go_estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    standard::estimate(c).or_else(|| ext::strings::estimate(c))
}
