//! Stability levels (upstream `validators/levels.go`): `+k8s:alpha(since: "<major>.<minor>")=+<tag>`
//! and `+k8s:beta(...)=+<tag>` mark the errors of the chained validation.

use std::rc::Rc;

use kdv_tags::{Tag, ValueType};

use crate::ir::{Check, Level, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer, TagDef, wrap_functions};
use crate::tag_doc::{ArgDoc, Stability, TagDoc, VALUE_SCOPES};

const ARGS: &[ArgDoc] = &[ArgDoc {
    name: "since",
    ty: ValueType::String,
    required: false,
    description: "<major>.<minor>: the Kubernetes version that introduced the rule",
}];

/// `+k8s:alpha`.
pub(crate) const ALPHA: TagDoc = TagDoc {
    name: "k8s:alpha",
    stability: Stability::Beta,
    scopes: VALUE_SCOPES,
    args: ARGS,
    accepts_unknown_args: false,
    payload: ValueType::Tag,
    payload_required: true,
    payload_description: "<tag>: the validation to mark as alpha",
    description: "Marks the errors of the chained validation as alpha: reported (shadowed) but not enforced by an API server.",
    example: "+k8s:alpha(since: \"1.35\")=+k8s:maxLength=16",
    extension: None,
};

/// `+k8s:beta`.
pub(crate) const BETA: TagDoc = TagDoc {
    name: "k8s:beta",
    stability: Stability::Beta,
    scopes: VALUE_SCOPES,
    args: ARGS,
    accepts_unknown_args: false,
    payload: ValueType::Tag,
    payload_required: true,
    payload_description: "<tag>: the validation to mark as beta",
    description: "Marks the errors of the chained validation as beta: enforced while the declarative-validation beta gate is on.",
    example: "+k8s:beta(since: \"1.36\")=+k8s:minimum=0",
    extension: None,
};

fn is_version(v: &str) -> bool {
    let Some((major, minor)) = v.split_once('.') else {
        return false;
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    digits(major) && digits(minor)
}

fn lower_level<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
    level: Level,
) -> Result<Lowered<'u>, LowerError> {
    let Some(payload) = tag.value_tag() else {
        return Err(ctx.value_error(tag, "requires a validation tag as its value payload"));
    };
    if tag.args.len() > 1 {
        return Err(ctx.tag_error(
            tag,
            "at most one optional kubernetes version argument is supported",
        ));
    }
    if let Some(arg) = tag.args.first() {
        let v = arg.value.as_str();
        if !is_version(v) {
            return Err(ctx.error(
                arg.span,
                format!("invalid kubernetes version format, expected <major>.<minor>, got {v}"),
            ));
        }
    }
    let mut inner_ctx = ctx.clone();
    inner_ctx.level = Some(level);
    let v = lw.lower_tag(&inner_ctx, payload)?;
    Ok(wrap_functions(
        v,
        Rc::new(move |mut f: Validation, _| {
            // Mode checks carry the levels of their rules (upstream "self-managed").
            if !matches!(f.check, Check::Discriminated(_)) {
                f.level = Some(level);
            }
            f
        }),
    ))
}

/// Lowers `+k8s:alpha`.
pub(crate) fn lower_alpha<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    lower_level(lw, ctx, tag, Level::Alpha)
}

/// Lowers `+k8s:beta`.
pub(crate) fn lower_beta<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    lower_level(lw, ctx, tag, Level::Beta)
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[
    TagDef {
        doc: ALPHA,
        lower: lower_alpha,
    },
    TagDef {
        doc: BETA,
        lower: lower_beta,
    },
];
