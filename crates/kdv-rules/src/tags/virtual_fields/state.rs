//! What lowering remembers of a `+k8s:memberOf` until its group's tag claims it.

use crate::lower::parts::LowerError;

/// A `+k8s:memberOf` waiting for its group's tag.
#[derive(Debug, Clone)]
pub(crate) struct MemberSite {
    /// The members' parent (struct type or list field path).
    pub parent: String,
    /// The group.
    pub group: String,
    /// The error to report if no group tag claims the member.
    pub error: LowerError,
}
