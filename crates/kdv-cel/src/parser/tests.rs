//! Parser tests: tree shapes with ids (compared with cel-go's documented parses), macro
//! expansions, error texts, limits.

use super::*;
use crate::ast::{ExprKind, Literal};

/// Compact rendering with ids: `_+_(a#1, b#3)#2`, `a#1.f~test-only#4`, `{k#3: v#4 @2}#1`.
pub(crate) fn show(e: &Expr) -> String {
    let id = e.id;
    match &e.kind {
        ExprKind::Literal(l) => format!("{}#{id}", show_lit(l)),
        ExprKind::Ident(n) => format!("{n}#{id}"),
        ExprKind::Select {
            operand,
            field,
            test_only,
        } => format!(
            "{}.{field}{}#{id}",
            show(operand),
            if *test_only { "~test-only" } else { "" }
        ),
        ExprKind::Call {
            target,
            function,
            args,
        } => {
            let args: Vec<String> = args.iter().map(show).collect();
            match target {
                Some(t) => format!("{}.{function}({})#{id}", show(t), args.join(", ")),
                None => format!("{function}({})#{id}", args.join(", ")),
            }
        }
        ExprKind::List {
            elements,
            optional_indices,
        } => {
            let items: Vec<String> = elements
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    let q = if optional_indices.contains(&(i as u32)) {
                        "?"
                    } else {
                        ""
                    };
                    format!("{q}{}", show(x))
                })
                .collect();
            format!("[{}]#{id}", items.join(", "))
        }
        ExprKind::Map { entries } => {
            let items: Vec<String> = entries
                .iter()
                .map(|en| {
                    let q = if en.optional { "?" } else { "" };
                    format!("{q}{}: {} @{}", show(&en.key), show(&en.value), en.id)
                })
                .collect();
            format!("{{{}}}#{id}", items.join(", "))
        }
        ExprKind::Struct { type_name, fields } => {
            let items: Vec<String> = fields
                .iter()
                .map(|f| {
                    let q = if f.optional { "?" } else { "" };
                    format!("{q}{}: {} @{}", f.field, show(&f.value), f.id)
                })
                .collect();
            format!("{type_name}{{{}}}#{id}", items.join(", "))
        }
        ExprKind::Comprehension(c) => {
            let vars = match &c.iter_var2 {
                Some(v2) => format!("{}, {v2}", c.iter_var),
                None => c.iter_var.clone(),
            };
            format!(
                "__comprehension__({vars}, {}, {}, {}, {}, {}, {})#{id}",
                show(&c.iter_range),
                c.accu_var,
                show(&c.accu_init),
                show(&c.loop_condition),
                show(&c.loop_step),
                show(&c.result)
            )
        }
    }
}

fn show_lit(l: &Literal) -> String {
    match l {
        Literal::Null => "null".into(),
        Literal::Bool(b) => b.to_string(),
        Literal::Int(i) => i.to_string(),
        Literal::Uint(u) => format!("{u}u"),
        Literal::Double(d) => format!("{d:?}"),
        Literal::String(s) => format!("{s:?}"),
        Literal::Bytes(b) => format!("b{:?}", b.as_ref()),
    }
}

fn p(src: &str) -> String {
    match parse(src) {
        Ok(pe) => show(&pe.expr),
        Err(e) => panic!("parse of {src:?} failed:\n{e}"),
    }
}

fn err(src: &str) -> String {
    match parse(src) {
        Ok(pe) => panic!("parse of {src:?} succeeded: {}", show(&pe.expr)),
        Err(e) => e.to_string(),
    }
}

fn err_with(src: &str, opts: &ParseOptions) -> String {
    match parse_with(src, opts) {
        Ok(pe) => panic!("parse of {src:?} succeeded: {}", show(&pe.expr)),
        Err(e) => e.to_string(),
    }
}

