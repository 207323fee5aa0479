//! Helpers shared by the limit tags (`minimum`, `maximum`, `minLength`, `maxLength`,
//! `maxBytes`, `minItems`, `maxItems`, `minProperties`, `maxProperties`).

use kdv_model::Builtin;
use kdv_tags::{Tag, ValueType};

use super::{int_payload, is_string, payload, root_type_string};
use crate::gotypes::{Kind, Ty};
use crate::lower::{Ctx, LowerError, Lowerer};
use crate::registry::{Scope, Stability, TagDoc};

/// The common shape of a limit tag's documentation.
pub(crate) const fn limit_doc(
    name: &'static str,
    scopes: &'static [Scope],
    payload_description: &'static str,
    description: &'static str,
    example: &'static str,
) -> TagDoc {
    TagDoc {
        name,
        stability: Stability::Stable,
        scopes,
        args: &[],
        accepts_unknown_args: false,
        payload: ValueType::Int,
        payload_required: true,
        payload_description,
        description,
        example,
    }
}

/// gengo's signedness and bit width of an integer builtin (`int8` is unsigned `byte`).
pub(crate) fn int_bits(b: Builtin) -> Result<(bool, u32), String> {
    Ok(match b {
        Builtin::Int8 | Builtin::Uint8 | Builtin::Byte => (false, 8),
        Builtin::Int16 => (true, 16),
        Builtin::Uint16 => (false, 16),
        Builtin::Int32 | Builtin::Rune => (true, 32),
        Builtin::Uint32 => (false, 32),
        Builtin::Int64 | Builtin::Int => (true, 64),
        Builtin::Uint64 | Builtin::Uint => (false, 64),
        other => {
            return Err(format!(
                "unsupported integer type: {}",
                crate::gotypes::builtin_name(other)
            ));
        }
    })
}

pub(crate) fn int_bound(lw: &Lowerer<'_>, ctx: &Ctx<'_>, tag: &Tag) -> Result<i128, LowerError> {
    let t = lw.g.base(&ctx.ty);
    let b = match t {
        Ty::Builtin(b) if b.is_integer() => b,
        _ => {
            return Err(ctx.tag_error(
                tag,
                format!(
                    "can only be used on integer types ({})",
                    root_type_string(&lw.g, &ctx.ty, &t)
                ),
            ));
        }
    };
    let (signed, bits) = int_bits(b).map_err(|e| ctx.tag_error(tag, e))?;
    let text = payload(tag);
    let parsed = if signed {
        kdv_tags::scalar::parse_signed_int(text, bits).map(i128::from)
    } else {
        kdv_tags::scalar::parse_unsigned_int(text, bits).map(i128::from)
    };
    parsed.map_err(|e| ctx.value_error(tag, format!("failed to parse tag payload: {e}")))
}

pub(crate) fn require_string(lw: &Lowerer<'_>, ctx: &Ctx<'_>, tag: &Tag) -> Result<(), LowerError> {
    let t = lw.g.base(&ctx.ty);
    if is_string(&t) {
        Ok(())
    } else {
        Err(ctx.tag_error(
            tag,
            format!(
                "can only be used on string types ({})",
                root_type_string(&lw.g, &ctx.ty, &t)
            ),
        ))
    }
}

pub(crate) fn non_negative(ctx: &Ctx<'_>, tag: &Tag, v: i64) -> Result<i64, LowerError> {
    if v < 0 {
        Err(ctx.value_error(tag, "must be greater than or equal to zero"))
    } else {
        Ok(v)
    }
}

pub(crate) const AS_INT: &str = "failed to parse tag payload as int";

pub(crate) fn require_list(lw: &Lowerer<'_>, ctx: &Ctx<'_>, tag: &Tag) -> Result<(), LowerError> {
    let t = lw.g.native(&ctx.ty);
    match lw.g.kind(&t) {
        Kind::Slice | Kind::Array => Ok(()),
        _ => Err(ctx.tag_error(
            tag,
            format!(
                "can only be used on list types ({})",
                root_type_string(&lw.g, &ctx.ty, &t)
            ),
        )),
    }
}

pub(crate) fn properties_bound(
    lw: &Lowerer<'_>,
    ctx: &Ctx<'_>,
    tag: &Tag,
) -> Result<i64, LowerError> {
    let t = lw.g.native(&ctx.ty);
    let Ty::Map(key, _) = &t else {
        return Err(ctx.tag_error(
            tag,
            format!(
                "can only be used on map types ({})",
                root_type_string(&lw.g, &ctx.ty, &t)
            ),
        ));
    };
    if !is_string(&lw.g.native(key)) {
        return Err(ctx.tag_error(
            tag,
            format!(
                "can only be used on map types with string-based keys ({})",
                root_type_string(&lw.g, &ctx.ty, &t)
            ),
        ));
    }
    let n = non_negative(ctx, tag, int_payload(ctx, tag, AS_INT)?)?;
    if n > 100_000 {
        return Err(ctx.value_error(tag, "must be less than or equal to 100000"));
    }
    Ok(n)
}
