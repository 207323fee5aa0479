//! Reproductions of upstream fixture expectations (`output_tests/**/doc_test.go` and
//! `testdata/validate-false.json`), with our own Go types and JSON values.

use super::*;

/// `tags/forbidden`: every kind is forbidden when set, and zero values count as unset.
#[test]
fn forbidden_across_kinds() {
    const SRC: &str = r#"
package p

type F struct {
	// +k8s:forbidden
	S string `json:"s"`
	// +k8s:forbidden
	SP *string `json:"sp"`
	// +k8s:forbidden
	ST Str `json:"st"`
	// +k8s:forbidden
	I int `json:"i"`
	// +k8s:forbidden
	B bool `json:"b"`
	// +k8s:forbidden
	Fl float64 `json:"fl"`
	// +k8s:forbidden
	By byte `json:"by"`
	// +k8s:forbidden
	O *Other `json:"o"`
	// +k8s:forbidden
	L []string `json:"l"`
	// +k8s:forbidden
	LT List `json:"lt"`
	// +k8s:forbidden
	Raw []byte `json:"raw"`
	// +k8s:forbidden
	M map[string]string `json:"m"`
}

type Str string
type Other struct{}
type List []string
"#;
    let f = fixture(SRC);
    assert!(f.create("F", "{}").is_empty());
    assert!(
        f.create(
            "F",
            r#"{"s": "", "sp": null, "st": "", "i": 0, "b": false, "fl": 0.0, "by": 0,
                "o": null, "l": [], "lt": [], "raw": "", "m": {}}"#
        )
        .is_empty()
    );
    let all = f.create(
        "F",
        r#"{"s": "abc", "sp": "x", "st": "abc", "i": 123, "b": true, "fl": 1.23, "by": 97,
            "o": {}, "l": ["a"], "lt": ["a"], "raw": "YWJj", "m": {"a": "b"}}"#,
    );
    let want: Vec<String> = [
        "s", "sp", "st", "i", "b", "fl", "by", "o", "l", "lt", "raw", "m",
    ]
    .iter()
    .map(|p| format!("{p}: Forbidden SC"))
    .collect();
    assert_eq!(all, want);
}

/// `tags/eachval/slice_of_primitive`: every element is validated; reordering an atomic list
/// re-validates; identical data is skipped.
#[test]
fn each_val_on_primitive_slices() {
    const SRC: &str = r#"
package p

type S struct {
	// +k8s:eachVal=+k8s:validateFalse="list"
	List []string `json:"list"`
	// +k8s:eachVal=+k8s:validateFalse="typed"
	Typed []Str `json:"typed"`
}

type Str string
"#;
    let f = fixture(SRC);
    assert!(f.create("S", "{}").is_empty());
    let v = r#"{"list": ["zero", "one"], "typed": ["zero", "one"]}"#;
    let want = strs(&[
        "list[0]: Invalid value: \"zero\": forced failure: list [validateFalse]",
        "list[1]: Invalid value: \"one\": forced failure: list [validateFalse]",
        "typed[0]: Invalid value: \"zero\": forced failure: typed [validateFalse]",
        "typed[1]: Invalid value: \"one\": forced failure: typed [validateFalse]",
    ]);
    assert_eq!(f.create("S", v), want);
    assert_eq!(
        f.update(
            "S",
            v,
            r#"{"list": ["one", "zero"], "typed": ["one", "zero"]}"#
        ),
        want
    );
    assert!(f.update("S", v, v).is_empty());
}

