package cluster_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
)

func withConditions(d *appsv1.Deployment, progressing, available [2]string) *appsv1.Deployment {
	d = d.DeepCopy()
	d.Status.Conditions = []appsv1.DeploymentCondition{
		{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionStatus(progressing[0]), Reason: progressing[1]},
		{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionStatus(available[0]), Reason: available[1]},
	}
	return d
}

func TestTimelineInOrder(t *testing.T) {
	d := deployment("frontend", "web:v2", 3, "2")
	v1 := ownedReplicaSet(d, "v1", "1", "web:v1", 3, 3, at(-10))
	v2 := ownedReplicaSet(d, "v2", "2", "web:v2", 1, 0, at(1))
	elsewhere := deployment("api", "api:v1", 1, "1")
	c := cluster.NewCluster()

	// The initial listing is the baseline: only events, which carry their
	// own history, make entries.
	c.Apply(cluster.Batch{At: t0, Watch: synced, Objects: []runtime.Object{
		withConditions(d, [2]string{"True", "NewReplicaSetAvailable"}, [2]string{"True", "MinimumReplicasAvailable"}),
		v1, elsewhere,
		event("e1", "Deployment", "frontend", "ScalingReplicaSet", "Scaled up replica set frontend-v1 to 3", 1, at(-5)),
		event("e0", "Deployment", "api", "ScalingReplicaSet", "Scaled up replica set api-1 to 1", 1, at(-4)),
	}})
	// The batch lists the new ReplicaSet and its event before the
	// deployment; entries still come in the order things happened.
	c.Apply(cluster.Batch{At: at(1), Watch: synced, Objects: []runtime.Object{
		v2,
		event("e2", "Deployment", "frontend", "ScalingReplicaSet", "Scaled up replica set frontend-v2 to 1", 1, at(1)),
		withConditions(d, [2]string{"True", "ReplicaSetUpdated"}, [2]string{"True", "MinimumReplicasAvailable"}),
	}})
	v1Smaller := v1.DeepCopy()
	*v1Smaller.Spec.Replicas = 2
	again := event("e1", "Deployment", "frontend", "ScalingReplicaSet", "Scaled up replica set frontend-v1 to 3", 2, at(2))
	failed := event("e3", "ReplicaSet", "frontend-v2", "FailedCreate", "pods \"frontend-v2-x\" is forbidden: exceeded quota", 1, time.Time{})
	failed.Type = corev1.EventTypeWarning
	c.Apply(cluster.Batch{At: at(2), Watch: synced, Objects: []runtime.Object{
		withConditions(d, [2]string{"True", "ReplicaSetUpdated"}, [2]string{"False", "MinimumReplicasUnavailable"}),
		v1Smaller, again, failed,
	}})
	c.AddAction(shop, "frontend", cluster.TimelineEntry{Time: at(3), Object: "deployment/frontend", Message: "paused"})

	want := []cluster.TimelineEntry{
		{Time: at(-5), Kind: cluster.TimelineEvent, Object: "deployment/frontend", Message: "ScalingReplicaSet: Scaled up replica set frontend-v1 to 3"},
		{Time: at(1), Kind: cluster.TimelineCondition, Object: "deployment/frontend", Message: "Progressing=True ReplicaSetUpdated"},
		{Time: at(1), Kind: cluster.TimelineScale, Object: "replicaset/frontend-v2", Message: "replicaset/frontend-v2 created with 1 replica"},
		{Time: at(1), Kind: cluster.TimelineEvent, Object: "deployment/frontend", Message: "ScalingReplicaSet: Scaled up replica set frontend-v2 to 1"},
		{Time: at(2), Kind: cluster.TimelineCondition, Object: "deployment/frontend", Message: "Available=False MinimumReplicasUnavailable", Warning: true},
		{Time: at(2), Kind: cluster.TimelineScale, Object: "replicaset/frontend-v1", Message: "replicaset/frontend-v1 scaled from 3 to 2"},
		{Time: at(2), Kind: cluster.TimelineEvent, Object: "deployment/frontend", Message: "ScalingReplicaSet: Scaled up replica set frontend-v1 to 3 (x2)"},
		{Time: at(2), Kind: cluster.TimelineEvent, Object: "replicaset/frontend-v2", Message: "FailedCreate: pods \"frontend-v2-x\" is forbidden: exceeded quota", Warning: true},
		{Time: at(3), Kind: cluster.TimelineAction, Object: "deployment/frontend", Message: "paused"},
	}
	got := c.Timeline(shop, "frontend")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Timeline:")
		for _, e := range got {
			t.Errorf("  got  %v %d %s %q %v", e.Time.Format(time.TimeOnly), e.Kind, e.Object, e.Message, e.Warning)
		}
		for _, e := range want {
			t.Errorf("  want %v %d %s %q %v", e.Time.Format(time.TimeOnly), e.Kind, e.Object, e.Message, e.Warning)
		}
	}

	// A deleted deployment's timeline ends with its deletion, and the
	// picture says when it was deleted.
	c.Apply(cluster.Batch{At: at(4), Watch: synced, Deleted: []cluster.ObjectRef{{Kind: "Deployment", Namespace: shop, Name: "frontend"}}})
	got = c.Timeline(shop, "frontend")
	deleted := cluster.TimelineEntry{Time: at(4), Kind: cluster.TimelineEvent, Object: "deployment/frontend", Message: "deployment deleted", Warning: true}
	if len(got) != len(want)+1 || got[len(got)-1] != deleted {
		t.Errorf("Timeline of a deleted deployment ends %+v, want %+v", got[len(got)-1], deleted)
	}
	if a := c.Absent(shop, "frontend"); !a.DeletedAt.Equal(at(4)) {
		t.Errorf("Absent = %+v, want deleted at %v", a, at(4))
	}

	// Created again under the same name, it starts a new story.
	c.Apply(cluster.Batch{At: at(5), Watch: synced, Objects: []runtime.Object{deployment("frontend", "web:v1", 3, "1")}})
	for _, e := range c.Timeline(shop, "frontend") {
		if e == deleted || e.Kind == cluster.TimelineAction {
			t.Errorf("a recreated deployment kept the old timeline: %+v", e)
		}
	}
	if a := c.Absent(shop, "frontend"); !a.DeletedAt.IsZero() {
		t.Errorf("a recreated deployment still reads deleted: %+v", a)
	}
}

