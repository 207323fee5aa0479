//! Unit tests of the mapping, one per tag family: which keyword or CEL rule each tag
//! becomes, and which become notes.

mod common;

use std::collections::BTreeMap;

use common::*;
use kdv_schema::{EmitOptions, emit};
use serde_json::{Value, json};

const HEAD: &str = "// +k8s:validation-gen=*\n// +groupName=t.kdv.dev\npackage v1\n\n";

fn emit_of(body: &str, ty: &str, options: &[(&str, bool)]) -> (Value, Vec<String>) {
    let rules = rules_of(&format!("{HEAD}{body}"));
    let opts = EmitOptions {
        options: options
            .iter()
            .map(|(k, v)| (k.to_string(), *v))
            .collect::<BTreeMap<_, _>>(),
        subresource: None,
    };
    let e = emit(&rules, common::ty(&rules, ty), &opts);
    (e.schema, e.notes.iter().map(|n| n.to_string()).collect())
}

fn rules(v: &Value) -> Vec<String> {
    v["x-kubernetes-validations"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|r| r["rule"].as_str().unwrap().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn limits_become_keywords_and_max_bytes_cel() {
    let (s, notes) = emit_of(
        "type T struct {\n\
         // +k8s:required\n// +k8s:minimum=1\n// +k8s:maximum=9\n\tN *int32 `json:\"n\"`\n\
         // +k8s:optional\n// +k8s:minLength=2\n// +k8s:maxLength=5\n\tS *string `json:\"s,omitempty\"`\n\
         // +k8s:optional\n// +k8s:maxBytes=8\n// +k8s:maxLength=8\n\tB *string `json:\"b,omitempty\"`\n\
         // +k8s:optional\n// +k8s:minItems=1\n// +k8s:maxItems=3\n\tL []string `json:\"l,omitempty\"`\n\
         // +k8s:optional\n// +k8s:minProperties=1\n// +k8s:maxProperties=3\n\tM map[string]string `json:\"m,omitempty\"`\n}\n",
        "T",
        &[],
    );
    assert!(notes.is_empty(), "{notes:?}");
    let p = &s["properties"];
    assert_eq!(
        p["n"],
        json!({"type": "integer", "format": "int32", "minimum": 1, "maximum": 9})
    );
    assert_eq!(
        p["s"],
        json!({"type": "string", "minLength": 2, "maxLength": 5})
    );
    assert_eq!(rules(&p["b"]), ["size(bytes(self)) <= 8"]);
    assert_eq!(
        p["b"]["x-kubernetes-validations"][0]["message"],
        "may not be more than 8 bytes"
    );
    // An optional list or map: the tags skip an empty one, so the lower bound allows it.
    assert_eq!(rules(&p["l"]), ["size(self) == 0 || size(self) >= 1"]);
    assert_eq!(p["l"]["maxItems"], 3);
    assert_eq!(rules(&p["m"]), ["size(self) == 0 || size(self) >= 1"]);
    assert_eq!(p["m"]["maxProperties"], 3);
    assert_eq!(s["required"], json!(["n"]));
}

#[test]
fn optional_values_accept_their_zero_value() {
    let (s, _) = emit_of(
        "type T struct {\n\
         // +k8s:optional\n// +k8s:minimum=1\n\tN int32 `json:\"n,omitempty\"`\n\
         // +k8s:optional\n// +k8s:minLength=2\n\tS string `json:\"s,omitempty\"`\n\
         // +k8s:optional\n// +k8s:minItems=2\n\tL []string `json:\"l,omitempty\"`\n\
         // +k8s:optional\n// +k8s:maximum=9\n\tM int32 `json:\"m,omitempty\"`\n}\n",
        "T",
        &[],
    );
    let p = &s["properties"];
    assert_eq!(rules(&p["n"]), ["self == 0 || self >= 1"]);
    assert_eq!(rules(&p["s"]), ["self == \"\" || size(self) >= 2"]);
    assert_eq!(rules(&p["l"]), ["size(self) == 0 || size(self) >= 2"]);
    // The zero value passes `maximum` anyway: a keyword.
    assert_eq!(p["m"]["maximum"], 9);
}

#[test]
fn required_values_reject_their_zero_value() {
    let (s, _) = emit_of(
        "type T struct {\n\
         // +k8s:required\n\tS string `json:\"s\"`\n\
         // +k8s:required\n\tN int64 `json:\"n\"`\n\
         // +k8s:required\n\tB bool `json:\"b\"`\n\
         // +k8s:required\n\tL []string `json:\"l\"`\n\
         // +k8s:required\n\tP *string `json:\"p\"`\n}\n",
        "T",
        &[],
    );
    let p = &s["properties"];
    assert_eq!(s["required"], json!(["b", "l", "n", "p", "s"]));
    assert_eq!(p["s"]["minLength"], 1);
    assert_eq!(rules(&p["n"]), ["self != 0"]);
    assert_eq!(rules(&p["b"]), ["self"]);
    assert_eq!(p["l"]["minItems"], 1);
    assert_eq!(p["p"], json!({"type": "string"}));
}

#[test]
fn forbidden_is_a_rule_on_the_struct() {
    let (s, _) = emit_of(
        "type T struct {\n// +k8s:optional\n// +k8s:forbidden\n\tX string `json:\"x,omitempty\"`\n}\n",
        "T",
        &[],
    );
    assert_eq!(rules(&s), ["!(has(self.x) && self.x != \"\")"]);
    assert_eq!(s["x-kubernetes-validations"][0]["fieldPath"], ".x");
    assert_eq!(
        s["x-kubernetes-validations"][0]["reason"],
        "FieldValueForbidden"
    );
}

#[test]
fn enums_list_members_minus_exclusions() {
    let body = "type T struct {\n// +k8s:required\n\tM Mode `json:\"m\"`\n}\n\n\
        // +k8s:enum\ntype Mode string\n\nconst (\n\
        \tA Mode = \"A\"\n\
        \t// +k8s:enumExclude\n\tB Mode = \"B\"\n\
        \t// +k8s:ifEnabled(NoC)=+k8s:enumExclude\n\tC Mode = \"C\"\n)\n";
    let (s, notes) = emit_of(body, "T", &[]);
    assert_eq!(s["properties"]["m"]["enum"], json!(["A", "C"]));
    assert_eq!(notes.len(), 1);
    assert!(
        notes[0].contains("enum value \"C\" is excluded depending on the option `NoC`"),
        "{notes:?}"
    );
    let (s, notes) = emit_of(body, "T", &[("NoC", true)]);
    assert_eq!(s["properties"]["m"]["enum"], json!(["A"]));
    assert!(notes.is_empty());
}

#[test]
fn formats_use_the_cel_format_library_with_their_length_bound() {
    let (s, notes) = emit_of(
        "type T struct {\n\
         // +k8s:optional\n// +k8s:format=k8s-short-name\n\tA *string `json:\"a,omitempty\"`\n\
         // +k8s:optional\n// +k8s:format=k8s-long-name\n\tB *string `json:\"b,omitempty\"`\n\
         // +k8s:optional\n// +k8s:format=k8s-label-key\n\tC *string `json:\"c,omitempty\"`\n\
         // +k8s:optional\n// +k8s:format=k8s-label-value\n\tD *string `json:\"d,omitempty\"`\n\
         // +k8s:optional\n// +k8s:format=k8s-uuid\n\tE *string `json:\"e,omitempty\"`\n\
         // +k8s:optional\n// +k8s:format=k8s-extended-resource-name\n\tF *string `json:\"f,omitempty\"`\n}\n",
        "T",
        &[],
    );
    let p = &s["properties"];
    assert_eq!(
        rules(&p["a"]),
        ["!format.dns1123Label().validate(self).hasValue()"]
    );
    assert_eq!(p["a"]["maxLength"], 63);
    assert_eq!(
        rules(&p["b"]),
        ["!format.dns1123Subdomain().validate(self).hasValue()"]
    );
    assert_eq!(p["b"]["maxLength"], 253);
    assert_eq!(
        rules(&p["c"]),
        ["!format.qualifiedName().validate(self).hasValue()"]
    );
    assert_eq!(
        rules(&p["d"]),
        ["!format.labelValue().validate(self).hasValue()"]
    );
    assert_eq!(p["e"]["maxLength"], 36);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].contains("f: +k8s:format: format k8s-extended-resource-name"),
        "{notes:?}"
    );
}

