//! CEL function libraries, and the small interface through which the type checker, the
//! static cost estimator and the interpreter use them.
//!
//! A library (cel-go's `cel.Library`) is one module that holds everything about its functions
//! in one place:
//!
//! - its [`Declarations`]: what the checker resolves calls against (overload ids, parameter
//!   and result types, type identifiers);
//! - its [`Functions`]: what the interpreter runs (the implementation of each overload under
//!   the same id, the runtime parameter types it dispatches on, its runtime cost);
//! - the static cost estimates of its overloads, answered through [`estimate::CallSite`].
//!
//! Each module hands its library out as a [`Library`] (`library()`); [`environments`] says
//! which libraries each environment holds and in which order the estimators are asked.
//!
//! Layout: [`standard`] is cel-go's standard library, [`ext`] cel-go's extensions (one module
//! each), [`k8s`] Kubernetes' libraries (one module each); [`regex`] is the Go RE2 support
//! the pattern functions share. The interface: `decl` (declarations), `functions` (runtime
//! overloads, the [`Registry`]), [`estimate`] (static costs).
//!
//! Dependencies point one way: the libraries use `ast`, `types` and `value` and this
//! interface; the checker, the cost walk and the interpreter use the libraries (through the
//! interface and [`environments`]); nothing here uses them.

use std::sync::Arc;

mod decl;
pub mod environments;
pub mod estimate;
pub mod ext;
mod functions;
pub mod k8s;
pub mod kdv;
pub mod regex;
pub mod releases;
pub mod standard;

#[cfg(test)]
mod tests;

pub use decl::{Declarations, FunctionDecl, OverloadDecl, VariableDecl};
pub(crate) use decl::{cached, g, list, m, map, param};
pub use functions::{CallCtx, CostFn, Functions, NativeFn, Overload, ParamType, Registry};
pub(crate) use functions::{nso, traversal};

/// One library of CEL functions (cel-go's `cel.Library`) as an environment takes it: its name
/// and version, and how to build what the checker and the interpreter each use of it — both
/// name every overload by the same id. Each library module hands its own out (`library()`);
/// [`environments`] lists which libraries each environment holds.
#[derive(Clone, Copy, Debug)]
pub struct Library {
    name: &'static str,
    version: u32,
    declarations: fn(u32) -> Arc<Declarations>,
    functions: fn(u32) -> Functions,
}

impl Library {
    /// The library `name` at `version`, whose declarations and functions these build.
    pub const fn new(
        name: &'static str,
        version: u32,
        declarations: fn(u32) -> Arc<Declarations>,
        functions: fn(u32) -> Functions,
    ) -> Library {
        Library {
            name,
            version,
            declarations,
            functions,
        }
    }

    /// cel-go's or Kubernetes' name of the library (`cel.lib.std`, `cel.lib.ext.strings`,
    /// `kubernetes.quantity`, ...).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The version (0 for libraries cel-go does not version; `u32::MAX`: every version).
    pub fn version(&self) -> u32 {
        self.version
    }

    /// What the type checker resolves calls and names against (built once per version and
    /// shared).
    pub fn declarations(&self) -> Arc<Declarations> {
        (self.declarations)(self.version)
    }

    /// What the interpreter runs: each overload's implementation and runtime cost.
    pub fn functions(&self) -> Functions {
        (self.functions)(self.version)
    }
}
