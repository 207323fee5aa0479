//! Item-level update constraints (a kdv extension, KEP-5073 "Item-Level Constraints"):
//! `+k8s:item(type: "Approved")=+k8s:update=NoSet|NoUnset|NoClear|NoModify`, and quoted
//! comma lists.
//!
//! +k8s:validation-gen-nolint

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// KEP-5073's CSR status: the list is optional, but certain items are permanent once
/// added.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct CsrStatus {
    /// +k8s:optional
    /// +k8s:listType=map
    /// +k8s:listMapKey=type
    /// +k8s:maxItems=2
    /// +k8s:item(type: "Approved")=+k8s:update=NoSet
    /// +k8s:item(type: "Approved")=+k8s:update=NoModify
    /// +k8s:item(type: "Approved")=+k8s:update=NoClear
    /// +k8s:item(type: "Denied")=+k8s:update="NoUnset,NoModify"
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

/// One condition.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Condition {
    #[serde(rename = "type")]
    pub kind: String,
    pub status: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use kdv::Operation;

    fn texts(errs: kdv::ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    fn csr(items: &[(&str, &str)]) -> CsrStatus {
        CsrStatus {
            conditions: items
                .iter()
                .map(|(k, s)| Condition {
                    kind: (*k).into(),
                    status: (*s).into(),
                })
                .collect(),
        }
    }

    #[test]
    fn the_seeds_csr_conditions() {
        let up = Operation::update();
        let approved = csr(&[("Approved", "True")]);
        assert!(approved.validate(&Operation::create()).is_empty());
        // ❌ csr.Conditions = nil: would remove the permanent item.
        assert_eq!(
            texts(CsrStatus::default().validate_update(&approved, &up)),
            ["conditions: Invalid value: null: field cannot be cleared once set"]
        );
        // ✅ without protected items the list may be cleared.
        let in_progress = csr(&[("InProgress", "True")]);
        assert!(
            CsrStatus::default()
                .validate_update(&in_progress, &up)
                .is_empty()
        );
        // NoSet: Approved may not be added on update.
        assert_eq!(
            texts(
                csr(&[("InProgress", "True"), ("Approved", "True")])
                    .validate_update(&in_progress, &up)
            ),
            ["conditions[1]: Invalid value: null: field cannot be set once created"]
        );
        // NoModify (upstream's), and the comma list's NoModify.
        let both = csr(&[("Denied", "False"), ("Approved", "True")]);
        assert_eq!(
            texts(csr(&[("Denied", "True"), ("Approved", "False")]).validate_update(&both, &up)),
            [
                "conditions[1]: Invalid value: null: field cannot be modified once set",
                "conditions[0]: Invalid value: null: field cannot be modified once set",
            ]
        );
        // Moving the protected items is no change.
        assert!(
            csr(&[("Approved", "True"), ("Denied", "False")])
                .validate_update(&both, &up)
                .is_empty()
        );
        // The comma list's NoUnset.
        assert_eq!(
            texts(csr(&[("Approved", "True")]).validate_update(&both, &up)),
            ["conditions: Invalid value: null: field cannot be cleared once set"]
        );
    }
}
