//! The emulated libraries test files call: Go builtins, apimachinery's `field` package
//! (paths, error constructors, `ErrorList` helpers, `ErrorMatcher`), `k8s.io/utils/ptr`,
//! `fmt`, `strings`, `errors`, `context`, `testing.T`, and the testscheme DSL
//! (`localSchemeBuilder.Test(t)`, `st.Value(v)…Expect…`).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use kdv_model::{Builtin, TypeRef};
use kdv_runtime::{ErrorListExt, ErrorType, FieldError, FieldPath, PathRef};

use crate::interp::{Abort, Expectation, Interp, R, fail};
use crate::syntax::{Expr, ExprKind};
use crate::tojson::to_bad_value;
use crate::types::{FIELD_PKG, is_named, named};
use crate::value::*;

const PTR_PKG: &str = "k8s.io/utils/ptr";
const OPERATION_PKG: &str = "k8s.io/apimachinery/pkg/api/operation";

const FIELD_FUNCS: &[&str] = &[
    "NewPath",
    "Invalid",
    "Required",
    "Forbidden",
    "Duplicate",
    "NotFound",
    "NotSupported",
    "TooLong",
    "TooLongCharacters",
    "TooShort",
    "TooMany",
    "TooFew",
    "InternalError",
    "TypeInvalid",
];

/// Go builtin functions the interpreter implements.
pub fn builtin_func(name: &str) -> Option<&'static str> {
    [
        "len", "cap", "append", "make", "new", "delete", "min", "max", "panic",
    ]
    .into_iter()
    .find(|b| *b == name)
}

/// A type of an emulated package.
pub fn package_type(path: &str, name: &str) -> Option<TypeRef> {
    match (path, name) {
        (FIELD_PKG, "ErrorList" | "ErrorMatcher" | "Path" | "Error" | "ErrorType") => {
            Some(named(FIELD_PKG, name))
        }
        ("testing", "T") => Some(named("testing", "T")),
        ("context", "Context") => Some(named("context", "Context")),
        (OPERATION_PKG, "Operation") => Some(named(OPERATION_PKG, "Operation")),
        _ => None,
    }
}

/// Whether `ty` is `operation.Operation`.
pub fn is_operation_type(ty: &TypeRef) -> bool {
    is_named(ty, OPERATION_PKG, "Operation")
}

/// A member of an emulated package.
pub fn package_member(path: &str, name: &str) -> Option<Value> {
    if let Some(t) = package_type(path, name) {
        return Some(Value::Type(t));
    }
    let known = match path {
        FIELD_PKG if name.starts_with("ErrorType") => {
            return error_type_by_const(name)
                .map(|t| Value::Str(named(FIELD_PKG, "ErrorType"), t.as_str().to_string()));
        }
        FIELD_PKG => FIELD_FUNCS.contains(&name),
        PTR_PKG => matches!(name, "To" | "Deref"),
        "strings" => matches!(
            name,
            "Repeat"
                | "Join"
                | "ToUpper"
                | "ToLower"
                | "HasPrefix"
                | "HasSuffix"
                | "Contains"
                | "TrimSpace"
        ),
        "fmt" => matches!(name, "Sprintf" | "Errorf" | "Sprint"),
        "errors" => name == "New",
        "context" => matches!(name, "Background" | "TODO"),
        "math" => return math_constant(name),
        // k8s.io/apiserver's CEL error types (pkg/cel/errors.go).
        "k8s.io/apiserver/pkg/cel" => {
            let text = match name {
                "ErrorTypeRequired" => "RuleRequired",
                "ErrorTypeInvalid" => "RuleInvalid",
                "ErrorTypeInternal" => "InternalError",
                _ => return None,
            };
            return Some(Value::Str(
                named("k8s.io/apiserver/pkg/cel", "ErrorType"),
                text.to_string(),
            ));
        }
        // k8s.io/apiserver's CEL limits (pkg/apis/cel/config.go).
        "k8s.io/apiserver/pkg/apis/cel" => {
            return Some(Value::UntypedInt(match name {
                "PerCallLimit" => 1_000_000,
                "RuntimeCELCostBudget" => 10_000_000,
                "RuntimeCELCostBudgetMatchConditions" => 2_500_000,
                "CheckFrequency" => 100,
                "MaxRequestSizeBytes" => 3 * 1024 * 1024,
                "MaxEvaluatedMessageExpressionSizeBytes" => 5 * 1024,
                _ => return None,
            }));
        }
        _ => false,
    };
    known.then(|| Value::Native(Native::Pkg(path.to_string(), name.to_string())))
}

