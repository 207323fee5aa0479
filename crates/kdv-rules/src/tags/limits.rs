//! Limits (upstream `validators/limits.go`): `+k8s:minimum`, `maximum`, `minLength`,
//! `maxLength`, `maxBytes`, `minItems`, `maxItems`, `minProperties`, `maxProperties`, and
//! kdv's extensions `exclusiveMinimum`, `exclusiveMaximum` (KEP-5073's catalog).
//! Their semantics and error texts are `kdv_runtime::limits`.

use kdv_model::Builtin;
use kdv_runtime::ErrorType;
use kdv_runtime::limits::origin;
use kdv_tags::{Tag, ValueType};

use super::{int_payload, is_string, payload, root_type_string};
use crate::gotypes::{Kind, Ty};
use crate::ir::{Check, Emission, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer, TagDef};
use crate::tag_doc::{Scope, Stability, TagDoc, VALUE_SCOPES};

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
        extension: None,
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

/// A limit validation declaring its one error.
fn limit(doc: &TagDoc, check: Check, error_type: ErrorType, origin: &'static str) -> Validation {
    Validation::new(doc.name, check).emits([Emission::at_path(error_type, origin)])
}

/// `+k8s:minimum`.
pub(crate) const MINIMUM: TagDoc = limit_doc(
    "k8s:minimum",
    VALUE_SCOPES,
    "<integer>: the smallest allowed value",
    "Requires an integer value to be at least the given bound. Absent (nil) values are not checked; zero values of non-pointer fields are.",
    "+k8s:minimum=0",
);

/// Lowers `+k8s:minimum`.
pub(crate) fn lower_minimum<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let bound = int_bound(lw, ctx, tag)?;
    Ok(Lowered::function(limit(
        &MINIMUM,
        Check::Minimum(bound),
        ErrorType::Invalid,
        origin::MINIMUM,
    )))
}

/// `+k8s:maximum`.
pub(crate) const MAXIMUM: TagDoc = limit_doc(
    "k8s:maximum",
    VALUE_SCOPES,
    "<integer>: the largest allowed value",
    "Requires an integer value to be at most the given bound. Absent (nil) values are not checked.",
    "+k8s:maximum=100",
);

/// Lowers `+k8s:maximum`.
pub(crate) fn lower_maximum<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let bound = int_bound(lw, ctx, tag)?;
    Ok(Lowered::function(limit(
        &MAXIMUM,
        Check::Maximum(bound),
        ErrorType::Invalid,
        origin::MAXIMUM,
    )))
}

/// The seed section that specifies the exclusive bounds.
const NUMERIC_LIMITS_ROW: &str =
    "KEP-5073 \"Catalog of Supported Validation Rules & Associated IDL Tags\" (numeric limits)";

/// `+k8s:exclusiveMinimum` (a kdv extension).
pub(crate) const EXCLUSIVE_MINIMUM: TagDoc = TagDoc {
    extension: Some(NUMERIC_LIMITS_ROW),
    ..limit_doc(
        "k8s:exclusiveMinimum",
        VALUE_SCOPES,
        "<integer>: a bound the value must exceed",
        "Requires an integer value to be greater than the given bound (`must be greater than <n>`, origin `exclusiveMinimum`). Absent (nil) values are not checked; zero values of non-pointer fields are. Published as OpenAPI `minimum` with `exclusiveMinimum: true`. A kdv extension: upstream validation-gen does not have it.",
        "+k8s:exclusiveMinimum=0",
    )
};

/// Lowers `+k8s:exclusiveMinimum`.
pub(crate) fn lower_exclusive_minimum<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let bound = int_bound(lw, ctx, tag)?;
    Ok(Lowered::function(limit(
        &EXCLUSIVE_MINIMUM,
        Check::ExclusiveMinimum(bound),
        ErrorType::Invalid,
        origin::EXCLUSIVE_MINIMUM,
    )))
}

