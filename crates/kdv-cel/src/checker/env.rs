//! Declarations the checker resolves names against: variables, functions with overloads,
//! type identifiers, object types (through a [`TypeProvider`]) and the container.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use crate::ast::Literal;
use crate::types::Type;

/// Supplies object (message) types: Kubernetes schema types, protobuf messages.
pub trait TypeProvider: Send + Sync {
    /// Whether `name` (fully qualified) names an object type.
    fn has_type(&self, name: &str) -> bool;

    /// The type of `field` of object type `type_name`, `None` when it has no such field.
    fn field_type(&self, type_name: &str, field: &str) -> Option<Type>;

    /// The CEL type a type name denotes; defaults to the object type when [`Self::has_type`].
    /// Providers of protobuf well-known types map e.g. `google.protobuf.Int64Value` to
    /// [`Type::wrapper`]`(int)`.
    fn find_type(&self, name: &str) -> Option<Type> {
        self.has_type(name).then(|| Type::Object(Arc::from(name)))
    }

    /// The value of an enum constant named by its fully qualified name.
    fn enum_value(&self, _name: &str) -> Option<i64> {
        None
    }
}

/// A declared variable or constant.
#[derive(Debug, Clone, PartialEq)]
pub struct VariableDecl {
    /// Fully qualified name.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// The value of a constant (enum values, type identifiers have none).
    pub value: Option<Literal>,
}

/// One signature of a function.
#[derive(Debug, Clone, PartialEq)]
pub struct OverloadDecl {
    /// Overload id (`add_int64`, `string_size`, ...), what the runtime dispatches on.
    pub id: Arc<str>,
    /// Parameter types; for member overloads the first is the receiver.
    pub params: Vec<Type>,
    /// Result type.
    pub result: Type,
    /// Names of the type parameters used in `params`/`result` (`A` in `list(A)`).
    pub type_params: Vec<Arc<str>>,
    /// Called as `receiver.f(args)` rather than `f(args)`.
    pub member: bool,
}

impl OverloadDecl {
    /// A global overload; type parameters are collected from the signature.
    pub fn global(id: &str, params: Vec<Type>, result: Type) -> OverloadDecl {
        OverloadDecl::new(id, params, result, false)
    }

    /// A member (receiver-style) overload; `params[0]` is the receiver.
    pub fn member(id: &str, params: Vec<Type>, result: Type) -> OverloadDecl {
        OverloadDecl::new(id, params, result, true)
    }

    fn new(id: &str, params: Vec<Type>, result: Type, member: bool) -> OverloadDecl {
        let mut type_params = Vec::new();
        for t in params.iter().chain(std::iter::once(&result)) {
            collect_params(t, &mut type_params);
        }
        OverloadDecl {
            id: Arc::from(id),
            params,
            result,
            type_params,
            member,
        }
    }
}

fn collect_params(t: &Type, out: &mut Vec<Arc<str>>) {
    match t {
        Type::Param(n) if !out.contains(n) => out.push(n.clone()),
        Type::List(e) | Type::Optional(e) | Type::Type(e) => collect_params(e, out),
        Type::Map(k, v) => {
            collect_params(k, out);
            collect_params(v, out);
        }
        Type::Opaque(_, ps) => ps.iter().for_each(|p| collect_params(p, out)),
        _ => {}
    }
}

/// A function with its overloads.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionDecl {
    /// Fully qualified name (`size`, `_+_`, `sets.contains`).
    pub name: String,
    /// Overloads in declaration order (the order of ids in references).
    pub overloads: Vec<OverloadDecl>,
}

/// A set of declarations registered together (the standard library, an extension library,
/// a Kubernetes library, an application's own declarations).
#[derive(Debug, Clone, Default)]
pub struct Library {
    /// Name, for diagnostics (`cel.lib.std`, `cel.lib.ext.strings`, ...).
    pub name: String,
    functions: FastMap<String, FunctionDecl>,
    variables: FastMap<String, VariableDecl>,
    /// Function names whose aggregate literal arguments skip the homogeneity check.
    pub homogeneous_exempt: Vec<String>,
}

