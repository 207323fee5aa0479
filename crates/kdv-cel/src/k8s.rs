//! The Kubernetes CEL environment of CRD validation rules: the compile environment
//! ([`env()`]), the interpreter's function registry ([`registry()`]) and program settings
//! ([`program_options()`]) with cel-go's libraries as Kubernetes configures them and every
//! Kubernetes library ([`crate::library::k8s`]).

use std::sync::{Arc, OnceLock};

use crate::checker::Env;
use crate::interp::ProgramOptions;
use crate::library::Registry;
use crate::library::k8s::{cidr, format, ip, lists, quantity, regex, semver, urls};

/// Adds the runtime overloads of every Kubernetes library implemented here to `r`.
pub fn add_runtime(r: &mut Registry) {
    r.add(lists::functions());
    r.add(regex::functions());
    r.add(quantity::functions());
    r.add(format::functions());
    r.add(urls::functions());
    r.add(ip::functions());
    r.add(cidr::functions());
    r.add(semver::functions());
}

/// Adds the declarations of every Kubernetes library implemented here to `env`.
pub fn add_declarations(env: &mut Env) {
    env.add_library(lists::declarations());
    env.add_library(regex::declarations());
    env.add_library(quantity::declarations());
    env.add_library(format::declarations());
    env.add_library(urls::declarations());
    env.add_library(ip::declarations());
    env.add_library(cidr::declarations());
    env.add_library(semver::declarations());
}

/// [`Registry::kubernetes`] plus every Kubernetes library implemented here.
pub fn registry() -> Registry {
    let mut r = Registry::kubernetes();
    add_runtime(&mut r);
    r
}

/// [`Env::kubernetes`] plus the declarations of every Kubernetes library implemented here.
pub fn env() -> Env {
    let mut env = Env::kubernetes();
    add_declarations(&mut env);
    env
}

/// [`ProgramOptions::kubernetes`] with [`registry`]: the program settings of CRD rules with
/// every Kubernetes library. The registry is built once per process and shared.
pub fn program_options() -> ProgramOptions {
    static REGISTRY: OnceLock<Arc<Registry>> = OnceLock::new();
    let mut options = ProgramOptions::kubernetes();
    options.registry = Arc::clone(REGISTRY.get_or_init(|| Arc::new(registry())));
    options
}
