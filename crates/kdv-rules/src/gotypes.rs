//! The resolved Go type graph, as gengo presents it to upstream's validators: named types are
//! either structs (with members, copied through `type X OtherStruct`) or type definitions
//! whose underlying type is a type *literal* (the one-deep typedef rule, spec §2.2); true
//! aliases (`type X = Y`) are transparent.

use std::collections::HashMap;

use kdv_model::{
    Builtin, ConstDecl, Field, NamedRef, Package, StructType, TypeDecl, TypeRef, Universe,
};

/// Index into [`Graph::named`].
pub(crate) type NamedIdx = usize;

/// Index into [`Graph::anon`].
pub(crate) type AnonIdx = usize;

/// Depth limit for resolving chains of aliases and typedefs (input can be cyclic).
const MAX_RESOLVE_DEPTH: usize = 64;

/// A resolved type reference.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Ty {
    Builtin(Builtin),
    /// A named struct or typedef in the universe.
    Named(NamedIdx),
    /// A named type the universe does not contain (another module): never descended.
    Foreign {
        package: String,
        name: String,
    },
    Pointer(Box<Ty>),
    Slice(Box<Ty>),
    Array(Box<Ty>),
    Map(Box<Ty>, Box<Ty>),
    /// An anonymous struct literal.
    Struct(AnonIdx),
    Interface,
    /// A type kdv cannot validate, and why.
    Unsupported(Unsupported),
}

/// Why a type cannot be validated (the message says it in kdv's terms).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Unsupported {
    /// A kind validation-gen does not support (`chan`, `func`), as the frontend names it.
    Kind(String),
    /// An instantiation of a generic type (`pkg/path.Name`).
    Generic(String),
    /// `type A = B; type B = A`: the aliases in order, the first repeated at the end.
    AliasCycle(Vec<String>),
    /// `type A B; type B A` (invalid Go): the definitions in order, the first repeated.
    DefinitionCycle(Vec<String>),
    /// Definitions or type literals nested deeper than kdv resolves.
    TooDeep,
    /// A package kdv read from source declares no type of that name.
    Undefined {
        /// Import path of the package.
        package: String,
        /// The type name.
        name: String,
    },
}

impl Unsupported {
    /// How the type reads in messages.
    fn type_string(&self) -> String {
        match self {
            Unsupported::Kind(k) => k.clone(),
            Unsupported::Generic(name) => format!("{name}[...]"),
            Unsupported::AliasCycle(path) | Unsupported::DefinitionCycle(path) => {
                path.first().cloned().unwrap_or_default()
            }
            Unsupported::TooDeep => "(nested too deeply)".to_string(),
            Unsupported::Undefined { package, name } => format!("{package}.{name}"),
        }
    }

    /// What is wrong, for `field X (T): <message>`.
    pub(crate) fn message(&self) -> String {
        match self {
            // Upstream's text (`verifySupportedType`), with gengo's capitalised kind.
            Unsupported::Kind(k) => {
                let mut kind = k.clone();
                if let Some(first) = kind.get_mut(0..1) {
                    first.make_ascii_uppercase();
                }
                format!("kind {kind} is not supported")
            }
            Unsupported::Generic(name) => format!(
                "generic type {name} is not supported by kdv: declarative validation types must be concrete"
            ),
            Unsupported::AliasCycle(path) => format!("type alias cycle: {}", path.join(" -> ")),
            Unsupported::DefinitionCycle(path) => {
                format!("invalid recursive type definition: {}", path.join(" -> "))
            }
            Unsupported::TooDeep => format!(
                "type definitions and literals nest more than {MAX_RESOLVE_DEPTH} levels deep"
            ),
            Unsupported::Undefined { package, name } => format!(
                "undefined type {name}: package {package} declares no type {name} (is it declared in a file kdv skips, such as a _test.go file or one excluded by build constraints?)"
            ),
        }
    }
}

/// gengo's type kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Builtin,
    Struct,
    /// A type definition of a non-struct type (gengo "Alias").
    Alias,
    Pointer,
    Slice,
    Array,
    Map,
    Interface,
    Unsupported,
    /// A named type of unknown kind from outside the universe.
    Foreign,
}

impl Kind {
    /// gengo's spelling of the kind (used in error messages).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Builtin => "Builtin",
            Kind::Struct => "Struct",
            Kind::Alias => "Alias",
            Kind::Pointer => "Pointer",
            Kind::Slice => "Slice",
            Kind::Array => "Array",
            Kind::Map => "Map",
            Kind::Interface => "Interface",
            Kind::Unsupported => "Unsupported",
            Kind::Foreign => "Struct",
        }
    }
}

