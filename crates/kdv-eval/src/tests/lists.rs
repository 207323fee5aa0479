//! List semantics: uniqueness, list-map keys, nil elements, element loops, sizes.

use super::*;

const LISTS: &str = r#"
package p

type L struct {
	// +k8s:listType=set
	Set []string `json:"set"`
	// +k8s:listType=map
	// +k8s:listMapKey=key
	Items []Item `json:"items"`
	// +k8s:listType=atomic
	// +k8s:unique=set
	Uniq []int `json:"uniq"`
	// +k8s:listType=map
	// +k8s:listMapKey=key
	// +k8s:listMapKey=n
	Ptrs []*Item `json:"ptrs"`
	// +k8s:maxItems=2
	// +k8s:eachVal=+k8s:minimum=1
	Few []int `json:"few"`
	// +k8s:minItems=1
	Some []int `json:"some"`
	// +k8s:minProperties=1
	// +k8s:maxProperties=2
	// +k8s:eachKey=+k8s:maxLength=2
	// +k8s:eachVal=+k8s:minLength=1
	Props map[string]string `json:"props"`
	// +k8s:listType=set
	Structs []Item `json:"structs"`
	Typed Names `json:"typed"`
}

type Item struct {
	Key  string `json:"key"`
	N    *int   `json:"n"`
	Data string `json:"data"`
}

// +k8s:listType=set
// +k8s:eachVal=+k8s:format=k8s-short-name
type Names []string
"#;

#[test]
fn duplicates_are_reported_in_ascending_index_order() {
    let f = fixture(LISTS);
    let errs = f.run(
        "L",
        &Operation::create(),
        r#"{"set": ["a", "b", "a", "b", "c"], "uniq": [1, 2, 1], "some": [1],
            "items": [{"key": "x", "data": "1"}, {"key": "y"}, {"key": "x", "data": "2"}],
            "structs": [{"key": "x", "n": null}, {"key": "x"}, {"key": "x", "n": 1}],
            "typed": ["a", "B", "a"]}"#,
        None,
    );
    let rendered: Vec<String> = errs
        .iter()
        .map(|e| format!("{} {} {}", e.field, e.error_type.as_str(), e.origin))
        .collect();
    assert_eq!(
        rendered,
        strs(&[
            "set[2] FieldValueDuplicate ",
            "set[3] FieldValueDuplicate ",
            "items[2] FieldValueDuplicate ",
            "uniq[2] FieldValueDuplicate ",
            "props FieldValueTooFew minProperties",
            "structs[1] FieldValueDuplicate ",
            "typed[1] FieldValueInvalid format=k8s-short-name",
            "typed[2] FieldValueDuplicate ",
        ])
    );
    assert_eq!(render(&errs)[0], "set[2]: Duplicate value: \"a\"");
}

#[test]
fn nil_pointer_elements_short_circuit_the_field() {
    let f = fixture(LISTS);
    assert_eq!(
        f.create(
            "L",
            r#"{"some": [1], "props": {"a": "b"}, "ptrs": [{"key": "a", "n": 1}, null, {"key": "a", "n": 1}, null]}"#
        ),
        strs(&["ptrs[1]: Required value SC", "ptrs[3]: Required value SC"])
    );
    // Without nils, pointer keys compare by value (nil == nil).
    assert_eq!(
        f.create(
            "L",
            r#"{"some": [1], "props": {"a": "b"}, "ptrs": [{"key": "a"}, {"key": "a", "n": 1}, {"key": "a"}, {"key": "a", "n": 2}, {"key": "a", "n": 1}]}"#
        ),
        strs(&["ptrs[2]: Duplicate value: {\"key\":\"a\"}", "ptrs[4]: Duplicate value: {\"key\":\"a\",\"n\":1}"])
    );
}

#[test]
fn sizes_and_element_loops() {
    let f = fixture(LISTS);
    assert_eq!(
        f.create(
            "L",
            r#"{"some": [], "few": [0, 1, 0], "props": {"a": "", "abc": "x", "c": "y"}}"#
        ),
        strs(&[
            "few: Too many: 3: must have at most 2 items [maxItems] SC",
            "some: Too few: 0: must have at least 1 item [minItems]",
            "props: Too many: 3: must have at most 2 items [maxProperties] SC",
        ])
    );
    assert_eq!(
        f.create(
            "L",
            r#"{"some": [1], "few": [0, 1], "props": {"a": "", "abc": "x"}}"#
        ),
        strs(&[
            "few[0]: Invalid value: 0: must be greater than or equal to 1 [minimum]",
            "props: Too long: may not be more than 2 characters [maxLength]",
            "props[a]: Too short: must be at least 1 character [minLength]",
        ])
    );
}

/// A list of `n` distinct names with duplicates of earlier names at the given indices.
fn names_with_dups(n: usize, dups: &[(usize, usize)]) -> Vec<String> {
    let mut v: Vec<String> = (0..n).map(|i| format!("name-{i}")).collect();
    for &(at, of) in dups {
        v[at] = v[of].clone();
    }
    v
}

