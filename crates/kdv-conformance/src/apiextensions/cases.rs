//! From table rows to cases: what each upstream test function does with a row (which rule
//! it attaches to which schema, how it calls the CEL validator, what it then asserts),
//! transcribed from the test loops of apiextensions-apiserver's
//! `pkg/apiserver/schema/cel/validation_test.go`.

use kdv_runtime::ErrorType;
use serde_json::{Map, Value as J, json};

use super::gotable::{CallArg, FieldCall, Row, Table, TableOptions};

/// `celconfig.PerCallLimit`.
pub const PER_CALL_LIMIT: u64 = 1_000_000;
/// `celconfig.RuntimeCELCostBudget`.
pub const RUNTIME_COST_BUDGET: i64 = 10_000_000;
/// `boundedCeiling` of TestMetadataNameCostIsBounded (compilation_test.go).
pub const METADATA_NAME_COST_CEILING: u64 = 10_000;
/// Go's `math.MaxInt` (the budget some tests pass).
pub const MAX_INT: i64 = i64::MAX;

/// How a case calls the validator (`validator(...)`/`NewValidator(...)` then `Validate(ctx,
/// field.NewPath("root"), s, obj, oldObj, budget, opts...)`).
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The schema, with the rules the test attached.
    pub schema: J,
    /// `obj`.
    pub object: J,
    /// `oldObj` (`None` for Go's nil).
    pub old: Option<J>,
    /// The validator's (and declared type's) resource-root flag.
    pub resource_root: bool,
    /// The runtime cost budget.
    pub cost_budget: i64,
    /// The per-call cost limit.
    pub per_call_limit: u64,
    /// `WithRatcheting(...)`.
    pub ratcheting: bool,
}

/// What the test asserts about one call.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    /// No errors; with `cost`, `budget - remaining` must equal it; with `no_cost`, nothing
    /// of the budget may be spent (TestValidationExpressions' valid rules).
    NoErrors { cost: Option<i64>, no_cost: bool },
    /// At least one error, and every error of type Invalid whose text contains this
    /// (TestValidationExpressions' error rules).
    AllInvalidContaining(String),
    /// Every error of type Invalid, each containing one of these not yet matched, and every
    /// one of these matched (the "unmatched" loops).
    InvalidEachMatched(Vec<String>),
    /// Exactly these (type, field path) pairs in any order, details and values ignored
    /// (TestReasonAndFldPath's `require.ElementsMatch`).
    TypesAndFields(Vec<(ErrorType, String)>),
    /// As many errors as `errors`, each of `errors` contained in some error's text; as many
    /// warnings as `warnings`, each equal to some warning (TestRatcheting).
    Ratcheting {
        errors: Vec<String>,
        warnings: Vec<String>,
    },
    /// Exactly one error, containing `text` when it is not empty; with `remaining`, that
    /// much budget left (TestMessageExpression).
    OneError {
        text: String,
        remaining: Option<i64>,
    },
    /// Exactly one error, of type Invalid, containing this (TestCELValidationLimit's cost
    /// budget half).
    OnlyInvalidContaining(String),
    /// Some error of type Invalid containing this (TestCELValidationLimit's per-call half).
    SomeInvalidContaining(String),
    /// Not a validation: the schema's root rules compiled (`Compile` with the declared type
    /// of the root, not a resource root); the result of rule `index` (0-based) must satisfy
    /// the matcher, and there must be one result per rule (TestCelCompilation).
    Compiled {
        index: usize,
        rules: usize,
        matcher: CompileMatcher,
    },
    /// Not a validation: the schema's one root rule compiled without error, its estimated
    /// `MaxCost` equal to `exact`, at least `at_least`, at most `at_most` when they are set
    /// (TestCostEstimation's `schemaChecker`, TestMetadataNameCostIsBounded).
    CompiledCost {
        exact: Option<u64>,
        at_least: Option<u64>,
        at_most: Option<u64>,
    },
    /// Not a CEL call: the schema's value validations on `object` as an update of `old`
    /// with ratcheting (`RatchetingSchemaValidator.ValidateUpdate(...).IsValid()`) must be
    /// `valid` (pkg/apiserver/validation/ratcheting_test.go).
    ValuesUpdateValid(bool),
    /// Not a CEL call: `ValidFieldPath(field_path, schema)` (TestValidateFieldPath): an error
    /// containing `err_detail` when it is not empty, no error when it is; with `valid`,
    /// `path.Child(validField.String()).String()` (`path` being `field.NewPath("")`) equal
    /// to it.
    FieldPath {
        field_path: String,
        err_detail: String,
        valid: Option<String>,
    },
}

