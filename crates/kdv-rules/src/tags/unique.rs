//! `+k8s:unique=<set|map>`.

use kdv_tags::{Tag, ValueType, go_quote};

use super::list_type::{elem_is_struct, finalize_later, require_list};
use super::payload;
use crate::lower::{Ctx, ListSemantic, LowerError, Lowered, Lowerer};
use crate::registry::{Stability, TagDoc, VALUE_SCOPES};

/// `+k8s:unique`.
pub(crate) const DOC: TagDoc = TagDoc {
    name: "k8s:unique",
    stability: Stability::Stable,
    scopes: VALUE_SCOPES,
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::String,
    payload_required: true,
    payload_description: "set | map",
    description: "Requires the items of a `listType=atomic` list to be unique: as whole values (`set`) or by their `+k8s:listMapKey` fields (`map`).",
    example: "+k8s:unique=set",
};

/// Lowers `+k8s:unique`.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let elem = require_list(lw, ctx, tag)?;
    let elem_struct = elem_is_struct(lw, &elem);
    let lm = lw.list_meta.entry(ctx.path.clone()).or_default();
    lm.level = ctx.level;
    if lm.ownership_single == Some(false) {
        return Err(ctx.value_error(
            tag,
            "unique tag may not be used with listType=set or listType=map",
        ));
    }
    if lm.semantic.is_some() && lm.semantic != Some(ListSemantic::Atomic) {
        return Err(ctx.value_error(tag, "unique tag cannot be specified more than once"));
    }
    match payload(tag) {
        "set" => lm.semantic = Some(ListSemantic::Set),
        "map" => {
            if !elem_struct {
                return Err(ctx.value_error(tag, "only lists of structs can be list-maps"));
            }
            lm.semantic = Some(ListSemantic::Map);
        }
        other => {
            return Err(ctx.value_error(tag, format!("unknown unique type {}", go_quote(other))));
        }
    }
    Ok(finalize_later(ctx, tag))
}
