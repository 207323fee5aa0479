//! apiserver `pkg/cel/library/cost_test.go`: static estimates (and runtime costs) of the
//! Kubernetes libraries with upstream's test size estimator (`{0, 12}` for every string or
//! bytes node). Upstream builds these programs without `OptOptimize`, so the runtime column
//! is checked with folding off.
//!
//! The combinatorial tables (lists, indexOf, includes, URLs, IP, CIDR) are transcribed; the
//! `expr:` tables are read from `$KDV_UPSTREAM_APISERVER/pkg/cel/library/cost_test.go` when
//! that variable is set (a transcribed sample runs always). Expressions that use libraries
//! this crate does not have (authorizer, jsonpatch) are counted as skipped.

use std::sync::Arc;

use super::golit::{Tok, Val, eval, tokenize};
use crate::checker::compile;
use crate::cost::{CostEstimate, CostOptions, SizeEstimate, SizeEstimator, estimate_cost};
use crate::interp::{EvalConfig, Program, ProgramOptions};
use crate::types::Type;

/// Upstream `testCostEstimator`: strings and bytes have sizes `{0, 12}`, nothing else.
struct TwelveOrNothing;

impl SizeEstimator for TwelveOrNothing {
    fn estimate_size(&self, _: &[&str], ty: &Type) -> Option<SizeEstimate> {
        matches!(ty, Type::String | Type::Bytes).then_some(SizeEstimate { min: 0, max: 12 })
    }
}

/// One expectation: expression, static estimate, runtime cost.
struct Case {
    expr: String,
    estimated: CostEstimate,
    runtime: u64,
}

fn case(expr: impl Into<String>, min: u64, max: u64, runtime: u64) -> Case {
    Case {
        expr: expr.into(),
        estimated: CostEstimate { min, max },
        runtime,
    }
}

#[derive(Default)]
struct Tally {
    estimates: usize,
    runtimes: usize,
    skipped: Vec<String>,
    failures: Vec<String>,
}

impl Tally {
    fn check(&mut self, c: &Case) {
        // Upstream's test environment has the libraries but not Kubernetes' homogeneous
        // aggregate literals (`sets.contains([1], [1.0, 1])` compiles there).
        let mut env = crate::k8s::env();
        env.options.homogeneous_aggregate_literals = false;
        let checked = match compile(&c.expr, &env) {
            Ok(checked) => checked,
            Err(e) => {
                let first = e.to_string().lines().next().unwrap_or_default().to_string();
                self.skipped.push(format!("{}: {first}", c.expr));
                return;
            }
        };
        self.estimates += 1;
        match estimate_cost(&checked, &TwelveOrNothing, &CostOptions::kubernetes()) {
            Ok(got) if got == c.estimated => {}
            got => self.failures.push(format!(
                "{}: estimated {:?}, want {:?}",
                c.expr, got, c.estimated
            )),
        }
        let mut options = ProgramOptions::kubernetes();
        options.registry = Arc::new(crate::k8s::registry());
        options.optimize = false;
        let program = Program::from_checked(&checked, &options);
        self.runtimes += 1;
        match program.eval(&(), &EvalConfig::default()) {
            Ok((_, cost)) if cost == c.runtime => {}
            Ok((_, cost)) => self.failures.push(format!(
                "{}: runtime cost {cost}, want {}",
                c.expr, c.runtime
            )),
            Err(e) => self
                .failures
                .push(format!("{}: runtime error {}", c.expr, e.message)),
        }
    }

    fn report(&self, what: &str) {
        println!(
            "{what}: {} estimates, {} runtime costs checked; {} failures; {} skipped",
            self.estimates,
            self.runtimes,
            self.failures.len(),
            self.skipped.len()
        );
        for s in &self.skipped {
            println!("  skipped {s}");
        }
        assert!(self.failures.is_empty(), "{}", self.failures.join("\n"));
    }
}

const INT_LIST: &str = "[1, 2, 3, 4, 5]";
const UINT_LIST: &str = "[uint(1), uint(2), uint(3), uint(4), uint(5)]";
const DOUBLE_LIST: &str = "[1.0, 2.0, 3.0, 4.0, 5.0]";
const BOOL_LIST: &str = "[false, true, false, true, false]";
const STRING_LIST: &str =
    "['012345678901', '012345678901', '012345678901', '012345678901', '012345678901']";
