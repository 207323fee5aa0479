//! apiextensions-apiserver `TestCostEstimation` (spec §6.3.6): rules on schema nodes without
//! limits ("calc") and with limits set ("set"). An expected 0 is unchecked upstream.

use super::schema::*;

/// What upstream checks of a max cost.
#[derive(Clone, Copy, Debug)]
enum Expect {
    Exactly(u64),
    /// At least this much (upstream `expect...ExceedsLimit`).
    AtLeast(u64),
    Unchecked,
}
use Expect::*;

const COST_LIMIT: u64 = 100_000_000;

fn typed(t: &str) -> Schema {
    match t {
        "number" => Schema::Number,
        "integer" => Schema::Int,
        "boolean" => Schema::Bool,
        "string" => string(),
        "int-or-string" => Schema::IntOrString { max_length: None },
        "duration" | "date" | "date-time" => formatted(match t {
            "duration" => "duration",
            "date" => "date",
            _ => "date-time",
        }),
        _ => unreachable!("test type {t}"),
    }
}

fn required_object() -> Schema {
    Schema::Object {
        props: vec![
            Prop {
                name: "required",
                schema: string(),
                required: true,
                has_default: false,
            },
            Prop {
                name: "optional",
                schema: string(),
                required: false,
                has_default: false,
            },
        ],
        embedded: false,
    }
}

type Gen = Box<dyn Fn(Option<i64>) -> Schema>;

fn array_of(t: &'static str) -> Gen {
    Box::new(move |m| list_max(typed(t), m))
}

fn array_of_arrays(t: &'static str) -> Gen {
    Box::new(move |m| list_max(list(typed(t)), m))
}

fn object_array() -> Gen {
    Box::new(|m| list_max(required_object(), m))
}

fn map_array(t: &'static str) -> Gen {
    Box::new(move |m| list_max(map(typed(t)), m))
}

fn map_of(t: &'static str) -> Gen {
    Box::new(move |m| map_max(typed(t), m))
}

fn map_of_schema(item: fn() -> Schema) -> Gen {
    Box::new(move |m| map_max(item(), m))
}

fn string_gen() -> Gen {
    Box::new(string_max)
}

fn bytes_gen() -> Gen {
    Box::new(|m| Schema::Str {
        format: "byte",
        max_length: m,
        enum_values: Vec::new(),
    })
}

fn enum_gen(values: &'static [&'static str]) -> Gen {
    Box::new(move |m| Schema::Str {
        format: "",
        max_length: m,
        enum_values: values.to_vec(),
    })
}

fn nested_spec() -> Gen {
    Box::new(|m| map_max(string_max(m), m))
}

fn all_max_nested() -> Gen {
    Box::new(|m| list_max(map_max(required_object(), m), m))
}

fn one_max_nested() -> Gen {
    Box::new(|m| list(map_max(required_object(), m)))
}

fn strings_array() -> Gen {
    Box::new(|m| list_max(string_max(m), m))
}

fn replace_object() -> Gen {
    Box::new(|m| {
        object(&[
            ("str", string_max(m)),
            ("before", string_max(Some(2))),
            ("after", string_max(Some(4))),
        ])
    })
}

fn split_object() -> Gen {
    Box::new(|m| object(&[("str", string_max(m)), ("separator", string_max(m))]))
}

fn int_or_string() -> Gen {
    Box::new(|m| Schema::IntOrString { max_length: m })
}

