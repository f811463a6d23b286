package cluster_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model"
	"rollscope/model/cluster"
)

// blockerNow is the moment every case is read at.
var blockerNow = time.Date(2026, 11, 21, 14, 10, 0, 0, time.UTC)

// rollout is web rolling from registry.local/web:v4 (hash 5c9f) to image
// (hash 7b7d) with replicas, the new ReplicaSet asking for newWant pods.
type rollout struct {
	d            *appsv1.Deployment
	oldRS, newRS *appsv1.ReplicaSet
	pods         []*corev1.Pod
	nodes        []*corev1.Node
	events       map[string][]*corev1.Event
}

func newRollout(image string, replicas, oldWant, newWant int32) *rollout {
	d := deployment("web", image, replicas, "5")
	d.Status.Conditions = []appsv1.DeploymentCondition{
		{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: model.ReasonReplicaSetUpdated},
	}
	r := &rollout{d: d, events: map[string][]*corev1.Event{}}
	r.oldRS = ownedReplicaSet(d, "5c9f", "4", "registry.local/web:v4", oldWant, oldWant, blockerNow.Add(-time.Hour))
	r.newRS = ownedReplicaSet(d, "7b7d", "5", image, newWant, 0, blockerNow.Add(-10*time.Minute))
	for i := range oldWant {
		r.pods = append(r.pods, runningPod(r.oldRS, fmt.Sprintf("o%03d", i), "nodes-1"))
	}
	d.Status.Replicas = oldWant + newWant
	d.Status.UpdatedReplicas = newWant
	d.Status.AvailableReplicas = oldWant
	return r
}

// pod adds a pod of the new ReplicaSet, shaped by how.
func (r *rollout) pod(suffix string, how func(*corev1.Pod)) *corev1.Pod {
	p := runningPod(r.newRS, suffix, "nodes-2")
	p.Spec.Containers[0].Image = r.d.Spec.Template.Spec.Containers[0].Image
	p.Status.ContainerStatuses[0].Image = p.Spec.Containers[0].Image
	p.Status.Conditions[0].LastTransitionTime = metav1.NewTime(blockerNow.Add(-5 * time.Minute))
	if how != nil {
		how(p)
	}
	r.pods = append(r.pods, p)
	return p
}

// terminating adds n pods of the old ReplicaSet deleted 5s ago, with a
// grace period of 30s.
func (r *rollout) terminating(n int) {
	for i := range n {
		p := runningPod(r.oldRS, fmt.Sprintf("t%03d", i), "nodes-1")
		p.DeletionTimestamp = &metav1.Time{Time: blockerNow.Add(-5 * time.Second)}
		p.DeletionGracePeriodSeconds = ref(int64(30))
		r.pods = append(r.pods, p)
	}
}

func (r *rollout) available(n int32) {
	r.newRS.Status.AvailableReplicas, r.newRS.Status.ReadyReplicas = n, n
	r.d.Status.AvailableReplicas += n
}

func (r *rollout) input() cluster.BlockerInput {
	return cluster.BlockerInput{
		Deployment: r.d, ReplicaSets: []*appsv1.ReplicaSet{r.oldRS, r.newRS}, Pods: r.pods, Nodes: r.nodes,
		EventsOf: func(pod string) []*corev1.Event { return r.events[pod] }, Now: blockerNow,
	}
}

func notReady(since time.Time) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		p.Status.Conditions = []corev1.PodCondition{
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
			{Type: corev1.PodReady, Status: corev1.ConditionFalse, Reason: "ContainersNotReady", LastTransitionTime: metav1.NewTime(since)},
		}
		p.Status.ContainerStatuses[0].Ready = false
	}
}

func waitingOn(reason, message string) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		notReady(blockerNow.Add(-time.Minute))(p)
		p.Status.Phase = corev1.PodPending
		p.Status.ContainerStatuses[0].State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: message}}
	}
}

func podEvent(pod, reason, message string, last time.Time) *corev1.Event {
	e := event(pod+"."+reason, "Pod", pod, reason, message, 1, last)
	e.Type = corev1.EventTypeWarning
	return e
}

