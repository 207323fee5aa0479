//! Parser and loader tests over small Go sources.

use std::path::PathBuf;

use kdv_model::{
    Builtin, ConstValue, Field, JsonTag, NamedRef, Package, StructType, Tags, TypeDecl, TypeRef,
};
use kdv_test_support::Scratch;

use super::*;

const PKG: &str = "example.com/m/pkg";

fn load(src: &str) -> (Package, Vec<Diagnostic>) {
    load_sources(PKG, &[(PathBuf::from("types.go"), src.to_string())])
}

/// Loads `src` and fails the test on any diagnostic.
fn load_ok(src: &str) -> Package {
    let (p, d) = load(src);
    assert!(d.is_empty(), "unexpected diagnostics:\n{}", render(&d));
    p
}

fn render(d: &[Diagnostic]) -> String {
    d.iter().map(|d| format!("{d}\n")).collect()
}

fn ty<'a>(p: &'a Package, name: &str) -> &'a TypeDecl {
    p.type_decl(name)
        .unwrap_or_else(|| panic!("type {name} missing"))
}

fn fields(t: &TypeDecl) -> &[Field] {
    match &t.def {
        TypeRef::Struct(StructType { fields }) => fields,
        other => panic!("{} is not a struct: {other:?}", t.name),
    }
}

fn local(name: &str) -> TypeRef {
    TypeRef::Named(NamedRef {
        package: PKG.into(),
        name: name.into(),
        type_args: vec![],
    })
}

fn ext(package: &str, name: &str) -> TypeRef {
    TypeRef::Named(NamedRef {
        package: package.into(),
        name: name.into(),
        type_args: vec![],
    })
}

fn texts(t: &Tags) -> Vec<&str> {
    t.lines.iter().map(|l| l.text.as_str()).collect()
}

fn builtin(b: Builtin) -> TypeRef {
    TypeRef::Builtin(b)
}

#[test]
fn package_clause_and_imports() {
    let (p, d) = load(
        r#"package foo

import "fmt"
import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	_ "embed"
	. "strings"
	yaml "sigs.k8s.io/yaml"
	"gopkg.in/yaml.v3"
	"k8s.io/api/core/v1"
)

type T struct {
	A metav1.ObjectMeta
	B v1.Pod
	C yaml.Node
	D fmt.Stringer
	E unknown.Thing
}
"#,
    );
    // A qualifier no import names is Go's "undefined"; the reference keeps the qualifier.
    let messages: Vec<String> = d
        .iter()
        .map(|d| {
            let s = d.span.as_ref().expect("position");
            format!("{}:{}: {}", s.line, s.col, d.message)
        })
        .collect();
    assert_eq!(
        messages,
        ["18:4: undefined: unknown (no import of this file is named unknown)"]
    );
    assert_eq!(p.name, "foo");
    assert_eq!(p.path, PKG);
    assert_eq!(p.imports.get("fmt").map(String::as_str), Some("fmt"));
    assert_eq!(
        p.imports.get("metav1").map(String::as_str),
        Some("k8s.io/apimachinery/pkg/apis/meta/v1")
    );
    assert_eq!(p.imports.get(".").map(String::as_str), Some("strings"));
    assert!(!p.imports.contains_key("_"));
    assert_eq!(
        p.imports.get("v1").map(String::as_str),
        Some("k8s.io/api/core/v1")
    );
    let f = fields(ty(&p, "T"));
    assert_eq!(
        f[0].ty,
        ext("k8s.io/apimachinery/pkg/apis/meta/v1", "ObjectMeta")
    );
    assert_eq!(f[1].ty, ext("k8s.io/api/core/v1", "Pod"));
    // The explicit alias wins over the guessed name of gopkg.in/yaml.v3.
    assert_eq!(f[2].ty, ext("sigs.k8s.io/yaml", "Node"));
    assert_eq!(f[3].ty, ext("fmt", "Stringer"));
    assert_eq!(f[4].ty, ext("unknown", "Thing"));
}