#[test]
fn operator_ids_follow_cel_go_visiting_order() {
    assert_eq!(
        p("a > 5 && a < 10"),
        "_&&_(_>_(a#1, 5#3)#2, _<_(a#4, 10#6)#5)#7"
    );
    assert_eq!(
        p("false && !true || false ? 2 : 3"),
        "_?_:_(_||_(_&&_(false#1, !_(true#3)#2)#4, false#5)#6, 2#8, 3#9)#7"
    );
    assert_eq!(
        p("1 + 2 * 3 - 1 / 2 == 6 % 1"),
        "_==_(_-_(_+_(1#1, _*_(2#3, 3#5)#4)#2, _/_(1#7, 2#9)#8)#6, _%_(6#11, 1#13)#12)#10"
    );
    assert_eq!(p("4--4"), "_-_(4#1, -4#3)#2");
    assert_eq!(p("-a"), "-_(a#2)#1");
    assert_eq!(p("--a"), "a#1");
    assert_eq!(p("!!true"), "true#1");
    assert_eq!(p("-1"), "-1#1");
    assert_eq!(p("-9223372036854775808"), "-9223372036854775808#1");
}

#[test]
fn member_forms() {
    assert_eq!(p("a.b(5)"), "a#1.b(5#3)#2");
    assert_eq!(p("a[3]"), "_[_](a#1, 3#3)#2");
    assert_eq!(
        p("size(x) == x.size()"),
        "_==_(size(x#2)#1, x#4.size()#5)#3"
    );
    assert_eq!(
        p("x[\"a\"].single_int32 == 23"),
        "_==_(_[_](x#1, \"a\"#3)#2.single_int32#4, 23#6)#5"
    );
    assert_eq!(p(".a.b"), ".a#1.b#2");
    assert_eq!(p("a.`b-c`"), "a#1.b-c#2");
    assert_eq!(p("a.package()"), "a#1.package()#2");
    assert_eq!(p("{ 'as': 1 }.as"), "{\"as\"#3: 1#4 @2}#1.as#5");
}

#[test]
fn aggregate_literals() {
    assert_eq!(p("[3, 4, 5,]"), "[3#2, 4#3, 5#4]#1");
    assert_eq!(
        p("[] + [1,2,3,] + [4]"),
        "_+_(_+_([]#1, [1#4, 2#5, 3#6]#3)#2, [4#9]#8)#7"
    );
    assert_eq!(p("{1:2u, 2:3u}"), "{1#3: 2u#4 @2, 2#6: 3u#7 @5}#1");
    assert_eq!(
        p("{foo: 5, bar: \"xyz\", }"),
        "{foo#3: 5#4 @2, bar#6: \"xyz\"#7 @5}#1"
    );
    assert_eq!(
        p("TestAllTypes{single_int32: 1, single_int64: 2}"),
        "TestAllTypes{single_int32: 1#3 @2, single_int64: 2#5 @4}#1"
    );
    assert_eq!(p(".a.B{c: 1}"), ".a.B{c: 1#3 @2}#1");
    assert_eq!(p("Msg{`in`: true}"), "Msg{in: true#3 @2}#1");
}

#[test]
fn optional_syntax() {
    assert_eq!(p("a.?b"), "_?._(a#1, \"b\"#2)#3");
    assert_eq!(p("a[?b]"), "_[?_](a#1, b#3)#2");
    assert_eq!(p("[?a, b]"), "[?a#2, b#3]#1");
    assert_eq!(p("{?'k': v}"), "{?\"k\"#3: v#4 @2}#1");
    assert_eq!(p("Msg{?field: value}"), "Msg{?field: value#3 @2}#1");
    let off = ParseOptions {
        enable_optional_syntax: false,
        ..ParseOptions::default()
    };
    assert_eq!(
        err_with("a.?b && a[?b]", &off),
        "ERROR: <input>:1:2: unsupported syntax '.?'\n | a.?b && a[?b]\n | .^\nERROR: <input>:1:10: unsupported syntax '[?'\n | a.?b && a[?b]\n | .........^"
    );
    assert_eq!(
        err_with("[?a, ?b]", &off),
        "ERROR: <input>:1:2: unsupported syntax '?'\n | [?a, ?b]\n | .^\nERROR: <input>:1:6: unsupported syntax '?'\n | [?a, ?b]\n | .....^"
    );
}

#[test]
fn logical_chains_are_balanced() {
    assert_eq!(
        p("a && b && c && d"),
        "_&&_(_&&_(a#1, b#2)#3, _&&_(c#4, d#6)#7)#5"
    );
    assert_eq!(p("a || b || c"), "_||_(_||_(a#1, b#2)#3, c#4)#5");
}

