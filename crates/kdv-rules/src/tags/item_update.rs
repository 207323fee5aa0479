//! Item-level update constraints (a kdv extension, KEP-5073 "Item-Level Constraints",
//! "List AddItem and RemoveItem Item Equality Semantics"):
//! `+k8s:item(<key>: <value>)=+k8s:update=NoSet|NoUnset|NoClear|NoModify`, and the
//! constraints of `+k8s:update` as a comma list (`NoSet,NoModify`). Upstream allows only
//! `NoModify` below `item` and one constraint per tag. This module documents the extension;
//! `tags::update` lowers both its forms and upstream's. Semantics: `kdv_runtime::item_update`.

use crate::tag_doc::{ExtensionDoc, Scope};

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