#[test]
fn guessed_package_names_resolve_qualifiers() {
    let p = load_ok(
        "package p\nimport (\n\"gopkg.in/yaml.v3\"\n\"github.com/x/foo/v2\"\n\"github.com/x/go-bar\"\n)\ntype T struct {\nA yaml.Node\nB foo.X\nC bar.Y\n}\n",
    );
    let f = fields(ty(&p, "T"));
    assert_eq!(f[0].ty, ext("gopkg.in/yaml.v3", "Node"));
    assert_eq!(f[1].ty, ext("github.com/x/foo/v2", "X"));
    assert_eq!(f[2].ty, ext("github.com/x/go-bar", "Y"));
}

#[test]
fn type_definitions_and_aliases() {
    let p = load_ok(
        r#"package p

type S string
type A = string
type N Other
type P *int
type L []S
type Arr [2 * N]int
type M map[string][]*S
type C chan<- int
type R <-chan int
type F func(a, b int) (string, error)
type G func() error
type I interface {
	M() string
	fmt.Stringer
	~int | ~string
}
type E interface{}
type Any any
type Par (int)
type (
	X int
	Y = X
)
"#,
    );
    let def = |n: &str| ty(&p, n).def.clone();
    assert_eq!(def("S"), builtin(Builtin::String));
    assert!(ty(&p, "A").is_alias && !ty(&p, "S").is_alias);
    assert_eq!(def("N"), local("Other"));
    assert_eq!(def("P"), TypeRef::Pointer(Box::new(builtin(Builtin::Int))));
    assert_eq!(def("L"), TypeRef::Slice(Box::new(local("S"))));
    assert_eq!(
        def("Arr"),
        TypeRef::Array {
            len: "2 * N".into(),
            elem: Box::new(builtin(Builtin::Int))
        }
    );
    assert_eq!(
        def("M"),
        TypeRef::Map {
            key: Box::new(builtin(Builtin::String)),
            value: Box::new(TypeRef::Slice(Box::new(TypeRef::Pointer(Box::new(local(
                "S"
            ))))))
        }
    );
    assert_eq!(def("C"), TypeRef::Unsupported("chan".into()));
    assert_eq!(def("R"), TypeRef::Unsupported("chan".into()));
    assert_eq!(def("F"), TypeRef::Unsupported("func".into()));
    assert_eq!(def("G"), TypeRef::Unsupported("func".into()));
    assert_eq!(def("I"), TypeRef::Interface);
    assert_eq!(def("E"), TypeRef::Interface);
    assert_eq!(def("Any"), builtin(Builtin::Any));
    assert_eq!(def("Par"), builtin(Builtin::Int));
    assert_eq!(def("Y"), local("X"));
    assert!(ty(&p, "Y").is_alias);
    let names: Vec<&str> = p.types.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names.len(), 17);
    assert_eq!(names[..3], ["S", "A", "N"]);
}

#[test]
fn generic_types_are_flagged() {
    let p = load_ok(
        r#"package p

type List[T any] []T
type Pair[K comparable, V any] struct { Key K; Value V }
type Num[T ~int | ~int64] struct{ V T }
type Arr [N]int
type Arr2 [N * 2]int
type Q[T interface{ ~int }] T
type Inst List[string]
type Qual p2.Generic[int, map[string]X]
"#
        .replace("package p\n", "package p\n\nimport \"example.com/p2\"\n")
        .as_str(),
    );
    for name in ["List", "Pair", "Num", "Q"] {
        assert!(ty(&p, name).is_generic, "{name}");
    }
    for name in ["Arr", "Arr2", "Inst", "Qual"] {
        assert!(!ty(&p, name).is_generic, "{name}");
    }
    assert_eq!(fields(ty(&p, "Pair")).len(), 2);
    assert_eq!(
        ty(&p, "Inst").def,
        TypeRef::Named(NamedRef {
            package: PKG.into(),
            name: "List".into(),
            type_args: vec![builtin(Builtin::String)],
        })
    );
    let TypeRef::Named(q) = &ty(&p, "Qual").def else {
        panic!()
    };
    assert_eq!(q.type_args.len(), 2);
}

