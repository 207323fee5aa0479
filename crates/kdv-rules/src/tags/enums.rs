//! Enums (upstream `validators/enum.go`): `+k8s:enum` on a string type and
//! `+k8s:enumExclude` on its constants. Semantics: `kdv_runtime::enums`.

use std::collections::HashSet;

use kdv_model::ConstValue;
use kdv_runtime::ErrorType;
use kdv_tags::{Tag, ValueType};

use super::{is_string, root_type_string};
use crate::ir::{Check, Emission, EnumExclusion, EnumSpec, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer, TagDef};
use crate::tag_doc::{Scope, Stability, TagDoc};

/// `+k8s:enum`.
pub(crate) const ENUM: TagDoc = TagDoc {
    name: "k8s:enum",
    stability: Stability::Stable,
    scopes: &[Scope::Type],
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Declares a string type as an enum: the allowed values are the constants declared with exactly this type (minus those tagged `+k8s:enumExclude`).",
    example: "+k8s:enum",
    extension: None,
};

/// An enum member: constant name, value, and `(exclude_when, option)` rules.
type Member = (String, String, Vec<(bool, String)>);

/// Lowers `+k8s:enum`.
pub(crate) fn lower_enum<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let native = lw.g.native(&ctx.ty);
    if !is_string(&native) {
        return Err(ctx.tag_error(
            tag,
            format!(
                "can only be used on string types ({})",
                root_type_string(&lw.g, &ctx.ty, &native)
            ),
        ));
    }
    // (const name, value, exclusions) in declaration order, first value wins.
    let mut values: Vec<Member> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::with_capacity(ctx.constants.len());
    for &ci in &ctx.constants {
        let c = &lw.g.consts[ci];
        let mut excluded = false;
        let mut exclusions = Vec::new();
        for t in &lw.const_tags[ci] {
            let name = super::options::canonical_name(&t.name);
            match name {
                "k8s:enumExclude" => excluded = true,
                "k8s:ifEnabled" | "k8s:ifDisabled" => {
                    if t.value_tag().is_some_and(|v| v.name == "k8s:enumExclude")
                        && let Some(option) = t.positional()
                    {
                        exclusions
                            .push((name == "k8s:ifEnabled", option.value.as_str().to_string()));
                    }
                }
                _ => {}
            }
        }
        if excluded {
            continue;
        }
        let ConstValue::String(value) = &c.decl.value else {
            continue;
        };
        if !seen.insert(value.as_str()) {
            continue;
        }
        values.push((c.decl.name.clone(), value.clone(), exclusions));
    }
    // Upstream orders exclusion rules by constant name, then ifDisabled before ifEnabled,
    // then option name; the order is observable through undefined-option errors.
    values.sort_by(|a, b| a.0.cmp(&b.0));
    let mut exclusions = Vec::new();
    for (_, value, ex) in &mut values {
        ex.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
        for (when, option) in ex.iter() {
            exclusions.push(EnumExclusion {
                value: value.clone(),
                option: option.clone(),
                exclude_when: *when,
            });
        }
    }
    let mut members: Vec<String> = values.into_iter().map(|(_, v, _)| v).collect();
    members.sort();
    members.dedup();
    Ok(Lowered::function(
        Validation::new(
            ENUM.name,
            Check::Enum(EnumSpec {
                members,
                exclusions,
            }),
        )
        .emits([Emission::at_path(ErrorType::NotSupported, "")]),
    ))
}

/// `+k8s:enumExclude`.
pub(crate) const ENUM_EXCLUDE: TagDoc = TagDoc {
    name: "k8s:enumExclude",
    stability: Stability::Alpha,
    scopes: &[Scope::Const],
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Leaves this constant out of its enum type's allowed values. Under `+k8s:ifEnabled(<option>)=` / `+k8s:ifDisabled(<option>)=` the exclusion depends on the option.",
    example: "+k8s:enumExclude",
    extension: None,
};

/// Lowers `+k8s:enumExclude`: nothing to emit; `k8s:enum` reads the constant's tags.
pub(crate) fn lower_enum_exclude<'u>(
    _lw: &mut Lowerer<'u>,
    _ctx: &Ctx<'u>,
    _tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    Ok(Lowered::default())
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[
    TagDef {
        doc: ENUM,
        lower: lower_enum,
    },
    TagDef {
        doc: ENUM_EXCLUDE,
        lower: lower_enum_exclude,
    },
];
