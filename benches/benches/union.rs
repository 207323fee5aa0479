//! Union benchmarks on the workloads of `shared/anchors/README.md` §1 (`Union_*`): the
//! upstream `tags/union/union/{discriminated,undiscriminated}/simple` fixture types, objects
//! built once outside the timed loop, named like the Go benchmarks.

use criterion::{Criterion, criterion_group, criterion_main};
use kdv_benches::{CountingAllocator, UNIONS_GO, ValidationCase, compile, run_validation};
use serde_json::json;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn unions(c: &mut Criterion) {
    let rules = compile("kdv.bench/unions", "unions.go", UNIONS_GO);
    let disc = "DiscriminatedStruct";
    let undisc = "UndiscriminatedStruct";
    let cases = [
        (
            "Union_Discriminated_Create_Valid",
            disc,
            json!({"d": "M1", "m1": {}}),
            None,
            0,
        ),
        (
            "Union_Discriminated_Update_Unchanged",
            disc,
            json!({"d": "M1", "m1": {}}),
            Some(json!({"d": "M1", "m1": {}})),
            0,
        ),
        // m1 set but not selected, m2 selected but not set.
        (
            "Union_Discriminated_Create_Invalid",
            disc,
            json!({"d": "M2", "m1": {}}),
            None,
            2,
        ),
        (
            "Union_Undiscriminated_Create_Valid",
            undisc,
            json!({"m1": {}}),
            None,
            0,
        ),
        (
            "Union_Undiscriminated_Create_TwoSet",
            undisc,
            json!({"m1": {}, "m3": "x"}),
            None,
            1,
        ),
    ];
    for (name, type_name, new, old, expected_errors) in cases {
        run_validation(
            c,
            ValidationCase {
                name: name.to_string(),
                rules: &rules,
                type_name,
                new,
                old,
                expected_errors,
            },
        );
    }
}

criterion_group!(benches, unions);
criterion_main!(benches);
