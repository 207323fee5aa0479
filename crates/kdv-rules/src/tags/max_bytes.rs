//! `+k8s:maxBytes=<int>`.

use kdv_tags::Tag;

use super::int_payload;
use super::limits::{AS_INT, limit_doc, non_negative, require_string};
use crate::ir::{Check, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{TagDoc, VALUE_SCOPES};

/// `+k8s:maxBytes`.
pub(crate) const DOC: TagDoc = limit_doc(
    "k8s:maxBytes",
    VALUE_SCOPES,
    "<non-negative integer>: the maximum number of bytes",
    "Limits a string to the given number of bytes of its UTF-8 encoding.",
    "+k8s:maxBytes=256",
);

/// Lowers `+k8s:maxBytes`.
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    require_string(lw, ctx, tag)?;
    let n = non_negative(ctx, tag, int_payload(ctx, tag, AS_INT)?)?;
    Ok(Lowered::function(Validation::new(
        DOC.name,
        Check::MaxBytes(n),
    )))
}
