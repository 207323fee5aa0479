//! CEL rules on types and fields: `+validationRule` (a kdv extension specified by KEP-4153,
//! "Summary", "Unions", "CEL Validation" and "IDL tags"; upstream never shipped it). Not a
//! `+k8s:` tag: the line is
//!
//! ```text
//! +validationRule="<CEL>"[,message="..."][,messageExpression="..."][,reason=Required|Forbidden|Invalid|RequestEntityTooLarge][,field="name"]
//! ```
//!
//! read here from the declaration's tag lines (as `+default` is), several per type or field.
//! Strings are Go string literals (interpreted or raw). The rule is lowered to
//! [`Check::CelRule`]; what it means (typing, cost, evaluation) is the CRD rule's at the
//! same schema node: backends build the node's structural schema and compile the rule with
//! `kdv-openapi` (the CRD write-time checks report compile errors and costs as lint errors,
//! `kdv_schema::cel_rule_findings`).

use std::borrow::Cow;

use kdv_model::{Package, Severity, Tags};
use kdv_runtime::ErrorType;
use kdv_tags::{Span, go_quote};

use crate::ir::{CelCache, CelReason, CelRule, CelSite, Check, Emission, SpanId, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer, Site};
use crate::tag_doc::{ExtensionDoc, Scope};

/// The tag's name as a tag line names it.
pub const NAME: &str = "validationRule";

/// `+validationRule`.
pub const VALIDATION_RULE: ExtensionDoc = ExtensionDoc {
    name: NAME,
    syntax: "+validationRule=\"<CEL>\"[,message=\"...\"][,messageExpression=\"...\"][,reason=Required|Forbidden|Invalid|RequestEntityTooLarge][,field=\"name\"]",
    scopes: &[Scope::Type, Scope::Field],
    description: "A CEL rule over the value, run exactly as a CRD's `x-kubernetes-validations` rule at the value's schema node: `self` is typed by the structural schema kdv publishes for the type or field (so `+k8s:maxItems`/`+k8s:maxLength` bound its cost), in the CRD rule environment of the Kubernetes release validated against (`kdv validate --k8s-version`, default the newest embedded; lint and the derive use 1.35), with the API server's cost limits, messages and error texts. The environment adds kdv's own CEL functions (kdv extensions from KEP-4153's library list; no CRD rule can call them): `isValidUTF8(<bytes>)`, `<string>.isPrint()` (Go's `unicode.IsPrint` for every character), `<string>.containsControl()` (Go's `unicode.IsControl` for some character), `isLabelSelector(<string>)` and `<map(string, string)>.matchesLabelSelector(<string>)` (Kubernetes' label selector syntax: `a=b,c!=d,e in (x,y),f notin (z),g,!h,n>1`); see docs/decisions/0140-kdv-cel-libraries.md. A rule reading `oldSelf` is a transition rule: it runs on update only where the old value correlates (struct fields, map keys, `listType=map` keys) and never without one. On update a failing rule on an unchanged value is not reported (KEP-4008 ratcheting). `message` (default `failed rule: <rule>`), `messageExpression` (a CEL string expression, taking precedence), `reason` (`Invalid` by default; `RequestEntityTooLarge` has no `x-kubernetes-validations` equivalent and is an error) and `field` (the sub-field errors are reported at: `field=\"a.b\"` is the CRD `fieldPath` `.a.b`) may follow, in any order. Compile and type errors and rules over the cost limit are lint errors at the tag. Published verbatim in `x-kubernetes-validations`. Fields absent from the object are absent to CEL, as in a CRD (guard them with `has()`: Go's zero values are not filled in), and a field's rule is skipped where the field is absent (and, like every tag, where the field is unchanged on update). Several per type or field. With `#[derive(Validate)]` the types of a file with rules must be `Sync` and `Serialize`: on a create the rule reads the Rust value in place, exactly as its JSON would read (docs/decisions/0143).",
    seed: "KEP-4153 \"CEL Validation\", \"Unions\", \"IDL tags\"",
    example: "+validationRule=\"!(self.type == 'Recreate') || !has(self.rollingUpdate)\",message=\"may not be specified when strategy `type` is Recreate\",reason=Forbidden,field=\"rollingUpdate\"",
};

