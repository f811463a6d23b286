package cluster_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"rollscope/model"
	"rollscope/model/cluster"
	"rollscope/model/kind"
)

// A fleet of hand-built workloads, each the way the controllers leave it in
// one state, and what the fleet reads from it.

// rolledOut is a deployment complete at revision 2 on web:v2: its
// ReplicaSet and three ready pods, spread over node-1..3.
func rolledOut(name string) (*appsv1.Deployment, *appsv1.ReplicaSet, []*corev1.Pod) {
	d := deployment(name, "web:v2", 3, "2")
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3,
		Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue,
			Reason: "NewReplicaSetAvailable", LastUpdateTime: metav1.NewTime(at(2))}}}
	old := ownedReplicaSet(d, "v1", "1", "web:v1", 0, 0, at(0))
	rs := ownedReplicaSet(d, "v2", "2", "web:v2", 3, 3, at(1))
	rs.Annotations[model.ChangeCauseAnnotation] = "kubectl set image deployment/" + name + " web=web:v2"
	var pods []*corev1.Pod
	for i, s := range []string{"a", "b", "c"} {
		pods = append(pods, runningPod(rs, s, "node-"+string(rune('1'+i))))
	}
	_ = old
	return d, rs, pods
}

func objects(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, pods []*corev1.Pod, more ...runtime.Object) []runtime.Object {
	out := []runtime.Object{d}
	for _, rs := range rss {
		out = append(out, rs)
	}
	for _, p := range pods {
		out = append(out, p)
	}
	return append(out, more...)
}

func nodes() []runtime.Object {
	return []runtime.Object{groupNode("node-1", "nodes", "v1", at(0)), groupNode("node-2", "nodes", "v1", at(0)), groupNode("node-3", "nodes", "v1", at(0))}
}

// rolling is frontend mid-rollout from web:v1 to web:v2 (newMidRollout),
// its last progress at minute 10.
func rolling() midRollout {
	m := newMidRollout()
	m.d.Status.Conditions[1].LastUpdateTime = metav1.NewTime(at(10))
	return m
}

func crashLooping(p *corev1.Pod, restarts int32) {
	p.Status.Phase = corev1.PodRunning
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}
	p.Status.ContainerStatuses = make([]corev1.ContainerStatus, 1)
	p.Status.ContainerStatuses[0] = corev1.ContainerStatus{Name: "web", RestartCount: restarts,
		State:                corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}},
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error"}}}
}

// unplaced is a rollout whose last new pod fits on no node.
func unplaced() []runtime.Object {
	m := rolling()
	p := m.pods[4]
	p.Spec.NodeName = ""
	p.Status.ContainerStatuses = nil
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse,
		Reason: corev1.PodReasonUnschedulable, Message: "0/3 nodes are available: 3 Insufficient cpu."}}
	return m.objects()
}

func fleetOf(t *testing.T, now time.Time, objs ...runtime.Object) []cluster.FleetRow {
	t.Helper()
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: now, Objects: objs, Watch: synced})
	return c.Fleet("", now)
}

func rowOf(t *testing.T, rows []cluster.FleetRow, ref string) cluster.FleetRow {
	t.Helper()
	for _, r := range rows {
		if r.Ref() == ref {
			return r
		}
	}
	t.Fatalf("no row %s in %+v", ref, rows)
	return cluster.FleetRow{}
}