#[test]
fn large_lists_use_an_index_with_identical_results() {
    let f = fixture(LISTS);
    for n in [10, 16, 17, 200] {
        let dups = [(n - 1, 0), (n / 2 + 1, n / 2), (n / 2 + 2, n / 2)];
        let set = names_with_dups(n, &dups);
        let items: Vec<serde_json::Value> =
            set.iter().map(|k| serde_json::json!({"key": k})).collect();
        let doc = serde_json::json!({"some": [1], "props": {"a": "b"}, "set": set, "items": items});
        let errs = f.run("L", &Operation::create(), &doc.to_string(), None);
        let mut want_idx: Vec<usize> = dups.iter().map(|d| d.0).collect();
        want_idx.sort_unstable();
        let mut want: Vec<String> = want_idx.iter().map(|i| format!("set[{i}]")).collect();
        want.extend(want_idx.iter().map(|i| format!("items[{i}]")));
        let got: Vec<String> = errs.iter().map(|e| e.field.to_string()).collect();
        assert_eq!(got, want, "n = {n}");
    }
}

#[test]
fn large_list_maps_correlate_reordered_items() {
    const SRC: &str = r#"
package p

type M struct {
	// +k8s:listType=map
	// +k8s:listMapKey=key
	// +k8s:eachVal=+k8s:immutable
	Items []Item `json:"items"`
}

type Item struct {
	Key  string `json:"key"`
	Data string `json:"data"`
}
"#;
    let f = fixture(SRC);
    for n in [5, 40] {
        let old: Vec<serde_json::Value> = (0..n)
            .map(|i| serde_json::json!({"key": format!("k{i}"), "data": "d"}))
            .collect();
        let mut new = old.clone();
        new.reverse();
        let doc =
            |items: &Vec<serde_json::Value>| serde_json::json!({ "items": items }).to_string();
        assert_eq!(
            f.update("M", &doc(&new), &doc(&old)),
            Vec::<String>::new(),
            "n = {n}"
        );
        // Change one item and add one: both fail immutability, at their new indices.
        new[1]["data"] = serde_json::json!("changed");
        new.push(serde_json::json!({"key": "new"}));
        assert_eq!(
            f.update("M", &doc(&new), &doc(&old)),
            vec![
                format!("items[1]: Invalid value: null: field is immutable [immutable] SC"),
                format!("items[{n}]: Invalid value: null: field is immutable [immutable] SC"),
            ],
            "n = {n}"
        );
    }
}

#[test]
fn correlation_takes_the_first_old_match_even_when_an_identical_item_sits_at_the_same_index() {
    const SRC: &str = r#"
package p

type M struct {
	// +k8s:listType=map
	// +k8s:listMapKey=key
	// +k8s:eachVal=+k8s:immutable
	Items []Item `json:"items"`
}

type Item struct {
	Key  string `json:"key"`
	Data string `json:"data"`
}
"#;
    let f = fixture(SRC);
    let item = |k: &str, d: &str| serde_json::json!({"key": k, "data": d});
    // The old list repeats key "a"; new[3] is identical to old[3] but correlates with
    // old[0], which differs.
    let old = vec![
        item("a", "1"),
        item("b", "1"),
        item("c", "1"),
        item("a", "2"),
        item("d", "1"),
        item("e", "1"),
    ];
    let mut new = old.clone();
    new[0] = item("x", "1");
    let doc = |items: &Vec<serde_json::Value>| serde_json::json!({ "items": items }).to_string();
    assert_eq!(
        f.update("M", &doc(&new), &doc(&old)),
        strs(&[
            "items[0]: Invalid value: null: field is immutable [immutable] SC",
            "items[3]: Invalid value: null: field is immutable [immutable] SC",
        ])
    );
}

/// Go's error body dereferences a pointer before printing it: a duplicate `*string` item
/// prints as the string (`%q`), not JSON-encoded (`<` would be `\u003c`); a named string
/// behind the pointer still prints JSON-encoded.
#[test]
fn duplicate_pointer_items_print_the_pointed_to_value() {
    let f = fixture(
        r#"
package p

type Name string

type P struct {
	// +k8s:listType=set
	Strs []*string `json:"strs"`
	// +k8s:listType=set
	Ints []*int64 `json:"ints"`
	// +k8s:listType=set
	Names []*Name `json:"names"`
}
"#,
    );
    let errs = f.run(
        "P",
        &Operation::create(),
        r#"{"strs": ["a<b", "a<b"], "ints": [7, 7], "names": ["x<y", "x<y"]}"#,
        None,
    );
    assert_eq!(
        errs.iter().map(|e| e.bad_value.clone()).collect::<Vec<_>>(),
        [
            kdv_runtime::BadValue::String("a<b".into()),
            kdv_runtime::BadValue::Int(7),
            kdv_runtime::BadValue::Json(serde_json::json!("x<y")),
        ]
    );
    assert_eq!(
        render(&errs),
        strs(&[
            "strs[1]: Duplicate value: \"a<b\"",
            "ints[1]: Duplicate value: 7",
            "names[1]: Duplicate value: \"x\\u003cy\"",
        ])
    );
}