#[test]
fn standard_macros() {
    assert_eq!(p("has(m.f)"), "m#2.f~test-only#4");
    assert_eq!(
        p("m.exists(v, f)"),
        "__comprehension__(v, m#1, @result, false#5, @not_strictly_false(!_(@result#6)#7)#8, _||_(@result#9, f#4)#10, @result#11)#12"
    );
    assert_eq!(
        p("m.all(v, f)"),
        "__comprehension__(v, m#1, @result, true#5, @not_strictly_false(@result#6)#7, _&&_(@result#8, f#4)#9, @result#10)#11"
    );
    assert_eq!(
        p("m.existsOne(v, f)"),
        "__comprehension__(v, m#1, @result, 0#5, true#6, _?_:_(f#4, _+_(@result#7, 1#8)#9, @result#10)#11, _==_(@result#12, 1#13)#14)#15"
    );
    assert_eq!(p("m.exists_one(v, f)"), p("m.existsOne(v, f)"));
    assert_eq!(
        p("m.map(v, f)"),
        "__comprehension__(v, m#1, @result, []#5, true#6, _+_(@result#7, [f#4]#8)#9, @result#10)#11"
    );
    assert_eq!(
        p("m.map(v, p, f)"),
        "__comprehension__(v, m#1, @result, []#6, true#7, _?_:_(p#4, _+_(@result#8, [f#5]#9)#10, @result#11)#12, @result#13)#14"
    );
    assert_eq!(
        p("m.filter(v, p)"),
        "__comprehension__(v, m#1, @result, []#5, true#6, _?_:_(p#4, _+_(@result#7, [v#3]#8)#9, @result#10)#11, @result#12)#13"
    );
}

#[test]
fn two_variable_macros() {
    assert_eq!(
        p("m.all(k, v, v > 0)"),
        "__comprehension__(k, v, m#1, @result, true#8, @not_strictly_false(@result#9)#10, _&&_(@result#11, _>_(v#5, 0#7)#6)#12, @result#13)#14"
    );
    assert_eq!(
        p("m.transformList(i, v, v)"),
        "__comprehension__(i, v, m#1, @result, []#9, true#10, _+_(@result#6, [v#5]#7)#8, @result#11)#12"
    );
    assert_eq!(
        p("m.transformMap(k, v, p, v)"),
        "__comprehension__(k, v, m#1, @result, {}#12, true#13, _?_:_(p#5, cel.@mapInsert(@result#7, k#8, v#6)#9, @result#10)#11, @result#14)#15"
    );
    assert_eq!(
        p("m.transformMapEntry(k, v, {k: v})"),
        "__comprehension__(k, v, m#1, @result, {}#11, true#12, cel.@mapInsert(@result#9, {k#7: v#8 @6}#5)#10, @result#13)#14"
    );
    assert_eq!(
        err("m.all(x, x, true)"),
        "ERROR: <input>:1:10: duplicate variable name: x\n | m.all(x, x, true)\n | .........^"
    );
    assert_eq!(
        err("m.exists(x.y, v, true)"),
        "ERROR: <input>:1:11: argument must be a simple name\n | m.exists(x.y, v, true)\n | ..........^"
    );
}

#[test]
fn optional_macros() {
    assert_eq!(
        p("x.optMap(y, y + 1)"),
        "_?_:_(x#1.hasValue()#7, optional.of(__comprehension__(#unused, []#8, y, x#9.value()#10, false#11, y#12, _+_(y#4, 1#6)#5)#13)#14, optional.none()#15)#16"
    );
    assert_eq!(
        p("x.optFlatMap(y, y.?z)"),
        "_?_:_(x#1.hasValue()#7, __comprehension__(#unused, []#8, y, x#9.value()#10, false#11, y#12, _?._(y#4, \"z\"#5)#6)#13, optional.none()#14)#15"
    );
    assert_eq!(
        err("x.optMap(y.z, 1)"),
        "ERROR: <input>:1:11: optMap() variable name must be a simple identifier\n | x.optMap(y.z, 1)\n | ..........^"
    );
}

