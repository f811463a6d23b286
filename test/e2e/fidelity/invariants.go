package fidelity

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"

	"rollscope/engine/scenario"
	"rollscope/model"
)

func resolved(d *appsv1.Deployment) (surge, unavailable int32) {
	return model.MaxSurge(d), model.MaxUnavailable(d)
}

// Violations checks the rollout invariants at every line of a trace, with
// the bounds derived from the scenario's strategy at the Deployment's size
// at that line:
//   - rolling update: Σ spec.replicas of the ReplicaSets ≤ replicas +
//     maxSurge; and, once the Deployment has first been complete and
//     while its size does not change, Σ available ≥ replicas −
//     maxUnavailable;
//   - Recreate: never two ReplicaSets asking for pods at once.
//
// A change of size (a scale action from the scenario at its time, or a new
// spec.replicas in the trace) opens a window in which the surge bound is the
// larger of the old and the new one, until the ReplicaSets fit the new one:
// the controller scales them one API write at a time.
func (s *Scenario) Violations(tr *Trace) []string {
	r := newReplay(s.Deployment.Name)
	var out []string
	report := func(l Line, format string, args ...any) {
		out = append(out, fmt.Sprintf("%s line %d (t=%.3f): %s", tr.Source, l.N, l.T, fmt.Sprintf(format, args...)))
	}
	scales := s.scales()
	var (
		replicas   = model.DesiredReplicas(s.Deployment)
		resizing   bool  // a size change is under way
		target     int32 // the size it goes to
		windowMax  int32 // the larger of the bounds before and after it
		calm       bool  // complete since the last size change
		nextScale  int
		rolling    = !s.recreate()
		maxTotalAt = func(n int32) int32 { return n + model.MaxSurge(s.withReplicas(n)) }
	)
	openWindow := func(from, to int32) {
		if !resizing {
			windowMax = 0
		}
		resizing, target, calm = true, to, false
		windowMax = max(windowMax, maxTotalAt(from), maxTotalAt(to))
	}
	for _, l := range tr.Lines {
		for nextScale < len(scales) && scales[nextScale].At.Seconds() <= l.T {
			openWindow(replicas, scales[nextScale].Replicas)
			nextScale++
		}
		if !r.apply(l) || !r.seenDep {
			continue
		}
		if r.dep.Spec != replicas {
			openWindow(replicas, r.dep.Spec)
			replicas = r.dep.Spec
		}
		spec, available := r.sums()
		if !rolling {
			if n := r.podBearing(); n > 1 {
				report(l, "Recreate with %d ReplicaSets asking for pods at once", n)
			}
			continue
		}
		bound := maxTotalAt(replicas)
		if resizing {
			if replicas == target && spec <= bound {
				resizing = false
			} else {
				bound = max(bound, windowMax)
			}
		}
		if spec > bound {
			report(l, "Σ ReplicaSet spec.replicas %d > replicas+maxSurge %d", spec, bound)
		}
		if calm && !resizing {
			if floor := model.MinAvailable(s.withReplicas(replicas)); available < floor {
				report(l, "Σ available %d < replicas−maxUnavailable %d", available, floor)
			}
		}
		if d := r.dep; !resizing && d.Updated == replicas && d.Replicas == replicas && d.Available == replicas {
			calm = true
		}
	}
	return out
}

func (s *Scenario) scales() []scenario.Action {
	var out []scenario.Action
	for _, a := range s.Actions {
		if a.Kind == scenario.ActionScale && a.Target.Name == s.Deployment.Name {
			out = append(out, a)
		}
	}
	return out
}

// podBearing counts the ReplicaSets whose spec asks for pods.
func (r *replay) podBearing() int {
	n := 0
	for _, l := range r.rs {
		if l.Spec > 0 {
			n++
		}
	}
	return n
}
