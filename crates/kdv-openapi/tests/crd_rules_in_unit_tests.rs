//! What an operator author writes to check a CRD's CEL rules in a unit test, with no
//! cluster: load the CRD once, validate a create and an update, read the API server's
//! errors. The README shows the same code.

use kdv_openapi::{Options, SchemaSet};
use serde_json::json;

const CRD: &[u8] = br#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: self.minReplicas <= self.maxReplicas
              message: minReplicas must not exceed maxReplicas
            properties:
              minReplicas: {type: integer}
              maxReplicas: {type: integer}
              storageClass:
                type: string
                x-kubernetes-validations:
                - rule: self == oldSelf
                  message: storageClass is immutable
"#;

fn widget(min: i64, max: i64, class: &str) -> serde_json::Value {
    json!({
        "apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w", "namespace": "default"},
        "spec": {"minReplicas": min, "maxReplicas": max, "storageClass": class},
    })
}

#[test]
fn a_crds_rules_run_on_create_and_update_without_a_cluster() {
    let mut set = SchemaSet::new();
    set.add_crds("widget-crd.yaml", CRD)
        .expect("the CRD is valid");
    let widgets = set
        .resource("example.com/v1", "Widget")
        .expect("the CRD serves Widget");

    let created = widgets.validate(&widget(3, 2, "fast"), None, &Options::default());
    let texts: Vec<String> = created.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        texts,
        // Kubernetes 1.35 and later omit an object's value.
        ["spec: Invalid value: minReplicas must not exceed maxReplicas"]
    );

    let old = widget(1, 2, "fast");
    let updated = widgets.validate(&widget(1, 3, "slow"), Some(&old), &Options::default());
    let texts: Vec<String> = updated.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        texts,
        ["spec.storageClass: Invalid value: \"slow\": storageClass is immutable"]
    );

    // Ratcheting: the old object already broke the first rule; an update that leaves
    // `spec` as it was is accepted, one that touches it is not.
    let broken = widget(3, 2, "fast");
    assert!(
        widgets
            .validate(&broken, Some(&broken), &Options::default())
            .errors
            .is_empty()
    );
    let touched = widget(4, 2, "fast");
    assert_eq!(
        widgets
            .validate(&touched, Some(&broken), &Options::default())
            .errors
            .len(),
        1
    );
}
