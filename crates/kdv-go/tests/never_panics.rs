//! Property tests: the Go frontend never panics, whatever the input, and what it returns
//! points into the input.

use std::path::{Path, PathBuf};

use kdv_go::Comments;
use kdv_go::{ParsedFile, load_sources, parse_file};
use kdv_model::{Diagnostic, Field, Tags, TypeRef};
use proptest::prelude::*;

const SNIPPET: &str = r#"/*
License header.
*/

// +k8s:validation-gen=TypesWithField=TypeMeta

// Package doc.
package example

import (
	"fmt"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var scheme = fmt.Sprintf("%d", 1)

// +k8s:validation-gen=true

// Thing is a thing.
// +k8s:supportsSubresource="/status"
type Thing struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +k8s:required
	// +k8s:minLength=1
	Name string `json:"name"`
	A, B *int "json:\"ab\""
	Items []Item `json:"items,omitempty"`
	Labels map[string]string `json:"labels"`
	Fixed [2 * N]byte
	Nested struct {
		X int `json:"x"`
	} `json:"nested"`
	Fn func(int) error
	Gen List[Item]
}

type Item struct{ Key string `json:"key"` }

type List[T any] []T

type (
	// Phase is an enum.
	// +k8s:enum
	Phase string
	Alias = Phase
)

const (
	PhaseA Phase = "A"
	PhaseB Phase = `B`
)

const (
	KB = 1 << (10 * (iota + 1))
	MB
	N = 'x' + 0x10
)

func (t *Thing) Method() (int, error) { return 0, nil }

func Generic[T interface{ ~int }](v T) struct{ V T } { return struct{ V T }{v} }
"#;

/// Checks that every location and span the parser produced lies inside `text`.
fn check(text: &str, file: &ParsedFile, diags: &[Diagnostic]) {
    let at = |offset: u32| -> &str {
        text.get(offset as usize..)
            .unwrap_or_else(|| panic!("offset {offset} outside input of {} bytes", text.len()))
    };
    let comments = |c: &Comments| {
        for line in &c.lines {
            assert!(
                at(line.loc.offset).starts_with(&line.text),
                "comment line {:?} not at its offset",
                line.text
            );
            assert!(line.loc.line >= 1 && line.loc.col >= 1);
        }
    };
    let tags = |t: &Tags| {
        for line in &t.lines {
            assert!(
                at(line.loc.offset).starts_with(&line.text),
                "tag {:?} not at its offset",
                line.text
            );
            assert!(line.loc.line >= 1 && line.loc.col >= 1);
        }
    };
    comments(&file.doc);
    for t in &file.types {
        assert!(at(t.loc.offset).starts_with(&t.name));
        tags(&t.tags);
        tags(&t.detached_tags);
        check_type(&t.def, &mut |f| {
            assert!(at(f.loc.offset).starts_with(&f.name));
            tags(&f.tags);
        });
    }
    for c in &file.consts {
        assert!(at(c.loc.offset).starts_with(&c.name));
        tags(&c.tags);
    }
    for d in diags {
        assert!(!d.message.is_empty());
        if let Some(s) = &d.span {
            assert!(s.line >= 1 && s.col >= 1 && s.len >= 1);
            assert!(!s.line_text.contains('\n'));
        }
    }
}

fn check_type(ty: &TypeRef, on_field: &mut dyn FnMut(&Field)) {
    match ty {
        TypeRef::Struct(s) => {
            for f in &s.fields {
                on_field(f);
                check_type(&f.ty, on_field);
            }
        }
        TypeRef::Pointer(t) | TypeRef::Slice(t) | TypeRef::Array { elem: t, .. } => {
            check_type(t, on_field)
        }
        TypeRef::Map { key, value } => {
            check_type(key, on_field);
            check_type(value, on_field);
        }
        _ => {}
    }
}

fn parse_and_check(text: &str) {
    let (file, diags) = parse_file(Path::new("fuzz.go"), text, 0);
    check(text, &file, &diags);
    let files = [
        (PathBuf::from("a.go"), text.to_string()),
        (PathBuf::from("b.go"), SNIPPET.to_string()),
    ];
    let (package, _) = load_sources("example.com/p", &files);
    assert_eq!(package.files.len(), 2);
    // Another package naming its constants, resolved over both.
    let importer =
        "package q\nimport p \"example.com/p\"\nconst (\n\tX = p.A + p.B\n\tY = p.T(X)\n\tZ\n)\n";
    let (other, _) = load_sources("example.com/q", &[(PathBuf::from("q.go"), importer.into())]);
    let mut universe = kdv_model::Universe::default();
    universe.packages.insert(package.path.clone(), package);
    universe.packages.insert(other.path.clone(), other);
    kdv_go::resolve_constants(&mut universe);
}

/// Go-ish fragments to splice into the snippet.
const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "`",
    "\"",
    "'",
    "/*",
    "*/",
    "//",
    "\n",
    ";",
    ",",
    ".",
    "*",
    "type ",
    "struct",
    "interface",
    "func",
    "const",
    "var",
    "import",
    "package ",
    "map[",
    "chan ",
    "<-",
    "iota",
    "=",
    "...",
    "~",
    "0x",
    "1e",
    "_",
    "é",
    "\r",
    "\\",
    "+k8s:x",
];

#[derive(Debug, Clone)]
enum Mutation {
    Delete { at: usize, len: usize },
    Insert { at: usize, fragment: usize },
    Duplicate { at: usize, len: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1usize..40).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), 0..FRAGMENTS.len())
            .prop_map(|(at, fragment)| Mutation::Insert { at, fragment }),
        (any::<usize>(), 1usize..200).prop_map(|(at, len)| Mutation::Duplicate { at, len }),
    ]
}

/// Largest char boundary of `s` not above `i`.
fn boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &mut String, m: &Mutation) {
    let n = text.len().max(1);
    match *m {
        Mutation::Delete { at, len } => {
            let a = boundary(text, at % n);
            let b = boundary(text, a + len);
            text.replace_range(a..b, "");
        }
        Mutation::Insert { at, fragment } => {
            let a = boundary(text, at % n);
            text.insert_str(a, FRAGMENTS[fragment]);
        }
        Mutation::Duplicate { at, len } => {
            let a = boundary(text, at % n);
            let b = boundary(text, a + len);
            let copy = text[a..b].to_string();
            text.insert_str(b, &copy);
        }
    }
}

#[test]
fn snippet_parses_cleanly() {
    let (file, diags) = parse_file(Path::new("snippet.go"), SNIPPET, 0);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(file.types.len(), 5);
    assert_eq!(file.consts.len(), 5);
    check(SNIPPET, &file, &diags);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        parse_and_check(&text);
    }

    #[test]
    fn go_like_token_soup_never_panics(parts in prop::collection::vec(0..FRAGMENTS.len(), 0..200)) {
        let text: String = parts.iter().map(|&i| FRAGMENTS[i]).collect();
        parse_and_check(&text);
    }

    #[test]
    fn mutated_snippets_never_panic(mutations in prop::collection::vec(mutation(), 1..8)) {
        let mut text = SNIPPET.to_string();
        for m in &mutations {
            apply(&mut text, m);
        }
        parse_and_check(&text);
    }
}
