//! Immutability (upstream `validators/immutable.go` and `monotonic.go`): `+k8s:immutable`
//! and `+k8s:monotonic`. Semantics: `kdv_runtime::immutable`.

use kdv_runtime::ErrorType;
use kdv_runtime::immutable::origin;
use kdv_tags::{Tag, ValueType};

use super::root_type_string;
use crate::gotypes::Ty;
use crate::ir::{Check, Emission, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer, TagDef};
use crate::tag_doc::{Scope, Stability, TagDoc};

/// `+k8s:immutable`.
pub(crate) const IMMUTABLE: TagDoc = TagDoc {
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
    extension: None,
};

/// Lowers `+k8s:immutable` (short-circuit).
pub(crate) fn lower_immutable<'u>(
    _lw: &mut Lowerer<'u>,
    _ctx: &Ctx<'u>,
    _tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    Ok(Lowered::function(
        Validation::new(IMMUTABLE.name, Check::Immutable)
            .short_circuit()
            .bare()
            .emits([Emission::at_path(ErrorType::Invalid, origin::IMMUTABLE)]),
    ))
}

/// `+k8s:monotonic`.
pub(crate) const MONOTONIC: TagDoc = TagDoc {
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
    extension: None,
};

/// Lowers `+k8s:monotonic`.
pub(crate) fn lower_monotonic<'u>(
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
    // Upstream's monotonic function declares nothing.
    Ok(Lowered::function(
        Validation::new(MONOTONIC.name, Check::Monotonic).bare(),
    ))
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[
    TagDef {
        doc: IMMUTABLE,
        lower: lower_immutable,
    },
    TagDef {
        doc: MONOTONIC,
        lower: lower_monotonic,
    },
];
