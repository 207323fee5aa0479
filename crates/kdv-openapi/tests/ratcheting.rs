//! Validation ratcheting of the schema's value validations on UPDATE (KEP-4008), against
//! apiextensions-apiserver's own tests transcribed as data (`data/ratcheting.json`): the
//! unit tests of `RatchetingSchemaValidator` (`Resource::validate_values_update`) and the
//! value-validation cases of the integration test `TestRatchetingFunctionality`, replayed
//! as a sequence of CRD schema changes and server-side applies through
//! `Resource::validate`.

use kdv_openapi::{Options, Resource, UnknownFields};
use serde_json::{Map, Value, json};

fn data() -> Value {
    serde_json::from_str(include_str!("data/ratcheting.json")).expect("valid JSON")
}

#[test]
fn upstream_unit_tests() {
    let doc = data();
    let mut checked = 0;
    for case in doc["unit"].as_array().expect("unit") {
        let name = case["name"].as_str().expect("name");
        let minor = case["compatMinor"].as_u64().map_or(35, |m| m as u32);
        let r = Resource::from_crd_schema("example.com", "v1", "Test", &case["schema"], minor)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for (i, u) in case["updates"]
            .as_array()
            .expect("updates")
            .iter()
            .enumerate()
        {
            let errs = r.validate_values_update(&u["new"], &u["old"]);
            let valid = u["valid"].as_bool().expect("valid");
            assert_eq!(errs.is_empty(), valid, "{name} #{i}: {errs:?}");
            // Without ratcheting the new value alone decides.
            if valid && !r.validate_values(&u["new"]).is_empty() {
                checked += 1;
            }
        }
    }
    // Updates that are valid only because of ratcheting.
    assert_eq!(checked, 7);
}

/// RFC 7386 JSON merge patch.
fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(patch) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let Value::Object(map) = target else {
        unreachable!("made an object above")
    };
    for (k, v) in patch {
        if v.is_null() {
            map.remove(k);
        } else {
            merge_patch(map.entry(k.clone()).or_insert(Value::Null), v);
        }
    }
}

const API_VERSION: &str = "mygroup.example.com/v1beta1";

fn object(content: &Value, status: bool) -> Value {
    let mut map = match content {
        Value::Object(m) if !status => m.clone(),
        _ => {
            let mut m = Map::new();
            m.insert("status".into(), content.clone());
            m
        }
    };
    map.insert("apiVersion".into(), json!(API_VERSION));
    map.insert("kind".into(), json!("MyCoolCRD"));
    map.insert(
        "metadata".into(),
        json!({"name": "mycrdinstance", "namespace": "default"}),
    );
    Value::Object(map)
}

/// Replays one integration case; `status` nests everything under a `status` property, as
/// upstream's status-subresource runs do. Returns the number of applies checked.
fn replay(case: &Value, status: bool) -> usize {
    let name = case["name"].as_str().expect("name");
    let mut schema = Value::Null;
    let mut stored: Option<Value> = None;
    let mut resource: Option<Resource> = None;
    let options = Options {
        unknown_fields: UnknownFields::Warn,
        ..Options::default()
    };
    let mut applies = 0;
    for (i, step) in case["steps"].as_array().expect("steps").iter().enumerate() {
        let change = if let Some(s) = step.get("schema") {
            schema = s.clone();
            true
        } else if let Some(p) = step.get("schemaPatch") {
            merge_patch(&mut schema, p);
            true
        } else {
            false
        };
        if change {
            let full = if status {
                json!({"type": "object", "properties": {"status": schema}})
            } else {
                schema.clone()
            };
            resource = Some(
                Resource::from_crd_schema("mygroup.example.com", "v1beta1", "MyCoolCRD", &full, 35)
                    .unwrap_or_else(|e| panic!("{name} step {i}: {e}")),
            );
            continue;
        }
        let r = resource.as_ref().expect("a schema before the first apply");
        let new = object(&step["apply"], status);
        let outcome = r.validate(&new, stored.as_ref(), &options);
        let got: Vec<String> = outcome.errors.iter().map(ToString::to_string).collect();
        match step.get("errors") {
            None => {
                assert!(
                    got.is_empty(),
                    "{name} step {i} (status: {status}): {got:#?}"
                );
                stored = Some(new);
            }
            Some(expected) if !status => {
                let expected: Vec<&str> = expected
                    .as_array()
                    .expect("errors")
                    .iter()
                    .map(|e| e.as_str().expect("string"))
                    .collect();
                assert_eq!(got, expected, "{name} step {i}");
            }
            Some(_) => assert!(!got.is_empty(), "{name} step {i} (status) passed"),
        }
        applies += 1;
    }
    applies
}

