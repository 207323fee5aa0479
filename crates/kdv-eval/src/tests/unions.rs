//! Unions (`+k8s:unionMember`, `+k8s:unionDiscriminator`, `+k8s:zeroOrOneOfMember`) of
//! struct fields and list items: messages, member names, ratcheting on set-ness.

use super::*;

const UNIONS: &str = r#"
package p

type U struct {
	// +k8s:unionMember
	// +k8s:optional
	M1 *string `json:"m1"`
	// +k8s:unionMember(memberName: "Second")
	// +k8s:optional
	M2 []string `json:"m2"`
	// +k8s:unionMember
	M3 int `json:"m3"`
	Other string `json:"other"`
}

type Two struct {
	// +k8s:unionMember(union: "u2")
	A *string `json:"a"`
	// +k8s:unionMember(union: "u2")
	B *string `json:"b"`
	// +k8s:unionMember(union: "u1")
	C *string `json:"c"`
	// +k8s:unionMember(union: "u1")
	D *string `json:"d"`
}

type Z struct {
	// +k8s:zeroOrOneOfMember
	A map[string]string `json:"a"`
	// +k8s:zeroOrOneOfMember
	B bool `json:"b"`
}

type D struct {
	// +k8s:unionDiscriminator
	Kind Kind `json:"kind"`
	// +k8s:unionMember
	// +k8s:optional
	A *string `json:"a"`
	// +k8s:unionMember(memberName: "bee")
	// +k8s:optional
	B *string `json:"b"`
}

type Kind string

type Parent struct {
	// +k8s:optional
	Child *U `json:"child"`
}
"#;

