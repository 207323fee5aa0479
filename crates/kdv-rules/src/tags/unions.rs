//! Unions (upstream `validators/union.go` and `zeroorone.go`): `+k8s:unionMember`,
//! `+k8s:unionDiscriminator` and `+k8s:zeroOrOneOfMember` (spec §6.1–6.4). Members are
//! recorded per parent path (the struct of a field, the list of an item) and union name
//! while tags are lowered; the first member's deferred callback then emits one
//! `Check::Union` per union of that parent, in union-name order, and consumes the state so
//! later callbacks emit nothing. Semantics: `kdv_runtime::unions`.

pub(crate) mod state;

use std::collections::{BTreeMap, HashMap};

use kdv_runtime::ErrorType;
use kdv_runtime::unions::origin;
use kdv_tags::{Tag, ValueType, go_quote};

pub(crate) use self::state::Family;
use self::state::UnionBuild;
use super::lists::elem_is_struct;
use super::{is_string, root_type_string};
use crate::gotypes::{Kind, Member, Ty};
use crate::ir::{
    Check, Emission, FieldAccess, FieldPresence, ItemCriterion, KeyField, Literal, MemberSet,
    Presence, Union, UnionKind, UnionMember, Validation,
};
use crate::lower::{Ctx, Deferred, LowerError, Lowered, Lowerer, SelectorTerm, TagDef};
use crate::shapes::decode_access;
use crate::tag_doc::{ArgDoc, Scope, Stability, TagDoc};

/// Arguments of the member tags.
pub(crate) const MEMBER_ARGS: &[ArgDoc] = &[
    ArgDoc {
        name: "union",
        ty: ValueType::String,
        required: false,
        description: "the union's name, when a struct has several",
    },
    ArgDoc {
        name: "memberName",
        ty: ValueType::String,
        required: false,
        description: "the discriminator value selecting this member (default: the Go field name)",
    },
];

/// Scopes of the member and discriminator tags.
pub(crate) const SCOPES: &[Scope] = &[Scope::Field, Scope::ListVal];

fn table<'a, 'u>(
    lw: &'a mut Lowerer<'u>,
    family: Family,
) -> &'a mut HashMap<String, BTreeMap<String, UnionBuild<'u>>> {
    match family {
        Family::Union => &mut lw.unions.unions,
        Family::ZeroOrOneOf => &mut lw.unions.zero_or_one_ofs,
        Family::Group => &mut lw.unions.groups,
    }
}

/// The unions of `family` under construction (for `tags::virtual_fields`).
pub(crate) fn union_table<'a, 'u>(
    lw: &'a mut Lowerer<'u>,
    family: Family,
) -> &'a mut HashMap<String, BTreeMap<String, UnionBuild<'u>>> {
    table(lw, family)
}

fn union_name(tag: &Tag) -> String {
    tag.named("union")
        .or_else(|| tag.named("group"))
        .map(|a| a.value.as_str().to_string())
        .unwrap_or_default()
}

/// Records a `+k8s:unionDiscriminator`.
pub(crate) fn record_discriminator<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<(), LowerError> {
    let base = lw.g.base(&ctx.ty);
    if !is_string(&base) {
        return Err(ctx.tag_error(
            tag,
            format!(
                "can only be used on string types ({})",
                root_type_string(&lw.g, &ctx.ty, &base)
            ),
        ));
    }
    let (Some(member), Some(parent)) = (ctx.member.clone(), ctx.parent_path.clone()) else {
        return Err(ctx.tag_error(tag, "can only be used on struct fields"));
    };
    let name = union_name(tag);
    let u = table(lw, Family::Union)
        .entry(parent)
        .or_default()
        .entry(name)
        .or_default();
    // Without a `json` struct tag upstream records no discriminator (the union is then
    // undiscriminated).
    if let Some(json) = &member.field.json {
        u.discriminator = Some((json.name.clone(), member));
    }
    Ok(())
}

