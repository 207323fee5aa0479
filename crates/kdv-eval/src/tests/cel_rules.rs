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

const EXTENSIONS: &str = r#"
package p

type Labels struct {
	// +validationRule="self.isPrint()",message="must be printable"
	// +validationRule="!self.containsControl()",message="must not contain control characters"
	// +k8s:maxLength=64
	Title string `json:"title"`
	// +k8s:optional
	// +k8s:maxLength=128
	// +validationRule="isLabelSelector(self)",message="must be a label selector"
	Selector string `json:"selector,omitempty"`
	// +k8s:optional
	// +k8s:maxLength=16
	// +validationRule="isSemver(self)",message="must be a semantic version"
	Version string `json:"version,omitempty"`
}
"#;

fn with_minor(f: &Fixture, minor: u32, new: &str) -> Vec<String> {
    let id = f.rules.find_type("Labels").expect("type");
    let new: Value = serde_json::from_str(new).unwrap();
    let options = crate::EvalOptions {
        kubernetes_minor: Some(minor),
        ..crate::EvalOptions::default()
    };
    render(&crate::validate_with(
        &f.rules,
        id,
        &Operation::create(),
        &new,
        None,
        &options,
    ))
}

#[test]
fn kdv_libraries_are_available_to_type_rules() {
    let f = fixture(EXTENSIONS);
    assert!(
        f.create(
            "Labels",
            r#"{"title": "ok", "selector": "app=web,tier in (a,b)"}"#
        )
        .is_empty()
    );
    assert_eq!(
        f.create(
            "Labels",
            r#"{"title": "a\u0001b", "selector": "app in web"}"#
        ),
        strs(&[
            "title: Invalid value: \"a\\x01b\": must be printable",
            "title: Invalid value: \"a\\x01b\": must not contain control characters",
            "selector: Invalid value: \"app in web\": must be a label selector",
        ])
    );
}

#[test]
fn type_rules_follow_the_selected_release() {
    let f = fixture(EXTENSIONS);
    let doc = r#"{"title": "ok", "version": "1.2.3"}"#;
    // The semver library is in the stored environment from 1.33.
    assert!(with_minor(&f, 33, doc).is_empty());
    assert!(with_minor(&f, 36, doc).is_empty());
    let old = with_minor(&f, 32, doc);
    assert_eq!(old.len(), 1, "{old:?}");
    assert!(
        old[0].contains("undeclared reference to 'isSemver'"),
        "{old:?}"
    );
    // kdv's own libraries are there in every release.
    assert!(with_minor(&f, 30, r#"{"title": "ok", "selector": "a=b"}"#).is_empty());
}
