//! Tags that are registered (so they are recognised, documented and scope/type checked) but
//! not lowered yet: using one produces a warning and no validation.

use kdv_model::Severity;
use kdv_tags::{Tag, ValueType};

use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{ArgDoc, Scope, Stability, TagDoc, VALUE_SCOPES};

const UNION_ARGS: &[ArgDoc] = &[
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

const DEPENDENT_ARGS: &[ArgDoc] = &[ArgDoc {
    name: "",
    ty: ValueType::String,
    required: true,
    description: "<json name>: the sibling field",
}];

/// `+k8s:customValidation`.
pub(crate) const CUSTOM_VALIDATION: TagDoc = TagDoc {
    name: "k8s:customValidation",
    stability: Stability::Stable,
    scopes: &[Scope::Type, Scope::Field],
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Calls a hand-written validation function found by naming convention (`ValidateCustom_<Type>` or `ValidateCustom_<Struct>_<Field>`).",
    example: "+k8s:customValidation",
};

/// `+k8s:dependentForbidden`.
pub(crate) const DEPENDENT_FORBIDDEN: TagDoc = TagDoc {
    name: "k8s:dependentForbidden",
    stability: Stability::Alpha,
    scopes: &[Scope::Field],
    args: DEPENDENT_ARGS,
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "When this field is set, the named sibling field must not be set.",
    example: "+k8s:dependentForbidden(\"other\")",
};

/// `+k8s:dependentRequired`.
pub(crate) const DEPENDENT_REQUIRED: TagDoc = TagDoc {
    name: "k8s:dependentRequired",
    stability: Stability::Alpha,
    scopes: &[Scope::Field],
    args: DEPENDENT_ARGS,
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "When this field is set, the named sibling field must be set too.",
    example: "+k8s:dependentRequired(\"other\")",
};

/// `+k8s:ifMode`.
pub(crate) const IF_MODE: TagDoc = TagDoc {
    name: "k8s:ifMode",
    stability: Stability::Stable,
    scopes: &[Scope::Field],
    args: &[
        ArgDoc {
            name: "",
            ty: ValueType::String,
            required: false,
            description: "<mode>: the discriminator value",
        },
        ArgDoc {
            name: "mode",
            ty: ValueType::String,
            required: false,
            description: "the discriminator value",
        },
        ArgDoc {
            name: "modality",
            ty: ValueType::String,
            required: false,
            description: "the discriminator group",
        },
    ],
    accepts_unknown_args: false,
    payload: ValueType::Tag,
    payload_required: true,
    payload_description: "<tag>: the validation that applies in this mode",
    description: "Applies the chained tag when the struct's mode discriminator has the given value; in other modes the field is forbidden.",
    example: "+k8s:ifMode(\"A\")=+k8s:required",
};

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
    description: "Applies the chained tag to the list-map item whose key fields equal the given arguments.",
    example: "+k8s:item(name: \"primary\")=+k8s:required",
};

/// `+k8s:modeDiscriminator`.
pub(crate) const MODE_DISCRIMINATOR: TagDoc = TagDoc {
    name: "k8s:modeDiscriminator",
    stability: Stability::Stable,
    scopes: &[Scope::Field],
    args: &[ArgDoc {
        name: "modality",
        ty: ValueType::String,
        required: false,
        description: "the discriminator group",
    }],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Declares the string or bool field selecting the struct's mode for `+k8s:ifMode` rules.",
    example: "+k8s:modeDiscriminator",
};

/// `+k8s:unionDiscriminator`.
pub(crate) const UNION_DISCRIMINATOR: TagDoc = TagDoc {
    name: "k8s:unionDiscriminator",
    stability: Stability::Beta,
    scopes: &[Scope::Field, Scope::ListVal],
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
    description: "Declares the string field naming which member of a union is set.",
    example: "+k8s:unionDiscriminator",
};

/// `+k8s:unionMember`.
pub(crate) const UNION_MEMBER: TagDoc = TagDoc {
    name: "k8s:unionMember",
    stability: Stability::Stable,
    scopes: &[Scope::Field, Scope::ListVal],
    args: UNION_ARGS,
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Declares a member of a union: exactly one member must be set.",
    example: "+k8s:unionMember",
};

/// `+k8s:zeroOrOneOfMember`.
pub(crate) const ZERO_OR_ONE_OF_MEMBER: TagDoc = TagDoc {
    name: "k8s:zeroOrOneOfMember",
    stability: Stability::Stable,
    scopes: &[Scope::Field, Scope::ListVal],
    args: UNION_ARGS,
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Declares a member of a zero-or-one-of group: at most one member may be set.",
    example: "+k8s:zeroOrOneOfMember",
};

/// Reports that the tag is not implemented yet; it contributes nothing.
pub(crate) fn lower<'u>(
    _lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let mut e = ctx.tag_error(tag, "not supported by kdv yet; ignored");
    e.severity = Severity::Warning;
    Err(e)
}
