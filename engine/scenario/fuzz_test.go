package scenario_test

import (
	"strings"
	"testing"

	"rollscope/engine/scenario"
)

// FuzzParse feeds arbitrary bytes to the parser: it must never panic and must
// return either a scenario or a single-line error. The seed corpus is the
// built-ins plus testdata/fuzz/FuzzParse. Run it with a short minimisation
// budget, or the fuzzer spends its time shrinking scenario-sized inputs:
//
//	go test ./engine/scenario -run '^$' -fuzz FuzzParse -fuzztime 2m -fuzzminimizetime 2s -parallel 1
func FuzzParse(f *testing.F) {
	for _, name := range scenario.Builtins() {
		src, _ := scenario.BuiltinSource(name)
		f.Add(src)
	}
	f.Add([]byte(workload + "  - {at: 5s, drain: nodes-1}\n"))
	f.Add([]byte(workload + "  - {at: 5s, rollNodes: {group: nodes, step: true, maxSurge: 1, maxUnavailable: 10%, interval: 5s, drainTimeout: 1m}}\n  - {at: 1m, nextNode: nodes}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := scenario.Parse("f.yaml", data)
		if (sc == nil) == (err == nil) {
			t.Fatalf("Parse returned scenario %v and error %v: want exactly one", sc != nil, err)
		}
		if err != nil {
			if strings.ContainsAny(err.Error(), "\r\n") {
				t.Fatalf("error spans lines: %q", err)
			}
			if !strings.HasPrefix(err.Error(), "f.yaml") {
				t.Fatalf("error does not start with the file name: %q", err)
			}
			return
		}
		for i := 1; i < len(sc.Actions); i++ {
			if sc.Actions[i].At < sc.Actions[i-1].At {
				t.Fatalf("actions out of order: %+v", sc.Actions)
			}
		}
	})
}
