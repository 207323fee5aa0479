//! The AdmissionReview wire format (`admission.k8s.io/v1` and `v1beta1`): a bounded decoder
//! of what the API server sends and the response it expects back.
//!
//! The two versions have the same fields; a review is answered in the version it came in.
//! Only the fields kdv reads are decoded (`userInfo`, `options` and the rest are skipped);
//! the objects are kept as raw JSON text, so a judge parses them once, with positions if it
//! wants them.

use std::collections::BTreeMap;
use std::fmt;

use kdv_runtime::{ErrorList, ErrorListExt};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// The default limit of a request body: 7 MiB (a 3 MiB object and its 3 MiB old revision,
/// with the envelope), what the Go webhook framework accepts.
pub const DEFAULT_MAX_BODY: usize = 7 << 20;

/// The default limit of `object` and of `oldObject`: 3 MiB, the API server's own request
/// limit.
pub const DEFAULT_MAX_OBJECT: usize = 3 << 20;

/// Limits applied while decoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest body, in bytes.
    pub max_body: usize,
    /// Largest `object` or `oldObject`, in bytes of their JSON text.
    pub max_object: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body: DEFAULT_MAX_BODY,
            max_object: DEFAULT_MAX_OBJECT,
        }
    }
}

/// The version of an AdmissionReview, answered in kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewVersion {
    /// `admission.k8s.io/v1`.
    V1,
    /// `admission.k8s.io/v1beta1`.
    V1Beta1,
}

impl ReviewVersion {
    /// The `apiVersion` text.
    pub fn api_version(self) -> &'static str {
        match self {
            ReviewVersion::V1 => "admission.k8s.io/v1",
            ReviewVersion::V1Beta1 => "admission.k8s.io/v1beta1",
        }
    }
}

/// The operation of an admission request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Operation {
    /// `CREATE`.
    Create,
    /// `UPDATE`.
    Update,
    /// `DELETE`.
    Delete,
    /// `CONNECT`.
    Connect,
}

impl Operation {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Create => "CREATE",
            Operation::Update => "UPDATE",
            Operation::Delete => "DELETE",
            Operation::Connect => "CONNECT",
        }
    }
}

/// A group, version and kind (`kind` and `requestKind` of a request).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
pub struct GroupVersionKind {
    /// The API group, empty for the core group.
    #[serde(default)]
    pub group: String,
    /// The version.
    #[serde(default)]
    pub version: String,
    /// The kind.
    #[serde(default)]
    pub kind: String,
}

impl GroupVersionKind {
    /// `group/version`, or `version` for the core group: what an object's `apiVersion` says.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// Go's `GroupKind.String()`: `Kind.group`, or `Kind` in the core group.
    pub fn qualified_kind(&self) -> String {
        if self.group.is_empty() {
            self.kind.clone()
        } else {
            format!("{}.{}", self.kind, self.group)
        }
    }
}

/// The request of an AdmissionReview: what kdv reads of it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    /// Echoed in the response.
    pub uid: String,
    /// The kind of `object` (after conversion under `matchPolicy: Equivalent`).
    pub kind: GroupVersionKind,
    /// The subresource requested (`status`, `scale`), if any.
    #[serde(default)]
    pub sub_resource: Option<String>,
    /// The object's name (empty for a CREATE with `generateName`).
    #[serde(default)]
    pub name: Option<String>,
    /// The object's namespace.
    #[serde(default)]
    pub namespace: Option<String>,
    /// The operation.
    pub operation: Operation,
    /// The new object (CREATE, UPDATE; CONNECT's options).
    #[serde(default)]
    pub object: Option<Box<RawValue>>,
    /// The stored object (UPDATE, DELETE).
    #[serde(default)]
    pub old_object: Option<Box<RawValue>>,
    /// Whether the request will not be persisted.
    #[serde(default)]
    pub dry_run: Option<bool>,
}

/// A decoded AdmissionReview.
#[derive(Debug)]
pub struct Review {
    /// The version to answer in.
    pub version: ReviewVersion,
    /// The request.
    pub request: Request,
}

#[derive(Deserialize)]
struct Envelope {
    #[serde(rename = "apiVersion")]
    api_version: Option<String>,
    kind: Option<String>,
    request: Option<Request>,
}

