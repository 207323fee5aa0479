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
//! `skip` shape the JSON names used in field paths. A unit-only enum is a string type with
//! its variants as constants (`+k8s:enum`); an enum of one-value variants (serde's default,
//! externally tagged form `{"httpGet": {...}}`) is a Kubernetes union: one optional member
//! per variant, exactly one set. Internally or adjacently tagged and untagged enums are
//! refused (they have no Kubernetes shape).
//!
//! The derive reads the source file of the deriving type to learn the other types of that
//! file (as validation-gen reads a whole Go package); the structs, newtypes and unit enums
//! of the file that a validated type uses derive `Validate` too. A field type declared
//! elsewhere (`T`, `Option<T>`, `Box<T>`, `Vec<T>` of it) is validated by its own generated
//! function when it derives `Validate` in its module, and is opaque when it belongs to
//! another crate (such as a k8s-openapi type): tags that need no knowledge of the type
//! (`optional`, `required`, `immutable`, `update`, `maxItems` of a list, ...) apply to it,
//! compared with `PartialEq` and printed with `Serialize` when the type has them.
//!
//! The API: [`Validate`] (`validate`, `validate_update` with upstream's ratcheting,
//! `validate_at` a path, `is_valid`, the allocation-free yes/no form), [`Defaults`] (the
//! server's defaulting, before validation), [`schema`]`::<T>()` and [`schema_notes`] (the
//! schema `kdv-schema` emitted at expansion time, decision 0044), [`merge_schema`] (the rules
//! into another generator's schema, such as kube-rs's CRD), [`has_declarative_native`]`::<T>()`
//! (a hybrid type: some errors are declarative-only, decision 0049), the runtime's error types,
//! [`view`] (the view types custom validation functions take, decision 0043) and [`rollout`]
//! (`kdv-rollout`). `__private` is what generated code calls (the `TypeValidation` trait, `Cx`
//! with the depth limit and the CEL budget, the root's subresource gate, typed helpers for
//! closures, `+validationRule` programs: `CelProgram`, `cel_rule`, run by `kdv-openapi`).
//!
//! Valid objects validate without heap allocation: constants are built at first use in
//! `LazyLock`s and long lists' lookup tables come from a per-thread pool in `kdv-runtime`
//! `lists` (`tests/alloc.rs`; `benches/benches/derive.rs` prints allocations per operation). An
//! error allocates its path vector and detail text only: `FieldError::origin` and path segments
//! are `Cow<'static, str>`, and generated code names fields with `PathRef::field` (a
//! `&'static str`, borrowed by the owned path). Strings compare through
//! `kdv_runtime::view::str_eq` (decision 0045).
//!
//! Tests: `tests/tags/*.rs` hold one module per tag family, modelled on upstream's
//! `output_tests/tags`; `tests/tags.rs` runs each root type through the differential harness
//! (`tests/support/differential.rs`: 10,000 random objects, create and update, the `Debug` of
//! the derive's and the interpreter's error lists compared) and fails when a catalog tag has no
//! fixture; `tests/compile_fail.rs` (trybuild, `tests/ui/`) pins compile errors.

#![warn(missing_docs)]

pub use kdv_derive::Validate;

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
mod readme {}
pub use kdv_runtime::{
    BadValue, ErrorList, ErrorType, FieldError, FieldPath, Operation, OperationKind, PathRef,
};

/// Rolling declarative validation out beside hand-written validation in an API server as
/// each Kubernetes release does: every feature gate of kube-apiserver 1.30–1.37, hybrid
/// validation with mismatch checks and panic safety, the validation metrics (the
/// `kdv-rollout` crate).
pub use kdv_rollout as rollout;

