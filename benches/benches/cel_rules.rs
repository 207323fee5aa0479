//! `+validationRule` (KEP-4153's CEL rules on types) through the interpreter and through
//! `#[derive(Validate)]`, on the same objects, with allocations per operation. The derive
//! writes the node's value into the JSON tree its rule kept from the previous call
//! (`kdv_runtime::json_reuse`); the interpreter reads the request's JSON in place.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use kdv::{Operation, Validate};
use kdv_benches::cel_rules::*;
use kdv_benches::{CountingAllocator, allocations_per_call};
use kdv_model::Universe;
use kdv_rules::{CompileOptions, Roots};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn rules() -> kdv_rules::RuleSet {
    let loaded =
        kdv_rust_model::from_items_in("cel_rules", "cel_rules", "cel_rules.rs", CEL_RULES_RS);
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let mut universe = Universe::default();
    universe
        .packages
        .insert(loaded.package.path.clone(), loaded.package);
    let compiled = kdv_rules::compile_with(
        &universe,
        &CompileOptions {
            roots: Roots::All,
            package: Some("cel_rules".into()),
            lint: false,
        },
    );
    assert!(!compiled.has_errors(), "{:?}", compiled.diagnostics);
    compiled.rules
}

fn pair<T: Validate + serde::Serialize>(
    c: &mut Criterion,
    rules: &kdv_rules::RuleSet,
    type_name: &str,
    name: &str,
    value: &T,
    errors: usize,
) {
    let op = Operation::create();
    let ty = rules
        .find_type(&format!("cel_rules.{type_name}"))
        .expect("type");
    let json = serde_json::to_value(value).expect("serializes");
    let interp = || kdv_eval::validate(rules, ty, &op, &json, None);
    let derive = || value.validate(&op);
    assert_eq!(interp().len(), errors, "{name}: {:?}", interp());
    assert_eq!(derive().len(), errors, "{name}: {:?}", derive());
    for (which, f) in [
        ("Interpreter", &interp as &dyn Fn() -> kdv::ErrorList),
        ("Derive", &derive),
    ] {
        let full = format!("CelRule_{name}/{which}");
        let allocs = allocations_per_call(200, || {
            black_box(f());
        });
        eprintln!("allocs/op {full:<55} {allocs:>8.1}");
        c.bench_function(&full, |b| b.iter(|| black_box(f())));
    }
}

fn cel_rules(c: &mut Criterion) {
    let rules = rules();
    pair(
        c,
        &rules,
        "DeploymentSpec",
        "Deployment_Valid",
        &deployment("RollingUpdate", true),
        0,
    );
    pair(
        c,
        &rules,
        "DeploymentSpec",
        "Deployment_Invalid1Err",
        &deployment("Recreate", true),
        1,
    );
    pair(c, &rules, "PodSpec", "PodSpec16Ports_Valid", &pod(false), 0);
    pair(
        c,
        &rules,
        "PodSpec",
        "PodSpec16Ports_Invalid1Err",
        &pod(true),
        1,
    );
}

criterion_group!(benches, cel_rules);
criterion_main!(benches);
