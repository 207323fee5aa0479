//! The Go table reader on a small module shaped like apiextensions-apiserver (the schema
//! types with upstream's field names, helpers written as upstream's test file writes them),
//! and the case expansion of each table kind.

use std::path::Path;

use kdv_runtime::{ErrorType, FieldError, FieldPath};
use kdv_test_support::Scratch;
use serde_json::json;

use super::cases::{self, Expect};
use super::gotable::{Cell, GoTestFile, fix_tabs};
use super::{Outcome, run_case};

const GO_MOD: &str = "module k8s.io/apiextensions-apiserver\n\ngo 1.22\n";

const APIEXTENSIONS_V1: &str = r#"package v1

type FieldValueErrorReason string

const (
	FieldValueRequired FieldValueErrorReason = "FieldValueRequired"
	FieldValueForbidden FieldValueErrorReason = "FieldValueForbidden"
)

type ValidationRules []ValidationRule

type ValidationRule struct {
	Rule string `json:"rule"`
	Message string `json:"message,omitempty"`
	MessageExpression string `json:"messageExpression,omitempty"`
	Reason *FieldValueErrorReason `json:"reason,omitempty"`
	FieldPath string `json:"fieldPath,omitempty"`
	OptionalOldSelf *bool `json:"optionalOldSelf,omitempty"`
}
"#;

const SCHEMA: &str = r#"package schema

import apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

type Structural struct {
	Items                *Structural
	Properties           map[string]Structural
	AdditionalProperties *StructuralOrBool

	Generic
	Extensions
	ValidationExtensions

	ValueValidation *ValueValidation
}

type StructuralOrBool struct {
	Structural *Structural
	Bool       bool
}

type Generic struct {
	Description string
	Type        string
	Title       string
	Default     JSON
	Nullable    bool
}

type Extensions struct {
	XPreserveUnknownFields bool
	XEmbeddedResource bool
	XIntOrString bool
	XListMapKeys []string
	XListType *string
	XMapType *string
}

type ValidationExtensions struct {
	XValidations apiextensionsv1.ValidationRules
}

type ValueValidation struct {
	Format    string
	Maximum   *float64
	MaxLength *int64
	MaxItems  *int64
	Required  []string
}

type JSON struct {
	Object interface{}
}
"#;

const CEL: &str = r#"package cel

import "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

var _ = schema.Structural{}
"#;

const HELPERS_TEST: &str = r#"package cel

