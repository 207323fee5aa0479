//! Fuzzes the Go frontend: `kdv_go::parse_file` and `kdv_go::load_sources` must never panic
//! or hang on any UTF-8 text, and every location they return must point into the input
//! (declaration names, comment lines and tags are found at their recorded byte offsets).
#![no_main]

use std::path::{Path, PathBuf};

use kdv_go::{load_sources, parse_file};
use kdv_go::Comments;
use kdv_model::{Field, Tags, TypeRef};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (file, diags) = parse_file(Path::new("fuzz.go"), text, 0);
    for t in &file.types {
        assert!(at(text, t.loc.offset).starts_with(&t.name), "type {:?}", t.name);
        tags(text, &t.tags);
        tags(text, &t.detached_tags);
        fields(text, &t.def, 0);
    }
    for c in &file.consts {
        assert!(at(text, c.loc.offset).starts_with(&c.name), "const {:?}", c.name);
        tags(text, &c.tags);
    }
    comments(text, &file.doc);
    for d in &diags {
        assert!(!d.message.is_empty());
        if let Some(s) = &d.span {
            assert!(s.line >= 1 && s.col >= 1 && s.len >= 1 && !s.line_text.contains('\n'));
        }
        // Rendering with a caret must not panic either.
        let _ = d.to_string();
    }

    // As a package: the input split at its first NUL into two files (or one file).
    let files: Vec<(PathBuf, String)> = text
        .splitn(2, '\0')
        .enumerate()
        .map(|(i, part)| (PathBuf::from(format!("f{i}.go")), part.to_string()))
        .collect();
    let (package, _) = load_sources("example.com/fuzz", &files);
    assert_eq!(package.files.len(), files.len());
});

fn at(text: &str, offset: u32) -> &str {
    match text.get(offset as usize..) {
        Some(s) => s,
        None => panic!("offset {offset} outside input of {} bytes", text.len()),
    }
}

fn tags(text: &str, t: &Tags) {
    for line in &t.lines {
        assert!(at(text, line.loc.offset).starts_with(&line.text), "tag {:?}", line.text);
    }
}

fn comments(text: &str, c: &Comments) {
    for line in &c.lines {
        assert!(at(text, line.loc.offset).starts_with(&line.text), "comment {:?}", line.text);
    }
}

/// Field locations, through nested types. The parser bounds nesting, so recursion here is
/// bounded too.
fn fields(text: &str, ty: &TypeRef, depth: u32) {
    assert!(depth < 1000, "type nesting beyond the parser's limit");
    match ty {
        TypeRef::Struct(s) => {
            for f in &s.fields {
                field(text, f);
                fields(text, &f.ty, depth + 1);
            }
        }
        TypeRef::Pointer(t) | TypeRef::Slice(t) | TypeRef::Array { elem: t, .. } => {
            fields(text, t, depth + 1)
        }
        TypeRef::Map { key, value } => {
            fields(text, key, depth + 1);
            fields(text, value, depth + 1);
        }
        _ => {}
    }
}

fn field(text: &str, f: &Field) {
    assert!(at(text, f.loc.offset).starts_with(&f.name), "field {:?}", f.name);
    tags(text, &f.tags);
}
