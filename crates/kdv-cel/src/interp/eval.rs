//! Evaluation of planned nodes with cel-go's error semantics and runtime cost tracking.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::plan::{CallNode, FastOp, Fold, Node, Order};
use super::{Activation, EvalConfig, INTERRUPT_CHECK_FREQUENCY, Program};
use crate::library::CallCtx;
use crate::value::{
    Bytes, EvalError, EvalResult, Key, List, Map, OwnedMap, Str, Value, double_to_i64_lossless,
    json_field,
};

/// cel-go `ListCreateBaseCost`.
const LIST_CREATE_COST: u64 = 10;
/// cel-go `MapCreateBaseCost`.
const MAP_CREATE_COST: u64 = 30;

/// Comprehension variables: inline for the usual few, on the heap for deep nesting, so
/// evaluation allocates nothing for them.
const INLINE_SLOTS: usize = 8;

// The inline variant is the point: it lives on the evaluator's stack.
#[allow(clippy::large_enum_variant)]
enum Slots<'a> {
    Inline([EvalResult<'a>; INLINE_SLOTS]),
    Heap(Vec<EvalResult<'a>>),
}

impl<'a> Slots<'a> {
    fn new(n: usize) -> Slots<'a> {
        // Most rules have no comprehension: nothing to initialise or drop.
        if n == 0 {
            Slots::Heap(Vec::new())
        } else if n <= INLINE_SLOTS {
            Slots::Inline(std::array::from_fn(|_| Ok(Value::Null)))
        } else {
            Slots::Heap((0..n).map(|_| Ok(Value::Null)).collect())
        }
    }
}

impl<'a> std::ops::Index<usize> for Slots<'a> {
    type Output = EvalResult<'a>;
    #[inline]
    fn index(&self, i: usize) -> &EvalResult<'a> {
        match self {
            Slots::Inline(a) => &a[i],
            Slots::Heap(v) => &v[i],
        }
    }
}

impl std::ops::IndexMut<usize> for Slots<'_> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut Self::Output {
        match self {
            Slots::Inline(a) => &mut a[i],
            Slots::Heap(v) => &mut v[i],
        }
    }
}

struct Evaluator<'a, 'x> {
    prog: &'a Program,
    act: &'x dyn Activation<'a>,
    slots: Slots<'a>,
    cost: u64,
    limit: u64,
    /// Set just before evaluating an attribute whose root resolution cel-go does not charge
    /// (an attribute used as a key, or as a branch of a conditional: cel-go unwraps its
    /// observer, while the qualifiers keep theirs); the root's charge site clears it.
    root_free: bool,
    interrupt: Option<&'x AtomicBool>,
    iterations: u32,
    /// The variable resolved last (by the address of its planned name, shared by every node
    /// of that variable) and its value: rules read `self` repeatedly.
    last_var: Option<(usize, Value<'a>)>,
}

/// Evaluates `prog`: its result and the runtime cost charged until it was known (on an
/// error, the cost of what ran before it, as cel-go's `ActualCost` reports it).
pub(super) fn run<'a>(
    prog: &'a Program,
    act: &dyn Activation<'a>,
    cfg: &EvalConfig<'_>,
) -> (Result<Value<'a>, EvalError>, u64) {
    let mut ev = Evaluator {
        prog,
        act,
        slots: Slots::new(prog.slots),
        cost: 0,
        limit: cfg.cost_limit.unwrap_or(u64::MAX),
        root_free: false,
        interrupt: cfg.interrupt,
        iterations: 0,
        last_var: None,
    };
    let v = ev.eval(&prog.root);
    (v, ev.cost)
}

/// A constant of the program, with strings and bytes borrowed rather than shared.
#[inline]
fn borrow_const<'a>(v: &'a Value<'static>) -> Value<'a> {
    match v {
        Value::String(Str::Shared(s)) => Value::String(Str::Borrowed(s)),
        Value::Bytes(Bytes::Shared(b)) => Value::Bytes(Bytes::Borrowed(b)),
        other => other.clone(),
    }
}

fn no_such_attribute(name: &str) -> EvalError {
    EvalError::new(format!("no such attribute(s): {name}"))
}

fn no_such_key(key: &dyn std::fmt::Display) -> EvalError {
    EvalError::new(format!("no such key: {key}"))
}