// blockerCases are one rollout for each kind of blocker line.
var blockerCases = []struct {
	name  string
	build func() *rollout
	want  string
}{
	{"readiness", func() *rollout {
		r := newRollout("registry.local/web:v5", 4, 2, 4)
		r.pod("a001", nil)
		r.pod("a002", nil)
		r.pod("x2x9", notReady(blockerNow.Add(-(3*time.Minute + 12*time.Second))))
		r.pod("y3y3", notReady(blockerNow.Add(-time.Minute)))
		r.available(2)
		r.events["web-7b7d-x2x9"] = []*corev1.Event{
			podEvent("web-7b7d-x2x9", "Unhealthy", "Readiness probe failed: HTTP probe failed with statuscode: 503", blockerNow.Add(-time.Second)),
		}
		return r
	}, "waiting for new pods to become available, 2 of 4 so far — web-7b7d-x2x9 not ready for 3m12s: readiness probe failed"},

	{"unschedulable", func() *rollout {
		r := newRollout("registry.local/web:v5", 6, 4, 3)
		r.pod("a001", func(p *corev1.Pod) {
			p.Spec.NodeName = ""
			p.Status = corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{{
				Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable,
				Message: "0/6 nodes are available: 6 Insufficient cpu. preemption: 0/6 nodes are available: 6 No preemption victims found for incoming pod.",
			}}}
		})
		return r
	}, "new pods cannot be scheduled — 0/6 nodes are available: 6 Insufficient cpu"},

	{"unschedulable, from the scheduler's event alone", func() *rollout {
		r := newRollout("registry.local/web:v5", 6, 4, 3)
		r.pod("a001", func(p *corev1.Pod) {
			p.Spec.NodeName = ""
			p.Status = corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{{
				Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable,
			}}}
		})
		r.events["web-7b7d-a001"] = []*corev1.Event{
			podEvent("web-7b7d-a001", "FailedScheduling", "0/6 nodes are available: 6 Insufficient cpu.", blockerNow),
		}
		return r
	}, "new pods cannot be scheduled — 0/6 nodes are available: 6 Insufficient cpu"},

	{"pull", func() *rollout {
		r := newRollout("registry.local/web:v5", 6, 5, 3)
		r.pod("a001", waitingOn("ImagePullBackOff", `Back-off pulling image "registry.local/web:v5"`))
		r.pod("a002", waitingOn("ErrImagePull", "rpc error: not found"))
		r.pod("a003", waitingOn("ImagePullBackOff", `Back-off pulling image "registry.local/web:v5"`))
		return r
	}, "new image cannot be pulled — registry.local/web:v5: ImagePullBackOff (3 pods)"},

	{"crash loop", func() *rollout {
		r := newRollout("registry.local/web:v5", 6, 5, 2)
		r.pod("a001", func(p *corev1.Pod) {
			waitingOn("CrashLoopBackOff", "back-off 2m40s restarting failed container")(p)
			p.Status.Phase = corev1.PodRunning
			p.Status.ContainerStatuses[0].RestartCount = 3
			p.Status.ContainerStatuses[0].LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error"}
		})
		r.pod("x2x9", func(p *corev1.Pod) {
			waitingOn("CrashLoopBackOff", "back-off 5m0s restarting failed container")(p)
			p.Status.Phase = corev1.PodRunning
			p.Status.ContainerStatuses[0].RestartCount = 5
			p.Status.ContainerStatuses[0].LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error"}
		})
		return r
	}, "new pods crash-loop — web-7b7d-x2x9 restarted 5 times, last exit 1 (Error)"},

	{"paused", func() *rollout {
		r := newRollout("registry.local/web:v5", 4, 3, 2)
		r.d.Spec.Paused = true
		r.d.Status.Conditions = []appsv1.DeploymentCondition{{
			Type: appsv1.DeploymentProgressing, Status: corev1.ConditionUnknown, Reason: model.ReasonDeploymentPaused,
			LastTransitionTime: metav1.NewTime(time.Date(2026, 11, 21, 14, 2, 0, 0, time.UTC)),
		}}
		r.pod("a001", waitingOn("ImagePullBackOff", "")) // paused goes first
		return r
	}, "paused since 14:02:00 — resume with r, or undo with u"},

	{"minReadySeconds", func() *rollout {
		r := newRollout("registry.local/web:v5", 4, 1, 4)
		r.d.Spec.MinReadySeconds = 10
		r.pod("a001", nil) // ready 5m ago: available
		for i, ago := range []time.Duration{6 * time.Second, 3 * time.Second, 2 * time.Second} {
			r.pod(fmt.Sprintf("b%03d", i), func(p *corev1.Pod) {
				p.Status.Conditions[0].LastTransitionTime = metav1.NewTime(blockerNow.Add(-ago))
			})
		}
		r.available(1)
		return r
	}, "minReadySeconds: 3 new pods ready, available in 4s"},

	// A rolling update does not wait for old pods to stop: its surge
	// counts spec.replicas, which they are no longer in, so with the budget
	// full and every new pod available the controller scales the old
	// ReplicaSet down at its next sync, however long they take.
	{"surge budget full while old pods terminate", func() *rollout {
		r := newRollout("registry.local/web:v5", 24, 20, 8)
		four := intstr.FromInt32(4)
		r.d.Spec.Strategy.RollingUpdate.MaxSurge = &four
		r.terminating(2)
		for i := range 8 {
			r.pod(fmt.Sprintf("n%03d", i), nil)
		}
		r.available(8)
		return r
	}, "rolling out: 8 of 24 new pods created, 20 old pods still running"},

	// Recreate starts no new pod until the old ones are gone.
	{"Recreate waits for old pods to terminate", func() *rollout {
		r := newRollout("registry.local/web:v5", 3, 0, 0)
		r.d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
		r.terminating(2)
		return r
	}, "Recreate — waiting for old pods to terminate (2 terminating, grace 30s)"},

	{"drain blocked by a PodDisruptionBudget", func() *rollout {
		r := newRollout("registry.local/web:v5", 3, 0, 3)
		r.newRS.Status.Replicas = 3
		for _, s := range []string{"a", "b", "c"} {
			r.pod(s, nil)
		}
		r.available(3)
		r.d.Status = appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3,
			Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: model.ReasonNewReplicaSetAvailable}}}
		other := groupNode("nodes-1", "nodes", "v1", blockerNow)
		other.Annotations[model.DrainStateAnnotation] = model.DrainBlocked
		other.Annotations[model.DrainBlockedAnnotation] = "shop/cart-1: " + model.BudgetHold{Namespace: shop, Name: "cart-pdb"}.Budget()
		n := groupNode("nodes-2", "nodes", "v1", blockerNow)
		n.Annotations[model.DrainStateAnnotation] = model.DrainBlocked
		n.Annotations[model.DrainBlockedAnnotation] = model.BudgetHold{Pod: "shop/web-7b7d-b", Namespace: shop, Name: "web-pdb", Healthy: 3, Needed: 3}.String()
		r.nodes = []*corev1.Node{other, n}
		return r
	}, "drain of nodes-2 blocked by PodDisruptionBudget web-pdb (0 disruptions allowed)"},

	{"finished, nothing in the way", func() *rollout {
		r := newRollout("registry.local/web:v5", 1, 0, 1)
		r.pod("a", nil)
		r.available(1)
		r.d.Status = appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 1, UpdatedReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 1}
		return r
	}, ""},

	{"nothing blocks: says what is happening", func() *rollout {
		r := newRollout("registry.local/web:v5", 4, 3, 2)
		r.pod("a", nil)
		r.pod("b", nil)
		r.available(2)
		r.newRS.Status.Replicas = 2
		return r
	}, "rolling out: 2 of 4 new pods created, 3 old pods still running"},

	{"running, not ready, and nothing said about why", func() *rollout {
		r := newRollout("registry.local/web:v5", 4, 4, 1)
		r.pod("a001", notReady(blockerNow.Add(-4*time.Minute)))
		r.events["web-7b7d-a001"] = []*corev1.Event{
			podEvent("web-7b7d-a001", "Scheduled", "Successfully assigned shop/web-7b7d-a001 to nodes-2", blockerNow.Add(-4*time.Minute)),
		}
		return r
	}, "waiting for new pods to become available, 0 of 4 so far — web-7b7d-a001 running but not ready for 4m0s: no readiness probe failure recorded"},

	// A readiness gate (a load balancer's target health) holds the pod: the
	// kubelet's words on its Ready condition, not "no probe failure".
	{"running, containers ready, a readiness gate not true", func() *rollout {
		r := newRollout("registry.local/web:v5", 4, 4, 1)
		r.pod("a001", func(p *corev1.Pod) {
			notReady(blockerNow.Add(-2 * time.Minute))(p)
			p.Spec.ReadinessGates = []corev1.PodReadinessGate{{ConditionType: "target-health.elbv2.k8s.aws/web-tg"}}
			p.Status.ContainerStatuses[0].Ready = true
			p.Status.Conditions[1].Reason = "ReadinessGatesNotReady"
			p.Status.Conditions[1].Message = `corresponding condition of pod readiness gate "target-health.elbv2.k8s.aws/web-tg" does not exist.`
		})
		return r
	}, `waiting for new pods to become available, 0 of 4 so far — web-7b7d-a001 not ready for 2m0s: corresponding condition of pod readiness gate "target-health.elbv2.k8s.aws/web-tg" does not exist`},
}

