//! kdv-cel: the Common Expression Language as Kubernetes uses it — parser, type checker,
//! cost estimator, interpreter and the Kubernetes libraries.
//!
//! Layout (cel-go's split, in one crate):
//! - [`ast`]: the expression tree every phase shares (macros already expanded).
//! - [`types`]: CEL types, used by the checker and by `type()` values at run time.

#![warn(missing_docs)]

pub mod ast;
pub mod parser;
pub mod types;