impl Library {
    /// An empty library.
    pub fn new(name: impl Into<String>) -> Library {
        Library {
            name: name.into(),
            ..Library::default()
        }
    }

    /// Adds overloads to function `name` (created on first use; overloads append in order).
    pub fn function(&mut self, name: &str, overloads: Vec<OverloadDecl>) -> &mut Library {
        let f = self
            .functions
            .entry(name.to_string())
            .or_insert_with(|| FunctionDecl {
                name: name.to_string(),
                overloads: Vec::new(),
            });
        f.overloads.extend(overloads);
        self
    }

    /// Declares a variable.
    pub fn variable(&mut self, name: &str, ty: Type) -> &mut Library {
        self.variables.insert(
            name.to_string(),
            VariableDecl {
                name: name.to_string(),
                ty,
                value: None,
            },
        );
        self
    }

    /// Declares a constant.
    pub fn constant(&mut self, name: &str, ty: Type, value: Literal) -> &mut Library {
        self.variables.insert(
            name.to_string(),
            VariableDecl {
                name: name.to_string(),
                ty,
                value: Some(value),
            },
        );
        self
    }

    /// Declares a type identifier: `name` evaluates to the type value of `ty` (`int`,
    /// `net.IP`, `optional_type`).
    pub fn type_ident(&mut self, name: &str, ty: Type) -> &mut Library {
        self.variable(name, Type::Type(Box::new(ty)))
    }

    /// Adds everything `other` declares (overloads append after existing ones, as when both
    /// libraries are registered in this order).
    pub fn merge(&mut self, other: &Library) -> &mut Library {
        for f in other.functions.values() {
            self.function(&f.name, f.overloads.clone());
        }
        for v in other.variables.values() {
            self.variables.insert(v.name.clone(), v.clone());
        }
        for e in &other.homogeneous_exempt {
            if !self.homogeneous_exempt.contains(e) {
                self.homogeneous_exempt.push(e.clone());
            }
        }
        self
    }

    /// The function named `name`, if declared here.
    pub fn get_function(&self, name: &str) -> Option<&FunctionDecl> {
        self.functions.get(name)
    }

    /// The variable named `name`, if declared here.
    pub fn get_variable(&self, name: &str) -> Option<&VariableDecl> {
        self.variables.get(name)
    }

    /// All functions (unordered).
    pub fn functions(&self) -> impl Iterator<Item = &FunctionDecl> {
        self.functions.values()
    }

    /// All variables (unordered).
    pub fn variables(&self) -> impl Iterator<Item = &VariableDecl> {
        self.variables.values()
    }
}

/// Declaration tables are looked up on every name the checker resolves: a multiplicative hash
/// (FxHash) is several times faster than SipHash on short names and the keys are not
/// attacker-chosen (they are the declarations' own names).
type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0xf135_7aea_2e62_a9c5;
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
        self.0 = h;
    }

    fn write_u8(&mut self, i: u8) {
        self.write(&[i]);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A literal argument check run after type checking (cel-go's `formatValidator`s:
/// `duration('...')`, `timestamp('...')`, `matches('...')`).
#[derive(Clone)]
pub struct LiteralValidator {
    /// Function name the check applies to.
    pub function: String,
    /// Index of the checked argument (receivers are not counted).
    pub arg_index: usize,
    /// True when the literal is acceptable.
    pub check: Arc<dyn Fn(&Literal) -> bool + Send + Sync>,
}

impl LiteralValidator {
    /// The validators Kubernetes enables (1.29+): `duration('...')` must parse as a Go
    /// duration, `timestamp(...)` as an RFC 3339 time (or Unix seconds) in range, and the
    /// pattern of `matches` as a Go regular expression.
    pub fn kubernetes() -> Vec<LiteralValidator> {
        use crate::stdlib::time::{Duration, Timestamp};
        vec![
            LiteralValidator {
                function: "duration".to_string(),
                arg_index: 0,
                check: Arc::new(|l| match l {
                    Literal::String(s) => Duration::parse(s).is_some(),
                    _ => true,
                }),
            },
            LiteralValidator {
                function: "timestamp".to_string(),
                arg_index: 0,
                check: Arc::new(|l| match l {
                    Literal::String(s) => Timestamp::parse_rfc3339(s).is_ok(),
                    Literal::Int(secs) => Timestamp::from_unix(*secs, 0).is_some(),
                    _ => true,
                }),
            },
            LiteralValidator {
                function: "matches".to_string(),
                arg_index: 0,
                check: Arc::new(|l| match l {
                    Literal::String(s) => crate::stdlib::regex::validate(s),
                    _ => true,
                }),
            },
        ]
    }
}

impl fmt::Debug for LiteralValidator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LiteralValidator")
            .field("function", &self.function)
            .field("arg_index", &self.arg_index)
            .finish()
    }
}

