//! Validating a valid object must not allocate (ARCHITECTURE.md invariant): paths live on
//! the stack and errors are the only owned output. Counted with a global allocator that
//! only counts on the thread that asked for it.

use std::path::PathBuf;

use kdv_test_support::allocations;

#[global_allocator]
static ALLOCATOR: kdv_test_support::CountingAllocator = kdv_test_support::CountingAllocator;

const SRC: &str = r#"
// +k8s:validation-gen=*
package p

type Widget struct {
	TypeMeta int
	// +k8s:required
	// +k8s:format=k8s-long-name
	Name string `json:"name"`
	// +k8s:declarativeValidationNative
	// +k8s:optional
	// +k8s:minimum=1
	// +k8s:maximum=10
	Replicas *int32 `json:"replicas"`
	// +k8s:required
	Mode Mode `json:"mode"`
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:maxItems=16
	// +k8s:eachVal=+k8s:immutable
	// +k8s:item(name: "http")=+k8s:subfield(number)=+k8s:maximum=100
	// +k8s:item(name: "grpc")=+k8s:zeroOrOneOfMember
	// +k8s:item(name: "https")=+k8s:zeroOrOneOfMember
	Ports []Port `json:"ports"`
	// +k8s:listType=set
	// +k8s:eachVal=+k8s:format=k8s-short-name
	Tags []string `json:"tags"`
	// +k8s:eachKey=+k8s:format=k8s-label-key
	// +k8s:eachVal=+k8s:format=k8s-label-value
	Labels map[string]string `json:"labels"`
	// +k8s:optional
	// +k8s:declarativeValidationNative
	// +k8s:subfield(host)=+k8s:maxLength=253
	Endpoint *Endpoint `json:"endpoint"`
	// +k8s:ifEnabled(Gate)=+k8s:maxLength=8
	Gated string `json:"gated"`
	// +k8s:optional
	// +k8s:alpha=+k8s:minLength=2
	Leveled string `json:"leveled"`
	// +k8s:optional
	// +k8s:neq="forbidden"
	// +k8s:format=k8s-uuid
	// +k8s:customValidation
	UID string `json:"uid"`
	// +k8s:modeDiscriminator
	Strategy string `json:"strategy"`
	// +k8s:ifMode("Rolling")=+k8s:required
	// +k8s:ifMode("Rolling")=+k8s:minimum=1
	MaxSurge *int32 `json:"maxSurge"`
	// +k8s:unionMember
	// +k8s:optional
	// +k8s:dependentRequired("replicas")
	ByName *string `json:"byName"`
	// +k8s:unionMember
	// +k8s:optional
	// +k8s:dependentForbidden("byName")
	ByUID *string `json:"byUID"`
	Source Source `json:"source"`
}

// +k8s:customValidation
type Source struct {
	// +k8s:unionDiscriminator
	Type string `json:"type"`
	// +k8s:unionMember
	// +k8s:optional
	// +k8s:declarativeValidationNative
	Git *string `json:"git"`
	// +k8s:unionMember
	// +k8s:optional
	Image *string `json:"image"`
}

// +k8s:enum
type Mode string

const (
	ModeFast Mode = "Fast"
	ModeSlow Mode = "Slow"
)

type Port struct {
	// +k8s:required
	// +k8s:format=k8s-short-name
	Name string `json:"name"`
	// +k8s:minimum=1
	// +k8s:maximum=65535
	Number int32 `json:"number"`
}

type Endpoint struct {
	// +k8s:required
	Host string `json:"host"`
	// +k8s:optional
	Ports []int `json:"ports"`
}
"#;

const VALID: &str = r#"{
  "name": "widget.example.com",
  "replicas": 3,
  "mode": "Fast",
  "ports": [{"name": "http", "number": 80}, {"name": "https", "number": 443}],
  "tags": ["a", "b", "c"],
  "labels": {"app": "web", "example.com/tier": "frontend"},
  "endpoint": {"host": "svc.local", "ports": [1, 2]},
  "gated": "short",
  "leveled": "ok",
  "uid": "0a1b2c3d-0000-4000-8000-000000000000",
  "strategy": "Rolling",
  "maxSurge": 1,
  "byName": "w",
  "source": {"type": "Git", "git": "https://example.com/r.git"}
}"#;