// Every state, from the objects as the API serves them.
func TestFleetStates(t *testing.T) {
	cases := []struct {
		name    string
		objects func() []runtime.Object
		now     time.Time
		ref     string
		state   cluster.FleetState
		word    string
		why     string // a part of Why
	}{
		{name: "complete", ref: "deploy/web", state: cluster.FleetComplete, word: "complete", now: at(20),
			objects: func() []runtime.Object {
				d, rs, pods := rolledOut("web")
				return objects(d, []*appsv1.ReplicaSet{rs}, pods, nodes()...)
			}},
		{name: "failed: progress deadline exceeded, as kubectl rollout status exits 1, with what held it", ref: "deploy/frontend", state: cluster.FleetFailed, word: "failed", now: at(11),
			why: "not ready for 1m0s: ContainerCreating · progress deadline exceeded after 600s",
			objects: func() []runtime.Object {
				m := rolling()
				m.d.Status.Conditions[1] = appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionFalse,
					Reason: model.ReasonProgressDeadlineExceeded, LastUpdateTime: metav1.NewTime(at(10))}
				return m.objects()
			}},
		{name: "stuck: the blocker names an image that cannot be pulled", ref: "deploy/frontend", state: cluster.FleetStuck, word: "stuck", now: at(10).Add(5 * time.Second),
			why: "new image cannot be pulled — web:v2: ImagePullBackOff",
			objects: func() []runtime.Object {
				m := rolling()
				p := m.pods[4]
				p.Status.ContainerStatuses[0].Image = "web:v2"
				p.Status.ContainerStatuses[0].State.Waiting.Reason = "ImagePullBackOff"
				return m.objects()
			}},
		{name: "rolling: a new pod that fits on no node yet waits, as a cluster starting or scaling up", ref: "deploy/frontend", state: cluster.FleetRolling, word: "rolling", now: at(11),
			why: "new pods cannot be scheduled — 0/3 nodes are available: 3 Insufficient cpu", objects: unplaced},
		{name: "stuck: a new pod that fits on no node, once nothing moved for FleetStuckAfter", ref: "deploy/frontend", state: cluster.FleetStuck, word: "stuck", now: at(13),
			why: "no progress for 3m0s — new pods cannot be scheduled — 0/3 nodes", objects: unplaced},
		{name: "stuck: no progress for FleetStuckAfter", ref: "deploy/frontend", state: cluster.FleetStuck, word: "stuck", now: at(13),
			why: "no progress for 3m0s — ", objects: func() []runtime.Object { return rolling().objects() }},
		{name: "rolling: moved within FleetStuckAfter", ref: "deploy/frontend", state: cluster.FleetRolling, word: "rolling", now: at(11),
			why: "for 1m0s: ContainerCreating", objects: func() []runtime.Object { return rolling().objects() }},
		{name: "crash-looping: a pod of a rolled-out deployment", ref: "deploy/web", state: cluster.FleetCrashLooping, word: "crash-looping", now: at(20),
			why: "pod web-v2-b restarted 7 times (CrashLoopBackOff)",
			objects: func() []runtime.Object {
				d, rs, pods := rolledOut("web")
				crashLooping(pods[1], 7)
				return objects(d, []*appsv1.ReplicaSet{rs}, pods, nodes()...)
			}},
		{name: "a container that restarted long ago and runs ready is not crash-looping", ref: "deploy/web", state: cluster.FleetComplete, word: "complete", now: at(20),
			objects: func() []runtime.Object {
				d, rs, pods := rolledOut("web")
				cs := &pods[1].Status.ContainerStatuses[0]
				cs.RestartCount = 3
				cs.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "OOMKilled"}
				return objects(d, []*appsv1.ReplicaSet{rs}, pods, nodes()...)
			}},
		{name: "crash-looping: the new pods of a rollout", ref: "deploy/frontend", state: cluster.FleetCrashLooping, word: "crash-looping", now: at(11),
			why: "new pods crash-loop — frontend-v2-b restarted 4 times, last exit 1 (Error)",
			objects: func() []runtime.Object {
				m := rolling()
				crashLooping(m.pods[4], 4)
				return m.objects()
			}},
		{name: "paused", ref: "deploy/frontend", state: cluster.FleetPaused, word: "paused", now: at(30),
			why: "resume with r", objects: func() []runtime.Object {
				m := rolling()
				m.d.Spec.Paused = true
				return m.objects()
			}},
		{name: "canary: the step from its annotations", ref: "deploy/web", state: cluster.FleetCanary, word: "canary step 1/3", now: at(30),
			why: "1 pod on the new version, holding for promote", objects: func() []runtime.Object { return heldCanary("") }},
		{name: "canary with a failed gate reads stuck and names the gate", ref: "deploy/web", state: cluster.FleetStuck, word: "stuck", now: at(4),
			why:     "canary step 1/3: gate failed — pod web-bbb-x: CrashLoopBackOff (3 restarts)",
			objects: func() []runtime.Object { return heldCanary("pod web-bbb-x: CrashLoopBackOff (3 restarts)") }},
		{name: "node roll: a pod on a node a drain is emptying", ref: "deploy/web", state: cluster.FleetNodeRoll, word: "node roll", now: at(20),
			why: "moving off nodes being drained", objects: func() []runtime.Object {
				return webWithNode2Cordoned(map[string]string{model.DrainStateAnnotation: model.DrainDraining})
			}},
		{name: "a cordoned node alone moves nothing", ref: "deploy/web", state: cluster.FleetComplete, word: "complete", now: at(20),
			objects: func() []runtime.Object { return webWithNode2Cordoned(nil) }},
		{name: "stuck: a drain its budget holds back from one of its pods", ref: "deploy/web", state: cluster.FleetStuck, word: "stuck", now: at(20),
			why: "drain of node-2 blocked by PodDisruptionBudget web", objects: func() []runtime.Object {
				return webWithNode2Cordoned(map[string]string{model.DrainStateAnnotation: model.DrainBlocked,
					model.DrainBlockedAnnotation: model.BudgetHold{Pod: "shop/web-v2-b", Namespace: shop, Name: "web", Needed: 3, Healthy: 3}.String()})
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := rowOf(t, fleetOf(t, tc.now, tc.objects()...), tc.ref)
			if r.State != tc.state || r.Word != tc.word || !strings.Contains(r.Why, tc.why) {
				t.Errorf("%s reads %s %q — %q, want %s %q with %q", tc.ref, r.State, r.Word, r.Why, tc.state, tc.word, tc.why)
			}
			if tc.state == cluster.FleetComplete && r.Why != "" {
				t.Errorf("a complete row says why: %q", r.Why)
			}
		})
	}
}

