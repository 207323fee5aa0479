//! Tests: upstream's tables (apimachinery `objectmeta_test.go`, `meta/v1/validation`,
//! `util/validation`; apiextensions-apiserver `schema/objectmeta`) as data, plus the
//! kubectl-validate expectations of metadata cases.

use super::*;
use crate::ErrorType;
use proptest::prelude::*;
use serde_json::json;

const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const NAME_PART_MSG: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const DNS1035_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

fn texts(errs: &ErrorList) -> Vec<String> {
    errs.iter().map(ToString::to_string).collect()
}

/// Runs the CREATE checks at path `field` (upstream tests' `field.NewPath("field")`).
fn create_at(meta: &Value, rules: ObjectMetaRules, field: &str) -> ErrorList {
    let root = PathRef::Nil;
    let path = root.child(field);
    let mut out = ErrorList::new();
    validate_object_meta(Some(meta), &rules, &path, &mut out);
    out
}

fn create(meta: &Value, rules: ObjectMetaRules) -> Vec<String> {
    texts(&create_at(meta, rules, "metadata"))
}

fn update_at(new: &Value, old: &Value, rules: ObjectMetaRules, field: &str) -> ErrorList {
    let root = PathRef::Nil;
    let path = root.child(field);
    let mut out = ErrorList::new();
    validate_object_meta_update(Some(new), Some(old), &rules, &path, &mut out);
    out
}

fn embedded(object: &Value) -> ErrorList {
    let root = PathRef::Nil;
    let mut out = ErrorList::new();
    validate_embedded_resource(object, &root, &mut out);
    out
}

fn cluster() -> ObjectMetaRules {
    ObjectMetaRules::custom_resource(false)
}

fn namespaced() -> ObjectMetaRules {
    ObjectMetaRules::custom_resource(true)
}

fn name_messages(rule: NameRule, name: &str, prefix: bool) -> Vec<String> {
    let mut msgs = Vec::new();
    rule.messages(name, prefix, &mut msgs);
    msgs
}

// ---- kubectl-validate's metadata cases (the expected metav1.Status messages) ----

#[test]
fn kubectl_validate_cases() {
    // error_invalid_label
    assert_eq!(
        create(
            &json!({"name": "x", "labels": {"owner": "_"}}),
            namespaced().as_request()
        ),
        [format!(
            "metadata.labels: Invalid value: \"_\": {LABEL_VALUE_MSG}"
        )]
    );
    // error_invalid_name
    assert_eq!(
        create(&json!({"name": "x.com^2"}), namespaced().as_request()),
        [format!(
            "metadata.name: Invalid value: \"x.com^2\": {SUBDOMAIN_MSG}"
        )]
    );
    // error_missing_name (kubectl-validate defaults the namespace)
    assert_eq!(
        create(&json!(null), namespaced().as_request()),
        ["metadata.name: Required value: name or generateName is required"]
    );
    assert_eq!(
        create(&json!({"namespace": "default"}), namespaced()),
        ["metadata.name: Required value: name or generateName is required"]
    );
    // error_name_exceeds_max_length
    let long = "thisisaveryveryveryveryveryveryverylongname".repeat(6);
    assert_eq!(long.len(), 258);
    assert_eq!(
        create(&json!({"name": long}), namespaced().as_request()),
        [format!(
            "metadata.name: Invalid value: \"{long}\": must be no more than 253 characters"
        )]
    );
}

// ---- apimachinery objectmeta_test.go ----

#[test]
fn namespaces_follow_dns_label_format() {
    // TestValidateObjectMetaNamespaces
    let errs = create_at(
        &json!({"name": "test", "namespace": "foo.bar"}),
        namespaced(),
        "field",
    );
    assert_eq!(
        texts(&errs),
        ["field.namespace: Invalid value: \"foo.bar\": must not contain dots"]
    );
    let long: String = "aB3".repeat(22)[..64].to_owned();
    let errs = create_at(
        &json!({"name": "test", "namespace": long}),
        namespaced(),
        "field",
    );
    assert_eq!(
        texts(&errs),
        [
            format!(
                "field.namespace: Invalid value: \"{long}\": must be no more than 63 characters"
            ),
            format!("field.namespace: Invalid value: \"{long}\": {LABEL_MSG}"),
        ]
    );
    // Scope rules.
    assert_eq!(
        create(&json!({"name": "test"}), namespaced()),
        ["metadata.namespace: Required value"]
    );
    assert_eq!(
        create(&json!({"name": "test", "namespace": "ns"}), cluster()),
        ["metadata.namespace: Forbidden: not allowed on this type"]
    );
    let unknown = ObjectMetaRules::default();
    assert!(create(&json!({"name": "test", "namespace": "No.Such"}), unknown).is_empty());
    assert!(create(&json!({"name": "test"}), unknown).is_empty());
}

/// TestValidateObjectMetaOwnerReferences: (owner references, expected first message).
#[test]
fn owner_references_table() {
    let table: &[(Value, Option<&str>)] = &[
        (
            json!([{"apiVersion": "customresourceVersion", "kind": "customresourceKind", "name": "name", "uid": "1"}]),
            None,
        ),
        (
            json!([{"apiVersion": "v1", "kind": "Event", "name": "name", "uid": "1"}]),
            Some(
                "field.ownerReferences[0]: Invalid value: {\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"name\",\"uid\":\"1\"}: /v1, Kind=Event is disallowed from being an owner",
            ),
        ),
        (
            json!([{"apiVersion": "a/b/c", "kind": "Pod", "name": "name", "uid": "1"}]),
            Some(
                "field.ownerReferences[0].apiVersion: Invalid value: \"a/b/c\": must be <group>/<version> or <version>",
            ),
        ),
        (
            json!([{"apiVersion": "foo/", "kind": "Pod", "name": "name", "uid": "1"}]),
            Some(
                "field.ownerReferences[0].apiVersion: Invalid value: \"foo/\": must be <group>/<version> or <version>",
            ),
        ),
        (
            json!([{"apiVersion": "v1", "kind": "Pod", "name": "name", "uid": "1"}]),
            None,
        ),
        (
            json!([
                {"apiVersion": "customresourceVersion", "kind": "customresourceKind", "name": "name", "uid": "1", "controller": false},
                {"apiVersion": "customresourceVersion", "kind": "customresourceKind", "name": "name", "uid": "2", "controller": true},
                {"apiVersion": "customresourceVersion", "kind": "customresourceKind", "name": "name", "uid": "3", "controller": false},
                {"apiVersion": "customresourceVersion", "kind": "customresourceKind", "name": "name", "uid": "4"},
            ]),
            None,
        ),
        (
            json!([
                {"apiVersion": "customresourceVersion", "kind": "customresourceKind1", "name": "name", "uid": "1", "controller": false},
                {"apiVersion": "customresourceVersion", "kind": "customresourceKind2", "name": "name", "uid": "2", "controller": true},
                {"apiVersion": "customresourceVersion", "kind": "customresourceKind3", "name": "name", "uid": "3", "controller": true},
                {"apiVersion": "customresourceVersion", "kind": "customresourceKind4", "name": "name", "uid": "4"},
            ]),
            Some(
                "Only one reference can have Controller set to true. Found \"true\" in references for customresourceKind2/name and customresourceKind3/name",
            ),
        ),
    ];
    for (refs, expected) in table {
        let meta = json!({"name": "test", "namespace": "test", "ownerReferences": refs});
        let errs = create_at(&meta, namespaced(), "field");
        match expected {
            None => assert!(errs.is_empty(), "{refs}: {errs:?}"),
            Some(text) => {
                assert_eq!(errs.len(), 1, "{refs}: {errs:?}");
                assert!(errs[0].to_string().contains(text), "{}", errs[0]);
            }
        }
    }
    // The controller conflict reports the whole list at the list's path.
    let meta = json!({"name": "t", "ownerReferences": [
        {"apiVersion": "v1", "kind": "A", "name": "a", "uid": "1", "controller": true},
        {"apiVersion": "v1", "kind": "B", "name": "b", "uid": "2", "controller": true},
    ]});
    let errs = create(&meta, cluster());
    assert_eq!(
        errs,
        [
            "metadata.ownerReferences: Invalid value: [{\"apiVersion\":\"v1\",\"controller\":true,\"kind\":\"A\",\"name\":\"a\",\"uid\":\"1\"},{\"apiVersion\":\"v1\",\"controller\":true,\"kind\":\"B\",\"name\":\"b\",\"uid\":\"2\"}]: Only one reference can have Controller set to true. Found \"true\" in references for A/a and B/b"
        ]
    );
    // Empty fields (and a null item, the zero OwnerReference).
    let errs = create_at(
        &json!({"name": "t", "ownerReferences": [null]}),
        cluster(),
        "metadata",
    );
    assert_eq!(
        texts(&errs),
        [
            "metadata.ownerReferences[0].apiVersion: Required value: must not be empty",
            "metadata.ownerReferences[0].kind: Required value: must not be empty",
            "metadata.ownerReferences[0].name: Required value: must not be empty",
            "metadata.ownerReferences[0].uid: Required value: must not be empty",
        ]
    );
    assert!(
        errs.iter()
            .all(|e| e.covered_by_declarative && e.from_imperative)
    );
}