import (
	"fmt"
	"math"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

var (
	integerType = primitiveType("integer", "")
	stringType  = primitiveType("string", "")
)

func primitiveType(typ, format string) schema.Structural {
	result := schema.Structural{
		Generic: schema.Generic{
			Type: typ,
		},
	}
	if len(format) != 0 {
		result.ValueValidation = &schema.ValueValidation{
			Format: format,
		}
	}
	return result
}

func objs(val ...interface{}) map[string]interface{} {
	result := make(map[string]interface{}, len(val))
	for i, v := range val {
		result[fmt.Sprintf("val%d", i+1)] = v
	}
	return result
}

func schemas(valSchema ...schema.Structural) *schema.Structural {
	result := make(map[string]schema.Structural, len(valSchema))
	for i, v := range valSchema {
		result[fmt.Sprintf("val%d", i+1)] = v
	}
	o := schema.Structural{Generic: schema.Generic{Type: "object"}, Properties: result}
	return &o
}

func listMapType(keys []string, items *schema.Structural) schema.Structural {
	listType := "map"
	return schema.Structural{
		Generic:    schema.Generic{Type: "array"},
		Extensions: schema.Extensions{XListType: &listType, XListMapKeys: keys},
		Items:      items,
	}
}

func mapType(valSchema *schema.Structural) schema.Structural {
	return schema.Structural{
		Generic:              schema.Generic{Type: "object"},
		AdditionalProperties: &schema.StructuralOrBool{Bool: true, Structural: valSchema},
	}
}

func withRule(s schema.Structural, rule string) schema.Structural {
	s.XValidations = apiextensions.ValidationRules{{Rule: rule}}
	return s
}

func cloneWithRule(s *schema.Structural, rule string) *schema.Structural {
	s = s.DeepCopy()
	s.XValidations = apiextensions.ValidationRules{{Rule: rule}}
	return s
}

func withMaxLength(s schema.Structural, maxLength *int64) schema.Structural {
	if s.ValueValidation == nil {
		s.ValueValidation = &schema.ValueValidation{}
	}
	s.ValueValidation.MaxLength = maxLength
	return s
}

var _ = math.MaxInt64
"#;

const TABLE_TEST: &str = r#"package cel

import (
	"math"
	"testing"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
)

func TestValidationExpressions(t *testing.T) {
	tests := []struct {
		name          string
		schema        *schema.Structural
		obj           interface{}
		oldObj        interface{}
		valid         []string
		errors        map[string]string
		costBudget    int64
		isRoot        bool
		expectSkipped bool
		expectedCost  int64
	}{
		{name: "integers",
			obj:    objs(int64(math.MaxInt64), int32(math.MaxInt32), 1.5),
			schema: schemas(integerType, integerType, primitiveType("number", "double")),
			valid:  []string{"self.val1 > 0", "self.val3 == 1.5"},
			errors: map[string]string{"self.val1 + 1 == 0": "integer overflow"},
		},
		{name: "maps of list maps",
			obj: map[string]interface{}{"m": map[string]interface{}{"a": []interface{}{map[string]interface{}{"k": "x"}}}},
			oldObj: map[string]interface{}{"m": nil},
			schema: schemas(mapType(ptr.To(listMapType([]string{"k"}, cloneWithRule(&stringType, "self != ''"))))),
			valid:  []string{"true"},
			costBudget: 10,
			isRoot: true,
			expectedCost: 3,
		},
		{name: "bounded",
			obj:    objs("abc"),
			schema: schemas(withMaxLength(stringType, ptr.To(int64(5)))),
			valid:  []string{"self.val1.size() < 6"},
			expectSkipped: true,
		},
		{name: "unsupported",
			obj:    objs(nosuchHelper()),
			schema: schemas(stringType),
			valid:  []string{"true"},
		},
	}
	_ = tests
}

func TestReasonAndFldPath(t *testing.T) {
	forbiddenReason := func() *apiextensions.FieldValueErrorReason {
		r := apiextensions.FieldValueForbidden
		return &r
	}()
	tests := []struct {
		name   string
		schema *schema.Structural
		obj    interface{}
		errors field.ErrorList
	}{
		{name: "reason",
			obj: map[string]interface{}{"f": 1},
			schema: &schema.Structural{
				Generic: schema.Generic{Type: "object"},
				Properties: map[string]schema.Structural{"f": integerType},
				ValidationExtensions: schema.ValidationExtensions{
					XValidations: apiextensions.ValidationRules{
						{Rule: "self.f == 2", Reason: forbiddenReason, FieldPath: ".f"},
					},
				},
			},
			errors: field.ErrorList{
				{Type: field.ErrorTypeForbidden, Field: "root.f"},
			},
		},
	}
	_ = tests
}

func TestRatcheting(t *testing.T) {
	cases := []struct {
		name     string
		schema   *schema.Structural
		oldObj   interface{}
		newObj   interface{}
		errors   []string
		warnings []string
	}{
		{name: "yaml",
			schema: mustSchema(`
				type: object
				properties:
					foo:
						type: string
						x-kubernetes-validations:
						- rule: self == "bar"
			`),
			oldObj: mustUnstructured(`
				foo: baz
				n: 1
				f: 1.5
			`),
			newObj: mustUnstructured(`
				foo: baz
			`),
			warnings: []string{`root.foo: Invalid value: "baz": failed rule: self == "bar"`},
		},
	}
	_ = cases
}
"#;

/// A compile test file shaped as upstream's compilation_test.go: matchers of test-local
/// types built by helper functions, a row with a closure matcher, schema generators.
const COMPILE_TEST: &str = r#"package cel

import (
	"testing"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiserver/pkg/cel"
	"k8s.io/utils/ptr"
)

type validationMatcher interface {
	matches(cr CompilationResult) bool
	String() string
}

type allMatcher []validationMatcher

func matchesAll(matchers ...validationMatcher) validationMatcher {
	return allMatcher(matchers)
}

type fnMatcher struct {
	fn  func(CompilationResult) bool
	msg string
}

type errorMatcher struct {
	errorType cel.ErrorType
	contains  string
}

func invalidError(contains string) validationMatcher {
	return errorMatcher{errorType: cel.ErrorTypeInvalid, contains: contains}
}

type noErrorMatcher struct{}

func noError() validationMatcher {
	return noErrorMatcher{}
}

type transitionRuleMatcher bool

func transitionRule(t bool) validationMatcher {
	return transitionRuleMatcher(t)
}

func TestCelCompilation(t *testing.T) {
	cases := []struct {
		name            string
		input           schema.Structural
		expectedResults []validationMatcher
		unmodified      bool
	}{
		{
			name: "rules",
			input: schema.Structural{
				Generic: schema.Generic{Type: "integer"},
				ValidationExtensions: schema.ValidationExtensions{
					XValidations: apiextensions.ValidationRules{
						{Rule: "self >= oldSelf"},
						{Rule: "size(self) == 1"},
						{Rule: " "},
						{Rule: "self > 0"},
					},
				},
			},
			expectedResults: []validationMatcher{
				matchesAll(noError(), transitionRule(true)),
				invalidError("found no matching overload"),
				fnMatcher{msg: "program is nil", fn: func(cr CompilationResult) bool { return cr.Program == nil }},
				fnMatcher{msg: "other", fn: func(cr CompilationResult) bool { return true }},
			},
		},
	}
	_ = cases
}

func genStringWithRule(rule string) func(maxLength *int64) *schema.Structural {
	return func(maxLength *int64) *schema.Structural {
		return &schema.Structural{
			Generic: schema.Generic{Type: "string"},
			ValueValidation: &schema.ValueValidation{MaxLength: maxLength},
			ValidationExtensions: schema.ValidationExtensions{
				XValidations: apiextensions.ValidationRules{{Rule: rule}},
			},
		}
	}
}

func TestCostEstimation(t *testing.T) {
	cases := []struct {
		name                        string
		schemaGenerator             func(maxLength *int64) *schema.Structural
		setMaxElements              int64
		expectedCalcCost            uint64
		expectCalcCostExceedsLimit  uint64
		expectedSetCost             uint64
		expectedSetCostExceedsLimit uint64
	}{
		{
			name:             "string with contains",
			schemaGenerator:  genStringWithRule("self.contains('test')"),
			expectedCalcCost: 314574,
			setMaxElements:   10,
			expectedSetCost:  5,
		},
		{
			name: "closure",
			schemaGenerator: func(max *int64) *schema.Structural {
				s := withMaxLength(stringType, ptr.To[int64](20))
				if max != nil {
					s = withMaxLength(stringType, max)
				}
				s = withRule(s, "self.contains('test')")
				return &s
			},
			expectedCalcCost: 9,
			setMaxElements:   10,
			expectedSetCost:  5,
		},
	}
	_ = cases
}
"#;

/// ratcheting_test.go's shape (an external test package).
const RATCHETING_TEST: &str = r#"package validation_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/utils/ptr"
)

