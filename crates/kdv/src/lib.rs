//! Declarative validation for Kubernetes-style APIs in Rust: upstream validation-gen's
//! `+k8s:` tags written in doc comments of Rust types, turned into native validation code
//! at compile time by `#[derive(Validate)]`.
//!
//! ```
//! use kdv::{Operation, Validate};
//!
//! #[derive(Validate)]
//! pub struct WidgetSpec {
//!     /// +k8s:required
//!     /// +k8s:minimum=1
//!     /// +k8s:maximum=10
//!     pub replicas: i32,
//!     /// +k8s:optional
//!     /// +k8s:format=k8s-short-name
//!     pub class_name: Option<String>,
//! }
//!
//! let spec = WidgetSpec { replicas: 20, class_name: Some("Fast!".into()) };
//! let errors = spec.validate(&Operation::create());
//! assert_eq!(errors.len(), 2);
//! assert_eq!(errors[0].to_string(), "replicas: Invalid value: 20: must be less than or equal to 10");
//! ```
//!
//! The derive reads the tags with the same registry and rule IR as kdv's interpreter (so a
//! tag means the same in both, and misuse is a compile error with the message `kdv lint`
//! gives), and generates code that calls the check functions of `kdv-runtime` directly.
//! Field names are serde's: `rename`, `rename_all`, `flatten`, `skip_serializing_if` and
//! `skip` shape the JSON names used in field paths. Every struct, newtype and unit enum that
//! a validated type uses as a field type derives `Validate` too (the derive generates the
//! way checks read that type's values).
//!
//! The derive reads the source file of the deriving type to learn the other types of that
//! file (as validation-gen reads a whole Go package); types of other modules are not
//! supported as field types of validated types.

#![warn(missing_docs)]

pub use kdv_derive::Validate;
pub use kdv_runtime::{
    BadValue, ErrorList, ErrorType, FieldError, FieldPath, Operation, OperationKind, PathRef,
};

/// A type with generated validation: `#[derive(Validate)]`.
pub trait Validate: __private::TypeValidation + Sized {
    /// Validates a new object (on Create; on Update without an old object).
    fn validate(&self, op: &Operation) -> ErrorList {
        let mut out = ErrorList::new();
        __private::validate_root::<Self, _>(self, None, op, &mut out);
        out
    }

    /// Validates an update of `old` to `self`, with upstream's ratcheting: unchanged
    /// fields are not validated again.
    fn validate_update(&self, old: &Self, op: &Operation) -> ErrorList {
        let mut out = ErrorList::new();
        __private::validate_root::<Self, _>(self, Some(old), op, &mut out);
        out
    }

    /// Whether validation reports nothing (builds no error: the allocation-free yes/no
    /// form of [`validate`](Validate::validate) and
    /// [`validate_update`](Validate::validate_update)).
    fn is_valid(&self, old: Option<&Self>, op: &Operation) -> bool {
        let mut verdict = kdv_runtime::Verdict::default();
        __private::validate_root::<Self, _>(self, old, op, &mut verdict);
        !verdict.failed()
    }
}

impl<T: __private::TypeValidation> Validate for T {}

