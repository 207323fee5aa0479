//! Dependencies between fields (upstream `validators/dependentrequired.go`):
//! `+k8s:dependentRequired` and `+k8s:dependentForbidden` (spec §3.30). The check sits on
//! the parent struct; semantics: `kdv_runtime::dependencies`.

use kdv_runtime::ErrorType;
use kdv_runtime::dependencies::origin;
use kdv_tags::{Tag, ValueType, go_quote};

use super::unions::field_presence;
use crate::gotypes::{Kind, Ty};
use crate::ir::{Check, Dependency, Emission, Validation};
use crate::lower::{Ctx, Deferred, LowerError, Lowered, Lowerer, TagDef};
use crate::tag_doc::{ArgDoc, Scope, Stability, TagDoc};

/// The positional argument of both tags.
pub(crate) const ARGS: &[ArgDoc] = &[ArgDoc {
    name: "",
    ty: ValueType::String,
    required: true,
    description: "<json name>: the sibling field",
}];

/// Lowers a dependency tag into a check deferred to the parent struct.
pub(crate) fn lower_dependency<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
    tag_name: &'static str,
    forbidden: bool,
) -> Result<Lowered<'u>, LowerError> {
    let Some(trigger) = ctx.member.clone() else {
        return Err(ctx.tag_error(tag, "must be used on a struct field"));
    };
    let parent = ctx
        .parent_ty
        .as_ref()
        .map(|p| lw.g.base(p))
        .unwrap_or(Ty::Interface);
    let parent_kind = lw.g.kind(&parent);
    if parent_kind != Kind::Struct {
        return Err(ctx.tag_error(
            tag,
            format!("parent type must be a struct (got {})", parent_kind.name()),
        ));
    }
    if tag.args.len() != 1 {
        return Err(ctx.tag_error(
            tag,
            format!(
                "expected exactly one argument naming the dependent field, got {}",
                tag.args.len()
            ),
        ));
    }
    let arg = &tag.args[0];
    let dependent_name = arg.value.as_str().to_string();
    let Some(dependent) = lw.g.member_by_json(&parent, &dependent_name).cloned() else {
        return Err(ctx.error(
            arg.span,
            format!(
                "no sibling field with JSON name {}",
                go_quote(&dependent_name)
            ),
        ));
    };
    if dependent.name() == trigger.name() {
        return Err(ctx.error(
            arg.span,
            format!(
                "trigger and dependent field must be different (both are {})",
                go_quote(&dependent_name)
            ),
        ));
    }
    let trigger_name = trigger
        .field
        .json
        .as_ref()
        .map_or("", |j| j.name.as_str())
        .to_string();
    if trigger_name.is_empty() {
        return Err(ctx.tag_error(
            tag,
            format!(
                "trigger field {} has no JSON name",
                go_quote(trigger.name())
            ),
        ));
    }
    for (role, m) in [("trigger", &trigger), ("dependent", &dependent)] {
        let kind = lw.g.kind(&lw.g.native(&m.ty));
        if !matches!(
            kind,
            Kind::Pointer | Kind::Map | Kind::Slice | Kind::Builtin
        ) {
            return Err(ctx.tag_error(
                tag,
                format!(
                    "{role} field {} has unsupported type kind {}",
                    go_quote(m.name()),
                    kind.name()
                ),
            ));
        }
    }
    let emits = if forbidden {
        Emission::at_member(
            ErrorType::Forbidden,
            origin::DEPENDENT_FORBIDDEN,
            &dependent_name,
        )
    } else {
        Emission::at_member(
            ErrorType::Required,
            origin::DEPENDENT_REQUIRED,
            &dependent_name,
        )
    };
    let check = Dependency {
        forbidden,
        trigger: trigger_name,
        trigger_set: field_presence(lw, &trigger),
        dependent: dependent_name,
        dependent_set: field_presence(lw, &dependent),
    };
    Ok(Lowered {
        deferred: vec![Deferred::parent(move |_| {
            Ok(Lowered::function(
                Validation::new(tag_name, Check::Dependency(Box::new(check))).emits([emits]),
            ))
        })],
        ..Lowered::default()
    })
}

/// `+k8s:dependentRequired`.
pub(crate) const DEPENDENT_REQUIRED: TagDoc = TagDoc {
    name: "k8s:dependentRequired",
    stability: Stability::Alpha,
    scopes: &[Scope::Field],
    args: ARGS,
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "When this field is set (non-nil pointer, non-empty list or map, non-zero value), the named sibling field must be set too. One-directional; repeat the tag for several siblings. On update the check is skipped when neither field's set-ness changed.",
    example: "+k8s:dependentRequired(\"other\")",
    extension: None,
};

/// Lowers `+k8s:dependentRequired`.
pub(crate) fn lower_dependent_required<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    lower_dependency(lw, ctx, tag, DEPENDENT_REQUIRED.name, false)
}

/// `+k8s:dependentForbidden`.
pub(crate) const DEPENDENT_FORBIDDEN: TagDoc = TagDoc {
    name: "k8s:dependentForbidden",
    stability: Stability::Alpha,
    scopes: &[Scope::Field],
    args: ARGS,
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "When this field is set (non-nil pointer, non-empty list or map, non-zero value), the named sibling field must not be set. One-directional; repeat the tag for several siblings. On update the check is skipped when neither field's set-ness changed.",
    example: "+k8s:dependentForbidden(\"other\")",
    extension: None,
};

/// Lowers `+k8s:dependentForbidden`.
pub(crate) fn lower_dependent_forbidden<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    lower_dependency(lw, ctx, tag, DEPENDENT_FORBIDDEN.name, true)
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[
    TagDef {
        doc: DEPENDENT_FORBIDDEN,
        lower: lower_dependent_forbidden,
    },
    TagDef {
        doc: DEPENDENT_REQUIRED,
        lower: lower_dependent_required,
    },
];
