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
//!
//! One import circle is kept on purpose: `parser`'s grammar and its macro expansion call each
//! other (a recursive descent expands `all`, `exists`, ... while parsing, and re-enters the
//! parser for their arguments). Nothing here does IO; the cel-spec conformance runner lives in
//! `kdv-conformance`.
//!
//! Libraries ([`library`]; the interface is documented there): [`library::standard`];
//! cel-go's extensions [`library::ext`] (`strings`, `lists`, `sets`, `math`, `encoders`,
//! `optional`, `comprehensions`, `bindings`); Kubernetes' [`library::k8s`] (`lists`, `regex`,
//! `urls`, `ip`, `cidr`, `quantity`, `format`, `semver`; `cost` prices the other libraries'
//! functions Kubernetes prices, decision 0014); kdv's own [`library::kdv`] (UTF-8 and label
//! selectors, declared only in the `+validationRule` environment
//! [`k8s::shared_type_rule_env`], decision 0140); [`library::regex`], Go's RE2 (0029); and
//! [`library::releases`], the versioned base environment of each release (0055).
//!
//! Values: [`value::typed`] reads JSON through a schema as Kubernetes' `UnstructuredToVal`
//! reads custom resources (formats, `number`, unescaped field names, null fields absent, set
//! and map list equality and `+`, `invalid data` errors for data of the wrong kind where a node
//! checks it), converting only what an expression reaches; [`value::native`] reads host values
//! in place (decision 0143).
//!
//! Costs: [`cost::estimate_cost`] gives cel-go's `{min, max}` for a checked expression, asking a
//! caller's [`cost::SizeEstimator`] by cel-go field path (`["self", "spec", "items", "@items",
//! "name"]`; Kubernetes ignores the first segment); callers combine the max with the node's
//! cardinality ([`cost::expression_cost`], [`cost::max_cardinality`]) and render upstream's
//! error ([`cost::cost_exceeds_budget_message`]). The walk runs once over the tree (deep trees on
//! a helper thread), with every side effect in upstream's order because later lookups observe
//! it; paths keep Go's slice sharing (0007). Arithmetic saturates, `MultiplyByCostFactor` is
//! float64 `ceil` as in cel-go, and where Go's unchecked `uint64` arithmetic wraps (result sizes
//! of `bytes()`, `strings.quote`, `slice`) it wraps here too; no allocation per node (a few
//! hundred ns a rule). Its tests read upstream's tables when `KDV_UPSTREAM_APIEXTENSIONS` /
//! `KDV_UPSTREAM_APISERVER` name checkouts (CRD schemas rebuilt by `cost/tests/schema.rs`), and
//! transcribed samples always. Runtime costs follow cel-go's planned steps (0034, 0035), and a
//! call is refused before it allocates what its cost would refuse (0075).
//!
//! [`CompiledExpression::compile`]`(&env, source, &dyn SizeEstimator, &ProgramOptions)` parses
//! (with the environment's parser settings), checks, estimates and plans; `eval` returns the
//! value and the runtime cost; it is `Send + Sync`. [`k8s::env`] and [`k8s::program_options`]
//! give the newest release's CRD rule environment, [`k8s::env_for`] a release's; the runtime
//! registry is built once per process, a release's declarations once. Checker state is shared
//! per environment (0008). `kdv cel` is the shell front end.
//!
//! Invariants: [`types::Kind`] is the one classification the checker, the dispatcher and
//! `type()` values share (value kinds are declared in `Value`'s variant order, so a value's kind
//! is its variant index); `types::Type` stays a separate thing (a type with parameters and
//! names). The interpreter's fast paths (`in` on maps, int orderings, primitive `==`/`!=`,
//! `startsWith`, constant-pattern `matches`) skip dispatch only where the plan proves it would
//! pick that standard overload, keeping its cost: `fast_calls_match_dispatch` compares both, and
//! the `cel_eval` fuzz target compares optimised and unoptimised plans. Every overload the
//! checker can resolve to is implemented and priced
//! (`library::tests::every_declared_overload_is_implemented_and_priced`, with exceptions listed
//! and reasoned).

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
