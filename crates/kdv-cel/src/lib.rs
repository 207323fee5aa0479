//! kdv-cel: the Common Expression Language as Kubernetes uses it — parser, type checker,
//! cost estimator, interpreter and the Kubernetes libraries.
//!
//! Layout (cel-go's split, in one crate):
//! - [`ast`]: the expression tree every phase shares (macros already expanded).
//! - [`types`]: CEL types, used by the checker and by `type()` values at run time.
//! - [`value`]: runtime values (borrowing JSON documents without copying).
//! - [`interp`]: the evaluator (`Program`), with runtime cost tracking.
//! - [`conformance`]: the cel-spec conformance runner.
//! - [`library`]: the libraries — [`library::standard`], cel-go's extensions
//!   ([`library::ext`]) and Kubernetes' ([`library::k8s`]) — and the interface the checker,
//!   the cost estimator and the interpreter use them through.
//! - [`k8s`]: the Kubernetes environment of CRD rules (`env()`, `program_options()`).
//! - [`cost`]: the static cost estimator (Kubernetes' cost model and limits).
//! - [`CompiledExpression`]: parse + check + cost + plan in one call, then evaluate many
//!   times from any thread.

#![warn(missing_docs)]

pub mod ast;
pub mod checker;
mod compiled;
pub mod conformance;
pub mod cost;
mod hash;
pub mod interp;
pub mod k8s;
pub mod library;
pub mod parser;
pub mod types;
pub mod value;

pub use compiled::{CompileError, CompiledExpression};
