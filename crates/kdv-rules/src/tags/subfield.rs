//! Subfields (upstream `validators/subfield.go`): `+k8s:subfield(<jsonName>)=+<tag>`,
//! including the short-circuits inherited from the member's own tags (spec §3.22).
//! Semantics: `kdv_runtime::subfield`.

pub(crate) mod state;

use std::rc::Rc;

use kdv_tags::{Tag, ValueType, go_quote};

use super::lists::element_equality;
use crate::gotypes::Kind;
use crate::ir::{Check, FieldAccess, Validation};
use crate::lower::{
    Ctx, DeferScope, Deferred, LowerError, Lowered, Lowerer, TagDef, wrap_functions, wrap_one,
};
use crate::shapes::decode_access;
use crate::tag_doc::{ArgDoc, Scope, Stability, TagDoc, VALUE_SCOPES};

/// `+k8s:subfield`.
pub(crate) const SUBFIELD: TagDoc = TagDoc {
    name: "k8s:subfield",
    stability: Stability::Stable,
    scopes: VALUE_SCOPES,
    args: &[ArgDoc {
        name: "",
        ty: ValueType::String,
        required: true,
        description: "<json name>: a direct field of the struct",
    }],
    accepts_unknown_args: false,
    payload: ValueType::Tag,
    payload_required: true,
    payload_description: "<tag>: the validation to apply to the subfield",
    description: "Applies the chained tag to one field of a struct-typed value, as if it were written on that field, at the path `<value>.<json name>`. Skipped on update when the subfield is unchanged.",
    example: "+k8s:subfield(name)=+k8s:maxLength=63",
    extension: None,
};

/// Lowers `+k8s:subfield`.
pub(crate) fn lower_subfield<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let mut next = tag.value_tag();
    while let Some(t) = next {
        if t.name == SUBFIELD.name {
            return Err(ctx.error(
                t.name_span,
                "nested +k8s:subfield tags are unsupported; apply validations directly to the nested type instead",
            ));
        }
        next = t.value_tag();
    }
    let base = lw.g.base(&ctx.ty);
    let kind = lw.g.kind(&base);
    if kind == Kind::Foreign {
        let mut e = ctx.tag_error(
            tag,
            format!(
                "type {} is not loaded (its package is outside the universe); its subfields cannot be validated",
                lw.g.type_string(&base)
            ),
        );
        e.severity = kdv_model::Severity::Warning;
        return Err(e);
    }
    if kind != Kind::Struct {
        return Err(ctx.tag_error(
            tag,
            format!("can only be used on struct types: {}", kind.name()),
        ));
    }
    let (name, arg_span) = match tag.positional() {
        Some(a) => (a.value.as_str().to_string(), a.span),
        None => (String::new(), tag.name_span),
    };
    let Some(member) = lw.g.member_by_json(&base, &name).cloned() else {
        return Err(ctx.error(
            arg_span,
            format!("no field for json name {}", go_quote(&name)),
        ));
    };
    let mut sub_ctx = Ctx::new(
        Scope::Field,
        member.ty.clone(),
        format!("{}.{name}", ctx.path),
    );
    sub_ctx.member = Some(member.clone());
    sub_ctx.parent_ty = Some(ctx.ty.clone());
    sub_ctx.parent_path = Some(ctx.path.clone());
    sub_ctx.level = ctx.level;
    sub_ctx.site = ctx.site;
    let equiv = element_equality(lw, &member.ty);
    let access = decode_access(&lw.g, &member).unwrap_or(FieldAccess::Skip);
    let shape = lw.shape(&member.ty);
    let Some(payload) = tag.value_tag() else {
        return Err(ctx.value_error(tag, "missing validation tag"));
    };
    let tag_validations = lw.lower_tag(&sub_ctx, payload)?;
    let outer = ctx.clone();
    Ok(Lowered {
        deferred: vec![Deferred::this(move |lw| {
            let mut combined = tag_validations;
            // Opacity is only known once all tags are processed, hence deferred.
            if !is_field_opaque(lw, &outer) {
                combined.add(member_short_circuits(lw, &sub_ctx));
            }
            let mapped = wrap_functions(
                combined,
                Rc::new(move |f: Validation, scope| {
                    if scope == DeferScope::Parent {
                        return f;
                    }
                    let mut w = wrap_one(SUBFIELD.name, f, |inner| Check::Subfield {
                        name: name.clone(),
                        access: access.clone(),
                        shape,
                        equiv,
                        inner,
                    });
                    w.cohort = Some(name.clone());
                    w
                }),
            );
            let mut mapped = mapped;
            for d in &mut mapped.deferred {
                if d.scope == DeferScope::Parent {
                    d.scope = DeferScope::This;
                }
            }
            Ok(mapped)
        })],
        ..Lowered::default()
    })
}

/// Upstream `isFieldOpaque`: the field or its type is tagged `+k8s:opaqueType`.
pub(crate) fn is_field_opaque(lw: &Lowerer<'_>, ctx: &Ctx<'_>) -> bool {
    if let Some(key) = lw.member_key(ctx)
        && lw.opaque.members.contains(&key)
    {
        return true;
    }
    lw.opaque.types.contains(&lw.g.base(&ctx.ty))
}

/// The member's own short-circuit validations, copied as NonError (once per subfield path).
fn member_short_circuits<'u>(lw: &mut Lowerer<'u>, sub_ctx: &Ctx<'u>) -> Lowered<'u> {
    if !lw.subfield.short_circuits_done.insert(sub_ctx.path.clone()) {
        return Lowered::default();
    }
    let Some(member) = sub_ctx.member.clone() else {
        return Lowered::default();
    };
    // Errors in the member's tags are reported when its own struct is discovered.
    let before = lw.diagnostics.len();
    let tags = lw.extract_tags(member.pkg, &member.field.tags);
    let v = lw.lower_tags(sub_ctx, &tags);
    lw.diagnostics.truncate(before);
    short_circuits_as_non_error(v)
}

fn short_circuits_as_non_error<'u>(v: Lowered<'u>) -> Lowered<'u> {
    let functions = v
        .functions
        .into_iter()
        .filter(|f| f.short_circuit)
        .map(|mut f| {
            f.non_error = true;
            f
        })
        .collect();
    let deferred = v
        .deferred
        .into_iter()
        .map(|d| {
            let cb = d.callback;
            Deferred {
                scope: d.scope,
                callback: Box::new(move |lw: &mut Lowerer<'u>| {
                    Ok(short_circuits_as_non_error(cb(lw)?))
                }),
            }
        })
        .collect();
    Lowered {
        functions,
        deferred,
        ..Lowered::default()
    }
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[TagDef {
    doc: SUBFIELD,
    lower: lower_subfield,
}];
