//! Valid objects validate without heap allocation: generated code reads the Rust values in
//! place and builds paths on the stack (a counting global allocator proves it).

use kdv::{Operation, Validate};
use kdv_test_support::allocations;
use serde::Serialize;

#[path = "widget/types.rs"]
mod types;

#[path = "tags/defaults.rs"]
mod defaults;

use types::*;

#[global_allocator]
static ALLOCATOR: kdv_test_support::CountingAllocator = kdv_test_support::CountingAllocator;

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

// `+validationRule` on types: the node's JSON is written into a tree the rule keeps from
// its last call, so a valid object of the same shape allocates nothing once warm.

/// A Deployment's strategy rules (KEP-4153 "Unions") and a list rule.
#[derive(Clone, Serialize, Validate)]
#[serde(rename_all = "camelCase")]
pub struct RuleSpec {
    /// +validationRule="!(self.type == 'Recreate') || !has(self.rollingUpdate)",message="may not be specified when strategy `type` is Recreate",reason=Forbidden,field="rollingUpdate"
    pub strategy: RuleStrategy,
    /// +k8s:maxItems=8
    /// +validationRule="self.all(p, p.port > 0 && p.name != 'reserved')"
    pub ports: Vec<RulePort>,
}

/// How pods are replaced.
#[derive(Clone, Serialize, Validate)]
#[serde(rename_all = "camelCase")]
pub struct RuleStrategy {
    /// +k8s:maxLength=32
    pub r#type: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<RollingUpdate>,
}

/// A rolling update's bound.
#[derive(Clone, Serialize, Validate)]
#[serde(rename_all = "camelCase")]
pub struct RollingUpdate {
    /// +validationRule="self >= 0"
    pub max_surge: i32,
}

/// A port.
#[derive(Clone, Serialize, Validate)]
pub struct RulePort {
    /// +k8s:maxLength=16
    pub name: String,
    pub port: i32,
}

fn rule_spec() -> RuleSpec {
    RuleSpec {
        strategy: RuleStrategy {
            r#type: "RollingUpdate".into(),
            rolling_update: Some(RollingUpdate { max_surge: 1 }),
        },
        ports: (0..4)
            .map(|i| RulePort {
                name: format!("p{i}"),
                port: 8000 + i,
            })
            .collect(),
    }
}

#[test]
fn validation_rules_validate_valid_objects_without_allocating_once_warm() {
    let (new, old) = (rule_spec(), rule_spec());
    let (create, update) = (Operation::create(), Operation::update());
    assert!(new.validate(&create).is_empty());
    assert!(new.validate_update(&old, &update).is_empty());
    assert_eq!(allocations(|| assert!(new.validate(&create).is_empty())), 0);
    assert_eq!(
        allocations(|| assert!(new.validate_update(&old, &update).is_empty())),
        0
    );
    // Another valid object of the same shape (no longer string, no new key) reuses the
    // trees too; a longer string grows its string once.
    let mut other = rule_spec();
    other.strategy.rolling_update = Some(RollingUpdate { max_surge: 7 });
    other.ports[2].name = "q7".into();
    assert_eq!(
        allocations(|| assert!(other.validate(&create).is_empty())),
        0
    );
    // An invalid object allocates its errors.
    let mut bad = rule_spec();
    bad.strategy.r#type = "Recreate".into();
    let errs = bad.validate(&create);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(
        errs[0].to_string(),
        "strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is Recreate"
    );
}

/// `+k8s:default` fields (unset, holding their defaults once defaulted, and set) and
/// upstream's `+default=` validate without allocating when valid.
#[test]
fn valid_defaulted_objects_validate_without_allocating() {
    let (create, update) = (Operation::create(), Operation::update());
    let unset = defaults::Defaults::default();
    let set = defaults::Defaults {
        replicas: 3,
        timeout: Some(60),
        min_ready_seconds: 0,
        policy: "Never".into(),
        names: vec!["a".into()],
    };
    let upstream = defaults::Upstream {
        count: 5,
        mode: Some("fast".into()),
        level: 0,
    };
    assert!(unset.validate(&create).is_empty());
    assert!(set.validate_update(&unset, &update).is_empty());
    assert!(upstream.validate(&create).is_empty());
    assert_eq!(
        allocations(|| assert!(unset.validate(&create).is_empty())),
        0
    );
    assert_eq!(allocations(|| assert!(set.validate(&create).is_empty())), 0);
    assert_eq!(
        allocations(|| assert!(set.validate_update(&unset, &update).is_empty())),
        0
    );
    assert_eq!(
        allocations(|| assert!(upstream.validate(&create).is_empty())),
        0
    );
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

#[path = "tags/item_update.rs"]
mod item_update;

/// Item-level update constraints (a kdv extension) look items up in place.
#[test]
fn valid_item_update_objects_validate_without_allocating() {
    let item = |kind: &str, status: &str| item_update::Condition {
        kind: kind.into(),
        status: status.into(),
    };
    let old = item_update::CsrStatus {
        conditions: vec![item("Approved", "True"), item("InProgress", "True")],
    };
    let moved = item_update::CsrStatus {
        conditions: vec![item("InProgress", "False"), item("Approved", "True")],
    };
    let update = Operation::update();
    assert!(moved.validate_update(&old, &update).is_empty());
    assert_eq!(
        allocations(|| assert!(moved.validate_update(&old, &update).is_empty())),
        0
    );
    assert_eq!(
        allocations(|| assert!(old.validate_update(&old, &update).is_empty())),
        0
    );
}
