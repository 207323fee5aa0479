//! Interpreter tests on small Go snippets: a recording harness captures what each
//! `st.Value(...)` chain would validate, as JSON.

use std::collections::HashMap;
use std::rc::Rc;

use kdv_model::Universe;
use kdv_runtime::{ErrorType, FieldError, StabilityLevel};
use serde_json::{Value as J, json};

use crate::interp::{Abort, Expectation, Harness, Interp, PackageCtx};
use crate::matcher::Matcher;
use crate::parser::parse_file;
use crate::report::FailureKind;
use crate::tojson::to_json;
use crate::types::TypeEnv;
use crate::value::{Scope, TesterState, Value};

const PKG: &str = "example.com/fixture";

/// One recorded expectation.
#[derive(Debug)]
struct Seen {
    line: u32,
    new: J,
    old: Option<J>,
    opts: Option<J>,
    subresources: Vec<String>,
    expectation: Expectation,
}

#[derive(Debug, Default)]
struct Recorder {
    cases: usize,
    seen: Vec<Seen>,
    matcher_tests: Vec<(Matcher, Vec<FieldError>, Vec<FieldError>)>,
    pending_failures: Vec<String>,
}

impl Harness for Recorder {
    fn new_case(&mut self, _line: u32) -> usize {
        self.cases += 1;
        self.cases - 1
    }

    fn expect(&mut self, env: &TypeEnv<'_>, t: &TesterState, expectation: Expectation) {
        let conv = |v: &Value| to_json(env, v).unwrap_or_else(|e| json!({ "error": e }));
        self.seen.push(Seen {
            line: 0,
            new: conv(&t.value),
            old: t.old.as_ref().map(conv),
            opts: t.opts.as_ref().map(conv),
            subresources: t.subresources.clone(),
            expectation,
        });
        if let Some(s) = self.seen.last_mut() {
            s.line = t.case as u32;
        }
    }

    fn matcher_test(&mut self, _line: u32, m: &Matcher, want: &[FieldError], got: &[FieldError]) {
        self.matcher_tests
            .push((m.clone(), want.to_vec(), got.to_vec()));
    }

    fn call_validate(
        &mut self,
        _env: &TypeEnv<'_>,
        _package: &str,
        _type_name: &str,
        _new: &Value,
        _old: &Value,
    ) -> Result<Vec<FieldError>, String> {
        Ok(Vec::new())
    }

    fn fail_pending(&mut self, since: usize, _kind: FailureKind, reason: &str) -> usize {
        self.pending_failures.push(reason.to_string());
        self.cases - since
    }

    fn case_count(&self) -> usize {
        self.cases
    }
}

const TYPES: &str = r#"package fixture

type Enum string

const (
	EnumA Enum = "A"
	EnumB Enum = "B"
)

const Untyped = 7

type Inner struct {
	X string `json:"x"`
}

type Embedded struct {
	E int `json:"e"`
}

type Item struct {
	Key  string `json:"key"`
	Data int    `json:"data,omitempty"`
}

type StringType string
type MySlice []string
type MyMap map[string]string

type S struct {
	Embedded
	A       int               `json:"a"`
	P       *int              `json:"p,omitempty"`
	M       map[string]int    `json:"m,omitempty"`
	L       []int             `json:"l,omitempty"`
	Inner   Inner             `json:"inner"`
	E       Enum              `json:"e2,omitempty"`
	B       []byte            `json:"b,omitempty"`
	C       byte              `json:"c"`
	Items   []*Item           `json:"items,omitempty"`
	ByName  map[string]Item   `json:"byName,omitempty"`
	T       StringType        `json:"t"`
	TP      *StringType       `json:"tp,omitempty"`
	MS      MySlice           `json:"ms,omitempty"`
	MM      MyMap             `json:"mm,omitempty"`
	F       float64           `json:"f"`
	Skip    string            `json:"-"`
	private string
}
"#;

fn universe() -> Universe {
    let (pkg, diags) = kdv_go::load_sources(PKG, &[("types.go".into(), TYPES.into())]);
    assert!(kdv_go::count_errors(&diags) == 0, "{diags:?}");
    let mut u = Universe::default();
    u.packages.insert(PKG.into(), pkg);
    u
}

