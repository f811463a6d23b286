package replicaset

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model/upstreamcases"
)

func TestUpstreamSlowStartBatch(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "slow_start_batch") {
		t.Run(c.ID, func(t *testing.T) {
			var in struct {
				Count, InitialBatchSize, FnSucceedsForFirstNCalls int
			}
			var want struct {
				Successes   int
				Error       bool
				FnCallCount int
			}
			c.Decode(t, &in, &want)
			calls := 0
			got, err := slowStart(in.Count, in.InitialBatchSize, func() error {
				calls++
				if calls > in.FnSucceedsForFirstNCalls {
					return errors.New("refused")
				}
				return nil
			})
			if got != want.Successes || (err != nil) != want.Error || calls != want.FnCallCount {
				t.Errorf("%s: successes %d, error %v, calls %d; want %d, error %v, calls %d",
					c.Source.Case, got, err, calls, want.Successes, want.Error, want.FnCallCount)
			}
		})
	}
}

func TestUpstreamGetPodsToDelete(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "get_pods_to_delete") {
		t.Run(c.ID, func(t *testing.T) {
			var in struct {
				PodDefs map[string]struct {
					NodeName string
					Phase    corev1.PodPhase
					Ready    *bool
				}
				Pods        []string
				RelatedPods json.RawMessage
				Diff        int
			}
			var want struct{ PodsToDelete []string }
			c.Decode(t, &in, &want)
			build := func(name string) *corev1.Pod {
				def, ok := in.PodDefs[name]
				if !ok {
					t.Fatalf("%s: pod %q has no definition", c.ID, name)
				}
				p := &corev1.Pod{
					ObjectMeta: metav1.ObjectMeta{Name: name},
					Spec:       corev1.PodSpec{NodeName: def.NodeName},
					Status:     corev1.PodStatus{Phase: def.Phase},
				}
				if def.Ready != nil {
					status := corev1.ConditionFalse
					if *def.Ready {
						status = corev1.ConditionTrue
					}
					p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: status}}
				}
				return p
			}
			var pods []*corev1.Pod
			for _, n := range in.Pods {
				pods = append(pods, build(n))
			}
			related := pods
			var relatedNames []string
			if err := json.Unmarshal(in.RelatedPods, &relatedNames); err == nil {
				related = nil
				for _, n := range relatedNames {
					related = append(related, build(n))
				}
			}
			got := []string{}
			for _, p := range podsToDelete(pods, related, in.Diff, time.Now(), defaultGates) {
				got = append(got, p.Name)
			}
			if want.PodsToDelete == nil {
				want.PodsToDelete = []string{}
			}
			if !slices.Equal(got, want.PodsToDelete) {
				t.Errorf("%s: deleted %v, want %v", c.Source.Case, got, want.PodsToDelete)
			}
		})
	}
}

// rankedPod is a pod as the active_pods_with_ranks cases describe it.
type rankedPod struct {
	Name              string
	NodeName          string
	Phase             corev1.PodPhase
	Ready             bool
	RestartCount      *int32
	ReadySince        *string
	CreationTimestamp string
	Annotations       map[string]string
}

// at resolves the cases' time words: "zero", "now", "now-5h", "now-1month".
func at(t *testing.T, word string, now time.Time) time.Time {
	t.Helper()
	switch {
	case word == "zero":
		return time.Time{}
	case word == "now":
		return now
	case word == "now-1month":
		return now.AddDate(0, -1, 0)
	case strings.HasPrefix(word, "now-"):
		d, err := time.ParseDuration(strings.TrimPrefix(word, "now-"))
		if err != nil {
			t.Fatalf("bad time %q: %v", word, err)
		}
		return now.Add(-d)
	}
	t.Fatalf("bad time %q", word)
	return time.Time{}
}

func (r rankedPod) pod(t *testing.T, now time.Time) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:              r.Name,
			Annotations:       r.Annotations,
			CreationTimestamp: metav1.NewTime(at(t, r.CreationTimestamp, now)),
		},
		Spec:   corev1.PodSpec{NodeName: r.NodeName},
		Status: corev1.PodStatus{Phase: r.Phase},
	}
	if r.Ready {
		since := time.Time{}
		if r.ReadySince != nil {
			since = at(t, *r.ReadySince, now)
		}
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(since)}}
	}
	if r.RestartCount != nil {
		p.Status.ContainerStatuses = []corev1.ContainerStatus{{RestartCount: *r.RestartCount}}
	}
	return p
}

func TestUpstreamActivePodsWithRanks(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range upstreamcases.ByGroup(t, "active_pods_with_ranks") {
		t.Run(c.ID, func(t *testing.T) {
			var in struct {
				P1, P2, Lesser, Greater *rankedPod
				Ranks                   []int
				LesserRank, GreaterRank int
				Now                     string
				Gates                   gates
			}
			var want map[string]bool
			c.Decode(t, &in, &want)
			var first, second *rankedPod
			var ranks []int
			var forward, backward string
			switch {
			case in.P1 != nil && in.P2 != nil:
				first, second, ranks = in.P1, in.P2, in.Ranks
				forward, backward = "less(0,1)", "less(1,0)"
			case in.Lesser != nil && in.Greater != nil:
				first, second, ranks = in.Lesser, in.Greater, []int{in.LesserRank, in.GreaterRank}
				forward, backward = "less(lesser,greater)", "less(greater,lesser)"
			default:
				t.Fatalf("%s: neither p1/p2 nor lesser/greater", c.ID)
			}
			wantForward, ok1 := want[forward]
			wantBackward, ok2 := want[backward]
			if !ok1 || !ok2 || len(ranks) != 2 {
				t.Fatalf("%s: expected %s and %s with two ranks, got %v and ranks %v", c.ID, forward, backward, want, ranks)
			}
			o := newDeletionOrder([]*corev1.Pod{first.pod(t, now), second.pod(t, now)}, ranks, at(t, in.Now, now), in.Gates)
			if got := o.Less(0, 1); got != wantForward {
				t.Errorf("%s: %s = %v, want %v", c.Source.Case, forward, got, wantForward)
			}
			if got := o.Less(1, 0); got != wantBackward {
				t.Errorf("%s: %s = %v, want %v", c.Source.Case, backward, got, wantBackward)
			}
		})
	}
}

func TestDeletionCostParsing(t *testing.T) {
	for value, want := range map[string]int32{
		"10": 10, "-5": -5, "0": 0, "+10": 0, "008": 0, "x": 0, "": 0, "99999999999": 0,
	} {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{"controller.kubernetes.io/pod-deletion-cost": value}}}
		if got := deletionCost(p); got != want {
			t.Errorf("deletionCost(%q) = %d, want %d", value, got, want)
		}
	}
}
