package console

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// watchFlow: the console shows a live deployment, and a rollout someone
// else starts with kubectl, from the new ReplicaSet's first pod to
// "successfully rolled out".
func watchFlow(t *testing.T, c *cluster) {
	r := rollout{namespace: "watch", name: "web", replicas: 4, image: "e2e.example/web:v1"}
	c.create(t, r)
	old := c.newReplicaSet(t, r.namespace, r.name, r.image)
	s := c.console(t, c.CP.AdminKubeconfig, r.namespace, r.name)
	s.WaitUntil("revision 1 with 4 ready pods", wantRow(old, "stable", 4))
	screen := s.WaitFor("successfully rolled out")
	for _, want := range []string{"ctx rollscope-e2e-admin", "ns watch", "deploy web", "rev 1", "maxSurge 1", "maxUnavailable 0", "hollow-0"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the console lacks %q:\n%s", want, screen)
		}
	}
	pods, err := c.Admin.CoreV1().Pods(r.namespace).List(t.Context(), metav1.ListOptions{LabelSelector: "app=web"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pods.Items {
		if !strings.Contains(screen, p.Name) {
			t.Errorf("the console does not list pod %s:\n%s", p.Name, screen)
		}
	}

	c.setImage(t, r.namespace, r.name, "e2e.example/web:v2")
	hash := c.newReplicaSet(t, r.namespace, r.name, "e2e.example/web:v2")
	// One pod at a time: the new ReplicaSet grows step by step while the
	// surge budget is used up.
	var steps []int
	surgeFull := false
	wrongRole := ""
	s.WaitUntil("the new ReplicaSet at 4 ready pods", func(screen string) bool {
		role, counts, ok := rsRow(screen, hash)
		if !ok {
			return false
		}
		if role != "new" && role != "stable" && wrongRole == "" {
			wrongRole = role + " in:\n" + screen
		}
		if len(steps) == 0 || steps[len(steps)-1] != counts[0] {
			steps = append(steps, counts[0])
		}
		surgeFull = surgeFull || strings.Contains(screen, "surge") && strings.Contains(screen, "5/5 full")
		return counts == [4]int{4, 4, 4, 4}
	})
	if wrongRole != "" {
		t.Errorf("the new ReplicaSet %s was shown as %s", hash, wrongRole)
	}
	for i := 1; i < len(steps); i++ {
		if steps[i] < steps[i-1] {
			t.Errorf("the new ReplicaSet shrank on screen: desired sizes %v", steps)
		}
	}
	if len(steps) < 3 {
		t.Errorf("the new ReplicaSet did not visibly grow one pod at a time: desired sizes %v", steps)
	}
	if !surgeFull {
		t.Errorf("the surge bar never showed the budget used up (5/5 full) during the rollout")
	}
	s.WaitUntil("the old ReplicaSet scaled to 0", wantRow(old, "old", 0))
	screen = s.WaitFor("successfully rolled out")
	if !strings.Contains(screen, "rev 2") {
		t.Errorf("the finished rollout is not on revision 2:\n%s", screen)
	}
	c.waitRolledOut(t, r.namespace, r.name, "e2e.example/web:v2")
	sizes, err := c.replicaSets(t.Context(), r.namespace, r.name)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(sizes); got != fmt.Sprint(map[string]int32{hash: 4, old: 0}) {
		t.Errorf("the API has ReplicaSets %s, the console showed %s at 4 and %s at 0", got, hash, old)
	}

	// A pod's detail shows the scheduler's Normal event about it, which
	// the console watches for the pod described alone (the API server's
	// field selectors); esc closes it.
	s.Keys("Tab", "Enter")
	s.WaitMatch(regexp.MustCompile(`Normal   Scheduled .* Successfully assigned watch/web-` + hash + `-\w+ to hollow-`))
	s.Keys("Escape")
	s.WaitFor("successfully rolled out")
}
