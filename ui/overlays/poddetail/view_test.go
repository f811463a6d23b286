package poddetail

import (
	"context"
	"strings"
	"testing"
	"time"

	"rollscope/model/cluster"
	"rollscope/ui/internal/uitest"
)

// The detail says what kubectl describe pod says, in the console's words;
// l without a log source says why; esc closes.
func TestDescribesThePod(t *testing.T) {
	src := uitest.MidRollout()
	src.PodDetails = map[string]cluster.PodDetail{"shop/frontend-new-00001": {Namespace: "shop", Name: "frontend-new-00001",
		Node: "node-1", Status: "Running", Owner: "ReplicaSet/frontend-new", IP: "10.0.0.7", Created: uitest.T0,
		Containers: []cluster.ContainerDetail{{Name: "nginx", Image: "nginx:1.28"}}}}
	s := uitest.NewScreen(src, nil)
	v := New(s, "shop", "frontend-new-00001")
	v.SetSize(90, 20)
	out := uitest.Plain(v.View())
	for _, want := range []string{"pod shop/frontend-new-00001", "node-1", "Running", "ReplicaSet/frontend-new", "10.0.0.7", "nginx:1.28"} {
		if !strings.Contains(out, want) {
			t.Errorf("detail lacks %q:\n%s", want, out)
		}
	}
	if o := uitest.Answer(v, "l"); o == nil || !strings.HasPrefix(s.Toast, "logs: ") {
		t.Errorf("l without logs: toast %q", s.Toast)
	}
	if uitest.Answer(v, "esc") != nil {
		t.Error("esc did not close the detail")
	}
	gone := New(s, "shop", "gone")
	gone.SetSize(90, 5)
	if out := uitest.Plain(gone.View()); !strings.Contains(out, "the pod is not in the picture") {
		t.Errorf("a pod not watched:\n%s", out)
	}
}

// A container that has crash-looped for days has a back-off event counted
// thousands of times: its age is read whole, as kubectl describe words it.
func TestAnEventCountedForDaysIsReadWhole(t *testing.T) {
	src := uitest.MidRollout()
	src.PodDetails = map[string]cluster.PodDetail{"shop/frontend-new-00001": {Namespace: "shop", Name: "frontend-new-00001",
		Node: "node-1", Status: "CrashLoopBackOff", Created: uitest.T0.Add(-15 * 24 * time.Hour),
		Events: []cluster.EventRow{
			{Type: "Normal", Reason: "Pulled", From: "kubelet", Message: "Container image \"nginx:1.28\" already present on machine",
				Count: 4322, First: uitest.T0.Add(-14 * 24 * time.Hour), Last: uitest.T0.Add(-3 * time.Minute)},
			{Type: "Warning", Reason: "BackOff", From: "kubelet", Message: "Back-off restarting failed container nginx",
				Count: 98765, First: uitest.T0.Add(-14 * 24 * time.Hour), Last: uitest.T0.Add(-10 * time.Second)},
			{Type: "Warning", Reason: "FailedCreatePodSandBox", From: "kubelet", Message: "Failed to create pod sandbox",
				Count: 1, Last: uitest.T0.Add(-14 * 24 * time.Hour)},
		}}}
	s := uitest.NewScreen(src, nil)
	v := New(s, "shop", "frontend-new-00001")
	v.SetSize(140, 30)
	out := uitest.Plain(v.View())
	for _, want := range []string{"3m (x4322 over 14d)", "10s (x98765 over 14d)", "FailedCreatePodSandBox 14d", "Back-off restarting failed container nginx"} {
		if !strings.Contains(out, want) {
			t.Errorf("detail lacks %q:\n%s", want, out)
		}
	}
}

// followed records what the pod detail asked its cluster to watch.
type followed struct {
	namespace, name string
	ctx             context.Context
}

func (f *followed) Follow(ctx context.Context, namespace, name string) {
	f.ctx, f.namespace, f.name = ctx, namespace, name
}

// The detail asks for its pod's Normal events, which the console watches
// for no other pod, for as long as it is open: esc ends the watch.
func TestDescribedPodsEventsAreWatchedWhileTheDetailIsOpen(t *testing.T) {
	s := uitest.NewScreen(uitest.MidRollout(), nil)
	f := &followed{}
	s.PodEvents = f
	v := New(s, "shop", "frontend-new-00001")
	if f.namespace != "shop" || f.name != "frontend-new-00001" || f.ctx.Err() != nil {
		t.Fatalf("opening the detail followed %s/%s (ended: %v), want shop/frontend-new-00001 while open", f.namespace, f.name, f.ctx.Err())
	}
	uitest.Answer(v, "esc")
	if f.ctx.Err() == nil {
		t.Error("the pod's events are still watched after esc closed its detail")
	}
}
