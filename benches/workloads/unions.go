// Workload types for the union benchmarks (shared/anchors/README.md §1, Union_*): the shapes
// and tags of the upstream fixtures tags/union/union/discriminated/simple and
// tags/union/union/undiscriminated/simple, renamed so both live in one package.

// +k8s:validation-gen=TypesWithField=TypeMeta
package unions

// Discriminated union.
type DiscriminatedStruct struct {
	TypeMeta int

	// +k8s:unionDiscriminator
	D D `json:"d"`

	// +k8s:unionMember
	// +k8s:optional
	M1 *M1 `json:"m1"`

	// +k8s:unionMember
	// +k8s:optional
	M2 *M2 `json:"m2"`

	// +k8s:unionMember
	// +k8s:optional
	M3 []string `json:"m3"`

	// +k8s:unionMember
	// +k8s:optional
	M4 map[string]string `json:"m4"`
}

type D string

const (
	DM1 D = "M1"
	DM2 D = "M2"
	DM3 D = "M3"
	DM4 D = "M4"
)

// Non-discriminated union.
type UndiscriminatedStruct struct {
	TypeMeta int

	NonUnionField string `json:"nonUnionField"`

	// +k8s:unionMember
	// +k8s:optional
	M1 *M1 `json:"m1"`

	// +k8s:unionMember
	// +k8s:optional
	M2 *M2 `json:"m2"`

	// +k8s:unionMember
	// +k8s:optional
	M3 string `json:"m3"`

	// +k8s:unionMember
	// +k8s:optional
	M4 *string `json:"m4"`

	// +k8s:unionMember
	// +k8s:optional
	M5 []string `json:"m5"`

	// +k8s:unionMember
	// +k8s:optional
	M6 map[string]string `json:"m6"`
}

type M1 struct{}

type M2 struct{}