/// The kdv extensions outside the `+k8s:` namespace (`kdv docs` lists them after the
/// catalog).
pub const EXTENSIONS: &[ExtensionDoc] = &[
    VALIDATION_RULE,
    super::crossfield::CROSS_FIELD,
    super::item_update::ITEM_UPDATE,
];

/// A parsed `+validationRule` line (spans relative to the tag text, which starts at the
/// name).
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedRule {
    /// The CEL expression.
    pub rule: String,
    /// Where the expression's literal is.
    pub rule_span: Span,
    /// `message`.
    pub message: Option<String>,
    /// `messageExpression`.
    pub message_expression: Option<String>,
    /// `reason`.
    pub reason: Option<CelReason>,
    /// `field`.
    pub field: Option<String>,
}

/// A parse error and the part of the tag text it points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong.
    pub message: String,
    /// The offending part.
    pub span: Span,
}

fn err(message: impl Into<String>, at: usize, end: usize) -> ParseError {
    ParseError {
        message: message.into(),
        span: Span::new(at, end.max(at + 1)),
    }
}

/// Parses the text of a `+validationRule` tag line (after the `+`).
pub fn parse(text: &str) -> Result<ParsedRule, ParseError> {
    let text = text.trim_end();
    let mut i = NAME.len();
    if !text.starts_with(NAME) {
        return Err(err("not a +validationRule tag", 0, 1));
    }
    let b = text.as_bytes();
    if b.get(i) != Some(&b'=') {
        return Err(err(
            "+validationRule needs a value: +validationRule=\"<CEL expression>\"",
            i.min(text.len().saturating_sub(1)),
            i + 1,
        ));
    }
    i += 1;
    let start = i;
    let (rule, end) = string_literal(text, i)?;
    let rule_span = Span::new(start, end);
    if rule.trim().is_empty() {
        return Err(err("the rule is empty", start, end));
    }
    let mut parsed = ParsedRule {
        rule,
        rule_span,
        message: None,
        message_expression: None,
        reason: None,
        field: None,
    };
    i = end;
    loop {
        i = skip_spaces(text, i);
        if i >= text.len() {
            break;
        }
        if b[i] != b',' {
            return Err(err(
                format!(
                    "unexpected {} after the rule: options follow as ,name=value",
                    go_quote(&text[i..next_char(text, i)])
                ),
                i,
                next_char(text, i),
            ));
        }
        i = skip_spaces(text, i + 1);
        let key_start = i;
        while i < text.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        let key = &text[key_start..i];
        if key.is_empty() {
            return Err(err(
                "expected an option name (message, messageExpression, reason, field)",
                key_start,
                next_char(text, key_start),
            ));
        }
        i = skip_spaces(text, i);
        if b.get(i) != Some(&b'=') {
            return Err(err(
                format!("option {} needs a value: {key}=...", go_quote(key)),
                key_start,
                i,
            ));
        }
        i = skip_spaces(text, i + 1);
        let value_start = i;
        let duplicate = |what: bool| {
            if what {
                Err(err(
                    format!("option {} is given twice", go_quote(key)),
                    key_start,
                    value_start,
                ))
            } else {
                Ok(())
            }
        };
        match key {
            "message" | "messageExpression" | "field" => {
                let (value, end) = string_literal(text, i)?;
                i = end;
                match key {
                    "message" => {
                        duplicate(parsed.message.is_some())?;
                        if value.trim().is_empty() {
                            // The API server refuses a blank message.
                            return Err(err(
                                "message must be non-empty if specified",
                                value_start,
                                end,
                            ));
                        }
                        if value.contains('\n') {
                            return Err(err(
                                "message must not contain line breaks",
                                value_start,
                                end,
                            ));
                        }
                        parsed.message = Some(value);
                    }
                    "messageExpression" => {
                        duplicate(parsed.message_expression.is_some())?;
                        if value.trim().is_empty() {
                            return Err(err(
                                "messageExpression must be non-empty if specified",
                                value_start,
                                end,
                            ));
                        }
                        parsed.message_expression = Some(value);
                    }
                    _ => {
                        duplicate(parsed.field.is_some())?;
                        if value.trim().is_empty() {
                            return Err(err(
                                "field must be non-empty if specified",
                                value_start,
                                end,
                            ));
                        }
                        parsed.field = Some(value);
                    }
                }
            }
            "reason" => {
                duplicate(parsed.reason.is_some())?;
                let (value, end) = if b.get(i) == Some(&b'"') || b.get(i) == Some(&b'`') {
                    string_literal(text, i)?
                } else {
                    let mut j = i;
                    while j < text.len() && b[j].is_ascii_alphanumeric() {
                        j += 1;
                    }
                    (text[i..j].to_string(), j)
                };
                i = end;
                parsed.reason = Some(match value.as_str() {
                    "Invalid" => CelReason::Invalid,
                    "Required" => CelReason::Required,
                    "Forbidden" => CelReason::Forbidden,
                    "RequestEntityTooLarge" => {
                        return Err(err(
                            "reason RequestEntityTooLarge cannot be published: x-kubernetes-validations reasons are FieldValueInvalid, FieldValueForbidden, FieldValueRequired and FieldValueDuplicate (write reason=Invalid, Forbidden or Required)",
                            value_start,
                            end,
                        ));
                    }
                    other => {
                        return Err(err(
                            format!(
                                "unknown reason {}: must be one of Required, Forbidden, Invalid",
                                go_quote(other)
                            ),
                            value_start,
                            end,
                        ));
                    }
                });
            }
            other => {
                return Err(err(
                    format!(
                        "unknown option {}: must be message, messageExpression, reason or field",
                        go_quote(other)
                    ),
                    key_start,
                    key_start + other.len(),
                ));
            }
        }
    }
    Ok(parsed)
}