#[test]
fn extension_macros() {
    let all = ParseOptions::conformance();
    let q = |s: &str| show(&parse_with(s, &all).unwrap().expr);
    assert_eq!(q("math.greatest(1, 2)"), "math.@max(1#3, 2#4)#5");
    assert_eq!(q("math.least(1, 2, 3)"), "math.@min([1#3, 2#4, 3#5]#6)#7");
    assert_eq!(q("x.greatest(1)"), "x#1.greatest(1#3)#2");
    assert_eq!(
        q("cel.bind(a, 1, a + a)"),
        "__comprehension__(#unused, []#8, a, 1#4, false#9, a#10, _+_(a#5, a#7)#6)#11"
    );
    assert_eq!(
        q("[2, 1].sortBy(x, -x)"),
        "__comprehension__(#unused, []#19, @__sortBy_input__, [2#2, 1#3]#1, false#20, @__sortBy_input__#8, @__sortBy_input__#17.@sortByAssociatedKeys(__comprehension__(x, @__sortBy_input__#9, @result, []#10, true#11, _+_(@result#12, [-_(x#7)#6]#13)#14, @result#15)#16)#18)#21"
    );
    assert_eq!(
        err_with("math.greatest('a', 1)", &all),
        "ERROR: <input>:1:15: math.greatest() simple literal arguments must be numeric\n | math.greatest('a', 1)\n | ..............^"
    );
    assert_eq!(
        err_with("{}.sortBy(x, x)", &all),
        "ERROR: <input>:1:1: sortBy can only be applied to a list, identifier, comprehension, call or select expression\n | {}.sortBy(x, x)\n | ^"
    );
}

#[test]
fn macros_can_be_disabled() {
    let none = ParseOptions {
        macros: Macros::NONE,
        ..ParseOptions::default()
    };
    assert_eq!(
        show(&parse_with("has(a.b)", &none).unwrap().expr),
        "has(a#2.b#3)#1"
    );
}

#[test]
fn macro_argument_errors() {
    assert_eq!(
        err("has(m)"),
        "ERROR: <input>:1:5: invalid argument to has() macro\n | has(m)\n | ....^"
    );
    assert_eq!(
        err("1.all(2, 3)"),
        "ERROR: <input>:1:7: argument must be a simple name\n | 1.all(2, 3)\n | ......^"
    );
    assert_eq!(
        err("m.filter(a.b, false)"),
        "ERROR: <input>:1:11: argument is not an identifier\n | m.filter(a.b, false)\n | ..........^"
    );
    assert_eq!(
        err("[].existsOne(__result__, __result__)"),
        "ERROR: <input>:1:14: iteration variable overwrites accumulator variable\n | [].existsOne(__result__, __result__)\n | .............^"
    );
    assert_eq!(
        err("[1, 2, 3].map(var, var * var)"),
        "ERROR: <input>:1:15: reserved identifier: var\n | [1, 2, 3].map(var, var * var)\n | ..............^\nERROR: <input>:1:15: argument is not an identifier\n | [1, 2, 3].map(var, var * var)\n | ..............^\nERROR: <input>:1:20: reserved identifier: var\n | [1, 2, 3].map(var, var * var)\n | ...................^\nERROR: <input>:1:26: reserved identifier: var\n | [1, 2, 3].map(var, var * var)\n | .........................^"
    );
}

#[test]
fn literal_errors() {
    assert_eq!(
        err("0xFFFFFFFFFFFFFFFFF"),
        "ERROR: <input>:1:1: invalid int literal\n | 0xFFFFFFFFFFFFFFFFF\n | ^"
    );
    assert_eq!(
        err("0xFFFFFFFFFFFFFFFFFu"),
        "ERROR: <input>:1:1: invalid uint literal\n | 0xFFFFFFFFFFFFFFFFFu\n | ^"
    );
    assert_eq!(
        err("1.99e90000009"),
        "ERROR: <input>:1:1: invalid double literal\n | 1.99e90000009\n | ^"
    );
    assert_eq!(
        err("'\\udead' == '\\ufffd'"),
        "ERROR: <input>:1:1: invalid unicode code point\n | '\\udead' == '\\ufffd'\n | ^"
    );
    assert_eq!(
        err("as"),
        "ERROR: <input>:1:1: reserved identifier: as\n | as\n | ^"
    );
    assert_eq!(
        err("9223372036854775808"),
        "ERROR: <input>:1:1: invalid int literal\n | 9223372036854775808\n | ^"
    );
}