/// Records a union member (struct field or list item) and returns the deferred callback
/// that emits the parent's unions.
pub(crate) fn record_member<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
    family: Family,
) -> Result<Lowered<'u>, LowerError> {
    match ctx.scope {
        Scope::Field => record_field_member(lw, ctx, tag, family)?,
        Scope::ListVal => record_item_member(lw, ctx, tag, family)?,
        other => {
            return Err(ctx.tag_error(
                tag,
                format!(
                    "can only be used on fields and list items: {}",
                    other.description()
                ),
            ));
        }
    }
    let ctx = ctx.clone();
    let span = tag.name_span;
    Ok(Lowered {
        deferred: vec![Deferred::parent(move |lw| {
            generate(lw, &ctx, family).map_err(|m| ctx.error(span, m))
        })],
        ..Lowered::default()
    })
}

pub(crate) fn record_field_member<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
    family: Family,
) -> Result<(), LowerError> {
    let (Some(member), Some(parent)) = (ctx.member.clone(), ctx.parent_path.clone()) else {
        return Err(ctx.tag_error(
            tag,
            "struct-field union member has no member info in context",
        ));
    };
    let native = lw.g.native(&member.ty);
    match lw.g.kind(&native) {
        Kind::Pointer | Kind::Map | Kind::Slice | Kind::Builtin => {}
        other => {
            return Err(ctx.tag_error(
                tag,
                format!(
                    "can only be used on nilable and primitive types ({})",
                    other.name()
                ),
            ));
        }
    }
    let quoted = go_quote(member.name());
    let Some(json) = &member.field.json else {
        return Err(ctx.tag_error(
            tag,
            format!("field {quoted} is a union member but has no JSON struct field tag"),
        ));
    };
    let json = json.name.as_str();
    if json.is_empty() {
        return Err(ctx.tag_error(
            tag,
            format!("field {quoted} is a union member but has no JSON name"),
        ));
    }
    let discriminator_value = tag
        .named("memberName")
        .map(|a| a.value.as_str().to_string())
        .unwrap_or_else(|| member.name().to_string());
    let u = table(lw, family)
        .entry(parent)
        .or_default()
        .entry(union_name(tag))
        .or_default();
    u.members.push(UnionMember {
        name: json.to_string(),
        discriminator_value,
    });
    u.field_members.push(member);
    Ok(())
}

pub(crate) fn record_item_member<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
    family: Family,
) -> Result<(), LowerError> {
    let Some(selector) = ctx.list_selector.clone() else {
        return Err(ctx.tag_error(
            tag,
            "list-item union member has no list selector in context",
        ));
    };
    let parent = ctx.parent_path.clone().unwrap_or_default();
    // The last `.`-separated segment of the item's generator path: `tasks[{"name": "a"}]`.
    let name = ctx.path.rsplit('.').next().unwrap_or("").to_string();
    let discriminator_value = tag
        .named("memberName")
        .map(|a| a.value.as_str().to_string())
        .unwrap_or_default();
    let u = table(lw, family)
        .entry(parent)
        .or_default()
        .entry(union_name(tag))
        .or_default();
    if u.item_members.contains_key(&name) {
        return Err(ctx.tag_error(
            tag,
            format!("list-item union member {} already exists", go_quote(&name)),
        ));
    }
    u.members.push(UnionMember {
        name: name.clone(),
        discriminator_value,
    });
    u.item_members.insert(name, selector);
    Ok(())
}

/// How "is set" is decided for a struct field of the given type.
pub(crate) fn field_presence(lw: &mut Lowerer<'_>, member: &Member<'_>) -> FieldPresence {
    let presence = match lw.g.kind(&lw.g.native(&member.ty)) {
        Kind::Pointer => Presence::Pointer,
        Kind::Map => Presence::Map,
        Kind::Slice => Presence::Slice,
        _ => Presence::Value,
    };
    FieldPresence {
        access: decode_access(&lw.g, member).unwrap_or(FieldAccess::Skip),
        shape: lw.shape(&member.ty),
        presence,
    }
}

