//! KEP-5073's virtual fields (`+k8s:memberOf` groups, `+k8s:listMapItem` members)
//! through the interpreter and through `#[derive(Validate)]`, on the same objects, with
//! allocations per operation.

use criterion::{Criterion, criterion_group, criterion_main};
use kdv_benches::virtual_fields::*;
use kdv_benches::{CountingAllocator, RustWorkloads};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn virtual_fields(c: &mut Criterion) {
    let w = RustWorkloads::new("virtual_fields", VIRTUAL_FIELDS_RS, "VirtualFields");
    w.pair(c, "Config", "TerminalStatus8_Valid", &config(1), 0);
    w.pair(c, "Config", "TerminalStatus8_Invalid1Err", &config(2), 1);
    w.pair(c, "Volume", "Volume_Valid", &volume(1), 0);
    w.pair(c, "Volume", "Volume_Invalid1Err", &volume(2), 1);
}

criterion_group!(benches, virtual_fields);
criterion_main!(benches);
