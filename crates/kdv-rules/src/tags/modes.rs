//! Modes (upstream `validators/mode.go`): `+k8s:modeDiscriminator` and `+k8s:ifMode`
//! (spec §3.25, §6.5). Rules are recorded per struct and discriminator group; the first
//! rule's deferred callback emits one `Discriminated` check per member field. Semantics:
//! `kdv_runtime::modes`.

pub(crate) mod state;

use std::collections::BTreeMap;

use kdv_runtime::ErrorType;
use kdv_tags::{Tag, ValueType, go_quote};

use self::state::{MemberRules, ModeGroup, RuleState};
use super::lists::element_equality;
use super::root_type_string;
use crate::gotypes::{Kind, Member, Ty};
use crate::ir::{
    Check, Discriminated, Emission, FieldAccess, Literal, ModeRule, Presence, Validation,
};
use crate::lower::{Ctx, Deferred, LowerError, Lowered, Lowerer, TagDef};
use crate::shapes::decode_access;
use crate::tag_doc::{ArgDoc, Scope, Stability, TagDoc};

/// Tag name recorded on the emitted checks (upstream attributes them to the discriminator).
const TAG: &str = "k8s:modeDiscriminator";

/// The name of the unnamed group.
const DEFAULT_GROUP: &str = "default";

fn is_group_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The discriminator group a tag names: `modality`, or in Kubernetes 1.36's spellings
/// `name` (`+k8s:discriminator`) and `discriminator` (`+k8s:member`).
fn modality(tag: &Tag) -> String {
    tag.named("modality")
        .or_else(|| tag.named("name"))
        .or_else(|| tag.named("discriminator"))
        .map(|a| a.value.as_str().to_string())
        .unwrap_or_default()
}

fn group<'a, 'u>(lw: &'a mut Lowerer<'u>, path: &str, name: &str) -> &'a mut ModeGroup<'u> {
    let name = if name.is_empty() { DEFAULT_GROUP } else { name };
    lw.modes
        .groups
        .entry(path.to_string())
        .or_default()
        .entry(name.to_string())
        .or_default()
}

fn same_member(a: &Member<'_>, b: &Member<'_>) -> bool {
    std::ptr::eq(a.field, b.field)
}

/// Records a `+k8s:modeDiscriminator`.
pub(crate) fn record_discriminator<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<(), LowerError> {
    if lw.g.kind(&lw.g.native(&ctx.ty)) == Kind::Pointer {
        return Err(ctx.tag_error(tag, "can only be used on non-pointer types"));
    }
    let base = lw.g.base(&ctx.ty);
    if !matches!(
        base,
        Ty::Builtin(kdv_model::Builtin::String | kdv_model::Builtin::Bool)
    ) {
        return Err(ctx.tag_error(
            tag,
            format!(
                "can only be used on string or bool types ({})",
                root_type_string(&lw.g, &ctx.ty, &base)
            ),
        ));
    }
    let (Some(member), Some(parent)) = (ctx.member.clone(), ctx.parent_path.clone()) else {
        return Err(ctx.tag_error(tag, "can only be used on struct fields"));
    };
    let name = modality(tag);
    if !name.is_empty() && !is_group_name(&name) {
        return Err(ctx.tag_error(
            tag,
            format!(
                "discriminator group name must match ^[a-zA-Z][a-zA-Z0-9_]*$, got {}",
                go_quote(&name)
            ),
        ));
    }
    if name == DEFAULT_GROUP {
        return Err(ctx.tag_error(
            tag,
            format!("discriminator group name {} is reserved", go_quote(&name)),
        ));
    }
    let g = group(lw, &parent, &name);
    if let Some(existing) = &g.discriminator
        && !same_member(existing, &member)
    {
        return Err(ctx.tag_error(tag, format!("duplicate discriminator: {}", go_quote(&name))));
    }
    g.discriminator = Some(member);
    Ok(())
}

