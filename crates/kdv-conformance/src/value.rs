//! Runtime values of the interpreted Go subset, with Go's value semantics: structs and
//! arrays are copied on assignment (they are plain Rust values here), pointers, slices and
//! maps share their storage (reference-counted cells).

use std::cell::RefCell;
use std::rc::Rc;

use kdv_model::{Builtin, TypeRef};
use kdv_runtime::{FieldError, FieldPath};

use crate::matcher::Matcher;
use crate::syntax::{FuncSig, Stmt};
use crate::types::{FIELD_PKG, TypeEnv, is_named};

/// Shared storage of one variable or pointee.
pub type Cell = Rc<RefCell<Value>>;
/// Backing array of a slice.
pub type SliceRef = Rc<RefCell<Vec<Value>>>;
/// Entries of a map, in insertion order (Go's order is random; nothing here depends on it).
pub type MapRef = Rc<RefCell<Vec<(Value, Value)>>>;

/// Makes a new cell.
pub fn cell(v: Value) -> Cell {
    Rc::new(RefCell::new(v))
}

/// A value.
#[derive(Debug, Clone)]
pub enum Value {
    /// Untyped `nil`.
    Nil,
    UntypedBool(bool),
    UntypedInt(i128),
    UntypedRune(i128),
    UntypedFloat(f64),
    UntypedString(String),
    Bool(TypeRef, bool),
    Int(TypeRef, i128),
    Float(TypeRef, f64),
    Str(TypeRef, String),
    /// A struct value of the given type; fields in declaration order.
    Struct(TypeRef, Vec<Value>),
    Array(TypeRef, Vec<Value>),
    /// A pointer: pointee type, and the pointee's storage (`None` = nil).
    Ptr(TypeRef, Option<Cell>),
    /// A slice: slice type and backing array (`None` = nil slice).
    Slice(TypeRef, Option<SliceRef>),
    /// A map: map type and entries (`None` = nil map).
    Map(TypeRef, Option<MapRef>),
    /// A value stored in an interface-typed slot (`None` = nil interface).
    Iface(Option<Box<Value>>),
    /// A function value.
    Func(Rc<Closure>),
    /// Several results of a call.
    Tuple(Vec<Value>),
    // --- emulated library values -----------------------------------------------------
    /// `*field.Path` (the nil path is the empty path).
    Path(FieldPath),
    /// `*field.Error` (`None` = nil).
    FieldErr(Option<Rc<RefCell<FieldError>>>),
    /// `field.ErrorMatcher`.
    Matcher(Matcher),
    /// `*testscheme.ValidationTester`.
    Tester(Rc<RefCell<TesterState>>),
    /// `*testscheme.ValidationTestBuilder` (`st`).
    Builder,
    /// `localSchemeBuilder`.
    Scheme,
    /// `*testing.T`.
    TestingT,
    /// An `error` value (`None` = nil error).
    GoError(Option<Rc<String>>),
    /// `context.Context`.
    Context,
    /// `operation.Operation` (only the zero value, a Create without options, is used).
    Operation,
    /// An imported package name (only meaningful as a selector's operand).
    Package(String),
    /// A type in value position (conversion target, `make`/`new` argument).
    Type(TypeRef),
    /// A function of an emulated package or a Go builtin.
    Native(Native),
}

/// Functions the interpreter provides natively.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Native {
    /// A Go builtin (`len`, `append`, `make`, `new`, ...).
    Builtin(&'static str),
    /// A function of an emulated package: (import path, name).
    Pkg(String, String),
    /// A function the harness provides in place of the test file's own
    /// ([`crate::interp::Harness::hook`]).
    Hook(String),
    /// A generated `Validate_<Type>` function of a fixture package: (package path, type).
    ValidateFn(String, String),
}

/// A closure: signature, body and the scope it captured.
#[derive(Debug)]
pub struct Closure {
    pub name: String,
    pub sig: FuncSig,
    pub body: Vec<Stmt>,
    pub env: Rc<Scope>,
}

/// A lexical scope: variables and the enclosing scope.
#[derive(Debug, Default)]
pub struct Scope {
    pub vars: RefCell<Vec<(String, Cell)>>,
    pub parent: Option<Rc<Scope>>,
}