fn skip_spaces(text: &str, mut i: usize) -> usize {
    let b = text.as_bytes();
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    i
}

fn next_char(text: &str, i: usize) -> usize {
    text[i..].chars().next().map_or(i + 1, |c| i + c.len_utf8())
}

/// A Go string literal at `i` (interpreted `"..."` or raw `` `...` ``): its value and the
/// index after it.
fn string_literal(text: &str, i: usize) -> Result<(String, usize), ParseError> {
    let b = text.as_bytes();
    match b.get(i) {
        Some(b'`') => {
            let Some(len) = text[i + 1..].find('`') else {
                return Err(err("raw string literal not terminated", i, text.len()));
            };
            Ok((text[i + 1..i + 1 + len].to_string(), i + len + 2))
        }
        Some(b'"') => unquote(text, i),
        _ => Err(err(
            "expected a Go string literal (\"...\" or `...`)",
            i.min(text.len()),
            next_char(text, i.min(text.len())),
        )),
    }
}

/// Go's `strconv.Unquote` of the interpreted string literal starting at `start`.
fn unquote(text: &str, start: usize) -> Result<(String, usize), ParseError> {
    let mut out = String::new();
    let mut chars = text[start + 1..].char_indices().peekable();
    let at = |off: usize| start + 1 + off;
    while let Some((off, c)) = chars.next() {
        match c {
            '"' => return Ok((out, at(off) + 1)),
            '\\' => {
                let Some((eoff, e)) = chars.next() else { break };
                let simple = match e {
                    'a' => Some('\u{7}'),
                    'b' => Some('\u{8}'),
                    'f' => Some('\u{c}'),
                    'n' => Some('\n'),
                    'r' => Some('\r'),
                    't' => Some('\t'),
                    'v' => Some('\u{b}'),
                    '\\' => Some('\\'),
                    '"' => Some('"'),
                    _ => None,
                };
                if let Some(s) = simple {
                    out.push(s);
                    continue;
                }
                let (digits, radix) = match e {
                    'x' => (2, 16),
                    'u' => (4, 16),
                    'U' => (8, 16),
                    '0'..='7' => (2, 8),
                    _ => {
                        return Err(err(
                            format!("unknown escape sequence \\{e} in string literal"),
                            at(off),
                            at(eoff) + e.len_utf8(),
                        ));
                    }
                };
                let mut v: u32 = if radix == 8 { e as u32 - '0' as u32 } else { 0 };
                let mut end = at(eoff) + 1;
                for _ in 0..digits {
                    let Some((doff, d)) = chars.next() else {
                        return Err(err("string literal not terminated", start, text.len()));
                    };
                    end = at(doff) + d.len_utf8();
                    let Some(dv) = d.to_digit(radix) else {
                        return Err(err(
                            "invalid escape sequence in string literal",
                            at(off),
                            end,
                        ));
                    };
                    v = v * radix + dv;
                }
                let ch = match e {
                    'x' | '0'..='7' if v < 0x80 => char::from_u32(v),
                    // A byte escape above 0x7f is not UTF-8 on its own: refused rather than
                    // guessed (a CEL rule is text).
                    'x' | '0'..='7' => None,
                    _ => char::from_u32(v),
                };
                let Some(ch) = ch else {
                    return Err(err(
                        "escape sequence is not a valid Unicode character",
                        at(off),
                        end,
                    ));
                };
                out.push(ch);
            }
            '\n' => break,
            c => out.push(c),
        }
    }
    Err(err("string literal not terminated", start, text.len()))
}

