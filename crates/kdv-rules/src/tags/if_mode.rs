//! `+k8s:ifMode(<mode>)=+<tag>`: validations of a field that apply in one mode of the
//! struct's `+k8s:modeDiscriminator`; in modes without a rule the field is forbidden
//! (spec §3.25, §6.5).

use kdv_tags::{Tag, ValueType};

use super::modes::record_rule;
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{ArgDoc, Scope, Stability, TagDoc};

/// `+k8s:ifMode`.
pub(crate) const DOC: TagDoc = TagDoc {
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
            name: "modality",
            ty: ValueType::String,
            required: false,
            description: "the discriminator group",
        },
        ArgDoc {
            name: "mode",
            ty: ValueType::String,
            required: false,
            description: "the discriminator value",
        },
    ],
    accepts_unknown_args: false,
    payload: ValueType::Tag,
    payload_required: true,
    payload_description: "<tag>: the validation that applies in this mode",
    description: "Applies the chained tag when the struct's mode discriminator has the given value; in modes without an `ifMode` rule the field must not be set. On update the rules are skipped when the discriminator and the field are unchanged.",
    example: "+k8s:ifMode(\"A\")=+k8s:required",
};

/// Lowers `+k8s:ifMode`.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    record_rule(lw, ctx, tag)
}
