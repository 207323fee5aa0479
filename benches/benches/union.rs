//! Union benchmarks on the workloads of the performance anchors (§1) (`Union_*`): the
//! upstream `tags/union/union/{discriminated,undiscriminated}/simple` fixture types, objects
//! built once outside the timed loop, named like the Go benchmarks.

use criterion::{Criterion, criterion_group, criterion_main};
use kdv_benches::{CountingAllocator, run_validation, union_workloads};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn unions(c: &mut Criterion) {
    for w in union_workloads() {
        run_validation(c, &w);
    }
}

criterion_group!(benches, unions);
criterion_main!(benches);