#[test]
fn exactly_one_member() {
    let f = fixture(UNIONS);
    assert_eq!(
        f.create("U", "{}"),
        strs(&["<nil>: Invalid value: \"\": must specify one of: `m1`, `m2`, `m3` [union]"])
    );
    // Empty lists and zero values are unset.
    assert_eq!(f.create("U", r#"{"m2": [], "m3": 0}"#), f.create("U", "{}"));
    assert_eq!(f.create("U", r#"{"m2": ["x"]}"#), strs(&[]));
    assert_eq!(f.create("U", r#"{"m3": 4}"#), strs(&[]));
    assert_eq!(
        f.create("U", r#"{"m1": "a", "m3": 1}"#),
        strs(&[
            "<nil>: Invalid value: \"{m1, m3}\": must specify exactly one of: `m1`, `m2`, `m3` [union]"
        ])
    );
    // Nested: at the struct's path.
    assert_eq!(
        f.create("Parent", r#"{"child": {}}"#),
        strs(&["child: Invalid value: \"\": must specify one of: `m1`, `m2`, `m3` [union]"])
    );
}

#[test]
fn unions_ratchet_on_member_set_ness() {
    let f = fixture(UNIONS);
    // Values changed, set-ness did not: not re-validated.
    assert_eq!(
        f.update("U", r#"{"m1": "a", "m3": 1}"#, r#"{"m1": "b", "m3": 2}"#),
        strs(&[])
    );
    assert_eq!(f.update("U", r#"{"other": "x"}"#, "{}"), strs(&[]));
    // A member became set: validated.
    assert_eq!(
        f.update("U", r#"{"m1": "a", "m3": 1}"#, r#"{"m1": "a"}"#),
        strs(&[
            "<nil>: Invalid value: \"{m1, m3}\": must specify exactly one of: `m1`, `m2`, `m3` [union]"
        ])
    );
    // No old object: validated.
    let errs = f.run("U", &Operation::update(), "{}", Some("null"));
    assert_eq!(render(&errs).len(), 1);
    // The nested struct was unset before: not correlated, validated.
    assert_eq!(
        f.update("Parent", r#"{"child": {}}"#, "{}"),
        strs(&["child: Invalid value: \"\": must specify one of: `m1`, `m2`, `m3` [union]"])
    );
}

#[test]
fn several_unions_run_in_name_order() {
    let f = fixture(UNIONS);
    assert_eq!(
        f.create("Two", "{}"),
        strs(&[
            "<nil>: Invalid value: \"\": must specify one of: `c`, `d` [union]",
            "<nil>: Invalid value: \"\": must specify one of: `a`, `b` [union]",
        ])
    );
    assert_eq!(f.create("Two", r#"{"a": "", "d": ""}"#), strs(&[]));
}

#[test]
fn zero_or_one_of() {
    let f = fixture(UNIONS);
    assert_eq!(f.create("Z", "{}"), strs(&[]));
    assert_eq!(f.create("Z", r#"{"a": {}, "b": true}"#), strs(&[]));
    assert_eq!(
        f.create("Z", r#"{"a": {"k": "v"}, "b": true}"#),
        strs(&[
            "<nil>: Invalid value: \"{a, b}\": must specify at most one of: `a`, `b` [zeroOrOneOf]"
        ])
    );
    assert_eq!(
        f.update(
            "Z",
            r#"{"a": {"k": "w"}, "b": true}"#,
            r#"{"a": {"k": "v"}, "b": true}"#
        ),
        strs(&[])
    );
}

#[test]
fn discriminated_union() {
    let f = fixture(UNIONS);
    assert_eq!(f.create("D", "{}"), strs(&[]));
    assert_eq!(f.create("D", r#"{"kind": "Unknown"}"#), strs(&[]));
    assert_eq!(f.create("D", r#"{"kind": "A", "a": "x"}"#), strs(&[]));
    assert_eq!(f.create("D", r#"{"kind": "bee", "b": "x"}"#), strs(&[]));
    assert_eq!(
        f.create("D", r#"{"kind": "A", "b": "x"}"#),
        strs(&[
            "a: Invalid value: \"\": must be specified when `kind` is \"A\" [union]",
            "b: Invalid value: \"\": may only be specified when `kind` is \"bee\" [union]",
        ])
    );
    // Unchanged discriminator and set-ness: skipped; a changed discriminator re-validates.
    assert_eq!(
        f.update(
            "D",
            r#"{"kind": "A", "b": "y"}"#,
            r#"{"kind": "A", "b": "x"}"#
        ),
        strs(&[])
    );
    assert_eq!(
        f.update(
            "D",
            r#"{"kind": "bee", "a": "x"}"#,
            r#"{"kind": "A", "a": "x"}"#
        ),
        strs(&[
            "a: Invalid value: \"\": may only be specified when `kind` is \"A\" [union]",
            "b: Invalid value: \"\": must be specified when `kind` is \"bee\" [union]",
        ])
    );
    let errs = f.run("D", &Operation::update(), r#"{"kind": "A"}"#, Some("null"));
    assert_eq!(
        render(&errs),
        strs(&["a: Invalid value: \"\": must be specified when `kind` is \"A\" [union]"])
    );
}

const ITEM_UNIONS: &str = r#"
package p

type S struct {
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:item(name: "succeeded")=+k8s:unionMember
	// +k8s:item(name: "failed")=+k8s:unionMember
	Tasks []Task `json:"tasks"`
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:item(name: "c")=+k8s:zeroOrOneOfMember
	// +k8s:item(name: "a")=+k8s:zeroOrOneOfMember
	// +k8s:item(name: "b")=+k8s:zeroOrOneOfMember
	Steps []*Task `json:"steps"`
	Typed TaskList `json:"typed"`
}

type Task struct {
	Name  string `json:"name"`
	State string `json:"state"`
}

// +k8s:listType=map
// +k8s:listMapKey=name
// +k8s:item(name: "x")=+k8s:zeroOrOneOfMember
// +k8s:item(name: "y")=+k8s:zeroOrOneOfMember
type TaskList []Task
"#;

#[test]
fn list_item_unions() {
    let f = fixture(ITEM_UNIONS);
    assert_eq!(
        f.create("S", r#"{"tasks": [{"name": "succeeded"}]}"#),
        strs(&[])
    );
    assert_eq!(
        f.create("S", r#"{"tasks": [{"name": "other"}]}"#),
        strs(&[
            "tasks: Invalid value: \"\": must specify one of: `tasks[{\"name\": \"succeeded\"}]`, `tasks[{\"name\": \"failed\"}]` [union]"
        ])
    );
    assert_eq!(
        f.create(
            "S",
            r#"{"tasks": [{"name": "failed"}, {"name": "succeeded"}]}"#
        ),
        strs(&[
            "tasks: Invalid value: \"{tasks[{\\\"name\\\": \\\"succeeded\\\"}], tasks[{\\\"name\\\": \\\"failed\\\"}]}\": must specify exactly one of: `tasks[{\"name\": \"succeeded\"}]`, `tasks[{\"name\": \"failed\"}]` [union]"
        ])
    );
    // Extractors are ordered by selector (a, b, c) while members keep tag order (c, a, b):
    // upstream names the set members by position, and so does kdv.
    assert_eq!(
        f.create(
            "S",
            r#"{"tasks": [{"name": "failed"}], "steps": [null, {"name": "b"}, {"name": "a"}]}"#
        ),
        strs(&["steps[0]: Required value SC",])
    );
    assert_eq!(
        f.create(
            "S",
            r#"{"tasks": [{"name": "failed"}], "steps": [{"name": "b"}, {"name": "a"}]}"#
        ),
        strs(&[
            "steps: Invalid value: \"{steps[{\\\"name\\\": \\\"c\\\"}], steps[{\\\"name\\\": \\\"a\\\"}]}\": must specify at most one of: `steps[{\"name\": \"c\"}]`, `steps[{\"name\": \"a\"}]`, `steps[{\"name\": \"b\"}]` [zeroOrOneOf]"
        ])
    );
    // Typedef'd lists name members after the type.
    assert_eq!(
        f.create(
            "S",
            r#"{"tasks": [{"name": "failed"}], "typed": [{"name": "x"}, {"name": "y"}]}"#
        ),
        strs(&[
            "typed: Invalid value: \"{TaskList[{\\\"name\\\": \\\"x\\\"}], TaskList[{\\\"name\\\": \\\"y\\\"}]}\": must specify at most one of: `TaskList[{\"name\": \"x\"}]`, `TaskList[{\"name\": \"y\"}]` [zeroOrOneOf]"
        ])
    );
    // Ratcheting: same members present (other fields changed) → skipped.
    assert_eq!(
        f.update(
            "S",
            r#"{"tasks": [{"name": "failed", "state": "1"}, {"name": "succeeded"}]}"#,
            r#"{"tasks": [{"name": "failed", "state": "0"}, {"name": "succeeded"}]}"#
        ),
        strs(&[])
    );
}