// webWithNode2Cordoned is web rolled out on the nodes with node-2 cordoned
// and annotated as a drain marks it (nothing more when annotations is nil).
func webWithNode2Cordoned(annotations map[string]string) []runtime.Object {
	d, rs, pods := rolledOut("web")
	ns := nodes()
	n := ns[1].(*corev1.Node)
	n.Spec.Unschedulable = true
	maps.Copy(n.Annotations, annotations)
	return objects(d, []*appsv1.ReplicaSet{rs}, pods, ns...)
}

// The columns besides the state: revision, images from → to while rolling,
// the figures, when the rollout began and kubectl's change-cause.
func TestFleetRowColumns(t *testing.T) {
	m := rolling()
	m.newRS.Annotations[model.ChangeCauseAnnotation] = "kubectl set image deployment/frontend web=web:v2"
	r := rowOf(t, fleetOf(t, at(11), m.objects()...), "deploy/frontend")
	if r.Namespace != shop || r.Revision != 2 || r.Desired != 4 || r.Updated != 2 || r.Available != 4 {
		t.Errorf("row %+v: want shop, revision 2, 2/4 updated, 4 available", r)
	}
	if strings.Join(r.Images, ",") != "web=web:v2" || strings.Join(r.From, ",") != "web=web:v1" {
		t.Errorf("images %v from %v, want web=web:v2 from web=web:v1", r.Images, r.From)
	}
	if !r.Since.Equal(at(10)) || r.ChangeCause != "kubectl set image deployment/frontend web=web:v2" {
		t.Errorf("since %v cause %q: want the new ReplicaSet's creation (minute 10) and its change-cause", r.Since, r.ChangeCause)
	}
	d, rs, pods := rolledOut("web")
	done := rowOf(t, fleetOf(t, at(20), objects(d, []*appsv1.ReplicaSet{rs}, pods)...), "deploy/web")
	if done.From != nil || done.Revision != 2 || done.ChangeCause != "kubectl set image deployment/web web=web:v2" {
		t.Errorf("rolled-out row %+v: want no From, revision 2 and the change-cause", done)
	}
}

// "No progress for 3m" counts from the last movement of the figures as the
// watch delivered them, not from the Progressing condition alone: a
// ReplicaSet's ready count moving (the controller has not yet touched the
// condition) keeps the rollout rolling.
func TestFleetStuckCountsFromTheLastMovement(t *testing.T) {
	m := rolling()
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: at(10), Objects: m.objects(), Watch: synced})
	if r := c.Fleet(shop, at(11))[0]; r.State != cluster.FleetRolling {
		t.Fatalf("a minute after its last progress: %s — %s", r.State, r.Why)
	}
	if r := c.Fleet(shop, at(12)); r[0].State != cluster.FleetStuck || !strings.HasPrefix(r[0].Why, "no progress for 2m0s") {
		t.Fatalf("two minutes without progress: %s — %s", r[0].State, r[0].Why)
	}
	// The new pod becomes ready at minute 12: the ReplicaSet's figures move.
	rs := m.newRS.DeepCopy()
	rs.Status.ReadyReplicas = 2
	c.Apply(cluster.Batch{At: at(12).Add(30 * time.Second), Objects: []runtime.Object{rs}, Watch: synced})
	r := c.Fleet(shop, at(14))[0]
	if r.State != cluster.FleetRolling || !r.Changed.Equal(at(12).Add(30*time.Second)) {
		t.Fatalf("moved at 12:30, read at 14:00: %s (changed %v) — %s", r.State, r.Changed, r.Why)
	}
	if r := c.Fleet(shop, at(15)); r[0].State != cluster.FleetStuck || !strings.HasPrefix(r[0].Why, "no progress for 2m30s") {
		t.Fatalf("2m30s after the last movement: %s — %s", r[0].State, r[0].Why)
	}
	// An object delivered again unchanged is no movement.
	same := m.d.DeepCopy()
	same.ResourceVersion = "7"
	c.Apply(cluster.Batch{At: at(15), Objects: []runtime.Object{same}, Watch: synced})
	if r := c.Fleet(shop, at(15)); r[0].State != cluster.FleetStuck {
		t.Errorf("a re-delivered deployment reset the clock: %s — %s", r[0].State, r[0].Why)
	}
}

