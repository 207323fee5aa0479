//! Patterns: `+k8s:pattern="<RE2>"`, a kdv extension (KEP-5073's earlier catalog,
//! KEP-4153's `+pattern` row; upstream validation-gen has no such tag). The pattern is read
//! by `kdv-cel`'s regex module, which accepts and rejects exactly what Go's
//! `regexp.Compile` does, with Go's error text. Semantics: `kdv_runtime::pattern`.

use kdv_cel::library::regex as go_regex;
use kdv_runtime::ErrorType;
use kdv_runtime::pattern::{ORIGIN, Pattern};
use kdv_tags::{Tag, ValueType};

use super::limits::require_string;
use super::payload;
use crate::ir::{Check, Emission, PatternSpec, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer, TagDef};
use crate::tag_doc::{Stability, TagDoc, VALUE_SCOPES};

/// `+k8s:pattern` (a kdv extension).
pub(crate) const PATTERN: TagDoc = TagDoc {
    name: "k8s:pattern",
    stability: Stability::Stable,
    scopes: VALUE_SCOPES,
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::String,
    payload_required: true,
    payload_description: "\"<RE2>\": a Go regular expression, as a quoted tag string (backslashes doubled: \"^\\\\d+$\")",
    description: "Requires a string to contain a match of the Go (RE2) regular expression; anchor it with `^...$` to match the whole value, as OpenAPI's `pattern`. Failure: `should match '<pattern>'` (kube-openapi's `pattern` text without its `<field> in body` prefix), origin `pattern`. A pattern Go's `regexp.Compile` rejects is an error at the tag, with Go's text. Regex patterns are matched within a per-value budget (pattern length × value length ≤ 500,000,000, the budget kdv applies to CRD patterns); literal patterns have none. Absent values are not checked. Published as OpenAPI `pattern`, which the API server matches with Go's regexp. A kdv extension: upstream validation-gen does not have it.",
    example: "+k8s:pattern=\"^[a-z]([-a-z0-9]*[a-z0-9])?$\"",
    extension: Some(
        "KEP-5073 (earlier revision) \"Catalog of Supported Validation Rules & Associated IDL Tags\" (regex matches); KEP-4153 Go IDL tags (`+pattern`)",
    ),
};

/// Lowers `+k8s:pattern`: the payload compiled as Go compiles it.
pub(crate) fn lower_pattern<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    require_string(lw, ctx, tag)?;
    let source = payload(tag);
    let regex = go_regex::compile_go(source).map_err(|e| ctx.value_error(tag, e.to_string()))?;
    let translated = go_regex::translate(source).map_err(|e| ctx.value_error(tag, e))?;
    let pattern = match go_regex::literal_form(source) {
        Some(lit) => Pattern::literal(source, lit),
        None => Pattern::from_regex(source, regex),
    };
    Ok(Lowered::function(
        Validation::new(
            PATTERN.name,
            Check::Pattern(PatternSpec {
                pattern,
                translated,
            }),
        )
        .emits([Emission::at_path(ErrorType::Invalid, ORIGIN)]),
    ))
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[TagDef {
    doc: PATTERN,
    lower: lower_pattern,
}];