var smallIntSchema *spec.Schema = &spec.Schema{
	SchemaProps: spec.SchemaProps{
		Type:    spec.StringOrArray{"number"},
		Maximum: ptr.To[float64](50),
	},
}

var objectSchema *spec.Schema = &spec.Schema{
	SchemaProps: spec.SchemaProps{
		Type: spec.StringOrArray{"object"},
		Properties: map[string]spec.Schema{
			"small": *smallIntSchema,
			"i32": {SchemaProps: spec.SchemaProps{Type: spec.StringOrArray{"integer"}, Format: "int32"}},
		},
	},
}

func TestObjectRatcheting(t *testing.T) {
	validator := validation.NewRatchetingSchemaValidator(objectSchema, nil, "", strfmt.Default)
	assert.True(t, validator.ValidateUpdate(map[string]interface{}{
		"small": 500,
	}, map[string]interface{}{
		"small": 500,
	}, validation.WithRatcheting(nil)).IsValid())
	require.False(t, validator.ValidateUpdate(map[string]interface{}{
		"i32": int64(math.MaxInt32 + 2),
	}, map[string]interface{}{
		"i32": int64(math.MaxInt32 + 1),
	}, validation.WithRatcheting(nil)).IsValid())
	require.True(t, validator.ValidateUpdate(1, 2).IsValid())
}
"#;