fn cases() -> Vec<(&'static str, Gen, &'static str, Expect, i64, Expect)> {
    vec![
        (
            "number array with all",
            array_of("number"),
            "self.all(x, true)",
            Exactly(4718591),
            10,
            Exactly(32),
        ),
        (
            "string array with all",
            array_of("string"),
            "self.all(x, true)",
            Exactly(3145727),
            20,
            Exactly(62),
        ),
        (
            "boolean array with all",
            array_of("boolean"),
            "self.all(x, true)",
            Exactly(1887437),
            5,
            Exactly(17),
        ),
        (
            "array of number arrays with all",
            array_of_arrays("number"),
            "self.all(x, true)",
            Exactly(3145727),
            100,
            Exactly(302),
        ),
        (
            "array of objects with all",
            object_array(),
            "self.all(x, true)",
            Exactly(555128),
            50,
            Exactly(152),
        ),
        (
            "map of numbers with all",
            map_of("number"),
            "self.all(x, true)",
            Exactly(1348169),
            10,
            Exactly(32),
        ),
        (
            "map of numbers with has",
            map_of("number"),
            "has(self.x)",
            Unchecked,
            100,
            Unchecked,
        ),
        (
            "map of strings with all",
            map_of("string"),
            "self.all(x, true)",
            Exactly(1179647),
            3,
            Exactly(11),
        ),
        (
            "map of strings with has",
            map_of("string"),
            "has(self.x)",
            Unchecked,
            550,
            Unchecked,
        ),
        (
            "map of booleans with all",
            map_of("boolean"),
            "self.all(x, true)",
            Exactly(943718),
            100,
            Exactly(302),
        ),
        (
            "map of booleans with has",
            map_of("boolean"),
            "has(self.x)",
            Unchecked,
            1024,
            Unchecked,
        ),
        (
            "string with contains",
            string_gen(),
            "self.contains('test')",
            Exactly(314574),
            10,
            Exactly(5),
        ),
        (
            "string with startsWith",
            string_gen(),
            "self.startsWith('test')",
            Exactly(2),
            15,
            Exactly(2),
        ),
        (
            "string with endsWith",
            string_gen(),
            "self.endsWith('test')",
            Exactly(2),
            30,
            Exactly(2),
        ),
        (
            "concat string",
            string_gen(),
            r#"size(self + "hello") > size("hello")"#,
            Exactly(314578),
            4,
            Exactly(7),
        ),
        (
            "index of array with numbers",
            array_of("number"),
            "self[1] == 0.0",
            Exactly(2),
            5000,
            Exactly(2),
        ),
        (
            "index of array with strings",
            array_of("string"),
            "self[1] == self[1]",
            Exactly(314577),
            8,
            Exactly(314577),
        ),
        (
            "O(n^2) loop with numbers",
            array_of("number"),
            "self.all(x, self.all(y, true))",
            AtLeast(COST_LIMIT),
            10,
            Exactly(352),
        ),
        (
            "O(n^3) loop with numbers",
            array_of("number"),
            "self.all(x, self.all(y, self.all(z, true)))",
            AtLeast(COST_LIMIT),
            10,
            Exactly(3552),
        ),
        (
            "regex matches simple",
            string_gen(),
            r#"self.matches("x")"#,
            Exactly(314574),
            50,
            Exactly(22),
        ),
        (
            "regex matches empty string",
            string_gen(),
            r#""".matches("(((((((((())))))))))[0-9]")"#,
            Exactly(7),
            10,
            Exactly(7),
        ),
        (
            "regex matches empty regex",
            string_gen(),
            r#"self.matches("")"#,
            Exactly(1),
            100,
            Exactly(1),
        ),
        (
            "map of strings with value length",
            nested_spec(),
            "self.all(x, x.contains(self[x]))",
            Exactly(2752507),
            10,
            Exactly(72),
        ),
        (
            "set array maxLength to zero",
            array_of("number"),
            "self[3] == 0.0",
            Exactly(2),
            0,
            Exactly(2),
        ),
        (
            "set map maxLength to zero",
            map_of("number"),
            r#"self["x"] == 0.0"#,
            Exactly(2),
            0,
            Exactly(2),
        ),
        (
            "set string maxLength to zero",
            string_gen(),
            r#"self == "x""#,
            Exactly(2),
            0,
            Exactly(1),
        ),
        (
            "set bytes maxLength to zero",
            bytes_gen(),
            r#"self == b"x""#,
            Exactly(2),
            0,
            Exactly(1),
        ),
        (
            "set maxLength greater than estimated maxLength",
            array_of("number"),
            "self.all(x, x == 0.0)",
            Exactly(6291454),
            3 * 1024 * 2048,
            Exactly(25165826),
        ),
        (
            "nested types with root rule with all supporting maxLength",
            all_max_nested(),
            r#"self.all(x, x["y"].required == "z")"#,
            Exactly(7340027),
            10,
            Exactly(72),
        ),
        (
            "nested types with root rule with one supporting maxLength",
            one_max_nested(),
            r#"self.all(x, x["y"].required == "z")"#,
            Exactly(7340027),
            10,
            Exactly(7340027),
        ),
        (
            "int-or-string array with all",
            array_of("int-or-string"),
            "self.all(x, true)",
            Exactly(4718591),
            10,
            Exactly(32),
        ),
        (
            "index of array with int-or-strings",
            array_of("int-or-string"),
            "self[0] == 5",
            Exactly(3),
            10,
            Exactly(3),
        ),
        (
            "index of array with booleans",
            array_of("boolean"),
            "self[0] == false",
            Exactly(2),
            25,
            Exactly(2),
        ),
        (
            "index of array of objects",
            object_array(),
            "self[0] == null",
            Exactly(2),
            422,
            Exactly(2),
        ),
        (
            "index of array of array of numnbers",
            array_of_arrays("number"),
            "self[0][0] == -1.0",
            Exactly(3),
            51,
            Exactly(3),
        ),
        (
            "array of number maps with all",
            map_array("number"),
            "self.all(x, x.y == 25.2)",
            Exactly(6291452),
            12,
            Exactly(74),
        ),
        (
            "index of array of number maps",
            map_array("number"),
            "self[0].x > 2.0",
            Exactly(4),
            3000,
            Exactly(4),
        ),
        (
            "duration array with all",
            array_of("duration"),
            "self.all(x, true)",
            Exactly(2359295),
            5,
            Exactly(17),
        ),
        (
            "index of duration array",
            array_of("duration"),
            "self[0].getHours() == 2",
            Exactly(4),
            525,
            Exactly(4),
        ),
        (
            "date array with all",
            array_of("date"),
            "self.all(x, true)",
            Exactly(725936),
            15,
            Exactly(47),
        ),
        (
            "index of date array",
            array_of("date"),
            "self[2].getDayOfMonth() == 13",
            Exactly(4),
            42,
            Exactly(4),
        ),
        (
            "date-time array with all",
            array_of("date-time"),
            "self.all(x, true)",
            Exactly(428963),
            25,
            Exactly(77),
        ),
        (
            "index of date-time array",
            array_of("date-time"),
            "self[2].getMinutes() == 45",
            Exactly(4),
            99,
            Exactly(4),
        ),
        (
            "map of int-or-strings with all",
            map_of("int-or-string"),
            "self.all(x, true)",
            Exactly(1348169),
            15,
            Exactly(47),
        ),
        (
            "map of int-or-strings with has",
            map_of("int-or-string"),
            "has(self.x)",
            Unchecked,
            5000,
            Unchecked,
        ),
        (
            "map of objects with all",
            map_of_schema(required_object),
            "self.all(x, true)",
            Exactly(428963),
            20,
            Exactly(62),
        ),
        (
            "map of objects with has",
            map_of_schema(required_object),
            "has(self.x)",
            Unchecked,
            9001,
            Unchecked,
        ),
        (
            "map of number maps with all",
            map_of_schema(|| map(Schema::Number)),
            "self.all(x, true)",
            Exactly(1179647),
            10,
            Exactly(32),
        ),
        (
            "map of number maps with has",
            map_of_schema(|| map(Schema::Number)),
            "has(self.x)",
            Unchecked,
            101,
            Unchecked,
        ),
        (
            "map of number arrays with all",
            map_of_schema(|| list(Schema::Number)),
            "self.all(x, true)",
            Exactly(1179647),
            25,
            Exactly(77),
        ),
        (
            "map of number arrays with has",
            map_of_schema(|| list(Schema::Number)),
            "has(self.x)",
            Unchecked,
            40000,
            Unchecked,
        ),
        (
            "map of durations with all",
            map_of("duration"),
            "self.all(x, true)",
            Exactly(1048577),
            5,
            Exactly(17),
        ),
        (
            "map of durations with has",
            map_of("duration"),
            "has(self.x)",
            Unchecked,
            256,
            Unchecked,
        ),
        (
            "map of dates with all",
            map_of("date"),
            "self.all(x, true)",
            Exactly(524288),
            10,
            Exactly(32),
        ),
        (
            "map of dates with has",
            map_of("date"),
            "has(self.x)",
            Unchecked,
            65536,
            Unchecked,
        ),
        (
            "map of date-times with all",
            map_of("date-time"),
            "self.all(x, true)",
            Exactly(349526),
            25,
            Exactly(77),
        ),
        (
            "map of date-times with has",
            map_of("date-time"),
            "has(self.x)",
            Unchecked,
            490,
            Unchecked,
        ),
        (
            "extended library regex find",
            string_gen(),
            "self.find('[0-9]+') == ''",
            Exactly(629147),
            10,
            Exactly(11),
        ),
        (
            "extended library join",
            strings_array(),
            "self.join(' ') == 'aa bb'",
            Exactly(329853068905),
            10,
            Exactly(43),
        ),
        (
            "extended library isSorted",
            strings_array(),
            "self.isSorted() == true",
            Exactly(329854432052),
            10,
            Exactly(52),
        ),
        (
            "extended library replace",
            replace_object(),
            "self.str.replace(self.before, self.after) == 'does not matter'",
            Exactly(629154),
            4,
            Exactly(12),
        ),
        (
            "extended library split",
            split_object(),
            "self.str.split(self.separator) == []",
            Exactly(629160),
            10,
            Exactly(22),
        ),
        (
            "extended library lowerAscii",
            string_gen(),
            "self.lowerAscii() == 'lower!'",
            Exactly(314575),
            10,
            Exactly(6),
        ),
        (
            "check cost of size call",
            map_of("integer"),
            "oldSelf.size() == self.size()",
            Exactly(5),
            10,
            Exactly(5),
        ),
        (
            "check cost of timestamp comparison",
            map_of("date-time"),
            r#"self["a"] == self["b"]"#,
            Exactly(8),
            7,
            Exactly(8),
        ),
        (
            "check cost of duration comparison",
            map_of("duration"),
            r#"self["c"] == self["d"]"#,
            Exactly(8),
            42,
            Exactly(8),
        ),
        (
            "enums with maxLength equals to the longest possible value",
            enum_gen(&["A", "B", "C", "LongValue"]),
            "self.contains('A')",
            Exactly(2),
            1000,
            Exactly(401),
        ),
        (
            "IntOrString type with quantity rule",
            int_or_string(),
            "isQuantity(self)",
            Exactly(314574),
            20,
            Exactly(9),
        ),
    ]
}