/// Lowers the `+validationRule` lines of a type or field declaration (`tags`, of `pkg`):
/// one [`Check::CelRule`] each, in source order, after the `+k8s:` tags' validations.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    pkg: &'u Package,
    tags: &'u Tags,
) -> Lowered<'u> {
    let mut out = Lowered::default();
    for line in tags.named(NAME) {
        let site = pkg.files.get(line.loc.file as usize).map(|file| Site {
            file,
            loc: line.loc,
        });
        let report = |lw: &mut Lowerer<'u>, span: Span, message: String| {
            lw.report(LowerError {
                message: format!("+{NAME}: {message}"),
                span: site.map(|s| s.span(span)),
                severity: Severity::Error,
            });
        };
        let parsed = match parse(&line.text) {
            Ok(p) => p,
            Err(e) => {
                report(lw, e.span, e.message);
                continue;
            }
        };
        let name_span = Span::new(0, NAME.len());
        let cel_site = match ctx.scope {
            Scope::Type => CelSite::Type(lw.shape(&ctx.ty)),
            Scope::Field => {
                let (Some(member), Some(parent)) = (&ctx.member, &ctx.parent_ty) else {
                    continue;
                };
                let json = match member.json_name() {
                    "" if !member.field.embedded => member.name(),
                    name => name,
                };
                if json.is_empty() {
                    report(
                        lw,
                        name_span,
                        "an embedded (inlined) field has no schema node of its own: write the rule on the struct type".into(),
                    );
                    continue;
                }
                let parent = lw.g.non_pointer(parent).clone();
                CelSite::Field {
                    parent: lw.shape(&parent),
                    name: json.to_string(),
                }
            }
            _ => continue,
        };
        let origin = site.map(|s| {
            let id = SpanId(lw.spans.len() as u32);
            // The whole tag, as `kdv explain` shows it; lint narrows it to the rule.
            lw.spans
                .push(s.span(Span::new(0, line.text.trim_end().len())));
            id
        });
        let error_type = parsed
            .reason
            .map_or(ErrorType::Invalid, CelReason::error_type);
        let rule = CelRule {
            rule: parsed.rule,
            message: parsed.message,
            message_expression: parsed.message_expression,
            reason: parsed.reason,
            field: parsed.field,
            site: cel_site,
            compiled: CelCache::default(),
        };
        let fragment = rule.field_path().unwrap_or_default();
        let mut v = Validation::new(NAME, Check::CelRule(Box::new(rule))).emits([Emission {
            error_type,
            origin: "",
            fragment: Cow::Owned(fragment),
        }]);
        v.origin = origin;
        v.level = ctx.level;
        out.functions.push(v);
    }
    out
}

