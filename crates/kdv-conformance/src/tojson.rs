//! Go values → JSON, the way `encoding/json` would marshal them for the decoder the
//! validator models: JSON names from struct tags, inline embedded structs merged into their
//! parent, nil pointers/slices/maps omitted, `[]byte` as base64. Also the conversion of Go
//! values into [`BadValue`]s for expected errors.

use kdv_model::{Builtin, TypeRef};
use kdv_runtime::BadValue;
use serde_json::{Map, Number, Value as J};

use crate::types::TypeEnv;
use crate::value::Value;

/// Nesting bound: deeper (or cyclic) values are an error.
const MAX_DEPTH: usize = 200;

/// Marshals a value.
pub fn to_json(env: &TypeEnv<'_>, v: &Value) -> Result<J, String> {
    marshal(env, v, 0)
}

fn is_byte(env: &TypeEnv<'_>, t: &TypeRef) -> bool {
    matches!(
        env.underlying(t),
        TypeRef::Builtin(Builtin::Byte | Builtin::Uint8)
    )
}

fn marshal(env: &TypeEnv<'_>, v: &Value, depth: usize) -> Result<J, String> {
    if depth > MAX_DEPTH {
        return Err("value nested too deeply (cycle?)".into());
    }
    let d = depth + 1;
    Ok(match v {
        Value::Nil | Value::Iface(None) => J::Null,
        Value::Iface(Some(inner)) => marshal(env, inner, d)?,
        Value::UntypedBool(b) | Value::Bool(_, b) => J::Bool(*b),
        Value::UntypedInt(i) | Value::UntypedRune(i) | Value::Int(_, i) => int_json(*i)?,
        Value::UntypedFloat(f) | Value::Float(_, f) => float_json(*f)?,
        Value::UntypedString(s) | Value::Str(_, s) => J::String(s.clone()),
        Value::Ptr(_, None) => J::Null,
        Value::Ptr(_, Some(c)) => marshal(env, &c.borrow(), d)?,
        Value::Slice(_, None) | Value::Map(_, None) => J::Null,
        Value::Slice(t, Some(s)) => {
            let elem_is_byte = match env.underlying(t) {
                TypeRef::Slice(e) => is_byte(env, &e),
                _ => false,
            };
            let s = s.borrow();
            if elem_is_byte {
                let bytes: Vec<u8> = s.iter().map(|b| b.as_int().unwrap_or(0) as u8).collect();
                J::String(kdv_gofmt::base64_std(&bytes))
            } else {
                J::Array(
                    s.iter()
                        .map(|e| marshal(env, e, d))
                        .collect::<Result<_, _>>()?,
                )
            }
        }
        Value::Array(_, items) => J::Array(
            items
                .iter()
                .map(|e| marshal(env, e, d))
                .collect::<Result<_, _>>()?,
        ),
        Value::Map(_, Some(m)) => {
            let mut obj = Map::new();
            for (k, val) in m.borrow().iter() {
                let key = match k.as_dynamic() {
                    Value::Str(_, s) | Value::UntypedString(s) => s.clone(),
                    other => match other.as_int() {
                        Some(i) => i.to_string(),
                        None => {
                            return Err(format!("unsupported map key kind {}", other.kind_name()));
                        }
                    },
                };
                obj.insert(key, marshal(env, val, d)?);
            }
            J::Object(obj)
        }
        Value::Struct(t, fields) => {
            let mut obj = Map::new();
            struct_into(env, t, fields, &mut obj, d)?;
            J::Object(obj)
        }
        Value::GoError(Some(s)) => J::String(s.to_string()),
        Value::GoError(None) => J::Null,
        other => return Err(format!("cannot marshal {} to JSON", other.kind_name())),
    })
}

