//! Declarations of packages outside the code-generator module that fixtures use, written
//! for the harness (field names and JSON names of the public Kubernetes API).

use kdv_model::Universe;

use crate::types::METAV1_PKG;

/// The subset of `k8s.io/apimachinery/pkg/apis/meta/v1` fixtures reference.
const METAV1_SRC: &str = r#"package v1

type UID string

type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

type ObjectMeta struct {
	Name                       string            `json:"name,omitempty"`
	GenerateName               string            `json:"generateName,omitempty"`
	Namespace                  string            `json:"namespace,omitempty"`
	SelfLink                   string            `json:"selfLink,omitempty"`
	UID                        UID               `json:"uid,omitempty"`
	ResourceVersion            string            `json:"resourceVersion,omitempty"`
	Generation                 int64             `json:"generation,omitempty"`
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty"`
	OwnerReferences            []OwnerReference  `json:"ownerReferences,omitempty"`
	Finalizers                 []string          `json:"finalizers,omitempty"`
}

type OwnerReference struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                UID    `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}
"#;

/// Adds the shim packages that some loaded package imports but the universe lacks.
pub fn add_shims(universe: &mut Universe, extra_imports: &[String]) {
    let wanted = universe
        .packages
        .values()
        .any(|p| p.imports.values().any(|i| i == METAV1_PKG))
        || extra_imports.iter().any(|i| i == METAV1_PKG);
    if wanted && !universe.packages.contains_key(METAV1_PKG) {
        let (pkg, _) = kdv_go::load_sources(
            METAV1_PKG,
            &[("metav1_shim.go".into(), METAV1_SRC.to_string())],
        );
        universe.packages.insert(METAV1_PKG.to_string(), pkg);
    }
}
