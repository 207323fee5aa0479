//! Defaults: kdv's `+k8s:default` (KEP-5073's tri-state rule) beside upstream's
//! `+default=` with `+k8s:optional`. The derive validates the value it is given: a
//! `+k8s:default` field that is unset holds its default once the server defaults it (lint
//! checks the default against the field's rules), so nothing is reported for it; upstream's
//! `+default=` keeps validation-gen's verdicts (an unset value field with a non-zero default
//! is `Required`).
//!
//! +k8s:validation-gen-nolint

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// `+k8s:default` on a value, a pointer, a zero default and a string.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Defaults {
    /// +k8s:default=1
    /// +k8s:minimum=1
    pub replicas: i32,
    /// +k8s:default=30
    /// +k8s:minimum=0
    /// +k8s:maximum=3600
    pub timeout: Option<i64>,
    /// The seed's MinReadySeconds: 0 is the default and a value like any other.
    ///
    /// +k8s:default=0
    /// +k8s:minimum=0
    pub min_ready_seconds: i32,
    /// +k8s:default="Always"
    /// +k8s:maxLength=6
    pub policy: String,
    /// +k8s:default=["a"]
    /// +k8s:maxItems=2
    pub names: Vec<String>,
}

/// Upstream's `+default=` with `+k8s:optional` (validation-gen's meaning).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Upstream {
    /// +k8s:optional
    /// +default=5
    /// +k8s:minimum=1
    pub count: i32,
    /// +k8s:optional
    /// +default="fast"
    /// +k8s:maxLength=4
    pub mode: Option<String>,
    /// +k8s:optional
    /// +default=0
    /// +k8s:maximum=10
    pub level: i32,
}

/// A rule that reads defaulted fields (KEP-5073 "Handling Zero Values"): the API server
/// defaults before it validates, so the rule sees the defaults; `kdv::Defaults` does the
/// same for a Rust value.
///
/// +validationRule="self.maxSurge <= self.limit",message="maxSurge must not exceed limit"
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Rollout {
    /// +k8s:default=10
    /// +k8s:maximum=100
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<i32>,
    /// +k8s:default=1
    /// +k8s:maximum=100
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_surge: Option<i32>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use kdv::Operation;

    fn errors<T: Validate>(v: &T) -> Vec<String> {
        v.validate(&Operation::create())
            .iter()
            .map(|e| e.to_string())
            .collect()
    }

    #[test]
    fn unset_defaulted_fields_report_nothing() {
        assert!(errors(&Defaults::default()).is_empty());
    }

    #[test]
    fn set_defaulted_fields_are_validated() {
        let d = Defaults {
            replicas: -1,
            timeout: Some(4000),
            min_ready_seconds: -1,
            policy: "Sometimes".into(),
            names: vec!["a".into(), "b".into(), "c".into()],
        };
        assert_eq!(
            errors(&d),
            [
                "replicas: Invalid value: -1: must be greater than or equal to 1",
                "timeout: Invalid value: 4000: must be less than or equal to 3600",
                "minReadySeconds: Invalid value: -1: must be greater than or equal to 0",
                "policy: Too long: may not be more than 6 characters",
                "names: Too many: 3: must have at most 2 items",
            ]
        );
    }

    #[test]
    fn upstream_defaults_keep_validation_gen_verdicts() {
        assert_eq!(
            errors(&Upstream::default()),
            ["count: Required value", "mode: Required value"]
        );
        let u = Upstream {
            count: 5,
            mode: Some("fast".into()),
            level: 11,
        };
        assert_eq!(
            errors(&u),
            ["level: Invalid value: 11: must be less than or equal to 10"]
        );
    }

    #[test]
    fn rules_reading_defaulted_fields_see_the_defaults_after_apply_defaults() {
        use kdv::Defaults;
        let mut r = Rollout {
            limit: None,
            max_surge: Some(20),
        };
        // Undefaulted, the rule meets an absent field, as a CRD rule would without defaults.
        assert_eq!(
            errors(&r),
            [
                "<nil>: Invalid value: \"object\": no such key: limit evaluating rule: maxSurge must not exceed limit"
            ]
        );
        r.apply_defaults();
        assert_eq!(r.limit, Some(10));
        assert_eq!(
            errors(&r),
            ["<nil>: Invalid value: maxSurge must not exceed limit"]
        );
        let mut ok = Rollout::default();
        ok.apply_defaults();
        assert_eq!((ok.limit, ok.max_surge), (Some(10), Some(1)));
        assert!(errors(&ok).is_empty());
    }
}