#[test]
fn literal_values() {
    assert_eq!(
        p("0x1F + 1u + 0x10u + 1.5e3 + .5"),
        "_+_(_+_(_+_(_+_(31#1, 1u#3)#2, 16u#5)#4, 1500.0#7)#6, 0.5#9)#8"
    );
    assert_eq!(p("b'\\xff\\377'"), "b[255, 255]#1");
    assert_eq!(p("'''a\nb'''"), "\"a\\nb\"#1");
    assert_eq!(p("r'\\n'"), "\"\\\\n\"#1");
}

#[test]
fn syntax_errors_match_antlr() {
    let first = "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
    assert_eq!(
        err("{"),
        "ERROR: <input>:1:2: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '}', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | {\n | .^"
    );
    assert_eq!(
        err("1 + +"),
        format!(
            "ERROR: <input>:1:5: Syntax error: mismatched input '+' expecting {first}\n | 1 + +\n | ....^\nERROR: <input>:1:6: Syntax error: mismatched input '<EOF>' expecting {first}\n | 1 + +\n | .....^"
        )
    );
    assert_eq!(
        err("*@a | b"),
        format!(
            "ERROR: <input>:1:1: Syntax error: extraneous input '*' expecting {first}\n | *@a | b\n | ^\nERROR: <input>:1:2: Syntax error: token recognition error at: '@'\n | *@a | b\n | .^\nERROR: <input>:1:5: Syntax error: token recognition error at: '| '\n | *@a | b\n | ....^\nERROR: <input>:1:7: Syntax error: extraneous input 'b' expecting <EOF>\n | *@a | b\n | ......^"
        )
    );
    assert_eq!(
        err("\"\\xFh\""),
        format!(
            "ERROR: <input>:1:1: Syntax error: token recognition error at: '\"\\xFh'\n | \"\\xFh\"\n | ^\nERROR: <input>:1:6: Syntax error: token recognition error at: '\"'\n | \"\\xFh\"\n | .....^\nERROR: <input>:1:7: Syntax error: mismatched input '<EOF>' expecting {first}\n | \"\\xFh\"\n | ......^"
        )
    );
    assert_eq!(
        err("self.true == 1"),
        "ERROR: <input>:1:6: Syntax error: mismatched input 'true' expecting IDENTIFIER\n | self.true == 1\n | .....^"
    );
    assert_eq!(
        err("{\"a\": 1}.\"a\""),
        "ERROR: <input>:1:10: Syntax error: no viable alternative at input '.\"a\"'\n | {\"a\": 1}.\"a\"\n | .........^"
    );
    assert_eq!(
        err("TestAllTypes(){}"),
        "ERROR: <input>:1:15: Syntax error: mismatched input '{' expecting <EOF>\n | TestAllTypes(){}\n | ..............^"
    );
    assert_eq!(
        err("TestAllTypes{}()"),
        "ERROR: <input>:1:15: Syntax error: mismatched input '(' expecting <EOF>\n | TestAllTypes{}()\n | ..............^"
    );
    assert_eq!(
        err("1 + 2\n3 +"),
        "ERROR: <input>:2:1: Syntax error: mismatched input '3' expecting <EOF>\n | 3 +\n | ^"
    );
    assert_eq!(
        err("?"),
        format!(
            "ERROR: <input>:1:1: Syntax error: mismatched input '?' expecting {first}\n | ?\n | ^\nERROR: <input>:1:2: Syntax error: mismatched input '<EOF>' expecting {first}\n | ?\n | .^"
        )
    );
}

