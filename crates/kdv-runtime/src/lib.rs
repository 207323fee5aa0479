//! kdv-runtime: what validation needs at run time, shared by the interpreter (`kdv-eval`)
//! and generated code: field paths, field errors rendered exactly like Kubernetes'
//! `field.Error`, the operation context, and the semantics of every check.
//!
//! Checks live in one module per family, as upstream's `k8s.io/apimachinery/pkg/api/validate`
//! has them ([`limits`], [`required`], [`enums`], [`mod@format`], [`equality`], [`immutable`],
//! [`update`], [`options`], [`testing`], [`lists`], [`each`], [`item`], [`subfield`],
//! [`unions`], [`modes`], [`dependencies`]), kdv's extensions of the catalog ([`pattern`],
//! [`crossfield`], [`item_update`], [`subresources`]; the exclusive bounds are [`limits`]), plus
//! the object-level checks of [`objectmeta`] (ObjectMeta and embedded resources, as the API
//! server validates them). Each family check is written once against the borrowed value view
//! of [`view`] and reports through an [`ErrorSink`]: an [`ErrorList`] collects upstream's
//! errors, a [`Verdict`] is the allocation-free yes/no form of the same check. Composite checks
//! take callbacks where upstream's generic Go functions take extractor, match and validation
//! functions.
//!
//! Every check has one calling convention, what the interpreter (`kdv-eval` `calls.rs`) and
//! generated code (`kdv-codegen`) both call: the path first (a borrowed [`PathRef`]), then the
//! [`Operation`] where the check depends on it, the value views (new, then old), the tag's
//! payload, and the sink last. It is the crate's costly-to-change surface.
//!
//! Also here: [`mod@path`] (a [`PathRef`] lives on the stack and becomes an owned [`FieldPath`]
//! only inside an error; a one-segment path is held inline, so most errors cost one allocation,
//! their detail), [`mod@error`] ([`FieldError`] with upstream's types, texts and the stability
//! and declarative-native marks; `origin` and path segments are `Cow<'static, str>`), [`native`]
//! (the views of Rust values generated code reads through, decision 0041), [`json_reuse`] (JSON
//! written into a tree kept from the previous call, for the derive's `+validationRule`s where
//! the value is not read in place) and [`view::str_eq`] (decision 0045). [`pattern`]'s budget
//! is the one `kdv-openapi` applies to the `pattern` keyword, with the same message (decisions
//! 0076, 0086). [`objectmeta`] also prepares an object as the registry prepares a write request
//! (generated names, the defaulted namespace, server-set fields) and warns about finalizers,
//! allocation-free for valid metadata.
//!
//! ```
//! use kdv_runtime::{ErrorList, Format, Operation, PathRef, format, immutable, limits};
//!
//! let root = PathRef::Nil;
//! let spec = root.child("spec");
//! let replicas = spec.child("replicas");
//! let name = spec.child("name");
//! let mut errs = ErrorList::new();
//! limits::minimum(&replicas, 0i64, 1, &mut errs);
//! immutable::immutable(&name, &Operation::update(), &mut errs);
//! format::format(&name, "my-name", Format::ShortName, &mut errs); // valid: nothing added
//! let texts: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
//! assert_eq!(texts, [
//!     "spec.replicas: Invalid value: 0: must be greater than or equal to 1",
//!     "spec.name: Invalid value: null: field is immutable",
//! ]);
//! assert_eq!(errs[0].origin, "minimum");
//! ```

pub mod crossfield;
pub mod dependencies;
pub mod each;
pub mod enums;
pub mod equality;
pub mod error;
pub mod format;
pub use kdv_gofmt as gofmt;
pub mod immutable;
pub mod item;
pub mod item_update;
pub mod json_reuse;
pub mod limits;
pub mod lists;
pub mod modes;
pub mod native;
pub mod objectmeta;
pub mod operation;
pub mod options;
pub mod path;
pub mod pattern;
pub mod required;
pub mod sink;
pub mod subfield;
pub mod subresources;
pub mod testing;
pub mod unions;
pub mod update;
pub mod view;

pub use error::{
    BadValue, ErrorBody, ErrorList, ErrorListExt, ErrorType, FieldError, StabilityLevel,
    VALUE_OMITTED,
};
pub use format::{Format, validate_format, validate_format_named};
pub use operation::{Operation, OperationKind};
pub use path::{FieldPath, PathRef, Segment};
pub use sink::{ErrorSink, Verdict};
pub use view::{Int, ListView, Literal, MapView, View};

/// Counts heap allocations made by the current thread, to prove validators allocate
/// nothing on valid input (the shared counting allocator of `kdv-test-support`).
#[cfg(test)]
pub(crate) mod alloc_count {
    pub(crate) use kdv_test_support::allocations;

    #[global_allocator]
    static ALLOCATOR: kdv_test_support::CountingAllocator = kdv_test_support::CountingAllocator;

    #[test]
    fn counts_allocations() {
        assert!(allocations(|| drop(std::hint::black_box(String::from("x")))) >= 1);
        assert_eq!(allocations(|| drop(std::hint::black_box(String::new()))), 0);
    }
}
