//! `+k8s:listMapKey=<jsonName>`.

use kdv_tags::{Tag, ValueType, go_quote};

use super::list_type::{elem_is_struct, require_list};
use super::payload;
use crate::gotypes::{Kind, Ty};
use crate::lower::{Ctx, ListKey, LowerError, Lowered, Lowerer};
use crate::registry::{Stability, TagDoc, VALUE_SCOPES};

/// `+k8s:listMapKey`.
pub(crate) const DOC: TagDoc = TagDoc {
    name: "k8s:listMapKey",
    stability: Stability::Stable,
    scopes: VALUE_SCOPES,
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::String,
    payload_required: true,
    payload_description: "<json name>: a field of the list's element struct",
    description: "Names one key field of a `listType=map` (or `unique=map`) list; repeat for composite keys. The field must be a scalar or a pointer to one.",
    example: "+k8s:listMapKey=name",
};

/// Lowers `+k8s:listMapKey`: records the key in the list metadata.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let elem = require_list(lw, ctx, tag)?;
    if !elem_is_struct(lw, &elem) {
        return Err(ctx.value_error(tag, "only lists of structs can be list-maps"));
    }
    let name = payload(tag);
    let base = lw.g.base(&elem);
    let Some(member) = lw.g.member_by_json(&base, name).cloned() else {
        return Err(ctx.value_error(tag, format!("no field for JSON name {}", go_quote(name))));
    };
    let key_ty = match &member.ty {
        Ty::Pointer(e) => (**e).clone(),
        other => other.clone(),
    };
    if lw.g.kind(&lw.g.native(&key_ty)) != Kind::Builtin {
        return Err(ctx.value_error(
            tag,
            format!(
                "only primitive types and pointers to primitive types can be list-map keys, not {}",
                lw.g.type_string(&member.ty)
            ),
        ));
    }
    let lm = lw.list_meta.entry(ctx.path.clone()).or_default();
    lm.keys.push(ListKey {
        name: name.to_string(),
        member,
    });
    Ok(Lowered::default())
}
