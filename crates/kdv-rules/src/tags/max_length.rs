//! `+k8s:maxLength=<int>`.

use kdv_tags::Tag;

use super::int_payload;
use super::limits::{AS_INT, limit_doc, non_negative, require_string};
use crate::ir::{Check, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{TagDoc, VALUE_SCOPES};

/// `+k8s:maxLength`.
pub(crate) const DOC: TagDoc = limit_doc(
    "k8s:maxLength",
    VALUE_SCOPES,
    "<non-negative integer>: the maximum number of characters",
    "Limits a string to the given number of characters (Unicode code points).",
    "+k8s:maxLength=63",
);

/// Lowers `+k8s:maxLength`.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    require_string(lw, ctx, tag)?;
    let n = non_negative(ctx, tag, int_payload(ctx, tag, AS_INT)?)?;
    Ok(Lowered::function(Validation::new(
        DOC.name,
        Check::MaxLength(n),
    )))
}
