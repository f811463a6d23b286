package cluster_test

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model"
	"rollscope/model/cluster"
)

// heldCanary is shop/web at step 1 of a canary to web:v2: 8 replicas,
// maxSurge and maxUnavailable 25% of its own, one new pod ready since
// minute 2, and the hold's settings on the Deployment.
func heldCanary(gate string) []runtime.Object {
	d := deployment("web", "web:v2", 8, "2")
	o := model.CanaryOriginalOf(d)
	o.MinReadySeconds = 5
	c := model.Canary{Plan: model.CanaryPlan{Change: "set image web=web:v2", Replicas: 8, OnFailure: model.CanaryOnFailurePause,
		Steps:    []model.CanaryStep{{Spec: "1", Pods: 1, Hold: "pause"}, {Spec: "50%", Pods: 4, Hold: "pause"}, {Spec: "100%", Pods: 8}},
		Original: o, Template: model.PodTemplateHash(&d.Spec.Template, nil)},
		State: model.CanaryState{Step: 1, Phase: model.CanaryHolding, Since: at(1)}}
	if gate != "" {
		c.State.Phase, c.State.Gate = model.CanaryFailed, gate
	}
	c.Write(&d.ObjectMeta)
	model.HoldCanaryStep(d, 1)
	old := ownedReplicaSet(d, "aaa", "1", "web:v1", 8, 8, at(0))
	canary := ownedReplicaSet(d, "bbb", "2", "web:v2", 1, 0, at(1))
	p := runningPod(canary, "x", "n1")
	p.Status.Conditions[0].LastTransitionTime = metav1.NewTime(at(2))
	return []runtime.Object{d, old, canary, p}
}

// While a step holds, the view says where the canary is and shows the
// deployment's own settings, which the canary saved, not the hold's.
func TestRolloutViewShowsTheCanaryAndTheDeploymentsOwnSettings(t *testing.T) {
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: at(3), Objects: heldCanary("")})
	v, ok := c.Rollout(shop, "web", at(3).Add(12*time.Second))
	if !ok || v.Canary == nil {
		t.Fatalf("no canary in the view: %+v", v)
	}
	if v.MinReadySeconds != 5 || v.ProgressDeadlineSeconds != 600 || v.MaxSurge != 2 || v.MaxUnavailable != 2 || v.MaxSurgeSpec != "25%" {
		t.Errorf("the view shows minReady %d, deadline %d, maxSurge %d (%s), maxUnavailable %d: want the deployment's own 5, 600, 2 (25%%), 2",
			v.MinReadySeconds, v.ProgressDeadlineSeconds, v.MaxSurge, v.MaxSurgeSpec, v.MaxUnavailable)
	}
	got := v.Canary.Sentence(at(3).Add(12 * time.Second))
	want := "canary step 1/3 · 1/8 pods on rev 2 · holding for promote (gates ok for 1m12s; new pods ready, held from available)"
	if got != want {
		t.Errorf("sentence\n got %s\nwant %s", got, want)
	}
}

// A failed gate is the sentence, with its evidence.
func TestCanarySentenceNamesAFailedGate(t *testing.T) {
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: at(3), Objects: heldCanary("pod web-bbb-x: CrashLoopBackOff (3 restarts)")})
	v, _ := c.Rollout(shop, "web", at(3))
	if v.Canary == nil || !strings.Contains(v.Canary.Sentence(at(3)), "held: gate failed — pod web-bbb-x: CrashLoopBackOff (3 restarts) (promote or abort)") {
		t.Errorf("the failed gate is not the sentence: %+v", v.Canary)
	}
}

// A Warning event about a new pod fails its gate in the view too.
func TestCanaryViewReadsWarningEventsOnNewPods(t *testing.T) {
	c := cluster.NewCluster()
	objs := heldCanary("")
	e := event("web-bbb-x.1", "Pod", "web-bbb-x", "Unhealthy", "Readiness probe failed", 3, at(3))
	e.Type = corev1.EventTypeWarning
	c.Apply(cluster.Batch{At: at(3), Objects: append(objs, e)})
	v, _ := c.Rollout(shop, "web", at(3))
	if v.Canary == nil || v.Canary.Gates.Failed != "pod web-bbb-x: Warning Unhealthy ×3: Readiness probe failed" {
		t.Errorf("gates %+v", v.Canary)
	}
}
