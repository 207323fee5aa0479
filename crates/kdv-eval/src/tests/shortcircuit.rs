//! `run_calls`: cohorts, ShortCircuit and NonError ordering; subfield inheritance; levels.

use super::*;

#[test]
fn cohorts_run_default_first_and_a_default_short_circuit_stops_everything() {
    const SRC: &str = r#"
package p

// +k8s:validateFalse(cohort: "c2")="type c2 regular"
// +k8s:validateFalse(cohort: "c1")="type c1 regular"
// +k8s:validateFalse(cohort: "c1", flags: "ShortCircuit")="type c1 sc"
// +k8s:validateFalse(cohort: "c2", flags: "ShortCircuit")="type c2 sc"
// +k8s:validateFalse="type regular"
// +k8s:validateFalse(flags: "ShortCircuit")="type sc"
type T struct {
	// +k8s:validateFalse="field"
	S string `json:"s"`
}

// +k8s:validateFalse(cohort: "c2")="c2 regular"
// +k8s:validateFalse(cohort: "c1")="c1 regular"
// +k8s:validateFalse(cohort: "c1", flags: "ShortCircuit")="c1 sc"
// +k8s:validateFalse(cohort: "c2", flags: "ShortCircuit,NonError")="c2 sc"
// +k8s:validateFalse(flags: "NonError")="hidden"
// +k8s:validateFalse="regular"
type U struct {
	// +k8s:validateFalse="field"
	S string `json:"s"`
}
"#;
    let f = fixture(SRC);
    assert_eq!(
        f.create("T", "{}"),
        strs(&["<nil>: Invalid value: {}: forced failure: type sc [validateFalse] SC"])
    );
    // No default short-circuit: default cohort, then c2 (stopped by its NonError SC), then
    // c1 (stopped by its SC), then the fields.
    assert_eq!(
        f.create("U", "{}"),
        strs(&[
            "<nil>: Invalid value: {}: forced failure: regular [validateFalse]",
            "<nil>: Invalid value: {}: forced failure: c1 sc [validateFalse] SC",
            "s: Invalid value: \"\": forced failure: field [validateFalse]",
        ])
    );
}

const SUBFIELDS: &str = r#"
package p

type Inner struct {
	// +k8s:required
	Value *string `json:"value"`
	Other string `json:"other"`
}

type Frozen struct {
	// +k8s:immutable
	Value string `json:"value"`
}

type Parent struct {
	// +k8s:subfield(value)=+k8s:validateFalse="parent value"
	Field Inner `json:"field"`
	// +k8s:subfield(value)=+k8s:validateFalse="opaque value"
	// +k8s:opaqueType
	Opaque Inner `json:"opaque"`
	// +k8s:required
	// +k8s:subfield(value)=+k8s:immutable
	// +k8s:subfield(value)=+k8s:validateFalse="multi value"
	Multi *Inner `json:"multi"`
	// +k8s:subfield(value)=+k8s:validateFalse="frozen value"
	Frozen Frozen `json:"frozen"`
	// +k8s:alpha=+k8s:subfield(other)=+k8s:maxLength=1
	// +k8s:subfield(other)=+k8s:beta=+k8s:minLength=3
	Levels Inner `json:"levels"`
}
"#;