// A row follows what Apply delivers after it was first read: the cache is
// marked by the pod's change.
func TestFleetFollowsChanges(t *testing.T) {
	d, rs, pods := rolledOut("web")
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: at(20), Objects: objects(d, []*appsv1.ReplicaSet{rs}, pods, nodes()...), Watch: synced})
	if r := c.Fleet("", at(20))[0]; r.State != cluster.FleetComplete {
		t.Fatalf("before: %s", r.State)
	}
	p := pods[2].DeepCopy()
	crashLooping(p, 3)
	c.Apply(cluster.Batch{At: at(21), Objects: []runtime.Object{p}, Watch: synced})
	if r := c.Fleet("", at(21))[0]; r.State != cluster.FleetCrashLooping || !strings.Contains(r.Why, "web-v2-c") {
		t.Fatalf("after a pod crash-loops: %s — %s", r.State, r.Why)
	}
	c.Apply(cluster.Batch{At: at(22), Deleted: []cluster.ObjectRef{{Kind: "Pod", Namespace: shop, Name: p.Name}}, Watch: synced})
	if r := c.Fleet("", at(22))[0]; r.State != cluster.FleetComplete {
		t.Fatalf("after the pod is gone: %s — %s", r.State, r.Why)
	}
	c.Apply(cluster.Batch{At: at(23), Deleted: []cluster.ObjectRef{{Kind: "Deployment", Namespace: shop, Name: "web"}}, Watch: synced})
	if rows := c.Fleet("", at(23)); len(rows) != 0 {
		t.Fatalf("a deleted deployment keeps its row: %+v", rows)
	}
}

// A drain evicts one of a rolled-out deployment's pods: while its
// replacement comes up the deployment is short of available pods, which
// kubectl calls an unfinished rollout; the fleet calls it a node roll until
// the deployment is whole again.
func TestFleetNodeRollFollowsAPodOffADrainedNode(t *testing.T) {
	d, rs, pods := rolledOut("web")
	ns := nodes()
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: at(20), Objects: objects(d, []*appsv1.ReplicaSet{rs}, pods, ns...), Watch: synced})
	n := ns[1].(*corev1.Node).DeepCopy()
	n.Spec.Unschedulable = true
	c.Apply(cluster.Batch{At: at(21), Objects: []runtime.Object{n}, Watch: synced})
	c.Apply(cluster.Batch{At: at(21), Deleted: []cluster.ObjectRef{{Kind: "Pod", Namespace: shop, Name: pods[1].Name}}, Watch: synced})
	// The deployment's status says it is short a batch later.
	if r := c.Fleet("", at(21))[0]; r.State != cluster.FleetComplete {
		t.Fatalf("before the deployment's status moved: %s — %s", r.State, r.Why)
	}
	// Its ReplicaSet has not yet created the replacement: every count is
	// short by one.
	short := d.DeepCopy()
	short.Status.Replicas, short.Status.UpdatedReplicas, short.Status.AvailableReplicas, short.Status.ReadyReplicas = 2, 2, 2, 2
	c.Apply(cluster.Batch{At: at(21), Objects: []runtime.Object{short}, Watch: synced})
	if r := c.Fleet("", at(21))[0]; r.State != cluster.FleetNodeRoll {
		t.Fatalf("a pod evicted off a cordoned node, no replacement yet: %s — %s", r.State, r.Why)
	}
	// The replacement is created and not yet available.
	short = d.DeepCopy()
	short.Status.AvailableReplicas, short.Status.ReadyReplicas = 2, 2
	c.Apply(cluster.Batch{At: at(21), Objects: []runtime.Object{short}, Watch: synced})
	if r := c.Fleet("", at(21))[0]; r.State != cluster.FleetNodeRoll {
		t.Fatalf("a pod evicted off a cordoned node, its replacement coming up: %s — %s", r.State, r.Why)
	}
	c.Apply(cluster.Batch{At: at(22), Objects: []runtime.Object{d.DeepCopy(), runningPod(rs, "d", "node-3")}, Watch: synced})
	if r := c.Fleet("", at(22))[0]; r.State != cluster.FleetComplete {
		t.Fatalf("whole again: %s — %s", r.State, r.Why)
	}
}

