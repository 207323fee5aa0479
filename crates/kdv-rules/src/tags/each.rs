//! Iteration (upstream `validators/each.go`): `+k8s:eachVal` and `+k8s:eachKey`, and the
//! element loops discovery wraps around type calls. Semantics: `kdv_runtime::each`.

use std::rc::Rc;

use kdv_tags::{Tag, ValueType};

use super::lists::{ListSemantic, element_equality, key_match, list_elem};
use crate::gotypes::{Kind, Ty};
use crate::ir::{Check, CrossFieldEach, Equality, ItemMatch, Validation};
use crate::lower::{Ctx, Deferred, LowerError, Lowered, Lowerer, TagDef, wrap_functions, wrap_one};
use crate::tag_doc::{Scope, Stability, TagDoc, VALUE_SCOPES};

/// `+k8s:eachVal`.
pub(crate) const EACH_VAL: TagDoc = TagDoc {
    name: "k8s:eachVal",
    stability: Stability::Stable,
    scopes: VALUE_SCOPES,
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::Tag,
    payload_required: true,
    payload_description: "<tag>: the validation to apply to each value",
    description: "Applies the chained tag to every value of a list or map. On update, values correlated with an unchanged old value (by list-map key, set membership or map key) are skipped.",
    example: "+k8s:eachVal=+k8s:minLength=1",
    extension: None,
};

/// Lowers `+k8s:eachVal`.
pub(crate) fn lower_each_val<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let native = lw.g.native(&ctx.ty);
    let (scope, elem) = match &native {
        Ty::Slice(e) | Ty::Array(e) => (Scope::ListVal, (**e).clone()),
        Ty::Map(_, v) => (Scope::MapVal, (**v).clone()),
        other => {
            return Err(ctx.tag_error(
                tag,
                format!(
                    "can only be used on list or map types ({})",
                    lw.g.kind(other).name()
                ),
            ));
        }
    };
    let mut elem_ctx = Ctx::new(scope, elem.clone(), format!("{}[(vals)]", ctx.path));
    elem_ctx.parent_ty = Some(ctx.ty.clone());
    elem_ctx.parent_path = Some(ctx.path.clone());
    elem_ctx.level = ctx.level;
    elem_ctx.site = ctx.site;
    if scope == Scope::ListVal {
        elem_ctx.list_selector = Some(Vec::new());
    }
    let Some(payload) = tag.value_tag() else {
        return Err(ctx.value_error(tag, "missing validation tag"));
    };
    // A limit bounded by another field of the struct (KEP-5073's comprehensive example,
    // `+k8s:eachVal=+k8s:maximum(constraint: maxThreshold)`): the path is relative to the
    // struct holding this field, so the check is hoisted there, as the field form is.
    if let (Scope::Field, Some(bound)) = (ctx.scope, super::crossfield::constraint_form(payload)) {
        let each = match scope {
            Scope::MapVal => CrossFieldEach::Values,
            _ => CrossFieldEach::Items,
        };
        return super::crossfield::lower_constraint(lw, ctx, payload, bound, Some((each, elem)));
    }
    let validations = lw.lower_tag(&elem_ctx, payload)?;
    let mut result = Lowered {
        opaque_val: validations.opaque_type,
        comments: validations.comments,
        ..Lowered::default()
    };
    let Lowered {
        functions,
        deferred,
        ..
    } = validations;
    if !functions.is_empty() {
        // Deferred so that list metadata from tags sorting after eachVal is known.
        let path = ctx.path.clone();
        let ty = ctx.ty.clone();
        result.deferred.push(Deferred::this(move |lw| {
            Ok(wrap_each_val(
                lw,
                &path,
                &ty,
                Lowered {
                    functions,
                    ..Lowered::default()
                },
            ))
        }));
    }
    if !deferred.is_empty() {
        let path = ctx.path.clone();
        let ty = ctx.ty.clone();
        result.deferred.push(Deferred::this(move |lw| {
            let mut resolved = Lowered::default();
            for d in deferred {
                resolved.add((d.callback)(lw)?);
            }
            Ok(wrap_each_val(lw, &path, &ty, resolved))
        }));
    }
    if result.is_empty() {
        return Err(ctx.tag_error(tag, "no validation functions found"));
    }
    Ok(result)
}

/// How list elements correlate with the old list (`match`, `equiv`), from the list metadata
/// of `path` or else of the list type `ty`.
pub(crate) fn list_correlation(
    lw: &mut Lowerer<'_>,
    path: &str,
    ty: &Ty,
) -> (Option<ItemMatch>, Option<Equality>) {
    let lm = lw
        .lists
        .meta
        .get(path)
        .or_else(|| lw.lists.meta.get(&lw.g.type_string(ty)))
        .cloned();
    let Some(elem) = list_elem(lw, ty) else {
        return (None, None);
    };
    let eq = element_equality(lw, &elem);
    match lm.and_then(|lm| lm.semantic.map(|s| (s, lm))) {
        Some((ListSemantic::Map, lm)) => (Some(key_match(lw, &lm)), Some(eq)),
        Some((ListSemantic::Set, _)) => (
            Some(match eq {
                Equality::Direct => ItemMatch::Direct,
                Equality::Semantic => ItemMatch::Semantic,
            }),
            None,
        ),
        _ => (None, None),
    }
}

/// Wraps each validation of `v` in the element loop of the list or map `ty` (at `path`).
pub(crate) fn wrap_each_val<'u>(
    lw: &mut Lowerer<'u>,
    path: &str,
    ty: &Ty,
    v: Lowered<'u>,
) -> Lowered<'u> {
    let native = lw.g.native(ty);
    let opaque = v.opaque_type;
    let wrapped = if lw.g.kind(&native) == Kind::Map {
        let equiv = match &native {
            Ty::Map(_, e) => element_equality(lw, e),
            _ => Equality::Semantic,
        };
        wrap_functions(
            v,
            Rc::new(move |f: Validation, _| {
                wrap_one(EACH_VAL.name, f, |inner| Check::EachMapVal { equiv, inner })
            }),
        )
    } else {
        let (matching, equiv) = list_correlation(lw, path, ty);
        wrap_functions(
            v,
            Rc::new(move |f: Validation, _| {
                let matching = matching.clone();
                wrap_one(EACH_VAL.name, f, |inner| Check::EachListVal {
                    matching,
                    equiv,
                    inner,
                })
            }),
        )
    };
    Lowered {
        opaque_val: opaque,
        ..wrapped
    }
}

/// Upstream `ForEachVal`: the element loop calling `f` (a type's validation function).
pub(crate) fn for_each_val(lw: &mut Lowerer<'_>, path: &str, ty: &Ty, f: Validation) -> Validation {
    let mut out = wrap_each_val(lw, path, ty, Lowered::function(f)).functions;
    // One function in, one function out.
    out.pop()
        .unwrap_or_else(|| Validation::new(EACH_VAL.name, Check::NoNilElements).bare())
}

/// `+k8s:eachKey`.
pub(crate) const EACH_KEY: TagDoc = TagDoc {
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
    extension: None,
};

/// Lowers `+k8s:eachKey`.
pub(crate) fn lower_each_key<'u>(
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
        Rc::new(|f: Validation, _| wrap_one(EACH_KEY.name, f, |inner| Check::EachMapKey { inner })),
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
        .unwrap_or_else(|| Validation::new(EACH_KEY.name, Check::NoNilElements).bare())
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[
    TagDef {
        doc: EACH_KEY,
        lower: lower_each_key,
    },
    TagDef {
        doc: EACH_VAL,
        lower: lower_each_val,
    },
];
