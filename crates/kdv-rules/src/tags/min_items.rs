//! `+k8s:minItems=<int>`.

use kdv_tags::Tag;

use super::int_payload;
use super::limits::{AS_INT, limit_doc, non_negative, require_list};
use crate::ir::{Check, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{Scope, TagDoc};

/// `+k8s:minItems`.
pub(crate) const DOC: TagDoc = limit_doc(
    "k8s:minItems",
    &[Scope::Type, Scope::Field, Scope::ListVal, Scope::MapVal],
    "<non-negative integer>: the minimum number of items",
    "Requires a list to have at least the given number of items; a missing list has none.",
    "+k8s:minItems=1",
);

/// Lowers `+k8s:minItems`.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    require_list(lw, ctx, tag)?;
    let n = non_negative(ctx, tag, int_payload(ctx, tag, AS_INT)?)?;
    Ok(Lowered::function(Validation::new(
        DOC.name,
        Check::MinItems(n),
    )))
}
