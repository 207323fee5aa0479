//! Tag misuse is a compile error at the tag's doc line, with the message `kdv lint` prints
//! for the same tag (trybuild compares the compiler's output with `ui/*.stderr`).

#[test]
fn tag_misuse_fails_to_compile() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