// StatefulSets: a partition held above 0 with the update pending is a
// canary; one holding every pod is paused; OnDelete with an update pending
// waits for deletions.
func TestFleetStatefulSets(t *testing.T) {
	set := func(partition int32, updated int32, pending bool) *appsv1.StatefulSet {
		replicas := int32(5)
		s := &appsv1.StatefulSet{
			ObjectMeta: metav1.ObjectMeta{Namespace: shop, Name: "db", UID: "uid-db", Generation: 3, CreationTimestamp: metav1.NewTime(at(0))},
			Spec: appsv1.StatefulSetSpec{Replicas: &replicas, Template: podTemplate("db", "db:2"),
				UpdateStrategy: appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType,
					RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: &partition}}},
			Status: appsv1.StatefulSetStatus{ObservedGeneration: 3, Replicas: 5, ReadyReplicas: 5, AvailableReplicas: 5, CurrentReplicas: 5 - updated,
				UpdatedReplicas: updated, CurrentRevision: "db-1", UpdateRevision: "db-1"},
		}
		if pending {
			s.Status.UpdateRevision = "db-2"
		}
		return s
	}
	onDelete := set(0, 1, true)
	onDelete.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType}
	rolling := set(0, 2, true)
	rolling.Status.ReadyReplicas = 4
	cases := []struct {
		name  string
		set   *appsv1.StatefulSet
		state cluster.FleetState
		word  string
		why   string
	}{
		{"complete", set(0, 5, false), cluster.FleetComplete, "complete", ""},
		{"rolling", rolling, cluster.FleetRolling, "rolling", "Waiting for 1 pods to be ready"},
		{"partition canary", set(3, 2, true), cluster.FleetCanary, "canary 2/5 pods", "partition 3"},
		{"partition holding every pod", set(5, 0, true), cluster.FleetPaused, "paused", "lower it (sts-partition)"},
		{"OnDelete with an update pending", onDelete, cluster.FleetPaused, "paused", "OnDelete: 1 of 5 pods updated"},
		{"a partition with nothing pending", set(2, 5, false), cluster.FleetComplete, "complete", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := rowOf(t, fleetOf(t, at(5), tc.set), "sts/db")
			if r.State != tc.state || r.Word != tc.word || !strings.Contains(r.Why, tc.why) {
				t.Errorf("sts/db reads %s %q — %q, want %s %q with %q", r.State, r.Word, r.Why, tc.state, tc.word, tc.why)
			}
		})
	}
}

// A crash-looping pod of a DaemonSet outranks its rollout.
func TestFleetDaemonSets(t *testing.T) {
	ds := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: shop, Name: "agent", UID: "uid-agent", Generation: 2},
		Spec: appsv1.DaemonSetSpec{Template: podTemplate("agent", "agent:2"),
			UpdateStrategy: appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType}},
		Status: appsv1.DaemonSetStatus{ObservedGeneration: 2, DesiredNumberScheduled: 3, CurrentNumberScheduled: 3, UpdatedNumberScheduled: 1, NumberAvailable: 2, NumberReady: 2},
	}
	r := rowOf(t, fleetOf(t, at(5), ds), "ds/agent")
	if r.State != cluster.FleetRolling || !strings.Contains(r.Why, "1 out of 3 new pods have been updated") {
		t.Errorf("rolling DaemonSet reads %s — %s", r.State, r.Why)
	}
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: shop, Name: "agent-x", OwnerReferences: controlledBy("DaemonSet", "agent", "uid-agent")},
		Spec:   corev1.PodSpec{NodeName: "node-1"},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady}}, ContainerStatuses: []corev1.ContainerStatus{{}}}}
	crashLooping(p, 9)
	r = rowOf(t, fleetOf(t, at(5), ds, p), "ds/agent")
	if r.State != cluster.FleetCrashLooping || !strings.Contains(r.Why, "agent-x restarted 9 times") {
		t.Errorf("DaemonSet with a crash-looping pod reads %s — %s", r.State, r.Why)
	}
}

func replicationController(name, image string, replicas, available int32, annotations map[string]string) *corev1.ReplicationController {
	return &corev1.ReplicationController{
		ObjectMeta: metav1.ObjectMeta{Namespace: shop, Name: name, UID: types.UID("uid-" + name), Annotations: annotations, CreationTimestamp: metav1.NewTime(at(0))},
		Spec:       corev1.ReplicationControllerSpec{Replicas: &replicas, Template: &corev1.PodTemplateSpec{Spec: podTemplate(name, image).Spec}},
		Status:     corev1.ReplicationControllerStatus{Replicas: replicas, ReadyReplicas: available, AvailableReplicas: available},
	}
}

