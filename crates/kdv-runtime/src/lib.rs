//! kdv-runtime: what validation needs at run time, shared by the interpreter (`kdv-eval`)
//! and generated code: field paths, field errors rendered exactly like Kubernetes'
//! `field.Error`, the operation context, the `+k8s:format` validators and the scalar
//! checks behind the other tags.
//!
//! ```
//! use kdv_runtime::{check, validate_format, ErrorList, Format, Operation, PathRef};
//!
//! let root = PathRef::Nil;
//! let spec = root.child("spec");
//! let replicas = spec.child("replicas");
//! let name = spec.child("name");
//! let mut errs = ErrorList::new();
//! check::minimum_int(&replicas, 0, 1, &mut errs);
//! check::immutable(&name, &Operation::update(), &mut errs);
//! validate_format(Format::ShortName, &name, "my-name", &mut errs); // valid: nothing added
//! let texts: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
//! assert_eq!(texts, [
//!     "spec.replicas: Invalid value: 0: must be greater than or equal to 1",
//!     "spec.name: Invalid value: null: field is immutable",
//! ]);
//! assert_eq!(errs[0].origin, "minimum");
//! ```

pub mod check;
pub mod error;
pub mod format;
pub use kdv_gofmt as gofmt;
pub mod operation;
pub mod path;

pub use error::{
    BadValue, ErrorBody, ErrorList, ErrorListExt, ErrorType, FieldError, StabilityLevel,
    VALUE_OMITTED,
};
pub use format::{Format, validate_format, validate_format_named};
pub use operation::{Operation, OperationKind};
pub use path::{FieldPath, PathRef, Segment};

/// Counts heap allocations made by the current thread, to prove validators allocate
/// nothing on valid input.
#[cfg(test)]
pub(crate) mod alloc_count {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    struct Counting;

    thread_local! {
        static COUNT: Cell<usize> = const { Cell::new(0) };
    }

    // SAFETY: every call is forwarded unchanged to the system allocator; the counter is a
    // const-initialised thread-local, which itself never allocates.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            COUNT.with(|c| c.set(c.get() + 1));
            // SAFETY: same contract as the caller's.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: same contract as the caller's.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            COUNT.with(|c| c.set(c.get() + 1));
            // SAFETY: same contract as the caller's.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    #[global_allocator]
    static GLOBAL: Counting = Counting;

    /// Runs `f` and returns how many allocations it made on this thread.
    pub(crate) fn allocations(f: impl FnOnce()) -> usize {
        let before = COUNT.with(Cell::get);
        f();
        COUNT.with(Cell::get) - before
    }

    #[test]
    fn counts_allocations() {
        assert!(allocations(|| drop(std::hint::black_box(String::from("x")))) >= 1);
        assert_eq!(allocations(|| drop(std::hint::black_box(String::new()))), 0);
    }
}
