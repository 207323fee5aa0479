use super::*;

fn load(src: &str) -> Loaded {
    from_items_in("example.com/v1", "v1", "types.rs", src)
}

fn clean(src: &str) -> Package {
    let l = load(src);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    l.package
}

fn named(name: &str) -> TypeRef {
    TypeRef::Named(NamedRef {
        package: "example.com/v1".into(),
        name: name.into(),
        type_args: Vec::new(),
    })
}

fn fields(p: &Package, ty: &str) -> Vec<Field> {
    match p.type_decl(ty).map(|t| &t.def) {
        Some(TypeRef::Struct(s)) => s.fields.clone(),
        other => panic!("{ty}: {other:?}"),
    }
}

/// The one diagnostic of `src`, rendered, and its line and column.
fn one_error(src: &str) -> (String, u32, u32) {
    let l = load(src);
    assert_eq!(l.diagnostics.len(), 1, "{:#?}", l.diagnostics);
    let d = &l.diagnostics[0];
    let s = d.span.as_ref().expect("a span");
    (d.message.clone(), s.line, s.col)
}

#[test]
fn doc_tags_are_located_and_the_rest_is_description() {
    let src = "/// A thing.\n///\n/// +k8s:enum\npub struct A {\n    /// The count.\n    ///   +k8s:minimum=1\n    pub count: i32,\n}\n";
    let p = clean(src);
    let a = p.type_decl("A").expect("A");
    assert_eq!(a.description, "A thing.");
    assert_eq!(a.tags.lines.len(), 1);
    let t = &a.tags.lines[0];
    assert_eq!((t.name.as_str(), t.text.as_str()), ("k8s:enum", "k8s:enum"));
    assert_eq!((t.loc.line, t.loc.col), (3, 6));
    assert_eq!(&src[t.loc.offset as usize..][..8], "k8s:enum");
    let f = &fields(&p, "A")[0];
    assert_eq!(f.description, "The count.");
    let t = &f.tags.lines[0];
    assert_eq!(t.text, "k8s:minimum=1");
    assert!(t.parsed.is_ok());
    assert_eq!((t.loc.line, t.loc.col), (6, 12));
    assert_eq!(&src[t.loc.offset as usize..][..11], "k8s:minimum");
    assert_eq!((a.loc.line, a.loc.col), (4, 12));
}

#[test]
fn columns_count_bytes_after_non_ascii_text() {
    let src = "/* é */ /// +k8s:enum\npub struct A { /* ü */ pub x: i32 }\n";
    let p = clean(src);
    let a = p.type_decl("A").expect("A");
    assert_eq!(a.tags.lines[0].loc.col, 15);
    let f = &fields(&p, "A")[0];
    assert_eq!((f.loc.line, f.loc.col), (2, 29));
    assert_eq!(&src[f.loc.offset as usize..][..1], "x");
}

#[test]
fn inner_doc_lines_are_package_tags() {
    let p = clean("//! Package v1.\n//!\n//! +k8s:validation-gen=*\n//! +groupName=x.dev\n");
    assert_eq!(p.tags.raw_values("k8s:validation-gen"), ["*"]);
    assert_eq!(p.tags.raw_values("groupName"), ["x.dev"]);
    assert_eq!(p.tags.lines[0].loc.line, 3);
    assert_eq!((p.path.as_str(), p.name.as_str()), ("example.com/v1", "v1"));
    assert_eq!(p.files[0].path, PathBuf::from("types.rs"));
    let q = from_items("src/widget.rs", "");
    assert_eq!(q.package.path, "widget");
}

#[test]
fn other_doc_forms_are_located_at_their_attribute() {
    let p = clean("#[doc = \" +k8s:enum\"]\n/** Desc.\n +k8s:x */\npub struct A { x: i32 }\n");
    let a = p.type_decl("A").expect("A");
    let names: Vec<_> = a
        .tags
        .lines
        .iter()
        .map(|t| (t.name.as_str(), t.loc.line))
        .collect();
    assert_eq!(names, [("k8s:enum", 1), ("k8s:x", 2)]);
    assert_eq!(a.description, "Desc.");
}

