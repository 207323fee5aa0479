//! `+k8s:modeDiscriminator`: the string or bool field selecting a struct's mode for
//! `+k8s:ifMode` rules (spec §3.25). Records metadata only.

use kdv_tags::{Tag, ValueType};

use super::modes::record_discriminator;
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{ArgDoc, Scope, Stability, TagDoc};

/// `+k8s:modeDiscriminator`.
pub(crate) const DOC: TagDoc = TagDoc {
    name: "k8s:modeDiscriminator",
    stability: Stability::Stable,
    scopes: &[Scope::Field],
    args: &[ArgDoc {
        name: "modality",
        ty: ValueType::String,
        required: false,
        description: "the discriminator group, when a struct has several",
    }],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Declares the string or bool field selecting the struct's mode for `+k8s:ifMode` rules.",
    example: "+k8s:modeDiscriminator",
};

/// Lowers `+k8s:modeDiscriminator`.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    record_discriminator(lw, ctx, tag)?;
    Ok(Lowered::default())
}
