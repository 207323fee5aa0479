//! Field defaults: applied as the API server applies them, and checked at lint time.

use serde_json::json;

use super::*;

const SRC: &str = r#"package p

// +k8s:validation-gen=*
type T struct {
	// +k8s:optional
	// +default=5
	// +k8s:minimum=1
	Count int32 `json:"count,omitempty"`
	// +k8s:default="fast"
	Mode *string `json:"mode,omitempty"`
	// +k8s:optional
	Items []Item `json:"items,omitempty"`
	Inner `json:",inline"`
}

type Item struct {
	// +k8s:default=1
	// +k8s:minimum=1
	Weight int32 `json:"weight,omitempty"`
}

type Inner struct {
	// +default="x"
	Label string `json:"label,omitempty"`
}
"#;

#[test]
fn absent_and_null_fields_get_their_defaults_at_every_depth() {
    let f = fixture(SRC);
    let ty = f.rules.find_type("T").expect("T");
    let v = json!({"mode": null, "items": [{}, {"weight": 3}]});
    let d = crate::apply_defaults(&f.rules, ty, &v);
    assert_eq!(
        *d,
        json!({"count": 5, "mode": "fast", "label": "x", "items": [{"weight": 1}, {"weight": 3}]})
    );
    let full = json!({"count": 2, "mode": "slow", "label": "y", "items": []});
    assert!(matches!(
        crate::apply_defaults(&f.rules, ty, &full),
        std::borrow::Cow::Borrowed(_)
    ));
}

#[test]
fn an_absent_upstream_default_is_required_until_defaulted() {
    let f = fixture(SRC);
    let ty = f.rules.find_type("T").expect("T");
    let op = Operation::create();
    let raw = json!({});
    let errs = crate::validate(&f.rules, ty, &op, &raw, None);
    assert_eq!(
        errs.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
        ["count: Required value"]
    );
    let d = crate::apply_defaults(&f.rules, ty, &raw);
    assert!(crate::validate(&f.rules, ty, &op, &d, None).is_empty());
}

#[test]
fn defaults_that_fail_their_fields_rules_are_lint_errors() {
    let f = fixture(
        r#"package p

// +k8s:validation-gen=*
type T struct {
	// +k8s:optional
	// +default=0
	// +k8s:minimum=1
	A int32 `json:"a,omitempty"`
	// +k8s:default=0
	// +k8s:maximum=-1
	B int32 `json:"b,omitempty"`
	// +k8s:default=7
	// +k8s:maximum=5
	C *int32 `json:"c,omitempty"`
	// +k8s:default="abc"
	D *int32 `json:"d,omitempty"`
	// +k8s:default=3
	// +k8s:minimum=1
	E *int32 `json:"e,omitempty"`
}
"#,
    );
    let found: Vec<String> = crate::default_findings(&f.rules)
        .iter()
        .map(|d| {
            let s = d.span.as_ref().expect("span");
            format!("{}:{}: {}", s.line, s.col, d.message)
        })
        .collect();
    assert_eq!(
        found,
        [
            "6:6: field T.A: the default 0 fails the field's own rules: a: Invalid value: 0: must be greater than or equal to 1",
            "9:6: field T.B: the default 0 fails the field's own rules: b: Invalid value: 0: must be less than or equal to -1",
            "12:6: field T.C: the default 7 fails the field's own rules: c: Invalid value: 7: must be less than or equal to 5",
            "15:6: field T.D: the default \"abc\" fails the field's own rules: d: Invalid value: \"abc\": expected integer, got string",
        ]
    );
}