/// Go's deep copy of a value: pointers, slices and maps get new storage, recursively.
fn deep_copy(v: &Value, depth: u32) -> Value {
    if depth > 200 {
        // Deeper than any test value: a cycle; share the rest rather than loop.
        return v.clone();
    }
    let d = depth + 1;
    match v {
        Value::Ptr(t, Some(c)) => Value::Ptr(t.clone(), Some(cell(deep_copy(&c.borrow(), d)))),
        Value::Slice(t, Some(s)) => Value::Slice(
            t.clone(),
            Some(Rc::new(RefCell::new(
                s.borrow().iter().map(|e| deep_copy(e, d)).collect(),
            ))),
        ),
        Value::Map(t, Some(m)) => Value::Map(
            t.clone(),
            Some(Rc::new(RefCell::new(
                m.borrow()
                    .iter()
                    .map(|(k, v)| (deep_copy(k, d), deep_copy(v, d)))
                    .collect(),
            ))),
        ),
        Value::Struct(t, fields) => {
            Value::Struct(t.clone(), fields.iter().map(|f| deep_copy(f, d)).collect())
        }
        Value::Array(t, items) => {
            Value::Array(t.clone(), items.iter().map(|f| deep_copy(f, d)).collect())
        }
        Value::Iface(Some(inner)) => Value::Iface(Some(Box::new(deep_copy(inner, d)))),
        other => other.clone(),
    }
}

/// A constant of Go's `math` package (untyped, as Go declares them).
fn math_constant(name: &str) -> Option<Value> {
    Some(match name {
        "MaxInt" | "MaxInt64" => Value::UntypedInt(i64::MAX.into()),
        "MinInt" | "MinInt64" => Value::UntypedInt(i64::MIN.into()),
        "MaxInt32" => Value::UntypedInt(i32::MAX.into()),
        "MinInt32" => Value::UntypedInt(i32::MIN.into()),
        "MaxInt16" => Value::UntypedInt(i16::MAX.into()),
        "MaxInt8" => Value::UntypedInt(i8::MAX.into()),
        "MaxUint32" => Value::UntypedInt(u32::MAX.into()),
        "MaxUint64" | "MaxUint" => Value::UntypedInt(u64::MAX.into()),
        "MaxFloat64" => Value::UntypedFloat(f64::MAX),
        "MaxFloat32" => Value::UntypedFloat(f32::MAX.into()),
        "SmallestNonzeroFloat64" => Value::UntypedFloat(f64::from_bits(1)),
        _ => return None,
    })
}

fn want_path(v: Value, line: u32) -> R<FieldPath> {
    match v.unwrap_iface() {
        Value::Path(p) => Ok(p),
        Value::Nil => Ok(FieldPath::root()),
        other => fail(
            line,
            format!("expected *field.Path, got {}", other.kind_name()),
        ),
    }
}

fn want_string(v: &Value, line: u32) -> R<String> {
    match v.as_str() {
        Some(s) => Ok(s.to_string()),
        None => fail(line, format!("expected a string, got {}", v.kind_name())),
    }
}

fn want_int(v: &Value, line: u32) -> R<i128> {
    match v.as_int() {
        Some(i) => Ok(i),
        None => fail(line, format!("expected an integer, got {}", v.kind_name())),
    }
}

/// The errors of a `field.ErrorList` value (nil → empty).
pub fn error_list(v: &Value, line: u32) -> R<Vec<FieldError>> {
    let v = v.as_dynamic();
    if v.is_nil() {
        return Ok(Vec::new());
    }
    let Some(items) = v.elements() else {
        return fail(
            line,
            format!("expected field.ErrorList, got {}", v.kind_name()),
        );
    };
    let mut out = Vec::new();
    for item in items {
        match item {
            Value::FieldErr(Some(e)) => out.push(e.borrow().clone()),
            Value::FieldErr(None) => return fail(line, "nil *field.Error in ErrorList"),
            other => return fail(line, format!("ErrorList element is {}", other.kind_name())),
        }
    }
    Ok(out)
}

/// Builds an `ErrorList` value from errors.
pub fn error_list_value(errs: Vec<FieldError>) -> Value {
    let items: Vec<Value> = errs
        .into_iter()
        .map(|e| Value::FieldErr(Some(Rc::new(RefCell::new(e)))))
        .collect();
    Value::Slice(
        named(FIELD_PKG, "ErrorList"),
        Some(Rc::new(RefCell::new(items))),
    )
}

fn field_error(e: FieldError) -> Value {
    Value::FieldErr(Some(Rc::new(RefCell::new(e))))
}

fn eval_args(it: &mut Interp<'_, '_>, args: &[Expr], sc: &Rc<Scope>) -> R<Vec<Value>> {
    args.iter().map(|a| it.eval(a, sc)).collect()
}

