//! `+k8s:modeDiscriminator` / `+k8s:ifMode`: rules per mode, implicit forbidden, levels,
//! ratcheting.

use super::*;

const MODES: &str = r#"
package p

type M struct {
	// +k8s:modeDiscriminator
	Mode string `json:"mode"`
	// +k8s:ifMode("A")=+k8s:required
	// +k8s:ifMode("A")=+k8s:maxLength=3
	// +k8s:ifMode("B")=+k8s:optional
	F *string `json:"f"`
	// +k8s:alpha=+k8s:ifMode("A")=+k8s:required
	// +k8s:beta=+k8s:ifMode("B")=+k8s:required
	G *string `json:"g"`
	// +k8s:ifMode("A")=+k8s:optional
	L []string `json:"l"`
	// +k8s:beta=+k8s:ifMode(mode: "B")=+k8s:optional
	H int `json:"h"`
}

type Flag struct {
	// +k8s:modeDiscriminator(modality: "On")
	On bool `json:"on"`
	// +k8s:ifMode(modality: "On", mode: "true")=+k8s:required
	V *string `json:"v"`
}
"#;

#[test]
fn rules_of_the_selected_mode_apply() {
    let f = fixture(MODES);
    assert_eq!(
        f.create("M", r#"{"mode": "A"}"#),
        strs(&["f: Required value", "g: Required value alpha"])
    );
    assert_eq!(
        f.create(
            "M",
            r#"{"mode": "A", "f": "toolong", "g": "x", "l": ["a"]}"#
        ),
        strs(&["f: Too long: may not be more than 3 characters [maxLength]"])
    );
    // Other modes forbid the field; the implicit forbidden carries the rules' level when
    // they share one.
    assert_eq!(
        f.create("M", r#"{"mode": "B", "f": "x", "l": ["a"], "h": 1}"#),
        strs(&["g: Required value beta", "l: Forbidden"])
    );
    assert_eq!(
        f.create("M", r#"{"mode": "C", "f": "x", "g": "y", "h": 2}"#),
        strs(&["f: Forbidden", "g: Forbidden", "h: Forbidden beta"])
    );
    assert_eq!(
        f.create("Flag", r#"{"on": true}"#),
        strs(&["v: Required value"])
    );
    assert_eq!(f.create("Flag", r#"{"v": "x"}"#), strs(&["v: Forbidden"]));
}

#[test]
fn mode_rules_ratchet() {
    let f = fixture(MODES);
    let old = r#"{"mode": "C", "f": "x", "g": "y"}"#;
    assert_eq!(f.update("M", old, old), strs(&[]));
    // Another field changed: the unchanged member is still skipped.
    assert_eq!(
        f.update("M", r#"{"mode": "C", "f": "x", "g": "z"}"#, old),
        strs(&["g: Forbidden"])
    );
    // The discriminator changed: every member is re-validated.
    assert_eq!(
        f.update("M", r#"{"mode": "D", "f": "x", "g": "y"}"#, old),
        strs(&["f: Forbidden", "g: Forbidden"])
    );
}
