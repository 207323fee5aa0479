//! `+k8s:immutable`.

use kdv_tags::{Tag, ValueType};

use crate::ir::{Check, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{Scope, Stability, TagDoc};

/// `+k8s:immutable`.
pub(crate) const DOC: TagDoc = TagDoc {
    name: "k8s:immutable",
    stability: Stability::Stable,
    scopes: &[Scope::Field, Scope::Type, Scope::ListVal, Scope::MapVal],
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "The value may not change once created: any change on update is an error (including setting or clearing it). Relies on ratcheting, so an unchanged value is never checked; new list items or map entries count as changes.",
    example: "+k8s:immutable",
};

/// Lowers `+k8s:immutable` (short-circuit).
pub(crate) fn lower<'u>(
    _lw: &mut Lowerer<'u>,
    _ctx: &Ctx<'u>,
    _tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    Ok(Lowered::function(
        Validation::new(DOC.name, Check::Immutable).short_circuit(),
    ))
}
