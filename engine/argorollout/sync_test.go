package argorollout

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	fakedynamic "k8s.io/client-go/dynamic/fake"
	k8stesting "k8s.io/client-go/testing"

	"rollscope/engine/control"
	"rollscope/engine/control/controltest"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

// The helpers are Argo's test helpers (rollout/controller_test.go,
// canary_test.go), so that its cases read here as they read there.

func newCanaryRollout(replicas int32, steps []argo.CanaryStep, stepIndex *int32, maxSurge, maxUnavailable int) *argo.Rollout {
	sel := map[string]string{"foo": "bar"}
	surge, unavail := intstr.FromInt(maxSurge), intstr.FromInt(maxUnavailable)
	r := &argo.Rollout{
		ObjectMeta: metav1.ObjectMeta{UID: "uid-foo", Name: "foo", Namespace: metav1.NamespaceDefault,
			Annotations: map[string]string{argo.RevisionAnnotation: "1"}, Generation: 123},
		Spec: argo.RolloutSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: sel},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: sel},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "container-name", Image: "foo/bar"}}}},
			Strategy: argo.RolloutStrategy{Canary: &argo.CanaryStrategy{MaxSurge: &surge, MaxUnavailable: &unavail, Steps: steps}},
		},
	}
	r.Status.CurrentStepIndex = stepIndex
	r.Status.CurrentStepHash = argo.StepHash(r)
	r.Status.CurrentPodHash = argo.PodTemplateHash(&r.Spec.Template, nil)
	r.Status.Selector = metav1.FormatLabelSelector(r.Spec.Selector)
	return r
}

func bumpVersion(r *argo.Rollout) *argo.Rollout {
	n := r.DeepCopy()
	n.Generation++
	rev, _ := strconv.Atoi(r.Annotations[argo.RevisionAnnotation])
	n.Annotations[argo.RevisionAnnotation] = strconv.Itoa(rev + 1)
	n.Spec.Template.Spec.Containers[0].Image = "foo/bar" + strconv.Itoa(rev+1)
	n.Status.CurrentPodHash = argo.PodTemplateHash(&n.Spec.Template, nil)
	n.Status.CurrentStepHash = argo.StepHash(n)
	return n
}

func newReplicaSetWithStatus(r *argo.Rollout, replicas, available int32) *appsv1.ReplicaSet {
	hash := argo.PodTemplateHash(&r.Spec.Template, nil)
	labels := map[string]string{argo.PodTemplateHashLabel: hash, "foo": "bar"}
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: r.Name + "-" + hash, UID: types.UID("uid-" + hash), Namespace: metav1.NamespaceDefault, Labels: labels,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(r, controllerKind)},
			Annotations: map[string]string{desiredReplicasAnnotation: strconv.Itoa(int(*r.Spec.Replicas)),
				argo.RevisionAnnotation: r.Annotations[argo.RevisionAnnotation]}},
		Spec:   appsv1.ReplicaSetSpec{Selector: metav1.SetAsLabelSelector(labels), Replicas: &replicas, Template: r.Spec.Template},
		Status: appsv1.ReplicaSetStatus{Replicas: replicas, AvailableReplicas: available, ReadyReplicas: available},
	}
	rs.Spec.Template.Labels = labels
	return rs
}

// updateCanaryRolloutStatus is Argo's: the counts, the stable hash, and
// a pause condition when pause is set.
func updateCanaryRolloutStatus(r *argo.Rollout, stableRS string, available, updated, hpa int32, pause bool, now metav1.Time) *argo.Rollout {
	n := r.DeepCopy()
	n.Status.AvailableReplicas, n.Status.UpdatedReplicas, n.Status.ReadyReplicas, n.Status.HPAReplicas = available, updated, available, hpa
	n.Status.Replicas = hpa
	n.Status.StableRS = stableRS
	if pause {
		n.Status.ControllerPause = true
		n.Status.PauseConditions = append(n.Status.PauseConditions, argo.PauseCondition{Reason: argo.PauseReasonCanaryPauseStep, StartTime: now})
	}
	return n
}

