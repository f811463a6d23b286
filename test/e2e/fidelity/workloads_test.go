package fidelity

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/model"
	"rollscope/test/e2e/e2etest"
)

// The StatefulSet and DaemonSet fidelity cases: the same objects and steps
// on the embedded cluster and on kube-controller-manager 1.36.3 with hollow
// nodes. Where the order is forced (one ordinal at a time) the sequence of
// pod replacements must be the same; everywhere the ControllerRevisions
// (names, so the template hashes, and numbers), the final revisions and the
// rolling-update invariants must agree.

const workloadNodes = 3

var workloadGroup = nodegroup.Group{
	Name: "wl", Size: workloadNodes, Spec: "v1", BootTime: time.Second,
	Capacity: e2etest.Capacity("110", "8", "16Gi"),
}

var workloadImages = []kubelet.ImageRule{{Match: "*", Pull: 300 * time.Millisecond, Start: 200 * time.Millisecond, Ready: 500 * time.Millisecond, Stop: 300 * time.Millisecond}}

func workloadTemplate(app, image string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: app, Image: image,
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m")}}}}},
	}
}

func statefulSet(name string, replicas, partition int32) *appsv1.StatefulSet {
	return &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.StatefulSetSpec{
			Replicas: &replicas, ServiceName: name,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
			UpdateStrategy: appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: &partition}},
			Template: workloadTemplate(name, "registry.example.com/"+name+":1"),
		},
	}
}

func daemonSet(name string, surge, unavailable int) *appsv1.DaemonSet {
	s, u := intstr.FromInt(surge), intstr.FromInt(unavailable)
	return &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
			UpdateStrategy: appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDaemonSet{MaxSurge: &s, MaxUnavailable: &u}},
			Template: workloadTemplate(name, "registry.example.com/"+name+":1"),
		},
	}
}

// step changes the cluster; the run then waits until every workload has
// settled.
type step func(ctx context.Context, c kubernetes.Interface, ns string) error

func setStatefulSet(name string, change func(*appsv1.StatefulSet)) step {
	return func(ctx context.Context, c kubernetes.Interface, ns string) error {
		s, err := c.AppsV1().StatefulSets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		change(s)
		_, err = c.AppsV1().StatefulSets(ns).Update(ctx, s, metav1.UpdateOptions{})
		return err
	}
}

func setDaemonSet(name string, change func(*appsv1.DaemonSet)) step {
	return func(ctx context.Context, c kubernetes.Interface, ns string) error {
		d, err := c.AppsV1().DaemonSets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		change(d)
		_, err = c.AppsV1().DaemonSets(ns).Update(ctx, d, metav1.UpdateOptions{})
		return err
	}
}

func newImage(image string) func(*corev1.PodTemplateSpec) {
	return func(t *corev1.PodTemplateSpec) { t.Spec.Containers[0].Image = image }
}

// workloadCase is one fidelity case.
type workloadCase struct {
	name    string
	objects []any // *appsv1.StatefulSet or *appsv1.DaemonSet
	steps   []step
	// forced: the order of pod replacements is fixed (one at a time).
	forced bool
}

var workloadCases = []workloadCase{
	{name: "ordered-ready-rolling-update", forced: true,
		objects: []any{statefulSet("db", 4, 0)},
		steps:   []step{setStatefulSet("db", func(s *appsv1.StatefulSet) { newImage("registry.example.com/db:2")(&s.Spec.Template) })}},
	{name: "partitioned-canary", forced: true,
		objects: []any{statefulSet("canary", 4, 2)},
		steps: []step{
			setStatefulSet("canary", func(s *appsv1.StatefulSet) { newImage("registry.example.com/canary:2")(&s.Spec.Template) }),
			setStatefulSet("canary", func(s *appsv1.StatefulSet) { *s.Spec.UpdateStrategy.RollingUpdate.Partition = 0 }),
		}},
	{name: "daemonset-max-surge",
		objects: []any{daemonSet("agent", 1, 0)},
		steps:   []step{setDaemonSet("agent", func(d *appsv1.DaemonSet) { newImage("registry.example.com/agent:2")(&d.Spec.Template) })}},
}