#[test]
fn update_creation_timestamp_is_immutable() {
    // TestValidateObjectMetaUpdateIgnoresCreationTimestamp: one error each.
    let plain = json!({"name": "test", "resourceVersion": "1"});
    let at10 = json!({"name": "test", "resourceVersion": "1", "creationTimestamp": "1970-01-01T00:00:10Z"});
    let at11 = json!({"name": "test", "resourceVersion": "1", "creationTimestamp": "1970-01-01T00:00:11Z"});
    let rules = ObjectMetaRules::default();
    assert_eq!(
        texts(&update_at(&plain, &at10, rules, "field")),
        ["field.creationTimestamp: Invalid value: null: field is immutable"]
    );
    assert_eq!(
        texts(&update_at(&at10, &plain, rules, "field")),
        ["field.creationTimestamp: Invalid value: \"1970-01-01T00:00:10Z\": field is immutable"]
    );
    let errs = update_at(&at10, &at11, rules, "field");
    assert_eq!(
        texts(&errs),
        ["field.creationTimestamp: Invalid value: \"1970-01-01T00:00:10Z\": field is immutable"]
    );
    assert_eq!(errs[0].origin, "immutable");
    // The same instant written with another offset is the same time.
    let shifted = json!({"name": "test", "resourceVersion": "1", "creationTimestamp": "1970-01-01T01:00:10+01:00"});
    assert!(update_at(&shifted, &at10, rules, "field").is_empty());
}

#[test]
fn update_finalizers_while_deleting() {
    // TestValidateFinalizersUpdate: (old, new, expected substring).
    let zero = "0001-01-01T00:00:00Z";
    let table: &[(Value, Value, &str)] = &[
        (
            json!({"name": "test", "resourceVersion": "1", "deletionTimestamp": zero, "finalizers": ["x/a"]}),
            json!({"name": "test", "resourceVersion": "1", "deletionTimestamp": zero, "finalizers": ["x/a", "y/b"]}),
            "y/b",
        ),
        (
            json!({"name": "test", "resourceVersion": "1", "deletionTimestamp": zero, "finalizers": ["x/a"]}),
            json!({"name": "test", "resourceVersion": "1", "deletionTimestamp": zero, "finalizers": ["x/b"]}),
            "x/b",
        ),
        (
            json!({"name": "test", "resourceVersion": "1", "deletionTimestamp": zero, "finalizers": ["x/a", "y/b"]}),
            json!({"name": "test", "resourceVersion": "1", "deletionTimestamp": zero, "finalizers": ["x/a"]}),
            "",
        ),
        (
            json!({"name": "test", "resourceVersion": "1", "finalizers": ["x/a"]}),
            json!({"name": "test", "resourceVersion": "1", "finalizers": ["x/a", "y/b"]}),
            "",
        ),
    ];
    for (old, new, expected) in table {
        let errs = update_at(new, old, ObjectMetaRules::default(), "field");
        if expected.is_empty() {
            assert!(errs.is_empty(), "{errs:?}");
        } else {
            assert!(errs.to_aggregate_string().contains(expected), "{errs:?}");
        }
    }
    let errs = update_at(
        &table[0].1,
        &table[0].0,
        ObjectMetaRules::default(),
        "metadata",
    );
    assert_eq!(
        texts(&errs),
        [
            "metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{\"y/b\"}"
        ]
    );
    let old = json!({"name": "t", "resourceVersion": "1", "deletionTimestamp": zero});
    let new = json!({"name": "t", "resourceVersion": "1", "deletionTimestamp": zero, "finalizers": ["z", "a/b", "z"]});
    assert_eq!(
        texts(&update_at(
            &new,
            &old,
            ObjectMetaRules::default(),
            "metadata"
        )),
        [
            "metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{\"a/b\", \"z\"}"
        ]
    );
}

#[test]
fn conflicting_finalizers() {
    // TestValidateFinalizersPreventConflictingFinalizers
    let meta = json!({"name": "test", "resourceVersion": "1", "finalizers": ["orphan", "foregroundDeletion"]});
    assert_eq!(
        texts(&create_at(&meta, cluster(), "field")),
        [
            "field.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\"]: finalizer orphan and foregroundDeletion cannot be both set"
        ]
    );
    // Names must be qualified names.
    assert_eq!(
        create(&json!({"name": "t", "finalizers": ["a/b/c", "-x"]}), cluster()),
        [
            "metadata.finalizers: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')".to_owned(),
            format!("metadata.finalizers: Invalid value: \"-x\": {NAME_PART_MSG}"),
        ]
    );
}

#[test]
fn update_deletion_fields_are_immutable() {
    // TestValidateObjectMetaUpdatePreventsDeletionFieldMutation: (old, new, errors).
    let now = "1970-01-01T00:16:40Z";
    let later = "1970-01-01T00:33:20Z";
    let base = |extra: Value| {
        let mut m = json!({"name": "test", "resourceVersion": "1"});
        if let (Value::Object(m), Value::Object(extra)) = (&mut m, extra) {
            m.extend(extra);
        }
        m
    };
    let table: Vec<(Value, Value, Vec<&str>)> = vec![
        (base(json!({})), base(json!({})), vec![]),
        (
            base(json!({"deletionTimestamp": now, "deletionGracePeriodSeconds": 30})),
            base(json!({"deletionTimestamp": now, "deletionGracePeriodSeconds": 30})),
            vec![],
        ),
        (
            base(json!({})),
            base(json!({"deletionTimestamp": now})),
            vec![
                "field.deletionTimestamp: Invalid value: \"1970-01-01T00:16:40Z\": field is immutable",
            ],
        ),
        (
            base(json!({"deletionTimestamp": now})),
            base(json!({})),
            vec!["field.deletionTimestamp: Invalid value: null: field is immutable"],
        ),
        (
            base(json!({"deletionTimestamp": now})),
            base(json!({"deletionTimestamp": later})),
            vec![
                "field.deletionTimestamp: Invalid value: \"1970-01-01T00:33:20Z\": field is immutable",
            ],
        ),
        (
            base(json!({})),
            base(json!({"deletionGracePeriodSeconds": 30})),
            vec!["field.deletionGracePeriodSeconds: Invalid value: 30: field is immutable"],
        ),
        (
            base(json!({"deletionGracePeriodSeconds": 30})),
            base(json!({})),
            vec!["field.deletionGracePeriodSeconds: Invalid value: null: field is immutable"],
        ),
        (
            base(json!({"deletionGracePeriodSeconds": 30})),
            base(json!({"deletionGracePeriodSeconds": 40})),
            vec!["field.deletionGracePeriodSeconds: Invalid value: 40: field is immutable"],
        ),
    ];
    for (old, new, expected) in table {
        let errs = update_at(&new, &old, ObjectMetaRules::default(), "field");
        assert_eq!(texts(&errs), expected, "{old} -> {new}");
    }
}

