//! Interpreter benchmarks on the workloads of the performance anchors (§1), named like the
//! Go benchmarks there so the figures can be put side by side. Objects are JSON values built
//! once outside the timed loop; each benchmark also reports allocations per operation. Each
//! workload is timed twice: as `kdv_eval::validate` (with the decoding pass) and, under the
//! name followed by `/skip_decoding`, without it (the object already decoded, as upstream's
//! Go benchmarks and `kdv validate` for built-in kinds have it).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use kdv_benches::{
    CountingAllocator, FLAT_GO, SKIP_DECODING, allocations_per_call, compile, defaults_workloads,
    extension_workloads, flat_workloads, list_map_workloads, max_length_object, minimum_object,
    run_validation, short_name_object,
};
use kdv_runtime::Operation;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn flat(c: &mut Criterion) {
    for w in flat_workloads() {
        run_validation(c, &w);
    }
    let rules = compile("kdv.bench/flat", "flat.go", FLAT_GO);

    // Flat_All3: the three valid objects back to back.
    let objects = [
        (rules.find_type("MinimumStruct"), minimum_object(1)),
        (rules.find_type("MaxLengthStruct"), max_length_object()),
        (
            rules.find_type("ShortNameStruct"),
            short_name_object("my-name-123"),
        ),
    ];
    let op = Operation::create();
    for skip_decoding in [false, true] {
        let options = kdv_eval::EvalOptions {
            skip_decoding,
            ..Default::default()
        };
        let all3 = || {
            let mut n = 0;
            for (ty, obj) in &objects {
                let ty = ty.expect("flat workload types exist");
                n += kdv_eval::validate_with(&rules, ty, &op, obj, None, &options).len();
            }
            n
        };
        assert_eq!(all3(), 0);
        let name = if skip_decoding {
            format!("Flat_All3_Create_Valid{SKIP_DECODING}")
        } else {
            "Flat_All3_Create_Valid".to_string()
        };
        let allocs = allocations_per_call(1000, || {
            black_box(all3());
        });
        eprintln!("allocs/op {name:<55} {allocs:>8.1}");
        c.bench_function(&name, |b| b.iter(|| black_box(all3())));
    }
}

fn list_map(c: &mut Criterion) {
    for w in list_map_workloads() {
        run_validation(c, &w);
    }
}

/// kdv's extensions of the catalog (no Go figure: upstream has no such tags).
fn extensions(c: &mut Criterion) {
    for w in extension_workloads() {
        run_validation(c, &w);
    }
}

/// `+k8s:default` beside `+default=` (no Go figure: upstream has no `+k8s:default`).
fn defaults(c: &mut Criterion) {
    for w in defaults_workloads() {
        run_validation(c, &w);
    }
}

/// Cross-field references (a kdv extension; no Go figure).
fn crossfield(c: &mut Criterion) {
    for w in kdv_benches::crossfield_workloads() {
        run_validation(c, &w);
    }
}

/// Item-level update constraints (a kdv extension; no Go figure).
fn itemupdate(c: &mut Criterion) {
    for w in kdv_benches::itemupdate_workloads() {
        run_validation(c, &w);
    }
}

criterion_group!(
    benches, flat, list_map, extensions, defaults, crossfield, itemupdate
);
criterion_main!(benches);
