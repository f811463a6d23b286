package argo

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/intstr"
)

// maxSurge and maxUnavailable resolve as Argo's controller resolves them:
// Argo v1.10's TestMaxSurge and TestMaxUnavailable, and its defaults.
func TestFenceposts(t *testing.T) {
	n := func(i int) *intstr.IntOrString { v := intstr.FromInt32(int32(i)); return &v }
	pct := func(s string) *intstr.IntOrString { v := intstr.FromString(s); return &v }
	replicas := func(i int32) *int32 { return &i }
	canary := func(r *int32, surge, unavailable *intstr.IntOrString) *Rollout {
		return &Rollout{Spec: RolloutSpec{Replicas: r, Strategy: RolloutStrategy{Canary: &CanaryStrategy{MaxSurge: surge, MaxUnavailable: unavailable}}}}
	}
	blueGreen := func(r *int32, unavailable *intstr.IntOrString) *Rollout {
		return &Rollout{Spec: RolloutSpec{Replicas: r, Strategy: RolloutStrategy{BlueGreen: &BlueGreenStrategy{MaxUnavailable: unavailable}}}}
	}
	for _, c := range []struct {
		name               string
		r                  *Rollout
		surge, unavailable int32
	}{
		// Argo's own cases.
		{"maxSurge with int", canary(replicas(10), n(5), n(1)), 5, 1},
		{"maxSurge with percents", canary(replicas(10), pct("50%"), n(1)), 5, 1},
		{"maxUnavailable less than replicas", canary(replicas(10), n(1), n(5)), 1, 5},
		{"maxUnavailable equal replicas", canary(replicas(10), n(1), n(10)), 1, 10},
		{"maxUnavailable greater than replicas", canary(replicas(5), n(1), n(10)), 1, 5},
		{"maxUnavailable with replicas is 0", canary(replicas(0), n(1), n(10)), 1, 0},
		{"maxUnavailable with percents", canary(replicas(10), n(1), pct("50%")), 1, 5},
		{"maxUnavailable greater than replicas with percents", canary(replicas(5), n(1), pct("100%")), 1, 5},
		{"blue/green, no replicas", blueGreen(nil, nil), 0, 0},
		// Defaults: 25 % each, surge rounded up, unavailable down.
		{"canary defaults, 10 pods", canary(replicas(10), nil, nil), 3, 2},
		{"canary defaults, 3 pods", canary(replicas(3), nil, nil), 1, 0},
		{"canary defaults, 1 pod", canary(nil, nil, nil), 1, 0},
		// Both come to 0: maxUnavailable is 1.
		{"canary 0 and 0", canary(replicas(10), n(0), pct("5%")), 0, 1},
		{"blue/green defaults, 10 pods", blueGreen(replicas(10), nil), 0, 2},
		{"blue/green maxUnavailable 0", blueGreen(replicas(10), n(0)), 0, 0},
		{"blue/green percent", blueGreen(replicas(10), pct("50%")), 0, 5},
		// A value Argo's validation refuses resolves to nothing.
		{"bad maxSurge", canary(replicas(10), pct("lots"), n(2)), 0, 0},
	} {
		if s, u := MaxSurge(c.r), MaxUnavailable(c.r); s != c.surge || u != c.unavailable {
			t.Errorf("%s: surge %d unavailable %d, want %d %d", c.name, s, u, c.surge, c.unavailable)
		}
	}
}