#[test]
fn upstream_integration_cases() {
    let doc = data();
    let mut applies = 0;
    for case in doc["integration"].as_array().expect("integration") {
        applies += replay(case, false);
        applies += replay(case, true);
    }
    assert_eq!(applies, 2 * 63);
}

#[test]
fn ratcheting_follows_the_kubernetes_version_and_the_option() {
    let schema = json!({"type": "object", "properties": {
        "name": {"type": "string", "maxLength": 3},
        "other": {"type": "string"}}});
    let old = object(&json!({"name": "long", "other": "a"}), false);
    let new = object(&json!({"name": "long", "other": "b"}), false);
    let error = "name: Too long: may not be more than 3 bytes";
    for (minor, ratchets) in [(28, false), (29, false), (30, true), (33, true), (35, true)] {
        let r = Resource::from_crd_schema(
            "mygroup.example.com",
            "v1beta1",
            "MyCoolCRD",
            &schema,
            minor,
        )
        .expect("schema");
        assert_eq!(r.ratcheting_default(), ratchets, "1.{minor}");
        let errs = r.validate(&new, Some(&old), &Options::default()).errors;
        assert_eq!(errs.is_empty(), ratchets, "1.{minor}: {errs:?}");
        for (option, ratchets) in [(Some(true), true), (Some(false), false)] {
            let options = Options {
                ratcheting: option,
                ..Options::default()
            };
            let errs = r.validate(&new, Some(&old), &options).errors;
            assert_eq!(errs.is_empty(), ratchets, "1.{minor} {option:?}");
        }
        // CREATE reports it whatever the version.
        let errs = r.validate(&new, None, &Options::default()).errors;
        let texts: Vec<String> = errs.iter().map(ToString::to_string).collect();
        assert_eq!(texts, [error]);
    }
}

/// Validates `new` as an update of `old` (contents of the resource root) under `schema`.
fn update(schema: &Value, new: &Value, old: &Value) -> Vec<String> {
    let r = Resource::from_crd_schema("mygroup.example.com", "v1beta1", "MyCoolCRD", schema, 35)
        .expect("schema");
    let options = Options {
        unknown_fields: UnknownFields::Warn,
        ..Options::default()
    };
    r.validate(&object(new, false), Some(&object(old, false)), &options)
        .errors
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn junctor_errors_belong_to_the_junctor_node() {
    // Upstream validates junctor branches with plain validators: an unchanged property
    // inside a branch is not ratcheted on its own, only through the node with the junctor.
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "allOf": [{"properties": {"a": {"maxLength": 2}}}]}}});
    let old = json!({"spec": {"a": "long", "b": "x"}});
    assert_eq!(
        update(&schema, &json!({"spec": {"a": "long", "b": "y"}}), &old),
        [
            "spec.a: Too long: may not be more than 2 bytes",
            "<nil>: Invalid value: \"\": \"spec\" must validate all the schemas (allOf). None validated"
        ]
    );
    // The node itself unchanged: everything below it is ratcheted, junctors included.
    let other = json!({"spec": {"a": "long", "b": "x"}, "other": 1});
    let schema_other = {
        let mut s = schema.clone();
        s["properties"]["other"] = json!({"type": "integer"});
        s
    };
    assert_eq!(update(&schema_other, &other, &old), Vec::<String>::new());
}

#[test]
fn items_of_atomic_and_set_lists_ratchet_through_the_list() {
    let schema = json!({"type": "object", "properties": {
        "tags": {"type": "array", "x-kubernetes-list-type": "set",
            "items": {"type": "string", "maxLength": 3}},
        "other": {"type": "string"}}});
    let old = json!({"tags": ["long", "ok"], "other": "a"});
    // The list is unchanged: its items' errors are dropped.
    assert_eq!(
        update(
            &schema,
            &json!({"tags": ["long", "ok"], "other": "b"}),
            &old
        ),
        Vec::<String>::new()
    );
    // Any change to the list (here its order) reports every item's error again.
    assert_eq!(
        update(
            &schema,
            &json!({"tags": ["ok", "long"], "other": "a"}),
            &old
        ),
        ["tags[1]: Too long: may not be more than 3 bytes"]
    );
}