func TestBlocker(t *testing.T) {
	for _, c := range blockerCases {
		t.Run(c.name, func(t *testing.T) {
			if got := cluster.Blocker(c.build().input()); got != c.want {
				t.Errorf("blocker:\n got %q\nwant %q", got, c.want)
			}
		})
	}
}

// Past its progress deadline a rollout's line keeps what held it and adds
// the deadline, whatever the kind of blocker; a rollout where nothing was
// found holding it says how far it got, no longer "rolling out".
func TestBlockerAfterTheDeadlineKeepsItsCause(t *testing.T) {
	const deadline = " · progress deadline exceeded after 600s, the rollout has failed: undo (u) or abort (x)"
	for _, c := range blockerCases {
		r := c.build()
		if c.want == "" || r.d.Spec.Paused || r.d.Status.UpdatedReplicas == r.d.Status.Replicas {
			// Finished, or paused: no deadline runs.
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			r.d.Status.Conditions = []appsv1.DeploymentCondition{{
				Type: appsv1.DeploymentProgressing, Status: corev1.ConditionFalse, Reason: model.ReasonProgressDeadlineExceeded,
				Message: `ReplicaSet "web-7b7d" has timed out progressing.`,
			}}
			want := strings.TrimPrefix(c.want, "rolling out: ") + deadline
			if got := cluster.Blocker(r.input()); got != want {
				t.Errorf("blocker past the deadline:\n got %q\nwant %q", got, want)
			}
		})
	}
}

