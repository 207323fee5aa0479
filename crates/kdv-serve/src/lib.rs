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

pub mod admission;
pub mod judge;
pub mod metrics;
mod playground;
pub mod server;

pub use admission::{DecodeError, Limits, Review, decode};
pub use judge::{Judge, Subject, Verdict};
pub use server::{Config, FailureMode, Handle, Loader, Mode, Rules, ServeError, Server, TlsFiles};