/// One struct member with where it was declared (for diagnostics).
#[derive(Debug, Clone)]
pub(crate) struct Member<'u> {
    pub field: &'u Field,
    /// The package whose source declares the member (differs from the struct's package for
    /// `type X other.Struct` copies).
    pub pkg: &'u Package,
    pub ty: Ty,
}

impl Member<'_> {
    /// Go field name.
    pub(crate) fn name(&self) -> &str {
        &self.field.name
    }

    /// Upstream's JSON name (empty when none).
    pub(crate) fn json_name(&self) -> &str {
        self.field.json_name().unwrap_or("")
    }

    /// Exported (first rune upper case).
    pub(crate) fn is_exported(&self) -> bool {
        self.field.is_exported()
    }
}

/// What a named type is.
#[derive(Debug, Clone)]
pub(crate) enum NamedKind<'u> {
    Struct(Vec<Member<'u>>),
    Alias(Ty),
}

/// A named type of the universe.
#[derive(Debug, Clone)]
pub(crate) struct Named<'u> {
    pub pkg: &'u Package,
    pub decl: &'u TypeDecl,
    pub kind: NamedKind<'u>,
}

impl Named<'_> {
    /// `pkg/path.Name`, gengo's `Name.String()`.
    pub(crate) fn qualified(&self) -> String {
        format!("{}.{}", self.pkg.path, self.decl.name)
    }
}

/// An anonymous struct literal.
#[derive(Debug, Clone)]
pub(crate) struct Anon<'u> {
    pub members: Vec<Member<'u>>,
}

/// A constant with its resolved type.
#[derive(Debug, Clone)]
pub(crate) struct Const<'u> {
    pub pkg: &'u Package,
    pub decl: &'u ConstDecl,
    pub ty: Option<Ty>,
}

/// The resolved graph of all named types of a universe.
pub(crate) struct Graph<'u> {
    pub named: Vec<Named<'u>>,
    pub anon: Vec<Anon<'u>>,
    /// All constants of all packages, package by package in declaration order.
    pub consts: Vec<Const<'u>>,
    index: HashMap<(&'u str, &'u str), NamedIdx>,
    /// Per struct (named: `(false, idx)`, anonymous: `(true, idx)`), its members by JSON
    /// name (the first member of each name; owned keys keep the graph covariant), built on
    /// the first lookup in a large struct:
    /// tags name members (list-map keys, union members, subfields) once each, so a linear
    /// search per lookup would be quadratic in the struct's size.
    json_index: std::cell::RefCell<HashMap<(bool, usize), HashMap<String, usize>>>,
    /// Import paths of the packages not read from a directory: kdv's built-in (partial)
    /// declarations of well-known packages.
    pub built_in: std::collections::HashSet<String>,
}

/// Structs with at most this many members are searched linearly by JSON name.
const LINEAR_MEMBER_SEARCH: usize = 16;

enum State<'u> {
    Todo,
    InProgress,
    Done(NamedKind<'u>),
}

