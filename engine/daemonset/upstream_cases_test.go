package daemonset

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	clienttesting "k8s.io/client-go/testing"

	"rollscope/engine/control"
	"rollscope/engine/control/controltest"
	"rollscope/model"
	"rollscope/model/kind"
	"rollscope/model/upstreamcases"
)

type rollingUpdate struct {
	MaxUnavailable *intstr.IntOrString
	MaxSurge       *intstr.IntOrString
}

func readyNode(name string) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{corev1.LabelHostname: name}},
		Status:     corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}},
	}
}

// newDaemonSet is upstream's test DaemonSet: one container, selector and
// template labels name=simple-daemon.
func newDaemonSet(name string, ru rollingUpdate) *appsv1.DaemonSet {
	lbls := map[string]string{"name": "simple-daemon", "type": "production"}
	return &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: metav1.NamespaceDefault, UID: types.UID(name + "-uid"), Generation: 1},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: lbls},
			UpdateStrategy: appsv1.DaemonSetUpdateStrategy{
				Type:          appsv1.RollingUpdateDaemonSetStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDaemonSet{MaxUnavailable: ru.MaxUnavailable, MaxSurge: ru.MaxSurge},
			},
			RevisionHistoryLimit: new(int32(10)),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: lbls},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "foo", Image: "foo/bar"}}},
			},
		},
	}
}

func TestUpstreamDesiredNodeCounts(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "ds_desired_node_counts") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				Nodes         int
				RollingUpdate rollingUpdate
			}
			var want struct{ MaxSurge, MaxUnavailable, DesiredNumberScheduled int }
			c.Decode(t, &in, &want)
			ds := newDaemonSet("x", in.RollingUpdate)
			desired := 0
			for i := range in.Nodes {
				if run, _ := shouldRun(readyNode(fmt.Sprintf("node-%d", i)), ds); run {
					desired++
				}
			}
			surge, unavailable, err := model.DaemonSetBudget(ds, desired)
			if err != nil || surge != want.MaxSurge || unavailable != want.MaxUnavailable || desired != want.DesiredNumberScheduled {
				t.Errorf("surge %d, unavailable %d, desired %d (%v); want %d, %d, %d", surge, unavailable, desired, err, want.MaxSurge, want.MaxUnavailable, want.DesiredNumberScheduled)
			}
		})
	}
}

// rollWorld runs the controller against the harness with pods that upstream's
// fake pod control would hold: created and deleted at once, never scheduled
// or started unless markReady says so.
type rollWorld struct {
	t    *testing.T
	h    *controltest.Harness
	c    *Controller
	ds   *appsv1.DaemonSet
	made int
}

var allKinds = []control.Kind{control.Nodes, control.Workload(kind.DaemonSet), control.ControllerRevisions, control.Pods}

func newRollWorld(t *testing.T, nodes int) *rollWorld {
	w := &rollWorld{t: t}
	var objs []runtime.Object
	for i := range nodes {
		objs = append(objs, readyNode(fmt.Sprintf("node-%d", i)))
	}
	w.h = controltest.New(t, objs...)
	// The fake API does not generate names; the API server would.
	w.h.Client.PrependReactor("create", "pods", func(a clienttesting.Action) (bool, runtime.Object, error) {
		p := a.(clienttesting.CreateAction).GetObject().(*corev1.Pod)
		if p.Name == "" {
			w.made++
			p.Name = fmt.Sprintf("%s%05d", p.GenerateName, w.made)
			p.CreationTimestamp = metav1.NewTime(w.h.Clock.Now().Add(time.Duration(w.made) * time.Millisecond))
		}
		return false, nil, nil
	})
	w.c = New(w.h.Env)
	w.h.Watch(w.c)
	return w
}

// sync runs the controller until it has nothing left to do at this instant
// and returns the pods it created and deleted.
func (w *rollWorld) sync() [2]int {
	w.t.Helper()
	before := len(w.h.Client.Actions())
	w.h.Observe(allKinds...)
	w.h.RunUntil(w.h.Clock.Now(), func() { w.h.Observe(allKinds...) })
	var got [2]int
	for _, a := range w.h.Client.Actions()[before:] {
		if a.GetResource().Resource != "pods" {
			continue
		}
		switch a.GetVerb() {
		case "create":
			got[0]++
		case "delete":
			got[1]++
		}
	}
	return got
}

func (w *rollWorld) markReady() {
	w.t.Helper()
	list, err := w.h.Client.CoreV1().Pods(metav1.NamespaceDefault).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		w.t.Fatal(err)
	}
	for i := range list.Items {
		p := list.Items[i].DeepCopy()
		if model.IsPodReady(p) {
			continue
		}
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue})
		if err := w.h.Client.Tracker().Update(corev1.SchemeGroupVersion.WithResource("pods"), p, p.Namespace); err != nil {
			w.t.Fatal(err)
		}
	}
	w.h.Clock.SetTime(w.h.Clock.Now().Add(time.Second))
}

func (w *rollWorld) update(ru rollingUpdate) {
	w.t.Helper()
	ds, err := w.h.Client.AppsV1().DaemonSets(metav1.NamespaceDefault).Get(context.Background(), w.ds.Name, metav1.GetOptions{})
	if err != nil {
		w.t.Fatal(err)
	}
	ds = ds.DeepCopy()
	ds.Generation++
	ds.Spec.Template.Spec.Containers[0].Image = fmt.Sprintf("foo2/bar%d", ds.Generation)
	ds.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateDaemonSet{MaxUnavailable: ru.MaxUnavailable, MaxSurge: ru.MaxSurge}
	if err := w.h.Client.Tracker().Update(appsv1.SchemeGroupVersion.WithResource("daemonsets"), ds, ds.Namespace); err != nil {
		w.t.Fatal(err)
	}
}

func TestUpstreamRollingUpdateSequences(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "ds_rolling_update") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				Nodes         int
				RollingUpdate rollingUpdate
				Steps         []json.RawMessage
			}
			var want struct{ InitialSync [2]int }
			c.Decode(t, &in, &want)
			w := newRollWorld(t, in.Nodes)
			w.ds = newDaemonSet("foo", rollingUpdate{MaxUnavailable: new(intstr.FromInt32(1))})
			w.h.AddToAPI(w.ds)
			if got := w.sync(); got != want.InitialSync {
				t.Fatalf("first sync created and deleted %v, want %v", got, want.InitialSync)
			}
			w.markReady()
			var expected [2]int
			pending := false
			check := func(i int) {
				if !pending {
					return
				}
				if got := w.sync(); got != expected {
					t.Fatalf("before step %d: created and deleted %v, want %v (upstream's syncs summed)", i, got, expected)
				}
				expected, pending = [2]int{}, false
			}
			for i, raw := range in.Steps {
				var counts [2]int
				if err := json.Unmarshal(raw, &counts); err == nil {
					expected[0] += counts[0]
					expected[1] += counts[1]
					pending = true
					continue
				}
				check(i)
				var step string
				if err := json.Unmarshal(raw, &step); err != nil {
					t.Fatalf("step %d: %s", i, raw)
				}
				switch step {
				case "update":
					w.update(in.RollingUpdate)
				case "markReady":
					w.markReady()
				default:
					t.Fatalf("step %d: unknown %q", i, step)
				}
			}
			check(len(in.Steps))
		})
	}
}
