//! Field errors matching `k8s.io/apimachinery/pkg/util/validation/field`: the same error
//! types, constructors, details and `Error()` text.

use std::collections::HashSet;
use std::fmt::{self, Write};

use crate::gofmt;
use crate::path::{FieldPath, PathRef};

/// The kind of a field error (Go's `field.ErrorType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorType {
    /// `FieldValueNotFound`.
    NotFound,
    /// `FieldValueRequired`.
    Required,
    /// `FieldValueDuplicate`.
    Duplicate,
    /// `FieldValueInvalid`.
    Invalid,
    /// `FieldValueNotSupported`.
    NotSupported,
    /// `FieldValueForbidden`.
    Forbidden,
    /// `FieldValueTooLong`.
    TooLong,
    /// `FieldValueTooMany`.
    TooMany,
    /// `FieldValueTooFew`.
    TooFew,
    /// `InternalError`.
    Internal,
    /// `FieldValueTypeInvalid`.
    TypeInvalid,
    /// `FieldValueTooShort`.
    TooShort,
}

impl ErrorType {
    /// Every error type.
    pub const ALL: [ErrorType; 12] = [
        ErrorType::NotFound,
        ErrorType::Required,
        ErrorType::Duplicate,
        ErrorType::Invalid,
        ErrorType::NotSupported,
        ErrorType::Forbidden,
        ErrorType::TooLong,
        ErrorType::TooMany,
        ErrorType::TooFew,
        ErrorType::Internal,
        ErrorType::TypeInvalid,
        ErrorType::TooShort,
    ];

    /// The machine-readable value, e.g. `FieldValueRequired`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorType::NotFound => "FieldValueNotFound",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::TooFew => "FieldValueTooFew",
            ErrorType::Internal => "InternalError",
            ErrorType::TypeInvalid => "FieldValueTypeInvalid",
            ErrorType::TooShort => "FieldValueTooShort",
        }
    }

    /// Parses the machine-readable value (inverse of [`ErrorType::as_str`]).
    pub fn from_name(name: &str) -> Option<ErrorType> {
        ErrorType::ALL.into_iter().find(|t| t.as_str() == name)
    }

    /// The human text (Go's `ErrorType.String()`), e.g. `Required value`.
    pub fn description(self) -> &'static str {
        match self {
            ErrorType::NotFound => "Not found",
            ErrorType::Required => "Required value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::Invalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooMany => "Too many",
            ErrorType::TooFew => "Too few",
            ErrorType::Internal => "Internal error",
            ErrorType::TypeInvalid => "Invalid value",
            ErrorType::TooShort => "Too short",
        }
    }

    /// Whether `Error()` prints the bad value for this type.
    pub fn shows_value(self) -> bool {
        !matches!(
            self,
            ErrorType::Required
                | ErrorType::Forbidden
                | ErrorType::TooLong
                | ErrorType::TooShort
                | ErrorType::Internal
        )
    }
}

impl fmt::Display for ErrorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// The offending value carried by an error. Go prints a bad value according to its dynamic
/// type: exactly `string` is Go-quoted, exactly `bool`/`int64`/`int32`/`float64` use `%v`,
/// and everything else (named types such as enums, `int`, pointers, structs, maps, slices)
/// goes through `json.Marshal`. The variants pick the rendering accordingly.
#[derive(Clone, Debug, PartialEq)]
pub enum BadValue {
    /// Go's `field.OmitValueType{}`: nothing is printed.
    Omitted,
    /// A nil value: printed `null`.
    Null,
    /// A bool: `%v`.
    Bool(bool),
    /// An integer: decimal.
    Int(i64),
    /// An unsigned integer: decimal.
    Uint(u64),
    /// A Go `float64`: `%v` (`1e+06`).
    Float(f64),
    /// A Go `string`: Go-quoted (`"a\x01"`).
    String(String),
    /// Any other Go value, printed as `json.Marshal` prints it: objects with sorted keys,
    /// strings with HTML escaping (`"a\u003cb"`), floats in ES6 style (`1000000`). Use it for
    /// named string types (see [`BadValue::named_string`]), pointers and composite values.
    Json(serde_json::Value),
    /// A Go value given as its `json.Marshal` text, for values a JSON tree cannot hold in
    /// Go's order (structs without JSON tags print their fields by Go name in declaration
    /// order, which sorted keys would change).
    Encoded(String),
}

