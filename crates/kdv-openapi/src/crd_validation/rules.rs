//! The static checks of `x-kubernetes-validations` rules at CRD write time (spec §5.1.1):
//! rule, message, messageExpression, reason and fieldPath, with `ValidFieldPath` for the
//! field path. Compiling the rules (§5.1.2: type checks, cost limits, `oldSelf` use) is
//! CEL's and not done here.

use kdv_runtime::{BadValue, ErrorList, FieldPath};

use super::model::Props;
use super::path::{invalid, not_supported, required};

/// `supportedValidationReason`, sorted as `sets.String.List()` returns them.
const REASONS: [&str; 4] = [
    "FieldValueDuplicate",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueRequired",
];

/// Go's `strings.TrimSpace`.
fn trim_space(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace())
}

/// `[\n\r]+` matches.
fn has_newlines(s: &str) -> bool {
    s.contains(['\n', '\r'])
}

/// The static checks of a node's rules.
pub(crate) fn check(s: &Props<'_>, path: &FieldPath, out: &mut ErrorList) {
    for (i, rule) in s.x_validations.iter().enumerate() {
        let p = path.child("x-kubernetes-validations").index(i);
        let trimmed_rule = trim_space(&rule.rule);
        let trimmed_msg = trim_space(&rule.message);
        if trimmed_rule.is_empty() {
            out.push(required(&p.child("rule"), "rule is not specified"));
        } else if !rule.message.is_empty() && trimmed_msg.is_empty() {
            out.push(invalid(
                &p.child("message"),
                BadValue::string(&rule.message),
                "must be non-empty if specified",
            ));
        } else if has_newlines(trimmed_msg) {
            out.push(invalid(
                &p.child("message"),
                BadValue::string(&rule.message),
                "must not contain line breaks",
            ));
        } else if has_newlines(trimmed_rule) && trimmed_msg.is_empty() {
            out.push(required(
                &p.child("message"),
                "message must be specified if rule contains line breaks",
            ));
        }
        if !rule.message_expression.is_empty() && trim_space(&rule.message_expression).is_empty() {
            out.push(required(
                &p.child("messageExpression"),
                "messageExpression must be non-empty if specified",
            ));
        }
        if let Some(reason) = &rule.reason
            && !REASONS.contains(&reason.as_str())
        {
            out.push(not_supported(
                &p.child("reason"),
                BadValue::named_string(reason.as_str()),
                &REASONS,
            ));
        }
        if !rule.field_path.is_empty() && trim_space(&rule.field_path).is_empty() {
            out.push(invalid(
                &p.child("fieldPath"),
                BadValue::string(&rule.field_path),
                "must be non-empty if specified",
            ));
        }
        if has_newlines(&rule.field_path) {
            out.push(invalid(
                &p.child("fieldPath"),
                BadValue::string(&rule.field_path),
                "must not contain line breaks",
            ));
        }
        if !rule.field_path.is_empty() && !path_valid(s, &rule.field_path) {
            out.push(invalid(
                &p.child("fieldPath"),
                BadValue::string(&rule.field_path),
                "must be a valid path",
            ));
        }
    }
}

/// `pathValid`: a schema that is not structural accepts any path.
fn path_valid(s: &Props<'_>, path: &str) -> bool {
    if super::structural::new_structural_error(s).is_some() {
        return true;
    }
    valid_field_path(path, s, true).is_ok()
}

