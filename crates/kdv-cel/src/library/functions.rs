//! What the interpreter runs of a library: overload implementations with their runtime
//! parameter types and runtime costs, collected by function name and overload id in a
//! [`Registry`] that the planner binds calls against.

use std::collections::HashMap;
use std::sync::Arc;

use super::regex::RegexCache;
use crate::types::Kind;
use crate::value::{EvalError, Value};

/// A native function: receives the evaluated arguments (the receiver first for member calls).
pub type NativeFn = for<'a> fn(&CallCtx<'_>, &[Value<'a>]) -> Result<Value<'a>, EvalError>;

/// Runtime cost of one call (cel-go `CallCost`), from the arguments and the result.
pub type CostFn = fn(&[Value<'_>], &Value<'_>) -> u64;

/// What one parameter of a runtime overload accepts: values of one [`Kind`] ([`Kind::Dyn`]:
/// any value), and for [`Kind::Opaque`] only values of the library type named `opaque`. The
/// dispatcher's view of a parameter type is the shared [`Kind`] plus that name, not a kind
/// enum of its own.
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
    /// Whether `cost` is keyed by overload id (cel-go's built-in call costs and its
    /// extensions' cost trackers): cel-go plans a call the checker could not narrow to one
    /// overload (a `dyn` argument) without an overload id, so such a rule then does not apply
    /// and the call costs 1. Rules keyed by function name (Kubernetes' `CostEstimator`)
    /// apply whichever overload runs.
    pub cost_by_id: bool,
}

impl Overload {
    /// An overload with fixed parameter types and cel-go's default runtime cost (1).
    pub const fn new(
        id: &'static str,
        function: &'static str,
        member: bool,
        params: &'static [ParamType],
        imp: NativeFn,
    ) -> Overload {
        Overload {
            id,
            function,
            member,
            params: Some(params),
            imp,
            cost: None,
            cost_by_id: false,
        }
    }

    /// The overload with runtime cost `cost`, a rule keyed by its overload id (see
    /// [`Overload::cost_by_id`]).
    #[must_use]
    pub fn with_cost(mut self, cost: CostFn) -> Overload {
        self.cost = Some(cost);
        self.cost_by_id = true;
        self
    }

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

/// What the interpreter runs of one library: the implementations of its overloads, with their
/// runtime costs, by overload id.
#[derive(Clone, Debug, Default)]
pub struct Functions {
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
    pub fn add(&mut self, lib: Functions) {
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
        o.cost_by_id = false;
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
}

/// What a native function can see besides its arguments.
pub struct CallCtx<'p> {
    /// Regular expressions of the program.
    pub regexes: &'p RegexCache,
    /// The compiled pattern when the call's pattern argument is a constant.
    pub precompiled: Option<&'p ::regex::Regex>,
    /// The runtime cost the evaluation may still spend before its limit.
    pub remaining_cost: u64,
}

/// Most elements one call may allocate for a result whose size its arguments choose
/// (`lists.range(n)`): about 512 MiB of values. cel-go allocates first and charges the cost
/// after, so a large enough cost limit lets it exhaust memory; kdv refuses the call instead
/// with cel-go's cost error, which is what a limit of this size means in practice.
pub const MAX_CALL_ELEMENTS: u64 = 1 << 24;

impl CallCtx<'_> {
    /// The compiled regular expression for `pattern`.
    pub fn regex(&self, pattern: &str) -> Result<Arc<::regex::Regex>, EvalError> {
        self.regexes.get(pattern)
    }

    /// Before allocating a result of `elements` elements whose runtime cost is `cost`:
    /// `operation cancelled: actual cost limit exceeded` when the cost charged after the
    /// call would exceed the limit anyway, or the result exceeds `MAX_CALL_ELEMENTS` (2^24), so
    /// memory stays bounded by the cost limit.
    pub fn reserve(&self, elements: u64, cost: u64) -> Result<(), EvalError> {
        if cost > self.remaining_cost || elements > MAX_CALL_ELEMENTS {
            return Err(EvalError::cost_limit_exceeded());
        }
        Ok(())
    }
}

/// `no such overload`: the error of arguments of kinds no overload takes (reachable through
/// `dyn`), and of implementations handed arguments they do not take.
pub(crate) fn nso() -> EvalError {
    EvalError::no_such_overload()
}

/// ⌈n · 0.1⌉: cel-go's runtime cost of traversing `n` code points, bytes or elements.
pub(crate) fn traversal(n: u64) -> u64 {
    // The float product is cel-go's (70 · 0.1 rounds up to 8); below 11 it is 0 or 1.
    if n <= 10 {
        return u64::from(n > 0);
    }
    (n as f64 * 0.1).ceil() as u64
}
