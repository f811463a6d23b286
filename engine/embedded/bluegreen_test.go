package embedded_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/embedded"
	"rollscope/engine/sim"
	"rollscope/internal/rolloutfixture"
	"rollscope/kube/memapi"
	"rollscope/model/argo"
)

// blueGreenRun records what a blue/green Rollout's run changes, in order:
// "v2=3" a ReplicaSet's spec.replicas (named by its image tag), "active→v2"
// a Service's selected pod-template hash, "Paused: BlueGreenPause" the
// Rollout's phase and message.
type blueGreenRun struct {
	seq      []string
	at       []time.Duration // since the start, of each of seq
	replicas map[string]int32
	selects  map[string]string
	phase    string
	tags     map[string]string // pod-template hash → image tag
}

func (r *blueGreenRun) add(now time.Time, entry string) {
	r.seq = append(r.seq, entry)
	r.at = append(r.at, now.Sub(epoch))
}

// last is when entry last happened.
func (r *blueGreenRun) last(entry string) time.Duration {
	for j := len(r.seq) - 1; j >= 0; j-- {
		if r.seq[j] == entry {
			return r.at[j]
		}
	}
	return -1
}

func (r *blueGreenRun) tag(hash string) string {
	if t, ok := r.tags[hash]; ok {
		return t
	}
	return hash
}

func (r *blueGreenRun) observe(now time.Time, ev watch.Event) {
	if ev.Type == watch.Deleted {
		return
	}
	switch o := ev.Object.(type) {
	case *appsv1.ReplicaSet:
		img := o.Spec.Template.Spec.Containers[0].Image
		tag := img[strings.LastIndex(img, ":")+1:]
		r.tags[o.Labels[argo.PodTemplateHashLabel]] = tag
		if n := *o.Spec.Replicas; r.replicas[tag] != n || ev.Type == watch.Added {
			r.replicas[tag] = n
			r.add(now, fmt.Sprintf("%s=%d", tag, n))
		}
	case *corev1.Service:
		if h := o.Spec.Selector[argo.PodTemplateHashLabel]; h != r.selects[o.Name] {
			r.selects[o.Name] = h
			r.add(now, fmt.Sprintf("%s→%s", strings.TrimPrefix(o.Name, "checkout-"), r.tag(h)))
		}
	default:
		var ro *argo.Rollout
		switch x := o.(type) {
		case *argo.Rollout:
			ro = x
		case *unstructured.Unstructured:
			ro, _ = argo.RolloutOf(x)
		}
		if ro == nil {
			return
		}
		p := string(ro.Status.Phase)
		if ro.Status.Message != "" {
			p += ": " + ro.Status.Message
		}
		if p != r.phase && p != "" {
			r.phase = p
			r.add(now, p)
		}
	}
}

