package forecast

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/actions"
	"rollscope/engine/control"
	"rollscope/engine/deployment"
	"rollscope/engine/replicaset"
	"rollscope/engine/sim"
	"rollscope/model"
)

// Backend is the empty in-memory API a forecast runs on (kube/memapi in
// rollscope), created by the caller on the clock it is given: the engine
// does not know the embedded API's package.
type Backend interface {
	Client() kubernetes.Interface
	Subscribe(fn func(watch.Event)) (cancel func())
}

// NewBackend creates a fresh Backend whose server stamps times from clock.
type NewBackend func(clock *sim.Clock) Backend

// Change is the action being forecast, applied to the copy the way its key
// sends it to the cluster (engine/perform hands in its own dispatch).
type Change func(ctx context.Context, c kubernetes.Interface, t actions.Target) error

// Outcomes of a simulated rollout.
const (
	// Finished: every replica runs the new template, available.
	Finished = "finished"
	// DeadlineExceeded: the controller gave up on progress
	// (progressDeadlineSeconds) before the rollout finished.
	DeadlineExceeded = "progress deadline exceeded"
	// Held: the rollout stops part way and waits, e.g. on a paused deployment.
	Held = "held"
)

// ErrPausedCopy is a change that leaves the deployment paused: nothing
// rolls until it is resumed, so there is nothing to forecast.
var ErrPausedCopy = errors.New("the deployment is paused: nothing rolls until it is resumed (r)")

// simulationLimit bounds the virtual time of a forecast; a real rollout
// this long has long since hit its progress deadline.
const simulationLimit = 7 * 24 * time.Hour

// rehearsal is the fresh cluster a forecast plays its change on: an API
// from newBackend and its runner on a virtual clock from now. The caller
// adds the controllers under test, then the kubelet (newReadiness), and
// closes it.
func rehearsal(newBackend NewBackend, now time.Time) (*sim.Runner, kubernetes.Interface) {
	clock := sim.NewClock(now)
	b := newBackend(clock)
	client := b.Client()
	r := sim.New(client, b, clock, 1)
	r.Window = reactionWindow
	return r, client
}

// quietEnv is a controller's env in the rehearsal: its events go nowhere,
// as nothing reads them.
func quietEnv(r *sim.Runner, name string) *control.Env {
	env := r.Env(name)
	env.Events = quiet{}
	return env
}

// Simulate forecasts change by doing it: it copies st into a fresh API from
// newBackend, applies change there, and runs the real deployment and
// ReplicaSet controllers at full speed on a virtual clock starting at
// st.Now, with pods becoming ready as fast as ready says, until the rollout
// finishes or passes its progress deadline. Nothing is sent to the
// cluster st was read from.
func Simulate(ctx context.Context, newBackend NewBackend, st State, ready Readiness, change Change) (Forecast, error) {
	if st.Deployment == nil {
		return Forecast{}, errors.New("cannot forecast: no deployment given")
	}
	r, client := rehearsal(newBackend, st.Now)
	defer r.Close()
	// The ReplicaSet controller turns first so that the deployment
	// controller's first look sees statuses it computed from the pods.
	r.Add(replicaset.NewReplicaSet(quietEnv(r, "replicaset-controller")))
	r.Add(deployment.New(quietEnv(r, "deployment-controller")))
	kubelet := newReadiness(r, ready)

	s, err := seed(ctx, client, st, ready.Ready)
	if err != nil {
		return Forecast{}, err
	}
	kubelet.due = s.due
	m := newMeter(s.rv)
	m.start(st.ReplicaSets, st.Deployment.UID)
	if c := model.GetDeploymentCondition(st.Deployment.Status, appsv1.DeploymentProgressing); c != nil && timedOut(c) {
		m.failed = c.DeepCopy()
	}
	r.Observe(m.observe)
	t := actions.Target{Namespace: st.Deployment.Namespace, Name: st.Deployment.Name}
	if err := change(ctx, client, t); err != nil {
		return Forecast{}, err
	}
	done := func() bool { return m.outcome(r, t) != "" }
	if _, err := r.Run(ctx, sim.RunOptions{Finished: done, Limit: simulationLimit}); err != nil {
		return Forecast{}, fmt.Errorf("cannot forecast: %w", err)
	}
	f := m.f
	f.Waves = kubelet.waves()
	f.Duration = r.Clock().Now().Sub(st.Now)
	f.Readiness = ready
	f.Outcome = m.outcome(r, t)
	if f.Outcome == "" {
		d, _ := r.Listers().Deployments.Deployments(t.Namespace).Get(t.Name)
		if d != nil && d.Spec.Paused {
			return Forecast{}, ErrPausedCopy
		}
		f.Outcome = Held
		if d != nil {
			if c := model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing); c != nil && m.stale(c) {
				// Nothing moved: the rollout stays failed on its old deadline.
				f.Outcome = DeadlineExceeded
			}
		}
	}
	return f, nil
}

