package forecast

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/kube/memapi"
	"rollscope/kube/objects"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

// A rehearsal's copy carries an Argo Rollout as it carries a Deployment:
// the spec as it is, and the status Argo's controller last wrote (its
// step, pause and stable set), with its own generation observed.
func TestTheRehearsalCopyCarriesARollout(t *testing.T) {
	replicas, step := int32(10), int32(1)
	ro := &argo.Rollout{
		ObjectMeta: metav1.ObjectMeta{Name: "checkout", Namespace: "shop", UID: "live-uid", Generation: 4, ResourceVersion: "99"},
		Spec: argo.RolloutSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "checkout"}},
			Strategy: argo.RolloutStrategy{Canary: &argo.CanaryStrategy{Steps: []argo.CanaryStep{{SetWeight: &replicas}, {Pause: &argo.RolloutPause{}}}}}},
		Status: argo.RolloutStatus{StableRS: "6d4f8", CurrentPodHash: "7b9c1", CurrentStepIndex: &step, ObservedGeneration: "4",
			PauseConditions: []argo.PauseCondition{{Reason: argo.PauseReasonCanaryPauseStep}}, ControllerPause: true, Phase: argo.RolloutPhasePaused},
	}
	w, _ := kind.Of(ro)
	api := memapi.New(memapi.Options{}).Client()
	if _, err := seedWorkload(context.Background(), api, WorkloadState{Workload: w, Now: time.Now()}, 0); err != nil {
		t.Fatal(err)
	}
	row, _ := objects.For(kind.Rollout)
	got, err := row.Get(context.Background(), api, "shop", "checkout")
	if err != nil {
		t.Fatal(err)
	}
	cp := got.Object().(*argo.Rollout)
	st := cp.Status
	if st.StableRS != "6d4f8" || st.CurrentPodHash != "7b9c1" || st.CurrentStepIndex == nil || *st.CurrentStepIndex != 1 ||
		len(st.PauseConditions) != 1 || !st.ControllerPause || st.Phase != argo.RolloutPhasePaused {
		t.Errorf("the copy's status %+v, want the live one's", st)
	}
	if cp.UID == "live-uid" || st.ObservedGeneration != "1" || cp.Generation != 1 {
		t.Errorf("the copy's uid %q, generation %d observed %q: want its own", cp.UID, cp.Generation, st.ObservedGeneration)
	}
}