/// Writes the module into a scratch folder.
fn module(name: &str) -> Scratch {
    let root = Scratch::new(&format!("apiextensions-{name}"));
    let write = |rel: &str, text: &str| {
        root.write(rel, text);
    };
    write("go.mod", GO_MOD);
    write("pkg/apis/apiextensions/v1/types.go", APIEXTENSIONS_V1);
    write("pkg/apiserver/schema/structural.go", SCHEMA);
    write("pkg/apiserver/schema/cel/validation.go", CEL);
    write("pkg/apiserver/schema/cel/helpers_test.go", HELPERS_TEST);
    write("pkg/apiserver/schema/cel/validation_test.go", TABLE_TEST);
    write("pkg/apiserver/schema/cel/compilation_test.go", COMPILE_TEST);
    write(super::ratcheting::RATCHETING_FILE, RATCHETING_TEST);
    root
}

fn load(root: &Path) -> GoTestFile {
    GoTestFile::load(&root.join("pkg/apiserver/schema/cel")).unwrap()
}

/// Runs `f` on a thread with the interpreter's stack.
fn big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(crate::interp::STACK_SIZE)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn rows_become_schemas_objects_and_expectations() {
    big_stack(|| {
        let root = module("rows");
        let file = load(root.path());
        assert!(file.syntax_errors.is_empty(), "{:?}", file.syntax_errors);
        let table = file.table("TestValidationExpressions", "tests").unwrap();
        assert_eq!(table.rows.len(), 4);

        let integers = table.rows[0].as_ref().unwrap();
        assert_eq!(integers.name, "integers");
        assert_eq!(
            integers.schema("schema"),
            Some(&json!({
                "type": "object",
                "properties": {
                    "val1": {"type": "integer"},
                    "val2": {"type": "integer"},
                    "val3": {"type": "number", "format": "double"},
                },
            }))
        );
        // Integers stay integers, floats floats (the validator sees Go's values).
        assert_eq!(
            integers.json("obj"),
            &json!({"val1": i64::MAX, "val2": i32::MAX, "val3": 1.5})
        );
        assert_eq!(
            integers.strings("valid"),
            ["self.val1 > 0", "self.val3 == 1.5"]
        );
        assert_eq!(
            integers.string_map("errors"),
            [(
                "self.val1 + 1 == 0".to_string(),
                "integer overflow".to_string()
            )]
        );
        assert_eq!(integers.json("oldObj"), &json!(null));

        let maps = table.rows[1].as_ref().unwrap();
        assert_eq!(
            maps.schema("schema"),
            Some(&json!({
                "type": "object",
                "properties": {"val1": {
                    "type": "object",
                    "additionalProperties": {
                        "type": "array",
                        "x-kubernetes-list-type": "map",
                        "x-kubernetes-list-map-keys": ["k"],
                        "items": {
                            "type": "string",
                            "x-kubernetes-validations": [{"rule": "self != ''"}],
                        },
                    },
                }},
            }))
        );
        assert_eq!(maps.json("oldObj"), &json!({"m": null}));
        assert_eq!(maps.int("costBudget"), 10);
        assert!(maps.bool("isRoot"));

        let bounded = table.rows[2].as_ref().unwrap();
        assert_eq!(
            bounded.schema("schema").unwrap()["properties"]["val1"],
            json!({"type": "string", "maxLength": 5})
        );

        // A row the interpreter cannot evaluate is an error naming the construct; the
        // other rows are kept.
        let unsupported = table.rows[3].as_ref().unwrap_err();
        assert_eq!(unsupported.name, "unsupported");
        assert_eq!(unsupported.reason, "undefined: nosuchHelper");
        assert!(
            unsupported.detail.starts_with("line "),
            "{}",
            unsupported.detail
        );
    });
}

