//! `metav1.Status`, the per-document result kubectl-validate prints with `--output json`:
//! built as apimachinery's `errors.NewInvalid` / `NewInternalError` and kubectl-validate's
//! `errorToStatus` build it, read from the expectation comments of the test cases, compared
//! as the upstream test compares them (Go struct equality after a JSON round trip), and
//! rendered as Go's `encoding/json` renders them.

use kdv_runtime::{ErrorListExt, FieldError};
use serde_json::{Map, Value};

/// `metav1.StatusSuccess`.
pub const SUCCESS: &str = "Success";
/// `metav1.StatusFailure`.
pub const FAILURE: &str = "Failure";

/// A `metav1.Status`. Go's zero values stand for absent members, so an absent `message` and
/// `"message": ""` are the same value, as are an absent `code` and `0`, and an absent
/// `metadata` and `{}`; `details` is a pointer in Go, so an absent one differs from `{}`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// `kind` (inline `TypeMeta`).
    pub kind: String,
    /// `apiVersion` (inline `TypeMeta`).
    pub api_version: String,
    /// `metadata` (`ListMeta`; kubectl-validate never sets it).
    pub metadata: Map<String, Value>,
    /// `Success` or `Failure`.
    pub status: String,
    /// The human message.
    pub message: String,
    /// `Invalid`, `InternalError`, `BadRequest`, …
    pub reason: String,
    /// The details, when there are any.
    pub details: Option<StatusDetails>,
    /// The HTTP status code (422, 500, 400).
    pub code: i64,
}

/// `metav1.StatusDetails`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StatusDetails {
    /// The object's name.
    pub name: String,
    /// Its API group (`core` for the core group, as kubectl-validate rewrites it).
    pub group: String,
    /// Its kind.
    pub kind: String,
    /// Its UID.
    pub uid: String,
    /// One cause per error.
    pub causes: Vec<StatusCause>,
    /// `retryAfterSeconds`.
    pub retry_after_seconds: i64,
}

/// `metav1.StatusCause`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StatusCause {
    /// The field error's type (`FieldValueInvalid`, …), Go's `CauseType`.
    pub reason: String,
    /// The error without its field (Go's `ErrorBody()`).
    pub message: String,
    /// The field path as Go renders it (`<nil>` for the nil path).
    pub field: String,
}

impl Status {
    /// `{"status": "Success"}`: what a valid or empty document yields.
    pub fn success() -> Status {
        Status {
            status: SUCCESS.to_string(),
            ..Status::default()
        }
    }

    /// Whether this is a failure (anything but `Success`).
    pub fn is_failure(&self) -> bool {
        self.status != SUCCESS
    }

    /// apimachinery's `errors.NewInvalid(schema.GroupKind{Group: group, Kind: kind}, name,
    /// errs)`: one cause per error (not deduplicated), and the message
    /// `<Kind>.<group> "<name>" is invalid: <errors>`, where the errors are Go's
    /// `ErrorList.ToAggregate()` (deduplicated by text; one error as itself, several as
    /// `[a, b]`). An empty group is left out (`Kind "name"`), and an empty kind gives
    /// kubectl-validate's ` "" is invalid: …` form.
    pub fn invalid(group: &str, kind: &str, name: &str, errors: &[FieldError]) -> Status {
        let causes = errors
            .iter()
            .map(|e| StatusCause {
                reason: e.error_type.as_str().to_string(),
                message: e.body().to_string(),
                field: e.field.to_string(),
            })
            .collect();
        let qualified = if group.is_empty() {
            kind.to_string()
        } else {
            format!("{kind}.{group}")
        };
        let mut message = format!("{qualified} {} is invalid", kdv_gofmt::quote(name));
        if !errors.is_empty() {
            message.push_str(": ");
            message.push_str(&errors.to_aggregate_string());
        }
        Status {
            status: FAILURE.to_string(),
            message,
            reason: "Invalid".to_string(),
            details: Some(StatusDetails {
                name: name.to_string(),
                group: group.to_string(),
                kind: kind.to_string(),
                causes,
                ..StatusDetails::default()
            }),
            code: 422,
            ..Status::default()
        }
    }

    /// apimachinery's `errors.NewInternalError(err)` for an error whose text is `error`.
    pub fn internal(error: &str) -> Status {
        Status {
            status: FAILURE.to_string(),
            message: format!("Internal error occurred: {error}"),
            reason: "InternalError".to_string(),
            details: Some(StatusDetails {
                causes: vec![StatusCause {
                    message: error.to_string(),
                    ..StatusCause::default()
                }],
                ..StatusDetails::default()
            }),
            code: 500,
            ..Status::default()
        }
    }