// workloadRecord is what one run saw.
type workloadRecord struct {
	mu sync.Mutex
	// replaced are the ordinals whose pods were deleted, in order, after
	// each step: "db-3".
	replaced []string
	seen     map[string]bool // pod UIDs already counted as replaced
	byNode   map[string]map[string]bool
	// maxDoubled is the most nodes seen with two live daemon pods.
	maxDoubled int
	// final: revision name → number; the set's or DaemonSet's final
	// revisions.
	revisions map[string]int64
	final     []string
}

func newRecord() *workloadRecord {
	return &workloadRecord{seen: map[string]bool{}, byNode: map[string]map[string]bool{}, revisions: map[string]int64{}}
}

// event takes one change of a pod.
func (r *workloadRecord) event(ev watch.Event) {
	if p, ok := ev.Object.(*corev1.Pod); ok {
		r.pod(p, ev.Type == watch.Deleted)
	}
}

func (r *workloadRecord) pod(p *corev1.Pod, deleted bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ref := metav1.GetControllerOf(p)
	if ref == nil {
		return
	}
	switch ref.Kind {
	case "StatefulSet":
		if p.DeletionTimestamp != nil && !r.seen[string(p.UID)] {
			r.seen[string(p.UID)] = true
			r.replaced = append(r.replaced, p.Name)
		}
	case "DaemonSet":
		node := model.DaemonPodNode(p)
		for _, pods := range r.byNode {
			delete(pods, p.Name)
		}
		if !deleted && p.DeletionTimestamp == nil && node != "" {
			if r.byNode[node] == nil {
				r.byNode[node] = map[string]bool{}
			}
			r.byNode[node][p.Name] = true
		}
		doubled := 0
		for _, pods := range r.byNode {
			if len(pods) > 1 {
				doubled++
			}
		}
		r.maxDoubled = max(r.maxDoubled, doubled)
	}
}

// settled reports whether every workload in ns is done rolling.
func settled(ctx context.Context, c kubernetes.Interface, ns string) (bool, string, error) {
	sets, err := c.AppsV1().StatefulSets(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return false, "", err
	}
	for _, s := range sets.Items {
		want := model.StatefulSetReplicas(&s)
		st := s.Status
		if st.ObservedGeneration < s.Generation || st.ReadyReplicas != want || st.Replicas != want || st.UpdatedReplicas < want-model.StatefulSetPartition(&s) ||
			(model.StatefulSetPartition(&s) == 0 && st.CurrentRevision != st.UpdateRevision) {
			return false, fmt.Sprintf("statefulset %s: %+v", s.Name, st), nil
		}
	}
	dss, err := c.AppsV1().DaemonSets(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return false, "", err
	}
	for _, d := range dss.Items {
		if ok, state := daemonSetDone(&d, workloadNodes); !ok {
			return false, state, nil
		}
	}
	return noneTerminating(ctx, c, ns)
}