/// How checks read values, for hand-written code next to generated code (such as
/// `+k8s:customValidation` functions, which receive the value's nilable view:
/// `<T as kdv::view::AsView>::Nilable<'_>`, `Option<&T>` for a struct, `Option<i32>` for an
/// `i32`, `Named<Option<&String>>` for a newtype of `String`).
pub mod view {
    pub use kdv_runtime::native::{AnyView, AsView, ListOf, MapOf, Named, Opaque, OpaqueList};
    pub use kdv_runtime::{Int, ListView, MapView, View};
}

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

    /// Validates the value as a part of a larger object, below `path` (e.g. the `spec` of a
    /// custom resource whose root type is generated by another derive): errors carry the
    /// whole path. `old` as in [`validate_update`](Validate::validate_update).
    fn validate_at(&self, path: &FieldPath, old: Option<&Self>, op: &Operation) -> ErrorList {
        let mut out = ErrorList::new();
        path.with_path_ref(|p| {
            __private::validate_below::<Self, _>(p, self, old, op, &mut out);
        });
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

/// Field defaults (`+k8s:default=`, upstream's `+default=`) applied to a value as the API
/// server's structural defaulting applies them before it validates: a field that would be
/// absent or `null` in the value's JSON (a `None`, a field its `skip_serializing_if` skips, a
/// `null` JSON value) gets its default, at every depth (struct fields, list items, map
/// values). Implemented by `#[derive(Validate)]` for the structs and newtypes of the file.
/// Call it before [`Validate::validate`] to judge a value as the API server would after
/// defaulting, which rules reading a defaulted field elsewhere (a `+validationRule`, a union)
/// depend on; `kdv validate --types` does the same with `kdv_eval::apply_defaults`.
pub trait Defaults {
    /// Sets the defaults of the absent fields, at every depth.
    fn apply_defaults(&mut self);
}

impl<T: Defaults> Defaults for Option<T> {
    fn apply_defaults(&mut self) {
        if let Some(v) = self {
            v.apply_defaults();
        }
    }
}

impl<T: Defaults> Defaults for Box<T> {
    fn apply_defaults(&mut self) {
        (**self).apply_defaults();
    }
}

impl<T: Defaults> Defaults for Vec<T> {
    fn apply_defaults(&mut self) {
        self.iter_mut().for_each(Defaults::apply_defaults);
    }
}

impl<K, T: Defaults> Defaults for std::collections::BTreeMap<K, T> {
    fn apply_defaults(&mut self) {
        self.values_mut().for_each(Defaults::apply_defaults);
    }
}

impl<K, T: Defaults, S> Defaults for std::collections::HashMap<K, T, S> {
    fn apply_defaults(&mut self) {
        self.values_mut().for_each(Defaults::apply_defaults);
    }
}

/// The OpenAPI v3 structural schema of `T` with the rules of its tags (KEP-4153): value
/// validations as OpenAPI keywords (`minimum`, `maxLength`, `enum`, `required`, list types,
/// ...) and what OpenAPI cannot express (immutability, update constraints, unions, formats,
/// item and cross-field rules) as `x-kubernetes-validations` CEL rules with upstream's
/// messages. Computed when the type is compiled; every rule is one the API server accepts
/// (rules it would refuse are left out: see [`schema_notes`]). Field names are serde's.
pub fn schema<T: Validate>() -> serde_json::Value {
    // The text was written by serde_json at compile time.
    serde_json::from_str(T::SCHEMA).unwrap_or(serde_json::Value::Null)
}

/// Whether `T` is a hybrid type: a field block or union reachable from its validation is
/// `+k8s:declarativeValidationNative`, so some of its errors are marked
/// [`FieldError::declarative_native`] (declarative-only rules, which an API server always
/// enforces). Known when the type is compiled; types of other modules that the type's
/// file names are not seen (ask them too).
pub const fn has_declarative_native<T: Validate>() -> bool {
    T::DECLARATIVE_NATIVE
}

/// The rules of `T` that [`schema`] could not publish, each as `path: tag: why`.
pub fn schema_notes<T: Validate>() -> &'static [&'static str] {
    T::SCHEMA_NOTES
}

