//! Presence (upstream `validators/required.go`): `+k8s:required`, `+k8s:optional` (with
//! the `+default` handling of spec §3.2) and `+k8s:forbidden`. Semantics:
//! `kdv_runtime::required`.

use kdv_runtime::ErrorType;
use kdv_tags::{Tag, ValueType, go_quote};

use crate::gotypes::{Kind, Ty};
use crate::ir::{Check, Emission, Presence, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer, TagDef};
use crate::tag_doc::{Scope, Stability, TagDoc};

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
        extension: None,
    }
}

/// `+k8s:required`.
pub(crate) const REQUIRED: TagDoc = doc(
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
    let p = presence(lw, ctx, tag, REQUIRED.name)?;
    Ok(Lowered::function(
        Validation::new(REQUIRED.name, Check::Required(p))
            .short_circuit()
            .bare()
            .emits([Emission::at_path(ErrorType::Required, "")]),
    ))
}

/// Lowers `+k8s:required`.
pub(crate) fn lower_required<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    required(lw, ctx, tag)
}

/// `+k8s:optional`.
pub(crate) const OPTIONAL: TagDoc = doc(
    "k8s:optional",
    Stability::Stable,
    "The field may be omitted; when it is unset none of its other validations run. With a `+default` that is not the type's zero value, the field is effectively required (the server defaults it).",
    "+k8s:optional",
);

/// Lowers `+k8s:optional`.
pub(crate) fn lower_optional<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    if let Some(zero_default) = default_is_zero(lw, ctx, tag)? {
        if !lw.g.is_nilable(&ctx.ty) && zero_default {
            // Optional value-type fields with zero-value defaults are documentation only.
            return Ok(Lowered {
                comments: 1,
                ..Lowered::default()
            });
        }
        // Optional fields with defaults are effectively required.
        return required(lw, ctx, tag);
    }
    let p = presence(lw, ctx, tag, OPTIONAL.name)?;
    Ok(Lowered::function(
        Validation::new(OPTIONAL.name, Check::Optional(p))
            .short_circuit()
            .bare()
            .non_error(),
    ))
}

/// Reads the field's `+default=<json>`: `None` without one, else whether the default equals
/// the zero value of the field's type (always `false` for nilable types).
fn default_is_zero(lw: &Lowerer<'_>, ctx: &Ctx<'_>, tag: &Tag) -> Result<Option<bool>, LowerError> {
    let Some(member) = &ctx.member else {
        return Ok(None);
    };
    let defaults = member.field.tags.raw_values("default");
    let payload = match defaults.as_slice() {
        [] => return Ok(None),
        [one] => one,
        many => {
            let quoted: Vec<String> = many.iter().map(|v| go_quote(v)).collect();
            return Err(ctx.tag_error(
                tag,
                format!("+default tag with multiple values: [{}]", quoted.join(" ")),
            ));
        }
    };
    let value: serde_json::Value = serde_json::from_str(payload).map_err(|e| {
        ctx.tag_error(
            tag,
            format!("failed to parse default value {}: {e}", go_quote(payload)),
        )
    })?;
    if value.is_null() {
        return Err(ctx.tag_error(
            tag,
            format!(
                "failed to parse default value {}: unmarshalled to nil",
                go_quote(payload)
            ),
        ));
    }
    is_zero(lw, ctx, tag, &value).map(Some)
}

/// Whether `value` is the zero value of the field's type (always `false` for nilable
/// types); an error for types without a known zero value.
pub(crate) fn is_zero(
    lw: &Lowerer<'_>,
    ctx: &Ctx<'_>,
    tag: &Tag,
    value: &serde_json::Value,
) -> Result<bool, LowerError> {
    if lw.g.is_nilable(&ctx.ty) {
        return Ok(false);
    }
    let base = lw.g.base(&ctx.ty);
    let zero = match &base {
        Ty::Builtin(b) if b.is_integer() || b.is_float() => serde_json::json!(0.0),
        Ty::Builtin(kdv_model::Builtin::Bool) => serde_json::Value::Bool(false),
        Ty::Builtin(kdv_model::Builtin::String) => serde_json::Value::String(String::new()),
        Ty::Foreign { package, name } if package == "time" && name == "Time" => {
            serde_json::Value::String(String::new())
        }
        other => {
            return Err(ctx.tag_error(
                tag,
                format!("unknown zero-value for type {}", lw.g.type_string(other)),
            ));
        }
    };
    Ok(match (value, &zero) {
        (serde_json::Value::Number(a), serde_json::Value::Number(_)) => a.as_f64() == Some(0.0),
        (a, b) => a == b,
    })
}

/// `+k8s:forbidden`.
pub(crate) const FORBIDDEN: TagDoc = doc(
    "k8s:forbidden",
    Stability::Beta,
    "The field must not be set. Nothing else about the field is validated.",
    "+k8s:forbidden",
);

/// Lowers `+k8s:forbidden`: a short-circuit Forbidden check and an Optional companion that
/// stops everything else when the field is unset.
pub(crate) fn lower_forbidden<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let p = presence(lw, ctx, tag, FORBIDDEN.name)?;
    Ok(Lowered {
        functions: vec![
            Validation::new(FORBIDDEN.name, Check::Forbidden(p))
                .short_circuit()
                .bare()
                .emits([Emission::at_path(ErrorType::Forbidden, "")]),
            Validation::new(FORBIDDEN.name, Check::Optional(p))
                .bare()
                .short_circuit()
                .non_error(),
        ],
        ..Lowered::default()
    })
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[
    TagDef {
        doc: FORBIDDEN,
        lower: lower_forbidden,
    },
    TagDef {
        doc: OPTIONAL,
        lower: lower_optional,
    },
    TagDef {
        doc: REQUIRED,
        lower: lower_required,
    },
];
