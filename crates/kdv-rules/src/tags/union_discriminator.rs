//! `+k8s:unionDiscriminator`: the string field naming which union member is set
//! (spec §3.23, §6.4). Records metadata only; the union check comes from the members.

use kdv_tags::{Tag, ValueType};

use super::unions::{SCOPES, record_discriminator};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{ArgDoc, Stability, TagDoc};

/// `+k8s:unionDiscriminator`.
pub(crate) const DOC: TagDoc = TagDoc {
    name: "k8s:unionDiscriminator",
    stability: Stability::Beta,
    scopes: SCOPES,
    args: &[ArgDoc {
        name: "union",
        ty: ValueType::String,
        required: false,
        description: "the union's name, when a struct has several",
    }],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Declares the string field naming which member of a union is set: the named member must be set and the others must not be. An unknown or empty value is not an error by itself.",
    example: "+k8s:unionDiscriminator",
};

/// Lowers `+k8s:unionDiscriminator`.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    record_discriminator(lw, ctx, tag)?;
    Ok(Lowered::default())
}
