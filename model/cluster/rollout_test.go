package cluster_test

import (
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model"
	"rollscope/model/cluster"
)

func loaded(objs ...runtime.Object) *cluster.Cluster {
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: t0, Objects: objs, Watch: synced})
	return c
}

func TestRolloutMidRollout(t *testing.T) {
	m := newMidRollout()
	c := loaded(m.objects()...)
	v, ok := c.Rollout(shop, "frontend", at(12))
	if !ok {
		t.Fatal("Rollout(shop, frontend) = not found, want the deployment")
	}
	want := cluster.RolloutView{
		Namespace: shop, Name: "frontend", Generation: 2, Observed: true,
		Strategy: "RollingUpdate", Replicas: 4,
		MaxSurge: 1, MaxUnavailable: 1, MaxSurgeSpec: "25%", MaxUnavailableSpec: "25%",
		ProgressDeadlineSeconds: 600, Revision: 2,
		Progressing: cluster.Condition{Status: "True", Reason: "ReplicaSetUpdated", Message: `ReplicaSet "frontend-v2" is progressing.`},
		Available:   cluster.Condition{Status: "True", Reason: "MinimumReplicasAvailable", Message: "Deployment has minimum availability."},
		Status:      `Waiting for deployment "frontend" rollout to finish: 2 out of 4 new replicas have been updated...`,
		// 3 + 2 pods asked for against 4 + 1; 4 of 4 available.
		Surge:       model.Headroom{Used: 5, Limit: 5},
		Unavailable: model.Headroom{Used: 0, Limit: 1},
		// The new pod on node-3 was created with its ReplicaSet at minute 10.
		Blocker: "waiting for new pods to become available, 1 of 4 so far — frontend-v2-b not ready for 2m0s: ContainerCreating",
	}
	got := v
	got.ReplicaSets, got.History = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Rollout view:\n got %+v\nwant %+v", got, want)
	}
	if !v.Surge.Exhausted() || v.Unavailable.Exhausted() {
		t.Errorf("surge exhausted = %v, unavailable exhausted = %v; want the surge budget spent and one pod of unavailability left",
			v.Surge.Exhausted(), v.Unavailable.Exhausted())
	}

	if len(v.ReplicaSets) != 2 {
		t.Fatalf("ReplicaSets = %d rows, want 2", len(v.ReplicaSets))
	}
	newRow, oldRow := v.ReplicaSets[0], v.ReplicaSets[1]
	if newRow.Name != "frontend-v2" || newRow.Role != cluster.RoleNew || newRow.Revision != 2 || newRow.Hash != "v2" ||
		newRow.Desired != 2 || newRow.Available != 1 || !reflect.DeepEqual(newRow.Images, []string{"web:v2"}) {
		t.Errorf("first row = %+v, want the new ReplicaSet frontend-v2 (revision 2, 2 desired, 1 available)", newRow)
	}
	if oldRow.Name != "frontend-v1" || oldRow.Role != cluster.RoleOld || oldRow.Revision != 1 {
		t.Errorf("second row = %+v, want the old ReplicaSet frontend-v1 at revision 1", oldRow)
	}
	var names []string
	var states []cluster.PodState
	for _, p := range newRow.Pods {
		names = append(names, p.Name)
		states = append(states, p.State)
	}
	if want := []string{"frontend-v2-a", "frontend-v2-b"}; !reflect.DeepEqual(names, want) {
		t.Errorf("new ReplicaSet's pods = %v, want %v", names, want)
	}
	if want := []cluster.PodState{cluster.PodReady, cluster.PodCreating}; !reflect.DeepEqual(states, want) {
		t.Errorf("new ReplicaSet's pod states = %v, want %v", states, want)
	}
	if len(oldRow.Pods) != 3 {
		t.Errorf("old ReplicaSet has %d pods, want 3", len(oldRow.Pods))
	}
}

func TestRolloutRoleStableOnceDone(t *testing.T) {
	d := deployment("api", "api:v3", 2, "3")
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 2, UpdatedReplicas: 2, AvailableReplicas: 2, ReadyReplicas: 2}
	rs := ownedReplicaSet(d, "v3", "3", "api:v3", 2, 2, at(0))
	v, _ := loaded(d, rs).Rollout(shop, "api", at(1))
	if !v.Done || v.Status != `deployment "api" successfully rolled out` {
		t.Errorf("Done, Status = %v, %q; want a finished rollout", v.Done, v.Status)
	}
	if len(v.ReplicaSets) != 1 || v.ReplicaSets[0].Role != cluster.RoleStable {
		t.Errorf("ReplicaSets = %+v, want one Stable row", v.ReplicaSets)
	}
}

func TestRolloutPausedAndDeadline(t *testing.T) {
	d := deployment("api", "api:v3", 2, "3")
	d.Spec.Paused = true
	d.Status.Conditions = []appsv1.DeploymentCondition{{
		Type: appsv1.DeploymentProgressing, Status: corev1.ConditionFalse, Reason: model.ReasonProgressDeadlineExceeded,
	}}
	v, _ := loaded(d).Rollout(shop, "api", at(1))
	if !v.Paused || v.Done || v.Status != `deployment "api" exceeded its progress deadline` {
		t.Errorf("Paused, Done, Status = %v, %v, %q; want paused, not done, the deadline error", v.Paused, v.Done, v.Status)
	}
	if v.Progressing.Status != "False" || v.Available.Status != "" {
		t.Errorf("Progressing, Available = %+v, %+v; want False and absent", v.Progressing, v.Available)
	}
}

