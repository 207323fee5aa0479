//! `+k8s:dependentForbidden("<sibling>")`: when this field is set, the sibling must not be.

use kdv_tags::{Tag, ValueType};

use super::dependencies::{ARGS, lower as lower_dependency};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{Scope, Stability, TagDoc};

/// `+k8s:dependentForbidden`.
pub(crate) const DOC: TagDoc = TagDoc {
    name: "k8s:dependentForbidden",
    stability: Stability::Alpha,
    scopes: &[Scope::Field],
    args: ARGS,
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "When this field is set (non-nil pointer, non-empty list or map, non-zero value), the named sibling field must not be set. One-directional; repeat the tag for several siblings. On update the check is skipped when neither field's set-ness changed.",
    example: "+k8s:dependentForbidden(\"other\")",
};

/// Lowers `+k8s:dependentForbidden`.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    lower_dependency(lw, ctx, tag, DOC.name, true)
}
