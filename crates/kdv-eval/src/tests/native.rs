//! `+k8s:declarativeValidationNative`: every error of a native field's block is marked —
//! its own tags, its type's validations, nested fields, elements — and a union with a
//! native member marks its errors; everything else stays unmarked. The cases follow
//! upstream's (reverted) `output_tests/native` fixtures.

use super::*;

const NATIVE: &str = r#"
package p

type T struct {
	// +k8s:declarativeValidationNative
	// +k8s:optional
	// +k8s:format=k8s-uuid
	UUIDField string `json:"uuidField"`
	// +k8s:optional
	// +k8s:format=k8s-uuid
	Plain string `json:"plain"`
	// +k8s:declarativeValidationNative
	// +k8s:optional
	Stable *StableType `json:"stable"`
	// +k8s:declarativeValidationNative
	// +k8s:optional
	// +k8s:maxItems=2
	Items []StableType `json:"items"`
	// +k8s:optional
	Unmarked *StableType `json:"unmarked"`
	// +k8s:declarativeValidationNative
	// +k8s:optional
	// +k8s:immutable
	Fixed string `json:"fixed"`
}

type StableType struct {
	// +k8s:optional
	// +k8s:minimum=1
	Count int `json:"count"`
	// +k8s:optional
	Nested *Nested `json:"nested"`
}

type Nested struct {
	// +k8s:optional
	// +k8s:maxLength=2
	Name string `json:"name"`
}

type Union struct {
	// +k8s:optional
	// +k8s:unionMember
	// +k8s:declarativeValidationNative
	UnionField1 *int `json:"unionField1,omitempty"`
	// +k8s:optional
	// +k8s:unionMember
	// +k8s:declarativeValidationNative
	UnionField2 *int `json:"unionField2,omitempty"`
	// +k8s:optional
	// +k8s:zeroOrOneOfMember
	Z1 *int `json:"z1,omitempty"`
	// +k8s:optional
	// +k8s:zeroOrOneOfMember
	Z2 *int `json:"z2,omitempty"`
}

type ListStruct struct {
	// +k8s:listType=map
	// +k8s:listMapKey=type
	// +k8s:declarativeValidationNative
	// +k8s:item(type: "a")=+k8s:unionMember
	// +k8s:item(type: "b")=+k8s:unionMember
	Items []UnionItem `json:"items"`
}

type UnionItem struct {
	Type string `json:"type"`
	A    *int   `json:"a,omitempty"`
}
"#;

#[test]
fn errors_of_native_fields_are_marked() {
    let f = fixture(NATIVE);
    assert_eq!(
        f.create(
            "T",
            r#"{"uuidField": "invalid", "plain": "invalid",
                "stable": {"count": -1, "nested": {"name": "abc"}},
                "items": [{}, {}, {}],
                "unmarked": {"count": -1}}"#
        ),
        strs(&[
            "uuidField: Invalid value: \"invalid\": must be a lowercase UUID in 8-4-4-4-12 format [format=k8s-uuid] native",
            "plain: Invalid value: \"invalid\": must be a lowercase UUID in 8-4-4-4-12 format [format=k8s-uuid]",
            "stable.count: Invalid value: -1: must be greater than or equal to 1 [minimum] native",
            "stable.nested.name: Too long: may not be more than 2 characters [maxLength] native",
            // maxItems short-circuits the elements (upstream's order), and is marked too.
            "items: Too many: 3: must have at most 2 items [maxItems] SC native",
            "unmarked.count: Invalid value: -1: must be greater than or equal to 1 [minimum]",
        ])
    );
    assert_eq!(
        f.create(
            "T",
            r#"{"items": [{"count": -1}, {"count": 2, "nested": {"name": "xyz"}}]}"#
        ),
        strs(&[
            "items[0].count: Invalid value: -1: must be greater than or equal to 1 [minimum] native",
            "items[1].nested.name: Too long: may not be more than 2 characters [maxLength] native",
        ])
    );
    // Valid values: nothing to mark.
    assert_eq!(
        f.create(
            "T",
            r#"{"uuidField": "0f9b1d7e-5c4a-4e8b-9a3d-2b6c8e1f4a7d"}"#
        ),
        Vec::<String>::new()
    );
}

#[test]
fn update_errors_and_ratcheting_of_native_fields() {
    let f = fixture(NATIVE);
    assert_eq!(
        f.update(
            "T",
            r#"{"fixed": "b", "uuidField": "invalid", "plain": "invalid"}"#,
            r#"{"fixed": "a", "uuidField": "invalid", "plain": "invalid"}"#
        ),
        // The unchanged fields ratchet (nothing to mark); `immutable` short-circuits.
        strs(&["fixed: Invalid value: null: field is immutable [immutable] SC native"])
    );
}

#[test]
fn unions_with_a_native_member_are_marked() {
    let f = fixture(NATIVE);
    assert_eq!(
        f.create(
            "Union",
            r#"{"unionField1": 1, "unionField2": 2, "z1": 1, "z2": 2}"#
        ),
        strs(&[
            "<nil>: Invalid value: \"{unionField1, unionField2}\": must specify exactly one of: `unionField1`, `unionField2` [union] native",
            "<nil>: Invalid value: \"{z1, z2}\": must specify at most one of: `z1`, `z2` [zeroOrOneOf]",
        ])
    );
    assert_eq!(
        f.create("ListStruct", r#"{"items": [{"type": "a"}, {"type": "b"}]}"#),
        strs(&[
            "items: Invalid value: \"{items[{\\\"type\\\": \\\"a\\\"}], items[{\\\"type\\\": \\\"b\\\"}]}\": must specify exactly one of: `items[{\"type\": \"a\"}]`, `items[{\"type\": \"b\"}]` [union] native",
        ])
    );
}