#[test]
fn field_types_map_to_go_types() {
    let p = clean(
        "use std::collections::{BTreeMap, HashMap};\n\
         pub struct B { x: i32 }\n\
         pub struct A {\n\
           s: String, b: bool, i8: i8, i16: i16, i: i32, l: i64, n: isize,\n\
           u8: u8, u16: u16, u32: u32, u64: u64, us: usize, f32: f32, f: f64,\n\
           any: serde_json::Value, any2: Value,\n\
           opt: Option<i32>, bx: Box<B>, ob: Option<Box<B>>, v: Vec<B>, ov: Option<Vec<String>>,\n\
           m: BTreeMap<String, B>, h: std::collections::HashMap<String, Vec<i64>>,\n\
           om: Option<HashMap<String, String>>, local: B,\n\
         }\n",
    );
    let f = fields(&p, "A");
    let b = |x| TypeRef::Builtin(x);
    let got: Vec<(&str, &TypeRef)> = f.iter().map(|f| (f.name.as_str(), &f.ty)).collect();
    let bx = |t: TypeRef| Box::new(t);
    let want = vec![
        ("S", b(Builtin::String)),
        ("B", b(Builtin::Bool)),
        ("I8", b(Builtin::Int8)),
        ("I16", b(Builtin::Int16)),
        ("I", b(Builtin::Int32)),
        ("L", b(Builtin::Int64)),
        ("N", b(Builtin::Int)),
        ("U8", b(Builtin::Uint8)),
        ("U16", b(Builtin::Uint16)),
        ("U32", b(Builtin::Uint32)),
        ("U64", b(Builtin::Uint64)),
        ("Us", b(Builtin::Uint)),
        ("F32", b(Builtin::Float32)),
        ("F", b(Builtin::Float64)),
        ("Any", b(Builtin::Any)),
        ("Any2", b(Builtin::Any)),
        ("Opt", TypeRef::Pointer(bx(b(Builtin::Int32)))),
        ("Bx", named("B")),
        ("Ob", TypeRef::Pointer(bx(named("B")))),
        ("V", TypeRef::Slice(bx(named("B")))),
        ("Ov", TypeRef::Slice(bx(b(Builtin::String)))),
        (
            "M",
            TypeRef::Map {
                key: bx(b(Builtin::String)),
                value: bx(named("B")),
            },
        ),
        (
            "H",
            TypeRef::Map {
                key: bx(b(Builtin::String)),
                value: bx(TypeRef::Slice(bx(b(Builtin::Int64)))),
            },
        ),
        (
            "Om",
            TypeRef::Map {
                key: bx(b(Builtin::String)),
                value: bx(b(Builtin::String)),
            },
        ),
        ("Local", named("B")),
    ];
    let want: Vec<(&str, &TypeRef)> = want.iter().map(|(n, t)| (*n, t)).collect();
    assert_eq!(got, want);
    // Fields are exported, named in JSON as written.
    assert!(f.iter().all(|f| f.is_exported()));
    assert_eq!(f[0].json_name(), Some("s"));
}

#[test]
fn newtypes_are_type_definitions() {
    let p =
        clean("/// +k8s:maxLength=3\npub struct Short(String);\npub struct Many(Vec<Short>);\n");
    let s = p.type_decl("Short").expect("Short");
    assert_eq!(s.def, TypeRef::Builtin(Builtin::String));
    assert!(!s.is_alias);
    assert_eq!(s.tags.lines[0].name, "k8s:maxLength");
    assert_eq!(
        p.type_decl("Many").map(|t| &t.def),
        Some(&TypeRef::Slice(Box::new(named("Short"))))
    );
}

