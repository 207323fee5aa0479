//! The webhook's metrics (prometheus-client, OpenMetrics text on `/metrics`).

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// Labels of a request count.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    /// The object's kind (`Deployment`).
    pub kind: String,
    /// `CREATE`, `UPDATE`, `DELETE`, `CONNECT`.
    pub operation: String,
    /// `allowed`, `denied`, `unknown` (no rules), `error` (timeout, panic, failure).
    pub verdict: String,
    /// `enforce`, `warn`, `audit`.
    pub mode: String,
}

/// Labels by kind.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct KindLabels {
    /// The object's kind.
    pub kind: String,
}

/// Labels of one failing candidate rule: the object's kind, the error's field path with list
/// indices and map keys as `[*]` (bounded by the schema, not by the objects) and its type.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RuleLabels {
    /// The object's kind.
    pub kind: String,
    /// The field path, indices and keys as `[*]`.
    pub field: String,
    /// The error type (`FieldValueInvalid`, ...).
    pub reason: String,
}

impl RuleLabels {
    /// The labels of `error` on an object of `kind`.
    pub fn of(kind: &str, error: &kdv_runtime::FieldError) -> RuleLabels {
        let mut field = String::new();
        for segment in error.field.segments() {
            match segment {
                kdv_runtime::Segment::Field(name) => {
                    if !field.is_empty() {
                        field.push('.');
                    }
                    field.push_str(name);
                }
                kdv_runtime::Segment::Index(_) | kdv_runtime::Segment::Key(_) => {
                    field.push_str("[*]");
                }
            }
        }
        RuleLabels {
            kind: kind.to_string(),
            field,
            reason: error.error_type.as_str().to_string(),
        }
    }
}

/// Labels of a reload.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ReloadLabels {
    /// `rules` or `certificate`.
    pub what: String,
    /// `success` or `failure`.
    pub result: String,
}

/// The metrics of one server.
pub struct Metrics {
    /// The registry `/metrics` encodes.
    pub registry: Registry,
    /// `kdv_admission_requests_total`.
    pub requests: Family<RequestLabels, Counter>,
    /// `kdv_admission_validation_duration_seconds`: time spent judging (live and candidate).
    pub duration: Histogram,
    /// `kdv_candidate_rejections_total`.
    pub candidate_rejections: Family<KindLabels, Counter>,
    /// Errors of the candidate rules, by kind, field and reason.
    pub candidate_rule_failures: Family<RuleLabels, Counter>,
    /// `kdv_reloads_total`.
    pub reloads: Family<ReloadLabels, Counter>,
    /// `kdv_validation_panics_total`.
    pub panics: Counter,
    /// `kdv_validation_timeouts_total`.
    pub timeouts: Counter,
    /// `kdv_audit_violations_total` (audit mode: objects that enforce would deny).
    pub audit_violations: Family<KindLabels, Counter>,
}

impl Metrics {
    /// New metrics, registered.
    pub fn new() -> Metrics {
        let mut registry = Registry::default();
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "kdv_admission_requests",
            "AdmissionReviews answered, by kind, operation, verdict and mode",
            requests.clone(),
        );
        // 50 µs to ~6.5 s, doubling.
        let duration = Histogram::new(prometheus_client::metrics::histogram::exponential_buckets(
            0.00005, 2.0, 18,
        ));
        registry.register(
            "kdv_admission_validation_duration_seconds",
            "Time spent validating one AdmissionReview's object",
            duration.clone(),
        );
        let candidate_rejections = Family::<KindLabels, Counter>::default();
        registry.register(
            "kdv_candidate_rejections",
            "Objects the --candidate-crd rules would reject, by kind",
            candidate_rejections.clone(),
        );
        let candidate_rule_failures = Family::<RuleLabels, Counter>::default();
        registry.register(
            "kdv_candidate_rule_failures",
            "Errors the --candidate-crd rules report, by kind, field (indices and keys as [*]) and reason",
            candidate_rule_failures.clone(),
        );
        let reloads = Family::<ReloadLabels, Counter>::default();
        registry.register(
            "kdv_reloads",
            "Reloads of the rules and of the TLS certificate, by result",
            reloads.clone(),
        );
        let panics = Counter::default();
        registry.register(
            "kdv_validation_panics",
            "Validations that panicked (answered per --failure-mode)",
            panics.clone(),
        );
        let timeouts = Counter::default();
        registry.register(
            "kdv_validation_timeouts",
            "Validations that passed --timeout (answered per --failure-mode)",
            timeouts.clone(),
        );
        let audit_violations = Family::<KindLabels, Counter>::default();
        registry.register(
            "kdv_audit_violations",
            "Objects allowed in audit mode that enforce mode would deny, by kind",
            audit_violations.clone(),
        );
        Metrics {
            registry,
            requests,
            duration,
            candidate_rejections,
            candidate_rule_failures,
            reloads,
            panics,
            timeouts,
            audit_violations,
        }
    }

    /// Counts a reload.
    pub fn reloaded(&self, what: &str, ok: bool) {
        self.reloads
            .get_or_create(&ReloadLabels {
                what: what.to_string(),
                result: if ok { "success" } else { "failure" }.to_string(),
            })
            .inc();
    }

    /// The OpenMetrics text.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

#[cfg(test)]
mod tests {
    use kdv_runtime::{BadValue, FieldError, PathRef};

    use super::RuleLabels;

    #[test]
    fn rule_labels_name_the_field_without_indices_or_keys() {
        let spec = PathRef::Nil.child("spec");
        let list = spec.child("containers");
        let item = list.index(3);
        let env = item.child("env");
        let key = env.key("PATH");
        let e = FieldError::invalid(&key, BadValue::Int(1), "x");
        let labels = RuleLabels::of("Pod", &e);
        assert_eq!(labels.field, "spec.containers[*].env[*]");
        assert_eq!(labels.reason, "FieldValueInvalid");
    }
}
