//! `kdv-openapi` benchmarks: one valid `apps/v1` Deployment against Kubernetes 1.35's
//! OpenAPI and one valid Widget against its CRD with its five CEL rules, each through
//! `Resource::validate` (decoding view, metadata, value validations, list types, CEL rules);
//! and the Widget as an UPDATE of itself (transition rules and ratcheting correlate it).
//! The documents are parsed once outside the timed loop; allocations per call are reported.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use kdv_benches::{CountingAllocator, allocations_per_call};
use kdv_openapi::{Options, SchemaSet};
use serde_json::Value;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const APPS_V1: &[u8] = include_bytes!("../../testdata/kubernetes-openapi/v1.35/apis/apps/v1.json");
const WIDGET_CRD: &[u8] = include_bytes!("../workloads/openapi/widget-crd.yaml");
const DEPLOYMENT: &[u8] = include_bytes!("../workloads/openapi/deployment.yaml");
const WIDGET: &[u8] = include_bytes!("../workloads/openapi/widget.yaml");

fn document(bytes: &[u8]) -> Value {
    let mut docs = kdv_manifest::documents(bytes, kdv_manifest::Syntax::Yaml, Default::default());
    match docs.next() {
        Some(Ok(kdv_manifest::Entry::Document(d))) => d.value,
        other => panic!("workload does not parse: {other:?}"),
    }
}

fn validate(c: &mut Criterion) {
    let mut set = SchemaSet::new();
    set.add_openapi_v3("apps/v1.json", APPS_V1)
        .expect("apps/v1 loads");
    set.add_crds("widget-crd.yaml", WIDGET_CRD)
        .expect("Widget CRD loads");
    let options = Options::default();
    for (name, api_version, kind, bytes) in [
        (
            "OpenAPI_Deployment_Create_Valid",
            "apps/v1",
            "Deployment",
            DEPLOYMENT,
        ),
        (
            "CRD_Widget_Create_Valid",
            "anchor.example.com/v1",
            "Widget",
            WIDGET,
        ),
    ] {
        let resource = set.resource(api_version, kind).expect("kind is known");
        let object = document(bytes);
        let outcome = resource.validate(&object, None, &options);
        assert!(
            outcome.errors.is_empty()
                && outcome.unknown_fields.is_empty()
                && outcome.decode_error.is_none(),
            "{name}: the workload must be valid: {outcome:?}"
        );
        let allocs = allocations_per_call(1000, || {
            black_box(resource.validate(&object, None, &options));
        });
        eprintln!("allocs/op {name:<55} {allocs:>8.1}");
        c.bench_function(name, |b| {
            b.iter(|| black_box(resource.validate(black_box(&object), None, &options)))
        });
    }
    let name = "CRD_Widget_CEL_Update_Valid";
    let resource = set
        .resource("anchor.example.com/v1", "Widget")
        .expect("kind is known");
    let object = document(WIDGET);
    let outcome = resource.validate(&object, Some(&object), &options);
    assert!(outcome.errors.is_empty(), "{name}: {outcome:?}");
    let allocs = allocations_per_call(1000, || {
        black_box(resource.validate(&object, Some(&object), &options));
    });
    eprintln!("allocs/op {name:<55} {allocs:>8.1}");
    c.bench_function(name, |b| {
        b.iter(|| black_box(resource.validate(black_box(&object), Some(&object), &options)))
    });
}

criterion_group!(benches, validate);
criterion_main!(benches);
