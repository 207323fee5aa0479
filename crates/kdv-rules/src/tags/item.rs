//! Item selection (upstream `validators/item.go`): `+k8s:item(<key>: <value>, …)=+<tag>`
//! (spec §3.21): validations of the list-map item with the given key values. Each selector
//! is its own cohort; payloads that target the parent (union members) become validations of
//! the list itself. Semantics: `kdv_runtime::item`.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use kdv_tags::{ArgValue, Tag, ValueType, go_quote};

use super::lists::{ListSemantic, element_equality};
use super::unions::criterion;
use crate::gotypes::{Kind, Ty};
use crate::ir::{Check, Equality, ItemCriterion, Literal, Validation};
use crate::lower::{
    Ctx, DeferScope, Deferred, LowerError, Lowered, Lowerer, SelectorTerm, TagDef, wrap_one,
    wrap_with_scope,
};
use crate::tag_doc::{Scope, Stability, TagDoc, VALUE_SCOPES};

/// `+k8s:item`.
pub(crate) const ITEM: TagDoc = TagDoc {
    name: "k8s:item",
    stability: Stability::Stable,
    scopes: VALUE_SCOPES,
    args: &[],
    accepts_unknown_args: true,
    payload: ValueType::Tag,
    payload_required: true,
    payload_description: "<tag>: the validation for the selected item",
    description: "Applies the chained tag to the item of a list-map (`listType=map` or `unique=map` with `listMapKey`) whose key fields equal the named arguments (JSON names of all key fields; string, integer or bool values). Nothing happens when no item matches; on update the item is skipped when the matching old item is unchanged.",
    example: "+k8s:item(name: \"primary\")=+k8s:required",
    extension: None,
};

/// Lowers `+k8s:item`.
pub(crate) fn lower_item<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let Ty::Slice(elem) = lw.g.base(&ctx.ty) else {
        return Err(ctx.tag_error(tag, "can only be used on list types"));
    };
    let elem = lw.g.base(&elem);
    if lw.g.kind(&elem) != Kind::Struct {
        return Err(ctx.tag_error(tag, "can only be used on lists of structs"));
    }
    let Some(payload) = tag.value_tag() else {
        return Err(ctx.value_error(tag, "requires a validation tag as its value payload"));
    };
    let criteria = criteria_from_args(ctx, tag)?;
    if criteria.is_empty() {
        return Err(ctx.tag_error(tag, "no selection criteria was specified"));
    }
    let item_key = selector_string(&criteria);
    let mut sub_ctx = Ctx::new(
        Scope::ListVal,
        elem.clone(),
        format!("{}[{item_key}]", ctx.path),
    );
    sub_ctx.list_selector = Some(criteria.clone());
    sub_ctx.parent_path = Some(ctx.path.clone());
    sub_ctx.parent_ty = Some(ctx.ty.clone());
    sub_ctx.level = ctx.level;
    sub_ctx.site = ctx.site;
    let validations = lw.lower_tag(&sub_ctx, payload)?;
    let Lowered {
        functions,
        deferred,
        comments,
        opaque_type,
        opaque_key,
        opaque_val,
    } = validations;
    let mut result = Lowered {
        comments,
        opaque_type,
        opaque_key,
        opaque_val,
        ..Lowered::default()
    };
    let span = tag.name_span;
    if !functions.is_empty() {
        // Deferred: the list metadata (listType, listMapKey) may come from later tags.
        let (ctx, criteria, elem, item_key) = (
            ctx.clone(),
            criteria.clone(),
            elem.clone(),
            item_key.clone(),
        );
        result.deferred.push(Deferred::this(move |lw| {
            let (matching, equiv) =
                prepare(lw, &ctx, &criteria, &elem).map_err(|m| ctx.error(span, m))?;
            let wrap = wrapper(matching, equiv, item_key);
            Ok(Lowered {
                functions: functions
                    .into_iter()
                    .map(|f| wrap(f, DeferScope::This))
                    .collect(),
                ..Lowered::default()
            })
        }));
    }
    for d in deferred {
        // The parent of an item is the list: parent-targeting results (unions) belong to
        // this element and are not wrapped per item.
        let original = d.scope;
        let (ctx, criteria, elem, item_key) = (
            ctx.clone(),
            criteria.clone(),
            elem.clone(),
            item_key.clone(),
        );
        result.deferred.push(Deferred::this(move |lw| {
            let inner = (d.callback)(lw)?;
            let (matching, equiv) =
                prepare(lw, &ctx, &criteria, &elem).map_err(|m| ctx.error(span, m))?;
            let wrap = wrapper(matching, equiv, item_key);
            Ok(wrap_with_scope(inner, wrap, original))
        }));
    }
    Ok(result)
}

