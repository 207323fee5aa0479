// cel-go on the `+validationRule` workloads of kdv's benches/benches/cel_rules.rs: the same
// rules over the same objects (KEP-4153's Deployment strategy "Unions" rules and its PodSpec
// hostNetwork rule over 4 containers of 4 ports). It belongs to the go-bench harness's celgo
// module (package celgo: k8sEnv, k8sProgramOpts and compile come from its cel_test.go); copy
// it beside cel_test.go and run
//
//	go test -run '^$' -bench 'TypeRules' -benchmem
//
// `self` is JSON-like Go data built once (cel-go's most favourable input); one operation
// evaluates every rule of the object, as one validation does.
package celgo

import (
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
)

type typeRuleCase struct {
	name  string
	rules []string
	self  func(bad bool) any
	bad   bool
}

var deploymentRules = []string{
	"!(self.type == 'Recreate') || !has(self.rollingUpdate)",
	"!(self.type == 'RollingUpdate') || has(self.rollingUpdate)",
}

var podRules = []string{
	"!self.hostNetwork || self.containers.all(c, c.containerPort.all(cp, cp.hostPort == cp.containerPort))",
}

func deploymentStrategy(bad bool) any {
	kind := "RollingUpdate"
	if bad {
		kind = "Recreate"
	}
	return map[string]any{"type": kind, "rollingUpdate": map[string]any{"maxSurge": int64(1)}}
}

func podSpec(bad bool) any {
	containers := make([]any, 4)
	for c := range containers {
		ports := make([]any, 4)
		for i := range ports {
			ports[i] = map[string]any{"hostPort": int64(8000 + i), "containerPort": int64(8000 + i)}
		}
		containers[c] = map[string]any{"containerPort": ports}
	}
	if bad {
		containers[3].(map[string]any)["containerPort"].([]any)[3].(map[string]any)["hostPort"] = int64(1)
	}
	return map[string]any{"hostNetwork": true, "containers": containers}
}

func BenchmarkTypeRules(b *testing.B) {
	cases := []typeRuleCase{
		{"Deployment_Valid", deploymentRules, deploymentStrategy, false},
		{"Deployment_Invalid1Err", deploymentRules, deploymentStrategy, true},
		{"PodSpec16Ports_Valid", podRules, podSpec, false},
		{"PodSpec16Ports_Invalid1Err", podRules, podSpec, true},
	}
	env, err := k8sEnv()
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range cases {
		programs := make([]cel.Program, len(tc.rules))
		for i, r := range tc.rules {
			programs[i] = compile(b, env, r, k8sProgramOpts...)
		}
		act := map[string]any{"self": tc.self(tc.bad)}
		failures := 0
		for _, p := range programs {
			out, _, err := p.Eval(act)
			if err != nil {
				b.Fatal(err)
			}
			if out != types.True {
				failures++
			}
		}
		want := 0
		if tc.bad {
			want = 1
		}
		if failures != want {
			b.Fatalf("%s: %d failing rules, want %d", tc.name, failures, want)
		}
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range programs {
					if _, _, err := p.Eval(act); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
