//! Cross-field references (a kdv extension, KEP-5073 "Field Path Strategy"): limits bounded
//! by the value of another field, `+k8s:minimum(constraint: minValue)` and its siblings.
//!
//! +k8s:validation-gen-nolint

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// KEP-5073's `Config`: `current` lies between two siblings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Config {
    pub min_value: i32,
    pub max_value: i32,
    /// +k8s:minimum(constraint: minValue)
    /// +k8s:maximum(constraint: maxValue)
    pub current: i32,
}

/// Bounds from children of optional and required structs, and from optional siblings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Quota {
    /// +k8s:optional
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limits: Option<Limits>,
    pub fixed: Limits,
    /// +k8s:optional
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_length: Option<i32>,
    /// +k8s:optional
    /// +k8s:maximum(constraint: limits.max)
    /// +k8s:minimum(constraint: fixed.min)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub used: Option<i64>,
    /// +k8s:minLength(constraint: minLength)
    /// +k8s:maxLength(constraint: fixed.max)
    pub name: String,
    /// +k8s:minItems(constraint: fixed.min)
    /// +k8s:maxItems(constraint: limits.max)
    pub items: Vec<String>,
}

/// KEP-5073's "Comprehensive Example": every item of a list, and every value of a map,
/// bounded by a sibling (`+k8s:eachVal=+k8s:maximum(constraint: maxThreshold)`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Thresholds {
    pub max_threshold: i32,
    /// +k8s:optional
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limits: Option<Limits>,
    /// +k8s:maxItems=4
    /// +k8s:eachVal=+k8s:maximum(constraint: maxThreshold)
    pub thresholds: Vec<i32>,
    /// +k8s:eachVal=+k8s:minLength(constraint: limits.min)
    pub labels: std::collections::BTreeMap<String, String>,
}

/// Bounds a `Quota` refers to.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Limits {
    /// +k8s:optional
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
    pub min: i64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use kdv::Operation;

    fn texts(errs: kdv::ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn each_item_and_value_of_the_seeds_comprehensive_example() {
        let t = Thresholds {
            max_threshold: 10,
            limits: Some(Limits { max: None, min: 2 }),
            thresholds: vec![1, 50, 10],
            labels: [
                ("a".to_string(), "x".to_string()),
                ("b".to_string(), "xy".to_string()),
            ]
            .into(),
        };
        assert_eq!(
            texts(t.validate(&Operation::create())),
            [
                "thresholds[1]: Invalid value: 50: must be less than or equal to 10",
                "labels[a]: Too short: must be at least 2 characters",
            ]
        );
        // Unchanged: ratcheted; a lower bound re-checks every item.
        assert!(t.validate_update(&t, &Operation::update()).is_empty());
        let lower = Thresholds {
            max_threshold: 1,
            ..t.clone()
        };
        assert_eq!(
            texts(lower.validate_update(&t, &Operation::update())),
            [
                "thresholds[1]: Invalid value: 50: must be less than or equal to 1",
                "thresholds[2]: Invalid value: 10: must be less than or equal to 1",
            ]
        );
        // An absent bound (nil pointer on the way) does not apply.
        let unbounded = Thresholds { limits: None, ..t };
        assert_eq!(
            texts(unbounded.validate(&Operation::create())),
            ["thresholds[1]: Invalid value: 50: must be less than or equal to 10"]
        );
    }

    #[test]
    fn the_seeds_config() {
        let ok = Config {
            min_value: 1,
            max_value: 10,
            current: 5,
        };
        assert!(ok.validate(&Operation::create()).is_empty());
        let low = Config {
            min_value: 5,
            max_value: 10,
            current: 3,
        };
        assert_eq!(
            texts(low.validate(&Operation::create())),
            ["current: Invalid value: 3: must be greater than or equal to 5"]
        );
        let high = Config {
            current: 11,
            ..ok.clone()
        };
        assert_eq!(
            texts(high.validate(&Operation::create())),
            ["current: Invalid value: 11: must be less than or equal to 10"]
        );
        // Ratcheting: neither current nor minValue changed; maxValue did.
        let moved = Config {
            max_value: 20,
            ..low.clone()
        };
        assert!(moved.validate_update(&low, &Operation::update()).is_empty());
        // minValue changed: re-checked.
        let raised = Config {
            min_value: 1,
            ..low.clone()
        };
        assert_eq!(
            texts(low.validate_update(&raised, &Operation::update())),
            ["current: Invalid value: 3: must be greater than or equal to 5"]
        );
    }

    #[test]
    fn absent_references_do_not_bound() {
        let q = Quota {
            used: Some(100),
            name: "long-name".into(),
            items: vec!["a".into(); 3],
            ..Quota::default()
        };
        // fixed.max is nil, limits is nil; fixed.min is 0.
        assert!(q.validate(&Operation::create()).is_empty());
        let q = Quota {
            limits: Some(Limits {
                max: Some(2),
                min: 0,
            }),
            fixed: Limits {
                max: Some(3),
                min: 1,
            },
            min_length: Some(2),
            used: Some(3),
            name: "abcd".into(),
            items: vec![],
        };
        assert_eq!(
            texts(q.validate(&Operation::create())),
            [
                "used: Invalid value: 3: must be less than or equal to 2",
                "name: Too long: may not be more than 3 characters",
                "items: Too few: 0: must have at least 1 item",
            ]
        );
    }
}
