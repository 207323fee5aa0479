//! `+k8s:dependentRequired` / `+k8s:dependentForbidden`.

use super::*;

const DEPS: &str = r#"
package p

type Dep struct {
	// +k8s:dependentRequired("b")
	// +k8s:dependentForbidden("c")
	A *string `json:"a"`
	B []string `json:"b"`
	// +k8s:dependentRequired("b")
	C int `json:"c"`
	Other string `json:"other"`
}
"#;

#[test]
fn dependencies_apply_when_the_trigger_is_set() {
    let f = fixture(DEPS);
    assert_eq!(f.create("Dep", "{}"), strs(&[]));
    assert_eq!(f.create("Dep", r#"{"b": ["x"]}"#), strs(&[]));
    assert_eq!(
        f.create("Dep", r#"{"a": "x", "c": 1}"#),
        // Tags run in name order: dependentForbidden before dependentRequired.
        strs(&[
            "c: Forbidden: may not be set when a is set [dependentForbidden]",
            "b: Required value: must be set when a is set [dependentRequired]",
            "b: Required value: must be set when c is set [dependentRequired]",
        ])
    );
    assert_eq!(f.create("Dep", r#"{"a": "x", "b": ["y"]}"#), strs(&[]));
}

#[test]
fn dependencies_ratchet_on_set_ness() {
    let f = fixture(DEPS);
    // Trigger value changed, set-ness did not.
    assert_eq!(
        f.update(
            "Dep",
            r#"{"a": "x", "c": 1, "other": "1"}"#,
            r#"{"a": "y", "c": 2}"#
        ),
        strs(&[])
    );
    // The dependent was cleared: only the pairs involving it are re-checked.
    assert_eq!(
        f.update(
            "Dep",
            r#"{"a": "x", "c": 1}"#,
            r#"{"a": "x", "b": ["q"], "c": 1}"#
        ),
        strs(&[
            "b: Required value: must be set when a is set [dependentRequired]",
            "b: Required value: must be set when c is set [dependentRequired]",
        ])
    );
}
