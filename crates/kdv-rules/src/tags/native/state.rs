//! Elements tagged `+k8s:declarativeValidationNative` in one compilation.

use std::collections::HashSet;

/// Elements tagged `+k8s:declarativeValidationNative` in one compilation, by parent
/// generator path and name: a struct field by its Go name, a list item (under
/// `+k8s:item`) by its item segment, as the union family names its members.
#[derive(Default)]
pub(crate) struct NativeState {
    pub(crate) members: HashSet<(String, String)>,
}

impl NativeState {
    /// Whether the member `name` of the struct or list at `parent` is declarative-native.
    pub(crate) fn is_native(&self, parent: &str, name: &str) -> bool {
        // A lookup by borrowed parts would need a second key type; the sets are small and
        // this runs once per union member at compile time.
        self.members
            .contains(&(parent.to_string(), name.to_string()))
    }
}