func ptr[T any](v T) *T { return &v }

// syncOnce runs one sync of r with rss in the caches and answers what it
// wrote: the ReplicaSets it created and updated ("name=replicas"), in
// order, and the Rollout as its status patches left it.
func syncOnce(t *testing.T, r *argo.Rollout, rss ...*appsv1.ReplicaSet) (writes []string, after *argo.Rollout) {
	t.Helper()
	writes, after, _ = syncWith(t, r, nil, rss...)
	return writes, after
}

// syncWith is syncOnce with objects only the API holds (Services); it also
// answers the harness, whose client holds what the sync left, and records
// the ReplicaSets' scale-down-deadline patches ("name+deadline",
// "name-deadline").
func syncWith(t *testing.T, r *argo.Rollout, api []runtime.Object, rss ...*appsv1.ReplicaSet) (writes []string, after *argo.Rollout, h *controltest.Harness) {
	t.Helper()
	objs := make([]runtime.Object, len(rss))
	for i, rs := range rss {
		objs[i] = rs
	}
	h = controltest.New(t, objs...)
	h.AddToAPI(api...)
	if err := h.Indexer(control.Workload(kind.Rollout)).Add(r); err != nil {
		t.Fatal(err)
	}
	typed := r.DeepCopy()
	typed.APIVersion, typed.Kind = controllerKind.GroupVersion().String(), controllerKind.Kind
	b, _ := json.Marshal(typed)
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	dyn := fakedynamic.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{argo.Rollouts: "RolloutList"}, u)
	env := *h.Env
	env.Dynamic = dyn
	c := New(&env)
	c.Watches(h.Queue)
	if err := c.Sync(context.Background(), "default/foo"); err != nil {
		t.Fatalf("Sync: %v", err)
	}
	for _, a := range h.Client.Actions() {
		if a.GetResource().Resource != "replicasets" {
			continue
		}
		switch a.GetVerb() {
		case "create":
			rs := a.(k8stesting.CreateAction).GetObject().(*appsv1.ReplicaSet)
			writes = append(writes, fmt.Sprintf("create %s=%d", rs.Name, *rs.Spec.Replicas))
		case "update":
			rs := a.(k8stesting.UpdateAction).GetObject().(*appsv1.ReplicaSet)
			w := fmt.Sprintf("%s=%d", rs.Name, *rs.Spec.Replicas)
			if h := rs.Annotations[revisionHistoryAnnotation]; h != "" {
				w += fmt.Sprintf(" revision %s after %s", rs.Annotations[argo.RevisionAnnotation], h)
			}
			writes = append(writes, w)
		case "patch":
			if p := string(a.(k8stesting.PatchAction).GetPatch()); strings.Contains(p, `"op":"add"`) {
				writes = append(writes, a.(k8stesting.PatchAction).GetName()+"+deadline")
			} else {
				writes = append(writes, a.(k8stesting.PatchAction).GetName()+"-deadline")
			}
		}
	}
	got, err := dyn.Resource(argo.Rollouts).Namespace("default").Get(context.Background(), "foo", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	after, err = argo.RolloutOf(got)
	if err != nil {
		t.Fatal(err)
	}
	return writes, after, h
}

