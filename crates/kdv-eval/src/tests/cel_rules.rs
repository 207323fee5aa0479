//! `+validationRule`: run as the CRD rule at its node — root and field rules, reasons and
//! field paths, transition rules with and without a correlated old value, ratcheting of an
//! unchanged root, absent fields, the runtime budget.

use super::*;

const RULES: &str = r#"
package p

// +validationRule="self.min <= self.max",message="min must not exceed max"
// +validationRule="self.max >= oldSelf.max",message="max may not decrease"
type Range struct {
	Min int32 `json:"min"`
	Max int32 `json:"max"`
	// +validationRule="self.all(x, x.size() < 4)",reason=Forbidden
	// +k8s:optional
	// +k8s:maxItems=4
	Tags []string `json:"tags,omitempty"`
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:maxItems=4
	Items []Item `json:"items,omitempty"`
}

type Item struct {
	Name string `json:"name"`
	// +validationRule="self == oldSelf",message="is immutable"
	Value *string `json:"value,omitempty"`
}
"#;

#[test]
fn rules_run_as_crd_rules_at_their_node() {
    let f = fixture(RULES);
    assert!(f.create("Range", r#"{"min": 1, "max": 2}"#).is_empty());
    assert_eq!(
        f.create("Range", r#"{"min": 3, "max": 2, "tags": ["long", "a"]}"#),
        strs(&[
            "<nil>: Invalid value: min must not exceed max",
            "tags: Forbidden: failed rule: self.all(x, x.size() < 4)",
        ])
    );
    // An absent field is absent to CEL (a CRD's error text), and its own rules do not run.
    assert_eq!(
        f.create("Range", r#"{"max": 2}"#),
        strs(&[
            "<nil>: Invalid value: \"object\": no such key: min evaluating rule: min must not exceed max"
        ])
    );
}

#[test]
fn transition_rules_need_a_correlated_old_value() {
    let f = fixture(RULES);
    let old = r#"{"min": 1, "max": 5, "items": [{"name": "a", "value": "x"}]}"#;
    assert_eq!(
        f.update("Range", r#"{"min": 1, "max": 4, "items": [{"name": "b", "value": "y"}, {"name": "a", "value": "z"}]}"#, old),
        strs(&[
            "<nil>: Invalid value: max may not decrease",
            "items[1].value: Invalid value: \"z\": is immutable",
        ])
    );
    // Created: transition rules do not run.
    assert!(f.create("Range", r#"{"min": 1, "max": 0}"#).len() == 1);
}

#[test]
fn an_unchanged_failing_root_is_ratcheted() {
    let f = fixture(RULES);
    let bad = r#"{"min": 3, "max": 2}"#;
    assert!(f.update("Range", bad, bad).is_empty());
    assert_eq!(
        f.update("Range", r#"{"min": 4, "max": 2}"#, bad),
        strs(&["<nil>: Invalid value: min must not exceed max"])
    );
}
