//! The runtime side of the standard library and cel-go's extension libraries: overload
//! implementations ([`Functions`](crate::library::Functions)) registered by function name and
//! overload id in a [`Registry`], which the planner binds calls against.

use crate::library::{Registry, ext};

impl Registry {
    /// The standard library plus every extension (the cel-spec conformance environment).
    pub fn full() -> Registry {
        let mut r = Registry::new();
        r.add(crate::library::standard::functions());
        r.add(ext::strings::functions(ext::strings::LATEST_VERSION));
        r.add(ext::lists::functions());
        r.add(ext::comprehensions::functions());
        r.add(ext::sets::functions());
        r.add(ext::math::functions());
        r.add(ext::optional::functions());
        r.add(ext::encoders::functions());
        r
    }

    /// The cel-go libraries of the Kubernetes base environment: the standard library, strings
    /// ext v2, lists ext v3, sets, optional types (Kubernetes' own libraries are added by the
    /// caller).
    pub fn kubernetes() -> Registry {
        let mut r = Registry::new();
        r.add(crate::library::standard::functions());
        r.add(ext::strings::functions(2));
        r.add(ext::lists::functions());
        r.add(ext::comprehensions::functions());
        r.add(ext::sets::functions());
        r.add(ext::optional::functions());
        crate::library::k8s::cost::set_runtime_costs(&mut r);
        r
    }
}
