//! Update constraints (upstream `validators/update.go`): `+k8s:update=<constraint>`
//! (spec §3.13). Constraints are collected per field and merged into one short-circuit
//! check once the field's tags are known. Semantics: `kdv_runtime::update`.

pub(crate) mod state;

use kdv_runtime::ErrorType;
use kdv_runtime::update::origin;
use kdv_tags::{Tag, ValueType};

use super::item::{prepare, selector_string};
use super::item_update;
use super::lists::{ListSemantic, element_equality, key_match};
use super::payload;
use crate::gotypes::{Kind, Ty};
use crate::ir::{
    Check, Emission, Equality, ItemMatch, ItemUpdate, UpdateConstraint, UpdateKind, Validation,
};
use crate::lower::{Ctx, Deferred, LowerError, Lowered, Lowerer, TagDef};
use crate::tag_doc::{Scope, Stability, TagDoc};

/// `+k8s:update`.
pub(crate) const UPDATE: TagDoc = TagDoc {
    name: "k8s:update",
    stability: Stability::Stable,
    scopes: &[Scope::Field, Scope::ListVal, Scope::MapVal],
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::String,
    payload_required: false,
    payload_description: "NoSet | NoUnset | NoModify | NoAddItem | NoRemoveItem",
    description: "Restricts how a field may change on update: NoSet (unset → set), NoUnset (set → unset), NoModify (set → different value), NoAddItem / NoRemoveItem (list items by identity, map entries by key). Repeat the tag to combine constraints.",
    example: "+k8s:update=NoModify",
    extension: None,
};

/// Whether the element is a `+k8s:item(...)`-selected list item.
pub(crate) fn item_scope(ctx: &Ctx<'_>) -> bool {
    ctx.scope == Scope::ListVal && ctx.list_selector.as_ref().is_some_and(|s| !s.is_empty())
}

/// Lowers `+k8s:update`.
pub(crate) fn lower_update<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let value = payload(tag);
    let at_item = item_scope(ctx);
    if value.contains(',') || (at_item && value != UpdateConstraint::NoModify.name()) {
        return lower_extension(lw, ctx, tag, value, at_item);
    }
    let Some(constraint) = UpdateConstraint::from_name(value) else {
        return Err(ctx.value_error(tag, format!("unknown +k8s:update constraint: {value}")));
    };
    lower_constraint(lw, ctx, tag, constraint)
}

/// Lowers one constraint of `+k8s:update` (upstream's one-constraint tag).
pub(crate) fn lower_constraint<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
    constraint: UpdateConstraint,
) -> Result<Lowered<'u>, LowerError> {
    if matches!(ctx.scope, Scope::ListVal | Scope::MapVal) {
        if constraint != UpdateConstraint::NoModify {
            return Err(ctx.value_error(
                tag,
                format!(
                    "+k8s:update={} does not apply to {}, attach it to the enclosing field",
                    constraint.name(),
                    ctx.scope.description()
                ),
            ));
        }
        if matches!(lw.g.kind(&lw.g.base(&ctx.ty)), Kind::Slice | Kind::Map) {
            return Err(ctx.value_error(
                tag,
                "+k8s:update=NoModify cannot be applied to list/map elements that are themselves lists or maps",
            ));
        }
        if ctx.scope == Scope::ListVal
            && let Some(parent) = &ctx.parent_path
            && let Some(lm) = lw.lists.meta.get(parent)
            && lm.semantic != Some(ListSemantic::Map)
        {
            let got = match lm.semantic {
                Some(ListSemantic::Atomic) => "atomic",
                Some(ListSemantic::Set) => "set",
                _ => "",
            };
            return Err(ctx.value_error(
                tag,
                format!(
                    "+k8s:eachVal=+k8s:update=NoModify requires the enclosing list to use listType=map or unique=map (got {got})"
                ),
            ));
        }
        let mut v = scalar_update(lw, &ctx.ty, vec![constraint]);
        v.level = ctx.level;
        return Ok(Lowered::function(v));
    }
    let entry = lw.update.pending.entry(ctx.path.clone()).or_default();
    entry.1 = ctx.level;
    if !entry.0.contains(&constraint) {
        entry.0.push(constraint);
    }
    let constraints = entry.0.clone();
    check_constraints(lw, ctx, &constraints).map_err(|m| ctx.value_error(tag, m))?;
    let ctx = ctx.clone();
    let span = tag.name_span;
    Ok(Lowered {
        deferred: vec![Deferred::this(move |lw| {
            update_validations(lw, &ctx).map_err(|m| ctx.error(span, m))
        })],
        ..Lowered::default()
    })
}

