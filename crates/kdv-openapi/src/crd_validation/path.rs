//! `field` constructors on owned paths (the CRD checks build paths as they go; they are not
//! a hot path).

use kdv_runtime::{BadValue, ErrorType, FieldError, FieldPath, PathRef};

/// `field.Required(path, detail)`.
pub(crate) fn required(path: &FieldPath, detail: impl Into<String>) -> FieldError {
    FieldError::new(
        ErrorType::Required,
        path.clone(),
        BadValue::string(""),
        detail,
    )
}

/// `field.Forbidden(path, detail)`.
pub(crate) fn forbidden(path: &FieldPath, detail: impl Into<String>) -> FieldError {
    FieldError::new(
        ErrorType::Forbidden,
        path.clone(),
        BadValue::string(""),
        detail,
    )
}

/// `field.Invalid(path, value, detail)`.
pub(crate) fn invalid(path: &FieldPath, value: BadValue, detail: impl Into<String>) -> FieldError {
    FieldError::new(ErrorType::Invalid, path.clone(), value, detail)
}

/// `field.NotSupported(path, value, valid)`.
pub(crate) fn not_supported(path: &FieldPath, value: BadValue, valid: &[&str]) -> FieldError {
    let mut e = FieldError::not_supported(&PathRef::Nil, value, valid);
    e.field = path.clone();
    e
}

/// `field.Duplicate(path, value)`.
pub(crate) fn duplicate(path: &FieldPath, value: BadValue) -> FieldError {
    FieldError::new(ErrorType::Duplicate, path.clone(), value, "")
}

/// `field.TooMany(path, actual, max)`.
pub(crate) fn too_many(path: &FieldPath, actual: i64, max: i64) -> FieldError {
    let mut e = FieldError::too_many(&PathRef::Nil, actual, max);
    e.field = path.clone();
    e
}