fn arity(args: &[Value], n: usize, what: &str, line: u32) -> R<()> {
    if args.len() != n {
        return fail(
            line,
            format!("{what} takes {n} arguments, got {}", args.len()),
        );
    }
    Ok(())
}

/// Calls a native function.
pub fn call_native(
    it: &mut Interp<'_, '_>,
    n: &Native,
    args: &[Expr],
    spread: bool,
    sc: &Rc<Scope>,
    line: u32,
) -> R<Value> {
    match n {
        Native::Builtin(b) => call_builtin(it, b, args, spread, sc, line),
        Native::Pkg(path, name) => {
            if spread {
                return fail(line, format!("spread call of {name} is not supported"));
            }
            call_pkg(it, path, name, args, sc, line)
        }
        Native::Hook(name) => {
            if spread {
                return fail(line, format!("spread call of {name} is not supported"));
            }
            let a = eval_args(it, args, sc)?;
            let ctx = it.ctx;
            it.harness.call_hook(&ctx.env, name, a, line)
        }
        Native::ValidateFn(pkg, ty) => {
            let a = eval_args(it, args, sc)?;
            arity(&a, 5, "Validate_*", line)?;
            let ctx = it.ctx;
            match it.harness.call_validate(&ctx.env, pkg, ty, &a[3], &a[4]) {
                Ok(errs) => Ok(error_list_value(errs)),
                Err(msg) => fail(line, msg),
            }
        }
    }
}

fn call_builtin(
    it: &mut Interp<'_, '_>,
    b: &str,
    args: &[Expr],
    spread: bool,
    sc: &Rc<Scope>,
    line: u32,
) -> R<Value> {
    match b {
        "len" | "cap" => {
            let a = eval_args(it, args, sc)?;
            arity(&a, 1, b, line)?;
            let n = match a[0].as_dynamic() {
                Value::Str(_, s) | Value::UntypedString(s) => s.len(),
                Value::Map(_, m) => m.as_ref().map_or(0, |m| m.borrow().len()),
                v => match v.elements() {
                    Some(e) => e.len(),
                    None => return fail(line, format!("invalid argument for {b}")),
                },
            };
            Ok(Value::int(n as i128))
        }
        "append" => {
            let Some(first) = args.first() else {
                return fail(line, "append needs arguments");
            };
            let base = it.eval(first, sc)?;
            let Value::Slice(ty, s) = base.clone().unwrap_iface() else {
                return fail(line, "first argument to append must be a slice");
            };
            let elem = match it.env().underlying(&ty) {
                TypeRef::Slice(e) => *e,
                _ => TypeRef::Interface,
            };
            let mut items = s.map(|s| s.borrow().clone()).unwrap_or_default();
            for (i, a) in args[1..].iter().enumerate() {
                if spread && i + 2 == args.len() {
                    let v = it.eval(a, sc)?;
                    match v.as_dynamic() {
                        Value::Str(_, s) | Value::UntypedString(s) => items.extend(
                            s.bytes()
                                .map(|b| Value::Int(TypeRef::Builtin(Builtin::Uint8), b as i128)),
                        ),
                        other => items.extend(other.elements().unwrap_or_default()),
                    }
                } else {
                    items.push(it.eval_typed(a, sc, &elem)?);
                }
            }
            Ok(Value::Slice(ty, Some(Rc::new(RefCell::new(items)))))
        }
        "make" => {
            let a = eval_args(it, args, sc)?;
            let Some(Value::Type(t)) = a.first().cloned() else {
                return fail(line, "first argument to make must be a type");
            };
            match it.env().underlying(&t) {
                TypeRef::Slice(elem) => {
                    let n = match a.get(1) {
                        Some(v) => want_int(v, line)?,
                        None => return fail(line, "make of a slice needs a length"),
                    };
                    if !(0..=1_000_000).contains(&n) {
                        return fail(line, "bad slice length in make");
                    }
                    let z = it.zero(&elem);
                    Ok(Value::Slice(
                        t,
                        Some(Rc::new(RefCell::new(vec![z; n as usize]))),
                    ))
                }
                TypeRef::Map { .. } => Ok(Value::Map(t, Some(Rc::new(RefCell::new(Vec::new()))))),
                _ => fail(line, "make of an unsupported type"),
            }
        }
        "new" => {
            if args.len() != 1 {
                return fail(line, "new takes one argument");
            }
            let v = it.eval(&args[0], sc)?;
            let v = match v {
                // `new(T)`: a pointer to a zero T.
                Value::Type(t) => {
                    let z = it.zero(&t);
                    return Ok(Value::Ptr(t, Some(cell(z))));
                }
                // Go 1.26 `new(expr)`: a pointer to a copy of the value.
                v => it.default_typed(v, line)?,
            };
            let t = it.dyn_type(&v).unwrap_or(TypeRef::Interface);
            Ok(Value::Ptr(t, Some(cell(v))))
        }
        "delete" => {
            let a = eval_args(it, args, sc)?;
            arity(&a, 2, "delete", line)?;
            if let Value::Map(_, Some(m)) = a[0].as_dynamic() {
                let mut keep = Vec::new();
                for (k, v) in m.borrow().iter() {
                    if !it.equal(k, &a[1], line)? {
                        keep.push((k.clone(), v.clone()));
                    }
                }
                *m.borrow_mut() = keep;
            }
            Ok(Value::Tuple(Vec::new()))
        }
        "min" | "max" => {
            let a = eval_args(it, args, sc)?;
            let mut best: Option<Value> = None;
            for v in a {
                best = Some(match best {
                    None => v,
                    Some(cur) => {
                        let less = it
                            .binary(crate::syntax::BinOp::Lt, v.clone(), cur.clone(), line)?
                            .as_bool()
                            .unwrap_or(false);
                        if (b == "min") == less { v } else { cur }
                    }
                });
            }
            match best {
                Some(v) => Ok(v),
                None => fail(line, format!("{b} needs arguments")),
            }
        }
        "panic" => {
            let a = eval_args(it, args, sc)?;
            let msg = a
                .first()
                .map(|v| go_format_value(it, v, 'v'))
                .unwrap_or_default();
            fail(line, format!("panic: {msg}"))
        }
        other => fail(line, format!("unsupported builtin {other}")),
    }
}

