//! `+k8s:zeroOrOneOfMember`: a member of a union where at most one member may be set
//! (spec §3.24).

use kdv_tags::{Tag, ValueType};

use super::unions::{Family, MEMBER_ARGS, SCOPES, record_member};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{Stability, TagDoc};

/// `+k8s:zeroOrOneOfMember`.
pub(crate) const DOC: TagDoc = TagDoc {
    name: "k8s:zeroOrOneOfMember",
    stability: Stability::Stable,
    scopes: SCOPES,
    args: MEMBER_ARGS,
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Declares a member of a zero-or-one-of group: at most one member may be set. On update the group is re-checked only when a member's set-ness changed.",
    example: "+k8s:zeroOrOneOfMember",
};

/// Lowers `+k8s:zeroOrOneOfMember`.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    record_member(lw, ctx, tag, Family::ZeroOrOneOf)
}
