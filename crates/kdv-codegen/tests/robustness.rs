//! Bad input never panics the derive's code generation: sources damaged at random (bytes
//! removed, inserted or replaced, including tag text and Rust syntax) either expand or
//! fail with diagnostics.

use kdv_codegen::{Source, expand, fallback};
use proptest::prelude::*;

const WIDGET: &str = include_str!("../../kdv/tests/widget/types.rs");

const TYPES: &[&str] = &[
    "Widget",
    "WidgetSpec",
    "ObjectMeta",
    "Probe",
    "Tier",
    "Protocol",
    "WidgetPort",
    "RolloutStrategy",
    "Missing",
];

/// Pieces of tag and Rust syntax to splice in.
const PIECES: &[&str] = &[
    "+k8s:",
    "=",
    "(",
    ")",
    "{",
    "}",
    "<",
    ">",
    "\"",
    "///",
    "//!",
    "#[serde(",
    "flatten",
    "+k8s:eachVal=+k8s:",
    "+k8s:listMapKey=",
    "+k8s:unionMember",
    "Option<",
    "Vec<",
    "Box<",
    "::",
    "r#",
    "\u{e9}",
    "\n",
    "'",
    "+k8s:item(name: \"x\")=",
    "+k8s:subfield(",
];

fn damage(text: &str, edits: &[(usize, u8, usize)]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for &(at, kind, piece) in edits {
        let at = at % (bytes.len() + 1);
        match kind % 3 {
            0 => {
                let end = (at + 1 + piece % 8).min(bytes.len());
                bytes.drain(at..end);
            }
            1 => {
                let p = PIECES[piece % PIECES.len()].as_bytes();
                bytes.splice(at..at, p.iter().copied());
            }
            _ => {
                if at < bytes.len() {
                    let set = b"x=+,()<>{}\"#/:";
                    bytes[at] = set[piece % set.len()];
                }
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn damaged_sources_never_panic(edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<usize>()), 1..6)) {
        let text = damage(WIDGET, &edits);
        let source = Source { path: "types.rs", text: &text };
        for name in TYPES {
            match expand(source, name) {
                Ok(tokens) => prop_assert!(!tokens.is_empty()),
                Err(failures) => {
                    prop_assert!(!failures.is_empty());
                    let _ = fallback(source, name);
                }
            }
        }
    }
}

#[test]
fn deep_nesting_and_huge_inputs_are_bounded() {
    // A type nested a thousand levels deep in Option and Vec.
    let mut ty = String::from("i32");
    for i in 0..1000 {
        ty = if i % 2 == 0 {
            format!("Option<{ty}>")
        } else {
            format!("Vec<{ty}>")
        };
    }
    let text = format!("pub struct S {{\n    /// +k8s:optional\n    pub x: {ty},\n}}\n");
    let _ = expand(
        Source {
            path: "s.rs",
            text: &text,
        },
        "S",
    );
    // A thousand fields, each with tags.
    let mut text = String::from("pub struct S {\n");
    for i in 0..1000 {
        text.push_str(&format!(
            "    /// +k8s:optional\n    /// +k8s:maxLength={i}\n    pub f{i}: Option<String>,\n"
        ));
    }
    text.push_str("}\n");
    let started = std::time::Instant::now();
    assert!(
        expand(
            Source {
                path: "s.rs",
                text: &text
            },
            "S"
        )
        .is_ok()
    );
    assert!(started.elapsed().as_secs() < 30);
}
