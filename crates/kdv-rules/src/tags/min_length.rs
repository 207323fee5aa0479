//! `+k8s:minLength=<int>`.

use kdv_tags::Tag;

use super::int_payload;
use super::limits::{AS_INT, limit_doc, require_string};
use crate::ir::{Check, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer};
use crate::registry::{TagDoc, VALUE_SCOPES};

/// `+k8s:minLength`.
pub(crate) const DOC: TagDoc = limit_doc(
    "k8s:minLength",
    VALUE_SCOPES,
    "<non-negative integer>: the minimum number of characters",
    "Requires a string to have at least the given number of characters (Unicode code points). A bound of 0 emits nothing.",
    "+k8s:minLength=1",
);

/// Lowers `+k8s:minLength` (a bound ≤ 0 emits nothing).
pub(crate) fn lower<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    require_string(lw, ctx, tag)?;
    let n = int_payload(ctx, tag, AS_INT)?;
    if n <= 0 {
        return Ok(Lowered::default());
    }
    Ok(Lowered::function(Validation::new(
        DOC.name,
        Check::MinLength(n),
    )))
}