/// Merges the rules of a schema from [`schema`] into `target`, a schema of the same JSON
/// shape produced by another generator (such as the `openAPIV3Schema` of the CRD kube-rs
/// derives, at the node of the type): validation keywords, `x-kubernetes-*` extensions and
/// `x-kubernetes-validations` are added to the node of the same property path (`required`
/// is united), through `properties`, `items` and `additionalProperties`; the target's own
/// structure (`type`, `properties` it lacks, descriptions) is kept, without `+k8s:` tag
/// lines copied from doc comments.
pub fn merge_schema(target: &mut serde_json::Value, rules: &serde_json::Value) {
    use serde_json::Value;
    let (Value::Object(t), Value::Object(r)) = (target, rules) else {
        return;
    };
    // Generators that copy doc comments copy the tag lines too: they are not documentation.
    if let Some(Value::String(d)) = t.get_mut("description") {
        let kept: Vec<&str> = d
            .lines()
            .filter(|l| !l.trim_start().starts_with("+k8s:"))
            .collect();
        *d = kept.join("\n").trim_end().to_string();
    }
    for (k, v) in r {
        match k.as_str() {
            "properties" => {
                if let (Some(Value::Object(tp)), Value::Object(rp)) = (t.get_mut("properties"), v) {
                    for (name, sub) in rp {
                        if let Some(node) = tp.get_mut(name) {
                            merge_schema(node, sub);
                        }
                    }
                }
            }
            "items" | "additionalProperties" => {
                if let Some(node) = t.get_mut(k) {
                    merge_schema(node, v);
                }
            }
            "description" => {}
            "required" => {
                let mut names: Vec<Value> = match t.get("required") {
                    Some(Value::Array(a)) => a.clone(),
                    _ => Vec::new(),
                };
                if let Value::Array(more) = v {
                    for n in more {
                        if !names.contains(n) {
                            names.push(n.clone());
                        }
                    }
                }
                t.insert(k.clone(), Value::Array(names));
            }
            "x-kubernetes-validations" => {
                let mut all: Vec<Value> = match t.get(k) {
                    Some(Value::Array(a)) => a.clone(),
                    _ => Vec::new(),
                };
                if let Value::Array(more) = v {
                    all.extend(more.iter().cloned());
                }
                t.insert(k.clone(), Value::Array(all));
            }
            "type"
            | "nullable"
            | "x-kubernetes-preserve-unknown-fields"
            | "x-kubernetes-embedded-resource"
            | "x-kubernetes-int-or-string"
            | "default" => {}
            _ => {
                t.insert(k.clone(), v.clone());
            }
        }
    }
}

