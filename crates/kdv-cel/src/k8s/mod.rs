//! The Kubernetes CEL environment of CRD validation rules: the compile environment of each
//! release and environment type ([`env_for`], [`shared_env`]; [`env()`] is the newest
//! release's StoredExpressions environment), the interpreter's function registry
//! ([`registry()`]) and program settings ([`program_options()`]), with cel-go's libraries as
//! Kubernetes configures them and Kubernetes' own ([`crate::library::k8s`]).
//!
//! Which options each release and environment type holds is upstream's versioned environment,
//! transcribed in [`crate::library::releases`] and re-exported here ([`BASE_OPTIONS`],
//! [`features`]). A function, macro or setting the environment lacks is simply undeclared:
//! rules using it fail to compile with cel-go's errors (`undeclared reference to
//! 'isSemver' (in container '')`), as the API server reports them.
//!
//! ```
//! use kdv_cel::checker::compile;
//! use kdv_cel::k8s::{self, EnvType};
//!
//! // A CRD created on 1.30 may not use the IP library yet (its compatibility version is
//! // 1.29); objects of a 1.30 cluster are validated with it.
//! let new = k8s::env_for(30, EnvType::NewExpressions);
//! let err = compile("isIP('10.0.0.1')", &new).unwrap_err();
//! assert!(err.to_string().contains("undeclared reference to 'isIP'"));
//! assert!(compile("isIP('10.0.0.1')", &k8s::env_for(30, EnvType::StoredExpressions)).is_ok());
//! assert!(compile("isIP('10.0.0.1')", &k8s::env_for(31, EnvType::NewExpressions)).is_ok());
//! ```
//!
//! The runtime side is the same for every release: the registry holds every implemented
//! overload (the checker decides which are reachable), and the program settings (per-call
//! cost limit, `has()` without cost, Kubernetes' runtime costs) have not changed since 1.0.
//! Static cost estimates follow the release with `CostOptions::kubernetes_for`; other changes
//! of the libraries' own code between releases (`containsCIDR`'s fix in 1.32) follow the
//! newest release.

use std::sync::{Arc, Mutex, OnceLock};

use crate::checker::{Env, LiteralValidator};
use crate::interp::ProgramOptions;
use crate::library::{Declarations, Registry, environments};

pub use crate::library::releases::{
    BASE_OPTIONS, CEL_GO_VERSIONS, EnvType, Feature, Features, Introduction, NEWEST_MINOR,
    OLDEST_MINOR, VersionedOption, compatibility_minor, features, modelled_release,
};

#[cfg(test)]
mod tests;

/// Adds the runtime overloads of every Kubernetes library to `r`.
pub fn add_runtime(r: &mut Registry) {
    for lib in environments::kubernetes() {
        r.add(lib.functions());
    }
}

/// Adds the declarations of every Kubernetes library to `env`.
pub fn add_declarations(env: &mut Env) {
    for lib in environments::kubernetes() {
        env.add_library(lib.declarations());
    }
}

/// [`Registry::kubernetes`] plus every Kubernetes library implemented here.
pub fn registry() -> Registry {
    let mut r = Registry::kubernetes();
    add_runtime(&mut r);
    r
}

/// The newest release's StoredExpressions environment ([`env_for`]`(`[`NEWEST_MINOR`]`,
/// StoredExpressions)`): every library and setting implemented here.
pub fn env() -> Env {
    env_for(NEWEST_MINOR, EnvType::StoredExpressions)
}

/// The `env_type` environment of Kubernetes 1.`minor` (releases outside 1.30–1.37 as
/// [`features`] says): a new environment (its checks remember nothing yet) sharing
/// the declarations and name index of [`shared_env`], so building it costs little.
pub fn env_for(minor: u32, env_type: EnvType) -> Env {
    let shared = shared_env(minor, env_type);
    let mut env = shared.without_memo();
    if !env.options.literal_validators.is_empty() {
        // The `matches` validator remembers pattern verdicts: a new environment starts afresh.
        env.options.literal_validators = LiteralValidator::kubernetes();
    }
    env
}

/// The process-wide `env_type` environment of Kubernetes 1.`minor`, built on first use: its
/// clones share its name index and what its checks remember (overload resolutions, pattern
/// verdicts), which is what compiling many rules wants. Releases and types with the same
/// options share one environment.
pub fn shared_env(minor: u32, env_type: EnvType) -> &'static Env {
    // Every release after the newest modelled one has the same options.
    const SLOTS: usize = NEWEST_MINOR as usize + 2;
    static ENVS: [[OnceLock<Env>; 2]; SLOTS] =
        [const { [OnceLock::new(), OnceLock::new()] }; SLOTS];
    let minor = minor.min(NEWEST_MINOR + 1);
    let slot = &ENVS[minor as usize][match env_type {
        EnvType::NewExpressions => 0,
        EnvType::StoredExpressions => 1,
    }];
    slot.get_or_init(|| env_with(features(minor, env_type)))
}

