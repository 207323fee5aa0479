//! What lowering remembers between the list tags of one compilation.

use std::collections::{HashMap, HashSet};

use crate::gotypes::Member;
use crate::ir::Level;

/// List semantics recorded by `listType`/`unique`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListSemantic {
    Atomic,
    Set,
    Map,
}

/// One list-map key member.
#[derive(Debug, Clone)]
pub(crate) struct ListKey<'u> {
    pub name: String,
    pub member: Member<'u>,
}

/// Metadata of one list (field or type), keyed by generator path.
#[derive(Debug, Clone, Default)]
pub(crate) struct ListMeta<'u> {
    /// `Some(true)` = single (atomic), `Some(false)` = shared (set/map).
    pub ownership_single: Option<bool>,
    pub semantic: Option<ListSemantic>,
    pub keys: Vec<ListKey<'u>>,
    pub custom_unique: bool,
    pub level: Option<Level>,
}

/// List metadata of one compilation, by generator path (a field's path, or a list type's
/// name), and the lists whose uniqueness check was emitted.
#[derive(Default)]
pub(crate) struct ListState<'u> {
    pub meta: HashMap<String, ListMeta<'u>>,
    pub(crate) generated: HashSet<String>,
}
