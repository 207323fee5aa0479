//! Lists (upstream `validators/list.go`): `+k8s:listType`, `+k8s:listMapKey`,
//! `+k8s:unique` and `+k8s:customUnique`. They record list metadata per list; once the
//! element's tags are known, the metadata is checked and a set/map list gets its
//! uniqueness check. The identity they define also correlates items with the old list for
//! `eachVal`, `item` and `update`. Semantics: `kdv_runtime::lists`.

pub(crate) mod state;

use kdv_runtime::ErrorType;
use kdv_tags::{Tag, ValueType, go_quote};

pub(crate) use self::state::ListSemantic;
use self::state::{ListKey, ListMeta};
use super::payload;
use crate::gotypes::{Kind, Ty};
use crate::ir::{Check, Emission, Equality, ItemMatch, KeyField, Validation};
use crate::lower::{Ctx, Deferred, LowerError, Lowered, Lowerer, TagDef};
use crate::shapes::decode_access;
use crate::tag_doc::{Scope, Stability, TagDoc, VALUE_SCOPES};

/// `+k8s:listType`.
pub(crate) const LIST_TYPE: TagDoc = TagDoc {
    name: "k8s:listType",
    stability: Stability::Stable,
    scopes: VALUE_SCOPES,
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::String,
    payload_required: true,
    payload_description: "atomic | set | map",
    description: "Declares a list's semantics: `atomic` (replaced as a whole), `set` (unique values) or `map` (unique by the `+k8s:listMapKey` fields). Sets and maps get a uniqueness check, and their items are correlated with the old list for ratcheting.",
    example: "+k8s:listType=map",
    extension: None,
};

/// The list element type, when `t` is (natively) a list.
pub(crate) fn list_elem(lw: &Lowerer<'_>, t: &Ty) -> Option<Ty> {
    match lw.g.native(t) {
        Ty::Slice(e) | Ty::Array(e) => Some(*e),
        _ => None,
    }
}

/// `can only be used on list types (<kind>)`.
pub(crate) fn require_list(lw: &Lowerer<'_>, ctx: &Ctx<'_>, tag: &Tag) -> Result<Ty, LowerError> {
    let native = lw.g.native(&ctx.ty);
    list_elem(lw, &ctx.ty).ok_or_else(|| {
        ctx.tag_error(
            tag,
            format!(
                "can only be used on list types ({})",
                lw.g.kind(&native).name()
            ),
        )
    })
}

/// Whether the element's struct type (through a pointer) is a struct.
pub(crate) fn elem_is_struct(lw: &Lowerer<'_>, elem: &Ty) -> bool {
    lw.g.kind(&lw.g.base(elem)) == Kind::Struct
}

/// Lowers `+k8s:listType`.
pub(crate) fn lower_list_type<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let elem = require_list(lw, ctx, tag)?;
    let elem_struct = elem_is_struct(lw, &elem);
    let lm = lw.lists.meta.entry(ctx.path.clone()).or_default();
    lm.level = ctx.level;
    if lm.ownership_single.is_some() {
        return Err(ctx.value_error(tag, "listType cannot be specified more than once"));
    }
    let value = payload(tag);
    let redundant =
        |lm: &ListMeta<'_>| lm.semantic.is_some() && lm.semantic != Some(ListSemantic::Atomic);
    match value {
        "atomic" => {
            lm.ownership_single = Some(true);
            if lm.semantic.is_none() {
                lm.semantic = Some(ListSemantic::Atomic);
            }
        }
        "set" | "map" => {
            lm.ownership_single = Some(false);
            if redundant(lm) {
                return Err(ctx.value_error(
                    tag,
                    format!("unique tag is redundant for listType={}", go_quote(value)),
                ));
            }
            if value == "map" {
                if !elem_struct {
                    return Err(ctx.value_error(tag, "only lists of structs can be list-maps"));
                }
                lm.semantic = Some(ListSemantic::Map);
            } else {
                lm.semantic = Some(ListSemantic::Set);
            }
        }
        other => {
            return Err(ctx.value_error(tag, format!("unknown list type {}", go_quote(other))));
        }
    }
    Ok(finalize_later(ctx, tag))
}

