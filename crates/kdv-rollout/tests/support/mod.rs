//! Builders of Go-style field errors for the tables transcribed from upstream tests.
#![allow(dead_code)]

use kdv_runtime::{BadValue, ErrorType, FieldError, FieldPath};

/// A path from its rendered form (`spec.containers[0].name`, `<nil>` for the root).
pub fn path(s: &str) -> FieldPath {
    let mut p = FieldPath::root();
    if s == "<nil>" || s.is_empty() {
        return p;
    }
    for part in s.split('.') {
        let (name, rest) = part.split_once('[').map_or((part, ""), |(n, r)| (n, r));
        if !name.is_empty() {
            p = p.child(name);
        }
        for idx in rest.split('[').filter(|x| !x.is_empty()) {
            let idx = idx.trim_end_matches(']');
            p = p.index(idx.parse().expect("index in test path"));
        }
    }
    p
}

/// An error of `ty` at `field` with a string bad value and `detail`.
pub fn err(ty: ErrorType, field: &str, value: &str, detail: &str) -> FieldError {
    FieldError::new(ty, path(field), BadValue::String(value.to_owned()), detail)
}

/// Go's `field.Invalid`.
pub fn invalid(field: &str, value: &str, detail: &str) -> FieldError {
    err(ErrorType::Invalid, field, value, detail)
}

/// Go's `field.Forbidden` (bad value `""`).
pub fn forbidden(field: &str, detail: &str) -> FieldError {
    err(ErrorType::Forbidden, field, "", detail)
}

/// Go's `field.Required` (bad value `""`).
pub fn required(field: &str, detail: &str) -> FieldError {
    err(ErrorType::Required, field, "", detail)
}

/// Go's `field.InternalError(nil, errors.New(msg))`.
pub fn internal(msg: &str) -> FieldError {
    err(ErrorType::Internal, "<nil>", msg, msg)
}

/// Sets the short-circuit mark.
pub fn short_circuit(mut e: FieldError) -> FieldError {
    e.short_circuit = true;
    e
}

/// Renders errors as Go's `Error()` texts.
pub fn texts(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(ToString::to_string).collect()
}