func runBlueGreen(t *testing.T, strategy, actions string) *blueGreenRun {
	t.Helper()
	sc := parse(t, "bluegreen.yaml", `namespace: shop
seed: 1
nodeGroups:
  - {name: nodes, role: Node, size: 2, capacity: {pods: 110, cpu: "8", memory: 32Gi}}
images:
  - {match: "shop/checkout:*", pull: 1s, start: 1s, ready: 2s}
objects: |
`+rolloutfixture.BlueGreen(3, strategy)+`actions:
`+actions)
	r := &blueGreenRun{replicas: map[string]int32{}, selects: map[string]string{}, tags: map[string]string{}}
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
	c, err := embedded.Start(context.Background(), api, clock, sc, embedded.Options{Observers: []sim.Observer{r.observe}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background(), 10*time.Minute); err != nil {
		t.Fatal(err)
	}
	return r
}

// The initial deploy, as Argo's controller plays it: the ReplicaSet is
// created at zero and scaled to full (createDesiredReplicaSet,
// reconcileNewReplicaSet), the preview Service selects it at once
// (reconcilePreviewService) and it is stable at once (shouldFullPromote:
// "Initial deploy"); the active Service is switched once it is saturated
// (reconcileActiveService: a Service without a hash is fast-tracked).
var blueGreenInitialDeploy = []string{
	"v1=0", "preview→v1", "v1=3",
	"Progressing: more replicas need to be updated",
	"Progressing: updated replicas are still becoming available",
	"active→v1", "Healthy",
	// The update: the new ReplicaSet at zero, previewed at once, scaled to
	// full (NewRSNewReplicas without previewReplicaCount); the phase is
	// counted on the active ReplicaSet (syncRolloutStatusBlueGreen), so
	// once v2 is up only the cutover is pending (CalculateRolloutPhase).
	"v2=0", "preview→v2",
	"Progressing: more replicas need to be updated",
	"v2=3",
	"Progressing: active service cutover pending",
}

func TestBlueGreenPlayedAsArgo(t *testing.T) {
	const setV2 = `  - {at: 60s, setImage: {target: rollout/checkout, image: "shop/checkout:v2"}}` + "\n"
	for _, tc := range []struct {
		name, strategy, actions string
		want                    []string
		// delay is how long after the switch to v2 (the abort) v1 (v2)
		// is scaled to zero: the scale-down-deadline Argo writes is the
		// time of the sync plus the delay, in whole seconds.
		delay         time.Duration
		from, scaleTo string
	}{{
		// autoPromotionEnabled by default and no autoPromotionSeconds:
		// no pause (needsBlueGreenControllerPause false), the switch as
		// soon as v2 is saturated (CompletedBlueGreenPause), v2 stable
		// ("Completed blue-green update"), v1 given the default 30 s
		// (scaleDownDelayHelper) and then scaled to zero.
		name:    "auto-promotion",
		actions: setV2,
		want:    append(slices.Clone(blueGreenInitialDeploy), "active→v2", "Healthy", "v1=0"),
		delay:   30 * time.Second, from: "active→v2", scaleTo: "v1=0",
	}, {
		// autoPromotionEnabled false: the controller adds the
		// BlueGreenPause once v2 is ready (reconcileBlueGreenPause) and
		// holds the active Service; the promote clears it (controllerPause
		// stays, CompletedBlueGreenPause), the active Service switches and
		// v1 goes after scaleDownDelaySeconds.
		name:     "no auto-promotion, scale-down delay",
		strategy: ", autoPromotionEnabled: false, scaleDownDelaySeconds: 10",
		actions:  setV2 + `  - {at: 120s, promote: rollout/checkout}` + "\n",
		want: append(slices.Clone(blueGreenInitialDeploy), "Paused: BlueGreenPause",
			// checkPausedConditions writes the resumed conditions first.
			"Progressing: active service cutover pending",
			"active→v2", "Healthy", "v1=0"),
		delay: 10 * time.Second, from: "active→v2", scaleTo: "v1=0",
	}, {
		// An abort while paused: the active Service stays on v1 (the
		// stable hash, reconcileActiveService), the preview keeps v2 until
		// abortScaleDownDelaySeconds (30 s by default) pass
		// (reconcileNewReplicaSet, shouldDelayScaleDownOnAbort); a retry
		// takes the deadline off and scales v2 back up, and the pause comes
		// back.
		name:     "abort and retry",
		strategy: ", autoPromotionEnabled: false",
		actions:  setV2 + `  - {at: 120s, abort: rollout/checkout}` + "\n" + `  - {at: 200s, retry: rollout/checkout}` + "\n",
		want: append(slices.Clone(blueGreenInitialDeploy), "Paused: BlueGreenPause",
			"Degraded: RolloutAborted: Rollout aborted update to revision 2", "v2=0",
			"Progressing: more replicas need to be updated", "v2=3",
			"Progressing: active service cutover pending", "Paused: BlueGreenPause"),
		delay: 30 * time.Second, from: "Degraded: RolloutAborted: Rollout aborted update to revision 2", scaleTo: "v2=0",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			r := runBlueGreen(t, tc.strategy, tc.actions)
			if !slices.Equal(r.seq, tc.want) {
				t.Fatalf("sequence:\n%s\nwant:\n%s", strings.Join(r.seq, "\n"), strings.Join(tc.want, "\n"))
			}
			from, to := r.last(tc.from), r.last(tc.scaleTo)
			if want := from.Truncate(time.Second) + tc.delay; to != want {
				t.Errorf("%s at %s, %s at %s: want it at %s (the deadline %s after, in whole seconds)", tc.from, from, tc.scaleTo, to, want, tc.delay)
			}
		})
	}
}
