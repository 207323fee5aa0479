//! CRD rules compiled in the CEL environment of the Kubernetes release: the write-time checks
//! (`validate_crd_for`, `lint_crds`) in the release's NewExpressions environment (its
//! compatibility version is the release before), objects (`Resource`, `SchemaSet`) in its
//! StoredExpressions environment. Introductions from k8s.io/apiserver
//! `pkg/cel/environment/base.go` (v0.30.14 ... v0.36.3) and the cel-go versions the releases
//! vendor.

use kdv_openapi::crd_validation::validate_crd_for;
use kdv_openapi::{Options, Resource, SchemaSet};
use serde_json::{Value, json};

/// A CRD whose `spec` has the property `field` of schema `prop` carrying `rule`.
fn crd(field: &str, prop: Value, rule: &str) -> Value {
    let mut prop = prop;
    prop["x-kubernetes-validations"] = json!([{"rule": rule}]);
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
                    "properties": {"spec": {"type": "object", "properties": {field: prop}}}
                }}
            }]
        }
    })
}

fn string() -> Value {
    json!({"type": "string", "maxLength": 64})
}

fn strings() -> Value {
    json!({"type": "array", "maxItems": 8, "items": {"type": "string", "maxLength": 64}})
}

/// The errors of creating `crd` on Kubernetes 1.`minor`.
fn create_errors(minor: u32, crd: &Value) -> Vec<String> {
    validate_crd_for(crd, minor)
        .errors
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// The first release (1.30 to 1.36) whose API server accepts creating `crd`; asserts that
/// every later one does too and that each earlier one reports `undeclared`.
fn accepted_from(crd: &Value, undeclared: &str) -> u32 {
    let first = (30..=36).find(|&m| create_errors(m, crd).is_empty());
    let first = first.unwrap_or_else(|| panic!("never accepted: {:?}", create_errors(36, crd)));
    for m in 30..=36 {
        let errs = create_errors(m, crd);
        if m < first {
            assert!(
                errs.iter().any(|e| e.contains(undeclared)),
                "1.{m}: {errs:?}"
            );
        } else {
            assert!(errs.is_empty(), "1.{m}: {errs:?}");
        }
    }
    first
}

const UNDECLARED: &str = "undeclared reference to";

/// A library introduced at 1.N in `base.go` may be used in a CRD created on 1.(N+1): the
/// NewExpressions environment of a release is that of its compatibility version, 1.(N−1).
#[test]
fn libraries_are_accepted_one_release_after_their_introduction() {
    let cases = [
        ("ip", string(), "isIP(self) && ip(self).family() == 4", 31),
        ("cidr", string(), "cidr(self).prefixLength() <= 32", 31),
        (
            "name",
            string(),
            "!format.dns1123Label().validate(self).hasValue()",
            32,
        ),
        ("names", strings(), "self.all(i, v, v != '')", 33),
        ("version", string(), "isSemver(self, true)", 34),
        ("names", strings(), "self.sort() == self", 35),
        (
            "names",
            strings(),
            "lists.range(2) == [0, 1] && size(self) >= 0",
            35,
        ),
    ];
    for (field, prop, rule, want) in cases {
        assert_eq!(
            accepted_from(&crd(field, prop, rule), UNDECLARED),
            want,
            "{rule}"
        );
    }
}

/// What comes with the cel-go version a release vendors is in both environment types at once.
#[test]
fn cel_go_features_come_with_the_release() {
    let first = crd(
        "names",
        strings(),
        "!self.first().hasValue() || self[0] != ''",
    );
    assert_eq!(accepted_from(&first, UNDECLARED), 33);
    let exists_one = crd(
        "names",
        strings(),
        "size(self) == 0 || self.existsOne(x, x == self[0])",
    );
    assert_eq!(accepted_from(&exists_one, UNDECLARED), 33);
    // The format-string validator (cel-go v0.18, Kubernetes 1.31) refuses what 1.30 took.
    let format = crd("name", string(), "'%d'.format([self]) != ''");
    assert!(create_errors(30, &format).is_empty());
    let errs = create_errors(31, &format);
    assert!(
        errs.iter().any(|e| e.contains("error during formatting")),
        "{errs:?}"
    );
}

/// The server's exact error for a library the release may not use yet.
#[test]
fn refusal_text() {
    let c = crd("ip", string(), "isIP(self)");
    assert_eq!(
        create_errors(30, &c),
        [
            "spec.validation.openAPIV3Schema.properties[spec].properties[ip].x-kubernetes-validations[0].rule: \
             Invalid value: {\"Rule\":\"isIP(self)\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\
             \"FieldPath\":\"\",\"OptionalOldSelf\":null}: compilation failed: ERROR: <input>:1:5: undeclared reference to 'isIP' \
             (in container '')\n | isIP(self)\n | ....^"
        ]
    );
}

/// `self.namespace` selects the property `namespace` (a CEL reserved word) once the
/// environment recognises keyword field names: compatibility version 1.31, so CRDs created on
/// 1.32; objects of a 1.31 cluster already.
#[test]
fn keyword_field_names_from_compatibility_version_1_31() {
    let c = crd(
        "meta",
        json!({"type": "object", "properties": {"namespace": string()}}),
        "self.namespace != ''",
    );
    assert_eq!(accepted_from(&c, "undefined field 'namespace'"), 32);
    let schema = &c["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
    let object = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w"}, "spec": {"meta": {"namespace": ""}}});
    let at = |minor| {
        let r = Resource::from_crd_schema("example.com", "v1", "Widget", schema, minor)
            .expect("structural");
        r.validate(&object, None, &Options::default())
            .errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        at(31),
        ["spec.meta: Invalid value: \"object\": failed rule: self.namespace != ''"]
    );
    let errs = at(30);
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0].contains("rule compile error: compilation failed")
            && errs[0].contains("undefined field 'namespace'"),
        "{errs:?}"
    );
}

