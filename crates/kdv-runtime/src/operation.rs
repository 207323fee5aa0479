//! The operation context of a validation request (Go's `operation.Operation`).

use std::collections::BTreeMap;

/// Whether an object is being created or updated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OperationKind {
    /// A create: there is no old object.
    #[default]
    Create,
    /// An update: there is an old object, and ratcheting applies.
    Update,
}

/// The operation being validated: its kind, the validation options in effect and the
/// subresource path of the request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Operation {
    /// Create or update.
    pub kind: OperationKind,
    /// Option name → enabled. An option a rule refers to must be defined here.
    pub options: BTreeMap<String, bool>,
    /// Subresource path components (`["status"]`); empty for the main resource.
    pub subresources: Vec<String>,
}

impl Operation {
    /// A create operation with no options.
    pub fn create() -> Operation {
        Operation {
            kind: OperationKind::Create,
            ..Operation::default()
        }
    }

    /// An update operation with no options.
    pub fn update() -> Operation {
        Operation {
            kind: OperationKind::Update,
            ..Operation::default()
        }
    }

    /// Returns the operation with option `name` defined as `enabled`.
    pub fn with_option(mut self, name: &str, enabled: bool) -> Operation {
        self.options.insert(name.to_owned(), enabled);
        self
    }

    /// Returns the operation with the given subresource path components.
    pub fn with_subresources<S: Into<String>>(
        mut self,
        parts: impl IntoIterator<Item = S>,
    ) -> Operation {
        self.subresources = parts.into_iter().map(Into::into).collect();
        self
    }

    /// Whether `path` (a root's `+k8s:isSubresource` path, e.g. `/status`, or `/`) is the
    /// subresource this operation addresses.
    pub fn subresource_is(&self, path: &str) -> bool {
        if self.subresources.is_empty() {
            return path == "/";
        }
        let Some(rest) = path.strip_prefix('/') else {
            return false;
        };
        let mut parts = rest.split('/');
        for s in &self.subresources {
            if parts.next() != Some(s.as_str()) {
                return false;
            }
        }
        parts.next().is_none()
    }

    /// Whether this is an update.
    #[inline]
    pub fn is_update(&self) -> bool {
        self.kind == OperationKind::Update
    }

    /// Whether this is a create.
    #[inline]
    pub fn is_create(&self) -> bool {
        self.kind == OperationKind::Create
    }

    /// The option's state: `Some(enabled)` when defined, `None` when undefined.
    #[inline]
    pub fn has_option(&self, name: &str) -> Option<bool> {
        self.options.get(name).copied()
    }

    /// `/` for the main resource, else `/` + the components joined by `/` (`/status`, `/x/y`).
    pub fn subresource_path(&self) -> String {
        if self.subresources.is_empty() {
            return "/".to_owned();
        }
        let mut path = String::new();
        for part in &self.subresources {
            path.push('/');
            path.push_str(part);
        }
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_and_subresources() {
        let op = Operation::update()
            .with_option("A", true)
            .with_option("B", false);
        assert!(op.is_update() && !op.is_create());
        assert_eq!(op.has_option("A"), Some(true));
        assert_eq!(op.has_option("B"), Some(false));
        assert_eq!(op.has_option("C"), None);
        assert_eq!(op.subresource_path(), "/");
        assert_eq!(
            Operation::create()
                .with_subresources(["status"])
                .subresource_path(),
            "/status"
        );
        assert_eq!(
            Operation::create()
                .with_subresources(["x", "y", "z"])
                .subresource_path(),
            "/x/y/z"
        );
        assert!(Operation::create().is_create());
        assert_eq!(Operation::default().kind, OperationKind::Create);
    }
}
