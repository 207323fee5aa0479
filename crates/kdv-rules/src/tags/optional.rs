//! `+k8s:optional`, including the `+default` handling of spec §3.2.

use kdv_tags::{Tag, TagValue, go_quote};

use super::required::{doc, presence, required};
use crate::gotypes::Ty;
use crate::ir::{Check, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{Stability, TagDoc};

/// `+k8s:optional`.
pub(crate) const DOC: TagDoc = doc(
    "k8s:optional",
    Stability::Stable,
    "The field may be omitted; when it is unset none of its other validations run. With a `+default` that is not the type's zero value, the field is effectively required (the server defaults it).",
    "+k8s:optional",
);

/// Lowers `+k8s:optional`.
pub(crate) fn lower<'u>(
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
    let p = presence(lw, ctx, tag, DOC.name)?;
    Ok(Lowered::function(
        Validation::new(DOC.name, Check::Optional(p))
            .short_circuit()
            .non_error(),
    ))
}

/// Reads the field's `+default=<json>`: `None` without one, else whether the default equals
/// the zero value of the field's type (always `false` for nilable types).
fn default_is_zero(lw: &Lowerer<'_>, ctx: &Ctx<'_>, tag: &Tag) -> Result<Option<bool>, LowerError> {
    let Some(member) = &ctx.member else {
        return Ok(None);
    };
    let lines: Vec<&str> = member
        .field
        .doc
        .lines
        .iter()
        .map(|l| l.text.as_str())
        .collect();
    let defaults: Vec<String> = kdv_tags::extract(lines)
        .into_iter()
        .filter(|e| e.name == "default")
        .map(|e| match e.parse_raw() {
            Ok(t) => match t.value {
                TagValue::Raw(s) => s,
                _ => String::new(),
            },
            // The legacy extractor takes everything after `=`.
            Err(_) => e
                .text
                .split_once('=')
                .map(|(_, v)| v.trim().to_string())
                .unwrap_or_default(),
        })
        .collect();
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
    if lw.g.is_nilable(&ctx.ty) {
        return Ok(Some(false));
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
    let is_zero = match (&value, &zero) {
        (serde_json::Value::Number(a), serde_json::Value::Number(_)) => a.as_f64() == Some(0.0),
        (a, b) => a == b,
    };
    Ok(Some(is_zero))
}
