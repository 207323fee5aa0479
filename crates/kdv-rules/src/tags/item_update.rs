//! Item-level update constraints (a kdv extension, KEP-5073 "Item-Level Constraints",
//! "List AddItem and RemoveItem Item Equality Semantics"):
//! `+k8s:item(<key>: <value>)=+k8s:update=NoSet|NoUnset|NoClear|NoModify`, and the
//! constraints of `+k8s:update` as a comma list (`NoSet,NoModify`). Upstream allows only
//! `NoModify` below `item` and one constraint per tag; its forms are lowered unchanged by
//! `tags::update`. Semantics: `kdv_runtime::item_update`.

use kdv_tags::Tag;

use super::item::{prepare, selector_string};
use super::update::{UPDATE, item_scope, lower_constraint};
use crate::ir::{Check, Emission, ItemUpdate, Validation};
use crate::lower::{Ctx, Deferred, LowerError, Lowered, Lowerer};
use crate::registry::Scope;
use crate::tags::cel_rules::ExtensionDoc;
use kdv_runtime::ErrorType;
use kdv_runtime::update::{UpdateConstraint, origin};

/// The seed's spelling of `NoUnset` at item scope.
pub const NO_CLEAR: &str = "NoClear";

/// The seed sections that specify the form.
pub const SEED: &str =
    "KEP-5073 \"Item-Level Constraints\", \"List AddItem and RemoveItem Item Equality Semantics\"";

/// `+k8s:item(...)=+k8s:update=<constraints>` and comma lists.
pub const ITEM_UPDATE: ExtensionDoc = ExtensionDoc {
    name: "k8s:update=NoSet <item scope>",
    syntax: "+k8s:item(<key>: <value>, ...)=+k8s:update=NoSet|NoUnset|NoClear|NoModify, or a quoted list +k8s:update=\"NoSet,NoModify\"",
    scopes: &[Scope::ListVal],
    description: "Makes a list-map item permanent, or fixed once present. Below `+k8s:item`: `NoSet` forbids the selected item to appear on update when no old item had its key values (`Invalid(<list>[i], null, \"field cannot be set once created\")` at the new item); `NoUnset`, and `NoClear` (the seed's spelling, accepted at item scope only), forbid it to disappear, clearing or removing the whole list included (`Invalid(<list>, null, \"field cannot be cleared once set\")` at the list); `NoModify` keeps upstream's meaning. Item identity is the list-map key, which the item criteria name in full. Like `+k8s:update`, the check short-circuits: it runs beside `+k8s:optional`, and when it fails the list's other validations are not run. The constraints of `+k8s:update` may also be written as a quoted comma list (`+k8s:update=\"NoSet,NoModify\"`, the same as repeating the tag; unquoted, the comma is a tag syntax error as upstream parses it). `NoAddItem`/`NoRemoveItem` stay on the list field. Published as CEL transition rules (`NoSet`, `NoModify` at the list, `NoUnset` at the struct holding it). Decision: docs/decisions/0121-item-update-constraints.md.",
    seed: SEED,
    example: "+k8s:item(type: \"Approved\")=+k8s:update=\"NoSet,NoModify,NoClear\"",
};

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
            None if at_item && name == NO_CLEAR => UpdateConstraint::NoUnset,
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
