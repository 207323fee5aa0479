//! `+k8s:maximum=<int>`.

use kdv_tags::Tag;

use super::limits::{int_bound, limit_doc};
use crate::ir::{Check, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{TagDoc, VALUE_SCOPES};

/// `+k8s:maximum`.
pub(crate) const DOC: TagDoc = limit_doc(
    "k8s:maximum",
    VALUE_SCOPES,
    "<integer>: the largest allowed value",
    "Requires an integer value to be at most the given bound. Absent (nil) values are not checked.",
    "+k8s:maximum=100",
);

/// Lowers `+k8s:maximum`.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let bound = int_bound(lw, ctx, tag)?;
    Ok(Lowered::function(Validation::new(
        DOC.name,
        Check::Maximum(bound),
    )))
}