fn call_pkg(
    it: &mut Interp<'_, '_>,
    path: &str,
    name: &str,
    args: &[Expr],
    sc: &Rc<Scope>,
    line: u32,
) -> R<Value> {
    match path {
        FIELD_PKG => call_field(it, name, args, sc, line),
        PTR_PKG => {
            let a = eval_args(it, args, sc)?;
            match name {
                "To" => {
                    arity(&a, 1, "ptr.To", line)?;
                    let v = it.default_typed(a[0].clone(), line)?;
                    let t = it.dyn_type(&v).unwrap_or(TypeRef::Interface);
                    Ok(Value::Ptr(t, Some(cell(v))))
                }
                _ => {
                    arity(&a, 2, "ptr.Deref", line)?;
                    match &a[0] {
                        Value::Ptr(_, Some(c)) => Ok(c.borrow().clone()),
                        _ => Ok(a[1].clone()),
                    }
                }
            }
        }
        "strings" => {
            let a = eval_args(it, args, sc)?;
            let s0 = a.first().and_then(|v| v.as_str()).map(str::to_string);
            match (name, s0) {
                ("Repeat", Some(s)) => {
                    let n = want_int(a.get(1).unwrap_or(&Value::Nil), line)?;
                    if !(0..=10_000_000).contains(&n.saturating_mul(s.len() as i128)) {
                        return fail(line, "strings.Repeat: bad count");
                    }
                    Ok(Value::string(s.repeat(n as usize)))
                }
                ("ToUpper", Some(s)) => Ok(Value::string(s.to_uppercase())),
                ("ToLower", Some(s)) => Ok(Value::string(s.to_lowercase())),
                ("TrimSpace", Some(s)) => Ok(Value::string(s.trim())),
                ("HasPrefix", Some(s)) => Ok(Value::UntypedBool(
                    s.starts_with(&want_string(a.get(1).unwrap_or(&Value::Nil), line)?),
                )),
                ("HasSuffix", Some(s)) => Ok(Value::UntypedBool(
                    s.ends_with(&want_string(a.get(1).unwrap_or(&Value::Nil), line)?),
                )),
                ("Contains", Some(s)) => Ok(Value::UntypedBool(
                    s.contains(&want_string(a.get(1).unwrap_or(&Value::Nil), line)?),
                )),
                ("Join", _) => {
                    let items = a.first().and_then(|v| v.elements()).unwrap_or_default();
                    let parts: Vec<String> = items
                        .iter()
                        .filter_map(|v| v.as_str().map(str::to_string))
                        .collect();
                    let sep = want_string(a.get(1).unwrap_or(&Value::Nil), line)?;
                    Ok(Value::string(parts.join(&sep)))
                }
                _ => fail(line, format!("bad arguments to strings.{name}")),
            }
        }
        "fmt" => {
            let a = eval_args(it, args, sc)?;
            let text = match name {
                "Sprint" => a
                    .iter()
                    .map(|v| go_format_value(it, v, 'v'))
                    .collect::<Vec<_>>()
                    .join(""),
                _ => {
                    let Some(f) = a.first().and_then(|v| v.as_str()) else {
                        return fail(line, format!("fmt.{name} needs a format string"));
                    };
                    go_sprintf(it, f, &a[1..])
                }
            };
            if name == "Errorf" {
                Ok(Value::GoError(Some(Rc::new(text))))
            } else {
                Ok(Value::string(text))
            }
        }
        "errors" => {
            let a = eval_args(it, args, sc)?;
            arity(&a, 1, "errors.New", line)?;
            Ok(Value::GoError(Some(Rc::new(want_string(&a[0], line)?))))
        }
        "context" => Ok(Value::Context),
        _ => fail(line, format!("unsupported function {path}.{name}")),
    }
}

