//! Types and members tagged `+k8s:opaqueType` in one compilation.

use std::collections::HashSet;

use crate::gotypes::Ty;

/// Types and members tagged `+k8s:opaqueType` in one compilation.
#[derive(Default)]
pub(crate) struct OpaqueState {
    /// Types (as `NonPointer(NativeType)`).
    pub types: HashSet<Ty>,
    /// Members, by [`Lowerer::member_key`].
    pub members: HashSet<String>,
}
