package forecast

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/actions"
	"rollscope/engine/control"
	"rollscope/engine/controllers"
	"rollscope/engine/sim"
	"rollscope/engine/workloads"
	"rollscope/kube/objects"
	"rollscope/model"
	"rollscope/model/kind"
)

// WorkloadState is a StatefulSet or a DaemonSet as observed on the cluster,
// the starting point of its forecast.
type WorkloadState struct {
	Workload kind.Workload
	// Revisions are the ControllerRevisions it controls (undo goes back to
	// one of them), Pods its pods, Nodes the cluster's nodes (the pods of a
	// workload that runs one per node follow them; other forecasts do not
	// read them).
	Revisions []*appsv1.ControllerRevision
	Pods      []*corev1.Pod
	Nodes     []*corev1.Node
	// Now is when it was observed: the forecast's clock starts there.
	Now time.Time
}

// MinReadySeconds is the workload's, which its controller waits out before
// a ready pod counts as available.
func (st WorkloadState) MinReadySeconds() int32 { return st.Workload.MinReadySeconds() }

// perNode reports whether w runs one pod per node (a DaemonSet), which has
// no replica count.
func perNode(w kind.Workload) bool {
	_, scaled := w.Replicas()
	return !scaled
}

// ReadWorkload reads the StatefulSet or DaemonSet t as its forecast starts
// from: the object, its ControllerRevisions (as kubectl finds them), the
// pods it controls, and — for a workload that runs one pod per node — the
// nodes. now is the
// cluster's time.
func ReadWorkload(ctx context.Context, c kubernetes.Interface, t workloads.Target, now time.Time) (WorkloadState, error) {
	st := WorkloadState{Now: now}
	var sel *metav1.LabelSelector
	var uid types.UID
	if !workloads.Changes(t.Kind) {
		return st, fmt.Errorf("cannot forecast a %s", t.Kind)
	}
	w, err := workloads.Read(ctx, c, t)
	if err != nil {
		return st, fmt.Errorf("cannot read %s: %w", t, err)
	}
	sel, uid = w.Selector(), w.GetUID()
	if st.Workload = w; perNode(w) {
		nodes, err := c.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			return st, fmt.Errorf("cannot list the nodes %s runs on: %w", t, err)
		}
		for i := range nodes.Items {
			st.Nodes = append(st.Nodes, &nodes.Items[i])
		}
	}
	revs, err := workloads.Revisions(ctx, c, t)
	if err != nil {
		return st, err
	}
	st.Revisions = revs
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return st, fmt.Errorf("%s has an invalid selector: %w", t, err)
	}
	list, err := c.CoreV1().Pods(t.Namespace).List(ctx, metav1.ListOptions{LabelSelector: s.String()})
	if err != nil {
		return st, fmt.Errorf("cannot list the pods of %s: %w", t, err)
	}
	for i := range list.Items {
		if ref := metav1.GetControllerOf(&list.Items[i]); ref != nil && ref.UID == uid {
			st.Pods = append(st.Pods, &list.Items[i])
		}
	}
	return st, nil
}

// PodReadiness estimates how long a new pod takes to become ready from pods
// already seen becoming ready, as ObservedReadiness does for a deployment;
// minReadySeconds is the workload's.
func PodReadiness(minReadySeconds int32, pods []*corev1.Pod) Readiness {
	return ObservedReadiness(&appsv1.Deployment{Spec: appsv1.DeploymentSpec{MinReadySeconds: minReadySeconds}}, pods)
}

// WorkloadForecast is what a StatefulSet's or a DaemonSet's rollout will
// do.
type WorkloadForecast struct {
	// Kind is the workload's kind; PerNode is set for one that runs a pod
	// per node (a DaemonSet), whose pods are named by their nodes.
	Kind    kind.Kind
	PerNode bool
	// Replaced are the pods deleted, in order: names for a StatefulSet,
	// the nodes whose daemon pod goes for a DaemonSet. Created are the
	// pods made for ordinals or nodes that had none (a scale up), Removed
	// those deleted and not made again (a scale down).
	Replaced, Created, Removed []string
	// Steps are the instants at which pods were deleted; PodsPerStep the
	// most deleted at one of them.
	Steps, PodsPerStep int
	// PeakPods is the most pods at once; LowestAvailable the fewest
	// available at any moment.
	PeakPods, LowestAvailable int32
	// Duration is the virtual time the rehearsal took to its outcome.
	Duration time.Duration
	// Outcome is Finished or Held (OnDelete, or a partition that keeps
	// pods back waits for nothing and is Finished).
	Outcome   string
	Readiness Readiness
}

