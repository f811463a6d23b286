package actions_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/actions"
	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/engine/trace"
	"rollscope/kube/memapi"
	"rollscope/model"
)

// canary is a one-pod-at-a-time rollout with no scripted actions: the
// tests act on it through the engine functions the console calls.
const canary = `name: canary
seed: 7
namespace: default
nodeGroups:
  - {name: nodes, size: 3, capacity: {pods: 30, cpu: "8", memory: 32Gi}}
images:
  - {match: "app:*", pull: 1s, start: 1s, ready: 2s}
objects: |
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 6
    minReadySeconds: 5
    selector: {matchLabels: {app: web}}
    strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers: [{name: app, image: "app:v1"}]
`

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// step is an action at a virtual time; its result is recorded.
type step struct {
	at time.Duration
	do func(ctx context.Context, c *embedded.Cluster) string
}

func runCanary(t *testing.T, steps ...step) (*embedded.Cluster, string, []string) {
	t.Helper()
	sc, err := scenario.Parse("canary.yaml", []byte(canary))
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
	var out bytes.Buffer
	tw := trace.New(&out, trace.JSONL, epoch, sc.NodeGroups)
	ctx := context.Background()
	cl, err := embedded.Start(ctx, api, clock, sc, embedded.Options{Observers: []sim.Observer{tw.Observe}})
	if err != nil {
		t.Fatal(err)
	}
	var results []string
	for _, s := range steps {
		s := s
		cl.Runner.At(s.at, func() { results = append(results, s.do(ctx, cl)) })
	}
	end, err := cl.Run(ctx, 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	tw.End(clock.Now(), end)
	if err := tw.Flush(); err != nil {
		t.Fatal(err)
	}
	checkSurge(t, out.String(), 6+1)
	return cl, out.String(), results
}

// checkSurge asserts that no deployment line of the trace has more pods
// than replicas + maxSurge: an abort is a rollout like any other.
func checkSurge(t *testing.T, tr string, limit int32) {
	t.Helper()
	for _, line := range strings.Split(tr, "\n") {
		var l struct {
			Type     string `json:"type"`
			Replicas int32  `json:"replicas"`
		}
		if line == "" || json.Unmarshal([]byte(line), &l) != nil || l.Type != "deployment" {
			continue
		}
		if l.Replicas > limit {
			t.Errorf("%d pods, more than replicas + maxSurge (%d): %s", l.Replicas, limit, line)
		}
	}
}

var web = actions.Target{Namespace: "default", Name: "web"}

func result(err error) string {
	if err != nil {
		return err.Error()
	}
	return "ok"
}

// Set image, pause once the first new pod is up, abort: the deployment
// returns to revision 1's template at full size and says what was aborted.
func TestAbortOnTheEmbeddedCluster(t *testing.T) {
	cl, tr, results := runCanary(t,
		step{30 * time.Second, func(ctx context.Context, c *embedded.Cluster) string {
			return result(actions.SetImage(ctx, c.Client, web, "app", "app:v2", "rollscope set image deployment/web app=app:v2"))
		}},
		step{45 * time.Second, func(ctx context.Context, c *embedded.Cluster) string {
			return result(actions.Pause(ctx, c.Client, web))
		}},
		step{60 * time.Second, func(ctx context.Context, c *embedded.Cluster) string {
			a, err := actions.Abort(ctx, c.Client, web)
			if err != nil {
				return err.Error()
			}
			return a.String()
		}},
		step{5 * time.Minute, func(ctx context.Context, c *embedded.Cluster) string {
			_, err := actions.Abort(ctx, c.Client, web)
			return result(err)
		}},
	)
	want := []string{"ok", "ok", "revision 2 aborted, back on revision 1's template, now revision 3"}
	for i, w := range want {
		if results[i] != w {
			t.Fatalf("step %d: %q, want %q (all: %q)", i, results[i], w, results)
		}
	}
	if !strings.Contains(results[3], "nothing to abort") {
		t.Errorf("abort of the finished return says %q", results[3])
	}
	d, err := cl.Client.AppsV1().Deployments("default").Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "app:v1" || d.Spec.Paused {
		t.Fatalf("after abort the deployment runs %s (paused %v), want app:v1 running", img, d.Spec.Paused)
	}
	if d.Annotations[actions.AbortedAnnotation] != "revision 2 aborted, back on revision 1's template, now revision 3" || d.Annotations[model.ChangeCauseAnnotation] != "" {
		t.Errorf("annotations after abort: %v", d.Annotations)
	}
	if d.Status.UpdatedReplicas != 6 || d.Status.AvailableReplicas != 6 || d.Status.Replicas != 6 {
		t.Errorf("the return did not complete: %+v", d.Status)
	}
	// The trace shows the abort re-using revision 1's ReplicaSet as
	// revision 3, as an undo does, and the v2 ReplicaSet scaled away.
	if !strings.Contains(tr, `"revision":3`) {
		t.Errorf("no revision 3 in the trace:\n%s", tr)
	}
	rss, err := actions.OwnedReplicaSets(context.Background(), cl.Client, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, rs := range rss {
		img := rs.Spec.Template.Spec.Containers[0].Image
		if img == "app:v2" && *rs.Spec.Replicas != 0 {
			t.Errorf("the aborted ReplicaSet still wants %d pods", *rs.Spec.Replicas)
		}
		if img == "app:v1" && *rs.Spec.Replicas != 6 {
			t.Errorf("the stable ReplicaSet wants %d pods, want 6", *rs.Spec.Replicas)
		}
	}
}

// Pause mid-rollout holds it where it is; resume finishes it; undo goes
// back; every action's result is what kubectl would report.
func TestCanaryActionsOnTheEmbeddedCluster(t *testing.T) {
	var heldAt, heldLater string
	count := func(ctx context.Context, c *embedded.Cluster) string {
		d, err := c.Client.AppsV1().Deployments("default").Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return err.Error()
		}
		return strings.Join([]string{itoa(d.Status.UpdatedReplicas), itoa(d.Status.Replicas)}, "/")
	}
	cl, _, results := runCanary(t,
		step{30 * time.Second, func(ctx context.Context, c *embedded.Cluster) string {
			return result(actions.SetImage(ctx, c.Client, web, "app", "app:v2", ""))
		}},
		step{45 * time.Second, func(ctx context.Context, c *embedded.Cluster) string {
			return result(actions.Pause(ctx, c.Client, web))
		}},
		step{50 * time.Second, func(ctx context.Context, c *embedded.Cluster) string { heldAt = count(ctx, c); return "" }},
		step{110 * time.Second, func(ctx context.Context, c *embedded.Cluster) string { heldLater = count(ctx, c); return "" }},
		step{120 * time.Second, func(ctx context.Context, c *embedded.Cluster) string {
			done, err := actions.Undo(ctx, c.Client, web, 1)
			if err == nil && done.String() != "back on revision 1's template, now revision 3" {
				return "undo said " + done.String()
			}
			return result(err)
		}},
		step{121 * time.Second, func(ctx context.Context, c *embedded.Cluster) string {
			return result(actions.Resume(ctx, c.Client, web))
		}},
		step{122 * time.Second, func(ctx context.Context, c *embedded.Cluster) string {
			return result(actions.Scale(ctx, c.Client, web, 4))
		}},
	)
	if results[0] != "ok" || results[1] != "ok" {
		t.Fatalf("set image / pause: %q", results)
	}
	if heldAt != heldLater {
		t.Errorf("the paused rollout moved from %s to %s (updated/total)", heldAt, heldLater)
	}
	if !strings.Contains(results[4], "is paused — resume it first") {
		t.Errorf("undo of a paused deployment: %q", results[4])
	}
	if results[5] != "ok" || results[6] != "ok" {
		t.Errorf("resume / scale: %q", results)
	}
	d, err := cl.Client.AppsV1().Deployments("default").Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Status.UpdatedReplicas != 4 || d.Status.AvailableReplicas != 4 || d.Spec.Template.Spec.Containers[0].Image != "app:v2" {
		t.Errorf("after resume and scale: image %s, status %+v", d.Spec.Template.Spec.Containers[0].Image, d.Status)
	}
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }
