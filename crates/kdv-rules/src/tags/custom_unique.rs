//! `+k8s:customUnique`.

use kdv_tags::{Tag, ValueType};

use super::list_type::require_list;
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{Stability, TagDoc, VALUE_SCOPES};

/// `+k8s:customUnique`.
pub(crate) const DOC: TagDoc = TagDoc {
    name: "k8s:customUnique",
    stability: Stability::Stable,
    scopes: VALUE_SCOPES,
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Uniqueness of this set/map list is checked by hand-written code: no uniqueness check is generated (the list metadata must still be valid).",
    example: "+k8s:customUnique",
};

/// Lowers `+k8s:customUnique`: marks the list metadata.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    require_list(lw, ctx, tag)?;
    lw.list_meta
        .entry(ctx.path.clone())
        .or_default()
        .custom_unique = true;
    Ok(Lowered::default())
}