// Argo's cases from rollout/canary_test.go, one sync each: the ReplicaSet
// writes it expects, in order, and the status its patch leaves.
func TestArgoCanaryCases(t *testing.T) {
	now := metav1.NewTime(controltest.Start)
	pauseStep := []argo.CanaryStep{{Pause: &argo.RolloutPause{}}}
	type want struct {
		writes  []string
		step    *int32
		stable  string // "r1", "r2": whose hash stableRS holds
		paused  bool   // a CanaryPauseStep condition and controllerPause
		phase   argo.RolloutPhase
		message string
	}
	for _, tc := range []struct {
		name string
		// setup returns the Rollout, its ReplicaSets, and the hashes of
		// its first and second templates.
		setup func() (*argo.Rollout, []*appsv1.ReplicaSet, map[string]string)
		want  want
	}{{
		name: "TestCanaryRolloutScaleUpNewReplicaWithCorrectWeight",
		setup: func() (*argo.Rollout, []*appsv1.ReplicaSet, map[string]string) {
			r1 := newCanaryRollout(5, []argo.CanaryStep{{SetWeight: ptr[int32](40)}}, ptr[int32](0), 0, 1)
			// Argo's case names a stable hash no ReplicaSet carries (an
			// older hash function's): there is no stable ReplicaSet.
			r1.Status.StableRS = "895c6c4f9"
			r2 := bumpVersion(r1)
			hs := hashes(r1, r2)
			hs["argo"] = "895c6c4f9"
			return r2, []*appsv1.ReplicaSet{newReplicaSetWithStatus(r1, 3, 3), newReplicaSetWithStatus(r2, 1, 1)}, hs
		},
		// Without a stable ReplicaSet Argo promotes at once ("Initial
		// deploy"): the steps are done and the new hash is stable.
		want: want{writes: []string{"r2=2"}, step: ptr[int32](1), stable: "r2", phase: argo.RolloutPhaseProgressing, message: "more replicas need to be updated"},
	}, {
		name: "TestCanaryRolloutScaleDownStableToMatchWeight",
		setup: func() (*argo.Rollout, []*appsv1.ReplicaSet, map[string]string) {
			r1 := newCanaryRollout(10, []argo.CanaryStep{{SetWeight: ptr[int32](10)}}, ptr[int32](0), 0, 1)
			r1.Status.StableRS = r1.Status.CurrentPodHash
			r2 := bumpVersion(r1)
			return r2, []*appsv1.ReplicaSet{newReplicaSetWithStatus(r1, 10, 10), newReplicaSetWithStatus(r2, 0, 0)}, hashes(r1, r2)
		},
		want: want{writes: []string{"r1=9"}, step: ptr[int32](0), stable: "r1", phase: argo.RolloutPhaseProgressing, message: "more replicas need to be updated"},
	}, {
		name: "TestCanaryRolloutScaleDownOldRs",
		setup: func() (*argo.Rollout, []*appsv1.ReplicaSet, map[string]string) {
			r1 := newCanaryRollout(10, []argo.CanaryStep{{SetWeight: ptr[int32](10)}}, ptr[int32](0), 1, 0)
			r1.Status.StableRS = r1.Status.CurrentPodHash
			r2 := bumpVersion(r1)
			r3 := bumpVersion(r2)
			return r3, []*appsv1.ReplicaSet{newReplicaSetWithStatus(r1, 9, 9), newReplicaSetWithStatus(r2, 1, 1), newReplicaSetWithStatus(r3, 1, 1)}, hashes(r1, r2, r3)
		},
		want: want{writes: []string{"r2=0"}, step: ptr[int32](0), stable: "r1", phase: argo.RolloutPhaseProgressing, message: "more replicas need to be updated"},
	}, {
		name: "TestCanaryRolloutScaleDownOldRsDontScaleDownTooMuch",
		setup: func() (*argo.Rollout, []*appsv1.ReplicaSet, map[string]string) {
			r1 := newCanaryRollout(4, nil, nil, 1, 0)
			r2 := bumpVersion(r1)
			r3 := bumpVersion(r2)
			r3.Status.StableRS = r3.Status.CurrentPodHash
			return r3, []*appsv1.ReplicaSet{newReplicaSetWithStatus(r1, 5, 5), newReplicaSetWithStatus(r2, 5, 5), newReplicaSetWithStatus(r3, 5, 0)}, hashes(r1, r2, r3)
		},
		// The highest revision first; the second only down to what keeps
		// replicas - maxUnavailable available.
		want: want{writes: []string{"r2=0", "r1=4"}, stable: "r3", phase: argo.RolloutPhaseProgressing, message: "old replicas are pending termination"},
	}, {
		name: "TestCanaryRolloutEnterPauseState",
		setup: func() (*argo.Rollout, []*appsv1.ReplicaSet, map[string]string) {
			r1 := newCanaryRollout(10, pauseStep, ptr[int32](0), 1, 0)
			r2 := bumpVersion(r1)
			rs1, rs2 := newReplicaSetWithStatus(r1, 10, 10), newReplicaSetWithStatus(r2, 0, 0)
			r2 = updateCanaryRolloutStatus(r2, rs1.Labels[argo.PodTemplateHashLabel], 10, 0, 10, false, now)
			return r2, []*appsv1.ReplicaSet{rs1, rs2}, hashes(r1, r2)
		},
		want: want{step: ptr[int32](0), stable: "r1", paused: true, phase: argo.RolloutPhasePaused, message: "CanaryPauseStep"},
	}, {
		name: "TestCanaryRolloutNoProgressWhilePaused",
		setup: func() (*argo.Rollout, []*appsv1.ReplicaSet, map[string]string) {
			r1 := newCanaryRollout(10, pauseStep, ptr[int32](0), 1, 0)
			r2 := bumpVersion(r1)
			rs1, rs2 := newReplicaSetWithStatus(r1, 10, 10), newReplicaSetWithStatus(r2, 0, 0)
			r2 = updateCanaryRolloutStatus(r2, rs1.Labels[argo.PodTemplateHashLabel], 10, 0, 10, true, now)
			return r2, []*appsv1.ReplicaSet{rs1, rs2}, hashes(r1, r2)
		},
		want: want{step: ptr[int32](0), stable: "r1", paused: true, phase: argo.RolloutPhasePaused, message: "CanaryPauseStep"},
	}, {
		name: "TestCanaryRolloutIncrementStepAfterUnPaused",
		setup: func() (*argo.Rollout, []*appsv1.ReplicaSet, map[string]string) {
			r1 := newCanaryRollout(10, pauseStep, ptr[int32](0), 1, 0)
			rs1 := newReplicaSetWithStatus(r1, 10, 10)
			r2 := bumpVersion(r1)
			rs2 := newReplicaSetWithStatus(r2, 0, 0)
			r2 = updateCanaryRolloutStatus(r2, rs1.Labels[argo.PodTemplateHashLabel], 10, 0, 10, false, now)
			r2.Status.ControllerPause = true
			return r2, []*appsv1.ReplicaSet{rs1, rs2}, hashes(r1, r2)
		},
		want: want{step: ptr[int32](1), stable: "r1", phase: argo.RolloutPhaseProgressing, message: "more replicas need to be updated"},
	}, {
		name: "TestCanaryRolloutUpdateStatusWhenAtEndOfSteps",
		setup: func() (*argo.Rollout, []*appsv1.ReplicaSet, map[string]string) {
			r1 := newCanaryRollout(10, pauseStep, ptr[int32](1), 1, 0)
			r2 := bumpVersion(r1)
			rs1, rs2 := newReplicaSetWithStatus(r1, 0, 0), newReplicaSetWithStatus(r2, 10, 10)
			r2 = updateCanaryRolloutStatus(r2, rs1.Labels[argo.PodTemplateHashLabel], 10, 10, 10, false, now)
			return r2, []*appsv1.ReplicaSet{rs1, rs2}, hashes(r1, r2)
		},
		want: want{step: ptr[int32](1), stable: "r2", phase: argo.RolloutPhaseHealthy},
	}, {
		name: "TestResetCurrentStepIndexOnPodSpecChange",
		setup: func() (*argo.Rollout, []*appsv1.ReplicaSet, map[string]string) {
			r1 := newCanaryRollout(10, pauseStep, ptr[int32](1), 0, 1)
			r2 := bumpVersion(r1)
			rs1 := newReplicaSetWithStatus(r1, 10, 10)
			r2.Status.CurrentPodHash = rs1.Labels[argo.PodTemplateHashLabel]
			r2 = updateCanaryRolloutStatus(r2, rs1.Labels[argo.PodTemplateHashLabel], 10, 0, 10, false, now)
			return r2, []*appsv1.ReplicaSet{rs1}, hashes(r1, r2)
		},
		// A new ReplicaSet at zero, and the steps start over.
		want: want{writes: []string{"create r2=0"}, step: ptr[int32](0), stable: "r1", phase: argo.RolloutPhaseProgressing, message: "more replicas need to be updated"},
	}, {
		name: "TestRollBackToStable",
		setup: func() (*argo.Rollout, []*appsv1.ReplicaSet, map[string]string) {
			steps := []argo.CanaryStep{{SetWeight: ptr[int32](10)}}
			r1 := newCanaryRollout(10, steps, ptr[int32](0), 1, 0)
			r2 := bumpVersion(r1)
			rs2 := newReplicaSetWithStatus(r2, 1, 1)
			hs := hashes(r1, r2)                // before r2 takes r1's template back
			r2.Spec.Template = r1.Spec.Template // back to r1's template mid-canary
			rs1 := newReplicaSetWithStatus(r1, 9, 9)
			r2 = updateCanaryRolloutStatus(r2, rs1.Labels[argo.PodTemplateHashLabel], 10, 9, 10, false, now)
			return r2, []*appsv1.ReplicaSet{rs1, rs2}, hs
		},
		// rs1 takes the next revision (3), its old one kept in the
		// history; the steps are skipped to the end (Argo's SkipSteps),
		// r1 still stable.
		want: want{writes: []string{"r1=9 revision 3 after 1"}, step: ptr[int32](1), stable: "r1", phase: argo.RolloutPhaseProgressing, message: "more replicas need to be updated"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			r, rss, hs := tc.setup()
			writes, after := syncOnce(t, r, rss...)
			for i := range writes {
				for name, h := range hs {
					writes[i] = replaceAll(writes[i], "foo-"+h, name)
				}
			}
			if !slices.Equal(writes, tc.want.writes) {
				t.Errorf("ReplicaSet writes %q, want %q", writes, tc.want.writes)
			}
			st := after.Status
			if !equalPtr(st.CurrentStepIndex, tc.want.step) {
				t.Errorf("currentStepIndex %v, want %v", deref(st.CurrentStepIndex), deref(tc.want.step))
			}
			if st.StableRS != hs[tc.want.stable] {
				t.Errorf("stableRS %q, want %s's %q", st.StableRS, tc.want.stable, hs[tc.want.stable])
			}
			paused := len(st.PauseConditions) == 1 && st.PauseConditions[0].Reason == argo.PauseReasonCanaryPauseStep && st.ControllerPause
			if paused != tc.want.paused {
				t.Errorf("pauseConditions %+v controllerPause %v, want paused %v", st.PauseConditions, st.ControllerPause, tc.want.paused)
			}
			if st.Phase != tc.want.phase || st.Message != tc.want.message {
				t.Errorf("phase %q message %q, want %q %q", st.Phase, st.Message, tc.want.phase, tc.want.message)
			}
			if st.ObservedGeneration != strconv.FormatInt(r.Generation, 10) {
				t.Errorf("observedGeneration %q, want %d", st.ObservedGeneration, r.Generation)
			}
		})
	}
}

func hashes(rs ...*argo.Rollout) map[string]string {
	m := map[string]string{}
	for i, r := range rs {
		m["r"+strconv.Itoa(i+1)] = argo.PodTemplateHash(&r.Spec.Template, nil)
	}
	return m
}

func replaceAll(s, old, new string) string {
	for i := 0; i+len(old) <= len(s); i++ {
		if s[i:i+len(old)] == old {
			return s[:i] + new + s[i+len(old):]
		}
	}
	return s
}

func equalPtr(a, b *int32) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func deref(p *int32) any {
	if p == nil {
		return nil
	}
	return *p
}
