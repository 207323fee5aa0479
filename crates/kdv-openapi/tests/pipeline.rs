//! The API server's pipeline for a custom resource (`Resource::validate`), step by step,
//! with exact texts: type meta, decoding (unknown fields, metadata, embedded resources),
//! defaulting, metadata validation, value validations, scale, list types, update rules.

use kdv_openapi::{Options, Outcome, Resource, SchemaSet, UnknownFields};
use serde_json::{Value, json};

const CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: {type: string}
          kind: {type: string}
          metadata: {type: object}
          spec:
            type: object
            properties:
              replicas: {type: integer, maximum: 100}
              mode: {type: string, default: fast, enum: [fast, slow]}
              nested:
                type: object
                default: {}
                properties:
                  level: {type: integer, default: 3}
              nullableWithDefault: {type: string, nullable: true, default: x}
              plainNull: {type: string}
              free:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  known: {type: integer}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port, protocol]
                items:
                  type: object
                  required: [port]
                  properties:
                    port: {type: integer}
                    protocol: {type: string, default: TCP}
              tags:
                type: array
                x-kubernetes-list-type: set
                items: {type: string}
              template:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
          status:
            type: object
            properties:
              replicas: {type: integer}
  - name: v0
    served: false
    storage: false
    schema:
      openAPIV3Schema: {type: object}
"#;

fn thing() -> std::sync::Arc<Resource> {
    let mut set = SchemaSet::new();
    assert_eq!(
        set.add_crds("things.yaml", CRD.as_bytes()).expect("loads"),
        1
    );
    assert!(set.resource("example.com/v0", "Thing").is_err(), "unserved");
    set.resource("example.com/v1", "Thing").expect("Thing")
}

fn object(spec: Value) -> Value {
    json!({"apiVersion": "example.com/v1", "kind": "Thing",
           "metadata": {"name": "t", "namespace": "ns"}, "spec": spec})
}

fn texts(o: &Outcome) -> Vec<String> {
    o.errors.iter().map(ToString::to_string).collect()
}

fn unknown(o: &Outcome) -> Vec<String> {
    o.unknown_fields.iter().map(ToString::to_string).collect()
}

fn warn() -> Options {
    Options {
        unknown_fields: UnknownFields::Warn,
        ..Options::default()
    }
}

#[test]
fn valid_object_and_defaults() {
    let r = thing();
    assert_eq!(
        (r.kind(), r.group(), r.version()),
        ("Thing", "example.com", "v1")
    );
    assert_eq!(r.namespaced(), Some(true));
    let o = r.validate(
        &object(json!({"replicas": 1, "nullableWithDefault": null, "plainNull": null})),
        None,
        &Options {
            return_defaulted: true,
            ..Options::default()
        },
    );
    assert!(o.errors.is_empty() && o.unknown_fields.is_empty(), "{o:?}");
    // Defaults are applied (nested ones too); a nullable null keeps its null; a
    // non-nullable null without a default is dropped.
    assert_eq!(
        o.defaulted.expect("defaults applied")["spec"],
        json!({"replicas": 1, "mode": "fast", "nested": {"level": 3}, "nullableWithDefault": null})
    );
}

#[test]
fn type_meta_ends_validation() {
    let r = thing();
    let mut obj = object(json!({"replicas": 1000}));
    obj["kind"] = json!("Other");
    obj["apiVersion"] = json!("example.com/v2");
    assert_eq!(
        texts(&r.validate(&obj, None, &Options::default())),
        [
            r#"kind: Invalid value: "Other": must be Thing"#,
            r#"apiVersion: Invalid value: "example.com/v2": must be example.com/v1"#,
        ]
    );
}

