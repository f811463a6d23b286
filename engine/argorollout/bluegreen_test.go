package argorollout

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/engine/control/controltest"
	"rollscope/model/argo"
)

// newBlueGreenRollout is Argo's (rollout/bluegreen_test.go): its cases set
// abortScaleDownDelaySeconds to 0.
func newBlueGreenRollout(replicas int32, active, preview string) *argo.Rollout {
	r := newCanaryRollout(replicas, nil, nil, 0, 0)
	r.Spec.Strategy = argo.RolloutStrategy{BlueGreen: &argo.BlueGreenStrategy{
		ActiveService: active, PreviewService: preview, AbortScaleDownDelaySeconds: ptr[int32](0)}}
	r.Status.CurrentStepHash = ""
	return r
}

// updateBlueGreenRolloutStatus is Argo's: the counts, the selectors, the
// stable hash, and a BlueGreenPause started at now when pause is set.
func updateBlueGreenRolloutStatus(r *argo.Rollout, preview, active, stable string, available, updated, total, hpa int32, pause bool, now metav1.Time) *argo.Rollout {
	n := r.DeepCopy()
	n.Status.AvailableReplicas, n.Status.UpdatedReplicas, n.Status.ReadyReplicas, n.Status.HPAReplicas = available, updated, available, hpa
	n.Status.Replicas = total
	sel := n.Spec.Selector.DeepCopy()
	if active != "" {
		sel.MatchLabels[argo.PodTemplateHashLabel] = active
	}
	n.Status.Selector = metav1.FormatLabelSelector(sel)
	n.Status.BlueGreen.ActiveSelector, n.Status.BlueGreen.PreviewSelector = active, preview
	n.Status.StableRS = stable
	if pause {
		n.Status.ControllerPause = true
		n.Status.PauseConditions = append(n.Status.PauseConditions, argo.PauseCondition{Reason: argo.PauseReasonBlueGreenPause, StartTime: now})
	}
	return n
}

// pausedConditions are Argo's newProgressingCondition(RolloutPaused) and
// newPausedCondition(true): what a paused Rollout's status already says.
func pausedConditions() []argo.RolloutCondition {
	return []argo.RolloutCondition{
		{Type: argo.RolloutProgressing, Status: corev1.ConditionUnknown, Reason: reasonPaused, Message: msgPaused},
		{Type: argo.RolloutPaused, Status: corev1.ConditionTrue, Reason: reasonPaused, Message: msgPaused},
	}
}

func newService(name, hash string) *corev1.Service {
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: metav1.NamespaceDefault},
		Spec: corev1.ServiceSpec{Selector: map[string]string{"foo": "bar"}}}
	if hash != "" {
		svc.Spec.Selector[argo.PodTemplateHashLabel] = hash
	}
	return svc
}

func podHash(rs *appsv1.ReplicaSet) string { return rs.Labels[argo.PodTemplateHashLabel] }

