//! Hand-written validation (upstream `validators/customvalidation.go`):
//! `+k8s:customValidation` (spec §3.29) calls a function found by upstream's naming
//! convention — `ValidateCustom_<Type>` on a type, `ValidateCustom_<Struct>_<Field>` on a
//! field. kdv cannot run Go code, so the IR names the function and backends look it up in a
//! registry supplied by the caller; kdv does not check that the Go function exists.

use kdv_tags::{Tag, ValueType};

use crate::gotypes::Ty;
use crate::ir::{Check, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer, TagDef};
use crate::tag_doc::{Scope, Stability, TagDoc};

/// `+k8s:customValidation`.
pub(crate) const CUSTOM_VALIDATION: TagDoc = TagDoc {
    name: "k8s:customValidation",
    stability: Stability::Stable,
    scopes: &[Scope::Type, Scope::Field],
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Calls a hand-written validation function found by naming convention: `ValidateCustom_<Type>` on a type, `ValidateCustom_<Struct>_<Field>` (Go names) on a field. A field's call is skipped on update when the field is unchanged; a type's call runs whenever the type is validated. kdv runs such functions only when the caller registers them by name.",
    example: "+k8s:customValidation",
    extension: None,
};

/// Lowers `+k8s:customValidation`.
pub(crate) fn lower_custom_validation<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let defining = match ctx.scope {
        Scope::Field => ctx.parent_ty.clone().unwrap_or(Ty::Interface),
        _ => ctx.ty.clone(),
    };
    let Ty::Named(idx) = lw.g.non_pointer(&defining).clone() else {
        return Err(ctx.tag_error(
            tag,
            "cannot resolve generated package for  (is it being processed by validation-gen?)",
        ));
    };
    let named = &lw.g.named[idx];
    let mut function_name = format!("ValidateCustom_{}", named.decl.name);
    if ctx.scope == Scope::Field
        && let Some(member) = &ctx.member
    {
        function_name.push('_');
        function_name.push_str(member.name());
    }
    // Hand-written functions declare nothing upstream.
    Ok(Lowered::function(
        Validation::new(
            CUSTOM_VALIDATION.name,
            Check::CustomValidation {
                function_name,
                package: named.pkg.path.clone(),
            },
        )
        .bare(),
    ))
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[TagDef {
    doc: CUSTOM_VALIDATION,
    lower: lower_custom_validation,
}];
