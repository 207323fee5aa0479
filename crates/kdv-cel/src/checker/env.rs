//! Declarations the checker resolves names against: variables, functions with overloads,
//! type identifiers, object types (through a [`TypeProvider`]) and the container.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

use crate::ast::Literal;
use crate::hash::FxHasher;
use crate::library::{Declarations, FunctionDecl, OverloadDecl, VariableDecl, environments};
use crate::parser::ParseOptions;
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

/// The hash a name is filed under in an [`Index`].
fn name_hash(name: &str) -> u64 {
    let mut h = FxHasher::default();
    h.write(name.as_bytes());
    // The multiply leaves the low bits weakest; the table indexes by them.
    h.finish().rotate_left(26)
}

/// Hasher for keys that already are hashes.
#[derive(Default, Clone, Copy)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = i;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type PrehashedMap<V> = HashMap<u64, V, BuildHasherDefault<Prehashed>>;

/// Where declarations with one name hash live: (library position, slot in that library), in
/// registration order. Different names may share a hash, so users compare names.
#[derive(Debug)]
struct Slots {
    first: (u32, u32),
    rest: Vec<(u32, u32)>,
}

impl Slots {
    fn iter(&self) -> impl DoubleEndedIterator<Item = (usize, usize)> + '_ {
        std::iter::once(&self.first)
            .chain(&self.rest)
            .map(|&(l, i)| (l as usize, i as usize))
    }
}

/// Every library's declarations in one table per kind, so resolving a name costs one lookup
/// instead of one per library. Built on first use, dropped when a library is added (the
/// application's own declarations are looked up separately: they change more often).
#[derive(Debug, Default)]
pub(crate) struct Index {
    functions: PrehashedMap<Slots>,
    variables: PrehashedMap<Slots>,
    homogeneous_exempt: Vec<String>,
}

impl Index {
    fn build(libraries: &[Arc<Declarations>]) -> Index {
        fn file(map: &mut PrehashedMap<Slots>, name: &str, at: (u32, u32)) {
            match map.entry(name_hash(name)) {
                std::collections::hash_map::Entry::Occupied(mut e) => e.get_mut().rest.push(at),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(Slots {
                        first: at,
                        rest: Vec::new(),
                    });
                }
            }
        }
        let mut index = Index::default();
        let (functions, variables) = libraries.iter().fold((0, 0), |(f, v), l| {
            (f + l.functions.len(), v + l.variables.len())
        });
        index.functions.reserve(functions);
        index.variables.reserve(variables);
        for (l, lib) in libraries.iter().enumerate() {
            for (i, f) in lib.functions.iter().enumerate() {
                file(&mut index.functions, &f.name, (l as u32, i as u32));
            }
            for (i, v) in lib.variables.iter().enumerate() {
                file(&mut index.variables, &v.name, (l as u32, i as u32));
            }
            for e in &lib.homogeneous_exempt {
                if !index.homogeneous_exempt.contains(e) {
                    index.homogeneous_exempt.push(e.clone());
                }
            }
        }
        index
    }
}

/// The outcome of resolving a call whose argument types are concrete (no type parameters)
/// and whose result type is concrete: it depends on nothing else in the environment than
/// the declarations and `cross_type_numeric_comparisons`, so checks of one environment share
/// it.
#[derive(Debug)]
pub(crate) struct Resolution {
    pub(crate) function: Box<str>,
    pub(crate) member: bool,
    pub(crate) cross_type: bool,
    pub(crate) args: Box<[Type]>,
    /// The call's type, `None` when no overload matches.
    pub(crate) result: Option<Type>,
    pub(crate) overload_ids: Vec<String>,
    /// Type variables the resolution used (cel-go numbers them across the check).
    pub(crate) fresh_vars: u32,
}

/// Resolutions shared by the checks of one environment, by [`Resolutions::key`].
#[derive(Debug, Default)]
pub(crate) struct Resolutions(Mutex<PrehashedMap<Vec<Arc<Resolution>>>>);

/// Resolutions kept per environment before the table is reset.
const RESOLUTIONS_CAPACITY: usize = 4096;

impl Resolutions {
    /// The hash `find` and `insert` take.
    pub(crate) fn key(function: &str, member: bool, cross_type: bool, args: &[Type]) -> u64 {
        use std::hash::Hash;
        let mut h = FxHasher::default();
        h.write(function.as_bytes());
        h.write_u8(u8::from(member) | (u8::from(cross_type) << 1));
        args.hash(&mut h);
        h.finish().rotate_left(26)
    }

    /// The resolution recorded for these inputs.
    pub(crate) fn find(
        &self,
        key: u64,
        function: &str,
        member: bool,
        cross_type: bool,
        args: &[Type],
    ) -> Option<Arc<Resolution>> {
        let map = self.0.lock().ok()?;
        map.get(&key)?
            .iter()
            .find(|r| {
                r.member == member
                    && r.cross_type == cross_type
                    && *r.function == *function
                    && *r.args == *args
            })
            .cloned()
    }

