//! Virtual fields (kdv extension, KEP-5073 "Virtual Field Strategy"): `+k8s:memberOf(group:
//! <g>)` puts a struct field or a list-map item into the virtual group `<g>`;
//! `+k8s:union(union: <g>)` and `+k8s:zeroOrOneOf(union: <g>)` declare what the group means
//! (exactly one member set, at most one); `+k8s:listMapItem(<key>: <value>, …)=<tag>` is the
//! seed's name for upstream's `+k8s:item` (the same lowering, `tags/item.rs`), the virtual
//! field of one list-map item.
//!
//! A group is declared where its members' parent is: on the struct type whose fields are
//! members, or on the list field whose items are members (the seed's `terminalStatus`
//! example). The members are recorded as union members (`tags/unions.rs`, family `Group`);
//! the group tag moves them into the union table of its family and emits that family's
//! `Check::Union`, so interpreter, derive and schema emission are the union family's.
//! Scope: a group is visible at its declaring node only (a subset of the seed's "scoped to
//! the kind"); a member whose parent declares no such group is an error naming where the
//! group is declared, if anywhere (docs/decisions/0142-virtual-field-groups.md).

pub(crate) mod state;

use kdv_tags::{Tag, ValueType, go_quote};

use self::state::MemberSite;
use super::item::{ITEM, lower_item};
use super::unions::{Family, generate, record_field_member, record_item_member, union_table};
use crate::gotypes::Kind;
use crate::lower::{Ctx, Deferred, LowerError, Lowered, Lowerer, TagDef};
use crate::tag_doc::{ArgDoc, Scope, Stability, TagDoc};

/// The seed section these tags come from.
const SEED: &str = "KEP-5073 \"Virtual Field Strategy\"";

/// `+k8s:memberOf`.
pub(crate) const MEMBER_OF: TagDoc = TagDoc {
    name: "k8s:memberOf",
    stability: Stability::Stable,
    scopes: &[Scope::Field, Scope::ListVal],
    args: &[ArgDoc {
        name: "group",
        ty: ValueType::String,
        required: true,
        description: "the virtual group's name",
    }],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Puts the field (of a struct) or the list-map item (chained after `+k8s:listMapItem` or `+k8s:item`) into a virtual group. The group means nothing by itself: `+k8s:union(union: <group>)` or `+k8s:zeroOrOneOf(union: <group>)` on the members' parent (the struct type, or the list field) says what it requires. Members follow `+k8s:unionMember`'s rules (struct fields nilable or primitive, with a JSON name). A member whose parent declares no such group is an error. See docs/decisions/0142-virtual-field-groups.md.",
    example: "+k8s:listMapItem(type: \"Succeeded\")=+k8s:memberOf(group: terminalStatus)",
    extension: Some(SEED),
};

/// Arguments of the group tags.
const GROUP_ARGS: &[ArgDoc] = &[ArgDoc {
    name: "union",
    ty: ValueType::String,
    required: true,
    description: "the virtual group (`+k8s:memberOf(group: ...)`) the rule is over",
}];

/// `+k8s:union`.
pub(crate) const UNION: TagDoc = TagDoc {
    name: "k8s:union",
    stability: Stability::Stable,
    scopes: &[Scope::Type, Scope::Field],
    args: GROUP_ARGS,
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Declares the virtual group named by `union` a union: exactly one of its members must be set (a list-map member is set when the list has its item), with `+k8s:unionMember`'s errors and update semantics. Written on the struct type whose fields are the members, or on the list field whose items are. A group with no members is an error. See docs/decisions/0142-virtual-field-groups.md.",
    example: "+k8s:union(union: terminalStatus)",
    extension: Some(SEED),
};

/// `+k8s:zeroOrOneOf`.
pub(crate) const ZERO_OR_ONE_OF: TagDoc = TagDoc {
    name: "k8s:zeroOrOneOf",
    description: "Declares the virtual group named by `union` a zero-or-one-of group: at most one of its members may be set, with `+k8s:zeroOrOneOfMember`'s errors and update semantics. Written as `+k8s:union`. See docs/decisions/0142-virtual-field-groups.md.",
    example: "+k8s:zeroOrOneOf(union: terminalStatus)",
    ..UNION
};

/// `+k8s:listMapItem`: the seed's name of `+k8s:item`.
pub(crate) const LIST_MAP_ITEM: TagDoc = TagDoc {
    name: "k8s:listMapItem",
    description: "The design document's name of `+k8s:item` (its catalog lists the list-map item virtual field as `+k8s:item(key: value)`): applies the chained tag to the list-map item whose key fields equal the named arguments, one per `listMapKey` (multi-key maps name each key: the seed's `pairs: [[key,value],...]` is not expressible in the tag grammar). Same lowering and semantics as `+k8s:item`; upstream knows only that name. See docs/decisions/0142-virtual-field-groups.md.",
    example: "+k8s:listMapItem(type: \"Succeeded\")=+k8s:memberOf(group: terminalStatus)",
    extension: Some(SEED),
    ..ITEM
};

fn group_arg(tag: &Tag, name: &str) -> String {
    tag.named(name)
        .map(|a| a.value.as_str().to_string())
        .unwrap_or_default()
}