// listed is at most six names, then how many more.
func listed(names []string) string {
	if len(names) <= 6 {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:6], ", ") + fmt.Sprintf(" … (%d more)", len(names)-6)
}

func (f WorkloadForecast) String() string {
	var parts []string
	what := "%d pods"
	if len(f.Replaced) == 1 {
		what = "%d pod"
	}
	if f.PerNode {
		what = "the daemon pods on %d nodes"
		if len(f.Replaced) == 1 {
			what = "the daemon pod on %d node"
		}
	}
	if len(f.Replaced) > 0 {
		pace := "one at a time"
		if f.PodsPerStep > 1 {
			pace = fmt.Sprintf("up to %d at a time", f.PodsPerStep)
		}
		parts = append(parts, fmt.Sprintf("replaces "+what+" %s: %s", len(f.Replaced), pace, listed(f.Replaced)))
	}
	if len(f.Created) > 0 {
		parts = append(parts, "creates "+listed(f.Created))
	}
	if len(f.Removed) > 0 {
		parts = append(parts, "removes "+listed(f.Removed))
	}
	if len(parts) == 0 {
		parts = append(parts, "no pod replaced")
	}
	parts = append(parts, fmt.Sprintf("at most %s, never fewer than %d available", model.Plural(f.PeakPods, "pod"), f.LowestAvailable))
	d := f.Duration.Round(time.Second).String()
	switch {
	case f.Outcome == Held:
		parts = append(parts, "then holds after about "+d+" (pods are replaced only when deleted: OnDelete)")
	case f.Duration > 0:
		parts = append(parts, "about "+d)
	}
	s := strings.Join(parts, "; ")
	if f.Readiness.Ready > 0 {
		s += "; " + f.Readiness.String()
	}
	return s
}

// SimulateWorkload forecasts change on a StatefulSet or DaemonSet by doing
// it, as Simulate does for a deployment: it copies st into a fresh API from
// newBackend (the object, its ControllerRevisions, its pods and, for a
// DaemonSet, the nodes), applies change there, and runs the real embedded
// StatefulSet or DaemonSet controller at full speed on a virtual clock
// starting at st.Now, pods becoming ready as fast as ready says, until
// `kubectl rollout status` would say done and every pod is available.
// Nothing is sent to the cluster st was read from.
func SimulateWorkload(ctx context.Context, newBackend NewBackend, st WorkloadState, ready Readiness, change Change) (WorkloadForecast, error) {
	var f WorkloadForecast
	if st.Workload == nil {
		return f, errors.New("cannot forecast: no workload given")
	}
	f.Kind, f.PerNode = st.Workload.Kind(), perNode(st.Workload)
	r, client := rehearsal(newBackend, st.Now)
	defer r.Close()
	w, ok := controllers.For(f.Kind)
	if !ok {
		return f, fmt.Errorf("cannot forecast a %s: rollscope runs no controller for it", f.Kind)
	}
	r.Add(w.New(quietEnv(r, w.Name)))
	kubelet := newReadiness(r, ready)

	s, err := seedWorkload(ctx, client, st, ready.Ready)
	if err != nil {
		return f, err
	}
	kubelet.due = s.due
	m := newPodMeter(s.rv, perNode(st.Workload), time.Duration(st.MinReadySeconds())*time.Second)
	m.start(st)
	r.Observe(m.observe)
	t := actions.Target{Namespace: st.Workload.GetNamespace(), Name: st.Workload.GetName()}
	if err := change(ctx, client, t); err != nil {
		return f, err
	}
	done := func() bool {
		want, ok := workloadDone(r, f.Kind, t)
		pods, available := m.count(r.Clock().Now())
		return ok && pods == want && available == want
	}
	if _, err := r.Run(ctx, sim.RunOptions{Finished: done, Limit: simulationLimit}); err != nil {
		return f, fmt.Errorf("cannot forecast: %w", err)
	}
	f.Replaced, f.Removed = m.split()
	f.Created = m.created
	f.Steps, f.PodsPerStep = len(m.steps), m.perStep()
	f.PeakPods, f.LowestAvailable = m.peak, m.lowest
	f.Duration = r.Clock().Now().Sub(st.Now)
	f.Readiness = ready
	f.Outcome = Finished
	if !done() {
		f.Outcome = Held
	}
	return f, nil
}

