//! How `kdv_cel` values print (`Display` of `Value`, cel-go's `types.Format`): one row per
//! decision, the Kubernetes library types included (their Go `String()` methods).

use kdv_cel::CompiledExpression;
use kdv_cel::cost::NoSizeEstimates;
use kdv_cel::interp::{EvalConfig, Vars};
use kdv_cel::k8s;

/// Expression → how its value prints. See the table in `kdv_cel::value`'s `format` module.
const TABLE: &[(&str, &str)] = &[
    ("null", "null"),
    ("true", "true"),
    ("-3", "-3"),
    ("3u", "3u"),
    ("2.5", "2.5"),
    ("2.0", "2.0"),
    ("-0.0", "-0.0"),
    ("1e10", "10000000000.0"),
    ("1e-7", "0.0000001"),
    ("double('NaN')", "double(\"NaN\")"),
    ("double('Infinity')", "double(\"Infinity\")"),
    ("-double('Infinity')", "double(\"-Infinity\")"),
    ("'a\"b\\n\\u00e9\\u200b'", "\"a\\\"b\\n\u{e9}\\u200b\""),
    ("b'ab\\x00'", "b\"\\141\\142\\000\""),
    ("[[1], [2, 3]]", "[[1], [2, 3]]"),
    ("{'b': 1, 'a': 2}", "{\"a\": 2, \"b\": 1}"),
    ("{2: 'x', 10: 'y'}", "{10: \"y\", 2: \"x\"}"),
    ("{true: 1, false: 0}", "{false: 0, true: 1}"),
    ("int", "int"),
    ("type([1])", "list"),
    ("type(type(1))", "type"),
    ("type(ip('1.2.3.4'))", "net.IP"),
    ("duration('1h')", "duration(\"3600s\")"),
    ("duration('1.5s')", "duration(\"1.5s\")"),
    ("duration('-1ns')", "duration(\"-0.000000001s\")"),
    (
        "timestamp('2020-01-01T10:00:00.120+02:00')",
        "timestamp(\"2020-01-01T08:00:00.12Z\")",
    ),
    ("optional.of(1)", "optional.of(1)"),
    ("optional.none()", "optional.none()"),
    (
        "optional.of(optional.of('x'))",
        "optional.of(optional.of(\"x\"))",
    ),
    ("quantity('1Gi')", "1Gi"),
    ("quantity('1024Mi')", "1Gi"),
    ("quantity('1536Mi')", "1536Mi"),
    ("quantity('1000m')", "1"),
    ("quantity('1.5')", "1500m"),
    ("quantity('1.500')", "1.500"),
    ("quantity('+1')", "+1"),
    ("quantity('0')", "0"),
    ("quantity('0.0')", "0"),
    ("quantity('1e3')", "1e3"),
    ("quantity('1000e0')", "1e3"),
    ("quantity('12e2')", "1200"),
    ("quantity('0.5Ki')", "512"),
    ("quantity('100Mi').add(quantity('1Gi'))", "1124Mi"),
    ("quantity('0').add(5000)", "5e3"),
    ("quantity('1k').sub(1)", "999"),
    ("quantity('-2Ki')", "-2Ki"),
    ("quantity('0.0000000001')", "1n"),
    ("quantity('1000E')", "1"),
    ("ip('10.0.0.1')", "10.0.0.1"),
    ("ip('fe80::0:1')", "fe80::1"),
    ("ip('2001:db8::1')", "2001:db8::1"),
    ("cidr('10.0.0.0/8')", "10.0.0.0/8"),
    ("cidr('10.1.2.3/8').masked()", "10.0.0.0/8"),
    ("url('https://x/a%20b?q=1#f')", "https://x/a%20b?q=1#f"),
    ("semver('1.2.3-rc.1+b5')", "1.2.3-rc.1+b5"),
    ("format.dns1123Label()", "format.dns1123Label()"),
    ("format.named('uuid')", "optional.of(format.uuid())"),
    ("[ip('::1'), ip('1.2.3.4')]", "[::1, 1.2.3.4]"),
    (
        "{'q': optional.of(quantity('2'))}",
        "{\"q\": optional.of(2)}",
    ),
];

fn printed(expr: &str) -> String {
    let rule =
        CompiledExpression::compile(&k8s::env(), expr, &NoSizeEstimates, &k8s::program_options());
    let rule = match rule {
        Ok(rule) => rule,
        Err(e) => return format!("compile error {e}"),
    };
    match rule.eval(&Vars::new(), &EvalConfig::default()) {
        Ok((value, _)) => value.to_string(),
        Err(e) => format!("error {}", e.message),
    }
}

#[test]
fn item_17_values_print_as_cel_go_formats_them() {
    let mut wrong = Vec::new();
    for (expr, want) in TABLE {
        let got = printed(expr);
        if got != *want {
            wrong.push(format!("{expr}: got {got}, want {want}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
