//! Evaluating any parsable expression returns a value or an error, never a panic: random
//! expressions built from CEL fragments, unchecked (dynamic dispatch on every path).

use kdv_cel::interp::{EvalConfig, Program, ProgramOptions, Vars};
use kdv_cel::parser::{ParseOptions, parse_with};
use kdv_cel::value::Value;
use proptest::prelude::*;

const ATOMS: &[&str] = &[
    "0",
    "-1",
    "1u",
    "2.5",
    "-0.0",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615u",
    "'a'",
    "''",
    "'héllo 👑'",
    "b'\\xff'",
    "true",
    "false",
    "null",
    "[]",
    "[1, 'a', 2.0]",
    "{}",
    "{'k': 1, 2: 'v'}",
    "x",
    "self",
    "self.items",
    "self.m",
    "duration('1h')",
    "timestamp('2000-01-01T00:00:00Z')",
    "optional.none()",
    "optional.of(1)",
    "int",
    "type(1)",
    "dyn([1])",
    "1.0/0.0",
];

const UNARY: &[&str] = &[
    "-{}",
    "!{}",
    "size({})",
    "int({})",
    "uint({})",
    "double({})",
    "string({})",
    "bytes({})",
    "type({})",
    "dyn({})",
    "{}.size()",
    "{}.all(e, e == 1)",
    "{}.exists(e, e != 'a')",
    "{}.map(e, e)",
    "{}.filter(e, true)",
    "{}.exists_one(e, false)",
    "has({}.k)",
    "{}.?k",
    "{}[?0]",
    "{}.charAt(1)",
    "{}.indexOf('a', 2)",
    "{}.substring(1, 0)",
    "{}.split('')",
    "{}.upperAscii()",
    "{}.trim()",
    "{}.reverse()",
    "{}.sort()",
    "{}.flatten()",
    "{}.distinct()",
    "{}.join(',')",
    "{}.getHours('Nowhere/Zone')",
    "{}.getDate('+25:99')",
    "{}.value()",
    "{}.orValue(1)",
    "{}.matches('[')",
    "'%s %d %f %e %x %b %o'.format({})",
    "math.abs({})",
    "math.sqrt({})",
    "math.greatest({})",
    "lists.range({})",
    "{}.transformList(i, v, v)",
    "{}.transformMapEntry(k, v, {v: k})",
    "{}.all(k, v, v)",
    "{}.slice(1, 2)",
    "base64.decode({})",
    "strings.quote({})",
    "sets.contains({}, [1])",
    "{}.lastIndexOf('', -1)",
    "{}.replace('', '-', -1)",
];

const BINARY: &[&str] = &[
    "{} + {}",
    "{} - {}",
    "{} * {}",
    "{} / {}",
    "{} % {}",
    "{} == {}",
    "{} != {}",
    "{} < {}",
    "{} >= {}",
    "{} && {}",
    "{} || {}",
    "{} in {}",
    "{}[{}]",
    "{} ? {} : 1",
    "[{}, {}]",
    "{{{}: {}}}",
    "math.bitShiftLeft({}, {})",
    "{}.indexOf({})",
    "{}.substring({})",
    "{}.slice(0, {})",
    "{}.or({})",
];

fn expr(depth: u32) -> BoxedStrategy<String> {
    let atom = prop::sample::select(ATOMS).prop_map(str::to_string);
    if depth == 0 {
        return atom.boxed();
    }
    prop_oneof![
        atom,
        (prop::sample::select(UNARY), expr(depth - 1)).prop_map(|(t, a)| t.replacen("{}", &a, 1)),
        (
            prop::sample::select(BINARY),
            expr(depth - 1),
            expr(depth - 1)
        )
            .prop_map(|(t, a, b)| t.replacen("{}", &a, 1).replacen("{}", &b, 1)),
    ]
    .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn evaluation_never_panics(src in expr(3)) {
        let Ok(parsed) = parse_with(&src, &ParseOptions::conformance()) else {
            return Ok(());
        };
        let doc = serde_json::json!({"items": [1, "two", {"k": null}], "m": {"k": [1.5]}});
        let vars = Vars::new()
            .with("self", Value::from_json(&doc))
            .with("x", Value::Int(3));
        for options in [ProgramOptions::default(), ProgramOptions::kubernetes()] {
            let program = Program::new(&parsed.expr, &options);
            let config = EvalConfig { cost_limit: Some(100_000), interrupt: None };
            let _ = program.eval(&vars, &config);
        }
    }
}