/// Lowers `+k8s:memberOf`: records the member; its group's tag emits the check.
pub(crate) fn lower_member_of<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let group = group_arg(tag, "group");
    if group.is_empty() {
        return Err(ctx.tag_error(tag, "the group name may not be empty"));
    }
    match ctx.scope {
        Scope::Field => record_field_member(lw, ctx, tag, Family::Group)?,
        Scope::ListVal if ctx.list_selector.as_ref().is_some_and(|s| !s.is_empty()) => {
            record_item_member(lw, ctx, tag, Family::Group)?
        }
        _ => {
            return Err(ctx.tag_error(
                tag,
                "can only be used on struct fields and on list-map items (after +k8s:listMapItem or +k8s:item)",
            ));
        }
    }
    let parent = ctx.parent_path.clone().unwrap_or_default();
    let where_ = if ctx.scope == Scope::Field {
        "the struct type declaring this field"
    } else {
        "the list field"
    };
    let at = short_path(&parent);
    lw.unions.group_members.push(MemberSite {
        parent: parent.clone(),
        group: group.clone(),
        error: ctx.tag_error(
            tag,
            format!(
                "group {} is not declared at {at}: write +k8s:union(union: {group}) or +k8s:zeroOrOneOf(union: {group}) on {where_}",
                go_quote(&group)
            ),
        ),
    });
    Ok(Lowered::default())
}

fn lower_group<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
    family: Family,
) -> Result<Lowered<'u>, LowerError> {
    let group = group_arg(tag, "union");
    if group.is_empty() {
        return Err(ctx.tag_error(tag, "the group name may not be empty"));
    }
    let kind = lw.g.kind(&lw.g.base(&ctx.ty));
    match (ctx.scope, kind) {
        (Scope::Type, Kind::Struct) | (Scope::Field, Kind::Slice) => {}
        _ => {
            return Err(ctx.tag_error(
                tag,
                "can only be used on struct types (members: their fields) and list fields (members: their items)",
            ));
        }
    }
    let parent = ctx.path.clone();
    if lw
        .unions
        .group_decls
        .iter()
        .any(|(g, p)| *g == group && *p == parent)
    {
        return Err(ctx.tag_error(
            tag,
            format!("group {} is already declared here", go_quote(&group)),
        ));
    }
    lw.unions.group_decls.push((group.clone(), parent.clone()));
    let ctx = ctx.clone();
    let span = tag.name_span;
    // Deferred: members written after this tag (later lines of the same list field) are
    // recorded when the field's tags are lowered.
    Ok(Lowered {
        deferred: vec![Deferred::this(move |lw| {
            let build = union_table(lw, Family::Group)
                .get_mut(&parent)
                .and_then(|groups| groups.remove(&group));
            let Some(build) = build.filter(|b| !b.members.is_empty()) else {
                return Err(ctx.error(
                    span,
                    format!(
                        "group {} has no members: put fields or list-map items into it with +k8s:memberOf(group: {group})",
                        go_quote(&group)
                    ),
                ));
            };
            lw.unions
                .group_members
                .retain(|m| !(m.parent == parent && m.group == group));
            let unions = union_table(lw, family).entry(parent.clone()).or_default();
            if unions.contains_key(&group) {
                return Err(ctx.error(
                    span,
                    format!(
                        "group {} has the name of a union of its members' parent",
                        go_quote(&group)
                    ),
                ));
            }
            unions.insert(group, build);
            let mut at = ctx.clone();
            at.parent_path = Some(parent);
            at.parent_ty = Some(ctx.ty.clone());
            generate(lw, &at, family).map_err(|m| ctx.error(span, m))
        })],
        ..Lowered::default()
    })
}

/// Lowers `+k8s:union`.
pub(crate) fn lower_union<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    lower_group(lw, ctx, tag, Family::Union)
}

/// Lowers `+k8s:zeroOrOneOf`.
pub(crate) fn lower_zero_or_one_of<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    lower_group(lw, ctx, tag, Family::ZeroOrOneOf)
}

/// A lowering path without its package (`example.com/p.Job.conditions` → `Job.conditions`).
fn short_path(path: &str) -> &str {
    let last = path.rsplit('/').next().unwrap_or(path);
    last.split_once('.').map_or(last, |(_, rest)| rest)
}

/// After every type is lowered: each member no group tag claimed is an error, naming where
/// groups of that name are declared (another type or kind), if anywhere.
pub(crate) fn finish(lw: &mut Lowerer<'_>) {
    let members = std::mem::take(&mut lw.unions.group_members);
    for m in members {
        let elsewhere: Vec<&str> = lw
            .unions
            .group_decls
            .iter()
            .filter(|(g, _)| *g == m.group)
            .map(|(_, p)| short_path(p))
            .collect();
        let mut e = m.error;
        if !elsewhere.is_empty() {
            e.message.push_str(&format!(
                " (a group of that name is declared at {}: virtual groups are not shared across types or kinds)",
                elsewhere.join(", ")
            ));
        }
        lw.report(e);
    }
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[
    TagDef {
        doc: LIST_MAP_ITEM,
        lower: lower_item,
    },
    TagDef {
        doc: MEMBER_OF,
        lower: lower_member_of,
    },
    TagDef {
        doc: UNION,
        lower: lower_union,
    },
    TagDef {
        doc: ZERO_OR_ONE_OF,
        lower: lower_zero_or_one_of,
    },
];
