//! Mode rules under construction in one compilation.

use std::collections::{BTreeMap, HashMap};

use crate::gotypes::Member;
use crate::ir::{Level, Validation};

/// One discriminator group of a struct.
#[derive(Debug, Clone, Default)]
pub(crate) struct ModeGroup<'u> {
    /// The discriminator field.
    pub discriminator: Option<Member<'u>>,
    /// Member fields with rules, by Go name.
    pub members: BTreeMap<String, MemberRules<'u>>,
}

/// The `ifMode` rules of one member field.
#[derive(Debug, Clone)]
pub(crate) struct MemberRules<'u> {
    /// The field.
    pub member: Member<'u>,
    /// Rules in tag order.
    pub rules: Vec<RuleState>,
}

/// One `ifMode` tag.
#[derive(Debug, Clone)]
pub(crate) struct RuleState {
    /// The mode value as written.
    pub value: String,
    /// The payload's functions.
    pub functions: Vec<Validation>,
    /// Stability context of the tag.
    pub level: Option<Level>,
}

/// Mode rules under construction in one compilation: by struct path, then discriminator
/// group.
#[derive(Default)]
pub(crate) struct ModeState<'u> {
    pub(crate) groups: HashMap<String, BTreeMap<String, ModeGroup<'u>>>,
}
