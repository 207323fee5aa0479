//! Kubernetes' `library.CostEstimator.EstimateCallCost` (spec §3): static costs of the
//! Kubernetes libraries and of the strings-extension functions Kubernetes prices itself.
//! Dispatch is by function name, as upstream's (so `indexOf` on a string is priced here too).

use std::ops::Add as _;

use crate::ast::{ExprKind, Literal};
use crate::library::estimate::{
    CallEstimate, CallSite, CostEstimate, LIST_CREATE_BASE_COST, REGEX_STRING_LENGTH_COST_FACTOR,
    STRING_TRAVERSAL_COST_FACTOR, SizeEstimate,
};
use crate::types::Type;

/// Cost of an authorization check (`check`): allows two per expression.
const AUTHZ_CHECK_COST: u64 = 350_000;
/// Longest format name regex considered by `validate` (`MaxNameFormatRegexSize`).
const MAX_NAME_FORMAT_REGEX_SIZE: f64 = 128.0;
/// Largest serialized `kubernetes.NamedFormat` (`MaxFormatSize`).
const MAX_FORMAT_SIZE: u64 = 64;
/// Struct and values list allocated per selector requirement.
const COST_PER_REQUIREMENT: f64 = 10.0 + 40.0;
/// Shortest repeatable selector requirement (`k,`) is two characters.
const SELECTOR_LENGTH_TO_REQUIREMENT_COUNT: f64 = 0.5;

/// Parsing a field or label selector of `len` characters into requirements.
fn selector_cost(len: SizeEstimate) -> CostEstimate {
    let parse = len.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR);
    let requirements = len.multiply_by_cost_factor(SELECTOR_LENGTH_TO_REQUIREMENT_COUNT);
    let requirement_cost = requirements.multiply_by_cost_factor(COST_PER_REQUIREMENT);
    CostEstimate::fixed(LIST_CREATE_BASE_COST)
        .add(parse)
        .add(requirement_cost)
}

