package canary

import (
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clienttesting "k8s.io/client-go/testing"

	"rollscope/engine/control/controltest"
	"rollscope/model"
)

// heldWeb is web at step 1 of a canary begun at start, with lease l.
func heldWeb(t *testing.T, start time.Time, l model.CanaryLease) *appsv1.Deployment {
	t.Helper()
	cn, d, err := Plan(web(), Ask{Container: "app", Image: "a:2", Steps: []string{"1"}, Holds: []string{"pause"}}, start)
	if err != nil {
		t.Fatal(err)
	}
	cn.Lease = l
	cn.Write(&d.ObjectMeta)
	d.UID = "uid-web"
	return d
}

func deploymentUpdates(h *controltest.Harness) int {
	n := 0
	for _, a := range h.Client.Actions() {
		if a.GetVerb() == "update" && a.GetResource().Resource == "deployments" {
			n++
		}
	}
	return n
}

// Another rollscope's fresh lease: this one only watches, and looks again
// when the lease would lapse.
func TestAFreshLeaseOfAnotherHolderIsLeftAlone(t *testing.T) {
	now := controltest.Start
	d := heldWeb(t, now, model.CanaryLease{Holder: "other", Renewed: now.Add(-5 * time.Second)})
	h := controltest.New(t, d)
	c := New(h.Env, "me", nil)
	h.Watch(c)
	if err := c.Sync(t.Context(), "default/web"); err != nil {
		t.Fatal(err)
	}
	if n := deploymentUpdates(h); n != 0 {
		t.Errorf("wrote %d updates under another's lease", n)
	}
	if due := h.Queue.Waiting()["default/web"]; !due.Equal(now.Add(25*time.Second + time.Millisecond)) {
		t.Errorf("looks again at %v, want when the lease lapses (%v)", due, now.Add(25*time.Second))
	}
}

// A lapsed lease is taken over, in one update with the resourceVersion read.
func TestALapsedLeaseIsTakenOver(t *testing.T) {
	now := controltest.Start
	d := heldWeb(t, now.Add(-time.Minute), model.CanaryLease{Holder: "gone", Renewed: now.Add(-31 * time.Second)})
	h := controltest.New(t, d)
	c := New(h.Env, "me", nil)
	h.Watch(c)
	if err := c.Sync(t.Context(), "default/web"); err != nil {
		t.Fatal(err)
	}
	var sent *appsv1.Deployment
	for _, a := range h.Client.Actions() {
		if u, ok := a.(clienttesting.UpdateAction); ok {
			sent = u.GetObject().(*appsv1.Deployment)
		}
	}
	if sent == nil {
		t.Fatal("the lapsed lease was not taken")
	}
	cn, _, _ := model.ReadCanary(sent)
	if cn.Lease.Holder != "me" || !cn.Lease.Renewed.Equal(now) || cn.State.Step != 1 {
		t.Errorf("after the takeover: %+v", cn)
	}
}

// A user who may not update the Deployment only watches: no error to retry,
// and a look again once a lease would have lapsed.
func TestForbiddenWritesOnlyWatch(t *testing.T) {
	now := controltest.Start
	d := heldWeb(t, now, model.CanaryLease{})
	h := controltest.New(t, d)
	h.Client.PrependReactor("update", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "deployments"}, "web", nil)
	})
	c := New(h.Env, "viewer", nil)
	h.Watch(c)
	if err := c.Sync(t.Context(), "default/web"); err != nil {
		t.Errorf("a forbidden write is an error to retry: %v", err)
	}
	if due, ok := h.Queue.Waiting()["default/web"]; !ok || due.Before(now.Add(model.CanaryLeaseRenew)) {
		t.Errorf("looks again at %v (%v), want no sooner than the lease's renewal", due, ok)
	}
}

// Someone else's set image on a held canary: EndStale gives the Deployment
// its own strategy, minReadySeconds and progress deadline back and drops
// the canary, as the controller writes it; a canary still current, or a
// Deployment without one, is left alone.
func TestEndStaleRestoresTheDeploymentsOwnSettings(t *testing.T) {
	d := heldWeb(t, controltest.Start, model.CanaryLease{Holder: "me", Renewed: controltest.Start})
	if _, ok := EndStale(d); ok {
		t.Error("a current canary was ended")
	}
	if _, ok := EndStale(web()); ok {
		t.Error("a Deployment without a canary was changed")
	}
	d.Spec.Template.Spec.Containers[0].Image = "a:3"
	u, ok := EndStale(d)
	if !ok {
		t.Fatal("a canary whose template changed under it was left on")
	}
	own := web()
	if u.Spec.MinReadySeconds != own.Spec.MinReadySeconds || *u.Spec.ProgressDeadlineSeconds != *own.Spec.ProgressDeadlineSeconds ||
		u.Spec.Strategy.RollingUpdate.MaxSurge.String() != "25%" || u.Spec.Strategy.RollingUpdate.MaxUnavailable.String() != "1" {
		t.Errorf("settings after the stale canary: minReadySeconds %d, deadline %d, strategy %+v", u.Spec.MinReadySeconds, *u.Spec.ProgressDeadlineSeconds, u.Spec.Strategy.RollingUpdate)
	}
	if model.HasCanaryAnnotations(u) {
		t.Errorf("canary annotations left: %v", u.Annotations)
	}
	if u.Spec.Template.Spec.Containers[0].Image != "a:3" {
		t.Errorf("the other change was undone: image %s", u.Spec.Template.Spec.Containers[0].Image)
	}
}