#[test]
fn struct_fields_embedding_and_tags() {
    let p = load_ok(
        r#"package p

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type T struct {
	metav1.TypeMeta `json:",inline"`
	// +k8s:optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	*Local
	*metav1.ListMeta
	Gen[int]
	GenQ metav1.List[T]
	A, B int "json:\"ab\""
	Arr [3]string
	Slice []Gen[int]
	Ptr *struct {
		Inner string `json:"inner"`
	}
	Anon struct{}
	F func()
	Ch chan int
	I interface{ M() }
	unexported string
	Δ int
	error
}
"#,
    );
    let f = fields(ty(&p, "T"));
    let names: Vec<&str> = f.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "TypeMeta",
            "ObjectMeta",
            "Local",
            "ListMeta",
            "Gen",
            "GenQ",
            "A",
            "B",
            "Arr",
            "Slice",
            "Ptr",
            "Anon",
            "F",
            "Ch",
            "I",
            "unexported",
            "Δ",
            "error"
        ]
    );
    let meta = "k8s.io/apimachinery/pkg/apis/meta/v1";
    assert!(f[0].embedded && f[0].json_name().is_none());
    assert_eq!(
        f[0].json,
        Some(JsonTag {
            name: String::new(),
            options: vec!["inline".into()]
        })
    );
    assert_eq!(f[1].json_name(), Some("metadata"));
    assert_eq!(
        f[1].json.as_ref().map(|j| j.options.clone()),
        Some(vec!["omitempty".to_string()])
    );
    assert_eq!(texts(&f[1].tags), ["k8s:optional"]);
    assert_eq!(f[1].description, "");
    assert_eq!(f[1].ty, ext(meta, "ObjectMeta"));
    assert_eq!(f[2].ty, TypeRef::Pointer(Box::new(local("Local"))));
    assert!(f[2].embedded);
    assert_eq!(f[3].ty, TypeRef::Pointer(Box::new(ext(meta, "ListMeta"))));
    assert!(f[4].embedded);
    assert!(!f[5].embedded);
    assert_eq!(f[6].json.as_ref().map(|j| j.name.as_str()), Some("ab"));
    assert_eq!(f[7].json, f[6].json);
    assert_eq!(
        (f[6].json_name(), f[7].json_name()),
        (Some("ab"), Some("ab"))
    );
    assert_eq!(f[7].ty, builtin(Builtin::Int));
    assert!(matches!(f[8].ty, TypeRef::Array { ref len, .. } if len == "3"));
    assert!(!f[9].embedded);
    let TypeRef::Pointer(inner) = &f[10].ty else {
        panic!()
    };
    let TypeRef::Struct(inner) = &**inner else {
        panic!()
    };
    assert_eq!(inner.fields[0].json_name(), Some("inner"));
    assert_eq!(f[11].ty, TypeRef::Struct(StructType::default()));
    assert_eq!(f[12].ty, TypeRef::Unsupported("func".into()));
    assert_eq!(f[13].ty, TypeRef::Unsupported("chan".into()));
    assert_eq!(f[14].ty, TypeRef::Interface);
    assert!(!f[15].is_exported());
    assert!(f[16].is_exported());
    assert_eq!(f[16].json_name(), Some("Δ"));
    assert!(f[17].embedded);
    assert_eq!(f[17].ty, builtin(Builtin::Error));
    assert_eq!(f[0].loc.line, 6);
    assert_eq!(f[0].loc.col, 9);
}

#[test]
fn json_names_follow_spec() {
    let p = load_ok(
        "package p\ntype T struct {\nS string\nJ string `json:\"j,omitempty\"`\nD string `json:\"-\"`\nE string `json:\",omitempty\"`\nEmb\nEmbT Emb2 `json:\"emb\"`\nW string `json:\"w   \"`\n}\n",
    );
    let f = fields(ty(&p, "T"));
    let json: Vec<Option<&str>> = f.iter().map(Field::json_name).collect();
    assert_eq!(
        json,
        [
            Some("S"),
            Some("j"),
            None,
            None,
            None,
            Some("emb"),
            Some("w   ")
        ]
    );
}

