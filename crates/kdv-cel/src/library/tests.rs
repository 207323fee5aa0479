//! The libraries of an environment are complete: every overload its checker can resolve a call
//! to is implemented under the same id in its registry (same function, call style and arity),
//! is priced at run time wherever its static estimate depends on the arguments' sizes, and —
//! in Kubernetes' libraries — has a static estimate from Kubernetes' estimator.

use std::collections::BTreeSet;

use super::environments::{self, cel_go_estimate, extension_estimate, kubernetes_estimate};
use super::estimate::{CallEstimate, CallSite, SizeEstimate};
use super::{Library, OverloadDecl, Registry};
use crate::ast::{Expr, ExprKind, Span};
use crate::types::Type;

/// Why a declared overload has no implementation under its id.
const SPECIAL_FORM: &str = "planned as a node of its own (short-circuit, lazy branches or \
                            attribute access), never dispatched by id";
const BLOCK: &str = "cel.block is not part of the Kubernetes environment: declared for the \
                     conformance checker only, the runner skips the suite's block tests";

/// Declared overloads without an implementation under their id, and why.
const NOT_DISPATCHED: &[(&str, &str)] = &[
    ("conditional", SPECIAL_FORM),
    ("logical_and", SPECIAL_FORM),
    ("logical_or", SPECIAL_FORM),
    ("not_strictly_false", SPECIAL_FORM),
    ("index_list", SPECIAL_FORM),
    ("index_map", SPECIAL_FORM),
    ("select_optional_field", SPECIAL_FORM),
    ("list_optindex_optional_int", SPECIAL_FORM),
    ("optional_list_optindex_optional_int", SPECIAL_FORM),
    ("map_optindex_optional_value", SPECIAL_FORM),
    ("optional_map_optindex_optional_value", SPECIAL_FORM),
    ("optional_list_index_int", SPECIAL_FORM),
    ("optional_map_index_value", SPECIAL_FORM),
    ("cel_block_list", BLOCK),
];

/// Why Kubernetes' estimator has no estimate for an overload of its libraries.
const NO_UPSTREAM_CASE: &str = "upstream's CostEstimator has no case for the function: \
                                cel-go's default estimate applies";

/// Overloads of Kubernetes' libraries that Kubernetes' static estimator does not price.
const NOT_ESTIMATED_BY_KUBERNETES: &[(&str, &str)] = &[
    ("ip_to_string", NO_UPSTREAM_CASE),
    ("cidr_to_string", NO_UPSTREAM_CASE),
    ("is_url_string", NO_UPSTREAM_CASE),
    ("format.dns1123Label", NO_UPSTREAM_CASE),
    ("format.dns1123Subdomain", NO_UPSTREAM_CASE),
    ("format.dns1035Label", NO_UPSTREAM_CASE),
    ("format.qualifiedName", NO_UPSTREAM_CASE),
    ("format.dns1123LabelPrefix", NO_UPSTREAM_CASE),
    ("format.dns1123SubdomainPrefix", NO_UPSTREAM_CASE),
    ("format.dns1035LabelPrefix", NO_UPSTREAM_CASE),
    ("format.labelValue", NO_UPSTREAM_CASE),
    ("format.uri", NO_UPSTREAM_CASE),
    ("format.uuid", NO_UPSTREAM_CASE),
    ("format.byte", NO_UPSTREAM_CASE),
    ("format.date", NO_UPSTREAM_CASE),
    ("format.datetime", NO_UPSTREAM_CASE),
];

/// A call to one declared overload as the static estimators see it: every operand has the
/// overload's parameter type and the same size, and no operand is a literal.
struct Probe<'a> {
    function: &'a str,
    overload: &'a OverloadDecl,
    size: SizeEstimate,
    expr: &'a Expr,
}

impl<'a> CallSite<'a> for Probe<'a> {
    /// The operand's position among the overload's parameters (the receiver first).
    type Node = usize;

    fn function(&self) -> &'a str {
        self.function
    }

    fn overload(&self) -> &'a str {
        &self.overload.id
    }

    fn argc(&self) -> usize {
        self.overload.params.len() - usize::from(self.overload.member)
    }

    fn target(&self) -> Option<usize> {
        self.overload.member.then_some(0)
    }

    fn arg(&self, i: usize) -> usize {
        i + usize::from(self.overload.member)
    }

    fn expr(&self, _: &usize) -> &'a Expr {
        self.expr
    }

    fn node_type(&self, node: &usize) -> &'a Type {
        &self.overload.params[*node]
    }

    fn computed_size(&self, _: &usize) -> Option<SizeEstimate> {
        Some(self.size)
    }

    fn node_size(&self, _: &usize) -> SizeEstimate {
        self.size
    }

    fn element(&mut self, node: &usize) -> Option<(&'a Type, SizeEstimate)> {
        let elem = match &self.overload.params[*node] {
            Type::List(e) | Type::Optional(e) | Type::Type(e) => e,
            Type::Map(k, _) => k,
            Type::Opaque(_, params) => params.first()?,
            _ => return None,
        };
        Some((elem, self.size))
    }
}

