//! The `+k8s:` comment-tag language of Kubernetes declarative validation (spec §1.2–1.3, 1.6),
//! as gengo's `codetags` reads it. It knows nothing of Go, schemas or what a tag means: the
//! frontends hand it comment lines, the registry (`kdv-rules`) gives tags their meaning.
//!
//! * [`extract`] finds the `+name…` lines of a comment block;
//! * [`parse_tag`] / [`parse_tag_raw`] parse one line into a [`Tag`] (name, arguments, typed
//!   value or chained tag), with upstream's exact error messages and byte [`Span`]s for
//!   carets;
//! * [`scalar`] holds the strict payload parsers (`parse_int`, `parse_bool`, …) the registry
//!   applies to tag values;
//! * [`go_quote`] / [`go_quote_rune`] render Go's `%q`, which upstream messages embed.
//!
//! Nothing here panics on input (the `tag_parser` fuzz target holds it), and chains are
//! capped at [`MAX_CHAIN_DEPTH`] tags.

mod chars;
mod extract;
mod gostrconv;
mod parser;
pub mod scalar;
mod types;

pub use extract::{ExtractedLine, extract, tag_name};
/// Go `%q` of a string and of a rune (re-exported from kdv-gofmt for the tag crates).
pub use kdv_gofmt::{quote as go_quote, quote_rune as go_quote_rune};
pub use parser::{MAX_CHAIN_DEPTH, parse_tag, parse_tag_raw};
pub use types::{Arg, ArgValue, Span, Tag, TagError, TagValue, ValueType};

#[cfg(test)]
mod tests;