#[test]
fn unknown_fields_strict_and_warn() {
    let r = thing();
    let obj = json!({"apiVersion": "example.com/v1", "kind": "Thing",
        "metadata": {"name": "t", "namespace": "ns", "foo": 1},
        "spec": {"replicas": 101, "zzz": 1, "aaa": {"b": 1}, "free": {"anything": 1},
                 "ports": [{"port": 1, "extra": true}], "template": {"apiVersion": "v1", "kind": "K",
                 "metadata": {"name": "n", "bar": 2}}},
        "top": 1});
    // Strict: the request is rejected while decoding; nothing is validated.
    let strict = r.validate(&obj, None, &Options::default());
    assert_eq!(
        unknown(&strict),
        [
            "metadata.foo",
            "spec.aaa",
            "spec.ports[0].extra",
            "spec.zzz",
            "top",
            "spec.template.metadata.bar",
        ]
    );
    assert!(strict.errors.is_empty());
    // Warn: reported, and the pruned object is validated.
    let warned = r.validate(&obj, None, &warn());
    assert_eq!(unknown(&warned), unknown(&strict));
    assert_eq!(
        texts(&warned),
        [
            "spec.replicas: Invalid value: 101: spec.replicas in body should be less than or equal to 100"
        ]
    );
    // Ignore: not looked for.
    let ignored = r.validate(
        &obj,
        None,
        &Options {
            unknown_fields: UnknownFields::Ignore,
            ..Options::default()
        },
    );
    assert!(ignored.unknown_fields.is_empty());
    assert_eq!(texts(&ignored), texts(&warned));
}