/// `kdv lint --upstream`: an error at every `+validationRule` of `rules` (a kdv extension
/// upstream validation-gen ignores, so a Kubernetes API must not carry it).
pub fn extension_uses(rules: &crate::ir::RuleSet) -> Vec<kdv_model::Diagnostic> {
    let mut out = Vec::new();
    for t in &rules.types {
        let all = t
            .validations
            .iter()
            .chain(t.fields.iter().flat_map(|f| f.validations.iter()));
        for v in all {
            if matches!(v.check, Check::CelRule(_)) {
                out.push(kdv_model::Diagnostic {
                    severity: Severity::Error,
                    message: format!(
                        "tag \"{NAME}\" is a kdv extension ({}): upstream validation-gen does not have it",
                        VALIDATION_RULE.seed
                    ),
                    span: v.origin.and_then(|s| rules.span(s)).cloned(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeds_lines_parse() {
        let p = parse(r#"validationRule="!(self.type == 'Recreate') || !has(self.rollingUpdate)",message="may not be specified when strategy `type` is Recreate",reason=Forbidden,field="rollingUpdate""#).unwrap();
        assert_eq!(
            p.rule,
            "!(self.type == 'Recreate') || !has(self.rollingUpdate)"
        );
        assert_eq!(
            p.message.as_deref(),
            Some("may not be specified when strategy `type` is Recreate")
        );
        assert_eq!(p.reason, Some(CelReason::Forbidden));
        assert_eq!(p.field.as_deref(), Some("rollingUpdate"));
        assert_eq!(p.rule_span, Span::new(15, 71));
        let p = parse(r#"validationRule="self.matches('[a-z][1-9]+')""#).unwrap();
        assert_eq!(p.rule, "self.matches('[a-z][1-9]+')");
        let p = parse(
            "validationRule=`a \\n`, messageExpression = \"'x' + \\\"y\\\"\" , reason=\"Required\"",
        )
        .unwrap();
        assert_eq!(p.rule, "a \\n");
        assert_eq!(p.message_expression.as_deref(), Some("'x' + \"y\""));
        assert_eq!(p.reason, Some(CelReason::Required));
        let p = parse(r#"validationRule="\u00e9\x41\101\t""#).unwrap();
        assert_eq!(p.rule, "éAA\t");
    }

    #[test]
    fn errors_point_at_the_offending_part() {
        let cases = [
            (
                "validationRule",
                "+validationRule needs a value: +validationRule=\"<CEL expression>\"",
                13,
            ),
            (
                "validationRule=self",
                "expected a Go string literal (\"...\" or `...`)",
                15,
            ),
            ("validationRule=\"self", "string literal not terminated", 15),
            ("validationRule=\"\"", "the rule is empty", 15),
            (
                "validationRule=\"a\\q\"",
                "unknown escape sequence \\q in string literal",
                17,
            ),
            (
                "validationRule=\"a\" x",
                "unexpected \"x\" after the rule: options follow as ,name=value",
                19,
            ),
            (
                "validationRule=\"a\",msg=\"m\"",
                "unknown option \"msg\": must be message, messageExpression, reason or field",
                19,
            ),
            (
                "validationRule=\"a\",reason=Bad",
                "unknown reason \"Bad\": must be one of Required, Forbidden, Invalid",
                26,
            ),
            (
                "validationRule=\"a\",reason=RequestEntityTooLarge",
                "reason RequestEntityTooLarge cannot be published: x-kubernetes-validations reasons are FieldValueInvalid, FieldValueForbidden, FieldValueRequired and FieldValueDuplicate (write reason=Invalid, Forbidden or Required)",
                26,
            ),
            (
                "validationRule=\"a\",message=\"x\",message=\"y\"",
                "option \"message\" is given twice",
                31,
            ),
            (
                "validationRule=\"a\",message=\" \"",
                "message must be non-empty if specified",
                27,
            ),
            (
                "validationRule=\"a\",field",
                "option \"field\" needs a value: field=...",
                19,
            ),
            (
                "validationRule=\"a\",",
                "expected an option name (message, messageExpression, reason, field)",
                19,
            ),
        ];
        for (text, message, col) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!((e.message.as_str(), e.span.start), (message, col), "{text}");
        }
    }
}