/// Records an `+k8s:ifMode` rule (its payload lowered for the field itself) and returns the
/// deferred callback emitting the struct's mode checks.
pub(crate) fn record_rule<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let Some(payload) = tag.value_tag() else {
        return Err(ctx.value_error(tag, "missing required payload"));
    };
    let name = modality(tag);
    if name == DEFAULT_GROUP {
        return Err(ctx.tag_error(
            tag,
            format!("discriminator group name {} is reserved", go_quote(&name)),
        ));
    }
    let value = match (
        tag.named("mode").or_else(|| tag.named("value")),
        tag.positional(),
    ) {
        (Some(a), _) | (None, Some(a)) => a.value.as_str().to_string(),
        (None, None) => return Err(ctx.tag_error(tag, "missing required mode")),
    };
    let (Some(member), Some(parent)) = (ctx.member.clone(), ctx.parent_path.clone()) else {
        return Err(ctx.tag_error(tag, "can only be used on struct fields"));
    };
    let lowered = lw.lower_tag(ctx, payload)?;
    let rule = RuleState {
        value,
        functions: lowered.functions,
        level: ctx.level,
    };
    let g = group(lw, &parent, &name);
    let entry = g
        .members
        .entry(member.name().to_string())
        .or_insert_with(|| MemberRules {
            member: member.clone(),
            rules: Vec::new(),
        });
    if !same_member(&entry.member, &member) {
        return Err(ctx.tag_error(
            tag,
            format!(
                "internal error: member mismatch for field {}",
                go_quote(member.name())
            ),
        ));
    }
    entry.rules.push(rule);
    let ctx = ctx.clone();
    let span = tag.name_span;
    Ok(Lowered {
        deferred: vec![Deferred::parent(move |lw| {
            generate(lw, &ctx).map_err(|m| ctx.error(span, m))
        })],
        ..Lowered::default()
    })
}

/// Upstream `getDiscriminatorValidations`.
fn generate<'u>(lw: &mut Lowerer<'u>, ctx: &Ctx<'u>) -> Result<Lowered<'u>, String> {
    let (Some(parent_path), Some(parent_ty)) = (&ctx.parent_path, &ctx.parent_ty) else {
        return Ok(Lowered::default());
    };
    if lw.g.kind(&lw.g.base(parent_ty)) != Kind::Struct {
        return Ok(Lowered::default());
    }
    let Some(groups) = lw.modes.groups.remove(parent_path) else {
        return Ok(Lowered::default());
    };
    let mut out = Lowered::default();
    for (name, group) in groups {
        let Some(discriminator) = group.discriminator else {
            if group.members.is_empty() {
                continue;
            }
            return Err(if name == DEFAULT_GROUP {
                "missing discriminator".to_string()
            } else {
                format!("missing discriminator for group {}", go_quote(&name))
            });
        };
        for rules in group.members.values() {
            out.functions
                .push(member_validation(lw, &discriminator, rules)?);
        }
    }
    Ok(out)
}

/// Upstream `generateMemberFieldValidation`: one `Discriminated` check for a member field.
fn member_validation(
    lw: &mut Lowerer<'_>,
    discriminator: &Member<'_>,
    rules: &MemberRules<'_>,
) -> Result<Validation, String> {
    let member = &rules.member;
    let field = match &member.field.json {
        Some(json) => json.name.clone(),
        None => member.name().to_string(),
    };
    let default_forbidden = match lw.g.kind(&lw.g.native(&member.ty)) {
        Kind::Slice => Presence::Slice,
        Kind::Map => Presence::Map,
        Kind::Pointer => Presence::Pointer,
        Kind::Struct => {
            return Err("discriminated member fields of struct type must be pointers".into());
        }
        _ => Presence::Value,
    };
    // Rules with the same value are merged in tag order; each function carries the level
    // of its own rule.
    let mut by_value: BTreeMap<String, Vec<Validation>> = BTreeMap::new();
    for rule in &rules.rules {
        let functions = by_value.entry(rule.value.clone()).or_default();
        for f in &rule.functions {
            let mut f = f.clone();
            if rule.level.is_some() {
                f.level = rule.level;
            }
            functions.push(f);
        }
    }
    let default_level = match rules.rules.split_first() {
        Some((first, rest)) if rest.iter().all(|r| r.level == first.level) => first.level,
        _ => None,
    };
    let is_bool = matches!(
        lw.g.base(&discriminator.ty),
        Ty::Builtin(kdv_model::Builtin::Bool)
    );
    let mut mode_rules = Vec::new();
    for (value, validations) in by_value {
        let literal = if is_bool {
            let b = kdv_tags::scalar::parse_bool(&value).map_err(|e| {
                format!(
                    "invalid discriminator value {}: cannot parse {} as bool: {e}",
                    go_quote(&value),
                    go_quote(&value)
                )
            })?;
            Literal::Bool(b)
        } else {
            Literal::String(value)
        };
        mode_rules.push(ModeRule {
            value: literal,
            validations,
        });
    }
    // Where no rule applies the member must be unset (at the member's path).
    let implicit_forbidden = Emission::at_member(ErrorType::Forbidden, "", &field);
    let check = Discriminated {
        field,
        access: decode_access(&lw.g, member).unwrap_or(FieldAccess::Skip),
        shape: lw.shape(&member.ty),
        equiv: element_equality(lw, &member.ty),
        discriminator_access: decode_access(&lw.g, discriminator).unwrap_or(FieldAccess::Skip),
        discriminator_shape: lw.shape(&discriminator.ty),
        rules: mode_rules,
        default_forbidden,
        default_level,
    };
    Ok(Validation::new(TAG, Check::Discriminated(Box::new(check))).emits([implicit_forbidden]))
}