/// The matchers of `TestCelCompilation` (`validationMatcher` and its implementations in
/// compilation_test.go), transcribed.
#[derive(Debug, Clone, PartialEq)]
pub enum CompileMatcher {
    /// `matchesAll(...)` (`allMatcher`): every one matches.
    All(Vec<CompileMatcher>),
    /// `invalidError(contains)` (`errorMatcher`): an error of this type (upstream's name,
    /// `RuleInvalid`) whose text contains `contains`.
    Error {
        error_type: String,
        contains: String,
    },
    /// `messageExpressionError(contains)`: a `messageExpression` error of type invalid
    /// containing `contains`.
    MessageExpressionError(String),
    /// `noError()`: no rule error.
    NoError,
    /// `transitionRule(b)`: `UsesOldSelf == b`.
    TransitionRule(bool),
    /// The `fnMatcher` whose function is `cr.Program == nil` (message `program is nil`).
    ProgramNil,
}

impl CompileMatcher {
    /// The matcher of a value converted with its type names (`gotable::typed_json`), or
    /// why it cannot be transcribed.
    pub fn from_typed(j: &J) -> Result<CompileMatcher, String> {
        let ty = j.get("type").and_then(J::as_str).unwrap_or("");
        let value = j.get("value").unwrap_or(&J::Null);
        let text = |k: &str| value.get(k).and_then(J::as_str).unwrap_or("").to_string();
        Ok(match ty {
            "allMatcher" => CompileMatcher::All(
                value
                    .as_array()
                    .map(|a| a.iter().map(CompileMatcher::from_typed).collect())
                    .unwrap_or_else(|| Ok(Vec::new()))?,
            ),
            "errorMatcher" => CompileMatcher::Error {
                error_type: value
                    .get("errorType")
                    .and_then(|t| t.get("value").or(Some(t)))
                    .and_then(J::as_str)
                    .unwrap_or("")
                    .to_string(),
                contains: text("contains"),
            },
            "messageExpressionErrorMatcher" => {
                CompileMatcher::MessageExpressionError(text("contains"))
            }
            "noErrorMatcher" => CompileMatcher::NoError,
            "transitionRuleMatcher" => {
                CompileMatcher::TransitionRule(value.as_bool() == Some(true))
            }
            "fnMatcher" if text("msg") == "program is nil" => CompileMatcher::ProgramNil,
            "fnMatcher" => {
                return Err(format!(
                    "fnMatcher {:?} (its function is not transcribed)",
                    text("msg")
                ));
            }
            other => return Err(format!("matcher of type {other:?}")),
        })
    }

    /// Whether a compile result satisfies the matcher (the `matches` methods).
    pub fn matches(&self, r: &kdv_openapi::cel::RuleCompilation) -> bool {
        match self {
            CompileMatcher::All(all) => all.iter().all(|m| m.matches(r)),
            CompileMatcher::Error {
                error_type,
                contains,
            } => r.error.as_ref().is_some_and(|e| {
                e.error_type.as_str() == error_type && e.detail.contains(contains.as_str())
            }),
            CompileMatcher::MessageExpressionError(contains) => {
                r.message_expression_error.as_ref().is_some_and(|e| {
                    e.error_type == kdv_openapi::cel::CompileErrorType::Invalid
                        && e.detail.contains(contains.as_str())
                })
            }
            CompileMatcher::NoError => r.error.is_none(),
            CompileMatcher::TransitionRule(b) => r.uses_old_self == *b,
            CompileMatcher::ProgramNil => !r.has_program,
        }
    }
}

