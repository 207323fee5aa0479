//! CEL function libraries, and the small interface through which the type checker, the
//! static cost estimator and the interpreter use them.
//!
//! A library (cel-go's `cel.Library`: the standard library, an extension, a Kubernetes
//! library) is one module that holds everything about its functions in one place:
//!
//! - its [`Declarations`]: what the checker resolves calls against (overload ids, parameter
//!   and result types, type identifiers);
//! - its [`Functions`]: what the interpreter runs (the implementation of each overload under
//!   the same id, the runtime parameter types it dispatches on, its runtime cost);
//! - the static cost estimates of its overloads, answered through [`estimate::CallSite`].
//!
//! This module holds that interface; the libraries still live in `checker` (declarations) and
//! `stdlib` (implementations) and move here one by one.

mod decl;
pub mod estimate;
pub mod ext;
mod functions;
pub mod k8s;
pub mod regex;
pub mod standard;

pub use decl::{Declarations, FunctionDecl, OverloadDecl, VariableDecl};
pub(crate) use decl::{cached, g, list, m, map, param};
pub use functions::{CallCtx, CostFn, Functions, NativeFn, Overload, ParamType, Registry};
pub(crate) use functions::{nso, traversal};