#[test]
fn unit_enums_are_string_types_with_constants() {
    let p = clean(
        "/// +k8s:enum\n#[serde(rename_all = \"kebab-case\")]\npub enum Mode {\n\
         /// The first.\n    FastPath,\n    #[serde(rename = \"slow\")]\n    Slow,\n\
         /// +k8s:enumExclude\n    Legacy = 7,\n    #[serde(skip)]\n    Internal,\n}\n\
         pub enum Plain { A, Bc }\n",
    );
    let m = p.type_decl("Mode").expect("Mode");
    assert_eq!(m.def, TypeRef::Builtin(Builtin::String));
    let consts: Vec<(&str, &ConstValue)> = p
        .consts
        .iter()
        .map(|c| (c.name.as_str(), &c.value))
        .collect();
    let s = |v: &str| ConstValue::String(v.into());
    assert_eq!(
        consts,
        [
            ("Mode::FastPath", &s("fast-path")),
            ("Mode::Slow", &s("slow")),
            ("Mode::Legacy", &s("legacy")),
            ("Plain::A", &s("A")),
            ("Plain::Bc", &s("Bc")),
        ]
    );
    assert_eq!(p.consts[0].description, "The first.");
    assert_eq!(p.consts[0].ty, Some(named("Mode")));
    assert_eq!(p.consts[2].tags.lines[0].name, "k8s:enumExclude");
}

#[test]
fn serde_attributes_give_json_tags() {
    let p = clean(
        "pub struct Meta { kind: String }\n\
         #[serde(rename_all = \"camelCase\", deny_unknown_fields)]\npub struct A {\n\
           storage_class: String,\n\
           #[serde(rename = \"X-Y\")] x_y: String,\n\
           #[serde(rename(deserialize = \"de\"))] renamed: String,\n\
           #[serde(default, skip_serializing_if = \"Option::is_none\")] opt: Option<i32>,\n\
           #[serde(default)] plain: i32,\n\
           #[serde(skip)] cache: std::cell::Cell<u8>,\n\
           #[serde(skip_deserializing)] out: String,\n\
           #[serde(flatten)] meta: Meta,\n\
           r#type: String,\n\
         }\n",
    );
    let f = fields(&p, "A");
    let tags: Vec<(&str, Option<&str>, Vec<&str>, bool)> = f
        .iter()
        .map(|f| {
            let j = f.json.as_ref().expect("json tag");
            (
                f.name.as_str(),
                f.json_name(),
                j.options.iter().map(String::as_str).collect(),
                f.embedded,
            )
        })
        .collect();
    assert_eq!(
        tags,
        [
            ("StorageClass", Some("storageClass"), vec![], false),
            ("XY", Some("X-Y"), vec![], false),
            ("Renamed", Some("de"), vec![], false),
            ("Opt", Some("opt"), vec!["omitempty"], false),
            ("Plain", Some("plain"), vec![], false),
            ("Cache", None, vec![], false),
            ("Out", None, vec![], false),
            ("Meta", None, vec!["inline"], true),
            ("Type", Some("type"), vec![], false),
        ]
    );
    assert_eq!(f[5].json.as_ref().map(|j| j.name.as_str()), Some("-"));
    assert_eq!(f[7].ty, named("Meta"));
}