/// `embedded`: inline embedded structs of a root object get a path segment named after
/// their type; an embedded nil pointer is not descended.
#[test]
fn embedded_fields_of_the_root() {
    const SRC: &str = r#"
package p

type T1 struct {
	TypeMeta int
	T2 `json:""`
	*T3 `json:""`
}

type T2 struct {
	// +k8s:validateFalse="T2.IntField"
	IntField int `json:"intField"`
}

type T3 struct {
	// +k8s:validateFalse="T3.StringField"
	StringField string `json:"stringField"`
}

type Outer struct {
	// +k8s:optional
	Inner *T1 `json:"inner"`
}
"#;
    let f = fixture(SRC);
    let paths = |errs: Vec<String>| -> Vec<String> {
        errs.iter()
            .map(|e| e.split(':').next().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(paths(f.create("T1", "{}")), strs(&["T2.intField"]));
    assert_eq!(
        paths(f.create("T1", r#"{"stringField": "x"}"#)),
        strs(&["T2.intField", "T3.stringField"])
    );
    // Below the root, inline fields take the parent's path.
    assert_eq!(
        paths(f.create("Outer", r#"{"inner": {"stringField": "x"}}"#)),
        strs(&["inner.intField", "inner.stringField"])
    );
}

/// `tags/optional` and `tags/required` with typedefs and pointers.
#[test]
fn optional_unset_skips_type_validations() {
    const SRC: &str = r#"
package p

type O struct {
	// +k8s:optional
	// +k8s:validateFalse="field"
	S string `json:"s"`
	// +k8s:optional
	P *Str `json:"p"`
	// +k8s:required
	R Str `json:"r"`
}

// +k8s:validateFalse="type Str"
type Str string
"#;
    let f = fixture(SRC);
    assert_eq!(f.create("O", "{}"), strs(&["r: Required value SC"]));
    assert_eq!(
        sorted(f.create("O", r#"{"s": "a", "p": "", "r": "x"}"#)),
        sorted(strs(&[
            "s: Invalid value: \"a\": forced failure: field [validateFalse]",
            "p: Invalid value: \"\": forced failure: type Str [validateFalse]",
            "r: Invalid value: \"x\": forced failure: type Str [validateFalse]",
        ]))
    );
}

/// `tags/subfield/list`-like: element validation through a typedef'd list type.
#[test]
fn typedef_list_iteration_uses_the_type_metadata() {
    const SRC: &str = r#"
package p

type Holder struct {
	Items ItemList `json:"items"`
}

// +k8s:listType=map
// +k8s:listMapKey=name
type ItemList []Item

type Item struct {
	// +k8s:immutable
	Value string `json:"value"`
	Name string `json:"name"`
}
"#;
    let f = fixture(SRC);
    let old = r#"{"items": [{"name": "a", "value": "1"}, {"name": "b", "value": "2"}]}"#;
    assert!(
        f.update(
            "Holder",
            r#"{"items": [{"name": "b", "value": "2"}, {"name": "a", "value": "1"}]}"#,
            old
        )
        .is_empty()
    );
    assert_eq!(
        f.update(
            "Holder",
            r#"{"items": [{"name": "b", "value": "3"}, {"name": "a", "value": "1"}, {"name": "a"}]}"#,
            old
        ),
        strs(&[
            "items[2]: Duplicate value: {\"name\":\"a\"}",
            "items[0].value: Invalid value: null: field is immutable [immutable] SC",
            "items[2].value: Invalid value: null: field is immutable [immutable] SC",
        ])
    );
}

/// upstream `ExpectValidateFalseByPath`: `forced failure:` messages grouped by path.
fn validate_false_by_path(
    errs: &kdv_runtime::ErrorList,
) -> std::collections::BTreeMap<String, Vec<String>> {
    let mut out: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for e in errs {
        if let Some(msg) = e.detail.strip_prefix("forced failure: ") {
            let path = e.field.to_string();
            let path = if path == "<nil>" { String::new() } else { path };
            out.entry(path).or_default().push(msg.to_string());
        }
    }
    for v in out.values_mut() {
        v.sort();
    }
    out
}

fn by_path(entries: &[(&str, &[&str])]) -> std::collections::BTreeMap<String, Vec<String>> {
    entries
        .iter()
        .map(|(p, msgs)| {
            let mut v: Vec<String> = msgs.iter().map(|s| s.to_string()).collect();
            v.sort();
            (p.to_string(), v)
        })
        .collect()
}

/// `tags/opaque`: opaque fields, elements and keys stop descent but keep their own tags.
#[test]
fn opaque_fields_elements_and_keys() {
    const SRC: &str = r#"
package p

type S struct {
	// +k8s:validateFalse="S.A"
	A Other `json:"a"`
	// +k8s:validateFalse="S.B"
	// +k8s:opaqueType
	B Other `json:"b"`
	// +k8s:validateFalse="S.C"
	// +k8s:eachVal=+k8s:validateFalse="S.C vals"
	// +k8s:eachVal=+k8s:opaqueType
	C []Other `json:"c"`
	// +k8s:eachKey=+k8s:validateFalse="S.D keys"
	// +k8s:eachVal=+k8s:validateFalse="S.D vals"
	D map[OtherString]Other `json:"d"`
	// +k8s:eachKey=+k8s:validateFalse="S.E keys"
	// +k8s:eachKey=+k8s:opaqueType
	// +k8s:eachVal=+k8s:opaqueType
	E map[OtherString]Other `json:"e"`
}

// +k8s:validateFalse="type Other"
type Other struct {
	// +k8s:validateFalse="Other.F"
	F string `json:"f"`
}

// +k8s:validateFalse="type OtherString"
type OtherString string
"#;
    let f = fixture(SRC);
    let errs = f.run(
        "S",
        &Operation::create(),
        r#"{"c": [{}, {}], "d": {"a": {"f": "x"}, "b": {}}, "e": {"a": {}}}"#,
        None,
    );
    assert_eq!(
        validate_false_by_path(&errs),
        by_path(&[
            ("a", &["S.A", "type Other"]),
            ("a.f", &["Other.F"]),
            ("b", &["S.B"]),
            ("c", &["S.C"]),
            ("c[0]", &["S.C vals"]),
            ("c[1]", &["S.C vals"]),
            (
                "d",
                &[
                    "S.D keys",
                    "S.D keys",
                    "type OtherString",
                    "type OtherString"
                ]
            ),
            ("d[a]", &["S.D vals", "type Other"]),
            ("d[a].f", &["Other.F"]),
            ("d[b]", &["S.D vals", "type Other"]),
            ("d[b].f", &["Other.F"]),
            ("e", &["S.E keys"]),
        ])
    );
}

/// `ifEnabled` / `ifDisabled`: conditional validations; an undefined option is an internal
/// error (no origin).
#[test]
fn option_gated_validations() {
    const SRC: &str = r#"
package p

type G struct {
	// +k8s:ifEnabled(Strict)=+k8s:maxLength=2
	// +k8s:ifDisabled(Strict)=+k8s:maxLength=4
	Name string `json:"name"`
	// +k8s:ifEnabled(Strict)=+k8s:required
	Must *string `json:"must"`
}
"#;
    let f = fixture(SRC);
    let run = |op: Operation, json: &str| render(&f.run("G", &op, json, None));
    assert_eq!(
        run(Operation::create(), r#"{"name": "abc"}"#),
        strs(&[
            "name: Internal error: undefined validation option \"Strict\"",
            "name: Internal error: undefined validation option \"Strict\"",
            "must: Internal error: undefined validation option \"Strict\" SC",
        ])
    );
    assert_eq!(
        run(
            Operation::create().with_option("Strict", true),
            r#"{"name": "abc"}"#
        ),
        strs(&[
            "name: Too long: may not be more than 2 characters [maxLength]",
            "must: Required value SC",
        ])
    );
    assert!(
        run(
            Operation::create().with_option("Strict", false),
            r#"{"name": "abcd"}"#
        )
        .is_empty()
    );
}

/// Subresource dispatch (§2.8): a root only validates the subresources it accepts.
#[test]
fn subresource_dispatch() {
    const SRC: &str = r#"
// +k8s:validation-gen=*
package p

// +k8s:supportsSubresource="/status"
type Root struct {
	// +k8s:maxLength=1
	S string `json:"s"`
}

// +k8s:isSubresource="/scale"
type Scale struct {
	// +k8s:minimum=1
	Replicas int `json:"replicas"`
}
"#;
    let f = fixture(SRC);
    let op = |subs: &[&str]| Operation::create().with_subresources(subs.iter().copied());
    assert_eq!(
        render(&f.run("Root", &op(&["status"]), r#"{"s": "xx"}"#, None)),
        strs(&["s: Too long: may not be more than 1 character [maxLength]"])
    );
    assert_eq!(
        render(&f.run("Root", &op(&[]), r#"{"s": "xx"}"#, None)).len(),
        1
    );
    assert_eq!(
        render(&f.run("Root", &op(&["scale"]), r#"{"s": "xx"}"#, None)),
        strs(&["<nil>: Internal error: no validation found for *p.Root, subresource: /scale"])
    );
    assert_eq!(
        render(&f.run("Scale", &op(&[]), r#"{"replicas": 1}"#, None)),
        strs(&["<nil>: Internal error: no validation found for *p.Scale, subresource: /"])
    );
    assert!(render(&f.run("Scale", &op(&["scale"]), r#"{"replicas": 1}"#, None)).is_empty());
}