fn call_field(
    it: &mut Interp<'_, '_>,
    name: &str,
    args: &[Expr],
    sc: &Rc<Scope>,
    line: u32,
) -> R<Value> {
    let a = eval_args(it, args, sc)?;
    let nil = PathRef::Nil;
    let bad = |it: &Interp<'_, '_>, v: &Value| to_bad_value(it.env(), v);
    let with_path = |mut e: FieldError, p: FieldPath| {
        e.field = p;
        field_error(e)
    };
    match name {
        "NewPath" => {
            let Some(first) = a.first() else {
                return fail(line, "field.NewPath needs a name");
            };
            let mut p = FieldPath::new(&want_string(first, line)?);
            for more in &a[1..] {
                p = p.child(&want_string(more, line)?);
            }
            Ok(Value::Path(p))
        }
        "Required" | "Forbidden" => {
            arity(&a, 2, name, line)?;
            let p = want_path(a[0].clone(), line)?;
            let d = want_string(&a[1], line)?;
            let e = if name == "Required" {
                FieldError::required(&nil, d)
            } else {
                FieldError::forbidden(&nil, d)
            };
            Ok(with_path(e, p))
        }
        "Invalid" | "TypeInvalid" => {
            arity(&a, 3, name, line)?;
            let p = want_path(a[0].clone(), line)?;
            let d = want_string(&a[2], line)?;
            let v = bad(it, &a[1]);
            let e = if name == "Invalid" {
                FieldError::invalid(&nil, v, d)
            } else {
                FieldError::type_invalid(&nil, v, d)
            };
            Ok(with_path(e, p))
        }
        "Duplicate" | "NotFound" => {
            arity(&a, 2, name, line)?;
            let p = want_path(a[0].clone(), line)?;
            let v = bad(it, &a[1]);
            let e = if name == "Duplicate" {
                FieldError::duplicate(&nil, v)
            } else {
                FieldError::not_found(&nil, v)
            };
            Ok(with_path(e, p))
        }
        "NotSupported" => {
            arity(&a, 3, name, line)?;
            let p = want_path(a[0].clone(), line)?;
            let v = bad(it, &a[1]);
            let valid: Vec<String> = a[2]
                .elements()
                .unwrap_or_default()
                .iter()
                .map(|x| go_format_value(it, x, 'v'))
                .collect();
            Ok(with_path(FieldError::not_supported(&nil, v, &valid), p))
        }
        "TooLong" | "TooLongCharacters" | "TooShort" | "TooMany" | "TooFew" => {
            arity(&a, 3, name, line)?;
            let p = want_path(a[0].clone(), line)?;
            let n = want_int(&a[2], line)? as i64;
            let e = match name {
                "TooLong" => FieldError::too_long(&nil, n),
                "TooLongCharacters" => FieldError::too_long_characters(&nil, n),
                "TooShort" => FieldError::too_short(&nil, bad(it, &a[1]), n),
                "TooMany" => FieldError::too_many(&nil, want_int(&a[1], line)? as i64, n),
                _ => FieldError::too_few(&nil, want_int(&a[1], line)? as i64, n),
            };
            Ok(with_path(e, p))
        }
        "InternalError" => {
            arity(&a, 2, name, line)?;
            let p = want_path(a[0].clone(), line)?;
            let msg = match a[1].as_dynamic() {
                Value::GoError(Some(s)) => s.to_string(),
                Value::GoError(None) | Value::Nil => String::new(),
                other => go_format_value(it, other, 'v'),
            };
            Ok(with_path(FieldError::internal(&nil, msg), p))
        }
        other => fail(line, format!("unsupported function field.{other}")),
    }
}