/// Upstream `getUnionValidations` / `getZeroOrOneOfValidations`.
pub(crate) fn generate<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    family: Family,
) -> Result<Lowered<'u>, String> {
    let (Some(parent_path), Some(parent_ty)) = (&ctx.parent_path, &ctx.parent_ty) else {
        return Ok(Lowered::default());
    };
    let native = lw.g.base(parent_ty);
    let kind = lw.g.kind(&native);
    if kind != Kind::Struct && kind != Kind::Slice {
        return Ok(Lowered::default());
    }
    if family == Family::Group {
        return Ok(Lowered::default());
    }
    let Some(unions) = table(lw, family).remove(parent_path) else {
        return Ok(Lowered::default());
    };
    let mut out = Lowered::default();
    for (_, u) in unions {
        if u.field_members.is_empty() && u.discriminator.is_none() && u.item_members.is_empty() {
            continue;
        }
        if !u.field_members.is_empty() && !u.item_members.is_empty() {
            return Err("cannot have both field members and item members".into());
        }
        if kind == Kind::Struct && !u.item_members.is_empty() {
            return Err("struct type cannot have item members".into());
        }
        if kind == Kind::Slice && !u.field_members.is_empty() {
            return Err("slice type cannot have field members".into());
        }
        let mut extractors = Vec::new();
        for m in &u.field_members {
            extractors.push(MemberSet::Field(field_presence(lw, m)));
        }
        if let Ty::Slice(elem) = &native {
            let elem = lw.g.non_pointer(elem).clone();
            for selector in u.item_members.values() {
                extractors.push(MemberSet::Item(item_extractor(lw, &elem, selector)?));
            }
        }
        let emits = match family {
            Family::Union => Emission::at_path(ErrorType::Invalid, origin::UNION),
            Family::ZeroOrOneOf => Emission::at_path(ErrorType::Invalid, origin::ZERO_OR_ONE_OF),
            Family::Group => continue,
        };
        let kind = match (&u.discriminator, family) {
            (Some((name, member)), Family::Union) => UnionKind::Discriminated {
                name: name.clone(),
                access: decode_access(&lw.g, member).unwrap_or(FieldAccess::Skip),
                shape: lw.shape(&member.ty),
            },
            (_, Family::Union) => UnionKind::ExactlyOne,
            (_, Family::ZeroOrOneOf) => UnionKind::ZeroOrOne,
            (_, Family::Group) => continue,
        };
        // Upstream `MarkUnionDeclarative` / `MarkZeroOrOneOfDeclarative`: one
        // declarative-native member marks the errors of its whole union.
        let declarative_native = u
            .field_members
            .iter()
            .map(|m| m.name())
            .chain(u.item_members.keys().map(String::as_str))
            .any(|name| lw.native.is_native(parent_path, name));
        let mut union = Validation::new(
            family.tag_name(),
            Check::Union(Box::new(Union {
                kind,
                members: u.members,
                extractors,
            })),
        )
        .emits([emits]);
        union.declarative_native = declarative_native;
        out.functions.push(union);
    }
    Ok(out)
}

/// Upstream `createItemExtractor`: the criteria in key-name order, compared as strings, so
/// only string keys are supported.
fn item_extractor(
    lw: &mut Lowerer<'_>,
    elem: &Ty,
    selector: &[SelectorTerm],
) -> Result<Vec<ItemCriterion>, String> {
    let mut terms: Vec<(String, String)> = selector
        .iter()
        .map(|t| {
            let text = match &t.value {
                Literal::String(s) => s.clone(),
                Literal::Int(i) => i.to_string(),
                Literal::Bool(b) => b.to_string(),
            };
            (t.field.clone(), text)
        })
        .collect();
    terms.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = Vec::new();
    for (key, text) in terms {
        let value = Literal::String(text);
        out.push(criterion(lw, elem, &key, &value)?);
    }
    Ok(out)
}