/// The estimate of the Kubernetes library for the call, or `None` to fall back to cel-go.
pub(super) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    let n = c.argc();
    let tenth = STRING_TRAVERSAL_COST_FACTOR;
    let fixed = |x| Some(CallEstimate::cost(CostEstimate::fixed(x)));
    match c.function() {
        "check" => fixed(AUTHZ_CHECK_COST),
        "serviceAccount" | "path" | "group" | "resource" | "subresource" | "namespace" | "name"
        | "allowed" | "reason" | "error" | "errored" => fixed(1),
        "fieldSelector" | "labelSelector" if n == 1 => {
            let len = c.node_size(&c.arg(0));
            Some(CallEstimate::cost(selector_cost(len)))
        }
        "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" | "includes" => {
            let t = c.target()?;
            let size = c.node_size(&t);
            match c.element(&t) {
                Some((elem, elem_size)) => {
                    let mut per_element = CostEstimate::fixed(1);
                    // Comparing strings or bytes also traverses them.
                    if matches!(elem, Type::String | Type::Bytes) {
                        per_element = per_element.add(elem_size.multiply_by_cost_factor(tenth));
                    }
                    Some(CallEstimate::cost(size.multiply_by_cost(per_element)))
                }
                // A dyn receiver may be a list: n comparisons.
                None if c.function() == "includes" => Some(CallEstimate::cost(
                    size.multiply_by_cost(CostEstimate::fixed(1)),
                )),
                // A string receiver (strings-extension indexOf/lastIndexOf).
                None => Some(CallEstimate::cost(size.multiply_by_cost_factor(tenth))),
            }
        }
        "url" | "jsonpatch.escapeKey" if n == 1 => {
            let sz = c.node_size(&c.arg(0));
            Some(CallEstimate {
                cost: sz.multiply_by_cost_factor(tenth),
                result: Some(sz),
            })
        }
        "lowerAscii" | "upperAscii" | "substring" | "trim" => {
            let sz = c.node_size(&c.target()?);
            Some(CallEstimate {
                cost: sz.multiply_by_cost_factor(tenth),
                result: Some(sz),
            })
        }
        "replace" if n >= 2 => {
            let sz = c.node_size(&c.target()?);
            let old = c.node_size(&c.arg(0));
            let new = c.node_size(&c.arg(1));
            Some(CallEstimate {
                cost: sz.multiply_by_cost_factor(2.0 * tenth),
                result: Some(replace_size(sz, old, new)),
            })
        }
        "split" => {
            let sz = c.node_size(&c.target()?);
            // Worst case: an empty separator splits every character off; a literal limit
            // bounds the parts.
            let mut max = sz.max;
            if n > 1
                && let ExprKind::Literal(Literal::Int(limit)) = c.expr(&c.arg(1)).kind
            {
                max = limit as u64;
            }
            Some(CallEstimate {
                cost: sz.multiply_by_cost_factor(2.0 * tenth),
                result: Some(SizeEstimate { min: 0, max }),
            })
        }
        "join" => {
            let t = c.target()?;
            let list = c.node_size(&t);
            let mut sz = SizeEstimate::default();
            if let Some((_, elem)) = c.element(&t) {
                sz = list.multiply(elem);
            }
            if n > 0 {
                let sep = c.node_size(&c.arg(0));
                let separators = SizeEstimate {
                    min: list.min.saturating_sub(1),
                    max: list.max.saturating_sub(1),
                };
                sz = sz.add(sep.multiply(separators));
            }
            Some(CallEstimate {
                cost: sz.multiply_by_cost_factor(tenth),
                result: Some(sz),
            })
        }
        "find" | "findAll" if n >= 1 => {
            let sz = c.node_size(&c.target()?);
            let str_cost = sz
                .add(SizeEstimate::fixed(1))
                .multiply_by_cost_factor(tenth);
            let re_cost = c
                .node_size(&c.arg(0))
                .multiply_by_cost_factor(REGEX_STRING_LENGTH_COST_FACTOR);
            Some(CallEstimate {
                cost: str_cost.multiply(re_cost),
                result: Some(SizeEstimate {
                    min: 0,
                    max: sz.max,
                }),
            })
        }
        "cidr" | "isIP" | "isCIDR" | "quantity" | "isQuantity" | "semver" | "isSemver"
            if n >= 1 =>
        {
            let sz = c.node_size(&c.arg(0));
            Some(CallEstimate::cost(sz.multiply_by_cost_factor(tenth)))
        }
        // The address of a CIDR is a field access.
        "ip" if c.overload() == "cidr_ip" => fixed(1),
        "ip" if n >= 1 => {
            let sz = c.node_size(&c.arg(0));
            Some(CallEstimate::cost(sz.multiply_by_cost_factor(tenth)))
        }
        // Parsing, then comparing with the input.
        "ip.isCanonical" if n >= 1 => {
            let sz = c.node_size(&c.arg(0));
            Some(CallEstimate::cost(sz.multiply_by_cost_factor(2.0 * tenth)))
        }
        "masked"
        | "prefixLength"
        | "family"
        | "isUnspecified"
        | "isLoopback"
        | "isLinkLocalMulticast"
        | "isLinkLocalUnicast"
        | "isGlobalUnicast" => fixed(1),
        "containsIP" if n >= 1 => {
            let mut cost = address_comparison();
            if c.overload() == "cidr_contains_ip_string" {
                cost = cost.add(string_parse(c, &c.arg(0)));
            }
            Some(CallEstimate::cost(cost))
        }
        "containsCIDR" if n >= 1 => {
            // Masking the base CIDR traverses the address again, plus comparing the bits.
            let mut cost = address_comparison()
                .add(ADDRESS_BYTES.multiply_by_cost_factor(tenth))
                .add(CostEstimate::fixed(1));
            if c.overload() == "cidr_contains_cidr_string" {
                cost = cost.add(string_parse(c, &c.arg(0)));
            }
            Some(CallEstimate::cost(cost))
        }
        "validate" if n >= 1 => {
            let sz = c.node_size(&c.arg(0));
            Some(CallEstimate::cost(
                sz.multiply_by_cost_factor(tenth).multiply_by_cost_factor(
                    MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR,
                ),
            ))
        }
        "format.named" => fixed(1),
        "sign" | "asInteger" | "isInteger" | "asApproximateFloat" | "isGreaterThan"
        | "isLessThan" | "compareTo" | "add" | "sub" | "major" | "minor" | "patch" => fixed(1),
        "getScheme" | "getHostname" | "getHost" | "getPort" | "getEscapedPath" | "getQuery" => {
            fixed(1)
        }
        "_==_" if n == 2 => equality(c, &c.arg(0), &c.arg(1)),
        _ => None,
    }
}

/// Bytes of an IPv4 or IPv6 address.
const ADDRESS_BYTES: SizeEstimate = SizeEstimate { min: 4, max: 16 };