#[test]
fn metadata_decoding_and_validation() {
    let r = thing();
    let mut obj = object(json!({}));
    obj["metadata"] = json!({"name": "t", "finalizers": {"a": "b"}});
    let o = r.validate(&obj, None, &Options::default());
    assert_eq!(
        o.decode_error.map(|e| e.to_string()).as_deref(),
        Some(
            r#"metadata: Invalid value: {"finalizers":{"a":"b"},"name":"t"}: json: cannot unmarshal object into Go struct field ObjectMeta.finalizers of type []string"#
        )
    );
    assert!(o.errors.is_empty());
    obj["metadata"] = json!({"name": "Bad_Name", "namespace": "ns", "labels": {"a": "-"}});
    let texts = texts(&r.validate(&obj, None, &Options::default()));
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(texts[0].starts_with(
        r#"metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain"#
    ));
    assert!(texts[1].starts_with(r#"metadata.labels: Invalid value: "-": a valid label must be"#));
    // A generated name is checked as the server generates it.
    obj["metadata"] = json!({"generateName": "t-"});
    assert!(
        r.validate(&obj, None, &Options::default())
            .errors
            .is_empty()
    );
}

#[test]
fn embedded_resources() {
    let r = thing();
    let o = r.validate(
        &object(json!({"template": {"metadata": {"name": "a/b"}}})),
        None,
        &Options::default(),
    );
    // Embedded resources' names are path segments (upper case is fine, `/` is not).
    assert_eq!(
        texts(&o),
        [
            "spec.template.apiVersion: Required value",
            "spec.template.kind: Required value",
            r#"spec.template.metadata.name: Invalid value: "a/b": may not contain '/'"#,
        ]
    );
    // The decoder's checks come first and end the request.
    let o = r.validate(
        &object(json!({"template": {"apiVersion": 1, "kind": "K"}})),
        None,
        &Options::default(),
    );
    assert_eq!(
        o.decode_error.map(|e| e.to_string()).as_deref(),
        Some("spec.template.apiVersion: Invalid value: 1: must be a string")
    );
}

#[test]
fn list_types_after_defaulting() {
    let r = thing();
    let o = r.validate(
        &object(json!({
            "ports": [{"port": 80, "protocol": "TCP"}, {"port": 80}, {"port": 80, "protocol": "UDP"}],
            "tags": ["a", "b", "a", "a", "b"],
        })),
        None,
        &Options::default(),
    );
    assert_eq!(
        texts(&o),
        [
            r#"spec.ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}"#,
            r#"spec.tags[2]: Duplicate value: "a""#,
            r#"spec.tags[4]: Duplicate value: "b""#,
        ]
    );
    // On update, list-type errors are reported only if the old object had none.
    let old = object(json!({"tags": ["x", "x"]}));
    let o = r.validate(
        &object(json!({"tags": ["a", "a"]})),
        Some(&old),
        &Options::default(),
    );
    assert!(o.errors.is_empty(), "{o:?}");
    let old = object(json!({"tags": ["x"]}));
    let o = r.validate(
        &object(json!({"tags": ["a", "a"]})),
        Some(&old),
        &Options::default(),
    );
    assert_eq!(texts(&o), [r#"spec.tags[1]: Duplicate value: "a""#]);
}

#[test]
fn status_subresource_and_scale() {
    let r = thing();
    // Create: status is not written, so it is not validated.
    let mut obj = object(json!({"replicas": -1}));
    obj["status"] = json!({"replicas": "many"});
    let o = r.validate(&obj, None, &Options::default());
    assert_eq!(
        texts(&o),
        [".spec.replicas: Invalid value: -1: should be a non-negative integer"]
    );
    // Update: the old object's status is kept.
    let mut old = object(json!({}));
    old["status"] = json!({"replicas": 3_000_000_000_i64});
    let o = r.validate(&obj, Some(&old), &Options::default());
    assert_eq!(
        texts(&o),
        [
            ".spec.replicas: Invalid value: -1: should be a non-negative integer",
            ".status.replicas: Invalid value: 3000000000: should be less than or equal to 2147483647",
        ]
    );
}

/// `prepare_in_place` leaves the object as `prepare` would (create, update, status request
/// left alone), so validating it gives the same outcome.
#[test]
fn prepared_in_place_as_prepare_leaves_it() {
    use kdv_openapi::Subresource;
    let r = thing();
    let mut obj = object(json!({"replicas": -1}));
    obj["status"] = json!({"replicas": "many"});
    let mut old = object(json!({}));
    old["status"] = json!({"replicas": 3_000_000_000_i64});
    let status = Options {
        subresource: Subresource::Status,
        ..Options::default()
    };
    for (old, options) in [
        (None, Options::default()),
        (Some(&old), Options::default()),
        (Some(&old), status),
    ] {
        let expected = r.prepare(&obj, old, &options).into_owned();
        let mut in_place = obj.clone();
        r.prepare_in_place(&mut in_place, old, &options);
        if options.subresource == Subresource::Status {
            assert_eq!(in_place, obj);
            continue;
        }
        assert_eq!(in_place, expected);
        assert_eq!(
            texts(&r.validate(&in_place, old, &options)),
            texts(&r.validate(&obj, old, &options))
        );
    }
}

#[test]
fn not_an_object_and_lookups() {
    let r = thing();
    let o = r.validate(&json!([1]), None, &Options::default());
    assert_eq!(
        o.decode_error.map(|e| e.to_string()).as_deref(),
        Some("<nil>: Invalid value: [1]: the object must be a JSON object")
    );
    let set = SchemaSet::new();
    assert_eq!(
        set.resource("a/b/c", "X").unwrap_err().to_string(),
        "invalid apiVersion \"a/b/c\""
    );
    assert_eq!(
        set.resource("example.com/v1", "X").unwrap_err().to_string(),
        "no schema for apiVersion \"example.com/v1\" (no schemas are loaded)"
    );
}

#[test]
fn load_errors_point_at_the_schema_node() {
    let mut set = SchemaSet::new();
    let bad = CRD.replace("maximum: 100", "maximum: lots");
    let e = set.add_crds("things.yaml", bad.as_bytes()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "things.yaml:26:50: CustomResourceDefinition in version \"v1\" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.maximum of type float64"
    );
    let e = set
        .add_crds(
            "old.yaml",
            b"apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\n",
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "old.yaml:1:13: apiextensions.k8s.io/v1beta1 CustomResourceDefinitions are not supported (removed in Kubernetes 1.22); convert it to apiextensions.k8s.io/v1"
    );
    assert!(set.add_crds("bad.yaml", b"a: [").is_err());
}