/// The deferred uniqueness callback registered by `listType` and `unique`.
pub(crate) fn finalize_later<'u>(ctx: &Ctx<'u>, tag: &Tag) -> Lowered<'u> {
    let ctx = ctx.clone();
    let span = tag.name_span;
    Lowered {
        deferred: vec![Deferred::this(move |lw| {
            list_validations(lw, &ctx).map_err(|msg| ctx.error(span, msg))
        })],
        ..Lowered::default()
    }
}

/// Upstream `getListMeta`: the field's own metadata, or its list type's.
pub(crate) fn list_meta_for<'u>(
    lw: &Lowerer<'u>,
    ctx: &Ctx<'u>,
) -> Result<Option<ListMeta<'u>>, String> {
    let lm = lw.lists.meta.get(&ctx.path);
    if ctx.scope == Scope::Field {
        let tm = lw.lists.meta.get(&lw.g.type_string(&ctx.ty));
        if lm.is_some() && tm.is_some() {
            return Err(format!(
                "found list metadata for both a field and its type: {}",
                ctx.path
            ));
        }
        if let Some(tm) = tm {
            return Ok(Some(tm.clone()));
        }
    }
    Ok(lm.cloned())
}

fn check(lm: &ListMeta<'_>) -> Result<(), String> {
    if !lm.keys.is_empty() && lm.semantic != Some(ListSemantic::Map) {
        return Err("found listMapKey without listType=map or unique=map".into());
    }
    if lm.semantic == Some(ListSemantic::Map) && lm.keys.is_empty() {
        return Err("found listType=map or unique=map without listMapKey".into());
    }
    if lm.ownership_single.is_none() {
        return Err(
            "listType must be specified - use listType=atomic, listType=set, or listType=map"
                .into(),
        );
    }
    Ok(())
}

/// Builds the list-map key match for list metadata with keys.
pub(crate) fn key_match(lw: &mut Lowerer<'_>, lm: &ListMeta<'_>) -> ItemMatch {
    let keys = lm
        .keys
        .iter()
        .map(|k| {
            let shape = lw.shape(&k.member.ty);
            KeyField {
                name: k.name.clone(),
                access: decode_access(&lw.g, &k.member)
                    .unwrap_or(crate::ir::FieldAccess::Key(k.name.clone())),
                shape,
            }
        })
        .collect();
    ItemMatch::Keys(keys)
}

/// Whole-element equality for `elem`: `==` when directly comparable, else DeepEqual.
pub(crate) fn element_equality(lw: &Lowerer<'_>, elem: &Ty) -> Equality {
    if lw.g.is_direct_comparable(&lw.g.base(elem)) {
        Equality::Direct
    } else {
        Equality::Semantic
    }
}

/// Upstream `getListValidations`: once per path, check the metadata and emit the uniqueness
/// check for set/map semantics.
fn list_validations<'u>(lw: &mut Lowerer<'u>, ctx: &Ctx<'u>) -> Result<Lowered<'u>, String> {
    let Some(elem) = list_elem(lw, &ctx.ty) else {
        return Ok(Lowered::default());
    };
    let Some(lm) = list_meta_for(lw, ctx)? else {
        return Ok(Lowered::default());
    };
    if !lw.lists.generated.insert(ctx.path.clone()) {
        return Ok(Lowered::default());
    }
    check(&lm)?;
    if lm.custom_unique {
        // Uniqueness is validated by hand-written code.
        return Ok(Lowered {
            comments: 1,
            ..Lowered::default()
        });
    }
    let matching = match lm.semantic {
        Some(ListSemantic::Set) => match element_equality(lw, &elem) {
            Equality::Direct => ItemMatch::Direct,
            Equality::Semantic => ItemMatch::Semantic,
        },
        Some(ListSemantic::Map) => key_match(lw, &lm),
        _ => return Ok(Lowered::default()),
    };
    let mut v = Validation::new(LIST_TYPE.name, Check::Unique(matching))
        .emits([Emission::at_element(ErrorType::Duplicate, "")]);
    v.level = lm.level;
    Ok(Lowered::function(v))
}

