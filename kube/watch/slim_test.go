package watch

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/model"
	"rollscope/model/cluster"
)

// mixed has the pods an operator meets, all made by the embedded kubelet:
// init containers (one a sidecar), two containers, a crash loop, an image
// that never pulls, pods the scheduler cannot place, and pods that take
// their time to terminate.
const mixed = `
name: mixed
seed: 5
namespace: default
nodeGroups:
  - {name: nodes, size: 2, capacity: {pods: 9, cpu: "4", memory: 16Gi}}
images:
  - {match: "*:crash", pull: 1s, start: 1s, crashLoop: true, logs: ["boom"]}
  - {match: "*:nopull", pullError: true}
  - {match: "*", pull: 1s, start: 1s, ready: 2s, stop: 8s}
objects: |
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 4
    progressDeadlineSeconds: 40
    selector: {matchLabels: {app: web}}
    strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 1}}
    template:
      metadata: {labels: {app: web, tier: front}, annotations: {team: payments}}
      spec:
        terminationGracePeriodSeconds: 20
        initContainers:
          - {name: migrate, image: "registry.example.com/migrate:1"}
          - {name: proxy, image: "registry.example.com/proxy:1", restartPolicy: Always}
        containers:
          - name: app
            image: registry.example.com/web:1
            env: [{name: MODE, value: prod}]
            resources: {requests: {cpu: 100m, memory: 64Mi}}
          - {name: log, image: "registry.example.com/log:1"}
  ---
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: pull}
  spec:
    replicas: 2
    selector: {matchLabels: {app: pull}}
    template:
      metadata: {labels: {app: pull}}
      spec:
        containers: [{name: app, image: "registry.example.com/pull:1"}]
  ---
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: big}
  spec:
    replicas: 3
    selector: {matchLabels: {app: big}}
    template:
      metadata: {labels: {app: big}}
      spec:
        containers:
          - name: app
            image: registry.example.com/big:1
            resources: {requests: {cpu: "3", memory: 1Gi}}
actions:
  - {at: 20s, setImage: {target: deployment/web, container: app, image: "registry.example.com/web:crash"}}
  - {at: 20s, setImage: {target: deployment/pull, container: app, image: "registry.example.com/pull:nopull"}}
  - {at: 70s, undo: {target: deployment/web}}
`

// TestSlimPodsShowTheSameAsFullPods feeds two console pictures the same
// changes from embedded clusters, one the objects as the API server sends
// them and one as the informers' transform keeps them, and asks both every
// view at every instant: slimming must change nothing an operator reads.
func TestSlimPodsShowTheSameAsFullPods(t *testing.T) {
	scenarios := slimScenarios(t)
	for _, sc := range scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			met := compareSlimAndFull(t, sc)
			if sc.Name != "mixed" {
				return
			}
			for _, want := range []string{"ready", "pending", "unschedulable", "CrashLoopBackOff", "ImagePullBackOff",
				"terminating", "init containers", "sidecar", "two containers", "last terminated"} {
				if !met[want] {
					t.Errorf("no %s pod was compared", want)
				}
			}
		})
	}
}

// podKinds are the kinds of pod p is, among those the test must meet.
func podKinds(p *corev1.Pod) []string {
	var kinds []string
	add := func(ok bool, kind string) {
		if ok {
			kinds = append(kinds, kind)
		}
	}
	add(model.IsPodReady(p), "ready")
	add(p.Status.Phase == corev1.PodPending, "pending")
	add(p.DeletionTimestamp != nil, "terminating")
	add(len(p.Spec.InitContainers) > 0 && len(p.Status.InitContainerStatuses) > 0, "init containers")
	add(len(p.Spec.Containers) > 1, "two containers")
	for _, c := range p.Spec.InitContainers {
		add(c.RestartPolicy != nil, "sidecar")
	}
	if c := model.PodCondition(&p.Status, corev1.PodScheduled); c != nil {
		add(c.Reason == corev1.PodReasonUnschedulable, "unschedulable")
	}
	for _, cs := range append(p.Status.InitContainerStatuses, p.Status.ContainerStatuses...) {
		if w := cs.State.Waiting; w != nil {
			kinds = append(kinds, w.Reason)
		}
		add(cs.LastTerminationState.Terminated != nil, "last terminated")
	}
	return kinds
}