/// One item criterion: the key member `key` of the element struct `elem` must equal
/// `value` (upstream `generateComparisonRHS` type checks).
pub(crate) fn criterion(
    lw: &mut Lowerer<'_>,
    elem: &Ty,
    key: &str,
    value: &Literal,
) -> Result<ItemCriterion, String> {
    let base = lw.g.base(elem);
    if !elem_is_struct(lw, elem) {
        return Err("can only be used on lists of structs".into());
    }
    let Some(member) = lw.g.member_by_json(&base, key).cloned() else {
        return Err(format!("no field with JSON name {}", go_quote(key)));
    };
    let member_base = lw.g.base(&member.ty);
    let shown = match value {
        Literal::String(s) => s.clone(),
        Literal::Int(i) => i.to_string(),
        Literal::Bool(b) => b.to_string(),
    };
    let mismatch = |kind: &str| format!("type mismatch, field is {kind} but value is not: {shown}");
    match (&member_base, value) {
        (Ty::Builtin(kdv_model::Builtin::String), Literal::String(_))
        | (Ty::Builtin(kdv_model::Builtin::Bool), Literal::Bool(_)) => {}
        (Ty::Builtin(b), Literal::Int(_)) if b.is_integer() => {}
        (Ty::Builtin(kdv_model::Builtin::String), _) => return Err(mismatch("string")),
        (Ty::Builtin(kdv_model::Builtin::Bool), _) => return Err(mismatch("bool")),
        (Ty::Builtin(b), _) if b.is_integer() => return Err(mismatch("int")),
        _ => {
            return Err(format!(
                "unsupported type {} for field {}",
                lw.g.type_string(&member_base),
                member.name()
            ));
        }
    }
    let shape = lw.shape(&member.ty);
    Ok(ItemCriterion {
        field: KeyField {
            name: key.to_string(),
            access: decode_access(&lw.g, &member).unwrap_or(FieldAccess::Key(key.to_string())),
            shape,
        },
        value: value.clone(),
    })
}

/// `+k8s:unionMember`.
pub(crate) const UNION_MEMBER: TagDoc = TagDoc {
    name: "k8s:unionMember",
    stability: Stability::Stable,
    scopes: SCOPES,
    args: MEMBER_ARGS,
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Declares a member of a union: exactly one member must be set (or, with a `+k8s:unionDiscriminator`, exactly the member the discriminator names). On update the union is re-checked only when a member's set-ness (or the discriminator) changed.",
    example: "+k8s:unionMember",
    extension: None,
};

/// Lowers `+k8s:unionMember`.
pub(crate) fn lower_union_member<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    record_member(lw, ctx, tag, Family::Union)
}

/// `+k8s:unionDiscriminator`.
pub(crate) const UNION_DISCRIMINATOR: TagDoc = TagDoc {
    name: "k8s:unionDiscriminator",
    stability: Stability::Beta,
    scopes: SCOPES,
    args: &[ArgDoc {
        name: "union",
        ty: ValueType::String,
        required: false,
        description: "the union's name, when a struct has several",
    }],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Declares the string field naming which member of a union is set: the named member must be set and the others must not be. An unknown or empty value is not an error by itself.",
    example: "+k8s:unionDiscriminator",
    extension: None,
};

/// Lowers `+k8s:unionDiscriminator`.
pub(crate) fn lower_union_discriminator<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    record_discriminator(lw, ctx, tag)?;
    Ok(Lowered::default())
}

/// `+k8s:zeroOrOneOfMember`.
pub(crate) const ZERO_OR_ONE_OF_MEMBER: TagDoc = TagDoc {
    name: "k8s:zeroOrOneOfMember",
    stability: Stability::Stable,
    scopes: SCOPES,
    args: MEMBER_ARGS,
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Declares a member of a zero-or-one-of group: at most one member may be set. On update the group is re-checked only when a member's set-ness changed.",
    example: "+k8s:zeroOrOneOfMember",
    extension: None,
};

/// Lowers `+k8s:zeroOrOneOfMember`.
pub(crate) fn lower_zero_or_one_of_member<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    record_member(lw, ctx, tag, Family::ZeroOrOneOf)
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[
    TagDef {
        doc: UNION_DISCRIMINATOR,
        lower: lower_union_discriminator,
    },
    TagDef {
        doc: UNION_MEMBER,
        lower: lower_union_member,
    },
    TagDef {
        doc: ZERO_OR_ONE_OF_MEMBER,
        lower: lower_zero_or_one_of_member,
    },
];