/// What generated code uses; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use kdv_runtime::native::{
        AnyView, AsView, ByKeys, KeyViews, ListOf, MapOf, Named, NilView, WholeItem, json_of,
        nil_of,
    };
    pub use kdv_runtime::{
        BadValue, ErrorList, ErrorListExt, ErrorSink, FieldError, Format, Int, ListView, Literal,
        MapView, Operation, PathRef, Verdict, View, dependencies, each, enums, equality, format,
        immutable, item, limits, lists, modes, options, required, subfield, testing, unions,
        update,
    };
    pub use serde_json;

    use std::cell::Cell;

    /// Values nested deeper than this are not validated (an internal error is reported
    /// once), as the interpreter's limit.
    pub const MAX_DEPTH: usize = 512;

    /// The state of one validation call.
    pub struct Cx<'o> {
        /// The operation.
        pub op: &'o Operation,
        depth: Cell<usize>,
        too_deep: Cell<bool>,
    }

    impl<'o> Cx<'o> {
        /// A fresh context.
        pub fn new(op: &'o Operation) -> Cx<'o> {
            Cx {
                op,
                depth: Cell::new(0),
                too_deep: Cell::new(false),
            }
        }

        /// Enters a type's function; false (and an error, once) past [`MAX_DEPTH`].
        #[inline]
        pub fn enter<S: ErrorSink>(&self, path: &PathRef<'_>, out: &mut S) -> bool {
            let d = self.depth.get();
            if d >= MAX_DEPTH {
                if S::KEEPS_ERRORS && !self.too_deep.get() {
                    self.too_deep.set(true);
                    out.fail(|| {
                        FieldError::internal(
                            path,
                            "value nesting exceeds the validation depth limit",
                        )
                    });
                }
                return false;
            }
            self.depth.set(d + 1);
            true
        }

        /// Leaves a type's function.
        #[inline]
        pub fn leave(&self) {
            self.depth.set(self.depth.get().saturating_sub(1));
        }
    }

    /// The generated validation function of a type (upstream's `Validate_T`).
    pub trait TypeValidation: AsView {
        /// Whether the function can report anything.
        const HAS_VALIDATIONS: bool;
        /// `+k8s:isSubresource` paths the type accepts as a root (`/` by default).
        const SUBRESOURCES: &'static [&'static str];
        /// `pkg.Name` as a root's "no validation found" message prints it.
        const ROOT_NAME: &'static str;

        /// Validates `v` (old value `old`, nil when there is none) at `path`.
        fn validate_type<'a, S: ErrorSink>(
            cx: &Cx<'_>,
            path: &PathRef<'_>,
            v: Self::Nilable<'a>,
            old: Self::Nilable<'a>,
            out: &mut S,
        ) where
            Self: 'a;
    }

    /// Whether `path` (e.g. `/status`) is the operation's subresource path.
    fn subresource_is(op: &Operation, path: &str) -> bool {
        if op.subresources.is_empty() {
            return path == "/";
        }
        let Some(rest) = path.strip_prefix('/') else {
            return false;
        };
        let mut parts = rest.split('/');
        for s in &op.subresources {
            if parts.next() != Some(s.as_str()) {
                return false;
            }
        }
        parts.next().is_none()
    }

    /// A root's validation: the subresource gate, then the type's function.
    pub fn validate_root<T: TypeValidation, S: ErrorSink>(
        v: &T,
        old: Option<&T>,
        op: &Operation,
        out: &mut S,
    ) {
        if !T::HAS_VALIDATIONS {
            return;
        }
        let root = PathRef::Nil;
        if !T::SUBRESOURCES.iter().any(|s| subresource_is(op, s)) {
            out.fail(|| {
                FieldError::internal(
                    &root,
                    format!(
                        "no validation found for {}, subresource: {}",
                        T::ROOT_NAME,
                        op.subresource_path()
                    ),
                )
            });
            return;
        }
        let cx = Cx::new(op);
        T::validate_type(&cx, &root, T::nilable(Some(v)), T::nilable(old), out);
    }

    /// Union extractors as one function of the member position, typed by `like` (the union's
    /// value) so the closure's parameter types are known.
    #[inline(always)]
    pub fn extractors_for<'a, V: View<'a>, F: Fn(usize, V) -> bool>(
        _like: V,
        n: usize,
        f: F,
    ) -> (usize, F) {
        (n, f)
    }

    /// List-map identity from a key reader, typed by `like` (the list).
    #[inline(always)]
    pub fn keys_for<'a, L: ListView<'a>, K: KeyViews<'a>, F: Fn(L::Item) -> K>(
        _like: L,
        f: F,
    ) -> ByKeys<F> {
        ByKeys(f)
    }

    /// Applies a stability mark to the errors recorded since `start`.
    #[inline]
    pub fn mark<S: ErrorSink>(out: &mut S, start: usize, level: u8) {
        match level {
            1 => {
                out.since(start).mark_alpha();
            }
            2 => {
                out.since(start).mark_beta();
            }
            _ => {}
        }
    }
}
