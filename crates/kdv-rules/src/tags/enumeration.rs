//! `+k8s:enum`.

use kdv_model::ConstValue;
use kdv_tags::{Tag, ValueType};

use super::{is_string, root_type_string};
use crate::ir::{Check, EnumExclusion, EnumSpec, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{Scope, Stability, TagDoc};

/// `+k8s:enum`.
pub(crate) const DOC: TagDoc = TagDoc {
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
};

/// An enum member: constant name, value, and `(exclude_when, option)` rules.
type Member = (String, String, Vec<(bool, String)>);

/// Lowers `+k8s:enum`.
pub(crate) fn lower<'u>(
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
    for &ci in &ctx.constants {
        let c = &lw.g.consts[ci];
        let mut excluded = false;
        let mut exclusions = Vec::new();
        for t in &lw.const_tags[ci] {
            match t.name.as_str() {
                "k8s:enumExclude" => excluded = true,
                "k8s:ifEnabled" | "k8s:ifDisabled" => {
                    if t.value_tag().is_some_and(|v| v.name == "k8s:enumExclude")
                        && let Some(option) = t.positional()
                    {
                        exclusions
                            .push((t.name == "k8s:ifEnabled", option.value.as_str().to_string()));
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
        if values.iter().any(|(_, v, _)| v == value) {
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
    Ok(Lowered::function(Validation::new(
        DOC.name,
        Check::Enum(EnumSpec {
            members,
            exclusions,
        }),
    )))
}
