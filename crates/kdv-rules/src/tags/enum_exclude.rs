//! `+k8s:enumExclude` (on constants).

use kdv_tags::{Tag, ValueType};

use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{Scope, Stability, TagDoc};

/// `+k8s:enumExclude`.
pub(crate) const DOC: TagDoc = TagDoc {
    name: "k8s:enumExclude",
    stability: Stability::Alpha,
    scopes: &[Scope::Const],
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Leaves this constant out of its enum type's allowed values. Under `+k8s:ifEnabled(<option>)=` / `+k8s:ifDisabled(<option>)=` the exclusion depends on the option.",
    example: "+k8s:enumExclude",
};

/// Lowers `+k8s:enumExclude`: nothing to emit; `k8s:enum` reads the constant's tags.
pub(crate) fn lower<'u>(
    _lw: &mut Lowerer<'u>,
    _ctx: &Ctx<'u>,
    _tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    Ok(Lowered::default())
}
