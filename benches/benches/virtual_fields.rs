//! `+validationRule` (KEP-4153's CEL rules on types) through the interpreter and through
//! `#[derive(Validate)]`, on the same objects, with allocations per operation. The derive
//! serializes the node's value to JSON for the CEL program (counted in its allocations);
//! the interpreter reads the request's JSON in place.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use kdv::{Operation, Validate};
use kdv_benches::virtual_fields::*;
use kdv_benches::{CountingAllocator, allocations_per_call};
use kdv_model::Universe;
use kdv_rules::{CompileOptions, Roots};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn rules() -> kdv_rules::RuleSet {
    let loaded = kdv_rust_model::from_items_in(
        "virtual_fields",
        "virtual_fields",
        "virtual_fields.rs",
        VIRTUAL_FIELDS_RS,
    );
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let mut universe = Universe::default();
    universe
        .packages
        .insert(loaded.package.path.clone(), loaded.package);
    let compiled = kdv_rules::compile_with(
        &universe,
        &CompileOptions {
            roots: Roots::All,
            package: Some("virtual_fields".into()),
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
        .find_type(&format!("virtual_fields.{type_name}"))
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
        let full = format!("VirtualFields_{name}/{which}");
        let allocs = allocations_per_call(200, || {
            black_box(f());
        });
        eprintln!("allocs/op {full:<55} {allocs:>8.1}");
        c.bench_function(&full, |b| b.iter(|| black_box(f())));
    }
}

fn virtual_fields(c: &mut Criterion) {
    let rules = rules();
    pair(c, &rules, "Config", "TerminalStatus8_Valid", &config(1), 0);
    pair(
        c,
        &rules,
        "Config",
        "TerminalStatus8_Invalid1Err",
        &config(2),
        1,
    );
    pair(c, &rules, "Volume", "Volume_Valid", &volume(1), 0);
    pair(c, &rules, "Volume", "Volume_Invalid1Err", &volume(2), 1);
}

criterion_group!(benches, virtual_fields);
criterion_main!(benches);
