//! Where checks report their failures.
//!
//! Every check of this crate is written once, against [`ErrorSink`]. Given an [`ErrorList`]
//! it appends upstream's errors; given a [`Verdict`] it is the fast yes/no form of the same
//! check: the closure that would build an error is never called, so nothing is formatted or
//! allocated. Both forms run the same code, so they cannot disagree.
//!
//! ```
//! use kdv_runtime::{ErrorList, PathRef, Verdict, limits};
//!
//! let path = PathRef::Nil;
//! let items = ["a", "b", "c"];
//! // The yes/no form: nothing is built.
//! assert!(!Verdict::passes(|v| limits::max_items(&path, &items[..], 2, v)));
//! // The error form: the same check.
//! let mut errs = ErrorList::new();
//! limits::max_items(&path, &items[..], 2, &mut errs);
//! assert_eq!(errs[0].to_string(), "<nil>: Too many: 3: must have at most 2 items");
//! ```

use crate::error::{ErrorList, FieldError};

/// Receives the failures of checks.
pub trait ErrorSink {
    /// Whether this sink keeps the errors (`false`: it only records that something failed).
    const KEEPS_ERRORS: bool;

    /// Records one failure; `error` is called only when the sink keeps errors.
    fn fail(&mut self, error: impl FnOnce() -> FieldError);

    /// Records failures produced elsewhere (hand-written validation functions).
    fn fail_all(&mut self, errors: ErrorList);

    /// How many failures were recorded so far (a [`Verdict`] counts at most one).
    fn count(&self) -> usize;

    /// The errors recorded since `start` (a [`count`](ErrorSink::count)), for marking them.
    fn since(&mut self, start: usize) -> &mut [FieldError];

    /// Forgets the failures recorded since `start` (used for validations whose errors are
    /// discarded once their short-circuit effect is known).
    fn truncate(&mut self, start: usize);

    /// Whether further failures would change nothing: checks that can report many errors
    /// may stop early.
    fn is_settled(&self) -> bool {
        false
    }
}

impl ErrorSink for ErrorList {
    const KEEPS_ERRORS: bool = true;

    #[inline]
    fn fail(&mut self, error: impl FnOnce() -> FieldError) {
        // Invalid objects rarely have one error: start with room for several (one growth
        // less, each growth moving every error built so far).
        if self.capacity() == 0 {
            self.reserve(8);
        }
        self.push(error());
    }

    fn fail_all(&mut self, errors: ErrorList) {
        // The first errors are taken as they are: no second list.
        if self.is_empty() {
            *self = errors;
        } else {
            self.extend(errors);
        }
    }

    #[inline]
    fn count(&self) -> usize {
        self.len()
    }

    #[inline]
    fn since(&mut self, start: usize) -> &mut [FieldError] {
        let start = start.min(self.len());
        &mut self[start..]
    }

    #[inline]
    fn truncate(&mut self, start: usize) {
        Vec::truncate(self, start);
    }
}

/// A sink that only records whether anything failed: the yes/no form of every check. It
/// never builds an error and never allocates.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    failed: bool,
}

impl Verdict {
    /// Whether a failure was recorded.
    #[inline]
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// Runs `check` against a fresh verdict and tells whether it passed.
    #[inline]
    pub fn passes(check: impl FnOnce(&mut Verdict)) -> bool {
        let mut v = Verdict::default();
        check(&mut v);
        !v.failed
    }
}

impl ErrorSink for Verdict {
    const KEEPS_ERRORS: bool = false;

    #[inline]
    fn fail(&mut self, _error: impl FnOnce() -> FieldError) {
        self.failed = true;
    }

    fn fail_all(&mut self, errors: ErrorList) {
        self.failed |= !errors.is_empty();
    }

    #[inline]
    fn count(&self) -> usize {
        usize::from(self.failed)
    }

    #[inline]
    fn since(&mut self, _start: usize) -> &mut [FieldError] {
        &mut []
    }

    #[inline]
    fn truncate(&mut self, start: usize) {
        if start == 0 {
            self.failed = false;
        }
    }

    #[inline]
    fn is_settled(&self) -> bool {
        self.failed
    }
}