impl<'u> Graph<'u> {
    /// Resolves every named type of every package.
    pub(crate) fn build(universe: &'u Universe) -> Graph<'u> {
        let mut index = HashMap::new();
        let mut decls: Vec<(&'u Package, &'u TypeDecl)> = Vec::new();
        for pkg in universe.packages.values() {
            for decl in &pkg.types {
                if decl.is_alias || decl.is_generic {
                    continue;
                }
                index.insert((pkg.path.as_str(), decl.name.as_str()), decls.len());
                decls.push((pkg, decl));
            }
        }
        let mut b = Builder {
            universe,
            index: &index,
            decls: &decls,
            states: decls.iter().map(|_| State::Todo).collect(),
            anon: Vec::new(),
            def_stack: Vec::new(),
            alias_stack: Vec::new(),
        };
        for i in 0..decls.len() {
            // A failure is recorded in the type's state (as an unsupported typedef).
            let _ = b.kind_of(i, 0);
        }
        let mut consts = Vec::new();
        for pkg in universe.packages.values() {
            for decl in &pkg.consts {
                let ty = decl.ty.as_ref().map(|r| b.resolve(pkg, r, 0));
                consts.push(Const { pkg, decl, ty });
            }
        }
        let Builder { states, anon, .. } = b;
        let named = decls
            .iter()
            .zip(states)
            .map(|(&(pkg, decl), st)| Named {
                pkg,
                decl,
                kind: match st {
                    State::Done(k) => k,
                    // Cycles (`type A B; type B A`) are invalid Go; keep them inert.
                    _ => NamedKind::Alias(Ty::Unsupported(Unsupported::DefinitionCycle(vec![
                        format!("{}.{}", pkg.path, decl.name),
                    ]))),
                },
            })
            .collect();
        Graph {
            named,
            anon,
            consts,
            index,
            json_index: std::cell::RefCell::new(HashMap::new()),
            built_in: universe
                .packages
                .iter()
                .filter(|(_, p)| p.dir.is_none())
                .map(|(path, _)| path.clone())
                .collect(),
        }
    }

    /// Looks up a named type.
    pub(crate) fn lookup(&self, package: &str, name: &str) -> Option<NamedIdx> {
        self.index.get(&(package, name)).copied()
    }

    /// gengo kind of a type.
    pub(crate) fn kind(&self, t: &Ty) -> Kind {
        match t {
            Ty::Builtin(_) => Kind::Builtin,
            Ty::Named(i) => match self.named[*i].kind {
                NamedKind::Struct(_) => Kind::Struct,
                NamedKind::Alias(_) => Kind::Alias,
            },
            Ty::Foreign { .. } => Kind::Foreign,
            Ty::Pointer(_) => Kind::Pointer,
            Ty::Slice(_) => Kind::Slice,
            Ty::Array(_) => Kind::Array,
            Ty::Map(..) => Kind::Map,
            Ty::Struct(_) => Kind::Struct,
            Ty::Interface => Kind::Interface,
            Ty::Unsupported(_) => Kind::Unsupported,
        }
    }

    /// `NativeType`: strips typedef layers, keeping pointer depth.
    pub(crate) fn native(&self, t: &Ty) -> Ty {
        let mut depth = 0;
        let mut ptrs = 0;
        let mut cur = t.clone();
        loop {
            depth += 1;
            if depth > MAX_RESOLVE_DEPTH {
                break;
            }
            match cur {
                Ty::Named(i) => match &self.named[i].kind {
                    NamedKind::Alias(u) => cur = u.clone(),
                    NamedKind::Struct(_) => break,
                },
                Ty::Pointer(e) => {
                    ptrs += 1;
                    cur = *e;
                }
                _ => break,
            }
        }
        for _ in 0..ptrs {
            cur = Ty::Pointer(Box::new(cur));
        }
        cur
    }

    /// `NonPointer`: strips pointers.
    pub(crate) fn non_pointer<'t>(&self, mut t: &'t Ty) -> &'t Ty {
        while let Ty::Pointer(e) = t {
            t = e;
        }
        t
    }

    /// `NonPointer(NativeType(t))`.
    pub(crate) fn base(&self, t: &Ty) -> Ty {
        self.non_pointer(&self.native(t)).clone()
    }

    /// Whether the type is nilable (pointer, map, slice, interface after typedefs).
    pub(crate) fn is_nilable(&self, t: &Ty) -> bool {
        matches!(
            self.kind(&self.native(t)),
            Kind::Pointer | Kind::Map | Kind::Slice | Kind::Interface
        )
    }

    /// Whether `==` is safe (no pointers, slices, maps, interfaces anywhere).
    pub(crate) fn is_direct_comparable(&self, t: &Ty) -> bool {
        self.direct_comparable(t, 0)
    }

    fn direct_comparable(&self, t: &Ty, depth: usize) -> bool {
        if depth > MAX_RESOLVE_DEPTH {
            return false;
        }
        match t {
            Ty::Builtin(_) => true,
            Ty::Named(i) => match &self.named[*i].kind {
                NamedKind::Struct(members) => members
                    .iter()
                    .all(|m| self.direct_comparable(&m.ty, depth + 1)),
                NamedKind::Alias(u) => self.direct_comparable(u, depth + 1),
            },
            Ty::Struct(a) => self.anon[*a]
                .members
                .iter()
                .all(|m| self.direct_comparable(&m.ty, depth + 1)),
            Ty::Array(e) => self.direct_comparable(e, depth + 1),
            _ => false,
        }
    }

    /// Struct members of a (native) struct type.
    pub(crate) fn members(&self, t: &Ty) -> Option<&[Member<'u>]> {
        match t {
            Ty::Named(i) => match &self.named[*i].kind {
                NamedKind::Struct(m) => Some(m),
                NamedKind::Alias(_) => None,
            },
            Ty::Struct(a) => Some(&self.anon[*a].members),
            _ => None,
        }
    }

    /// The member with the given upstream JSON name (`util.GetMemberByJSON`).
    pub(crate) fn member_by_json(&self, t: &Ty, json: &str) -> Option<&Member<'u>> {
        let members = self.members(t)?;
        let key = match t {
            _ if members.len() <= LINEAR_MEMBER_SEARCH => None,
            Ty::Named(i) => Some((false, *i)),
            Ty::Struct(a) => Some((true, *a)),
            _ => None,
        };
        let Some(key) = key else {
            return members.iter().find(|m| m.json_name() == json);
        };
        let mut cache = self.json_index.borrow_mut();
        let index = cache.entry(key).or_insert_with(|| {
            let mut index = HashMap::with_capacity(members.len());
            for (i, m) in members.iter().enumerate() {
                index.entry(m.json_name().to_string()).or_insert(i);
            }
            index
        });
        index.get(json).map(|&i| &members[i])
    }

    /// gengo's `Type.String()`.
    pub(crate) fn type_string(&self, t: &Ty) -> String {
        match t {
            Ty::Builtin(b) => builtin_name(*b).to_string(),
            Ty::Named(i) => self.named[*i].qualified(),
            Ty::Foreign { package, name } => {
                if package.is_empty() {
                    name.clone()
                } else {
                    format!("{package}.{name}")
                }
            }
            Ty::Pointer(e) => format!("*{}", self.type_string(e)),
            Ty::Slice(e) => format!("[]{}", self.type_string(e)),
            Ty::Array(e) => format!("[]{}", self.type_string(e)),
            Ty::Map(k, v) => format!("map[{}]{}", self.type_string(k), self.type_string(v)),
            Ty::Struct(_) => "struct{...}".to_string(),
            Ty::Interface => "interface{}".to_string(),
            Ty::Unsupported(u) => u.type_string(),
        }
    }

    /// The type as written in the generated package for the package `from` (the runtime path
    /// segment of an inline embedded field of a root object, §2.4).
    pub(crate) fn local_type_string(&self, t: &Ty, from: &str) -> String {
        match t {
            Ty::Pointer(e) => self.local_type_string(e, from),
            Ty::Named(i) => {
                let n = &self.named[*i];
                if n.pkg.path == from {
                    n.decl.name.clone()
                } else {
                    format!("{}.{}", n.pkg.name, n.decl.name)
                }
            }
            Ty::Foreign { package, name } => {
                let short = package.rsplit('/').next().unwrap_or(package);
                if short.is_empty() {
                    name.clone()
                } else {
                    format!("{short}.{name}")
                }
            }
            other => self.type_string(other),
        }
    }
}

