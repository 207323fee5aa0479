//! Scalar tags, presence tags, zero values and decoding errors.

use super::*;

const MINIMUM: &str = r#"
// +k8s:validation-gen=*
package p

type T struct {
	TypeMeta int

	// +k8s:minimum=1
	IntField int `json:"intField"`
	// +k8s:minimum=1
	IntPtrField *int `json:"intPtrField"`
	// +k8s:minimum=1
	Int16Field int16 `json:"int16Field"`
	// +k8s:minimum=1
	UintField uint `json:"uintField"`
	// +k8s:maximum=5
	// +k8s:minimum=-3
	Bounded int32 `json:"bounded"`
	TypedefField    IntType  `json:"typedefField"`
	TypedefPtrField *IntType `json:"typedefPtrField"`
	// +k8s:optional
	// +k8s:minimum=1
	OptionalInt int `json:"optionalInt"`
}

// +k8s:minimum=1
type IntType int
"#;

#[test]
fn minimum_checks_zero_values_and_skips_nil_pointers() {
    let f = fixture(MINIMUM);
    // Absent non-pointer ints are 0 and fail; nil pointers are not checked.
    assert_eq!(
        f.create("T", "{}"),
        strs(&[
            "intField: Invalid value: 0: must be greater than or equal to 1 [minimum]",
            "int16Field: Invalid value: 0: must be greater than or equal to 1 [minimum]",
            "uintField: Invalid value: 0: must be greater than or equal to 1 [minimum]",
            "typedefField: Invalid value: 0: must be greater than or equal to 1 [minimum]",
        ])
    );
    assert_eq!(
        f.create(
            "T",
            r#"{"intField": 1, "intPtrField": 0, "int16Field": 2, "uintField": 3,
                "bounded": 6, "typedefField": 1, "typedefPtrField": -4, "optionalInt": -1}"#
        ),
        strs(&[
            "intPtrField: Invalid value: 0: must be greater than or equal to 1 [minimum]",
            "bounded: Invalid value: 6: must be less than or equal to 5 [maximum]",
            "typedefPtrField: Invalid value: -4: must be greater than or equal to 1 [minimum]",
            "optionalInt: Invalid value: -1: must be greater than or equal to 1 [minimum]",
        ])
    );
}