impl BadValue {
    /// Shorthand for `BadValue::String(s.into())`: a value of Go type `string`.
    pub fn string(s: impl Into<String>) -> BadValue {
        BadValue::String(s.into())
    }

    /// A value of a named Go string type (e.g. an enum type), which Go prints JSON-encoded.
    pub fn named_string(s: impl Into<String>) -> BadValue {
        BadValue::Json(serde_json::Value::String(s.into()))
    }

    /// A value of an unstructured object as Go prints it: JSON decodes into `interface{}`
    /// holding a `string` (Go-quoted), `bool`, `int64` or `float64` (`%v`; integers beyond
    /// `int64` are `float64`), `nil` (`null`), or a map or slice (JSON-encoded).
    pub fn unstructured(v: &serde_json::Value) -> BadValue {
        use serde_json::Value;
        match v {
            Value::Null => BadValue::Null,
            Value::Bool(b) => BadValue::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => BadValue::Int(i),
                None => BadValue::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => BadValue::String(s.clone()),
            other => BadValue::Json(other.clone()),
        }
    }

    /// Writes the value as Go's `ErrorBody` prints it (nothing for [`BadValue::Omitted`]).
    pub fn write_go<W: Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        match self {
            BadValue::Omitted => Ok(()),
            BadValue::Null => out.write_str("null"),
            BadValue::Bool(b) => out.write_str(if *b { "true" } else { "false" }),
            BadValue::Int(i) => write!(out, "{i}"),
            BadValue::Uint(u) => write!(out, "{u}"),
            BadValue::Float(f) => out.write_str(&gofmt::format_float_v(*f)),
            BadValue::String(s) => gofmt::write_quoted(out, s),
            BadValue::Json(v) => out.write_str(&gofmt::to_json(v)),
            BadValue::Encoded(text) => out.write_str(text),
        }
    }
}

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_go(f)
    }
}

impl From<bool> for BadValue {
    fn from(v: bool) -> Self {
        BadValue::Bool(v)
    }
}
impl From<i64> for BadValue {
    fn from(v: i64) -> Self {
        BadValue::Int(v)
    }
}
impl From<u64> for BadValue {
    fn from(v: u64) -> Self {
        BadValue::Uint(v)
    }
}
impl From<f64> for BadValue {
    fn from(v: f64) -> Self {
        BadValue::Float(v)
    }
}
impl From<&str> for BadValue {
    fn from(v: &str) -> Self {
        BadValue::String(v.to_owned())
    }
}
impl From<String> for BadValue {
    fn from(v: String) -> Self {
        BadValue::String(v)
    }
}
impl From<serde_json::Value> for BadValue {
    fn from(v: serde_json::Value) -> Self {
        BadValue::Json(v)
    }
}

/// The stability level of the declarative rule that produced an error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StabilityLevel {
    /// Not marked (stable rules, hand-written errors).
    #[default]
    Unknown,
    /// Produced under `+k8s:alpha`.
    Alpha,
    /// Produced under `+k8s:beta`.
    Beta,
}

impl StabilityLevel {
    /// Go's `ValidationStabilityLevel.String()`: `unknown`, `alpha` or `beta`.
    pub fn as_str(self) -> &'static str {
        match self {
            StabilityLevel::Unknown => "unknown",
            StabilityLevel::Alpha => "alpha",
            StabilityLevel::Beta => "beta",
        }
    }
}

impl fmt::Display for StabilityLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The sentinel bad value Go's `TooLong`/`TooLongCharacters` store.
pub const VALUE_OMITTED: &str = "<value omitted>";

/// One field-level validation error (Go's `field.Error`).
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    /// What kind of error this is.
    pub error_type: ErrorType,
    /// Where it is.
    pub field: FieldPath,
    /// The offending value.
    pub bad_value: BadValue,
    /// The human message.
    pub detail: String,
    /// Which rule produced it (`minimum`, `format=k8s-uuid`, …); empty when none. Borrowed
    /// for the rules' own origins: building an error allocates only what it must.
    pub origin: std::borrow::Cow<'static, str>,
    /// Set on hand-written errors that declarative validation also covers.
    pub covered_by_declarative: bool,
    /// Set on hand-written (imperative) errors.
    pub from_imperative: bool,
    /// Set on errors returned by short-circuiting validators.
    pub short_circuit: bool,
    /// Set on errors of rules enforced only declaratively (KEP-5073 "declarative native").
    pub declarative_native: bool,
    /// Stability level of the producing rule.
    pub stability: StabilityLevel,
}

