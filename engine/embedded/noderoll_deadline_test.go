package embedded_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/drain"
	"rollscope/engine/noderoll"
	"rollscope/model"
)

// While the cluster does not validate, the roll keeps on one of its nodes
// when it fails unless the cluster validates first, and the Nodes pane
// counts down to it. Held against the roll: the deadline is written once a
// wait and never moves; no drain starts and no node is detached while a
// node carries it; and a roll that never validates fails at the deadline
// it wrote — after rollscope restarts mid-wait too, not a whole timeout
// later — and leaves no deadline behind.
func TestTheRollFailsWhenItsDeadlineSays(t *testing.T) {
	const timeout = 2 * time.Minute
	for _, restart := range []bool{false, true} {
		t.Run(fmt.Sprintf("restarted mid-wait %v", restart), func(t *testing.T) {
			// The replacement boots for ten minutes: after the first node
			// the cluster cannot validate within the timeout.
			r := startRollRun(t, strings.Replace(groupScenario("Node", 3, 10, 4, 3, "0", "1"), "bootTime: 20s", "bootTime: 10m", 1))
			var deadlines, untrue []string
			var failedAt time.Time
			var failure string
			moving := map[string]bool{} // nodes seen draining or detached
			r.also = func(now time.Time, ev watch.Event) {
				if _, ok := ev.Object.(*corev1.Node); !ok {
					return
				}
				nodes, _ := r.cluster.Runner.Listers().Nodes.List(labels.Everything())
				carried := ""
				for _, n := range nodes {
					if at := n.Annotations[model.RollFailsAtAnnotation]; at != "" {
						carried = at
					}
				}
				if carried != "" && (len(deadlines) == 0 || deadlines[len(deadlines)-1] != carried) {
					deadlines = append(deadlines, carried)
				}
				for _, n := range nodes {
					if n.Annotations[model.RollStateAnnotation] == model.RollFailed && failedAt.IsZero() {
						failedAt, failure = now, n.Annotations[model.RollMessageAnnotation]
					}
					if n.Annotations[model.RollNodeAnnotation] == model.RollStepDraining || model.NodeDetached(n) {
						if !moving[n.Name] && carried != "" {
							untrue = append(untrue, fmt.Sprintf("at %s %s started draining or was detached while a node said the roll fails at %s", now.Sub(epoch), n.Name, carried))
						}
						moving[n.Name] = true
					}
				}
			}
			r.runFor(time.Minute)
			r.requestRoll("pool", noderoll.Options{ValidationTimeout: drain.Duration(timeout)})
			r.runUntil(10*time.Minute, "a deadline on a node", func() bool { return len(deadlines) > 0 })
			if restart {
				r.runFor(30 * time.Second)
				r.restart()
			}
			r.finish()
			for _, u := range untrue {
				t.Error(u)
			}
			if len(deadlines) != 1 {
				t.Fatalf("the roll's nodes carried deadlines %v; want one, written once for the one wait", deadlines)
			}
			want, err := time.Parse(time.RFC3339Nano, deadlines[0])
			if err != nil {
				t.Fatalf("deadline %q: %v", deadlines[0], err)
			}
			if !failedAt.Equal(want) {
				t.Errorf("the roll failed at %s; its nodes said it would at %s", failedAt.Sub(epoch), want.Sub(epoch))
			}
			if !strings.Contains(failure, "did not validate within 2m0s") {
				t.Errorf("the roll failed with %q; want the validation timeout", failure)
			}
			for _, n := range r.nodes() {
				if at, ok := n.Annotations[model.RollFailsAtAnnotation]; ok {
					t.Errorf("node %s still carries the deadline %s after the roll failed", n.Name, at)
				}
			}
		})
	}
}

// A paused roll is the operator's to hold: while it is paused no node
// carries a deadline and the roll does not fail, however long the cluster
// fails to validate; resumed, it waits a whole timeout again before it
// fails.
func TestAPausedRollNeitherCountsDownNorFails(t *testing.T) {
	const timeout = 2 * time.Minute
	r := startRollRun(t, strings.Replace(groupScenario("Node", 3, 10, 4, 3, "0", "1"), "bootTime: 20s", "bootTime: 10m", 1))
	var pausedAt, resumedAt, failedAt time.Time
	var untrue []string
	deadline := ""
	r.also = func(now time.Time, ev watch.Event) {
		if _, ok := ev.Object.(*corev1.Node); !ok {
			return
		}
		nodes, _ := r.cluster.Runner.Listers().Nodes.List(labels.Everything())
		deadline = ""
		for _, n := range nodes {
			if at := n.Annotations[model.RollFailsAtAnnotation]; at != "" {
				deadline = at
			}
			if n.Annotations[model.RollStateAnnotation] == model.RollFailed && failedAt.IsZero() {
				failedAt = now
			}
		}
		// The pause's own node writes come first; the roll's sync after them.
		if paused := !pausedAt.IsZero() && resumedAt.IsZero() && now.Sub(pausedAt) > 5*time.Second; paused && (deadline != "" || !failedAt.IsZero()) {
			untrue = append(untrue, fmt.Sprintf("at %s, paused since %s: deadline %q, failed %v", now.Sub(epoch), pausedAt.Sub(epoch), deadline, !failedAt.IsZero()))
		}
	}
	r.runFor(time.Minute)
	r.requestRoll("pool", noderoll.Options{ValidationTimeout: drain.Duration(timeout)})
	r.runUntil(10*time.Minute, "a deadline on a node", func() bool { return deadline != "" })
	ctx := context.Background()
	if err := noderoll.Pause(ctx, r.api.Client(), "pool"); err != nil {
		t.Fatal(err)
	}
	pausedAt = r.clock.Now()
	r.runFor(4 * timeout)
	if err := noderoll.Resume(ctx, r.api.Client(), "pool"); err != nil {
		t.Fatal(err)
	}
	resumedAt = r.clock.Now()
	r.finish()
	for _, u := range untrue {
		t.Error(u)
	}
	if failedAt.IsZero() {
		t.Fatal("the roll never failed; its replacements boot for longer than its validation timeout")
	}
	if failedAt.Before(resumedAt.Add(timeout)) {
		t.Errorf("resumed at %s, the roll failed at %s: before a whole timeout (%s) of waiting again", resumedAt.Sub(epoch), failedAt.Sub(epoch), timeout)
	}
}