#[test]
fn unsupported_items_are_diagnosed_at_their_span() {
    let cases: &[(&str, &str, u32, u32)] = &[
        (
            "pub struct G<T> { x: T }",
            "generic types are not supported",
            1,
            13,
        ),
        (
            "pub struct T(i32, i32);",
            "tuple structs of 2 fields",
            1,
            13,
        ),
        ("pub struct U;", "unit structs are not supported", 1, 12),
        (
            "pub enum E { A, B(i32) }",
            "variant A must hold one value",
            1,
            14,
        ),
        (
            "pub enum E { A(i32, i32) }",
            "variant A must hold exactly one value",
            1,
            15,
        ),
        (
            "#[serde(tag = \"t\")]\npub enum E { A }",
            "adjacently tagged and untagged enums have no Kubernetes shape",
            1,
            9,
        ),
        (
            "#[serde(untagged)]\npub struct S { x: i32 }",
            "applies to enums only",
            1,
            9,
        ),
        (
            "pub struct S { x: &'static str }",
            "unsupported type `&'static str`",
            1,
            19,
        ),
        (
            "pub struct S { x: other::T }",
            "unsupported type `other::T`: only types declared",
            1,
            19,
        ),
        (
            "pub struct S { x: Missing }",
            "unsupported type `Missing`",
            1,
            19,
        ),
        ("pub struct S { x: char }", "Go's rune is a number", 1, 19),
        ("pub struct S { x: Vec<u8> }", "base64", 1, 19),
        ("pub struct S { x: u128 }", "128-bit", 1, 19),
        (
            "pub struct S { x: HashMap<i32, i32> }",
            "map keys must be String",
            1,
            19,
        ),
        (
            "pub struct S { x: Option<Option<i32>> }",
            "an Option of an Option",
            1,
            19,
        ),
        ("pub struct S { x: [i32; 3] }", "only named types", 1, 19),
        (
            "pub struct S { x: String<i32> }",
            "unexpected type arguments",
            1,
            19,
        ),
        (
            "pub struct S { #[serde(with = \"m\")] x: i32 }",
            "serde attribute `with` is not supported",
            1,
            24,
        ),
        (
            "pub struct S { #[serde(flatten)] x: Vec<i32> }",
            "#[serde(flatten)] is supported on a struct type",
            1,
            37,
        ),
        (
            "#[serde(rename_all = \"Title\")]\npub struct S { x: i32 }",
            "unknown rename_all rule \"Title\"",
            1,
            9,
        ),
        (
            "pub struct S { #[serde(rename(serialize = \"a\", deserialize = \"b\"))] x: i32 }",
            "inputs are read with \"b\"",
            1,
            24,
        ),
        (
            "pub struct S { #[serde(rename = 1)] x: i32 }",
            "invalid serde attribute",
            1,
            33,
        ),
        (
            "pub enum E { #[serde(other)] A }",
            "serde attribute `other`",
            1,
            22,
        ),
        (
            "pub struct S { x: i32 ",
            "cannot read the file as Rust tokens",
            1,
            14,
        ),
        (
            "pub struct S {\n  x: \"unterminated }",
            "cannot read the file as Rust tokens",
            2,
            6,
        ),
        ("pub struct S {\n  x: i32 i32 }", "expected `,`", 2, 10),
    ];
    for (src, want, line, col) in cases {
        let (msg, l, c) = one_error(src);
        assert!(msg.contains(want), "{src}: {msg}");
        assert_eq!((l, c), (*line, *col), "{src}: {msg}");
    }
}

#[test]
fn diagnostics_render_with_the_source_line() {
    let l = load("pub struct S {\n    x: Vec<u8>,\n}\n");
    let shown = l.diagnostics[0].to_string();
    assert!(
        shown.starts_with("types.rs:2:8: error: unsupported type `Vec<u8>`"),
        "{shown}"
    );
    assert!(
        shown.ends_with("2 |     x: Vec<u8>,\n  |        ^^^^^^^"),
        "{shown}"
    );
    assert!(l.has_errors());
    assert!(l.clone().into_result().is_err());
    // The rest of the file is still read.
    assert!(l.package.type_decl("S").is_some());
}

#[test]
fn other_items_are_ignored() {
    let p = clean(
        "use a::b;\nfn f() {}\nimpl X {}\nmod m { pub struct Inner { x: char } }\nconst C: i32 = 1;\n",
    );
    assert!(p.types.is_empty() && p.consts.is_empty());
}

#[test]
fn external_types_are_opaque_named_types_when_asked() {
    let src = "pub struct S {\n    a: common::Condition,\n    b: Option<Tier>,\n    c: Vec<x::Tier>,\n    d: Other<i32>,\n}\n";
    let strict = crate::from_items("s.rs", src);
    assert_eq!(strict.diagnostics.len(), 4, "{:?}", strict.diagnostics);
    let loaded = crate::from_items_with(
        "s",
        "s",
        "s.rs",
        src,
        &crate::ReadOptions {
            external_types: true,
        },
    );
    // Generic types stay unsupported.
    assert_eq!(loaded.diagnostics.len(), 1, "{:?}", loaded.diagnostics);
    let names: Vec<(&str, &str)> = loaded
        .external
        .iter()
        .map(|e| (e.name.as_str(), e.path.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("Condition", "common::Condition"),
            ("Tier", "Tier"),
            ("x_Tier", "x::Tier")
        ]
    );
    let decl = loaded.package.type_decl("Condition").expect("declared");
    assert_eq!(decl.def, TypeRef::Builtin(Builtin::Any));
}

