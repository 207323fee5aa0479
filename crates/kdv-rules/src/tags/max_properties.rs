//! `+k8s:maxProperties=<int>`.

use kdv_tags::Tag;

use super::limits::{limit_doc, properties_bound};
use crate::ir::{Check, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{Scope, TagDoc};

/// `+k8s:maxProperties`.
pub(crate) const DOC: TagDoc = limit_doc(
    "k8s:maxProperties",
    &[Scope::Type, Scope::Field],
    "<integer in [0, 100000]>: the maximum number of entries",
    "Limits a string-keyed map to the given number of entries. Short-circuits: an oversized map is not validated further.",
    "+k8s:maxProperties=64",
);

/// Lowers `+k8s:maxProperties` (short-circuit).
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let n = properties_bound(lw, ctx, tag)?;
    Ok(Lowered::function(
        Validation::new(DOC.name, Check::MaxProperties(n)).short_circuit(),
    ))
}