/// Runs `func TestX(t *testing.T) { <body> }` and returns what the harness saw.
fn run(body: &str) -> Result<Recorder, String> {
    run_file_big_stack(&format!(
        "package fixture\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n\t\"testing\"\n\n\t\"k8s.io/apimachinery/pkg/util/validation/field\"\n\t\"k8s.io/utils/ptr\"\n)\n\nvar _ = fmt.Sprintf\nvar _ = strings.Repeat\n\nfunc TestX(t *testing.T) {{\n{body}\n}}\n"
    ))
}

/// The interpreter recurses on the stack; give it what it needs.
fn run_file_big_stack(src: &str) -> Result<Recorder, String> {
    let src = src.to_string();
    std::thread::Builder::new()
        .stack_size(crate::interp::STACK_SIZE)
        .spawn(move || run_file(&src))
        .map_err(|e| e.to_string())?
        .join()
        .map_err(|_| "interpreter thread panicked".to_string())?
}

fn run_file(src: &str) -> Result<Recorder, String> {
    let u = universe();
    let parsed = parse_file(src);
    if let Some((_, e)) = parsed.broken.first() {
        return Err(format!("syntax error line {}: {}", e.line, e.message));
    }
    let ctx = PackageCtx {
        env: TypeEnv::new(&u),
        path: PKG.into(),
        imports: parsed
            .file
            .imports
            .iter()
            .cloned()
            .collect::<HashMap<_, _>>(),
        funcs: parsed
            .file
            .funcs
            .iter()
            .map(|f| (f.name.clone(), Rc::new(f.clone())))
            .collect(),
        globals: Rc::new(Scope::default()),
    };
    let mut rec = Recorder::default();
    let test = parsed
        .file
        .funcs
        .iter()
        .find(|f| f.name == "TestX")
        .ok_or("no TestX")?;
    let mut it = Interp::new(&ctx, &mut rec);
    let _ = it.init_globals(&parsed.file.values);
    match it.run_test(test) {
        Ok(()) => Ok(rec),
        Err(Abort::Error(e)) => Err(format!("line {}: {}", e.line, e.message)),
        Err(Abort::Fatal(m, _)) => Err(format!("fatal: {m}")),
    }
}

fn news(r: &Recorder) -> Vec<J> {
    r.seen.iter().map(|s| s.new.clone()).collect()
}

