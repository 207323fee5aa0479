//! The static checks of `x-kubernetes-validations` rules at CRD write time (spec §5.1.1):
//! rule, message, messageExpression, reason and fieldPath, with `ValidFieldPath` for the
//! field path. Compiling the rules (§5.1.2: type checks, cost limits, `oldSelf` use) is
//! CEL's and not done here.

use kdv_runtime::{BadValue, ErrorList, FieldPath};

use super::model::Props;
use super::path::{invalid, not_supported, required};
use crate::cel::field_path::{PathSchema, Step};

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
    crate::cel::field_path::walk(path, s, true).is_ok()
}

/// The CRD's own schema, walked by `ValidFieldPath`.
impl<'p, 'a> PathSchema for &'p Props<'a> {
    fn step(self, name: &str) -> Step<Self> {
        if !self.properties.is_empty() {
            Step::Named(self.property(name))
        } else if let Some(ap) = &self.additional_properties {
            Step::Key(ap.schema.as_deref())
        } else {
            Step::Neither
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::model::Props;
    use serde_json::json;

    fn valid_field_path<'p, 'a>(
        path: &str,
        s: &'p Props<'a>,
        allow_array_notation: bool,
    ) -> Result<(kdv_runtime::FieldPath, Option<&'p Props<'a>>), String> {
        crate::cel::field_path::walk(path, s, allow_array_notation)
    }

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
