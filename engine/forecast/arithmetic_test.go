package forecast

import (
	"errors"
	"fmt"
	"slices"
	"time"

	appsv1 "k8s.io/api/apps/v1"

	"rollscope/model"
)

// The deployment controller's arithmetic, stepped on a copy of the
// numbers: new ReplicaSet scale-up bounded by replicas + maxSurge, old
// ReplicaSets scaled down while availability stays at replicas -
// maxUnavailable, every pod taking the same time to become available. It
// was rollscope's first forecast; the rehearsal replaced it, and it stays
// here as an independent oracle the rehearsal and the embedded cluster are
// checked against.

// Input is the rollout as it stands when the action would be sent.
type Input struct {
	// Recreate is true for the Recreate strategy.
	Recreate bool
	// Replicas is spec.replicas; MaxSurge and MaxUnavailable are resolved
	// as the controller resolves them (percentages rounded up and down).
	Replicas, MaxSurge, MaxUnavailable int32
	// Old are the ReplicaSets of other templates, oldest first: the order
	// the controller scales them down in.
	Old []Set
	// New and NewAvailable are those of the ReplicaSet of the template
	// being rolled out (0 and 0 for a template never run).
	New, NewAvailable int32
	// PodReady is how long a new pod takes from creation to available
	// (ready + minReadySeconds); 0 when nothing has been observed.
	PodReady time.Duration
}

// Set is one ReplicaSet's pods: wanted (spec.replicas) and available.
type Set struct {
	Replicas, Available int32
}

// errStuck is a rollout that can never progress: maxSurge and
// maxUnavailable both 0 (the API server refuses it too).
var errStuck = errors.New("maxSurge and maxUnavailable are both 0: the rollout cannot progress")

// maxWaves bounds the loop against inputs no real rollout has.
const maxWaves = 1 << 20

// Rollout steps the controller's arithmetic until the new ReplicaSet holds
// every replica, available, and the old ones are empty.
func Rollout(in Input) (Forecast, error) {
	if in.Replicas < 0 || in.New < 0 || in.MaxSurge < 0 || in.MaxUnavailable < 0 {
		return Forecast{}, fmt.Errorf("cannot forecast a rollout with negative counts: %+v", in)
	}
	s := state{in: in, newRS: in.New, newAvail: min(in.NewAvailable, in.New)}
	for _, o := range in.Old {
		if o.Replicas < 0 {
			return Forecast{}, fmt.Errorf("cannot forecast a rollout with negative counts: %+v", in)
		}
		s.old = append(s.old, Set{Replicas: o.Replicas, Available: min(max(o.Available, 0), o.Replicas)})
	}
	if in.Recreate {
		return s.recreate(), nil
	}
	if in.MaxSurge == 0 && in.MaxUnavailable == 0 {
		return Forecast{}, errStuck
	}
	s.f.PeakPods = s.total()
	s.f.LowestAvailable = s.available()
	for !s.done() {
		if s.f.Waves > maxWaves {
			return Forecast{}, fmt.Errorf("the rollout does not finish within %d waves: %+v", maxWaves, in)
		}
		if s.scaleUp() || s.scaleDown() {
			continue
		}
		// Nothing more to do until the new pods are available.
		if s.newAvail == s.newRS {
			return Forecast{}, fmt.Errorf("the rollout would stall: %+v", in)
		}
		s.newAvail = s.newRS
		s.f.Waves++
	}
	s.f.Duration = time.Duration(s.f.Waves) * in.PodReady
	return s.f, nil
}

type state struct {
	in              Input
	newRS, newAvail int32
	old             []Set
	f               Forecast
}

func (s *state) oldPods() (n int32) {
	for _, o := range s.old {
		n += o.Replicas
	}
	return n
}

func (s *state) total() int32 { return s.newRS + s.oldPods() }

func (s *state) available() int32 {
	n := s.newAvail
	for _, o := range s.old {
		n += o.Available
	}
	return n
}