// workloadDone is `kubectl rollout status` saying done, with how many pods
// the workload wants; an OnDelete workload is never done (its pods wait to
// be deleted). The caller also asks that exactly that many pods are live
// and available: the status a controller writes as it deletes a pod still
// counts it.
func workloadDone(r *sim.Runner, k kind.Kind, t actions.Target) (int32, bool) {
	w, ok := getWorkload(r.Listers(), k, t)
	if !ok || w.OnDelete() {
		return 0, false
	}
	_, done, err := w.RolloutStatus()
	return w.TraceLine().Desired(), err == nil && done
}

// getWorkload is the object t of kind k from the rehearsal's listers.
func getWorkload(l control.Listers, k kind.Kind, t actions.Target) (kind.Workload, bool) {
	ix := l.Workloads[k]
	if ix == nil {
		return nil, false
	}
	o, exists, err := ix.GetByKey(t.Namespace + "/" + t.Name)
	if err != nil || !exists {
		return nil, false
	}
	return kind.Of(o)
}

// seedWorkload writes st into the empty API behind c, re-pointing owner
// references at the copies' new UIDs, as seed does for a deployment.
// Daemon pods keep the node they are for as their affinity, unbound: the
// copy has no kubelet to finish a bound pod's graceful deletion.
func seedWorkload(ctx context.Context, c kubernetes.Interface, st WorkloadState, ready time.Duration) (seeded, error) {
	s := seeded{due: map[string]time.Time{}}
	ns := st.Workload.GetNamespace()
	if err := copyNamespace(ctx, c, ns); err != nil {
		return s, err
	}
	for _, n := range st.Nodes {
		cp := &corev1.Node{ObjectMeta: fresh(n.ObjectMeta, nil), Spec: *n.Spec.DeepCopy()}
		if _, err := copyWithStatus(ctx, &s, c.CoreV1().Nodes(), "node/"+n.Name, cp, func(got *corev1.Node) {
			got.Status = corev1.NodeStatus{Conditions: n.Status.Conditions, Allocatable: n.Status.Allocatable, Capacity: n.Status.Capacity}
		}); err != nil {
			return s, err
		}
	}
	owner, err := copyWorkload(ctx, &s, c, st.Workload)
	if err != nil {
		return s, err
	}
	for _, rev := range st.Revisions {
		cp := &appsv1.ControllerRevision{ObjectMeta: fresh(rev.ObjectMeta, &owner), Data: *rev.Data.DeepCopy(), Revision: rev.Revision}
		got, err := c.AppsV1().ControllerRevisions(ns).Create(ctx, cp, metav1.CreateOptions{})
		if err != nil {
			return s, copyErr("controllerrevision/"+rev.Name, err)
		}
		s.note(got.ResourceVersion)
	}
	uid := st.Workload.GetUID()
	for _, p := range st.Pods {
		if ref := metav1.GetControllerOf(p); ref == nil || ref.UID != uid {
			continue
		}
		cp := p
		if node := model.DaemonPodNode(p); perNode(st.Workload) && node != "" {
			cp = p.DeepCopy()
			cp.Spec.Affinity = model.DaemonPodAffinity(cp.Spec.Affinity, node)
		}
		if err := s.seedPod(ctx, c, cp, map[types.UID]metav1.OwnerReference{uid: owner}, st.Now, ready); err != nil {
			return s, err
		}
	}
	return s, s.noteLatest(ctx, c, ns)
}