#[test]
fn cases_follow_the_test_loops() {
    big_stack(|| {
        let root = module("cases");
        let file = load(root.path());
        let table = file.table("TestValidationExpressions", "tests").unwrap();
        let cases = cases::cases(&table);
        let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "integers/self.val1 > 0",
                "integers/self.val3 == 1.5",
                "integers/self.val1 + 1 == 0",
                "maps of list maps/true",
                "bounded/self.val1.size() < 6",
                "unsupported",
            ]
        );
        let (call, expect) = cases[0].run.as_ref().unwrap();
        // withRule replaces the root's rules.
        assert_eq!(
            call.schema["x-kubernetes-validations"],
            json!([{"rule": "self.val1 > 0"}])
        );
        assert!(!call.resource_root);
        assert_eq!(call.cost_budget, cases::RUNTIME_COST_BUDGET);
        assert_eq!(call.old, None);
        assert_eq!(
            expect,
            &Expect::NoErrors {
                cost: None,
                no_cost: false
            }
        );
        // Error rules: NewValidator(s, true, ...), every error Invalid with the text.
        let (call, expect) = cases[2].run.as_ref().unwrap();
        assert!(call.resource_root);
        assert_eq!(
            expect,
            &Expect::AllInvalidContaining("integer overflow".into())
        );
        let (call, expect) = cases[3].run.as_ref().unwrap();
        assert_eq!(call.cost_budget, 10);
        assert!(call.resource_root);
        assert_eq!(call.old, Some(json!({"m": null})));
        assert_eq!(
            expect,
            &Expect::NoErrors {
                cost: Some(3),
                no_cost: false
            }
        );
        let (_, expect) = cases[4].run.as_ref().unwrap();
        assert_eq!(
            expect,
            &Expect::NoErrors {
                cost: None,
                no_cost: true
            }
        );
        // Skipped, with the reason, and never run.
        let skipped = run_case(&cases[5]);
        assert_eq!(
            skipped,
            Outcome::Skipped {
                reason: "cannot interpret: undefined: nosuchHelper".into(),
                detail: cases[5].run.clone().unwrap_err().1,
            }
        );
    });
}

#[test]
fn field_error_lists_and_reasons() {
    big_stack(|| {
        let root = module("reasons");
        let file = load(root.path());
        let table = file.table("TestReasonAndFldPath", "tests").unwrap();
        let row = table.rows[0].as_ref().unwrap();
        assert_eq!(
            row.schema("schema").unwrap()["x-kubernetes-validations"],
            json!([{"rule": "self.f == 2", "reason": "FieldValueForbidden", "fieldPath": ".f"}])
        );
        let errs: &[FieldError] = row.errors("errors");
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].error_type, ErrorType::Forbidden);
        assert_eq!(errs[0].field.to_string(), "root.f");
        let cases = cases::cases(&table);
        let (call, expect) = cases[0].run.as_ref().unwrap();
        assert!(call.resource_root);
        assert_eq!(
            expect,
            &Expect::TypesAndFields(vec![(ErrorType::Forbidden, "root.f".into())])
        );
    });
}

