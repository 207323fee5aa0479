//! What the type checker sees of a library: functions with the ids and signatures of their
//! overloads, variables, constants and type identifiers.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use crate::ast::Literal;
use crate::hash::FastMap;
use crate::types::Type;

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

/// The declarations of one library as the type checker sees them (the standard library, an
/// extension library, a Kubernetes library, an application's own declarations): functions
/// with their overloads' ids and signatures, variables, constants and type identifiers.
#[derive(Debug, Clone, Default)]
pub struct Declarations {
    /// Name, for diagnostics (`cel.lib.std`, `cel.lib.ext.strings`, ...).
    pub name: String,
    /// Functions in order of first declaration; the checker's index refers to them by position.
    pub(crate) functions: Vec<FunctionDecl>,
    function_slots: FastMap<String, u32>,
    /// Variables in order of first declaration (a redeclaration replaces in place).
    pub(crate) variables: Vec<VariableDecl>,
    variable_slots: FastMap<String, u32>,
    /// Function names whose aggregate literal arguments skip the homogeneity check.
    pub homogeneous_exempt: Vec<String>,
}

impl Declarations {
    /// No declarations yet.
    pub fn new(name: impl Into<String>) -> Declarations {
        Declarations {
            name: name.into(),
            ..Declarations::default()
        }
    }

    /// Adds overloads to function `name` (created on first use; overloads append in order).
    pub fn function(&mut self, name: &str, overloads: Vec<OverloadDecl>) -> &mut Declarations {
        let slot = match self.function_slots.get(name) {
            Some(&i) => i as usize,
            None => {
                self.function_slots
                    .insert(name.to_string(), self.functions.len() as u32);
                self.functions.push(FunctionDecl {
                    name: name.to_string(),
                    overloads: Vec::new(),
                });
                self.functions.len() - 1
            }
        };
        self.functions[slot].overloads.extend(overloads);
        self
    }

    fn declare(&mut self, decl: VariableDecl) -> &mut Declarations {
        match self.variable_slots.get(&decl.name) {
            Some(&i) => self.variables[i as usize] = decl,
            None => {
                self.variable_slots
                    .insert(decl.name.clone(), self.variables.len() as u32);
                self.variables.push(decl);
            }
        }
        self
    }

    /// Declares a variable.
    pub fn variable(&mut self, name: &str, ty: Type) -> &mut Declarations {
        self.declare(VariableDecl {
            name: name.to_string(),
            ty,
            value: None,
        })
    }

    /// Declares a constant.
    pub fn constant(&mut self, name: &str, ty: Type, value: Literal) -> &mut Declarations {
        self.declare(VariableDecl {
            name: name.to_string(),
            ty,
            value: Some(value),
        })
    }

    /// Declares a type identifier: `name` evaluates to the type value of `ty` (`int`,
    /// `net.IP`, `optional_type`).
    pub fn type_ident(&mut self, name: &str, ty: Type) -> &mut Declarations {
        self.variable(name, Type::Type(Box::new(ty)))
    }

    /// Adds everything `other` declares (overloads append after existing ones, as when both
    /// declarations are registered in this order).
    pub fn merge(&mut self, other: &Declarations) -> &mut Declarations {
        for f in &other.functions {
            self.function(&f.name, f.overloads.clone());
        }
        for v in &other.variables {
            self.declare(v.clone());
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
        if self.functions.is_empty() {
            return None;
        }
        let &i = self.function_slots.get(name)?;
        self.functions.get(i as usize)
    }

    /// The variable named `name`, if declared here.
    pub fn get_variable(&self, name: &str) -> Option<&VariableDecl> {
        if self.variables.is_empty() {
            return None;
        }
        let &i = self.variable_slots.get(name)?;
        self.variables.get(i as usize)
    }

    /// All functions (unordered).
    pub fn functions(&self) -> impl Iterator<Item = &FunctionDecl> {
        self.functions.iter()
    }

    /// All variables (unordered).
    pub fn variables(&self) -> impl Iterator<Item = &VariableDecl> {
        self.variables.iter()
    }
}

// Shorthands for building declarations.

/// The type parameter `name`.
pub(crate) fn param(name: &str) -> Type {
    Type::Param(Arc::from(name))
}

/// `list(t)`.
pub(crate) fn list(t: Type) -> Type {
    Type::List(Box::new(t))
}

/// `map(k, v)`.
pub(crate) fn map(k: Type, v: Type) -> Type {
    Type::Map(Box::new(k), Box::new(v))
}

/// A global overload.
pub(crate) fn g(id: &str, params: Vec<Type>, result: Type) -> OverloadDecl {
    OverloadDecl::global(id, params, result)
}

/// A member overload.
pub(crate) fn m(id: &str, params: Vec<Type>, result: Type) -> OverloadDecl {
    OverloadDecl::member(id, params, result)
}

/// Declarations built once per (library, version) and shared by every environment.
type Cache = HashMap<(&'static str, u32), Arc<Declarations>>;

static CACHE: LazyLock<Mutex<Cache>> = LazyLock::new(|| Mutex::new(HashMap::new()));

/// The declarations of library `name` at `version`, built by `build` on first use.
pub(crate) fn cached(
    name: &'static str,
    version: u32,
    build: fn(u32) -> Declarations,
) -> Arc<Declarations> {
    let mut cache = match CACHE.lock() {
        Ok(c) => c,
        // A panic while building cannot leave a half-inserted entry: use the map as is.
        Err(poisoned) => poisoned.into_inner(),
    };
    cache
        .entry((name, version))
        .or_insert_with(|| Arc::new(build(version)))
        .clone()
}