/// Calls a method on a value.
pub fn call_method(
    it: &mut Interp<'_, '_>,
    recv: Value,
    name: &str,
    args: &[Expr],
    sc: &Rc<Scope>,
    line: u32,
) -> R<Value> {
    let recv = recv.unwrap_iface();
    if name == "DeepCopy"
        && args.is_empty()
        && matches!(
            &recv,
            Value::Ptr(..) | Value::Struct(..) | Value::Slice(..) | Value::Map(..)
        )
    {
        // The generated deep copies of API types (`zz_generated.deepcopy.go`, not read):
        // a copy sharing no storage with the original.
        return Ok(deep_copy(&recv, 0));
    }
    match &recv {
        Value::Scheme => match name {
            "Test" => Ok(Value::Builder),
            _ => fail(line, format!("unsupported method Scheme.{name}")),
        },
        Value::Builder => match name {
            "Value" => {
                if args.len() != 1 {
                    return fail(line, "Value takes one argument");
                }
                // The case exists as soon as `Value` runs, so that a failure while
                // evaluating the rest of the chain is charged to it.
                let case = it.harness.new_case(line);
                let v = it.eval(&args[0], sc)?;
                Ok(Value::Tester(Rc::new(RefCell::new(TesterState {
                    case,
                    value: v,
                    old: None,
                    opts: None,
                    subresources: Vec::new(),
                }))))
            }
            "ValidateFixtures" => fail(line, "ValidateFixtures is run by the harness itself"),
            _ => fail(
                line,
                format!("unsupported method ValidationTestBuilder.{name}"),
            ),
        },
        Value::Tester(t) => tester_method(it, t.clone(), name, args, sc, line),
        Value::TestingT => testing_method(it, name, args, sc, line),
        Value::Path(p) => {
            let a = eval_args(it, args, sc)?;
            match name {
                "Child" => {
                    let mut p = p.clone();
                    for s in &a {
                        p = p.child(&want_string(s, line)?);
                    }
                    Ok(Value::Path(p))
                }
                "Index" => {
                    arity(&a, 1, "Index", line)?;
                    let i = want_int(&a[0], line)?;
                    match usize::try_from(i) {
                        Ok(i) => Ok(Value::Path(p.index(i))),
                        Err(_) => fail(line, "negative path index"),
                    }
                }
                "Key" => {
                    arity(&a, 1, "Key", line)?;
                    Ok(Value::Path(p.key(&want_string(&a[0], line)?)))
                }
                "String" => Ok(Value::string(p.to_string())),
                _ => fail(line, format!("unsupported method Path.{name}")),
            }
        }
        Value::FieldErr(Some(e)) => {
            let a = eval_args(it, args, sc)?;
            match name {
                "WithOrigin" => {
                    arity(&a, 1, "WithOrigin", line)?;
                    e.borrow_mut().origin = want_string(&a[0], line)?.into();
                }
                "MarkAlpha" => e.borrow_mut().stability = kdv_runtime::StabilityLevel::Alpha,
                "MarkBeta" => e.borrow_mut().stability = kdv_runtime::StabilityLevel::Beta,
                "MarkCoveredByDeclarative" => e.borrow_mut().covered_by_declarative = true,
                "MarkFromImperative" => e.borrow_mut().from_imperative = true,
                "MarkShortCircuit" => e.borrow_mut().short_circuit = true,
                "MarkDeclarativeNative" => e.borrow_mut().declarative_native = true,
                "Error" => return Ok(Value::string(e.borrow().to_string())),
                "ErrorBody" => return Ok(Value::string(e.borrow().body().to_string())),
                _ => return fail(line, format!("unsupported method Error.{name}")),
            }
            Ok(recv.clone())
        }
        Value::FieldErr(None) => fail(line, format!("nil *field.Error: .{name}")),
        Value::Slice(ty, s) if is_named(ty, FIELD_PKG, "ErrorList") => {
            let a = eval_args(it, args, sc)?;
            let mut errs = error_list(&recv, line)?;
            match name {
                "WithOrigin" => {
                    arity(&a, 1, "WithOrigin", line)?;
                    errs.with_origin(&want_string(&a[0], line)?);
                }
                "PrefixDetail" => {
                    arity(&a, 1, "PrefixDetail", line)?;
                    errs.prefix_detail(&want_string(&a[0], line)?);
                }
                "MarkAlpha" => {
                    errs.mark_alpha();
                }
                "MarkBeta" => {
                    errs.mark_beta();
                }
                "MarkShortCircuit" => {
                    errs.mark_short_circuit();
                }
                "MarkCoveredByDeclarative" => {
                    errs.mark_covered_by_declarative();
                }
                "MarkFromImperative" => {
                    errs.mark_from_imperative();
                }
                "MarkDeclarativeNative" => {
                    errs.mark_declarative_native();
                }
                _ => return fail(line, format!("unsupported method ErrorList.{name}")),
            }
            // The list holds pointers: update them in place, as Go does.
            if let Some(s) = s {
                for (slot, e) in s.borrow().iter().zip(errs) {
                    if let Value::FieldErr(Some(c)) = slot {
                        *c.borrow_mut() = e;
                    }
                }
            }
            Ok(recv.clone())
        }
        Value::Matcher(m) => {
            if let Some(next) = m.clone().by_go_name(name) {
                if !args.is_empty() {
                    return fail(line, format!("ErrorMatcher.{name} takes no arguments"));
                }
                return Ok(Value::Matcher(next));
            }
            let a = eval_args(it, args, sc)?;
            match name {
                "Test" => {
                    arity(&a, 3, "ErrorMatcher.Test", line)?;
                    let want = error_list(&a[1], line)?;
                    let got = error_list(&a[2], line)?;
                    it.harness.matcher_test(line, m, &want, &got);
                    Ok(Value::Tuple(Vec::new()))
                }
                "Matches" => {
                    arity(&a, 2, "ErrorMatcher.Matches", line)?;
                    let (Value::FieldErr(Some(w)), Value::FieldErr(Some(g))) = (&a[0], &a[1])
                    else {
                        return fail(line, "ErrorMatcher.Matches needs two errors");
                    };
                    Ok(Value::UntypedBool(m.matches(&w.borrow(), &g.borrow())))
                }
                _ => fail(line, format!("unsupported method ErrorMatcher.{name}")),
            }
        }
        Value::GoError(Some(s)) => match name {
            "Error" => Ok(Value::string(s.as_str())),
            _ => fail(line, format!("unsupported method error.{name}")),
        },
        other => fail(
            line,
            format!("unsupported method {name} on {}", other.kind_name()),
        ),
    }
}