// finish reads the revisions and final status into r.
func (r *workloadRecord) finish(ctx context.Context, c kubernetes.Interface, ns string) (err error) {
	if r.revisions, err = revisionNumbers(ctx, c, ns); err != nil {
		return err
	}
	sets, err := c.AppsV1().StatefulSets(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, s := range sets.Items {
		r.final = append(r.final, fmt.Sprintf("statefulset/%s current %s update %s updated %d", s.Name, s.Status.CurrentRevision, s.Status.UpdateRevision, s.Status.UpdatedReplicas))
	}
	pods, err := c.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, p := range pods.Items {
		r.final = append(r.final, fmt.Sprintf("pod %s/%s rev %s", ownerName(&p), ordinalOrNode(&p), p.Labels[model.RevisionHashLabel]))
	}
	sort.Strings(r.final)
	return nil
}

func ownerName(p *corev1.Pod) string {
	if ref := metav1.GetControllerOf(p); ref != nil {
		return strings.ToLower(ref.Kind) + "/" + ref.Name
	}
	return "-"
}

// ordinalOrNode names a pod by what is the same in both runs: a
// StatefulSet pod by its name, a daemon pod by its node's index.
func ordinalOrNode(p *corev1.Pod) string {
	if ref := metav1.GetControllerOf(p); ref != nil && ref.Kind == "DaemonSet" {
		return model.DaemonPodNode(p)
	}
	return p.Name
}

func createWorkloads(ctx context.Context, c kubernetes.Interface, ns string, objs []any) error {
	for _, o := range objs {
		var err error
		switch x := o.(type) {
		case *appsv1.StatefulSet:
			s := x.DeepCopy()
			s.Namespace = ns
			_, err = c.AppsV1().StatefulSets(ns).Create(ctx, s, metav1.CreateOptions{})
		case *appsv1.DaemonSet:
			d := x.DeepCopy()
			d.Namespace = ns
			_, err = c.AppsV1().DaemonSets(ns).Create(ctx, d, metav1.CreateOptions{})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// playEmbedded runs a case on the embedded cluster, one step at a time,
// each until the cluster is quiescent.
func playEmbedded(t *testing.T, wc workloadCase) *workloadRecord {
	t.Helper()
	rec := newRecord()
	run := newEmbedded(t, wc.name, workloadGroup)
	run.start(rec.event)
	defer run.close()
	ctx, c := t.Context(), run.client
	runUntilSettled := func(what string) {
		run.until(what+" settled", func(ctx context.Context, c kubernetes.Interface) (bool, string, error) {
			return settled(ctx, c, "default")
		})
	}
	runUntilSettled("the first quiescent point")
	if err := createWorkloads(ctx, c, "default", wc.objects); err != nil {
		t.Fatal(err)
	}
	runUntilSettled("creation")
	for i, s := range wc.steps {
		if err := s(ctx, c, "default"); err != nil {
			t.Fatalf("embedded step %d: %v", i, err)
		}
		runUntilSettled(fmt.Sprintf("step %d", i))
	}
	if err := rec.finish(ctx, c, "default"); err != nil {
		t.Fatal(err)
	}
	return rec
}

// playLive runs a case on the real control plane in namespace ns.
func playLive(t *testing.T, c kubernetes.Interface, ns string, wc workloadCase) *workloadRecord {
	t.Helper()
	e2etest.Namespace(t, c, ns, time.Minute)
	rec := newRecord()
	w, err := c.CoreV1().Pods(ns).Watch(t.Context(), metav1.ListOptions{})
	stop := followWatch(t, w, err, rec.event)
	defer stop()
	wait := func(what string) {
		e2etest.Poll(t, 3*time.Minute, wc.name+": "+what, func(ctx context.Context) (bool, string, error) { return settled(ctx, c, ns) })
	}
	if err := createWorkloads(t.Context(), c, ns, wc.objects); err != nil {
		t.Fatal(err)
	}
	wait("creation")
	for i, s := range wc.steps {
		if err := s(t.Context(), c, ns); err != nil {
			t.Fatalf("live step %d: %v", i, err)
		}
		// The controller must see the change before settled can say done.
		time.Sleep(time.Second)
		wait(fmt.Sprintf("step %d", i))
	}
	stop()
	if err := rec.finish(t.Context(), c, ns); err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestStatefulSetsAndDaemonSetsAgreeWithEmbedded(t *testing.T) {
	client := e2etest.Start(t, e2etest.Setup{
		Controllers: []string{"statefulset-controller", "daemonset-controller"},
		Nodes:       live.Nodes{Groups: []nodegroup.Group{workloadGroup}, Images: workloadImages},
	}).Admin
	for _, wc := range workloadCases {
		t.Run(wc.name, func(t *testing.T) {
			emb := playEmbedded(t, wc)
			real := playLive(t, client, wc.name, wc)
			if wc.forced && !slices.Equal(emb.replaced, real.replaced) {
				t.Errorf("pods replaced in another order:\n embedded %v\n live     %v", emb.replaced, real.replaced)
			}
			if !maps.Equal(emb.revisions, real.revisions) {
				t.Errorf("controller revisions differ:\n embedded %v\n live     %v", emb.revisions, real.revisions)
			}
			if !slices.Equal(emb.final, real.final) {
				t.Errorf("final state differs:\n embedded %s\n live     %s", strings.Join(emb.final, "\n          "), strings.Join(real.final, "\n          "))
			}
			for _, r := range []*workloadRecord{emb, real} {
				if r.maxDoubled > 1 {
					t.Errorf("%d nodes ran two daemon pods at once, maxSurge 1", r.maxDoubled)
				}
				if wc.name == "daemonset-max-surge" && r.maxDoubled != 1 {
					t.Errorf("the DaemonSet never surged (at most %d nodes with two pods): maxSurge 1 with maxUnavailable 0 starts the new pod beside the old", r.maxDoubled)
				}
			}
			t.Logf("embedded replaced %v; live replaced %v; revisions %v", emb.replaced, real.replaced, real.revisions)
		})
	}
}