/// `+k8s:exclusiveMaximum` (a kdv extension).
pub(crate) const EXCLUSIVE_MAXIMUM: TagDoc = TagDoc {
    extension: Some(NUMERIC_LIMITS_ROW),
    ..limit_doc(
        "k8s:exclusiveMaximum",
        VALUE_SCOPES,
        "<integer>: a bound the value must stay below",
        "Requires an integer value to be less than the given bound (`must be less than <n>`, origin `exclusiveMaximum`). Absent (nil) values are not checked. Published as OpenAPI `maximum` with `exclusiveMaximum: true`. A kdv extension: upstream validation-gen does not have it.",
        "+k8s:exclusiveMaximum=100",
    )
};

/// Lowers `+k8s:exclusiveMaximum`.
pub(crate) fn lower_exclusive_maximum<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let bound = int_bound(lw, ctx, tag)?;
    Ok(Lowered::function(limit(
        &EXCLUSIVE_MAXIMUM,
        Check::ExclusiveMaximum(bound),
        ErrorType::Invalid,
        origin::EXCLUSIVE_MAXIMUM,
    )))
}

/// `+k8s:minLength`.
pub(crate) const MIN_LENGTH: TagDoc = limit_doc(
    "k8s:minLength",
    VALUE_SCOPES,
    "<non-negative integer>: the minimum number of characters",
    "Requires a string to have at least the given number of characters (Unicode code points). A bound of 0 emits nothing.",
    "+k8s:minLength=1",
);

/// Lowers `+k8s:minLength` (a bound ≤ 0 emits nothing).
pub(crate) fn lower_min_length<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    require_string(lw, ctx, tag)?;
    let n = int_payload(ctx, tag, AS_INT)?;
    if n <= 0 {
        return Ok(Lowered::default());
    }
    Ok(Lowered::function(limit(
        &MIN_LENGTH,
        Check::MinLength(n),
        ErrorType::TooShort,
        origin::MIN_LENGTH,
    )))
}

/// `+k8s:maxLength`.
pub(crate) const MAX_LENGTH: TagDoc = limit_doc(
    "k8s:maxLength",
    VALUE_SCOPES,
    "<non-negative integer>: the maximum number of characters",
    "Limits a string to the given number of characters (Unicode code points).",
    "+k8s:maxLength=63",
);

/// Lowers `+k8s:maxLength`.
pub(crate) fn lower_max_length<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    require_string(lw, ctx, tag)?;
    let n = non_negative(ctx, tag, int_payload(ctx, tag, AS_INT)?)?;
    Ok(Lowered::function(limit(
        &MAX_LENGTH,
        Check::MaxLength(n),
        ErrorType::TooLong,
        origin::MAX_LENGTH,
    )))
}

/// `+k8s:maxBytes`.
pub(crate) const MAX_BYTES: TagDoc = limit_doc(
    "k8s:maxBytes",
    VALUE_SCOPES,
    "<non-negative integer>: the maximum number of bytes",
    "Limits a string to the given number of bytes of its UTF-8 encoding.",
    "+k8s:maxBytes=256",
);

/// Lowers `+k8s:maxBytes`.
pub(crate) fn lower_max_bytes<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    require_string(lw, ctx, tag)?;
    let n = non_negative(ctx, tag, int_payload(ctx, tag, AS_INT)?)?;
    Ok(Lowered::function(limit(
        &MAX_BYTES,
        Check::MaxBytes(n),
        ErrorType::TooLong,
        origin::MAX_BYTES,
    )))
}

/// `+k8s:minItems`.
pub(crate) const MIN_ITEMS: TagDoc = limit_doc(
    "k8s:minItems",
    &[Scope::Type, Scope::Field, Scope::ListVal, Scope::MapVal],
    "<non-negative integer>: the minimum number of items",
    "Requires a list to have at least the given number of items; a missing list has none.",
    "+k8s:minItems=1",
);

