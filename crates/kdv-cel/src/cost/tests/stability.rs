//! apiextensions-apiserver `TestCelEstimatedCostStability`: the estimated max cost of rules
//! at the root of fixed schemas without limits. A representative part of the table is
//! transcribed below; with `KDV_UPSTREAM_APIEXTENSIONS` pointing at an
//! apiextensions-apiserver checkout, every row of the upstream file is checked.

use super::golit::{Tok, eval, function_body, matching, tokenize};
use super::schema::*;

fn prop(name: &'static str, schema: Schema) -> (&'static str, Schema) {
    (name, schema)
}

fn bytes() -> Schema {
    formatted("byte")
}

fn int_or_string() -> Schema {
    Schema::IntOrString { max_length: None }
}

fn embedded(props: &[(&'static str, Schema)]) -> Schema {
    match object(props) {
        Schema::Object { props, .. } => Schema::Object {
            props,
            embedded: true,
        },
        other => other,
    }
}

fn key_value(k: &'static str, v: &'static str) -> Schema {
    object(&[prop(k, string()), prop(v, string())])
}

/// The schema of each upstream case, by case name.
fn case_schema(name: &str) -> Option<Schema> {
    use Schema::{Bool, Int, Number};
    Some(match name {
        "integers" => vals(&[Int, Int, Int, Int, Int, Int]),
        "numbers" => vals(&[Number, Number, Number, Number, Number, Number, Number]),
        "numeric comparisons" => vals(&[Int, Number, Number, Number, Number, Number, Number]),
        "unicode strings" | "escaped strings" | "quantity" => vals(&[string(), string()]),
        "bytes" => vals(&[bytes(), bytes()]),
        "booleans" => vals(&[Bool, Bool, Bool, Bool]),
        "duration format" => vals(&[formatted("duration"), formatted("duration")]),
        "date format" => vals(&[formatted("date"), formatted("date")]),
        "date-time format" => vals(&[formatted("date-time"), formatted("date-time")]),
        "enums" => object(&[prop(
            "enumStr",
            Schema::Str {
                format: "",
                max_length: None,
                enum_values: vec!["Pending", "Available", "Bound", "Released", "Failed"],
            },
        )]),
        "conversions" => vals(&[
            Int,
            Number,
            Number,
            Number,
            Bool,
            string(),
            bytes(),
            string(),
            formatted("duration"),
            string(),
            formatted("date-time"),
            string(),
            formatted("date"),
        ]),
        "lists" => vals(&[list(Int), list(Int)]),
        "listSets" => vals(&[list(string()), list(string())]),
        "listMaps" => object(&[prop("objs", list(list(key_value("k", "v"))))]),
        "maps" => vals(&[map(string()), map(string())]),
        "objects" => object(&[prop("objs", list(key_value("f1", "f2")))]),
        "object access" => object(&[
            prop(
                "a",
                object(&[prop("b", Int), prop("c", Int), prop("d", Int)]),
            ),
            prop(
                "a1",
                object(&[
                    prop("b1", object(&[prop("c1", Int)])),
                    prop("d2", object(&[prop("e2", Int)])),
                ]),
            ),
        ]),
        "map access" => object(&[prop("val", map(Int))]),
        "listMap access" => object(&[prop(
            "listMap",
            list(object(&[
                prop("k", string()),
                prop("v", string()),
                prop("v2", string()),
            ])),
        )]),
        "list access" => object(&[prop("array", list(Int))]),
        "listSet access" => object(&[prop("set", list(Int))]),
        "typemeta and objectmeta access specified" => object(&[
            prop("kind", string()),
            prop("apiVersion", string()),
            prop("metadata", key_value("name", "generateName")),
        ]),
        "embedded object" | "embedded object with preserve unknown" => {
            object(&[prop("embedded", embedded(&[]))])
        }
        "embedded object with properties" => object(&[prop(
            "embedded",
            embedded(&[
                prop("kind", string()),
                prop("apiVersion", string()),
                prop("metadata", key_value("name", "generateName")),
                prop("spec", object(&[prop("field1", string())])),
            ]),
        )]),
        "string in intOrString" | "int in intOrString" | "null in intOrString" => {
            object(&[prop("something", int_or_string())])
        }
        "percent comparison using intOrString" => object(&[
            prop("min", int_or_string()),
            prop("current", Int),
            prop("available", Int),
        ]),
        "preserve unknown fields" => object(&[
            prop("withUnknown", object(&[])),
            prop("withUnknownList", list(object(&[]))),
            prop(
                "withUnknownFieldList",
                list(object(&[prop("fieldOfUnknownType", Schema::Unknown)])),
            ),
            prop("anyvalList", list(Schema::Unknown)),
            prop("anyvalMap", map(Schema::Unknown)),
            prop("anyvalField1", Schema::Unknown),
            prop("anyvalField2", Schema::Unknown),
        ]),
        "known and unknown fields" => object(&[
            prop("withUnknown", object(&[prop("known", Int)])),
            prop("withUnknownList", list(object(&[prop("known", Int)]))),
        ]),
        "field nullability" => {
            let mut o = object(&[
                prop("unsetPlainStr", string()),
                prop("unsetDefaultedStr", string()),
                prop("unsetNullableStr", string()),
                prop("setPlainStr", string()),
                prop("setDefaultedStr", string()),
                prop("setNullableStr", string()),
                prop("setToNullNullableStr", string()),
            ]);
            if let Schema::Object { props, .. } = &mut o {
                for p in props.iter_mut() {
                    p.has_default = p.name.ends_with("DefaultedStr");
                }
            }
            o
        }
        "null values in container types" => object(&[
            prop("m", map(string())),
            prop("l", list(string())),
            prop("s", list(string())),
        ]),
        "object types are not accessible" => object(&[
            prop("nestedInMap", map(object(&[prop("inMapField", Int)]))),
            prop("nestedInList", list(object(&[prop("inListField", Int)]))),
        ]),
        "listMaps with unsupported identity characters in property names" => {
            object(&[prop("objs", list(list(key_value("k!", "k."))))])
        }
        "container type composition" => {
            let ten = Some(10);
            object(&[
                prop("obj", object(&[prop("field", string())])),
                prop("mapOfMap", map_max(map_max(string(), ten), ten)),
                prop("mapOfObj", map(object(&[prop("field2", string())]))),
                prop(
                    "mapOfListMap",
                    map_max(list_max(key_value("k", "v"), ten), ten),
                ),
                prop("mapOfList", map_max(list_max(string(), ten), ten)),
                prop("listMapOfObj", list_max(key_value("k2", "v2"), ten)),
                prop("listOfMap", list_max(map_max(string(), ten), ten)),
                prop("listOfObj", list(object(&[prop("field3", string())]))),
                prop(
                    "listOfListMap",
                    list_max(list_max(key_value("k3", "v3"), ten), ten),
                ),
            ])
        }
        "optionals" => object(&[
            prop("obj", key_value("field", "absentField")),
            prop("m", map(string())),
            prop("l", list(string())),
        ]),
        _ => return None,
    })
}

/// A representative part of upstream's table: (case, rule, estimated max cost).
const ROWS: &[(&str, &str, u64)] = &[
    (
        "integers",
        "self.val1 == 9223372036854775807 && 9223372036854775807 == self.val1 && self.val1 == self.val2",
        8,
    ),
    ("integers", "self.val1 == self.val6", 4),
    ("integers", "type(self.val1) == int", 4),
    ("integers", "self.val3 + 1 == 2147483647 + 1", 5),
    ("numbers", "type(self.val7) == double", 4),
    ("numbers", "self.val7 == 1.0", 2),
    ("numeric comparisons", "double(self.val1) < self.val4", 6),
    ("numeric comparisons", "double(5) < 10.0", 2),
    ("numeric comparisons", "double(self.val1) < 10.0", 4),
    (
        "unicode strings",
        "self.val1 == 'Rook takes 👑' && 'Rook takes 👑' == self.val1 && self.val1 == self.val2",
        314585,
    ),
    ("unicode strings", "self.val1.startsWith('Rook')", 3),
    ("unicode strings", "!self.val1.startsWith('knight')", 4),
    ("unicode strings", "self.val1.matches('^[^0-9]*$')", 943721),
    ("unicode strings", "!self.val1.matches('^[0-9]*$')", 629149),
    ("unicode strings", "size(self.val1) == 12", 4),
    ("unicode strings", "self.val1.charAt(3) == 'k'", 4),
    ("unicode strings", "self.val1.indexOf('o') == 1", 314576),
    (
        "unicode strings",
        "self.val1.replace(' ', 'x') == 'Rookxtakesx👑'",
        629150,
    ),
    (
        "unicode strings",
        "self.val1.split(' ') == ['Rook', 'takes', '👑']",
        629159,
    ),
    (
        "unicode strings",
        "self.val1.split(' ', 2) == ['Rook', 'takes 👑']",
        629159,
    ),
    (
        "unicode strings",
        "self.val1.substring(4, 10).trim() == 'takes'",
        629149,
    ),
    (
        "unicode strings",
        "self.val1.upperAscii() == 'ROOK TAKES 👑'",
        314577,
    ),
    (
        "unicode strings",
        "self.val1.lowerAscii() == self.val1.lowerAscii()",
        943723,
    ),
    (
        "escaped strings",
        "self.val1 == 'l1\\nl2' && 'l1\\nl2' == self.val1 && self.val1 == self.val2",
        314583,
    ),
    ("escaped strings", "self.val1 == '''l1\nl2'''", 3),
    ("bytes", "self.val1 == self.val2", 314577),
    ("bytes", "self.val1 == b'AB'", 3),
    ("booleans", "self.val1 != self.val4", 4),
    (
        "duration format",
        "self.val1 == duration('1h2m3s4ms') && duration('1h2m3s4ms') == self.val1 && self.val1 == self.val2",
        16,
    ),
    ("duration format", "self.val1.getHours() == 1", 4),
    ("date format", "self.val1.getDate() == 16", 4),
    (
        "date-time format",
        "self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')",
        6,
    ),
    ("enums", "self.enumStr == 'Pending'", 3),
    ("enums", "self.enumStr in ['Pending', 'Available']", 14),
    ("conversions", "bytes(self.val6) == self.val7", 629150),
    ("conversions", "string(self.val1) == self.val6", 314578),
    ("conversions", "string(self.val4) == '10.5'", 4),
    ("conversions", "string(self.val7) == self.val6", 629150),
    ("conversions", "timestamp(self.val10) == self.val11", 6),
    (
        "lists",
        "self.val1 == [1, 2, 3] && [1, 2, 3] == self.val1 && self.val1 == self.val2",
        157317,
    ),
    ("lists", "1 in self.val1", 1572865),
    ("lists", "self.val2[0] in self.val1", 1572868),
    ("lists", "self.val1 + [4, 5] == [1, 2, 3, 4, 5]", 24),
    ("lists", "has(self.val1) && has(self.val2)", 2),
    ("lists", "self.val1.all(k, size(self.val1) > 0)", 11010044),
    (
        "lists",
        "self.val1.exists_one(k, self.val1 == [2])",
        23592949,
    ),
    (
        "lists",
        "size(self.val1.filter(k, size(self.val1) > 1)) == 1",
        26738686,
    ),
    ("listSets", "self.val1 == self.val2", 104862),
    (
        "listSets",
        "self.val1.exists_one(k, self.val1 == ['a'])",
        15728629,
    ),
    ("listMaps", "self.objs[0] == self.objs[1]", 104864),
    (
        "listMaps",
        "self.objs[2] + [self.objs[0][0], self.objs[0][1]] == self.objs[0]",
        104883,
    ),
    (
        "listMaps",
        "size(self.objs[0].filter(k, size(self.objs[0]) > 1)) == 1",
        18874366,
    ),
    ("maps", "self.val1 == self.val2", 39326),
    ("maps", "self.val1 == {'k1': 'a', 'k2': 'b'}", 33),
    ("maps", "self.val1.all(k, size(self.val1) > 0)", 2752508),
    ("objects", "self.objs[0] == self.objs[1]", 6),
    (
        "object access",
        "!(has(self.a1.d2) && has(self.a1.d2.e2))",
        6,
    ),
    ("map access", "self.val.all(k, self.val[k] > 0)", 3595115),
    (
        "map access",
        "!self.val.exists_one(k, self.val[k] > 0)",
        3145728,
    ),
    (
        "map access",
        "size(self.val.filter(k, self.val[k] > 1)) == 1",
        8089017,
    ),
    (
        "listMap access",
        "self.listMap.all(m, !has(m.v2) || m.v2 == 'z')",
        8388603,
    ),
    (
        "listMap access",
        "self.listMap.exists(m, m.k == 'a1' && m.v == 'b1')",
        10485753,
    ),
    (
        "listMap access",
        "self.listMap.map(m, m.v).exists(v, v == 'b1')",
        19922939,
    ),
    (
        "listMap access",
        "self.listMap.map(m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1",
        18874365,
    ),
    (
        "listMap access",
        "self.listMap.filter(m, has(m.v2) && m.v2 == 'z').map(m, m.v2).size() == 1",
        32505851,
    ),
    (
        "list access",
        "self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)",
        53477367,
    ),
    (
        "listSet access",
        "self.set.map(e, e * 20).filter(e, e > 50).exists_one(e, e == 60)",
        50331642,
    ),
    (
        "typemeta and objectmeta access specified",
        "self.metadata.generateName == 'pickItForMe'",
        5,
    ),
    (
        "embedded object",
        "self.embedded.metadata.generateName == 'pickItForMe'",
        6,
    ),
    (
        "embedded object with properties",
        "self.embedded.spec.field1 == 'a'",
        5,
    ),
    (
        "string in intOrString",
        "type(self.something) == int ? self.something == 1 : self.something == '25%'",
        7,
    ),
    (
        "string in intOrString",
        "self.something != ['anything']",
        13,
    ),
    ("int in intOrString", "self.something != 'some string'", 4),
    (
        "percent comparison using intOrString",
        r"type(self.min) == string && self.min.matches(r'(\d+(\.\d+)?%)')",
        1258298,
    ),
    (
        "percent comparison using intOrString",
        "type(self.min) == int ? self.current <= self.min : double(self.current) / double(self.available) >= double(self.min.replace('%', '')) / 100.0",
        629162,
    ),
    (
        "preserve unknown fields",
        "self.withUnknownFieldList[0] != self.withUnknownFieldList[1]",
        6,
    ),
    ("known and unknown fields", "self.withUnknown.known == 1", 3),
    (
        "field nullability",
        "has(self.unsetDefaultedStr) && self.unsetDefaultedStr == 'default value'",
        5,
    ),
    (
        "null values in container types",
        "type(self.m['a']) == null_type",
        5,
    ),
    (
        "object types are not accessible",
        "type(self) == type(self)",
        1844674407370955268,
    ),
    (
        "object types are not accessible",
        "type(self.nestedInMap['k1']) == type(self.nestedInMap['k2'])",
        1844674407370955272,
    ),
    (
        "listMaps with unsupported identity characters in property names",
        "self.objs[0][0].k__dot__ == '1'",
        6,
    ),
    (
        "container type composition",
        "self.mapOfListMap['o'].exists(e, e.k == '1' && e.v == 'd')",
        104,
    ),
    (
        "container type composition",
        "self.listMapOfObj.exists(e, e.k2 == '2' && e.v2 == 'f')",
        103,
    ),
    (
        "container type composition",
        "self.listOfListMap.map(e, e.map(e, e)).size() == 1",
        1555,
    ),
    (
        "container type composition",
        "self.mapOfMap.map(k, self.mapOfMap[k].map(m, m)).size() == 1",
        1585,
    ),
    (
        "container type composition",
        "self.mapOfList.map(k, k).map(k, k).size() == 1",
        286,
    ),
    (
        "optionals",
        "optional.of('a') != optional.none()",
        1844674407370955266,
    ),
    (
        "optionals",
        "optional.of('a').or(optional.of('a')).hasValue()",
        4,
    ),
    (
        "optionals",
        "optional.of('a').optMap(v, v == 'value').hasValue()",
        18,
    ),
    (
        "optionals",
        "self.obj.?field == optional.of('a')",
        1844674407370955268,
    ),
    ("optionals", "self.obj.?field.orValue('v') == 'a'", 5),
    (
        "optionals",
        "self.l[?0] == optional.of('a')",
        1844674407370955268,
    ),
    (
        "optionals",
        "optional.of([1, 2, 3, 4, 5]).optMap(v, v.size()).hasValue()",
        38,
    ),
    ("optionals", "self.l[?0].optMap(v, v == 'a').hasValue()", 22),
    ("quantity", "isQuantity(self.val1)", 314575),
    (
        "quantity",
        "quantity(self.val1).isLessThan(quantity(self.val2))",
        629151,
    ),
    (
        "quantity",
        "quantity(\"50k\").sub(20) == quantity(\"49980\")",
        4,
    ),
];

/// Checks rows; failures as messages.
fn run(rows: &[(String, String, u64)]) -> Vec<String> {
    let mut failures = Vec::new();
    for (case, rule, want) in rows {
        let Some(schema) = case_schema(case) else {
            failures.push(format!("{case}: no schema for this case"));
            continue;
        };
        match RuleEnv::new(&schema).cost(rule) {
            Ok(c) if c.max == *want => {}
            Ok(c) => failures.push(format!("{case}: {rule}: want {want}, got {}", c.max)),
            Err(e) => failures.push(format!("{case}: {rule}: {e}")),
        }
    }
    failures
}

#[test]
fn transcribed_rows() {
    let rows: Vec<(String, String, u64)> = ROWS
        .iter()
        .map(|(c, r, n)| (c.to_string(), r.to_string(), *n))
        .collect();
    let failures = run(&rows);
    println!(
        "TestCelEstimatedCostStability (transcribed): {} rows, {} failures",
        rows.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every (case, rule, cost) of the upstream test function.
fn upstream_rows(src: &str) -> Vec<(String, String, u64)> {
    let toks = tokenize(src);
    let body = function_body(&toks, "TestCelEstimatedCostStability").expect("the test exists");
    let mut rows = Vec::new();
    let mut case = String::new();
    let mut i = 0;
    while i + 2 < body.len() {
        match (&body[i], &body[i + 1], &body[i + 2]) {
            (Tok::Ident(k), Tok::Punct(':'), Tok::Str(name)) if k == "name" => {
                case = name.clone();
                i += 3;
            }
            (Tok::Ident(k), Tok::Punct(':'), Tok::Ident(m)) if k == "expectCost" && m == "map" => {
                let open = i + body[i..]
                    .iter()
                    .position(|t| *t == Tok::Punct('{'))
                    .expect("map literal");
                let close = matching(&body, open).expect("closed map literal");
                let mut j = open + 1;
                while j < close {
                    let key = eval(&body, &mut j);
                    j += 1; // ':'
                    let value = eval(&body, &mut j);
                    if body.get(j) == Some(&Tok::Punct(',')) {
                        j += 1;
                    }
                    match (key, value.as_u64()) {
                        (super::golit::Val::Str(rule), Some(cost)) => {
                            rows.push((case.clone(), rule, cost))
                        }
                        (k, v) => panic!("{case}: unreadable entry {k:?}: {v:?}"),
                    }
                }
                i = close + 1;
            }
            _ => i += 1,
        }
    }
    rows
}

#[test]
fn upstream_file() {
    let Ok(dir) = std::env::var("KDV_UPSTREAM_APIEXTENSIONS") else {
        println!("skipped: KDV_UPSTREAM_APIEXTENSIONS is not set");
        return;
    };
    let path = format!("{dir}/pkg/apiserver/schema/cel/celcoststability_test.go");
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let rows = upstream_rows(&src);
    assert!(rows.len() > 250, "read only {} rows", rows.len());
    let failures = run(&rows);
    println!(
        "TestCelEstimatedCostStability ({path}): {} rows, {} pass, {} failures",
        rows.len(),
        rows.len() - failures.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
