//! CRD write-time checks (`kdv_openapi::crd_validation`), one case per check: a valid CRD
//! changed in one place, and what the API server says about creating it, as the server
//! words it, with where each finding points in the (pretty-printed JSON) document. The
//! snapshot (`snapshots/crd_lint__checks.snap`) is the reviewable list of exact texts;
//! the texts come from apiextensions-apiserver's validation (1.35) and apimachinery.

use std::fmt::Write;

use kdv_openapi::crd_validation::{Severity, lint_crds, validate_crd};
use serde_json::{Value, json};

fn base() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "names": {"kind": "Widget", "plural": "widgets"},
            "scope": "Namespaced",
            "versions": [{
                "name": "v1",
                "served": true,
                "storage": true,
                "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "properties": {
                        "spec": {
                            "type": "object",
                            "properties": {
                                "replicas": {"type": "integer", "maximum": 10},
                                "name": {"type": "string"}
                            }
                        }
                    }
                }}
            }]
        }
    })
}

/// Sets the value at a JSON pointer (creating objects on the way); `Value::Null` removes it.
fn set(v: &mut Value, pointer: &str, value: Value) {
    let (parent, key) = pointer.rsplit_once('/').expect("pointer");
    let mut cur = v;
    for step in parent.split('/').skip(1) {
        cur = match cur {
            Value::Array(a) => &mut a[step.parse::<usize>().expect("index")],
            Value::Object(m) => m.entry(step.to_owned()).or_insert_with(|| json!({})),
            _ => panic!("no such path {pointer}"),
        };
    }
    match cur {
        Value::Array(a) => {
            let i: usize = key.parse().expect("index");
            if i == a.len() {
                a.push(value);
            } else {
                a[i] = value;
            }
        }
        Value::Object(m) => {
            if value.is_null() {
                m.remove(key);
            } else {
                m.insert(key.to_owned(), value);
            }
        }
        _ => panic!("no such path {pointer}"),
    }
}

const SCHEMA: &str = "/spec/versions/0/schema/openAPIV3Schema";
const SPEC: &str = "/spec/versions/0/schema/openAPIV3Schema/properties/spec";

/// What linting `crd` reports, one finding a line: `line:col severity message`, then the
/// text at that position.
fn lint(crd: &Value) -> String {
    let text = serde_json::to_string_pretty(crd).expect("serializes");
    let stream = lint_crds("crd.json", text.as_bytes(), 35);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    for c in &stream.crds {
        for f in &c.located {
            let at = lines
                .get(f.line as usize - 1)
                .map(|l| l.trim())
                .unwrap_or_default();
            let sev = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let _ = writeln!(
                out,
                "  {}:{} {sev}: {}\n      at: {at}",
                f.line, f.column, f.message
            );
        }
    }
    if out.is_empty() {
        out.push_str("  (accepted)\n");
    }
    out
}

