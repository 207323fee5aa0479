// Workload types for the list-map benchmarks (shared/anchors/README.md §1, ListMap/*).

// +k8s:validation-gen=TypesWithField=TypeMeta
package listmap

type SingleKeyStruct struct {
	TypeMeta int

	// +k8s:listType=map
	// +k8s:listMapKey=keyField
	// +k8s:eachVal=+k8s:immutable
	ListField []SingleKeyItem `json:"listField"`
}

type SingleKeyItem struct {
	KeyField  string `json:"keyField"`
	DataField string `json:"dataField"`
}

type MultiKeyStruct struct {
	TypeMeta int

	// +k8s:listType=map
	// +k8s:listMapKey=key1Field
	// +k8s:listMapKey=key2Field
	// +k8s:eachVal=+k8s:immutable
	ListField []MultiKeyItem `json:"listField"`
}

type MultiKeyItem struct {
	Key1Field string `json:"key1Field"`
	Key2Field int    `json:"key2Field"`
	DataField string `json:"dataField"`
}