impl std::fmt::Display for CompileMatcher {
    /// The matchers' `String()` texts.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompileMatcher::All(all) if all.is_empty() => f.write_str("any result"),
            CompileMatcher::All(all) => {
                for (i, m) in all.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" and ")?;
                    }
                    write!(f, "{m}")?;
                }
                Ok(())
            }
            CompileMatcher::Error {
                error_type,
                contains,
            } => write!(
                f,
                "has error of type {error_type:?} containing string {contains:?}"
            ),
            CompileMatcher::MessageExpressionError(c) => {
                write!(f, "has messageExpression error containing string {c:?}")
            }
            CompileMatcher::NoError => f.write_str("no error"),
            CompileMatcher::TransitionRule(true) => f.write_str("is a transition rule"),
            CompileMatcher::TransitionRule(false) => f.write_str("is not a transition rule"),
            CompileMatcher::ProgramNil => f.write_str("program is nil"),
        }
    }
}

/// One case: a validator call and what upstream asserts of it; or a row that cannot be run.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// The test function.
    pub table: String,
    /// `<row name>` or `<row name>/<rule or step>`, as the Go subtest names it.
    pub name: String,
    /// The row's line in the test file.
    pub line: u32,
    /// The call and expectation, or why the case cannot be run (skip reason, detail).
    pub run: Result<(Call, Expect), (String, String)>,
}

/// The tables this module knows, in report order: (test function, table variable).
pub const TABLES: &[(&str, &str)] = &[
    ("TestValidationExpressions", "tests"),
    ("TestValidationExpressionsAtSchemaLevels", "tests"),
    ("TestCELValidationLimit", "tests"),
    ("TestCELMaxRecursionDepth", "tests"),
    ("TestMessageExpression", "tests"),
    ("TestReasonAndFldPath", "tests"),
    ("TestRatcheting", "cases"),
    ("TestOptionalOldSelf", "tests"),
    ("TestOptionalOldSelfCheckForNull", "tests"),
    ("TestOptionalOldSelfIsOptionalType", "cases"),
    ("TestValidateFieldPath", "tests"),
    ("TestCelCompilation", "cases"),
    ("TestCostEstimation", "cases"),
    ("TestMetadataNameCostIsBounded", "cases"),
    ("TestCelCostStability", "cases"),
    ("TestCelEstimatedCostStability", "cases"),
];

/// How each table's rows are read (function fields called, fields kept with type names).
pub fn table_options(func: &str) -> TableOptions {
    match func {
        "TestCelCompilation" => TableOptions {
            typed_fields: vec!["expectedResults"],
            ..TableOptions::default()
        },
        // `testCase.schemaGenerator(nil)` and `testCase.schemaGenerator(&testCase.setMaxElements)`.
        "TestCostEstimation" => TableOptions {
            calls: vec![
                FieldCall {
                    field: "schemaGenerator",
                    args: vec![CallArg::Nil],
                    cell: "schemaGenerator(nil)",
                },
                FieldCall {
                    field: "schemaGenerator",
                    args: vec![CallArg::AddrOfField("setMaxElements")],
                    cell: "schemaGenerator(&setMaxElements)",
                },
            ],
            ..TableOptions::default()
        },
        _ => TableOptions::default(),
    }
}

/// The cases of a table.
pub fn cases(table: &Table) -> Vec<Case> {
    let mut out = Vec::new();
    for row in &table.rows {
        match row {
            Ok(row) => expand(&table.func, row, &mut out),
            Err(e) => out.push(Case {
                table: table.func.clone(),
                name: e.name.clone(),
                line: e.line,
                run: Err((format!("cannot interpret: {}", e.reason), e.detail.clone())),
            }),
        }
    }
    out
}

/// Go's `withRule(s, rule)`: the schema's own rules replaced by this one.
pub fn with_rule(schema: &J, rule: &str) -> J {
    with_rules(schema, vec![json!({"rule": rule})])
}

