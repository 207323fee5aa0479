// Workload types of the kdv extension benchmarks (tags upstream validation-gen lacks, so
// no Go figure is beside them): patterns, exclusive bounds, a subresource condition.

// +k8s:validation-gen=TypesWithField=TypeMeta
package extensions

type ExtensionsStruct struct {
	TypeMeta int

	// +k8s:pattern="^[a-z]([-a-z0-9]*[a-z0-9])?$"
	NameField string `json:"nameField"`
	// +k8s:pattern="^v"
	PrefixField string `json:"prefixField"`
	// +k8s:eachVal=+k8s:pattern="^[0-9]+\\.[0-9]+$"
	VersionsField []string `json:"versionsField"`
	// +k8s:exclusiveMinimum=0
	// +k8s:exclusiveMaximum=100
	PercentField int32 `json:"percentField"`
	// +k8s:ifNotSubresource("/resize")=+k8s:exclusiveMinimum=0
	CPUField int64 `json:"cpuField"`
}
