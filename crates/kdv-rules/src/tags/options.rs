//! Options (upstream `validators/options.go`): `+k8s:ifEnabled(<option>)=+<tag>` and
//! `+k8s:ifDisabled(<option>)=+<tag>`, and the seeds' older spellings
//! `+k8s:ifOptionEnabled` / `+k8s:ifOptionDisabled` (KEP-5073's catalog), accepted as
//! aliases (kdv extensions; the lint suggests the current names). Semantics:
//! `kdv_runtime::options`.

use kdv_tags::{Tag, ValueType};

use crate::ir::Check;
use crate::lower::{Ctx, LowerError, Lowered, Lowerer, TagDef, lower_conditional};
use crate::tag_doc::{ArgDoc, Scope, Stability, TagDoc};

const SCOPES: &[Scope] = &[
    Scope::Type,
    Scope::Field,
    Scope::ListVal,
    Scope::MapKey,
    Scope::MapVal,
    Scope::Const,
];

const ARGS: &[ArgDoc] = &[ArgDoc {
    name: "",
    ty: ValueType::String,
    required: true,
    description: "<option>: the name of a validation option (feature gate)",
}];

/// `+k8s:ifEnabled`.
pub(crate) const IF_ENABLED: TagDoc = TagDoc {
    name: "k8s:ifEnabled",
    stability: Stability::Stable,
    scopes: SCOPES,
    args: ARGS,
    accepts_unknown_args: false,
    payload: ValueType::Tag,
    payload_required: true,
    payload_description: "<tag>: the validation to apply when the option is enabled",
    description: "Applies the chained tag only when the named validation option is enabled. An option the operation does not define is an internal error.",
    example: "+k8s:ifEnabled(MyFeature)=+k8s:required",
    extension: None,
};

/// `+k8s:ifDisabled`.
pub(crate) const IF_DISABLED: TagDoc = TagDoc {
    name: "k8s:ifDisabled",
    stability: Stability::Stable,
    scopes: SCOPES,
    args: ARGS,
    accepts_unknown_args: false,
    payload: ValueType::Tag,
    payload_required: true,
    payload_description: "<tag>: the validation to apply when the option is disabled",
    description: "Applies the chained tag only when the named validation option is disabled. An option the operation does not define is an internal error.",
    example: "+k8s:ifDisabled(MyFeature)=+k8s:forbidden",
    extension: None,
};

/// The seed section that spells the options tags `ifOptionEnabled`/`ifOptionDisabled`.
const ALIAS_SEED: &str = "KEP-5073 \"Catalog of Supported Validation Rules & Associated IDL Tags\" (Conditional (feature gate))";

/// `+k8s:ifOptionEnabled`: the seed's spelling of `+k8s:ifEnabled`.
pub(crate) const IF_OPTION_ENABLED: TagDoc = TagDoc {
    name: "k8s:ifOptionEnabled",
    description: "The design documents' older spelling of `+k8s:ifEnabled`, accepted as an alias with the same meaning; lint suggests `+k8s:ifEnabled`. A kdv extension: upstream validation-gen does not know this name.",
    example: "+k8s:ifOptionEnabled(MyFeature)=+k8s:required",
    extension: Some(ALIAS_SEED),
    ..IF_ENABLED
};

/// `+k8s:ifOptionDisabled`: the seed's spelling of `+k8s:ifDisabled`.
pub(crate) const IF_OPTION_DISABLED: TagDoc = TagDoc {
    name: "k8s:ifOptionDisabled",
    description: "The design documents' older spelling of `+k8s:ifDisabled`, accepted as an alias with the same meaning; lint suggests `+k8s:ifDisabled`. A kdv extension: upstream validation-gen does not know this name.",
    example: "+k8s:ifOptionDisabled(MyFeature)=+k8s:forbidden",
    extension: Some(ALIAS_SEED),
    ..IF_DISABLED
};

/// Older spellings and the current names they stand for.
pub(crate) const ALIASES: &[(&str, &str)] = &[
    (IF_OPTION_ENABLED.name, IF_ENABLED.name),
    (IF_OPTION_DISABLED.name, IF_DISABLED.name),
];

/// The current name of a tag: `name` itself, or the name an older spelling stands for
/// (`k8s:ifOptionEnabled` → `k8s:ifEnabled`).
pub fn canonical_name(name: &str) -> &str {
    current_name_of(name).unwrap_or(name)
}

/// The current name an older spelling stands for, if `name` is one.
pub fn current_name_of(name: &str) -> Option<&'static str> {
    ALIASES
        .iter()
        .find(|(old, _)| *old == name)
        .map(|(_, new)| *new)
}

fn lower_if<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
    enabled: bool,
) -> Result<Lowered<'u>, LowerError> {
    let Some(option) = tag.positional() else {
        return Err(ctx.tag_error(tag, "missing required option name positional argument"));
    };
    let option = option.value.as_str().to_string();
    let name = if enabled {
        IF_ENABLED.name
    } else {
        IF_DISABLED.name
    };
    lower_conditional(lw, ctx, tag, name, move |inner| Check::IfOption {
        option: option.clone(),
        enabled,
        inner,
    })
}

/// Lowers `+k8s:ifEnabled`.
pub(crate) fn lower_if_enabled<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    lower_if(lw, ctx, tag, true)
}

/// Lowers `+k8s:ifDisabled`.
pub(crate) fn lower_if_disabled<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    lower_if(lw, ctx, tag, false)
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[
    TagDef {
        doc: IF_DISABLED,
        lower: lower_if_disabled,
    },
    TagDef {
        doc: IF_ENABLED,
        lower: lower_if_enabled,
    },
    TagDef {
        doc: IF_OPTION_DISABLED,
        lower: lower_if_disabled,
    },
    TagDef {
        doc: IF_OPTION_ENABLED,
        lower: lower_if_enabled,
    },
];
