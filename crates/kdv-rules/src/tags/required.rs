//! `+k8s:required`, and the presence helpers shared with `optional` and `forbidden`.

use kdv_tags::{Tag, ValueType, go_quote};

use crate::gotypes::Kind;
use crate::ir::{Check, Presence, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{Scope, Stability, TagDoc};

/// The common shape of the requiredness tags' documentation.
pub(crate) const fn doc(
    name: &'static str,
    stability: Stability,
    description: &'static str,
    example: &'static str,
) -> TagDoc {
    TagDoc {
        name,
        stability,
        scopes: &[Scope::Field],
        args: &[],
        accepts_unknown_args: false,
        payload: ValueType::None,
        payload_required: false,
        payload_description: "",
        description,
        example,
    }
}

/// `+k8s:required`.
pub(crate) const DOC: TagDoc = doc(
    "k8s:required",
    Stability::Stable,
    "The field must be set: a non-nil pointer, a non-empty list or map, or a non-zero value. Short-circuits the field's other validations when unset.",
    "+k8s:required",
);

/// How unset is decided for the field's type (non-pointer structs are rejected).
pub(crate) fn presence(
    lw: &Lowerer<'_>,
    ctx: &Ctx<'_>,
    tag: &Tag,
    name: &str,
) -> Result<Presence, LowerError> {
    let native = lw.g.native(&ctx.ty);
    Ok(match lw.g.kind(&native) {
        Kind::Slice => Presence::Slice,
        Kind::Map => Presence::Map,
        Kind::Pointer => Presence::Pointer,
        Kind::Struct => {
            return Err(ctx.tag_error(
                tag,
                format!("non-pointer structs cannot use the {} tag", go_quote(name)),
            ));
        }
        _ => Presence::Value,
    })
}

/// The `Required*` check (also used by `optional` with a non-zero default).
pub(crate) fn required<'u>(
    lw: &Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let p = presence(lw, ctx, tag, DOC.name)?;
    Ok(Lowered::function(
        Validation::new(DOC.name, Check::Required(p)).short_circuit(),
    ))
}

/// Lowers `+k8s:required`.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    required(lw, ctx, tag)
}
