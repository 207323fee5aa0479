//! Compile tests: Go sources through `kdv-go`, then the IR and diagnostics.

use std::path::PathBuf;

use crate::*;

/// Compiles one Go file as package `example.com/p` (package name from the source).
pub(crate) fn compile_go(src: &str) -> Compiled {
    let (pkg, diags) = kdv_go::load_sources(
        "example.com/p",
        &[(PathBuf::from("types.go"), src.to_string())],
    );
    assert!(diags.is_empty(), "Go parse diagnostics: {diags:?}");
    let mut universe = Universe::default();
    universe.packages.insert(pkg.path.clone(), pkg);
    compile(&universe)
}

fn messages(c: &Compiled) -> Vec<String> {
    c.diagnostics.iter().map(|d| d.message.clone()).collect()
}

fn field<'a>(c: &'a Compiled, ty: &str, json: &str) -> &'a FieldRules {
    let id = c.rules.find_type(ty).expect("type");
    c.rules
        .type_rules(id)
        .fields
        .iter()
        .find(|f| f.json_name == json)
        .expect("field")
}

#[test]
fn minimum_and_optional_lower_in_cohort_order() {
    let c = compile_go(
        r#"
// +k8s:validation-gen=*
package p

type T struct {
	// +k8s:minimum=1
	// +k8s:optional
	A int `json:"a"`
}
"#,
    );
    assert!(c.diagnostics.is_empty(), "{:?}", messages(&c));
    let f = field(&c, "T", "a");
    let calls: Vec<&Check> = f.validations.iter().map(|v| &v.check).collect();
    assert_eq!(
        calls,
        vec![&Check::Optional(Presence::Value), &Check::Minimum(1)]
    );
    assert_eq!(f.equality, Equality::Direct);
    let roots: Vec<RootInfo> = c.rules.roots().collect();
    assert_eq!(roots.len(), 1);
    assert_eq!(roots[0].version, "p");
    assert_eq!(c.rules.root_for_kind("p", "T"), Some(roots[0].id));
}

#[test]
fn tag_errors_point_at_the_tag() {
    let c = compile_go(
        r#"package p

type T struct {
	// +k8s:minimum=x
	A int `json:"a"`
	// +k8s:maxLength=3
	B int `json:"b"`
	// +k8s:eachVal=+k8s:setByServer
	C []int `json:"c"`
}
"#,
    );
    let m = messages(&c);
    assert_eq!(
        m,
        vec![
            "tag \"k8s:minimum\": tag value has wrong type: got string, want int",
            "tag \"k8s:maxLength\": can only be used on string types (int)",
            "tag \"k8s:eachVal\": unknown tag \"k8s:setByServer\"",
        ]
    );
    // A payload of the wrong type points at the payload.
    let span = c.diagnostics[0].span.as_ref().expect("span");
    assert_eq!((span.line, span.col, span.len), (4, 18, 1));
    // A tag that does not apply points at the tag name.
    let span = c.diagnostics[1].span.as_ref().expect("span");
    assert_eq!((span.line, span.col), (6, 6));
    let span = c.diagnostics[2].span.as_ref().expect("span");
    assert_eq!(span.line, 8);
    assert_eq!(
        &span.line_text[span.col as usize - 1..][..span.len as usize],
        "k8s:setByServer"
    );
}

/// Compiles a struct `T` whose single field `F` has the given tag lines and type, plus the
/// helper types below, and returns the error messages.
fn field_errors(tags: &[&str], ty: &str) -> Vec<String> {
    let mut src = String::from("package p\n\ntype T struct {\n");
    for t in tags {
        src.push_str(&format!("\t// {t}\n"));
    }
    src.push_str(&format!("\tF {ty} `json:\"f\"`\n}}\n"));
    src.push_str(
        r#"
type Item struct {
	Key  string   `json:"key"`
	Ptr  *string  `json:"ptr"`
	List []string `json:"list"`
	NoTag string
}

type Str string

// +k8s:listType=set
type Set []string
"#,
    );
    let c = compile_go(&src);
    c.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.message.clone())
        .collect()
}