fn check_constraints(
    lw: &Lowerer<'_>,
    ctx: &Ctx<'_>,
    constraints: &[UpdateConstraint],
) -> Result<(), String> {
    let t = lw.g.base(&ctx.ty);
    let compound = matches!(lw.g.kind(&t), Kind::Slice | Kind::Map);
    let pointer = matches!(ctx.ty, Ty::Pointer(_));
    let is_struct = lw.g.kind(&t) == Kind::Struct;
    for c in constraints {
        match c {
            UpdateConstraint::NoAddItem | UpdateConstraint::NoRemoveItem if !compound => {
                return Err(format!(
                    "+k8s:update={} can only be used on list or map fields",
                    c.name()
                ));
            }
            UpdateConstraint::NoModify if compound => {
                return Err("+k8s:update=NoModify is not supported on list or map fields, use +k8s:eachVal=+k8s:update=NoModify for per-item immutability".into());
            }
            UpdateConstraint::NoSet | UpdateConstraint::NoUnset if is_struct && !pointer => {
                return Err(format!(
                    "+k8s:update={} cannot be used on non-pointer struct fields (they cannot be unset)",
                    c.name()
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// The update check of a scalar, pointer or struct value.
fn scalar_update(lw: &Lowerer<'_>, ty: &Ty, constraints: Vec<UpdateConstraint>) -> Validation {
    let kind = if matches!(ty, Ty::Pointer(_)) {
        UpdateKind::Pointer
    } else if lw.g.kind(&lw.g.base(ty)) == Kind::Struct {
        UpdateKind::Struct
    } else {
        UpdateKind::Value
    };
    update_check(kind, constraints, None)
}

/// The merged update check, with upstream's emissions: scalars report `Invalid` at the
/// path; lists and maps report `Invalid` for NoSet/NoUnset, `Forbidden` at `[*]` for added
/// items (and removed map keys), and `Forbidden` at the list itself for removed list items.
fn update_check(
    kind: UpdateKind,
    constraints: Vec<UpdateConstraint>,
    matching: Option<ItemMatch>,
) -> Validation {
    let has = |c: UpdateConstraint| constraints.contains(&c);
    let mut emits = Vec::new();
    let compound = match kind {
        UpdateKind::Slice => Some(false),
        UpdateKind::Map => Some(true),
        UpdateKind::Pointer | UpdateKind::Struct | UpdateKind::Value => None,
    };
    match compound {
        None => emits.push(Emission::at_path(ErrorType::Invalid, origin::UPDATE)),
        Some(is_map) => {
            if has(UpdateConstraint::NoSet) || has(UpdateConstraint::NoUnset) {
                emits.push(Emission::at_path(ErrorType::Invalid, origin::UPDATE));
            }
            let removes = has(UpdateConstraint::NoRemoveItem);
            if has(UpdateConstraint::NoAddItem) || (removes && is_map) {
                emits.push(Emission::at_element(ErrorType::Forbidden, origin::UPDATE));
            }
            if removes && !is_map {
                emits.push(Emission::at_path(ErrorType::Forbidden, origin::UPDATE));
            }
        }
    }
    Validation::new(
        UPDATE.name,
        Check::Update {
            kind,
            constraints,
            matching,
        },
    )
    .short_circuit()
    .emits(emits)
}

/// Upstream `getUpdateValidations`: once per field, the merged check.
fn update_validations<'u>(lw: &mut Lowerer<'u>, ctx: &Ctx<'u>) -> Result<Lowered<'u>, String> {
    let Some((mut constraints, level)) = lw.update.pending.remove(&ctx.path) else {
        return Ok(Lowered::default());
    };
    if constraints.is_empty() {
        return Ok(Lowered::default());
    }
    constraints.sort();
    let t = lw.g.base(&ctx.ty);
    let mut v = match lw.g.kind(&t) {
        Kind::Slice => slice_update(lw, ctx, constraints)?,
        Kind::Map => update_check(UpdateKind::Map, constraints, None),
        _ => scalar_update(lw, &ctx.ty, constraints),
    };
    v.level = ctx.level.or(level);
    Ok(Lowered::function(v))
}

fn slice_update(
    lw: &mut Lowerer<'_>,
    ctx: &Ctx<'_>,
    constraints: Vec<UpdateConstraint>,
) -> Result<Validation, String> {
    let mut matching = None;
    if constraints.iter().any(|c| {
        matches!(
            c,
            UpdateConstraint::NoAddItem | UpdateConstraint::NoRemoveItem
        )
    }) {
        let lm = lw
            .lists.meta
            .get(&ctx.path)
            .or_else(|| lw.lists.meta.get(&lw.g.type_string(&ctx.ty)))
            .cloned()
            .ok_or("+k8s:update=NoAddItem/+k8s:update=NoRemoveItem require list metadata (+k8s:listType with listMapKey, or +k8s:unique) to determine item identity")?;
        let elem = match lw.g.native(&ctx.ty) {
            Ty::Slice(e) | Ty::Array(e) => *e,
            _ => return Err("not a list".into()),
        };
        matching = Some(match lm.semantic {
            Some(ListSemantic::Map) => {
                if lm.keys.is_empty() {
                    return Err("+k8s:update=NoAddItem/+k8s:update=NoRemoveItem require listMapKey to be set for listType=map".into());
                }
                key_match(lw, &lm)
            }
            Some(ListSemantic::Set) => match element_equality(lw, &elem) {
                Equality::Direct => ItemMatch::Direct,
                Equality::Semantic => ItemMatch::Semantic,
            },
            _ => {
                return Err("+k8s:update=NoAddItem/+k8s:update=NoRemoveItem require listType=set, listType=map, unique=set, or unique=map to define item identity".into());
            }
        });
    }
    Ok(update_check(UpdateKind::Slice, constraints, matching))
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[TagDef {
    doc: UPDATE,
    lower: lower_update,
}];

/// Whether `tag` (chained below `parent`, if any) uses a form upstream lacks: a comma list,
/// or a constraint other than `NoModify` below `+k8s:item`.
pub(crate) fn extension_form(parent: Option<&Tag>, tag: &Tag) -> bool {
    if tag.name != UPDATE.name {
        return false;
    }
    let value = tag.value.as_str().unwrap_or("");
    value.contains(',')
        || (parent.is_some_and(|p| p.name == super::item::ITEM.name)
            && value != UpdateConstraint::NoModify.name())
}

/// Lowers the extension forms of `+k8s:update`: each constraint as upstream's one-constraint
/// tag, except `NoSet`/`NoUnset` below `+k8s:item`, which become one check at the list.
pub(crate) fn lower_extension<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
    value: &str,
    at_item: bool,
) -> Result<Lowered<'u>, LowerError> {
    debug_assert_eq!(at_item, item_scope(ctx));
    let mut constraints = Vec::new();
    for name in value.split(',').map(str::trim) {
        let c = match UpdateConstraint::from_name(name) {
            Some(c) => c,
            None if at_item && name == item_update::NO_CLEAR => UpdateConstraint::NoUnset,
            None => {
                return Err(ctx.value_error(tag, format!("unknown +k8s:update constraint: {name}")));
            }
        };
        if !constraints.contains(&c) {
            constraints.push(c);
        }
    }
    let mut out = Lowered::default();
    let mut item_level = Vec::new();
    for c in constraints {
        if at_item && matches!(c, UpdateConstraint::NoSet | UpdateConstraint::NoUnset) {
            item_level.push(c);
        } else {
            out.add(lower_constraint(lw, ctx, tag, c)?);
        }
    }
    if item_level.is_empty() {
        return Ok(out);
    }
    item_level.sort();
    let (Some(selector), Some(list_path), Some(list_ty)) = (
        ctx.list_selector.clone(),
        ctx.parent_path.clone(),
        ctx.parent_ty.clone(),
    ) else {
        return Err(ctx.tag_error(tag, "item update constraint has no list in context"));
    };
    let (elem, level, span) = (ctx.ty.clone(), ctx.level, tag.name_span);
    let ctx = ctx.clone();
    out.deferred.push(Deferred::parent(move |lw| {
        let list_ctx = Ctx::new(Scope::Field, list_ty, list_path);
        let (criteria, _) =
            prepare(lw, &list_ctx, &selector, &elem).map_err(|m| ctx.error(span, m))?;
        let mut emits = Vec::new();
        if item_level.contains(&UpdateConstraint::NoSet) {
            emits.push(Emission::at_element(ErrorType::Invalid, origin::UPDATE));
        }
        if item_level.contains(&UpdateConstraint::NoUnset) {
            emits.push(Emission::at_path(ErrorType::Invalid, origin::UPDATE));
        }
        let mut v = Validation::new(
            UPDATE.name,
            Check::ItemUpdate(Box::new(ItemUpdate {
                criteria,
                constraints: item_level,
                selector: selector_string(&selector),
            })),
        )
        // As upstream's list-level update checks: it runs beside `+k8s:optional`, which
        // would otherwise stop at a cleared list.
        .short_circuit()
        .emits(emits);
        v.level = level;
        Ok(Lowered::function(v))
    }));
    Ok(out)
}