/// Why a body is not an AdmissionReview kdv can answer (answered with HTTP 400).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Larger than [`Limits::max_body`].
    #[error("request body is {size} bytes, over the limit of {limit} bytes")]
    BodyTooLarge {
        /// The body's size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// Not JSON, or not shaped as an AdmissionReview.
    #[error("malformed AdmissionReview: {0}")]
    Malformed(String),
    /// Another apiVersion or kind.
    #[error("{0}")]
    NotAReview(String),
    /// An object over [`Limits::max_object`].
    #[error("request.{field} is {size} bytes, over the limit of {limit} bytes")]
    ObjectTooLarge {
        /// `object` or `oldObject`.
        field: &'static str,
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// A CREATE or UPDATE without its object, an UPDATE without its old object.
    #[error("request.{field} is required for {operation}")]
    Missing {
        /// The missing field.
        field: &'static str,
        /// The operation.
        operation: &'static str,
    },
}

/// Decodes an AdmissionReview body within `limits`. Never panics, whatever the bytes: this
/// is the function a fuzz target calls.
pub fn decode(body: &[u8], limits: Limits) -> Result<Review, DecodeError> {
    if body.len() > limits.max_body {
        return Err(DecodeError::BodyTooLarge {
            size: body.len(),
            limit: limits.max_body,
        });
    }
    // serde would also read a struct from a JSON array.
    if body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(DecodeError::Malformed("not a JSON object".to_string()));
    }
    let envelope: Envelope =
        serde_json::from_slice(body).map_err(|e| DecodeError::Malformed(e.to_string()))?;
    let version = match envelope.api_version.as_deref() {
        Some("admission.k8s.io/v1") => ReviewVersion::V1,
        Some("admission.k8s.io/v1beta1") => ReviewVersion::V1Beta1,
        Some(other) => {
            return Err(DecodeError::NotAReview(format!(
                "apiVersion {other:?} is not admission.k8s.io/v1 or admission.k8s.io/v1beta1"
            )));
        }
        None => {
            return Err(DecodeError::NotAReview(
                "apiVersion is missing (expected admission.k8s.io/v1)".to_string(),
            ));
        }
    };
    if envelope.kind.as_deref() != Some("AdmissionReview") {
        return Err(DecodeError::NotAReview(format!(
            "kind is {}, not \"AdmissionReview\"",
            envelope
                .kind
                .as_deref()
                .map_or_else(|| "missing".to_string(), |k| format!("{k:?}"))
        )));
    }
    let Some(request) = envelope.request else {
        return Err(DecodeError::NotAReview(
            "the AdmissionReview has no request".to_string(),
        ));
    };
    for (field, value) in [
        ("object", &request.object),
        ("oldObject", &request.old_object),
    ] {
        if let Some(raw) = value
            && raw.get().len() > limits.max_object
        {
            return Err(DecodeError::ObjectTooLarge {
                field,
                size: raw.get().len(),
                limit: limits.max_object,
            });
        }
    }
    let op = request.operation;
    if matches!(op, Operation::Create | Operation::Update) && request.object.is_none() {
        return Err(DecodeError::Missing {
            field: "object",
            operation: op.as_str(),
        });
    }
    if op == Operation::Update && request.old_object.is_none() {
        return Err(DecodeError::Missing {
            field: "oldObject",
            operation: op.as_str(),
        });
    }
    Ok(Review { version, request })
}

/// A `metav1.StatusCause`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatusCause {
    /// The error type (`FieldValueInvalid`, ...).
    pub reason: String,
    /// The error without its field (Go's `ErrorBody()`).
    pub message: String,
    /// The field path.
    pub field: String,
}

/// A `metav1.StatusDetails`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatusDetails {
    /// The object's name.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The kind's group.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub group: String,
    /// The kind.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// One per field error.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<StatusCause>,
}

/// A `metav1.Status` of a denial.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Status {
    /// Always empty (`ListMeta`), as the API server writes it.
    pub metadata: BTreeMap<String, String>,
    /// `Failure`.
    pub status: String,
    /// The human message.
    pub message: String,
    /// The machine reason (`Invalid`, `InternalError`, `BadRequest`).
    pub reason: String,
    /// Details of an `Invalid` status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<StatusDetails>,
    /// The HTTP code the API server returns to its client.
    pub code: u16,
}