#[test]
fn syntax_errors_in_initializers() {
    assert_eq!(
        err("func{{a}}"),
        "ERROR: <input>:1:6: Syntax error: extraneous input '{' expecting {'}', ',', '?', IDENTIFIER, ESC_IDENTIFIER}\n | func{{a}}\n | .....^\nERROR: <input>:1:8: Syntax error: mismatched input '}' expecting ':'\n | func{{a}}\n | .......^\nERROR: <input>:1:9: Syntax error: extraneous input '}' expecting <EOF>\n | func{{a}}\n | ........^"
    );
    assert_eq!(
        err("msg{:a}"),
        "ERROR: <input>:1:5: Syntax error: extraneous input ':' expecting {'}', ',', '?', IDENTIFIER, ESC_IDENTIFIER}\n | msg{:a}\n | ....^\nERROR: <input>:1:7: Syntax error: mismatched input '}' expecting ':'\n | msg{:a}\n | ......^"
    );
    assert_eq!(
        err("{a}"),
        "ERROR: <input>:1:3: Syntax error: mismatched input '}' expecting ':'\n | {a}\n | ..^"
    );
    assert_eq!(
        err("{:a}"),
        "ERROR: <input>:1:2: Syntax error: extraneous input ':' expecting {'[', '{', '}', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | {:a}\n | .^\nERROR: <input>:1:4: Syntax error: mismatched input '}' expecting ':'\n | {:a}\n | ...^"
    );
    assert_eq!(
        err("ind[a{b}]"),
        "ERROR: <input>:1:8: Syntax error: mismatched input '}' expecting ':'\n | ind[a{b}]\n | .......^"
    );
    assert_eq!(
        err("x{."),
        "ERROR: <input>:1:3: Syntax error: mismatched input '.' expecting {'}', ',', '?', IDENTIFIER, ESC_IDENTIFIER}\n | x{.\n | ..^"
    );
    assert_eq!(
        err("a.`b.c`()"),
        "ERROR: <input>:1:8: Syntax error: mismatched input '(' expecting <EOF>\n | a.`b.c`()\n | .......^"
    );
    assert_eq!(
        err("`b-c`"),
        "ERROR: <input>:1:1: Syntax error: mismatched input '`b-c`' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | `b-c`\n | ^"
    );
}

#[test]
fn missing_closers() {
    assert_eq!(
        err("(1 + 2"),
        "ERROR: <input>:1:7: Syntax error: missing ')' at '<EOF>'\n | (1 + 2\n | ......^"
    );
    assert_eq!(
        err("f(a, b"),
        "ERROR: <input>:1:7: Syntax error: missing ')' at '<EOF>'\n | f(a, b\n | ......^"
    );
    assert_eq!(
        err("a[1 == 2"),
        "ERROR: <input>:1:9: Syntax error: missing ']' at '<EOF>'\n | a[1 == 2\n | ........^"
    );
}

#[test]
fn escape_syntax_can_be_disabled() {
    let off = ParseOptions {
        enable_identifier_escape_syntax: false,
        ..ParseOptions::default()
    };
    assert_eq!(
        err_with("a.`b-c`", &off),
        "ERROR: <input>:1:3: unsupported syntax: '`'\n | a.`b-c`\n | ..^"
    );
}

fn limited(depth: u32) -> ParseOptions {
    ParseOptions {
        max_recursion_depth: depth,
        ..ParseOptions::default()
    }
}

#[test]
fn recursion_limits_match_cel_go() {
    let o = limited(32);
    let nested = format!("{}'not fine'{}", "[".repeat(32), "]".repeat(32));
    assert_eq!(
        err_with(&nested, &o),
        "ERROR: <input>:-1:0: expression recursion limit exceeded: 32"
    );
    let fine = format!("{}'fine'{}", "[".repeat(31), "]".repeat(31));
    assert!(parse_with(&fine, &o).is_ok());
    let adds = (1..=34)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(" + ");
    assert_eq!(
        err_with(&adds, &o),
        "ERROR: <input>:-1:0: max recursion depth exceeded"
    );
    let adds = (1..=33)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(" + ");
    assert!(parse_with(&adds, &o).is_ok());
    assert_eq!(
        err_with(
            "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.A.B.C.D.E.F.G.H",
            &o
        ),
        "ERROR: <input>:-1:0: max recursion depth exceeded"
    );
    let idx: String = (1..=33).map(|i| format!("[{i}]")).collect();
    assert_eq!(
        err_with(&format!("a{idx}"), &o),
        "ERROR: <input>:-1:0: max recursion depth exceeded"
    );
    let rel = (1..=33)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(" < ");
    assert_eq!(
        err_with(&format!("a < {rel}"), &o),
        "ERROR: <input>:-1:0: max recursion depth exceeded"
    );
    let idx20: String = (1..=20).map(|i| format!("[{i}]")).collect();
    let mixed = vec![format!("a{idx20}"); 14].join(" !=\n");
    assert_eq!(
        err_with(&mixed, &o),
        "ERROR: <input>:-1:0: max recursion depth exceeded"
    );
}