const BYTES_LIST: &str = "[bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901')]";
const DURATION_LIST: &str =
    "[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')]";
const TIMESTAMP_LIST: &str = "[timestamp('2011-01-01T00:00:00.000+01:00'), timestamp('2011-01-02T00:00:00.000+01:00'), timestamp('2011-01-03T00:00:00.000+01:00'), timestamp('2011-01-04T00:00:00.000+01:00'), timestamp('2011-01-05T00:00:00.000+01:00')]";
const STRING_50: &str = "'01234567890123456789012345678901234567890123456789'";

/// TestListsCost, TestIndexOfCost, TestIncludesCost, TestURLsCost, TestIPCost,
/// TestIPIsCanonicalCost, TestCIDRCost.
fn combinatorial_cases() -> Vec<Case> {
    let mut out = Vec::new();
    for (list, c) in [
        (INT_LIST, 15),
        (UINT_LIST, 20),
        (DOUBLE_LIST, 15),
        (DURATION_LIST, 20),
    ] {
        out.push(case(format!("{list}.sum()"), c, c, c));
    }
    for op in [".isSorted()", ".max()", ".min()"] {
        for (list, min, max, rt) in [
            (INT_LIST, 15, 15, 15),
            (UINT_LIST, 20, 20, 20),
            (DOUBLE_LIST, 15, 15, 15),
            (BOOL_LIST, 15, 15, 15),
            (STRING_LIST, 15, 25, 15),
            (BYTES_LIST, 25, 35, 25),
            (DURATION_LIST, 20, 20, 20),
            (TIMESTAMP_LIST, 20, 20, 20),
        ] {
            out.push(case(format!("{list}{op}"), min, max, rt));
        }
    }
    let searches = [
        (INT_LIST, "3", 15, 15, 15),
        (UINT_LIST, "uint(3)", 21, 21, 21),
        (DOUBLE_LIST, "3.0", 15, 15, 15),
        (BOOL_LIST, "true", 15, 15, 15),
        (STRING_LIST, "'x'", 15, 25, 15),
        (BYTES_LIST, "bytes('x')", 26, 36, 26),
        (DURATION_LIST, "duration('3s')", 21, 21, 21),
        (
            TIMESTAMP_LIST,
            "timestamp('2011-01-03T00:00:00.000+01:00')",
            21,
            21,
            21,
        ),
    ];
    for op in ["indexOf", "lastIndexOf"] {
        for (list, param, min, max, rt) in searches {
            out.push(case(format!("{list}.{op}({param})"), min, max, rt));
        }
        out.push(case(format!("{STRING_50}.{op}('123')"), 5, 5, 5));
    }
    for (list, param, min, max, rt) in searches {
        out.push(case(format!("{list}.includes({param})"), min, max, rt));
    }
    out.push(case(format!("{STRING_50}.includes('123')"), 50, 50, 5));

    let url = "url('https:://kubernetes.io/')";
    for op in [
        ".getScheme()",
        ".getHostname()",
        ".getHost()",
        ".getPort()",
        ".getEscapedPath()",
        ".getQuery()",
    ] {
        out.push(case(format!("{url}{op}"), 4, 4, 4));
    }
    out.push(case(
        format!("{url} == url('https:://kubernetes.io/')"),
        7,
        9,
        7,
    ));
    out.push(case(format!("{url} == url('http://x.b')"), 5, 5, 5));

    for (ip, base) in [
        ("ip('192.168.0.1')", 2),
        ("ip('2001:db8:3333:4444:5555:6666:7777:8888')", 4),
    ] {
        out.push(case(ip, base, base, base));
        for op in [
            ".family()",
            ".isUnspecified()",
            ".isLoopback()",
            ".isLinkLocalMulticast()",
            ".isLinkLocalUnicast()",
            ".isGlobalUnicast()",
        ] {
            out.push(case(format!("{ip}{op}"), base + 1, base + 1, base + 1));
        }
        let c = base + 2 + 1;
        out.push(case(format!("{ip} == ip('192.168.0.1')"), c, c, c));
    }
    for (src, c) in [
        ("ip.isCanonical('192.168.0.1')", 3),
        (
            "ip.isCanonical('2001:db8:3333:4444:5555:6666:7777:8888')",
            8,
        ),
        ("ip.isCanonical('2001:db8::abcd')", 3),
    ] {
        out.push(case(src, c, c, c));
    }

    let v4 = "cidr('192.168.0.0/16')";
    let v6 = "cidr('2001:db8::/32')";
    for cidr in [v4, v6] {
        out.push(case(cidr, 2, 2, 2));
        for op in [".ip()", ".prefixLength()", ".masked()"] {
            out.push(case(format!("{cidr}{op}"), 3, 3, 3));
        }
        out.push(case(format!("{cidr} == cidr('2001:db8::/32')"), 5, 5, 5));
    }
    // (operation, extra min, extra max, extra runtime) on top of the base 2.
    let v4_ops: [(&str, u64, u64, u64); 9] = [
        (".containsCIDR(cidr('192.0.0.0/30'))", 5, 9, 5),
        (".containsCIDR(cidr('192.168.0.0/16'))", 5, 9, 5),
        (".containsCIDR('192.0.0.0/30')", 5, 9, 5),
        (".containsCIDR('192.168.0.0/16')", 5, 9, 5),
        (".containsIP(ip('192.0.0.1'))", 2, 5, 2),
        (".containsIP(ip('192.169.0.1'))", 3, 6, 3),
        (".containsIP(ip('192.169.169.250'))", 3, 6, 3),
        (".containsIP('192.0.0.1')", 2, 5, 2),
        (".containsIP('192.169.0.1')", 3, 6, 3),
    ];
    let v6_ops: [(&str, u64, u64, u64); 8] = [
        (".containsCIDR(cidr('2001:db8::/126'))", 5, 9, 5),
        (".containsCIDR(cidr('2001:db8::/32'))", 5, 9, 5),
        (".containsCIDR('2001:db8::/126')", 5, 9, 5),
        (".containsCIDR('2001:db8::/32')", 5, 9, 5),
        (
            ".containsIP(ip('2001:db8:3333:4444:5555:6666:7777:8888'))",
            5,
            8,
            5,
        ),
        (".containsIP(ip('2001:db8::1'))", 3, 6, 3),
        (
            ".containsIP('2001:db8:3333:4444:5555:6666:7777:8888')",
            5,
            8,
            5,
        ),
        (".containsIP('2001:db8::1')", 3, 6, 3),
    ];
    for (cidr, ops) in [(v4, &v4_ops[..]), (v6, &v6_ops[..])] {
        for (op, min, max, rt) in ops {
            out.push(case(format!("{cidr}{op}"), 2 + min, 2 + max, 2 + rt));
        }
    }
    out
}

