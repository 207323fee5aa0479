//! Compile tests: Go sources through `kdv-go`, then the IR and diagnostics.

use std::path::PathBuf;

use crate::*;

/// Compiles one Go file as package `example.com/p` (package name from the source).
pub(crate) fn compile_go(src: &str) -> Compiled {
    let (pkg, diags) = kdv_go::load_sources(
        "example.com/p",
        &[(PathBuf::from("types.go"), src.to_string())],
    );
    assert!(diags.is_empty(), "Go parse diagnostics: {diags:?}");
    let mut universe = Universe::default();
    universe.packages.insert(pkg.path.clone(), pkg);
    compile(&universe)
}

fn messages(c: &Compiled) -> Vec<String> {
    c.diagnostics.iter().map(|d| d.message.clone()).collect()
}

fn field<'a>(c: &'a Compiled, ty: &str, json: &str) -> &'a FieldRules {
    let id = c.rules.find_type(ty).expect("type");
    c.rules
        .type_rules(id)
        .fields
        .iter()
        .find(|f| f.json_name == json)
        .expect("field")
}

#[test]
fn minimum_and_optional_lower_in_cohort_order() {
    let c = compile_go(
        r#"
// +k8s:validation-gen=*
package p

type T struct {
	// +k8s:minimum=1
	// +k8s:optional
	A int `json:"a"`
}
"#,
    );
    assert!(c.diagnostics.is_empty(), "{:?}", messages(&c));
    let f = field(&c, "T", "a");
    let calls: Vec<&Check> = f.validations.iter().map(|v| &v.check).collect();
    assert_eq!(
        calls,
        vec![&Check::Optional(Presence::Value), &Check::Minimum(1)]
    );
    assert_eq!(f.equality, Equality::Direct);
    let roots: Vec<RootInfo> = c.rules.roots().collect();
    assert_eq!(roots.len(), 1);
    assert_eq!(roots[0].version, "p");
    assert_eq!(c.rules.root_for_kind("p", "T"), Some(roots[0].id));
}

#[test]
fn tag_errors_point_at_the_tag() {
    let c = compile_go(
        r#"package p

type T struct {
	// +k8s:minimum=x
	A int `json:"a"`
	// +k8s:maxLength=3
	B int `json:"b"`
	// +k8s:eachVal=+k8s:setByServer
	C []int `json:"c"`
}
"#,
    );
    let m = messages(&c);
    assert_eq!(
        m,
        vec![
            "tag \"k8s:minimum\": tag value has wrong type: got string, want int",
            "tag \"k8s:maxLength\": can only be used on string types (int)",
            "tag \"k8s:eachVal\": unknown tag \"k8s:setByServer\"",
        ]
    );
    let span = c.diagnostics[0].span.as_ref().expect("span");
    assert_eq!((span.line, span.col), (4, 6));
    let span = c.diagnostics[2].span.as_ref().expect("span");
    assert_eq!(span.line, 8);
    assert_eq!(
        &span.line_text[span.col as usize - 1..][..span.len as usize],
        "k8s:setByServer"
    );
}