impl Scope {
    /// A new scope inside `parent`.
    pub fn child(parent: &Rc<Scope>) -> Rc<Scope> {
        Rc::new(Scope {
            vars: RefCell::new(Vec::new()),
            parent: Some(parent.clone()),
        })
    }

    /// Finds a variable, innermost first.
    pub fn lookup(&self, name: &str) -> Option<Cell> {
        let mut cur: Option<&Scope> = Some(self);
        while let Some(s) = cur {
            if let Some((_, c)) = s.vars.borrow().iter().rev().find(|(n, _)| n == name) {
                return Some(c.clone());
            }
            cur = s.parent.as_deref();
        }
        None
    }

    /// Declares (or redeclares in this scope) a variable.
    pub fn declare(&self, name: &str, v: Value) -> Cell {
        let c = cell(v);
        if name != "_" {
            let mut vars = self.vars.borrow_mut();
            if let Some(slot) = vars.iter_mut().find(|(n, _)| n == name) {
                slot.1 = c.clone();
            } else {
                vars.push((name.to_string(), c.clone()));
            }
        }
        c
    }

    /// Whether this very scope declares `name`.
    pub fn declares(&self, name: &str) -> bool {
        self.vars.borrow().iter().any(|(n, _)| n == name)
    }
}

/// The state of one `st.Value(...)` case.
#[derive(Debug, Clone)]
pub struct TesterState {
    /// Index of the case in the run's case list.
    pub case: usize,
    pub value: Value,
    /// `Some` once `.OldValue(o)` was called (then the case is an update).
    pub old: Option<Value>,
    pub opts: Option<Value>,
    pub subresources: Vec<String>,
}

impl Value {
    /// `string` typed value.
    pub fn string(s: impl Into<String>) -> Value {
        Value::Str(TypeRef::Builtin(Builtin::String), s.into())
    }

    /// `int` typed value.
    pub fn int(i: i128) -> Value {
        Value::Int(TypeRef::Builtin(Builtin::Int), i)
    }

    /// `bool` typed value.
    pub fn bool(b: bool) -> Value {
        Value::Bool(TypeRef::Builtin(Builtin::Bool), b)
    }

    /// Removes one interface layer.
    pub fn unwrap_iface(self) -> Value {
        match self {
            Value::Iface(Some(b)) => *b,
            Value::Iface(None) => Value::Nil,
            v => v,
        }
    }

    /// Borrowing variant of [`Value::unwrap_iface`].
    pub fn as_dynamic(&self) -> &Value {
        match self {
            Value::Iface(Some(b)) => b,
            v => v,
        }
    }

    /// Go's `x == nil` for nilable values.
    pub fn is_nil(&self) -> bool {
        match self {
            Value::Nil => true,
            Value::Ptr(_, c) => c.is_none(),
            Value::Slice(_, s) => s.is_none(),
            Value::Map(_, m) => m.is_none(),
            Value::Iface(v) => v.is_none(),
            Value::FieldErr(e) => e.is_none(),
            Value::GoError(e) => e.is_none(),
            Value::Path(p) => p.is_nil(),
            _ => false,
        }
    }

    /// The string content of a string value (typed or untyped).
    pub fn as_str(&self) -> Option<&str> {
        match self.as_dynamic() {
            Value::Str(_, s) | Value::UntypedString(s) => Some(s),
            _ => None,
        }
    }

    /// The integer content of an integer value (typed or untyped, including runes and
    /// integral floats).
    pub fn as_int(&self) -> Option<i128> {
        match self.as_dynamic() {
            Value::Int(_, i) | Value::UntypedInt(i) | Value::UntypedRune(i) => Some(*i),
            Value::UntypedFloat(f) if f.fract() == 0.0 && f.abs() < 1e30 => Some(*f as i128),
            _ => None,
        }
    }

    /// The boolean content of a bool value.
    pub fn as_bool(&self) -> Option<bool> {
        match self.as_dynamic() {
            Value::Bool(_, b) | Value::UntypedBool(b) => Some(*b),
            _ => None,
        }
    }

