use super::*;

const SMALL: &str = "\
/// +k8s:enum
pub enum Mode { Fast, Slow }

pub struct Spec {
    /// +k8s:required
    /// +k8s:minimum=1
    pub replicas: i32,
    /// +k8s:optional
    /// +k8s:format=k8s-short-name
    pub name: Option<String>,
    /// +k8s:optional
    pub mode: Option<Mode>,
}
";

fn pretty(tokens: TokenStream) -> String {
    let file: syn::File = syn::parse2(tokens).expect("generated code parses");
    prettyplease::unparse(&file)
}

#[test]
fn generated_code_of_a_small_struct() {
    let src = Source {
        path: "spec.rs",
        text: SMALL,
    };
    let code = pretty(expand(src, "Spec").expect("expands"));
    insta::assert_snapshot!(code);
    let code = pretty(expand(src, "Mode").expect("expands"));
    assert!(code.contains("Mode::Fast => \"Fast\""), "{code}");
}

/// A file with a `+validationRule`: its types are read in place by CEL (the field present
/// unless `skip_serializing_if` says, keys in JSON order), a flattened struct is not.
#[test]
fn generated_code_reading_a_struct_in_place() {
    let text = "\
/// +validationRule=\"!has(self.surge) || self.surge <= self.replicas\"
#[serde(rename_all = \"camelCase\")]
pub struct Spec {
    pub replicas: i32,
    #[serde(skip_serializing_if = \"Option::is_none\")]
    pub surge: Option<i32>,
}

pub struct Wrapper {
    #[serde(flatten)]
    pub spec: Spec,
}
";
    let src = Source {
        path: "spec.rs",
        text,
    };
    let code = pretty(expand(src, "Spec").expect("expands"));
    let start = code.find("impl __kdv::kdv_cel").expect("ToCel");
    let end = code.find("impl __kdv::TypeValidation").expect("validation");
    insta::assert_snapshot!(&code[start..end]);
    let code = pretty(expand(src, "Wrapper").expect("expands"));
    assert!(!code.contains("impl __kdv::CelNative"), "{code}");
}

#[test]
fn misuse_is_reported_at_the_tag_with_lint_s_message() {
    let text = "pub struct S {\n    /// +k8s:minLength=1\n    pub x: i32,\n    /// +k8s:maxLength=x\n    pub y: String,\n    /// +k8s:unknownTag\n    pub z: String,\n}\n";
    let errs = expand(Source { path: "s.rs", text }, "S").expect_err("misuse fails");
    let texts: Vec<String> = errs
        .iter()
        .map(|f| format!("{:?}: {}", f.line_col, f.message))
        .collect();
    insta::assert_debug_snapshot!(texts);
}

#[test]
fn types_outside_the_file_top_level_are_reported() {
    let errs = expand(
        Source {
            path: "s.rs",
            text: "mod m { pub struct S { x: i32 } }",
        },
        "S",
    )
    .expect_err("not found");
    assert!(errs[0].message.contains("not declared at the top level"));
}