/// `+k8s:listMapKey`.
pub(crate) const LIST_MAP_KEY: TagDoc = TagDoc {
    name: "k8s:listMapKey",
    stability: Stability::Stable,
    scopes: VALUE_SCOPES,
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::String,
    payload_required: true,
    payload_description: "<json name>: a field of the list's element struct",
    description: "Names one key field of a `listType=map` (or `unique=map`) list; repeat for composite keys. The field must be a scalar or a pointer to one.",
    example: "+k8s:listMapKey=name",
    extension: None,
};

/// Lowers `+k8s:listMapKey`: records the key in the list metadata.
pub(crate) fn lower_list_map_key<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let elem = require_list(lw, ctx, tag)?;
    if !elem_is_struct(lw, &elem) {
        return Err(ctx.value_error(tag, "only lists of structs can be list-maps"));
    }
    let name = payload(tag);
    let base = lw.g.base(&elem);
    let Some(member) = lw.g.member_by_json(&base, name).cloned() else {
        return Err(ctx.value_error(tag, format!("no field for JSON name {}", go_quote(name))));
    };
    let key_ty = match &member.ty {
        Ty::Pointer(e) => (**e).clone(),
        other => other.clone(),
    };
    if lw.g.kind(&lw.g.native(&key_ty)) != Kind::Builtin {
        return Err(ctx.value_error(
            tag,
            format!(
                "only primitive types and pointers to primitive types can be list-map keys, not {}",
                lw.g.type_string(&member.ty)
            ),
        ));
    }
    let lm = lw.lists.meta.entry(ctx.path.clone()).or_default();
    lm.keys.push(ListKey {
        name: name.to_string(),
        member,
    });
    Ok(Lowered::default())
}

/// `+k8s:unique`.
pub(crate) const UNIQUE: TagDoc = TagDoc {
    name: "k8s:unique",
    stability: Stability::Stable,
    scopes: VALUE_SCOPES,
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::String,
    payload_required: true,
    payload_description: "set | map",
    description: "Requires the items of a `listType=atomic` list to be unique: as whole values (`set`) or by their `+k8s:listMapKey` fields (`map`).",
    example: "+k8s:unique=set",
    extension: None,
};

/// Lowers `+k8s:unique`.
pub(crate) fn lower_unique<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let elem = require_list(lw, ctx, tag)?;
    let elem_struct = elem_is_struct(lw, &elem);
    let lm = lw.lists.meta.entry(ctx.path.clone()).or_default();
    lm.level = ctx.level;
    if lm.ownership_single == Some(false) {
        return Err(ctx.value_error(
            tag,
            "unique tag may not be used with listType=set or listType=map",
        ));
    }
    if lm.semantic.is_some() && lm.semantic != Some(ListSemantic::Atomic) {
        return Err(ctx.value_error(tag, "unique tag cannot be specified more than once"));
    }
    match payload(tag) {
        "set" => lm.semantic = Some(ListSemantic::Set),
        "map" => {
            if !elem_struct {
                return Err(ctx.value_error(tag, "only lists of structs can be list-maps"));
            }
            lm.semantic = Some(ListSemantic::Map);
        }
        other => {
            return Err(ctx.value_error(tag, format!("unknown unique type {}", go_quote(other))));
        }
    }
    Ok(finalize_later(ctx, tag))
}

/// `+k8s:customUnique`.
pub(crate) const CUSTOM_UNIQUE: TagDoc = TagDoc {
    name: "k8s:customUnique",
    stability: Stability::Stable,
    scopes: VALUE_SCOPES,
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Uniqueness of this set/map list is checked by hand-written code: no uniqueness check is generated (the list metadata must still be valid).",
    example: "+k8s:customUnique",
    extension: None,
};

/// Lowers `+k8s:customUnique`: marks the list metadata.
pub(crate) fn lower_custom_unique<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    require_list(lw, ctx, tag)?;
    lw.lists
        .meta
        .entry(ctx.path.clone())
        .or_default()
        .custom_unique = true;
    Ok(Lowered::default())
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[
    TagDef {
        doc: CUSTOM_UNIQUE,
        lower: lower_custom_unique,
    },
    TagDef {
        doc: LIST_MAP_KEY,
        lower: lower_list_map_key,
    },
    TagDef {
        doc: LIST_TYPE,
        lower: lower_list_type,
    },
    TagDef {
        doc: UNIQUE,
        lower: lower_unique,
    },
];