#[test]
fn required_and_object_errors_belong_to_their_object() {
    let schema = json!({"type": "object", "properties": {
        "spec": {"type": "object", "required": ["name"], "maxProperties": 1,
            "properties": {"name": {"type": "string"}, "a": {"type": "string"},
                "b": {"type": "string"}}},
        "other": {"type": "string"}}});
    let old = json!({"spec": {"a": "x", "b": "y"}, "other": "a"});
    assert_eq!(
        update(
            &schema,
            &json!({"spec": {"a": "x", "b": "y"}, "other": "b"}),
            &old
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        update(
            &schema,
            &json!({"spec": {"a": "x", "b": "z"}, "other": "a"}),
            &old
        ),
        [
            "spec: Too many: 2: must have at most 1 item",
            "spec.name: Required value"
        ]
    );
}

#[test]
fn objects_with_fields_kept_without_a_schema_never_count_as_unchanged() {
    // Upstream's correlation finds no schema for a field kept by
    // x-kubernetes-preserve-unknown-fields, so such an object is never unchanged; its
    // declared fields still correlate on their own.
    let schema = json!({"type": "object", "properties": {
        "spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
            "minProperties": 3,
            "properties": {"name": {"type": "string", "maxLength": 2}}},
        "other": {"type": "string"}}});
    let old = json!({"spec": {"name": "long", "extra": 1}, "other": "a"});
    assert_eq!(
        update(
            &schema,
            &json!({"spec": {"name": "long", "extra": 1}, "other": "b"}),
            &old
        ),
        ["spec: Invalid value: 2: spec in body should have at least 3 properties"]
    );
}

#[test]
fn map_list_items_ratchet_by_key() {
    let schema = json!({"type": "object", "properties": {
        "ports": {"type": "array", "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"],
            "items": {"type": "object", "required": ["name"], "properties": {
                "name": {"type": "string"},
                "port": {"type": "integer", "maximum": 100}}}}}});
    let old = json!({"ports": [{"name": "a", "port": 500}, {"name": "b", "port": 600}]});
    // Reordered, one item changed: only the changed item's error stays.
    assert_eq!(
        update(
            &schema,
            &json!({"ports": [{"name": "b", "port": 601}, {"name": "a", "port": 500}]}),
            &old
        ),
        [
            "ports[0].port: Invalid value: 601: ports[0].port in body should be less than or equal to 100"
        ]
    );
}

#[test]
fn status_kept_from_the_old_object_is_ratcheted() {
    let crd = br#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer, maximum: 10}}}
          status: {type: object, properties: {count: {type: integer, maximum: 10}}}
"#;
    let mut set = kdv_openapi::SchemaSet::new();
    set.add_crds("crd.yaml", crd).expect("CRD");
    let r = set.resource("example.com/v1", "Widget").expect("kind");
    let meta = json!({"name": "w", "namespace": "default"});
    let old = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": meta,
        "spec": {"size": 20}, "status": {"count": 20}});
    let new = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": meta,
        "spec": {"size": 21}, "status": {"count": 30}});
    let errs: Vec<String> = r
        .validate(&new, Some(&old), &Options::default())
        .errors
        .iter()
        .map(ToString::to_string)
        .collect();
    // The status written on the main resource is replaced by the old one, unchanged.
    assert_eq!(
        errs,
        ["spec.size: Invalid value: 21: spec.size in body should be less than or equal to 10"]
    );
}

#[test]
fn declared_metadata_does_not_make_the_root_unchanged() {
    // Upstream's correlation finds no schema for metadata's fields (the CRD declares only
    // `metadata: {type: object}`), so a root with metadata is never unchanged and errors
    // at the root itself stay.
    let schema = json!({"type": "object", "required": ["spec"], "properties": {
        "metadata": {"type": "object"},
        "spec": {"type": "object"}}});
    let r = Resource::from_crd_schema("mygroup.example.com", "v1beta1", "MyCoolCRD", &schema, 35)
        .expect("schema");
    let old = object(&json!({}), false);
    let errs: Vec<String> = r
        .validate(&old, Some(&old), &Options::default())
        .errors
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(errs, ["spec: Required value"]);
}