#[test]
fn enums_of_one_value_variants_are_unions() {
    let src = "#[serde(rename_all = \"camelCase\")]\npub enum Handler {\n    /// +k8s:required\n    HttpGet(Get),\n    TcpSocket(Option<i32>),\n    Tags(Vec<String>),\n}\npub struct Get { port: i32 }\n";
    let p = clean(src);
    let decl = p.type_decl("Handler").expect("the union");
    let TypeRef::Struct(st) = &decl.def else {
        panic!("a struct: {:?}", decl.def);
    };
    let fields: Vec<(&str, Option<&str>, Vec<&str>)> = st
        .fields
        .iter()
        .map(|f| {
            (
                f.name.as_str(),
                f.json_name(),
                f.tags.lines.iter().map(|t| t.name.as_str()).collect(),
            )
        })
        .collect();
    assert_eq!(
        fields,
        [
            (
                "HttpGet",
                Some("httpGet"),
                vec!["k8s:required", "k8s:optional", "k8s:unionMember"]
            ),
            (
                "TcpSocket",
                Some("tcpSocket"),
                vec!["k8s:optional", "k8s:unionMember"]
            ),
            (
                "Tags",
                Some("tags"),
                vec!["k8s:optional", "k8s:unionMember"]
            ),
        ]
    );
    assert!(matches!(st.fields[0].ty, TypeRef::Pointer(_)));
    assert!(matches!(st.fields[2].ty, TypeRef::Slice(_)));
}

/// `Option` of a newtype of a list or map (also through another newtype) is the newtype
/// itself, nil-able as Go's `type L []T` is; `Option` of a newtype of anything else is a
/// pointer.
#[test]
fn optional_newtypes_of_lists_and_maps_are_nilable_typedefs() {
    let p = clean(
        "use std::collections::BTreeMap;\n\
         pub struct L(Vec<String>);\n\
         pub struct M(BTreeMap<String, i32>);\n\
         pub struct LL(L);\n\
         pub struct S(String);\n\
         pub struct A { l: Option<L>, m: Option<M>, ll: Option<LL>, s: Option<S> }\n",
    );
    let f = fields(&p, "A");
    let got: Vec<(&str, &TypeRef)> = f.iter().map(|f| (f.name.as_str(), &f.ty)).collect();
    assert_eq!(
        got,
        vec![
            ("L", &named("L")),
            ("M", &named("M")),
            ("Ll", &named("LL")),
            ("S", &TypeRef::Pointer(Box::new(named("S")))),
        ]
    );
}

/// `&str` constants of an inherent impl of a `String` newtype are constants of that type
/// (with their doc tags); impls of other types, trait impls and non-string constants are
/// not read.
#[test]
fn string_newtype_impl_consts_are_constants_of_the_type() {
    let p = clean(
        "/// +k8s:enum\n\
         pub struct Kind(String);\n\
         impl Kind {\n\
           /// The basic kind.\n\
           pub const BASIC: &str = \"Basic\";\n\
           /// +k8s:enumExclude\n\
           pub const OLD: &'static str = \"Old\";\n\
           pub const N: i32 = 3;\n\
           pub fn f() {}\n\
         }\n\
         pub struct Other(i32);\n\
         impl Other { pub const X: &str = \"x\"; }\n\
         impl Default for Kind { fn default() -> Kind { Kind(String::new()) } }\n",
    );
    let got: Vec<(&str, &ConstValue, usize)> = p
        .consts
        .iter()
        .map(|c| (c.name.as_str(), &c.value, c.tags.lines.len()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("Kind::BASIC", &ConstValue::String("Basic".into()), 0),
            ("Kind::OLD", &ConstValue::String("Old".into()), 1),
        ]
    );
    assert!(p.consts.iter().all(|c| c.ty == Some(named("Kind"))));
}
