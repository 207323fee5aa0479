// Package v1 is a small demo API in the style of Kubernetes API types: a Widget kind
// whose validation is declared with +k8s: comment tags. kdv validates manifests against
// it without generating any Go code:
//
//	kdv validate --types examples/api examples/manifests
//
// +k8s:validation-gen=TypesWithField=TypeMeta
// +groupName=demo.kdv.dev
package v1