/// One token of a JSON path (`ValidFieldPath`'s scanner): a delimiter (`.`, `[`, `]`), a
/// single-quoted string (quotes kept) or the text between delimiters.
pub(crate) fn tokens(path: &str) -> Vec<&str> {
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
pub(crate) fn unescape_single_quote(s: &str) -> Result<String, String> {
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

/// `ValidFieldPath`: the schema a JSON path of field and map accessors reaches (`None`
/// for the values of `additionalProperties: true`), or why the path is not valid for the
/// schema. `allow_array_notation`: whether `['name']` may be used.
pub(crate) fn valid_field_path<'p, 'a>(
    path: &str,
    schema: &'p Props<'a>,
    allow_array_notation: bool,
) -> Result<(FieldPath, Option<&'p Props<'a>>), String> {
    let invalid_field = || "does not refer to a valid field".to_owned();
    let mut node = Some(schema);
    let mut out = FieldPath::root();
    let mut toks = tokens(path).into_iter();
    // Steps into a property, or into `additionalProperties` (a map key). Go dereferences a
    // nil schema past `additionalProperties: true` (a panic); here that is no valid field.
    let step = |node: Option<&'p Props<'a>>,
                out: &mut FieldPath,
                name: &str|
     -> Result<Option<&'p Props<'a>>, String> {
        let node = node.ok_or_else(invalid_field)?;
        if !node.properties.is_empty() {
            *out = out.child(name);
            node.property(name).map(Some).ok_or_else(invalid_field)
        } else if let Some(ap) = &node.additional_properties {
            *out = out.key(name);
            Ok(ap.schema.as_deref())
        } else {
            Err(invalid_field())
        }
    };
    while let Some(tok) = toks.next() {
        match tok {
            "[" => {
                if !allow_array_notation {
                    return Err("array notation is not allowed".to_owned());
                }
                let tok = toks
                    .next()
                    .ok_or_else(|| "unexpected end of JSON path".to_owned())?;
                if tok.len() < 2 || !tok.starts_with('\'') || !tok.ends_with('\'') {
                    return Err(format!("expected single quoted string but got {tok}"));
                }
                let name = unescape_single_quote(&tok[1..tok.len() - 1])
                    .map_err(|e| format!("invalid string literal: {e}"))?;
                node = step(node, &mut out, &name)?;
                match toks.next() {
                    None => return Err("unexpected end of JSON path".to_owned()),
                    Some("]") => {}
                    Some(other) => return Err(format!("expected ] but got {other}")),
                }
            }
            "." => {
                let tok = toks
                    .next()
                    .ok_or_else(|| "unexpected end of JSON path".to_owned())?;
                node = step(node, &mut out, tok)?;
            }
            other => return Err(format!("expected [ or . but got: {other}")),
        }
    }
    Ok((out, node))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn field_paths_as_upstream_scans_them() {
        let v = json!({"type": "object", "properties": {
            "a": {"type": "object", "properties": {"b.c": {"type": "string"}}},
            "m": {"type": "object", "additionalProperties": {"type": "string"}}}});
        let crd = json!({"spec": {"versions": [{"schema": {"openAPIV3Schema": v}}]}});
        let d = super::super::decode::decode(&crd).unwrap();
        let s = d.crd.spec.validation.unwrap().open_api_v3_schema.unwrap();
        let ok = |p: &str| valid_field_path(p, &s, true).map(|(p, _)| p.to_string());
        assert_eq!(ok(".a['b.c']"), Ok("a.b.c".to_owned()));
        assert_eq!(ok(".m.x"), Ok("m[x]".to_owned()));
        assert_eq!(ok(".m['x y']"), Ok("m[x y]".to_owned()));
        assert_eq!(ok(".b"), Err("does not refer to a valid field".to_owned()));
        assert_eq!(ok("a"), Err("expected [ or . but got: a".to_owned()));
        assert_eq!(ok(".a["), Err("unexpected end of JSON path".to_owned()));
        assert_eq!(
            ok(".a[b]"),
            Err("expected single quoted string but got b".to_owned())
        );
        assert_eq!(
            ok(".a['b.c'"),
            Err("unexpected end of JSON path".to_owned())
        );
        assert_eq!(
            ok(".a['x\\q']"),
            Err("invalid string literal: invalid escape char \\q".to_owned())
        );
        assert_eq!(
            valid_field_path(".a['b.c']", &s, false).map(|_| ()),
            Err("array notation is not allowed".to_owned())
        );
    }

    /// `TestValidateFieldPath`: valid paths, and the errors' texts.
    #[test]
    fn upstream_field_path_table() {
        let v = json!({"type": "object", "properties": {
            "foo": {"type": "object", "additionalProperties": {"type": "object", "properties": {"f1": {"type": "number"}}}},
            "a": {"type": "object", "properties": {
                "bbb": {"type": "object", "properties": {"c": {"type": "number"}, "34": {"type": "number"}}},
                "bbb.c": {"type": "object", "properties": {"a-b34": {"type": "number"}}}}},
            "list": {"type": "array", "items": {"type": "object", "properties": {
                "a": {"type": "number"}, "a-b.34": {"type": "number"}}}}}});
        let crd = json!({"spec": {"versions": [{"schema": {"openAPIV3Schema": v}}]}});
        let d = super::super::decode::decode(&crd).unwrap();
        let s = d.crd.spec.validation.unwrap().open_api_v3_schema.unwrap();
        for (path, err) in [
            (".a", ""),
            (".a.bbb", ""),
            (".foo.f1", ""),
            (".a['bbb']", ""),
            (".a['bbb.c']", ""),
            (".a['bbb.c'].a-b34", ""),
            (".a['bbb.c']['a-b34']", ""),
            (".a.bbb.c", ""),
            (".a.bbb['34']", ""),
            (".a.foo", "does not refer to a valid field"),
            (".a.bbb[0]", "expected single quoted string but got 0"),
            (".a.bbb.34", ""),
            (".list", ""),
            (".list[1]", "expected single quoted string but got 1"),
            (".list.a", "does not refer to a valid field"),
            (".list['a-b.34']", "does not refer to a valid field"),
            (".list.a-b.34", "does not refer to a valid field"),
            ("a", "expected [ or . but got: a"),
            (".c", "does not refer to a valid field"),
            (".a..b", "does not refer to a valid field"),
            (".list[-1]", "expected single quoted string but got -1"),
            (".list[1.0]", "expected single quoted string but got 1"),
        ] {
            let got = valid_field_path(path, &s, true)
                .map(|_| ())
                .err()
                .unwrap_or_default();
            assert_eq!(got, err, "{path}");
        }
    }
}
