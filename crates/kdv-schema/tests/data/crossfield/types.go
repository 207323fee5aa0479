// Package v1 is an API using cross-field references (a kdv extension), for schema emission
// tests: limits bounded by siblings, by children of optional and required structs, and by
// optional fields.
//
// +k8s:validation-gen=TypesWithField=TypeMeta
// +groupName=crossfield.kdv.dev
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

// Range is a root kind.
type Range struct {
	TypeMeta `json:",inline"`
	Metadata ObjectMeta `json:"metadata"`
	Spec     RangeSpec  `json:"spec"`
}

// RangeSpec bounds its fields by other fields.
type RangeSpec struct {
	MinValue int32 `json:"minValue,omitempty"`
	MaxValue int32 `json:"maxValue,omitempty"`

	// +k8s:minimum(constraint: minValue)
	// +k8s:maximum(constraint: maxValue)
	Current int32 `json:"current,omitempty"`

	// +k8s:optional
	Limits *Limits `json:"limits,omitempty"`

	Fixed Limits `json:"fixed"`

	// +k8s:optional
	// +k8s:maximum(constraint: limits.max)
	// +k8s:minimum(constraint: fixed.min)
	Used *int64 `json:"used,omitempty"`

	// +k8s:optional
	MinLength *int32 `json:"minLength,omitempty"`

	// +k8s:optional
	// +k8s:maxLength=8
	// +k8s:minLength(constraint: minLength)
	// +k8s:maxLength(constraint: fixed.max)
	Name string `json:"name,omitempty"`

	// +k8s:optional
	// +k8s:maxItems=4
	// +k8s:minItems(constraint: fixed.min)
	// +k8s:maxItems(constraint: limits.max)
	Items []string `json:"items,omitempty"`

	// KEP-5073's comprehensive example: each item bounded by a sibling, each map value by
	// a child of an optional struct.
	// +k8s:optional
	// +k8s:maxItems=4
	// +k8s:eachVal=+k8s:maximum(constraint: maxValue)
	Thresholds []int32 `json:"thresholds,omitempty"`

	// +k8s:optional
	// +k8s:maxProperties=3
	// +k8s:eachVal=+k8s:maxLength=8
	// +k8s:eachVal=+k8s:minLength(constraint: limits.min)
	Labels map[string]string `json:"labels,omitempty"`
}

// Limits holds bounds.
type Limits struct {
	// +k8s:optional
	Max *int64 `json:"max,omitempty"`
	Min int64  `json:"min,omitempty"`
}
