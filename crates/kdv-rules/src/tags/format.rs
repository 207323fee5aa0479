//! Formats (upstream `validators/format.go`): `+k8s:format=<name>`. Semantics:
//! `kdv_runtime::format`.

use kdv_runtime::ErrorType;
use kdv_tags::{Tag, ValueType, go_quote};

use super::{is_string, payload, root_type_string};
use crate::ir::{Check, Emission, Format, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer, TagDef};
use crate::tag_doc::{Stability, TagDoc, VALUE_SCOPES};

/// `+k8s:format`.
pub(crate) const FORMAT: TagDoc = TagDoc {
    name: "k8s:format",
    stability: Stability::Stable,
    scopes: VALUE_SCOPES,
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::String,
    payload_required: true,
    payload_description: "k8s-short-name | k8s-long-name | k8s-long-name-caseless | k8s-label-key | k8s-prefixed-label-key | k8s-label-value | k8s-path-segment-name | k8s-uuid | k8s-resource-pool-name | k8s-extended-resource-name | k8s-resource-fully-qualified-name",
    description: "Requires a string to have the named Kubernetes format (DNS label or subdomain, label key or value, UUID, ...). Absent values are not checked.",
    example: "+k8s:format=k8s-short-name",
    extension: None,
};

/// Lowers `+k8s:format`.
pub(crate) fn lower_format<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let t = lw.g.base(&ctx.ty);
    if !is_string(&t) {
        return Err(ctx.tag_error(
            tag,
            format!(
                "can only be used on string types ({})",
                root_type_string(&lw.g, &ctx.ty, &t)
            ),
        ));
    }
    let name = payload(tag);
    let Some(format) = Format::from_name(name) else {
        return Err(ctx.value_error(
            tag,
            format!("unsupported validation format {}", go_quote(name)),
        ));
    };
    Ok(Lowered::function(
        Validation::new(FORMAT.name, Check::Format(format))
            .bare()
            .emits([Emission::at_path(ErrorType::Invalid, format.origin())]),
    ))
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[TagDef {
    doc: FORMAT,
    lower: lower_format,
}];
