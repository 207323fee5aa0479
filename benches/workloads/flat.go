// Workload types for the interpreter benchmarks. Written for kdv from the workload
// descriptions in shared/anchors/README.md §1 (same shapes and tags as the upstream fixtures
// the Go figures were measured on).

// +k8s:validation-gen=TypesWithField=TypeMeta
package flat

// +k8s:minimum=1
type IntType int

type MinimumStruct struct {
	TypeMeta int

	// +k8s:minimum=1
	IntField int `json:"intField"`
	// +k8s:minimum=1
	IntPtrField *int `json:"intPtrField"`
	// +k8s:minimum=1
	Int16Field int16 `json:"int16Field"`
	// +k8s:minimum=1
	Int32Field int32 `json:"int32Field"`
	// +k8s:minimum=1
	Int64Field int64 `json:"int64Field"`
	// +k8s:minimum=1
	UintField uint `json:"uintField"`
	// +k8s:minimum=1
	UintPtrField *uint `json:"uintPtrField"`
	// +k8s:minimum=1
	Uint16Field uint16 `json:"uint16Field"`
	// +k8s:minimum=1
	Uint32Field uint32 `json:"uint32Field"`
	// +k8s:minimum=1
	Uint64Field uint64 `json:"uint64Field"`

	TypedefField    IntType  `json:"typedefField"`
	TypedefPtrField *IntType `json:"typedefPtrField"`
}

type UntaggedString string

// +k8s:maxLength=0
type Max0String string

// +k8s:maxLength=10
type Max10String string

type MaxLengthStruct struct {
	TypeMeta int

	// +k8s:maxLength=0
	Max0Field string `json:"max0Field"`
	// +k8s:maxLength=0
	Max0PtrField *string `json:"max0PtrField"`
	// +k8s:maxLength=0
	Max0UntaggedTypedefField UntaggedString `json:"max0UntaggedTypedefField"`
	// +k8s:maxLength=0
	Max0UntaggedTypedefPtrField *UntaggedString `json:"max0UntaggedTypedefPtrField"`
	// +k8s:maxLength=10
	Max10Field string `json:"max10Field"`
	// +k8s:maxLength=10
	Max10PtrField *string `json:"max10PtrField"`
	// +k8s:maxLength=10
	Max10UntaggedTypedefField UntaggedString `json:"max10UntaggedTypedefField"`
	// +k8s:maxLength=10
	Max10UntaggedTypedefPtrField *UntaggedString `json:"max10UntaggedTypedefPtrField"`

	Max0TypedefField     Max0String   `json:"max0TypedefField"`
	Max0TypedefPtrField  *Max0String  `json:"max0TypedefPtrField"`
	Max10TypedefField    Max10String  `json:"max10TypedefField"`
	Max10TypedefPtrField *Max10String `json:"max10TypedefPtrField"`
}

// +k8s:format=k8s-short-name
type ShortNameString string

type ShortNameStruct struct {
	TypeMeta int

	// +k8s:format=k8s-short-name
	ShortNameField string `json:"shortNameField"`
	// +k8s:format=k8s-short-name
	ShortNamePtrField *string `json:"shortNamePtrField"`
	ShortNameTypedefField ShortNameString `json:"shortNameTypedefField"`
}