fn plural(n: i64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

impl FieldError {
    /// Builds an error with the given parts and no marks.
    pub fn new(
        error_type: ErrorType,
        field: FieldPath,
        bad_value: BadValue,
        detail: impl Into<String>,
    ) -> FieldError {
        FieldError {
            error_type,
            field,
            bad_value,
            detail: detail.into(),
            origin: std::borrow::Cow::Borrowed(""),
            covered_by_declarative: false,
            from_imperative: false,
            short_circuit: false,
            declarative_native: false,
            stability: StabilityLevel::Unknown,
        }
    }

    /// Go's `field.Required`: bad value `""`.
    pub fn required(path: &PathRef<'_>, detail: impl Into<String>) -> FieldError {
        FieldError::new(
            ErrorType::Required,
            path.to_path(),
            BadValue::String(String::new()),
            detail,
        )
    }

    /// Go's `field.Forbidden`: bad value `""`.
    pub fn forbidden(path: &PathRef<'_>, detail: impl Into<String>) -> FieldError {
        FieldError::new(
            ErrorType::Forbidden,
            path.to_path(),
            BadValue::String(String::new()),
            detail,
        )
    }

    /// Go's `field.Invalid`.
    pub fn invalid(path: &PathRef<'_>, value: BadValue, detail: impl Into<String>) -> FieldError {
        FieldError::new(ErrorType::Invalid, path.to_path(), value, detail)
    }

    /// Go's `field.TypeInvalid`.
    pub fn type_invalid(
        path: &PathRef<'_>,
        value: BadValue,
        detail: impl Into<String>,
    ) -> FieldError {
        FieldError::new(ErrorType::TypeInvalid, path.to_path(), value, detail)
    }

    /// Go's `field.NotFound`: no detail.
    pub fn not_found(path: &PathRef<'_>, value: BadValue) -> FieldError {
        FieldError::new(ErrorType::NotFound, path.to_path(), value, "")
    }

    /// Go's `field.Duplicate`: no detail.
    pub fn duplicate(path: &PathRef<'_>, value: BadValue) -> FieldError {
        FieldError::new(ErrorType::Duplicate, path.to_path(), value, "")
    }

    /// Go's `field.NotSupported`: detail `supported values: "a", "b"` (each Go-quoted, in the
    /// order given), or empty when there are none.
    pub fn not_supported<S: AsRef<str>>(
        path: &PathRef<'_>,
        value: BadValue,
        valid: &[S],
    ) -> FieldError {
        let mut detail = String::new();
        if !valid.is_empty() {
            detail.push_str("supported values: ");
            for (i, v) in valid.iter().enumerate() {
                if i > 0 {
                    detail.push_str(", ");
                }
                // Writing into a String cannot fail.
                let _ = gofmt::write_quoted(&mut detail, v.as_ref());
            }
        }
        FieldError::new(ErrorType::NotSupported, path.to_path(), value, detail)
    }

    /// Go's `field.TooLong` (a byte limit): bad value `"<value omitted>"`.
    pub fn too_long(path: &PathRef<'_>, max: i64) -> FieldError {
        let detail = if max >= 0 {
            format!(
                "may not be more than {max} {}",
                plural(max, "byte", "bytes")
            )
        } else {
            "value is too long".to_owned()
        };
        FieldError::new(
            ErrorType::TooLong,
            path.to_path(),
            BadValue::String(VALUE_OMITTED.to_owned()),
            detail,
        )
    }

    /// Go's `field.TooLongCharacters` (a character limit): bad value `"<value omitted>"`.
    pub fn too_long_characters(path: &PathRef<'_>, max: i64) -> FieldError {
        let detail = if max >= 0 {
            format!(
                "may not be more than {max} {}",
                plural(max, "character", "characters")
            )
        } else {
            "value is too long".to_owned()
        };
        FieldError::new(
            ErrorType::TooLong,
            path.to_path(),
            BadValue::String(VALUE_OMITTED.to_owned()),
            detail,
        )
    }

    /// Go's `field.TooShort`.
    pub fn too_short(path: &PathRef<'_>, value: BadValue, min: i64) -> FieldError {
        let detail = if min >= 0 {
            format!(
                "must be at least {min} {}",
                plural(min, "character", "characters")
            )
        } else {
            "value is too short".to_owned()
        };
        FieldError::new(ErrorType::TooShort, path.to_path(), value, detail)
    }

    /// Go's `field.TooMany`: bad value is `actual`, or omitted when `actual` is negative.
    pub fn too_many(path: &PathRef<'_>, actual: i64, max: i64) -> FieldError {
        let detail = if max >= 0 {
            format!("must have at most {max} {}", plural(max, "item", "items"))
        } else {
            "has too many items".to_owned()
        };
        let value = if actual >= 0 {
            BadValue::Int(actual)
        } else {
            BadValue::Omitted
        };
        FieldError::new(ErrorType::TooMany, path.to_path(), value, detail)
    }

    /// Go's `field.TooFew`: bad value is `actual`.
    pub fn too_few(path: &PathRef<'_>, actual: i64, min: i64) -> FieldError {
        let detail = if min >= 0 {
            format!("must have at least {min} {}", plural(min, "item", "items"))
        } else {
            "has too few items".to_owned()
        };
        FieldError::new(
            ErrorType::TooFew,
            path.to_path(),
            BadValue::Int(actual),
            detail,
        )
    }

    /// Go's `field.InternalError`: the detail is the message; the bad value (Go's `error`
    /// value) is kept as the message string.
    pub fn internal(path: &PathRef<'_>, msg: impl Into<String>) -> FieldError {
        let msg = msg.into();
        FieldError::new(
            ErrorType::Internal,
            path.to_path(),
            BadValue::String(msg.clone()),
            msg,
        )
    }

    /// Sets the origin.
    pub fn with_origin(mut self, origin: impl Into<std::borrow::Cow<'static, str>>) -> Self {
        self.origin = origin.into();
        self
    }

    /// Marks the error as produced by an alpha rule.
    pub fn mark_alpha(mut self) -> Self {
        self.stability = StabilityLevel::Alpha;
        self
    }

    /// Marks the error as produced by a beta rule.
    pub fn mark_beta(mut self) -> Self {
        self.stability = StabilityLevel::Beta;
        self
    }

    /// Marks the error as covered by declarative validation.
    pub fn mark_covered_by_declarative(mut self) -> Self {
        self.covered_by_declarative = true;
        self
    }

    /// Marks the error as hand-written.
    pub fn mark_from_imperative(mut self) -> Self {
        self.from_imperative = true;
        self
    }

    /// Reports whether the error is marked alpha.
    pub fn is_alpha(&self) -> bool {
        self.stability == StabilityLevel::Alpha
    }

    /// Reports whether the error is marked beta.
    pub fn is_beta(&self) -> bool {
        self.stability == StabilityLevel::Beta
    }

    /// The message without the field (Go's `ErrorBody()`); render it with `Display`.
    pub fn body(&self) -> ErrorBody<'_> {
        ErrorBody(self)
    }
}