    /// kubectl-validate's status for YAML decoding errors (`yaml.TypeError` of
    /// sigs.k8s.io/yaml's goyaml.v2, such as repeated keys): one cause per message.
    pub fn yaml_bad_request(messages: &[String]) -> Status {
        Status {
            status: FAILURE.to_string(),
            message: "failed to unmarshal document to YAML".to_string(),
            reason: "BadRequest".to_string(),
            details: Some(StatusDetails {
                causes: messages
                    .iter()
                    .map(|m| StatusCause {
                        message: m.clone(),
                        ..StatusCause::default()
                    })
                    .collect(),
                ..StatusDetails::default()
            }),
            code: 400,
            ..Status::default()
        }
    }

    /// Reads a status as Go's `json.Unmarshal` into a `metav1.Status` reads it: unknown
    /// members are ignored, `null` leaves the zero value, a member of the wrong JSON type is
    /// an error.
    pub fn from_json(value: &Value) -> Result<Status, String> {
        let object = as_object(value, "Status")?;
        let mut status = Status::default();
        for (key, v) in object {
            match key.as_str() {
                "kind" => status.kind = string(v, "Status.kind")?,
                "apiVersion" => status.api_version = string(v, "Status.apiVersion")?,
                "metadata" if !v.is_null() => {
                    status.metadata = as_object(v, "Status.metadata")?.clone();
                }
                "status" => status.status = string(v, "Status.status")?,
                "message" => status.message = string(v, "Status.message")?,
                "reason" => status.reason = string(v, "Status.reason")?,
                "details" if !v.is_null() => status.details = Some(details(v)?),
                "code" => status.code = int(v, "Status.code")?,
                _ => {}
            }
        }
        Ok(status)
    }

    /// The status as Go's `json.Marshal` writes a `metav1.Status`: members in the struct's
    /// order, `omitempty` members left out when empty (`metadata` is always written).
    pub fn to_json(&self) -> String {
        let mut out = String::from("{");
        let mut first = true;
        let mut member = |out: &mut String, name: &str| {
            if !first {
                out.push(',');
            }
            first = false;
            kdv_gofmt::write_json_string(out, name);
            out.push(':');
        };
        if !self.kind.is_empty() {
            member(&mut out, "kind");
            kdv_gofmt::write_json_string(&mut out, &self.kind);
        }
        if !self.api_version.is_empty() {
            member(&mut out, "apiVersion");
            kdv_gofmt::write_json_string(&mut out, &self.api_version);
        }
        member(&mut out, "metadata");
        kdv_gofmt::write_json(&mut out, &Value::Object(self.metadata.clone()));
        for (name, text) in [
            ("status", &self.status),
            ("message", &self.message),
            ("reason", &self.reason),
        ] {
            if !text.is_empty() {
                member(&mut out, name);
                kdv_gofmt::write_json_string(&mut out, text);
            }
        }
        if let Some(details) = &self.details {
            member(&mut out, "details");
            details.write_json(&mut out);
        }
        if self.code != 0 {
            member(&mut out, "code");
            out.push_str(&self.code.to_string());
        }
        out.push('}');
        out
    }
}

impl StatusDetails {
    fn write_json(&self, out: &mut String) {
        out.push('{');
        let mut first = true;
        let mut member = |out: &mut String, name: &str| {
            if !first {
                out.push(',');
            }
            first = false;
            kdv_gofmt::write_json_string(out, name);
            out.push(':');
        };
        for (name, text) in [
            ("name", &self.name),
            ("group", &self.group),
            ("kind", &self.kind),
            ("uid", &self.uid),
        ] {
            if !text.is_empty() {
                member(out, name);
                kdv_gofmt::write_json_string(out, text);
            }
        }
        if !self.causes.is_empty() {
            member(out, "causes");
            out.push('[');
            for (i, cause) in self.causes.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                cause.write_json(out);
            }
            out.push(']');
        }
        if self.retry_after_seconds != 0 {
            member(out, "retryAfterSeconds");
            out.push_str(&self.retry_after_seconds.to_string());
        }
        out.push('}');
    }
}