#[test]
fn update_generation() {
    // TestObjectMetaGenerationUpdate
    let m = |g: i64| json!({"name": "test", "resourceVersion": "1", "generation": g});
    let rules = ObjectMetaRules::default();
    assert_eq!(
        texts(&update_at(&m(4), &m(5), rules, "field")),
        ["field.generation: Invalid value: 4: must not be decremented"]
    );
    assert!(update_at(&m(2), &m(1), rules, "field").is_empty());
    assert!(update_at(&m(5), &m(5), rules, "field").is_empty());
}

#[test]
fn generate_name_trailing_dash_is_masked() {
    // TestValidateObjectMetaTrimsTrailingDash
    assert!(
        create_at(
            &json!({"name": "test", "generateName": "foo-"}),
            cluster(),
            "field"
        )
        .is_empty()
    );
    // Masking replaces the last two bytes by `a`: "a.-" is checked as "aa".
    assert!(name_messages(NameRule::DnsSubdomain, "a.-", true).is_empty());
    assert!(name_messages(NameRule::DnsSubdomain, "-", true).len() == 1);
    assert_eq!(
        create(&json!({"name": "x", "generateName": "Foo-"}), cluster()),
        [format!(
            "metadata.generateName: Invalid value: \"Foo-\": {SUBDOMAIN_MSG}"
        )]
    );
    // TestValidateObjectMetaCustomName: generateName and name are both checked.
    assert_eq!(
        create(&json!({"name": "A", "generateName": "B"}), cluster()),
        [
            format!("metadata.generateName: Invalid value: \"B\": {SUBDOMAIN_MSG}"),
            format!("metadata.name: Invalid value: \"A\": {SUBDOMAIN_MSG}"),
        ]
    );
    // Without request handling, a generateName alone does not stand in for a name.
    assert_eq!(
        create(&json!({"generateName": "foo-"}), cluster()),
        ["metadata.name: Required value: name or generateName is required"]
    );
}

/// TestValidateAnnotations: valid maps, then (map, expected detail substring).
#[test]
fn annotations_table() {
    let b = |n: usize| "b".repeat(n);
    let success: Vec<Value> = vec![
        json!({"simple": "bar"}),
        json!({"now-with-dashes": "bar"}),
        json!({"1-starts-with-num": "bar"}),
        json!({"1234": "bar"}),
        json!({"simple/simple": "bar"}),
        json!({"now-with-dashes/simple": "bar"}),
        json!({"now-with-dashes/now-with-dashes": "bar"}),
        json!({"now.with.dots/simple": "bar"}),
        json!({"now-with.dashes-and.dots/simple": "bar"}),
        json!({"1-num.2-num/3-num": "bar"}),
        json!({"1234/5678": "bar"}),
        json!({"1.2.3.4/5678": "bar"}),
        json!({"UpperCase123": "bar"}),
        json!({"a": b(TOTAL_ANNOTATION_SIZE_LIMIT - 1)}),
        json!({"a": b(TOTAL_ANNOTATION_SIZE_LIMIT / 2 - 1), "c": "d".repeat(TOTAL_ANNOTATION_SIZE_LIMIT / 2 - 1)}),
        // Lowercasing applies to the prefix too, and Go's simple case mapping turns the
        // Kelvin sign into `k`.
        json!({"Example.COM/Key": "v"}),
        json!({"\u{212a}ey": "v"}),
    ];
    let root = PathRef::Nil;
    let path = root.child("field");
    for m in &success {
        let mut out = ErrorList::new();
        validate_annotations(m.as_object(), &path, &mut out);
        assert!(out.is_empty(), "{out:?}");
    }
    let name_errors: &[(Value, &str)] = &[
        (
            json!({"nospecialchars^=@": "bar"}),
            "name part must consist of",
        ),
        (
            json!({"cantendwithadash-": "bar"}),
            "name part must consist of",
        ),
        (
            json!({"only/one/slash": "bar"}),
            "a valid label key must consist of",
        ),
        (json!({"a".repeat(254): "bar"}), "must be no more than"),
    ];
    for (m, expected) in name_errors {
        let mut out = ErrorList::new();
        validate_annotations(m.as_object(), &path, &mut out);
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].detail.contains(expected), "{}", out[0].detail);
        assert_eq!(out[0].origin, "format=k8s-label-key");
    }
    for m in [
        json!({"a": b(TOTAL_ANNOTATION_SIZE_LIMIT)}),
        json!({"a": b(TOTAL_ANNOTATION_SIZE_LIMIT / 2), "c": "d".repeat(TOTAL_ANNOTATION_SIZE_LIMIT / 2)}),
    ] {
        let mut out = ErrorList::new();
        validate_annotations(m.as_object(), &path, &mut out);
        assert_eq!(
            texts(&out),
            ["field: Too long: may not be more than 262144 bytes"]
        );
    }
    // The key is reported as written; the messages are about the lowercased key.
    assert_eq!(
        create(
            &json!({"name": "x", "annotations": {"A_B/c": "v", "-invalid": "val"}}),
            cluster()
        ),
        [
            format!("metadata.annotations: Invalid value: \"-invalid\": {NAME_PART_MSG}"),
            format!("metadata.annotations: Invalid value: \"A_B/c\": prefix part {SUBDOMAIN_MSG}"),
        ]
    );
}

/// TestValidateLabels (apimachinery meta/v1/validation).
#[test]
fn labels_table() {
    let success = [
        json!({"simple": "bar"}),
        json!({"now-with-dashes": "bar"}),
        json!({"1-starts-with-num": "bar"}),
        json!({"1234": "bar"}),
        json!({"simple/simple": "bar"}),
        json!({"now-with-dashes/simple": "bar"}),
        json!({"now-with-dashes/now-with-dashes": "bar"}),
        json!({"now.with.dots/simple": "bar"}),
        json!({"now-with.dashes-and.dots/simple": "bar"}),
        json!({"1-num.2-num/3-num": "bar"}),
        json!({"1234/5678": "bar"}),
        json!({"1.2.3.4/5678": "bar"}),
        json!({"UpperCaseAreOK123": "bar"}),
        json!({"goodvalue": "123_-.BaR"}),
        json!({"empty": null}),
    ];
    let root = PathRef::Nil;
    let path = root.child("field");
    for m in &success {
        let mut out = ErrorList::new();
        validate_labels(m.as_object(), &path, &mut out);
        assert!(out.is_empty(), "{m}: {out:?}");
    }
    let errors: &[(Value, &str, &str)] = &[
        (
            json!({"nospecialchars^=@": "bar"}),
            "name part must consist of",
            "format=k8s-label-key",
        ),
        (
            json!({"cantendwithadash-": "bar"}),
            "name part must consist of",
            "format=k8s-label-key",
        ),
        (
            json!({"only/one/slash": "bar"}),
            "a valid label key must consist of",
            "format=k8s-label-key",
        ),
        (
            json!({"a".repeat(254): "bar"}),
            "must be no more than",
            "format=k8s-label-key",
        ),
        (
            json!({"toolongvalue": "a".repeat(64)}),
            "must be no more than",
            "format=k8s-label-value",
        ),
        (
            json!({"backslashesinvalue": "some\\bad\\value"}),
            "a valid label must be an empty string or consist of",
            "format=k8s-label-value",
        ),
        (
            json!({"nocommasallowed": "bad,value"}),
            "a valid label must be an empty string or consist of",
            "format=k8s-label-value",
        ),
        (
            json!({"strangecharsinvalue": "?#$notsogood"}),
            "a valid label must be an empty string or consist of",
            "format=k8s-label-value",
        ),
    ];
    for (m, expected, origin) in errors {
        let mut out = ErrorList::new();
        validate_labels(m.as_object(), &path, &mut out);
        assert_eq!(out.len(), 1, "{m}: {out:?}");
        assert!(out[0].detail.contains(expected), "{}", out[0].detail);
        assert_eq!(out[0].origin, *origin);
    }
    // content's length messages say bytes.
    let mut out = ErrorList::new();
    validate_labels(json!({"k": "a".repeat(64)}).as_object(), &path, &mut out);
    assert_eq!(out[0].detail, "must be no more than 63 bytes");
}