/// Go's `ErrorBody()` of a [`FieldError`], rendered through `Display`.
#[derive(Clone, Copy, Debug)]
pub struct ErrorBody<'a>(&'a FieldError);

impl fmt::Display for ErrorBody<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.0;
        f.write_str(e.error_type.description())?;
        if e.error_type.shows_value() && e.bad_value != BadValue::Omitted {
            f.write_str(": ")?;
            e.bad_value.write_go(f)?;
        }
        if !e.detail.is_empty() {
            f.write_str(": ")?;
            f.write_str(&e.detail)?;
        }
        Ok(())
    }
}

impl fmt::Display for FieldError {
    /// Go's `Error()`: `<field>: <body>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

impl std::error::Error for FieldError {}

/// A list of field errors (Go's `field.ErrorList`).
pub type ErrorList = Vec<FieldError>;

/// List-wide helpers of Go's `field.ErrorList`, on any slice of errors.
pub trait ErrorListExt {
    /// Sets the origin of every error.
    fn with_origin(&mut self, origin: &str) -> &mut Self;
    /// Prepends `prefix` to every detail.
    fn prefix_detail(&mut self, prefix: &str) -> &mut Self;
    /// Marks every error alpha.
    fn mark_alpha(&mut self) -> &mut Self;
    /// Marks every error beta.
    fn mark_beta(&mut self) -> &mut Self;
    /// Marks every error as produced by a short-circuiting validator.
    fn mark_short_circuit(&mut self) -> &mut Self;
    /// Marks every error as covered by declarative validation.
    fn mark_covered_by_declarative(&mut self) -> &mut Self;
    /// Marks every error as hand-written.
    fn mark_from_imperative(&mut self) -> &mut Self;
    /// Marks every error as declarative-native.
    fn mark_declarative_native(&mut self) -> &mut Self;
    /// Go's `ToAggregate().Error()`: errors deduplicated by their text; one error renders as
    /// itself, several as `[a, b]`; no errors render as the empty string.
    fn to_aggregate_string(&self) -> String;
}

/// One implementation for slices, vectors and arrays of errors.
impl<L: AsRef<[FieldError]> + AsMut<[FieldError]> + ?Sized> ErrorListExt for L {
    fn with_origin(&mut self, origin: &str) -> &mut Self {
        for e in self.as_mut() {
            e.origin = std::borrow::Cow::Owned(origin.to_owned());
        }
        self
    }

