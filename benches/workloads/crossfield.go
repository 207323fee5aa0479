// Workload types of the cross-field reference benchmarks (a kdv extension, so no Go figure
// is beside them): limits bounded by siblings and by a child of an optional struct.

// +k8s:validation-gen=TypesWithField=TypeMeta
package crossfield

type CrossFieldStruct struct {
	TypeMeta int

	MinValue int32 `json:"minValue"`
	MaxValue int32 `json:"maxValue"`
	// +k8s:minimum(constraint: minValue)
	// +k8s:maximum(constraint: maxValue)
	Current int32 `json:"current"`
	// +k8s:optional
	Limits *CrossFieldLimits `json:"limits,omitempty"`
	// +k8s:maxLength(constraint: limits.maxLength)
	Name string `json:"name"`
	// +k8s:maxItems(constraint: limits.maxItems)
	Items []string `json:"items"`
}

type CrossFieldLimits struct {
	MaxLength int32 `json:"maxLength"`
	MaxItems  int32 `json:"maxItems"`
}
