//! kdv-runtime: what validation needs at run time, shared by the interpreter (`kdv-eval`)
//! and generated code: field paths, field errors rendered exactly like Kubernetes'
//! `field.Error`, the operation context, the `+k8s:format` validators and the scalar
//! checks behind the other tags.

pub mod error;
pub mod format;
pub mod gofmt;
pub mod operation;
pub mod path;

pub use error::{
    BadValue, ErrorBody, ErrorList, ErrorListExt, ErrorType, FieldError, StabilityLevel,
    VALUE_OMITTED,
};
pub use format::{Format, validate_format};
pub use operation::{Operation, OperationKind};
pub use path::{FieldPath, PathRef, Segment};