#[test]
fn minimum_ratchets_unchanged_fields() {
    let f = fixture(MINIMUM);
    let old =
        r#"{"intField": 0, "intPtrField": 0, "int16Field": 0, "uintField": 0, "typedefField": 0}"#;
    // Unchanged invalid data passes on update (absent == 0).
    assert_eq!(f.update("T", "{}", old), Vec::<String>::new());
    // Changed invalid data is re-validated; unchanged fields are not.
    assert_eq!(
        f.update("T", r#"{"intField": -1, "intPtrField": -1}"#, old),
        strs(&[
            "intField: Invalid value: -1: must be greater than or equal to 1 [minimum]",
            "intPtrField: Invalid value: -1: must be greater than or equal to 1 [minimum]",
        ])
    );
}

#[test]
fn wrong_json_kind_is_a_type_error_and_not_validated_further() {
    let f = fixture(MINIMUM);
    assert_eq!(
        f.create(
            "T",
            r#"{"intField": "x", "int16Field": 70000, "uintField": -1, "typedefField": 1.5, "intPtrField": true}"#
        ),
        strs(&[
            "intField: Invalid value: \"x\": expected integer, got string",
            "intPtrField: Invalid value: true: expected integer, got boolean",
            "int16Field: Invalid value: 70000: expected integer in range [-32768, 32767], got 70000",
            "uintField: Invalid value: -1: expected integer in range [0, 18446744073709551615], got -1",
            "typedefField: Invalid value: 1.5: expected integer, got number",
        ])
    );
    let errs = f.run("T", &Operation::create(), r#"{"intField": "x"}"#, None);
    assert_eq!(errs[0].error_type, kdv_runtime::ErrorType::TypeInvalid);
    // Unknown fields are ignored; null is the zero value for non-pointers.
    assert_eq!(
        f.create("T", r#"{"intField": null, "int16Field": 1, "uintField": 1, "typedefField": 1, "other": [1]}"#),
        strs(&["intField: Invalid value: 0: must be greater than or equal to 1 [minimum]"])
    );
    // A root that is not an object.
    assert_eq!(
        f.create("T", "[1]"),
        strs(&["<nil>: Invalid value: [1]: expected object, got array"])
    );
}

/// Integer fields take integer literals only, whatever the value of a float literal (see
/// `decode.rs`, "Numbers"): JSON `5.0`, `1e1`, `-0.0` are rejected as Go's decoder rejects
/// them; the integers readers produce for JSON `-0` and YAML `5.0`/`1e1`/`-0.0` are taken.
#[test]
fn item_06_integer_fields_take_integer_literals_only() {
    let f = fixture(MINIMUM);
    let ty = f.rules.find_type("T").expect("type");
    let check = |bounded: Value| {
        let doc = serde_json::json!({
            "intField": 1, "int16Field": 1, "uintField": 1, "typedefField": 1,
            "bounded": bounded,
        });
        render(&crate::validate(
            &f.rules,
            ty,
            &Operation::create(),
            &doc,
            None,
        ))
    };
    for literal in ["5.0", "1e1", "-0.0", "0.0", "1E+0"] {
        let value: Value = serde_json::from_str(literal).expect("JSON");
        assert_eq!(
            check(value),
            strs(&[&format!(
                "bounded: Invalid value: {}: expected integer, got number",
                kdv_runtime::gofmt::format_float_v(
                    serde_json::from_str::<f64>(literal).expect("float")
                )
            )]),
            "{literal}"
        );
    }
    for accepted in [Value::from(0), Value::from(5), Value::from(-3)] {
        assert_eq!(check(accepted.clone()), Vec::<String>::new(), "{accepted}");
    }
}

const STRINGS: &str = r#"
package p

type S struct {
	// +k8s:minLength=2
	// +k8s:maxLength=3
	Chars string `json:"chars"`
	// +k8s:maxBytes=3
	Bytes *string `json:"bytes"`
	// +k8s:format=k8s-short-name
	Name string `json:"name"`
	// +k8s:optional
	// +k8s:format=k8s-uuid
	UID *string `json:"uid"`
	// +k8s:neq="bad"
	Word Word `json:"word"`
	// +k8s:neq=5
	Num uint16 `json:"num"`
	// +k8s:neq=true
	Flag bool `json:"flag"`
}

type Word string
"#;

#[test]
fn string_lengths_formats_and_neq() {
    let f = fixture(STRINGS);
    assert_eq!(
        f.create("S", r#"{"chars": "é", "name": "ok", "word": "w"}"#),
        strs(&["chars: Too short: must be at least 2 characters [minLength]"])
    );
    assert_eq!(
        f.create(
            "S",
            r#"{"chars": "éééé", "bytes": "éé", "name": "Not-OK", "uid": "x", "word": "bad", "num": 5, "flag": true}"#
        ),
        strs(&[
            "chars: Too long: may not be more than 3 characters [maxLength]",
            "bytes: Too long: may not be more than 3 bytes [maxBytes]",
            "name: Invalid value: \"Not-OK\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?') [format=k8s-short-name]",
            "uid: Invalid value: \"x\": must be a lowercase UUID in 8-4-4-4-12 format [format=k8s-uuid]",
            "word: Invalid value: \"bad\": must not be equal to \"bad\" [neq]",
            "num: Invalid value: 5: must not be equal to 5 [neq]",
            "flag: Invalid value: true: must not be equal to true [neq]",
        ])
    );
    // The empty string is validated (no optional): too short and not a DNS label.
    let errs = f.create("S", r#"{"chars": "ab", "word": "x"}"#);
    assert_eq!(errs.len(), 1);
    assert!(errs[0].starts_with("name: Invalid value: \"\": a lowercase RFC 1123 label"));
}

const PRESENCE: &str = r#"
package p

type R struct {
	// +k8s:required
	// +k8s:minLength=3
	Name string `json:"name"`
	// +k8s:required
	Ptr *int `json:"ptr"`
	// +k8s:required
	List []string `json:"list"`
	// +k8s:required
	Map map[string]string `json:"map"`
	// +k8s:optional
	// +k8s:minLength=3
	Opt string `json:"opt"`
	// +k8s:forbidden
	Gone *string `json:"gone"`
	// +k8s:forbidden
	GoneList []int `json:"goneList"`
	// +k8s:optional
	// +default=5
	Defaulted int `json:"defaulted"`
	// +k8s:optional
	// +default=0
	ZeroDefault int `json:"zeroDefault"`
}
"#;

#[test]
fn required_optional_forbidden_and_defaults() {
    let f = fixture(PRESENCE);
    let errs = f.run("R", &Operation::create(), "{}", None);
    assert_eq!(
        render(&errs),
        strs(&[
            "name: Required value SC",
            "ptr: Required value SC",
            "list: Required value SC",
            "map: Required value SC",
            "defaulted: Required value SC",
        ])
    );
    assert!(
        errs.iter()
            .all(|e| e.origin.is_empty() && e.detail.is_empty())
    );
    // Set values: required passes, the rest of the field runs; empty collections are unset.
    assert_eq!(
        f.create(
            "R",
            r#"{"name": "ab", "ptr": 0, "list": [], "map": {"a": ""}, "opt": "x", "gone": "", "goneList": [1], "defaulted": 1}"#
        ),
        strs(&[
            "name: Too short: must be at least 3 characters [minLength]",
            "list: Required value SC",
            "opt: Too short: must be at least 3 characters [minLength]",
            "gone: Forbidden SC",
            "goneList: Forbidden SC",
        ])
    );
}

const ENUMS: &str = r#"
package p

type E struct {
	// +k8s:required
	Mode Mode `json:"mode"`
	// +k8s:optional
	Opt *Mode `json:"opt"`
	Gated Gated `json:"gated"`
}

// +k8s:enum
type Mode string

const (
	ModeB Mode = "b"
	ModeA Mode = "a"
	// +k8s:enumExclude
	ModeHidden Mode = "hidden"
	ModeDup Mode = "a"
)

// NotEnum has no members: constants of Mode do not count.
type NotEnum Mode

// +k8s:enum
type Gated string

const (
	GatedOn Gated = "on"
	// +k8s:ifEnabled(FeatureX)=+k8s:enumExclude
	GatedNew Gated = "new"
)
"#;

#[test]
fn enums_with_exclusions() {
    let f = fixture(ENUMS);
    assert_eq!(
        f.create("E", r#"{"mode": "c", "opt": "hidden", "gated": "on"}"#),
        strs(&[
            "mode: Unsupported value: \"c\": supported values: \"a\", \"b\"",
            "opt: Unsupported value: \"hidden\": supported values: \"a\", \"b\"",
            "gated: Internal error: undefined validation option \"FeatureX\"",
        ])
    );
    let op = Operation::create().with_option("FeatureX", true);
    assert_eq!(
        render(&f.run("E", &op, r#"{"mode": "a", "gated": "new"}"#, None)),
        strs(&["gated: Unsupported value: \"new\": supported values: \"on\""])
    );
    let op = Operation::create().with_option("FeatureX", false);
    assert_eq!(
        render(&f.run("E", &op, r#"{"mode": "a", "gated": "new"}"#, None)),
        Vec::<String>::new()
    );
    // An empty enum value is not a member unless optional short-circuits it.
    assert_eq!(
        render(&f.run("E", &op, r#"{"gated": "on"}"#, None)),
        strs(&["mode: Required value SC"])
    );
}

#[test]
fn type_errors_keep_declaration_order_through_nesting_and_embedding() {
    let f = fixture(
        r#"
package p

type Inner struct {
	// +k8s:minimum=1
	Zed int `json:"zed"`
	Alpha string `json:"alpha"`
}

type Embedded struct {
	Mid bool `json:"mid"`
}

type T struct {
	// +k8s:minimum=1
	Z int `json:"z"`
	Embedded
	In Inner `json:"in"`
	A []int `json:"a"`
}
"#,
    );
    assert_eq!(
        f.create(
            "T",
            r#"{"a": [1, "x"], "in": {"alpha": 1, "zed": "y"}, "mid": 3, "z": "w"}"#
        ),
        strs(&[
            "z: Invalid value: \"w\": expected integer, got string",
            "mid: Invalid value: 3: expected boolean, got number",
            "in.zed: Invalid value: \"y\": expected integer, got string",
            "in.alpha: Invalid value: 1: expected string, got number",
            "a[1]: Invalid value: \"x\": expected integer, got string",
        ])
    );
}

/// The decoding pass's shortcut for structs whose fields share a kind but a few: a value of
/// the shared kind at an other-kind key, and a value of another kind at a shared-kind key,
/// are errors whatever else the object holds.
#[test]
fn decoding_shortcut_of_mostly_string_structs_misses_no_error() {
    let f = fixture(
        r#"
// +k8s:validation-gen=*
package p

type T struct {
	// +k8s:maxLength=3
	A string `json:"a"`
	B *string `json:"b"`
	C string `json:"c"`
	N int    `json:"n"`
	F bool `json:"f"`
}
"#,
    );
    let cases: [(&str, &[&str]); 8] = [
        (r#"{"a": "x", "b": "y", "c": "z", "n": 1, "f": true}"#, &[]),
        (
            r#"{"a": "x", "n": "1"}"#,
            &["n: Invalid value: \"1\": expected integer, got string"],
        ),
        (
            r#"{"a": 1, "b": "y"}"#,
            &["a: Invalid value: 1: expected string, got number"],
        ),
        (
            r#"{"a": 1, "n": "1"}"#,
            &[
                "a: Invalid value: 1: expected string, got number",
                "n: Invalid value: \"1\": expected integer, got string",
            ],
        ),
        (
            r#"{"a": 1, "n": 1}"#,
            &["a: Invalid value: 1: expected string, got number"],
        ),
        (
            r#"{"a": true, "f": 1}"#,
            &[
                "a: Invalid value: true: expected string, got boolean",
                "f: Invalid value: 1: expected boolean, got number",
            ],
        ),
        // Unknown keys are not decoded, whatever their values.
        (r#"{"a": "x", "n": 1, "other": 5, "more": true}"#, &[]),
        (
            r#"{"a": "toolong", "n": 0, "other": 5}"#,
            &["a: Too long: may not be more than 3 characters [maxLength]"],
        ),
    ];
    for (doc, want) in cases {
        assert_eq!(f.create("T", doc), strs(want), "{doc}");
    }
}