#[test]
fn doc_comments_closest_and_second_closest() {
    let p = load_ok(
        r#"package p

// +k8s:validation-gen=false

// Closest doc.
// +k8s:supportsSubresource="/status"
type A struct {
	// Field doc.
	// +k8s:required
	F string `json:"f"`

	// Not attached: blank line below.

	G string
	H string // trailing
	I string
}

// +k8s:validation-gen=true
type B int

type (
	// In-group doc.
	C string

	// +k8s:detached

	// D doc.
	D string
)

// +k8s:aboveGroup
type (
	E int
)

/*
Block doc.
*/
type F int
"#,
    );
    let a = ty(&p, "A");
    assert_eq!(a.description, "Closest doc.");
    assert_eq!(texts(&a.tags), ["k8s:supportsSubresource=\"/status\""]);
    assert_eq!(texts(&a.detached_tags), ["k8s:validation-gen=false"]);
    let f = fields(a);
    assert_eq!(f[0].description, "Field doc.");
    assert_eq!(texts(&f[0].tags), ["k8s:required"]);
    assert!(f[1].tags.is_empty() && f[1].description.is_empty());
    assert!(f[2].tags.is_empty() && f[2].description.is_empty());
    // gengo indexes comment groups by their last line: a trailing comment on the line
    // above is the next field's doc.
    assert_eq!(f[3].description, "trailing");
    let b = ty(&p, "B");
    assert_eq!(texts(&b.tags), ["k8s:validation-gen=true"]);
    assert!(b.detached_tags.is_empty());
    assert_eq!(ty(&p, "C").description, "In-group doc.");
    let d = ty(&p, "D");
    assert_eq!(d.description, "D doc.");
    assert_eq!(texts(&d.detached_tags), ["k8s:detached"]);
    // The spec's own line decides: `E` sits two lines below the comment.
    let e = ty(&p, "E");
    assert!(e.tags.is_empty() && e.description.is_empty());
    assert_eq!(texts(&e.detached_tags), ["k8s:aboveGroup"]);
    assert_eq!(ty(&p, "F").description, "Block doc.");
    // A tag's location is the first byte after its `+`.
    let line = &a.tags.lines[0];
    assert_eq!((line.loc.line, line.loc.col), (6, 5));
    assert_eq!(
        &p.files[0].text[line.loc.offset as usize..][..line.text.len()],
        line.text
    );
    assert!(line.parsed.is_ok());
}

#[test]
fn package_doc_collects_everything_above_package() {
    let files = [
        (
            PathBuf::from("doc.go"),
            "/*\nLicense.\n*/\n\n// +k8s:validation-gen=TypesWithField=TypeMeta\n// +k8s:validation-gen-scheme-registry=x.Scheme\n\n// This is a test package.\n// +k8s:validation-gen-nolint\npackage p // trailing\n\n// +k8s:notPackage\ntype T int\n"
                .to_string(),
        ),
        (
            PathBuf::from("types.go"),
            "// Second file.\n// +k8s:second\npackage p\n".to_string(),
        ),
    ];
    let (p, d) = load_sources(PKG, &files);
    assert!(d.is_empty(), "{}", render(&d));
    assert_eq!(
        texts(&p.tags),
        [
            "k8s:validation-gen=TypesWithField=TypeMeta",
            "k8s:validation-gen-scheme-registry=x.Scheme",
            "k8s:validation-gen-nolint",
            "k8s:second"
        ]
    );
    assert_eq!(p.tags.lines[3].loc.file, 1);
    assert_eq!(texts(&ty(&p, "T").tags), ["k8s:notPackage"]);
}

