//! One module per tag family, grouped as upstream's `validators/*.go`: each holds the
//! documentation (`TagDoc`), the lowering and the lowering state of its tags, and lists them
//! in its `TAGS`, which [`crate::registry`] collects. What a check means at run time is the
//! matching `kdv_runtime` module's.

pub mod cel_rules;
pub(crate) mod crossfield;
pub(crate) mod custom_validation;
pub(crate) mod defaults;
pub(crate) mod dependencies;
pub(crate) mod each;
pub(crate) mod enums;
pub(crate) mod equality;
pub(crate) mod format;
pub(crate) mod immutable;
pub(crate) mod item;
pub(crate) mod item_update;
pub(crate) mod levels;
pub(crate) mod limits;
pub(crate) mod lists;
pub(crate) mod modes;
pub(crate) mod native;
pub(crate) mod opaque;
pub(crate) mod options;
pub(crate) mod pattern;
pub(crate) mod required;
pub(crate) mod subfield;
pub(crate) mod subresources;
pub(crate) mod testing;
pub(crate) mod unions;
pub(crate) mod update;
pub(crate) mod virtual_fields;

use kdv_model::Builtin;
use kdv_tags::Tag;

use crate::gotypes::{Graph, Ty};
use crate::lower::{Ctx, LowerError};

/// `rootTypeString`: `src`, or `src -> dst` when they differ.
pub(crate) fn root_type_string(g: &Graph<'_>, src: &Ty, dst: &Ty) -> String {
    if src == dst {
        g.type_string(src)
    } else {
        format!("{} -> {}", g.type_string(src), g.type_string(dst))
    }
}

/// Whether `t` is the builtin `string`.
pub(crate) fn is_string(t: &Ty) -> bool {
    matches!(t, Ty::Builtin(Builtin::String))
}

/// The scalar payload of a tag (empty when absent).
pub(crate) fn payload(tag: &Tag) -> &str {
    tag.value.as_str().unwrap_or("")
}

/// The payload parsed with the strict decimal `ParseInt`, with `what` as the error prefix.
pub(crate) fn int_payload(ctx: &Ctx<'_>, tag: &Tag, what: &str) -> Result<i64, LowerError> {
    kdv_tags::scalar::parse_int(payload(tag))
        .map_err(|e| ctx.value_error(tag, format!("{what}: {e}")))
}