/// What generated code uses; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use kdv_cel;
    pub use kdv_runtime::native::{
        AnyView, AsView, ByKeys, KeyViews, ListOf, MapOf, Named, NilView, Opaque, OpaqueList,
        OpaqueOps, SerdeJson, WholeItem, json_of, nil_of,
    };
    pub use kdv_runtime::{
        BadValue, ErrorList, ErrorListExt, ErrorSink, FieldError, Format, Int, ListView, Literal,
        MapView, Operation, PathRef, Verdict, View, crossfield, dependencies, each, enums,
        equality, format, immutable, item, item_update, limits, lists, modes, options, pattern,
        required, subfield, subresources, testing, unions, update,
    };
    pub use serde_json;

    use std::cell::Cell;

    use kdv_cel::value::Value as CelValue;
    use kdv_cel::value::native::ToCel;

    /// Values nested deeper than this are not validated (an internal error is reported
    /// once), as the interpreter's limit.
    pub const MAX_DEPTH: usize = 512;

    /// The state of one validation call.
    pub struct Cx<'o> {
        /// The operation.
        pub op: &'o Operation,
        depth: Cell<usize>,
        too_deep: Cell<bool>,
        /// The runtime cost budget left for `+validationRule` rules (the API server's
        /// per-request budget of CRD rules).
        cel_budget: Cell<i64>,
    }

    impl<'o> Cx<'o> {
        /// A fresh context.
        pub fn new(op: &'o Operation) -> Cx<'o> {
            Cx {
                op,
                depth: Cell::new(0),
                too_deep: Cell::new(false),
                cel_budget: Cell::new(kdv_openapi::cel::RUNTIME_COST_BUDGET),
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

    /// A `+validationRule`'s program: its node's structural schema (JSON text, built at
    /// expansion time by `kdv-schema`) compiled on first use in the type-rule environment
    /// (the CRD rule environment of kdv-openapi's default release, 1.35, with kdv's own CEL
    /// libraries), as the interpreter compiles it by default; and the JSON trees its calls
    /// write the values into, kept for the next call (one pair per concurrent call), so that
    /// a value of the same shape as the last one is given to CEL without heap allocation.
    pub struct CelProgram {
        schema: &'static str,
        /// The rules, and whether they may run over values read in place.
        compiled: std::sync::OnceLock<Result<(kdv_openapi::cel::SchemaRules, bool), String>>,
        trees: std::sync::Mutex<Vec<(serde_json::Value, serde_json::Value)>>,
    }

    impl CelProgram {
        /// The program of the rule in `schema`.
        pub const fn new(schema: &'static str) -> Self {
            CelProgram {
                schema,
                compiled: std::sync::OnceLock::new(),
                trees: std::sync::Mutex::new(Vec::new()),
            }
        }

        fn get(&self) -> &Result<(kdv_openapi::cel::SchemaRules, bool), String> {
            self.compiled.get_or_init(|| {
                let schema: serde_json::Value =
                    serde_json::from_str(self.schema).map_err(|e| e.to_string())?;
                let rules = kdv_openapi::cel::SchemaRules::compile(
                    &schema,
                    kdv_openapi::DEFAULT_KUBERNETES_MINOR,
                )
                .map_err(|e| e.message)?;
                let plain = rules.reads_plain();
                Ok((rules, plain))
            })
        }

        fn take_trees(&self) -> (serde_json::Value, serde_json::Value) {
            let mut pool = self.trees.lock().unwrap_or_else(|e| e.into_inner());
            pool.pop().unwrap_or_default()
        }

        fn give_back(&self, trees: (serde_json::Value, serde_json::Value)) {
            let mut pool = self.trees.lock().unwrap_or_else(|e| e.into_inner());
            pool.push(trees);
        }
    }

    /// Runs a `+validationRule` on the value `v` (old value `old`) at `path`, where the value
    /// is not nil, charging the call's budget: over `native`, the value read in place, on a
    /// create where that reads as the value's JSON would; else on the JSON the value
    /// serializes to.
    pub fn cel_rule<S: ErrorSink>(
        cx: &Cx<'_>,
        program: &CelProgram,
        path: &PathRef<'_>,
        v: impl SerdeJson,
        old: impl SerdeJson,
        native: CelInput<'_>,
        out: &mut S,
    ) {
        let (program_rules, plain) = match program.get() {
            Ok((p, plain)) => (p, *plain),
            Err(e) => {
                if v.serde_json_into(&mut serde_json::Value::Null) {
                    out.fail(|| FieldError::internal(path, format!("+validationRule: {e}")));
                }
                return;
            }
        };
        if !cx.op.is_update() {
            match native {
                CelInput::Nil => return,
                CelInput::Native(value) if plain => {
                    let json = || {
                        let mut j = serde_json::Value::Null;
                        v.serde_json_into(&mut j);
                        j
                    };
                    let mut budget = cx.cel_budget.get();
                    let mut errs = ErrorList::new();
                    // A yes/no sink builds no error.
                    let verdict = !S::KEEPS_ERRORS;
                    let failed = program_rules.run_value(
                        &value,
                        &json,
                        path,
                        &mut budget,
                        verdict,
                        &mut errs,
                    );
                    cx.cel_budget.set(budget);
                    if !errs.is_empty() {
                        out.fail_all(errs);
                    } else if failed {
                        out.fail(|| FieldError::internal(path, "+validationRule failed"));
                    }
                    return;
                }
                _ => {}
            }
        }
        let (mut value, mut old_value) = program.take_trees();
        if v.serde_json_into(&mut value) {
            let update = cx.op.is_update();
            let old = (update && old.serde_json_into(&mut old_value)).then_some(&old_value);
            let mut budget = cx.cel_budget.get();
            let mut errs = ErrorList::new();
            program_rules.run(&value, old, path, update, &mut budget, &mut errs);
            cx.cel_budget.set(budget);
            if !errs.is_empty() {
                out.fail_all(errs);
            }
        }
        program.give_back((value, old_value));
    }

    /// Whether `serde_json`'s maps iterate in key order (without its `preserve_order`
    /// feature) rather than in insertion order: the order a struct read in place gives its
    /// fields to CEL.
    pub fn json_keys_sorted() -> bool {
        static SORTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *SORTED.get_or_init(|| {
            let mut m = serde_json::Map::new();
            m.insert("b".into(), serde_json::Value::Null);
            m.insert("a".into(), serde_json::Value::Null);
            m.keys().next().is_some_and(|k| k == "a")
        })
    }

    /// A value for a `+validationRule` read in place (see [`cel_rule`]).
    pub enum CelInput<'a> {
        /// Nil: the rules do not run.
        Nil,
        /// The value as CEL reads it, the same as its JSON would read.
        Native(CelValue<'a>),
        /// Not readable in place: the rules read the value's JSON.
        Json,
    }

    /// Types whose values read in place ([`ToCel`]) read as their JSON would: what the
    /// derive implements for the types it validates, and the standard types for their
    /// contents. Floats are not (a NaN serializes to `null`); a type the derive does not
    /// know is not either, and its values are given to CEL as JSON.
    pub trait CelNative: ToCel {
        /// Whether values of the type read as their JSON, deep.
        fn cel_native_ok() -> bool;
    }

    macro_rules! cel_native_leaf {
        ($ok:expr => $($t:ty),*) => {$(
            impl CelNative for $t {
                #[inline(always)]
                fn cel_native_ok() -> bool {
                    $ok
                }
            }
        )*};
    }
    cel_native_leaf!(true => bool, String, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize,
        serde_json::Value);
    cel_native_leaf!(false => f32, f64);

    impl<T: CelNative> CelNative for Option<T> {
        #[inline(always)]
        fn cel_native_ok() -> bool {
            T::cel_native_ok()
        }
    }
    impl<T: CelNative> CelNative for Box<T> {
        #[inline(always)]
        fn cel_native_ok() -> bool {
            T::cel_native_ok()
        }
    }
    impl<T: CelNative + Sync> CelNative for Vec<T> {
        #[inline(always)]
        fn cel_native_ok() -> bool {
            T::cel_native_ok()
        }
    }
    impl<T: CelNative + Sync> CelNative for std::collections::BTreeMap<String, T> {
        #[inline(always)]
        fn cel_native_ok() -> bool {
            T::cel_native_ok()
        }
    }

    /// A view's value for [`cel_rule`].
    pub trait CelView<'a>: Copy {
        /// The value read in place, nil, or not readable in place.
        fn cel_input(self) -> CelInput<'a>;
    }

    impl<'a, T: CelNative + Sync> CelView<'a> for Option<&'a T> {
        #[inline]
        fn cel_input(self) -> CelInput<'a> {
            match self {
                None => CelInput::Nil,
                Some(v) if T::cel_native_ok() => CelInput::Native(v.to_cel()),
                Some(_) => CelInput::Json,
            }
        }
    }

    impl<'a> CelView<'a> for Option<&'a str> {
        #[inline]
        fn cel_input(self) -> CelInput<'a> {
            self.map_or(CelInput::Nil, |s| CelInput::Native(s.to_cel()))
        }
    }

    macro_rules! cel_view_copy {
        ($($t:ty),*) => {$(
            impl<'a> CelView<'a> for Option<$t> {
                #[inline]
                fn cel_input(self) -> CelInput<'a> {
                    match self {
                        None => CelInput::Nil,
                        Some(x) => CelInput::Native(match x.to_cel() {
                            CelValue::Int(i) => CelValue::Int(i),
                            CelValue::Double(d) => CelValue::Double(d),
                            CelValue::Bool(b) => CelValue::Bool(b),
                            _ => return CelInput::Json,
                        }),
                    }
                }
            }
        )*};
    }
    cel_view_copy!(bool, i8, i16, i32, i64, u8, u16, u32, u64);

    impl<'a, T: CelNative + Sync + AsView> CelView<'a> for ListOf<'a, T> {
        #[inline]
        fn cel_input(self) -> CelInput<'a> {
            match self.vec() {
                None => CelInput::Nil,
                Some(v) if T::cel_native_ok() => CelInput::Native(v.to_cel()),
                Some(_) => CelInput::Json,
            }
        }
    }

    impl<'a, T: CelNative + Sync> CelView<'a> for MapOf<'a, std::collections::BTreeMap<String, T>, T> {
        #[inline]
        fn cel_input(self) -> CelInput<'a> {
            match self.map() {
                None => CelInput::Nil,
                Some(m) if T::cel_native_ok() => CelInput::Native(m.to_cel()),
                Some(_) => CelInput::Json,
            }
        }
    }

    impl<'a, V: CelView<'a>> CelView<'a> for Named<V> {
        #[inline]
        fn cel_input(self) -> CelInput<'a> {
            self.0.cel_input()
        }
    }

    impl<'a> CelView<'a> for AnyView<'a> {
        #[inline]
        fn cel_input(self) -> CelInput<'a> {
            match self.0 {
                Some(v) if !v.is_null() => CelInput::Native(CelValue::from_json(v)),
                _ => CelInput::Nil,
            }
        }
    }

    /// Selects, by the autoref rule of method lookup, a view's [`CelInput`]: read in place
    /// when the view has [`CelView`], else as JSON.
    pub struct CelProbe<V>(pub V);

    /// The [`CelView`] case of [`CelProbe`].
    pub trait CelByView<'a> {
        /// The view's input.
        fn cel_input(&self) -> CelInput<'a>;
    }
    impl<'a, V: CelView<'a>> CelByView<'a> for &CelProbe<V> {
        #[inline(always)]
        fn cel_input(&self) -> CelInput<'a> {
            self.0.cel_input()
        }
    }

    /// The fallback of [`CelProbe`]: JSON.
    pub trait CelByJson {
        /// [`CelInput::Json`].
        fn cel_input(&self) -> CelInput<'static>;
    }
    impl<V> CelByJson for CelProbe<V> {
        #[inline(always)]
        fn cel_input(&self) -> CelInput<'static> {
            CelInput::Json
        }
    }

    /// A field's value read in place, by [`Probe`]: the type's [`ToCel`] when it has
    /// [`CelNative`] (else `null`, never read: the struct is then not [`CelNative`]).
    pub trait CelFieldByNative {
        /// The field's type.
        type T;
        /// The value.
        fn cel_field<'v>(&self, v: &'v Self::T) -> CelValue<'v>;
        /// [`CelNative::cel_native_ok`].
        fn cel_field_ok(&self) -> bool;
    }
    impl<T: CelNative> CelFieldByNative for &Probe<T> {
        type T = T;
        #[inline(always)]
        fn cel_field<'v>(&self, v: &'v T) -> CelValue<'v> {
            v.to_cel()
        }
        #[inline(always)]
        fn cel_field_ok(&self) -> bool {
            T::cel_native_ok()
        }
    }

    /// The fallback of [`CelFieldByNative`].
    pub trait CelFieldByNothing {
        /// The field's type.
        type T;
        /// `null`.
        fn cel_field<'v>(&self, v: &'v Self::T) -> CelValue<'v>;
        /// `false`.
        fn cel_field_ok(&self) -> bool;
    }
    impl<T> CelFieldByNothing for Probe<T> {
        type T = T;
        #[inline(always)]
        fn cel_field<'v>(&self, _: &'v T) -> CelValue<'v> {
            CelValue::Null
        }
        #[inline(always)]
        fn cel_field_ok(&self) -> bool {
            false
        }
    }

    /// A field's defaulting, by [`Probe`]: the type's [`crate::Defaults`] when it has one.
    pub trait DefaultsByDerive {
        /// The field's type.
        type T;
        /// Applies the defaults below the field.
        fn defaults_below(&self, v: &mut Self::T);
    }
    impl<T: crate::Defaults> DefaultsByDerive for &Probe<T> {
        type T = T;
        #[inline(always)]
        fn defaults_below(&self, v: &mut T) {
            v.apply_defaults();
        }
    }
    /// The fallback of [`DefaultsByDerive`]: nothing below.
    pub trait DefaultsByNothing {
        /// The field's type.
        type T;
        /// Nothing.
        fn defaults_below(&self, v: &mut Self::T);
    }
    impl<T> DefaultsByNothing for Probe<T> {
        type T = T;
        #[inline(always)]
        fn defaults_below(&self, _: &mut T) {}
    }

    /// Whether a field's value is JSON `null` (a `None`, a `null` JSON value), by [`Probe`].
    pub trait NullByKind {
        /// The field's type.
        type T;
        /// Whether it serializes to `null`.
        fn is_json_null(&self, v: &Self::T) -> bool;
    }
    impl<T> NullByKind for &Probe<Option<T>> {
        type T = Option<T>;
        #[inline(always)]
        fn is_json_null(&self, v: &Option<T>) -> bool {
            v.is_none()
        }
    }
    impl NullByKind for &Probe<serde_json::Value> {
        type T = serde_json::Value;
        #[inline(always)]
        fn is_json_null(&self, v: &serde_json::Value) -> bool {
            v.is_null()
        }
    }
    /// The fallback of [`NullByKind`]: never `null`.
    pub trait NullByNothing {
        /// The field's type.
        type T;
        /// `false`.
        fn is_json_null(&self, v: &Self::T) -> bool;
    }
    impl<T> NullByNothing for Probe<T> {
        type T = T;
        #[inline(always)]
        fn is_json_null(&self, _: &T) -> bool {
            false
        }
    }

    /// Sets a field to its default (JSON text), by [`Probe`]: through `Deserialize` when the
    /// type has it (a default the type cannot read leaves the field as it is: lint reports
    /// such a default).
    pub trait DefaultByDeserialize {
        /// The field's type.
        type T;
        /// Sets `v` to the default `json`.
        fn set_default(&self, v: &mut Self::T, json: &str);
    }
    impl<T: serde::de::DeserializeOwned> DefaultByDeserialize for &Probe<T> {
        type T = T;
        fn set_default(&self, v: &mut T, json: &str) {
            if let Ok(d) = serde_json::from_str(json) {
                *v = d;
            }
        }
    }
    /// The fallback of [`DefaultByDeserialize`]: nothing.
    pub trait DefaultByNothing {
        /// The field's type.
        type T;
        /// Nothing.
        fn set_default(&self, v: &mut Self::T, json: &str);
    }
    impl<T> DefaultByNothing for Probe<T> {
        type T = T;
        fn set_default(&self, _: &mut T, _: &str) {}
    }

    /// The generated validation function of a type (upstream's `Validate_T`).
    pub trait TypeValidation: AsView {
        /// Whether the function can report anything.
        const HAS_VALIDATIONS: bool;
        /// Whether it can report declarative-native errors ([`crate::has_declarative_native`]).
        const DECLARATIVE_NATIVE: bool;
        /// `+k8s:isSubresource` paths the type accepts as a root (`/` by default).
        const SUBRESOURCES: &'static [&'static str];
        /// `pkg.Name` as a root's "no validation found" message prints it.
        const ROOT_NAME: &'static str;
        /// The type's OpenAPI v3 schema with its rules, as JSON text ([`crate::schema`]).
        const SCHEMA: &'static str;
        /// The rules the schema could not publish, each with why.
        const SCHEMA_NOTES: &'static [&'static str];

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
        if !T::SUBRESOURCES.iter().any(|s| op.subresource_is(s)) {
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
        validate_below(&root, v, old, op, out);
    }

    /// A value's validation below `path` (no root gate: the value is not a root).
    pub fn validate_below<T: TypeValidation, S: ErrorSink>(
        path: &PathRef<'_>,
        v: &T,
        old: Option<&T>,
        op: &Operation,
        out: &mut S,
    ) {
        if !T::HAS_VALIDATIONS {
            return;
        }
        let cx = Cx::new(op);
        T::validate_type(&cx, path, T::nilable(Some(v)), T::nilable(old), out);
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

    /// Selects, by the autoref rule of method lookup, how generated code treats a field type
    /// declared outside the deriving type's file: `(&&Probe::<T>::new()).method(..)` picks
    /// the impl for `&Probe<T>` when `T` has the trait it needs (a type deriving `Validate`
    /// in another module; `PartialEq`; `Serialize`), else the fallback for `Probe<T>` (an
    /// [`Opaque`] value: a type of another crate).
    pub struct Probe<T: ?Sized>(std::marker::PhantomData<fn() -> *const T>);

    impl<T: ?Sized> Probe<T> {
        /// The probe of `T`.
        #[inline(always)]
        pub const fn new() -> Self {
            Probe(std::marker::PhantomData)
        }
    }

    impl<T: ?Sized> Default for Probe<T> {
        fn default() -> Self {
            Self::new()
        }
    }

    /// Equality through `PartialEq`.
    pub trait EqByPartialEq {
        /// The compared type.
        type T;
        /// `==`.
        fn eq_fn(&self) -> fn(&Self::T, &Self::T) -> bool;
    }
    impl<T: PartialEq> EqByPartialEq for &Probe<T> {
        type T = T;
        #[inline(always)]
        fn eq_fn(&self) -> fn(&T, &T) -> bool {
            |a, b| a == b
        }
    }
    /// Equality without `PartialEq`: the same value only.
    pub trait EqByIdentity {
        /// The compared type.
        type T;
        /// Identity.
        fn eq_fn(&self) -> fn(&Self::T, &Self::T) -> bool;
    }
    impl<T> EqByIdentity for Probe<T> {
        type T = T;
        #[inline(always)]
        fn eq_fn(&self) -> fn(&T, &T) -> bool {
            |a, b| std::ptr::eq(a, b)
        }
    }

    /// JSON through `Serialize`.
    pub trait JsonBySerialize {
        /// The printed type.
        type T;
        /// `serde_json::to_value`.
        fn json_fn(&self) -> fn(&Self::T) -> serde_json::Value;
    }
    impl<T: serde::Serialize> JsonBySerialize for &Probe<T> {
        type T = T;
        #[inline(always)]
        fn json_fn(&self) -> fn(&T) -> serde_json::Value {
            |v| serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
        }
    }
    /// No JSON without `Serialize`: `null`.
    pub trait JsonByNothing {
        /// The printed type.
        type T;
        /// `null`.
        fn json_fn(&self) -> fn(&Self::T) -> serde_json::Value;
    }
    impl<T> JsonByNothing for Probe<T> {
        type T = T;
        #[inline(always)]
        fn json_fn(&self) -> fn(&T) -> serde_json::Value {
            |_| serde_json::Value::Null
        }
    }

    /// Views of a type that derives `Validate` (its own nilable view).
    pub trait ViewByDerive {
        /// The viewed type.
        type T;
        /// Its nilable view.
        type Out<'a>
        where
            Self::T: 'a;
        /// Its list view.
        type List<'a>
        where
            Self::T: 'a;
        /// The nilable view of `v`.
        fn nilable_view<'a>(
            &self,
            v: Option<&'a Self::T>,
            ops: OpaqueOps<Self::T>,
        ) -> Self::Out<'a>;
        /// The view of a list of such values.
        fn list_view<'a>(
            &self,
            v: Option<&'a Vec<Self::T>>,
            ops: OpaqueOps<Self::T>,
        ) -> Self::List<'a>;
        /// Calls the type's validation function.
        fn validate_ext<'a, S: ErrorSink>(
            &self,
            cx: &Cx<'_>,
            path: &PathRef<'_>,
            v: Self::Out<'a>,
            old: Self::Out<'a>,
            out: &mut S,
        );
    }
    impl<T: TypeValidation> ViewByDerive for &Probe<T> {
        type T = T;
        type Out<'a>
            = T::Nilable<'a>
        where
            T: 'a;
        type List<'a>
            = ListOf<'a, T>
        where
            T: 'a;
        #[inline(always)]
        fn nilable_view<'a>(&self, v: Option<&'a T>, _: OpaqueOps<T>) -> T::Nilable<'a> {
            T::nilable(v)
        }
        #[inline(always)]
        fn list_view<'a>(&self, v: Option<&'a Vec<T>>, _: OpaqueOps<T>) -> ListOf<'a, T> {
            <Vec<T> as AsView>::nilable(v)
        }
        #[inline(always)]
        fn validate_ext<'a, S: ErrorSink>(
            &self,
            cx: &Cx<'_>,
            path: &PathRef<'_>,
            v: T::Nilable<'a>,
            old: T::Nilable<'a>,
            out: &mut S,
        ) {
            if T::HAS_VALIDATIONS {
                T::validate_type(cx, path, v, old, out);
            }
        }
    }
    /// Views of a type kdv cannot see into ([`Opaque`]).
    pub trait ViewOpaque {
        /// The viewed type.
        type T;
        /// The nilable view of `v`.
        fn nilable_view<'a>(
            &self,
            v: Option<&'a Self::T>,
            ops: OpaqueOps<Self::T>,
        ) -> Opaque<'a, Self::T>;
        /// The view of a list of such values.
        fn list_view<'a>(
            &self,
            v: Option<&'a Vec<Self::T>>,
            ops: OpaqueOps<Self::T>,
        ) -> OpaqueList<'a, Self::T>;
        /// Nothing to validate.
        fn validate_ext<'a, S: ErrorSink>(
            &self,
            cx: &Cx<'_>,
            path: &PathRef<'_>,
            v: Opaque<'a, Self::T>,
            old: Opaque<'a, Self::T>,
            out: &mut S,
        );
    }
    impl<T> ViewOpaque for Probe<T> {
        type T = T;
        #[inline(always)]
        fn nilable_view<'a>(&self, v: Option<&'a T>, ops: OpaqueOps<T>) -> Opaque<'a, T> {
            Opaque { value: v, ops }
        }
        #[inline(always)]
        fn list_view<'a>(&self, v: Option<&'a Vec<T>>, ops: OpaqueOps<T>) -> OpaqueList<'a, T> {
            OpaqueList::new(v.map(Vec::as_slice), ops)
        }
        #[inline(always)]
        fn validate_ext<'a, S: ErrorSink>(
            &self,
            _: &Cx<'_>,
            _: &PathRef<'_>,
            _: Opaque<'a, T>,
            _: Opaque<'a, T>,
            _: &mut S,
        ) {
        }
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
