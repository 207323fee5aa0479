//! `+k8s:minProperties=<int>`.

use kdv_tags::Tag;

use super::limits::{limit_doc, properties_bound};
use crate::ir::{Check, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{Scope, TagDoc};

/// `+k8s:minProperties`.
pub(crate) const DOC: TagDoc = limit_doc(
    "k8s:minProperties",
    &[Scope::Type, Scope::Field],
    "<integer in [0, 100000]>: the minimum number of entries",
    "Requires a string-keyed map to have at least the given number of entries; a missing map has none.",
    "+k8s:minProperties=1",
);

/// Lowers `+k8s:minProperties`.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let n = properties_bound(lw, ctx, tag)?;
    Ok(Lowered::function(Validation::new(
        DOC.name,
        Check::MinProperties(n),
    )))
}
