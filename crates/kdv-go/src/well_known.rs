//! Built-in declarations of well-known Kubernetes API packages that live outside the user's
//! Go module (`k8s.io/apimachinery`), so that types embedding `metav1.ObjectMeta` and
//! friends can be decoded, compared and validated without a checkout of apimachinery.
//!
//! The declarations are written for kdv from the documented JSON shape of these types
//! (field names, JSON names, kinds); they carry no validation tags. Types whose Go
//! implementation has a custom JSON encoding are declared by what the JSON looks like:
//!
//! * `metav1.Time`, `metav1.MicroTime` (RFC 3339 timestamps) and `metav1.Duration`
//!   (`"1h2m3s"`) are `string` typedefs: they decode from a JSON string or `null`; the text
//!   is not parsed, so equal instants written differently compare unequal.
//! * `resource.Quantity` (`"1Gi"` or `1`), `intstr.IntOrString` (`80` or `"http"`) and
//!   `metav1.FieldsV1` (a JSON object) are `interface{}` typedefs: any JSON value decodes,
//!   and values compare structurally (`"1Gi"` and `"1024Mi"` differ, unlike upstream's
//!   semantic equality).
//!
//! A consequence of the string typedefs: tags that upstream rejects on these struct types
//! (e.g. `+k8s:required` on a non-pointer `metav1.Time`) are accepted, with "unset" meaning
//! the empty string (the zero `Time` encodes as `null`).

use std::path::PathBuf;

use kdv_model::{Diagnostic, Package, Universe};

/// `k8s.io/apimachinery/pkg/apis/meta/v1`.
pub const METAV1: &str = "k8s.io/apimachinery/pkg/apis/meta/v1";

/// `k8s.io/apimachinery/pkg/types`.
pub const TYPES: &str = "k8s.io/apimachinery/pkg/types";

/// `k8s.io/apimachinery/pkg/api/resource`.
pub const RESOURCE: &str = "k8s.io/apimachinery/pkg/api/resource";

/// `k8s.io/apimachinery/pkg/util/intstr`.
pub const INTSTR: &str = "k8s.io/apimachinery/pkg/util/intstr";

const METAV1_SRC: &str = r#"// Package v1 holds the object metadata shared by all Kubernetes API types, as kdv models
// it (see kdv-go's well_known module).
package v1

import "k8s.io/apimachinery/pkg/types"

// TypeMeta describes an individual object in an API response or request with strings
// representing the type of the object and its API schema version.
type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// ListMeta describes metadata that synthetic resources must have.
type ListMeta struct {
	SelfLink           string `json:"selfLink,omitempty"`
	ResourceVersion    string `json:"resourceVersion,omitempty"`
	Continue           string `json:"continue,omitempty"`
	RemainingItemCount *int64 `json:"remainingItemCount,omitempty"`
}

// ObjectMeta is metadata that all persisted resources must have.
type ObjectMeta struct {
	Name                       string               `json:"name,omitempty"`
	GenerateName               string               `json:"generateName,omitempty"`
	Namespace                  string               `json:"namespace,omitempty"`
	SelfLink                   string               `json:"selfLink,omitempty"`
	UID                        types.UID            `json:"uid,omitempty"`
	ResourceVersion            string               `json:"resourceVersion,omitempty"`
	Generation                 int64                `json:"generation,omitempty"`
	CreationTimestamp          Time                 `json:"creationTimestamp,omitempty"`
	DeletionTimestamp          *Time                `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64               `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string    `json:"labels,omitempty"`
	Annotations                map[string]string    `json:"annotations,omitempty"`
	OwnerReferences            []OwnerReference     `json:"ownerReferences,omitempty"`
	Finalizers                 []string             `json:"finalizers,omitempty"`
	ManagedFields              []ManagedFieldsEntry `json:"managedFields,omitempty"`
}

// OwnerReference contains enough information to let you identify an owning object.
type OwnerReference struct {
	APIVersion         string    `json:"apiVersion"`
	Kind               string    `json:"kind"`
	Name               string    `json:"name"`
	UID                types.UID `json:"uid"`
	Controller         *bool     `json:"controller,omitempty"`
	BlockOwnerDeletion *bool     `json:"blockOwnerDeletion,omitempty"`
}

// ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource
// that the fieldset applies to.
type ManagedFieldsEntry struct {
	Manager     string                     `json:"manager,omitempty"`
	Operation   ManagedFieldsOperationType `json:"operation,omitempty"`
	APIVersion  string                     `json:"apiVersion,omitempty"`
	Time        *Time                      `json:"time,omitempty"`
	FieldsType  string                     `json:"fieldsType,omitempty"`
	FieldsV1    *FieldsV1                  `json:"fieldsV1,omitempty"`
	Subresource string                     `json:"subresource,omitempty"`
}

// ManagedFieldsOperationType is the type of operation which lead to a ManagedFieldsEntry
// being created.
type ManagedFieldsOperationType string

// FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format: any
// JSON value.
type FieldsV1 interface{}

// Time is a timestamp: an RFC 3339 string in JSON, or null.
type Time string

// MicroTime is a timestamp with microseconds: an RFC 3339 string in JSON, or null.
type MicroTime string

// Duration is a duration in Go's notation ("1h2m3s") in JSON.
type Duration string

// LabelSelector is a label query over a set of resources.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is a selector that contains values, a key, and an operator
// that relates the key and values.
type LabelSelectorRequirement struct {
	Key      string                `json:"key"`
	Operator LabelSelectorOperator `json:"operator"`
	Values   []string              `json:"values,omitempty"`
}

// LabelSelectorOperator is the set of operators that can be used in a selector
// requirement.
type LabelSelectorOperator string

// Condition contains details for one aspect of the current state of an API resource.
type Condition struct {
	Type               string          `json:"type"`
	Status             ConditionStatus `json:"status"`
	ObservedGeneration int64           `json:"observedGeneration,omitempty"`
	LastTransitionTime Time            `json:"lastTransitionTime"`
	Reason             string          `json:"reason"`
	Message            string          `json:"message"`
}

// ConditionStatus is the status of a condition: True, False or Unknown.
type ConditionStatus string
"#;

const TYPES_SRC: &str = r#"// Package types holds basic API types.
package types

// UID is a type that holds unique ID values, including UUIDs.
type UID string

// NamespacedName comprises a resource name with a namespace.
type NamespacedName struct {
	Namespace string
	Name      string
}
"#;

const RESOURCE_SRC: &str = r#"// Package resource holds resource quantities, as kdv models them.
package resource

// Quantity is a fixed-point number: a JSON string ("1Gi", "500m") or number.
type Quantity interface{}
"#;

const INTSTR_SRC: &str = r#"// Package intstr holds the int-or-string type, as kdv models it.
package intstr

// IntOrString holds a JSON integer or string.
type IntOrString interface{}
"#;

/// The well-known packages: import path and Go source.
const PACKAGES: &[(&str, &str)] = &[
    (METAV1, METAV1_SRC),
    (TYPES, TYPES_SRC),
    (RESOURCE, RESOURCE_SRC),
    (INTSTR, INTSTR_SRC),
];

/// The import paths kdv has built-in declarations for.
pub fn well_known_paths() -> impl Iterator<Item = &'static str> {
    PACKAGES.iter().map(|(path, _)| *path)
}

/// The Go source kdv uses for the package `import_path`, if it is well known.
pub fn well_known_source(import_path: &str) -> Option<&'static str> {
    PACKAGES
        .iter()
        .find(|(path, _)| *path == import_path)
        .map(|(_, src)| *src)
}

/// The built-in package for `import_path`, if it is well known. Its single source file is
/// named `<well-known>/<import path>/types.go`.
pub fn well_known_package(import_path: &str) -> Option<(Package, Vec<Diagnostic>)> {
    let src = well_known_source(import_path)?;
    let path = PathBuf::from(format!("<well-known>/{import_path}/types.go"));
    Some(crate::load_sources(import_path, &[(path, src.to_string())]))
}

/// Adds the built-in package of every well-known import path that some package of
/// `universe` imports but the universe does not hold (transitively: built-in packages may
/// import each other). Returns the diagnostics of the added packages (none, unless the
/// built-in sources are broken).
pub fn add_well_known_packages(universe: &mut Universe) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    // Each round adds at least one of the finitely many well-known packages, or stops.
    loop {
        let missing: Vec<&'static str> = well_known_paths()
            .filter(|wk| {
                !universe.packages.contains_key(*wk)
                    && universe
                        .packages
                        .values()
                        .any(|p| p.imports.values().any(|i| i == wk))
            })
            .collect();
        if missing.is_empty() {
            return diags;
        }
        for path in missing {
            if let Some((package, d)) = well_known_package(path) {
                diags.extend(d);
                universe.packages.insert(path.to_string(), package);
            }
        }
    }
}