/// Checker behaviour switches.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// Mixed numeric comparisons (`1 < 2.0`) type-check (cel-go
    /// `CrossTypeNumericComparisons`; Kubernetes 1.28+).
    pub cross_type_numeric_comparisons: bool,
    /// List and map literals must have one element (key, value) type (cel-go
    /// `HomogeneousAggregateLiterals`; Kubernetes).
    pub homogeneous_aggregate_literals: bool,
    /// Literal argument checks, reported as `invalid <function> argument`.
    pub literal_validators: Vec<LiteralValidator>,
    /// Check `'<literal>'.format([<list literal>])` clauses against the argument types
    /// (the validator of cel-go's strings extension versions 1 to 3; Kubernetes).
    pub validate_format_strings: bool,
}

/// The declarations and settings the checker works with. Cloning is cheap (libraries are
/// shared).
#[derive(Clone)]
pub struct Env {
    pub(crate) container: String,
    pub(crate) libraries: Vec<Arc<Library>>,
    /// The application's own declarations (checked after the libraries, overloads merged).
    pub(crate) own: Arc<Library>,
    pub(crate) provider: Option<Arc<dyn TypeProvider>>,
    /// Settings.
    pub options: CheckOptions,
}

impl fmt::Debug for Env {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Env")
            .field("container", &self.container)
            .field(
                "libraries",
                &self
                    .libraries
                    .iter()
                    .map(|l| l.name.as_str())
                    .collect::<Vec<_>>(),
            )
            .field("options", &self.options)
            .finish()
    }
}

/// The libraries of [`Env::kubernetes`] merged into one table (one lookup per name instead of
/// one per library).
static KUBERNETES_BASE: std::sync::LazyLock<Arc<Library>> = std::sync::LazyLock::new(|| {
    let mut lib = Library::new("kubernetes.base");
    for l in [
        super::stdlib::standard(),
        super::ext::optional(u32::MAX),
        super::ext::strings(2),
        super::ext::lists(3),
        super::ext::sets(),
        super::ext::two_var_comprehensions(),
    ] {
        lib.merge(&l);
    }
    Arc::new(lib)
});

impl Default for Env {
    fn default() -> Env {
        Env::new()
    }
}

impl Env {
    /// The standard library only.
    pub fn new() -> Env {
        Env {
            container: String::new(),
            libraries: vec![super::stdlib::standard()],
            own: Arc::new(Library::new("declarations")),
            provider: None,
            options: CheckOptions::default(),
        }
    }

    /// An environment with no declarations at all.
    pub fn empty() -> Env {
        Env {
            container: String::new(),
            libraries: Vec::new(),
            own: Arc::new(Library::new("declarations")),
            provider: None,
            options: CheckOptions::default(),
        }
    }

    /// Kubernetes' base CEL environment (compile side): standard library, optional types,
    /// strings extension v2, lists extension v3, sets, two-variable comprehensions,
    /// cross-type numeric comparisons and homogeneous aggregate literals. Kubernetes'
    /// own libraries (quantity, IP, ...) are added with [`Env::add_library`].
    pub fn kubernetes() -> Env {
        let mut env = Env::empty();
        env.add_library(KUBERNETES_BASE.clone());
        env.options.cross_type_numeric_comparisons = true;
        env.options.homogeneous_aggregate_literals = true;
        env.options.literal_validators = LiteralValidator::kubernetes();
        env.options.validate_format_strings = true;
        env
    }