#[test]
fn yaml_helpers_are_decoded() {
    big_stack(|| {
        let root = module("yaml");
        let file = load(root.path());
        let table = file.table("TestRatcheting", "cases").unwrap();
        let row = table.rows[0].as_ref().unwrap();
        assert_eq!(
            row.schema("schema"),
            Some(&json!({
                "type": "object",
                "properties": {"foo": {
                    "type": "string",
                    "x-kubernetes-validations": [{"rule": "self == \"bar\""}],
                }},
            }))
        );
        assert_eq!(row.json("oldObj"), &json!({"foo": "baz", "n": 1, "f": 1.5}));
        assert!(matches!(row.fields.get("newObj"), Some(Cell::Json(_))));
        let cases = cases::cases(&table);
        let (call, expect) = cases[0].run.as_ref().unwrap();
        assert!(call.ratcheting);
        assert_eq!(call.object, json!({"foo": "baz"}));
        assert_eq!(
            expect,
            &Expect::Ratcheting {
                errors: vec![],
                warnings: vec![
                    r#"root.foo: Invalid value: "baz": failed rule: self == "bar""#.into()
                ],
            }
        );
    });
}

#[test]
fn fix_tabs_as_upstream() {
    assert_eq!(
        fix_tabs("\n\t\ta:\n\t\t\tb: 1\n\t").unwrap(),
        "a:\n  b: 1\n"
    );
    assert_eq!(fix_tabs("\ta\n\tb").unwrap(), "a\nb");
    assert!(fix_tabs("\t\ta\n\tb\n").is_err());
}

#[test]
fn unimplemented_evaluation_fails_rather_than_passes() {
    // A valid rule with no errors reported must not pass when kdv did not run the rules.
    let case = cases::Case {
        table: "TestValidationExpressions".into(),
        name: "x/true".into(),
        line: 1,
        run: Ok((
            cases::Call {
                schema: cases::with_rule(&json!({"type": "object"}), "true"),
                object: json!({}),
                old: None,
                resource_root: false,
                cost_budget: cases::RUNTIME_COST_BUDGET,
                per_call_limit: cases::PER_CALL_LIMIT,
                ratcheting: false,
            },
            Expect::NoErrors {
                cost: None,
                no_cost: false,
            },
        )),
    };
    match run_case(&case) {
        Outcome::Passed => {
            // The evaluator has landed: then the answer must be right.
        }
        Outcome::Failed { cause, .. } => {
            assert!(cause.starts_with("kdv: "), "{cause}");
        }
        other => panic!("{other:?}"),
    }
    let _ = FieldPath::root();
}

/// Test-local matcher types join the package model; matchers are read with their type
/// names and judged as their `matches` methods judge.
#[test]
fn compile_matchers_are_read_and_checked() {
    big_stack(|| {
        let root = module("compile");
        let file = load(root.path());
        let table = file
            .table_with(
                "TestCelCompilation",
                "cases",
                &cases::table_options("TestCelCompilation"),
            )
            .unwrap();
        let cases = cases::cases(&table);
        let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "rules/result 1",
                "rules/result 2",
                "rules/result 3",
                "rules/result 4"
            ]
        );
        let (_, expect) = cases[0].run.as_ref().unwrap();
        assert_eq!(
            expect,
            &Expect::Compiled {
                index: 0,
                rules: 4,
                matcher: cases::CompileMatcher::All(vec![
                    cases::CompileMatcher::NoError,
                    cases::CompileMatcher::TransitionRule(true),
                ]),
            }
        );
        let (_, expect) = cases[1].run.as_ref().unwrap();
        assert_eq!(
            expect,
            &Expect::Compiled {
                index: 1,
                rules: 4,
                matcher: cases::CompileMatcher::Error {
                    error_type: "RuleInvalid".into(),
                    contains: "found no matching overload".into(),
                },
            }
        );
        // The closure matcher kdv knows, and one it does not (skipped, never passed).
        let (_, expect) = cases[2].run.as_ref().unwrap();
        assert!(matches!(
            expect,
            Expect::Compiled {
                matcher: cases::CompileMatcher::ProgramNil,
                ..
            }
        ));
        assert_eq!(
            cases[3].run.as_ref().unwrap_err().0,
            "matcher not transcribed"
        );
        let outcomes: Vec<Outcome> = cases.iter().map(run_case).collect();
        assert_eq!(
            outcomes[..3],
            [Outcome::Passed, Outcome::Passed, Outcome::Passed]
        );
        assert!(matches!(outcomes[3], Outcome::Skipped { .. }));
    });
}