/// gengo's builtin names: `int8`, `uint8` and `byte` are one builtin, `byte`; `rune` is
/// `int32`.
pub(crate) fn builtin_name(b: Builtin) -> &'static str {
    match b {
        Builtin::Int8 | Builtin::Uint8 | Builtin::Byte => "byte",
        Builtin::Rune => "int32",
        other => other.name(),
    }
}

struct Builder<'u, 'a> {
    universe: &'u Universe,
    index: &'a HashMap<(&'u str, &'u str), NamedIdx>,
    decls: &'a [(&'u Package, &'u TypeDecl)],
    states: Vec<State<'u>>,
    anon: Vec<Anon<'u>>,
    /// The definitions being resolved, outermost first (to name a cycle).
    def_stack: Vec<NamedIdx>,
    /// The aliases being resolved, outermost first (to name a cycle).
    alias_stack: Vec<(&'u str, &'u str)>,
}

impl<'u> Builder<'u, '_> {
    /// The kind of named type `i`; `Err` when its definition cannot be resolved (a cycle of
    /// definitions, or too deep).
    fn kind_of(&mut self, i: NamedIdx, depth: usize) -> Result<NamedKind<'u>, Unsupported> {
        match self.states.get(i) {
            Some(State::Done(k)) => return Ok(k.clone()),
            Some(State::InProgress) => {
                // The definitions from `i` on form the cycle.
                let from = self.def_stack.iter().position(|&d| d == i).unwrap_or(0);
                let mut path: Vec<String> = self.def_stack[from..]
                    .iter()
                    .map(|&d| self.qualified(d))
                    .collect();
                path.push(self.qualified(i));
                return Err(Unsupported::DefinitionCycle(path));
            }
            None => return Err(Unsupported::TooDeep),
            Some(State::Todo) => {}
        }
        if depth > MAX_RESOLVE_DEPTH {
            return Err(Unsupported::TooDeep);
        }
        self.states[i] = State::InProgress;
        self.def_stack.push(i);
        let (pkg, decl) = self.decls[i];
        let def = self.resolve(pkg, &decl.def, depth + 1);
        let kind = match def {
            Ty::Struct(a) => NamedKind::Struct(self.anon[a].members.clone()),
            Ty::Named(j) => match self.kind_of(j, depth + 1) {
                Ok(NamedKind::Struct(m)) => NamedKind::Struct(m),
                Ok(NamedKind::Alias(u)) => NamedKind::Alias(u),
                Err(why) => NamedKind::Alias(Ty::Unsupported(why)),
            },
            other => NamedKind::Alias(other),
        };
        self.def_stack.pop();
        self.states[i] = State::Done(kind.clone());
        Ok(kind)
    }

    fn qualified(&self, i: NamedIdx) -> String {
        let (pkg, decl) = self.decls[i];
        format!("{}.{}", pkg.path, decl.name)
    }

    fn resolve(&mut self, pkg: &'u Package, r: &'u TypeRef, depth: usize) -> Ty {
        if depth > MAX_RESOLVE_DEPTH {
            return Ty::Unsupported(Unsupported::TooDeep);
        }
        match r {
            TypeRef::Builtin(Builtin::Any | Builtin::Error) => Ty::Interface,
            TypeRef::Builtin(b) => Ty::Builtin(*b),
            TypeRef::Named(n) => self.resolve_named(n, depth),
            TypeRef::Pointer(e) => Ty::Pointer(Box::new(self.resolve(pkg, e, depth + 1))),
            TypeRef::Slice(e) => Ty::Slice(Box::new(self.resolve(pkg, e, depth + 1))),
            TypeRef::Array { elem, .. } => Ty::Array(Box::new(self.resolve(pkg, elem, depth + 1))),
            TypeRef::Map { key, value } => Ty::Map(
                Box::new(self.resolve(pkg, key, depth + 1)),
                Box::new(self.resolve(pkg, value, depth + 1)),
            ),
            TypeRef::Struct(st) => self.anon_struct(pkg, st, depth),
            TypeRef::Interface => Ty::Interface,
            TypeRef::Unsupported(s) => Ty::Unsupported(Unsupported::Kind(s.clone())),
        }
    }

    fn anon_struct(&mut self, pkg: &'u Package, st: &'u StructType, depth: usize) -> Ty {
        let members = st
            .fields
            .iter()
            .map(|f| Member {
                field: f,
                pkg,
                ty: self.resolve(pkg, &f.ty, depth + 1),
            })
            .collect();
        self.anon.push(Anon { members });
        Ty::Struct(self.anon.len() - 1)
    }

    fn resolve_named(&mut self, n: &'u NamedRef, depth: usize) -> Ty {
        let qualified = || format!("{}.{}", n.package, n.name);
        if !n.type_args.is_empty() {
            return Ty::Unsupported(Unsupported::Generic(qualified()));
        }
        if let Some(&i) = self.index.get(&(n.package.as_str(), n.name.as_str())) {
            return Ty::Named(i);
        }
        let package = self.universe.packages.get(&n.package);
        match (package, self.universe.type_decl(&n.package, &n.name)) {
            (Some(p), Some(decl)) if decl.is_alias => {
                let key = (n.package.as_str(), n.name.as_str());
                if let Some(from) = self.alias_stack.iter().position(|&a| a == key) {
                    let mut path: Vec<String> = self.alias_stack[from..]
                        .iter()
                        .map(|(p, n)| format!("{p}.{n}"))
                        .collect();
                    path.push(qualified());
                    return Ty::Unsupported(Unsupported::AliasCycle(path));
                }
                self.alias_stack.push(key);
                let t = self.resolve(p, &decl.def, depth + 1);
                self.alias_stack.pop();
                t
            }
            // Declared but not indexed: a generic type used without type arguments.
            (_, Some(_)) => Ty::Unsupported(Unsupported::Generic(qualified())),
            // A package read from source that lacks the type: an error in the Go code. The
            // packages without a directory are kdv's partial built-in declarations.
            (Some(p), None) if p.dir.is_some() => Ty::Unsupported(Unsupported::Undefined {
                package: n.package.clone(),
                name: n.name.clone(),
            }),
            _ => Ty::Foreign {
                package: n.package.clone(),
                name: n.name.clone(),
            },
        }
    }
}
