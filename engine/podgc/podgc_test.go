package podgc

import (
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"

	"rollscope/engine/control"
	"rollscope/engine/control/controltest"
)

var t0 = controltest.Start

type harness struct {
	*controltest.Harness
	gc *Controller
}

// newHarness starts with nodes n1 and n2 and pods a1, a2 on n1, b1 on n2 and
// an unbound pod u.
func newHarness(t *testing.T, quarantine time.Duration) *harness {
	h := &harness{Harness: controltest.New(t)}
	h.gc = New(h.Env)
	h.gc.Quarantine = quarantine
	h.Watch(h.gc)
	for _, n := range []string{"n1", "n2"} {
		h.Add(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n}})
	}
	for name, node := range map[string]string{"a1": "n1", "a2": "n1", "b1": "n2", "u": ""} {
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
			Spec:       corev1.PodSpec{NodeName: node},
			Status:     corev1.PodStatus{Phase: corev1.PodRunning},
		}
		if node == "" {
			p.Status.Phase = corev1.PodPending
		}
		h.Add(p)
	}
	return h
}

// run syncs due keys, in time order, until the given time.
func (h *harness) run(until time.Duration) {
	h.T.Helper()
	h.RunUntil(t0.Add(until), nil)
}

func (h *harness) removeNode(name string) {
	h.T.Helper()
	obj, ok, _ := h.Indexer(control.Nodes).GetByKey(name)
	if !ok {
		h.T.Fatalf("node %s is not in the cache", name)
	}
	h.Delete(obj.(*corev1.Node))
}

func (h *harness) podNames() []string { return h.Names(control.Pods) }

func TestPodsOfAVanishedNodeAreForceDeletedAfterQuarantine(t *testing.T) {
	h := newHarness(t, DefaultQuarantine)
	h.run(time.Minute)
	h.Client.ClearActions()

	h.removeNode("n1")
	h.run(time.Minute + DefaultQuarantine - time.Millisecond)
	if got, want := h.podNames(), []string{"a1", "a2", "b1", "u"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("pods during quarantine = %v, want %v", got, want)
	}
	h.run(time.Minute + DefaultQuarantine)
	if got, want := h.podNames(), []string{"b1", "u"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("pods after quarantine = %v, want %v", got, want)
	}

	failed, deleted := map[string]bool{}, map[string]bool{}
	for _, a := range h.Client.Actions() {
		switch a := a.(type) {
		case clienttesting.UpdateActionImpl:
			p := a.GetObject().(*corev1.Pod)
			var cond *corev1.PodCondition
			for i := range p.Status.Conditions {
				if p.Status.Conditions[i].Type == corev1.DisruptionTarget {
					cond = &p.Status.Conditions[i]
				}
			}
			if a.GetSubresource() != "status" || p.Status.Phase != corev1.PodFailed || cond == nil ||
				cond.Reason != "DeletionByPodGC" || cond.Message != "PodGC: node no longer exists" {
				t.Errorf("update of %s: subresource %q phase %s condition %+v, want status Failed with DisruptionTarget DeletionByPodGC",
					p.Name, a.GetSubresource(), p.Status.Phase, cond)
			}
			failed[p.Name] = true
		case clienttesting.DeleteActionImpl:
			if a.GetResource().Resource != "pods" {
				continue
			}
			if g := a.DeleteOptions.GracePeriodSeconds; g == nil || *g != 0 {
				t.Errorf("delete of %s with grace %v, want 0", a.Name, g)
			}
			if a.DeleteOptions.Preconditions == nil || a.DeleteOptions.Preconditions.UID == nil {
				t.Errorf("delete of %s without a UID precondition", a.Name)
			}
			deleted[a.Name] = true
		}
	}
	want := map[string]bool{"a1": true, "a2": true}
	if !reflect.DeepEqual(failed, want) || !reflect.DeepEqual(deleted, want) {
		t.Errorf("marked Failed %v and deleted %v, want both %v", failed, deleted, want)
	}
}

func TestNodeThatComesBackKeepsItsPods(t *testing.T) {
	h := newHarness(t, DefaultQuarantine)
	h.removeNode("n1")
	h.run(10 * time.Second)
	back := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}
	if err := h.Indexer(control.Nodes).Add(back); err != nil {
		t.Fatal(err)
	}
	h.run(time.Minute)
	if got, want := h.podNames(), []string{"a1", "a2", "b1", "u"}; !reflect.DeepEqual(got, want) {
		t.Errorf("pods = %v, want %v: n1 is back", got, want)
	}
}

func TestPodBoundToAMissingNodeIsCollectedWithoutQuarantine(t *testing.T) {
	h := newHarness(t, 0)
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "late", Namespace: "default", UID: "uid-late"}, Spec: corev1.PodSpec{NodeName: "gone"}}
	h.Add(p)
	h.run(0)
	if got, want := h.podNames(), []string{"a1", "a2", "b1", "u"}; !reflect.DeepEqual(got, want) {
		t.Errorf("pods = %v, want %v: the pod bound to a node that does not exist is gone", got, want)
	}
}