fn tester_method(
    it: &mut Interp<'_, '_>,
    t: Rc<RefCell<TesterState>>,
    name: &str,
    args: &[Expr],
    sc: &Rc<Scope>,
    line: u32,
) -> R<Value> {
    let a = eval_args(it, args, sc)?;
    match name {
        "OldValue" => {
            arity(&a, 1, "OldValue", line)?;
            t.borrow_mut().old = Some(a[0].clone());
        }
        "Opts" => {
            arity(&a, 1, "Opts", line)?;
            t.borrow_mut().opts = Some(a[0].clone());
        }
        "Subresources" => {
            arity(&a, 1, "Subresources", line)?;
            let mut subs = Vec::new();
            for v in a[0].elements().unwrap_or_default() {
                subs.push(want_string(&v, line)?);
            }
            t.borrow_mut().subresources = subs;
        }
        "ExpectValid" => {
            let state = t.borrow().clone();
            let ctx = it.ctx;
            it.harness.expect(&ctx.env, &state, Expectation::Valid);
        }
        "ExpectMatches" => {
            arity(&a, 2, "ExpectMatches", line)?;
            let Value::Matcher(m) = a[0].as_dynamic() else {
                return fail(line, "ExpectMatches needs a field.ErrorMatcher");
            };
            let want = error_list(&a[1], line)?;
            let state = t.borrow().clone();
            let ctx = it.ctx;
            it.harness
                .expect(&ctx.env, &state, Expectation::Matches(m.clone(), want));
        }
        "ExpectValidateFalseByPath" => {
            arity(&a, 1, "ExpectValidateFalseByPath", line)?;
            let mut by_path: BTreeMap<String, Vec<String>> = BTreeMap::new();
            if let Value::Map(_, Some(m)) = a[0].as_dynamic() {
                for (k, v) in m.borrow().iter() {
                    let key = want_string(k, line)?;
                    let mut msgs = Vec::new();
                    for s in v.elements().unwrap_or_default() {
                        msgs.push(want_string(&s, line)?);
                    }
                    by_path.insert(key, msgs);
                }
            } else if !a[0].is_nil() {
                return fail(
                    line,
                    "ExpectValidateFalseByPath needs a map[string][]string",
                );
            }
            let state = t.borrow().clone();
            let ctx = it.ctx;
            it.harness
                .expect(&ctx.env, &state, Expectation::ValidateFalseByPath(by_path));
        }
        "ValueFuzzed" | "OldValueFuzzed" => {
            return fail(line, format!("{name} is not supported by the harness"));
        }
        _ => return fail(line, format!("unsupported method ValidationTester.{name}")),
    }
    Ok(Value::Tester(t))
}

