// Workload types of the defaults benchmarks: kdv's +k8s:default (no Go figure: upstream
// has no such tag) beside upstream's +default= with +k8s:optional.

// +k8s:validation-gen=TypesWithField=TypeMeta
package defaults

type DefaultsStruct struct {
	TypeMeta int

	// +k8s:default=1
	// +k8s:minimum=1
	ReplicasField int32 `json:"replicasField,omitempty"`
	// +k8s:default=30
	// +k8s:maximum=3600
	TimeoutField *int64 `json:"timeoutField,omitempty"`
	// +k8s:default="Always"
	// +k8s:maxLength=6
	PolicyField string `json:"policyField,omitempty"`
	// +k8s:optional
	// +default=5
	// +k8s:minimum=1
	CountField int32 `json:"countField,omitempty"`
}
