//! `+k8s:unionMember`: a member of an exactly-one (or discriminated) union (spec §3.23).

use kdv_tags::{Tag, ValueType};

use super::unions::{Family, MEMBER_ARGS, SCOPES, record_member};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{Stability, TagDoc};

/// `+k8s:unionMember`.
pub(crate) const DOC: TagDoc = TagDoc {
    name: "k8s:unionMember",
    stability: Stability::Stable,
    scopes: SCOPES,
    args: MEMBER_ARGS,
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Declares a member of a union: exactly one member must be set (or, with a `+k8s:unionDiscriminator`, exactly the member the discriminator names). On update the union is re-checked only when a member's set-ness (or the discriminator) changed.",
    example: "+k8s:unionMember",
};

/// Lowers `+k8s:unionMember`.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    record_member(lw, ctx, tag, Family::Union)
}
