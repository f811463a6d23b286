package fidelity

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"rollscope/test/e2e/rollscopebin"
)

// A trace altered by hand — the new ReplicaSet's first step made 2 pods
// instead of 1, and the API's revision-history changed — must fail with
// each difference named and the altered line visible in the side-by-side
// table.
func TestAlteredTraceFailsReadably(t *testing.T) {
	s := loadScenario(t, "one-at-a-time")
	a, err := PlayEmbedded(t.Context(), rollscopebin.Path(t), s.File, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The first line of the second ReplicaSet: created at 1 pod of surge.
	r := newReplay(s.Deployment.Name)
	var first Line
	for _, l := range a.Trace.Lines {
		if r.apply(l) && r.label[l.Name] == "rs2" {
			first = l
			break
		}
	}
	if first.Spec != 1 {
		t.Fatalf("the new ReplicaSet starts at %d, want 1 (maxSurge 1): %+v", first.Spec, first)
	}
	lines := bytes.Split(a.Trace.Raw, []byte("\n"))
	lines[first.N-1] = bytes.Replace(lines[first.N-1], []byte(`"spec":1,`), []byte(`"spec":2,`), 1)
	altered, err := ParseTrace("altered", bytes.Join(lines, []byte("\n")))
	if err != nil {
		t.Fatal(err)
	}
	b := &Run{Trace: altered, Final: a.Final}
	b.Final.ReplicaSets = append([]FinalReplicaSet(nil), a.Final.ReplicaSets...)
	for i := range b.Final.ReplicaSets {
		if b.Final.ReplicaSets[i].Revision == "2" {
			b.Final.ReplicaSets[i].History = "1"
		}
	}

	diffs := Compare(s, a, b)
	report := s.Report(a, b, diffs)
	for _, want := range []string{
		fmt.Sprintf("altered line %d (t=%.3f): Σ ReplicaSet spec.replicas 5 > replicas+maxSurge 4", first.N, first.T),
		"ReplicaSet sizes, one step at a time, in order",
		"altered  rs1=3 rs2=2 rs2=1 rs1=2",
		`ReplicaSet of example.com/app:v2 revision 2: revision-history is "" embedded, "1" altered`,
	} {
		if !strings.Contains(report, want) {
			t.Errorf("the report does not say %q:\n%s", want, report)
		}
	}
	// The altered line sits opposite the original, marked as differing.
	var row string
	for _, l := range strings.Split(report, "\n") {
		if strings.HasPrefix(l, "≠") && strings.Contains(l, "rev 2 spec 1 cur 0") {
			row = l
		}
	}
	if left, right, _ := strings.Cut(row, "│"); !strings.Contains(left, "rs2(") || !strings.Contains(right, "rev 2 spec 2 cur 0") {
		t.Errorf("no table row shows the original and the altered line side by side:\n%s", report)
	}
	if t.Failed() || testing.Verbose() {
		t.Log(report)
	}
}