    /// Elements of a slice or array (a copy of the element values).
    pub fn elements(&self) -> Option<Vec<Value>> {
        match self.as_dynamic() {
            Value::Slice(_, Some(s)) => Some(s.borrow().clone()),
            Value::Slice(_, None) => Some(Vec::new()),
            Value::Array(_, v) => Some(v.clone()),
            _ => None,
        }
    }

    /// A short description of the value's kind for error messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Nil => "nil",
            Value::UntypedBool(_) | Value::Bool(..) => "bool",
            Value::UntypedInt(_) | Value::UntypedRune(_) | Value::Int(..) => "integer",
            Value::UntypedFloat(_) | Value::Float(..) => "float",
            Value::UntypedString(_) | Value::Str(..) => "string",
            Value::Struct(..) => "struct",
            Value::Array(..) => "array",
            Value::Ptr(..) => "pointer",
            Value::Slice(..) => "slice",
            Value::Map(..) => "map",
            Value::Iface(_) => "interface",
            Value::Func(_) => "func",
            Value::Tuple(_) => "tuple",
            Value::Path(_) => "*field.Path",
            Value::FieldErr(_) => "*field.Error",
            Value::Matcher(_) => "field.ErrorMatcher",
            Value::Tester(_) => "*testscheme.ValidationTester",
            Value::Builder => "*testscheme.ValidationTestBuilder",
            Value::Scheme => "*testscheme.Scheme",
            Value::TestingT => "*testing.T",
            Value::GoError(_) => "error",
            Value::Context => "context.Context",
            Value::Operation => "operation.Operation",
            Value::Package(_) => "package",
            Value::Type(_) => "type",
            Value::Native(_) => "func",
        }
    }
}

impl Value {
    /// The zero value of `ty` (Go's), with `field.ErrorMatcher`, `*field.Path`, `*field.Error`
    /// and `error` as the harness models them.
    pub fn zero(env: &TypeEnv<'_>, ty: &TypeRef) -> Value {
        Value::zero_depth(env, ty, 0)
    }

    fn zero_depth(env: &TypeEnv<'_>, ty: &TypeRef, depth: u32) -> Value {
        if is_named(ty, FIELD_PKG, "ErrorMatcher") {
            return Value::Matcher(Matcher::default());
        }
        if let TypeRef::Pointer(inner) = ty {
            if is_named(inner, FIELD_PKG, "Path") {
                return Value::Path(kdv_runtime::FieldPath::root());
            }
            if is_named(inner, FIELD_PKG, "Error") {
                return Value::FieldErr(None);
            }
        }
        if matches!(ty, TypeRef::Builtin(Builtin::Error)) {
            return Value::GoError(None);
        }
        if depth > 64 {
            return Value::Nil;
        }
        match env.underlying(ty) {
            TypeRef::Builtin(b) => match b {
                Builtin::String => Value::Str(ty.clone(), String::new()),
                Builtin::Bool => Value::Bool(ty.clone(), false),
                Builtin::Float32 | Builtin::Float64 => Value::Float(ty.clone(), 0.0),
                b if b.is_integer() => Value::Int(ty.clone(), 0),
                _ => Value::Iface(None),
            },
            TypeRef::Pointer(inner) => Value::Ptr((*inner).clone(), None),
            TypeRef::Slice(_) => Value::Slice(ty.clone(), None),
            TypeRef::Map { .. } => Value::Map(ty.clone(), None),
            TypeRef::Array { len, elem } => {
                let n: usize = len.parse().unwrap_or(0).min(4096);
                Value::Array(
                    ty.clone(),
                    vec![Value::zero_depth(env, &elem, depth + 1); n],
                )
            }
            TypeRef::Struct(s) => Value::Struct(
                ty.clone(),
                s.fields
                    .iter()
                    .map(|f| Value::zero_depth(env, &f.ty, depth + 1))
                    .collect(),
            ),
            TypeRef::Interface => Value::Iface(None),
            TypeRef::Named(_) | TypeRef::Unsupported(_) => Value::Nil,
        }
    }
}