/// The environment of a set of options, one per distinct set (its index built).
fn env_with(features: Features) -> Env {
    static BUILT: Mutex<Vec<(Features, Env)>> = Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, env)) = built.iter().find(|(f, _)| *f == features) {
        return env.clone();
    }
    let env = build(features);
    built.push((features, env.clone()));
    env
}

/// Builds the environment of `features`: cel-go's libraries merged into one table (one lookup
/// per name), Kubernetes' libraries, the checker and parser settings.
fn build(features: Features) -> Env {
    let has = |f| features.contains(f);
    let mut base = Declarations::new("kubernetes.base");
    for lib in environments::kubernetes_base_for(features) {
        base.merge(&lib.declarations());
    }
    let mut env = Env::empty();
    env.add_library(Arc::new(base));
    for lib in environments::kubernetes_for(features) {
        env.add_library(lib.declarations());
    }
    let options = &mut env.options;
    options.cross_type_numeric_comparisons = has(Feature::CrossTypeNumericComparisons);
    options.homogeneous_aggregate_literals = has(Feature::HomogeneousAggregateLiterals);
    if has(Feature::AstValidators) {
        options.literal_validators = LiteralValidator::kubernetes();
    }
    // The validator comes with the strings extension's versions 1 to 3.
    options.validate_format_strings =
        has(Feature::StringFormatValidator) && has(Feature::StringsV2);
    options.parse.macros = environments::kubernetes_macros(features);
    options.parse.enable_optional_syntax = has(Feature::OptionalTypes);
    // Back-quoted identifiers need cel-go v0.28 (or an option Kubernetes does not set).
    options.parse.enable_identifier_escape_syntax = false;
    env.build_index();
    env
}

/// The environment of kdv's `+validationRule` on types (kdv extension): the `env_type`
/// environment of Kubernetes 1.`minor` ([`shared_env`]) plus kdv's own libraries
/// ([`crate::library::kdv`]: UTF-8 and label-selector functions). Built once per release
/// and type, shared as [`shared_env`] is. CRD rules never get this environment.
pub fn shared_type_rule_env(minor: u32, env_type: EnvType) -> &'static Env {
    const SLOTS: usize = NEWEST_MINOR as usize + 2;
    static ENVS: [[OnceLock<Env>; 2]; SLOTS] =
        [const { [OnceLock::new(), OnceLock::new()] }; SLOTS];
    let minor = minor.min(NEWEST_MINOR + 1);
    let slot = &ENVS[minor as usize][match env_type {
        EnvType::NewExpressions => 0,
        EnvType::StoredExpressions => 1,
    }];
    slot.get_or_init(|| {
        let mut env = shared_env(minor, env_type).without_memo();
        for lib in crate::library::kdv::libraries() {
            env.add_library(lib.declarations());
        }
        env.build_index();
        env
    })
}

/// A fresh copy of [`shared_type_rule_env`] (nothing remembered), as [`env_for`] is of
/// [`shared_env`].
pub fn type_rule_env(minor: u32, env_type: EnvType) -> Env {
    let mut env = shared_type_rule_env(minor, env_type).without_memo();
    if !env.options.literal_validators.is_empty() {
        env.options.literal_validators = LiteralValidator::kubernetes();
    }
    env
}

/// [`program_options`] whose registry also holds kdv's own libraries: the program settings
/// of `+validationRule` on types ([`shared_type_rule_env`]).
pub fn type_rule_program_options() -> ProgramOptions {
    static REGISTRY: OnceLock<Arc<Registry>> = OnceLock::new();
    let mut options = ProgramOptions::kubernetes();
    options.registry = Arc::clone(REGISTRY.get_or_init(|| {
        let mut r = registry();
        for lib in crate::library::kdv::libraries() {
            r.add(lib.functions());
        }
        Arc::new(r)
    }));
    options
}

/// [`ProgramOptions::kubernetes`] with [`registry`]: the program settings of CRD rules with
/// every Kubernetes library, the same for every release. The registry is built once per
/// process and shared.
pub fn program_options() -> ProgramOptions {
    static REGISTRY: OnceLock<Arc<Registry>> = OnceLock::new();
    let mut options = ProgramOptions::kubernetes();
    options.registry = Arc::clone(REGISTRY.get_or_init(|| Arc::new(registry())));
    options
}