impl StatusCause {
    fn write_json(&self, out: &mut String) {
        out.push('{');
        let mut first = true;
        for (name, text) in [
            ("reason", &self.reason),
            ("message", &self.message),
            ("field", &self.field),
        ] {
            if !text.is_empty() {
                if !first {
                    out.push(',');
                }
                first = false;
                kdv_gofmt::write_json_string(out, name);
                out.push(':');
                kdv_gofmt::write_json_string(out, text);
            }
        }
        out.push('}');
    }
}

fn as_object<'a>(value: &'a Value, what: &str) -> Result<&'a Map<String, Value>, String> {
    value
        .as_object()
        .ok_or_else(|| format!("{what}: expected an object, got {value}"))
}

fn string(value: &Value, what: &str) -> Result<String, String> {
    match value {
        Value::Null => Ok(String::new()),
        Value::String(s) => Ok(s.clone()),
        other => Err(format!("{what}: expected a string, got {other}")),
    }
}

fn int(value: &Value, what: &str) -> Result<i64, String> {
    match value {
        Value::Null => Ok(0),
        Value::Number(n) => n
            .as_i64()
            .ok_or_else(|| format!("{what}: expected an integer, got {n}")),
        other => Err(format!("{what}: expected an integer, got {other}")),
    }
}

