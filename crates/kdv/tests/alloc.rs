//! Valid objects validate without heap allocation: generated code reads the Rust values in
//! place and builds paths on the stack (a counting global allocator proves it).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use kdv::{Operation, Validate};

#[path = "widget/types.rs"]
mod types;

use types::*;

struct Counting;

thread_local! {
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: delegates every call to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        COUNT.with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn allocations(f: impl FnOnce()) -> usize {
    let before = COUNT.with(Cell::get);
    f();
    COUNT.with(Cell::get) - before
}

fn widget() -> Widget {
    let mut labels = std::collections::BTreeMap::new();
    labels.insert("app".to_string(), "web".to_string());
    Widget {
        type_meta: TypeMeta {
            kind: "Widget".into(),
            api_version: "demo.kdv.dev/v1".into(),
        },
        metadata: ObjectMeta {
            name: "w".into(),
            namespace: "ns".into(),
            labels: Some(labels),
            uid: "550e8400-e29b-41d4-a716-446655440000".into(),
        },
        spec: WidgetSpec {
            replicas: Some(3),
            image: "nginx:1.27".into(),
            tier: Some(Tier::Premium),
            ports: (0..8)
                .map(|i| WidgetPort {
                    name: format!("p{i}"),
                    port: 8000 + i,
                    protocol: Some(Protocol::Tcp),
                })
                .collect(),
            zones: vec!["a".into(), "b".into()],
            storage_class: "fast".into(),
            rollout: Some(RolloutStrategy {
                max_unavailable: Some(1),
                pause_seconds: Some(5),
            }),
            owner: "team".into(),
            probe: Some(Probe {
                r#type: "HTTPGet".into(),
                http_get: Some(HTTPGetAction {
                    path: "/healthz".into(),
                    port: 8080,
                }),
                tcp_socket: None,
                period_seconds: Some(10),
            }),
        },
    }
}

#[test]
fn valid_objects_validate_without_allocating() {
    let new = widget();
    let old = widget();
    let mut changed = widget();
    changed.spec.replicas = Some(4);
    changed.spec.ports.swap(0, 7);
    let (create, update) = (Operation::create(), Operation::update());
    // The first call initializes the rules' lazily built constants.
    assert!(new.validate(&create).is_empty());
    assert!(changed.validate_update(&old, &update).is_empty());
    assert_eq!(allocations(|| assert!(new.validate(&create).is_empty())), 0);
    assert_eq!(
        allocations(|| assert!(new.validate_update(&old, &update).is_empty())),
        0
    );
    assert_eq!(
        allocations(|| assert!(changed.validate_update(&old, &update).is_empty())),
        0
    );
    assert_eq!(
        allocations(|| assert!(new.is_valid(Some(&old), &update))),
        0
    );
    // An invalid object allocates its errors.
    let mut bad = widget();
    bad.spec.replicas = Some(0);
    assert!(allocations(|| assert_eq!(bad.validate(&create).len(), 1)) > 0);
}

#[path = "tags/crossfield.rs"]
mod crossfield;

/// Cross-field limits (a kdv extension) read both values in place.
#[test]
fn valid_cross_field_objects_validate_without_allocating() {
    let new = crossfield::Quota {
        limits: Some(crossfield::Limits {
            max: Some(5),
            min: 0,
        }),
        fixed: crossfield::Limits {
            max: Some(8),
            min: 1,
        },
        min_length: Some(2),
        used: Some(3),
        name: "abcd".into(),
        items: vec!["a".into(), "b".into()],
    };
    let mut changed = new.clone();
    changed.fixed.max = Some(9);
    let (create, update) = (Operation::create(), Operation::update());
    assert!(new.validate(&create).is_empty());
    assert_eq!(allocations(|| assert!(new.validate(&create).is_empty())), 0);
    assert_eq!(
        allocations(|| assert!(new.validate_update(&new, &update).is_empty())),
        0
    );
    assert_eq!(
        allocations(|| assert!(changed.validate_update(&new, &update).is_empty())),
        0
    );
}