#[test]
fn combinatorial_tables() {
    let mut tally = Tally::default();
    for c in combinatorial_cases() {
        tally.check(&c);
    }
    tally.report("apiserver cost_test.go (lists, indexOf, includes, URLs, IP, CIDR)");
}

/// A sample of the `expr:` tables, checked without the upstream checkout.
fn sample_cases() -> Vec<Case> {
    vec![
        case(
            "'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()",
            7,
            9,
            9,
        ),
        case(
            "strings.quote('ABCDEFGHIJ abcdefghij') == strings.quote('ABCDEFGHIJ abcdefghij')",
            7,
            11,
            9,
        ),
        case("'abc 123 def 123'.replace('', 'x')", 3, 3, 3),
        case("'abc 123 def 123'.split(' ', 1)", 3, 3, 3),
        case(
            "['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')",
            11,
            23,
            15,
        ),
        case(
            "['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join()",
            10,
            22,
            13,
        ),
        case("'abc 123 def 123'.findAll('123', 1)", 2, 2, 2),
        case(
            "quantity(\"2M\") == quantity(\"0.002G\") && quantity(\"2000k\") == quantity(\"2M\") && quantity(\"0.002G\") == quantity(\"2000k\")",
            3,
            9,
            9,
        ),
        case(
            "quantity(\"50k\").add(20).sub(quantity(\"100k\")).sub(-50000).asInteger() > 0",
            7,
            7,
            7,
        ),
        case(
            "format.named(\"dns1123Subdomain\").value().validate(\"my-name\")",
            34,
            34,
            17,
        ),
        case(
            "format.named(\"dns1123Label\").value() == format.named(\"dns1123Label\").value()",
            5,
            11,
            5,
        ),
        case("sets.contains([[1], [2, 3]], [[2, 3.0]])", 53, 53, 53),
        case("!sets.equivalent([1, 2], [2u, 2, 2.0])", 34, 34, 34),
        case(
            "sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])",
            65,
            65,
            65,
        ),
        case("semver(\"1234.56789012345.67890123456789\")", 4, 4, 4),
        case("semver(\"1.0.0\").compareTo(semver(\"1.2.3\"))", 3, 3, 3),
        case("{'a': 1, 'b': 2}.exists(k, v, v > 0)", 39, 43, 40),
        case(
            "{'a': 1, 'b': 2}.transformMapEntry(k, v, v < 5, {k: v + 1})",
            67,
            135,
            135,
        ),
        case("[1, 2].existsOne(i, v, v > 0)", 18, 20, 20),
        case("[1, 2].transformList(i, v, v < 5, v + 1)", 27, 53, 53),
    ]
}

