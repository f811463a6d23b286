package cluster_test

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
)

func warning(name, pod, reason, message string, count int32, minute int) *corev1.Event {
	e := event(name, "Pod", pod, reason, message, count, at(minute))
	e.Type = corev1.EventTypeWarning
	e.ResourceVersion = name + string(rune('0'+count))
	return e
}

// Warning events of the rollout's pods reach its timeline as one line per
// reason, with how often and on how many pods; routine pod events do not.
func TestTimelinePodWarnings(t *testing.T) {
	m := newMidRollout()
	c := loaded(m.objects()...)
	// An event about a pod listed before the pod itself is kept until it
	// arrives.
	late := warning("late.1", "frontend-v2-z", "BackOff", "Back-off restarting failed container web", 1, 13)
	c.Apply(cluster.Batch{At: at(13), Objects: []runtime.Object{late}, Watch: synced})
	c.Apply(cluster.Batch{At: at(14), Watch: synced, Objects: []runtime.Object{
		warning("a.1", "frontend-v2-a", "BackOff", "Back-off restarting failed container web", 3, 14),
		warning("b.1", "frontend-v2-b", "BackOff", "Back-off restarting failed container web", 2, 14),
		func() *corev1.Event {
			e := event("a.2", "Pod", "frontend-v2-a", "Pulled", "Successfully pulled image", 1, at(14))
			return e
		}(),
		warning("x.1", "elsewhere-1", "BackOff", "not ours", 9, 14),
	}})
	z := runningPod(m.newRS, "z", "node-3")
	z.ResourceVersion = "1"
	c.Apply(cluster.Batch{At: at(15), Objects: []runtime.Object{z}, Watch: synced})

	var pods []string
	for _, e := range c.Timeline(shop, "frontend") {
		if strings.HasPrefix(e.Object, "pod/") {
			pods = append(pods, e.Message)
			if !e.Warning || e.Kind != cluster.TimelineEvent {
				t.Errorf("pod line %+v is not a warning event", e)
			}
		}
	}
	want := []string{"BackOff: Back-off restarting failed container web (x6 on 3 pods)"}
	if strings.Join(pods, "\n") != strings.Join(want, "\n") {
		t.Errorf("pod lines on the timeline:\n got %q\nwant %q", pods, want)
	}

	// The same event counted again moves the line and updates its count.
	c.Apply(cluster.Batch{At: at(20), Objects: []runtime.Object{
		warning("a.1", "frontend-v2-a", "BackOff", "Back-off restarting failed container web", 7, 20),
	}, Watch: synced})
	tl := c.Timeline(shop, "frontend")
	last := tl[len(tl)-1]
	if last.Message != "BackOff: Back-off restarting failed container web (x10 on 3 pods)" || !last.Time.Equal(at(20)) {
		t.Errorf("after a recount the last line is %q at %v, want the BackOff line at x10 at minute 20", last.Message, last.Time)
	}
	n := 0
	for _, e := range tl {
		if strings.HasPrefix(e.Message, "BackOff") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d BackOff lines on the timeline, want one", n)
	}
}