/// `+k8s:modeDiscriminator`.
pub(crate) const MODE_DISCRIMINATOR: TagDoc = TagDoc {
    name: "k8s:modeDiscriminator",
    stability: Stability::Stable,
    scopes: &[Scope::Field],
    args: &[ArgDoc {
        name: "modality",
        ty: ValueType::String,
        required: false,
        description: "the discriminator group, when a struct has several",
    }],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Declares the string or bool field selecting the struct's mode for `+k8s:ifMode` rules.",
    example: "+k8s:modeDiscriminator",
    extension: None,
};

/// Lowers `+k8s:modeDiscriminator`.
pub(crate) fn lower_mode_discriminator<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    record_discriminator(lw, ctx, tag)?;
    Ok(Lowered::default())
}

/// `+k8s:ifMode`.
pub(crate) const IF_MODE: TagDoc = TagDoc {
    name: "k8s:ifMode",
    stability: Stability::Stable,
    scopes: &[Scope::Field],
    args: &[
        ArgDoc {
            name: "",
            ty: ValueType::String,
            required: false,
            description: "<mode>: the discriminator value",
        },
        ArgDoc {
            name: "modality",
            ty: ValueType::String,
            required: false,
            description: "the discriminator group",
        },
        ArgDoc {
            name: "mode",
            ty: ValueType::String,
            required: false,
            description: "the discriminator value",
        },
    ],
    accepts_unknown_args: false,
    payload: ValueType::Tag,
    payload_required: true,
    payload_description: "<tag>: the validation that applies in this mode",
    description: "Applies the chained tag when the struct's mode discriminator has the given value; in modes without an `ifMode` rule the field must not be set. On update the rules are skipped when the discriminator and the field are unchanged.",
    example: "+k8s:ifMode(\"A\")=+k8s:required",
    extension: None,
};

/// Lowers `+k8s:ifMode`.
pub(crate) fn lower_if_mode<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    record_rule(lw, ctx, tag)
}

/// `+k8s:discriminator`: Kubernetes 1.36's name of `+k8s:modeDiscriminator`.
pub(crate) const DISCRIMINATOR: TagDoc = TagDoc {
    name: "k8s:discriminator",
    stability: Stability::Stable,
    scopes: &[Scope::Field],
    args: &[ArgDoc {
        name: "name",
        ty: ValueType::String,
        required: false,
        description: "the discriminator group, when a struct has several",
    }],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Kubernetes 1.36's spelling of `+k8s:modeDiscriminator` (`name` for `modality`), renamed in 1.37; accepted so that the releases whose kubernetes/api uses it compile. Write `+k8s:modeDiscriminator`.",
    example: "+k8s:discriminator",
    extension: None,
};

/// `+k8s:member`: Kubernetes 1.36's name of `+k8s:ifMode`.
pub(crate) const MEMBER: TagDoc = TagDoc {
    name: "k8s:member",
    stability: Stability::Stable,
    scopes: &[Scope::Field],
    args: &[
        ArgDoc {
            name: "",
            ty: ValueType::String,
            required: false,
            description: "<value>: the discriminator value",
        },
        ArgDoc {
            name: "discriminator",
            ty: ValueType::String,
            required: false,
            description: "the discriminator group",
        },
        ArgDoc {
            name: "value",
            ty: ValueType::String,
            required: false,
            description: "the discriminator value",
        },
    ],
    accepts_unknown_args: false,
    payload: ValueType::Tag,
    payload_required: true,
    payload_description: "<tag>: the validation that applies in this mode",
    description: "Kubernetes 1.36's spelling of `+k8s:ifMode` (`discriminator` for `modality`, `value` for `mode`), renamed in 1.37; accepted so that the releases whose kubernetes/api uses it compile. Write `+k8s:ifMode`.",
    example: "+k8s:member(\"A\")=+k8s:required",
    extension: None,
};

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[
    TagDef {
        doc: IF_MODE,
        lower: lower_if_mode,
    },
    TagDef {
        doc: MODE_DISCRIMINATOR,
        lower: lower_mode_discriminator,
    },
    TagDef {
        doc: DISCRIMINATOR,
        lower: lower_mode_discriminator,
    },
    TagDef {
        doc: MEMBER,
        lower: lower_if_mode,
    },
];
