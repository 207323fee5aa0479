//! Unions under construction in one compilation, per family.

use std::collections::{BTreeMap, HashMap};

use crate::gotypes::Member;
use crate::ir::{SelectorTerm, UnionMember};
use crate::tags::virtual_fields::state::MemberSite;

/// The two union families; each keeps its own state, as upstream does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    /// `+k8s:unionMember` (+ `unionDiscriminator`): `Union` / `DiscriminatedUnion`.
    Union,
    /// `+k8s:zeroOrOneOfMember`: `ZeroOrOneOfUnion`.
    ZeroOrOneOf,
    /// `+k8s:memberOf` (kdv extension): members of a virtual group, which a group tag
    /// (`tags::virtual_fields`) turns into a union of one of the two families above.
    Group,
}

impl Family {
    pub(crate) fn tag_name(self) -> &'static str {
        match self {
            Family::Union => "k8s:unionMember",
            Family::ZeroOrOneOf => "k8s:zeroOrOneOfMember",
            Family::Group => "k8s:memberOf",
        }
    }
}

/// One union under construction.
#[derive(Debug, Clone, Default)]
pub(crate) struct UnionBuild<'u> {
    /// Members in tag order.
    pub members: Vec<UnionMember>,
    /// Struct-field members, in tag order.
    pub field_members: Vec<Member<'u>>,
    /// JSON name and member of the discriminator.
    pub discriminator: Option<(String, Member<'u>)>,
    /// List-item members by selector segment (sorted, as upstream orders their extractors).
    pub item_members: BTreeMap<String, Vec<SelectorTerm>>,
}

/// Unions under construction in one compilation: by parent path, then union name; each
/// family keeps its own tables, as upstream does.
#[derive(Default)]
pub(crate) struct UnionState<'u> {
    pub(crate) unions: HashMap<String, BTreeMap<String, UnionBuild<'u>>>,
    pub(crate) zero_or_one_ofs: HashMap<String, BTreeMap<String, UnionBuild<'u>>>,
    /// Virtual groups by parent path, then group name (`+k8s:memberOf`).
    pub(crate) groups: HashMap<String, BTreeMap<String, UnionBuild<'u>>>,
    /// Where each `+k8s:memberOf` is written, for the members no group tag claims.
    pub(crate) group_members: Vec<MemberSite>,
    /// Where each group is declared: (group, parent path).
    pub(crate) group_decls: Vec<(String, String)>,
}
