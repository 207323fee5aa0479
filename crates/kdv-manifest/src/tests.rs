//! Reading whole streams: numbering, broken documents among good ones, positions, limits.

use serde_json::json;

use super::*;

fn read(text: &str, syntax: Syntax) -> Vec<Result<Entry<'_>, DocumentError>> {
    documents(text.as_bytes(), syntax, Limits::default()).collect()
}

/// `Ok((index, line, value))`, `Ok((index, line, null))` for an empty one, or the error text.
fn summary(text: &str, syntax: Syntax) -> Vec<Result<(usize, Position, Value), String>> {
    read(text, syntax)
        .into_iter()
        .map(|entry| match entry {
            Ok(Entry::Document(d)) => Ok((d.index, d.position, d.value)),
            Ok(Entry::Empty { index, line }) => {
                Ok((index, Position { line, column: 0 }, Value::Null))
            }
            Err(e) => Err(e.to_string()),
        })
        .collect()
}

fn at(line: u64, column: u64) -> Position {
    Position { line, column }
}

#[test]
fn item_04_a_broken_document_leaves_the_others_readable() {
    let text = "\
a: 1
---
b: [1, 2
c: 3
---
d: 1
d: 2
---
e: 5
";
    assert_eq!(
        summary(text, Syntax::Yaml),
        vec![
            Ok((0, at(1, 1), json!({"a": 1}))),
            Err("4:2: document #1: illegal placement of ':' indicator".to_string()),
            Err("7:1: document #2: duplicate key \"d\"".to_string()),
            Ok((3, at(9, 1), json!({"e": 5}))),
        ]
    );
}

#[test]
fn item_04_bad_utf8_breaks_only_its_document_and_has_a_line_and_column() {
    let mut text = b"a: 1\n---\nb: \"x\xFFy\"\n---\nc: 3\n".to_vec();
    let entries: Vec<_> = documents(&text, Syntax::Yaml, Limits::default()).collect();
    assert!(matches!(&entries[0], Ok(Entry::Document(d)) if d.value == json!({"a": 1})));
    let Err(e) = &entries[1] else {
        panic!("{entries:?}")
    };
    assert_eq!(
        (e.index, e.position, e.kind),
        (1, at(3, 6), ErrorKind::Encoding)
    );
    assert_eq!(e.message, "invalid UTF-8 (byte 0xFF)");
    assert!(matches!(&entries[2], Ok(Entry::Document(d)) if d.value == json!({"c": 3})));
    // Columns count characters, not bytes.
    text = "é: \"\u{e9}\u{e9}".as_bytes().to_vec();
    text.push(0xC3);
    text.extend_from_slice(b"x\"\n");
    let Some(Err(e)) = documents(&text, Syntax::Json, Limits::default()).next() else {
        panic!()
    };
    assert_eq!(e.position, at(1, 7));
}

#[test]
fn documents_are_numbered_as_written() {
    let text = "---\na: 1\n---\n---\n# only a comment\n---\nb: 2\n...\n---\n[1, 2]\n---\nnull\n";
    let got: Vec<(usize, bool)> = read(text, Syntax::Yaml)
        .into_iter()
        .map(|e| match e.unwrap() {
            Entry::Document(d) => (d.index, true),
            Entry::Empty { index, .. } => (index, false),
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (0, true),
            (1, false),
            (2, false),
            (3, true),
            (4, true),
            (5, false)
        ]
    );
    // Content after a document's root is an error of that document, not another document.
    let Err(e) = &read("[1, 2]\nnull\n", Syntax::Yaml)[0] else {
        panic!()
    };
    assert_eq!(e.index, 0);
}

#[test]
fn root_positions_and_later_documents_are_file_positions() {
    let text = "# c\n---\n\n  a: 1\n---\n--- {b: 2}\n";
    let entries = read(text, Syntax::Yaml);
    let Ok(Entry::Document(first)) = &entries[0] else {
        panic!("{entries:?}")
    };
    assert_eq!((first.index, first.position), (0, at(4, 3)));
    assert!(matches!(entries[1], Ok(Entry::Empty { index: 1, line: 5 })));
    let Ok(Entry::Document(third)) = &entries[2] else {
        panic!("{entries:?}")
    };
    assert_eq!((third.index, third.position), (2, at(6, 5)));
    let b = [Step::Key("b")];
    assert_eq!(
        third.locate(&[Query {
            path: &b,
            target: Target::Value
        }]),
        vec![at(6, 9)]
    );
}

#[test]
fn json_text_is_one_document() {
    let entries = read("\n\n{\"kind\": \"Widget\", \"n\": 1.5}\n", Syntax::Json);
    let Ok(Entry::Document(d)) = &entries[0] else {
        panic!("{entries:?}")
    };
    assert_eq!((d.index, d.position), (0, at(3, 1)));
    assert_eq!(d.value, json!({"kind": "Widget", "n": 1.5}));
    assert!(read("  \n", Syntax::Json).is_empty());
    assert!(matches!(
        read("null", Syntax::Json)[0],
        Ok(Entry::Empty { index: 0, .. })
    ));
    let entries = read("{\"a\": 1}\n---\n{}", Syntax::Json);
    assert_eq!(entries.len(), 1);
    assert!(entries[0].is_err());
}

#[test]
fn item_09_documents_over_the_size_limit_are_errors_and_the_others_are_read() {
    let limits = Limits {
        max_document_bytes: 16,
        max_documents: 3,
    };
    let text = "a: 1\n---\nb: 0123456789abcdef\n---\nc: 3\n---\nd: 4\n---\ne: 5\n";
    let entries: Vec<_> = documents(text.as_bytes(), Syntax::Yaml, limits).collect();
    assert_eq!(entries.len(), 4, "{entries:?}");
    assert!(entries[0].is_ok() && entries[2].is_ok());
    let Err(e) = &entries[1] else { panic!() };
    assert_eq!((e.kind, e.position), (ErrorKind::TooLarge, at(2, 1)));
    assert_eq!(e.message, "document is larger than 16 bytes");
    let Err(e) = &entries[3] else { panic!() };
    assert_eq!((e.kind, e.index), (ErrorKind::TooManyDocuments, 3));
    assert_eq!(format_size(DEFAULT_MAX_DOCUMENT_BYTES), "3 MiB");
    assert_eq!(format_size(1536), "1536 bytes");
    assert_eq!(format_size(2048), "2 KiB");
}

#[test]
fn byte_order_mark_is_ignored() {
    let entries = read("\u{feff}a: 1\n", Syntax::Yaml);
    assert!(matches!(&entries[0], Ok(Entry::Document(d)) if d.value == json!({"a": 1})));
    let entries = read("\u{feff}{\"a\": 1}", Syntax::Json);
    assert!(matches!(&entries[0], Ok(Entry::Document(d)) if d.value == json!({"a": 1})));
}

#[test]
fn alias_bomb_is_stopped() {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let p = i - 1;
        text.push_str(&format!(
            "a{i}: &a{i} [{}]\n",
            vec![format!("*a{p}"); 10].join(", ")
        ));
    }
    let Err(e) = &read(&text, Syntax::Yaml)[0] else {
        panic!()
    };
    assert!(e.message.contains("alias bomb"), "{e}");
}