/// TestValidateManagedFieldsInvalid / TestValidateMangedFieldsValid.
#[test]
fn managed_fields_table() {
    let long = "TooLong".repeat(37);
    let invalid = [
        (
            json!({"operation": "Update", "fieldsType": "RandomVersion", "apiVersion": "v1"}),
            "metadata.managedFields[0].fieldsType: Invalid value: \"RandomVersion\": must be `FieldsV1`".to_owned(),
        ),
        (
            json!({"operation": "RandomOperation", "fieldsType": "FieldsV1", "apiVersion": "v1"}),
            "metadata.managedFields[0].operation: Unsupported value: \"RandomOperation\": supported values: \"Apply\", \"Update\"".to_owned(),
        ),
        (
            json!({"fieldsType": "FieldsV1", "apiVersion": "v1"}),
            "metadata.managedFields[0].operation: Required value: must not be empty".to_owned(),
        ),
        (
            json!({"operation": "Update", "fieldsType": "FieldsV1", "manager": "field\nmanager", "apiVersion": "v1"}),
            "metadata.managedFields[0].manager: Invalid value: \"field\\nmanager\": invalid character U+000A (at position 5)".to_owned(),
        ),
        (
            json!({"operation": "Apply", "fieldsType": "FieldsV1", "apiVersion": "v1", "subresource": long}),
            "metadata.managedFields[0].subresource: Too long: may not be more than 256 bytes".to_owned(),
        ),
        (
            json!({"operation": "Apply", "manager": "m".repeat(129)}),
            "metadata.managedFields[0].manager: Too long: may not be more than 128 bytes".to_owned(),
        ),
    ];
    for (entry, expected) in invalid {
        let errs = create(&json!({"name": "x", "managedFields": [entry]}), cluster());
        assert_eq!(errs, [expected]);
    }
    let valid = [
        json!({"operation": "Update", "apiVersion": "v1"}),
        json!({"operation": "Update", "fieldsType": "FieldsV1", "apiVersion": "v1"}),
        json!({"operation": "Apply", "fieldsType": "FieldsV1", "apiVersion": "v1", "subresource": "scale"}),
        json!({"operation": "Apply", "fieldsType": "FieldsV1", "apiVersion": "v1", "manager": "🍔", "fieldsV1": {"f:spec": {}}, "time": "2024-01-01T00:00:00Z"}),
    ];
    for entry in valid {
        assert!(create(&json!({"name": "x", "managedFields": [entry]}), cluster()).is_empty());
    }
}

/// An expected error: type, field and origin.
type Expected = (ErrorType, &'static str, &'static str);

/// TestValidateObjectMetaDeclaratively: with declarative validation at alpha, the
/// handwritten errors are what the API returns (type, field, origin).
#[test]
fn declarative_table() {
    let mk = |extra: Value| {
        let mut m = json!({"name": "valid-name", "namespace": "valid-ns"});
        if let (Value::Object(m), Value::Object(extra)) = (&mut m, extra) {
            m.extend(extra);
        }
        m
    };
    let owner = |field: &str, value: &str| {
        let mut r = json!({"apiVersion": "v1", "kind": "Pod", "name": "name", "uid": "uid-1"});
        r[field] = json!(value);
        json!({"ownerReferences": [r]})
    };
    let create_cases: Vec<(Value, Vec<Expected>)> = vec![
        (mk(json!({})), vec![]),
        (
            mk(json!({"name": "invalid_name"})),
            vec![(ErrorType::Invalid, "metadata.name", "")],
        ),
        (
            mk(json!({"namespace": ""})),
            vec![(ErrorType::Required, "metadata.namespace", "")],
        ),
        (
            mk(json!({"generation": -1})),
            vec![(ErrorType::Invalid, "metadata.generation", "minimum")],
        ),
        (
            mk(json!({"managedFields": [{"fieldsType": "FieldsV1"}]})),
            vec![(
                ErrorType::Required,
                "metadata.managedFields[0].operation",
                "",
            )],
        ),
        (
            mk(owner("apiVersion", "")),
            vec![(
                ErrorType::Required,
                "metadata.ownerReferences[0].apiVersion",
                "",
            )],
        ),
        (
            mk(owner("kind", "")),
            vec![(ErrorType::Required, "metadata.ownerReferences[0].kind", "")],
        ),
        (
            mk(owner("name", "")),
            vec![(ErrorType::Required, "metadata.ownerReferences[0].name", "")],
        ),
        (
            mk(owner("uid", "")),
            vec![(ErrorType::Required, "metadata.ownerReferences[0].uid", "")],
        ),
        (
            mk(owner("kind", "Event")),
            vec![(ErrorType::Invalid, "metadata.ownerReferences[0]", "")],
        ),
        (
            mk(json!({"annotations": {"-invalid": "val"}})),
            vec![(
                ErrorType::Invalid,
                "metadata.annotations",
                "format=k8s-label-key",
            )],
        ),
        (
            mk(json!({"annotations": {"a": "b".repeat(TOTAL_ANNOTATION_SIZE_LIMIT)}})),
            vec![(ErrorType::TooLong, "metadata.annotations", "")],
        ),
    ];
    let summary = |errs: &ErrorList| -> Vec<(ErrorType, String, String)> {
        errs.iter()
            .map(|e| (e.error_type, e.field.to_string(), e.origin.to_string()))
            .collect()
    };
    let want = |v: &[Expected]| -> Vec<(ErrorType, String, String)> {
        v.iter()
            .map(|(t, f, o)| (*t, (*f).to_owned(), (*o).to_owned()))
            .collect()
    };
    for (meta, expected) in &create_cases {
        let errs = create_at(meta, namespaced(), "metadata");
        assert_eq!(summary(&errs), want(expected), "{meta}");
        assert!(errs.iter().all(|e| e.from_imperative));
    }
    let rv = |v: &str, extra: Value| {
        let mut m = mk(extra);
        m["resourceVersion"] = json!(v);
        m
    };
    let update_cases: Vec<(Value, Value, Vec<Expected>)> = vec![
        (rv("2", json!({})), rv("1", json!({})), vec![]),
        (
            rv("2", json!({"generation": 0})),
            rv("1", json!({"generation": 0})),
            vec![],
        ),
        (
            rv("2", json!({"generation": 0})),
            rv("1", json!({"generation": 1})),
            vec![(ErrorType::Invalid, "metadata.generation", "")],
        ),
        (
            rv("2", json!({"generation": -1})),
            rv("1", json!({"generation": 0})),
            vec![
                (ErrorType::Invalid, "metadata.generation", "minimum"),
                (ErrorType::Invalid, "metadata.generation", ""),
            ],
        ),
        (
            rv("2", json!({"namespace": "new-ns"})),
            rv("1", json!({"namespace": "old-ns"})),
            vec![(ErrorType::Invalid, "metadata.namespace", "")],
        ),
        (
            rv("2", owner("apiVersion", "")),
            rv("1", json!({})),
            vec![(
                ErrorType::Required,
                "metadata.ownerReferences[0].apiVersion",
                "",
            )],
        ),
        (
            rv("2", owner("kind", "")),
            rv("1", json!({})),
            vec![(ErrorType::Required, "metadata.ownerReferences[0].kind", "")],
        ),
        (
            rv("2", owner("name", "")),
            rv("1", json!({})),
            vec![(ErrorType::Required, "metadata.ownerReferences[0].name", "")],
        ),
        (
            rv("2", owner("uid", "")),
            rv("1", json!({})),
            vec![(ErrorType::Required, "metadata.ownerReferences[0].uid", "")],
        ),
        (
            rv("2", json!({"annotations": {"-invalid": "val"}})),
            rv("1", json!({})),
            vec![(
                ErrorType::Invalid,
                "metadata.annotations",
                "format=k8s-label-key",
            )],
        ),
        (
            rv("2", json!({"uid": "uid-new"})),
            rv("1", json!({"uid": "uid-old"})),
            vec![(ErrorType::Invalid, "metadata.uid", "immutable")],
        ),
        (
            rv("2", json!({"creationTimestamp": "1970-01-01T00:33:20Z"})),
            rv("1", json!({"creationTimestamp": "1970-01-01T00:16:40Z"})),
            vec![(
                ErrorType::Invalid,
                "metadata.creationTimestamp",
                "immutable",
            )],
        ),
        (
            rv("2", json!({"deletionTimestamp": "1970-01-01T00:33:20Z"})),
            rv("1", json!({"deletionTimestamp": "1970-01-01T00:16:40Z"})),
            vec![(
                ErrorType::Invalid,
                "metadata.deletionTimestamp",
                "immutable",
            )],
        ),
        (
            rv("2", json!({"deletionGracePeriodSeconds": 40})),
            rv("1", json!({"deletionGracePeriodSeconds": 30})),
            vec![(
                ErrorType::Invalid,
                "metadata.deletionGracePeriodSeconds",
                "immutable",
            )],
        ),
    ];
    for (new, old, expected) in &update_cases {
        let errs = update_at(new, old, namespaced(), "metadata");
        assert_eq!(summary(&errs), want(expected), "{new} <- {old}");
    }
    // The exact texts of the update errors.
    let (new, old, _) = &update_cases[10];
    assert_eq!(
        texts(&update_at(new, old, namespaced(), "metadata")),
        ["metadata.uid: Invalid value: \"uid-new\": field is immutable"]
    );
    let (new, old, _) = &update_cases[4];
    assert_eq!(
        texts(&update_at(new, old, namespaced(), "metadata")),
        ["metadata.namespace: Invalid value: \"new-ns\": field is immutable"]
    );
    assert_eq!(
        texts(&update_at(
            &json!({"name": "a"}),
            &json!({"name": "b"}),
            namespaced(),
            "metadata"
        )),
        [
            "metadata.resourceVersion: Invalid value: \"\": must be specified for an update",
            "metadata.name: Invalid value: \"a\": field is immutable",
        ]
    );
}

