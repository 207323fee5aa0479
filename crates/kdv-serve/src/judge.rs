//! What the server asks of a rule set: a verdict on one object. `kdv serve` implements it
//! with the rule sources of `kdv validate`; tests implement it to panic or stall.

use kdv_runtime::ErrorList;

use crate::admission::{GroupVersionKind, Operation};

/// One object to judge, as the request carries it.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    /// The object's group, version and kind (the request's `kind`).
    pub kind: &'a GroupVersionKind,
    /// CREATE or UPDATE (the server allows DELETE and CONNECT without asking).
    pub operation: Operation,
    /// The subresource requested (`status`, `scale`), if any.
    pub subresource: Option<&'a str>,
    /// The object, as JSON text.
    pub object: &'a str,
    /// The stored object of an UPDATE, as JSON text.
    pub old_object: Option<&'a str>,
}

/// The verdict of a rule set on one object.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The rule set has no rules for the kind.
    Unknown,
    /// Checked: the errors an API server would return (none: valid), and warnings (errors
    /// of shadowed rules, skipped checks).
    Checked {
        /// The enforced errors.
        errors: ErrorList,
        /// Warnings, as single lines.
        warnings: Vec<String>,
    },
    /// The rule set cannot judge this object (a subresource its kind does not have, an
    /// object that is not JSON): answered per the failure mode.
    Failed(String),
}

/// A rule set the server asks for verdicts. Implementations must be cheap to share between
/// threads: one is asked by every worker at once.
pub trait Judge: Send + Sync {
    /// The verdict on `subject`.
    fn judge(&self, subject: &Subject<'_>) -> Verdict;
}

impl<F> Judge for F
where
    F: Fn(&Subject<'_>) -> Verdict + Send + Sync,
{
    fn judge(&self, subject: &Subject<'_>) -> Verdict {
        self(subject)
    }
}