fn struct_into(
    env: &TypeEnv<'_>,
    t: &TypeRef,
    values: &[Value],
    obj: &mut Map<String, J>,
    depth: usize,
) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err("value nested too deeply (cycle?)".into());
    }
    let Some(fields) = env.struct_fields(t) else {
        return Err(format!("{} is not a struct type", env.type_string(t)));
    };
    for (f, v) in fields.iter().zip(values) {
        if f.json
            .as_ref()
            .is_some_and(|j| j.name == "-" && j.options.is_empty())
        {
            continue;
        }
        match f.json_name() {
            Some(name) => {
                if !f.is_exported() {
                    continue;
                }
                if v.is_nil() && !matches!(v, Value::Struct(..)) {
                    // Absent and null decode alike.
                    continue;
                }
                obj.insert(name.to_string(), marshal(env, v, depth + 1)?);
            }
            None if f.embedded => {
                // Inline: the embedded struct's fields belong to the parent object.
                let inner = match v {
                    Value::Ptr(_, None) => continue,
                    Value::Ptr(_, Some(c)) => c.borrow().clone(),
                    other => other.clone(),
                };
                match inner {
                    Value::Struct(it, iv) => struct_into(env, &it, &iv, obj, depth + 1)?,
                    // An embedded non-struct without a name is encoded under its type name.
                    other => {
                        if f.is_exported() && !other.is_nil() {
                            obj.insert(f.name.clone(), marshal(env, &other, depth + 1)?);
                        }
                    }
                }
            }
            None => {}
        }
    }
    Ok(())
}

fn int_json(i: i128) -> Result<J, String> {
    if let Ok(x) = i64::try_from(i) {
        Ok(J::Number(x.into()))
    } else if let Ok(x) = u64::try_from(i) {
        Ok(J::Number(x.into()))
    } else {
        Err(format!("integer {i} out of JSON range"))
    }
}

fn float_json(f: f64) -> Result<J, String> {
    if f.fract() == 0.0 && f.abs() < 9.0e15 {
        // Go marshals integral floats without a fraction; keep them integral for the decoder.
        return Ok(J::Number((f as i64).into()));
    }
    Number::from_f64(f)
        .map(J::Number)
        .ok_or_else(|| format!("unsupported float value {f}"))
}

/// The [`BadValue`] of an expected error built from a Go value (only its rendering and
/// `ByValue` comparisons depend on it).
pub fn to_bad_value(env: &TypeEnv<'_>, v: &Value) -> BadValue {
    let builtin = |t: &TypeRef| match t {
        TypeRef::Builtin(b) => Some(*b),
        _ => None,
    };
    match v.as_dynamic() {
        Value::Nil | Value::Iface(None) => BadValue::Null,
        Value::UntypedString(s) => BadValue::String(s.clone()),
        Value::Str(t, s) if builtin(t) == Some(Builtin::String) => BadValue::String(s.clone()),
        Value::UntypedBool(b) => BadValue::Bool(*b),
        Value::Bool(t, b) if builtin(t) == Some(Builtin::Bool) => BadValue::Bool(*b),
        Value::UntypedInt(i) | Value::UntypedRune(i) => i64::try_from(*i)
            .map(BadValue::Int)
            .unwrap_or(BadValue::Null),
        Value::Int(t, i) if builtin(t).is_some() => match i64::try_from(*i) {
            Ok(x) => BadValue::Int(x),
            Err(_) => u64::try_from(*i)
                .map(BadValue::Uint)
                .unwrap_or(BadValue::Null),
        },
        Value::UntypedFloat(f) => BadValue::Float(*f),
        Value::Float(t, f) if builtin(t) == Some(Builtin::Float64) => BadValue::Float(*f),
        Value::GoError(Some(s)) => BadValue::String(s.to_string()),
        other => match to_json(env, other) {
            Ok(J::Null) => BadValue::Null,
            Ok(j) => BadValue::Json(j),
            Err(_) => BadValue::Null,
        },
    }
}

