package fidelity

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"rollscope/engine/scenario"
)

// embeddedTrace plays a scenario in process: the invariant checks need no
// binary.
func embeddedTrace(t *testing.T, s *Scenario) *Trace {
	t.Helper()
	sc, err := scenario.Load(s.File)
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := playInProcess(t.Context(), sc, 0)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := ParseTrace("embedded", out)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// alter rewrites the first line of ReplicaSet label (rs1, rs2…) that
// contains old, and returns the line's number.
func alter(t *testing.T, s *Scenario, tr *Trace, label, old, new string) (*Trace, Line) {
	t.Helper()
	r := newReplay(s.Deployment.Name)
	lines := bytes.Split(tr.Raw, []byte("\n"))
	for _, l := range tr.Lines {
		if r.apply(l) && l.Type == typeReplicaSet && r.label[l.Name] == label && bytes.Contains(lines[l.N-1], []byte(old)) {
			lines[l.N-1] = bytes.Replace(lines[l.N-1], []byte(old), []byte(new), 1)
			altered, err := ParseTrace("altered", bytes.Join(lines, []byte("\n")))
			if err != nil {
				t.Fatal(err)
			}
			return altered, altered.Lines[l.N-1]
		}
	}
	t.Fatalf("no line of %s contains %s", label, old)
	return nil, Line{}
}

// Each invariant catches the break it is there for, from the altered line
// on.
func TestInvariantsCatchBrokenRollouts(t *testing.T) {
	for _, c := range []struct {
		scenario, label, old, new, want string
	}{
		// The old ReplicaSet loses a pod it still needs: 3 replicas,
		// maxUnavailable 0, 2 available.
		{"one-at-a-time", "rs1", `"spec":2,"replicas":3,"ready":3,"available":3`, `"spec":2,"replicas":3,"ready":3,"available":1`,
			"Σ available 2 < replicas−maxUnavailable 3"},
		// The old ReplicaSet still asks for its pods when the new one is
		// made.
		{"recreate", "rs1", `"spec":0,"replicas":0`, `"spec":3,"replicas":0`,
			"Recreate with 2 ReplicaSets asking for pods at once"},
		// A scale-up counts against the new size's bound, not the old.
		{"scale-up", "rs2", `"spec":5,`, `"spec":6,`,
			"Σ ReplicaSet spec.replicas 7 > replicas+maxSurge 6"},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			s := loadScenario(t, c.scenario)
			altered, at := alter(t, s, embeddedTrace(t, s), c.label, c.old, c.new)
			v := s.Violations(altered)
			var first int
			if len(v) > 0 {
				_, _ = fmt.Sscanf(v[0], "altered line %d", &first)
			}
			if !strings.Contains(strings.Join(v, "\n"), c.want) || first < at.N {
				t.Errorf("want %q from line %d on, got:\n%s", c.want, at.N, strings.Join(v, "\n"))
			}
		})
	}
}