/// Comparing two addresses' bytes: `(4..16 + 4..16) × 0.1`.
fn address_comparison() -> CostEstimate {
    ADDRESS_BYTES
        .add(ADDRESS_BYTES)
        .multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR)
}

/// Parsing the string form of an address argument.
fn string_parse<'a, C: CallSite<'a>>(c: &C, n: &C::Node) -> CostEstimate {
    c.node_size(n)
        .multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR)
}

/// `==` on two values of the same Kubernetes type.
fn equality<'a, C: CallSite<'a>>(c: &C, lhs: &C::Node, rhs: &C::Node) -> Option<CallEstimate> {
    let t = c.node_type(lhs);
    if t != c.node_type(rhs) {
        return None;
    }
    let one = Some(CallEstimate::cost(CostEstimate::fixed(1)));
    match t {
        Type::Opaque(name, _) if matches!(&**name, "net.IP" | "net.CIDR") => one,
        Type::Object(name) => match &**name {
            "kubernetes.Quantity"
            | "kubernetes.Semver"
            | "kubernetes.authorization.Authorizer"
            | "kubernetes.authorization.PathCheck"
            | "kubernetes.authorization.GroupCheck"
            | "kubernetes.authorization.ResourceCheck"
            | "kubernetes.authorization.Decision" => one,
            "kubernetes.NamedFormat" => Some(CallEstimate::cost(
                CostEstimate {
                    min: 1,
                    max: MAX_FORMAT_SIZE,
                }
                .multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR),
            )),
            "kubernetes.URL" => {
                // Upstream reads the right-hand side's size for both operands.
                let size = c.computed_size(rhs).unwrap_or(SizeEstimate::fixed(1));
                Some(CallEstimate::cost(
                    CostEstimate {
                        min: 1,
                        max: size.max,
                    }
                    .multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR),
                ))
            }
            _ => None,
        },
        _ => None,
    }
}

/// Result size of `s.replace(old, new)`: the longest result replaces the shortest `old` as
/// often as possible with the longest `new`; the shortest the reverse.
fn replace_size(s: SizeEstimate, old: SizeEstimate, new: SizeEstimate) -> SizeEstimate {
    let mut count = SizeEstimate::default();
    let mut retained = SizeEstimate::default();
    if old.min == 0 {
        // An empty `old` surrounds every character with `new`.
        count.max = if s.max < u64::MAX { s.max + 1 } else { s.max };
        retained.max = s.max;
    } else if new.max <= old.min {
        retained.max = s.max;
    } else {
        count.max = go_ceil_div(s.max, old.min);
    }
    if old.max == 0 {
        count.min = if s.min < u64::MAX { s.min + 1 } else { s.min };
        retained.min = s.min;
    } else if old.max <= new.min {
        retained.min = s.min;
    } else {
        count.min = go_ceil_div(s.min, old.max);
    }
    count.multiply(new).add(retained)
}

/// Go `uint64(math.Ceil(float64(a) / float64(b)))` (float64 division, saturating conversion).
fn go_ceil_div(a: u64, b: u64) -> u64 {
    let v = (a as f64 / b as f64).ceil();
    if v >= u64::MAX as f64 {
        u64::MAX
    } else {
        v as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(n: u64) -> SizeEstimate {
        SizeEstimate::fixed(n)
    }

    fn range(min: u64, max: u64) -> SizeEstimate {
        SizeEstimate { min, max }
    }

    /// Upstream `TestSize` (apiserver `cost_test.go`).
    #[test]
    fn replace_result_sizes() {
        assert_eq!(replace_size(fixed(3), fixed(0), fixed(1)), fixed(7));
        assert_eq!(replace_size(fixed(3), fixed(1), fixed(0)), range(0, 3));
        assert_eq!(replace_size(fixed(4), fixed(2), fixed(4)), range(4, 8));
        assert_eq!(
            replace_size(fixed(4), range(0, 1), range(0, 2)),
            range(0, 14)
        );
        assert_eq!(
            replace_size(fixed(4), range(1, 1), range(1, 2)),
            range(4, 8)
        );
        assert_eq!(
            replace_size(fixed(4), range(1, 2), range(1, 1)),
            range(2, 4)
        );
    }

    #[test]
    fn selector_costs() {
        // 71 characters: 10 + ⌈7.1⌉ + ⌈35.5⌉·50.
        assert_eq!(selector_cost(fixed(71)), CostEstimate::fixed(1818));
    }
}