/// The estimators of an environment, in the cost walk's order.
fn estimate(probe: &mut Probe<'_>, kubernetes: bool) -> Option<CallEstimate> {
    extension_estimate(probe)
        .or_else(|| {
            kubernetes
                .then(|| kubernetes_estimate(probe, super::releases::NEWEST_MINOR))
                .flatten()
        })
        .or_else(|| cel_go_estimate(probe))
}

/// The problems of one environment: its libraries (checker side) against its registry.
fn problems(
    libraries: &[Library],
    registry: &Registry,
    kubernetes: bool,
    checked: &mut BTreeSet<String>,
    priced_count: &mut usize,
) -> Vec<String> {
    let expr = Expr {
        id: 1,
        kind: ExprKind::Ident("x".to_string()),
        span: Span::default(),
    };
    let exempt = |list: &[(&str, &str)], id: &str| list.iter().any(|(x, _)| *x == id);
    let mut out = Vec::new();
    for lib in libraries {
        let is_kubernetes_library = lib.name().starts_with("kubernetes.");
        for f in lib.declarations().functions() {
            for o in &f.overloads {
                checked.insert(o.id.to_string());
                let at = format!("{} {} {}", lib.name(), f.name, o.id);
                let Some(imp) = registry.overload(&o.id) else {
                    if !exempt(NOT_DISPATCHED, &o.id) {
                        out.push(format!("{at}: no implementation under this id"));
                    }
                    continue;
                };
                if exempt(NOT_DISPATCHED, &o.id) {
                    out.push(format!("{at}: implemented, but listed as not dispatched"));
                }
                if imp.function != f.name || imp.member != o.member {
                    out.push(format!(
                        "{at}: implemented as {} (member: {})",
                        imp.function, imp.member
                    ));
                }
                if let Some(params) = imp.params
                    && params.len() != o.params.len()
                {
                    out.push(format!(
                        "{at}: {} runtime parameters for {} declared",
                        params.len(),
                        o.params.len()
                    ));
                }
                // A static estimate that depends on the arguments' sizes (or is no constant
                // 1) needs a runtime cost function: cel-go's default runtime cost is 1.
                let at_size = |n: u64| {
                    let mut probe = Probe {
                        function: &f.name,
                        overload: o,
                        size: SizeEstimate { min: n, max: n },
                        expr: &expr,
                    };
                    estimate(&mut probe, kubernetes).map(|e| e.cost)
                };
                let (small, large) = (at_size(3), at_size(3000));
                let priced = small.is_some_and(|c| c != super::estimate::CostEstimate::fixed(1))
                    || small != large;
                *priced_count += usize::from(priced);
                if priced && imp.cost.is_none() {
                    out.push(format!(
                        "{at}: estimated {small:?} (size 3), {large:?} (size 3000), but \
                         cel-go's default runtime cost"
                    ));
                }
                if kubernetes && is_kubernetes_library {
                    let mut probe = Probe {
                        function: &f.name,
                        overload: o,
                        size: SizeEstimate { min: 3, max: 3 },
                        expr: &expr,
                    };
                    let estimated =
                        kubernetes_estimate(&mut probe, super::releases::NEWEST_MINOR).is_some();
                    let listed = exempt(NOT_ESTIMATED_BY_KUBERNETES, &o.id);
                    if estimated == listed {
                        out.push(format!(
                            "{at}: Kubernetes' estimator {} it, the list says otherwise",
                            if estimated {
                                "prices"
                            } else {
                                "does not price"
                            }
                        ));
                    }
                }
            }
        }
    }
    out
}

#[test]
fn every_declared_overload_is_implemented_and_priced() {
    let mut checked = BTreeSet::new();
    let kubernetes: Vec<Library> = environments::kubernetes_base()
        .into_iter()
        .chain(environments::kubernetes())
        .collect();
    let mut priced = 0;
    let mut found = problems(
        &kubernetes,
        &crate::k8s::registry(),
        true,
        &mut checked,
        &mut priced,
    );
    found.extend(problems(
        &environments::cel_spec(),
        &Registry::full(),
        false,
        &mut checked,
        &mut priced,
    ));
    // kdv's own libraries, with the registry `+validationRule` programs run with.
    found.extend(problems(
        &super::kdv::libraries(),
        &crate::k8s::type_rule_program_options().registry,
        true,
        &mut checked,
        &mut priced,
    ));
    assert!(found.is_empty(), "{}", found.join("\n"));
    // Every exception names an overload some library declares.
    for (id, _) in NOT_DISPATCHED.iter().chain(NOT_ESTIMATED_BY_KUBERNETES) {
        assert!(checked.contains(*id), "{id} is declared nowhere");
    }
    // The probes reach the estimators: many overloads are priced by size.
    assert!(checked.len() > 380, "{} overloads checked", checked.len());
    assert!(
        priced > 100,
        "{priced} overloads priced by their static estimates"
    );
}
