//! The runtime side of the standard library and cel-go's extension libraries: overload
//! implementations ([`Functions`](crate::library::Functions)) registered by function name and
//! overload id in a [`Registry`], which the planner binds calls against.

use crate::library::{Registry, ext};
use crate::value::Value;

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
        kubernetes_costs(&mut r);
        r
    }
}

fn cost_receiver_tenth(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    args.first()
        .map_or(1, |a| crate::library::traversal(a.cost_size()))
}

fn cost_receiver_fifth(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    args.first()
        .map_or(1, |a| (a.cost_size() as f64 * 0.2).ceil() as u64)
}

fn cost_result_fifth(_: &[Value<'_>], result: &Value<'_>) -> u64 {
    (result.cost_size() as f64 * 0.2).ceil() as u64
}

/// Kubernetes' `CostEstimator` answers for some strings-extension functions (spec §3.10).
fn kubernetes_costs(r: &mut Registry) {
    for id in [
        "string_lower_ascii",
        "string_upper_ascii",
        "string_substring_int",
        "string_substring_int_int",
        "string_trim",
    ] {
        r.set_cost(id, cost_receiver_tenth);
    }
    for id in [
        "string_replace_string_string",
        "string_replace_string_string_int",
        "string_split_string",
        "string_split_string_int",
    ] {
        r.set_cost(id, cost_receiver_fifth);
    }
    for id in ["list_join", "list_join_string"] {
        r.set_cost(id, cost_result_fifth);
    }
    // Kubernetes prices `indexOf`/`lastIndexOf` by function name, so the strings-extension
    // overloads cost the receiver's traversal like the Kubernetes list functions.
    for id in [
        "string_index_of_string",
        "string_index_of_string_int",
        "string_last_index_of_string",
        "string_last_index_of_string_int",
    ] {
        r.set_cost(id, crate::library::k8s::lists::cost_traverse);
    }
}
