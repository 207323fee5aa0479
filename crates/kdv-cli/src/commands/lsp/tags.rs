//! Go and Rust type files: hover over a `+k8s:` tag (its catalog entry, as `kdv docs`
//! writes it) and completion of tag names, named arguments and enum-like payloads.

use kdv_rules::{EXTENSION_TAGS, Stability, TagDoc};
use lsp_types::{
    CompletionItem, CompletionItemKind, Documentation, MarkupContent, MarkupKind, Position,
};

use super::text::LineIndex;

/// A tag's name characters (after the `+`).
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, ':' | '.' | '_' | '-')
}

/// The tag name under `at` on its comment line (`k8s:minimum` of `// +k8s:minimum=0`).
fn tag_at(line: &str, byte: usize) -> Option<&str> {
    if !is_comment(line) {
        return None;
    }
    let plus = line[..byte.min(line.len())].rfind('+')?;
    let name_start = plus + 1;
    let len = line[name_start..]
        .char_indices()
        .find(|&(_, c)| !is_name_char(c))
        .map_or(line.len() - name_start, |(i, _)| i);
    let name = &line[name_start..name_start + len];
    // The cursor is on the tag's name or its payload (up to the next space).
    let end = line[name_start..]
        .find(char::is_whitespace)
        .map_or(line.len(), |i| name_start + i);
    (byte <= end && !name.is_empty()).then_some(name)
}

fn is_comment(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("//") || t.starts_with("/*") || t.starts_with('*')
}

/// A tag's catalog entry as Markdown.
pub fn tag_markdown(doc: &TagDoc) -> String {
    let stability = match doc.stability {
        Stability::Alpha => "alpha",
        Stability::Beta => "beta",
        Stability::Stable => "stable",
    };
    let mut md = format!("**+{}** ({stability})\n\n{}\n", doc.name, doc.description);
    if !doc.args.is_empty() {
        md.push_str("\nArguments:\n");
        for a in doc.args {
            let name = if a.name.is_empty() {
                "(positional)"
            } else {
                a.name
            };
            let required = if a.required { ", required" } else { "" };
            md.push_str(&format!(
                "- `{name}` ({:?}{required}): {}\n",
                a.ty, a.description
            ));
        }
    }
    if !doc.payload_description.is_empty() {
        md.push_str(&format!("\nPayload: {}\n", doc.payload_description));
    }
    if let Some(ext) = doc.extension {
        md.push_str(&format!("\nA kdv extension ({ext}): upstream validation-gen does not have it; `kdv lint --upstream` flags it.\n"));
    }
    if !doc.example.is_empty() {
        md.push_str(&format!("\nExample: `{}`\n", doc.example));
    }
    md
}

/// Hover over a tag: its catalog entry.
pub fn hover(text: &str, index: &LineIndex, at: Position) -> Option<String> {
    let line = index.line(text, at.line as usize);
    let byte = index.offset(text, at) - index.offset(text, Position::new(at.line, 0));
    let name = tag_at(line, byte)?;
    if let Some(doc) = kdv_rules::tag_doc(name) {
        return Some(tag_markdown(doc));
    }
    let ext = EXTENSION_TAGS.iter().find(|e| e.name == name)?;
    Some(format!(
        "**+{}**\n\n{}\n\nSyntax: `{}`\n\nA kdv extension ({}): `kdv lint --upstream` flags it.\n\nExample: `{}`\n",
        ext.name, ext.description, ext.syntax, ext.seed, ext.example
    ))
}

/// Completion in a comment: tag names after `+`, named arguments inside `+tag(`, and the
/// values of a payload the catalog lists (`a | b | c`) after `+tag=`.
pub fn completion(text: &str, index: &LineIndex, at: Position) -> Vec<CompletionItem> {
    let line = index.line(text, at.line as usize);
    let byte = index.offset(text, at) - index.offset(text, Position::new(at.line, 0));
    let before = line.get(..byte).unwrap_or("");
    if !is_comment(before) {
        return Vec::new();
    }
    let Some(plus) = before.rfind('+') else {
        return Vec::new();
    };
    let typed = &before[plus + 1..];
    if typed.chars().all(is_name_char) {
        let mut items: Vec<CompletionItem> = kdv_rules::catalog()
            .iter()
            .map(|doc| item(doc.name, CompletionItemKind::KEYWORD, tag_markdown(doc)))
            .collect();
        items.extend(EXTENSION_TAGS.iter().map(|e| {
            item(
                e.name,
                CompletionItemKind::KEYWORD,
                format!("{}\n\nA kdv extension ({}).", e.description, e.seed),
            )
        }));
        return items;
    }
    let name_len = typed
        .char_indices()
        .find(|&(_, c)| !is_name_char(c))
        .map_or(typed.len(), |(i, _)| i);
    let Some(doc) = kdv_rules::tag_doc(&typed[..name_len]) else {
        return Vec::new();
    };
    let rest = &typed[name_len..];
    if rest.starts_with('(') && !rest.contains(')') {
        return doc
            .args
            .iter()
            .filter(|a| !a.name.is_empty())
            .map(|a| {
                item(
                    a.name,
                    CompletionItemKind::PROPERTY,
                    a.description.to_string(),
                )
            })
            .collect();
    }
    if let Some(value) = rest.rsplit('=').next().filter(|_| rest.contains('='))
        && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    {
        return payload_values(doc)
            .into_iter()
            .map(|v| {
                item(
                    v,
                    CompletionItemKind::ENUM_MEMBER,
                    doc.payload_description.to_string(),
                )
            })
            .collect();
    }
    Vec::new()
}

/// The values of a payload the catalog spells as `a | b | c` (single words only).
fn payload_values(doc: &TagDoc) -> Vec<&'static str> {
    let parts: Vec<&'static str> = doc
        .payload_description
        .split(" | ")
        .map(str::trim)
        .collect();
    if parts.len() > 1
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
    {
        parts
    } else {
        Vec::new()
    }
}

fn item(label: &str, kind: CompletionItemKind, doc: String) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        documentation: Some(Documentation::MarkupContent(MarkupContent {
            kind: MarkupKind::Markdown,
            value: doc,
        })),
        ..CompletionItem::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hover_names_the_tag() {
        let text = "type T struct {\n\t// +k8s:minimum=1\n\tSize int\n}\n";
        let index = LineIndex::new(text);
        let md = hover(text, &index, Position::new(1, 8)).expect("a tag");
        assert!(md.starts_with("**+k8s:minimum**"), "{md}");
        assert!(hover(text, &index, Position::new(2, 2)).is_none());
    }

    #[test]
    fn completes_names_and_payloads() {
        let text = "// +k8s:mini\n// +k8s:format=k8s-\n";
        let index = LineIndex::new(text);
        let names = completion(text, &index, Position::new(0, 12));
        assert!(names.iter().any(|i| i.label == "k8s:minimum"));
        let formats = completion(text, &index, Position::new(1, 19));
        assert!(
            formats.iter().any(|i| i.label == "k8s-short-name"),
            "{formats:?}"
        );
    }
}