// ---- name rules (util/validation and content tables) ----

#[test]
fn name_rules() {
    let label_good = [
        "a",
        "ab",
        "abc",
        "a1",
        "a-1",
        "a--1--2--b",
        "0",
        "01",
        "012",
        "1a",
        "1-a",
        "1--a--b--2",
    ];
    let label_bad = [
        "", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_", "_a",
        "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "a.b", "1.", ".1", "1.2", " ", "a ", " a",
        "a b", "1 ", " 1", "1 2",
    ];
    for v in label_good.iter().copied().chain([&*"a".repeat(63)]) {
        assert!(
            name_messages(NameRule::DnsLabel, v, false).is_empty(),
            "{v}"
        );
    }
    for v in label_bad.iter().copied().chain([&*"a".repeat(64)]) {
        assert!(
            !name_messages(NameRule::DnsLabel, v, false).is_empty(),
            "{v}"
        );
    }
    let sub_good = [
        "a",
        "ab",
        "abc",
        "a1",
        "a-1",
        "a--1--2--b",
        "0",
        "01",
        "012",
        "1a",
        "1-a",
        "1--a--b--2",
        "a.a",
        "ab.a",
        "abc.a",
        "a1.a",
        "a-1.a",
        "a--1--2--b.a",
        "a.1",
        "ab.1",
        "abc.1",
        "a1.1",
        "a-1.1",
        "a--1--2--b.1",
        "0.a",
        "01.a",
        "012.a",
        "1a.a",
        "1-a.a",
        "0.1",
        "01.1",
        "012.1",
        "1a.1",
        "1-a.1",
        "1--a--b--2.1",
        "a.b.c.d.e",
        "aa.bb.cc.dd.ee",
        "1.2.3.4.5",
        "11.22.33.44.55",
    ];
    let sub_bad = [
        "",
        "A",
        "ABC",
        "aBc",
        "A1",
        "A-1",
        "1-A",
        "-",
        "a-",
        "-a",
        "1-",
        "-1",
        "_",
        "a_",
        "_a",
        "a_b",
        "1_",
        "_1",
        "1_2",
        ".",
        "a.",
        ".a",
        "a..b",
        "1.",
        ".1",
        "1..2",
        " ",
        "a ",
        " a",
        "a b",
        "1 ",
        " 1",
        "1 2",
        "A.a",
        "aB.a",
        "ab.A",
        "A1.a",
        "a1.A",
        "A.1",
        "aB.1",
        "A1.1",
        "1A.1",
        "0.A",
        "01.A",
        "012.A",
        "1A.a",
        "1a.A",
        "A.B.C.D.E",
        "AA.BB.CC.DD.EE",
        "a.B.c.d.e",
        "aa.bB.cc.dd.ee",
        "a@b",
        "a,b",
        "a_b",
        "a;b",
        "a:b",
        "a%b",
        "a?b",
        "a$b",
    ];
    for v in sub_good.iter().copied().chain([&*"a".repeat(253)]) {
        assert!(
            name_messages(NameRule::DnsSubdomain, v, false).is_empty(),
            "{v}"
        );
    }
    for v in sub_bad.iter().copied().chain([&*"a".repeat(254)]) {
        assert!(
            !name_messages(NameRule::DnsSubdomain, v, false).is_empty(),
            "{v}"
        );
    }
    let dns1035_good = ["a", "ab", "abc", "a1", "a-1", "a--1--2--b"];
    let dns1035_bad = ["0", "01", "012", "1a", "1-a", "1--a--b--2"];
    for v in dns1035_good.iter().copied().chain([&*"a".repeat(63)]) {
        assert!(
            name_messages(NameRule::Dns1035Label, v, false).is_empty(),
            "{v}"
        );
    }
    for v in dns1035_bad
        .iter()
        .chain(&label_bad)
        .copied()
        .chain([&*"a".repeat(64)])
    {
        assert!(
            !name_messages(NameRule::Dns1035Label, v, false).is_empty(),
            "{v}"
        );
    }
    // Exact messages.
    assert_eq!(
        name_messages(NameRule::DnsLabel, "a.b", false),
        ["must not contain dots"]
    );
    assert_eq!(
        name_messages(NameRule::DnsLabel, &"A".repeat(64), false),
        [
            "must be no more than 63 characters".to_owned(),
            LABEL_MSG.to_owned()
        ]
    );
    assert_eq!(
        name_messages(NameRule::Dns1035Label, "1a", false),
        [DNS1035_MSG]
    );
    assert_eq!(
        name_messages(NameRule::DnsSubdomain, &"a".repeat(254), false),
        ["must be no more than 253 characters"]
    );
    // Path segments (content path_test.go).
    for (name, prefix, expected) in [
        ("", true, vec![]),
        ("foo", true, vec![]),
        ("sha256:ABCDEF012345@ABCDEF012345", true, vec![]),
        ("Iñtërnâtiônàlizætiøn", true, vec![]),
        (".", true, vec![]),
        ("..", true, vec![]),
        ("..test", true, vec![]),
        ("foo/bar", true, vec!["may not contain '/'"]),
        ("foo%bar", true, vec!["may not contain '%'"]),
        (
            "a/%",
            true,
            vec!["may not contain '/'", "may not contain '%'"],
        ),
        (".", false, vec!["may not be '.'"]),
        ("..", false, vec!["may not be '..'"]),
        ("..test", false, vec![]),
        ("foo/bar", false, vec!["may not contain '/'"]),
        ("foo%bar", false, vec!["may not contain '%'"]),
    ] {
        assert_eq!(
            name_messages(NameRule::PathSegment, name, prefix),
            expected,
            "{name}"
        );
    }
}