func TestParseBudgetHold(t *testing.T) {
	h := model.BudgetHold{Pod: "shop/web-1", Namespace: "shop", Name: "web-pdb", Allowed: 0, Healthy: 6, Needed: 6}
	got, ok := model.ParseBudgetHold(h.String())
	if !ok || got != h {
		t.Fatalf("ParseBudgetHold(%q) = %+v, %v; want %+v", h.String(), got, ok, h)
	}
	if _, ok := model.ParseBudgetHold("shop/web-1: eviction refused with 429 (no budget in the cache explains it yet)"); ok {
		t.Error("an entry naming no budget was read as a hold")
	}
}

// The console's picture gives the same line as the objects, and follows
// pods as they go: the slowest pod deleted, the next one is named.
func TestClusterBlockerFollowsPods(t *testing.T) {
	r := newRollout("registry.local/web:v5", 4, 2, 4)
	r.pod("a001", nil)
	r.pod("x2x9", notReady(blockerNow.Add(-(3*time.Minute + 12*time.Second))))
	r.pod("y3y3", notReady(blockerNow.Add(-time.Minute)))
	r.available(1)
	objs := []runtime.Object{r.d, r.oldRS, r.newRS}
	for _, p := range r.pods {
		objs = append(objs, p)
	}
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: blockerNow, Objects: objs, Watch: synced})
	want := cluster.Blocker(r.input())
	if got := c.Blocker(shop, "web", blockerNow); got != want || want == "" {
		t.Fatalf("cluster blocker = %q, objects' = %q; want the same line", got, want)
	}
	c.Apply(cluster.Batch{At: blockerNow, Deleted: []cluster.ObjectRef{{Kind: "Pod", Namespace: shop, Name: "web-7b7d-x2x9"}}, Watch: synced})
	const next = "waiting for new pods to become available, 1 of 4 so far — web-7b7d-y3y3 running but not ready for 1m0s: no readiness probe failure recorded"
	if got := c.Blocker(shop, "web", blockerNow); got != next {
		t.Errorf("after the slowest pod went:\n got %q\nwant %q", got, next)
	}
	if v, _ := c.Rollout(shop, "web", blockerNow); v.Blocker != next {
		t.Errorf("RolloutView.Blocker = %q, want %q", v.Blocker, next)
	}
}
