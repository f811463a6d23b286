package embedded_test

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/embedded"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

// A canary held at an indefinite pause is still analysed in the
// background: the run goes on until the AnalysisRun's verdict, and its
// second failure aborts the update, as Argo's controller does. (The run
// once ended at the pause, the analysis half done.)
func TestBackgroundAnalysisGoesOnAtAnIndefinitePause(t *testing.T) {
	sc := parse(t, "background.yaml", `
namespace: shop
nodeGroups:
  - {name: nodes, size: 2, capacity: {pods: 20, cpu: "4", memory: 8Gi}}
images:
  - {match: "*", pull: 200ms, start: 200ms, ready: 500ms, stop: 300ms}
objects: |
  apiVersion: argoproj.io/v1alpha1
  kind: AnalysisTemplate
  metadata: {name: rate}
  spec:
    metrics:
    - {name: rate, interval: 1s, count: 5, failureLimit: 1, successCondition: result < 0.05, provider: {web: {url: "http://metrics.example/rate"}}}
  ---
  apiVersion: argoproj.io/v1alpha1
  kind: Rollout
  metadata: {name: shop}
  spec:
    replicas: 2
    selector: {matchLabels: {app: shop}}
    template:
      metadata: {labels: {app: shop}}
      spec: {containers: [{name: app, image: "registry.example/shop:v1"}]}
    strategy:
      canary:
        analysis: {templates: [{templateName: rate}]}
        steps:
        - setWeight: 50
        - pause: {}
metrics:
  - {metric: rate, values: [0.01, 0.09, 0.01, 0.09]}
actions:
  - {at: 30s, setImage: {target: rollout/shop, image: "registry.example/shop:v2"}}
`)
	var ro *argo.Rollout
	observe := func(_ time.Time, ev watch.Event) {
		if u, ok := ev.Object.(*unstructured.Unstructured); ok && u.GetKind() == "Rollout" && ev.Type != watch.Deleted {
			if r, err := argo.RolloutOf(u); err == nil {
				ro = r
			}
		}
	}
	clock := sim.NewClock(epoch)
	cl, err := embedded.Start(context.Background(), memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed}), clock, sc, embedded.Options{Observers: []sim.Observer{observe}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Run(context.Background(), 10*time.Minute); err != nil {
		t.Fatal(err)
	}
	if ro == nil {
		t.Fatalf("no %s seen", kind.Rollout)
	}
	const want = `RolloutAborted: Rollout aborted update to revision 2: Background analysis phase error/failed: Metric "rate" assessed Failed due to failed (2) > failureLimit (1)`
	if !ro.Status.Abort || ro.Status.Phase != "Degraded" || ro.Status.Message != want {
		t.Errorf("the Rollout ended %s %q (abort %v), want Degraded %q", ro.Status.Phase, ro.Status.Message, ro.Status.Abort, want)
	}
}