const CHANGED: &str = r#"{
  "name": "widget.example.com",
  "replicas": 4,
  "mode": "Slow",
  "ports": [{"name": "https", "number": 443}, {"name": "http", "number": 80}],
  "tags": ["c", "a", "b", "d"],
  "labels": {"app": "web", "example.com/tier": "backend", "new": "x"},
  "endpoint": {"host": "other.local"},
  "gated": "other",
  "leveled": "yes",
  "uid": "0a1b2c3d-0000-4000-8000-000000000001",
  "strategy": "Recreate",
  "byUID": "u",
  "source": {"type": "Image", "image": "nginx"}
}"#;

#[test]
fn valid_objects_do_not_allocate() {
    let (pkg, diags) = kdv_go::load_sources(
        "example.com/p",
        &[(PathBuf::from("types.go"), SRC.to_string())],
    );
    assert!(diags.is_empty(), "{diags:?}");
    let mut universe = kdv_model::Universe::default();
    universe.packages.insert(pkg.path.clone(), pkg);
    let compiled = kdv_rules::compile(&universe);
    assert!(!compiled.has_errors(), "{:?}", compiled.diagnostics);
    let rules = compiled.rules;
    let ty = rules.find_type("Widget").expect("Widget");
    // Native fields and a union with a native member: marks cost nothing on valid objects.
    assert!(rules.has_declarative_native(ty));
    let valid: serde_json::Value = serde_json::from_str(VALID).expect("json");
    let changed: serde_json::Value = serde_json::from_str(CHANGED).expect("json");
    let create = kdv_runtime::Operation::create().with_option("Gate", true);
    let update = kdv_runtime::Operation::update().with_option("Gate", true);
    // Custom validation functions that accept everything (an empty list does not allocate).
    let mut registry = kdv_eval::CustomRegistry::new();
    registry.register(
        "ValidateCustom_Widget_UID",
        |_: &kdv_eval::CustomCall<'_>| Vec::new(),
    );
    registry.register("ValidateCustom_Source", |_: &kdv_eval::CustomCall<'_>| {
        Vec::new()
    });
    let options = kdv_eval::EvalOptions {
        custom_validators: Some(&registry),
        ..Default::default()
    };
    let run = |op: &kdv_runtime::Operation, new: &serde_json::Value, old| {
        kdv_eval::validate_with(&rules, ty, op, new, old, &options)
    };

    // Sanity: the objects are valid.
    assert_eq!(run(&create, &valid, None), Vec::new());
    assert_eq!(run(&update, &changed, Some(&valid)), Vec::new());

    let mut errs = Vec::new();
    let n = allocations(|| {
        errs = run(&create, &valid, None);
    });
    assert!(errs.is_empty());
    assert_eq!(n, 0, "allocations validating a valid object on create");

    let n = allocations(|| {
        errs = run(&update, &changed, Some(&valid));
    });
    assert!(errs.is_empty());
    assert_eq!(n, 0, "allocations validating a valid object on update");

    let n = allocations(|| {
        errs = run(&update, &valid, Some(&valid));
    });
    assert!(errs.is_empty());
    assert_eq!(n, 0, "allocations validating an unchanged object");

    // Without a registry, custom validations are skipped (still without allocating).
    let n = allocations(|| {
        errs = kdv_eval::validate(&rules, ty, &create, &valid, None);
    });
    assert!(errs.is_empty());
    assert_eq!(n, 0, "allocations validating without custom validators");

    // An invalid object allocates (errors are owned) — the counter works.
    let invalid = serde_json::json!({"name": "Bad Name", "mode": "Fast", "byName": "x"});
    let n = allocations(|| {
        errs = run(&create, &invalid, None);
    });
    assert!(!errs.is_empty());
    assert!(n > 0);
}
