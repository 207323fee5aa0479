//! `+k8s:forbidden`.

use kdv_tags::Tag;

use super::required::{doc, presence};
use crate::ir::{Check, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{Stability, TagDoc};

/// `+k8s:forbidden`.
pub(crate) const DOC: TagDoc = doc(
    "k8s:forbidden",
    Stability::Beta,
    "The field must not be set. Nothing else about the field is validated.",
    "+k8s:forbidden",
);

/// Lowers `+k8s:forbidden`: a short-circuit Forbidden check and an Optional companion that
/// stops everything else when the field is unset.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let p = presence(lw, ctx, tag, DOC.name)?;
    Ok(Lowered {
        functions: vec![
            Validation::new(DOC.name, Check::Forbidden(p)).short_circuit(),
            Validation::new(DOC.name, Check::Optional(p))
                .short_circuit()
                .non_error(),
        ],
        ..Lowered::default()
    })
}
