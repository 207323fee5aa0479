//! `+k8s:monotonic`.

use kdv_tags::{Tag, ValueType};

use super::root_type_string;
use crate::gotypes::Ty;
use crate::ir::{Check, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{Scope, Stability, TagDoc};

/// `+k8s:monotonic`.
pub(crate) const DOC: TagDoc = TagDoc {
    name: "k8s:monotonic",
    stability: Stability::Alpha,
    scopes: &[Scope::Type, Scope::Field],
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "An integer that may not decrease on update. Setting or clearing it is not checked (combine with `+k8s:update=NoUnset`).",
    example: "+k8s:monotonic",
};

/// Lowers `+k8s:monotonic`.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let t = lw.g.base(&ctx.ty);
    if !matches!(t, Ty::Builtin(b) if b.is_integer()) {
        return Err(ctx.tag_error(
            tag,
            format!(
                "must be an integer type (got {})",
                root_type_string(&lw.g, &ctx.ty, &t)
            ),
        ));
    }
    Ok(Lowered::function(Validation::new(
        DOC.name,
        Check::Monotonic,
    )))
}
