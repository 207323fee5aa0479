//! Fuzzes the tag grammar: `parse_tag`, `parse_tag_raw` and `extract` must never panic on any
//! UTF-8 text, spans must stay inside the input, and a successful parse must re-render
//! (`Display`) to text that parses back to the same rendering.
#![no_main]

use kdv_tags::{Span, Tag, TagError, extract, parse_tag, parse_tag_raw};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check(text, parse_tag);
    check(text, parse_tag_raw);
    for line in extract(text.lines()) {
        assert!(line.name.len() <= line.text.len());
        check(line.text, parse_tag);
    }
});

fn check(text: &str, parse: fn(&str) -> Result<Tag, TagError>) {
    match parse(text) {
        Ok(tag) => {
            for t in tag.chain() {
                assert_eq!(slice(text, t.name_span), t.name, "name span of {text:?}");
                slice(text, t.span);
                for arg in &t.args {
                    slice(text, arg.span);
                }
                if let Some(v) = t.value_span {
                    slice(text, v);
                }
            }
            let rendered = tag.to_string();
            match parse(&rendered) {
                Ok(again) => assert_eq!(again.to_string(), rendered, "round trip of {text:?}"),
                Err(e) => panic!("{rendered:?} (from {text:?}) does not re-parse: {e}"),
            }
        }
        Err(e) => {
            slice(text, e.span);
            assert!(!e.message.is_empty());
        }
    }
}

/// The spanned text; panics (a fuzz finding) if the span is out of bounds or splits a char.
fn slice(text: &str, span: Span) -> &str {
    match text.get(span.start..span.end) {
        Some(s) => s,
        None => panic!("span {span:?} outside {text:?}"),
    }
}