fn check(expect: Expect, got: u64) -> Option<bool> {
    match expect {
        Exactly(n) => Some(got == n),
        AtLeast(n) => Some(got >= n),
        Unchecked => None,
    }
}

#[test]
fn upstream_cost_estimation() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (name, gen_schema, rule, calc, set_max, set) in cases() {
        for (variant, max, expect) in [("calc", None, calc), ("set", Some(set_max), set)] {
            let env = RuleEnv::new(&gen_schema(max));
            let got = env.cost(rule).unwrap_or_else(|e| panic!("{name}: {e}"));
            if let Some(ok) = check(expect, got.max) {
                checked += 1;
                if !ok {
                    failures.push(format!(
                        "{name} ({variant}): {rule}: expected {expect:?}, got {}",
                        got.max
                    ));
                }
            }
        }
    }
    println!(
        "TestCostEstimation: {checked} expectations, {} failures",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Spec §6.3.6 "derived" rows: at a resource root `metadata.name` is capped at 253
/// characters (`generateName` at 252) since Kubernetes 1.37.
#[test]
fn resource_root_metadata() {
    let root = Schema::Object {
        props: Vec::new(),
        embedded: true,
    };
    let env = RuleEnv::new(&root);
    assert_eq!(
        env.cost("self.metadata.name.contains('x')").unwrap().max,
        105
    );
    assert_eq!(
        env.cost("self.metadata.generateName.contains('x')")
            .unwrap()
            .max,
        104
    );
}

/// Upstream builds paths with Go `append`, which shares backing arrays: inside
/// `self.l.all(x, ...)` the paths of `x.a` and `x.b` share their last slot, and the size of
/// the inner range `x.a` is looked up after `x.b` overwrote it, so the loop is sized by
/// `b`'s maxLength (10 · 4 = 40) instead of `a`'s maxItems (5). Derived from the code:
/// 3 + 1,048,575 · (2 + 1 + (3 + 40 · 6)) = 257,949,453 (it would be 37,748,703 with
/// independent paths).
#[test]
fn shared_path_slots_like_go() {
    let item = object(&[
        ("a", list_max(Schema::Int, Some(5))),
        ("b", string_max(Some(10))),
    ]);
    let env = RuleEnv::new(&object(&[("l", list(item))]));
    let got = env.cost("self.l.all(x, x.a.all(y, x.b == 'z'))").unwrap();
    assert_eq!(got.max, 257_949_453);
    // Read before the overwrite, the same range is sized by `a`.
    let got = env.cost("self.l.all(x, x.a.all(y, true))").unwrap();
    assert_eq!(got.max, 3 + 1_048_575 * (2 + 1 + (3 + 5 * 3)));
}
