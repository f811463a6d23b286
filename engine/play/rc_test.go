package play_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/engine/trace"
	"rollscope/kube/memapi"
	"rollscope/model"
)

// The legacy-rc scenarios' controller web: 4 replicas, updated from
// oldImage to newImage with kubectl's maxSurge 1.
const (
	oldImage = "nginx:1.25"
	newImage = "nginx:1.27"
	replicas = 4
	maxSurge = 1
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// traceLine is the part of a JSONL trace line these tests read.
type traceLine struct {
	T       float64 `json:"t"`
	Type    string  `json:"type"`
	Name    string  `json:"name"`
	Spec    int32   `json:"spec"`
	Action  string  `json:"action"`
	Result  string  `json:"result"`
	Reason  string  `json:"reason"`
	Deleted bool    `json:"deleted"`
}

// simulate plays a scenario file as `rollscope simulate` does and returns
// the cluster and its trace.
func simulate(t *testing.T, file string) (*embedded.Cluster, []traceLine) {
	t.Helper()
	sc, err := scenario.Load(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
	var out bytes.Buffer
	tw := trace.New(&out, trace.JSONL, epoch, sc.NodeGroups)
	c, err := embedded.Start(context.Background(), api, clock, sc, embedded.Options{
		Observers: []sim.Observer{tw.Observe},
		OnAction:  tw.Action,
	})
	if err != nil {
		t.Fatal(err)
	}
	reason, err := c.Run(context.Background(), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	tw.End(clock.Now(), reason)
	if err := tw.Flush(); err != nil {
		t.Fatal(err)
	}
	var lines []traceLine
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var tl traceLine
		if err := json.Unmarshal([]byte(l), &tl); err != nil {
			t.Fatalf("trace line %q: %v", l, err)
		}
		lines = append(lines, tl)
	}
	return c, lines
}

// onlyWeb checks the run ended with web alone, at full size on image.
func onlyWeb(t *testing.T, c *embedded.Cluster, image string) {
	t.Helper()
	ctx := context.Background()
	rcs, err := c.Client.CoreV1().ReplicationControllers("default").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rcs.Items) != 1 || rcs.Items[0].Name != "web" {
		t.Fatalf("controllers at the end: %+v, want web alone", rcs.Items)
	}
	rc := rcs.Items[0]
	if got := rc.Spec.Template.Spec.Containers[0].Image; got != image || *rc.Spec.Replicas != replicas || rc.Status.ReadyReplicas != replicas || model.RCUpdating(&rc) {
		t.Errorf("web at the end: image %s, size %d, ready %d, annotations %v; want %s at %d, all ready, no update left", got, *rc.Spec.Replicas, rc.Status.ReadyReplicas, rc.Annotations, image, replicas)
	}
	pods, err := c.Client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pods.Items {
		if owner := metav1.GetControllerOf(&p); owner == nil || owner.UID != rc.UID || p.Spec.Containers[0].Image != image {
			t.Errorf("pod %s is not web's on %s: owner %v, image %s", p.Name, image, owner, p.Spec.Containers[0].Image)
		}
	}
}

// sizes follows every controller's spec.replicas through the trace, checks
// that the pods asked for never exceed replicas + maxSurge, and returns each
// controller's sizes in order.
func sizes(t *testing.T, lines []traceLine) map[string][]int32 {
	t.Helper()
	out := map[string][]int32{}
	current := map[string]int32{}
	for _, l := range lines {
		if l.Type != "replicationcontroller" {
			continue
		}
		if l.Deleted {
			delete(current, l.Name)
			continue
		}
		if s := out[l.Name]; len(s) == 0 || s[len(s)-1] != l.Spec {
			out[l.Name] = append(s, l.Spec)
		}
		current[l.Name] = l.Spec
		var sum int32
		for _, n := range current {
			sum += n
		}
		if sum > replicas+maxSurge {
			t.Errorf("at %.1fs the controllers ask for %d pods, more than replicas + maxSurge = %d: %v", l.T, sum, replicas+maxSurge, current)
		}
	}
	return out
}

func TestScriptedSetImageRunsTheRollingUpdate(t *testing.T) {
	c, lines := simulate(t, "legacy-rc-setimage.yaml")
	onlyWeb(t, c, newImage)
	if got := actionResults(lines); got != "setImage ok" {
		t.Errorf("actions in the trace: %s, want the setImage, ok", got)
	}
	s := sizes(t, lines)
	var next string
	for name := range s {
		if strings.HasPrefix(name, "web-") {
			next = name
		}
	}
	// The next controller grows one pod at a time to 4 while web shrinks,
	// then web is recreated from it (at 0, then 4).
	if got := s[next]; len(got) != replicas+1 || got[0] != 0 || got[replicas] != replicas {
		t.Errorf("next controller %q sizes %v, want 0 1 2 3 4", next, got)
	}
	if got := s["web"]; len(got) < 2 || got[0] != replicas || got[len(got)-1] != replicas || !contains(got, 0) {
		t.Errorf("web sizes %v, want 4 down to 0, then the renamed copy back at 4", got)
	}
}

func TestScriptedAbortGoesBack(t *testing.T) {
	c, lines := simulate(t, "legacy-rc-abort.yaml")
	onlyWeb(t, c, oldImage)
	if got := actionResults(lines); got != "setImage ok;abort ok" {
		t.Errorf("actions in the trace: %s, want setImage and abort, both ok", got)
	}
	s := sizes(t, lines)
	web := s["web"]
	if len(web) < 3 || web[len(web)-1] != replicas || web[1] >= replicas {
		t.Errorf("web sizes %v, want it to shrink during the update and grow back to %d", web, replicas)
	}
}

// actionResults are the trace's action lines, "kind result;…".
func actionResults(lines []traceLine) string {
	var out []string
	for _, l := range lines {
		if l.Type == "action" {
			out = append(out, l.Action+" "+l.Result)
		}
	}
	return strings.Join(out, ";")
}

func contains(s []int32, v int32) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
