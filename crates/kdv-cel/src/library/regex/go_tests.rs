//! Go's `regexp/syntax` behaviour as data: the valid and invalid patterns of Go's
//! `parse_test.go`, Go's exact error texts, and matches that differ between Go and the
//! `regex` crate's own reading of a pattern.

use super::*;

fn go_err(p: &str) -> String {
    match compile_go(p) {
        Ok(_) => panic!("{p:?} should fail"),
        Err(e) => e.to_string(),
    }
}

fn matches(p: &str, s: &str) -> bool {
    compile_go(p)
        .unwrap_or_else(|e| panic!("{p:?}: {e}"))
        .is_match(s)
}

fn find<'h>(p: &str, s: &'h str) -> Option<&'h str> {
    compile_go(p)
        .unwrap_or_else(|e| panic!("{p:?}: {e}"))
        .find(s)
        .map(|m| m.as_str())
}

/// `parseTests` of Go's `parse_test.go`: all parse (under `syntax.Perl`, which
/// `regexp.Compile` uses).
#[test]
fn go_parse_tests_compile() {
    let mut patterns: Vec<String> = [
        "a",
        "a.",
        "a.b",
        "ab",
        "a.b.c",
        "abc",
        "a|^",
        "a|b",
        "(a)",
        "(a)|b",
        "a*",
        "a+",
        "a?",
        "a{2}",
        "a{2,3}",
        "a{2,}",
        "a*?",
        "a+?",
        "a??",
        "a{2}?",
        "a{2,3}?",
        "a{2,}?",
        "x{1001",
        "x{9876543210",
        "x{9876543210,",
        "x{2,1",
        "x{1,9876543210",
        "",
        "|",
        "|x|",
        ".",
        "^",
        "$",
        r"\|",
        r"\(",
        r"\)",
        r"\*",
        r"\+",
        r"\?",
        "{",
        "}",
        r"\.",
        r"\^",
        r"\$",
        r"\\",
        "[ace]",
        "[abc]",
        "[a-z]",
        "[a]",
        r"\-",
        "-",
        r"\_",
        "abc",
        "abc|def",
        "abc|def|ghi",
        "[[:lower:]]",
        "[^[:lower:]]",
        "[[:^lower:]]",
        "(?i)[[:lower:]]",
        "(?i)[a-z]",
        "(?i)[^[:lower:]]",
        "(?i)[[:^lower:]]",
        r"\d",
        r"\D",
        r"\s",
        r"\S",
        r"\w",
        r"\W",
        r"(?i)\w",
        r"(?i)\W",
        r"[^\\]",
        r"\p{Braille}",
        r"\P{Braille}",
        r"\p{^Braille}",
        r"\P{^Braille}",
        r"\pZ",
        r"[\p{Braille}]",
        r"[\P{Braille}]",
        r"[\p{^Braille}]",
        r"[\P{^Braille}]",
        r"[\pZ]",
        r"\p{Lu}",
        r"\p{Uppercase_Letter}",
        r"\p{upper case-let ter}",
        r"\p{__upper case-let ter}",
        r"\p{Canadian_Aboriginal}",
        r"[\p{Lu}]",
        r"(?i)[\p{Lu}]",
        r"\p{Any}",
        r"\p{^Any}",
        r"(?i)\p{ascii}",
        r"\p{Assigned}",
        r"\p{^Assigned}",
        r"[\012-\234]\141",
        r"[\x{41}-\x7a]\x61",
        "a{,2}",
        r"\.\^\$\\",
        "[a-zABC]",
        "[^a]",
        "[α-ε☺]",
        "a*{",
        "(?:ab)*",
        "(ab)*",
        "ab|cd",
        "a(b|c)d",
        "(?:a)",
        "(?:ab)(?:cd)",
        "(?:a+b+)(?:c+d+)",
        "(?:a+|b+)|(?:c+|d+)",
        "(?:a|b)|(?:c|d)",
        "a|.",
        ".|a",
        "(?:[abc]|A|Z|hello|world)",
        "(?:[abc]|A|Z)",
        r"\Q+|*?{[\E",
        r"\Q+\E+",
        r"\Qab\E+",
        r"\Q\\E",
        r"\Q\\\E",
        "(?m)^",
        "(?m)$",
        "(?-m)^",
        "(?-m)$",
        r"(?m)\A",
        r"(?m)\z",
        r"(?-m)\A",
        r"(?-m)\z",
        "(?P<name>a)",
        "(?<name>a)",
        "[Aa]",
        r"[\x{100}\x{101}]",
        "[Δδ]",
        "abcde",
        "[Aa][Bb]cd",
        "abc|abd|aef|bcx|bcy",
        "ax+y|ax+z|ay+w",
        "(?:.)",
        "(?:x|(?:xa))",
        "(?:.|(?:.a))",
        "(?:A(?:A|a))",
        "(?:A|a)",
        "A|(?:A|a)",
        "(?s).",
        "(?-s).",
        "(?:(?:^).)",
        "(?-s)(?:(?:^).)",
        r"[\s\S]a",
        "abc|abd",
        "a(?:b)c|abd",
        "abc|x|abd",
        "(?i)abc|ABD",
        "[ab]c|[ab]d",
        ".c|.d",
        "x{2}|x{2}[0-9]",
        "x{2}y|x{2}[0-9]y",
        "a.*?c|a.*?b",
        "((((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2}))",
        "((((((((((x{1}){2}){2}){2}){2}){2}){2}){2}){2}){2})",
        "(?:[a-z]{4}){0,250}",
        // onlyPerl
        "[a-b-c]",
        r"\Qabc\E",
        r"\Q*+?{[\E",
        r"\Q\\E",
        r"\Q\\\E",
        r"\Q\\\\E",
        r"\Q\\\\\E",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    patterns.push(format!("{}{}", "(".repeat(999), ")".repeat(999)));
    patterns.push(format!("{}{}", "(?:".repeat(999), ")*".repeat(999)));
    patterns.push(format!("({})", "|".repeat(12345)));
    for p in &patterns {
        assert!(compile_go(p).is_ok(), "{p:?}: {:?}", compile_go(p).err());
        assert!(validate(p), "{p:?}");
    }
}

/// `invalidRegexps` and `onlyPOSIX` of Go's `parse_test.go` (the invalid-UTF-8 ones
/// cannot be Rust strings): each fails, with Go's code.
#[test]
fn go_invalid_regexps_fail() {
    let mut cases: Vec<(String, &str)> = [
        ("(", "missing closing )"),
        (")", "unexpected )"),
        ("(a", "missing closing )"),
        ("a)", "unexpected )"),
        ("(a))", "unexpected )"),
        ("(a|b|", "missing closing )"),
        ("a|b|)", "unexpected )"),
        ("(a|b|))", "unexpected )"),
        ("(a|b", "missing closing )"),
        ("a|b)", "unexpected )"),
        ("(a|b))", "unexpected )"),
        ("[a-z", "missing closing ]"),
        ("([a-z)", "missing closing ]"),
        ("[a-z)", "missing closing ]"),
        ("([a-z]))", "unexpected )"),
        ("x{1001}", "invalid repeat count"),
        ("x{9876543210}", "invalid repeat count"),
        ("x{2,1}", "invalid repeat count"),
        ("x{1,9876543210}", "invalid repeat count"),
        ("(?P<name>a", "missing closing )"),
        ("(?P<name>", "missing closing )"),
        ("(?P<name", "invalid named capture"),
        ("(?P<x y>a)", "invalid named capture"),
        ("(?P<>a)", "invalid named capture"),
        ("(?<name>a", "missing closing )"),
        ("(?<name>", "missing closing )"),
        ("(?<name", "invalid named capture"),
        ("(?<x y>a)", "invalid named capture"),
        ("(?<>a)", "invalid named capture"),
        ("[a-Z]", "invalid character class range"),
        ("(?i)[a-Z]", "invalid character class range"),
        (r"\Q\E*", "missing argument to repetition operator"),
        ("a{100000}", "invalid repeat count"),
        ("a{100000,}", "invalid repeat count"),
        (
            "((((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2}){2})",
            "invalid repeat count",
        ),
        ("(?:[a-z]{4}){0,251}", "invalid repeat count"),
        // onlyPOSIX: stacked repetition operators are an error in Perl mode.
        ("a++", "invalid nested repetition operator"),
        ("a**", "invalid nested repetition operator"),
        ("a?*", "invalid nested repetition operator"),
        ("a+*", "invalid nested repetition operator"),
        ("a{1}*", "invalid nested repetition operator"),
        (".{1}{2}.{3}", "invalid nested repetition operator"),
    ]
    .iter()
    .map(|(p, c)| ((*p).to_owned(), *c))
    .collect();
    cases.push((
        format!("{}{}", "(".repeat(1000), ")".repeat(1000)),
        "expression nests too deeply",
    ));
    cases.push((
        format!("{}{}", "(?:".repeat(1000), ")*".repeat(1000)),
        "expression nests too deeply",
    ));
    cases.push((
        format!("({}){{1000}}", "(xx?)".repeat(1000)),
        "expression too large",
    ));
    cases.push(("(xx?){1000}".repeat(1000), "expression too large"));
    cases.push((r"\pL".repeat(27000), "expression too large"));
    for (p, code) in &cases {
        let e = compile_go(p)
            .err()
            .unwrap_or_else(|| panic!("{p:?} should fail"));
        assert_eq!(e.code(), *code, "{p:?}");
        assert!(!validate(p), "{p:?}");
    }
}

/// Go's exact error texts (code and quoted text).
#[test]
fn go_error_texts() {
    for (p, e) in [
        // Groups and flags.
        (")", "unexpected ): `)`"),
        ("a)b", "unexpected ): `a)b`"),
        ("(a", "missing closing ): `(a`"),
        ("(?-)", "invalid or unsupported Perl syntax: `(?-)`"),
        ("(?i-)", "invalid or unsupported Perl syntax: `(?i-)`"),
        ("(?--i)", "invalid or unsupported Perl syntax: `(?--`"),
        ("(?-:a)", "invalid or unsupported Perl syntax: `(?-:`"),
        ("(?x)a", "invalid or unsupported Perl syntax: `(?x`"),
        ("(?ix:a)", "invalid or unsupported Perl syntax: `(?ix`"),
        ("(?=a)", "invalid or unsupported Perl syntax: `(?=`"),
        ("(?!a)", "invalid or unsupported Perl syntax: `(?!`"),
        ("(?P=n)", "invalid or unsupported Perl syntax: `(?P`"),
        ("(?P", "invalid or unsupported Perl syntax: `(?P`"),
        ("a(?", "invalid or unsupported Perl syntax: `(?`"),
        ("(?i", "invalid or unsupported Perl syntax: `(?i`"),
        ("(?<=a)b", "invalid named capture: `(?<=a)b`"),
        ("(?<!a)>", "invalid named capture: `(?<!a)>`"),
        ("(?P<a-b>x)", "invalid named capture: `(?P<a-b>`"),
        ("(?<>a)", "invalid named capture: `(?<>`"),
        ("(?P<name", "invalid named capture: `(?P<name`"),
        ("(?P<é>a)", "invalid named capture: `(?P<é>`"),
        // Escapes.
        (r"\8", r"invalid escape sequence: `\8`"),
        (r"\1", r"invalid escape sequence: `\1`"),
        (r"a\9b", r"invalid escape sequence: `\9`"),
        (r"\q", r"invalid escape sequence: `\q`"),
        (r"\é", r"invalid escape sequence: `\é`"),
        (r"\C", r"invalid escape sequence: `\C`"),
        (r"\x{110000}", r"invalid escape sequence: `\x{110000`"),
        (r"\x{}", r"invalid escape sequence: `\x{}`"),
        (r"\x{zz}", r"invalid escape sequence: `\x{z`"),
        (r"\x{12", r"invalid escape sequence: `\x{12`"),
        (r"\xZ1", r"invalid escape sequence: `\xZ1`"),
        (r"\x4", r"invalid escape sequence: `\x4`"),
        (r"\x", r"invalid escape sequence: `\x`"),
        ("a\\", "trailing backslash at end of expression: ``"),
        // Unicode classes.
        (r"\pX", r"invalid character class range: `\pX`"),
        (r"\p", r"invalid character class range: `\p`"),
        (r"\p{Foo}", r"invalid character class range: `\p{Foo}`"),
        (r"\p{Greek", r"invalid character class range: `\p{Greek`"),
        (
            r"\p{Greek x",
            r"invalid character class range: `\p{Greek x`",
        ),
        (
            r"[\p{Alphabetic}]",
            r"invalid character class range: `\p{Alphabetic}`",
        ),
        (
            r"\p{IsGreek}",
            r"invalid character class range: `\p{IsGreek}`",
        ),
        (
            r"\p{sc=Greek}",
            r"invalid character class range: `\p{sc=Greek}`",
        ),
        // Classes.
        ("[[:foo:]]", "invalid character class range: `[:foo:]`"),
        ("[a", "missing closing ]: `[a`"),
        ("x[]", "missing closing ]: `[]`"),
        ("x[^]", "missing closing ]: `[^]`"),
        ("x[a-", "missing closing ]: `[a-`"),
        ("[a-z", "missing closing ]: `[a-z`"),
        ("([a-z)", "missing closing ]: `[a-z)`"),
        (r"[a-\d]", r"invalid escape sequence: `\d`"),
        (r"[\b]", r"invalid escape sequence: `\b`"),
        ("[z-a]", "invalid character class range: `z-a`"),
        ("[a--]", "invalid character class range: `a--`"),
        ("[a-Z]", "invalid character class range: `a-Z`"),
        (
            r"[\x{100}-\x41]",
            r"invalid character class range: `\x{100}-\x41`",
        ),
        // Repetitions.
        ("*", "missing argument to repetition operator: `*`"),
        ("*?", "missing argument to repetition operator: `*?`"),
        ("a|+", "missing argument to repetition operator: `+`"),
        ("(?i)*", "missing argument to repetition operator: `*`"),
        ("({2})", "missing argument to repetition operator: `{2}`"),
        ("x++", "invalid nested repetition operator: `++`"),
        ("x**", "invalid nested repetition operator: `**`"),
        ("x*?+", "invalid nested repetition operator: `*?+`"),
        ("x*??", "invalid nested repetition operator: `*??`"),
        ("x{2}{3}", "invalid nested repetition operator: `{2}{3}`"),
        ("x{2}*", "invalid nested repetition operator: `{2}*`"),
        ("x+*?+", "invalid nested repetition operator: `+*?`"),
        ("a{1001}", "invalid repeat count: `{1001}`"),
        ("a{2,1}", "invalid repeat count: `{2,1}`"),
        ("a{1000,1001}", "invalid repeat count: `{1000,1001}`"),
        ("x{9876543210}", "invalid repeat count: `{9876543210}`"),
        ("x{1,9876543210}", "invalid repeat count: `{1,9876543210}`"),
        // The product of nested counts: Go rejects at the outer repetition.
        ("(a{100}){100}", "invalid repeat count: `{100}`"),
        ("(a{500}){3}?", "invalid repeat count: `{3}?`"),
        ("(?:[a-z]{4}){0,251}", "invalid repeat count: `{0,251}`"),
        (
            r"^([a-z0-9]{1,63}\.){0,126}[a-z]{2,63}$",
            "invalid repeat count: `{0,126}`",
        ),
        ("((a{10}){10}){11}", "invalid repeat count: `{11}`"),
    ] {
        assert_eq!(go_err(p), format!("error parsing regexp: {e}"), "{p:?}");
    }
    // Limits quote the whole pattern.
    let deep = format!("{}{}", "(".repeat(1000), ")".repeat(1000));
    assert_eq!(
        go_err(&deep),
        format!("error parsing regexp: expression nests too deeply: `{deep}`")
    );
    let big = "(xx?){1000}".repeat(1000);
    assert_eq!(
        go_err(&big),
        format!("error parsing regexp: expression too large: `{big}`")
    );
    let e = compile_go("a{2,1}").unwrap_err();
    assert_eq!((e.code(), e.expr()), ("invalid repeat count", "{2,1}"));
}

/// What Go accepts that the `regex` crate's own parser rejects or reads otherwise.
#[test]
fn go_accepts() {
    for p in [
        // Repeated and cancelled flags, empty flag groups.
        "(?ii)a",
        "(?i-i)a",
        "(?)a",
        "(?i)(?i)a",
        "(?imsU-imsU)a",
        "(?sm:a)",
        // Names the regex crate refuses: leading digits, repeated names.
        "(?P<1a>x)",
        "(?P<n>a)(?P<n>b)",
        "(?<n>a)|(?<n>b)",
        // Rust class syntax that is plain text in Go.
        "[a-z--b]",
        "[a&&b]",
        "[a~~b]",
        "[a||b]",
        // A flag directive before a repetition operator.
        "a(?i)*",
        "a*(?i)*",
        // Escapes.
        r"\_",
        r"\ ",
        r"\~",
        r"\a\f\v",
        r"\x{10FFFF}",
        r"\x{D800}",
        r"[\x{D7FF}-\x{E000}]",
        r"\08",
        // Unicode names Go knows.
        r"\p{Cn}",
        r"\p{LC}",
        r"\p{cased letter}",
        r"\p{Assigned}",
        r"\p{Old_Italic}",
        r"\p{olditalic}",
        r"\p{Nag_Mundari}",
        r"\pN",
        r"\p{^L}",
        // Counts at the limits.
        "a{1000}",
        "a{0,1000}",
        "a{1000,}",
        "(?:[a-z]{4}){0,250}",
        r"\pL{1000}",
        r"^[\p{L}\p{N}]{1,255}$",
    ] {
        assert!(compile_go(p).is_ok(), "{p:?}: {:?}", compile_go(p).err());
    }
}

/// Matches as Go decides them.
#[test]
fn go_semantics() {
    // Flags.
    assert!(matches("(?ii)abc", "ABC"));
    assert!(matches("^(?i-i)A$", "A"));
    assert!(!matches("^(?i-i)A$", "a"));
    assert!(matches("^a(?i)b$", "aB"));
    assert!(!matches("^a(?i)b$", "AB"));
    assert!(matches("^(?i:a)b$", "Ab"));
    assert!(!matches("^(?i:a)b$", "AB"));
    assert!(matches("^(?:(?i)a)b$", "Ab"));
    assert!(!matches("^(?:(?i)a)b$", "AB"));
    assert!(matches("^a(?i)*$", "aaa"));
    // `(?U)` before a repetition operator makes it lazy.
    assert_eq!(find("xa(?U)*", "xaaa"), Some("x"));
    assert_eq!(find("xa*", "xaaa"), Some("xaaa"));
    assert_eq!(find("(?U)xa*?", "xaaa"), Some("xaaa"));
    // Anchors and dot.
    assert!(!matches("^a$", "a\n"));
    assert!(matches("(?m)^a$", "b\na\nc"));
    assert!(!matches("^a$", "b\na\nc"));
    assert!(!matches("^.$", "\n"));
    assert!(matches("(?s)^.$", "\n"));
    assert!(matches("^[^a]$", "\n"));
    assert!(matches(r"\Aa\z", "a"));
    // ASCII Perl classes and boundaries; Unicode classes are Unicode.
    assert!(!matches(r"^\w$", "é"));
    assert!(matches(r"^\pL$", "é"));
    assert!(matches(r"\bé", "xé"));
    // Case folding of classes as Go folds them: (?i)\w has ſ and the Kelvin sign, so
    // `[^\W]` keeps s and k.
    assert!(matches(r"^(?i)\w$", "\u{17F}"));
    assert!(matches(r"^(?i)\w$", "\u{212A}"));
    assert!(!matches(r"^(?i)\W$", "\u{17F}"));
    assert!(matches(r"^(?i)[^\W]$", "s"));
    assert!(matches(r"^(?i)[^\W]$", "k"));
    assert!(matches(r"^(?i)k$", "\u{212A}"));
    assert!(matches(r"^(?i)Σ$", "ς"));
    assert!(matches(r"^(?i)[[:lower:]]$", "Q"));
    assert!(matches(r"^(?i)\p{ascii}$", "\u{17F}"));
    // Go's `C` has no unassigned code points; `Cn` and `Assigned` do what they say.
    assert!(!matches(r"^\pC$", "\u{378}"));
    assert!(matches(r"^\pC$", "\u{7}"));
    assert!(matches(r"^\p{Cn}$", "\u{378}"));
    assert!(!matches(r"^\p{Assigned}$", "\u{378}"));
    assert!(matches(r"^\p{Assigned}$", "a"));
    assert!(matches(r"^\p{^Assigned}$", "\u{378}"));
    assert!(matches(r"^\P{Any}|x$", "x"));
    // Surrogates match nothing; a range around them keeps its ends.
    assert!(!matches(r"\x{D800}", "\u{FFFD}"));
    assert!(matches(r"^[\x{D7FF}-\x{E000}]$", "\u{E000}"));
    assert!(matches(r"^[\x{D7FF}-\x{E000}]$", "\u{D7FF}"));
    // Escapes and literal text.
    assert!(matches(r"^\101\0$", "A\0"));
    assert!(matches(r"^\08$", "\u{0}8"));
    assert!(matches(r"^\12$", "\n"));
    assert!(matches(r"^\x41\x{1F600}$", "A😀"));
    assert!(matches(r"^\a\f\v$", "\u{7}\u{C}\u{B}"));
    assert!(matches(r"^\Q.*\E$", ".*"));
    assert!(matches(r"^a{,2}$", "a{,2}"));
    assert!(matches(r"^a{01}$", "a{01}"));
    assert!(matches("^x{1001$", "x{1001"));
    assert!(matches("^a*{$", "aa{"));
    assert!(matches(r"^[[:alpha:]-]+$", "a-b"));
    assert!(matches(r"^[a-b-c]+$", "a-c"));
    // Captures keep their numbers (names are dropped).
    let re = compile_go("(?P<x>a)(b)(?<y>c)").unwrap();
    let caps = re.captures("abc").unwrap();
    assert_eq!(caps.len(), 4);
    assert_eq!(caps.get(3).map(|m| m.as_str()), Some("c"));
    // Alternation is leftmost-first.
    assert_eq!(find("a|ab", "ab"), Some("a"));
    assert_eq!(find("ab|a", "ab"), Some("ab"));
}

#[test]
fn translate_and_errors() {
    assert!(translate("a(?i)b").is_ok());
    assert_eq!(translate("(").unwrap_err(), "missing closing ): `(`");
    let e = compile("(").unwrap_err();
    assert_eq!(
        e.message.to_string(),
        "error parsing regexp: missing closing ): `(`"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

    /// Any text: no panic, and the cheap check agrees with compiling.
    #[test]
    fn never_panics(parts in proptest::collection::vec(
        proptest::sample::select(vec![
            "a", "é", "\u{212A}", ".", "[", "]", "^", "-", "(", ")", "(?", "(?i", "(?-", ":",
            "<", ">", "P", "|", "*", "+", "?", "{", "}", ",", "1", "0", "2", "9", "\\",
            "\\p", "\\P", "{Greek}", "\\x", "\\Q", "\\E", "\\d", "\\W", "\\b", "[:alpha:]",
            "\\1", "\\0", "s", "U", "m", "x",
        ]),
        0..14,
    )) {
        let p = parts.concat();
        let compiled = compile_go(&p);
        proptest::prop_assert_eq!(validate(&p), compiled.is_ok(), "{}", p);
        if let Err(e) = compiled {
            proptest::prop_assert!(e.to_string().starts_with("error parsing regexp: "));
            proptest::prop_assert!(p.contains(e.expr()), "{} not in {}", e.expr(), p);
        }
    }
}
