//! The Kubernetes CEL environment of CRD validation rules: the compile environment
//! ([`env()`]), the interpreter's function registry ([`registry()`]) and program settings
//! ([`program_options()`]) with cel-go's libraries as Kubernetes configures them and every
//! Kubernetes library ([`crate::library::k8s`]).

use std::sync::{Arc, OnceLock};

use crate::checker::Env;
use crate::interp::ProgramOptions;
use crate::library::{Registry, environments};

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
