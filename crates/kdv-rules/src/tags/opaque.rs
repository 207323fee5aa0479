//! Opacity (upstream `validators/opaque.go`): `+k8s:opaqueType`.

pub(crate) mod state;

use kdv_tags::{Tag, ValueType};

use crate::lower::{Ctx, LowerError, Lowered, Lowerer, TagDef};
use crate::tag_doc::{Stability, TagDoc, VALUE_SCOPES};

/// `+k8s:opaqueType`.
pub(crate) const OPAQUE_TYPE: TagDoc = TagDoc {
    name: "k8s:opaqueType",
    stability: Stability::Stable,
    scopes: VALUE_SCOPES,
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Do not descend into the referenced type: its validations are ignored here. Required for fields whose type lives in a package that is not part of the run. On a type, only its own type-level validations run.",
    example: "+k8s:opaqueType",
    extension: None,
};

/// Lowers `+k8s:opaqueType`: records opacity (for fields, the field's type; for types, the
/// type's fields) so that discovery and `subfield` can consult it.
pub(crate) fn lower_opaque_type<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    _tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    match ctx.scope {
        crate::tag_doc::Scope::Type => {
            let base = lw.g.base(&ctx.ty);
            lw.opaque.types.insert(base);
        }
        crate::tag_doc::Scope::Field => {
            if let Some(key) = lw.member_key(ctx) {
                lw.opaque.members.insert(key);
            }
        }
        _ => {}
    }
    Ok(Lowered {
        opaque_type: true,
        ..Lowered::default()
    })
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[TagDef {
    doc: OPAQUE_TYPE,
    lower: lower_opaque_type,
}];
