//! Built-in kinds from Kubernetes 1.35's OpenAPI, with kubectl-validate's adjustments of the
//! published schemas and kdv's own (see `openapi.rs`), through `Resource::validate`.

use std::path::Path;
use std::sync::Arc;

use kdv_openapi::{Options, Resource, SchemaSet};
use serde_json::{Value, json};

fn set() -> SchemaSet {
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/kubernetes-openapi/v1.35");
    let mut set = SchemaSet::new();
    for (gv, file) in [
        ("v1", "api/v1.json"),
        ("apps/v1", "apis/apps/v1.json"),
        ("discovery.k8s.io/v1", "apis/discovery.k8s.io/v1.json"),
        (
            "apiextensions.k8s.io/v1",
            "apis/apiextensions.k8s.io/v1.json",
        ),
        (
            "internal.apiserver.k8s.io/v1alpha1",
            "apis/internal.apiserver.k8s.io/v1alpha1.json",
        ),
        (
            "rbac.authorization.k8s.io/v1",
            "apis/rbac.authorization.k8s.io/v1.json",
        ),
    ] {
        let path = root.join(file);
        set.add_openapi_v3_lazy(
            gv,
            file,
            Box::new(move || {
                std::fs::read(&path)
                    .map(std::borrow::Cow::Owned)
                    .map_err(|e| kdv_openapi::LoadError {
                        file: path.display().to_string(),
                        line: 0,
                        column: 0,
                        message: e.to_string(),
                    })
            }),
        );
    }
    set
}

fn texts(r: &Arc<Resource>, obj: &Value) -> Vec<String> {
    let o = r.validate(obj, None, &Options::default());
    assert!(o.unknown_fields.is_empty(), "{:?}", o.unknown_fields);
    assert!(o.decode_error.is_none(), "{:?}", o.decode_error);
    o.errors.iter().map(ToString::to_string).collect()
}

fn pod(spec: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns"}, "spec": spec})
}

#[test]
fn adjusted_schemas() {
    let set = set();
    let secret = set.resource("v1", "Secret").expect("Secret");
    assert_eq!(secret.namespaced(), Some(true));
    assert!(!secret.is_crd());
    // Built-in byte strings may be empty; otherwise they are base64.
    let s = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": "n"},
                   "data": {"a": "", "b": "YWJj"}});
    assert!(texts(&secret, &s).is_empty());
    let s = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": "n"},
                   "data": {"a": "!"}});
    assert_eq!(
        texts(&secret, &s),
        [
            r#"<nil>: Invalid value: "": "data.a" must validate at least one schema (anyOf)"#,
            r#"data.a: Invalid value: "!": data.a in body must be of type byte: "!""#,
            r#"<nil>: Invalid value: "": "data.a" must validate all the schemas (allOf). None validated"#,
        ]
    );
    let p = set.resource("v1", "Pod").expect("Pod");
    // Quantity and Time are nullable; a creationTimestamp of null is what generated
    // manifests carry.
    let mut obj =
        pod(json!({"containers": [{"name": "c", "resources": {"limits": {"cpu": null}}}]}));
    obj["metadata"]["creationTimestamp"] = Value::Null;
    assert!(texts(&p, &obj).is_empty());
    // IntOrString is checked as integer,string (kubectl-validate accepts anything).
    let obj =
        pod(json!({"containers": [{"name": "c", "readinessProbe": {"httpGet": {"port": true}}}]}));
    assert_eq!(
        texts(&p, &obj),
        [
            r#"spec.containers[0].readinessProbe.httpGet.port: Invalid value: "boolean": spec.containers[0].readinessProbe.httpGet.port in body must be of type integer,string: "boolean""#
        ]
    );
    // A required string of a built-in type has no "" default: a missing one is reported.
    let obj = pod(json!({"containers": [{"image": "i"}]}));
    assert_eq!(texts(&p, &obj), ["spec.containers[0].name: Required value"]);
    // Quantity: oneOf string or number.
    let obj = pod(json!({"containers": [{"name": "c", "resources": {"requests": {"cpu": true}}}]}));
    assert_eq!(
        texts(&p, &obj),
        [
            r#"<nil>: Invalid value: "": "spec.containers[0].resources.requests.cpu" must validate one and only one schema (oneOf). Found none valid"#,
            r#"spec.containers[0].resources.requests.cpu: Invalid value: "boolean": spec.containers[0].resources.requests.cpu in body must be of type string: "boolean""#,
        ]
    );
}