// An RC rolling update is one row, under the old controller's name,
// rolling from its image to the next controller's.
func TestFleetRCRollingUpdate(t *testing.T) {
	old := replicationController("legacy", "app:1", 2, 2, map[string]string{model.RCNextAnnotation: "legacy-next", model.RCOriginalAnnotation: "3"})
	next := replicationController("legacy-next", "app:2", 1, 1, map[string]string{model.RCSourceAnnotation: "legacy:uid-legacy", model.RCDesiredAnnotation: "3"})
	next.CreationTimestamp = metav1.NewTime(at(4))
	rows := fleetOf(t, at(5), old, next)
	if len(rows) != 1 {
		t.Fatalf("an update is one row, got %+v", rows)
	}
	r := rows[0]
	if r.Ref() != "rc/legacy" || r.State != cluster.FleetRolling || strings.Join(r.From, ",") != "web=app:1" || strings.Join(r.Images, ",") != "web=app:2" {
		t.Errorf("row %s %s from %v to %v, want rc/legacy rolling from app:1 to app:2", r.Ref(), r.State, r.From, r.Images)
	}
	if r.Desired != 3 || r.Updated != 1 || r.Available != 3 || !r.Since.Equal(at(4)) {
		t.Errorf("figures %d/%d updated, %d available, since %v: want 1/3, 3, minute 4", r.Updated, r.Desired, r.Available, r.Since)
	}
	// The update progresses as the next controller grows.
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: at(5), Objects: []runtime.Object{old, next}, Watch: synced})
	grown := next.DeepCopy()
	grown.Spec.Replicas, grown.Status.Replicas, grown.Status.AvailableReplicas = ref(int32(2)), 2, 2
	c.Apply(cluster.Batch{At: at(9), Objects: []runtime.Object{grown}, Watch: synced})
	if r := c.Fleet("", at(10))[0]; r.State != cluster.FleetRolling || r.Updated != 2 {
		t.Errorf("a minute after the next controller grew: %s, %d updated — %s", r.State, r.Updated, r.Why)
	}
	if r := c.Fleet("", at(11)); r[0].State != cluster.FleetStuck {
		t.Errorf("two minutes after it last grew: %s — %s", r[0].State, r[0].Why)
	}
	plain := rowOf(t, fleetOf(t, at(5), replicationController("plain", "app:1", 2, 2, nil)), "rc/plain")
	if plain.State != cluster.FleetComplete {
		t.Errorf("a controller with no update reads %s — %s", plain.State, plain.Why)
	}
}

// The order: failed, stuck, crash-looping, paused, canary, rolling, node
// roll, complete; within a state the most recently changed first.
func TestFleetUrgencyOrder(t *testing.T) {
	var objs []runtime.Object
	add := func(name string, edit func(d *appsv1.Deployment, rs *appsv1.ReplicaSet, pods []*corev1.Pod)) {
		d, rs, pods := rolledOut(name)
		edit(d, rs, pods)
		objs = append(objs, objects(d, []*appsv1.ReplicaSet{rs}, pods)...)
	}
	progressing := func(minute int) func(d *appsv1.Deployment, rs *appsv1.ReplicaSet, pods []*corev1.Pod) {
		return func(d *appsv1.Deployment, rs *appsv1.ReplicaSet, pods []*corev1.Pod) {
			d.Status.UpdatedReplicas, d.Status.AvailableReplicas = 2, 2
			d.Status.Conditions[0].Reason, d.Status.Conditions[0].LastUpdateTime = "ReplicaSetUpdated", metav1.NewTime(at(minute))
		}
	}
	add("a-complete-old", func(d *appsv1.Deployment, _ *appsv1.ReplicaSet, _ []*corev1.Pod) {})
	add("b-complete-new", func(d *appsv1.Deployment, _ *appsv1.ReplicaSet, _ []*corev1.Pod) {
		d.Status.Conditions[0].LastUpdateTime = metav1.NewTime(at(15))
	})
	add("c-rolling", progressing(19))
	add("d-stuck", progressing(10))
	add("e-paused", func(d *appsv1.Deployment, _ *appsv1.ReplicaSet, _ []*corev1.Pod) { d.Spec.Paused = true })
	add("f-crash", func(_ *appsv1.Deployment, _ *appsv1.ReplicaSet, pods []*corev1.Pod) { crashLooping(pods[0], 5) })
	add("g-failed", func(d *appsv1.Deployment, _ *appsv1.ReplicaSet, _ []*corev1.Pod) {
		d.Status.Conditions[0] = appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionFalse, Reason: model.ReasonProgressDeadlineExceeded}
	})
	add("h-noderoll", func(_ *appsv1.Deployment, _ *appsv1.ReplicaSet, pods []*corev1.Pod) {
		pods[0].Spec.NodeName = "draining"
	})
	drained := groupNode("draining", "nodes", "v1", at(0))
	drained.Annotations[model.RollNodeAnnotation] = model.RollStepDraining
	objs = append(objs, drained)
	objs = append(objs, heldCanary("")...)
	var got []string
	for _, r := range fleetOf(t, at(20), objs...) {
		got = append(got, r.Name+":"+r.State.String())
	}
	want := []string{"g-failed:failed", "d-stuck:stuck", "f-crash:crash-looping", "e-paused:paused", "web:canary", "c-rolling:rolling",
		"h-noderoll:node roll", "b-complete-new:complete", "a-complete-old:complete"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("order\n got %v\nwant %v", got, want)
	}
}

// Namespaces lists those holding workloads and those the watch saw.
func TestFleetNamespaces(t *testing.T) {
	c := cluster.NewCluster()
	other := replicationController("x", "app:1", 1, 1, nil)
	other.Namespace = "billing"
	d, _, _ := rolledOut("web")
	c.Apply(cluster.Batch{At: at(1), Objects: []runtime.Object{d, other, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "empty"}}}, Watch: synced})
	if got := strings.Join(c.Namespaces(), " "); got != "billing empty shop" {
		t.Errorf("Namespaces = %s", got)
	}
}

