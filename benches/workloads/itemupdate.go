// Workload types of the item-level update constraint benchmarks (a kdv extension, so no Go
// figure is beside them): KEP-5073's CSR conditions, Approved and Denied permanent.

// +k8s:validation-gen=TypesWithField=TypeMeta
package itemupdate

type ItemUpdateStruct struct {
	TypeMeta int

	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=type
	// +k8s:maxItems=16
	// +k8s:item(type: "Approved")=+k8s:update="NoSet,NoModify,NoClear"
	// +k8s:item(type: "Denied")=+k8s:update="NoUnset,NoModify"
	Conditions []ItemUpdateCondition `json:"conditions"`
}

type ItemUpdateCondition struct {
	Type   string `json:"type"`
	Status string `json:"status"`
}