#[test]
fn list_types_and_map_keys() {
    let (s, _) = emit_of(
        "type T struct {\n\
         // +k8s:optional\n// +k8s:listType=map\n// +k8s:listMapKey=name\n// +k8s:maxItems=4\n\tI []Item `json:\"i,omitempty\"`\n\
         // +k8s:optional\n// +k8s:listType=set\n\tS []string `json:\"s,omitempty\"`\n}\n\n\
         type Item struct {\n\tName string `json:\"name\"`\n\tV int32 `json:\"v\"`\n}\n",
        "T",
        &[],
    );
    let p = &s["properties"];
    assert_eq!(p["i"]["x-kubernetes-list-type"], "map");
    assert_eq!(p["i"]["x-kubernetes-list-map-keys"], json!(["name"]));
    assert_eq!(p["i"]["items"]["required"], json!(["name"]));
    assert_eq!(p["s"]["x-kubernetes-list-type"], "set");
}

#[test]
fn immutable_and_update_constraints_are_transition_rules_on_the_struct() {
    let (s, _) = emit_of(
        "type T struct {\n\
         // +k8s:optional\n// +k8s:immutable\n\tA string `json:\"a,omitempty\"`\n\
         // +k8s:optional\n// +k8s:update=NoSet\n\tB *int32 `json:\"b,omitempty\"`\n\
         // +k8s:optional\n// +k8s:monotonic\n\tC int64 `json:\"c,omitempty\"`\n}\n",
        "T",
        &[],
    );
    assert_eq!(
        rules(&s),
        [
            "(has(self.a) ? self.a : \"\") == (has(oldSelf.a) ? oldSelf.a : \"\")",
            "has(oldSelf.b) || !has(self.b)",
        ]
    );
    assert_eq!(
        s["x-kubernetes-validations"][0]["message"],
        "field is immutable"
    );
    assert_eq!(
        s["x-kubernetes-validations"][1]["message"],
        "field cannot be set once created"
    );
    assert_eq!(rules(&s["properties"]["c"]), ["self >= oldSelf"]);
}

