//! Grammar tests: every rule and error of spec §1.3, upstream's parser test cases, the
//! quirks the module docs list, spans, and property tests.

use proptest::prelude::*;

use crate::{
    Arg, ArgValue, MAX_CHAIN_DEPTH, Span, Tag, TagValue, ValueType, parse_tag, parse_tag_raw,
};

/// A span-free rendering that shows every type: `name(a:int(1), string(x)) = bool(true)`,
/// chains as `outer => inner`.
fn shape(tag: &Tag) -> String {
    let mut out = String::new();
    for (i, t) in tag.chain().enumerate() {
        if i > 0 {
            out.push_str(" => ");
        }
        out.push_str(&t.name);
        if !t.args.is_empty() {
            let args: Vec<String> = t
                .args
                .iter()
                .map(|a| {
                    let name = a
                        .name
                        .as_deref()
                        .map(|n| format!("{n}:"))
                        .unwrap_or_default();
                    format!("{name}{}({})", a.value.value_type(), a.value.as_str())
                })
                .collect();
            out.push_str(&format!("({})", args.join(", ")));
        }
        if let Some(v) = t.value.as_str() {
            out.push_str(&format!(" = {}({v})", t.value_type()));
        }
    }
    out
}

fn ok(input: &str) -> String {
    match parse_tag(input) {
        Ok(tag) => shape(&tag),
        Err(e) => panic!("{input:?} failed: {}", e.message),
    }
}

fn ok_raw(input: &str) -> String {
    match parse_tag_raw(input) {
        Ok(tag) => shape(&tag),
        Err(e) => panic!("{input:?} failed: {}", e.message),
    }
}

fn err(input: &str) -> String {
    match parse_tag(input) {
        Ok(tag) => panic!("{input:?} parsed as {}", shape(&tag)),
        Err(e) => e.message,
    }
}

fn err_raw(input: &str) -> String {
    match parse_tag_raw(input) {
        Ok(tag) => panic!("{input:?} parsed as {}", shape(&tag)),
        Err(e) => e.message,
    }
}

fn check_all(cases: &[(&str, &str)], f: fn(&str) -> String) {
    for (input, want) in cases {
        assert_eq!(f(input), *want, "input {input:?}");
    }
}

#[test]
fn tag_names() {
    check_all(
        &[
            ("name", "name"),
            ("name-dash", "name-dash"),
            ("name.dot", "name.dot"),
            ("name:colon", "name:colon"),
            ("k8s:", "k8s:"),
            ("_", "_"),
            ("k8s:x9_.-:", "k8s:x9_.-:"),
            ("név", "név"),
            ("k8s:x٣", "k8s:x٣"),
            ("  \t name \t ", "name"),
            ("", ""),
            ("   ", ""),
        ],
        ok,
    );
}

