//! Defaults: `+k8s:default=<json>`, a kdv extension (KEP-5073 "Handling Zero Values in
//! Declarative Validation", "Difficulties with +k8s:required and +k8s:default": the
//! tri-state rule), beside upstream's `+default=<json>`, whose handling stays upstream's
//! (`super::required`). Both are collected as [`FieldDefault`]s for schema emission
//! (KEP-4153 "Publish Declarative Defaults in Schema") and for defaulting manifests.
//!
//! A `+k8s:default` field is validated as the API server validates it after defaulting: an
//! unset field (Go's notion: nil, empty, or the zero value) holds the default, which lint
//! checks against the field's rules, so nothing is reported for it (never `Required`); a
//! set field is validated as any other. Semantics: `kdv_runtime::required::optional`.

use kdv_model::RAW_VALUED_K8S_TAG;
use kdv_tags::{Tag, TagValue, ValueType, go_quote};

use super::required::{is_zero, presence};
use crate::gotypes::Member;
use crate::ir::{Check, FieldDefault, SpanId, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer, Site, TagDef};
use crate::tag_doc::{Scope, Stability, TagDoc};

/// Upstream's spelling, `+default=<json>` (read by `+k8s:optional`, not a registered tag).
pub const UPSTREAM_DEFAULT: &str = "default";

/// `+k8s:default` (a kdv extension).
pub(crate) const DEFAULT: TagDoc = TagDoc {
    name: RAW_VALUED_K8S_TAG,
    stability: Stability::Stable,
    scopes: &[Scope::Field],
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::Raw,
    payload_required: true,
    payload_description: "<json>: the default as a JSON value (`1`, `\"Always\"`, `[\"a\"]`, `{\"k\": 1}`), matching the field's type",
    description: "The field's default: the API server sets an absent field to it before validating. The third state of the tri-state rule: `+k8s:optional`, `+k8s:default` and `+k8s:required` are mutually exclusive (an error at the tag), and `+k8s:default` satisfies the rule that a validated field declares one of them. An unset field (nil, empty, or the zero value, as `+k8s:optional` decides) holds the default after defaulting, so it is never `Required` and its other validations are not run on it; lint checks the default against the field's type and its other validations (`+k8s:default=0` with `+k8s:minimum=1` is an error). Published as OpenAPI `default`, and the field is never listed in `required`. Upstream's `+default=` is also published, and its default checked by lint, but keeps upstream's meaning (with `+k8s:optional`, a non-zero default makes a value field required). Decisions: docs/decisions/0100-defaults-tri-state.md, 0101-defaults-in-schemas-and-lint.md. A kdv extension: upstream validation-gen does not have it.",
    example: "+k8s:default=1",
    extension: Some(
        "KEP-5073 \"Handling Zero Values in Declarative Validation\" (tri-state `+k8s:optional`/`+k8s:default`/`+k8s:required`); KEP-4153 \"Publish Declarative Defaults in Schema\"",
    ),
};

/// Parses a default's JSON text; `null` is refused, as upstream refuses it.
pub(crate) fn parse_default(payload: &str) -> Result<serde_json::Value, String> {
    let value: serde_json::Value = serde_json::from_str(payload)
        .map_err(|e| format!("failed to parse default value {}: {e}", go_quote(payload)))?;
    if value.is_null() {
        return Err(format!(
            "failed to parse default value {}: unmarshalled to nil",
            go_quote(payload)
        ));
    }
    Ok(value)
}

/// The raw payload of `+k8s:default` (read in raw mode).
fn raw_payload(tag: &Tag) -> &str {
    match &tag.value {
        TagValue::Raw(s) => s,
        other => other.as_str().unwrap_or(""),
    }
}

/// Lowers `+k8s:default`: the field is optional as Go sees it (an unset field holds the
/// default after defaulting), except that a zero default on a value field leaves the zero
/// value to be validated as any value (the seed's "fields that allow valid zero values").
pub(crate) fn lower_default<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let value = parse_default(raw_payload(tag)).map_err(|e| ctx.value_error(tag, e))?;
    let p = presence(lw, ctx, tag, DEFAULT.name)?;
    if is_zero(lw, ctx, tag, &value)? {
        // The zero value is the default: Go cannot tell it from unset, so it is a value
        // like any other (validated), as upstream treats a zero `+default`.
        return Ok(Lowered {
            comments: 1,
            ..Lowered::default()
        });
    }
    Ok(Lowered::function(
        Validation::new(DEFAULT.name, Check::Optional(p))
            .short_circuit()
            .bare()
            .non_error(),
    ))
}

/// The default a struct member declares: `+k8s:default` first, else a single, valid
/// `+default` (upstream reports the others when it reads them). Its tag's span is recorded
/// in `lw`'s span table.
pub(crate) fn member_default(lw: &mut Lowerer<'_>, member: &Member<'_>) -> Option<FieldDefault> {
    let tags = &member.field.tags;
    let (line, tag, value) = if let Some(line) = tags.named(DEFAULT.name).next() {
        let tag = line.parsed.as_ref().ok()?;
        (line, DEFAULT.name, parse_default(raw_payload(tag)).ok()?)
    } else {
        let mut lines = tags.named(UPSTREAM_DEFAULT);
        let line = lines.next()?;
        if lines.next().is_some() {
            return None;
        }
        (
            line,
            UPSTREAM_DEFAULT,
            parse_default(&line.raw_value()).ok()?,
        )
    };
    let origin = member.pkg.files.get(line.loc.file as usize).map(|file| {
        let site = Site {
            file,
            loc: line.loc,
        };
        let id = SpanId(lw.spans.len() as u32);
        lw.spans.push(site.span(kdv_tags::Span {
            start: 0,
            end: line.name.len(),
        }));
        id
    });
    Some(FieldDefault { value, tag, origin })
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[TagDef {
    doc: DEFAULT,
    lower: lower_default,
}];