impl Status {
    /// What apimachinery's `errors.NewInvalid` returns for `errors` of the object named
    /// `name` of kind `kind`: code 422, reason `Invalid`, the message
    /// `<Kind.group> "<name>" is invalid: <errors>` and one cause per error.
    pub fn invalid(kind: &GroupVersionKind, name: &str, errors: &ErrorList) -> Status {
        let qualified = kind.qualified_kind();
        let aggregate = errors.to_aggregate_string();
        let message = if aggregate.is_empty() {
            format!("{qualified} {} is invalid", go_quote(name))
        } else {
            format!("{qualified} {} is invalid: {aggregate}", go_quote(name))
        };
        Status {
            metadata: BTreeMap::new(),
            status: "Failure".to_string(),
            message,
            reason: "Invalid".to_string(),
            details: Some(StatusDetails {
                name: name.to_string(),
                group: kind.group.clone(),
                kind: kind.kind.clone(),
                causes: errors
                    .iter()
                    .map(|e| StatusCause {
                        reason: e.error_type.as_str().to_string(),
                        message: e.body().to_string(),
                        field: e.field.to_string(),
                    })
                    .collect(),
            }),
            code: 422,
        }
    }

    /// A failure without details.
    pub fn failure(code: u16, reason: &str, message: String) -> Status {
        Status {
            metadata: BTreeMap::new(),
            status: "Failure".to_string(),
            message,
            reason: reason.to_string(),
            details: None,
            code,
        }
    }
}

/// Go's `%q` of a string.
fn go_quote(s: &str) -> String {
    kdv_runtime::gofmt::quote(s)
}

/// The response of an AdmissionReview.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Response {
    /// The request's uid.
    pub uid: String,
    /// The verdict.
    pub allowed: bool,
    /// Why not, when denied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// Warnings for the client ([`Warnings`] keeps them within the API server's limits).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Audit annotations (the API server prefixes each key with the webhook's name).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub audit_annotations: BTreeMap<String, String>,
}

impl Response {
    /// An allowing response.
    pub fn allow(uid: &str) -> Response {
        Response {
            uid: uid.to_string(),
            allowed: true,
            status: None,
            warnings: Vec::new(),
            audit_annotations: BTreeMap::new(),
        }
    }

    /// A denying response.
    pub fn deny(uid: &str, status: Status) -> Response {
        Response {
            allowed: false,
            status: Some(status),
            ..Response::allow(uid)
        }
    }

    /// The whole AdmissionReview answering in `version`, as JSON.
    pub fn to_review_json(&self, version: ReviewVersion) -> Vec<u8> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Out<'a> {
            api_version: &'static str,
            kind: &'static str,
            response: &'a Response,
        }
        let out = Out {
            api_version: version.api_version(),
            kind: "AdmissionReview",
            response: self,
        };
        // Serializing strings, maps and numbers cannot fail.
        serde_json::to_vec(&out).unwrap_or_default()
    }
}

/// Longest warning kdv sends, in characters: what the Kubernetes documentation asks of
/// admission webhooks ("limit warnings to 120 characters if possible"; the API server
/// truncates each at 256).
pub const MAX_WARNING_CHARS: usize = 120;

/// Most characters of all warnings of one response: the API server's warning recorder
/// truncates the total at 4096 runes.
pub const MAX_WARNINGS_TOTAL_CHARS: usize = 4096;

/// Warnings kept within the API server's limits: each at most [`MAX_WARNING_CHARS`]
/// (shortened with `...`), control characters replaced (a warning is an HTTP header
/// value), and no more once [`MAX_WARNINGS_TOTAL_CHARS`] would be passed (the last one kept
/// then says how many were left out).
#[derive(Debug, Default, Clone)]
pub struct Warnings {
    kept: Vec<String>,
    chars: usize,
    dropped: usize,
}

impl Warnings {
    /// Adds a warning.
    pub fn push(&mut self, warning: &str) {
        let clean: String = warning
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let text = shorten(&clean, MAX_WARNING_CHARS);
        let n = text.chars().count();
        // Room is kept for the closing "N more" warning.
        if self.dropped > 0 || self.chars + n > MAX_WARNINGS_TOTAL_CHARS - MAX_WARNING_CHARS {
            self.dropped += 1;
            return;
        }
        self.chars += n;
        self.kept.push(text);
    }

    /// The warnings to send.
    pub fn finish(mut self) -> Vec<String> {
        if self.dropped > 0 {
            self.kept
                .push(format!("kdv: {} more warnings not shown", self.dropped));
        }
        self.kept
    }
}

/// `text` cut to at most `max` characters, ending in `...` when cut.
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(3)).collect();
    out.push_str("...");
    out
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