#[test]
fn registry_and_tag_errors_use_upstream_wording() {
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["+k8s:enum"],
            "string",
            "tag \"k8s:enum\" cannot be specified on struct fields",
        ),
        (
            &["+k8s:optional"],
            "Item",
            "tag \"k8s:optional\": non-pointer structs cannot use the \"k8s:optional\" tag",
        ),
        (
            &["+k8s:minimum=1"],
            "string",
            "tag \"k8s:minimum\": can only be used on integer types (string)",
        ),
        (
            &["+k8s:minimum=-1"],
            "uint8",
            "tag \"k8s:minimum\": failed to parse tag payload: parsing \"-1\" as uint: strconv.ParseUint: parsing \"-1\": invalid syntax",
        ),
        (
            &["+k8s:maximum=300"],
            "int8",
            "tag \"k8s:maximum\": failed to parse tag payload: value 300 does not fit in uint8 (range [0, 255])",
        ),
        (
            &["+k8s:maxLength=-1"],
            "*string",
            "tag \"k8s:maxLength\": must be greater than or equal to zero",
        ),
        (
            &["+k8s:maxLength=01"],
            "string",
            "tag \"k8s:maxLength\": failed to parse tag payload as int: \"01\" is not a valid int value",
        ),
        (
            &["+k8s:maxItems=1"],
            "Str",
            "tag \"k8s:maxItems\": can only be used on list types (example.com/p.Str -> string)",
        ),
        (
            &["+k8s:maxProperties=100001"],
            "map[string]int",
            "tag \"k8s:maxProperties\": must be less than or equal to 100000",
        ),
        (
            &["+k8s:format=k8s-ip"],
            "string",
            "tag \"k8s:format\": unsupported validation format \"k8s-ip\"",
        ),
        (
            &["+k8s:neq=5"],
            "string",
            "tag \"k8s:neq\": type mismatch: field is a string, but payload is of type int",
        ),
        (
            &["+k8s:neq=\"x\""],
            "[]string",
            "tag \"k8s:neq\": can only be used on comparable types (e.g. string, int, bool), but got []string",
        ),
        (
            &["+k8s:listType=map"],
            "[]string",
            "tag \"k8s:listType\": only lists of structs can be list-maps",
        ),
        (
            &["+k8s:listType=bag"],
            "[]string",
            "tag \"k8s:listType\": unknown list type \"bag\"",
        ),
        (
            &["+k8s:listType=set", "+k8s:unique=set"],
            "[]string",
            "tag \"k8s:unique\": unique tag may not be used with listType=set or listType=map",
        ),
        (
            &["+k8s:listType=map"],
            "[]Item",
            "found listType=map or unique=map without listMapKey",
        ),
        (
            &["+k8s:listType=set", "+k8s:listMapKey=key"],
            "[]Item",
            "found listMapKey without listType=map or unique=map",
        ),
        (
            &["+k8s:unique=set"],
            "[]string",
            "listType must be specified - use listType=atomic, listType=set, or listType=map",
        ),
        (
            &["+k8s:listType=atomic"],
            "Set",
            "found list metadata for both a field and its type: example.com/p.T.f",
        ),
        (
            &["+k8s:listMapKey=nope"],
            "[]Item",
            "tag \"k8s:listMapKey\": no field for JSON name \"nope\"",
        ),
        (
            &["+k8s:listType=map", "+k8s:listMapKey=list"],
            "[]Item",
            "tag \"k8s:listMapKey\": only primitive types and pointers to primitive types can be list-map keys, not []string",
        ),
        (
            &["+k8s:eachVal=+k8s:required"],
            "[]string",
            "tag \"k8s:eachVal\": tag \"k8s:required\" cannot be specified on list values",
        ),
        (
            &["+k8s:eachVal=+k8s:minimum=1"],
            "map[string]string",
            "tag \"k8s:eachVal\": tag \"k8s:minimum\": can only be used on integer types (string)",
        ),
        (
            &["+k8s:eachKey=+k8s:maxLength=1"],
            "[]string",
            "tag \"k8s:eachKey\": can only be used on map types (Slice)",
        ),
        (
            &["+k8s:eachVal=1"],
            "[]string",
            "tag \"k8s:eachVal\": tag value has wrong type: got int, want tag",
        ),
        (
            &["+k8s:subfield(nope)=+k8s:required"],
            "Item",
            "tag \"k8s:subfield\": no field for json name \"nope\"",
        ),
        (
            &["+k8s:subfield(key)=+k8s:subfield(key)=+k8s:required"],
            "Item",
            "tag \"k8s:subfield\": nested +k8s:subfield tags are unsupported; apply validations directly to the nested type instead",
        ),
        (
            &["+k8s:subfield(key)=+k8s:required"],
            "string",
            "tag \"k8s:subfield\": can only be used on struct types: Builtin",
        ),
        (
            &["+k8s:validateFalse(flags: \"Loud\")"],
            "string",
            "tag \"k8s:validateFalse\": can't decode tag payload: unknown flag: \"Loud\"",
        ),
        (
            &["+k8s:validateError=\"boom\""],
            "string",
            "tag \"k8s:validateError\": forced error: \"boom\"",
        ),
        (
            &["+k8s:ifEnabled=+k8s:required"],
            "*string",
            "tag \"k8s:ifEnabled\": missing required positional argument of type string",
        ),
        (
            &["+k8s:alpha(since: \"v1\")=+k8s:required"],
            "*string",
            "tag \"k8s:alpha\": invalid kubernetes version format, expected <major>.<minor>, got v1",
        ),
        (
            &["+k8s:update=Never"],
            "string",
            "tag \"k8s:update\": unknown +k8s:update constraint: Never",
        ),
        (
            &["+k8s:update=NoModify"],
            "[]string",
            "tag \"k8s:update\": +k8s:update=NoModify is not supported on list or map fields, use +k8s:eachVal=+k8s:update=NoModify for per-item immutability",
        ),
        (
            &["+k8s:update=NoSet"],
            "Item",
            "tag \"k8s:update\": +k8s:update=NoSet cannot be used on non-pointer struct fields (they cannot be unset)",
        ),
        (
            &["+k8s:listType=atomic", "+k8s:update=NoAddItem"],
            "[]string",
            "+k8s:update=NoAddItem/+k8s:update=NoRemoveItem require listType=set, listType=map, unique=set, or unique=map to define item identity",
        ),
        (
            &["+k8s:monotonic"],
            "string",
            "tag \"k8s:monotonic\": must be an integer type (got string)",
        ),
        (
            &["+k8s:optional", "+default=0"],
            "Item",
            "tag \"k8s:optional\": unknown zero-value for type example.com/p.Item",
        ),
        (
            &["+k8s:optional", "+default=null"],
            "int",
            "tag \"k8s:optional\": failed to parse default value \"null\": unmarshalled to nil",
        ),
        (
            &["+k8s:minimum=1"],
            "map[string][]string",
            "tag \"k8s:minimum\": can only be used on integer types (map[string][]string)",
        ),
        (
            &["+k8s:maxProperties=1"],
            "map[string][]string",
            "field example.com/p.T.f: validation for map of slices is not supported",
        ),
        (
            &["+k8s:minimum=x"],
            "int",
            "tag \"k8s:minimum\": tag value has wrong type: got string, want int",
        ),
        (
            &["+k8s:minimum=1 x"],
            "int",
            "failed to parse tags: unexpected character ' ' at position 14",
        ),
    ];
    let mut failures = Vec::new();
    for (tags, ty, want) in cases {
        let got = field_errors(tags, ty);
        // A failing tag can leave later checks failing too (e.g. list metadata); the first
        // error is the tag's own.
        if got.first().map(String::as_str) != Some(*want) {
            failures.push(format!(
                "{tags:?} on {ty}:\n   got {got:?}\n  want {want:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn unsupported_shapes_are_reported_for_reachable_types_only() {
    let c = compile_go(
        r#"
// +k8s:validation-gen=*
package p

type Root struct {
	M map[string]*int `json:"m"`
	A [3]int `json:"a"`
}

// +k8s:validation-gen=false
type Unused struct {
	P **int `json:"p"`
}
"#,
    );
    assert_eq!(
        messages(&c),
        vec![
            "field example.com/p.Root.m (map[string]*int): maps of pointers are not supported",
            "field example.com/p.Root.a ([]int): fixed-size arrays are not supported",
        ]
    );
}

#[test]
fn roots_follow_package_filters() {
    let c = compile_go(
        r#"
// +k8s:validation-gen=TypesWithField=TypeMeta
// +groupName=example.com
package v1

type Widget struct {
	TypeMeta int
}

type Part struct{}

// +k8s:validation-gen=true
type Forced struct{}

// +k8s:validation-gen=false
type Excluded struct {
	TypeMeta int
}

type internal struct {
	TypeMeta int
}
"#,
    );
    assert!(c.diagnostics.is_empty(), "{:?}", messages(&c));
    let names: Vec<String> = c.rules.roots().map(|r| r.kind).collect();
    assert_eq!(names, vec!["Forced", "Widget"]);
    let w = c
        .rules
        .root_for_kind("example.com/v1", "Widget")
        .expect("root");
    assert_eq!(c.rules.type_name(w), "Widget");
    assert_eq!(c.rules.find_type("example.com/p.Widget"), Some(w));
    assert!(c.rules.root_for_kind("v1", "Widget").is_none());
    let c = compile_go("// +k8s:validation-gen=Bogus\npackage p\n");
    assert_eq!(
        messages(&c),
        vec![
            "unknown value for package tag \"k8s:validation-gen\": \"Bogus\" (expected *, TypeMeta, TypesWithField=<field>, TypesWithSuffix=<suffix> or false; to select the types with a field named Bogus, write TypesWithField=Bogus)"
        ]
    );
}

#[test]
fn union_item_mode_and_dependency_errors_use_upstream_wording() {
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["+k8s:unionMember"],
            "Item",
            "tag \"k8s:unionMember\": can only be used on nilable and primitive types (Struct)",
        ),
        (
            &["+k8s:zeroOrOneOfMember(name: \"x\")"],
            "*string",
            "tag \"k8s:zeroOrOneOfMember\": unrecognized named argument name: \"x\"",
        ),
        (
            &["+k8s:unionDiscriminator"],
            "int",
            "tag \"k8s:unionDiscriminator\": can only be used on string types (int)",
        ),
        (
            &["+k8s:item(key: \"a\")=+k8s:required"],
            "string",
            "tag \"k8s:item\": can only be used on list types",
        ),
        (
            &["+k8s:item(key: \"a\")=+k8s:required"],
            "[]string",
            "tag \"k8s:item\": can only be used on lists of structs",
        ),
        (
            &["+k8s:item(key: \"a\")"],
            "[]Item",
            "tag \"k8s:item\": missing required tag value of type tag",
        ),
        (
            &["+k8s:item(\"a\")=+k8s:required"],
            "[]Item",
            "tag \"k8s:item\": all arguments must be named",
        ),
        (
            &["+k8s:item(key: \"a\", key: \"b\")=+k8s:required"],
            "[]Item",
            "tag \"k8s:item\": duplicate argument: \"key\"",
        ),
        (
            &["+k8s:item(key: 0x10)=+k8s:required"],
            "[]Item",
            "tag \"k8s:item\": invalid value for argument \"key\": invalid integer: parsing \"0x10\" as int: strconv.Atoi: parsing \"0x10\": invalid syntax",
        ),
        (
            &["+k8s:item()=+k8s:required"],
            "[]Item",
            "tag \"k8s:item\": no selection criteria was specified",
        ),
        (
            &["+k8s:item(key: \"a\")=+k8s:validateFalse"],
            "[]Item",
            "found items with no list metadata - item tags require listType=map or unique=map with listMapKey",
        ),
        (
            &[
                "+k8s:listType=map",
                "+k8s:listMapKey=key",
                "+k8s:item(key: 1)=+k8s:validateFalse",
            ],
            "[]Item",
            "type mismatch, field is string but value is not: 1",
        ),
        (
            &[
                "+k8s:listType=map",
                "+k8s:listMapKey=key",
                "+k8s:item(list: \"a\")=+k8s:validateFalse",
            ],
            "[]Item",
            "missing required listMapKey fields: [key]",
        ),
        (
            &[
                "+k8s:listType=map",
                "+k8s:listMapKey=key",
                "+k8s:item(key: \"a\", ptr: \"b\")=+k8s:validateFalse",
            ],
            "[]Item",
            "number of arguments (2) does not match number of listMapKey fields (1)",
        ),
        (
            &["+k8s:modeDiscriminator"],
            "*string",
            "tag \"k8s:modeDiscriminator\": can only be used on non-pointer types",
        ),
        (&["+k8s:modeDiscriminator"], "Str", ""),
        (
            &["+k8s:modeDiscriminator"],
            "int",
            "tag \"k8s:modeDiscriminator\": can only be used on string or bool types (int)",
        ),
        (
            &["+k8s:modeDiscriminator(modality: \"1x\")"],
            "string",
            "tag \"k8s:modeDiscriminator\": discriminator group name must match ^[a-zA-Z][a-zA-Z0-9_]*$, got \"1x\"",
        ),
        (
            &["+k8s:modeDiscriminator(modality: \"default\")"],
            "string",
            "tag \"k8s:modeDiscriminator\": discriminator group name \"default\" is reserved",
        ),
        (
            &["+k8s:ifMode(modality: \"g\")=+k8s:required"],
            "*string",
            "tag \"k8s:ifMode\": missing required mode",
        ),
        (
            &["+k8s:ifMode(\"A\")=+k8s:required"],
            "*string",
            "missing discriminator",
        ),
        (
            &["+k8s:ifMode(mode: \"A\", modality: \"g\")=+k8s:required"],
            "*string",
            "missing discriminator for group \"g\"",
        ),
        (
            &["+k8s:dependentRequired(\"nope\")"],
            "*string",
            "tag \"k8s:dependentRequired\": no sibling field with JSON name \"nope\"",
        ),
        (
            &["+k8s:dependentForbidden(\"f\")"],
            "*string",
            "tag \"k8s:dependentForbidden\": trigger and dependent field must be different (both are \"f\")",
        ),
        (
            &["+k8s:dependentRequired"],
            "*string",
            "tag \"k8s:dependentRequired\": missing required positional argument of type string",
        ),
        (
            &["+k8s:customValidation(x)"],
            "string",
            "tag \"k8s:customValidation\": unrecognized named argument \"x\"",
        ),
    ];
    let mut failures = Vec::new();
    for (tags, ty, want) in cases {
        let got = field_errors(tags, ty);
        let ok = if want.is_empty() {
            got.is_empty()
        } else {
            got.first().map(String::as_str) == Some(*want)
        };
        if !ok {
            failures.push(format!(
                "{tags:?} on {ty}:\n   got {got:?}\n  want {want:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn member_errors_need_the_struct_around_them() {
    let c = compile_go(
        r#"package p

type T struct {
	// +k8s:unionMember
	NoTag *string
	// +k8s:zeroOrOneOfMember
	NoName *string `json:",omitempty"`
	// +k8s:modeDiscriminator
	On bool `json:"on"`
	// +k8s:ifMode("yes")=+k8s:required
	A *string `json:"a"`
	// +k8s:dependentRequired("on")
	NoJSON *string
	// +k8s:listType=map
	// +k8s:listMapKey=n
	// +k8s:item(n: 1)=+k8s:unionMember
	Items []Inner `json:"items"`
	// +k8s:dependentRequired("on")
	Trigger Inner `json:"trigger"`
}

type Inner struct {
	N int `json:"n"`
}

type U struct {
	// +k8s:modeDiscriminator(modality: "s")
	S string `json:"s"`
	// +k8s:ifMode(mode: "x", modality: "s")=+k8s:validateFalse
	St Inner `json:"st"`
}
"#,
    );
    let got: Vec<String> = c
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(
        got,
        vec![
            "tag \"k8s:unionMember\": field \"NoTag\" is a union member but has no JSON struct field tag",
            "tag \"k8s:zeroOrOneOfMember\": field \"NoName\" is a union member but has no JSON name",
            "tag \"k8s:dependentRequired\": trigger field \"NoJSON\" has no JSON name",
            "tag \"k8s:dependentRequired\": trigger field \"Trigger\" has unsupported type kind Struct",
            "invalid discriminator value \"yes\": cannot parse \"yes\" as bool: \"yes\" is not a valid bool value",
            "type mismatch, field is int but value is not: 1",
            "discriminated member fields of struct type must be pointers",
        ],
    );
}

#[test]
fn unions_modes_items_lower_to_their_checks() {
    let c = compile_go(
        r#"package p

type T struct {
	// +k8s:unionDiscriminator
	D string `json:"d"`
	// +k8s:unionMember
	A *string `json:"a"`
	// +k8s:alpha=+k8s:unionMember(memberName: "Bee")
	B []string `json:"b"`
	// +k8s:modeDiscriminator
	M string `json:"m"`
	// +k8s:beta=+k8s:ifMode("x")=+k8s:required
	// +k8s:ifMode("w")=+k8s:minLength=2
	F *string `json:"f"`
	// +k8s:customValidation
	C string `json:"c"`
	// +k8s:listType=map
	// +k8s:listMapKey=n
	// +k8s:item(n: 1)=+k8s:validateFalse="one"
	Items []Inner `json:"items"`
}

type Inner struct {
	N int `json:"n"`
}
"#,
    );
    assert!(c.diagnostics.is_empty(), "{:?}", messages(&c));
    let id = c.rules.find_type("T").expect("T");
    let t = c.rules.type_rules(id);
    let checks: Vec<&Validation> = t.validations.iter().collect();
    assert_eq!(checks.len(), 2, "{checks:?}");
    let Check::Union(u) = &checks[0].check else {
        panic!("{:?}", checks[0])
    };
    assert!(matches!(&u.kind, UnionKind::Discriminated { name, .. } if name == "d"));
    let members: Vec<(&str, &str)> = u
        .members
        .iter()
        .map(|m| (m.name.as_str(), m.discriminator_value.as_str()))
        .collect();
    assert_eq!(members, vec![("a", "A"), ("b", "Bee")]);
    // The first member's callback produces the union (no level).
    assert_eq!(checks[0].level, None);
    let Check::Discriminated(d) = &checks[1].check else {
        panic!("{:?}", checks[1])
    };
    assert_eq!(checks[1].level, None);
    assert_eq!(d.field, "f");
    let values: Vec<&Literal> = d.rules.iter().map(|r| &r.value).collect();
    assert_eq!(
        values,
        vec![&Literal::String("w".into()), &Literal::String("x".into())]
    );
    assert_eq!(d.rules[1].validations[0].level, Some(Level::Beta));
    assert_eq!(d.rules[0].validations[0].level, None);
    assert_eq!(d.default_level, None);
    let custom = field(&c, "T", "c");
    assert_eq!(
        custom.validations.iter().next().map(|v| &v.check),
        Some(&Check::CustomValidation {
            function_name: "ValidateCustom_T_C".into(),
            package: "example.com/p".into(),
        })
    );
    let items = field(&c, "T", "items");
    let item = items
        .validations
        .iter()
        .find(|v| matches!(v.check, Check::Item { .. }))
        .expect("item check");
    assert_eq!(item.cohort.as_deref(), Some("{\"n\": 1}"));
}

#[test]
fn list_types_embedding_list_meta_are_not_roots() {
    let src = r#"
// +k8s:validation-gen=*
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Widget struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	// +k8s:required
	Name string `json:"name"`
}

type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata"`
	Items []Widget `json:"items"`
}

// +k8s:validation-gen=true
type ForcedList struct {
	metav1.ListMeta `json:"metadata"`
}
"#;
    for with_well_known in [false, true] {
        let (pkg, diags) = kdv_go::load_sources(
            "example.com/v1",
            &[(PathBuf::from("types.go"), src.to_string())],
        );
        assert!(diags.is_empty(), "{diags:?}");
        let mut universe = Universe::default();
        universe.packages.insert(pkg.path.clone(), pkg);
        if with_well_known {
            assert!(kdv_go::add_well_known_packages(&mut universe).is_empty());
        }
        let c = compile(&universe);
        assert!(!c.has_errors(), "{:?}", messages(&c));
        let roots: Vec<String> = c.rules.roots().map(|r| r.name).collect();
        assert_eq!(
            roots,
            ["ForcedList", "Widget"],
            "well-known: {with_well_known}"
        );
    }
}

/// Every validation a tag produced knows where the tag is written (the innermost tag of a
/// chain); the compiler's own calls and loops have no origin.
#[test]
fn validations_point_at_their_tags() {
    let c = compile_go(
        r#"
// +k8s:validation-gen=*
package p

type T struct {
	// +k8s:maxItems=2
	// +k8s:eachVal=+k8s:maxLength=3
	L []string `json:"l"`
	// +k8s:unionMember
	// +k8s:optional
	A *string `json:"a"`
	// +k8s:unionMember
	// +k8s:optional
	B *string `json:"b"`
	S S `json:"s"`
}

type S struct {
	// +k8s:minimum=1
	N int `json:"n"`
}
"#,
    );
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    let at = |v: &Validation| {
        let s = c.rules.span(v.origin.expect("origin")).expect("span");
        let text = &s.line_text[s.col as usize - 1..][..s.len as usize];
        (s.line, text.to_string())
    };
    let l = field(&c, "T", "l");
    let all: Vec<&Validation> = l.validations.iter().collect();
    assert_eq!(at(all[0]), (6, "k8s:maxItems".to_string()));
    assert_eq!(at(all[1]), (7, "k8s:eachVal".to_string()));
    let inner = all[1].check.inner().expect("wrapped");
    assert_eq!(at(inner), (7, "k8s:maxLength".to_string()));
    let t = c.rules.type_rules(c.rules.find_type("T").expect("T"));
    let union = t
        .validations
        .iter()
        .find(|v| matches!(v.check, Check::Union(_)));
    assert_eq!(
        at(union.expect("union")),
        (9, "k8s:unionMember".to_string())
    );
    let s = field(&c, "T", "s");
    assert!(s.type_call.is_some());
    let n = field(&c, "S", "n");
    assert_eq!(
        at(n.validations.iter().next().expect("minimum")),
        (19, "k8s:minimum".to_string())
    );
}

/// Compiles `files` (name, text) as package `example.com/v1` with `options`.
fn compile_files(files: &[(&str, &str)], options: &CompileOptions) -> Compiled {
    let files: Vec<(PathBuf, String)> = files
        .iter()
        .map(|(n, t)| (PathBuf::from(n), t.to_string()))
        .collect();
    let (pkg, diags) = kdv_go::load_sources("example.com/v1", &files);
    assert!(diags.is_empty(), "Go parse diagnostics: {diags:?}");
    let mut universe = Universe::default();
    universe.packages.insert(pkg.path.clone(), pkg);
    assert!(kdv_go::add_well_known_packages(&mut universe).is_empty());
    compile_with(&universe, options)
}

const KINDS: &str = r#"package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Claim struct {
	TypeMeta int
	// +k8s:maxItems=2
	Items []string `json:"items"`
}

type ClaimList struct {
	TypeMeta int
	metav1.ListMeta `json:"metadata"`
}

type DeviceAttribute struct {
	// +k8s:maxLength=3
	Name string `json:"name"`
}

type Other struct{}
"#;

fn root_names(c: &Compiled) -> Vec<String> {
    c.rules.roots().map(|r| r.kind).collect()
}

fn located(c: &Compiled) -> Vec<(String, u32, String)> {
    c.diagnostics
        .iter()
        .map(|d| {
            let s = d.span.as_ref().expect("span");
            let text = s.line_text[s.col as usize - 1..][..s.len as usize].to_string();
            (d.message.clone(), s.line, text)
        })
        .collect()
}

#[test]
fn item_03_every_package_tag_value_upstream_accepts() {
    let doc = |tags: &str| format!("// Licence.\n\n{tags}\npackage v1\n");
    let opts = CompileOptions::default();
    let cases: &[(&str, &[&str])] = &[
        (
            "// +k8s:validation-gen=*",
            &["Claim", "DeviceAttribute", "Other"],
        ),
        ("// +k8s:validation-gen=TypeMeta", &["Claim"]),
        ("// +k8s:validation-gen=TypesWithField=TypeMeta", &["Claim"]),
        (
            "// +k8s:validation-gen=TypesWithSuffix=Attribute\n// +k8s:validation-gen=TypesWithField=Items",
            &["Claim", "DeviceAttribute"],
        ),
        ("// +k8s:validation-gen=false", &[]),
        (
            "// +k8s:validation-gen=false\n// +k8s:validation-gen=false",
            &[],
        ),
        ("", &[]),
        (
            "// +k8s:validation-gen=*\n// +k8s:validation-gen-input=example.com/v1\n// +k8s:validation-gen-nolint\n// +k8s:validation-gen-scheme-registry=nil\n// +k8s:validation-gen-test-fixture=validateFalse\n// +k8s:validation-gen-test-targets",
            &["Claim", "DeviceAttribute", "Other"],
        ),
    ];
    for (tags, roots) in cases {
        let c = compile_files(&[("doc.go", &doc(tags)), ("types.go", KINDS)], &opts);
        assert!(c.diagnostics.is_empty(), "{tags}: {:?}", messages(&c));
        assert_eq!(root_names(&c), *roots, "{tags}");
    }

    // The opt-out is recorded, so callers can say why nothing is selected.
    let c = compile_files(
        &[
            ("doc.go", &doc("// +k8s:validation-gen=false")),
            ("types.go", KINDS),
        ],
        &opts,
    );
    let p = c.rules.package_roots("example.com/v1").expect("recorded");
    assert_eq!(p.selection, RootSelection::OptedOut);
    assert_eq!(p.tag.as_ref().map(|s| s.line), Some(3));
    let c = compile_files(
        &[
            (
                "doc.go",
                &doc("// +k8s:validation-gen=TypesWithSuffix=Attribute"),
            ),
            ("types.go", KINDS),
        ],
        &opts,
    );
    let p = c.rules.package_roots("example.com/v1").expect("recorded");
    assert_eq!(
        p.selection.describe(),
        "+k8s:validation-gen=TypesWithSuffix=Attribute"
    );
    assert_eq!(p.roots, 1);
}

#[test]
fn item_03_package_tag_errors_point_at_the_tag_line() {
    let doc = |tags: &str| format!("/*\nLicence.\n*/\n\n{tags}\npackage v1\n");
    let cases: &[(&str, &str, u32, &str)] = &[
        (
            "// +k8s:validation-gen=*\n// +k8s:validation-gen=false",
            "+k8s:validation-gen: cannot mix \"false\" with other values; got [* false]",
            5,
            "*",
        ),
        (
            "// +k8s:validation-gen=",
            "found package tag \"k8s:validation-gen\" with no value",
            5,
            "k8s:validation-gen",
        ),
        (
            "// +groupName=x\n// +k8s:validation-gen=TypesWithField=",
            "found package tag \"k8s:validation-gen=TypesWithField=\" with empty value",
            6,
            "TypesWithField=",
        ),
        (
            "// +k8s:validation-gen=*\n// +k8s:validation-gen-input=../v1",
            "+k8s:validation-gen-input: relative path \"../v1\" is not supported; use the full package import path",
            6,
            "../v1",
        ),
        (
            "// +k8s:validation-gen=*\n// +k8s:validation-gen-input=a\n// +k8s:validation-gen-input=b",
            "+k8s:validation-gen-input: expected at most one value, got [a b]",
            7,
            "b",
        ),
        (
            "// +k8s:validation-gen=*\n// +k8s:validation-gen-scheme-registry=nil\n// +k8s:validation-gen-scheme-registry=x.S",
            "Package \"example.com/v1\" contains more than one usage of \"k8s:validation-gen-scheme-registry\"",
            7,
            "x.S",
        ),
        (
            "// +k8s:validation-gen=*\n// +k8s:validation-gen-test-fixture=validateTrue",
            "Package \"example.com/v1\": k8s:validation-gen-test-fixture must be one of '[validateFalse]', but got: validateTrue",
            6,
            "validateTrue",
        ),
    ];
    for (tags, message, line, at) in cases {
        let c = compile_files(
            &[("doc.go", &doc(tags)), ("types.go", KINDS)],
            &CompileOptions::default(),
        );
        assert_eq!(
            located(&c),
            vec![(message.to_string(), *line, at.to_string())],
            "{tags}"
        );
    }
}

#[test]
fn item_02_roots_override_selects_every_kind_of_the_package() {
    let doc = "// +k8s:validation-gen=TypesWithSuffix=DeviceAttribute\npackage v1\n";
    let options = |roots| CompileOptions {
        roots,
        package: Some("example.com/v1".into()),
        lint: false,
    };
    let c = compile_files(
        &[("doc.go", doc), ("types.go", KINDS)],
        &options(Roots::Package),
    );
    assert_eq!(root_names(&c), ["DeviceAttribute"]);
    let c = compile_files(
        &[("doc.go", doc), ("types.go", KINDS)],
        &options(Roots::TypeMeta),
    );
    assert!(c.diagnostics.is_empty(), "{:?}", messages(&c));
    // List types (embedding ListMeta) are never roots, as upstream.
    assert_eq!(root_names(&c), ["Claim"]);
    let p = c.rules.package_roots("example.com/v1").expect("recorded");
    assert_eq!(p.selection, RootSelection::Override(Roots::TypeMeta));
    let c = compile_files(
        &[("doc.go", doc), ("types.go", KINDS)],
        &options(Roots::All),
    );
    assert_eq!(root_names(&c), ["Claim", "DeviceAttribute", "Other"]);
    // An opted-out package is selected too when the caller asks.
    let c = compile_files(
        &[
            ("doc.go", "// +k8s:validation-gen=false\npackage v1\n"),
            ("types.go", KINDS),
        ],
        &options(Roots::TypeMeta),
    );
    assert_eq!(root_names(&c), ["Claim"]);
    // The override applies to the named package only.
    let other = CompileOptions {
        package: Some("example.com/other".into()),
        ..options(Roots::All)
    };
    let c = compile_files(&[("doc.go", doc), ("types.go", KINDS)], &other);
    assert_eq!(root_names(&c), ["DeviceAttribute"]);
}

#[test]
fn item_01_bare_type_names_mean_the_home_package() {
    let a = "package v1\n\ntype Claim struct{}\ntype Shared struct{}\n";
    let b = "package v1\n\ntype Claim struct{}\ntype Shared struct{}\ntype OnlyB struct{}\n";
    let mut universe = Universe::default();
    for (path, src) in [
        ("example.com/a/v1", a),
        ("example.com/b/v1", b),
        ("example.com/c/v1", a),
    ] {
        let (pkg, diags) = kdv_go::load_sources(path, &[(PathBuf::from("types.go"), src.into())]);
        assert!(diags.is_empty());
        universe.packages.insert(pkg.path.clone(), pkg);
    }
    let c = compile(&universe);
    let name =
        |r: Result<TypeId, TypeLookupError>| r.map(|id| c.rules.type_rules(id).qualified_name());
    assert_eq!(
        name(c.rules.resolve_type("Claim", Some("example.com/b/v1"))),
        Ok("example.com/b/v1.Claim".to_string())
    );
    assert_eq!(
        name(
            c.rules
                .resolve_type("example.com/a/v1.Claim", Some("example.com/b/v1"))
        ),
        Ok("example.com/a/v1.Claim".to_string())
    );
    assert_eq!(
        name(c.rules.resolve_type("OnlyB", Some("example.com/a/v1"))),
        Ok("example.com/b/v1.OnlyB".to_string())
    );
    assert_eq!(
        name(c.rules.resolve_type("Claim", None)),
        Err(TypeLookupError::Ambiguous(vec![
            "example.com/a/v1.Claim".into(),
            "example.com/b/v1.Claim".into(),
            "example.com/c/v1.Claim".into()
        ]))
    );
    assert_eq!(
        name(c.rules.resolve_type("Nope", None)),
        Err(TypeLookupError::Unknown)
    );
}

/// The lint rules' findings for `types` in package `example.com/<version>` selecting every
/// type: (line, message).
fn lint_findings(version: &str, types: &str) -> Vec<(u32, String)> {
    let path = format!("example.com/{version}");
    let doc = format!("// +k8s:validation-gen=*\npackage {version}\n");
    let files = [
        (PathBuf::from("doc.go"), doc),
        (
            PathBuf::from("types.go"),
            types.replace("package v1", &format!("package {version}")),
        ),
    ];
    let (pkg, diags) = kdv_go::load_sources(&path, &files);
    assert!(diags.is_empty(), "Go parse diagnostics: {diags:?}");
    let mut universe = Universe::default();
    universe.packages.insert(pkg.path.clone(), pkg);
    let c = compile_with(
        &universe,
        &CompileOptions {
            lint: true,
            ..CompileOptions::default()
        },
    );
    let mut out: Vec<(u32, String)> = c
        .lint
        .iter()
        .map(|d| (d.span.as_ref().map_or(0, |s| s.line), d.message.clone()))
        .collect();
    out.sort();
    out
}

const REQUIREDNESS: &str =
    "field with validation must have +k8s:optional, +k8s:required or +k8s:forbidden";

#[test]
fn item_07_alpha_and_beta_only_prefix_a_validation_tag() {
    let src = r#"package v1

type T struct {
	// +k8s:optional
	// +k8s:alpha=+k8s:required
	A *string `json:"a"`
	// +k8s:optional
	// +k8s:alpha=+k8s:beta=+k8s:required
	B *string `json:"b"`
	// +k8s:optional
	// +k8s:alpha
	C *string `json:"c"`
	// +k8s:optional
	// +k8s:beta=foo
	D *string `json:"d"`
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=type
	// +k8s:item(type: "Approved")=+k8s:alpha=+k8s:zeroOrOneOfMember
	E []I `json:"e"`
}

type I struct {
	Type string `json:"type"`
}
"#;
    assert_eq!(
        lint_findings("v1", src),
        vec![
            (8, "field B: tag \"k8s:beta\" can't be used in between".to_string()),
            (11, "field C: tag \"k8s:alpha\" requires a validation tag as its value payload".to_string()),
            (14, "field D: tag \"k8s:beta\" requires a validation tag as its value payload".to_string()),
            (19, "field E: tag \"k8s:alpha\" can't be used in between".to_string()),
            // The stability rule sees the nested alpha (a Beta tag) in a Stable context, as
            // upstream's does.
            (
                19,
                "field E: tag \"k8s:alpha\" with stability level \"Beta\" cannot be used in Stable validation".to_string()
            ),
        ]
    );
}

#[test]
fn item_07_tag_stability_fits_its_context() {
    let src = r#"package v1

type T struct {
	// +k8s:validateTrueAlpha
	A string `json:"a"`
	// +k8s:beta=+k8s:validateTrueAlpha
	B string `json:"b"`
	// +k8s:alpha=+k8s:validateTrueAlpha
	C string `json:"c"`
	// +k8s:ifEnabled(SomeFeature)=+k8s:validateTrueBeta
	D string `json:"d"`
	// +k8s:ifEnabled(SomeFeature)=+k8s:validateTrueAlpha
	E string `json:"e"`
	// +k8s:validateTrueBeta
	F string `json:"f"`
}
"#;
    // Requiredness is not the point here: keep only the stability findings.
    let stability = |version: &str| -> Vec<(u32, String)> {
        lint_findings(version, src)
            .into_iter()
            .filter(|(_, m)| !m.ends_with(REQUIREDNESS))
            .collect()
    };
    let alpha_in = |ctx: &str| {
        format!(
            "tag \"k8s:validateTrueAlpha\" with stability level \"Alpha\" cannot be used in {ctx} validation"
        )
    };
    let beta_in = |ctx: &str| {
        format!(
            "tag \"k8s:validateTrueBeta\" with stability level \"Beta\" cannot be used in {ctx} validation"
        )
    };
    assert_eq!(
        stability("v1"),
        vec![
            (4, format!("field A: {}", alpha_in("Stable"))),
            (6, format!("field B: {}", alpha_in("Beta"))),
            (12, format!("field E: {}", alpha_in("Beta"))),
            (14, format!("field F: {}", beta_in("Stable"))),
        ]
    );
    assert_eq!(
        stability("v1beta1"),
        vec![
            (4, format!("field A: {}", alpha_in("Beta"))),
            (6, format!("field B: {}", alpha_in("Beta"))),
            (12, format!("field E: {}", alpha_in("Beta"))),
        ]
    );
    // An explicit prefix sets the context, even in an alpha package.
    assert_eq!(
        stability("v1alpha1"),
        vec![(6, format!("field B: {}", alpha_in("Beta")))]
    );
}

#[test]
fn item_07_fields_with_validation_declare_requiredness() {
    let src = r#"package v1

type T struct {
	// +k8s:maxLength=3
	Direct *string `json:"direct"`
	Transitive *V `json:"transitive"`
	// +k8s:optional
	Declared *V `json:"declared"`
	Items []V `json:"items"`
	Data map[string]V `json:"data"`
	Exempt V `json:"exempt"`
	// +k8s:opaqueType
	Opaque *V `json:"opaque"`
	// +k8s:eachVal=+k8s:opaqueType
	OpaqueItems []V `json:"opaqueItems"`
	// +k8s:eachKey=+k8s:opaqueType
	KeyOpaque map[K]V `json:"keyOpaque"`
	// +k8s:eachKey=+k8s:opaqueType
	// +k8s:eachVal=+k8s:opaqueType
	BothOpaque map[K]V `json:"bothOpaque"`
	Vs Vs `json:"vs"`
	OpaqueVs OpaqueVs `json:"opaqueVs"`
	Plain *P `json:"plain"`
	Self *R `json:"self"`
	// +k8s:alpha(since: "1.35")=+k8s:required
	Conditional *V `json:"conditional"`
}

type V struct {
	// +k8s:minimum=1
	N int `json:"n"`
}

// +k8s:maxLength=5
type K string

type Vs []V

// +k8s:eachVal=+k8s:opaqueType
type OpaqueVs []V

type P struct {
	S string `json:"s"`
}

type R struct {
	Next *R `json:"next"`
	// +k8s:optional
	V *V `json:"v"`
}
"#;
    let req = |line: u32, field: &str| (line, format!("field {field}: {REQUIREDNESS}"));
    assert_eq!(
        lint_findings("v1", src),
        vec![
            req(5, "Direct"),
            req(6, "Transitive"),
            req(9, "Items"),
            req(10, "Data"),
            req(17, "KeyOpaque"),
            req(21, "Vs"),
            // R reaches V through its field V.
            req(24, "Self"),
            // Scalars are not exempt: only (typedefs of) non-pointer structs are.
            req(31, "N"),
            req(47, "Next"),
        ]
    );
}

#[test]
fn item_07_hygiene_unknown_repeated_and_contradicting_tags() {
    let src = r#"package v1

type T struct {
	// +k8s:required
	// +k8s:optional
	A *string `json:"a"`
	// +k8s:required
	// +k8s:required
	B *string `json:"b"`
	// +k8s:optional
	// +k8s:maxlength=3
	// +k8s:maxLength=3
	// +k8s:maxLength=3
	// +k8s:deepcopy-gen=false
	// +k8s:deepcopy-gen=false
	C *string `json:"c"`
}
"#;
    assert_eq!(
        lint_findings("v1", src),
        vec![
            (5, "tag \"k8s:optional\" contradicts \"k8s:required\" (line 4): a field is either optional, required or forbidden".to_string()),
            (8, "repeated tag +k8s:required (first at line 7): each copy runs and reports its errors again; remove the copy".to_string()),
            (11, "unknown tag \"k8s:maxlength\" (did you mean \"k8s:maxLength\"?): validation-gen ignores it, so it validates nothing".to_string()),
            (13, "repeated tag +k8s:maxLength=3 (first at line 12): each copy runs and reports its errors again; remove the copy".to_string()),
        ]
    );
}

/// `+k8s:enum` with 100,000 constants (a quadratic duplicate check took 30 s in a release
/// build): the registry steps are linear, so even a debug build compiles it quickly.
#[test]
fn item_11_enum_with_100k_constants_compiles_in_bounded_time() {
    let mut src = String::from(
        "// +k8s:validation-gen=*\npackage p\n\n// +k8s:enum\ntype E string\n\ntype T struct {\n\t// +k8s:optional\n\tE E `json:\"e\"`\n}\n\nconst (\n",
    );
    for i in 0..100_000 {
        src.push_str(&format!("\tE{i} E = \"v{}\"\n", i % 99_999));
    }
    src.push_str(")\n");
    let start = std::time::Instant::now();
    let c = compile_go(&src);
    let elapsed = start.elapsed();
    assert!(c.diagnostics.is_empty(), "{:?}", messages(&c));
    let t = c.rules.type_rules(c.rules.find_type("E").expect("E"));
    let Some(Check::Enum(spec)) = t.validations.iter().map(|v| &v.check).next() else {
        panic!("enum check")
    };
    // The last constant repeats the first value: first wins, no duplicate member.
    assert_eq!(spec.members.len(), 99_999);
    // A debug build takes about 3 s, quadratic steps minutes; the margin absorbs a loaded
    // 2-core CI machine running test binaries in parallel (5 s was exceeded there).
    assert!(
        elapsed < std::time::Duration::from_secs(30),
        "100k enum constants took {elapsed:?}"
    );
}

/// The other registry steps that look names up stay linear too: 20,000 list-map keys, item
/// selectors over them, union members and struct fields, and which types have validations
/// along a chain of 20,000 types.
#[test]
fn item_11_large_structs_compile_in_bounded_time() {
    const N: usize = 20_000;
    let mut src = String::from("// +k8s:validation-gen=*\npackage p\n\ntype I struct {\n");
    for i in 0..N {
        src.push_str(&format!("\tK{i} string `json:\"k{i}\"`\n"));
    }
    src.push_str("}\n\ntype T struct {\n\t// +k8s:optional\n\t// +k8s:listType=map\n");
    for i in 0..N {
        src.push_str(&format!("\t// +k8s:listMapKey=k{i}\n"));
    }
    let args: Vec<String> = (0..N).map(|i| format!("k{i}: \"x\"")).collect();
    src.push_str(&format!(
        "\t// +k8s:item({})=+k8s:validateFalse=\"x\"\n\tL []I `json:\"l\"`\n",
        args.join(", ")
    ));
    for i in 0..N {
        src.push_str(&format!(
            "\t// +k8s:optional\n\t// +k8s:unionMember\n\tU{i} *string `json:\"u{i}\"`\n"
        ));
    }
    src.push_str("\t// +k8s:optional\n\tC *C0 `json:\"c\"`\n}\n");
    // A chain of types where only the last has validations: every type has validations
    // through the next one.
    for i in 0..N {
        src.push_str(&format!(
            "type C{i} struct {{\n\t// +k8s:optional\n\tN *C{} `json:\"n\"`\n}}\n",
            i + 1
        ));
    }
    src.push_str(&format!(
        "type C{N} struct {{\n\t// +k8s:optional\n\t// +k8s:minimum=1\n\tA *int32 `json:\"a\"`\n}}\n"
    ));
    let start = std::time::Instant::now();
    let c = compile_go(&src);
    let elapsed = start.elapsed();
    assert!(c.diagnostics.is_empty(), "{:?}", messages(&c));
    let first = c.rules.type_rules(c.rules.find_type("C0").expect("C0"));
    assert!(first.has_validations);
    // About 3 s in a debug build; see the enum test above for the margin.
    assert!(
        elapsed < std::time::Duration::from_secs(30),
        "took {elapsed:?}"
    );
}

#[test]
fn item_03_nolint_skips_upstream_lint_rules_for_the_package_or_type() {
    let types = r#"package v1

type T struct {
	// +k8s:maxLength=3
	A *string `json:"a"`
	U *U `json:"u"`
}

// +k8s:validation-gen-nolint
type U struct {
	// +k8s:maxLength=3
	B *string `json:"b"`
}
"#;
    let lint = |doc: &str| -> Vec<String> {
        let c = compile_files(
            &[("doc.go", doc), ("types.go", types)],
            &CompileOptions {
                lint: true,
                ..CompileOptions::default()
            },
        );
        assert!(c.diagnostics.is_empty(), "{:?}", messages(&c));
        c.lint.iter().map(|d| d.message.clone()).collect()
    };
    // U opts out of linting itself; T's fields are checked (U reaches validation).
    assert_eq!(
        lint("// +k8s:validation-gen=*\npackage v1\n"),
        [
            "field A: field with validation must have +k8s:optional, +k8s:required or +k8s:forbidden",
            "field U: field with validation must have +k8s:optional, +k8s:required or +k8s:forbidden",
        ]
    );
    // The package opts out of linting its roots.
    assert_eq!(
        lint("// +k8s:validation-gen=*\n// +k8s:validation-gen-nolint\npackage v1\n"),
        Vec::<String>::new()
    );
}

#[test]
fn extension_tags_misuse_is_reported_at_the_tag() {
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["+k8s:pattern=\"(\""],
            "string",
            "tag \"k8s:pattern\": error parsing regexp: missing closing ): `(`",
        ),
        (
            &["+k8s:pattern=\"a**\""],
            "string",
            "tag \"k8s:pattern\": error parsing regexp: invalid nested repetition operator: `**`",
        ),
        (
            &["+k8s:pattern=\"^a$\""],
            "int",
            "tag \"k8s:pattern\": can only be used on string types (int)",
        ),
        (
            &["+k8s:pattern=1"],
            "string",
            "tag \"k8s:pattern\": tag value has wrong type: got int, want string",
        ),
        (
            &["+k8s:exclusiveMinimum=1"],
            "string",
            "tag \"k8s:exclusiveMinimum\": can only be used on integer types (string)",
        ),
        (
            &["+k8s:exclusiveMaximum=256"],
            "uint8",
            "tag \"k8s:exclusiveMaximum\": failed to parse tag payload: value 256 does not fit in uint8 (range [0, 255])",
        ),
        (
            &["+k8s:ifSubresource(\"status\")=+k8s:required"],
            "*string",
            "tag \"k8s:ifSubresource\": subresource path \"status\" must start with \"/\" (did you mean \"/status\"?)",
        ),
        (
            &["+k8s:ifNotSubresource=+k8s:required"],
            "*string",
            "tag \"k8s:ifNotSubresource\": missing required positional argument of type string",
        ),
        (
            &["+k8s:ifSubresource(\"/status\")"],
            "*string",
            "tag \"k8s:ifSubresource\": missing required tag value of type tag",
        ),
    ];
    for (tags, ty, want) in cases {
        assert_eq!(
            field_errors(tags, ty),
            vec![want.to_string()],
            "{tags:?} on {ty}"
        );
    }
}