    /// Registers a library (its overloads merge with same-named functions already known).
    pub fn add_library(&mut self, library: Arc<Library>) -> &mut Env {
        self.libraries.push(library);
        self
    }

    /// Sets the container (namespace) used to resolve names.
    pub fn set_container(&mut self, container: impl Into<String>) -> &mut Env {
        self.container = container.into();
        self
    }

    /// The container.
    pub fn container(&self) -> &str {
        &self.container
    }

    /// Sets the provider of object types.
    pub fn set_provider(&mut self, provider: Arc<dyn TypeProvider>) -> &mut Env {
        self.provider = Some(provider);
        self
    }

    /// Declares a variable.
    pub fn add_variable(&mut self, name: &str, ty: Type) -> &mut Env {
        Arc::make_mut(&mut self.own).variable(name, ty);
        self
    }

    /// Declares a constant.
    pub fn add_constant(&mut self, name: &str, ty: Type, value: Literal) -> &mut Env {
        Arc::make_mut(&mut self.own).constant(name, ty, value);
        self
    }

    /// Declares (overloads of) a function.
    pub fn add_function(&mut self, name: &str, overloads: Vec<OverloadDecl>) -> &mut Env {
        Arc::make_mut(&mut self.own).function(name, overloads);
        self
    }

    /// The declared variable (or constant, or type identifier) with this exact name.
    pub fn find_variable(&self, name: &str) -> Option<&VariableDecl> {
        if let Some(v) = self.own.get_variable(name) {
            return Some(v);
        }
        self.libraries
            .iter()
            .rev()
            .find_map(|l| l.get_variable(name))
    }

    /// Calls `f` with each declaration of function `name` (libraries in registration order,
    /// then the application's); false when there is none.
    pub(crate) fn for_each_function<'a>(
        &'a self,
        name: &str,
        mut f: impl FnMut(&'a FunctionDecl),
    ) -> bool {
        let mut found = false;
        for l in self.libraries.iter().chain(std::iter::once(&self.own)) {
            if let Some(d) = l.get_function(name) {
                found = true;
                f(d);
            }
        }
        found
    }

    /// Whether any declaration of function `name` exists.
    pub fn has_function(&self, name: &str) -> bool {
        self.for_each_function(name, |_| {})
    }

    /// The object type provider.
    pub fn provider(&self) -> Option<&Arc<dyn TypeProvider>> {
        self.provider.as_ref()
    }

    /// Candidate fully qualified names for `name` in the container (cel-go
    /// `ResolveCandidateNames`): most qualified first; a leading dot means root scope only.
    pub fn candidate_names(&self, name: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.find_candidate(name, |c| {
            out.push(c.to_string());
            None::<()>
        });
        out
    }

    /// The first candidate name (see [`Env::candidate_names`]) for which `f` finds something.
    pub fn find_candidate<T>(&self, name: &str, mut f: impl FnMut(&str) -> Option<T>) -> Option<T> {
        if let Some(root) = name.strip_prefix('.') {
            return f(root);
        }
        if self.container.is_empty() {
            return f(name);
        }
        let mut prefix = self.container.as_str();
        let mut buf = String::with_capacity(prefix.len() + name.len() + 1);
        loop {
            buf.clear();
            buf.push_str(prefix);
            buf.push('.');
            buf.push_str(name);
            if let Some(v) = f(&buf) {
                return Some(v);
            }
            match prefix.rfind('.') {
                Some(i) => prefix = &prefix[..i],
                None => break,
            }
        }
        f(name)
    }

    /// Whether calls to `function` exempt their aggregate literal arguments from the
    /// homogeneity check.
    pub(crate) fn is_homogeneity_exempt(&self, function: &str) -> bool {
        self.libraries
            .iter()
            .chain(std::iter::once(&self.own))
            .any(|l| l.homogeneous_exempt.iter().any(|f| f == function))
    }
}