#[test]
fn deployment() {
    let set = set();
    let d = set.resource("apps/v1", "Deployment").expect("Deployment");
    let obj = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "d", "namespace": "n"},
        "spec": {"replicas": "three", "selector": {"matchLabels": {"a": "b"}},
                 "strategy": {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 1}},
                 "template": {"metadata": {"labels": {"a": "b"}},
                              "spec": {"containers": [{"name": "c", "image": "i",
                                  "ports": [{"containerPort": 80}, {"containerPort": 80, "protocol": "TCP"}]}]}}}});
    assert_eq!(
        texts(&d, &obj),
        [
            r#"spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string""#,
            r#"spec.template.spec.containers[0].ports[1]: Duplicate value: {"containerPort":80,"protocol":"TCP"}"#,
        ]
    );
}

/// A CustomResourceDefinition as install bundles ship it: no status, and schemas under
/// `items`, `additionalProperties`, `default` and `dependencies`, whose Go types decode any
/// JSON value (published without properties). None of it is an unknown field, and the absent
/// status is not defaulted into required-field errors.
#[test]
fn crd_document_in_a_bundle() {
    let set = set();
    let crd = set
        .resource("apiextensions.k8s.io/v1", "CustomResourceDefinition")
        .expect("CustomResourceDefinition");
    let obj = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "names": {"kind": "Widget", "plural": "widgets"},
            "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                "type": "object",
                "properties": {"spec": {
                    "type": "object",
                    "default": {"a": {"b": 1}},
                    "properties": {
                        "list": {"type": "array", "items": {
                            "type": "object", "required": ["x"],
                            "properties": {"x": {"type": "string", "enum": ["a"]}}}},
                        "m": {"type": "object", "additionalProperties": {"type": "string"}},
                        "d": {"type": "object", "dependencies": {"foo": {"required": ["bar"]}}}
                    }
                }}
            }}}]
        }
    });
    assert!(texts(&crd, &obj).is_empty());
    // A status the document carries is still checked.
    let mut with_status = obj.clone();
    with_status["status"] = json!({"acceptedNames": {}});
    assert_eq!(
        texts(&crd, &with_status),
        [
            "status.acceptedNames.plural: Required value",
            "status.acceptedNames.kind: Required value"
        ]
    );
}

/// A ControllerRevision's `data` is a RawExtension: any object.
#[test]
fn raw_extension_keeps_its_fields() {
    let set = set();
    let cr = set
        .resource("apps/v1", "ControllerRevision")
        .expect("ControllerRevision");
    let obj = json!({"apiVersion": "apps/v1", "kind": "ControllerRevision",
                     "metadata": {"name": "c", "namespace": "n"}, "revision": 1,
                     "data": {"spec": {"template": {"x": 1}}}});
    assert!(texts(&cr, &obj).is_empty());
}

/// An EndpointSlice without endpoints (published as required) is accepted, as the API server
/// accepts it; `addressType` is still required.
#[test]
fn endpoint_slice_without_endpoints() {
    let set = set();
    let es = set
        .resource("discovery.k8s.io/v1", "EndpointSlice")
        .expect("EndpointSlice");
    let mut obj = json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
                         "metadata": {"name": "e", "namespace": "n"}, "addressType": "IPv4",
                         "ports": [{"name": "p", "port": 3000}]});
    assert!(texts(&es, &obj).is_empty());
    obj["endpoints"] = Value::Null;
    assert!(texts(&es, &obj).is_empty());
    obj.as_object_mut().map(|m| m.remove("addressType"));
    assert_eq!(texts(&es, &obj), ["addressType: Required value"]);
}

/// A StorageVersion without status (published as required) is accepted: the create strategy
/// resets it, so the server never requires it.
#[test]
fn storage_version_without_status() {
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/kubernetes-openapi/v1.35");
    let doc: Value = serde_json::from_slice(
        &std::fs::read(root.join("apis/internal.apiserver.k8s.io/v1alpha1.json"))
            .expect("document"),
    )
    .expect("JSON");
    let published =
        &doc["components"]["schemas"]["io.k8s.api.apiserverinternal.v1alpha1.StorageVersion"];
    assert_eq!(published["required"], json!(["spec", "status"]));
    let set = set();
    let sv = set
        .resource("internal.apiserver.k8s.io/v1alpha1", "StorageVersion")
        .expect("StorageVersion");
    let obj = json!({"apiVersion": "internal.apiserver.k8s.io/v1alpha1", "kind": "StorageVersion",
                     "metadata": {"name": "apps.deployments"}, "spec": {}});
    assert!(texts(&sv, &obj).is_empty());
}

