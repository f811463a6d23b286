package forecast

import (
	"context"
	"fmt"
	"slices"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/engine/sim"
	"rollscope/model"
)

// DefaultPodReady is how long a pod is assumed to take from creation to
// Ready when no pod of the deployment has been seen becoming ready: about
// what a small image already on the node takes to pull, start and pass a
// first readiness probe.
const DefaultPodReady = 5 * time.Second

// Readiness is how fast the forecast's pods become ready, and why.
type Readiness struct {
	// Ready is the time from a pod's creation to its Ready condition.
	Ready time.Duration
	// Observed is how many pods Ready is the median of; 0 means nothing
	// was observed and Ready is DefaultPodReady.
	Observed int
	// MinReady is the deployment's minReadySeconds, which the ReplicaSet
	// controller adds before a ready pod counts as available.
	MinReady time.Duration
}

// Available is how long a new pod takes to count as available.
func (r Readiness) Available() time.Duration { return r.Ready + r.MinReady }

// String says where the estimate comes from, for the dialog.
func (r Readiness) String() string {
	s := fmt.Sprintf("pods ready %s after creation (median of %d observed)", r.Ready, r.Observed)
	if r.Observed == 0 {
		s = fmt.Sprintf("no pod readiness observed yet: pods assumed ready %s after creation", r.Ready)
	}
	if r.MinReady > 0 {
		s += fmt.Sprintf(" + minReadySeconds %s", r.MinReady)
	}
	return s
}

// ObservedReadiness estimates how long a new pod of d takes to become
// ready: the median, over pods that are ready, of creation to Ready; or
// DefaultPodReady when no pod has been seen becoming ready. minReadySeconds
// is the Deployment's own, not a guided canary's hold: every change a
// forecast rehearses ends the hold, and the rollout it forecasts waits out
// the Deployment's own.
func ObservedReadiness(d *appsv1.Deployment, pods []*corev1.Pod) Readiness {
	d = model.CanaryUnheld(d)
	r := Readiness{Ready: DefaultPodReady, MinReady: time.Duration(d.Spec.MinReadySeconds) * time.Second}
	var times []time.Duration
	for _, p := range pods {
		if p == nil || p.DeletionTimestamp != nil {
			continue
		}
		if c := readyCondition(p); c != nil && c.Status == corev1.ConditionTrue {
			if dt := c.LastTransitionTime.Sub(p.CreationTimestamp.Time); dt > 0 {
				times = append(times, dt)
			}
		}
	}
	if len(times) > 0 {
		slices.Sort(times)
		r.Ready, r.Observed = times[len(times)/2], len(times)
	}
	return r
}

func readyCondition(p *corev1.Pod) *corev1.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == corev1.PodReady {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

func podReady(p *corev1.Pod) bool {
	c := readyCondition(p)
	return c != nil && c.Status == corev1.ConditionTrue
}

// readiness stands in for the scheduler and the kubelet in the forecast's
// copy: it makes each pod Running and Ready a fixed time after it was
// created, the one thing about pods the deployment and ReplicaSet
// controllers' decisions depend on. Pods stay unbound, as if every node had
// room: the forecast answers what the rollout strategy does, not whether
// the cluster has capacity for it.
type readiness struct {
	env   *control.Env
	ready time.Duration
	// due holds the ready time of pods copied from the cluster not ready:
	// their original creation plus ready, as the copy stamps them anew.
	due   map[string]time.Time
	queue control.Queue
	// readyAt holds, per instant, the pods that became ready then; a
	// wave is an instant whose pods the rollout keeps (waves).
	readyAt map[time.Time][]string
}

func (r *readiness) Name() string { return "kubelet" }

func (r *readiness) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	r.queue = q
	enqueue := func(obj any) {
		if p, ok := obj.(*corev1.Pod); ok && p.DeletionTimestamp == nil && !podReady(p) {
			r.queue.Add(p.Namespace + "/" + p.Name)
		}
	}
	return map[control.Kind]cache.ResourceEventHandler{control.Pods: cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { enqueue(obj) },
		UpdateFunc: func(_, obj any) { enqueue(obj) },
	}}
}

func (r *readiness) Sync(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	p, err := r.env.Listers.Pods.Pods(ns).Get(name)
	if err != nil || p.DeletionTimestamp != nil || podReady(p) {
		return nil
	}
	now := r.env.Clock.Now()
	due, ok := r.due[key]
	if !ok {
		due = p.CreationTimestamp.Add(r.ready)
	}
	if now.Before(due) {
		r.queue.AddAfter(key, due.Sub(now))
		return nil
	}
	// A status write reads the pod's identity and status only: no need to
	// copy its spec, a thousand times per forecast; the embedded API's
	// owned write (as the kubelet's) does not answer with a copy either.
	at := metav1.NewTime(now)
	status := corev1.PodStatus{
		Phase:     corev1.PodRunning,
		StartTime: &p.CreationTimestamp,
		QOSClass:  p.Status.QOSClass,
		Conditions: []corev1.PodCondition{
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: p.CreationTimestamp},
			{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: at},
			{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: at},
		},
	}
	if err := control.WritePodStatus(ctx, r.env.Client.CoreV1().Pods(ns), p, &status); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("making pod %s ready in the forecast: %w", key, err)
	}
	r.readyAt[now] = append(r.readyAt[now], key)
	return nil
}

// newReadiness adds the rehearsal's kubelet to r, last: pods become ready
// as fast as ready says.
func newReadiness(r *sim.Runner, ready Readiness) *readiness {
	k := &readiness{env: r.Env("kubelet"), ready: ready.Ready, readyAt: map[time.Time][]string{}}
	r.Add(k)
	return k
}

// waves counts the instants at which pods the rollout kept became ready.
// A pod copied not ready from a ReplicaSet the change scales away (an
// aborted canary's) may turn ready before it is deleted; that was no wait
// for new pods, so it is no wave.
func (r *readiness) waves() int {
	n := 0
	for _, keys := range r.readyAt {
		for _, key := range keys {
			ns, name, _ := cache.SplitMetaNamespaceKey(key)
			if p, err := r.env.Listers.Pods.Pods(ns).Get(name); err == nil && p.DeletionTimestamp == nil {
				n++
				break
			}
		}
	}
	return n
}

// quiet drops the events the controllers record: nobody reads the copy's.
type quiet struct{}

func (quiet) Eventf(_ runtime.Object, _, _, _ string, _ ...any) {}