#[test]
fn kubernetes_equality_chain_limit() {
    // Kubernetes' TestCELMaxRecursionDepth: 249 `==` operators parse, 250 do not.
    let chain = |n: usize| {
        let mut s = String::from("self.v");
        for _ in 0..n {
            s.push_str(" == self.v");
        }
        s
    };
    assert!(parse(&chain(249)).is_ok());
    assert_eq!(
        err(&chain(250)),
        "ERROR: <input>:-1:0: max recursion depth exceeded"
    );
}

#[test]
fn expression_size_limit() {
    let o = ParseOptions {
        expression_size_limit: 10,
        ..ParseOptions::default()
    };
    assert_eq!(
        err_with("aaaaaaaaaaaa", &o),
        "ERROR: <input>:-1:0: expression code point size exceeds limit: size: 12, limit 10"
    );
}

#[test]
fn error_reporting_limit() {
    let o = ParseOptions {
        error_reporting_limit: 2,
        ..ParseOptions::default()
    };
    let e = err_with("'3# < 10\" '& tru ^^", &o);
    assert!(e.contains("Syntax error: More than 2 syntax errors"), "{e}");
}

/// Hostile inputs return promptly with an error instead of exhausting the stack.
#[test]
fn deep_nesting_is_rejected_quickly() {
    for (open, close) in [("(", ")"), ("[", "]"), ("{1:", "}"), ("f(", ")")] {
        let src = format!(
            "{}1{}",
            open.repeat(100_000 / open.len()),
            close.repeat(100_000 / open.len())
        );
        let o = ParseOptions {
            expression_size_limit: usize::MAX,
            ..ParseOptions::default()
        };
        let t = std::time::Instant::now();
        let e = err_with(&src, &o);
        assert!(e.contains("recursion limit exceeded"), "{e}");
        assert!(t.elapsed().as_secs() < 5);
    }
    // Unary operators nested through parentheses hit the nesting limit.
    for op in ["-(", "!("] {
        let src = format!("{}1{}", op.repeat(30_000), ")".repeat(30_000));
        let t = std::time::Instant::now();
        let e = err(&src);
        assert!(e.contains("recursion limit exceeded"), "{e}");
        assert!(t.elapsed().as_secs() < 5);
    }
    // Plain runs of unary operators are flat in cel-go's grammar: they parse.
    for op in ["-", "!"] {
        let src = format!("{}1", op.repeat(100_000));
        let o = ParseOptions {
            expression_size_limit: usize::MAX,
            ..ParseOptions::default()
        };
        assert!(parse_with(&src, &o).is_ok());
    }
    let src = format!("a{}", ".b".repeat(40_000));
    assert!(err(&src).contains("max recursion depth exceeded"));
    let src = vec!["a"; 20_000].join(" && ");
    assert!(parse(&src).is_ok());
    let src = format!("{}1", "1 ? 1 : ".repeat(10_000));
    assert!(err(&src).contains("recursion"));
}

/// The default limit's worst-case nesting fits a 2 MiB thread stack.
#[test]
fn default_limit_nesting_fits_small_stack() {
    let worst = [
        format!("{}1{}", "(".repeat(249), ")".repeat(249)),
        format!("{}1{}", "[".repeat(249), "]".repeat(249)),
        format!("{}1{}", "f(".repeat(249), ")".repeat(249)),
        format!("{}1{}", "{1:".repeat(249), "}".repeat(249)),
        format!("{}1{}", "x.map(y, ".repeat(249), ")".repeat(249)),
        format!("{}1{}", "1 + 2 * (".repeat(83), ")".repeat(83)),
        format!("{}a", "a < (".repeat(124)) + &")".repeat(124),
    ];
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            for src in &worst {
                let _ = parse(src);
            }
        })
        .unwrap();
    handle.join().unwrap();
}

mod never_panics {
    use proptest::prelude::*;

    use crate::checker::{Env, check};
    use crate::parser::{ParseOptions, parse_with};
    use crate::types::Type;