// A namespace is known missing only once the namespaces were listed in
// full; a user who may not list them learns nothing from their absence.
func TestAbsentNamespace(t *testing.T) {
	c := cluster.NewCluster()
	synced := cluster.WatchStatus{Synced: true, Connected: true}
	c.Apply(cluster.Batch{At: at(0), Watch: synced, Objects: []runtime.Object{&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: shop}}}})
	if a := c.Absent(shop, "web"); a.NoNamespace {
		t.Errorf("namespace %s exists, Absent = %+v", shop, a)
	}
	if a := c.Absent("nope", "web"); !a.NoNamespace {
		t.Errorf("namespace nope does not exist, Absent = %+v", a)
	}
	c.Apply(cluster.Batch{At: at(1), Watch: cluster.WatchStatus{Synced: true, Connected: true, Forbidden: "Namespace"}})
	if a := c.Absent("nope", "web"); a.NoNamespace {
		t.Errorf("namespaces may not be listed, yet Absent = %+v", a)
	}
	c.Apply(cluster.Batch{At: at(2), Watch: synced, Deleted: []cluster.ObjectRef{{Kind: "Namespace", Name: shop}}})
	if a := c.Absent(shop, "web"); !a.NoNamespace {
		t.Errorf("namespace %s was deleted, Absent = %+v", shop, a)
	}
}

func TestTimelineIsBounded(t *testing.T) {
	c := loaded(deployment("frontend", "web:v1", 1, "1"))
	for i := range 2*cluster.TimelineLimit + 500 {
		c.AddAction(shop, "frontend", cluster.TimelineEntry{Time: t0.Add(time.Duration(i) * time.Second), Message: fmt.Sprint(i)})
	}
	got := c.Timeline(shop, "frontend")
	if len(got) != cluster.TimelineLimit {
		t.Fatalf("Timeline holds %d entries, want the last %d", len(got), cluster.TimelineLimit)
	}
	if first, last := got[0].Message, got[len(got)-1].Message; first != "1500" || last != "2499" {
		t.Errorf("Timeline runs from %s to %s, want 1500 to 2499", first, last)
	}
}

// The watch can deliver an event before the object it is about; the entry
// appears when the object does, at the event's own time, and only once.
func TestTimelineEventBeforeItsObject(t *testing.T) {
	d := deployment("frontend", "web:v2", 1, "2")
	rs := ownedReplicaSet(d, "v2", "2", "web:v2", 1, 0, at(1))
	early := event("e1", "ReplicaSet", "frontend-v2", "SuccessfulCreate", "Created pod: frontend-v2-a", 1, at(1))
	stale := event("e2", "Deployment", "frontend", "ScalingReplicaSet", "about an earlier frontend", 1, at(0))
	stale.InvolvedObject.UID = "uid-an-earlier-frontend"
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: at(1), Watch: synced, Objects: []runtime.Object{early, stale}})
	c.Apply(cluster.Batch{At: at(2), Watch: synced, Objects: []runtime.Object{d}})
	c.Apply(cluster.Batch{At: at(3), Watch: synced, Objects: []runtime.Object{rs}})
	c.Apply(cluster.Batch{At: at(4), Watch: synced, Objects: []runtime.Object{d.DeepCopy(), rs.DeepCopy()}})
	want := []cluster.TimelineEntry{
		{Time: at(1), Kind: cluster.TimelineEvent, Object: "replicaset/frontend-v2", Message: "SuccessfulCreate: Created pod: frontend-v2-a"},
		{Time: at(3), Kind: cluster.TimelineScale, Object: "replicaset/frontend-v2", Message: "replicaset/frontend-v2 created with 1 replica"},
	}
	if got := c.Timeline(shop, "frontend"); !reflect.DeepEqual(got, want) {
		t.Errorf("Timeline:\n got %+v\nwant %+v", got, want)
	}
}

// A timeline once read is the reader's: what comes after is in the next
// read, never in the slice read before. Until something comes, the same
// slice is read again, which lets the console tell its story once.
func TestATimelineReadStaysAsRead(t *testing.T) {
	c := cluster.NewCluster()
	c.AddAction(shop, "frontend", cluster.TimelineEntry{Time: at(1), Object: "deployment/frontend", Message: "paused"})
	first := c.Timeline(shop, "frontend")
	if again := c.Timeline(shop, "frontend"); len(again) != 1 || &again[0] != &first[0] {
		t.Fatalf("an unchanged timeline read again is a new copy (%d entries)", len(again))
	}
	c.AddAction(shop, "frontend", cluster.TimelineEntry{Time: at(2), Object: "deployment/frontend", Message: "resumed"})
	next := c.Timeline(shop, "frontend")
	if len(next) != 2 || next[1].Message != "resumed" {
		t.Fatalf("the read after an action: %+v", next)
	}
	if len(first) != 1 || first[0].Message != "paused" {
		t.Fatalf("the read before the action changed under its reader: %+v", first)
	}
}