// compareSlimAndFull runs sc for three virtual minutes, comparing at every
// instant, and says which kinds of pod it met.
func compareSlimAndFull(t *testing.T, sc *scenario.Scenario) map[string]bool {
	epoch := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
	full, slim := cluster.NewCluster(), cluster.NewCluster()
	seen := map[cluster.ObjectRef]bool{}
	var pending cluster.Batch
	var slimmed []runtime.Object
	instants, podsSeen, met := 0, map[string]bool{}, map[string]bool{}
	flush := func() {
		if pending.At.IsZero() {
			return
		}
		st := cluster.WatchStatus{Synced: true, Connected: true, Since: epoch}
		pending.Watch = st
		full.Apply(pending)
		slim.Apply(cluster.Batch{At: pending.At, Objects: slimmed, Deleted: pending.Deleted, Watch: st})
		if diff := viewDiff(full, slim, seen, pending.At); diff != "" {
			t.Fatalf("at %v the slimmed pods show something else: %s", pending.At.Sub(epoch), diff)
		}
		instants++
		pending, slimmed = cluster.Batch{}, nil
	}
	observe := func(now time.Time, ev watch.Event) {
		if !now.Equal(pending.At) {
			flush()
			pending.At = now
		}
		m, ok := ev.Object.(metav1.Object)
		if !ok {
			return
		}
		ref := cluster.ObjectRef{Kind: kindOf(ev.Object), Namespace: m.GetNamespace(), Name: m.GetName()}
		seen[ref] = true
		if p, ok := ev.Object.(*corev1.Pod); ok {
			podsSeen[ref.Name] = true
			for _, k := range podKinds(p) {
				met[k] = true
			}
		}
		if ev.Type == watch.Deleted {
			pending.Deleted = append(pending.Deleted, ref)
			return
		}
		pending.Objects = append(pending.Objects, ev.Object.DeepCopyObject())
		out, err := trim(ev.Object.DeepCopyObject())
		if err != nil {
			t.Fatal(err)
		}
		slimmed = append(slimmed, out.(runtime.Object))
	}
	c, err := embedded.Start(context.Background(), api, clock, sc, embedded.Options{Observers: []sim.Observer{observe}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background(), 3*time.Minute); err != nil {
		t.Fatal(err)
	}
	flush()
	t.Logf("%d instants, %d pods compared, pods met: %v", instants, len(podsSeen), slices.Sorted(maps.Keys(met)))
	return met
}

func kindOf(obj runtime.Object) string {
	return reflect.TypeOf(obj).Elem().Name()
}

// viewDiff asks both pictures every view of every object seen so far and
// names the first that differs.
func viewDiff(full, slim *cluster.Cluster, seen map[cluster.ObjectRef]bool, now time.Time) string {
	same := func(what string, a, b any) string {
		if reflect.DeepEqual(a, b) {
			return ""
		}
		return fmt.Sprintf("%s:\nfull %+v\nslim %+v", what, a, b)
	}
	checks := []func() string{
		func() string { return same("deployments", full.Deployments(), slim.Deployments()) },
		func() string { return same("workloads", full.Workloads(), slim.Workloads()) },
		func() string { return same("nodes", full.Nodes(), slim.Nodes()) },
		func() string { return same("fleet", full.Fleet("", now), slim.Fleet("", now)) },
	}
	refs := slices.SortedFunc(func(yield func(cluster.ObjectRef) bool) {
		for r := range seen {
			if !yield(r) {
				return
			}
		}
	}, func(a, b cluster.ObjectRef) int { return cmpRef(a, b) })
	for _, r := range refs {
		ns, name, label := r.Namespace, r.Name, r.Kind+" "+r.Namespace+"/"+r.Name
		switch r.Kind {
		case "Deployment":
			checks = append(checks,
				func() string {
					a, aok := full.Rollout(ns, name, now)
					b, bok := slim.Rollout(ns, name, now)
					return same("rollout of "+label, pair(a, aok), pair(b, bok))
				},
				func() string {
					return same("blocker of "+label, full.Blocker(ns, name, now), slim.Blocker(ns, name, now))
				},
				func() string { return same("timeline of "+label, full.Timeline(ns, name), slim.Timeline(ns, name)) },
				func() string { return same("absence of "+label, full.Absent(ns, name), slim.Absent(ns, name)) },
			)
		case "Pod":
			checks = append(checks, func() string {
				a, aok := full.Pod(ns, name)
				b, bok := slim.Pod(ns, name)
				return same("detail of "+label, pair(a, aok), pair(b, bok))
			})
		case "StatefulSet":
			checks = append(checks, func() string {
				a, aok := full.StatefulSet(ns, name, now)
				b, bok := slim.StatefulSet(ns, name, now)
				return same("view of "+label, pair(a, aok), pair(b, bok))
			})
		case "DaemonSet":
			checks = append(checks, func() string {
				a, aok := full.DaemonSet(ns, name, now)
				b, bok := slim.DaemonSet(ns, name, now)
				return same("view of "+label, pair(a, aok), pair(b, bok))
			})
		case "ReplicationController":
			checks = append(checks, func() string {
				a, aok := full.RCUpdate(ns, name)
				b, bok := slim.RCUpdate(ns, name)
				return same("update of "+label, pair(a, aok), pair(b, bok))
			})
		}
	}
	for _, check := range checks {
		if d := check(); d != "" {
			return d
		}
	}
	return ""
}

func pair(v any, ok bool) [2]any { return [2]any{v, ok} }

func cmpRef(a, b cluster.ObjectRef) int {
	for _, c := range [][2]string{{a.Kind, b.Kind}, {a.Namespace, b.Namespace}, {a.Name, b.Name}} {
		if c[0] != c[1] {
			if c[0] < c[1] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// TestSlimPodKeepsNoConfiguration: a slimmed pod carries none of what only
// the kubelet reads.
func TestSlimPodKeepsNoConfiguration(t *testing.T) {
	p := &corev1.Pod{ObjectMeta: bulkyMeta("p"), Spec: configuredSpec()}
	p.Spec.Tolerations = []corev1.Toleration{{Key: "k"}}
	p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "web", ContainerID: "containerd://0123", ImageID: "sha256:abc",
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1, ContainerID: "containerd://0122"}}}}
	s := slimPod(p)
	if s.Annotations != nil || s.ManagedFields != nil || s.Spec.Volumes != nil || s.Spec.Tolerations != nil ||
		s.Spec.Containers[0].Env != nil || s.Spec.Containers[0].ReadinessProbe != nil || s.Spec.InitContainers[0].Env != nil {
		t.Errorf("slim pod keeps configuration: %+v", s)
	}
	cs := s.Status.ContainerStatuses[0]
	if cs.ContainerID != "" || cs.ImageID != "" || cs.LastTerminationState.Terminated.ContainerID != "" {
		t.Errorf("slim pod keeps container IDs: %+v", cs)
	}
	if cs.LastTerminationState.Terminated.ExitCode != 1 || s.Spec.Containers[0].Image != "nginx:1.25" {
		t.Errorf("slim pod lost what the console shows: %+v", s)
	}
}

// slimScenarios are the scenarios whose pods the slim tests compare: the
// mixed one above and the built-ins that make the other kinds of pod.
func slimScenarios(t *testing.T) []*scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse("mixed.yaml", []byte(mixed))
	if err != nil {
		t.Fatal(err)
	}
	scenarios := []*scenario.Scenario{sc}
	for _, name := range []string{"crashloop", "canary", "stateful", "daemons", "legacy-rc", "node-upgrade"} {
		sc, err := scenario.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		scenarios = append(scenarios, sc)
	}
	return scenarios
}