#[test]
fn sampled_expression_tables() {
    let mut tally = Tally::default();
    for c in sample_cases() {
        tally.check(&c);
    }
    tally.report("apiserver cost_test.go (sample of the expr: tables)");
}

/// Every record of the form `expr: "...", expect(Estimated|Esimated)Cost: {Min, Max},
/// expectRuntimeCost: n` in the upstream file.
fn upstream_cases(src: &str) -> Vec<Case> {
    let toks = tokenize(src);
    let ident = |i: usize, s: &str| matches!(toks.get(i), Some(Tok::Ident(x)) if x == s);
    let colon = |i: usize| toks.get(i) == Some(&Tok::Punct(':'));
    let mut out = Vec::new();
    let mut current: Option<(String, Option<CostEstimate>)> = None;
    let mut i = 0;
    while i < toks.len() {
        if ident(i, "expr") && colon(i + 1) {
            let mut j = i + 2;
            current = match eval(&toks, &mut j) {
                Val::Str(s) => Some((s, None)),
                _ => None,
            };
            i = j;
        } else if (ident(i, "expectEstimatedCost") || ident(i, "expectEsimatedCost"))
            && colon(i + 1)
            && let Some((_, est)) = current.as_mut()
        {
            // checker.CostEstimate{Min: a, Max: b}
            let mut min = None;
            let mut max = None;
            let mut j = i + 2;
            while j < toks.len() && toks[j] != Tok::Punct('}') {
                if (ident(j, "Min") || ident(j, "Max")) && colon(j + 1) {
                    let mut k = j + 2;
                    let v = eval(&toks, &mut k).as_u64();
                    if ident(j, "Min") {
                        min = v;
                    } else {
                        max = v;
                    }
                    j = k;
                } else {
                    j += 1;
                }
            }
            if let (Some(min), Some(max)) = (min, max) {
                *est = Some(CostEstimate { min, max });
            }
            i = j;
        } else if ident(i, "expectRuntimeCost") && colon(i + 1) {
            let mut j = i + 2;
            let runtime = eval(&toks, &mut j).as_u64();
            if let (Some((expr, Some(estimated))), Some(runtime)) = (current.take(), runtime) {
                out.push(Case {
                    expr,
                    estimated,
                    runtime,
                });
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

#[test]
fn upstream_expression_tables() {
    let Ok(dir) = std::env::var("KDV_UPSTREAM_APISERVER") else {
        println!("skipped: KDV_UPSTREAM_APISERVER is not set");
        return;
    };
    let path = format!("{dir}/pkg/cel/library/cost_test.go");
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases = upstream_cases(&src);
    assert!(cases.len() > 80, "read only {} records", cases.len());
    let mut tally = Tally::default();
    for c in &cases {
        tally.check(c);
    }
    tally.report(&format!("{path} ({} records)", cases.len()));
}