// reactionWindow is the embedded cluster's (engine/embedded.ReactionWindow):
// the forecast's controllers react as fast as the embedded cluster's, so
// that a forecast on the embedded cluster is what then happens there.
const reactionWindow = 250 * time.Millisecond

// meter measures the rollout from the ReplicaSets' changes, as an operator
// watching `kubectl get rs -w` would count them.
type meter struct {
	after       uint64
	spec, avail map[string]int32
	f           Forecast
	// failed is the ProgressDeadlineExceeded condition the deployment
	// already carried when the rehearsal began, nil if none.
	failed *appsv1.DeploymentCondition
}

func newMeter(after uint64) *meter {
	return &meter{after: after, spec: map[string]int32{}, avail: map[string]int32{}}
}

// start takes the observed ReplicaSets that the object of uid controls as
// the baseline.
func (m *meter) start(rss []*appsv1.ReplicaSet, uid types.UID) {
	for _, rs := range rss {
		if ref := metav1.GetControllerOf(rs); ref != nil && ref.UID == uid {
			m.spec[rs.Name], m.avail[rs.Name] = model.SpecReplicas(rs), rs.Status.AvailableReplicas
		}
	}
	m.f.PeakPods, m.f.LowestAvailable = m.totals()
}

func timedOut(c *appsv1.DeploymentCondition) bool {
	return c.Status == corev1.ConditionFalse && c.Reason == model.ReasonProgressDeadlineExceeded
}

// stale reports whether c is the deadline the deployment had already
// exceeded before the change. Upstream's deployment controller keeps that
// condition until the next sync that makes progress, then restarts the
// progress clock (ReplicaSetUpdated, a new transition time): an undo or an
// abort of a failed rollout is judged by its own deadline, not the old one.
func (m *meter) stale(c *appsv1.DeploymentCondition) bool {
	return m.failed != nil && c.LastTransitionTime.Equal(&m.failed.LastTransitionTime) && c.LastUpdateTime.Equal(&m.failed.LastUpdateTime)
}

func (m *meter) totals() (pods, available int32) {
	for name, n := range m.spec {
		pods += n
		available += m.avail[name]
	}
	return pods, available
}

func (m *meter) observe(_ time.Time, ev watch.Event) {
	rs, ok := ev.Object.(*appsv1.ReplicaSet)
	if !ok || ev.Type == watch.Deleted {
		return
	}
	if mo, err := meta.Accessor(rs); err == nil {
		if rv, err := strconv.ParseUint(mo.GetResourceVersion(), 10, 64); err == nil && rv <= m.after {
			return // the copy being built
		}
	}
	n := model.SpecReplicas(rs)
	if n != m.spec[rs.Name] {
		m.f.Steps++
	}
	m.spec[rs.Name], m.avail[rs.Name] = n, rs.Status.AvailableReplicas
	pods, available := m.totals()
	m.f.PeakPods, m.f.LowestAvailable = max(m.f.PeakPods, pods), min(m.f.LowestAvailable, available)
}

// outcome is how the rollout ended, "" while it goes on.
func (m *meter) outcome(r *sim.Runner, t actions.Target) string {
	d, err := r.Listers().Deployments.Deployments(t.Namespace).Get(t.Name)
	if err != nil {
		return ""
	}
	if c := model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing); c != nil && timedOut(c) && !m.stale(c) {
		return DeadlineExceeded
	}
	want := model.DesiredReplicas(d)
	s := d.Status
	if s.ObservedGeneration >= d.Generation && s.UpdatedReplicas == want && s.Replicas == want && s.AvailableReplicas == want {
		return Finished
	}
	return ""
}
