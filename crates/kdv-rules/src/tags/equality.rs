//! Equality (upstream `validators/equality.go`): `+k8s:neq`. Semantics:
//! `kdv_runtime::equality`.

use kdv_model::Builtin;
use kdv_runtime::ErrorType;
use kdv_runtime::equality::origin;
use kdv_tags::{Tag, ValueType};

use super::{payload, root_type_string};
use crate::gotypes::Ty;
use crate::ir::{Check, Emission, Literal, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer, TagDef};
use crate::tag_doc::{Stability, TagDoc, VALUE_SCOPES};

/// `+k8s:neq`.
pub(crate) const NEQ: TagDoc = TagDoc {
    name: "k8s:neq",
    stability: Stability::Alpha,
    scopes: VALUE_SCOPES,
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::Raw,
    payload_required: true,
    payload_description: "<value>: a string, integer or bool matching the field's type",
    description: "The value must not equal the given literal. Absent values are not checked.",
    example: "+k8s:neq=\"default\"",
    extension: None,
};

/// Lowers `+k8s:neq`.
pub(crate) fn lower_neq<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let t = lw.g.base(&ctx.ty);
    if !lw.g.is_direct_comparable(&t) {
        return Err(ctx.tag_error(
            tag,
            format!(
                "can only be used on comparable types (e.g. string, int, bool), but got {}",
                root_type_string(&lw.g, &ctx.ty, &t)
            ),
        ));
    }
    let vt = tag.value_type();
    if vt == ValueType::None {
        return Err(ctx.tag_error(tag, "missing required payload"));
    }
    let literal = match &t {
        Ty::Builtin(Builtin::String) => {
            if vt != ValueType::String {
                return Err(ctx.value_error(
                    tag,
                    format!(
                        "type mismatch: field is a string, but payload is of type {}",
                        vt.as_str()
                    ),
                ));
            }
            Literal::String(payload(tag).to_string())
        }
        Ty::Builtin(Builtin::Bool) => {
            if vt != ValueType::Bool {
                return Err(ctx.value_error(
                    tag,
                    format!(
                        "type mismatch: field is a bool, but payload is of type {}",
                        vt.as_str()
                    ),
                ));
            }
            let b = kdv_tags::scalar::parse_bool(payload(tag)).map_err(|e| {
                ctx.value_error(tag, format!("invalid bool value for payload: {e}"))
            })?;
            Literal::Bool(b)
        }
        Ty::Builtin(b) if b.is_integer() => {
            if vt != ValueType::Int {
                return Err(ctx.value_error(
                    tag,
                    format!(
                        "type mismatch: field is an integer, but payload is of type {}",
                        vt.as_str()
                    ),
                ));
            }
            let i = kdv_tags::scalar::parse_int(payload(tag)).map_err(|e| {
                ctx.value_error(tag, format!("invalid integer value for payload: {e}"))
            })?;
            Literal::Int(i128::from(i))
        }
        other => {
            return Err(ctx.tag_error(
                tag,
                format!(
                    "unsupported type for 'neq' tag: {}",
                    lw.g.type_string(other)
                ),
            ));
        }
    };
    Ok(Lowered::function(
        Validation::new(NEQ.name, Check::Neq(literal))
            .emits([Emission::at_path(ErrorType::Invalid, origin::NEQ)]),
    ))
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[TagDef {
    doc: NEQ,
    lower: lower_neq,
}];