fn go_mask(name: &str) -> String {
    let b = name.as_bytes();
    if b.len() > 1 && b.ends_with(b"-") {
        let mut m = b[..b.len() - 2].to_vec();
        m.push(b'a');
        String::from_utf8_lossy(&m).into_owned()
    } else {
        name.to_owned()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The byte walkers agree with the format module's matchers, and masking a prefix is
    /// the same as checking the masked name.
    #[test]
    fn name_rules_agree(s in "[-a-zA-Z0-9._]{0,12}") {
        let sub = name_messages(NameRule::DnsSubdomain, &s, false).is_empty();
        prop_assert_eq!(sub, crate::format::is_dns1123_subdomain(&s));
        let label = name_messages(NameRule::DnsLabel, &s, false).is_empty();
        prop_assert_eq!(label, crate::format::is_dns1123_label(&s));
        let l1035 = name_messages(NameRule::Dns1035Label, &s, false).is_empty();
        prop_assert_eq!(l1035, crate::format::is_dns1035_label(&s));
        let masked = go_mask(&s);
        for rule in [NameRule::DnsSubdomain, NameRule::DnsLabel, NameRule::Dns1035Label] {
            prop_assert_eq!(
                name_messages(rule, &s, true),
                name_messages(rule, &masked, false)
            );
        }
    }

    #[test]
    fn annotation_fast_path_agrees(s in "[-a-zA-Z0-9._/]{0,10}") {
        let mut msgs = Vec::new();
        label_key_messages(&s.to_lowercase(), &mut msgs);
        prop_assert_eq!(ascii_key_lowercased_ok(&s), msgs.is_empty());
    }
}

// ---- decoding (apiextensions-apiserver coerce_test.go and Go's encoding/json) ----

#[test]
fn decode_errors() {
    let err = |v: Value| decode_object_meta(&v).unwrap_err().to_string();
    // TestGetObjectMetaWithOptions
    assert_eq!(
        err(
            json!({"name": "my-meta", "unknownField": "foo", "generateName": null, "generation": null,
                   "labels": {"foo": "bar"}, "annotations": 11})
        ),
        "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string"
    );
    assert_eq!(
        err(json!("x")),
        "json: cannot unmarshal string into Go value of type v1.ObjectMeta"
    );
    assert_eq!(
        err(json!([1])),
        "json: cannot unmarshal array into Go value of type v1.ObjectMeta"
    );
    assert_eq!(
        err(json!({"name": 5})),
        "json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"
    );
    assert_eq!(
        err(json!({"uid": true})),
        "json: cannot unmarshal bool into Go struct field ObjectMeta.uid of type types.UID"
    );
    assert_eq!(
        err(json!({"generation": "1"})),
        "json: cannot unmarshal string into Go struct field ObjectMeta.generation of type int64"
    );
    // item 21.8: integral floats round-trip through `json.Marshal` as integers.
    assert_eq!(
        err(json!({"generation": 9.3e18})),
        "json: cannot unmarshal number 9300000000000000000 into Go struct field ObjectMeta.generation of type int64"
    );
    assert_eq!(
        err(json!({"generation": 1.5})),
        "json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64"
    );
    assert_eq!(
        err(json!({"deletionGracePeriodSeconds": 1e21})),
        "json: cannot unmarshal number 1e+21 into Go struct field ObjectMeta.deletionGracePeriodSeconds of type int64"
    );
    assert_eq!(
        err(json!({"generation": u64::MAX})),
        "json: cannot unmarshal number 18446744073709552000 into Go struct field ObjectMeta.generation of type int64"
    );
    assert_eq!(
        err(json!({"labels": {"a": 1}})),
        "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string"
    );
    assert_eq!(
        err(json!({"labels": ["a"]})),
        "json: cannot unmarshal array into Go struct field ObjectMeta.labels of type map[string]string"
    );
    assert_eq!(
        err(json!({"finalizers": "a"})),
        "json: cannot unmarshal string into Go struct field ObjectMeta.finalizers of type []string"
    );
    assert_eq!(
        err(json!({"finalizers": [{"a": 1}]})),
        "json: cannot unmarshal object into Go struct field ObjectMeta.finalizers of type string"
    );
    assert_eq!(
        err(json!({"ownerReferences": {"kind": "x"}})),
        "json: cannot unmarshal object into Go struct field ObjectMeta.ownerReferences of type []v1.OwnerReference"
    );
    assert_eq!(
        err(json!({"ownerReferences": ["x"]})),
        "json: cannot unmarshal string into Go struct field ObjectMeta.ownerReferences of type v1.OwnerReference"
    );
    assert_eq!(
        err(json!({"ownerReferences": [{"kind": 1}]})),
        "json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.kind of type string"
    );
    assert_eq!(
        err(json!({"ownerReferences": [{"controller": "yes"}]})),
        "json: cannot unmarshal string into Go struct field OwnerReference.ownerReferences.controller of type bool"
    );
    assert_eq!(
        err(json!({"managedFields": [{"operation": 1}]})),
        "json: cannot unmarshal number into Go struct field ManagedFieldsEntry.managedFields.operation of type v1.ManagedFieldsOperationType"
    );
    // metav1.Time's own errors: the inner string decoding and time.Parse.
    assert_eq!(
        err(json!({"creationTimestamp": 5})),
        "json: cannot unmarshal number into Go value of type string"
    );
    assert_eq!(
        err(json!({"deletionTimestamp": "yesterday"})),
        "parsing time \"yesterday\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"yesterday\" as \"2006\""
    );
    assert_eq!(
        err(json!({"managedFields": [{"time": {}}]})),
        "json: cannot unmarshal object into Go value of type string"
    );
    // The first mismatch in key order wins; a Time error ends decoding and wins over it.
    assert_eq!(
        err(json!({"name": 1, "labels": 2})),
        "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type map[string]string"
    );
    assert_eq!(
        err(json!({"annotations": 11, "creationTimestamp": "x"})),
        "parsing time \"x\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"x\" as \"2006\""
    );
    assert_eq!(
        err(json!({"creationTimestamp": "x", "deletionTimestamp": 1})),
        "parsing time \"x\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"x\" as \"2006\""
    );
}

#[test]
fn decode_nulls_and_unknowns() {
    // TestGetObjectMetaNils: null reads as the zero value.
    let v = json!({"generateName": null, "generation": null, "labels": {"foo": null},
                   "creationTimestamp": null, "deletionTimestamp": null, "fieldsV1": 3,
                   "ownerReferences": null, "Name": 5});
    let meta = decode_object_meta(&v).unwrap();
    assert_eq!(meta.generate_name, "");
    assert_eq!(meta.generation, 0);
    assert!(meta.creation_timestamp.is_zero());
    assert_eq!(meta.deletion_timestamp, None);
    assert_eq!(meta.labels.unwrap()["foo"], Value::Null);
    assert!(create(&json!({"name": "x", "labels": {"foo": null}}), cluster()).is_empty());
    let v = json!({"name": "n", "deletionGracePeriodSeconds": 0,
        "managedFields": [{"fieldsV1": [1, "x"], "manager": "m"}]});
    let meta = decode_object_meta(&v).unwrap();
    assert_eq!(meta.name, "n");
    assert_eq!(meta.deletion_grace_period_seconds, Some(0));
    assert_eq!(ManagedFieldsEntry::of(&meta.managed_fields[0]).manager, "m");
    // Strict decoding's unknown fields.
    let v = json!({"name": "n", "Name": 1, "extra": {}, "ownerReferences": [{"kind": "K", "bogus": 1}, "x"],
                   "managedFields": [{"fieldsV1": {}, "what": 2}], "labels": {"any": "key"}});
    let root = PathRef::Nil;
    let path = root.child("metadata");
    let mut unknown = Vec::new();
    unknown_fields(&v, &path, &mut unknown);
    let unknown: Vec<String> = unknown.iter().map(ToString::to_string).collect();
    assert_eq!(
        unknown,
        [
            "metadata.Name",
            "metadata.extra",
            "metadata.managedFields[0].what",
            "metadata.ownerReferences[0].bogus",
        ]
    );
}

#[test]
fn undecodable_metadata_is_one_error() {
    assert_eq!(
        create(&json!({"name": "x", "labels": "app"}), cluster()),
        [
            "metadata: Invalid value: {\"labels\":\"app\",\"name\":\"x\"}: json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string"
        ]
    );
    assert_eq!(
        create(&json!("meta"), cluster()),
        [
            "metadata: Invalid value: \"meta\": json: cannot unmarshal string into Go value of type v1.ObjectMeta"
        ]
    );
    let root = PathRef::Nil;
    let path = root.child("metadata");
    let mut out = ErrorList::new();
    validate_object_meta_update(
        Some(&json!({"name": "a"})),
        Some(&json!(7)),
        &ObjectMetaRules::default(),
        &path,
        &mut out,
    );
    assert_eq!(
        texts(&out),
        [
            "metadata: Invalid value: 7: json: cannot unmarshal number into Go value of type v1.ObjectMeta"
        ]
    );
}

// ---- embedded resources (apiextensions-apiserver schema/objectmeta validation_test.go) ----

#[test]
fn embedded_resource_table() {
    let summary = |errs: &ErrorList| -> Vec<(ErrorType, String)> {
        errs.iter()
            .map(|e| (e.error_type, e.field.to_string()))
            .collect()
    };
    let cases: Vec<(Value, Vec<(ErrorType, &str)>)> = vec![
        (
            json!({}),
            vec![
                (ErrorType::Required, "apiVersion"),
                (ErrorType::Required, "kind"),
            ],
        ),
        (json!({"apiVersion": "foo/v1", "kind": "Foo"}), vec![]),
        (
            json!({"apiVersion": "foo/v1", "kind": "foo.bar-com"}),
            vec![(ErrorType::Invalid, "kind")],
        ),
        (
            json!({"apiVersion": "foo/v1", "kind": "Foo", "metadata": {"namespace": "kube-system"}}),
            vec![],
        ),
        (
            json!({"apiVersion": "foo/v1", "kind": "Foo", "metadata": {"name": "foo"}}),
            vec![],
        ),
        (
            json!({"apiVersion": "foo/v1", "kind": "Foo", "metadata": {
                "name": "..", "namespace": "$$$", "labels": {"#": "#"}, "annotations": {"#": "#"}}}),
            vec![
                (ErrorType::Invalid, "metadata.name"),
                (ErrorType::Invalid, "metadata.namespace"),
                (ErrorType::Invalid, "metadata.labels"),
                (ErrorType::Invalid, "metadata.labels"),
                (ErrorType::Invalid, "metadata.annotations"),
            ],
        ),
    ];
    for (object, expected) in cases {
        let want: Vec<(ErrorType, String)> = expected
            .iter()
            .map(|(t, f)| (*t, (*f).to_owned()))
            .collect();
        assert_eq!(summary(&embedded(&object)), want, "{object}");
    }
    // Not an object: nothing to check.
    assert!(embedded(&json!("x")).is_empty());
    assert!(embedded(&json!(null)).is_empty());
}

#[test]
fn embedded_resource_texts() {
    let root = PathRef::Nil;
    let spec = root.child("spec");
    let template = spec.child("template");
    let mut out = ErrorList::new();
    validate_embedded_resource(&json!({}), &template, &mut out);
    assert_eq!(
        texts(&out),
        [
            "spec.template.apiVersion: Required value",
            "spec.template.kind: Required value"
        ]
    );
    let texts_of = |v: Value| texts(&embedded(&v));
    assert_eq!(
        texts_of(json!({"apiVersion": 1, "kind": true})),
        [
            "apiVersion: Invalid value: 1: must be a string",
            "kind: Invalid value: true: must be a string"
        ]
    );
    assert_eq!(
        texts_of(json!({"apiVersion": "", "kind": ""})),
        [
            "apiVersion: Invalid value: \"\": must not be empty",
            "kind: Invalid value: \"\": must not be empty"
        ]
    );
    assert_eq!(
        texts_of(json!({"apiVersion": null, "kind": {"a": 1}})),
        [
            "apiVersion: Invalid value: null: must be a string",
            "kind: Invalid value: {\"a\":1}: must be a string"
        ]
    );
    assert_eq!(
        texts_of(json!({"apiVersion": "a/b/c", "kind": "My_Kind"})),
        [
            "apiVersion: Invalid value: \"a/b/c\": unexpected GroupVersion string: a/b/c"
                .to_owned(),
            format!(
                "kind: Invalid value: \"My_Kind\": may have mixed case, but should otherwise match: {DNS1035_MSG}"
            ),
        ]
    );
    let long_kind = "K".repeat(64);
    assert_eq!(
        texts_of(json!({"apiVersion": "v1", "kind": long_kind})),
        [format!(
            "kind: Invalid value: \"{long_kind}\": may have mixed case, but should otherwise match: must be no more than 63 characters"
        )]
    );
    // Go lowercases the Kelvin sign to `k`: the kind is valid.
    assert!(texts_of(json!({"apiVersion": "v1", "kind": "\u{212a}ind"})).is_empty());
    assert_eq!(
        texts_of(json!({"apiVersion": "v1", "kind": "Kä"})),
        [format!(
            "kind: Invalid value: \"Kä\": may have mixed case, but should otherwise match: {DNS1035_MSG}"
        )]
    );
    // Metadata: undecodable, path-segment names, fakename, namespace only when set.
    assert_eq!(
        texts_of(json!({"apiVersion": "v1", "kind": "K", "metadata": {"name": 5}})),
        [
            "metadata: Invalid value: {\"name\":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"
        ]
    );
    assert_eq!(
        texts_of(json!({"apiVersion": "v1", "kind": "K", "metadata": "m"})),
        [
            "metadata: Invalid value: \"m\": json: cannot unmarshal string into Go value of type v1.ObjectMeta"
        ]
    );
    assert_eq!(
        texts_of(
            json!({"apiVersion": "v1", "kind": "K", "metadata": {"name": "a/b", "generateName": "x%"}})
        ),
        [
            "metadata.generateName: Invalid value: \"x%\": may not contain '%'",
            "metadata.name: Invalid value: \"a/b\": may not contain '/'",
        ]
    );
    assert!(
        texts_of(json!({"apiVersion": "v1", "kind": "K", "metadata": {"name": "Upper_Case"}}))
            .is_empty()
    );
    assert!(texts_of(json!({"apiVersion": "v1", "kind": "K", "metadata": null})).is_empty());
    assert!(
        texts_of(json!({"apiVersion": "v1", "kind": "K", "metadata": {"generateName": "g-"}}))
            .is_empty()
    );
    let errs = embedded(
        &json!({"apiVersion": "v1", "kind": "K", "metadata": {"namespace": "Bad", "generation": -2}}),
    );
    assert_eq!(
        texts(&errs),
        [
            format!("metadata.namespace: Invalid value: \"Bad\": {LABEL_MSG}"),
            "metadata.generation: Invalid value: -2: must be greater than or equal to 0".to_owned(),
        ]
    );
    assert!(errs.iter().all(|e| e.from_imperative));
}

// ---- request handling ----

#[test]
fn create_requests() {
    let req = namespaced().as_request();
    // A generated name: the first 58 bytes of generateName plus five characters.
    assert!(create(&json!({"generateName": "web-"}), req).is_empty());
    let base = format!("{}-", "a".repeat(70));
    assert!(create(&json!({"generateName": base}), req).is_empty());
    // generateName "a.-" passes as a prefix, the generated name does not.
    assert_eq!(
        create(&json!({"generateName": "a.-"}), req),
        [format!(
            "metadata.name: Invalid value: \"a.-xxxxx\": {SUBDOMAIN_MSG}"
        )]
    );
    // Namespaces: an empty one is the request's; a cluster-scoped object's is cleared.
    assert!(create(&json!({"name": "x"}), req).is_empty());
    assert_eq!(
        create(&json!({"name": "x", "namespace": "Bad"}), req),
        [format!(
            "metadata.namespace: Invalid value: \"Bad\": {LABEL_MSG}"
        )]
    );
    assert!(
        create(
            &json!({"name": "x", "namespace": "ns"}),
            cluster().as_request()
        )
        .is_empty()
    );
    // The strategy sets the generation.
    assert!(create(&json!({"name": "x", "generation": -5}), req).is_empty());
    assert_eq!(
        create(&json!({"name": "x", "generation": -5}), namespaced()),
        [
            "metadata.namespace: Required value",
            "metadata.generation: Invalid value: -5: must be greater than or equal to 0",
        ]
    );
}

#[test]
fn update_requests() {
    let req = namespaced().as_request();
    let old = json!({"name": "x", "namespace": "ns", "uid": "u1", "resourceVersion": "7",
                     "generation": 3, "creationTimestamp": "2024-01-01T00:00:00Z",
                     "deletionGracePeriodSeconds": 30});
    // A manifest carries none of the server's fields: they come from the live object.
    assert!(texts(&update_at(&json!({"name": "x"}), &old, req, "metadata")).is_empty());
    // Two manifests: no resourceVersion anywhere, still an update of a live object.
    assert!(
        texts(&update_at(
            &json!({"name": "x"}),
            &json!({"name": "x"}),
            req,
            "metadata"
        ))
        .is_empty()
    );
    // Changing what is immutable is still reported, with the common checks first.
    assert_eq!(
        texts(&update_at(
            &json!({"name": "y", "uid": "u2", "labels": {"a": "-"}}),
            &old,
            req,
            "metadata"
        )),
        [
            format!("metadata.labels: Invalid value: \"-\": {LABEL_VALUE_MSG}"),
            "metadata.name: Invalid value: \"y\": field is immutable".to_owned(),
            "metadata.uid: Invalid value: \"u2\": field is immutable".to_owned(),
        ]
    );
    // Cluster-scoped: namespaces are cleared on both sides.
    assert!(
        texts(&update_at(
            &json!({"name": "x", "namespace": "a"}),
            &json!({"name": "x", "namespace": "b"}),
            cluster().as_request(),
            "metadata"
        ))
        .is_empty()
    );
    // Without request handling the bare update checks apply.
    assert_eq!(
        texts(&update_at(
            &json!({"name": "x"}),
            &old,
            namespaced(),
            "metadata"
        )),
        [
            "metadata.resourceVersion: Invalid value: \"\": must be specified for an update",
            "metadata.generation: Invalid value: 0: must not be decremented",
            "metadata.namespace: Invalid value: \"\": field is immutable",
            "metadata.uid: Invalid value: \"\": field is immutable",
            "metadata.creationTimestamp: Invalid value: null: field is immutable",
            "metadata.deletionGracePeriodSeconds: Invalid value: null: field is immutable",
        ]
    );
}

#[test]
fn finalizer_warnings_table() {
    let meta = json!({"finalizers": ["kubernetes", "example.com", "plain", "example.com/x", "Bad Name", "plain"]});
    assert_eq!(
        finalizer_warnings(Some(&meta), None),
        [
            format!("metadata.finalizers: \"Bad Name\": {NAME_PART_MSG}"),
            "metadata.finalizers: \"Bad Name\": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers".to_owned(),
            "metadata.finalizers: \"example.com\": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers".to_owned(),
            "metadata.finalizers: \"plain\": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers".to_owned(),
        ]
    );
    let old = json!({"finalizers": ["plain", "Bad Name"]});
    assert_eq!(
        finalizer_warnings(Some(&meta), Some(&old)),
        [
            "metadata.finalizers: \"example.com\": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers"
        ]
    );
    assert!(finalizer_warnings(None, None).is_empty());
    assert!(finalizer_warnings(Some(&json!({"finalizers": 1})), None).is_empty());
}

#[test]
fn parse_group_version_cases() {
    assert_eq!(parse_group_version(""), Some(("", "")));
    assert_eq!(parse_group_version("/"), Some(("", "")));
    assert_eq!(parse_group_version("v1"), Some(("", "v1")));
    assert_eq!(parse_group_version("apps/v1"), Some(("apps", "v1")));
    assert_eq!(parse_group_version("foo/"), Some(("foo", "")));
    assert_eq!(parse_group_version("a/b/c"), None);
}

#[test]
fn valid_metadata_allocates_nothing() {
    let meta = json!({
        "name": "web-1", "namespace": "prod", "generateName": "web-", "uid": "0f0e",
        "resourceVersion": "12", "generation": 4, "creationTimestamp": "2024-05-01T10:00:00Z",
        "labels": {"app.kubernetes.io/name": "web", "tier": ""},
        "annotations": {"Example.com/Note": "hello", "kubectl.kubernetes.io/last-applied-configuration": "{}"},
        "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web", "uid": "1", "controller": true}],
        "finalizers": ["example.com/cleanup"],
        "managedFields": [{"manager": "kubectl", "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": {}}],
    });
    let object =
        json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": meta.clone()});
    let root = PathRef::Nil;
    let path = root.child("metadata");
    let rules = namespaced();
    let mut out = ErrorList::new();
    let counts = [
        crate::alloc_count::allocations(|| {
            validate_object_meta(Some(&meta), &rules, &path, &mut out);
        }),
        crate::alloc_count::allocations(|| {
            validate_object_meta_update(Some(&meta), Some(&meta), &rules, &path, &mut out);
        }),
        crate::alloc_count::allocations(|| {
            validate_object_meta_update(
                Some(&meta),
                Some(&meta),
                &rules.as_request(),
                &path,
                &mut out,
            );
        }),
        crate::alloc_count::allocations(|| {
            validate_embedded_resource(&object, &root, &mut out);
        }),
    ];
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(counts, [0; 4]);
}