#[test]
fn unions_and_dependencies() {
    let (s, _) = emit_of(
        "type T struct {\n\
         // +k8s:optional\n// +k8s:unionMember\n\tA *string `json:\"a,omitempty\"`\n\
         // +k8s:optional\n// +k8s:unionMember\n\tB *string `json:\"b,omitempty\"`\n\
         // +k8s:optional\n// +k8s:dependentRequired(\"d\")\n\tC string `json:\"c,omitempty\"`\n\
         // +k8s:optional\n\tD string `json:\"d,omitempty\"`\n}\n",
        "T",
        &[],
    );
    let r = rules(&s);
    assert!(
        r.contains(&"(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) == 1".to_owned()),
        "{r:?}"
    );
    assert!(
        r.contains(
            &"!(has(self.c) && self.c != \"\") || (has(self.d) && self.d != \"\")".to_owned()
        ),
        "{r:?}"
    );
}

#[test]
fn each_key_item_and_subfield() {
    let (s, notes) = emit_of(
        "type T struct {\n\
         // +k8s:optional\n// +k8s:maxProperties=4\n// +k8s:eachKey=+k8s:maxLength=3\n\tM map[string]string `json:\"m,omitempty\"`\n\
         // +k8s:optional\n// +k8s:listType=map\n// +k8s:listMapKey=name\n// +k8s:maxItems=4\n\
         // +k8s:item(name: \"x\")=+k8s:subfield(v)=+k8s:maximum=7\n\tI []Item `json:\"i,omitempty\"`\n\
         // +k8s:optional\n// +k8s:subfield(v)=+k8s:minimum=2\n\tS *Item `json:\"s,omitempty\"`\n}\n\n\
         type Item struct {\n// +k8s:required\n\tName string `json:\"name\"`\n\tV int32 `json:\"v\"`\n}\n",
        "T",
        &[],
    );
    assert!(notes.is_empty(), "{notes:?}");
    let p = &s["properties"];
    assert_eq!(rules(&p["m"]), ["self.all(k, size(k) <= 3)"]);
    assert_eq!(
        rules(&p["i"]),
        ["self.all(i, !(has(i.name) && i.name == \"x\") || (!has(i.v) || i.v <= 7))"]
    );
    assert_eq!(p["s"]["properties"]["v"]["minimum"], 2);
}