type Case = (&'static str, Box<dyn Fn(&mut Value)>);

fn case(name: &'static str, f: impl Fn(&mut Value) + 'static) -> Case {
    (name, Box::new(f))
}

fn cases() -> Vec<Case> {
    vec![
        case("valid", |_| {}),
        // Decoding.
        case("decode: a number for a string", |c| {
            set(c, "/spec/names/kind", json!(5))
        }),
        case("decode: a string for a number", |c| {
            set(
                c,
                &format!("{SPEC}/properties/replicas/maximum"),
                json!("ten"),
            )
        }),
        case(
            "decode: additionalProperties neither bool nor schema",
            |c| set(c, &format!("{SPEC}/additionalProperties"), json!("yes")),
        ),
        case("unknown fields", |c| {
            set(c, "/spec/foo", json!(1));
            set(c, &format!("{SPEC}/properties/name/maxLenght"), json!(3));
            set(c, "/metadata/labelz", json!({}));
        }),
        // Metadata and names.
        case("name is not plural.group", |c| {
            set(c, "/metadata/name", json!("widget.example.com"))
        }),
        case("name is no DNS subdomain", |c| {
            set(c, "/metadata/name", json!("Widgets.example.com"))
        }),
        case("group missing", |c| set(c, "/spec/group", Value::Null)),
        case("group without a dot", |c| {
            set(c, "/spec/group", json!("example"));
            set(c, "/metadata/name", json!("widgets.example"));
        }),
        case("scope missing", |c| set(c, "/spec/scope", Value::Null)),
        case("scope unsupported", |c| {
            set(c, "/spec/scope", json!("Global"))
        }),
        case("names", |c| {
            set(
                c,
                "/spec/names",
                json!({"kind": "Wid_get", "plural": "Widgets", "listKind": "Wid_get",
                "shortNames": ["w_"], "categories": ["all", "-x"]}),
            );
            set(c, "/metadata/name", json!("Widgets.example.com"));
        }),
        case("plural missing", |c| {
            set(c, "/spec/names/plural", Value::Null)
        }),
        case("protected group without approval", |c| {
            set(c, "/spec/group", json!("example.k8s.io"));
            set(c, "/metadata/name", json!("widgets.example.k8s.io"));
        }),
        case("protected group with a bad approval", |c| {
            set(c, "/spec/group", json!("example.k8s.io"));
            set(c, "/metadata/name", json!("widgets.example.k8s.io"));
            set(
                c,
                "/metadata/annotations",
                json!({"api-approved.kubernetes.io": "yes"}),
            );
        }),
        case("protected group, unapproved", |c| {
            set(c, "/spec/group", json!("example.k8s.io"));
            set(c, "/metadata/name", json!("widgets.example.k8s.io"));
            set(
                c,
                "/metadata/annotations",
                json!({"api-approved.kubernetes.io": "unapproved, testing"}),
            );
        }),
        case("preserveUnknownFields: true", |c| {
            set(c, "/spec/preserveUnknownFields", json!(true))
        }),
        // Versions.
        case("no storage version", |c| {
            set(c, "/spec/versions/0/storage", json!(false))
        }),
        case("two storage versions, same name", |c| {
            let v = c["spec"]["versions"][0].clone();
            set(c, "/spec/versions/1", v);
        }),
        case("version name", |c| {
            set(c, "/spec/versions/0/name", json!("V1"))
        }),
        case("deprecation warning without deprecated", |c| {
            set(c, "/spec/versions/0/deprecationWarning", json!("old"))
        }),
        case(
            "deprecation warning too long, with a control character",
            |c| {
                set(c, "/spec/versions/0/deprecated", json!(true));
                set(
                    c,
                    "/spec/versions/0/deprecationWarning",
                    json!(format!("{}\u{7}", "x".repeat(256))),
                );
            },
        ),
        case("served version without schema", |c| {
            set(c, "/spec/versions/0/schema", Value::Null)
        }),
        case("two versions with different schemas", |c| {
            let mut v = c["spec"]["versions"][0].clone();
            v["name"] = json!("v2");
            v["storage"] = json!(false);
            v["schema"]["openAPIV3Schema"]["properties"]["spec"]["type"] = json!("strign");
            set(c, "/spec/versions/1", v);
        }),
        // Schema keywords.
        case("type typo", |c| {
            set(c, &format!("{SPEC}/properties/name/type"), json!("strign"))
        }),
        case("type null", |c| {
            set(c, &format!("{SPEC}/properties/name/type"), json!("null"))
        }),
        case("unsupported keywords", |c| {
            set(c, &format!("{SPEC}/properties/name/$ref"), json!("#/x"));
            set(c, &format!("{SPEC}/properties/name/id"), json!("x"));
            set(
                c,
                &format!("{SPEC}/properties/name/patternProperties"),
                json!({"^a": {"type": "string"}}),
            );
        }),
        case("$schema (only the structural conversion rejects it)", |c| {
            set(
                c,
                &format!("{SPEC}/properties/name/$schema"),
                json!("http://json-schema.org/schema#"),
            )
        }),
        case("items as a list", |c| {
            set(
                c,
                &format!("{SPEC}/properties/list"),
                json!({"type": "array", "items": [{"type": "string"}]}),
            )
        }),
        case("uniqueItems", |c| {
            set(
                c,
                &format!("{SPEC}/properties/list"),
                json!({"type": "array", "uniqueItems": true, "items": {"type": "string"}}),
            )
        }),
        case("properties and additionalProperties", |c| {
            set(
                c,
                &format!("{SPEC}/additionalProperties"),
                json!({"type": "string"}),
            )
        }),
        case("additionalProperties at the root", |c| {
            set(c, &format!("{SCHEMA}/properties"), Value::Null);
            set(
                c,
                &format!("{SCHEMA}/additionalProperties"),
                json!({"type": "string"}),
            );
        }),
        case("x-kubernetes-preserve-unknown-fields: false", |c| {
            set(
                c,
                &format!("{SPEC}/x-kubernetes-preserve-unknown-fields"),
                json!(false),
            )
        }),
        case("nullable root", |c| {
            set(c, &format!("{SCHEMA}/nullable"), json!(true))
        }),
        case("status subresource with a non-object root", |c| {
            set(c, "/spec/versions/0/subresources", json!({"status": {}}));
            set(c, &format!("{SCHEMA}/type"), json!("string"));
            set(c, &format!("{SCHEMA}/properties"), Value::Null);
        }),
        // Structural schema.
        case("missing types", |c| {
            set(c, &format!("{SPEC}/properties/name/type"), Value::Null);
            set(
                c,
                &format!("{SPEC}/properties/list"),
                json!({"type": "array", "items": {"maxLength": 3}}),
            );
        }),
        case("array without items", |c| {
            set(
                c,
                &format!("{SPEC}/properties/list"),
                json!({"type": "array"}),
            )
        }),
        case("root type not object", |c| {
            set(c, &format!("{SCHEMA}/type"), json!("array"))
        }),
        case("metadata beyond name and generateName", |c| {
            set(
                c,
                &format!("{SCHEMA}/properties/metadata"),
                json!({"type": "object",
                "properties": {"name": {"type": "string", "maxLength": 20}, "labels": {"type": "object"}}}),
            )
        }),
        case("metadata with name only", |c| {
            set(
                c,
                &format!("{SCHEMA}/properties/metadata"),
                json!({"type": "object",
                "properties": {"name": {"type": "string", "pattern": "^[a-z]+$"}}}),
            )
        }),
        case("kind not a string", |c| {
            set(
                c,
                &format!("{SCHEMA}/properties/kind"),
                json!({"type": "integer"}),
            )
        }),
        case("junctors with structure", |c| {
            set(
                c,
                &format!("{SPEC}/anyOf"),
                json!([
                {"type": "object", "description": "d", "nullable": true, "default": {},
                 "x-kubernetes-validations": [{"rule": "true"}],
                 "properties": {"metadata": {}, "replicas": {"minimum": 1}}},
                {"properties": {"missing": {"minimum": 1}}}]),
            )
        }),
        case("completeness of the root's junctors", |c| {
            set(
                c,
                &format!("{SCHEMA}/allOf"),
                json!([{"properties": {"nope": {"maxLength": 1}, "spec": {"properties": {"deeper": {}}}}}]),
            )
        }),
        case("invalid pattern", |c| {
            set(c, &format!("{SPEC}/properties/name/pattern"), json!("(a"))
        }),
        case("embedded resource shapes", |c| {
            set(
                c,
                &format!("{SPEC}/properties/template"),
                json!({"x-kubernetes-embedded-resource": true}),
            );
            set(
                c,
                &format!("{SPEC}/properties/other"),
                json!({"type": "object", "x-kubernetes-embedded-resource": true,
                "additionalProperties": {"type": "string"}}),
            );
        }),
        case("int-or-string shapes", |c| {
            set(
                c,
                &format!("{SPEC}/properties/a"),
                json!({"x-kubernetes-int-or-string": true,
                "anyOf": [{"type": "integer"}, {"type": "string"}]}),
            );
            set(
                c,
                &format!("{SPEC}/properties/b"),
                json!({"x-kubernetes-int-or-string": true,
                "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}, {"pattern": "^[0-9]+%?$"}]}),
            );
            set(
                c,
                &format!("{SPEC}/properties/c"),
                json!({"x-kubernetes-int-or-string": true,
                "x-kubernetes-preserve-unknown-fields": true, "x-kubernetes-embedded-resource": true}),
            );
            set(
                c,
                &format!("{SPEC}/properties/d"),
                json!({"x-kubernetes-int-or-string": true,
                "anyOf": [{"type": "integer", "minimum": 1}, {"type": "string"}]}),
            );
        }),
        case("embedded resource inside metadata", |c| {
            set(
                c,
                &format!("{SCHEMA}/properties/metadata"),
                json!({"type": "object", "x-kubernetes-embedded-resource": true,
                "x-kubernetes-preserve-unknown-fields": true}),
            )
        }),
        // List and map types.
        case("map type on a string, unsupported value", |c| {
            set(
                c,
                &format!("{SPEC}/properties/name/x-kubernetes-map-type"),
                json!("sorted"),
            )
        }),
        case("list type on an object, unsupported value", |c| {
            set(c, &format!("{SPEC}/x-kubernetes-list-type"), json!("bag"))
        }),
        case("set of granular objects", |c| {
            set(
                c,
                &format!("{SPEC}/properties/set"),
                json!({"type": "array", "x-kubernetes-list-type": "set",
                "items": {"type": "object", "nullable": true}}),
            )
        }),
        case("set of non-atomic lists", |c| {
            set(
                c,
                &format!("{SPEC}/properties/set"),
                json!({"type": "array", "x-kubernetes-list-type": "set",
                "items": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}}),
            )
        }),
        case("list map keys without map", |c| {
            set(
                c,
                &format!("{SPEC}/properties/l"),
                json!({"type": "array", "x-kubernetes-list-map-keys": ["a"],
                "items": {"type": "object", "properties": {"a": {"type": "string"}}}}),
            )
        }),
        case("map list problems", |c| {
            set(
                c,
                &format!("{SPEC}/properties/l"),
                json!({"type": "array", "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["a", "b", "a", "c"],
                "items": {"type": "object", "required": ["b"], "properties": {
                    "a": {"type": "string", "nullable": true}, "b": {"type": "object"}}}}),
            )
        }),
        case("map list of strings, without keys", |c| {
            set(
                c,
                &format!("{SPEC}/properties/l"),
                json!({"type": "array", "x-kubernetes-list-type": "map",
                "items": {"type": "string"}}),
            )
        }),
        // Rules (static checks only).
        case("rules", |c| {
            set(
                c,
                &format!("{SPEC}/x-kubernetes-validations"),
                json!([
                {"rule": "  "},
                {"rule": "self.replicas > 0", "message": " "},
                {"rule": "self.replicas > 0", "message": "a\nb"},
                {"rule": "self.replicas >\n0"},
                {"rule": "true", "messageExpression": " ", "reason": "FieldValueBad"},
                {"rule": "true", "fieldPath": " "},
                {"rule": "true", "fieldPath": ".a\n"},
                {"rule": "true", "fieldPath": ".nope"},
                {"rule": "true", "fieldPath": ".name", "reason": "FieldValueForbidden"}]),
            )
        }),
        // Defaults.
        case("defaults", |c| {
            set(c, &format!("{SPEC}/properties/replicas/default"), json!(11));
            set(
                c,
                &format!("{SPEC}/default"),
                json!({"name": "x", "extra": 1}),
            );
            set(c, &format!("{SPEC}/properties/name/default"), json!(5));
        }),
        case("default in top-level metadata", |c| {
            set(
                c,
                &format!("{SCHEMA}/properties/metadata"),
                json!({"type": "object", "default": {"name": "x"}}),
            )
        }),
        case("default of embedded metadata", |c| {
            set(
                c,
                &format!("{SPEC}/properties/template"),
                json!({"type": "object", "x-kubernetes-embedded-resource": true,
                "properties": {"metadata": {"type": "object", "properties": {"name": {"type": "string", "default": "a/b"}}}}}),
            )
        }),
        case("default of an embedded resource", |c| {
            set(
                c,
                &format!("{SPEC}/properties/template"),
                json!({"type": "object", "x-kubernetes-embedded-resource": true,
                "x-kubernetes-preserve-unknown-fields": true, "default": {"apiVersion": "v1", "kind": 5}}),
            )
        }),
        // Subresources, columns, selectable fields.
        case("scale paths", |c| {
            set(
                c,
                "/spec/versions/0/subresources",
                json!({"scale": {"specReplicasPath": "spec.replicas",
                "statusReplicasPath": ".spec.replicas", "labelSelectorPath": ".selector"}}),
            )
        }),
        case("scale paths missing", |c| {
            set(c, "/spec/versions/0/subresources", json!({"scale": {}}))
        }),
        case("printer columns", |c| {
            set(
                c,
                "/spec/versions/0/additionalPrinterColumns",
                json!([
                {"name": "", "type": "", "jsonPath": ""},
                {"name": "a", "type": "int", "format": "uuid", "jsonPath": "spec.x"}]),
            )
        }),
        case("selectable fields", |c| {
            set(
                c,
                "/spec/versions/0/selectableFields",
                json!([
                {"jsonPath": ".spec.replicas"}, {"jsonPath": ".spec.replicas"}, {"jsonPath": ".metadata.name"},
                {"jsonPath": ".spec"}, {"jsonPath": "spec"}, {"jsonPath": ".spec['name']"}, {"jsonPath": ""}]),
            )
        }),
        case("too many selectable fields", |c| {
            let props: serde_json::Map<String, Value> = (0..9)
                .map(|i| (format!("f{i}"), json!({"type": "string"})))
                .collect();
            set(c, &format!("{SPEC}/properties"), Value::Object(props));
            let fields: Vec<Value> = (0..9)
                .map(|i| json!({"jsonPath": format!(".spec.f{i}")}))
                .collect();
            set(c, "/spec/versions/0/selectableFields", Value::Array(fields));
        }),
        case(
            "identical selectable fields, different schemas (the server moves the fields to the spec)",
            |c| {
                let mut v = c["spec"]["versions"][0].clone();
                v["name"] = json!("v2");
                v["storage"] = json!(false);
                v["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["name"]["maxLength"] =
                    json!(5);
                set(c, "/spec/versions/1", v);
                for i in 0..2 {
                    set(
                        c,
                        &format!("/spec/versions/{i}/selectableFields"),
                        json!([{"jsonPath": ".spec.name"}]),
                    );
                }
            },
        ),
        case(
            "identical schemas, different selectable fields (the server moves the schema to the spec)",
            |c| {
                let mut v = c["spec"]["versions"][0].clone();
                v["name"] = json!("v2");
                v["storage"] = json!(false);
                set(c, "/spec/versions/1", v);
                set(
                    c,
                    "/spec/versions/1/selectableFields",
                    json!([{"jsonPath": ".spec.name"}]),
                );
            },
        ),
        // Conversion.
        case("webhook conversion without client config", |c| {
            set(
                c,
                "/spec/conversion",
                json!({"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"]}}),
            )
        }),
        case("webhook URL", |c| {
            set(
                c,
                "/spec/conversion",
                json!({"strategy": "Webhook", "webhook": {
                "clientConfig": {"url": "http://user@/convert?x=1#f"}, "conversionReviewVersions": ["v2", "v2", "V3"]}}),
            )
        }),
        case("webhook service", |c| {
            set(
                c,
                "/spec/conversion",
                json!({"strategy": "Webhook", "webhook": {
                "clientConfig": {"service": {"name": "", "namespace": "ns", "port": 0, "path": "convert//X"}},
                "conversionReviewVersions": []}}),
            )
        }),
        case("webhook fields with strategy None", |c| {
            set(
                c,
                "/spec/conversion",
                json!({"strategy": "None", "webhook": {
                "clientConfig": {"url": "https://x"}, "conversionReviewVersions": ["v1"]}}),
            )
        }),
        case("unsupported strategy", |c| {
            set(c, "/spec/conversion", json!({"strategy": "Magic"}))
        }),
        // Warnings.
        case("unrecognized format", |c| {
            set(
                c,
                &format!("{SPEC}/properties/name/format"),
                json!("colour"),
            );
            set(
                c,
                &format!("{SPEC}/properties/replicas/format"),
                json!("int32"),
            );
        }),
        // Other apiextensions versions.
        case("v1beta1", |c| {
            set(c, "/apiVersion", json!("apiextensions.k8s.io/v1beta1"))
        }),
    ]
}

#[test]
fn checks() {
    let mut out = String::new();
    for (name, change) in cases() {
        let mut crd = base();
        change(&mut crd);
        let _ = writeln!(out, "## {name}\n{}", lint(&crd));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn the_api_servers_message_for_a_rejected_crd() {
    let mut crd = base();
    set(
        &mut crd,
        &format!("{SPEC}/properties/name/type"),
        json!("strign"),
    );
    set(&mut crd, "/spec/versions/0/storage", json!(false));
    let findings = validate_crd(&crd);
    assert_eq!(
        findings.rejection_message("widgets.example.com").as_deref(),
        Some(
            "CustomResourceDefinition.apiextensions.k8s.io \"widgets.example.com\" is invalid: [spec.versions: Invalid value: [{\"Name\":\"v1\",\"Served\":true,\"Storage\":false,\"Deprecated\":false,\"DeprecationWarning\":null,\"Schema\":null,\"Subresources\":null,\"AdditionalPrinterColumns\":null,\"SelectableFields\":null}]: must have exactly one version marked as storage version, spec.validation.openAPIV3Schema.properties[spec].properties[name].type: Unsupported value: \"strign\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\", status.storedVersions: Invalid value: null: must have at least one stored version]"
        )
    );
    assert!(validate_crd(&base()).rejection_message("x").is_none());
}

/// kubectl-validate's `error_crd_typo` case: its expected Status message, from the API
/// server, is this error.
#[test]
fn kubectl_validate_error_crd_typo() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/kubectl-validate/testcases/manifests/error_crd_typo.yaml"
    );
    let bytes = std::fs::read(path).expect("the kubectl-validate test data");
    let stream = lint_crds("error_crd_typo.yaml", &bytes, 35);
    let crd = &stream.crds[0];
    assert_eq!(
        crd.findings.rejection_message(&crd.name).as_deref(),
        Some(
            "CustomResourceDefinition.apiextensions.k8s.io \"customresourcedefinitions.apiextensions.k8s.io\" is invalid: spec.validation.openAPIV3Schema.properties[spec].properties[message].type: Unsupported value: \"strign\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\""
        )
    );
    // The schema node of the typo.
    assert_eq!((crd.located[0].line, crd.located[0].column), (40, 25));
}

/// Every CRD kubectl-validate's tests load, and the CLI's fixtures, is accepted.
#[test]
fn test_data_crds_lint_clean() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let dirs = [
        "testdata/kubectl-validate/testcases/crds",
        "testdata/kubectl-validate/testcases/more-crds",
        "testdata/cli-workload/crds",
        "crates/kdv-cli/tests/fixtures/schemas/crds",
    ];
    let mut checked = 0;
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(format!("{root}/{dir}")) else {
            panic!("missing test data {dir}");
        };
        let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        for file in files {
            let bytes = std::fs::read(&file).expect("readable");
            let name = file.display().to_string();
            let stream = lint_crds(&name, &bytes, 35);
            assert!(
                stream.unreadable.is_empty(),
                "{name}: {:?}",
                stream.unreadable
            );
            for crd in &stream.crds {
                assert!(
                    crd.located.is_empty(),
                    "{name} {}: {:#?}",
                    crd.name,
                    crd.located
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 12);
}

/// Every value of a CRD replaced, one at a time, by values of other types (and removed):
/// the checks never panic, and a CRD either decodes or says why.
#[test]
fn any_value_anywhere_is_handled() {
    fn paths(v: &Value, at: String, out: &mut Vec<String>) {
        out.push(at.clone());
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    paths(x, format!("{at}/{k}"), out);
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    paths(x, format!("{at}/{i}"), out);
                }
            }
            _ => {}
        }
    }
    let mut crd = base();
    set(
        &mut crd,
        &format!("{SPEC}/properties/replicas/default"),
        json!(3),
    );
    set(
        &mut crd,
        &format!("{SPEC}/x-kubernetes-validations"),
        json!([{"rule": "true", "fieldPath": ".name"}]),
    );
    set(
        &mut crd,
        "/spec/versions/0/subresources",
        json!({"status": {}, "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}}),
    );
    set(
        &mut crd,
        "/spec/conversion",
        json!({"strategy": "Webhook", "webhook": {"clientConfig": {"service": {"name": "s", "namespace": "n"}}, "conversionReviewVersions": ["v1"]}}),
    );
    let mut all = Vec::new();
    paths(&crd, String::new(), &mut all);
    let replacements = [
        Value::Null,
        json!(7),
        json!(-1.5),
        json!("x"),
        json!(true),
        json!([]),
        json!([{}]),
        json!({}),
        json!({"type": "object"}),
    ];
    let mut checked = 0;
    for p in all.iter().filter(|p| !p.is_empty()) {
        for r in &replacements {
            let mut c = crd.clone();
            let Some(slot) = c.pointer_mut(p) else {
                continue;
            };
            *slot = r.clone();
            let f = validate_crd(&c);
            if let Some(d) = &f.decode_error {
                assert!(!d.message.is_empty(), "{p} = {r}");
            }
            let text = serde_json::to_string_pretty(&c).expect("serializes");
            let _ = lint_crds("crd.json", text.as_bytes(), 37);
            checked += 1;
        }
    }
    assert!(checked > 400, "{checked}");
}