#[test]
fn constants_with_iota_and_repetition() {
    let p = load_ok(
        r#"package p

type Phase string

const (
	// Running doc.
	PodRunning Phase = "Running"
	PodFailed  Phase = `Failed`
)

const Single = 42

type Bits uint

const (
	A Bits = 1 << iota
	B
	_
	D
)

const (
	KB = 1 << (10 * (iota + 1))
	MB
)

const (
	X, Y = iota, iota * 10
	Z, W
)

const (
	Zero = iota
	One
	Str = "s"
	Str2
	Next = iota
)

const Typed = Phase("Pending")
const FromOther = PodRunning
const Big = 1 << 100
const Expr = len("abc")
const Fl float64 = 3
const Ch = 'x'
const Neg = -5
const Hex = 0xFF
const Truth = 1 < 2
"#,
    );
    let c = |n: &str| {
        p.consts
            .iter()
            .find(|c| c.name == n)
            .unwrap_or_else(|| panic!("const {n} missing"))
    };
    assert_eq!(c("PodRunning").value, ConstValue::String("Running".into()));
    assert_eq!(c("PodRunning").ty, Some(local("Phase")));
    assert_eq!(c("PodRunning").description, "Running doc.");
    assert_eq!(c("PodFailed").value, ConstValue::String("Failed".into()));
    assert_eq!(c("Single").value, ConstValue::Int(42));
    assert_eq!(c("Single").ty, None);
    assert_eq!(c("A").value, ConstValue::Int(1));
    assert_eq!(c("B").value, ConstValue::Int(2));
    assert_eq!(c("B").ty, Some(local("Bits")));
    assert_eq!(c("D").value, ConstValue::Int(8));
    assert!(p.consts.iter().all(|c| c.name != "_"));
    assert_eq!(c("KB").value, ConstValue::Int(1024));
    assert_eq!(c("MB").value, ConstValue::Int(1 << 20));
    assert_eq!(
        [c("X"), c("Y"), c("Z"), c("W")].map(|c| c.value.clone()),
        [0, 0, 1, 10].map(ConstValue::Int)
    );
    assert_eq!(c("Zero").value, ConstValue::Int(0));
    assert_eq!(c("One").value, ConstValue::Int(1));
    assert_eq!(c("Str2").value, ConstValue::String("s".into()));
    assert_eq!(c("Next").value, ConstValue::Int(4));
    assert_eq!(c("Typed").value, ConstValue::String("Pending".into()));
    assert_eq!(c("Typed").ty, Some(local("Phase")));
    assert_eq!(c("FromOther").value, ConstValue::String("Running".into()));
    assert_eq!(c("FromOther").ty, Some(local("Phase")));
    assert_eq!(c("Big").value, ConstValue::Int(1 << 100));
    assert_eq!(c("Expr").value, ConstValue::Expr("len(\"abc\")".into()));
    assert_eq!(c("Fl").value, ConstValue::Float(3.0));
    assert_eq!(c("Ch").value, ConstValue::Int('x' as i128));
    assert_eq!(c("Neg").value, ConstValue::Int(-5));
    assert_eq!(c("Hex").value, ConstValue::Int(255));
    assert_eq!(c("Truth").value, ConstValue::Bool(true));
}

#[test]
fn constants_referring_across_files() {
    let files = [
        (
            PathBuf::from("a.go"),
            "package p\nconst A = B\nconst C = A\n".to_string(),
        ),
        (
            PathBuf::from("b.go"),
            "package p\ntype T string\nconst B T = \"b\"\n".to_string(),
        ),
    ];
    let (p, d) = load_sources(PKG, &files);
    assert!(d.is_empty(), "{}", render(&d));
    for name in ["A", "C"] {
        let c = p.consts.iter().find(|c| c.name == name).unwrap();
        assert_eq!(c.value, ConstValue::String("b".into()));
        assert_eq!(c.ty, Some(local("T")));
    }
}

#[test]
fn var_and_func_declarations_are_skipped() {
    let p = load_ok(
        r#"package p

var x = 1
var (
	y, z = 2, 3
	f = func() { if true { return } }
)
var s = struct{ A int }{A: 1}

func F() {}
func (t *T) Method(a int) (int, error) { return 0, nil }
func G[T any](v T) T { return v }
func H() interface{ M() } { return nil }
func I() struct{ A int } { return struct{ A int }{} }
func J() map[string]struct{} { return nil }
func K() func() int { return nil }
func L()
func (T) M() {
	type inner struct{}
	var v inner
	_ = v
}

type T struct{ A int }
"#,
    );
    assert_eq!(p.types.len(), 1);
    assert_eq!(fields(ty(&p, "T")).len(), 1);
}

#[test]
fn local_references_get_package_path_only_via_loader() {
    let (file, d) = parse_file(Path::new("x.go"), "package p\ntype A B\n", 0);
    assert!(d.is_empty());
    assert_eq!(file.types[0].def, ext("", "B"));
    assert_eq!(file.package_name, "p");
}

#[test]
fn build_constraint_is_recorded() {
    let (file, _) = parse_file(
        Path::new("zz.go"),
        "//go:build !ignore_autogenerated\n// +build !ignore_autogenerated\n\npackage p\n",
        0,
    );
    assert_eq!(
        file.build_constraint.as_deref(),
        Some("!ignore_autogenerated")
    );
}

