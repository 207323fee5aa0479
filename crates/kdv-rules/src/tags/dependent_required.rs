//! `+k8s:dependentRequired("<sibling>")`: when this field is set, the sibling must be set.

use kdv_tags::{Tag, ValueType};

use super::dependencies::{ARGS, lower as lower_dependency};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{Scope, Stability, TagDoc};

/// `+k8s:dependentRequired`.
pub(crate) const DOC: TagDoc = TagDoc {
    name: "k8s:dependentRequired",
    stability: Stability::Alpha,
    scopes: &[Scope::Field],
    args: ARGS,
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "When this field is set (non-nil pointer, non-empty list or map, non-zero value), the named sibling field must be set too. One-directional; repeat the tag for several siblings. On update the check is skipped when neither field's set-ness changed.",
    example: "+k8s:dependentRequired(\"other\")",
};

/// Lowers `+k8s:dependentRequired`.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    lower_dependency(lw, ctx, tag, DOC.name, false)
}
