//! `+k8s:eachKey=+<tag>`.

use std::rc::Rc;

use kdv_tags::{Tag, ValueType};

use crate::gotypes::Ty;
use crate::ir::{Check, Validation};
use crate::lower::{Ctx, Deferred, LowerError, Lowered, Lowerer, wrap_functions, wrap_one};
use crate::registry::{Scope, Stability, TagDoc, VALUE_SCOPES};

/// `+k8s:eachKey`.
pub(crate) const DOC: TagDoc = TagDoc {
    name: "k8s:eachKey",
    stability: Stability::Stable,
    scopes: VALUE_SCOPES,
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::Tag,
    payload_required: true,
    payload_description: "<tag>: the validation to apply to each key",
    description: "Applies the chained tag to every key of a map (errors are reported at the map's path). On update, keys that already existed are skipped.",
    example: "+k8s:eachKey=+k8s:format=k8s-label-key",
};

/// Lowers `+k8s:eachKey`.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let native = lw.g.native(&ctx.ty);
    let Ty::Map(key, _) = &native else {
        return Err(ctx.tag_error(
            tag,
            format!(
                "can only be used on map types ({})",
                lw.g.kind(&native).name()
            ),
        ));
    };
    let mut key_ctx = Ctx::new(
        Scope::MapKey,
        (**key).clone(),
        format!("{}[(keys)]", ctx.path),
    );
    key_ctx.parent_ty = Some(ctx.ty.clone());
    key_ctx.parent_path = Some(ctx.path.clone());
    key_ctx.level = ctx.level;
    key_ctx.site = ctx.site;
    let Some(payload) = tag.value_tag() else {
        return Err(ctx.value_error(tag, "missing validation tag"));
    };
    let validations = lw.lower_tag(&key_ctx, payload)?;
    let mut result = Lowered {
        opaque_key: validations.opaque_type,
        comments: validations.comments,
        ..Lowered::default()
    };
    let Lowered {
        functions,
        deferred,
        ..
    } = validations;
    if !functions.is_empty() {
        result.add(wrap_each_key(Lowered {
            functions,
            ..Lowered::default()
        }));
    }
    if !deferred.is_empty() {
        result.deferred.push(Deferred::this(move |lw| {
            let mut resolved = Lowered::default();
            for d in deferred {
                resolved.add((d.callback)(lw)?);
            }
            Ok(wrap_each_key(resolved))
        }));
    }
    if result.is_empty() {
        return Err(ctx.tag_error(tag, "no validation functions found"));
    }
    Ok(result)
}

/// Wraps each validation in the map key loop.
pub(crate) fn wrap_each_key<'u>(v: Lowered<'u>) -> Lowered<'u> {
    let opaque = v.opaque_type;
    let wrapped = wrap_functions(
        v,
        Rc::new(|f: Validation, _| wrap_one(DOC.name, f, |inner| Check::EachMapKey { inner })),
    );
    Lowered {
        opaque_key: opaque,
        ..wrapped
    }
}

/// Upstream `ForEachKey`: the key loop calling `f` (the key type's validation function).
pub(crate) fn for_each_key(f: Validation) -> Validation {
    let mut out = wrap_each_key(Lowered::function(f)).functions;
    out.pop()
        .unwrap_or_else(|| Validation::new(DOC.name, Check::NoNilElements))
}
