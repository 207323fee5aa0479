//! kdv-cel: the Common Expression Language as Kubernetes uses it — parser, type checker,
//! cost estimator, interpreter and the Kubernetes libraries.
//!
//! Layout (cel-go's split, in one crate), from the bottom up — each module uses only those
//! above it in this list:
//! - [`ast`]: the expression tree every phase shares (macros already expanded).
//! - [`types`]: CEL types as the checker knows them, and [`types::Kind`], the one
//!   classification of types and values every phase shares.
//! - [`parser`]: source text to [`ast`], with cel-go's macros and error texts.
//! - [`value`]: runtime values (borrowing JSON documents without copying).
//! - [`library`]: the function libraries — [`library::standard`], cel-go's extensions
//!   ([`library::ext`]) and Kubernetes' ([`library::k8s`]), one module each with its
//!   declarations, implementations and costs — and the interface through which the checker,
//!   the cost estimator and the interpreter use them.
//! - [`checker`]: the type checker (`Env`, overload resolution, cel-go's messages).
//! - [`cost`]: the static cost estimator (Kubernetes' cost model and limits).
//! - [`interp`]: the evaluator (`Program`), with runtime cost tracking.
//! - [`CompiledExpression`]: parse + check + cost + plan in one call, then evaluate many
//!   times from any thread.
//! - [`k8s`]: the Kubernetes environment of CRD rules (`env()`, `program_options()`).

#![warn(missing_docs)]

pub mod ast;
pub mod checker;
mod compiled;
pub mod cost;
mod hash;
pub mod interp;
pub mod k8s;
pub mod library;
pub mod parser;
pub mod types;
pub mod value;

pub use compiled::{CompileError, CompiledExpression};