/// Go `%v` of an index/key value.
fn go_value(v: &Value<'_>) -> String {
    match v {
        Value::String(s) => s.to_string(),
        Value::Double(d) => crate::value::format_double(*d),
        Value::Uint(u) => u.to_string(),
        other => other.to_string(),
    }
}

/// `v.field` on a map (or a present optional, virally).
fn select<'a>(v: Value<'a>, field: &str) -> EvalResult<'a> {
    select_ref(&v, field)
}

/// [`select`] on a borrowed value.
#[inline]
fn select_ref<'a>(v: &Value<'a>, field: &str) -> EvalResult<'a> {
    match v {
        Value::Map(Map::Json(m)) => match json_field(m, field) {
            Some(x) => Ok(Value::from_json(x)),
            None => Err(no_such_key(&field)),
        },
        Value::Map(m) => m.find(field).unwrap_or_else(|| Err(no_such_key(&field))),
        Value::Optional(None) => Ok(Value::Optional(None)),
        Value::Optional(Some(inner)) => match &**inner {
            Value::Map(m) => Ok(Value::Optional(m.find(field).transpose()?.map(Arc::new))),
            _ => Err(no_such_key(&field)),
        },
        _ => Err(no_such_key(&field)),
    }
}

/// The list position for an index value: ints, uints and integral doubles.
fn list_index(list: &List<'_>, key: &Value<'_>) -> Result<Option<usize>, EvalError> {
    let i = match key {
        Value::Int(i) => *i,
        Value::Uint(u) => i64::try_from(*u)
            .map_err(|_| EvalError::new(format!("unsupported index value {u} in list")))?,
        Value::Double(d) => double_to_i64_lossless(*d).ok_or_else(|| {
            EvalError::new(format!(
                "unsupported index value {} in list",
                crate::value::format_double(*d)
            ))
        })?,
        other => {
            return Err(EvalError::new(format!(
                "unsupported index type '{}' in list",
                other.type_of()
            )));
        }
    };
    Ok(usize::try_from(i).ok().filter(|&i| i < list.len()))
}

/// `v[key]`; `None` when absent (the caller decides between an error and `none`).
fn index_opt<'a>(v: &Value<'a>, key: &Value<'_>) -> Result<Option<Value<'a>>, EvalError> {
    match v {
        Value::List(l) => list_index(l, key)?.and_then(|i| l.try_get(i)).transpose(),
        Value::Map(m) => match key {
            Value::String(s) => m.find(s).transpose(),
            _ => m.get(key).map_err(|_| no_such_key(&go_value(key))),
        },
        _ => Err(no_such_key(&go_value(key))),
    }
}

fn index<'a>(v: Value<'a>, key: &Value<'_>) -> EvalResult<'a> {
    match &v {
        Value::Optional(None) => Ok(Value::Optional(None)),
        Value::Optional(Some(inner)) => Ok(Value::Optional(index_opt(inner, key)?.map(Arc::new))),
        Value::List(_) => index_opt(&v, key)?
            .ok_or_else(|| EvalError::new(format!("index out of bounds: {}", go_value(key)))),
        _ => index_opt(&v, key)?.ok_or_else(|| no_such_key(&go_value(key))),
    }
}

/// The result of a [`FastOp`] for arguments of the kinds it covers; `None` for other kinds
/// (the call then dispatches as usual).
#[inline]
fn fast_op<'a>(
    op: FastOp,
    a: &Value<'a>,
    b: &Value<'a>,
    regex: Option<&regex::Regex>,
) -> Option<Value<'a>> {
    let r = match (op, a, b) {
        (FastOp::InMap, Value::String(k), Value::Map(m)) => m.contains_str(k),
        (FastOp::IntOrder(o), Value::Int(x), Value::Int(y)) => match o {
            Order::Less => x < y,
            Order::LessEquals => x <= y,
            Order::Greater => x > y,
            Order::GreaterEquals => x >= y,
        },
        (FastOp::Equals | FastOp::NotEquals, _, _) => {
            let eq = match (a, b) {
                (Value::String(x), Value::String(y)) => x.as_str() == y.as_str(),
                (Value::Int(x), Value::Int(y)) => x == y,
                (Value::Bool(x), Value::Bool(y)) => x == y,
                _ => return None,
            };
            eq == (op == FastOp::Equals)
        }
        (FastOp::StartsWith, Value::String(s), Value::String(p)) => s.starts_with(p.as_str()),
        (FastOp::Matches, Value::String(s), Value::String(_)) => regex?.is_match(s),
        _ => return None,
    };
    Some(Value::Bool(r))
}

