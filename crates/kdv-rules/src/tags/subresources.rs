//! Subresource conditions: `+k8s:ifSubresource("/status")=<tag>` and
//! `+k8s:ifNotSubresource("/resize")=<tag>`, kdv extensions from KEP-5073's "Status-Type
//! Subresources" (upstream validation-gen has no such tags). Semantics:
//! `kdv_runtime::subresources`.

use kdv_tags::{Tag, ValueType, go_quote};

use crate::ir::Check;
use crate::lower::{Ctx, LowerError, Lowered, Lowerer, TagDef, lower_conditional};
use crate::tag_doc::{ArgDoc, Scope, Stability, TagDoc};

const SCOPES: &[Scope] = &[
    Scope::Type,
    Scope::Field,
    Scope::ListVal,
    Scope::MapKey,
    Scope::MapVal,
];

const ARGS: &[ArgDoc] = &[ArgDoc {
    name: "",
    ty: ValueType::String,
    required: true,
    description: "<path>: a subresource path as `+k8s:supportsSubresource` writes it (`/status`, `/scale`, `/resize`; `/` is the main resource)",
}];

const SEED: &str =
    "KEP-5073 \"Subresources\" > \"Status-Type Subresources\" (Conditional Validation)";

/// `+k8s:ifSubresource` (a kdv extension).
pub(crate) const IF_SUBRESOURCE: TagDoc = TagDoc {
    name: "k8s:ifSubresource",
    stability: Stability::Stable,
    scopes: SCOPES,
    args: ARGS,
    accepts_unknown_args: false,
    payload: ValueType::Tag,
    payload_required: true,
    payload_description: "<tag>: the validation to apply to requests for that subresource",
    description: "Applies the chained tag only when the request addresses the named subresource (`kdv validate --subresource`, `Operation::subresources`). The same rules validate the whole object for the main resource and its subresources; this narrows one rule to one subresource. A CRD schema cannot tell subresources apart: `kdv schema` lists the rule as a note unless told which subresource to publish for. A kdv extension: upstream validation-gen does not have it.",
    example: "+k8s:ifSubresource(\"/status\")=+k8s:required",
    extension: Some(SEED),
};

/// `+k8s:ifNotSubresource` (a kdv extension).
pub(crate) const IF_NOT_SUBRESOURCE: TagDoc = TagDoc {
    name: "k8s:ifNotSubresource",
    stability: Stability::Stable,
    scopes: SCOPES,
    args: ARGS,
    accepts_unknown_args: false,
    payload: ValueType::Tag,
    payload_required: true,
    payload_description: "<tag>: the validation to apply to every other request",
    description: "Applies the chained tag to every request except those addressing the named subresource, e.g. a field immutable except through `/resize`. A CRD schema cannot tell subresources apart: `kdv schema` lists the rule as a note unless told which subresource to publish for. A kdv extension: upstream validation-gen does not have it.",
    example: "+k8s:ifNotSubresource(\"/resize\")=+k8s:immutable",
    extension: Some(SEED),
};

fn lower_if<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
    addressed: bool,
) -> Result<Lowered<'u>, LowerError> {
    let Some(arg) = tag.positional() else {
        return Err(ctx.tag_error(tag, "missing required subresource path positional argument"));
    };
    let subresource = arg.value.as_str().to_string();
    if !subresource.starts_with('/') {
        // The seed writes both `'/status'` and `'status'`; one spelling, that of
        // `+k8s:supportsSubresource`, keeps rules and roots comparable.
        return Err(ctx.error(
            arg.span,
            format!(
                "subresource path {} must start with \"/\" (did you mean {}?)",
                go_quote(&subresource),
                go_quote(&format!("/{subresource}"))
            ),
        ));
    }
    let name = if addressed {
        IF_SUBRESOURCE.name
    } else {
        IF_NOT_SUBRESOURCE.name
    };
    lower_conditional(lw, ctx, tag, name, move |inner| Check::IfSubresource {
        subresource: subresource.clone(),
        addressed,
        inner,
    })
}

/// Lowers `+k8s:ifSubresource`.
pub(crate) fn lower_if_subresource<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    lower_if(lw, ctx, tag, true)
}

/// Lowers `+k8s:ifNotSubresource`.
pub(crate) fn lower_if_not_subresource<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    lower_if(lw, ctx, tag, false)
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[
    TagDef {
        doc: IF_NOT_SUBRESOURCE,
        lower: lower_if_not_subresource,
    },
    TagDef {
        doc: IF_SUBRESOURCE,
        lower: lower_if_subresource,
    },
];
