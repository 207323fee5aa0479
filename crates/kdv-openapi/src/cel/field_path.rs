//! `ValidFieldPath` (apiextensions-apiserver, spec §5.3): a rule's `fieldPath` — a JSON path
//! of field (`.name`, `['name']`) and map-key accessors, no list indexes — checked against
//! the schema of the node the rule is on, and normalized to the field path its errors are
//! reported under (`a.b`, `m[key]`).
//!
//! One implementation serves the CRD write-time checks (over the CRD's own schema, where
//! `metadata.fieldPath`-like references of selectable fields also use it without array
//! notation) and the compiler (over a [`crate::Resource`]'s compiled schema); it walks any
//! schema through [`PathSchema`].
//!
//! ```
//! use kdv_openapi::Resource;
//! use kdv_openapi::cel::valid_field_path;
//!
//! let schema = serde_json::json!({"type": "object", "properties": {
//!     "spec": {"type": "object", "properties": {"x.y": {"type": "string"}}},
//!     "labels": {"type": "object", "additionalProperties": {"type": "string"}},
//! }});
//! let r = Resource::from_crd_schema("example.com", "v1", "Widget", &schema, 35).unwrap();
//! let (arena, root) = r.schema();
//! assert_eq!(valid_field_path(".spec['x.y']", arena, root).unwrap().to_string(), "spec.x.y");
//! assert_eq!(valid_field_path(".labels.app", arena, root).unwrap().to_string(), "labels[app]");
//! assert_eq!(valid_field_path(".spec.z", arena, root).unwrap_err(), "does not refer to a valid field");
//! assert_eq!(valid_field_path("spec", arena, root).unwrap_err(), "expected [ or . but got: spec");
//! ```

use kdv_runtime::FieldPath;

use crate::schema::{Additional, Arena, NodeId};

/// One step of a path into a schema node.
pub(crate) enum Step<S> {
    /// The node has properties: the named one, `None` when there is no such property.
    Named(Option<S>),
    /// The node has `additionalProperties`: a map key, into their schema (`None` for a
    /// boolean `additionalProperties`, which has none).
    Key(Option<S>),
    /// Neither: nothing to step into.
    Neither,
}

/// A schema `ValidFieldPath` can walk.
pub(crate) trait PathSchema: Copy {
    /// Where `name` leads from this node (upstream looks at `Properties` first, then at
    /// `AdditionalProperties`).
    fn step(self, name: &str) -> Step<Self>;
}

/// A node of a compiled schema.
#[derive(Clone, Copy)]
pub(crate) struct ArenaNode<'a>(pub &'a Arena, pub NodeId);

impl PathSchema for ArenaNode<'_> {
    fn step(self, name: &str) -> Step<Self> {
        let n = self.0.node(self.1);
        if !n.properties.is_empty() {
            Step::Named(n.property(name).map(|id| ArenaNode(self.0, id)))
        } else {
            match n.additional {
                Additional::Schema(ap) => Step::Key(Some(ArenaNode(self.0, ap))),
                Additional::Bool(_) => Step::Key(None),
                Additional::None => Step::Neither,
            }
        }
    }
}

/// `ValidFieldPath(path, schema)`: the normalized path of field and map accessors, or
/// upstream's text of why `path` is not valid for the schema node (`does not refer to a
/// valid field`, `expected [ or . but got: a`, `unexpected end of JSON path`,
/// `expected single quoted string but got 0`, `expected ] but got x`,
/// `invalid string literal: invalid escape char \q`).
///
/// Stepping past the values of a boolean `additionalProperties` (which have no schema) is
/// not a valid field here; upstream dereferences a nil schema there.
pub fn valid_field_path(path: &str, arena: &Arena, node: NodeId) -> Result<FieldPath, String> {
    walk(path, ArenaNode(arena, node), true).map(|(p, _)| p)
}

/// `ValidFieldPath` over any schema: the normalized path and the schema it reaches (`None`
/// past a boolean `additionalProperties`). `allow_array_notation`: whether `['name']` may be
/// used (`WithFieldPathAllowArrayNotation`).
pub(crate) fn walk<S: PathSchema>(
    path: &str,
    schema: S,
    allow_array_notation: bool,
) -> Result<(FieldPath, Option<S>), String> {
    let invalid_field = || "does not refer to a valid field".to_owned();
    let end = || "unexpected end of JSON path".to_owned();
    let mut node = Some(schema);
    let mut out = FieldPath::root();
    let step = |node: Option<S>, out: &mut FieldPath, name: &str| -> Result<Option<S>, String> {
        match node.ok_or_else(invalid_field)?.step(name) {
            Step::Named(s) => {
                *out = out.child(name);
                s.map(Some).ok_or_else(invalid_field)
            }
            Step::Key(s) => {
                *out = out.key(name);
                Ok(s)
            }
            Step::Neither => Err(invalid_field()),
        }
    };
    let mut toks = tokens(path).into_iter();
    while let Some(tok) = toks.next() {
        match tok {
            "[" => {
                if !allow_array_notation {
                    return Err("array notation is not allowed".to_owned());
                }
                let tok = toks.next().ok_or_else(end)?;
                if tok.len() < 2 || !tok.starts_with('\'') || !tok.ends_with('\'') {
                    return Err(format!("expected single quoted string but got {tok}"));
                }
                let name = unescape_single_quote(&tok[1..tok.len() - 1])
                    .map_err(|e| format!("invalid string literal: {e}"))?;
                node = step(node, &mut out, &name)?;
                match toks.next() {
                    None => return Err(end()),
                    Some("]") => {}
                    Some(other) => return Err(format!("expected ] but got {other}")),
                }
            }
            "." => {
                let tok = toks.next().ok_or_else(end)?;
                node = step(node, &mut out, tok)?;
            }
            other => return Err(format!("expected [ or . but got: {other}")),
        }
    }
    Ok((out, node))
}

/// The tokens of a JSON path as `ValidFieldPath`'s scanner splits it: a delimiter (`.`,
/// `[`, `]`), a single-quoted string (quotes kept) or the text between delimiters.
fn tokens(path: &str) -> Vec<&str> {
    let b = path.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\'' {
            // A quoted string up to the next quote not preceded by a backslash; unclosed,
            // the rest of the text.
            let mut j = i + 1;
            while j < b.len() && !(b[j] == b'\'' && b[j - 1] != b'\\') {
                j += 1;
            }
            let end = (j + 1).min(b.len());
            out.push(&path[i..end]);
            i = end;
            continue;
        }
        if matches!(b[i], b'.' | b'[' | b']') {
            out.push(&path[i..i + 1]);
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && !matches!(b[j], b'.' | b'[' | b']') {
            j += 1;
        }
        out.push(&path[i..j]);
        i = j;
    }
    out
}

/// `unescapeSingleQuote`.
fn unescape_single_quote(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        // `\\.` does not match a backslash before a newline or at the end.
        let Some(d) = chars.next() else {
            out.push(c);
            break;
        };
        if d == '\n' {
            out.push(c);
            out.push(d);
            continue;
        }
        out.push(match d {
            'a' => '\u{7}',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\u{b}',
            '\'' => '\'',
            '\\' => '\\',
            other => return Err(format!("invalid escape char \\{other}")),
        });
    }
    Ok(out)
}