#[test]
fn options_fix_or_note_the_rules_under_them() {
    let body = "type T struct {\n// +k8s:optional\n// +k8s:ifEnabled(G)=+k8s:maxLength=3\n\tS *string `json:\"s,omitempty\"`\n}\n";
    let (s, notes) = emit_of(body, "T", &[]);
    assert_eq!(s["properties"]["s"], json!({"type": "string"}));
    assert!(notes[0].contains("depends on the option `G`"), "{notes:?}");
    let (s, _) = emit_of(body, "T", &[("G", true)]);
    assert_eq!(s["properties"]["s"]["maxLength"], 3);
    let (s, notes) = emit_of(body, "T", &[("G", false)]);
    assert_eq!(s["properties"]["s"], json!({"type": "string"}));
    assert!(notes.is_empty());
}

#[test]
fn custom_and_testing_tags_are_notes() {
    let (_, notes) = emit_of(
        "type T struct {\n\
         // +k8s:optional\n// +k8s:customValidation\n\tA string `json:\"a,omitempty\"`\n\
         // +k8s:optional\n// +k8s:validateFalse=\"never\"\n\tB string `json:\"b,omitempty\"`\n}\n",
        "T",
        &[],
    );
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0].contains("+k8s:customValidation: custom validation: ValidateCustom_T_A is code"),
        "{notes:?}"
    );
    assert!(
        notes[1].contains("+k8s:validateFalse: a testing tag"),
        "{notes:?}"
    );
}

#[test]
fn structure_embedded_maps_any_and_recursion() {
    let (s, notes) = emit_of(
        "type T struct {\n\
         \tBase `json:\",inline\"`\n\
         \tM map[string]int64 `json:\"m,omitempty\"`\n\
         \tX interface{} `json:\"x,omitempty\"`\n\
         \tF float64 `json:\"f,omitempty\"`\n\
         \tU uint8 `json:\"u,omitempty\"`\n\
         \tR *T `json:\"r,omitempty\"`\n\
         \tSkip string `json:\"-\"`\n}\n\n\
         type Base struct {\n\tName string `json:\"name,omitempty\"`\n}\n",
        "T",
        &[],
    );
    let p = &s["properties"];
    assert_eq!(p["name"], json!({"type": "string"}));
    assert_eq!(
        p["m"],
        json!({"type": "object", "additionalProperties": {"type": "integer", "format": "int64"}})
    );
    assert_eq!(
        p["x"],
        json!({"x-kubernetes-preserve-unknown-fields": true})
    );
    assert_eq!(p["f"], json!({"type": "number"}));
    assert_eq!(
        p["u"],
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
    assert_eq!(
        p["r"],
        json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
    );
    assert!(p.get("Skip").is_none() && p.get("skip").is_none());
    assert!(notes[0].starts_with("r: recursive type T"), "{notes:?}");
}