fn with_rules(schema: &J, rules: Vec<J>) -> J {
    let mut s = schema.clone();
    if let J::Object(m) = &mut s {
        m.insert("x-kubernetes-validations".into(), J::Array(rules));
    }
    s
}

/// Sets `optionalOldSelf: true` on the schema's own rules (the OptionalOldSelf tests' loop).
fn with_optional_old_self(schema: &J) -> J {
    let mut s = schema.clone();
    if let Some(J::Array(rules)) = s.get_mut("x-kubernetes-validations") {
        for r in rules {
            if let J::Object(m) = r {
                m.insert("optionalOldSelf".into(), J::Bool(true));
            }
        }
    }
    s
}

fn old_of(row: &Row, field: &str) -> Option<J> {
    match row.json(field) {
        J::Null => None,
        j => Some(j.clone()),
    }
}

/// Go's subtest name of a rule (the test truncates it to 127 bytes).
fn sub_name(rule: &str) -> String {
    let mut end = rule.len().min(127);
    while !rule.is_char_boundary(end) {
        end -= 1;
    }
    rule[..end].to_string()
}

fn expand(func: &str, row: &Row, out: &mut Vec<Case>) {
    let mut push = |name: String, run: Result<(Call, Expect), (String, String)>| {
        out.push(Case {
            table: func.to_string(),
            name,
            line: row.line,
            run,
        })
    };
    let missing = |what: &str| (format!("row without {what}"), String::new());
    match func {
        "TestValidationExpressions" | "TestCELMaxRecursionDepth" => {
            let Some(schema) = row.schema("schema") else {
                push(row.name.clone(), Err(missing("schema")));
                return;
            };
            let budget = match row.int("costBudget") {
                0 => RUNTIME_COST_BUDGET,
                b => b,
            };
            // TestCELMaxRecursionDepth sets the budget itself and checks no cost.
            let (budget, expected_cost) = if func == "TestCELMaxRecursionDepth" {
                (RUNTIME_COST_BUDGET, None)
            } else {
                (budget, Some(row.int("expectedCost")).filter(|c| *c != 0))
            };
            let obj = row.json("obj").clone();
            let old = old_of(row, "oldObj");
            for rule in row.strings("valid") {
                let call = Call {
                    schema: with_rule(schema, &rule),
                    object: obj.clone(),
                    old: old.clone(),
                    resource_root: row.bool("isRoot"),
                    cost_budget: budget,
                    per_call_limit: PER_CALL_LIMIT,
                    ratcheting: false,
                };
                let expect = Expect::NoErrors {
                    cost: expected_cost,
                    no_cost: expected_cost.is_none() && row.bool("expectSkipped"),
                };
                push(
                    format!("{}/{}", row.name, sub_name(&rule)),
                    Ok((call, expect)),
                );
            }
            for (rule, contains) in row.string_map("errors") {
                let call = Call {
                    schema: with_rule(schema, &rule),
                    object: obj.clone(),
                    old: old.clone(),
                    resource_root: true,
                    cost_budget: budget,
                    per_call_limit: PER_CALL_LIMIT,
                    ratcheting: false,
                };
                push(
                    format!("{}/{}", row.name, sub_name(&rule)),
                    Ok((call, Expect::AllInvalidContaining(contains))),
                );
            }
        }
        "TestValidationExpressionsAtSchemaLevels" | "TestOptionalOldSelf" => {
            let Some(schema) = row.schema("schema") else {
                push(row.name.clone(), Err(missing("schema")));
                return;
            };
            let schema = if func == "TestOptionalOldSelf" {
                with_optional_old_self(schema)
            } else {
                schema.clone()
            };
            // TestOptionalOldSelf builds the validator as a resource root over a declared
            // type that is not one; kdv has one flag: the declared type's (the schemas have
            // no metadata, so the validator's flag changes nothing).
            let call = Call {
                schema,
                object: row.json("obj").clone(),
                old: old_of(row, "oldObj"),
                resource_root: func == "TestValidationExpressionsAtSchemaLevels",
                cost_budget: MAX_INT,
                per_call_limit: PER_CALL_LIMIT,
                ratcheting: false,
            };
            push(
                row.name.clone(),
                Ok((call, Expect::InvalidEachMatched(row.strings("errors")))),
            );
        }
        "TestOptionalOldSelfCheckForNull" => {
            let Some(schema) = row.schema("schema") else {
                push(row.name.clone(), Err(missing("schema")));
                return;
            };
            let schema = with_optional_old_self(schema);
            for (step, old) in [("null old", None), ("non-null old", old_of(row, "oldObj"))] {
                let call = Call {
                    schema: schema.clone(),
                    object: row.json("obj").clone(),
                    old,
                    resource_root: false,
                    cost_budget: MAX_INT,
                    per_call_limit: PER_CALL_LIMIT,
                    ratcheting: false,
                };
                push(
                    format!("{}/{step}", row.name),
                    Ok((
                        call,
                        Expect::NoErrors {
                            cost: None,
                            no_cost: false,
                        },
                    )),
                );
            }
        }
        "TestOptionalOldSelfIsOptionalType" => {
            let Some(schema) = row.schema("schema") else {
                push(row.name.clone(), Err(missing("schema")));
                return;
            };
            // The old object is the new one.
            let call = Call {
                schema: with_optional_old_self(schema),
                object: row.json("obj").clone(),
                old: old_of(row, "obj"),
                resource_root: false,
                cost_budget: MAX_INT,
                per_call_limit: PER_CALL_LIMIT,
                ratcheting: false,
            };
            push(
                row.name.clone(),
                Ok((call, Expect::InvalidEachMatched(row.strings("errors")))),
            );
        }
        "TestCELValidationLimit" => {
            let Some(schema) = row.schema("schema") else {
                push(row.name.clone(), Err(missing("schema")));
                return;
            };
            for rule in row.strings("valid") {
                let s = with_rule(schema, &rule);
                let budget = Call {
                    schema: s.clone(),
                    object: row.json("obj").clone(),
                    old: None,
                    resource_root: false,
                    cost_budget: 0,
                    per_call_limit: PER_CALL_LIMIT,
                    ratcheting: false,
                };
                push(
                    format!("{}/{}/cost budget", row.name, sub_name(&rule)),
                    Ok((
                        budget,
                        Expect::OnlyInvalidContaining(
                            "validation failed due to running out of cost budget, no further \
                             validation rules will be run"
                                .into(),
                        ),
                    )),
                );
                let per_call = Call {
                    schema: s,
                    object: row.json("obj").clone(),
                    old: None,
                    resource_root: true,
                    cost_budget: RUNTIME_COST_BUDGET,
                    per_call_limit: 0,
                    ratcheting: false,
                };
                push(
                    format!("{}/{}/per-call limit", row.name, sub_name(&rule)),
                    Ok((
                        per_call,
                        Expect::SomeInvalidContaining(
                            "no further validation rules will be run due to call cost exceeds \
                             limit for rule"
                                .into(),
                        ),
                    )),
                );
            }
        }
        "TestMessageExpression" => {
            if !row.str("expectedLogErr").is_empty() {
                push(
                    row.name.clone(),
                    Err((
                        "expects a klog line (kdv does not log)".into(),
                        row.str("expectedLogErr").to_string(),
                    )),
                );
                return;
            }
            let mut rule = Map::new();
            rule.insert("rule".into(), J::String("false".into()));
            if !row.str("message").is_empty() {
                rule.insert("message".into(), J::String(row.str("message").into()));
            }
            if !row.str("messageExpression").is_empty() {
                rule.insert(
                    "messageExpression".into(),
                    J::String(row.str("messageExpression").into()),
                );
            }
            let schema = json!({
                "type": "object",
                "properties": {"str": {"type": "string"}},
                "x-kubernetes-validations": [J::Object(rule)],
            });
            let call = Call {
                schema,
                object: json!({"str": "a string"}),
                old: None,
                resource_root: false,
                cost_budget: row.int("costBudget"),
                per_call_limit: match row.int("perCallLimit") {
                    0 => PER_CALL_LIMIT,
                    n => u64::try_from(n).unwrap_or(PER_CALL_LIMIT),
                },
                ratcheting: false,
            };
            let remaining = Some(row.int("expectedRemainingBudget")).filter(|r| *r != 0);
            push(
                row.name.clone(),
                Ok((
                    call,
                    Expect::OneError {
                        text: row.str("expectedValidationErr").to_string(),
                        remaining,
                    },
                )),
            );
        }
        "TestReasonAndFldPath" => {
            let Some(schema) = row.schema("schema") else {
                push(row.name.clone(), Err(missing("schema")));
                return;
            };
            let call = Call {
                schema: schema.clone(),
                object: row.json("obj").clone(),
                old: None,
                resource_root: true,
                cost_budget: RUNTIME_COST_BUDGET,
                per_call_limit: PER_CALL_LIMIT,
                ratcheting: false,
            };
            let want = row
                .errors("errors")
                .iter()
                .map(|e| (e.error_type, e.field.to_string()))
                .collect();
            push(row.name.clone(), Ok((call, Expect::TypesAndFields(want))));
        }
        "TestRatcheting" => {
            let Some(schema) = row.schema("schema") else {
                push(row.name.clone(), Err(missing("schema")));
                return;
            };
            let call = Call {
                schema: schema.clone(),
                object: row.json("newObj").clone(),
                old: old_of(row, "oldObj"),
                resource_root: false,
                cost_budget: match row.int("runtimeCostBudget") {
                    0 => RUNTIME_COST_BUDGET,
                    b => b,
                },
                per_call_limit: PER_CALL_LIMIT,
                ratcheting: true,
            };
            push(
                row.name.clone(),
                Ok((
                    call,
                    Expect::Ratcheting {
                        errors: row.strings("errors"),
                        warnings: row.strings("warnings"),
                    },
                )),
            );
        }
        "TestValidateFieldPath" => {
            let Some(schema) = row.schema("schema") else {
                push(row.name.clone(), Err(missing("schema")));
                return;
            };
            let call = Call {
                schema: schema.clone(),
                object: J::Null,
                old: None,
                resource_root: false,
                cost_budget: RUNTIME_COST_BUDGET,
                per_call_limit: PER_CALL_LIMIT,
                ratcheting: false,
            };
            let expect = Expect::FieldPath {
                field_path: row.str("fieldPath").to_string(),
                err_detail: row.str("errDetail").to_string(),
                valid: row.json("validFieldPath").as_str().map(str::to_string),
            };
            push(row.name.clone(), Ok((call, expect)));
        }
        "TestCelCompilation" => {
            let Some(schema) = row.schema("input") else {
                push(row.name.clone(), Err(missing("input")));
                return;
            };
            let rules = schema
                .get("x-kubernetes-validations")
                .and_then(J::as_array)
                .map_or(0, Vec::len);
            let call = Call {
                schema: schema.clone(),
                object: J::Null,
                old: None,
                resource_root: false,
                cost_budget: RUNTIME_COST_BUDGET,
                per_call_limit: PER_CALL_LIMIT,
                ratcheting: false,
            };
            let expected = match row.json("expectedResults") {
                J::Object(m) => m.get("value").and_then(J::as_array).cloned(),
                J::Array(a) => Some(a.clone()),
                _ => None,
            }
            .unwrap_or_default();
            for (index, m) in expected.iter().enumerate() {
                let name = format!("{}/result {}", row.name, index + 1);
                if row.bool("unmodified") {
                    push(
                        name,
                        Err((
                            "stored-expressions environment with the test's own CEL library \
                             (fakeLib, introduced at 1.999)"
                                .into(),
                            String::new(),
                        )),
                    );
                    continue;
                }
                match CompileMatcher::from_typed(m) {
                    Ok(matcher) => push(
                        name,
                        Ok((
                            call.clone(),
                            Expect::Compiled {
                                index,
                                rules,
                                matcher,
                            },
                        )),
                    ),
                    Err(e) => push(name, Err(("matcher not transcribed".into(), e))),
                }
            }
        }
        "TestCostEstimation" => {
            for (step, cell, cost, exceeds) in [
                (
                    "calc maxLength",
                    "schemaGenerator(nil)",
                    "expectedCalcCost",
                    "expectCalcCostExceedsLimit",
                ),
                (
                    "set maxLength",
                    "schemaGenerator(&setMaxElements)",
                    "expectedSetCost",
                    "expectedSetCostExceedsLimit",
                ),
            ] {
                let name = format!("{}/{step}", row.name);
                let Some(schema) = row.schema(cell) else {
                    push(name, Err(missing(cell)));
                    continue;
                };
                let call = Call {
                    schema: schema.clone(),
                    object: J::Null,
                    old: None,
                    resource_root: false,
                    cost_budget: RUNTIME_COST_BUDGET,
                    per_call_limit: PER_CALL_LIMIT,
                    ratcheting: false,
                };
                let positive = |f: &str| u64::try_from(row.int(f)).ok().filter(|c| *c > 0);
                push(
                    name,
                    Ok((
                        call,
                        Expect::CompiledCost {
                            exact: positive(cost),
                            at_least: positive(exceeds),
                            at_most: None,
                        },
                    )),
                );
            }
        }
        "TestCelCostStability" | "TestCelEstimatedCostStability" => {
            // celcoststability_test.go: each rule of `expectCost` on the row's schema; the
            // runtime cost of validating `obj` (a resource-root validator, the runtime
            // budget, no errors), or the estimated `MaxCost` through `schemaChecker`.
            let Some(schema) = row.schema("schema") else {
                push(row.name.clone(), Err(missing("schema")));
                return;
            };
            let J::Object(costs) = row.json("expectCost") else {
                push(row.name.clone(), Err(missing("expectCost")));
                return;
            };
            let runtime = func == "TestCelCostStability";
            for (rule, cost) in costs {
                let name = format!("{}/{}", row.name, sub_name(rule));
                let Some(cost) = cost.as_u64() else {
                    push(
                        name,
                        Err(("expected cost is not a number".into(), cost.to_string())),
                    );
                    continue;
                };
                let call = Call {
                    schema: with_rule(schema, rule),
                    object: row.json("obj").clone(),
                    old: None,
                    resource_root: runtime,
                    cost_budget: RUNTIME_COST_BUDGET,
                    per_call_limit: PER_CALL_LIMIT,
                    ratcheting: false,
                };
                let expect = if runtime {
                    match i64::try_from(cost) {
                        Ok(c) => Expect::NoErrors {
                            cost: Some(c),
                            no_cost: false,
                        },
                        Err(_) => {
                            push(
                                name,
                                Err(("runtime cost out of range".into(), cost.to_string())),
                            );
                            continue;
                        }
                    }
                } else {
                    Expect::CompiledCost {
                        exact: Some(cost).filter(|c| *c > 0),
                        at_least: None,
                        at_most: None,
                    }
                };
                push(name, Ok((call, expect)));
            }
        }
        "TestMetadataNameCostIsBounded" => {
            // An object schema with the row's rule, compiled as a resource root; the cost
            // must be non-zero and at most `boundedCeiling`.
            let rule = match row.json("rule") {
                J::Object(m) => m.get("Rule").and_then(J::as_str).map(str::to_string),
                _ => None,
            };
            let Some(rule) = rule else {
                push(row.name.clone(), Err(missing("rule")));
                return;
            };
            let call = Call {
                schema: json!({"type": "object", "x-kubernetes-validations": [{"rule": rule}]}),
                object: J::Null,
                old: None,
                resource_root: true,
                cost_budget: RUNTIME_COST_BUDGET,
                per_call_limit: PER_CALL_LIMIT,
                ratcheting: false,
            };
            push(
                row.name.clone(),
                Ok((
                    call,
                    Expect::CompiledCost {
                        exact: None,
                        at_least: Some(1),
                        at_most: Some(METADATA_NAME_COST_CEILING),
                    },
                )),
            );
        }
        other => push(
            row.name.clone(),
            Err((format!("no runner for {other}"), String::new())),
        ),
    }
}
