//! Tests of the estimator against upstream's expectations: the CRD cost tests of
//! apiextensions-apiserver (`TestCostEstimation`, `TestCelEstimatedCostStability`), the
//! Kubernetes library tests (`cost_test.go` of apiserver) and cel-go's `checker/cost_test.go`.
//! Upstream files are read at run time only when their `KDV_UPSTREAM_*` variable is set.

mod apiserver;
mod celgo;
mod crd;
mod golit;
mod schema;
mod speed;
mod stability;

use std::ops::Add;

use super::*;

#[test]
fn arithmetic_saturates_like_cel_go() {
    let big = CostEstimate::fixed(u64::MAX - 1);
    assert_eq!(big.add(CostEstimate::fixed(5)).max, u64::MAX);
    assert_eq!(big.multiply(CostEstimate::fixed(2)).max, u64::MAX);
    assert_eq!(
        CostEstimate::unknown().multiply_by_cost_factor(0.1).max,
        1_844_674_407_370_955_264
    );
    assert_eq!(
        SizeEstimate::fixed(3_145_726).multiply_by_cost_factor(0.1),
        CostEstimate::fixed(314_573)
    );
    assert_eq!(
        SizeEstimate::fixed(u64::MAX)
            .multiply_by_cost_factor(2.0)
            .max,
        u64::MAX
    );
    assert_eq!(
        SizeEstimate::fixed(7).multiply_by_cost_factor(0.0),
        CostEstimate::ZERO
    );
    assert_eq!(
        CostEstimate { min: 1, max: 9 }.union(CostEstimate { min: 3, max: 12 }),
        CostEstimate { min: 1, max: 12 }
    );
}

#[test]
fn cardinality_and_budget_messages() {
    assert_eq!(max_cardinality(1), 1_572_864);
    assert_eq!(expression_cost(0, u64::MAX), 0);
    assert_eq!(expression_cost(3, u64::MAX), u64::MAX);
    assert_eq!(expression_cost(3, 7), 21);
    assert_eq!(budget_factor(10_000_001, 10_000_000), "1.000000x");
    assert_eq!(budget_factor(12_345_678, 10_000_000), "1.234568x");
    assert_eq!(budget_factor(47_000_000, 10_000_000), "4.7x");
    assert_eq!(budget_factor(22_500_000, 10_000_000), "2.2x");
    assert_eq!(budget_factor(1_000_000_001, 10_000_000), "more than 100x");
    assert_eq!(
        cost_exceeds_budget_message("estimated rule cost", 15_000_000, 10_000_000),
        "estimated rule cost exceeds budget by factor of 1.5x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    );
}

#[test]
fn deep_expressions_are_estimated() {
    let env = crate::k8s::env();
    let src = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    let checked = crate::checker::compile(&src, &env).expect("compiles");
    let cost = estimate_cost(&checked, &NoSizeEstimates, &CostOptions::kubernetes()).unwrap();
    assert_eq!(cost, CostEstimate::fixed(2000));
}
