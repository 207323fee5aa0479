//! kdv's validating admission webhook: answers Kubernetes AdmissionReviews (v1 and
//! v1beta1) with the verdicts of a rule set, in the shape the API server itself returns for
//! an invalid object.
//!
//! What it is: the transport and the protocol — a bounded decoder ([`admission::decode`]),
//! the response (`errors.NewInvalid`'s status, warnings within the API server's limits,
//! audit annotations), and an HTTP(S) server ([`Server`]) with deadlines, a failure mode,
//! rule and certificate reloads, metrics and graceful shutdown. What it is not: a rule
//! engine or a rule loader. Rules come through the [`Judge`] trait; `kdv serve` (kdv-cli)
//! implements it with the rule sources of `kdv validate`.
//!
//! Modules:
//! - [`admission`]: the AdmissionReview v1/v1beta1 decoder [`decode`]`(bytes, Limits)` —
//!   bounded (7 MiB body, 3 MiB per object), never panics (the `admission_review` fuzz target
//!   calls it), objects kept as raw JSON — and the response: `Status::invalid` is
//!   apimachinery's `errors.NewInvalid` (code 422, reason `Invalid`,
//!   `<Kind.group> "<name>" is invalid: <aggregate>`, one cause per error with its
//!   `FieldValue...` type, `ErrorBody()` and field); `Warnings` within the API server's limits
//!   (decision 0094).
//! - [`judge`]: the [`Judge`] trait: a [`Subject`] (kind, operation, subresource, object and old
//!   object as JSON text) → a [`Verdict`] (`Unknown`, `Checked { errors, warnings }`, `Failed`).
//!   What is judged and what is allowed unasked: decision 0092.
//! - [`server`]: [`Server::bind`]/`run`, [`Handle::reload`]; hyper 1 + hyper-util (HTTP/1.1 and
//!   h2) over tokio and rustls (ring), the certificate re-read when its files change (decisions
//!   0090, 0095); `/validate`, `/healthz`, `/readyz`, `/metrics` (the last three also on
//!   `--metrics-listen`, plain HTTP); [`Rules`] (live and candidate judges from a [`Loader`])
//!   swapped atomically with arc-swap; each verdict under `catch_unwind` and the deadline
//!   (decision 0093), on an async worker task, or on the blocking pool for bodies over 256 KiB or
//!   a one-worker runtime (decision 0145), the body read within the deadline too (408
//!   otherwise); modes enforce/warn/audit; `--candidate-crd` reporting; graceful shutdown.
//! - [`metrics`]: the server's Prometheus metrics (`prometheus-client`, decision 0048).
//! - `playground`: `--playground`'s page `/playground` (one embedded HTML file) and
//!   `/playground/check`, a pasted manifest judged document by document with the same judges,
//!   errors located by `kdv-manifest` (decision 0144).

pub mod admission;
pub mod judge;
pub mod metrics;
mod playground;
pub mod server;

pub use admission::{DecodeError, Limits, Review, decode};
pub use judge::{Judge, Subject, Verdict};
pub use server::{Config, FailureMode, Handle, Loader, Mode, Rules, ServeError, Server, TlsFiles};