/// serde-saphyr uses tens of KiB of stack per nesting level in debug builds; callers run
/// it on a thread with a large stack, and so do these tests.
fn on_big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn deep_nesting_is_stopped() {
    on_big_stack(|| {
        let mut text = String::new();
        for i in 0..200 {
            text.push_str(&" ".repeat(i));
            text.push_str("a:\n");
        }
        let Err(e) = &read(&text, Syntax::Yaml)[0] else {
            panic!()
        };
        assert!(e.message.contains("deeper than 128"), "{e}");
        let flow = "[".repeat(1000) + &"]".repeat(1000);
        assert!(read(&flow, Syntax::Yaml)[0].is_err());
        let nested = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(read(&nested, Syntax::Yaml)[0].is_ok());
        // serde_json's own limit admits one level less.
        let nested = "[".repeat(MAX_DEPTH - 1) + &"]".repeat(MAX_DEPTH - 1);
        assert!(read(&nested, Syntax::Json)[0].is_ok());
    });
}

/// Inputs the fuzz target found.
#[test]
fn fuzz_findings() {
    check_invariants(b"%; \n%T(AG :x\n\xEF\xBB\xBF%inamAG`:x\n%2!in\n---\nptor{\"\n#".to_vec());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Any text, YAML or JSON, gives documents or errors: never a panic; document numbers
    /// increase; positions lie within the text; locating any path stays within the text.
    #[test]
    fn never_panics_on_arbitrary_text(text in "\\PC{0,200}") {
        check_invariants(text.into_bytes());
    }

    /// Text made of YAML's structural pieces reaches deeper into the parser than arbitrary
    /// characters do.
    #[test]
    fn never_panics_on_yaml_shaped_text(
        parts in proptest::collection::vec(proptest::sample::select(vec![
            "---\n", "...\n", "a: ", "b:\n", "  - ", "- ", "[", "]", "{", "}", ", ", "&x ",
            "*x", "<<: *x\n", "\"q\"", "'s'", "|\n", ">\n", "  ", "\n", "# c\n", "null",
            "~", "yes", "0755", "1.5", ".inf", "!!str ", "? ", ": ", "%YAML 1.2\n", "\t",
            "\r", "\u{feff}", "\u{e9}", "-0", "5.0",
        ]), 0..40),
        bad_byte in proptest::option::of(0usize..400),
    ) {
        let mut bytes = parts.concat().into_bytes();
        if let Some(i) = bad_byte && i < bytes.len() {
            bytes[i] = 0xFF;
        }
        check_invariants(bytes);
    }
}

/// The fuzz target's properties (`invariants::check`), on a big stack.
fn check_invariants(bytes: Vec<u8>) {
    on_big_stack(move || crate::invariants::check(&bytes));
}

#[test]
fn the_items_of_a_list_are_documents_located_under_items() {
    let text = "# a list\n---\napiVersion: v1\nkind: List\nitems:\n- kind: ConfigMap\n  metadata:\n    name: a\n- {kind: Secret, metadata: {name: b}}\n";
    let entries = read(text, Syntax::Yaml);
    let Some(Ok(Entry::Document(doc))) = entries.last() else {
        panic!("{entries:?}")
    };
    let items = doc.list_items().expect("a list");
    assert_eq!(items.len(), 2);
    assert_eq!(
        items[1].value,
        json!({"kind": "Secret", "metadata": {"name": "b"}})
    );
    assert_eq!((items[0].position, items[1].position), (at(6, 3), at(9, 3)));
    assert_eq!(
        (items[0].index, items[1].list_item_index()),
        (doc.index, Some(1))
    );
    let path = [Step::Key("metadata"), Step::Key("name")];
    let query = [Query {
        path: &path,
        target: Target::Value,
    }];
    assert_eq!(items[0].locate(&query), [at(8, 11)]);
    // Items are not lists of their own; other documents are not lists.
    assert!(items[0].list_items().is_none());
    let plain = read("kind: ConfigMapList\nitems: {}\n", Syntax::Yaml);
    let Some(Ok(Entry::Document(plain))) = plain.first() else {
        panic!()
    };
    assert!(plain.list_items().is_none());
}
