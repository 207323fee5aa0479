//! Validating a valid object does not allocate: the decoded object is a view of the input,
//! errors and paths are built only for failures (the benchmark workloads: a Deployment
//! against Kubernetes 1.35's OpenAPI, a Widget against its CRD).

use std::path::Path;

use kdv_openapi::{Options, SchemaSet};
use kdv_test_support::allocations;
use serde_json::Value;

#[global_allocator]
static ALLOCATOR: kdv_test_support::CountingAllocator = kdv_test_support::CountingAllocator;

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn document(bytes: &[u8]) -> Value {
    match kdv_manifest::documents(bytes, kdv_manifest::Syntax::Yaml, Default::default()).next() {
        Some(Ok(kdv_manifest::Entry::Document(d))) => d.value,
        other => panic!("{other:?}"),
    }
}

#[test]
fn valid_objects_validate_without_allocating() {
    let read = |p: &str| std::fs::read(repo().join(p)).expect(p);
    let mut set = SchemaSet::new();
    set.add_openapi_v3(
        "apps/v1.json",
        &read("testdata/kubernetes-openapi/v1.35/apis/apps/v1.json"),
    )
    .expect("apps/v1");
    set.add_crds(
        "widget-crd.yaml",
        &read("benches/workloads/openapi/widget-crd.yaml"),
    )
    .expect("widget CRD");
    for (api_version, kind, file) in [
        (
            "apps/v1",
            "Deployment",
            "benches/workloads/openapi/deployment.yaml",
        ),
        (
            "anchor.example.com/v1",
            "Widget",
            "benches/workloads/openapi/widget.yaml",
        ),
    ] {
        let r = set.resource(api_version, kind).expect("kind");
        let object = document(&read(file));
        let options = Options::default();
        // Warm up lazily built statics (regexes of formats, for instance).
        let outcome = r.validate(&object, None, &options);
        assert!(outcome.errors.is_empty(), "{kind}: {:?}", outcome.errors);
        assert!(outcome.unknown_fields.is_empty(), "{kind}");
        let n = allocations(|| {
            std::hint::black_box(r.validate(&object, None, &options));
        });
        assert_eq!(n, 0, "{kind}: allocations per valid validate");
        // A valid UPDATE does not pay for ratcheting (errors are looked at only if found).
        let outcome = r.validate(&object, Some(&object), &options);
        assert!(outcome.errors.is_empty(), "{kind}: {:?}", outcome.errors);
        let n = allocations(|| {
            std::hint::black_box(r.validate(&object, Some(&object), &options));
        });
        assert_eq!(n, 0, "{kind}: allocations per valid update");
    }
}