#[test]
fn extension_tags_lower_to_their_checks() {
    let c = compile_go(
        r#"package p

type T struct {
	// +k8s:pattern="^\\d+$"
	A string `json:"a"`
	// +k8s:pattern="^lit"
	B string `json:"b"`
	// +k8s:exclusiveMinimum=-1
	// +k8s:exclusiveMaximum=7
	C int32 `json:"c"`
	// +k8s:ifSubresource("/status")=+k8s:maxLength=2
	// +k8s:ifOptionEnabled(X)=+k8s:minLength=1
	D string `json:"d"`
}
"#,
    );
    assert!(c.diagnostics.is_empty(), "{:?}", messages(&c));
    let checks = |json: &str| -> Vec<Check> {
        field(&c, "example.com/p.T", json)
            .validations
            .iter()
            .map(|v| v.check.clone())
            .collect()
    };
    match &checks("a")[..] {
        [Check::Pattern(p)] => {
            assert_eq!(p.pattern.source(), "^\\d+$");
            assert!(p.pattern.as_literal().is_none());
        }
        other => panic!("{other:?}"),
    }
    match &checks("b")[..] {
        [Check::Pattern(p)] => assert_eq!(
            p.pattern
                .as_literal()
                .map(|l| (l.start, l.text.as_str(), l.end)),
            Some((true, "lit", false))
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        checks("c"),
        // Validations run in tag-name order, as upstream sorts them.
        [Check::ExclusiveMaximum(7), Check::ExclusiveMinimum(-1)]
    );
    // Sorted by the tag written: `ifOptionEnabled` before `ifSubresource`.
    match &checks("d")[..] {
        [
            Check::IfOption {
                option,
                enabled: true,
                ..
            },
            Check::IfSubresource {
                subresource,
                addressed: true,
                inner,
            },
        ] => {
            assert_eq!(subresource, "/status");
            assert_eq!(inner.check, Check::MaxLength(2));
            assert_eq!(option, "X");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn upstream_findings_flag_every_extension_and_older_spellings_warn() {
    let (pkg, diags) = kdv_go::load_sources(
        "example.com/p",
        &[(
            PathBuf::from("types.go"),
            r#"package p

type T struct {
	// +k8s:optional
	// +k8s:eachVal=+k8s:pattern="^a"
	A []string `json:"a"`
	// +k8s:ifOptionDisabled(X)=+k8s:exclusiveMaximum=3
	B int `json:"b"`
	// +k8s:maxLength=3
	C string `json:"c"`
}
"#
            .to_string(),
        )],
    );
    assert!(diags.is_empty(), "{diags:?}");
    let mut universe = Universe::default();
    universe.packages.insert(pkg.path.clone(), pkg);
    let found: Vec<(u32, u32, String)> = crate::lint::upstream_findings(&universe)
        .into_iter()
        .map(|d| {
            assert_eq!(d.severity, Severity::Error);
            let s = d.span.expect("span");
            (s.line, s.col, d.message)
        })
        .collect();
    let names: Vec<(u32, u32)> = found.iter().map(|(l, c, _)| (*l, *c)).collect();
    assert_eq!(names, [(5, 19), (7, 6), (7, 31)], "{found:?}");
    assert!(
        found[0]
            .2
            .starts_with("tag \"k8s:pattern\" is a kdv extension (KEP-5073 (earlier revision) ")
    );
    assert!(
        found[1].2.ends_with(
            "upstream validation-gen does not have it; write \"k8s:ifDisabled\" instead"
        ),
        "{}",
        found[1].2
    );
    let (_, lint) = crate::lint::lint(&universe);
    let older: Vec<&str> = lint
        .iter()
        .filter(|d| d.message.contains("older spelling"))
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        older,
        [
            "tag \"k8s:ifOptionDisabled\" is the design documents' older spelling of \"k8s:ifDisabled\": it means the same here, but upstream validation-gen knows only \"k8s:ifDisabled\"; write +k8s:ifDisabled"
        ]
    );
}
