//! One module per tag (or per family of closely related tags): documentation and lowering.

pub(crate) mod custom_unique;
pub(crate) mod custom_validation;
pub(crate) mod dependencies;
pub(crate) mod dependent_forbidden;
pub(crate) mod dependent_required;
pub(crate) mod each_key;
pub(crate) mod each_val;
pub(crate) mod enum_exclude;
pub(crate) mod enumeration;
pub(crate) mod forbidden;
pub(crate) mod format;
pub(crate) mod if_mode;
pub(crate) mod immutable;
pub(crate) mod item;
pub(crate) mod levels;
pub(crate) mod limits;
pub(crate) mod list_map_key;
pub(crate) mod list_type;
pub(crate) mod max_bytes;
pub(crate) mod max_items;
pub(crate) mod max_length;
pub(crate) mod max_properties;
pub(crate) mod maximum;
pub(crate) mod min_items;
pub(crate) mod min_length;
pub(crate) mod min_properties;
pub(crate) mod minimum;
pub(crate) mod mode_discriminator;
pub(crate) mod modes;
pub(crate) mod monotonic;
pub(crate) mod neq;
pub(crate) mod opaque;
pub(crate) mod optional;
pub(crate) mod options;
pub(crate) mod required;
pub(crate) mod subfield;
pub(crate) mod testing;
pub(crate) mod union_discriminator;
pub(crate) mod union_member;
pub(crate) mod unions;
pub(crate) mod unique;
pub(crate) mod update;
pub(crate) mod zero_or_one_of_member;

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
