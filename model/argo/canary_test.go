package argo_test

// Argo's own unit cases for its basic-canary replica arithmetic, kept as
// data: utils/replicaset/canary_test.go of Argo Rollouts v1.10.1,
// TestCalculateReplicaCountsForCanary (the cases without a traffic router,
// the only ones it runs through CalculateReplicaCountsForBasicCanary) and
// TestApproximateWeightedNewStableReplicaCounts, copied as they are.

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model/argo"
)

func intPnt(i int32) *int32 { return &i }

func newSetCanaryScale(replicas, weight *int32, matchTrafficWeight bool) *argo.SetCanaryScale {
	return &argo.SetCanaryScale{Replicas: replicas, Weight: weight, MatchTrafficWeight: matchTrafficWeight}
}

func newRS(name string, spec, available int32) *argo.ReplicaSetCount {
	return &argo.ReplicaSetCount{Name: name, Spec: spec, Available: available}
}

// newRollout is Argo's test Rollout: one step (setWeight, setCanaryScale),
// rolling from "stable" to "canary".
func newRollout(replicas, setWeight int32, maxSurge, maxUnavailable intstr.IntOrString, scs *argo.SetCanaryScale) *argo.Rollout {
	return &argo.Rollout{
		Spec: argo.RolloutSpec{Replicas: &replicas, Strategy: argo.RolloutStrategy{Canary: &argo.CanaryStrategy{
			MaxUnavailable: &maxUnavailable, MaxSurge: &maxSurge,
			Steps: []argo.CanaryStep{{SetWeight: &setWeight, SetCanaryScale: scs}},
		}}},
		Status: argo.RolloutStatus{StableRS: "stable", CurrentPodHash: "canary"},
	}
}

