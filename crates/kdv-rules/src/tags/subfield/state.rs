//! Subfields whose member short-circuits were already copied, in one compilation.

use std::collections::HashSet;

/// Subfield paths whose member short-circuits were already copied (once per path).
#[derive(Default)]
pub(crate) struct SubfieldState {
    pub(crate) short_circuits_done: HashSet<String>,
}