/// The wrapping of one payload function: the item check in the selector's cohort;
/// parent-scope results are left alone.
fn wrapper<'u>(
    criteria: Vec<ItemCriterion>,
    equiv: Equality,
    item_key: String,
) -> Rc<dyn Fn(Validation, DeferScope) -> Validation + 'u> {
    Rc::new(move |f: Validation, scope| {
        if scope == DeferScope::Parent {
            return f;
        }
        let mut w = wrap_one(ITEM.name, f, |inner| Check::Item {
            criteria: criteria.clone(),
            equiv,
            inner,
        });
        w.cohort = Some(item_key.clone());
        w
    })
}

/// Upstream `criteriaFromArgs`: named arguments, in the order written.
fn criteria_from_args(ctx: &Ctx<'_>, tag: &Tag) -> Result<Vec<SelectorTerm>, LowerError> {
    let mut out: Vec<SelectorTerm> = Vec::new();
    let mut names: HashSet<&str> = HashSet::new();
    for arg in &tag.args {
        let Some(name) = &arg.name else {
            return Err(ctx.error(arg.span, "all arguments must be named"));
        };
        if !names.insert(name.as_str()) {
            return Err(ctx.error(arg.span, format!("duplicate argument: {}", go_quote(name))));
        }
        let value = match &arg.value {
            ArgValue::String(s) => Literal::String(s.clone()),
            ArgValue::Bool(b) => Literal::Bool(*b),
            ArgValue::Int(text) => match kdv_tags::scalar::parse_int(text) {
                Ok(i) => Literal::Int(i128::from(i)),
                Err(e) => {
                    return Err(ctx.error(
                        arg.span,
                        format!(
                            "invalid value for argument {}: invalid integer: {e}",
                            go_quote(name)
                        ),
                    ));
                }
            },
        };
        out.push(SelectorTerm {
            field: name.clone(),
            value,
        });
    }
    Ok(out)
}

/// Upstream `selectorString`: `{"key": "value", "n": 42, "b": true}` in the order written.
pub(crate) fn selector_string(criteria: &[SelectorTerm]) -> String {
    let pairs: Vec<String> = criteria
        .iter()
        .map(|t| {
            let value = match &t.value {
                Literal::String(s) => go_quote(s),
                Literal::Int(i) => i.to_string(),
                Literal::Bool(b) => b.to_string(),
            };
            format!("{}: {value}", go_quote(&t.field))
        })
        .collect();
    format!("{{{}}}", pairs.join(", "))
}

/// Upstream `prepareArgs`: checks the criteria against the list-map keys (the field's list
/// metadata, else its list type's) and orders them like the keys.
pub(crate) fn prepare(
    lw: &mut Lowerer<'_>,
    ctx: &Ctx<'_>,
    criteria: &[SelectorTerm],
    elem: &Ty,
) -> Result<(Vec<ItemCriterion>, Equality), String> {
    let mut lm = lw.lists.meta.get(&ctx.path);
    if lm.is_none() && ctx.scope == Scope::Field {
        lm = lw.lists.meta.get(&lw.g.type_string(&ctx.ty));
    }
    let keys: Vec<String> = match lm {
        Some(lm) if lm.semantic == Some(ListSemantic::Map) && !lm.keys.is_empty() => {
            lm.keys.iter().map(|k| k.name.clone()).collect()
        }
        _ => {
            return Err("found items with no list metadata - item tags require listType=map or unique=map with listMapKey".into());
        }
    };
    if criteria.len() != keys.len() {
        return Err(format!(
            "number of arguments ({}) does not match number of listMapKey fields ({})",
            criteria.len(),
            keys.len()
        ));
    }
    let mut sorted = Vec::new();
    let mut missing = Vec::new();
    // The first criterion of each field name (names are unique: criteriaFromArgs checked).
    let mut by_field: HashMap<&str, &SelectorTerm> = HashMap::with_capacity(criteria.len());
    for t in criteria {
        by_field.entry(t.field.as_str()).or_insert(t);
    }
    for key in &keys {
        match by_field.get(key.as_str()).copied() {
            Some(t) => sorted.push(t),
            None => missing.push(key.as_str()),
        }
    }
    if !missing.is_empty() {
        return Err(format!(
            "missing required listMapKey fields: [{}]",
            missing.join(" ")
        ));
    }
    let mut out = Vec::new();
    for t in sorted {
        out.push(criterion(lw, elem, &t.field, &t.value)?);
    }
    Ok((out, element_equality(lw, elem)))
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[TagDef {
    doc: ITEM,
    lower: lower_item,
}];