func TestArgosBasicCanaryCases(t *testing.T) {
	tests := []struct {
		name string

		rolloutSpecReplicas int32
		setWeight           int32
		maxSurge            intstr.IntOrString
		maxUnavailable      intstr.IntOrString
		promoteFull         bool

		stableSpecReplica      int32
		stableAvailableReplica int32

		canarySpecReplica      int32
		canaryAvailableReplica int32

		expectedStableReplicaCount int32
		expectedCanaryReplicaCount int32

		olderRS        *argo.ReplicaSetCount
		setCanaryScale *argo.SetCanaryScale
		trafficRouting bool

		abortScaleDownDelaySeconds *int32
		statusAbort                bool
		minPodsPerReplicaSet       *int32
	}{
		{
			name:                "Do not add extra RSs in scaleDownCount when .Spec.Replica < AvailableReplicas",
			rolloutSpecReplicas: 10,
			setWeight:           100,
			maxSurge:            intstr.FromInt(3),
			maxUnavailable:      intstr.FromInt(0),

			stableSpecReplica:      7,
			stableAvailableReplica: 8,

			canarySpecReplica:      6,
			canaryAvailableReplica: 3,

			expectedStableReplicaCount: 7,
			expectedCanaryReplicaCount: 6,
		},
		{
			name:                "Use max surge int to scale up canary",
			rolloutSpecReplicas: 10,
			setWeight:           20,
			maxSurge:            intstr.FromInt(2),
			maxUnavailable:      intstr.FromInt(0),

			stableSpecReplica:      10,
			stableAvailableReplica: 10,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 10,
			expectedCanaryReplicaCount: 2,
		},
		{
			name:                "Use max surge percentage to scale up canary",
			rolloutSpecReplicas: 10,
			setWeight:           20,
			maxSurge:            intstr.FromString("20%"),
			maxUnavailable:      intstr.FromInt(0),

			stableSpecReplica:      10,
			stableAvailableReplica: 10,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 10,
			expectedCanaryReplicaCount: 2,
		},
		{
			name:                "Scale down extra stable replicas",
			rolloutSpecReplicas: 10,
			setWeight:           20,
			maxSurge:            intstr.FromString("20%"),
			maxUnavailable:      intstr.FromInt(0),

			stableSpecReplica:      10,
			stableAvailableReplica: 10,

			canarySpecReplica:      2,
			canaryAvailableReplica: 2,

			expectedStableReplicaCount: 8,
			expectedCanaryReplicaCount: 2,
		},
		{
			name:                "Do not go past max surge",
			rolloutSpecReplicas: 10,
			setWeight:           30,
			maxSurge:            intstr.FromInt(2),
			maxUnavailable:      intstr.FromInt(0),

			stableSpecReplica:      10,
			stableAvailableReplica: 10,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 10,
			expectedCanaryReplicaCount: 2,
		},
		{
			name:                "Use max unavailable int to scale down stableRS",
			rolloutSpecReplicas: 10,
			setWeight:           20,
			maxSurge:            intstr.FromInt(0),
			maxUnavailable:      intstr.FromInt(2),

			stableSpecReplica:      10,
			stableAvailableReplica: 10,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 8,
			expectedCanaryReplicaCount: 0,
		},
		{
			name:                "Use max surge percentage to scale down stableRS",
			rolloutSpecReplicas: 10,
			setWeight:           20,
			maxSurge:            intstr.FromInt(0),
			maxUnavailable:      intstr.FromString("20%"),

			stableSpecReplica:      10,
			stableAvailableReplica: 10,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 8,
			expectedCanaryReplicaCount: 0,
		},
		{
			name:                "Do not go past max unavailable",
			rolloutSpecReplicas: 10,
			setWeight:           30,
			maxSurge:            intstr.FromInt(0),
			maxUnavailable:      intstr.FromInt(2),

			stableSpecReplica:      10,
			stableAvailableReplica: 10,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 8,
			expectedCanaryReplicaCount: 0,
		},
		{
			name:                "Use Max Surge and Max Unavailable",
			rolloutSpecReplicas: 10,
			setWeight:           50,
			maxSurge:            intstr.FromInt(2),
			maxUnavailable:      intstr.FromInt(1),

			stableSpecReplica:      10,
			stableAvailableReplica: 10,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 9,
			expectedCanaryReplicaCount: 2,
		},
		{
			name:                "Scale canaryRS to zero on setWeight of 0%",
			rolloutSpecReplicas: 10,
			setWeight:           0,
			maxSurge:            intstr.FromInt(1),
			maxUnavailable:      intstr.FromInt(1),

			stableSpecReplica:      10,
			stableAvailableReplica: 10,

			canarySpecReplica:      1,
			canaryAvailableReplica: 1,

			expectedStableReplicaCount: 10,
			expectedCanaryReplicaCount: 0,
		},
		{
			name:                "Scale stable to zero on setWeight of 100%",
			rolloutSpecReplicas: 10,
			setWeight:           100,
			maxSurge:            intstr.FromInt(1),
			maxUnavailable:      intstr.FromInt(1),

			stableSpecReplica:      1,
			stableAvailableReplica: 1,

			canarySpecReplica:      10,
			canaryAvailableReplica: 10,

			expectedStableReplicaCount: 0,
			expectedCanaryReplicaCount: 10,
		},
		{
			name:                "Do not scale canaryRS down to zero on non-zero weight",
			rolloutSpecReplicas: 1,
			setWeight:           20,
			maxSurge:            intstr.FromInt(1),
			maxUnavailable:      intstr.FromInt(0),

			stableSpecReplica:      1,
			stableAvailableReplica: 1,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 1,
			expectedCanaryReplicaCount: 1,
		},
		{
			name:                "Do not scale canaryRS down to zero on non-100 weight",
			rolloutSpecReplicas: 1,
			setWeight:           90,
			maxSurge:            intstr.FromInt(1),
			maxUnavailable:      intstr.FromInt(0),

			stableSpecReplica:      1,
			stableAvailableReplica: 1,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 1,
			expectedCanaryReplicaCount: 1,
		},
		{
			name:                "Scale canaryRS to zero on <50 weight without surge",
			rolloutSpecReplicas: 1,
			setWeight:           49,
			maxSurge:            intstr.FromInt(0),
			maxUnavailable:      intstr.FromInt(1),

			stableSpecReplica:      1,
			stableAvailableReplica: 1,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 1,
			expectedCanaryReplicaCount: 0,
		},
		{
			name:                "Scale stableRS down to zero on >=50 weight without surge",
			rolloutSpecReplicas: 1,
			setWeight:           51,
			maxSurge:            intstr.FromInt(0),
			maxUnavailable:      intstr.FromInt(1),

			stableSpecReplica:      1,
			stableAvailableReplica: 1,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 0,
			expectedCanaryReplicaCount: 0,
		},
		{
			name:                "Scale canaryRS to one on >=50 weight without surge and stable replicas",
			rolloutSpecReplicas: 1,
			setWeight:           51,
			maxSurge:            intstr.FromInt(0),
			maxUnavailable:      intstr.FromInt(1),

			stableSpecReplica:      0,
			stableAvailableReplica: 0,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 0,
			expectedCanaryReplicaCount: 1,
		},
		{
			name:                "Scale up Stable before canaryRS",
			rolloutSpecReplicas: 10,
			setWeight:           30,
			maxSurge:            intstr.FromInt(1),
			maxUnavailable:      intstr.FromInt(0),

			stableSpecReplica:      1,
			stableAvailableReplica: 1,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 7,
			expectedCanaryReplicaCount: 1,

			olderRS: newRS("older", 3, 3),
		},
		{
			name:                "Scale down canaryRS and stable",
			rolloutSpecReplicas: 10,
			setWeight:           30,
			maxSurge:            intstr.FromInt(0),
			maxUnavailable:      intstr.FromInt(3),

			stableSpecReplica:      8,
			stableAvailableReplica: 5,

			canarySpecReplica:      4,
			canaryAvailableReplica: 4,

			expectedStableReplicaCount: 7,
			expectedCanaryReplicaCount: 3,
		},
		{
			name:                "Scale down stable and canary available",
			rolloutSpecReplicas: 10,
			setWeight:           100,
			maxSurge:            intstr.FromInt(1),
			maxUnavailable:      intstr.FromInt(0),

			stableSpecReplica:      10,
			stableAvailableReplica: 2,

			canarySpecReplica:      10,
			canaryAvailableReplica: 8,

			expectedStableReplicaCount: 2,
			expectedCanaryReplicaCount: 9,
		},
		{
			name:                "Do not scale down canaryRS or stable when older RS count >= scaleDownCount",
			rolloutSpecReplicas: 10,
			setWeight:           30,
			maxSurge:            intstr.FromInt(0),
			maxUnavailable:      intstr.FromInt(1),

			stableSpecReplica:      8,
			stableAvailableReplica: 6,

			canarySpecReplica:      4,
			canaryAvailableReplica: 2,

			expectedStableReplicaCount: 8,
			expectedCanaryReplicaCount: 4,

			olderRS: newRS("older", 3, 3),
		},
		{
			name:                "Do not round past maxSurge with uneven setWeight divisor",
			rolloutSpecReplicas: 10,
			setWeight:           5,
			maxSurge:            intstr.FromInt(0),
			maxUnavailable:      intstr.FromInt(1),

			stableSpecReplica:      10,
			stableAvailableReplica: 10,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 9,
			expectedCanaryReplicaCount: 0,
		},
		{
			name:                "Do not round past maxSurge with uneven setWeight divisor (part 2)",
			rolloutSpecReplicas: 10,
			setWeight:           5,
			maxSurge:            intstr.FromInt(0),
			maxUnavailable:      intstr.FromInt(1),

			stableSpecReplica:      9,
			stableAvailableReplica: 9,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 9,
			expectedCanaryReplicaCount: 1,
		},
		{
			name:                "Use maxUnavailable of 1 when percentage of maxUnavailable and maxSurge result in 0 replicas",
			rolloutSpecReplicas: 10,
			setWeight:           10,
			maxSurge:            intstr.FromString("0%"),
			maxUnavailable:      intstr.FromString("0%"),

			stableSpecReplica:      10,
			stableAvailableReplica: 10,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 9,
			expectedCanaryReplicaCount: 0,
		},
		{
			name: "For canary replicas, use setCanaryScale.replicas when specified along with trafficRouting (and ignore setWeight)",

			rolloutSpecReplicas:    1,
			stableSpecReplica:      1,
			stableAvailableReplica: 1,

			expectedStableReplicaCount: 1,
			expectedCanaryReplicaCount: 9,
			setWeight:                  100,
			setCanaryScale:             newSetCanaryScale(intPnt(9), nil, false),
			trafficRouting:             true,
		},
		{
			name: "Use setCanaryScale.weight for canary replicas when specified with trafficRouting (and ignore setWeight)",

			rolloutSpecReplicas:    4,
			stableSpecReplica:      4,
			stableAvailableReplica: 4,

			expectedStableReplicaCount: 4,
			expectedCanaryReplicaCount: 8,
			setWeight:                  100,
			setCanaryScale:             newSetCanaryScale(nil, intPnt(200), false),
			trafficRouting:             true,
		},
		{
			name:                "Ignore setCanaryScale replicas/weight when matchTrafficWeight is true",
			rolloutSpecReplicas: 10,
			setWeight:           20,
			maxSurge:            intstr.FromString("20%"),
			maxUnavailable:      intstr.FromInt(0),

			stableSpecReplica:      10,
			stableAvailableReplica: 10,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			setCanaryScale: newSetCanaryScale(intPnt(9), intPnt(100), true),
			trafficRouting: true,

			expectedStableReplicaCount: 10,
			expectedCanaryReplicaCount: 2,
		},
		{
			name:                "Ignore setCanaryScale when trafficRouting is missing and use setWeight for replicas",
			rolloutSpecReplicas: 10,
			setWeight:           20,
			maxSurge:            intstr.FromString("20%"),
			maxUnavailable:      intstr.FromInt(0),

			stableSpecReplica:      10,
			stableAvailableReplica: 10,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			setCanaryScale: newSetCanaryScale(intPnt(9), intPnt(100), false),
			trafficRouting: false,

			expectedStableReplicaCount: 10,
			expectedCanaryReplicaCount: 2,
		},
		{
			// verify we surge canary up correctly when stable RS is not available
			name:                "honor maxSurge during scale up when stableRS unavailable",
			rolloutSpecReplicas: 4,
			setWeight:           100,
			maxSurge:            intstr.FromInt(1),
			maxUnavailable:      intstr.FromInt(0),

			stableSpecReplica:      4,
			stableAvailableReplica: 1,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 4,
			expectedCanaryReplicaCount: 1, // should only surge by 1 to honor maxSurge: 1
		},
		{
			name:                "scale down to maxunavailable without exceeding maxSurge",
			rolloutSpecReplicas: 3,
			setWeight:           99,
			maxSurge:            intstr.FromInt(0),
			maxUnavailable:      intstr.FromInt(2),

			stableSpecReplica:      3,
			stableAvailableReplica: 3,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 1,
			expectedCanaryReplicaCount: 0,
		},
		{
			name:                "scale down to maxunavailable without exceeding maxSurge (part 2)",
			rolloutSpecReplicas: 3,
			setWeight:           99,
			maxSurge:            intstr.FromInt(0),
			maxUnavailable:      intstr.FromInt(2),

			stableSpecReplica:      1,
			stableAvailableReplica: 1,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 1,
			expectedCanaryReplicaCount: 2,
		}, {
			// verify we scale down stableRS while honoring maxUnavailable even when stableRS unavailable
			name:                "honor maxUnavailable during scale down stableRS unavailable",
			rolloutSpecReplicas: 4,
			setWeight:           100,
			maxSurge:            intstr.FromInt(1),
			maxUnavailable:      intstr.FromInt(0),

			stableSpecReplica:      4,
			stableAvailableReplica: 1,

			canarySpecReplica:      1,
			canaryAvailableReplica: 1,

			expectedStableReplicaCount: 3, // should only scale down by 1 to honor maxUnavailable: 0
			expectedCanaryReplicaCount: 1,
		},
		{
			// verify we honor maxUnavailable when aborting or reducing weight
			name:                "honor maxUnavailable when aborting or reducing weight part 1",
			rolloutSpecReplicas: 4,
			setWeight:           0,
			maxSurge:            intstr.FromInt(1),
			maxUnavailable:      intstr.FromInt(0),

			stableSpecReplica:      0,
			stableAvailableReplica: 0,

			canarySpecReplica:      4,
			canaryAvailableReplica: 4,

			expectedStableReplicaCount: 1,
			expectedCanaryReplicaCount: 4, // should not bring down canary until we surge stable
		},
		{
			// verify we honor maxUnavailable when aborting or reducing weight (after surging stable)
			name:                "honor maxUnavailable when aborting or reducing weight part 2",
			rolloutSpecReplicas: 4,
			setWeight:           0,
			maxSurge:            intstr.FromInt(1),
			maxUnavailable:      intstr.FromInt(0),

			stableSpecReplica:      1,
			stableAvailableReplica: 0,

			canarySpecReplica:      4,
			canaryAvailableReplica: 4,

			expectedStableReplicaCount: 1, // should not adjust counts at all since stable not available
			expectedCanaryReplicaCount: 4,
		},
		{
			// verify we honor maxUnavailable when aborting or reducing weight (after stable surge availability)
			name:                "honor maxUnavailable when aborting or reducing weight part 3",
			rolloutSpecReplicas: 4,
			setWeight:           0,
			maxSurge:            intstr.FromInt(1),
			maxUnavailable:      intstr.FromInt(0),

			stableSpecReplica:      1,
			stableAvailableReplica: 1,

			canarySpecReplica:      4,
			canaryAvailableReplica: 4,

			expectedStableReplicaCount: 1,
			expectedCanaryReplicaCount: 3, // should only reduce by 1 to honor maxUnavailable
		},
		{
			// verify when promoting a rollout fully, we don't consider canary weight
			name:                "promote full does not consider weight",
			promoteFull:         true,
			rolloutSpecReplicas: 4,
			setWeight:           1,
			maxSurge:            intstr.FromInt(4),
			maxUnavailable:      intstr.FromInt(4),

			stableSpecReplica:      4,
			stableAvailableReplica: 4,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 0,
			expectedCanaryReplicaCount: 4,
		},
		{
			// verify when promoting a rollout fully, we still honor maxSurge and maxUnavailable
			name:                "promote full still honors maxSurge/maxUnavailable",
			promoteFull:         true,
			rolloutSpecReplicas: 4,
			setWeight:           1,
			maxSurge:            intstr.FromInt(3),
			maxUnavailable:      intstr.FromInt(0),

			stableSpecReplica:      4,
			stableAvailableReplica: 4,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			expectedStableReplicaCount: 4,
			expectedCanaryReplicaCount: 3,
		},
		{
			// verify when we are aborted, and have abortScaleDownDelaySeconds: 0, and use setCanaryScale, we dont scale down canary
			name:                       "aborted with abortScaleDownDelaySeconds:0 and setCanaryScale",
			rolloutSpecReplicas:        1,
			setCanaryScale:             newSetCanaryScale(intPnt(1), nil, false),
			trafficRouting:             true,
			abortScaleDownDelaySeconds: intPnt(0),
			statusAbort:                true,

			stableSpecReplica:      1,
			stableAvailableReplica: 1,

			canarySpecReplica:      1,
			canaryAvailableReplica: 1,

			expectedStableReplicaCount: 1,
			expectedCanaryReplicaCount: 1,
		},
		{
			// verify when we are aborted, and have abortScaleDownDelaySeconds>0, and use setCanaryScale, we scale down canary
			name:                       "aborted with abortScaleDownDelaySeconds>0 and setCanaryScale",
			rolloutSpecReplicas:        1,
			setCanaryScale:             newSetCanaryScale(intPnt(1), nil, false),
			trafficRouting:             true,
			abortScaleDownDelaySeconds: intPnt(30),
			statusAbort:                true,

			stableSpecReplica:      1,
			stableAvailableReplica: 1,

			canarySpecReplica:      1,
			canaryAvailableReplica: 1,

			expectedStableReplicaCount: 1,
			expectedCanaryReplicaCount: 0,
		},
		{
			name:                "Honor MinPodsPerReplicaSet when using trafficRouting and starting canary",
			rolloutSpecReplicas: 10,
			setWeight:           5,

			stableSpecReplica:      10,
			stableAvailableReplica: 10,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			trafficRouting:       true,
			minPodsPerReplicaSet: intPnt(2),

			expectedStableReplicaCount: 10,
			expectedCanaryReplicaCount: 2,
		},
		{
			name:                "Cap MinPodsPerReplicaSet when it exceeds rollout replicas with trafficRouting",
			rolloutSpecReplicas: 1,
			setWeight:           100,
			promoteFull:         true,

			stableSpecReplica:      1,
			stableAvailableReplica: 1,

			canarySpecReplica:      0,
			canaryAvailableReplica: 0,

			trafficRouting:       true,
			minPodsPerReplicaSet: intPnt(2),

			expectedStableReplicaCount: 1,
			expectedCanaryReplicaCount: 1,
		},
	}
	ran := 0
	for _, test := range tests {
		if test.trafficRouting {
			continue // a traffic router's arithmetic, not modelled
		}
		ran++
		t.Run(test.name, func(t *testing.T) {
			r := newRollout(test.rolloutSpecReplicas, test.setWeight, test.maxSurge, test.maxUnavailable, test.setCanaryScale)
			r.Status.PromoteFull = test.promoteFull
			r.Status.Abort = test.statusAbort
			stable := newRS("stable", test.stableSpecReplica, test.stableAvailableReplica)
			canary := newRS("canary", test.canarySpecReplica, test.canaryAvailableReplica)
			gotCanary, gotStable := argo.BasicCanaryReplicaCounts(r, canary, stable, []*argo.ReplicaSetCount{test.olderRS})
			if gotCanary != test.expectedCanaryReplicaCount || gotStable != test.expectedStableReplicaCount {
				t.Errorf("canary %d stable %d, Argo's %d and %d", gotCanary, gotStable, test.expectedCanaryReplicaCount, test.expectedStableReplicaCount)
			}
		})
	}
	if ran < 30 {
		t.Errorf("ran %d of Argo's cases", ran)
	}
}