// A ReplicaSet matching the deployment's labels but controlled by something
// else is not the deployment's, as kubectl selects by controller reference.
func TestRolloutSelectsReplicaSetsByControllerRef(t *testing.T) {
	m := newMidRollout()
	orphan := ownedReplicaSet(m.d, "x", "7", "web:x", 1, 1, at(1))
	orphan.OwnerReferences = nil
	other := ownedReplicaSet(m.d, "y", "8", "web:y", 1, 1, at(1))
	other.OwnerReferences[0].UID = "uid-someone-else"
	v, _ := loaded(m.d, m.oldRS, m.newRS, orphan, other).Rollout(shop, "frontend", at(12))
	var names []string
	for _, rs := range v.ReplicaSets {
		names = append(names, rs.Name)
	}
	if want := []string{"frontend-v2", "frontend-v1"}; !reflect.DeepEqual(names, want) {
		t.Errorf("ReplicaSets = %v, want %v", names, want)
	}
}

func TestRolloutUnknownDeployment(t *testing.T) {
	if _, ok := cluster.NewCluster().Rollout(shop, "nope", t0); ok {
		t.Error("Rollout of an unknown deployment reported found")
	}
}

func TestHistoryWithGoneRevisions(t *testing.T) {
	// Revision 1 ran web:v1, revision 2 web:v2; undo went back to web:v1,
	// reusing its ReplicaSet as revision 3 and noting "1" in its history.
	d := deployment("frontend", "web:v1", 2, "3")
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 2, UpdatedReplicas: 2, AvailableReplicas: 2}
	back := ownedReplicaSet(d, "v1", "3", "web:v1", 2, 2, at(0))
	back.Annotations[model.RevisionHistoryAnnotation] = "1"
	back.Annotations[model.ChangeCauseAnnotation] = "kubectl rollout undo"
	v2 := ownedReplicaSet(d, "v2", "2", "web:v2", 0, 0, at(10))
	v, _ := loaded(d, back, v2).Rollout(shop, "frontend", at(20))
	want := []cluster.RevisionRow{
		{Revision: 1, Images: []string{"web:v1"}, Gone: true, Now: 3},
		{Revision: 2, Images: []string{"web:v2"}, Created: at(10)},
		{Revision: 3, ChangeCause: "kubectl rollout undo", Images: []string{"web:v1"}, Created: at(0), Replicas: 2, Current: true},
	}
	if !reflect.DeepEqual(v.History, want) {
		t.Errorf("History:\n got %+v\nwant %+v", v.History, want)
	}
}

func TestDeploymentsSortedWithProgress(t *testing.T) {
	m := newMidRollout()
	b := deployment("api", "api:v1", 2, "1")
	b.Spec.Paused = true
	other := deployment("zeta", "z:v1", 1, "1")
	other.Namespace = "a-team"
	c := loaded(m.d, b, other)
	got := c.Deployments()
	want := []cluster.DeploymentSummary{
		{Namespace: "a-team", Name: "zeta", Replicas: 1,
			Status: `Waiting for deployment "zeta" rollout to finish: 0 out of 1 new replicas have been updated...`},
		{Namespace: shop, Name: "api", Replicas: 2, Paused: true,
			Status: `Waiting for deployment "api" rollout to finish: 0 out of 2 new replicas have been updated...`},
		{Namespace: shop, Name: "frontend", Replicas: 4, Total: 5, Updated: 2, Available: 4,
			Status: `Waiting for deployment "frontend" rollout to finish: 2 out of 4 new replicas have been updated...`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Deployments:\n got %+v\nwant %+v", got, want)
	}
}

func TestApplyReportsChange(t *testing.T) {
	d := deployment("api", "api:v1", 2, "1")
	d.ResourceVersion = "10"
	c := cluster.NewCluster()
	if !c.Apply(cluster.Batch{At: t0, Objects: []runtime.Object{d}, Watch: synced}) {
		t.Error("first Apply reported no change")
	}
	if c.Apply(cluster.Batch{At: at(1), Objects: []runtime.Object{d}, Watch: synced}) {
		t.Error("re-applying the same resourceVersion reported a change")
	}
	e := d.DeepCopy()
	e.ResourceVersion = "11"
	if !c.Apply(cluster.Batch{At: at(2), Objects: []runtime.Object{e}, Watch: synced}) {
		t.Error("a new resourceVersion reported no change")
	}
	lost := cluster.WatchStatus{Synced: true, Problem: "connection refused", Since: at(3)}
	if !c.Apply(cluster.Batch{At: at(3), Watch: lost}) || c.Watch() != lost {
		t.Errorf("Watch() = %+v after a failing batch, want %+v", c.Watch(), lost)
	}
	if c.Apply(cluster.Batch{At: at(4), Deleted: []cluster.ObjectRef{{Kind: "Pod", Namespace: shop, Name: "nope"}}, Watch: lost}) {
		t.Error("deleting an unknown pod reported a change")
	}
}
