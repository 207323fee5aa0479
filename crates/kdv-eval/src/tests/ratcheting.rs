//! Ratcheting (spec §5): field-level checks, element correlation, nil == empty.

use super::*;

const SRC: &str = r#"
package p

type R struct {
	// +k8s:maxLength=3
	Name string `json:"name"`
	// +k8s:listType=atomic
	// +k8s:eachVal=+k8s:minLength=2
	Atomic []string `json:"atomic"`
	// +k8s:listType=set
	// +k8s:eachVal=+k8s:minLength=2
	Set []string `json:"set"`
	// +k8s:listType=map
	// +k8s:listMapKey=key
	// +k8s:eachVal=+k8s:immutable
	Items []Item `json:"items"`
	// +k8s:eachVal=+k8s:immutable
	Map map[string]string `json:"map"`
	// +k8s:eachKey=+k8s:maxLength=2
	Keys map[string]int `json:"keys"`
	Child *Child `json:"child"`
	// +k8s:immutable
	Whole []string `json:"whole"`
}

type Item struct {
	Key  string `json:"key"`
	Data string `json:"data"`
}

type Child struct {
	// +k8s:immutable
	Fixed string `json:"fixed"`
}
"#;

#[test]
fn unchanged_invalid_fields_pass_and_changed_ones_are_revalidated() {
    let f = fixture(SRC);
    assert_eq!(
        f.create("R", r#"{"name": "toolong"}"#),
        strs(&["name: Too long: may not be more than 3 characters [maxLength]"])
    );
    assert!(
        f.update("R", r#"{"name": "toolong"}"#, r#"{"name": "toolong"}"#)
            .is_empty()
    );
    assert_eq!(
        f.update("R", r#"{"name": "toolong!"}"#, r#"{"name": "toolong"}"#),
        strs(&["name: Too long: may not be more than 3 characters [maxLength]"])
    );
}

#[test]
fn atomic_lists_revalidate_every_item_when_reordered() {
    let f = fixture(SRC);
    let old = r#"{"atomic": ["a", "bb"], "set": ["a", "bb"]}"#;
    // Same data: nothing runs.
    assert!(f.update("R", old, old).is_empty());
    // Reordered: the atomic list changed and every item is validated again; the set's items
    // correlate with their old selves and are skipped.
    assert_eq!(
        f.update("R", r#"{"atomic": ["bb", "a"], "set": ["bb", "a"]}"#, old),
        strs(&["atomic[1]: Too short: must be at least 2 characters [minLength]"])
    );
}

#[test]
fn list_maps_and_maps_correlate_items() {
    let f = fixture(SRC);
    let old =
        r#"{"items": [{"key": "a", "data": "1"}, {"key": "b", "data": "2"}], "map": {"x": "1"}}"#;
    assert!(
        f.update(
            "R",
            r#"{"items": [{"key": "b", "data": "2"}, {"key": "a", "data": "1"}], "map": {"x": "1"}}"#,
            old
        )
        .is_empty()
    );
    // A new item and a new map key are uncorrelated: immutable fails for them.
    assert_eq!(
        f.update(
            "R",
            r#"{"items": [{"key": "a", "data": "1"}, {"key": "c"}], "map": {"x": "1", "y": "2"}}"#,
            old
        ),
        strs(&[
            "items[1]: Invalid value: null: field is immutable [immutable] SC",
            "map[y]: Invalid value: null: field is immutable [immutable] SC",
        ])
    );
    // Removing items is fine.
    assert!(
        f.update("R", r#"{"items": [{"key": "b", "data": "2"}]}"#, old)
            .is_empty()
    );
}

#[test]
fn map_keys_are_checked_only_when_new() {
    let f = fixture(SRC);
    let old = r#"{"keys": {"long": 1}}"#;
    assert!(f.update("R", r#"{"keys": {"long": 2}}"#, old).is_empty());
    assert_eq!(
        f.update("R", r#"{"keys": {"long": 1, "new": 1}}"#, old),
        strs(&["keys: Too long: may not be more than 2 characters [maxLength]"])
    );
}

#[test]
fn nil_equals_empty_and_absent_equals_zero() {
    let f = fixture(SRC);
    assert!(f.update("R", r#"{"whole": []}"#, "{}").is_empty());
    assert!(
        f.update("R", r#"{"whole": null, "name": ""}"#, r#"{"whole": []}"#)
            .is_empty()
    );
    assert_eq!(
        f.update("R", r#"{"whole": ["x"]}"#, r#"{"whole": []}"#),
        strs(&["whole: Invalid value: null: field is immutable [immutable] SC"])
    );
}

#[test]
fn newly_set_pointer_structs_are_not_correlated() {
    let f = fixture(SRC);
    // The child was absent: its fields have no old value, so immutable fails.
    assert_eq!(
        f.update("R", r#"{"child": {"fixed": "x"}}"#, "{}"),
        strs(&["child.fixed: Invalid value: null: field is immutable [immutable] SC"])
    );
    assert!(
        f.update(
            "R",
            r#"{"child": {"fixed": "x"}}"#,
            r#"{"child": {"fixed": "x"}}"#
        )
        .is_empty()
    );
    assert_eq!(
        f.update(
            "R",
            r#"{"child": {"fixed": "y"}}"#,
            r#"{"child": {"fixed": "x"}}"#
        ),
        strs(&["child.fixed: Invalid value: null: field is immutable [immutable] SC"])
    );
    // An absent old root means nothing is correlated: every immutable field fails, set or
    // not (upstream `OldValue(nil)`).
    let errs = f.run(
        "R",
        &Operation::update(),
        r#"{"child": {"fixed": "x"}}"#,
        None,
    );
    assert_eq!(
        render(&errs),
        strs(&[
            "child.fixed: Invalid value: null: field is immutable [immutable] SC",
            "whole: Invalid value: null: field is immutable [immutable] SC",
        ])
    );
    // A nil pointer struct is not descended.
    assert!(
        f.update("R", r#"{"child": null}"#, r#"{"child": {"fixed": "x"}}"#)
            .is_empty()
    );
}