#[test]
fn bad_value_of_unstructured_values() {
    assert_eq!(BadValue::unstructured(&json!(null)).to_string(), "null");
    assert_eq!(
        BadValue::unstructured(&json!("a\"b")).to_string(),
        "\"a\\\"b\""
    );
    assert_eq!(BadValue::unstructured(&json!(3)).to_string(), "3");
    assert_eq!(BadValue::unstructured(&json!(1e6)).to_string(), "1e+06");
    assert_eq!(
        BadValue::unstructured(&json!(u64::MAX)).to_string(),
        "1.8446744073709552e+19"
    );
    assert_eq!(
        BadValue::unstructured(&json!({"b": [1]})).to_string(),
        "{\"b\":[1]}"
    );
}

#[test]
fn item_08_integral_floats_in_metadata_are_integers() {
    // apiextensions' GetObjectMeta round-trips metadata through json.Marshal, which
    // writes these floats as integer literals.
    let meta =
        |v: Value| decode_object_meta(&v).map(|m| (m.generation, m.deletion_grace_period_seconds));
    assert_eq!(meta(json!({"generation": 5.0})).unwrap(), (5, None));
    assert_eq!(meta(json!({"generation": -0.0})).unwrap(), (0, None));
    assert_eq!(
        meta(json!({"generation": 1e2, "deletionGracePeriodSeconds": 3.0})).unwrap(),
        (100, Some(3))
    );
    assert!(meta(json!({"generation": 5.5})).is_err());
    assert!(meta(json!({"generation": 1e21})).is_err());
}
