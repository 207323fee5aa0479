//! `+k8s:update` and `+k8s:monotonic` (spec §3.13–3.14, §5.5).

use super::*;

const SRC: &str = r#"
package p

type U struct {
	// +k8s:update=NoSet
	NoSet string `json:"noSet"`
	// +k8s:update=NoModify
	// +k8s:update=NoUnset
	SetOnce string `json:"setOnce"`
	// +k8s:update=NoSet
	// +k8s:update=NoModify
	// +k8s:update=NoUnset
	Frozen *int `json:"frozen"`
	// +k8s:update=NoModify
	Inner Inner `json:"inner"`
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:update=NoAddItem
	// +k8s:update=NoRemoveItem
	Items []Item `json:"items"`
	// +k8s:listType=atomic
	// +k8s:update=NoUnset
	Atomic []string `json:"atomic"`
	// +k8s:update=NoRemoveItem
	Labels map[string]string `json:"labels"`
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:eachVal=+k8s:update=NoModify
	PerItem []Item `json:"perItem"`
	// +k8s:monotonic
	Generation int64 `json:"generation"`
	// +k8s:monotonic
	Counter *uint32 `json:"counter"`
}

type Inner struct {
	A string `json:"a"`
}

type Item struct {
	Name string `json:"name"`
	V    int    `json:"v"`
}
"#;

#[test]
fn scalar_and_pointer_transitions() {
    let f = fixture(SRC);
    assert!(f.create("U", r#"{"noSet": "x", "frozen": 1}"#).is_empty());
    assert_eq!(
        f.update("U", r#"{"noSet": "x"}"#, "{}"),
        strs(&["noSet: Invalid value: null: field cannot be set once created [update] SC"])
    );
    assert!(f.update("U", r#"{"setOnce": "v"}"#, "{}").is_empty());
    assert_eq!(
        f.update("U", r#"{"setOnce": "w"}"#, r#"{"setOnce": "v"}"#),
        strs(&["setOnce: Invalid value: null: field cannot be modified once set [update] SC"])
    );
    assert_eq!(
        f.update("U", "{}", r#"{"setOnce": "v"}"#),
        strs(&["setOnce: Invalid value: null: field cannot be cleared once set [update] SC"])
    );
    // Pointers: 0 is set.
    assert_eq!(
        f.update("U", r#"{"frozen": 0}"#, "{}"),
        strs(&["frozen: Invalid value: null: field cannot be set once created [update] SC"])
    );
    assert_eq!(
        f.update("U", r#"{"frozen": 1}"#, r#"{"frozen": 0}"#),
        strs(&["frozen: Invalid value: null: field cannot be modified once set [update] SC"])
    );
    // A struct is always set: any change is a modification.
    assert_eq!(
        f.update("U", r#"{"inner": {"a": "x"}}"#, "{}"),
        strs(&["inner: Invalid value: null: field cannot be modified once set [update] SC"])
    );
}

#[test]
fn list_and_map_items() {
    let f = fixture(SRC);
    let old = r#"{"items": [{"name": "a"}, {"name": "b"}], "labels": {"x": "1", "y": "2"}, "atomic": ["q"]}"#;
    assert!(
        f.update(
            "U",
            r#"{"items": [{"name": "b", "v": 2}, {"name": "a"}], "labels": {"x": "1", "y": "3"}, "atomic": ["r"]}"#,
            old
        )
        .is_empty()
    );
    assert_eq!(
        f.update(
            "U",
            r#"{"items": [{"name": "c"}, {"name": "a"}], "labels": {"z": "1"}}"#,
            old
        ),
        strs(&[
            "items[0]: Forbidden: item may not be added [update] SC",
            "items: Forbidden: item may not be removed [update] SC",
            "atomic: Invalid value: null: field cannot be cleared once set [update] SC",
            "labels[x]: Forbidden: item may not be removed [update] SC",
            "labels[y]: Forbidden: item may not be removed [update] SC",
        ])
    );
}

#[test]
fn each_val_no_modify_allows_new_and_removed_items() {
    let f = fixture(SRC);
    let old = r#"{"perItem": [{"name": "a", "v": 1}, {"name": "b", "v": 2}]}"#;
    assert!(
        f.update(
            "U",
            r#"{"perItem": [{"name": "c", "v": 9}, {"name": "a", "v": 1}]}"#,
            old
        )
        .is_empty()
    );
    assert_eq!(
        f.update("U", r#"{"perItem": [{"name": "a", "v": 5}]}"#, old),
        strs(&["perItem[0]: Invalid value: null: field cannot be modified once set [update] SC"])
    );
}

#[test]
fn monotonic_counters() {
    let f = fixture(SRC);
    assert!(f.create("U", r#"{"generation": 5}"#).is_empty());
    assert!(
        f.update("U", r#"{"generation": 6}"#, r#"{"generation": 5}"#)
            .is_empty()
    );
    assert_eq!(
        f.update(
            "U",
            r#"{"generation": 4, "counter": 1}"#,
            r#"{"generation": 5, "counter": 2}"#
        ),
        strs(&[
            "generation: Invalid value: 4: may not be decreased from 5 [monotonic]",
            "counter: Invalid value: 1: may not be decreased from 2 [monotonic]",
        ])
    );
    // Clearing a pointer is not a decrease.
    assert!(f.update("U", "{}", r#"{"counter": 2}"#).is_empty());
}