#[test]
fn structs_copy_and_references_share() {
    let r = run(r#"
	st := localSchemeBuilder.Test(t)
	a := S{A: 1, P: ptr.To(2), M: map[string]int{"k": 1}, L: []int{1}}
	b := a
	b.A = 5
	*b.P = 9
	b.M["k"] = 7
	b.L[0] = 3
	b.Inner.X = "y"
	st.Value(&a).ExpectValid()
	st.Value(&b).ExpectValid()
"#)
    .unwrap();
    let n = news(&r);
    assert_eq!(n[0]["a"], 1);
    assert_eq!(n[0]["p"], 9);
    assert_eq!(n[0]["m"]["k"], 7);
    assert_eq!(n[0]["l"][0], 3);
    assert_eq!(n[0]["inner"]["x"], "");
    assert_eq!(n[1]["a"], 5);
    assert_eq!(n[1]["inner"]["x"], "y");
}

#[test]
fn json_follows_encoding_json() {
    let r = run(r#"
	st := localSchemeBuilder.Test(t)
	st.Value(&S{
		Embedded: Embedded{E: 4},
		B:        []byte("abc"),
		C:        'a',
		E:        EnumA,
		T:        StringType("x"),
		TP:       new(StringType("p")),
		MS:       MySlice{"a"},
		MM:       MyMap(map[string]string{"k": "v"}),
		F:        -1.5,
		Skip:     "never",
		private:  "hidden",
	}).ExpectValid()
"#)
    .unwrap();
    let n = &news(&r)[0];
    assert_eq!(
        n["e"], 4,
        "inline embedded fields merge into the parent: {n}"
    );
    assert_eq!(n["b"], "YWJj");
    assert_eq!(n["c"], 97);
    assert_eq!(n["e2"], "A");
    assert_eq!(n["t"], "x");
    assert_eq!(n["tp"], "p");
    assert_eq!(n["ms"], json!(["a"]));
    assert_eq!(n["mm"], json!({"k": "v"}));
    assert_eq!(n["f"], -1.5);
    assert!(n.get("Skip").is_none() && n.get("private").is_none());
    assert!(n.get("p").is_none(), "nil pointers are omitted");
}

#[test]
fn elided_literal_types() {
    let r = run(r#"
	st := localSchemeBuilder.Test(t)
	st.Value(&S{
		Items:  []*Item{{Key: "a"}, nil, {"b", 2}},
		ByName: map[string]Item{"k": {Key: "k"}},
	}).ExpectValid()
"#)
    .unwrap();
    let n = &news(&r)[0];
    assert_eq!(
        n["items"],
        json!([{"key": "a", "data": 0}, null, {"key": "b", "data": 2}])
    );
    assert_eq!(n["byName"]["k"]["key"], "k");
}

#[test]
fn closures_variadics_and_options() {
    let r = run(r#"
	st := localSchemeBuilder.Test(t)
	opts := func(enabled ...string) map[string]bool {
		m := map[string]bool{"A": false, "B": false}
		for _, e := range enabled {
			m[e] = true
		}
		return m
	}
	mk := func() *S { return &S{A: 1} }
	st.Value(mk()).Opts(opts("B")).Subresources([]string{"status"}).ExpectValid()
	st.Value(mk()).Opts(opts()).ExpectValid()
"#)
    .unwrap();
    assert_eq!(r.seen[0].opts, Some(json!({"A": false, "B": true})));
    assert_eq!(r.seen[0].subresources, ["status"]);
    assert_eq!(r.seen[1].opts, Some(json!({"A": false, "B": false})));
}

#[test]
fn table_tests_with_subtests_and_typed_nil() {
    let r = run(r#"
	tests := []struct {
		name     string
		value    any
		oldValue any
	}{
		{name: "create", value: &S{A: 1}},
		{name: "typed nil old", value: &S{A: 2}, oldValue: (*S)(nil)},
		{name: "update", value: &S{A: 3}, oldValue: &S{A: 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := localSchemeBuilder.Test(t)
			tester := st.Value(tc.value)
			if tc.oldValue != nil {
				tester.OldValue(tc.oldValue)
			}
			tester.ExpectValid()
		})
	}
"#)
    .unwrap();
    assert_eq!(r.seen.len(), 3);
    assert_eq!(r.seen[0].old, None);
    // An interface holding a typed nil pointer is not nil: the case is an update.
    assert_eq!(r.seen[1].old, Some(J::Null));
    assert_eq!(
        r.seen[2].old,
        Some(json!({"a": 4, "c": 0, "e": 0, "e2": "", "f": 0, "inner": {"x": ""}, "t": ""}))
    );
}

#[test]
fn loops_helpers_and_fmt() {
    let r = run_file_big_stack(
        r#"package fixture

import (
	"fmt"
	"testing"
)

func gen(n int) map[string]string {
	out := make(map[string]string)
	for i := range n {
		str := fmt.Sprintf("k%d", i)
		out[str] = str
	}
	return out
}

func TestX(t *testing.T) {
	st := localSchemeBuilder.Test(t)
	m := gen(3)
	l := make([]int, 2)
	for i := 0; i < 3; i++ {
		l = append(l, i*2)
	}
	var total int
	for _, v := range l {
		total += v
	}
	st.Value(&S{MM: MyMap(m), L: l, A: total + Untyped}).ExpectValid()
}
"#,
    )
    .unwrap();
    let n = &news(&r)[0];
    assert_eq!(n["mm"], json!({"k0": "k0", "k1": "k1", "k2": "k2"}));
    assert_eq!(n["l"], json!([0, 0, 0, 2, 4]));
    assert_eq!(n["a"], 13);
}

#[test]
fn shadowed_builtins_and_new_forms() {
    let r = run(r#"
	st := localSchemeBuilder.Test(t)
	base := S{A: 1}
	new := base
	new.A = 2
	old := base
	st.Value(&new).OldValue(&old).ExpectValid()
"#)
    .unwrap();
    assert_eq!(r.seen[0].new["a"], 2);
    assert_eq!(r.seen[0].old.as_ref().unwrap()["a"], 1);
    let r = run(r#"
	st := localSchemeBuilder.Test(t)
	st.Value(&S{P: new(40), TP: new(StringType("q"))}).ExpectValid()
	p := new(int)
	*p = 3
	st.Value(&S{P: p}).ExpectValid()
"#)
    .unwrap();
    assert_eq!(news(&r)[0]["p"], 40);
    assert_eq!(news(&r)[0]["tp"], "q");
    assert_eq!(news(&r)[1]["p"], 3);
}

#[test]
fn field_api_builds_expected_errors() {
    let r = run(r#"
	st := localSchemeBuilder.Test(t)
	internal := func(p string) *field.Error {
		return field.InternalError(field.NewPath(p), fmt.Errorf(""))
	}
	st.Value(&S{}).ExpectMatches(field.ErrorMatcher{}.ByType().ByField().ByOrigin(), field.ErrorList{
		field.Invalid(field.NewPath("a", "b").Index(1).Key("k[x]").Child("c"), 5, "bad").WithOrigin("minimum").MarkAlpha(),
		field.NotSupported(field.NewPath("e2"), Enum("C"), []Enum{EnumA, EnumB}),
		field.TooLong(field.NewPath("s"), "foo", 2).WithOrigin("maxLength"),
		field.Required(nil, ""),
		internal("x"),
	}.MarkShortCircuit())
"#)
    .unwrap();
    let Expectation::Matches(m, want) = &r.seen[0].expectation else {
        panic!("{:?}", r.seen[0].expectation)
    };
    assert_eq!(m.go_names(), ["ByType", "ByField", "ByOrigin"]);
    assert_eq!(want.len(), 5);
    assert_eq!(want[0].field.to_string(), "a.b[1][k[x]].c");
    assert_eq!(want[0].origin, "minimum");
    assert_eq!(want[0].stability, StabilityLevel::Alpha);
    assert!(want.iter().all(|e| e.short_circuit));
    assert_eq!(want[0].to_string(), "a.b[1][k[x]].c: Invalid value: 5: bad");
    assert_eq!(want[1].error_type, ErrorType::NotSupported);
    assert_eq!(
        want[1].to_string(),
        r#"e2: Unsupported value: "C": supported values: "A", "B""#
    );
    assert_eq!(want[2].detail, "may not be more than 2 bytes");
    assert_eq!(want[3].field.to_string(), "<nil>");
    assert_eq!(want[4].error_type, ErrorType::Internal);
}

#[test]
fn validate_false_by_path_maps() {
    let r = run(r#"
	st := localSchemeBuilder.Test(t)
	st.Value(&S{}).ExpectValidateFalseByPath(map[string][]string{
		"a":  {"y", "x"},
		"":   {"root"},
	})
"#)
    .unwrap();
    let Expectation::ValidateFalseByPath(m) = &r.seen[0].expectation else {
        panic!()
    };
    assert_eq!(m[""], ["root"]);
    assert_eq!(m["a"], ["y", "x"]);
}

#[test]
fn direct_matcher_tests_are_recorded() {
    let r = run(r#"
	matcher := field.ErrorMatcher{}.ByField().ByDetailExact()
	want := field.ErrorList{field.Invalid(field.NewPath("s"), nil, "forced failure: x")}
	matcher.Test(t, want, nil)
"#)
    .unwrap();
    assert_eq!(r.matcher_tests.len(), 1);
    assert_eq!(r.matcher_tests[0].1.len(), 1);
    assert!(r.matcher_tests[0].2.is_empty());
}

#[test]
fn strings_and_constants() {
    let r = run(r#"
	st := localSchemeBuilder.Test(t)
	v := "a" + strings.Repeat("b", 3) + "c"
	st.Value(&S{T: StringType(v), A: len(v), E: EnumB}).ExpectValid()
"#)
    .unwrap();
    assert_eq!(news(&r)[0]["t"], "abbbc");
    assert_eq!(news(&r)[0]["a"], 5);
    assert_eq!(news(&r)[0]["e2"], "B");
}

#[test]
fn unsupported_constructs_are_errors_with_lines() {
    let e = run("\tx := 1\n\tgo func() {}()\n\t_ = x").unwrap_err();
    assert!(e.contains("unsupported statement"), "{e}");
    let e = run("\tst := localSchemeBuilder.Test(t)\n\tst.Value(&S{Nope: 1}).ExpectValid()")
        .unwrap_err();
    assert!(e.contains("unknown field Nope"), "{e}");
    let e = run("\tvar p *S\n\tp.A = 1").unwrap_err();
    assert!(e.contains("nil pointer"), "{e}");
    let e = run("\tfor {\n\t}").unwrap_err();
    assert!(e.contains("budget"), "{e}");
}

#[test]
fn failing_subtests_do_not_stop_the_parent() {
    let r = run(r#"
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) {
			st := localSchemeBuilder.Test(t)
			st.Value(&S{A: undefinedThing}).ExpectValid()
		})
	}
	st := localSchemeBuilder.Test(t)
	st.Value(&S{A: 1}).ExpectValid()
"#)
    .unwrap();
    assert_eq!(r.pending_failures.len(), 2);
    assert!(r.pending_failures[0].contains("undefined: undefinedThing"));
    assert_eq!(r.seen.len(), 1);
}

#[test]
fn deep_recursion_is_an_error_not_a_crash() {
    let e = run(r#"
	var f func(n int) int
	f = func(n int) int {
		if n == 0 {
			return 0
		}
		return f(n-1) + 1
	}
	_ = f(100000)
"#)
    .unwrap_err();
    assert!(e.contains("nesting too deep"), "{e}");
    // Shallow recursion works.
    let r = run(r#"
	var f func(n int) int
	f = func(n int) int {
		if n == 0 {
			return 0
		}
		return f(n-1) + 2
	}
	st := localSchemeBuilder.Test(t)
	st.Value(&S{A: f(10)}).ExpectValid()
"#)
    .unwrap();
    assert_eq!(news(&r)[0]["a"], 20);
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    /// A realistic body to mutate.
    const BODY: &str = r#"
	st := localSchemeBuilder.Test(t)
	opts := func(enabled ...string) map[string]bool {
		m := map[string]bool{"A": false}
		for _, e := range enabled {
			m[e] = true
		}
		return m
	}
	tests := []struct {
		name  string
		value any
	}{{"a", &S{A: 1, Items: []*Item{{Key: "k"}, nil}}}, {"b", &S{P: new(3)}}}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st.Value(tc.value).Opts(opts("A")).ExpectMatches(field.ErrorMatcher{}.ByType().ByField(), field.ErrorList{
				field.Invalid(field.NewPath("a").Index(i), nil, "x").WithOrigin("o"),
			})
		})
	}
	x := S{M: map[string]int{"k": 1}}
	x.M["j"] = 2 + len(strings.Repeat("ab", 2))
	st.Value(&x).OldValue(&x).ExpectValidateFalseByPath(map[string][]string{"a": {"b"}})
"#;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

        #[test]
        fn parser_never_panics(src in "[ -~\n\t{}()\\[\\]]{0,300}") {
            let _ = parse_file(&src);
            let _ = crate::parser::parse_stmts(&src);
        }

        #[test]
        fn interpreter_never_panics_on_mutated_bodies(
            cut in 0usize..800,
            len in 0usize..20,
            insert in "[ -~]{0,6}",
        ) {
            let mut body = BODY.to_string();
            let start = cut.min(body.len());
            let end = (start + len).min(body.len());
            if body.is_char_boundary(start) && body.is_char_boundary(end) {
                body.replace_range(start..end, &insert);
            }
            // Errors are fine; panics and hangs are not.
            let _ = run(&body);
        }
    }
}

#[test]
fn json_decodes_back_into_go_values() {
    let u = universe();
    let ctx = PackageCtx {
        env: TypeEnv::new(&u),
        path: PKG.into(),
        imports: HashMap::new(),
        funcs: HashMap::new(),
        globals: Rc::new(Scope::default()),
    };
    let mut rec = Recorder::default();
    let it = Interp::new(&ctx, &mut rec);
    let input = json!({
        "e": 4, "a": 1, "p": 2, "m": {"k": 1}, "l": [1, 2], "inner": {"x": "y"},
        "e2": "A", "b": "YWJj", "c": 97, "items": [{"key": "a", "data": 0}, null],
        "byName": {"k": {"key": "k", "data": 0}}, "t": "x", "tp": "p", "ms": ["a"],
        "mm": {"k": "v"}, "f": 1.5
    });
    let ty = crate::types::named(PKG, "S");
    let v = crate::tojson::from_json(it.env(), &ty, &input).unwrap();
    assert_eq!(to_json(it.env(), &v).unwrap(), input);
    assert!(crate::tojson::from_json(it.env(), &ty, &json!({"a": "not a number"})).is_err());
}