// Argo's blue/green cases (rollout/bluegreen_test.go), one sync each: the
// ReplicaSet writes, where the Services point afterwards, and the status.
func TestArgoBlueGreenCases(t *testing.T) {
	now := metav1.NewTime(controltest.Start)
	type want struct {
		writes          []string
		active, preview string // "r1", "r2", "r3", "" (no hash selected)
		stable          string
		paused          bool
		phase           argo.RolloutPhase
		message         string
	}
	type setup struct {
		r    *argo.Rollout
		rss  []*appsv1.ReplicaSet
		svcs []*corev1.Service
		hs   map[string]string
	}
	two := func(replicas int32, avail2 int32, preview string, mod func(r1 *argo.Rollout)) (r1, r2 *argo.Rollout, rs1, rs2 *appsv1.ReplicaSet) {
		r1 = newBlueGreenRollout(replicas, "active", preview)
		if mod != nil {
			mod(r1)
		}
		r2 = bumpVersion(r1)
		return r1, r2, newReplicaSetWithStatus(r1, replicas, replicas), newReplicaSetWithStatus(r2, replicas, avail2)
	}
	noAutoPromotion := func(r *argo.Rollout) { r.Spec.Strategy.BlueGreen.AutoPromotionEnabled = ptr(false) }
	autoPromotionSeconds := func(r *argo.Rollout) { r.Spec.Strategy.BlueGreen.AutoPromotionSeconds = 10 }
	deadline := func(d time.Duration) string { return now.Add(d).UTC().Format(time.RFC3339) }
	for _, tc := range []struct {
		name  string
		setup func() setup
		want  want
	}{{
		name: "TestBlueGreenCreatesReplicaSet",
		setup: func() setup {
			r := newBlueGreenRollout(1, "active", "preview")
			return setup{r: r, svcs: []*corev1.Service{newService("active", ""), newService("preview", "")}, hs: hashes(r)}
		},
		// Created at zero and scaled up; the preview Service follows it at
		// once, and with no stable ReplicaSet it is stable ("Initial deploy").
		want: want{writes: []string{"create r1=0", "r1=1"}, preview: "r1", stable: "r1",
			phase: argo.RolloutPhaseProgressing, message: "more replicas need to be updated"},
	}, {
		name: "TestBlueGreenSetPreviewService",
		setup: func() setup {
			r := newBlueGreenRollout(1, "active", "preview")
			rs := newReplicaSetWithStatus(r, 1, 1)
			return setup{r: r, rss: []*appsv1.ReplicaSet{rs}, svcs: []*corev1.Service{newService("active", podHash(rs)), newService("preview", "")}, hs: hashes(r)}
		},
		want: want{active: "r1", preview: "r1", stable: "r1", phase: argo.RolloutPhaseHealthy},
	}, {
		name: "NoPauseIfNewRSIsNotHealthy",
		setup: func() setup {
			r1, r2, rs1, rs2 := two(2, 1, "preview", noAutoPromotion)
			r2 = updateBlueGreenRolloutStatus(r2, podHash(rs2), podHash(rs1), podHash(rs1), 2, 2, 4, 2, false, now)
			return setup{r: r2, rss: []*appsv1.ReplicaSet{rs1, rs2}, svcs: []*corev1.Service{newService("active", podHash(rs1)), newService("preview", podHash(rs2))}, hs: hashes(r1, r2)}
		},
		// Counted on the active ReplicaSet: nothing to do but wait.
		want: want{active: "r1", preview: "r2", stable: "r1", phase: argo.RolloutPhaseProgressing, message: "active service cutover pending"},
	}, {
		name: "AddPause",
		setup: func() setup {
			r1, r2, rs1, rs2 := two(1, 1, "preview", noAutoPromotion)
			r2 = updateBlueGreenRolloutStatus(r2, podHash(rs2), podHash(rs1), podHash(rs1), 1, 1, 2, 1, false, now)
			return setup{r: r2, rss: []*appsv1.ReplicaSet{rs1, rs2}, svcs: []*corev1.Service{newService("active", podHash(rs1)), newService("preview", podHash(rs2))}, hs: hashes(r1, r2)}
		},
		want: want{active: "r1", preview: "r2", stable: "r1", paused: true, phase: argo.RolloutPhasePaused, message: "BlueGreenPause"},
	}, {
		name: "NoAutoPromoteBeforeDelayTimePasses",
		setup: func() setup {
			r1, r2, rs1, rs2 := two(1, 1, "preview", autoPromotionSeconds)
			r2 = updateBlueGreenRolloutStatus(r2, podHash(rs2), podHash(rs1), podHash(rs1), 1, 1, 2, 1, true, now)
			r2.Status.Conditions = pausedConditions()
			return setup{r: r2, rss: []*appsv1.ReplicaSet{rs1, rs2}, svcs: []*corev1.Service{newService("active", podHash(rs1)), newService("preview", podHash(rs2))}, hs: hashes(r1, r2)}
		},
		want: want{active: "r1", preview: "r2", stable: "r1", paused: true, phase: argo.RolloutPhasePaused, message: "BlueGreenPause"},
	}, {
		name: "AutoPromoteAfterDelayTimePasses",
		setup: func() setup {
			r1, r2, rs1, rs2 := two(1, 1, "preview", autoPromotionSeconds)
			r2 = updateBlueGreenRolloutStatus(r2, podHash(rs2), podHash(rs1), podHash(rs1), 1, 1, 2, 1, true, metav1.NewTime(now.Add(-time.Minute)))
			r2.Status.Conditions = pausedConditions()
			return setup{r: r2, rss: []*appsv1.ReplicaSet{rs1, rs2}, svcs: []*corev1.Service{newService("active", podHash(rs1)), newService("preview", podHash(rs2))}, hs: hashes(r1, r2)}
		},
		want: want{active: "r2", preview: "r2", stable: "r2", phase: argo.RolloutPhaseHealthy},
	}, {
		name: "NoPauseWhenAutoPromotionEnabledIsNotSet",
		setup: func() setup {
			r1, r2, rs1, rs2 := two(1, 1, "", func(r *argo.Rollout) { r.Spec.Strategy.BlueGreen.ScaleDownDelaySeconds = ptr[int32](10) })
			r2 = updateBlueGreenRolloutStatus(r2, "", podHash(rs1), podHash(rs1), 1, 1, 2, 1, false, now)
			return setup{r: r2, rss: []*appsv1.ReplicaSet{rs1, rs2}, svcs: []*corev1.Service{newService("active", podHash(rs1))}, hs: hashes(r1, r2)}
		},
		want: want{active: "r2", stable: "r2", phase: argo.RolloutPhaseHealthy},
	}, {
		name: "PauseWhenAutoPromotionEnabledIsFalse",
		setup: func() setup {
			r1, r2, rs1, rs2 := two(1, 1, "", noAutoPromotion)
			r2 = updateBlueGreenRolloutStatus(r2, "", podHash(rs1), podHash(rs1), 1, 1, 2, 1, false, now)
			return setup{r: r2, rss: []*appsv1.ReplicaSet{rs1, rs2}, svcs: []*corev1.Service{newService("active", podHash(rs1))}, hs: hashes(r1, r2)}
		},
		want: want{active: "r1", stable: "r1", paused: true, phase: argo.RolloutPhasePaused, message: "BlueGreenPause"},
	}, {
		// Argo's second reconciliation of ContinueAfterUnpaused: the
		// promote cleared the pause, the Resumed condition is written.
		name: "ContinueAfterUnpaused",
		setup: func() setup {
			r1, r2, rs1, rs2 := two(1, 1, "preview", noAutoPromotion)
			r2 = updateBlueGreenRolloutStatus(r2, podHash(rs2), podHash(rs1), podHash(rs1), 1, 1, 2, 1, false, now)
			r2.Status.ControllerPause = true
			r2.Status.Conditions = []argo.RolloutCondition{{Type: argo.RolloutProgressing, Status: corev1.ConditionUnknown, Reason: reasonResumed, Message: msgResumed}}
			return setup{r: r2, rss: []*appsv1.ReplicaSet{rs1, rs2}, svcs: []*corev1.Service{newService("active", podHash(rs1)), newService("preview", podHash(rs2))}, hs: hashes(r1, r2)}
		},
		want: want{active: "r2", preview: "r2", stable: "r2", phase: argo.RolloutPhaseHealthy},
	}, {
		name: "TestBlueGreenAddScaleDownDelayToPreviousActiveReplicaSet",
		setup: func() setup {
			r1, r2, rs1, rs2 := two(1, 1, "", func(r *argo.Rollout) { r.Spec.Strategy.BlueGreen.ScaleDownDelaySeconds = ptr[int32](10) })
			r2 = updateBlueGreenRolloutStatus(r2, "", podHash(rs1), podHash(rs1), 1, 1, 2, 1, false, now)
			return setup{r: r2, rss: []*appsv1.ReplicaSet{rs1, rs2}, svcs: []*corev1.Service{newService("active", podHash(rs1))}, hs: hashes(r1, r2)}
		},
		want: want{active: "r2", stable: "r2", phase: argo.RolloutPhaseHealthy},
	}, {
		// The sync after the switch: the old active ReplicaSet gets its
		// scale-down-deadline (scaleDownDelayHelper), still at full size.
		name: "ScaleDownDelayAddedOnceActiveIsStable",
		setup: func() setup {
			r1, r2, rs1, rs2 := two(1, 1, "", func(r *argo.Rollout) { r.Spec.Strategy.BlueGreen.ScaleDownDelaySeconds = ptr[int32](10) })
			r2 = updateBlueGreenRolloutStatus(r2, "", podHash(rs2), podHash(rs2), 1, 1, 2, 1, false, now)
			return setup{r: r2, rss: []*appsv1.ReplicaSet{rs1, rs2}, svcs: []*corev1.Service{newService("active", podHash(rs2))}, hs: hashes(r1, r2)}
		},
		want: want{writes: []string{"r1+deadline"}, active: "r2", stable: "r2", phase: argo.RolloutPhaseHealthy},
	}, {
		name: "TestBlueGreenNotReadyToScaleDownOldReplica",
		setup: func() setup {
			r1, r2, rs1, rs2 := two(1, 1, "", nil)
			rs1.Annotations[scaleDownDeadlineAnnotation] = deadline(10 * time.Second)
			r2 = updateBlueGreenRolloutStatus(r2, "", podHash(rs2), podHash(rs2), 1, 1, 2, 1, false, now)
			return setup{r: r2, rss: []*appsv1.ReplicaSet{rs1, rs2}, svcs: []*corev1.Service{newService("active", podHash(rs2))}, hs: hashes(r1, r2)}
		},
		want: want{active: "r2", stable: "r2", phase: argo.RolloutPhaseHealthy},
	}, {
		name: "TestBlueGreenReadyToScaleDownOldReplica",
		setup: func() setup {
			r1, r2, rs1, rs2 := two(1, 1, "", nil)
			rs1.Annotations[scaleDownDeadlineAnnotation] = deadline(-10 * time.Second)
			r2 = updateBlueGreenRolloutStatus(r2, "", podHash(rs2), podHash(rs2), 1, 1, 2, 1, false, now)
			return setup{r: r2, rss: []*appsv1.ReplicaSet{rs1, rs2}, svcs: []*corev1.Service{newService("active", podHash(rs2))}, hs: hashes(r1, r2)}
		},
		want: want{writes: []string{"r1=0"}, active: "r2", stable: "r2", phase: argo.RolloutPhaseHealthy},
	}, {
		name: "TestFastRollback",
		setup: func() setup {
			r1, r2, rs1, rs2 := two(1, 1, "", nil)
			rs1.Annotations[scaleDownDeadlineAnnotation] = deadline(10 * time.Second)
			rs2.Annotations[scaleDownDeadlineAnnotation] = deadline(10 * time.Second)
			hs := hashes(r1, r2) // before r2 takes r1's template back
			r2.Spec.Template = r1.Spec.Template
			r2.Annotations[argo.RevisionAnnotation] = "3"
			r2.Status.CurrentPodHash = podHash(rs1)
			rs1.Annotations[argo.RevisionAnnotation] = "3"
			r2 = updateBlueGreenRolloutStatus(r2, "", podHash(rs1), podHash(rs1), 1, 1, 2, 1, false, now)
			return setup{r: r2, rss: []*appsv1.ReplicaSet{rs1, rs2}, svcs: []*corev1.Service{newService("active", podHash(rs1))}, hs: hs}
		},
		// The stable ReplicaSet loses its deadline; the other one keeps
		// waiting out its own.
		want: want{writes: []string{"r1-deadline"}, active: "r1", stable: "r1", phase: argo.RolloutPhaseHealthy},
	}, {
		name: "TestBlueGreenScaleDownLimit",
		setup: func() setup {
			r1 := newBlueGreenRollout(1, "active", "")
			r2 := bumpVersion(r1)
			r3 := bumpVersion(r2)
			r3.Spec.Strategy.BlueGreen.ScaleDownDelayRevisionLimit = ptr[int32](1)
			rs1, rs2, rs3 := newReplicaSetWithStatus(r1, 1, 1), newReplicaSetWithStatus(r2, 1, 1), newReplicaSetWithStatus(r3, 1, 1)
			rs1.Annotations[scaleDownDeadlineAnnotation] = deadline(10 * time.Second)
			rs2.Annotations[scaleDownDeadlineAnnotation] = deadline(10 * time.Second)
			r3 = updateBlueGreenRolloutStatus(r3, "", podHash(rs3), podHash(rs3), 1, 1, 3, 1, false, now)
			return setup{r: r3, rss: []*appsv1.ReplicaSet{rs1, rs2, rs3}, svcs: []*corev1.Service{newService("active", podHash(rs3))}, hs: hashes(r1, r2, r3)}
		},
		// Only the newest old ReplicaSet waits; the one beyond the limit goes.
		want: want{writes: []string{"r1=0"}, active: "r3", stable: "r3", phase: argo.RolloutPhaseHealthy},
	}, {
		name: "TestBlueGreenAbort",
		setup: func() setup {
			r1, r2, rs1, rs2 := two(1, 1, "", nil)
			r2.Status.Abort, r2.Status.AbortedAt = true, &now
			r2 = updateBlueGreenRolloutStatus(r2, "", podHash(rs2), podHash(rs1), 1, 1, 2, 1, false, now)
			return setup{r: r2, rss: []*appsv1.ReplicaSet{rs1, rs2}, svcs: []*corev1.Service{newService("active", podHash(rs2))}, hs: hashes(r1, r2)}
		},
		want: want{active: "r1", stable: "r1", phase: argo.RolloutPhaseDegraded, message: "RolloutAborted: Rollout aborted update to revision 2"},
	}, {
		// With Argo's default abortScaleDownDelaySeconds (30 s) the
		// aborted preview ReplicaSet is given the deadline, not scaled.
		name: "AbortScaleDownDelayDefault",
		setup: func() setup {
			r1, r2, rs1, rs2 := two(1, 1, "", func(r *argo.Rollout) { r.Spec.Strategy.BlueGreen.AbortScaleDownDelaySeconds = nil })
			r2.Status.Abort, r2.Status.AbortedAt = true, &now
			r2 = updateBlueGreenRolloutStatus(r2, "", podHash(rs1), podHash(rs1), 1, 1, 2, 1, false, now)
			return setup{r: r2, rss: []*appsv1.ReplicaSet{rs1, rs2}, svcs: []*corev1.Service{newService("active", podHash(rs1))}, hs: hashes(r1, r2)}
		},
		want: want{writes: []string{"r2+deadline"}, active: "r1", stable: "r1", phase: argo.RolloutPhaseDegraded, message: "RolloutAborted: Rollout aborted update to revision 2"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.setup()
			api := make([]runtime.Object, len(s.svcs))
			for i, svc := range s.svcs {
				api[i] = svc
			}
			writes, after, h := syncWith(t, s.r, api, s.rss...)
			name := func(hash string) string {
				for n, h := range s.hs {
					if h == hash {
						return n
					}
				}
				return hash
			}
			for i := range writes {
				for n, h := range s.hs {
					writes[i] = replaceAll(writes[i], "foo-"+h, n)
				}
			}
			if !slices.Equal(writes, tc.want.writes) {
				t.Errorf("ReplicaSet writes %q, want %q", writes, tc.want.writes)
			}
			for svc, want := range map[string]string{"active": tc.want.active, "preview": tc.want.preview} {
				got, err := h.Client.CoreV1().Services(metav1.NamespaceDefault).Get(context.Background(), svc, metav1.GetOptions{})
				if err != nil {
					continue
				}
				if g := name(got.Spec.Selector[argo.PodTemplateHashLabel]); g != want {
					t.Errorf("service %s selects %q, want %q", svc, g, want)
				}
			}
			st := after.Status
			if name(st.BlueGreen.ActiveSelector) != tc.want.active || name(st.BlueGreen.PreviewSelector) != tc.want.preview {
				t.Errorf("status blueGreen %+v, want active %q preview %q", st.BlueGreen, tc.want.active, tc.want.preview)
			}
			if name(st.StableRS) != tc.want.stable {
				t.Errorf("stableRS %s, want %s", name(st.StableRS), tc.want.stable)
			}
			paused := len(st.PauseConditions) == 1 && st.PauseConditions[0].Reason == argo.PauseReasonBlueGreenPause && st.ControllerPause
			if paused != tc.want.paused {
				t.Errorf("pauseConditions %+v controllerPause %v, want paused %v", st.PauseConditions, st.ControllerPause, tc.want.paused)
			}
			if st.Phase != tc.want.phase || st.Message != tc.want.message {
				t.Errorf("phase %q message %q, want %q %q", st.Phase, st.Message, tc.want.phase, tc.want.message)
			}
			if st.ObservedGeneration != strconv.FormatInt(s.r.Generation, 10) {
				t.Errorf("observedGeneration %q, want %d", st.ObservedGeneration, s.r.Generation)
			}
		})
	}
}