// copyWorkload writes w into the API behind c with its status, and is the
// owner reference of the copy for what w controls.
func copyWorkload(ctx context.Context, s *seeded, c kubernetes.Interface, w kind.Workload) (metav1.OwnerReference, error) {
	row, ok := objects.For(w.Kind())
	if !ok {
		return metav1.OwnerReference{}, fmt.Errorf("cannot forecast a %s", w.Kind())
	}
	cp := w.Copy(fresh(metav1.ObjectMeta{Name: w.GetName(), Namespace: w.GetNamespace(), Labels: w.GetLabels(), Annotations: w.GetAnnotations()}, nil))
	what := string(w.Kind()) + "/" + w.GetName()
	got, err := copyWithStatus(ctx, s, row.Writer(c, w.GetNamespace()), what, cp.Object().(objects.Object), func(got objects.Object) {
		if g, ok := kind.Of(got); ok {
			kind.TakeStatus(g, w)
		}
	})
	if err != nil {
		return metav1.OwnerReference{}, err
	}
	e, _ := w.Kind().Entry()
	ref := ownerRef(e.Name, w.GetName(), got.GetUID())
	ref.APIVersion = e.GroupVersion.String()
	return ref, nil
}

// podMeter measures the rollout from the pods' changes, as an operator
// watching `kubectl get pods -w` would count them.
type podMeter struct {
	after    uint64
	perNode  bool // the workload runs one pod per node
	minReady time.Duration
	// pods are the live pods and when each became ready (zero: not ready).
	pods              map[string]time.Time
	slots             map[string]string // pod name → slot, for the live pods
	known             map[string]bool   // ordinals or nodes that had a pod
	replaced, created []string
	steps             map[time.Time]int
	peak, lowest      int32
}

func newPodMeter(after uint64, perNode bool, minReady time.Duration) *podMeter {
	return &podMeter{after: after, perNode: perNode, minReady: minReady, pods: map[string]time.Time{}, slots: map[string]string{}, known: map[string]bool{}, steps: map[time.Time]int{}}
}

// slot is what a pod stands for: its node for a workload that runs one pod
// per node, its name otherwise.
func (m *podMeter) slot(p *corev1.Pod) string {
	if m.perNode {
		if n := model.DaemonPodNode(p); n != "" {
			return n
		}
	}
	return p.Name
}

func readySince(p *corev1.Pod) time.Time {
	if c := readyCondition(p); c != nil && c.Status == corev1.ConditionTrue {
		return c.LastTransitionTime.Time
	}
	return time.Time{}
}

func (m *podMeter) start(st WorkloadState) {
	for _, p := range st.Pods {
		// A pod on its way out still has its slot: the one made in its
		// place replaces it.
		m.known[m.slot(p)] = true
		if p.DeletionTimestamp != nil || p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
			continue
		}
		m.pods[p.Name] = readySince(p)
		m.slots[p.Name] = m.slot(p)
	}
	m.peak, m.lowest = m.count(st.Now)
}

func (m *podMeter) count(now time.Time) (pods, available int32) {
	for _, since := range m.pods {
		pods++
		if !since.IsZero() && !since.Add(m.minReady).After(now) {
			available++
		}
	}
	return pods, available
}

func (m *podMeter) observe(at time.Time, ev watch.Event) {
	p, ok := ev.Object.(*corev1.Pod)
	if !ok {
		return
	}
	if rv, err := strconv.ParseUint(p.ResourceVersion, 10, 64); err == nil && rv <= m.after {
		return // the copy being built
	}
	_, had := m.pods[p.Name]
	switch {
	case ev.Type == watch.Deleted || p.DeletionTimestamp != nil:
		if !had {
			return
		}
		delete(m.pods, p.Name)
		delete(m.slots, p.Name)
		m.replaced = append(m.replaced, m.slot(p))
		m.steps[at]++
	default:
		if !had && !m.known[m.slot(p)] {
			m.created = append(m.created, m.slot(p))
		}
		m.known[m.slot(p)] = true
		m.pods[p.Name] = readySince(p)
		m.slots[p.Name] = m.slot(p)
	}
	pods, available := m.count(at)
	m.peak, m.lowest = max(m.peak, pods), min(m.lowest, available)
}

func (m *podMeter) perStep() int {
	most := 0
	for _, n := range m.steps {
		most = max(most, n)
	}
	return most
}

// split parts the deleted slots into those that got a pod again
// (replaced) and those left without one (removed, a scale down).
func (m *podMeter) split() (replaced, removed []string) {
	live := map[string]bool{}
	for _, slot := range m.slots {
		live[slot] = true
	}
	for _, s := range m.replaced {
		if live[s] {
			replaced = append(replaced, s)
		} else {
			removed = append(removed, s)
		}
	}
	return replaced, removed
}