#[test]
fn semicolons_and_one_line_declarations() {
    let p = load_ok(
        "package p; import \"fmt\"; type A struct { X int; Y fmt.Stringer }; const ( B = 1; C ); type D int",
    );
    assert_eq!(fields(ty(&p, "A")).len(), 2);
    assert_eq!(p.consts.len(), 2);
    assert_eq!(p.consts[1].value, ConstValue::Int(1));
    assert!(p.type_decl("D").is_some());
}

#[test]
fn syntax_errors_are_reported_and_parsing_recovers() {
    let (p, d) = load(
        "package p\n\ntype A struct {\n\tX int\n\tY\n\tZ [3 string\n}\n\ntype B int\n\nfunc (x {\n}\n\ntype C }\n\ntype D string\n",
    );
    assert!(!d.is_empty());
    assert!(p.type_decl("B").is_some(), "{}", render(&d));
    assert!(p.type_decl("D").is_some(), "{}", render(&d));
    let first = &d[0];
    let span = first.span.as_ref().unwrap();
    assert_eq!(span.path, PathBuf::from("types.go"));
    assert_eq!(span.line, 6);
    assert_eq!(first.message, "expected ']', found newline");
    let messages: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "expected ']', found newline",
            "expected ')', found 'type'",
            "expected type, found '}'"
        ]
    );
}

#[test]
fn error_messages_name_what_was_found() {
    let cases = [
        (
            "package p\ntype A struct {\n\t1 int\n}\n",
            "expected field name or embedded type, found 1",
        ),
        ("package p\ntype\n", "expected type name, found 'EOF'"),
        ("package p\ntype A", "expected type, found 'EOF'"),
        (
            "package p\ntype A map[string\n",
            "expected ']', found newline",
        ),
        ("package p\nx := 1\n", "expected declaration, found x"),
        ("type A int\n", "expected 'package', found 'type'"),
        ("package p\ntype A int B\n", "expected ';', found B"),
        (
            "package p\nconst A int\n",
            "missing init expr for const declaration",
        ),
        (
            "package p\nconst A, B = 1\n",
            "missing init expr for const declaration",
        ),
        ("package p\nconst A = 1, 2\n", "extra init expr"),
        ("package p\nimport \"\"\n", "invalid import path: \"\""),
        (
            "package p\ntype A struct { X int \"json:\\q\" }\n",
            "invalid struct tag: unknown escape sequence",
        ),
        (
            "package p\ntype A struct { (X) }\n",
            "cannot parenthesize embedded type",
        ),
        (
            "package p\nvar s = \"abc\n",
            "string literal not terminated",
        ),
        (
            "package p\ntype A int\ntype A string\n",
            "A redeclared in this package (previous declaration at types.go:2:6)",
        ),
    ];
    for (src, want) in cases {
        let (_, d) = load(src);
        assert!(
            d.iter().any(|d| d.message == want),
            "{src:?}: want {want:?}, got:\n{}",
            render(&d)
        );
    }
}

#[test]
fn deep_nesting_is_a_diagnostic() {
    let src = format!("package p\ntype A {}int\ntype B int\n", "*".repeat(10_000));
    let (p, d) = load(&src);
    assert_eq!(count_errors(&d), 1, "{}", render(&d));
    assert!(d[0].message.contains("nesting exceeds"));
    assert!(p.type_decl("B").is_some());
    let src = format!(
        "package p\ntype A {}int{}\n",
        "struct { X ".repeat(300),
        " }".repeat(300)
    );
    let (_, d) = load(&src);
    assert!(d[0].message.contains("nesting exceeds"));
}

#[test]
fn diagnostics_are_capped() {
    let src = format!("package p\n{}", "type 1\n".repeat(1000));
    let (_, d) = load(&src);
    assert!(d.len() <= 101);
    assert!(d.last().unwrap().message.contains("too many errors"));
}

#[test]
fn mixed_package_names_are_reported() {
    let files = [
        (PathBuf::from("a.go"), "package a\n".to_string()),
        (PathBuf::from("b.go"), "package b\n".to_string()),
    ];
    let (_, d) = load_sources(PKG, &files);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].message, "found packages a and b in the same directory");
    assert_eq!(d[0].span.as_ref().unwrap().path, PathBuf::from("b.go"));
}

