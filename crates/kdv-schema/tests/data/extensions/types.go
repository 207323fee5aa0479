// Package v1 is an API using kdv's extensions of the tag catalog, for schema emission
// tests: patterns, exclusive bounds (alone and beside inclusive ones), subresource
// conditions and the older spellings of the options tags.
//
// +k8s:validation-gen=TypesWithField=TypeMeta
// +groupName=extensions.kdv.dev
package v1

// TypeMeta carries kind and apiVersion.
type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// ObjectMeta is the object's metadata.
type ObjectMeta struct {
	// +k8s:optional
	Name string `json:"name,omitempty"`
}

// Gadget is a root kind.
type Gadget struct {
	TypeMeta `json:",inline"`
	Metadata ObjectMeta `json:"metadata"`
	Spec     GadgetSpec `json:"spec"`
}

// GadgetSpec holds one extension per field.
type GadgetSpec struct {
	// +k8s:required
	// +k8s:pattern="^[a-z]([-a-z0-9]*[a-z0-9])?$"
	// +k8s:maxLength=20
	Name string `json:"name"`

	// +k8s:optional
	// +k8s:pattern="^\\d{3}$"
	Code string `json:"code,omitempty"`

	// +k8s:optional
	// +k8s:pattern="zone"
	Zone *string `json:"zone,omitempty"`

	// +k8s:optional
	// +k8s:exclusiveMinimum=0
	// +k8s:exclusiveMaximum=5
	Replicas *int32 `json:"replicas,omitempty"`

	// +k8s:optional
	// +k8s:minimum=2
	// +k8s:exclusiveMinimum=1
	// +k8s:exclusiveMaximum=4095
	VLAN int32 `json:"vlan,omitempty"`

	// +k8s:optional
	// +k8s:listType=set
	// +k8s:maxItems=3
	// +k8s:eachVal=+k8s:pattern="^v[0-9]+$"
	// +k8s:eachVal=+k8s:maxLength=8
	Versions []string `json:"versions,omitempty"`

	// +k8s:optional
	// +k8s:ifNotSubresource("/resize")=+k8s:exclusiveMaximum=65536
	Port int32 `json:"port,omitempty"`

	// +k8s:optional
	// +k8s:ifSubresource("/status")=+k8s:required
	Phase string `json:"phase,omitempty"`

	// +k8s:optional
	// +k8s:ifOptionEnabled(Strict)=+k8s:maxLength=2
	Tag string `json:"tag,omitempty"`
}
