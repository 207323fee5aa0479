//! Subresource conditions (`+k8s:ifSubresource("/status")=<tag>`,
//! `+k8s:ifNotSubresource("/resize")=<tag>`: kdv extensions from KEP-5073's "Status-Type
//! Subresources"; upstream validation-gen has no such tags).
//!
//! The same rules validate the whole object for the main resource and for its
//! subresources (the strategy wipes what a subresource may not write, ratcheting skips
//! what did not change); these conditions let one rule apply only to requests for one
//! subresource, or to every request but those.

use crate::operation::Operation;

/// Whether the wrapped validation runs: the request addresses `subresource` (a path as
/// `+k8s:supportsSubresource` writes it: `/status`, `/` for the main resource) and
/// `when_addressed` is true, or it does not and `when_addressed` is false.
#[inline]
pub fn if_subresource(op: &Operation, subresource: &str, when_addressed: bool) -> bool {
    op.subresource_is(subresource) == when_addressed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions() {
        let main = Operation::update();
        let status = Operation::update().with_subresources(["status"]);
        let resize = Operation::update().with_subresources(["resize"]);
        assert!(if_subresource(&status, "/status", true));
        assert!(!if_subresource(&main, "/status", true));
        assert!(!if_subresource(&resize, "/status", true));
        assert!(if_subresource(&main, "/resize", false));
        assert!(if_subresource(&status, "/resize", false));
        assert!(!if_subresource(&resize, "/resize", false));
        assert!(if_subresource(&main, "/", true));
        assert!(!if_subresource(&status, "/", true));
    }
}
