//! `+k8s:minimum=<int>`.

use kdv_tags::Tag;

use super::limits::{int_bound, limit_doc};
use crate::ir::{Check, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{TagDoc, VALUE_SCOPES};

/// `+k8s:minimum`.
pub(crate) const DOC: TagDoc = limit_doc(
    "k8s:minimum",
    VALUE_SCOPES,
    "<integer>: the smallest allowed value",
    "Requires an integer value to be at least the given bound. Absent (nil) values are not checked; zero values of non-pointer fields are.",
    "+k8s:minimum=0",
);

/// Lowers `+k8s:minimum`.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let bound = int_bound(lw, ctx, tag)?;
    Ok(Lowered::function(Validation::new(
        DOC.name,
        Check::Minimum(bound),
    )))
}