#[test]
fn subfields_inherit_member_short_circuits() {
    let f = fixture(SUBFIELDS);
    let base = r#""opaque": {"value": "v"}, "multi": {"value": "v"}, "frozen": {"value": "v"}, "levels": {"value": "v", "other": "ab"}"#;
    // Required member missing: the inherited SC (NonError) stops the subfield's own
    // validation; the member's own Required error comes from Inner's function.
    assert_eq!(
        f.create("Parent", &format!(r#"{{"field": {{}}, {base}}}"#)),
        strs(&[
            "field.value: Required value SC",
            "opaque.value: Invalid value: \"v\": forced failure: opaque value [validateFalse]",
            "multi.value: Invalid value: \"v\": forced failure: multi value [validateFalse]",
            "frozen.value: Invalid value: \"v\": forced failure: frozen value [validateFalse]",
            "levels.other: Too long: may not be more than 1 character [maxLength] alpha",
            "levels.other: Too short: must be at least 3 characters [minLength] beta",
        ])
    );
    // Opaque field: nothing is inherited, so the subfield validation runs on a nil member.
    assert_eq!(
        f.create(
            "Parent",
            &format!(
                r#"{{"field": {{"value": ""}}, {}}}"#,
                base.replace(r#""opaque": {"value": "v"}"#, r#""opaque": {}"#)
            )
        )[1],
        "opaque.value: Invalid value: null: forced failure: opaque value [validateFalse]"
    );
    // Member set: the subfield validation runs.
    assert_eq!(
        f.create(
            "Parent",
            &format!(r#"{{"field": {{"value": ""}}, {base}}}"#)
        )[0],
        "field.value: Invalid value: \"\": forced failure: parent value [validateFalse]"
    );
}

#[test]
fn subfield_immutable_and_required_both_short_circuit() {
    let f = fixture(SUBFIELDS);
    let doc = |multi: &str| {
        format!(
            r#"{{"field": {{"value": "v"}}, "opaque": {{"value": "v"}}, "multi": {multi}, "frozen": {{"value": "v"}}, "levels": {{"value": "v", "other": "abc"}}}}"#
        )
    };
    let only_multi = |errs: Vec<String>| -> Vec<String> {
        errs.into_iter()
            .filter(|e| e.starts_with("multi"))
            .collect()
    };
    assert_eq!(
        only_multi(f.create("Parent", &doc("null"))),
        strs(&["multi: Required value SC"])
    );
    assert_eq!(
        only_multi(f.update(
            "Parent",
            &doc(r#"{"value": "new"}"#),
            &doc(r#"{"value": "old"}"#)
        )),
        strs(&["multi.value: Invalid value: null: field is immutable [immutable] SC"])
    );
    assert_eq!(
        only_multi(f.update("Parent", &doc(r#"{}"#), &doc(r#"{"value": "old"}"#))),
        strs(&[
            "multi.value: Invalid value: null: field is immutable [immutable] SC",
            "multi.value: Required value SC",
        ])
    );
    // Frozen's immutable member changed: the inherited immutable short-circuits the
    // subfield validation; the member's own error comes from Frozen's function.
    let frozen = |v: &str| {
        format!(
            r#"{{"field": {{"value": "v"}}, "opaque": {{"value": "v"}}, "multi": {{"value": "v"}}, "frozen": {{"value": "{v}"}}, "levels": {{"value": "v", "other": "abc"}}}}"#
        )
    };
    assert_eq!(
        f.update("Parent", &frozen("new"), &frozen("old")),
        strs(&["frozen.value: Invalid value: null: field is immutable [immutable] SC"])
    );
}

/// `tags/levels/mapvalidation`, `listset`, `uniquetag`: where stability marks land.
#[test]
fn stability_levels_through_wrappers() {
    const SRC: &str = r#"
package p

type M struct {
	// +k8s:eachVal=+k8s:maxLength=2
	Plain map[string]string `json:"plain"`
	// +k8s:alpha=+k8s:eachVal=+k8s:maxLength=2
	AlphaEach map[string]string `json:"alphaEach"`
	// +k8s:beta=+k8s:eachKey=+k8s:maxLength=2
	BetaKeys map[string]string `json:"betaKeys"`
	// +k8s:eachVal=+k8s:alpha=+k8s:maxLength=2
	AlphaInner map[string]string `json:"alphaInner"`
	// +k8s:eachVal=+k8s:alpha=+k8s:immutable
	AlphaNoArgs map[string]string `json:"alphaNoArgs"`
	// +k8s:alpha=+k8s:listType=set
	Set []Item `json:"set"`
	// +k8s:listType=set
	// +k8s:eachVal=+k8s:subfield(value)=+k8s:beta=+k8s:minimum=10
	Chained []Item `json:"chained"`
	// +k8s:listType=atomic
	// +k8s:alpha=+k8s:unique=set
	AlphaUnique []string `json:"alphaUnique"`
}

type Item struct {
	// +k8s:beta=+k8s:minimum=10
	Value int `json:"value"`
	S string `json:"s"`
}
"#;
    let f = fixture(SRC);
    assert_eq!(
        f.create(
            "M",
            r#"{"plain": {"a": "foo"}, "alphaEach": {"a": "foo"}, "betaKeys": {"foo": "a"},
                "alphaInner": {"a": "foo"}, "set": [{"value": 10}, {"value": 10}],
                "chained": [{"value": 9, "s": "x"}], "alphaUnique": ["a", "a"]}"#
        ),
        strs(&[
            "plain[a]: Too long: may not be more than 2 characters [maxLength]",
            "alphaEach[a]: Too long: may not be more than 2 characters [maxLength] alpha",
            "betaKeys: Too long: may not be more than 2 characters [maxLength] beta",
            "alphaInner[a]: Too long: may not be more than 2 characters [maxLength] alpha",
            "set[1]: Duplicate value: {\"value\":10} alpha",
            "chained[0].value: Invalid value: 9: must be greater than or equal to 10 [minimum] beta",
            "chained[0].value: Invalid value: 9: must be greater than or equal to 10 [minimum] beta",
            "alphaUnique[1]: Duplicate value: \"a\" alpha",
        ])
    );
    // An argument-less inner function loses its mark inside a wrapper (upstream passes it
    // by reference).
    assert_eq!(
        f.update(
            "M",
            r#"{"alphaNoArgs": {"k": "new"}}"#,
            r#"{"alphaNoArgs": {"k": "old"}}"#
        ),
        strs(&["alphaNoArgs[k]: Invalid value: null: field is immutable [immutable] SC"])
    );
}