/// A pod sysctl without value passes (the API server checks sysctl names only); one without
/// name is still reported.
#[test]
fn sysctl_without_value() {
    let set = set();
    let p = set.resource("v1", "Pod").expect("Pod");
    let obj = pod(json!({"containers": [{"name": "c", "image": "x"}],
                         "securityContext": {"sysctls": [{"name": "kernel.shm_rmid_forced"}]}}));
    assert!(texts(&p, &obj).is_empty());
    let obj = pod(json!({"containers": [{"name": "c", "image": "x"}],
                         "securityContext": {"sysctls": [{"value": "1"}]}}));
    assert_eq!(
        texts(&p, &obj),
        ["spec.securityContext.sysctls[0].name: Required value"]
    );
}

/// What Go types read of the defaulted object: only the non-zero defaults are set (a port's
/// `protocol: TCP`, a ReplicationController's `replicas: 1`), and an object none applies to
/// is borrowed.
#[test]
fn set_defaults_are_the_non_zero_ones() {
    let set = set();
    let rc = set.resource("v1", "ReplicationController").unwrap();
    let bare = json!({"apiVersion": "v1", "kind": "ReplicationController",
        "metadata": {"name": "a"}, "spec": {"template": {"spec": {"containers": [
            {"name": "c", "image": "i", "ports": [{"containerPort": 80}]}]}}}});
    let defaulted = rc.with_set_defaults(&bare);
    assert!(matches!(defaulted, std::borrow::Cow::Owned(_)));
    assert_eq!(defaulted["spec"]["replicas"], json!(1));
    assert_eq!(
        defaulted["spec"]["template"]["spec"]["containers"][0]["ports"][0]["protocol"],
        json!("TCP")
    );
    // Zero defaults (`{}`, `""`, `0`) are not inserted: an absent field decodes to them.
    assert!(defaulted["spec"].get("minReadySeconds").is_none());
    assert!(defaulted["spec"]["template"].get("metadata").is_none());
    let full = json!({"apiVersion": "v1", "kind": "ReplicationController",
        "metadata": {"name": "a"}, "spec": {"replicas": 2, "template": {"spec": {"containers": [
            {"name": "c", "image": "i", "ports": [{"containerPort": 80, "protocol": "UDP"}]}]}}}});
    assert!(matches!(
        rc.with_set_defaults(&full),
        std::borrow::Cow::Borrowed(_)
    ));
}

#[test]
fn names_follow_each_kinds_strategy() {
    let set = set();
    let builtin = Options {
        builtin_strategy: true,
        ..Options::default()
    };
    let names = |api_version: &str, kind: &str, name: &str, options: &Options| {
        let r = set.resource(api_version, kind).expect(kind);
        let namespace = if r.namespaced() == Some(true) {
            json!("ns")
        } else {
            Value::Null
        };
        let obj = json!({"apiVersion": api_version, "kind": kind,
            "metadata": {"name": name, "namespace": namespace}});
        let o = r.validate(&obj, None, options);
        o.errors
            .iter()
            .filter(|e| e.field.to_string() == "metadata.name")
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    // `ValidateRBACName` is a path segment: the `system:` names of install manifests.
    for kind in ["ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"] {
        let rbac = "rbac.authorization.k8s.io/v1";
        assert_eq!(
            names(rbac, kind, "system:vpa-actor", &builtin),
            Vec::<String>::new()
        );
        assert_eq!(
            names(rbac, kind, "a/b", &builtin),
            ["metadata.name: Invalid value: \"a/b\": may not contain '/'"]
        );
    }
    // Namespaces are DNS labels; Services RFC 1035 labels (RFC 1123 labels when relaxed).
    assert_eq!(
        names("v1", "Namespace", "team.a", &builtin),
        ["metadata.name: Invalid value: \"team.a\": must not contain dots"]
    );
    assert_eq!(names("v1", "Service", "1-web", &builtin).len(), 1);
    let relaxed = Options {
        relaxed_service_names: true,
        ..builtin.clone()
    };
    assert_eq!(
        names("v1", "Service", "1-web", &relaxed),
        Vec::<String>::new()
    );
    assert_eq!(names("v1", "ConfigMap", "system:x", &builtin).len(), 1);
    // Without the built-in strategy (kubectl-validate's reading), every name is a subdomain.
    assert_eq!(
        names(
            "rbac.authorization.k8s.io/v1",
            "ClusterRole",
            "system:x",
            &Options::default()
        )
        .len(),
        1
    );
}