/// Generator closures are called with `nil` and `&setMaxElements`; `ptr.To[T]` works.
#[test]
fn cost_generators_are_called() {
    big_stack(|| {
        let root = module("cost");
        let file = load(root.path());
        let table = file
            .table_with(
                "TestCostEstimation",
                "cases",
                &cases::table_options("TestCostEstimation"),
            )
            .unwrap();
        let row = table.rows[0].as_ref().unwrap();
        assert_eq!(row.fields.get("schemaGenerator"), Some(&Cell::Func));
        assert_eq!(
            row.schema("schemaGenerator(&setMaxElements)"),
            Some(&json!({"type": "string", "maxLength": 10,
                "x-kubernetes-validations": [{"rule": "self.contains('test')"}]}))
        );
        assert_eq!(
            row.schema("schemaGenerator(nil)").unwrap().get("maxLength"),
            None
        );
        let closure = table.rows[1].as_ref().unwrap();
        assert_eq!(
            closure.schema("schemaGenerator(nil)").unwrap()["maxLength"],
            json!(20)
        );
        let cases = cases::cases(&table);
        let (_, expect) = cases[1].run.as_ref().unwrap();
        assert_eq!(
            expect,
            &Expect::CompiledCost {
                exact: Some(5),
                at_least: None,
                at_most: None
            }
        );
        let outcomes: Vec<Outcome> = cases.iter().map(run_case).collect();
        assert_eq!(outcomes, vec![Outcome::Passed; 4]);
    });
}

/// ratcheting_test.go's assertions become cases; another shape is skipped with its reason.
#[test]
fn ratcheting_assertions_become_cases() {
    big_stack(|| {
        let root = module("ratcheting");
        let file = load(root.path());
        let text =
            std::fs::read_to_string(root.path().join(super::ratcheting::RATCHETING_FILE)).unwrap();
        let cases = super::ratcheting::cases(&text, &file, None);
        let names: Vec<(&str, &str)> = cases
            .iter()
            .map(|c| (c.table.as_str(), c.name.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                ("TestObjectRatcheting", "#1"),
                ("TestObjectRatcheting", "#2"),
                ("TestObjectRatcheting", "#3")
            ]
        );
        let (call, expect) = cases[0].run.as_ref().unwrap();
        assert_eq!(
            call.schema,
            json!({"type": "object", "properties": {
                "small": {"type": "number", "maximum": 50},
                "i32": {"type": "integer", "format": "int32"},
            }})
        );
        assert_eq!(call.object, json!({"small": 500}));
        assert_eq!(call.old, Some(json!({"small": 500})));
        assert_eq!(expect, &Expect::ValuesUpdateValid(true));
        let (call, expect) = cases[1].run.as_ref().unwrap();
        assert_eq!(call.object, json!({"i32": 2_147_483_649_i64}));
        assert_eq!(expect, &Expect::ValuesUpdateValid(false));
        assert_eq!(
            cases[2].run.as_ref().unwrap_err().0,
            "statement not understood"
        );
        assert_eq!(run_case(&cases[0]), Outcome::Passed);
        // A changed out-of-range int32 is not ratcheted.
        assert_eq!(run_case(&cases[1]), Outcome::Passed);
    });
}