/// JSON → Go value of type `ty`, as `encoding/json` would decode it (absent struct fields
/// stay zero; `null` is nil or zero). Used to hand values to interpreted Go functions.
pub fn from_json(env: &TypeEnv<'_>, ty: &TypeRef, j: &J) -> Result<Value, String> {
    decode(env, ty, j, 0)
}

fn decode(env: &TypeEnv<'_>, ty: &TypeRef, j: &J, depth: usize) -> Result<Value, String> {
    use std::cell::RefCell;
    use std::rc::Rc;
    if depth > MAX_DEPTH {
        return Err("value nested too deeply".into());
    }
    let d = depth + 1;
    if j.is_null() {
        return Ok(Value::zero(env, ty));
    }
    let under = env.underlying(ty);
    let kind_err = || format!("cannot decode {j} into {}", env.type_string(ty));
    Ok(match under {
        TypeRef::Builtin(b) => match (b, j) {
            (Builtin::String, J::String(s)) => Value::Str(ty.clone(), s.clone()),
            (Builtin::Bool, J::Bool(v)) => Value::Bool(ty.clone(), *v),
            (Builtin::Float32 | Builtin::Float64, J::Number(n)) => {
                Value::Float(ty.clone(), n.as_f64().ok_or_else(kind_err)?)
            }
            (b, J::Number(n)) if b.is_integer() => {
                let i = n
                    .as_i64()
                    .map(i128::from)
                    .or_else(|| n.as_u64().map(i128::from))
                    .ok_or_else(kind_err)?;
                Value::Int(ty.clone(), i)
            }
            _ => return Err(kind_err()),
        },
        TypeRef::Pointer(elem) => {
            let v = decode(env, &elem, j, d)?;
            Value::Ptr(*elem, Some(crate::value::cell(v)))
        }
        TypeRef::Slice(elem) => {
            if let (J::String(s), true) = (j, is_byte(env, &elem)) {
                let bytes = unbase64(s).ok_or_else(kind_err)?;
                let items = bytes
                    .into_iter()
                    .map(|b| Value::Int((*elem).clone(), i128::from(b)))
                    .collect();
                return Ok(Value::Slice(ty.clone(), Some(Rc::new(RefCell::new(items)))));
            }
            let J::Array(a) = j else {
                return Err(kind_err());
            };
            let items = a
                .iter()
                .map(|x| decode(env, &elem, x, d))
                .collect::<Result<Vec<_>, _>>()?;
            Value::Slice(ty.clone(), Some(Rc::new(RefCell::new(items))))
        }
        TypeRef::Map { key, value } => {
            let J::Object(o) = j else {
                return Err(kind_err());
            };
            let mut entries = Vec::new();
            for (k, v) in o {
                let kv = decode(env, &key, &J::String(k.clone()), d)?;
                entries.push((kv, decode(env, &value, v, d)?));
            }
            Value::Map(ty.clone(), Some(Rc::new(RefCell::new(entries))))
        }
        TypeRef::Struct(_) => {
            let J::Object(o) = j else {
                return Err(kind_err());
            };
            let Value::Struct(t, mut fields) = Value::zero(env, ty) else {
                return Err(kind_err());
            };
            let decls = env.struct_fields(ty).unwrap_or_default();
            for (i, f) in decls.iter().enumerate() {
                let slot = match f.json_name() {
                    Some(name) if f.is_exported() => match o.get(name) {
                        Some(v) => decode(env, &f.ty, v, d)?,
                        None => continue,
                    },
                    None if f.embedded => decode(env, &f.ty, j, d)?,
                    _ => continue,
                };
                if let Some(x) = fields.get_mut(i) {
                    *x = slot;
                }
            }
            Value::Struct(t, fields)
        }
        TypeRef::Interface => Value::Iface(None),
        _ => return Err(kind_err()),
    })
}

fn unbase64(s: &str) -> Option<Vec<u8>> {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let mut acc = 0u32;
    let mut bits = 0;
    for c in s.bytes().filter(|c| *c != b'=') {
        let v = ALPHABET.iter().position(|a| *a == c)? as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}
