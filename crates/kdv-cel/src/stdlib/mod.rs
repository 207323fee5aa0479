//! Function libraries: the standard functions and the extension libraries, as overload
//! implementations registered by function name and overload id.
//!
//! A [`Library`] is a list of [`Overload`]s. A [`Registry`] collects libraries; the planner
//! looks functions up by name and dispatches on the runtime kinds of the arguments, so
//! expressions that were not type-checked still run. Libraries written elsewhere (the
//! Kubernetes libraries) plug in the same way: build a `Library` and add it to the registry.

use std::collections::HashMap;
use std::sync::Arc;

use crate::types::Kind;
use crate::value::{EvalError, Value};

pub mod core;
pub mod encoders;
pub mod format;
pub mod k8s;
pub mod lists;
pub mod math;
pub mod optional;
pub mod regex;
pub mod sets;
pub mod strings;

/// A native function: receives the evaluated arguments (the receiver first for member calls).
pub type NativeFn = for<'a> fn(&CallCtx<'_>, &[Value<'a>]) -> Result<Value<'a>, EvalError>;

/// Runtime cost of one call (cel-go `CallCost`), from the arguments and the result.
pub type CostFn = fn(&[Value<'_>], &Value<'_>) -> u64;

/// What one parameter of a runtime overload accepts: values of one [`Kind`] ([`Kind::Dyn`]:
/// any value), and for [`Kind::Opaque`] only values of the library type named `opaque`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamType {
    /// The kind of the accepted values.
    pub kind: Kind,
    /// For [`Kind::Opaque`]: the CEL type name of the accepted values (else empty).
    pub opaque: &'static str,
}

impl ParamType {
    /// Any value (type parameters, `dyn`).
    pub const DYN: ParamType = ParamType::of(Kind::Dyn);
    /// `null`.
    pub const NULL: ParamType = ParamType::of(Kind::Null);
    /// `bool`.
    pub const BOOL: ParamType = ParamType::of(Kind::Bool);
    /// `int`.
    pub const INT: ParamType = ParamType::of(Kind::Int);
    /// `uint`.
    pub const UINT: ParamType = ParamType::of(Kind::Uint);
    /// `double`.
    pub const DOUBLE: ParamType = ParamType::of(Kind::Double);
    /// `string`.
    pub const STRING: ParamType = ParamType::of(Kind::String);
    /// `bytes`.
    pub const BYTES: ParamType = ParamType::of(Kind::Bytes);
    /// `list`.
    pub const LIST: ParamType = ParamType::of(Kind::List);
    /// `map`.
    pub const MAP: ParamType = ParamType::of(Kind::Map);
    /// `type`.
    pub const TYPE: ParamType = ParamType::of(Kind::Type);
    /// `google.protobuf.Duration`.
    pub const DURATION: ParamType = ParamType::of(Kind::Duration);
    /// `google.protobuf.Timestamp`.
    pub const TIMESTAMP: ParamType = ParamType::of(Kind::Timestamp);
    /// `optional_type`.
    pub const OPTIONAL: ParamType = ParamType::of(Kind::Optional);

    /// Values of `kind` (for [`Kind::Opaque`] use [`ParamType::opaque`]).
    pub const fn of(kind: Kind) -> ParamType {
        ParamType { kind, opaque: "" }
    }

    /// Values of the library type named `type_name`.
    pub const fn opaque(type_name: &'static str) -> ParamType {
        ParamType {
            kind: Kind::Opaque,
            opaque: type_name,
        }
    }

    /// Whether `v` is accepted.
    #[inline]
    pub fn matches(self, v: &Value<'_>) -> bool {
        let kind = v.kind();
        if kind == self.kind {
            return match v {
                Value::Opaque(o) => o.type_name() == self.opaque,
                _ => true,
            };
        }
        self.kind == Kind::Dyn
    }
}

/// One overload of a function.
#[derive(Clone, Debug)]
pub struct Overload {
    /// cel-go's overload id (`add_int64`, `string_char_at_int`, ...).
    pub id: &'static str,
    /// Function name (`_+_`, `charAt`, `math.greatest`, ...).
    pub function: &'static str,
    /// Called as `receiver.function(args)`.
    pub member: bool,
    /// Runtime kinds of the parameters, receiver first; `None` = any number of arguments of
    /// any kind (variadic helpers check their own arguments).
    pub params: Option<&'static [ParamType]>,
    /// The implementation.
    pub imp: NativeFn,
    /// Runtime cost; `None` = 1 (cel-go's default call cost).
    pub cost: Option<CostFn>,
}

impl Overload {
    /// Whether the arguments fit this overload.
    #[inline]
    pub fn accepts(&self, args: &[Value<'_>]) -> bool {
        match self.params {
            None => true,
            Some(p) => p.len() == args.len() && p.iter().zip(args).all(|(k, v)| k.matches(v)),
        }
    }

    fn arity(&self) -> Option<usize> {
        self.params.map(<[ParamType]>::len)
    }
}

/// A named set of overloads.
#[derive(Clone, Debug, Default)]
pub struct Library {
    /// Library name (cel-go's, e.g. `cel.lib.ext.strings`).
    pub name: &'static str,
    /// The overloads.
    pub overloads: Vec<Overload>,
    /// Functions whose second argument (after the receiver) is a regular expression: constant
    /// patterns are compiled once when a program is planned.
    pub regex_functions: Vec<&'static str>,
}

/// Functions by name.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    functions: HashMap<&'static str, Vec<Arc<Overload>>>,
    by_id: HashMap<&'static str, Arc<Overload>>,
    regex_functions: std::collections::HashSet<&'static str>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Adds every overload of `lib`; a later overload with an id already present replaces it.
    pub fn add(&mut self, lib: Library) {
        self.regex_functions.extend(lib.regex_functions);
        for o in lib.overloads {
            let o = Arc::new(o);
            if let Some(old) = self.by_id.insert(o.id, o.clone())
                && let Some(list) = self.functions.get_mut(old.function)
            {
                list.retain(|x| x.id != old.id);
            }
            self.functions.entry(o.function).or_default().push(o);
        }
    }

    /// Replaces the runtime cost function of overload `id` (cost estimators that take
    /// precedence over cel-go's built-in costs, like Kubernetes' `CostEstimator`). Returns
    /// false when no such overload is registered.
    pub fn set_cost(&mut self, id: &str, cost: CostFn) -> bool {
        let Some(old) = self.by_id.get(id).cloned() else {
            return false;
        };
        let mut o = Overload::clone(&old);
        o.cost = Some(cost);
        let o = Arc::new(o);
        self.by_id.insert(o.id, o.clone());
        if let Some(list) = self.functions.get_mut(o.function) {
            for slot in list.iter_mut() {
                if slot.id == o.id {
                    *slot = o.clone();
                }
            }
        }
        true
    }

    /// Whether a function of this name exists.
    pub fn has_function(&self, name: &str) -> bool {
        self.functions.contains_key(name)
    }

    /// Whether constant second arguments of `name` are patterns to precompile.
    pub fn is_regex_function(&self, name: &str) -> bool {
        self.regex_functions.contains(name)
    }

    /// The overloads of `name` that can take `arity` arguments (receiver included).
    pub fn candidates(&self, name: &str, arity: usize) -> Vec<Arc<Overload>> {
        self.functions
            .get(name)
            .map(|list| {
                list.iter()
                    .filter(|o| o.arity().is_none_or(|a| a == arity))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The overload with this id.
    pub fn overload(&self, id: &str) -> Option<&Arc<Overload>> {
        self.by_id.get(id)
    }

    /// The standard library plus every extension (the cel-spec conformance environment).
    pub fn full() -> Registry {
        let mut r = Registry::new();
        r.add(core::library());
        r.add(strings::library(strings::LATEST_VERSION));
        r.add(lists::library());
        r.add(sets::library());
        r.add(math::library());
        r.add(optional::library());
        r.add(encoders::library());
        r
    }

    /// The cel-go libraries of the Kubernetes base environment: the standard library, strings
    /// ext v2, lists ext v3, sets, optional types (Kubernetes' own libraries are added by the
    /// caller).
    pub fn kubernetes() -> Registry {
        let mut r = Registry::new();
        r.add(core::library());
        r.add(strings::library(2));
        r.add(lists::library());
        r.add(sets::library());
        r.add(optional::library());
        kubernetes_costs(&mut r);
        r
    }
}

fn cost_receiver_tenth(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    args.first().map_or(1, |a| core::traversal(a.cost_size()))
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
        r.set_cost(id, k8s::lists::cost_traverse);
    }
}

/// What a native function can see besides its arguments.
pub struct CallCtx<'p> {
    /// Regular expressions of the program.
    pub regexes: &'p regex::RegexCache,
    /// The compiled pattern when the call's pattern argument is a constant.
    pub precompiled: Option<&'p ::regex::Regex>,
}

impl CallCtx<'_> {
    /// The compiled regular expression for `pattern`.
    pub fn regex(&self, pattern: &str) -> Result<Arc<::regex::Regex>, EvalError> {
        self.regexes.get(pattern)
    }
}