// Argo's stable-set edge cases (TestCalculateReplicaCountsForCanaryStableRSdEdgeCases).
func TestArgosStableSetEdgeCases(t *testing.T) {
	r := newRollout(10, 10, intstr.FromInt(0), intstr.FromInt(1), nil)
	r.Status = argo.RolloutStatus{}
	if c, s := argo.BasicCanaryReplicaCounts(r, newRS("stable", 9, 9), nil, nil); c != 10 || s != 0 {
		t.Errorf("no stable set: %d, %d; Argo's 10, 0", c, s)
	}
	if c, s := argo.BasicCanaryReplicaCounts(r, newRS("stable", 9, 9), newRS("stable", 9, 9), nil); c != 10 || s != 0 {
		t.Errorf("the new set is the stable one: %d, %d; Argo's 10, 0", c, s)
	}
}

func TestArgosApproximateWeightedCounts(t *testing.T) {
	tests := []struct {
		replicas  int32
		weight    int32
		maxWeight int32
		maxSurge  int32
		expCanary int32
		expStable int32
	}{
		{replicas: 0, weight: 0, maxWeight: 100, maxSurge: 0, expCanary: 0, expStable: 0},   // 0%
		{replicas: 0, weight: 50, maxWeight: 100, maxSurge: 0, expCanary: 0, expStable: 0},  // 0%
		{replicas: 0, weight: 100, maxWeight: 100, maxSurge: 0, expCanary: 0, expStable: 0}, // 0%

		{replicas: 0, weight: 0, maxWeight: 100, maxSurge: 1, expCanary: 0, expStable: 0},   // 0%
		{replicas: 0, weight: 50, maxWeight: 100, maxSurge: 1, expCanary: 0, expStable: 0},  // 0%
		{replicas: 0, weight: 100, maxWeight: 100, maxSurge: 1, expCanary: 0, expStable: 0}, // 0%

		{replicas: 1, weight: 0, maxWeight: 100, maxSurge: 0, expCanary: 0, expStable: 1},   // 0%
		{replicas: 1, weight: 1, maxWeight: 100, maxSurge: 0, expCanary: 0, expStable: 1},   // 0%
		{replicas: 1, weight: 49, maxWeight: 100, maxSurge: 0, expCanary: 0, expStable: 1},  // 0%
		{replicas: 1, weight: 50, maxWeight: 100, maxSurge: 0, expCanary: 1, expStable: 0},  // 100%
		{replicas: 1, weight: 99, maxWeight: 100, maxSurge: 0, expCanary: 1, expStable: 0},  // 100%
		{replicas: 1, weight: 100, maxWeight: 100, maxSurge: 0, expCanary: 1, expStable: 0}, // 100%

		{replicas: 1, weight: 0, maxWeight: 100, maxSurge: 1, expCanary: 0, expStable: 1},   // 0%
		{replicas: 1, weight: 1, maxWeight: 100, maxSurge: 1, expCanary: 1, expStable: 1},   // 50%
		{replicas: 1, weight: 49, maxWeight: 100, maxSurge: 1, expCanary: 1, expStable: 1},  // 50%
		{replicas: 1, weight: 50, maxWeight: 100, maxSurge: 1, expCanary: 1, expStable: 1},  // 50%
		{replicas: 1, weight: 99, maxWeight: 100, maxSurge: 1, expCanary: 1, expStable: 1},  // 50%
		{replicas: 1, weight: 100, maxWeight: 100, maxSurge: 1, expCanary: 1, expStable: 0}, // 100%

		{replicas: 2, weight: 0, maxWeight: 100, maxSurge: 0, expCanary: 0, expStable: 2},   // 0%
		{replicas: 2, weight: 1, maxWeight: 100, maxSurge: 0, expCanary: 1, expStable: 1},   // 50%
		{replicas: 2, weight: 50, maxWeight: 100, maxSurge: 0, expCanary: 1, expStable: 1},  // 50%
		{replicas: 2, weight: 99, maxWeight: 100, maxSurge: 0, expCanary: 1, expStable: 1},  // 50%
		{replicas: 2, weight: 100, maxWeight: 100, maxSurge: 0, expCanary: 2, expStable: 0}, // 100%

		{replicas: 2, weight: 0, maxWeight: 100, maxSurge: 1, expCanary: 0, expStable: 2},   // 0%
		{replicas: 2, weight: 1, maxWeight: 100, maxSurge: 1, expCanary: 1, expStable: 2},   // 33.3%
		{replicas: 2, weight: 50, maxWeight: 100, maxSurge: 1, expCanary: 1, expStable: 1},  // 50%
		{replicas: 2, weight: 99, maxWeight: 100, maxSurge: 1, expCanary: 2, expStable: 1},  // 66.6%
		{replicas: 2, weight: 100, maxWeight: 100, maxSurge: 1, expCanary: 2, expStable: 0}, // 100%

		{replicas: 3, weight: 10, maxWeight: 100, maxSurge: 0, expCanary: 1, expStable: 2}, // 33.3%
		{replicas: 3, weight: 25, maxWeight: 100, maxSurge: 0, expCanary: 1, expStable: 2}, // 33.3%
		{replicas: 3, weight: 33, maxWeight: 100, maxSurge: 0, expCanary: 1, expStable: 2}, // 33.3%
		{replicas: 3, weight: 34, maxWeight: 100, maxSurge: 0, expCanary: 1, expStable: 2}, // 33.3%
		{replicas: 3, weight: 49, maxWeight: 100, maxSurge: 0, expCanary: 1, expStable: 2}, // 33.3%
		{replicas: 3, weight: 50, maxWeight: 100, maxSurge: 0, expCanary: 2, expStable: 1}, // 66.6%

		{replicas: 3, weight: 10, maxWeight: 100, maxSurge: 1, expCanary: 1, expStable: 3}, // 25%
		{replicas: 3, weight: 25, maxWeight: 100, maxSurge: 1, expCanary: 1, expStable: 3}, // 25%
		{replicas: 3, weight: 33, maxWeight: 100, maxSurge: 1, expCanary: 1, expStable: 2}, // 33.3%
		{replicas: 3, weight: 34, maxWeight: 100, maxSurge: 1, expCanary: 1, expStable: 2}, // 33.3%
		{replicas: 3, weight: 49, maxWeight: 100, maxSurge: 1, expCanary: 2, expStable: 2}, // 50%
		{replicas: 3, weight: 50, maxWeight: 100, maxSurge: 1, expCanary: 2, expStable: 2}, // 50%

		{replicas: 10, weight: 0, maxWeight: 100, maxSurge: 1, expCanary: 0, expStable: 10},   // 0%
		{replicas: 10, weight: 1, maxWeight: 100, maxSurge: 0, expCanary: 1, expStable: 9},    // 10%
		{replicas: 10, weight: 14, maxWeight: 100, maxSurge: 0, expCanary: 1, expStable: 9},   // 10%
		{replicas: 10, weight: 15, maxWeight: 100, maxSurge: 0, expCanary: 2, expStable: 8},   // 20%
		{replicas: 10, weight: 16, maxWeight: 100, maxSurge: 0, expCanary: 2, expStable: 8},   // 20%
		{replicas: 10, weight: 99, maxWeight: 100, maxSurge: 0, expCanary: 9, expStable: 1},   // 90%
		{replicas: 10, weight: 100, maxWeight: 100, maxSurge: 1, expCanary: 10, expStable: 0}, // 100%

		{replicas: 10, weight: 0, maxWeight: 100, maxSurge: 1, expCanary: 0, expStable: 10},   // 0%
		{replicas: 10, weight: 1, maxWeight: 100, maxSurge: 1, expCanary: 1, expStable: 10},   // 9.1%
		{replicas: 10, weight: 18, maxWeight: 100, maxSurge: 1, expCanary: 2, expStable: 9},   // 18.1%
		{replicas: 10, weight: 19, maxWeight: 100, maxSurge: 1, expCanary: 2, expStable: 9},   // 18.1%
		{replicas: 10, weight: 20, maxWeight: 100, maxSurge: 1, expCanary: 2, expStable: 8},   // 20%
		{replicas: 10, weight: 23, maxWeight: 100, maxSurge: 1, expCanary: 2, expStable: 8},   // 20%
		{replicas: 10, weight: 24, maxWeight: 100, maxSurge: 1, expCanary: 3, expStable: 8},   // 27.2%
		{replicas: 10, weight: 25, maxWeight: 100, maxSurge: 1, expCanary: 3, expStable: 8},   // 27.2%
		{replicas: 10, weight: 99, maxWeight: 100, maxSurge: 1, expCanary: 10, expStable: 1},  // 90.9%
		{replicas: 10, weight: 100, maxWeight: 100, maxSurge: 1, expCanary: 10, expStable: 0}, // 100%

	}
	for _, c := range tests {
		canary, stable := argo.ApproximateWeightedCounts(c.replicas, c.weight, c.maxWeight, c.maxSurge)
		if canary != c.expCanary || stable != c.expStable {
			t.Errorf("%+v: canary %d stable %d", c, canary, stable)
		}
	}
}