/// Objects are validated in the StoredExpressions environment: a 1.30 cluster runs IP rules
/// (a CRD created on 1.31 and rolled back), but not format rules (1.31).
#[test]
fn objects_use_the_stored_environment() {
    let object = |ip: &str| {
        json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
            "spec": {"ip": ip, "name": "a"}})
    };
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "ip": {"type": "string", "maxLength": 64, "x-kubernetes-validations": [{"rule": "isIP(self)"}]},
        "name": {"type": "string", "maxLength": 64, "x-kubernetes-validations": [
            {"rule": "!format.dns1123Label().validate(self).hasValue()"}]},
    }}}});
    let errors = |minor, ip| {
        Resource::from_crd_schema("example.com", "v1", "Widget", &schema, minor)
            .expect("structural")
            .validate(&object(ip), None, &Options::default())
            .errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        errors(30, "10.0.0.1"),
        [
            "spec.name: Invalid value: \"string\": rule compile error: compilation failed: \
          ERROR: <input>:1:2: undeclared reference to 'format' (in container '')\n \
          | !format.dns1123Label().validate(self).hasValue()\n \
          | .^\nERROR: <input>:1:21: undeclared reference to 'dns1123Label' (in container '')\n \
          | !format.dns1123Label().validate(self).hasValue()\n \
          | ....................^\nERROR: <input>:1:32: undeclared reference to 'validate' (in container '')\n \
          | !format.dns1123Label().validate(self).hasValue()\n \
          | ...............................^"
        ]
    );
    assert!(errors(31, "10.0.0.1").is_empty());
    assert_eq!(
        errors(31, "nope"),
        ["spec.ip: Invalid value: \"string\": failed rule: isIP(self)"]
    );
}

/// `SchemaSet` compiles the CRDs it takes for its release: creation in NewExpressions (a CRD
/// the server would refuse is refused), objects in StoredExpressions. Newest by default.
#[test]
fn schema_set_follows_its_release() {
    let c = crd("ip", string(), "isIP(self)");
    let text = serde_json::to_string(&c).expect("serializes");
    let mut set = SchemaSet::new();
    set.set_kubernetes_minor(30);
    let err = set
        .add_crds("crd.json", text.as_bytes())
        .expect_err("1.30 refuses");
    assert!(
        err.message.contains("undeclared reference to 'isIP'"),
        "{}",
        err.message
    );
    set.set_kubernetes_minor(31);
    assert_eq!(
        set.add_crds("crd.json", text.as_bytes())
            .expect("1.31 takes it"),
        1
    );
    assert_eq!(
        SchemaSet::new()
            .add_crds("crd.json", text.as_bytes())
            .expect("default"),
        1
    );
    let widget = set
        .resource("example.com/v1", "Widget")
        .expect("registered");
    let object = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w"}, "spec": {"ip": "nope"}});
    let errs: Vec<String> = widget
        .validate(&object, None, &Options::default())
        .errors
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errs,
        ["spec.ip: Invalid value: \"string\": failed rule: isIP(self)"]
    );
}

/// 1.37 (as of its beta) versions Kubernetes' lists library: `includes` runs on objects of a
/// 1.37 cluster, but a CRD created on 1.37 may not add it yet (compatibility version 1.36).
#[test]
fn lists_v1_in_1_37() {
    let c = crd("names", strings(), "!self.includes('')");
    let errs = create_errors(37, &c);
    assert!(
        errs.len() == 1 && errs[0].contains("undeclared reference to 'includes'"),
        "{errs:?}"
    );
    // A newer release's compatibility version is 1.37 or later.
    assert!(create_errors(38, &c).is_empty());
}

/// The static cost estimator is the release's: equality of Kubernetes' types got a price in
/// 1.32 (before, cel-go's by unknown size, far over the limit), the parsing functions called
/// globally (`quantity(s)`) in 1.34 (before, cel-go's nominal 1).
#[test]
fn cost_estimates_follow_the_release() {
    let eq = crd("size", string(), "quantity(self) == quantity('1Gi')");
    let errs = create_errors(31, &eq);
    assert!(
        errs.iter()
            .any(|e| e.contains("estimated rule cost exceeds budget by factor of more than 100x")),
        "{errs:?}"
    );
    assert!(create_errors(32, &eq).is_empty());
    // 4,000 unbounded strings parsed: within the limit while the call costs 1, over it once
    // priced by the string's size.
    let parse = crd(
        "sizes",
        json!({"type": "array", "maxItems": 4000, "items": {"type": "string"}}),
        "self.all(s, isQuantity(s))",
    );
    assert!(
        create_errors(33, &parse).is_empty(),
        "{:?}",
        create_errors(33, &parse)
    );
    let errs = create_errors(34, &parse);
    assert!(
        errs.iter()
            .any(|e| e.contains("estimated rule cost exceeds budget")),
        "{errs:?}"
    );
}