fn map_key_borrowed<'a>(k: &Value<'a>) -> Result<Key<'a>, EvalError> {
    match k {
        Value::Bool(b) => Ok(Key::Bool(*b)),
        Value::Int(i) => Ok(Key::Int(*i)),
        Value::Uint(u) => Ok(Key::Uint(*u)),
        Value::String(s) => Ok(Key::String(s.clone())),
        other => Err(EvalError::new(format!(
            "unsupported key type: {}",
            other.type_of()
        ))),
    }
}

impl<'a> Evaluator<'a, '_> {
    #[inline]
    fn charge(&mut self, n: u64) -> Result<(), EvalError> {
        self.cost = self.cost.saturating_add(n);
        if self.cost > self.limit {
            return Err(EvalError::cost_limit_exceeded());
        }
        Ok(())
    }

    /// The charge for resolving the root of an attribute (a variable, or a computed value
    /// being qualified): 1, unless the attribute is evaluated with a free root.
    #[inline]
    fn charge_root(&mut self) -> Result<(), EvalError> {
        if self.root_free {
            self.root_free = false;
            return Ok(());
        }
        self.charge(1)
    }

    /// Evaluates attribute `n` (see [`super::plan::Node`]'s attribute kinds) without the
    /// charge for its root; its qualifiers are charged. An attribute evaluates its root
    /// first, so the flag is consumed by that root.
    fn eval_root_free(&mut self, n: &'a Node) -> EvalResult<'a> {
        self.root_free = true;
        let r = self.eval(n);
        self.root_free = false;
        r
    }

    fn eval_maybe_free(&mut self, n: &'a Node, free: bool) -> EvalResult<'a> {
        if free {
            self.eval_root_free(n)
        } else {
            self.eval(n)
        }
    }

    /// Evaluates a node. The common kinds are handled here; the others in `eval_more`, so
    /// this frame stays small (it is on the stack once per nesting level).
    fn eval(&mut self, n: &'a Node) -> EvalResult<'a> {
        match n {
            Node::Const(v) => Ok(borrow_const(v)),
            Node::Slot(s) => {
                self.charge_root()?;
                self.slots[*s as usize].clone()
            }
            Node::Var(name) => {
                self.charge_root()?;
                self.var(name)
            }
            Node::Select(op, field) => self.select_node(op, field),
            Node::Call(c) if c.args.len() == 2 => self.call2(c),
            Node::Call(c) => self.call(c),
            Node::InKey(c) => self.in_key(c),
            Node::And(pair) => self.logic(&pair.0, &pair.1, false),
            Node::Or(pair) => self.logic(&pair.0, &pair.1, true),
            _ => self.eval_more(n),
        }
    }

    /// `'key' in e` ([`Node::InKey`]): as `call` evaluates it, without the general call
    /// machinery when `e` is a map.
    #[inline(never)]
    fn in_key(&mut self, c: &'a CallNode) -> EvalResult<'a> {
        let (Node::Const(key), Some(fast)) = (&c.args[0], &c.fast) else {
            return self.call(c);
        };
        let m = match self.eval(&c.args[1]) {
            Ok(v) => v,
            Err(e) => return self.strict_error(e),
        };
        if let (Value::String(k), Value::Map(map)) = (key, &m) {
            let r = Value::Bool(map.contains_str(k));
            let cost = match fast.cost {
                None => 1,
                Some(f) => f(&[borrow_const(key), m], &r),
            };
            self.charge(cost)?;
            return Ok(r);
        }
        self.dispatch(c, &[borrow_const(key), m])
    }

    /// The value of an activation variable (uncharged).
    #[inline]
    fn var(&mut self, name: &'a Arc<str>) -> EvalResult<'a> {
        if !self.prog.cache_vars {
            return self.resolve(name);
        }
        let key = name.as_ptr() as usize;
        if let Some((k, v)) = &self.last_var
            && *k == key
        {
            return Ok(v.clone());
        }
        let v = self.resolve(name)?;
        self.last_var = Some((key, v.clone()));
        Ok(v)
    }

    /// The activation's value of variable `name`.
    #[inline]
    fn resolve(&self, name: &str) -> EvalResult<'a> {
        self.act
            .resolve(name)
            .ok_or_else(|| no_such_attribute(name))
    }

    /// `op.field`: a field of a comprehension variable or of an activation variable is read
    /// in place rather than through a copy of the whole value.
    #[inline(never)]
    fn select_node(&mut self, op: &'a Node, field: &str) -> EvalResult<'a> {
        match op {
            Node::Slot(s) => {
                self.charge_root()?;
                let r = match &self.slots[*s as usize] {
                    Ok(v) => select_ref(v, field),
                    Err(e) => return Err(e.clone()),
                };
                self.charge(1)?;
                r
            }
            Node::Var(name) if self.prog.cache_vars => {
                // Read the field straight out of the kept variable (no copy of it).
                self.charge_root()?;
                let key = name.as_ptr() as usize;
                if !matches!(&self.last_var, Some((k, _)) if *k == key) {
                    let v = self.resolve(name)?;
                    self.last_var = Some((key, v));
                }
                self.charge(1)?;
                match &self.last_var {
                    Some((_, v)) => select_ref(v, field),
                    // Set just above.
                    None => Err(no_such_attribute(name)),
                }
            }
            Node::Var(name) => {
                self.charge_root()?;
                let v = self.resolve(name)?;
                self.charge(1)?;
                select_ref(&v, field)
            }
            _ => {
                let v = self.eval(op)?;
                self.charge(1)?;
                select_ref(&v, field)
            }
        }
    }

    /// The node kinds `eval` leaves out.
    #[inline(never)]
    fn eval_more(&mut self, n: &'a Node) -> EvalResult<'a> {
        match n {
            Node::Const(_)
            | Node::Slot(_)
            | Node::Var(_)
            | Node::Select(..)
            | Node::Call(_)
            | Node::InKey(_)
            | Node::And(_)
            | Node::Or(_) => self.eval(n),
            Node::DynName(_) | Node::OptSelect(..) | Node::OptIndex(..) | Node::OptOr(..) => {
                self.eval_cold(n)
            }
            Node::RelAttr(op) => {
                // The flag is this root's, not the operand's.
                let free = std::mem::take(&mut self.root_free);
                let r = self.eval(op);
                if let Err(e) = &r
                    && e.abort
                {
                    return r;
                }
                if !free {
                    self.charge(1)?;
                }
                r
            }
            Node::Has(op, field) => {
                let v = self.eval(op)?;
                if self.prog.presence_test_has_cost {
                    self.charge(1)?;
                }
                self.has(&v, field)
            }
            Node::Index(pair, key_attr) => {
                let v = self.eval(&pair.0)?;
                let k = self.eval_maybe_free(&pair.1, *key_attr)?;
                self.charge(1)?;
                index(v, &k)
            }
            Node::Cond(parts, t_attr, f_attr) => match self.eval(&parts.0)? {
                Value::Bool(true) => self.eval_maybe_free(&parts.1, *t_attr),
                Value::Bool(false) => self.eval_maybe_free(&parts.2, *f_attr),
                _ => Err(EvalError::no_such_overload()),
            },
            Node::NotStrictlyFalse(e) => {
                let v = self.eval(e);
                self.charge(1)?;
                match v {
                    Ok(Value::Bool(b)) => Ok(Value::Bool(b)),
                    Err(e) if e.abort => Err(e),
                    _ => Ok(Value::Bool(true)),
                }
            }
            Node::InConst(e, list) => {
                let v = self.eval(e)?;
                Ok(Value::Bool(list.iter().any(|x| x.cel_eq(&v))))
            }
            Node::List(elems, optional) => {
                let r = self.list(elems, optional);
                self.charge(LIST_CREATE_COST)?;
                r
            }
            Node::Map(entries) => {
                let r = self.map(entries);
                self.charge(MAP_CREATE_COST)?;
                r
            }
            Node::Fold(f) => self.fold(f),
            Node::AppendAccu(slot, elems, free_list) => self.append_accu(*slot, elems, *free_list),
            Node::MapInsertAccu(slot, args) => self.map_insert_accu(*slot, args),
            Node::Fail(e) => Err(e.clone()),
            Node::SlotNotFalse(slot) => {
                self.charge(2)?;
                Ok(Value::Bool(!matches!(
                    self.slots[*slot as usize],
                    Ok(Value::Bool(false))
                )))
            }
            Node::SlotNotTrue(slot) => {
                self.charge(3)?;
                Ok(Value::Bool(!matches!(
                    self.slots[*slot as usize],
                    Ok(Value::Bool(true))
                )))
            }
            Node::SlotLogic(slot, rhs, is_or) => self.slot_logic(*slot, rhs, *is_or),
        }
    }

    /// `slot && rhs` / `slot || rhs`.
    #[inline]
    fn slot_logic(&mut self, slot: u32, rhs: &'a Node, is_or: bool) -> EvalResult<'a> {
        self.charge(1)?;
        let l = match &self.slots[slot as usize] {
            Ok(Value::Bool(x)) if *x == is_or => return Ok(Value::Bool(is_or)),
            Ok(Value::Bool(x)) => Ok(Value::Bool(*x)),
            other => other.clone(),
        };
        self.logic_rest(l, rhs, is_or)
    }

    /// Node kinds off the hot path, kept out of `eval` so its frame stays small.
    #[inline(never)]
    fn eval_cold(&mut self, n: &'a Node) -> EvalResult<'a> {
        match n {
            Node::DynName(d) => {
                self.charge_root()?;
                for (name, k) in &d.candidates {
                    if let Some(mut v) = self.act.resolve(name) {
                        for f in &d.path[*k..] {
                            self.charge(1)?;
                            v = select(v, f)?;
                        }
                        return Ok(v);
                    }
                }
                if let Some(t) = &d.fallback {
                    return Ok(borrow_const(t));
                }
                Err(EvalError::new(format!(
                    "undeclared reference to '{}' (in container '{}')",
                    d.display, d.container
                )))
            }
            Node::OptSelect(op, field) => {
                let v = self.eval(op)?;
                let inner = match &v {
                    Value::Optional(None) => return Ok(Value::Optional(None)),
                    Value::Optional(Some(inner)) => &**inner,
                    other => other,
                };
                match inner {
                    Value::Map(m) => match m.find(field) {
                        Some(x) => {
                            let x = x?;
                            self.charge(1)?;
                            Ok(Value::optional_of(x))
                        }
                        None => Ok(Value::Optional(None)),
                    },
                    _ => Err(no_such_key(field)),
                }
            }
            Node::OptIndex(pair, key_attr) => {
                let v = self.eval(&pair.0)?;
                let k = self.eval_maybe_free(&pair.1, *key_attr)?;
                let inner = match &v {
                    Value::Optional(None) => return Ok(Value::Optional(None)),
                    Value::Optional(Some(inner)) => &**inner,
                    other => other,
                };
                match index_opt(inner, &k) {
                    Ok(Some(x)) => {
                        self.charge(1)?;
                        Ok(Value::optional_of(x))
                    }
                    Ok(None) => Ok(Value::Optional(None)),
                    Err(e) => Err(e),
                }
            }
            // cel-go plans `or`/`orValue` on optionals as its own short-circuiting step
            // (`evalOptionalOr`, `evalOptionalOrValue`), which the cost tracker does not
            // charge: only the operands evaluated cost (TestCelCostStability:
            // `optional.none().or(optional.of('a')).hasValue()` costs 3).
            Node::OptOr(pair, or_value, fallback) => {
                let l = self.eval(&pair.0)?;
                match l {
                    Value::Optional(Some(v)) => Ok(if *or_value {
                        Value::clone(&v)
                    } else {
                        Value::Optional(Some(v))
                    }),
                    Value::Optional(None) => {
                        let r = self.eval(&pair.1)?;
                        if !*or_value && !matches!(r, Value::Optional(_)) {
                            return Err(EvalError::no_such_overload());
                        }
                        Ok(r)
                    }
                    other => {
                        let r = self.eval(&pair.1)?;
                        self.dispatch(fallback, &[other, r])
                    }
                }
            }
            _ => self.eval(n),
        }
    }

    fn has(&self, v: &Value<'a>, field: &str) -> EvalResult<'a> {
        match v {
            // A typed map converts the field's data (cel-go's `Find`): data the schema
            // cannot read is an error, as upstream's `has()` reports it.
            Value::Map(m @ crate::value::Map::Typed(..)) => match m.find(field) {
                None => Ok(Value::Bool(false)),
                Some(Ok(_)) => Ok(Value::Bool(true)),
                Some(Err(e)) => Err(e),
            },
            Value::Map(m) => Ok(Value::Bool(m.contains_str(field))),
            Value::Optional(None) => Ok(Value::Bool(false)),
            Value::Optional(Some(inner)) => self.has(inner, field),
            _ if !self.prog.error_on_bad_presence_test => Ok(Value::Bool(false)),
            _ => Err(no_such_key(&field)),
        }
    }

    /// `&&` (`is_or` false) and `||`: a deciding operand wins over errors on either side.
    fn logic(&mut self, a: &'a Node, b: &'a Node, is_or: bool) -> EvalResult<'a> {
        let l = self.eval(a);
        match &l {
            Ok(Value::Bool(x)) if *x == is_or => return Ok(Value::Bool(is_or)),
            Err(e) if e.abort => return l,
            _ => {}
        }
        self.logic_rest(l, b, is_or)
    }

    /// The second half of `&&`/`||` once the left operand did not decide.
    fn logic_rest(&mut self, l: EvalResult<'a>, b: &'a Node, is_or: bool) -> EvalResult<'a> {
        let r = self.eval(b);
        match &r {
            Ok(Value::Bool(x)) if *x == is_or => return Ok(Value::Bool(is_or)),
            Err(e) if e.abort => return r,
            _ => {}
        }
        match (l, r) {
            (Ok(Value::Bool(_)), Ok(Value::Bool(_))) => Ok(Value::Bool(!is_or)),
            (Err(e), _) => Err(e),
            (Ok(Value::Bool(_)), Err(e)) => Err(e),
            _ => Err(EvalError::no_such_overload()),
        }
    }

    #[inline(never)]
    fn call(&mut self, c: &'a CallNode) -> EvalResult<'a> {
        match c.args.len() {
            0 => self.dispatch(c, &[]),
            1 => match self.eval(&c.args[0]) {
                Ok(a) => self.dispatch(c, &[a]),
                Err(e) => self.strict_error(e),
            },
            2 => self.call2(c),
            3 => {
                let a = match self.eval(&c.args[0]) {
                    Ok(v) => v,
                    Err(e) => return self.strict_error(e),
                };
                let b = match self.eval(&c.args[1]) {
                    Ok(v) => v,
                    Err(e) => return self.strict_error(e),
                };
                let d = match self.eval(&c.args[2]) {
                    Ok(v) => v,
                    Err(e) => return self.strict_error(e),
                };
                self.dispatch(c, &[a, b, d])
            }
            _ => {
                let mut args = Vec::with_capacity(c.args.len());
                for a in c.args.iter() {
                    match self.eval(a) {
                        Ok(v) => args.push(v),
                        Err(e) => return self.strict_error(e),
                    }
                }
                self.dispatch(c, &args)
            }
        }
    }

    /// A call of two arguments (most operators), in a frame of its own.
    #[inline(never)]
    fn call2(&mut self, c: &'a CallNode) -> EvalResult<'a> {
        let a = self.eval(&c.args[0]);
        if let Err(e) = &a
            && e.abort
        {
            return a;
        }
        let b = self.eval(&c.args[1]);
        match (a, b) {
            (Ok(a), Ok(b)) => {
                if let Some(fast) = &c.fast
                    && let Some(v) = fast_op(fast.op, &a, &b, c.regex.as_deref())
                {
                    let cost = match fast.cost {
                        None => 1,
                        Some(f) => f(&[a, b], &v),
                    };
                    self.charge(cost)?;
                    return Ok(v);
                }
                self.dispatch(c, &[a, b])
            }
            (Err(e), _) | (_, Err(e)) => self.strict_error(e),
        }
    }

    /// A strict call whose argument failed: cel-go still charges the call.
    fn strict_error(&mut self, e: EvalError) -> EvalResult<'a> {
        if e.abort {
            return Err(e);
        }
        self.charge(1)?;
        Err(e)
    }

    fn dispatch(&mut self, c: &'a CallNode, args: &[Value<'a>]) -> EvalResult<'a> {
        for o in c.overloads.iter() {
            if o.accepts(args) {
                let ctx = CallCtx {
                    regexes: &self.prog.regexes,
                    precompiled: c.regex.as_deref(),
                    remaining_cost: self.limit.saturating_sub(self.cost),
                };
                let r = (o.imp)(&ctx, args);
                let cost = match (&r, o.cost) {
                    (_, None) => 1,
                    // cel-go planned the call without an overload id (see
                    // `CallNode::no_overload_id`).
                    _ if c.no_overload_id && o.cost_by_id => 1,
                    (Ok(v), Some(f)) => f(args, v),
                    (Err(_), Some(f)) => f(args, &Value::Null),
                };
                self.charge(cost)?;
                return r;
            }
        }
        self.charge(1)?;
        if c.overloads.is_empty() {
            return Err(EvalError::new(format!("no such overload: {}", c.function)));
        }
        Err(EvalError::no_such_overload())
    }

    #[inline(never)]
    fn list(&mut self, elems: &'a [Node], optional: &[u32]) -> EvalResult<'a> {
        let mut out = Vec::with_capacity(elems.len());
        for (i, e) in elems.iter().enumerate() {
            let v = self.eval(e)?;
            if optional.contains(&(i as u32)) {
                match v {
                    Value::Optional(Some(x)) => out.push(Value::clone(&x)),
                    Value::Optional(None) => {}
                    other => {
                        return Err(EvalError::new(format!(
                            "cannot initialize optional list element from non-optional value {other}"
                        )));
                    }
                }
            } else {
                out.push(v);
            }
        }
        Ok(Value::list(out))
    }

    #[inline(never)]
    fn map(&mut self, entries: &'a [(Node, Node, bool)]) -> EvalResult<'a> {
        let mut m = OwnedMap::new();
        for (k, v, optional) in entries {
            let k = self.eval(k)?;
            let key = map_key_borrowed(&k)?;
            let v = self.eval(v)?;
            let v = if *optional {
                match v {
                    Value::Optional(Some(x)) => Value::clone(&x),
                    Value::Optional(None) => continue,
                    other => {
                        return Err(EvalError::new(format!(
                            "cannot initialize optional entry '{}' from non-optional value {other}",
                            go_value(&k)
                        )));
                    }
                }
            } else {
                v
            };
            if m.insert_new(key, v).is_err() {
                return Err(EvalError::new(format!(
                    "Failed with repeated key: {}",
                    go_value(&k)
                )));
            }
        }
        Ok(Value::Map(Map::Owned(Arc::new(m))))
    }

    fn tick(&mut self) -> Result<(), EvalError> {
        self.iterations = self.iterations.wrapping_add(1);
        if self.iterations.is_multiple_of(INTERRUPT_CHECK_FREQUENCY)
            && let Some(flag) = self.interrupt
            && flag.load(Ordering::Relaxed)
        {
            return Err(EvalError::interrupted());
        }
        Ok(())
    }

    /// One iteration; `Ok(false)` when the loop condition stopped the loop.
    fn iterate(&mut self, f: &'a Fold) -> Result<bool, EvalError> {
        self.tick()?;
        match &f.cond {
            None => {}
            // The `all` and `exists` conditions, read in place (same costs as `eval`).
            Some(Node::SlotNotFalse(slot)) => {
                self.charge(2)?;
                if matches!(self.slots[*slot as usize], Ok(Value::Bool(false))) {
                    return Ok(false);
                }
            }
            Some(Node::SlotNotTrue(slot)) => {
                self.charge(3)?;
                if matches!(self.slots[*slot as usize], Ok(Value::Bool(true))) {
                    return Ok(false);
                }
            }
            Some(cond) => match self.eval(cond) {
                Ok(Value::Bool(false)) => return Ok(false),
                Err(e) if e.abort => return Err(e),
                _ => {}
            },
        }
        // `c ? update : accu` (filter, map with a predicate, exists_one): when `c` is false the
        // accumulator stays as it is; no need to copy it out and back (the attribute branch
        // costs nothing, as in cel-go).
        if let Node::Cond(parts, t_attr, _) = &f.step
            && matches!(parts.2, Node::Slot(s) if s == f.accu)
        {
            let step = match self.eval(&parts.0) {
                Ok(Value::Bool(false)) => return Ok(true),
                Ok(Value::Bool(true)) => self.eval_maybe_free(&parts.1, *t_attr),
                Ok(_) => Err(EvalError::no_such_overload()),
                Err(e) => Err(e),
            };
            return self.store_step(f, step);
        }
        let step = match &f.step {
            Node::SlotLogic(slot, rhs, is_or) => self.slot_logic(*slot, rhs, *is_or),
            other => self.eval(other),
        };
        self.store_step(f, step)
    }

    fn store_step(&mut self, f: &'a Fold, step: EvalResult<'a>) -> Result<bool, EvalError> {
        if let Err(e) = &step
            && e.abort
        {
            return Err(e.clone());
        }
        self.slots[f.accu as usize] = step;
        Ok(true)
    }

    #[inline(never)]
    fn fold(&mut self, f: &'a Fold) -> EvalResult<'a> {
        let range = self.eval(&f.range)?;
        let init = self.eval(&f.init);
        if let Err(e) = &init
            && e.abort
        {
            return init;
        }
        self.slots[f.accu as usize] = init;
        let (it, it2) = (f.iter as usize, f.iter2.map(|s| s as usize));
        match &range {
            Value::List(l) => {
                for i in 0..l.len() {
                    // A typed element that fails to convert is an error value in the loop.
                    let Some(elem) = l.try_get(i) else { break };
                    match it2 {
                        Some(s2) => {
                            self.slots[it] = Ok(Value::Int(i as i64));
                            self.slots[s2] = elem;
                        }
                        None => self.slots[it] = elem,
                    }
                    if !self.iterate(f)? {
                        break;
                    }
                }
            }
            Value::Map(m) => {
                for (k, v) in m.entries() {
                    self.slots[it] = Ok(k);
                    if let Some(s2) = it2 {
                        self.slots[s2] = Ok(v);
                    }
                    if !self.iterate(f)? {
                        break;
                    }
                }
            }
            other => {
                return Err(EvalError::new(format!(
                    "expression of type '{}' cannot be range of a comprehension (must be list, map, or dynamic)",
                    other.type_of()
                )));
            }
        }
        let r = self.eval(&f.result);
        // Release the loop's values early (they may hold large shared lists).
        self.slots[f.accu as usize] = Ok(Value::Null);
        r
    }

    #[inline(never)]
    fn append_accu(&mut self, slot: u32, elems: &'a [Node], free_list: bool) -> EvalResult<'a> {
        // Charges as `@result + [elems]`: the accumulator read, the list literal, the call.
        self.charge(1)?;
        // One element (the macros' case) needs no temporary vector.
        let mut single = None;
        let mut values = Vec::new();
        let mut failed = None;
        for e in elems.iter() {
            match self.eval(e) {
                Ok(v) if elems.len() == 1 => single = Some(v),
                Ok(v) => values.push(v),
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        if !free_list {
            self.charge(LIST_CREATE_COST)?;
        }
        self.charge(1)?;
        if let Some(e) = failed {
            return Err(e);
        }
        let acc = std::mem::replace(&mut self.slots[slot as usize], Ok(Value::Null))?;
        match acc {
            Value::List(List::Owned(mut arc)) => {
                let target = Arc::make_mut(&mut arc);
                target.extend(single);
                target.extend(values);
                Ok(Value::List(List::Owned(arc)))
            }
            Value::List(l) => {
                let mut v = l.to_vec();
                v.extend(single);
                v.extend(values);
                Ok(Value::list(v))
            }
            _ => Err(EvalError::no_such_overload()),
        }
    }

    #[inline(never)]
    fn map_insert_accu(&mut self, slot: u32, args: &'a [Node]) -> EvalResult<'a> {
        self.charge(1)?;
        let mut values = Vec::with_capacity(2);
        for a in args {
            match self.eval(a) {
                Ok(v) => values.push(v),
                Err(e) => return self.strict_error(e),
            }
        }
        self.charge(1)?;
        let acc = std::mem::replace(&mut self.slots[slot as usize], Ok(Value::Null))?;
        let Value::Map(m) = acc else {
            return Err(EvalError::no_such_overload());
        };
        let mut owned = match m {
            Map::Owned(arc) => arc,
            Map::Json(_) | Map::Typed(..) | Map::Native(_) => {
                let mut o = OwnedMap::new();
                for (k, v) in m.entries() {
                    let _ = o.insert_new(map_key_borrowed(&k)?, v);
                }
                Arc::new(o)
            }
        };
        let target = Arc::make_mut(&mut owned);
        let mut insert = |k: Value<'a>, v: Value<'a>| -> Result<(), EvalError> {
            let key = map_key_borrowed(&k)?;
            target.insert_new(key, v).map_err(|_| {
                EvalError::new(format!(
                    "insert failed: key {} already exists",
                    go_value(&k)
                ))
            })
        };
        match values.as_slice() {
            [k, v] => insert(k.clone(), v.clone())?,
            [Value::Map(other)] => {
                for (k, v) in other.entries() {
                    insert(k, v)?;
                }
            }
            _ => return Err(EvalError::no_such_overload()),
        }
        Ok(Value::Map(Map::Owned(owned)))
    }
}
