package watch_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"rollscope/kube/memapi"
	"rollscope/kube/watch"
	"rollscope/model/cluster"
)

// eventAbout is an event of type typ about the named object.
func eventAbout(client kubernetes.Interface, t *testing.T, name, kind, object, typ, reason string) cluster.ObjectRef {
	t.Helper()
	e := &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Namespace: "default", Name: name},
		InvolvedObject: corev1.ObjectReference{Kind: kind, Namespace: "default", Name: object},
		Type:           typ, Reason: reason, Message: reason + " " + object,
	}
	must(client.CoreV1().Events("default").Create(ctx, e, metav1.CreateOptions{}))(t)
	return cluster.ObjectRef{Kind: "Event", Namespace: "default", Name: name}
}

// With a pod detail's handle the console hears every event but pods'
// Normal ones, and those of the pod whose detail is open for as long as it
// is: the events the timeline, the blocker line and the gates read arrive
// at once, the routine ones of a thousand pods never.
func TestPodsNormalEventsComeOnlyForThePodDescribed(t *testing.T) {
	client := memapi.New(memapi.Options{}).Client()
	scaled := eventAbout(client, t, "web.1", "Deployment", "web", corev1.EventTypeNormal, "ScalingReplicaSet")
	created := eventAbout(client, t, "web-7b.1", "ReplicaSet", "web-7b", corev1.EventTypeNormal, "SuccessfulCreate")
	backOff := eventAbout(client, t, "web-7b-a.1", "Pod", "web-7b-a", corev1.EventTypeWarning, "BackOff")
	scheduledA := eventAbout(client, t, "web-7b-a.2", "Pod", "web-7b-a", corev1.EventTypeNormal, "Scheduled")
	scheduledB := eventAbout(client, t, "web-7b-b.1", "Pod", "web-7b-b", corev1.EventTypeNormal, "Scheduled")

	pe := watch.NewPodEvents()
	r := run(t, client, watch.Scope{Namespace: "default"}, watch.Options{PodEvents: pe})
	eventually(t, "the synced first batch", func() bool { b, _ := r.snapshot(); return len(b) > 0 && b[0].Watch.Synced })
	for _, ref := range []cluster.ObjectRef{scaled, created, backOff} {
		if o, _ := r.find(ref); o == nil {
			t.Errorf("the first batch lacks %s", ref.Name)
		}
	}
	for _, ref := range []cluster.ObjectRef{scheduledA, scheduledB} {
		if o, _ := r.find(ref); o != nil {
			t.Errorf("a pod's Normal event %s came before its detail opened", ref.Name)
		}
	}

	// The detail of web-7b-a opens: its Normal events come, those listed
	// and those recorded while it is open; web-7b-b's still do not.
	open, closeDetail := context.WithCancel(ctx)
	pe.Follow(open, "default", "web-7b-a")
	eventually(t, "web-7b-a's Scheduled event", func() bool { o, _ := r.find(scheduledA); return o != nil })
	pulled := eventAbout(client, t, "web-7b-a.3", "Pod", "web-7b-a", corev1.EventTypeNormal, "Pulled")
	eventually(t, "web-7b-a's Pulled event, recorded while its detail is open", func() bool { o, _ := r.find(pulled); return o != nil })
	if o, _ := r.find(scheduledB); o != nil {
		t.Error("web-7b-b's Normal event came with web-7b-a's detail")
	}

	// Another pod's detail: web-7b-a's Normal events leave the picture,
	// web-7b-b's come.
	pe.Follow(open, "default", "web-7b-b")
	eventually(t, "web-7b-b's Scheduled event", func() bool { o, _ := r.find(scheduledB); return o != nil })
	eventually(t, "web-7b-a's Normal events gone", func() bool {
		_, a := r.find(scheduledA)
		_, p := r.find(pulled)
		return a && p
	})

	// The detail closes: its pod's Normal events go; the rest stays.
	closeDetail()
	eventually(t, "web-7b-b's Normal event gone", func() bool { _, gone := r.find(scheduledB); return gone })
	for _, ref := range []cluster.ObjectRef{scaled, created, backOff} {
		if o, _ := r.find(ref); o == nil {
			t.Errorf("%s left the picture with the pod detail", ref.Name)
		}
	}
}

// Without a handle (a recording, --plain) every event is watched.
func TestEveryEventWithoutAPodDetail(t *testing.T) {
	client := memapi.New(memapi.Options{}).Client()
	scheduled := eventAbout(client, t, "web-7b-a.1", "Pod", "web-7b-a", corev1.EventTypeNormal, "Scheduled")
	r := run(t, client, watch.Scope{Namespace: "default"}, watch.Options{})
	eventually(t, "the pod's Normal event", func() bool { o, _ := r.find(scheduled); return o != nil })
}

// An authorizer that weighs field selectors (a webhook may) can refuse one
// pod's events while the two main event watches run: the console then says
// that it may not list them, for as long as that detail is open, instead of
// a detail that shows no events as if there were none.
func TestARefusedPodDetailsEventsSaySo(t *testing.T) {
	client := fake.NewClientset()
	client.PrependReactor("list", "events", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if f := a.(k8stesting.ListAction).GetListRestrictions().Fields; f != nil && strings.Contains(f.String(), "involvedObject.name=web-7b-a") {
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "events"}, "", errors.New(`User "dev" cannot list resource "events"`))
		}
		return false, nil, nil
	})
	pe := watch.NewPodEvents()
	r := run(t, client, watch.Scope{Namespace: "default"}, watch.Options{PodEvents: pe})
	eventually(t, "the synced first batch", func() bool { b, _ := r.snapshot(); return len(b) > 0 && b[0].Watch.Synced })

	open, closeDetail := context.WithCancel(ctx)
	pe.Follow(open, "default", "web-7b-a")
	last := func() cluster.WatchStatus { b, _ := r.snapshot(); return b[len(b)-1].Watch }
	eventually(t, "events named as not listable", func() bool { return last().MayNotList("Event") })
	if w := last(); w.Forbidden != "Event" || !w.Connected || w.Problem != "" {
		t.Errorf("watch = forbidden %q, connected %v, problem %q; want only Event refused, the rest live", w.Forbidden, w.Connected, w.Problem)
	}
	closeDetail()
	eventually(t, "nothing refused once the detail closed", func() bool { return !last().MayNotList("Event") })
}