#[test]
fn crlf_sources() {
    let p = load_ok("package p\r\n\r\n// doc\r\ntype A struct {\r\n\tX int `json:\"x\"`\r\n}\r\n");
    let a = ty(&p, "A");
    assert_eq!(a.description, "doc");
    assert_eq!(fields(a)[0].json_name(), Some("x"));
}

#[test]
fn guessing_package_names() {
    assert_eq!(guess_package_names("fmt"), ["fmt"]);
    assert_eq!(guess_package_names("k8s.io/api/core/v1")[0], "v1");
    assert!(guess_package_names("k8s.io/api/core/v1").contains(&"core".to_string()));
    assert!(guess_package_names("gopkg.in/yaml.v3").contains(&"yaml".to_string()));
    assert!(guess_package_names("github.com/a/go-bar").contains(&"bar".to_string()));
    assert!(guess_package_names("github.com/a/bar-go").contains(&"bar".to_string()));
    assert!(guess_package_names("").is_empty());
}

#[test]
fn loads_from_disk_with_go_mod() {
    let scratch = Scratch::new("go-test");
    let root = scratch.path();
    let write = |rel: &str, text: &str| {
        scratch.write(rel, text);
    };
    write("go.mod", "module example.com/m\n\ngo 1.22\n");
    write(
        "api/v1/types.go",
        "package v1\nimport \"example.com/m/api/common\"\nimport \"k8s.io/x\"\ntype T struct { C common.C; X x.Y }\n",
    );
    write("api/v1/types_test.go", "package v1\ntype Ignored int\n");
    write(
        "api/v1/zz_generated.go",
        "//go:build !ignore_autogenerated\n\npackage v1\ntype Generated int\n",
    );
    write("api/v1/x_windows.go", "package v1\ntype Win int\n");
    write(
        "api/common/common.go",
        "package common\nimport \"example.com/m/api/deep\"\ntype C deep.D\n",
    );
    write("api/deep/deep.go", "package deep\ntype D string\n");
    write("api/empty/README", "");

    let (p, d) = load_package(&root.join("api/v1")).unwrap();
    assert!(d.is_empty(), "{}", render(&d));
    assert_eq!(p.path, "example.com/m/api/v1");
    assert_eq!(p.name, "v1");
    assert_eq!(p.files.len(), 1);
    let names: Vec<&str> = p.types.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["T"]);

    let (u, d) = load_universe(&root.join("api/v1")).unwrap();
    assert!(d.is_empty(), "{}", render(&d));
    let keys: Vec<&str> = u.packages.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "example.com/m/api/common",
            "example.com/m/api/deep",
            "example.com/m/api/v1"
        ]
    );
    let TypeRef::Struct(s) = &u.type_decl("example.com/m/api/v1", "T").unwrap().def else {
        panic!()
    };
    let TypeRef::Named(c) = &s.fields[0].ty else {
        panic!()
    };
    assert_eq!(u.resolve(c).unwrap().name, "C");

    assert!(matches!(
        load_package(&root.join("api/empty")),
        Err(LoadError::NoGoFiles { .. })
    ));
    assert!(matches!(
        load_package(&root.join("missing")),
        Err(LoadError::Io { .. })
    ));
}

#[test]
fn shared_copies_are_bounded() {
    // Many names sharing one large type and one large doc comment: the model copies both
    // per name, so the parser stops copying once a budget linear in the input is spent.
    let names: Vec<String> = (0..20_000).map(|i| format!("F{i}")).collect();
    let fields: String = (0..2_000).map(|i| format!("X{i} int; ")).collect();
    let doc = format!("// {}\n", "x".repeat(200_000));
    let src = format!(
        "package p\ntype T struct {{\n{doc}{} struct {{ {fields} }}\n}}\n",
        names.join(", ")
    );
    let start = std::time::Instant::now();
    let (p, d) = load(&src);
    assert!(start.elapsed().as_secs() < 5, "took {:?}", start.elapsed());
    assert!(
        d[0].message.contains("repeat too much shared text"),
        "{}",
        render(&d)
    );
    assert!(p.type_decl("T").is_some());

    let src = format!(
        "package p\nconst (\n\tA = {}\n{}\n)\n",
        "1 + ".repeat(20_000) + "1",
        "\tB\n".repeat(20_000)
    );
    let (p, d) = load(&src);
    assert!(
        d[0].message.contains("repeat too much shared text"),
        "{}",
        render(&d)
    );
    assert!(p.consts.len() < 20_000);
    assert_eq!(p.consts[0].value, ConstValue::Int(20_001));
}