    /// Records a resolution.
    pub(crate) fn insert(&self, key: u64, resolution: Resolution) {
        if let Ok(mut map) = self.0.lock() {
            if map.len() >= RESOLUTIONS_CAPACITY {
                map.clear();
            }
            map.entry(key).or_default().push(Arc::new(resolution));
        }
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
        use crate::value::time::{Duration, Timestamp};
        let patterns = crate::library::regex::Verdicts::default();
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
                check: Arc::new(move |l| match l {
                    Literal::String(s) => patterns.validate(s),
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
    /// How [`compile`](super::compile) parses source for this environment: the macros its
    /// libraries bring, the optional and escaped-identifier syntax (cel-go takes its parser
    /// settings from the environment too).
    pub parse: ParseOptions,
}

/// The declarations and settings the checker works with. Cloning is cheap (libraries are
/// shared).
///
/// Checks of one environment share work: names are looked up in an index of all libraries
/// built on first use, and overload resolutions of calls whose argument types are concrete
/// are remembered (bounded; shared by clones, reset when functions are added), as are the
/// verdicts of the `matches` pattern validator. Results are the same as without them.
#[derive(Clone)]
pub struct Env {
    pub(crate) container: String,
    pub(crate) libraries: Vec<Arc<Declarations>>,
    /// The application's own declarations (checked after the libraries, overloads merged).
    pub(crate) own: Arc<Declarations>,
    pub(crate) provider: Option<Arc<dyn TypeProvider>>,
    /// Settings.
    pub options: CheckOptions,
    /// Lookup tables over `libraries`, built on first use.
    index: OnceLock<Arc<Index>>,
    /// Overload resolutions of this environment's checks (replaced when functions change).
    pub(crate) resolutions: Arc<Resolutions>,
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
static KUBERNETES_BASE: std::sync::LazyLock<Arc<Declarations>> = std::sync::LazyLock::new(|| {
    let mut lib = Declarations::new("kubernetes.base");
    for l in environments::kubernetes_base() {
        lib.merge(&l.declarations());
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
            libraries: vec![crate::library::standard::declarations()],
            own: Arc::new(Declarations::new("declarations")),
            provider: None,
            options: CheckOptions::default(),
            index: OnceLock::new(),
            resolutions: Arc::default(),
        }
    }

    /// An environment with no declarations at all.
    pub fn empty() -> Env {
        Env {
            container: String::new(),
            libraries: Vec::new(),
            own: Arc::new(Declarations::new("declarations")),
            provider: None,
            options: CheckOptions::default(),
            index: OnceLock::new(),
            resolutions: Arc::default(),
        }
    }

    /// Kubernetes' base CEL environment of the newest release (compile side): standard
    /// library, optional types, strings extension v2, lists extension v3, sets, two-variable
    /// comprehensions, cross-type numeric comparisons, homogeneous aggregate literals, the
    /// literal validators, and the parser settings of that release (no back-quoted
    /// identifiers). Kubernetes' own libraries (quantity, IP, ...) are added with
    /// [`Env::add_library`]; each release's environment is `kdv_cel::k8s::env_for`.
    pub fn kubernetes() -> Env {
        let mut env = Env::empty();
        env.add_library(KUBERNETES_BASE.clone());
        env.options.cross_type_numeric_comparisons = true;
        env.options.homogeneous_aggregate_literals = true;
        env.options.literal_validators = LiteralValidator::kubernetes();
        env.options.validate_format_strings = true;
        env.options.parse.enable_identifier_escape_syntax = false;
        env
    }

    /// Registers a library (its overloads merge with same-named functions already known).
    pub fn add_library(&mut self, library: Arc<Declarations>) -> &mut Env {
        self.libraries.push(library);
        self.index = OnceLock::new();
        self.resolutions = Arc::default();
        self
    }

    fn index(&self) -> &Index {
        self.index
            .get_or_init(|| Arc::new(Index::build(&self.libraries)))
    }

    /// Builds the name index now, so that clones share it.
    pub(crate) fn build_index(&self) {
        self.index();
    }

    /// A copy sharing this environment's declarations and name index but none of the overload
    /// resolutions its checks remembered (a new environment, as far as checks can tell).
    pub(crate) fn without_memo(&self) -> Env {
        Env {
            resolutions: Arc::default(),
            ..self.clone()
        }
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
        self.resolutions = Arc::default();
        self
    }

    /// The declared variable (or constant, or type identifier) with this exact name.
    pub fn find_variable(&self, name: &str) -> Option<&VariableDecl> {
        if let Some(v) = self.own.get_variable(name) {
            return Some(v);
        }
        // The last library declaring the name wins.
        self.index()
            .variables
            .get(&name_hash(name))?
            .iter()
            .rev()
            .map(|(l, i)| &self.libraries[l].variables[i])
            .find(|v| v.name == name)
    }

    /// The declarations of function `name`: libraries in registration order, then the
    /// application's.
    pub(crate) fn functions_named<'a>(
        &'a self,
        name: &'a str,
    ) -> impl Iterator<Item = &'a FunctionDecl> + 'a {
        self.index()
            .functions
            .get(&name_hash(name))
            .into_iter()
            .flat_map(Slots::iter)
            .map(|(l, i)| &self.libraries[l].functions[i])
            .filter(move |f| f.name == name)
            .chain(self.own.get_function(name))
    }

    /// Every function declared, library by library, then the environment's own (a name
    /// declared by several libraries appears once per library): what an editor offers to
    /// complete.
    pub fn functions(&self) -> impl Iterator<Item = &crate::library::FunctionDecl> {
        self.libraries
            .iter()
            .flat_map(|l| l.functions.iter())
            .chain(self.own.functions.iter())
    }

    /// Whether any declaration of function `name` exists.
    pub fn has_function(&self, name: &str) -> bool {
        self.functions_named(name).next().is_some()
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
        self.index()
            .homogeneous_exempt
            .iter()
            .chain(&self.own.homogeneous_exempt)
            .any(|f| f == function)
    }
}