#[test]
fn trailing_comments() {
    check_all(
        &[
            ("name # comment", "name"),
            ("name \t # comment", "name"),
            ("name#comment", "name"),
            ("name(arg) # comment", "name(string(arg))"),
            ("name() #", "name"),
            ("key=1 # comment", "key = int(1)"),
            ("key=1#c", "key = int(1)"),
            ("key=true # comment", "key = bool(true)"),
            ("key=false # comment", "key = bool(false)"),
            ("key=ident # comment", "key = string(ident)"),
            ("key=ident#c", "key = string(ident)"),
            (r#"key="quoted" # comment"#, "key = string(quoted)"),
            ("key=`quoted` # comment", "key = string(quoted)"),
            (r#"key="a # b""#, "key = string(a # b)"),
            ("key=+key2 # comment", "key => key2"),
            ("key=+key2() # comment", "key => key2"),
            ("key=+key2(arg) # comment", "key => key2(string(arg))"),
            (
                "key=+key2(k1: v1, k2: v2) # c",
                "key => key2(k1:string(v1), k2:string(v2))",
            ),
            ("key=+key2=+key3 # comment", "key => key2 => key3"),
        ],
        ok,
    );
    // `//` is not a comment marker in this grammar.
    assert_eq!(
        err("key // comment"),
        "unexpected character ' ' at position 4"
    );
    // A comment cannot stand in for a value.
    assert_eq!(err("x(a)= # c"), "unexpected character ' ' at position 6");
    assert_eq!(err("key=1 // c"), "unexpected character ' ' at position 6");
    assert_eq!(err("#comment"), "unexpected character '#' at position 1");
    assert_eq!(err("x=#c"), "unexpected character '#' at position 3");
    assert_eq!(err("x= #c"), "unexpected character ' ' at position 3");
    assert_eq!(err("x(#c)"), "unexpected character '#' at position 3");
    assert_eq!(err("x(a #c)"), "unexpected character ' ' at position 4");
}

#[test]
fn positional_arguments() {
    check_all(
        &[
            ("name()", "name"),
            ("name(arg)", "name(string(arg))"),
            ("name(ARG)", "name(string(ARG))"),
            ("name(ArG)", "name(string(ArG))"),
            ("name(has-dash)", "name(string(has-dash))"),
            ("name(has.dot)", "name(string(has.dot))"),
            ("name(_)", "name(string(_))"),
            (r#"name("hasQuotes")"#, "name(string(hasQuotes))"),
            ("name(`hasRawQuotes`)", "name(string(hasRawQuotes))"),
            ("withRaw(`a = b`)", "withRaw(string(a = b))"),
            (r#"name("true")"#, "name(string(true))"),
            ("bools(true)", "bools(bool(true))"),
            ("bools(false)", "bools(bool(false))"),
            ("bools(True)", "bools(string(True))"),
            ("n(42)", "n(int(42))"),
            ("n(-5)", "n(int(-5))"),
            ("n(+3)", "n(int(+3))"),
            ("n(0x10)", "n(int(0x10))"),
            (r#"name("")"#, "name(string())"),
            ("k8s:ifEnabled(Foo)", "k8s:ifEnabled(string(Foo))"),
            (
                r#"k8s:dependentRequired("sibling")"#,
                "k8s:dependentRequired(string(sibling))",
            ),
            ("name(a:b)", "name(a:string(b))"),
            ("name(név)", "name(string(név))"),
        ],
        ok,
    );
}

#[test]
fn named_arguments() {
    check_all(
        &[
            (
                r#"k8s:alpha(since:"1.35")"#,
                "k8s:alpha(since:string(1.35))",
            ),
            (
                r#"k8s:alpha(since: "1.35")"#,
                "k8s:alpha(since:string(1.35))",
            ),
            (
                r#"k8s:item(a: "x", b: 2)"#,
                "k8s:item(a:string(x), b:int(2))",
            ),
            (r#"k8s:item(a:"x",b:2)"#, "k8s:item(a:string(x), b:int(2))"),
            (
                "k8s:item(a: \t\"x\",\t b: 2)",
                "k8s:item(a:string(x), b:int(2))",
            ),
            ("k8s:item(key1: a)", "k8s:item(key1:string(a))"),
            (
                r#"name(t: "true", f: "false")"#,
                "name(t:string(true), f:string(false))",
            ),
            (
                r#"quoted(s: "value \" \\")"#,
                r#"quoted(s:string(value " \))"#,
            ),
            ("backticks(s: `value`)", "backticks(s:string(value))"),
            ("ident(k: value)", "ident(k:string(value))"),
            (
                "bools(t: true, f:false)",
                "bools(t:bool(true), f:bool(false))",
            ),
            (
                "mixed(s: `value`, i: 2, b: true)",
                "mixed(s:string(value), i:int(2), b:bool(true))",
            ),
            // Duplicate names are the registry's business.
            ("d(a: 1, a: 2)", "d(a:int(1), a:int(2))"),
            ("n(a.b-c_d: x)", "n(a.b-c_d:string(x))"),
        ],
        ok,
    );
}

#[test]
fn numeric_arguments_keep_their_text() {
    let input = "numbers(n1: 2, n2: -5, n3: +5, n4: 0xFF, n5: -0x0000, n6: +0x00FF00, \
                 n7: 0o04167, n8: -0o04167, n9: +0o04167, n10: 0b10101, n11: -0b10101, \
                 n12: +0b10101, n13: 017, n14: 0, n15: -9223372036854775808)";
    let tag = parse_tag(input).unwrap();
    let got: Vec<(&str, &str)> = tag
        .args
        .iter()
        .map(|a| {
            assert_eq!(a.value.value_type(), ValueType::Int);
            (a.name.as_deref().unwrap(), a.value.as_str())
        })
        .collect();
    assert_eq!(
        got,
        [
            ("n1", "2"),
            ("n2", "-5"),
            ("n3", "+5"),
            ("n4", "0xFF"),
            ("n5", "-0x0000"),
            ("n6", "+0x00FF00"),
            ("n7", "0o04167"),
            ("n8", "-0o04167"),
            ("n9", "+0o04167"),
            ("n10", "0b10101"),
            ("n11", "-0b10101"),
            ("n12", "+0b10101"),
            ("n13", "017"),
            ("n14", "0"),
            ("n15", "-9223372036854775808"),
        ]
    );
}

#[test]
fn argument_errors() {
    check_all(
        &[
            ("name(has space)", "unexpected character ' ' at position 9"),
            (
                "name(multiple, args)",
                "multiple arguments must use 'name: value' syntax",
            ),
            (
                "name(1, 2)",
                "multiple arguments must use 'name: value' syntax",
            ),
            ("name(noClosingParen", "unexpected end of input"),
            ("name(", "unexpected end of input"),
            ("name(a: ", "unexpected end of input"),
            ("name(a,", "unexpected end of input"),
            ("name(a: 1", "unexpected end of input"),
            (
                "badRaw(missing`)",
                "unexpected character '`' at position 15",
            ),
            (
                "name=+name(arg1, arg2)",
                "multiple arguments must use 'name: value' syntax",
            ),
            (
                "name=+badRaw(missing`)",
                "unexpected character '`' at position 21",
            ),
            ("name ()", "unexpected character ' ' at position 5"),
            ("name ( )", "unexpected character ' ' at position 5"),
            ("name( x)", "unexpected character ' ' at position 6"),
            ("name(x )", "unexpected character ' ' at position 7"),
            ("name(k :v)", "unexpected character ' ' at position 7"),
            ("name(k:v )", "unexpected character ' ' at position 9"),
            ("name(k:v ,k2:v2)", "unexpected character ' ' at position 9"),
            ("name() =x", "unexpected character ' ' at position 7"),
            ("name()= x", "unexpected character ' ' at position 8"),
            (
                r#"k8s:item( a: "x")"#,
                "unexpected character ' ' at position 10",
            ),
            (
                r#"k8s:item(a : "x")"#,
                "unexpected character ' ' at position 11",
            ),
            ("x(a, b: c)", "can't mix named and positional arguments"),
            ("x(a: b, c)", "can't mix named and positional arguments"),
            ("x(1, b: c)", "can't mix named and positional arguments"),
            ("x(a: 1, \"s\")", "can't mix named and positional arguments"),
            ("x(a)(b)", "unexpected character '(' at position 5"),
            ("x(a))", "unexpected character ')' at position 5"),
            ("x(a:,)", "unexpected character ',' at position 5"),
            ("x(,)", "unexpected character ',' at position 3"),
            ("x(a=b)", "unexpected character '=' at position 4"),
            ("x(a@b)", "unexpected character '@' at position 4"),
            ("x(\"a\"b)", "unexpected character 'b' at position 6"),
            ("x(1a)", "invalid number \"1a\" at position 4"),
            ("x(-)", "invalid number \"-\" at position 3"),
            ("x(+)", "invalid number \"+\" at position 3"),
            ("x(a: -x)", "invalid number \"-\" at position 6"),
            ("x(0x)", "invalid number \"0x\" at position 4"),
            ("x(\"a)", "unterminated string at position 5"),
            ("x(`a\\n`)", "unhandled escaped character 'n'"),
            ("x(a: \"b)", "unterminated string at position 8"),
        ],
        err,
    );
}

#[test]
fn scalar_values() {
    check_all(
        &[
            ("key=1", "key = int(1)"),
            ("key=true", "key = bool(true)"),
            ("key=false", "key = bool(false)"),
            ("key=True", "key = string(True)"),
            ("key=ident", "key = string(ident)"),
            (r#"key="quoted""#, "key = string(quoted)"),
            ("key=`quoted`", "key = string(quoted)"),
            (r#"key="""#, "key = string()"),
            ("key=``", "key = string()"),
            (r#"key="true""#, "key = string(true)"),
            (
                "k8s:format=k8s-long-name",
                "k8s:format = string(k8s-long-name)",
            ),
            ("k8s:minimum=-5", "k8s:minimum = int(-5)"),
            ("k8s:minimum=+5", "k8s:minimum = int(+5)"),
            ("k8s:minimum=0x10", "k8s:minimum = int(0x10)"),
            ("k8s:minimum=-0x10", "k8s:minimum = int(-0x10)"),
            ("k8s:minimum=0100", "k8s:minimum = int(0100)"),
            ("k8s:minimum=0b1", "k8s:minimum = int(0b1)"),
            ("k8s:minimum=0o7", "k8s:minimum = int(0o7)"),
            (
                "k8s:maxLength=9223372036854775807",
                "k8s:maxLength = int(9223372036854775807)",
            ),
            (r#"k8s:neq="""#, "k8s:neq = string()"),
            ("k8s:update=NoModify", "k8s:update = string(NoModify)"),
            ("x(a)=1", "x(string(a)) = int(1)"),
            ("x()=y", "x = string(y)"),
            (r#"x="a\"b\\c""#, r#"x = string(a"b\c)"#),
            ("x=`a\\`b\\\\c`", r"x = string(a`b\c)"),
            (r#"x="a'b`c""#, "x = string(a'b`c)"),
            ("x=`a\"b'c`", "x = string(a\"b'c)"),
            ("x=\"tab\there\"", "x = string(tab\there)"),
            ("x=érték", "x = string(érték)"),
            ("x=a.b-c_d9", "x = string(a.b-c_d9)"),
        ],
        ok,
    );
}

#[test]
fn scalar_value_errors() {
    check_all(
        &[
            ("name=", "unexpected end of input"),
            ("k8s:minimum=", "unexpected end of input"),
            ("name =x", "unexpected character ' ' at position 5"),
            ("name= x", "unexpected character ' ' at position 6"),
            ("key=one two", "unexpected character ' ' at position 8"),
            ("key=`unclosed", "unterminated string at position 13"),
            (r#"key="unclosed"#, "unterminated string at position 13"),
            (
                r#"key="ends in escape\"#,
                "unterminated string at position 20",
            ),
            ("key=x@y", "unexpected character '@' at position 6"),
            (r#"key="a"b"#, "unexpected character 'b' at position 8"),
            ("key=1a", "invalid number \"1a\" at position 6"),
            ("key=0x", "invalid number \"0x\" at position 6"),
            ("key=0o", "invalid number \"0o\" at position 6"),
            ("key=0b", "invalid number \"0b\" at position 6"),
            ("key=08", "invalid number \"08\" at position 6"),
            ("key=0b2", "invalid number \"0b2\" at position 7"),
            ("key=0bad", "invalid number \"0bad\" at position 8"),
            ("key=-", "invalid number \"-\" at position 5"),
            ("key=+", "invalid number \"+\" at position 5"),
            ("key=--1", "invalid number \"-\" at position 5"),
            ("key=+-1", "invalid number \"+\" at position 5"),
            ("key=+(", "invalid number \"+\" at position 5"),
            (
                "key=9223372036854775808",
                "invalid number \"9223372036854775808\" at position 23",
            ),
            (
                "key=0xFFFFFFFFFFFFFFFF",
                "invalid number \"0xFFFFFFFFFFFFFFFF\" at position 22",
            ),
            // After `0` only a digit or a base letter continues the number.
            ("key=0a", "unexpected character 'a' at position 6"),
            ("key=0X1", "unexpected character 'X' at position 6"),
            ("key=0x1g", "unexpected character 'g' at position 8"),
            ("key=1.5", "unexpected character '.' at position 6"),
            ("key=1_000", "unexpected character '_' at position 6"),
            (r#"key="a\nb""#, "unhandled escaped character 'n'"),
            (r#"key="a\`b""#, "unhandled escaped character '`'"),
            ("key=`a\\\"b`", "unhandled escaped character '\"'"),
            (r#"key="a\'b""#, r"unhandled escaped character '\''"),
            ("key=\"a\\\tb\"", r"unhandled escaped character '\t'"),
            ("key=)", "unexpected character ')' at position 5"),
            ("key==1", "unexpected character '=' at position 5"),
            ("key=a=b", "unexpected character '=' at position 6"),
            ("key=a(b)", "unexpected character '(' at position 6"),
            ("key=a:b", "unexpected character ':' at position 6"),
            ("9key", "unexpected character '9' at position 1"),
            ("+key", "unexpected character '+' at position 1"),
            ("(x)", "unexpected character '(' at position 1"),
            ("name x", "unexpected character ' ' at position 5"),
        ],
        err,
    );
}

#[test]
fn non_ascii_positions_count_characters() {
    // `név` is 3 characters but 4 bytes: the message counts characters like upstream, the
    // span counts bytes.
    let e = parse_tag("név x").unwrap_err();
    assert_eq!(e.message, "unexpected character ' ' at position 4");
    assert_eq!(e.span, Span::new(4, 5));

    let e = parse_tag("x=é@").unwrap_err();
    assert_eq!(e.message, "unexpected character '@' at position 4");
    assert_eq!(e.span, Span::new(4, 5));

    check_all(
        &[
            ("x=٣", "invalid number \"٣\" at position 3"),
            ("x(٣)", "invalid number \"٣\" at position 3"),
            ("x=1٣", "invalid number \"1٣\" at position 4"),
            ("x=\u{a0}", "unexpected end of input"),
            (
                "x=\u{3000}y",
                "unexpected character '\\u3000' at position 3",
            ),
            ("x=\u{feff}", "unexpected character '\\ufeff' at position 3"),
            ("x=😀", "unexpected character '😀' at position 3"),
            ("x=\u{7}", "unexpected character '\\a' at position 3"),
            ("x=\u{0}", "unexpected character '\\x00' at position 3"),
            (
                "x=\"\u{e9}\\\u{3000}\"",
                "unhandled escaped character '\\u3000'",
            ),
        ],
        err,
    );
    // Unicode whitespace is trimmed and may follow `:` and `,`.
    assert_eq!(ok("\u{3000}x(a:\u{a0}1)\u{2003}"), "x(a:int(1))");
}

#[test]
fn chained_tags() {
    check_all(
        &[
            ("key=+key2", "key => key2"),
            ("key=+key2()", "key => key2"),
            ("key=+key2(arg)", "key => key2(string(arg))"),
            (
                "key=+key2(k1: v1, k2: v2)",
                "key => key2(k1:string(v1), k2:string(v2))",
            ),
            ("key=+key2=+key3", "key => key2 => key3"),
            (
                "key=+key2=+key3=+key4=value",
                "key => key2 => key3 => key4 = string(value)",
            ),
            (
                "key(arg1)=+key2(arg2)=+key3(arg3)=+key4(arg4)",
                "key(string(arg1)) => key2(string(arg2)) => key3(string(arg3)) => key4(string(arg4))",
            ),
            (
                "k8s:eachVal=+k8s:subfield(x)=+k8s:minimum=1",
                "k8s:eachVal => k8s:subfield(string(x)) => k8s:minimum = int(1)",
            ),
            (
                r#"k8s:item(a: "x", b: 2)=+k8s:immutable"#,
                "k8s:item(a:string(x), b:int(2)) => k8s:immutable",
            ),
            (
                r#"k8s:alpha(since: "1.35")=+k8s:maxItems=5"#,
                "k8s:alpha(since:string(1.35)) => k8s:maxItems = int(5)",
            ),
            (
                "k8s:ifEnabled(Foo)=+k8s:required",
                "k8s:ifEnabled(string(Foo)) => k8s:required",
            ),
            ("x=+_y", "x => _y"),
            ("x=+név", "x => név"),
            // `+` followed by a digit is a number, not a tag.
            ("k8s:minimum=+5", "k8s:minimum = int(+5)"),
            ("x=+y=+5", "x => y = int(+5)"),
            // The chained tag's own empty value after arguments is "no value".
            ("x=+y(a)=", "x => y(string(a))"),
        ],
        ok,
    );
    check_all(
        &[
            ("x=+y=", "unexpected end of input"),
            ("x=+y(", "unexpected end of input"),
            ("x=+y z", "unexpected character ' ' at position 5"),
            ("x=+", "invalid number \"+\" at position 3"),
            ("x=+ y", "invalid number \"+\" at position 3"),
            ("x=++y", "invalid number \"+\" at position 3"),
            (
                "x(a, b)=+y",
                "multiple arguments must use 'name: value' syntax",
            ),
            // The outer tag's arguments are checked when the chain moves past it, before
            // anything further right.
            (
                "x(a, b)=+y z",
                "multiple arguments must use 'name: value' syntax",
            ),
            // The last tag's arguments are checked after leftover characters.
            ("x=+y(a, b) z", "unexpected character ' ' at position 11"),
            (
                "x=+y(a, b)=",
                "multiple arguments must use 'name: value' syntax",
            ),
        ],
        err,
    );
}

#[test]
fn chain_nesting_builds_inner_tags() {
    let tag = parse_tag("k8s:eachVal=+k8s:subfield(x)=+k8s:minimum=1").unwrap();
    assert_eq!(tag.value_type(), ValueType::Tag);
    let subfield = tag.value_tag().unwrap();
    assert_eq!(subfield.name, "k8s:subfield");
    assert_eq!(subfield.positional().map(|a| a.value.as_str()), Some("x"));
    assert_eq!(subfield.value_type(), ValueType::Tag);
    let minimum = subfield.value_tag().unwrap();
    assert_eq!(minimum.name, "k8s:minimum");
    assert_eq!(minimum.value, TagValue::Int("1".into()));
    assert!(minimum.value_tag().is_none());
    assert_eq!(tag.chain().count(), 3);
}

#[test]
fn chain_depth_is_capped() {
    let chain = |n: usize| {
        (0..n)
            .map(|i| format!("t{i}"))
            .collect::<Vec<_>>()
            .join("=+")
    };
    let deepest = parse_tag(&format!("{}=1", chain(MAX_CHAIN_DEPTH))).unwrap();
    assert_eq!(deepest.chain().count(), MAX_CHAIN_DEPTH);
    let last = deepest.chain().last().unwrap();
    assert_eq!(last.value, TagValue::Int("1".into()));

    let text = chain(MAX_CHAIN_DEPTH + 1);
    let e = parse_tag(&text).unwrap_err();
    assert_eq!(
        e.message,
        "too many chained tags: a chain may hold at most 64 tags"
    );
    assert_eq!(&text[e.span.start..e.span.end], "t64");

    // A very long chain fails fast and neither recurses nor overflows.
    let huge = "a=+".repeat(200_000) + "a";
    assert!(parse_tag(&huge).is_err());
}

#[test]
fn huge_lines_parse_in_linear_time() {
    let many_args = format!("x({})", vec!["a: 1"; 200_000].join(", "));
    assert_eq!(parse_tag(&many_args).unwrap().args.len(), 200_000);

    let long_string = format!("x=\"{}\"", "é".repeat(1_000_000));
    assert_eq!(
        parse_tag(&long_string)
            .unwrap()
            .value
            .as_str()
            .map(str::len),
        Some(2_000_000)
    );

    let long_number = format!("x={}", "1".repeat(1_000_000));
    let e = parse_tag(&long_number).unwrap_err();
    assert!(
        e.message.ends_with("at position 1000002"),
        "{}",
        &e.message[e.message.len() - 30..]
    );

    let unterminated = format!("x=`{}", "\\\\".repeat(500_000));
    assert_eq!(
        parse_tag(&unterminated).unwrap_err().message,
        "unterminated string at position 1000003"
    );

    let lone_plus = "+".repeat(1_000_000);
    assert_eq!(
        parse_tag(&lone_plus).unwrap_err().message,
        "unexpected character '+' at position 1"
    );
    assert_eq!(
        parse_tag("+").unwrap_err().message,
        "unexpected character '+' at position 1"
    );
    assert_eq!(
        parse_tag_raw("+").unwrap_err().message,
        "unexpected character '+' at position 1"
    );
}

#[test]
fn empty_value_after_arguments_is_no_value() {
    // The `+k8s:ifEnabled(Foo)=` quirk: no error, no value.
    let tag = parse_tag("k8s:ifEnabled(Foo)=").unwrap();
    assert_eq!(tag.name, "k8s:ifEnabled");
    assert_eq!(tag.value, TagValue::None);
    assert_eq!(tag.value_type(), ValueType::None);
    assert_eq!(tag.value_span, None);
    assert_eq!(ok("x()="), "x");
    assert_eq!(ok("x(a: 1)=  "), "x(a:int(1))");
    // Directly after the name it is an error.
    assert_eq!(err("k8s:minimum="), "unexpected end of input");
    assert_eq!(err("k8s:minimum=  "), "unexpected end of input");
}

#[test]
fn argument_list_quirks() {
    check_all(
        &[
            // A trailing comma, with or without space, is accepted.
            ("x(a,)", "x(string(a))"),
            ("x(a, )", "x(string(a))"),
            ("x(a: 1,)", "x(a:int(1))"),
            ("x(a: 1, b: 2, )", "x(a:int(1), b:int(2))"),
            // A name without a value is dropped ...
            ("x(a:)", "x"),
            ("x(a: )", "x"),
            // ... a second name replaces it ...
            ("x(a: b: c)", "x(b:string(c))"),
            // ... and it names the next argument read, even in a chained tag.
            ("x(a:)=+y(1)", "x => y(a:int(1))"),
            ("x(a:)=+y=+z(`s`)", "x => y => z(a:string(s))"),
            ("x(a:)=+y(1, b: 2)", "x => y(a:int(1), b:int(2))"),
        ],
        ok,
    );
    assert_eq!(
        err("x(a:)=+y(1, 2)"),
        "can't mix named and positional arguments"
    );
}

#[test]
fn raw_mode() {
    check_all(
        &[
            (
                "key=this is \\ arbitrary content !!",
                "key = raw(this is \\ arbitrary content !!)",
            ),
            ("key=true # comment", "key = raw(true # comment)"),
            ("key=+key2", "key = raw(+key2)"),
            ("key", "key"),
            ("key # c", "key"),
            ("key=", "key = raw()"),
            ("key=   ", "key = raw()"),
            ("key= x ", "key = raw( x)"),
            ("key(x)=", "key(string(x)) = raw()"),
            ("key(x)=  v = w ", "key(string(x)) = raw(  v = w)"),
            ("key(x) # c", "key(string(x))"),
            ("default={\"a\": [1, 2]}", "default = raw({\"a\": [1, 2]})"),
            ("default=\"x\"", "default = raw(\"x\")"),
            ("k8s:validation-gen=*", "k8s:validation-gen = raw(*)"),
            (
                "k8s:validation-gen=TypesWithField=TypeMeta",
                "k8s:validation-gen = raw(TypesWithField=TypeMeta)",
            ),
            (
                r#"k8s:isSubresource="/scale""#,
                "k8s:isSubresource = raw(\"/scale\")",
            ),
            ("x(a: 1, b: 2)=v", "x(a:int(1), b:int(2)) = raw(v)"),
            ("", ""),
        ],
        ok_raw,
    );
    check_all(
        &[
            ("key(a b)=x", "unexpected character ' ' at position 6"),
            (
                "key(a, b)=x",
                "multiple arguments must use 'name: value' syntax",
            ),
            ("key(a", "unexpected end of input"),
            ("key x", "unexpected character ' ' at position 4"),
            ("key =x", "unexpected character ' ' at position 4"),
            ("key(\"x)", "unterminated string at position 7"),
        ],
        err_raw,
    );
}

#[test]
fn spans_point_into_the_input() {
    let text = r#"  k8s:item(a: "x", b: 2)=+k8s:minimum=-1   # comment  "#;
    let at = |s: Span| &text[s.start..s.end];
    let tag = parse_tag(text).unwrap();
    assert_eq!(at(tag.name_span), "k8s:item");
    assert_eq!(at(tag.span), r#"k8s:item(a: "x", b: 2)=+k8s:minimum=-1"#);
    assert_eq!(at(tag.args[0].span), r#"a: "x""#);
    assert_eq!(at(tag.args[1].span), "b: 2");
    assert_eq!(at(tag.value_span.unwrap()), "+k8s:minimum=-1");
    let inner = tag.value_tag().unwrap();
    assert_eq!(at(inner.name_span), "k8s:minimum");
    assert_eq!(at(inner.span), "k8s:minimum=-1");
    assert_eq!(at(inner.value_span.unwrap()), "-1");

    let text = " x(`s`)=\"v\" ";
    let tag = parse_tag(text).unwrap();
    assert_eq!(&text[tag.args[0].span.start..tag.args[0].span.end], "`s`");
    let v = tag.value_span.unwrap();
    assert_eq!(&text[v.start..v.end], "\"v\"");

    let text = "x(a:)=+y(1)";
    let tag = parse_tag(text).unwrap();
    let arg = &tag.value_tag().unwrap().args[0];
    assert_eq!(&text[arg.span.start..arg.span.end], "1");

    let text = " name ";
    let tag = parse_tag(text).unwrap();
    assert_eq!(tag.value_span, None);
    assert_eq!(tag.span, Span::new(1, 5));

    let text = " default= {1} ";
    let tag = parse_tag_raw(text).unwrap();
    assert_eq!(
        &text[tag.value_span.unwrap().start..tag.value_span.unwrap().end],
        " {1}"
    );
    let tag = parse_tag_raw(" d= ").unwrap();
    assert_eq!(tag.value_span, Some(Span::empty(3)));

    assert_eq!(parse_tag("  ").unwrap().span, Span::empty(2));
}

#[test]
fn error_spans() {
    let span_of = |text: &str| {
        let e = parse_tag(text).unwrap_err();
        text[e.span.start..e.span.end].to_owned()
    };
    assert_eq!(span_of(" x=a b "), " ");
    assert_eq!(parse_tag(" x=a b ").unwrap_err().span, Span::new(4, 5));
    assert_eq!(span_of(" x=\"abc "), "\"abc");
    assert_eq!(span_of("x=`a\\nb`"), "\\n");
    assert_eq!(span_of("x=0x1z"), "z");
    assert_eq!(span_of("x=0xz"), "0x");
    assert_eq!(parse_tag(" x= ").unwrap_err().span, Span::empty(3));
    assert_eq!(parse_tag(" x(a ").unwrap_err().span, Span::empty(4));
    assert_eq!(span_of("x(a, b)"), "(a, b)");
    assert_eq!(span_of("x(a, b: 1)"), "b: 1");
    assert_eq!(span_of("x(a: 1, b)"), "b");
}

#[test]
fn helpers() {
    let tag = parse_tag(r#"k8s:item(a: "x", b: 2, c: true)=+k8s:required"#).unwrap();
    assert!(tag.positional().is_none());
    assert_eq!(
        tag.named("b").map(|a| &a.value),
        Some(&ArgValue::Int("2".into()))
    );
    assert_eq!(
        tag.named("c").map(|a| a.value.value_type()),
        Some(ValueType::Bool)
    );
    assert_eq!(tag.value_type(), ValueType::Tag);
    assert_eq!(tag.value.as_str(), None);

    let tag = parse_tag("k8s:ifEnabled(Foo)=+k8s:minimum=3").unwrap();
    let pos: &Arg = tag.positional().unwrap();
    assert_eq!(pos.value, ArgValue::String("Foo".into()));
    assert!(tag.named("Foo").is_none());
    assert_eq!(tag.value_tag().unwrap().value.as_str(), Some("3"));

    let tag = parse_tag("x=true").unwrap();
    assert_eq!(tag.value, TagValue::Bool(true));
    assert_eq!(tag.value.as_str(), Some("true"));
}

#[test]
fn display_renders_canonical_text() {
    check_all(
        &[
            ("name", "name"),
            ("name() # c", "name"),
            ("x(a)", r#"x("a")"#),
            ("x(true)", "x(true)"),
            ("x(`a`)", r#"x("a")"#),
            ("x(a:1,b:c)", r#"x(a: 1, b: "c")"#),
            ("x=ident", r#"x="ident""#),
            ("x=`a\"b\\\\c`", r#"x="a\"b\\c""#),
            ("x=+0x10", "x=+0x10"),
            ("x=false", "x=false"),
            (
                "k8s:eachVal=+k8s:subfield(x)=+k8s:minimum=1 # c",
                r#"k8s:eachVal=+k8s:subfield("x")=+k8s:minimum=1"#,
            ),
        ],
        |input| parse_tag(input).unwrap().to_string(),
    );
    assert_eq!(
        parse_tag_raw("d(x)= a # b").unwrap().to_string(),
        r#"d("x")= a # b"#
    );
}

/// Parse results with every span reset, for comparing tags of different texts.
fn without_spans(tag: &Tag) -> Tag {
    let mut tags: Vec<Tag> = tag
        .chain()
        .map(|t| Tag {
            name: t.name.clone(),
            name_span: Span::default(),
            args: t
                .args
                .iter()
                .map(|a| Arg {
                    span: Span::default(),
                    ..a.clone()
                })
                .collect(),
            value: match &t.value {
                TagValue::Tag(_) => TagValue::None,
                other => other.clone(),
            },
            value_span: None,
            span: Span::default(),
        })
        .collect();
    let mut inner = tags.pop().expect("a chain has at least one tag");
    while let Some(mut outer) = tags.pop() {
        outer.value = TagValue::Tag(Box::new(inner));
        inner = outer;
    }
    inner
}

#[test]
fn display_round_trips_every_valid_example() {
    let inputs = [
        "name",
        "k8s:alpha(since:\"1.35\")",
        "k8s:item(a: \"x\", b: 2)",
        "k8s:eachVal=+k8s:subfield(x)=+k8s:minimum=1",
        "x(a:)=+y(1)",
        "x=`a\"b\\\\c`",
        "x=\"tab\there\"",
        "numbers(n1: 2, n2: -5, n3: +5, n4: 0xFF)",
        "k8s:ifEnabled(Foo)=",
        "",
    ];
    for input in inputs {
        let tag = parse_tag(input).unwrap();
        let again = parse_tag(&tag.to_string()).unwrap();
        assert_eq!(without_spans(&again), without_spans(&tag), "{input:?}");
    }
}

fn ident() -> impl Strategy<Value = String> {
    "[A-Za-z_\u{e9}][A-Za-z0-9_.\u{e9}-]{0,6}"
}

fn tag_name() -> impl Strategy<Value = String> {
    "[A-Za-z_][A-Za-z0-9_.:-]{0,8}"
}

/// Integer text in any base and sign the grammar accepts, within int64.
fn int_text() -> impl Strategy<Value = String> {
    (any::<i64>(), 0..4u8, any::<bool>()).prop_map(|(v, base, plus)| {
        let sign = if v < 0 {
            "-"
        } else if plus {
            "+"
        } else {
            ""
        };
        let m = v.unsigned_abs();
        let body = match base {
            0 => format!("{m}"),
            1 => format!("0x{m:X}"),
            2 => format!("0o{m:o}"),
            _ => format!("0b{m:b}"),
        };
        format!("{sign}{body}")
    })
}

fn arg_value() -> impl Strategy<Value = ArgValue> {
    prop_oneof![
        any::<String>().prop_map(ArgValue::String),
        int_text().prop_map(ArgValue::Int),
        any::<bool>().prop_map(ArgValue::Bool),
    ]
}

fn args() -> impl Strategy<Value = Vec<Arg>> {
    let arg = |name: Option<String>, value| Arg {
        name,
        value,
        span: Span::default(),
    };
    prop_oneof![
        Just(Vec::new()),
        arg_value().prop_map(move |v| vec![arg(None, v)]),
        prop::collection::vec((ident(), arg_value()), 1..4)
            .prop_map(move |named| { named.into_iter().map(|(n, v)| arg(Some(n), v)).collect() }),
    ]
}

fn scalar_value() -> impl Strategy<Value = TagValue> {
    prop_oneof![
        Just(TagValue::None),
        any::<String>().prop_map(TagValue::String),
        int_text().prop_map(TagValue::Int),
        any::<bool>().prop_map(TagValue::Bool),
    ]
}

/// A valid tag chain of up to 5 tags.
fn valid_tag() -> impl Strategy<Value = Tag> {
    (
        prop::collection::vec((tag_name(), args()), 1..6),
        scalar_value(),
    )
        .prop_map(|(links, value)| {
            let mut value = value;
            let mut links = links;
            let mut inner = None;
            while let Some((name, args)) = links.pop() {
                let tag = Tag {
                    name,
                    args,
                    value: inner.take().map_or_else(
                        || std::mem::take(&mut value),
                        |t| TagValue::Tag(Box::new(t)),
                    ),
                    ..Tag::default()
                };
                inner = Some(tag);
            }
            inner.expect("at least one link")
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_on_arbitrary_text(text in any::<String>()) {
        let _ = parse_tag(&text);
        let _ = parse_tag_raw(&text);
        let _ = crate::extract(text.lines());
    }

    #[test]
    fn never_panics_on_tag_like_text(text in "[ a-z0-9:_(),=+\"`\\\\#x.-]{0,40}") {
        for result in [parse_tag(&text), parse_tag_raw(&text)] {
            match result {
                Ok(tag) => {
                    for t in tag.chain() {
                        prop_assert_eq!(&text[t.name_span.start..t.name_span.end], t.name.as_str());
                        prop_assert!(text.get(t.span.start..t.span.end).is_some());
                        for a in &t.args {
                            prop_assert!(text.get(a.span.start..a.span.end).is_some());
                        }
                        if let Some(v) = t.value_span {
                            prop_assert!(text.get(v.start..v.end).is_some());
                        }
                    }
                }
                Err(e) => {
                    prop_assert!(text.get(e.span.start..e.span.end).is_some());
                }
            }
        }
    }

    #[test]
    fn display_round_trips(tag in valid_tag()) {
        let text = tag.to_string();
        let parsed = parse_tag(&text);
        prop_assert!(parsed.is_ok(), "{:?} failed: {:?}", text, parsed.err());
        let parsed = parsed.unwrap();
        prop_assert_eq!(without_spans(&parsed), without_spans(&tag));
        prop_assert_eq!(parsed.to_string(), text);
    }

    #[test]
    fn raw_display_round_trips(
        name in tag_name(),
        args in args(),
        raw in prop::option::of(any::<String>().prop_map(|s| s.trim_end().to_owned())),
    ) {
        let tag = Tag { name, args, value: raw.map_or(TagValue::None, TagValue::Raw), ..Tag::default() };
        let text = tag.to_string();
        let parsed = parse_tag_raw(&text);
        prop_assert!(parsed.is_ok(), "{:?} failed: {:?}", text, parsed.err());
        prop_assert_eq!(without_spans(&parsed.unwrap()), without_spans(&tag));
    }
}