#[test]
fn well_known_packages_parse_cleanly() {
    for path in crate::well_known_paths() {
        let (p, d) = crate::well_known_package(path).expect("well known");
        assert!(d.is_empty(), "{path}: {}", render(&d));
        assert_eq!(p.path, path);
        assert!(!p.types.is_empty(), "{path}");
    }
    assert!(crate::well_known_package("k8s.io/api/core/v1").is_none());
    let (meta, _) = crate::well_known_package(crate::well_known::METAV1).unwrap();
    let object_meta = ty(&meta, "ObjectMeta");
    let json: Vec<Option<&str>> = fields(object_meta).iter().map(|f| f.json_name()).collect();
    assert!(json.contains(&Some("ownerReferences")));
    assert!(json.contains(&Some("creationTimestamp")));
    let owner = ty(&meta, "OwnerReference");
    let uid = fields(owner).iter().find(|f| f.name == "UID").unwrap();
    assert_eq!(uid.ty, ext("k8s.io/apimachinery/pkg/types", "UID"));
}

#[test]
fn load_universe_adds_unresolved_well_known_imports() {
    let scratch = Scratch::new("go-wk");
    let root = scratch.path();
    std::fs::create_dir_all(root.join("api")).unwrap();
    std::fs::write(root.join("go.mod"), "module example.com/m\n").unwrap();
    std::fs::write(
        root.join("api/types.go"),
        "package api\n\nimport (\n\tmetav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\t\"k8s.io/apimachinery/pkg/util/intstr\"\n\t\"k8s.io/other/pkg\"\n)\n\ntype T struct {\n\tmetav1.TypeMeta `json:\",inline\"`\n\tmetav1.ObjectMeta `json:\"metadata\"`\n\tPort intstr.IntOrString `json:\"port\"`\n\tX pkg.X `json:\"x\"`\n}\n",
    )
    .unwrap();
    let (u, d) = load_universe(&root.join("api")).unwrap();
    assert!(d.is_empty(), "{}", render(&d));
    let keys: Vec<&str> = u.packages.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "example.com/m/api",
            // Imported by metav1.
            "k8s.io/apimachinery/pkg/apis/meta/v1",
            "k8s.io/apimachinery/pkg/types",
            "k8s.io/apimachinery/pkg/util/intstr",
        ]
    );
    assert!(
        u.type_decl("k8s.io/apimachinery/pkg/apis/meta/v1", "ObjectMeta")
            .is_some()
    );
}

#[test]
fn load_universe_evaluates_constants_of_imported_packages() {
    let scratch = Scratch::new("go-consts");
    let root = scratch.path();
    std::fs::create_dir_all(root.join("core/v1")).unwrap();
    std::fs::create_dir_all(root.join("discovery/v1")).unwrap();
    std::fs::write(root.join("go.mod"), "module example.com/m\n").unwrap();
    std::fs::write(
        root.join("core/v1/types.go"),
        "package v1\n\ntype IPFamily string\n\nconst IPv4Protocol IPFamily = \"IPv4\"\n",
    )
    .unwrap();
    std::fs::write(
        root.join("discovery/v1/types.go"),
        "package v1\n\nimport v1 \"example.com/m/core/v1\"\n\ntype AddressType string\n\nconst AddressTypeIPv4 = AddressType(v1.IPv4Protocol)\n",
    )
    .unwrap();
    let dir = root.join("discovery/v1");
    // One package alone cannot know the imported constant...
    let (p, d) = load_package(&dir).unwrap();
    assert!(d.is_empty(), "{}", render(&d));
    assert_eq!(
        p.consts[0].value,
        ConstValue::Expr("AddressType(v1.IPv4Protocol)".into())
    );
    // ...the universe does.
    let (u, d) = load_universe(&dir).unwrap();
    assert!(d.is_empty(), "{}", render(&d));
    let c = &u.packages["example.com/m/discovery/v1"].consts[0];
    assert_eq!(c.value, ConstValue::String("IPv4".into()));
    assert_eq!(c.ty, Some(ext("example.com/m/discovery/v1", "AddressType")));
}
