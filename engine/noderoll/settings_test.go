package noderoll

import (
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/engine/nodegroup"

	"rollscope/model/upstreamcases"
)

// parseIntOrString reads a JSON value as intstr.Parse does: "0" is the
// integer 0, "0%" a percentage; JSON numbers are integers; null is unset.
func parseIntOrString(raw json.RawMessage) *intstr.IntOrString {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		v := intstr.Parse(s)
		return &v
	}
	var n int
	_ = json.Unmarshal(raw, &n)
	v := intstr.FromInt32(int32(n))
	return &v
}

func TestUpstreamKopsResolveSettingsCases(t *testing.T) {
	cases := upstreamcases.ByGroup(t, "kops_resolve_settings")
	if len(cases) != 12 {
		t.Fatalf("%d kops_resolve_settings cases, want 12", len(cases))
	}
	for _, c := range cases {
		t.Run(c.ID+" "+c.Source.Case, func(t *testing.T) {
			var in struct {
				NumInstances int                        `json:"numInstances"`
				IG           map[string]json.RawMessage `json:"igRollingUpdate"`
				Cluster      string                     `json:"cluster"`
			}
			if err := json.Unmarshal(c.Input, &in); err != nil {
				t.Fatal(err)
			}
			var want map[string]json.RawMessage
			if err := json.Unmarshal(c.Expected, &want); err != nil {
				t.Fatal(err)
			}
			if examples, ok := want["examples"]; ok {
				checkPrecedence(t, c.Source.Case, examples)
				return
			}
			if in.Cluster == "AWS" {
				// rollscope's groups run on no cloud; kops' AWS default
				// (maxSurge 1) is what a request gives explicitly.
				one := intstr.FromInt32(1)
				s, err := Resolve(&one, nil, in.NumInstances)
				assertSettings(t, s, err, want)
				return
			}
			s, err := Resolve(parseIntOrString(in.IG["maxSurge"]), parseIntOrString(in.IG["maxUnavailable"]), in.NumInstances)
			assertSettings(t, s, err, want)
		})
	}
}

func assertSettings(t *testing.T, s Settings, err error, want map[string]json.RawMessage) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	for field, got := range map[string]int{"maxSurge": s.MaxSurge, "maxUnavailable": s.MaxUnavailable} {
		if raw, ok := want[field]; ok {
			var w int
			_ = json.Unmarshal(raw, &w)
			if got != w {
				t.Errorf("%s = %d, want %d", field, got, w)
			}
		}
	}
}

// checkPrecedence: the request (kops' instance group) wins over the group's
// own settings (kops' cluster), which win over the defaults.
func checkPrecedence(t *testing.T, field string, raw json.RawMessage) {
	var examples []struct {
		Cluster, IG, Resolved json.RawMessage
	}
	if err := json.Unmarshal(raw, &examples); err != nil {
		t.Fatal(err)
	}
	if field == "DrainAndTerminate" {
		t.Skip("rollscope always drains and terminates; kops' drainAndTerminate: false has no counterpart")
	}
	for _, e := range examples {
		ctrl := &Controller{groups: []nodegroup.Group{{Name: "nodes"}}}
		v := parseIntOrString(e.Cluster)
		if field == "MaxSurge" {
			ctrl.groups[0].MaxSurge = v
		} else {
			ctrl.groups[0].MaxUnavailable = v
		}
		r := &roll{spec: spec{Group: "nodes", Size: 1}}
		if field == "MaxSurge" {
			r.spec.MaxSurge = parseIntOrString(e.IG)
		} else {
			r.spec.MaxUnavailable = parseIntOrString(e.IG)
		}
		s, err := ctrl.settings(r)
		if err != nil {
			t.Fatal(err)
		}
		got := s.MaxUnavailable
		if field == "MaxSurge" {
			got = s.MaxSurge
		}
		var want int
		_ = json.Unmarshal(e.Resolved, &want)
		if got != want {
			t.Errorf("%s cluster=%s ig=%s: resolved %d, want %d", field, e.Cluster, e.IG, got, want)
		}
	}
}

func TestResolveRejectsImpossibleValues(t *testing.T) {
	for _, c := range []struct {
		surge, unavailable string
		want               string
	}{
		{"", "150%", "maxUnavailable 150% is outside 0%–100%"},
		{"-1", "", "maxSurge -1 is negative"},
		{"", "ten", `maxUnavailable "ten" is neither a node count nor a percentage`},
		{"x%", "", "neither a node count nor a percentage"},
	} {
		var surge, unavailable *intstr.IntOrString
		if c.surge != "" {
			v := intstr.Parse(c.surge)
			surge = &v
		}
		if c.unavailable != "" {
			v := intstr.Parse(c.unavailable)
			unavailable = &v
		}
		_, err := Resolve(surge, unavailable, 20)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Resolve(%q, %q) error = %v, want it to say %q", c.surge, c.unavailable, err, c.want)
		}
	}
}

func TestConcurrencyPerKops(t *testing.T) {
	ten := intstr.FromString("10%")
	two := intstr.FromInt32(2)
	s, err := Resolve(&two, &ten, 20)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name              string
		role              string
		toUpdate          int
		step              bool
		surge, concurrent int
	}{
		{"20 nodes, maxSurge 2, maxUnavailable 10%", nodegroup.RoleNode, 20, false, 2, 4},
		{"surge capped by the nodes to update", nodegroup.RoleNode, 1, false, 1, 3},
		{"control plane never surges", nodegroup.RoleControlPlane, 20, false, 0, 2},
		{"Master is control plane", nodegroup.RoleMaster, 20, false, 0, 2},
		{"stepping: one at a time, surge at most one", nodegroup.RoleNode, 20, true, 1, 1},
	}
	for _, c := range cases {
		surge, conc := s.Concurrency(c.role, c.toUpdate, c.step)
		if surge != c.surge || conc != c.concurrent {
			t.Errorf("%s: surge %d concurrency %d, want %d and %d", c.name, surge, conc, c.surge, c.concurrent)
		}
	}
	// Control plane with maxUnavailable 0 still rolls one at a time.
	zero := intstr.FromInt32(0)
	s, _ = Resolve(&two, &zero, 3)
	if surge, conc := s.Concurrency(nodegroup.RoleControlPlane, 3, false); surge != 0 || conc != 1 {
		t.Errorf("control plane with maxUnavailable 0: surge %d concurrency %d, want 0 and 1", surge, conc)
	}
}

// Groups roll in kops' order of roles: bastions, the control plane, API
// servers, then nodes; groups of one rank go by name.
func TestRankIsKopsRoleOrder(t *testing.T) {
	order := [][]string{
		{nodegroup.RoleBastion},
		{nodegroup.RoleControlPlane, nodegroup.RoleMaster},
		{nodegroup.RoleAPIServer},
		{nodegroup.RoleNode, ""},
	}
	for want, roles := range order {
		for _, role := range roles {
			if got, err := rank(role); err != nil || got != want {
				t.Errorf("rank(%q) = %d, %v; want %d", role, got, err, want)
			}
		}
	}
	// kops_rolling_update-06: an unknown role is an error and nothing rolls.
	if _, err := rank("Unknown"); err == nil || !strings.Contains(err.Error(), "unknown group type") {
		t.Errorf("unknown role: error %v", err)
	}
}