/// Lowers `+k8s:minItems`.
pub(crate) fn lower_min_items<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    require_list(lw, ctx, tag)?;
    let n = non_negative(ctx, tag, int_payload(ctx, tag, AS_INT)?)?;
    Ok(Lowered::function(limit(
        &MIN_ITEMS,
        Check::MinItems(n),
        ErrorType::TooFew,
        origin::MIN_ITEMS,
    )))
}

/// `+k8s:maxItems`.
pub(crate) const MAX_ITEMS: TagDoc = limit_doc(
    "k8s:maxItems",
    &[Scope::Type, Scope::Field, Scope::ListVal, Scope::MapVal],
    "<non-negative integer>: the maximum number of items",
    "Limits a list to the given number of items. Short-circuits: an oversized list is not validated further.",
    "+k8s:maxItems=16",
);

/// Lowers `+k8s:maxItems` (short-circuit).
pub(crate) fn lower_max_items<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    require_list(lw, ctx, tag)?;
    let n = non_negative(ctx, tag, int_payload(ctx, tag, AS_INT)?)?;
    Ok(Lowered::function(
        limit(
            &MAX_ITEMS,
            Check::MaxItems(n),
            ErrorType::TooMany,
            origin::MAX_ITEMS,
        )
        .short_circuit(),
    ))
}

/// `+k8s:minProperties`.
pub(crate) const MIN_PROPERTIES: TagDoc = limit_doc(
    "k8s:minProperties",
    &[Scope::Type, Scope::Field],
    "<integer in [0, 100000]>: the minimum number of entries",
    "Requires a string-keyed map to have at least the given number of entries; a missing map has none.",
    "+k8s:minProperties=1",
);

/// Lowers `+k8s:minProperties`.
pub(crate) fn lower_min_properties<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let n = properties_bound(lw, ctx, tag)?;
    Ok(Lowered::function(limit(
        &MIN_PROPERTIES,
        Check::MinProperties(n),
        ErrorType::TooFew,
        origin::MIN_PROPERTIES,
    )))
}

/// `+k8s:maxProperties`.
pub(crate) const MAX_PROPERTIES: TagDoc = limit_doc(
    "k8s:maxProperties",
    &[Scope::Type, Scope::Field],
    "<integer in [0, 100000]>: the maximum number of entries",
    "Limits a string-keyed map to the given number of entries. Short-circuits: an oversized map is not validated further.",
    "+k8s:maxProperties=64",
);

/// Lowers `+k8s:maxProperties` (short-circuit).
pub(crate) fn lower_max_properties<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let n = properties_bound(lw, ctx, tag)?;
    Ok(Lowered::function(
        limit(
            &MAX_PROPERTIES,
            Check::MaxProperties(n),
            ErrorType::TooMany,
            origin::MAX_PROPERTIES,
        )
        .short_circuit(),
    ))
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[
    TagDef {
        doc: EXCLUSIVE_MAXIMUM,
        lower: lower_exclusive_maximum,
    },
    TagDef {
        doc: EXCLUSIVE_MINIMUM,
        lower: lower_exclusive_minimum,
    },
    TagDef {
        doc: MAX_BYTES,
        lower: lower_max_bytes,
    },
    TagDef {
        doc: MAX_ITEMS,
        lower: lower_max_items,
    },
    TagDef {
        doc: MAX_LENGTH,
        lower: lower_max_length,
    },
    TagDef {
        doc: MAX_PROPERTIES,
        lower: lower_max_properties,
    },
    TagDef {
        doc: MAXIMUM,
        lower: lower_maximum,
    },
    TagDef {
        doc: MIN_ITEMS,
        lower: lower_min_items,
    },
    TagDef {
        doc: MIN_LENGTH,
        lower: lower_min_length,
    },
    TagDef {
        doc: MIN_PROPERTIES,
        lower: lower_min_properties,
    },
    TagDef {
        doc: MINIMUM,
        lower: lower_minimum,
    },
];