fn testing_method(
    it: &mut Interp<'_, '_>,
    name: &str,
    args: &[Expr],
    sc: &Rc<Scope>,
    line: u32,
) -> R<Value> {
    match name {
        "Run" => {
            let a = eval_args(it, args, sc)?;
            arity(&a, 2, "t.Run", line)?;
            let subtest = a[0].as_str().unwrap_or("").to_string();
            let Value::Func(f) = a[1].as_dynamic() else {
                return fail(line, "t.Run needs a function");
            };
            let since = it.harness.case_count();
            // A failing subtest does not stop its parent.
            match it.call_closure(f, vec![Value::TestingT], false, line) {
                Ok(_) => {}
                Err(Abort::Error(e)) => {
                    let reason = format!(
                        "harness: cannot interpret (subtest {subtest:?}, line {}): {}",
                        e.line, e.message
                    );
                    it.harness
                        .fail_pending(since, crate::report::FailureKind::Harness, &reason);
                }
                Err(Abort::Fatal(msg, l)) => {
                    it.harness.fail_pending(
                        since,
                        crate::report::FailureKind::Mismatch,
                        &format!("t.Fatalf at line {l}: {msg}"),
                    );
                }
            }
            Ok(Value::UntypedBool(true))
        }
        "Helper" | "Log" | "Logf" | "Parallel" => Ok(Value::Tuple(Vec::new())),
        "Name" => Ok(Value::string("test")),
        "Fatalf" | "Fatal" | "Errorf" | "Error" | "FailNow" | "Fail" => {
            let a = eval_args(it, args, sc)?;
            let msg = match (name, a.first().and_then(|v| v.as_str())) {
                ("Fatalf" | "Errorf", Some(f)) => go_sprintf(it, f, &a[1..]),
                _ => a
                    .iter()
                    .map(|v| go_format_value(it, v, 'v'))
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            // t.Errorf would let the test continue; no test file uses it, so it stops too.
            Err(Abort::Fatal(msg, line))
        }
        _ => fail(line, format!("unsupported method testing.T.{name}")),
    }
}

/// Go's `fmt.Sprintf` for the verbs test files use (`%s %d %v %q %T %%`).
pub fn go_sprintf(it: &Interp<'_, '_>, f: &str, args: &[Value]) -> String {
    let mut out = String::new();
    let mut chars = f.chars().peekable();
    let mut next = 0usize;
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        // Flags and width are skipped; a precision is kept for `%f`.
        let mut spec = String::new();
        while let Some(&c) = chars.peek()
            && matches!(c, '-' | '+' | '#' | ' ' | '0'..='9' | '.')
        {
            spec.push(c);
            chars.next();
        }
        let Some(verb) = chars.next() else {
            out.push_str("%!(NOVERB)");
            break;
        };
        if verb == '%' {
            out.push('%');
            continue;
        }
        let float = args
            .get(next)
            .and_then(|v| match v.as_dynamic() {
                Value::Float(_, f) | Value::UntypedFloat(f) => Some(*f),
                _ => None,
            })
            .filter(|_| verb == 'f');
        if let Some(f) = float {
            // Go's %f: fixed notation, 6 decimals unless a precision is given.
            let precision = spec
                .split_once('.')
                .map_or(Some(6), |(_, p)| p.parse().ok())
                .unwrap_or(0);
            out.push_str(&format!("{f:.precision$}"));
            next += 1;
            continue;
        }
        match args.get(next) {
            Some(v) => out.push_str(&go_format_value(it, v, verb)),
            None => out.push_str(&format!("%!{verb}(MISSING)")),
        }
        next += 1;
    }
    out
}

/// Formats one value for a `fmt` verb.
pub fn go_format_value(it: &Interp<'_, '_>, v: &Value, verb: char) -> String {
    if verb == 'T' {
        return it
            .dyn_type(v)
            .map(|t| it.env().type_string(&t))
            .unwrap_or_else(|| "<nil>".into());
    }
    let plain = match v.as_dynamic() {
        Value::Str(_, s) | Value::UntypedString(s) => s.clone(),
        Value::Int(..) | Value::UntypedInt(_) | Value::UntypedRune(_) => {
            v.as_int().unwrap_or(0).to_string()
        }
        Value::Float(_, f) | Value::UntypedFloat(f) => format!("{f}"),
        Value::Bool(_, b) | Value::UntypedBool(b) => b.to_string(),
        Value::GoError(Some(s)) => s.to_string(),
        Value::Path(p) => p.to_string(),
        Value::FieldErr(Some(e)) => e.borrow().to_string(),
        other if other.is_nil() => "<nil>".into(),
        other => match crate::tojson::to_json(it.env(), other) {
            Ok(j) => j.to_string(),
            Err(_) => format!("<{}>", other.kind_name()),
        },
    };
    if verb == 'q' {
        format!("{plain:?}")
    } else {
        plain
    }
}

/// `ErrorType` by its Go constant name (`field.ErrorTypeInvalid`), for completeness.
pub fn error_type_by_const(name: &str) -> Option<ErrorType> {
    let stem = name.strip_prefix("ErrorType")?;
    ErrorType::ALL
        .into_iter()
        .find(|t| format!("{t:?}") == stem)
}

/// Whether an expression is `st.Value(...)`-like (a call of a method named `Value`), used
/// to count the case call sites of a function statically.
pub fn is_value_call(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call { fun, .. } if matches!(&fun.kind, ExprKind::Selector(_, n) if n == "Value"))
}