// The plain line: grep-friendly, NAMESPACE KIND/NAME STATE first.
func TestFleetLine(t *testing.T) {
	r := cluster.FleetRow{Namespace: "billing", Kind: kind.Deployment, Name: "ledger", Revision: 4, State: cluster.FleetCanary, Word: "canary step 2/4",
		Desired: 10, Updated: 3, Available: 9, Why: "3 pods on the new version, holding for promote"}
	want := "billing deploy/ledger canary step 2/4 rev 4 3/10 updated 9/10 available — 3 pods on the new version, holding for promote"
	if got := cluster.FleetLine(r); got != want {
		t.Errorf("FleetLine\n got %s\nwant %s", got, want)
	}
}

// The console reads the fleet from its refreshes while the watch applies
// batches: rows derived under the read lock must not race (go test -race).
func TestFleetConcurrentReaders(t *testing.T) {
	d, rs, pods := rolledOut("web")
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: at(20), Objects: objects(d, []*appsv1.ReplicaSet{rs}, pods, nodes()...), Watch: synced})
	done := make(chan bool)
	for range 3 {
		go func() {
			for i := range 200 {
				rows := c.Fleet("", at(20).Add(time.Duration(i)*time.Second))
				if len(rows) != 1 {
					t.Errorf("%d rows", len(rows))
				}
				c.Namespaces()
			}
			done <- true
		}()
	}
	for i := range 200 {
		p := pods[i%3].DeepCopy()
		if i%2 == 0 {
			crashLooping(p, int32(i))
		}
		c.Apply(cluster.Batch{At: at(20).Add(time.Duration(i) * time.Second), Objects: []runtime.Object{p}, Watch: synced})
	}
	for range 3 {
		<-done
	}
}

// Rows keep the urgency order as their states change between refreshes
// (a refresh re-places only the rows that moved).
func TestFleetStaysSortedAsRowsChange(t *testing.T) {
	var objs []runtime.Object
	var all []*corev1.Pod
	var ds []*appsv1.Deployment
	for i := range 12 {
		d, rs, pods := rolledOut(fmt.Sprintf("app-%02d", i))
		d.Status.Conditions[0].LastUpdateTime = metav1.NewTime(at(i % 4))
		objs = append(objs, objects(d, []*appsv1.ReplicaSet{rs}, pods)...)
		all, ds = append(all, pods...), append(ds, d)
	}
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: at(20), Objects: objs, Watch: synced})
	sorted := func(step int, rows []cluster.FleetRow) {
		t.Helper()
		want := slices.Clone(rows)
		cluster.SortFleet(want)
		if len(rows) != 12 || !slices.EqualFunc(rows, want, func(a, b cluster.FleetRow) bool { return a.Name == b.Name }) {
			t.Fatalf("step %d: rows out of order or missing: %v", step, rowNames(rows))
		}
	}
	sorted(0, c.Fleet("", at(20)))
	for step := 1; step <= 30; step++ {
		var batch []runtime.Object
		switch step % 3 {
		case 0:
			p := all[(step*7)%len(all)].DeepCopy()
			crashLooping(p, int32(step))
			batch = append(batch, p)
		case 1:
			d := ds[step%len(ds)].DeepCopy()
			d.Status.UpdatedReplicas = 1
			d.Status.Conditions[0].Reason = "ReplicaSetUpdated"
			batch = append(batch, d)
		case 2:
			d := ds[(step*5)%len(ds)].DeepCopy()
			d.Spec.Paused = step%2 == 0
			batch = append(batch, d)
		}
		c.Apply(cluster.Batch{At: at(20 + step), Objects: batch, Watch: synced})
		sorted(step, c.Fleet("", at(20+step)))
	}
}

func rowNames(rows []cluster.FleetRow) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Name+":"+r.State.String())
	}
	return out
}

// inNamespace moves every namespaced object of objs to ns.
func inNamespace(ns string, objs []runtime.Object) []runtime.Object {
	for _, o := range objs {
		if m, err := meta.Accessor(o); err == nil && m.GetNamespace() != "" {
			m.SetNamespace(ns)
		}
	}
	return objs
}

