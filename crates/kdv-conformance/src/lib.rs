//! kdv's conformance tooling: upstream test suites run against kdv, reporting per case
//! whether kdv agrees with upstream. It is test tooling, kept apart from the product: the
//! `kdv` command does not contain it; its own binary `kdv-conformance` runs the suites.
//!
//! ```text
//! KDV_UPSTREAM_CODEGEN=/path/to/code-generator cargo run --release -p kdv-conformance -- validation-gen
//! cargo run --release -p kdv-conformance -- cel-spec      # the project's testdata/cel-spec
//! KDV_UPSTREAM_APIEXTENSIONS=/path/to/apiextensions-apiserver cargo run --release -p kdv-conformance -- apiextensions
//! ```
//!
//! Suites:
//! - **validation-gen** ([`run_validation_gen`]): upstream validation-gen's own tests
//!   (`cmd/validation-gen/output_tests/**`, read at run time from a kubernetes/code-generator
//!   checkout, never copied into the project) against kdv's tag engine (`kdv-rules`,
//!   `kdv-eval`). Described below.
//! - **cel-spec** ([`cel_spec`]): google/cel-spec's simple tests, in JSON form in the
//!   project's `testdata/cel-spec`, against `kdv-cel`.
//! - **kubectl-validate** ([`kubectl_validate`]): kubectl-validate's test cases (in the
//!   project's `testdata/kubectl-validate`) against `kdv-openapi`.
//! - **apiextensions** ([`apiextensions`]): k8s.io/apiextensions-apiserver's CEL validation
//!   tables (`TestValidationExpressions` and its siblings, Go test files read at run time from
//!   a checkout, interpreted with the validation-gen suite's interpreter) against
//!   `kdv-openapi`'s CEL rules.
//!
//! [`cli`] holds what the binary does with its parsed arguments (reports, exit statuses).
//!
//! # kubectl-validate and apiextensions
//!
//! [`kubectl_validate`] runs every document as kubectl-validate's own test does, with the
//! modules: `split` (apimachinery's `YAMLReader` split and the expectation comments), `pipeline`
//! (kubectl-validate's per-document pipeline over a schema `Backend`: `TypeMeta`, group-version
//! and kind lookup, strict-decoding statuses with goyaml.v2's repeated-key messages (`yamlv2`),
//! namespace preparation), `crds` (the `--local-crds` loader), `backend` (the 1.23 schema patch
//! as an RFC 7386 merge patch on the embedded 1.35 documents, through `kdv-openapi`) and `status`
//! (the `metav1.Status` built as `errors.NewInvalid`/`NewInternalError`/kubectl-validate's
//! `errorToStatus`, compared with Go struct equality). CEL rules run inside `kdv-openapi`'s
//! pipeline, so no case is skipped.
//!
//! [`apiextensions`] reads apiextensions-apiserver's Go test files at run time: `gotable`
//! evaluates each table literal row by row with the validation-gen interpreter over the
//! package's types from `kdv-go` (the files' helpers interpreted, `mustSchema`/`mustUnstructured`
//! YAML decoded by harness hooks, `DeepCopy`, `math` and `celconfig` constants and `field.Error`
//! literals emulated) and converts `schema.Structural` values to OpenAPI schema JSON; `cases`
//! expands rows as each test loop does (a case per valid and per error rule) and judges them with
//! the loop's assertions through `Resource::from_crd_schema` and `kdv_openapi::cel::validate_rules`
//! (compile tables through `kdv_openapi::cel::compile_rules`, their matchers transcribed);
//! `ratcheting` reads `ratcheting_test.go` statement by statement and runs
//! `Resource::validate_values_update`. Uninterpretable rows are skipped under their reason. The
//! crate's `README.md` lists every table.
//!
//! # validation-gen
//!
//! The test files are Go; the harness parses their function bodies ([`parser`]) and
//! interprets the Go subset they use ([`interp`], [`library`]) with the fixture package's
//! types from `kdv-go`. Every `st.Value(v)…Expect…()` chain becomes a case: the Go value is
//! marshalled to JSON ([`tojson`]), dispatched as upstream's test scheme would (registered
//! roots, subresources, Create/Update, options), validated by `kdv-eval`, and compared with
//! upstream's expectation through `field.ErrorMatcher` ([`matcher`]: `kdv-rollout`'s
//! `ErrorMatcher`, the one matcher of the project, with the harness's failure texts). Fixture
//! tests (upstream's `testdata/validate-false.json`) are reproduced with Go's `math/rand`
//! and randfill ([`gorand`], [`randfill`]).
//!
//! Case identity: `<package>/<TestFunction>#<k>`, where `k` counts (1-based) the cases the
//! function executed, in execution order (`st.Value` calls and direct `matcher.Test` calls,
//! including those in `t.Run` subtests and loops); fixture cases are
//! `<package>/validate-false.json#<Go type>`, the coverage case `<package>#coverage`.
//!
//! Failures are classified ([`FailureKind`]) so that the right crate can act: the harness
//! could not interpret the test, kdv does not implement a tag the package uses (from
//! kdv-rules' "not supported by kdv yet" warnings), kdv-rules reported errors, the validated
//! type is not a registered root in kdv, kdv panicked, or kdv's errors differ from upstream's
//! expectation (grouped by the first missing/unexpected error's type and origin).
//!
//! Running the suite (the integration test prints the per-package table, totals and the top
//! failure causes; set `KDV_CONFORMANCE_VERBOSE=1` for every failing case with expected vs
//! got and the JSON kdv validated):
//!
//! ```text
//! KDV_UPSTREAM_CODEGEN=/path/to/code-generator cargo test -p kdv-conformance --test upstream -- --nocapture
//! ```
//!
//! Coverage tests (spec §10.7, [`coverage`]) are one case per package, `<package>#coverage`:
//! kdv's declared rules (`kdv_rules::emissions`) must equal those upstream's generated
//! coverage test registers, and every one must be observed by the package's validations.
//!
//! Limitations: `&x.f` pointers into the middle of a value are snapshots (no test file takes
//! one); sub-slices copy.
//!
//! ```no_run
//! use kdv_conformance::{run_validation_gen, RunOptions};
//! let report = run_validation_gen("/path/to/code-generator".as_ref(), &RunOptions::default());
//! print!("{}", report.render_text(false));
//! ```

pub mod apiextensions;
pub mod backend;
pub mod cel_spec;
pub mod cli;
pub mod coverage;
pub mod custom;
pub mod gorand;
pub mod interp;
pub mod kubectl_validate;
pub mod library;
pub mod matcher;
pub mod parser;
pub mod randfill;
pub mod report;
pub mod runner;
pub mod syntax;
pub mod tojson;
pub mod types;
pub mod value;

#[cfg(test)]
mod tests;

pub use report::{
    CaseFailure, CaseResult, CauseSummary, FailureKind, Outcome, PackageReport, Report,
};
pub use runner::{RunOptions, run_validation_gen};
