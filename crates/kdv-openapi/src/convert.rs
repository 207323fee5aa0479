//! kube-openapi errors → field errors, as the API server converts them
//! (`kubeOpenAPIResultToFieldErrors` in apiextensions-apiserver `pkg/apiserver/validation`).

use kdv_runtime::gofmt;
use kdv_runtime::{BadValue, ErrorList, ErrorType, FieldError, FieldPath, PathRef};
use serde_json::Value;

use crate::validate::{Code, OErr};

/// Converts a validator result: identical messages are reported once (kube-openapi's
/// `Result.AddErrors` de-duplicates by `Error()`), in first-seen order.
pub(crate) fn to_field_errors(errs: Vec<OErr>, out: &mut ErrorList) {
    // A set, not a list: 100,000 errors of one object are 100,000 look-ups, not 10^10.
    let mut seen: std::collections::HashSet<&str> =
        std::collections::HashSet::with_capacity(errs.len());
    let mut unique = Vec::with_capacity(errs.len());
    for (i, e) in errs.iter().enumerate() {
        if seen.insert(e.message.as_str()) {
            unique.push(i);
        }
    }
    let mut errs: Vec<Option<OErr>> = errs.into_iter().map(Some).collect();
    for i in unique {
        if let Some(e) = errs[i].take() {
            out.push(convert(e));
        }
    }
}

fn convert(e: OErr) -> FieldError {
    let value = e.value.unwrap_or_else(|| BadValue::String(String::new()));
    match e.code {
        Code::Required => FieldError::required(&PathRef::Nil, "").at(e.field),
        Code::Enum(values) => {
            let allowed: Vec<String> = values
                .iter()
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    other => gofmt::to_json(other),
                })
                .collect();
            FieldError::not_supported(&PathRef::Nil, value, &allowed).at(e.field)
        }
        Code::TooLong(max) => FieldError::too_long(&PathRef::Nil, max).at(e.field),
        Code::TooMany { actual, max } => {
            FieldError::too_many(&PathRef::Nil, actual, max).at(e.field)
        }
        Code::InvalidType => FieldError::new(ErrorType::TypeInvalid, e.field, value, e.message),
        Code::Other => FieldError::new(ErrorType::Invalid, e.field, value, e.message),
        Code::Plain => FieldError::new(
            ErrorType::Invalid,
            FieldPath::root(),
            BadValue::String(String::new()),
            e.message,
        ),
    }
}

/// Moves a constructed error to another path.
trait At {
    fn at(self, field: FieldPath) -> FieldError;
}

impl At for FieldError {
    fn at(mut self, field: FieldPath) -> FieldError {
        self.field = field;
        self
    }
}