// A fleet narrowed to one namespace counts what is urgent in the others:
// failed and crash-looping as failing, stuck as stuck; the namespace shown
// and a fleet of every namespace count nothing.
func TestUrgentOutsideCountsOtherNamespaces(t *testing.T) {
	var objs []runtime.Object
	d, rs, pods := rolledOut("web")
	objs = append(objs, inNamespace("shop", objects(d, []*appsv1.ReplicaSet{rs}, pods, nodes()...))...)
	failed := rolling()
	failed.d.Status.Conditions[1] = appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionFalse,
		Reason: model.ReasonProgressDeadlineExceeded, LastUpdateTime: metav1.NewTime(at(10))}
	objs = append(objs, inNamespace("billing", failed.objects())...)
	d, rs, pods = rolledOut("api")
	crashLooping(pods[1], 7)
	objs = append(objs, inNamespace("search", objects(d, []*appsv1.ReplicaSet{rs}, pods))...)
	stuck := rolling()
	stuck.pods[4].Status.ContainerStatuses[0].Image = "web:v2"
	stuck.pods[4].Status.ContainerStatuses[0].State.Waiting.Reason = "ImagePullBackOff"
	objs = append(objs, inNamespace("platform", stuck.objects())...)
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: at(11), Objects: objs, Watch: synced})
	all := c.Fleet("", at(11))
	states := map[string]cluster.FleetState{}
	for _, r := range all {
		states[r.Namespace] = r.State
	}
	if want := (map[string]cluster.FleetState{"shop": cluster.FleetComplete, "billing": cluster.FleetFailed,
		"search": cluster.FleetCrashLooping, "platform": cluster.FleetStuck}); !maps.Equal(states, want) {
		t.Fatalf("the fixture's states are %v, want %v", states, want)
	}
	for _, tc := range []struct {
		ns   string
		want cluster.Urgent
	}{
		{"shop", cluster.Urgent{Failing: 2, Stuck: 1}},
		{"billing", cluster.Urgent{Failing: 1, Stuck: 1}},
		{"platform", cluster.Urgent{Failing: 2}},
		{"", cluster.Urgent{}},
	} {
		if got := cluster.UrgentOutside(all, tc.ns); got != tc.want || got.Any() != (tc.want != cluster.Urgent{}) {
			t.Errorf("UrgentOutside(%q) = %+v, want %+v", tc.ns, got, tc.want)
		}
	}
}

// A Deployment's new ReplicaSet is found again when a spec moves — the
// Deployment's template or a ReplicaSet's — and not for a status write,
// after which the row still reads the ReplicaSet as it now is.
func TestFleetFindsTheNewReplicaSetAgainWhenASpecMoves(t *testing.T) {
	m := rolling()
	m.oldRS.Generation, m.newRS.Generation = 1, 1
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: at(10), Objects: m.objects(), Watch: synced})
	if r := c.Fleet(shop, at(10))[0]; r.Revision != 2 || !r.Since.Equal(at(10)) {
		t.Fatalf("rolling to web:v2: revision %d since %v, want 2 since minute 10", r.Revision, r.Since)
	}

	// A status write, with a change-cause annotated: same generation.
	const cause = "kubectl set image deployment/frontend web=web:v2"
	rs := m.newRS.DeepCopy()
	rs.Status.ReadyReplicas = 2
	rs.Annotations[model.ChangeCauseAnnotation] = cause
	c.Apply(cluster.Batch{At: at(11), Objects: []runtime.Object{rs}, Watch: synced})
	if r := c.Fleet(shop, at(11))[0]; r.ChangeCause != cause {
		t.Fatalf("after the new ReplicaSet's status write: change-cause %q, want %q", r.ChangeCause, cause)
	}

	// Scaled up (generation 2, the template as it was): still the new
	// ReplicaSet, read as it now is.
	scaled := rs.DeepCopy()
	scaled.Generation = 2
	scaled.Spec.Replicas = ptr.To[int32](4)
	scaled.Annotations[model.ChangeCauseAnnotation] = cause + " # scaled"
	c.Apply(cluster.Batch{At: at(11), Objects: []runtime.Object{scaled}, Watch: synced})
	if r := c.Fleet(shop, at(11))[0]; r.ChangeCause != cause+" # scaled" || r.Revision != 2 {
		t.Fatalf("after the new ReplicaSet was scaled: revision %d, change-cause %q, want 2 and %q", r.Revision, r.ChangeCause, cause+" # scaled")
	}

	// Its template edited (generation 3): it runs the Deployment's template
	// no more, and the Deployment has no new ReplicaSet.
	edited := scaled.DeepCopy()
	edited.Generation = 3
	edited.Spec.Template.Spec.Containers[0].Image = "web:v3"
	c.Apply(cluster.Batch{At: at(12), Objects: []runtime.Object{edited}, Watch: synced})
	if r := c.Fleet(shop, at(12))[0]; r.ChangeCause != "" {
		t.Fatalf("after the ReplicaSet's template moved to web:v3: change-cause %q, want none (no new ReplicaSet)", r.ChangeCause)
	}

	// The Deployment rolled back to web:v1 (generation 3): its new
	// ReplicaSet is the one at revision 1.
	d := m.d.DeepCopy()
	d.Generation = 3
	d.Spec.Template = podTemplate("frontend", "web:v1")
	d.Annotations[model.RevisionAnnotation] = "3"
	c.Apply(cluster.Batch{At: at(13), Objects: []runtime.Object{d}, Watch: synced})
	if r := c.Fleet(shop, at(13))[0]; r.Revision != 1 {
		t.Fatalf("after the rollback to web:v1: revision %d, want 1 (the web:v1 ReplicaSet's)", r.Revision)
	}
}
