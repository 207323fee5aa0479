//! `kdv-manifest` benchmarks: reading one `apps/v1` Deployment and one Widget (the documents
//! of the `openapi` benchmark, as the CLI workload writes them) through
//! `kdv_manifest::documents` (the fast reader: these documents are in its subset) and, for
//! comparison, through the full path (serde-saphyr) alone; and locating a few fields of the
//! Deployment (as the CLI does for a document with findings). Allocations per call are
//! reported.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use kdv_benches::{CountingAllocator, allocations_per_call};
use kdv_manifest::invariants::{read_fast, read_full};
use kdv_manifest::{Entry, Query, Step, Syntax, Target, documents};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const DEPLOYMENT: &str = include_str!("../workloads/openapi/deployment.yaml");
const WIDGET: &str = include_str!("../workloads/openapi/widget.yaml");

fn read(c: &mut Criterion) {
    for (name, text) in [("Deployment", DEPLOYMENT), ("Widget", WIDGET)] {
        let fast = read_fast(text).expect("the workload is in the fast reader's subset");
        assert_eq!(
            Some(&fast),
            read_full(text).as_ref(),
            "{name}: the paths differ"
        );
        let read_one = || {
            let mut docs = documents(text.as_bytes(), Syntax::Yaml, Default::default());
            black_box(docs.next());
        };
        report(&format!("Manifest_Read_{name}"), read_one);
        c.bench_function(&format!("Manifest_Read_{name}"), |b| b.iter(read_one));
        let full = || {
            black_box(read_full(black_box(text)));
        };
        report(&format!("Manifest_ReadFull_{name}"), full);
        c.bench_function(&format!("Manifest_ReadFull_{name}"), |b| b.iter(full));
    }

    let Some(Ok(Entry::Document(doc))) =
        documents(DEPLOYMENT.as_bytes(), Syntax::Yaml, Default::default()).next()
    else {
        panic!("the Deployment workload reads");
    };
    let replicas = [Step::Key("spec"), Step::Key("replicas")];
    let port = [
        Step::Key("spec"),
        Step::Key("template"),
        Step::Key("spec"),
        Step::Key("containers"),
        Step::Index(1),
        Step::Key("ports"),
        Step::Index(2),
        Step::Key("containerPort"),
    ];
    let queries = [
        Query {
            path: &replicas,
            target: Target::Value,
        },
        Query {
            path: &port,
            target: Target::Key,
        },
    ];
    let locate = || {
        black_box(doc.locate(black_box(&queries)));
    };
    report("Manifest_Locate_Deployment", locate);
    c.bench_function("Manifest_Locate_Deployment", |b| b.iter(locate));
}

fn report(name: &str, f: impl FnMut()) {
    let allocs = allocations_per_call(1000, f);
    eprintln!("allocs/op {name:<55} {allocs:>8.1}");
}

criterion_group!(benches, read);
criterion_main!(benches);