fn details(value: &Value) -> Result<StatusDetails, String> {
    let mut details = StatusDetails::default();
    for (key, v) in as_object(value, "Status.details")? {
        match key.as_str() {
            "name" => details.name = string(v, "StatusDetails.name")?,
            "group" => details.group = string(v, "StatusDetails.group")?,
            "kind" => details.kind = string(v, "StatusDetails.kind")?,
            "uid" => details.uid = string(v, "StatusDetails.uid")?,
            "retryAfterSeconds" => {
                details.retry_after_seconds = int(v, "StatusDetails.retryAfterSeconds")?;
            }
            "causes" => match v {
                Value::Null => {}
                Value::Array(items) => {
                    for item in items {
                        let mut cause = StatusCause::default();
                        if !item.is_null() {
                            for (key, v) in as_object(item, "StatusCause")? {
                                match key.as_str() {
                                    "reason" => cause.reason = string(v, "StatusCause.reason")?,
                                    "message" => {
                                        cause.message = string(v, "StatusCause.message")?;
                                    }
                                    "field" => cause.field = string(v, "StatusCause.field")?,
                                    _ => {}
                                }
                            }
                        }
                        details.causes.push(cause);
                    }
                }
                other => {
                    return Err(format!(
                        "StatusDetails.causes: expected an array, got {other}"
                    ));
                }
            },
            _ => {}
        }
    }
    Ok(details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kdv_runtime::{BadValue, ErrorType, FieldPath};
    use serde_json::json;

    fn path(s: &str) -> FieldPath {
        let mut p = FieldPath::root();
        for part in s.split('.') {
            p = p.child(part);
        }
        p
    }

    #[test]
    fn invalid_with_one_error() {
        let e = FieldError::new(
            ErrorType::Required,
            path("spec.containers[0].image"),
            BadValue::String(String::new()),
            "",
        );
        let status = Status::invalid("core", "Pod", "nginx-pod", &[e]);
        let expected = Status::from_json(&json!({
            "metadata": {}, "status": "Failure",
            "message": "Pod.core \"nginx-pod\" is invalid: spec.containers[0].image: Required value",
            "reason": "Invalid",
            "details": { "name": "nginx-pod", "group": "core", "kind": "Pod",
                         "causes": [ { "reason": "FieldValueRequired", "message": "Required value",
                                       "field": "spec.containers[0].image" } ] },
            "code": 422 }))
        .unwrap();
        assert_eq!(status, expected);
        assert_eq!(
            status.to_json(),
            r#"{"metadata":{},"status":"Failure","message":"Pod.core \"nginx-pod\" is invalid: spec.containers[0].image: Required value","reason":"Invalid","details":{"name":"nginx-pod","group":"core","kind":"Pod","causes":[{"reason":"FieldValueRequired","message":"Required value","field":"spec.containers[0].image"}]},"code":422}"#
        );
    }

    #[test]
    fn invalid_with_several_errors_lists_them_once() {
        let a = FieldError::new(
            ErrorType::TypeInvalid,
            path("spec.p"),
            BadValue::String("integer".into()),
            "spec.p in body must be of type string: \"integer\"",
        );
        let b = FieldError::new(
            ErrorType::NotSupported,
            path("spec.p"),
            BadValue::Int(22),
            "supported values: \"TCP\"",
        );
        let status = Status::invalid("core", "Pod", "x", &[a.clone(), b.clone(), a]);
        assert_eq!(
            status.message,
            "Pod.core \"x\" is invalid: [spec.p: Invalid value: \"integer\": spec.p in body must be of type string: \"integer\", spec.p: Unsupported value: 22: supported values: \"TCP\"]"
        );
        // Causes are not deduplicated.
        assert_eq!(status.details.as_ref().unwrap().causes.len(), 3);
    }

    #[test]
    fn invalid_without_kind_is_kubectl_validates_strict_decoding_form() {
        let e = FieldError::new(
            ErrorType::Invalid,
            path("containers"),
            BadValue::Omitted,
            "value provided for unknown field",
        );
        let status = Status::invalid("", "", "", &[e]);
        assert_eq!(
            status.message,
            " \"\" is invalid: containers: Invalid value: value provided for unknown field"
        );
        let d = status.details.unwrap();
        assert_eq!(
            (d.group.as_str(), d.kind.as_str(), d.name.as_str()),
            ("", "", "")
        );
        assert_eq!(
            d.causes[0].message,
            "Invalid value: value provided for unknown field"
        );
        // The nil path, as composite kube-openapi errors carry it.
        let nil = FieldError::new(
            ErrorType::Invalid,
            FieldPath::root(),
            BadValue::String(String::new()),
            "x",
        );
        let status = Status::invalid("g", "K", "n", &[nil]);
        assert_eq!(
            status.message,
            "K.g \"n\" is invalid: <nil>: Invalid value: \"\": x"
        );
        assert_eq!(status.details.unwrap().causes[0].field, "<nil>");
        // No group: the kind alone; no errors: no colon.
        assert_eq!(
            Status::invalid("", "K", "n", &[]).message,
            "K \"n\" is invalid"
        );
    }

    #[test]
    fn internal_error() {
        let status = Status::internal(
            "failed to retrieve validator: kind configmap not found in v1 groupversion",
        );
        assert_eq!(
            status.to_json(),
            r#"{"metadata":{},"status":"Failure","message":"Internal error occurred: failed to retrieve validator: kind configmap not found in v1 groupversion","reason":"InternalError","details":{"causes":[{"message":"failed to retrieve validator: kind configmap not found in v1 groupversion"}]},"code":500}"#
        );
    }

    #[test]
    fn yaml_bad_request() {
        let status = Status::yaml_bad_request(&[
            "line 24: key \"containers\" already set in map".to_string()
        ]);
        let expected = Status::from_json(&json!({
            "metadata": {}, "status": "Failure", "message": "failed to unmarshal document to YAML",
            "reason": "BadRequest",
            "details": {"causes": [{"message": "line 24: key \"containers\" already set in map"}]},
            "code": 400}))
        .unwrap();
        assert_eq!(status, expected);
    }

    #[test]
    fn equality_rules() {
        let a = Status::from_json(&json!({"status": "Success"})).unwrap();
        let b = Status::from_json(
            &json!({"metadata": {}, "status": "Success", "message": "", "code": 0}),
        )
        .unwrap();
        assert_eq!(a, b);
        assert_eq!(a, Status::success());
        // A nil details pointer differs from an empty one, as in Go.
        let c = Status::from_json(&json!({"status": "Success", "details": {}})).unwrap();
        assert_ne!(a, c);
        let null =
            Status::from_json(&json!({"status": "Success", "details": null, "metadata": null}))
                .unwrap();
        assert_eq!(a, null);
        // Unknown members are ignored; wrong types are errors.
        assert_eq!(
            Status::from_json(&json!({"status": "Success", "extra": 1})).unwrap(),
            a
        );
        assert!(Status::from_json(&json!({"code": "422"})).is_err());
        assert!(Status::from_json(&json!([])).is_err());
        assert!(Status::from_json(&json!({"details": {"causes": {}}})).is_err());
    }

    #[test]
    fn go_json_order_and_escaping() {
        let s = Status {
            kind: "Status".into(),
            api_version: "v1".into(),
            status: FAILURE.into(),
            message: "<&>".into(),
            details: Some(StatusDetails {
                retry_after_seconds: 3,
                causes: vec![StatusCause::default()],
                ..StatusDetails::default()
            }),
            ..Status::default()
        };
        assert_eq!(
            s.to_json(),
            r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"\u003c\u0026\u003e","details":{"causes":[{}],"retryAfterSeconds":3}}"#
        );
    }
}