    fn prefix_detail(&mut self, prefix: &str) -> &mut Self {
        for e in self.as_mut() {
            e.detail.insert_str(0, prefix);
        }
        self
    }

    fn mark_alpha(&mut self) -> &mut Self {
        set_each(self, |e| e.stability = StabilityLevel::Alpha)
    }

    fn mark_beta(&mut self) -> &mut Self {
        set_each(self, |e| e.stability = StabilityLevel::Beta)
    }

    fn mark_short_circuit(&mut self) -> &mut Self {
        set_each(self, |e| e.short_circuit = true)
    }

    fn mark_covered_by_declarative(&mut self) -> &mut Self {
        set_each(self, |e| e.covered_by_declarative = true)
    }

    fn mark_from_imperative(&mut self) -> &mut Self {
        set_each(self, |e| e.from_imperative = true)
    }

    fn mark_declarative_native(&mut self) -> &mut Self {
        set_each(self, |e| e.declarative_native = true)
    }

    fn to_aggregate_string(&self) -> String {
        let mut seen = HashSet::new();
        let mut texts = Vec::new();
        for e in self.as_ref() {
            let text = e.to_string();
            if seen.insert(text.clone()) {
                texts.push(text);
            }
        }
        match texts.len() {
            0 => String::new(),
            1 => texts.pop().unwrap_or_default(),
            _ => format!("[{}]", texts.join(", ")),
        }
    }
}

fn set_each<L: AsMut<[FieldError]> + ?Sized>(
    list: &mut L,
    set: impl Fn(&mut FieldError),
) -> &mut L {
    list.as_mut().iter_mut().for_each(set);
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn p(name: &str) -> FieldPath {
        FieldPath::new(name)
    }

    #[test]
    fn type_names() {
        assert_eq!(ErrorType::Required.as_str(), "FieldValueRequired");
        assert_eq!(ErrorType::Internal.as_str(), "InternalError");
        assert_eq!(ErrorType::TypeInvalid.description(), "Invalid value");
        assert_eq!(ErrorType::NotSupported.description(), "Unsupported value");
        for t in ErrorType::ALL {
            assert_eq!(ErrorType::from_name(t.as_str()), Some(t));
        }
        assert_eq!(ErrorType::from_name("nope"), None);
    }

    #[test]
    fn constructors_render_like_go() {
        let root = PathRef::Nil;
        let spec = root.child("spec");
        let x = spec.child("x");
        let f = root.child("f");
        let a = root.child("a");
        let a0 = a.index(0);

        let e = FieldError::invalid(&x, BadValue::Int(5), "must be greater than or equal to 10")
            .with_origin("minimum");
        assert_eq!(
            e.to_string(),
            "spec.x: Invalid value: 5: must be greater than or equal to 10"
        );
        assert_eq!(e.origin, "minimum");
        assert_eq!(
            FieldError::invalid(&x, BadValue::Null, "field is immutable").to_string(),
            "spec.x: Invalid value: null: field is immutable"
        );
        assert_eq!(
            FieldError::required(&root, "").to_string(),
            "<nil>: Required value"
        );
        assert_eq!(
            FieldError::required(&f, "optional value was not specified").to_string(),
            "f: Required value: optional value was not specified"
        );
        assert_eq!(FieldError::forbidden(&f, "").to_string(), "f: Forbidden");
        assert_eq!(
            FieldError::forbidden(&f, "item may not be added").to_string(),
            "f: Forbidden: item may not be added"
        );
        assert_eq!(
            FieldError::duplicate(&a0, BadValue::string("x")).to_string(),
            "a[0]: Duplicate value: \"x\""
        );
        assert_eq!(
            FieldError::not_found(&f, BadValue::Int(3)).to_string(),
            "f: Not found: 3"
        );
        assert_eq!(
            FieldError::not_supported(&f, BadValue::string("c"), &["a", "b"]).to_string(),
            "f: Unsupported value: \"c\": supported values: \"a\", \"b\""
        );
        assert_eq!(
            FieldError::not_supported::<&str>(&f, BadValue::string("c"), &[]).to_string(),
            "f: Unsupported value: \"c\""
        );
        assert_eq!(
            FieldError::not_supported(&f, BadValue::string("c"), &["q\"uote"]).detail,
            "supported values: \"q\\\"uote\""
        );
        assert_eq!(
            FieldError::too_long_characters(&f, 10).to_string(),
            "f: Too long: may not be more than 10 characters"
        );
        assert_eq!(
            FieldError::too_long_characters(&f, 1).to_string(),
            "f: Too long: may not be more than 1 character"
        );
        assert_eq!(
            FieldError::too_long_characters(&f, -1).to_string(),
            "f: Too long: value is too long"
        );
        assert_eq!(
            FieldError::too_long(&f, 10).to_string(),
            "f: Too long: may not be more than 10 bytes"
        );
        assert_eq!(
            FieldError::too_long(&f, 1).to_string(),
            "f: Too long: may not be more than 1 byte"
        );
        assert_eq!(
            FieldError::too_long(&f, 0).to_string(),
            "f: Too long: may not be more than 0 bytes"
        );
        assert_eq!(
            FieldError::too_long(&f, -5).to_string(),
            "f: Too long: value is too long"
        );
        assert_eq!(
            FieldError::too_long(&f, 3).bad_value,
            BadValue::string("<value omitted>")
        );
        assert_eq!(
            FieldError::too_many(&f, 3, 2).to_string(),
            "f: Too many: 3: must have at most 2 items"
        );
        assert_eq!(
            FieldError::too_many(&f, 3, 1).to_string(),
            "f: Too many: 3: must have at most 1 item"
        );
        assert_eq!(
            FieldError::too_many(&f, -1, 2).to_string(),
            "f: Too many: must have at most 2 items"
        );
        assert_eq!(FieldError::too_many(&f, -1, 2).bad_value, BadValue::Omitted);
        assert_eq!(
            FieldError::too_many(&f, 5, -1).to_string(),
            "f: Too many: 5: has too many items"
        );
        assert_eq!(
            FieldError::too_few(&f, 0, 2).to_string(),
            "f: Too few: 0: must have at least 2 items"
        );
        assert_eq!(
            FieldError::too_few(&f, 0, 1).to_string(),
            "f: Too few: 0: must have at least 1 item"
        );
        assert_eq!(
            FieldError::too_few(&f, 0, -1).to_string(),
            "f: Too few: 0: has too few items"
        );
        let short = FieldError::too_short(&f, BadValue::string("a"), 2);
        assert_eq!(
            short.to_string(),
            "f: Too short: must be at least 2 characters"
        );
        assert_eq!(short.bad_value, BadValue::string("a"));
        assert_eq!(
            FieldError::too_short(&f, BadValue::string(""), 1).detail,
            "must be at least 1 character"
        );
        assert_eq!(
            FieldError::too_short(&f, BadValue::string(""), -1).detail,
            "value is too short"
        );
        let internal = FieldError::internal(&f, "undefined validation option \"X\"");
        assert_eq!(
            internal.to_string(),
            "f: Internal error: undefined validation option \"X\""
        );
        assert_eq!(internal.error_type.as_str(), "InternalError");
        assert_eq!(
            FieldError::type_invalid(&f, BadValue::string("x"), "must be an int").to_string(),
            "f: Invalid value: \"x\": must be an int"
        );
    }

    #[test]
    fn bad_value_rendering() {
        let f = FieldError::invalid(&PathRef::Nil, BadValue::Null, "");
        assert_eq!(f.to_string(), "<nil>: Invalid value: null");
        let render = |v: BadValue| FieldError::new(ErrorType::Invalid, p("f"), v, "d").to_string();
        assert_eq!(render(BadValue::Bool(true)), "f: Invalid value: true: d");
        assert_eq!(render(BadValue::Int(-7)), "f: Invalid value: -7: d");
        assert_eq!(
            render(BadValue::Uint(u64::MAX)),
            "f: Invalid value: 18446744073709551615: d"
        );
        assert_eq!(render(BadValue::Float(1.5)), "f: Invalid value: 1.5: d");
        assert_eq!(render(BadValue::Float(1e6)), "f: Invalid value: 1e+06: d");
        assert_eq!(
            render(BadValue::string("a\nb")),
            "f: Invalid value: \"a\\nb\": d"
        );
        assert_eq!(render(BadValue::Omitted), "f: Invalid value: d");
        assert_eq!(
            render(BadValue::Json(json!(null))),
            "f: Invalid value: null: d"
        );
        assert_eq!(
            render(BadValue::Json(json!("s"))),
            "f: Invalid value: \"s\": d"
        );
        // A plain string is Go-quoted; a named string type goes through json.Marshal.
        assert_eq!(
            render(BadValue::string("a<b\u{1}")),
            "f: Invalid value: \"a<b\\x01\": d"
        );
        assert_eq!(
            render(BadValue::named_string("a<b\u{1}")),
            "f: Invalid value: \"a\\u003cb\\u0001\": d"
        );
        assert_eq!(render(BadValue::Json(json!(2))), "f: Invalid value: 2: d");
        assert_eq!(
            render(BadValue::Json(json!(2.5e7))),
            "f: Invalid value: 25000000: d"
        );
        assert_eq!(
            render(BadValue::Json(json!(false))),
            "f: Invalid value: false: d"
        );
        assert_eq!(
            render(BadValue::Json(json!({"b": 1, "a": [1e7, "<"]}))),
            "f: Invalid value: {\"a\":[10000000,\"\\u003c\"],\"b\":1}: d"
        );
        // Types that do not show values ignore the bad value.
        let req = FieldError::new(ErrorType::Required, p("f"), BadValue::Int(1), "");
        assert_eq!(req.to_string(), "f: Required value");
        assert_eq!(req.body().to_string(), "Required value");
    }

    #[test]
    fn list_helpers() {
        let root = PathRef::Nil;
        let f = root.child("f");
        let mut list: ErrorList = vec![
            FieldError::invalid(&f, BadValue::Int(1), "x"),
            FieldError::invalid(&f, BadValue::Int(1), "x"),
            FieldError::required(&f, ""),
        ];
        list.with_origin("o")
            .prefix_detail("p: ")
            .mark_alpha()
            .mark_short_circuit();
        assert!(
            list.iter()
                .all(|e| e.origin == "o" && e.is_alpha() && e.short_circuit)
        );
        assert_eq!(list[0].detail, "p: x");
        assert_eq!(
            list.to_aggregate_string(),
            "[f: Invalid value: 1: p: x, f: Required value: p: ]"
        );
        list.mark_beta()
            .mark_covered_by_declarative()
            .mark_declarative_native()
            .mark_from_imperative();
        assert!(list.iter().all(|e| e.is_beta()
            && e.covered_by_declarative
            && e.declarative_native
            && e.from_imperative));
        assert_eq!(list[..1].to_aggregate_string(), "f: Invalid value: 1: p: x");
        assert_eq!(list[..2].to_aggregate_string(), "f: Invalid value: 1: p: x");
        assert_eq!(list[..0].to_aggregate_string(), "");
        let single = FieldError::required(&f, "")
            .mark_alpha()
            .mark_beta()
            .mark_covered_by_declarative()
            .mark_from_imperative();
        assert!(single.is_beta() && single.covered_by_declarative && single.from_imperative);
        assert_eq!(StabilityLevel::Alpha.to_string(), "alpha");
        assert_eq!(StabilityLevel::default().as_str(), "unknown");
    }
}
