//! cel-go's two-variable comprehensions (`ext.TwoVarComprehensions`,
//! `cel.lib.ext.comprev2`; Kubernetes 1.32+): the macros (`all`, `exists`, `existsOne`,
//! `transformList`, `transformMap`, `transformMapEntry` with two variables) are the parser's;
//! this is their helper function `cel.@mapInsert`, which the evaluator usually runs in place
//! on the accumulator (these overloads serve the other calls).

use std::sync::Arc;

use crate::library::{
    CallCtx, Declarations, Functions, Library, Overload, ParamType as P, cached, g, map, nso, param,
};
use crate::value::{EvalError, Key, Map, OwnedMap, Value};

/// The library's name.
const NAME: &str = "cel.lib.ext.comprev2";

/// The library.
pub fn library() -> Library {
    Library::new(NAME, 0, |_| declarations(), |_| functions())
}

// ---- declarations ------------------------------------------------------------------------

/// The helper function of cel-go's two-variable comprehension macros
/// (`ext.TwoVarComprehensions`; Kubernetes 1.32+).
pub fn declarations() -> Arc<Declarations> {
    cached("comprev2", 0, |_| {
        let k = param("K");
        let v = param("V");
        let map_kv = map(k.clone(), v.clone());
        let mut lib = Declarations::new(NAME);
        lib.function(
            "cel.@mapInsert",
            vec![
                g(
                    "@mapInsert_map_key_value",
                    vec![map_kv.clone(), k, v],
                    map_kv.clone(),
                ),
                g(
                    "@mapInsert_map_map",
                    vec![map_kv.clone(), map_kv.clone()],
                    map_kv,
                ),
            ],
        );
        lib
    })
}

// ---- implementations and runtime costs ----------------------------------------------

type R<'a> = Result<Value<'a>, EvalError>;

/// `cel.@mapInsert(map, key, value)` / `cel.@mapInsert(map, map)`.
fn map_insert<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let Value::Map(m) = &a[0] else {
        return Err(nso());
    };
    let mut out = match m {
        Map::Owned(o) => OwnedMap::clone(o),
        Map::Json(_) | Map::Typed(..) | Map::Native(_) => {
            let mut o = OwnedMap::new();
            for (k, v) in m.entries() {
                if let Ok(Some(k)) = Key::from_value(&k) {
                    let _ = o.insert_new(k, v);
                }
            }
            o
        }
    };
    let mut insert = |k: &Value<'a>, v: &Value<'a>| -> Result<(), EvalError> {
        let key = match k {
            Value::Bool(_) | Value::Int(_) | Value::Uint(_) | Value::String(_) => {
                Key::from_value(k)?.ok_or_else(nso)?
            }
            other => {
                return Err(EvalError::new(format!(
                    "unsupported key type: {}",
                    other.type_of()
                )));
            }
        };
        out.insert_new(key, v.clone()).map_err(|_| {
            EvalError::new(format!(
                "insert failed: key {} already exists",
                match k {
                    Value::String(s) => s.to_string(),
                    other => other.to_string(),
                }
            ))
        })
    };
    match a {
        [_, k, v] => insert(k, v)?,
        [_, Value::Map(other)] => {
            for (k, v) in other.entries() {
                insert(&k, &v)?;
            }
        }
        _ => return Err(nso()),
    }
    Ok(Value::Map(Map::Owned(Arc::new(out))))
}

/// The implementations (cel-go's default runtime cost, 1).
pub fn functions() -> Functions {
    Functions {
        name: NAME,
        overloads: vec![
            Overload::new(
                "@mapInsert_map_key_value",
                "cel.@mapInsert",
                false,
                &[P::MAP, P::DYN, P::DYN],
                map_insert,
            ),
            Overload::new(
                "@mapInsert_map_map",
                "cel.@mapInsert",
                false,
                &[P::MAP, P::MAP],
                map_insert,
            ),
        ],
        regex_functions: Vec::new(),
    }
}