    /// Token soup biased towards CEL syntax, so inputs reach deep into the grammar.
    fn cel_soup() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("("),
            Just(")"),
            Just("["),
            Just("]"),
            Just("{"),
            Just("}"),
            Just("."),
            Just(".?"),
            Just("[?"),
            Just(","),
            Just(":"),
            Just("?"),
            Just("!"),
            Just("-"),
            Just("+"),
            Just("*"),
            Just("/"),
            Just("%"),
            Just("=="),
            Just("!="),
            Just("<"),
            Just("<="),
            Just("&&"),
            Just("||"),
            Just(" in "),
            Just("x"),
            Just("self"),
            Just("a"),
            Just("1"),
            Just("1u"),
            Just("1.5"),
            Just("'s'"),
            Just("b'b'"),
            Just("r'\\d'"),
            Just("true"),
            Just("null"),
            Just("has("),
            Just(".all("),
            Just(".map("),
            Just(".exists_one("),
            Just(".transformMap("),
            Just("optional.of("),
            Just("`a-b`"),
            Just("'''"),
            Just("\\"),
            Just(" "),
            Just("\n"),
            Just("é"),
            Just("size("),
            Just("math.greatest("),
            Just("cel.bind("),
            Just(".sortBy("),
            Just("int"),
        ];
        prop::collection::vec(piece, 0..60).prop_map(|v| v.concat())
    }

    fn env() -> Env {
        let mut env = Env::kubernetes();
        env.add_variable("x", Type::Dyn);
        env.add_variable("a", Type::List(Box::new(Type::Int)));
        env.add_variable(
            "self",
            Type::Map(Box::new(Type::String), Box::new(Type::Dyn)),
        );
        env
    }

    proptest! {
        #[test]
        fn parse_and_check_never_panic(src in cel_soup()) {
            match parse_with(&src, &ParseOptions::conformance()) {
                Ok(parsed) => {
                    if let Err(issues) = check(parsed, &env()) {
                        let _ = issues.to_string();
                    }
                }
                Err(issues) => {
                    prop_assert!(!issues.is_empty());
                    let _ = issues.to_string();
                }
            }
        }

        #[test]
        fn arbitrary_text_never_panics(src in "\\PC{0,80}") {
            if let Err(issues) = parse_with(&src, &ParseOptions::default()) {
                let _ = issues.to_string();
            }
        }
    }
}

/// Chained `optMap` copies its receiver each time: the node budget stops the doubling.
#[test]
fn exponential_macro_expansion_is_bounded() {
    let src = format!("optional.of(1){}", ".optMap(y, y + 1)".repeat(200));
    let t = std::time::Instant::now();
    let e = err(&src);
    assert!(e.contains("nodes after macro expansion"), "{e}");
    assert!(t.elapsed().as_secs() < 5);
    let small = format!("optional.of(1){}", ".optMap(y, y + 1)".repeat(5));
    assert!(parse(&small).is_ok());
}

#[test]
fn no_viable_alternative_cases() {
    let first = "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
    assert_eq!(
        err("--"),
        format!(
            "ERROR: <input>:1:3: Syntax error: no viable alternative at input '-'\n | --\n | ..^\nERROR: <input>:1:3: Syntax error: mismatched input '<EOF>' expecting {first}\n | --\n | ..^"
        )
    );
    assert_eq!(
        err("      '😁' in ['😁', '😑', '😦']\n\t\t\t&& in.😁"),
        format!(
            "ERROR: <input>:2:7: Syntax error: extraneous input 'in' expecting {first}\n |    && in.😁\n | ......^\nERROR: <input>:2:10: Syntax error: token recognition error at: '😁'\n |    && in.😁\n | .........＾\nERROR: <input>:2:11: Syntax error: no viable alternative at input '.'\n |    && in.😁\n | .........．^"
        )
    );
}

#[test]
fn recovery_lookahead_limit() {
    let o = ParseOptions {
        error_recovery_limit: 4,
        error_recovery_lookahead_limit: 4,
        ..ParseOptions::default()
    };
    let e = err_with("1 2 3 4 5 6 7", &o);
    assert!(
        e.starts_with("ERROR: <input>:-1:0: error recovery token lookahead limit exceeded: 4"),
        "{e}"
    );
}
