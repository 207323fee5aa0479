//! `+k8s:item`: selection by list-map keys (string, int, bool, pointer keys), cohorts,
//! correlation with the old item, typedef'd lists.

use super::*;

const ITEMS: &str = r#"
package p

type S struct {
	// +k8s:listType=map
	// +k8s:listMapKey=key
	// +k8s:item(key: "a")=+k8s:immutable
	// +k8s:item(key: "b")=+k8s:subfield(data)=+k8s:maxLength=3
	// +k8s:item(key: "c")=+k8s:subfield(data)=+k8s:validateFalse="c"
	// +k8s:item(key: "c")=+k8s:subfield(data)=+k8s:validateFalse="c again"
	Items []Item `json:"items"`
	// +k8s:listType=map
	// +k8s:listMapKey=n
	// +k8s:listMapKey=key
	// +k8s:listMapKey=on
	// +k8s:item(key: "x", on: true, n: 2)=+k8s:subfield(data)=+k8s:validateFalse="x2"
	Ptrs []*PItem `json:"ptrs"`
	Typed Items `json:"typed"`
}

type Item struct {
	Key   string `json:"key"`
	Data  string `json:"data"`
	Extra string `json:"extra"`
}

type PItem struct {
	Key  *string `json:"key"`
	N    int     `json:"n"`
	On   bool    `json:"on"`
	Data string  `json:"data"`
}

// +k8s:listType=map
// +k8s:listMapKey=key
// +k8s:item(key: "t")=+k8s:subfield(data)=+k8s:minLength=2
type Items []Item
"#;

#[test]
fn item_validations_apply_to_the_matching_item() {
    let f = fixture(ITEMS);
    assert_eq!(f.create("S", r#"{"items": [{"key": "z"}]}"#), strs(&[]));
    assert_eq!(
        f.create(
            "S",
            r#"{"items": [{"key": "a"}, {"key": "b", "data": "long"}, {"key": "c", "data": "v"}]}"#
        ),
        strs(&[
            "items[1].data: Too long: may not be more than 3 characters [maxLength]",
            "items[2].data: Invalid value: \"v\": forced failure: c [validateFalse]",
            "items[2].data: Invalid value: \"v\": forced failure: c again [validateFalse]",
        ])
    );
    // All key fields must match; pointer keys must be set.
    assert_eq!(
        f.create(
            "S",
            r#"{"ptrs": [{"n": 2, "on": true}, {"key": "x", "n": 2}, {"key": "x", "n": 2, "on": true}]}"#
        ),
        strs(&["ptrs[2].data: Invalid value: \"\": forced failure: x2 [validateFalse]"])
    );
    assert_eq!(
        f.create("S", r#"{"typed": [{"key": "t", "data": "1"}]}"#),
        strs(&["typed[0].data: Too short: must be at least 2 characters [minLength]"])
    );
}

#[test]
fn items_correlate_with_the_first_matching_old_item() {
    let f = fixture(ITEMS);
    // Unchanged item, moved: skipped.
    assert_eq!(
        f.update(
            "S",
            r#"{"items": [{"key": "z"}, {"key": "a", "data": "1"}]}"#,
            r#"{"items": [{"key": "a", "data": "1"}]}"#
        ),
        strs(&[])
    );
    assert_eq!(
        f.update(
            "S",
            r#"{"items": [{"key": "a", "data": "2"}]}"#,
            r#"{"items": [{"key": "a", "data": "1"}]}"#
        ),
        strs(&["items[0]: Invalid value: null: field is immutable [immutable] SC"])
    );
    // An item that did not exist before is validated without an old value.
    assert_eq!(
        f.update(
            "S",
            r#"{"items": [{"key": "a"}]}"#,
            r#"{"items": [{"key": "z"}]}"#
        ),
        strs(&["items[0]: Invalid value: null: field is immutable [immutable] SC"])
    );
    // The subfield is ratcheted within the changed item.
    assert_eq!(
        f.update(
            "S",
            r#"{"items": [{"key": "b", "data": "long", "extra": "1"}]}"#,
            r#"{"items": [{"key": "b", "data": "long"}]}"#
        ),
        strs(&[])
    );
}