func (s *state) done() bool {
	return s.newRS == s.in.Replicas && s.newAvail == s.in.Replicas && s.oldPods() == 0
}

// note counts one ReplicaSet scaling and what it did to the totals.
func (s *state) note() {
	s.f.Steps++
	s.f.PeakPods = max(s.f.PeakPods, s.total())
	s.f.LowestAvailable = min(s.f.LowestAvailable, s.available())
}

// scaleUp is the controller's new ReplicaSet size: up to replicas +
// maxSurge pods in all, never more than replicas in the new one.
func (s *state) scaleUp() bool {
	r := s.in.Replicas
	if s.newRS > r {
		s.newRS, s.newAvail = r, min(s.newAvail, r)
		s.note()
		return true
	}
	up := min(r+s.in.MaxSurge-s.total(), r-s.newRS)
	if up <= 0 {
		return false
	}
	s.newRS += up
	s.note()
	return true
}

// scaleDown is the controller's old ReplicaSet scale-down in one sync:
// first the old pods that are not available, as far as replicas -
// maxUnavailable allows counting new pods not yet available against it,
// then available old pods down to replicas - maxUnavailable available.
func (s *state) scaleDown() bool {
	minAvailable := s.in.Replicas - s.in.MaxUnavailable
	maxDown := s.total() - minAvailable - (s.newRS - s.newAvail)
	if maxDown <= 0 || s.oldPods() == 0 {
		return false
	}
	changed := false
	cleaned := int32(0)
	for i := range s.old {
		o := &s.old[i]
		if cleaned >= maxDown {
			break
		}
		unhealthy := o.Replicas - o.Available
		if unhealthy <= 0 {
			continue
		}
		c := min(unhealthy, maxDown-cleaned)
		o.Replicas -= c
		cleaned += c
		s.note()
		changed = true
	}
	excess := s.available() - minAvailable
	for i := range s.old {
		o := &s.old[i]
		if excess <= 0 {
			break
		}
		if o.Replicas == 0 {
			continue
		}
		c := min(o.Replicas, excess)
		// The ReplicaSet controller deletes unavailable pods first.
		o.Available -= max(0, c-(o.Replicas-o.Available))
		o.Replicas -= c
		excess -= c
		s.note()
		changed = true
	}
	return changed
}

// recreate scales every old ReplicaSet to 0, then brings up the new one in
// one wave once the old pods are gone.
func (s *state) recreate() Forecast {
	f := Forecast{PeakPods: max(s.total(), s.in.Replicas), LowestAvailable: 0}
	for _, o := range s.old {
		if o.Replicas > 0 {
			f.Steps++
		}
	}
	if s.newRS != s.in.Replicas {
		f.Steps++
	}
	if s.newAvail < s.in.Replicas {
		f.Waves = 1
	}
	f.Duration = time.Duration(f.Waves) * s.in.PodReady
	return f
}

// ForTemplate is the Input for rolling d onto target, one of rss (the
// ReplicaSets d owns), or onto a template no ReplicaSet has run yet when
// target is nil (a set image). podReady is how long a new pod takes to
// become available.
func ForTemplate(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, target *appsv1.ReplicaSet, podReady time.Duration) Input {
	in := Input{
		Recreate: !model.IsRollingUpdate(d),
		Replicas: model.DesiredReplicas(d),
		PodReady: podReady,
	}
	if !in.Recreate {
		in.MaxSurge, in.MaxUnavailable = model.MaxSurge(d), model.MaxUnavailable(d)
	}
	sorted := slices.Clone(rss)
	model.SortByCreationTimestamp(sorted)
	for _, rs := range sorted {
		if rs == nil {
			continue
		}
		if target != nil && rs.UID == target.UID && rs.Name == target.Name {
			in.New, in.NewAvailable = model.SpecReplicas(rs), rs.Status.AvailableReplicas
			continue
		}
		if n := model.SpecReplicas(rs); n > 0 {
			in.Old = append(in.Old, Set{Replicas: n, Available: rs.Status.AvailableReplicas})
		}
	}
	return in
}
