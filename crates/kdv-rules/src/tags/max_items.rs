//! `+k8s:maxItems=<int>`.

use kdv_tags::Tag;

use super::int_payload;
use super::limits::{AS_INT, limit_doc, non_negative, require_list};
use crate::ir::{Check, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{Scope, TagDoc};

/// `+k8s:maxItems`.
pub(crate) const DOC: TagDoc = limit_doc(
    "k8s:maxItems",
    &[Scope::Type, Scope::Field, Scope::ListVal, Scope::MapVal],
    "<non-negative integer>: the maximum number of items",
    "Limits a list to the given number of items. Short-circuits: an oversized list is not validated further.",
    "+k8s:maxItems=16",
);

/// Lowers `+k8s:maxItems` (short-circuit).
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    require_list(lw, ctx, tag)?;
    let n = non_negative(ctx, tag, int_payload(ctx, tag, AS_INT)?)?;
    Ok(Lowered::function(
        Validation::new(DOC.name, Check::MaxItems(n)).short_circuit(),
    ))
}
